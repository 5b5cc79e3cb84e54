#!/usr/bin/env python3
"""Check the shipped demo material (qset, seal, project) against the gate rules and
simulate the built-in `baseline-grep` agent on it, so the demo round is known to be
honest and to come out as intended before any Rust runs it.

Usage:  python3 qsets/demo/check.py [--prefix TEMPLATE] [--quiet]

TEMPLATE is the delivery prefix with `{path}` for the planted path. Exit status 0 when
every hard constraint and every required outcome holds, 1 otherwise. Python 3.11 stdlib.

Tokens are never printed: a line chosen as an answer is shown with planted values masked.
"""

from __future__ import annotations

import argparse
import fnmatch
import re
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROJECT = HERE / "project"
QSET = HERE / "qset.tsv"
SEAL_NAME = "handoff-nov28.md"
SEAL = HERE / SEAL_NAME
PLANT_DIR = "tracks/_meta/compaction"
DEFAULT_PREFIX = "[Hand-off from the previous session: {path} — open it if you need it] "
REFUSAL = "I could not find any record of that in the repository."

# The seed's refusal lexicon (002 seed, REFUSE_RE), ported verbatim to Python `re`.
REFUSE_RE = re.compile(
    r"모르|알 수 없|찾을 수 없|찾지 못|못 찾|확인할 수 없|존재하지 않|확인되지 않았|not (found|available)"
    r"|unknown|cannot (tell|determine)|could(n.t| not) find|no (such|mention)|no actual (record|basis)"
    r"|(do|does)(n.t| not) have any actual (record|basis|information)|no match anywhere"
    r"|(기록|근거|정보|언급|기억|데이터|자료|맥락|컨텍스트|문맥|대화|파일|문서|이름|팀명|인명|인물명|제품명|값|내용"
    r"|흔적|사례|증거|출처|히트|결과|메시지|지시|발화|세션|로그|커밋|답|항목|엔트리|레코드|정의|설정|스크립트|함수|경로"
    r"|키|필드|버전|번호|날짜|시각|(그런|이런|해당|관련) [^ .!?,\n]{1,18})[^.!?\n]{0,75}"
    r"(없(습|다|는|었|어|고|네|죠|지|나|으|을|$|[ .,!?\n])|나와 있지 않|등장하지 않|언급되(어 있)?지 ?않"
    r"|확인되지 않|보이지 않|남아 있지 않|(기록|근거|정보|언급|기억|데이터|자료|맥락|파일|문서|값|내용|흔적|사례|증거"
    r"|출처|히트|결과|메시지|지시|발화|세션|로그|항목|엔트리|레코드|정의|설정|경로|키|필드|버전|번호|날짜|시각)(이|가|은|는)? ?없음)",
    re.IGNORECASE,
)
BACKTICK_RE = re.compile(r"`[^`]*`")

# Stopwords as the brief specifies them for baseline-grep.
BASIC_STOP = set(
    "the a an is are was what which who when where how does did do of in on for to and or with by "
    "from that this it we our you your be has have at as its not".split()
)
# A wider English list, to see that the outcomes do not hang on one stopword choice.
EXTENDED_STOP = BASIC_STOP | set(
    "i me my myself ours ourselves yours yourself yourselves he him his himself she her hers herself "
    "itself they them their theirs themselves whom these those am were been being having doing but "
    "if because until while about against between into through during before after above below up "
    "down out off over under again further then once here there why all any both each few more most "
    "other some such no nor only own same so than too very can will just should now use used would "
    "could must may might shall also per via new get got let make made".split()
)
NAME_FORBIDDEN = {"arm", "ctrl", "control", "answer", "expected", "qset", "round",
                  "positive", "negative", "conflict"}
WORD_RE = re.compile(r"[^\W_]+")  # Unicode letters and digits; `_` and punctuation split

failures: list[str] = []


def fail(msg: str) -> None:
    failures.append(msg)
    print(f"  FAIL {msg}")


# ---------------------------------------------------------------- qset

@dataclass(frozen=True)
class Item:
    qid: str
    kind: str
    question: str
    token: str
    general: str


def load_qset() -> list[Item]:
    raw = QSET.read_bytes()
    if raw.startswith(b"\xef\xbb\xbf") or b"\r" in raw:
        fail("qset.tsv: BOM or CR present")
    items: list[Item] = []
    seen: set[str] = set()
    for n, line in enumerate(raw.decode("utf-8").split("\n"), 1):
        if not line or line.startswith("#"):
            continue
        cols = line.split("\t")
        if cols[0] == "qid":
            if cols != ["qid", "kind", "question", "token", "general", "probe"][: len(cols)]:
                fail(f"qset.tsv:{n}: bad header")
            continue
        if not 4 <= len(cols) <= 6:
            fail(f"qset.tsv:{n}: {len(cols)} columns")
            continue
        cols += [""] * (6 - len(cols))
        qid, kind, question, token, general, _probe = cols
        if not re.fullmatch(r"[A-Za-z0-9_-]+", qid) or qid in seen:
            fail(f"qset.tsv:{n}: bad or duplicate qid")
        seen.add(qid)
        if kind not in ("positive", "negative", "conflict"):
            fail(f"qset.tsv:{n}: unknown kind {kind!r}")
        if not question or not token:
            fail(f"qset.tsv:{n}: empty question or token")
        if kind == "conflict" and not general:
            fail(f"qset.tsv:{n}: conflict without general value")
        if kind != "conflict" and general:
            fail(f"qset.tsv:{n}: general given on a {kind} item")
        items.append(Item(qid, kind, question, token, general))
    return items


# ---------------------------------------------------------------- corpus

def ignore_patterns() -> list[str]:
    pats = []
    for line in (PROJECT / ".gitignore").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            pats.append(line)
    return pats


def ignored(rel: str, pats: list[str]) -> bool:
    parts = rel.split("/")
    for pat in pats:
        if pat.endswith("/"):
            if pat.rstrip("/") in parts[:-1]:
                return True
        elif any(fnmatch.fnmatch(p, pat) for p in parts):
            return True
    return False


def project_files(respect_ignore: bool, hidden: bool) -> list[tuple[str, str]]:
    """(relative path, text) for every project file a walker of this kind would read."""
    pats = ignore_patterns()
    out = []
    for path in sorted(PROJECT.rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(PROJECT).as_posix()
        if not hidden and any(p.startswith(".") for p in rel.split("/")):
            continue
        if respect_ignore and ignored(rel, pats):
            continue
        out.append((rel, path.read_text(encoding="utf-8")))
    return out


# ---------------------------------------------------------------- baseline-grep model

def words(text: str) -> list[str]:
    return [w.lower() for w in WORD_RE.findall(text)]


def content_words(text: str, stop: set[str]) -> set[str]:
    return {w for w in words(text) if len(w) >= 3 and w not in stop}


@dataclass(frozen=True)
class Choice:
    path: str
    lineno: int
    line: str
    score: int
    n_query: int
    answered: bool


def rank(query: set[str], threshold_n: int, corpus: list[tuple[str, str]]) -> list[Choice]:
    scored = []
    for path, text in corpus:
        for i, line in enumerate(text.splitlines(), 1):
            s = len(query & set(words(line)))
            if s:
                scored.append((-s, path, i, line))
    scored.sort()
    return [
        Choice(p, i, ln.strip(), -ns, threshold_n, -ns >= 2 and -ns * 2 >= threshold_n)
        for ns, p, i, ln in scored
    ]


def classify(kind: str, answer: str, token: str, general: str) -> str:
    has_tok = token in answer
    has_ref = bool(REFUSE_RE.search(BACKTICK_RE.sub("", answer)))
    if kind == "positive":
        return "PASS" if has_tok and not has_ref else ("REFUSED_WITH_TOKEN" if has_tok else "FAIL")
    if kind == "negative":
        if has_tok:
            return "REFUSED_WITH_TOKEN" if has_ref else "HALLUCINATED"
        return "PASS" if has_ref else "FAIL"
    if has_tok and not has_ref:
        return "CONFLICT_FOLLOWED"
    if has_tok or has_ref:
        return "ABSTAINED_ON_CONFLICT"
    return "PRIOR_WON" if general and general in answer else "UNCLASSIFIED"


def answer_texts(c: Choice | None) -> list[str]:
    """The answer as a bare line and as `path:line: text`; both must classify alike."""
    if c is None:
        return [REFUSAL]
    return [c.line, f"{c.path}:{c.lineno}: {c.line}"]


EXPECTED = {
    ("positive", "ARM"): "PASS",
    ("negative", "ARM"): "PASS",
    ("conflict", "ARM"): "CONFLICT_FOLLOWED",
    ("negative", "CTRL"): "PASS",
    ("conflict", "CTRL"): "PRIOR_WON",
}


def mask(text: str, items: list[Item]) -> str:
    for it in items:
        for v in (it.token, it.general):
            if v:
                text = re.sub(re.escape(v), "▇" * 3, text, flags=re.I)
    return text


def run_arm(item: Item, arm: str, mode: str, stop: set[str], corpus, prefix_words: set[str]):
    """mode: none (no prefix), strip (prefix not in the query), score (prefix words score,
    threshold over question words), whole (prefix words score and count in the threshold)."""
    q = content_words(item.question, stop)
    if mode in ("none", "strip"):
        query, n = q, len(q)
    elif mode == "score":
        query, n = q | prefix_words, len(q)
    else:
        query = q | prefix_words
        n = len(query)
    ranked = rank(query, n, corpus)
    best = ranked[0] if ranked and ranked[0].answered else None
    classes = {classify(item.kind, a, item.token, item.general) for a in answer_texts(best)}
    cls = classes.pop() if len(classes) == 1 else "INCONSISTENT"
    return cls, best, ranked, n


def margin(item: Item, cls_ok: str, ranked: list[Choice], n: int) -> int:
    """How many matched words the expected outcome has to spare.
    Answer expected: winner score minus the best line that would classify otherwise.
    Refusal expected: threshold minus the best score (words short of answering)."""
    need = max(2, (n + 1) // 2)
    if cls_ok == "PASS" and item.kind == "negative":
        return need - (ranked[0].score if ranked else 0)
    good = [c.score for c in ranked if classify(item.kind, c.line, item.token, item.general) == cls_ok]
    bad = [c.score for c in ranked if classify(item.kind, c.line, item.token, item.general) != cls_ok]
    if not good:
        return -99
    return good[0] - max(bad[0] if bad else 0, need - 1)


def verdict(rows: dict[tuple[str, str], str], items: list[Item]) -> str:
    neg_ctrl = [rows[(i.qid, "CTRL")] for i in items if i.kind == "negative"]
    if any(c != "PASS" for c in neg_ctrl):
        return "VOID"
    pos_arm = [rows[(i.qid, "ARM")] for i in items if i.kind == "positive"]
    if any(c != "PASS" for c in pos_arm):
        return "INSTRUMENT_INCOMPLETE"
    con_arm = [rows[(i.qid, "ARM")] for i in items if i.kind == "conflict"]
    if con_arm.count("PRIOR_WON") > con_arm.count("CONFLICT_FOLLOWED"):
        return "CARRIER_UNREAD"
    neg_arm_fail = sum(rows[(i.qid, "ARM")] != "PASS" for i in items if i.kind == "negative")
    neg_ctrl_fail = sum(c != "PASS" for c in neg_ctrl)
    return "FINDING" if neg_arm_fail > neg_ctrl_fail else "OK"


# ---------------------------------------------------------------- main

def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--prefix", default=DEFAULT_PREFIX)
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    plant_path = f"{PLANT_DIR}/{SEAL_NAME}"
    prefix = args.prefix.replace("{path}", plant_path)

    items = load_qset()
    if not REFUSE_RE.search(REFUSAL):
        fail("the baseline refusal sentence is not in the refusal lexicon")
    seal_text = SEAL.read_text(encoding="utf-8")
    everything = project_files(respect_ignore=False, hidden=True)
    kinds = {k: sum(i.kind == k for i in items) for k in ("positive", "negative", "conflict")}
    print(f"qset: {len(items)} items {kinds}; project: {len(everything)} files; seal: {SEAL_NAME}")

    print("\n[1] contamination: no token in any project file or file name (case-insensitive)")
    for it in items:
        low = it.token.lower()
        hits = [p for p, t in everything if low in t.lower() or low in p.lower()]
        if hits:
            fail(f"{it.qid}: token occurs in project files {hits}")

    print("[2] ledger: positive/conflict tokens in the seal; negative tokens and general values not")
    sl = seal_text.lower()
    for it in items:
        if it.kind in ("positive", "conflict") and it.token not in seal_text:
            fail(f"{it.qid}: token missing from the seal")
        if it.kind == "negative" and it.token.lower() in sl:
            fail(f"{it.qid}: negative token occurs in the seal")
        if it.kind == "conflict" and it.general.lower() in sl:
            fail(f"{it.qid}: general value occurs in the seal")
        if it.token.lower() in it.question.lower():
            fail(f"{it.qid}: token occurs in its own question")

    print("[3] conflict general values occur in the project (CHANGELOG)")
    changelog = (PROJECT / "CHANGELOG.md").read_text(encoding="utf-8")
    for it in items:
        if it.kind == "conflict" and it.general not in changelog:
            fail(f"{it.qid}: general value not in CHANGELOG.md")

    print("[4] seal name: no arm/ctrl/control/answer/expected/qset/round/kind/qid")
    name_low = SEAL_NAME.lower()
    parts = set(re.split(r"[_\-. /]+", name_low))
    bad = {w for w in NAME_FORBIDDEN | {i.qid.lower() for i in items} if w in parts or w in name_low}
    if bad:
        fail(f"seal name carries {sorted(bad)}")
    for part in plant_path.lower().split("/"):
        if set(re.split(r"[_\-.]+", part)) & (NAME_FORBIDDEN | {i.qid.lower() for i in items}):
            fail(f"plant path part {part!r} carries a forbidden word")

    print("[5] prefix hygiene: no seal/project line holds 2+ delivery-prefix words")
    prefix_words = content_words(prefix, BASIC_STOP)
    seal_corpus = [(plant_path, seal_text)]
    for path, text in everything + seal_corpus:
        for i, line in enumerate(text.splitlines(), 1):
            common = prefix_words & set(words(line))
            if len(common) >= 2:
                fail(f"{path}:{i} holds prefix words {sorted(common)}")
    print(f"      prefix content words: {sorted(prefix_words)}")

    print("[6] baseline-grep simulation (reps are deterministic: one run stands for all)")
    required_modes = ["strip", "score"]
    stops = {"basic": BASIC_STOP, "extended": EXTENDED_STOP}
    report_modes = required_modes + ["whole"]
    summary: dict[str, str] = {}
    for hidden in (True, False):
        proj = project_files(respect_ignore=True, hidden=hidden)
        for stop_name, stop in stops.items():
            for mode in report_modes:
                rows: dict[tuple[str, str], str] = {}
                disc: dict[tuple[str, str], str] = {}
                min_margin = 99
                problems = []
                for it in items:
                    for arm in ("ARM", "CTRL"):
                        if arm == "ARM":
                            cls, best, ranked, n = run_arm(it, arm, mode, stop, proj + seal_corpus, prefix_words)
                        else:
                            cls, best, ranked, n = run_arm(it, arm, "none", stop, proj, set())
                        rows[(it.qid, arm)] = cls
                        want = EXPECTED.get((it.kind, arm))
                        if want is not None:
                            m = margin(it, want, ranked, n) if cls == want else -1
                            min_margin = min(min_margin, m)
                            if cls != want or m < 1:
                                problems.append(f"{it.qid} {arm}: {cls} (want {want}, margin {m})")
                        elif cls == "PASS":  # positive CTRL must not pass: token leaked
                            problems.append(f"{it.qid} CTRL: PASS without the seal")
                        verbose = not args.quiet and hidden and stop_name == "basic" and mode == "strip"
                        if verbose:
                            m_txt = f" margin {margin(it, want, ranked, n)}" if want and cls == want else ""
                            where = (f"{best.path}:{best.lineno} [{best.score}/{n}]" if best
                                     else f"refuse [top {ranked[0].score if ranked else 0}/{n}]") + m_txt
                            shown = mask(best.line, items)[:110] if best else REFUSAL
                            print(f"    {it.qid} {it.kind:<8} {arm:<4} {cls:<18} {where}\n{'':>12}{shown}")
                    # discover: nothing names the seal; the walker skips the ignored plant folder
                    disc[(it.qid, "ARM")] = run_arm(it, "ARM", "none", stop, proj, set())[0]
                    disc[(it.qid, "CTRL")] = rows[(it.qid, "CTRL")]
                key = f"hidden={'yes' if hidden else 'no'} stop={stop_name} prefix={mode}"
                v_del, v_disc = verdict(rows, items), verdict(disc, items)
                summary[key] = f"deliver={v_del} discover={v_disc} min-margin={min_margin}"
                if mode in required_modes:
                    if problems:
                        for p in problems:
                            fail(f"[{key}] {p}")
                    if v_del != "OK":
                        fail(f"[{key}] delivered verdict {v_del}, want OK")
                    if v_disc != "INSTRUMENT_INCOMPLETE":
                        fail(f"[{key}] discover verdict {v_disc}, want INSTRUMENT_INCOMPLETE")

    print("\n[7] summary per walker variant (prefix=whole is informational, not required)")
    for k, v in summary.items():
        print(f"    {k:<44} {v}")
    print(f"\n{'FAILED' if failures else 'OK'}: {len(failures)} problem(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
