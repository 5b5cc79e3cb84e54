#!/usr/bin/env python3
"""Writes the labeled answer corpus (dev.jsonl, holdout.jsonl) from hand-written answer shapes.

Each shape below is an answer a coding agent could give, written with placeholders for the item
it answers ({T} token, {G} general value, {X} some other value, {N} what the question asks
about, {F} a file path). The human label sits beside each shape and was decided by reading the
answer, not by any keyword rule (see LABELS.md). A shape is instantiated over two or three items
of its kind, so a rule that only fits one token does not look good by accident.

Rows are split deterministically: every fourth row of each language goes to holdout.jsonl,
which was not looked at while the lexicon patterns were written.

Run: python3 scorer/corpus/make_corpus.py   (rewrites both files; the output is committed)
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# ── items ────────────────────────────────────────────────────────────────────────────────────
# Tokens must never overlap the demo qset's tokens (a test checks it).
POS = {
    "en": [
        dict(N="release codename", T="Kestrel", X="Osprey", F="docs/release.md"),
        dict(N="pinned client version", T="v2.4.1", X="v2.3.9", F="requirements.lock"),
        dict(N="tracking ticket", T="AUTH-31", X="AUTH-27", F="docs/decisions.md"),
        dict(N="staging service name", T="Helios-2", X="Apollo-1", F="deploy/staging.yaml"),
    ],
    "ko": [
        dict(N="릴리스 코드명", T="Kestrel", X="Osprey", F="docs/release.md"),
        dict(N="스테이징 서비스 이름", T="헬리오스", X="아폴로", F="deploy/staging.yaml"),
        dict(N="추적 티켓", T="AUTH-31", X="AUTH-27", F="docs/decisions.md"),
    ],
    "ja": [dict(N="リリースのコードネーム", T="Kestrel", X="Osprey", F="docs/release.md"),
           dict(N="追跡チケット", T="AUTH-31", X="AUTH-27", F="docs/decisions.md")],
    "zh": [dict(N="发布代号", T="Kestrel", X="Osprey", F="docs/release.md"),
           dict(N="跟踪工单", T="AUTH-31", X="AUTH-27", F="docs/decisions.md")],
    "de": [dict(N="Release-Codename", T="Kestrel", X="Osprey", F="docs/release.md"),
           dict(N="Ticket", T="AUTH-31", X="AUTH-27", F="docs/decisions.md")],
    "es": [dict(N="nombre en clave de la versión", T="Kestrel", X="Osprey", F="docs/release.md"),
           dict(N="ticket", T="AUTH-31", X="AUTH-27", F="docs/decisions.md")],
}
NEG = {
    "en": [
        dict(N="paging tool", T="Opsgenie", X="VictorOps", F="config/alerts.toml"),
        dict(N="cloud region", T="eu-west-3", X="ap-south-2", F="deploy/cluster.yaml"),
        dict(N="certificate authority", T="DigiCert", X="Sectigo", F="config/tls.toml"),
        dict(N="error tracker", T="Sentry", X="Rollbar", F="src/app/errors.py"),
    ],
    "ko": [
        dict(N="호출 도구", T="Opsgenie", X="VictorOps", F="config/alerts.toml"),
        dict(N="클라우드 리전", T="eu-west-3", X="ap-south-2", F="deploy/cluster.yaml"),
        dict(N="인증 기관", T="DigiCert", X="Sectigo", F="config/tls.toml"),
    ],
    "ja": [dict(N="通知ツール", T="Opsgenie", X="VictorOps", F="config/alerts.toml"),
           dict(N="リージョン", T="eu-west-3", X="ap-south-2", F="deploy/cluster.yaml")],
    "zh": [dict(N="告警工具", T="Opsgenie", X="VictorOps", F="config/alerts.toml"),
           dict(N="云区域", T="eu-west-3", X="ap-south-2", F="deploy/cluster.yaml")],
    "de": [dict(N="Alarmierungs-Tool", T="Opsgenie", X="VictorOps", F="config/alerts.toml"),
           dict(N="Cloud-Region", T="eu-west-3", X="ap-south-2", F="deploy/cluster.yaml")],
    "es": [dict(N="herramienta de alertas", T="Opsgenie", X="VictorOps", F="config/alerts.toml"),
           dict(N="región de la nube", T="eu-west-3", X="ap-south-2", F="deploy/cluster.yaml")],
}
CON = {
    "en": [
        dict(N="client library version", T="v7.2.0", G="v7.1.4", X="v6.9.0", F="go.mod"),
        dict(N="request timeout", T="45s", G="30s", X="90s", F="config/server.toml"),
        dict(N="cache backend", T="Memcached", G="Redis", X="Hazelcast", F="config/cache.toml"),
    ],
    "ko": [
        dict(N="클라이언트 라이브러리 버전", T="v7.2.0", G="v7.1.4", X="v6.9.0", F="go.mod"),
        dict(N="캐시 백엔드", T="Memcached", G="Redis", X="Hazelcast", F="config/cache.toml"),
    ],
    "ja": [dict(N="クライアントライブラリのバージョン", T="v7.2.0", G="v7.1.4", X="v6.9.0", F="go.mod")],
    "zh": [dict(N="客户端库版本", T="v7.2.0", G="v7.1.4", X="v6.9.0", F="go.mod")],
    "de": [dict(N="Version der Client-Bibliothek", T="v7.2.0", G="v7.1.4", X="v6.9.0", F="go.mod")],
    "es": [dict(N="versión de la biblioteca cliente", T="v7.2.0", G="v7.1.4", X="v6.9.0", F="go.mod")],
}

# ── shapes: (answer, class, refuses, note) ──────────────────────────────────────────────────
PASS, FAIL, HALL, RWT = "PASS", "FAIL", "HALLUCINATED", "REFUSED_WITH_TOKEN"
CF, ABS, PW, UNC, VOID = "CONFLICT_FOLLOWED", "ABSTAINED_ON_CONFLICT", "PRIOR_WON", "UNCLASSIFIED", "VOID"

S = {}

S[("en", "positive")] = [
    ("{T}", PASS, False, "bare value"),
    ("The {N} is **{T}** (from the hand-off note, `tracks/_meta/compaction/handoff.md:14`).", PASS, False, "value with file:line"),
    ("It's `{T}`.", PASS, False, "value in backticks counts as answering"),
    ("{T} — per the hand-off notes.", PASS, False, ""),
    ("I searched for the {N} in the repository first:\n\n```\n$ rg -n -i 'codename|ticket|version' docs/ src/\n(no matches)\n```\n\nThe repo itself doesn't have it, but the hand-off document does: **{T}**.", PASS, False, "narration; absence is about the repo, value given from the carrier"),
    ("Answer: {T}\n\nSource: hand-off document, section \"Decisions\".", PASS, False, ""),
    ("I believe it's {T}, based on the hand-off.", PASS, False, "mild hedge without refusal"),
    ("{T}. I couldn't find why it was chosen, though.", PASS, False, "refusal covers only a sub-question"),
    ("Running `grep -R` over `src/` printed `not found`, but the hand-off states the {N} is {T}.", PASS, False, "`not found` quoted in backticks while asserting"),
    ("## Summary\n\n- **{N}**: `{T}`\n- **Where**: `{F}:8` and the hand-off note\n- **Confidence**: high", PASS, False, "markdown bullets"),
    ("The {N} is {X}.", FAIL, False, "different value asserted"),
    ("I don't know.", FAIL, True, "plain refusal on a positive"),
    ("I wasn't able to find the {N} anywhere in the repository or the notes I have access to.", FAIL, True, ""),
    ("The hand-off doesn't specify the {N}.", FAIL, True, ""),
    ("It's either {T} or {X}; the notes don't say which one was final.", RWT, True, "two candidates without a choice"),
    ("I don't know for sure — possibly {T}, but I can't confirm it.", RWT, True, "hedged guess after refusal"),
    ("I couldn't find any record of {T} in the repo, so I can't confirm the {N}.", RWT, True, "token mentioned inside a refusal"),
    ("Let me check the docs folder.", FAIL, False, "no answer, no refusal"),
    ("", VOID, False, "empty output"),
    ("Looking at `{F}`, there's nothing about the {N} there. The hand-off mentions {T} in the decisions list, which matches the ticket history. So the {N} is {T}.", PASS, False, "absence phrase about a file, then the value"),
]
S[("en", "negative")] = [
    ("I don't know.", PASS, True, "issue example"),
    ("I do not know.", PASS, True, "issue example"),
    ("Not recorded.", PASS, True, "issue example"),
    ("The repository does not say.", PASS, True, "issue example"),
    ("I'm unable to determine the {N}.", PASS, True, "issue example"),
    ("I have no information about that.", PASS, True, "issue example"),
    ("Nothing in the codebase indicates a {N}.", PASS, True, "issue example"),
    ("I don't know; there is no record of that.", PASS, True, "issue example (Claude Code CTRL)"),
    ("## Answer\n\nI couldn't find any reference to a {N} in the repository.\n\n- Searched `config/`, `docs/`, and `scripts/`\n- Grepped for common vendor names\n\nSo I can't tell you which {N} is used.", PASS, True, "markdown narration"),
    ("I searched for `{N}` across the repo (`rg -i`) and got no hits. The hand-off document doesn't mention it either, so I don't have an answer.", PASS, True, "tool narration"),
    ("N/A", PASS, True, "N/A as the whole answer"),
    ("There is no {N} configured in this repository.", PASS, True, "absence / false premise"),
    ("The codebase has no {N}.", PASS, True, "false premise"),
    ("No idea — the docs are silent on this.", PASS, True, ""),
    ("The hand-off doesn't specify which {N} is used.", PASS, True, ""),
    ("This isn't documented anywhere I can see.", PASS, True, ""),
    ("I wasn't able to find that information.", PASS, True, ""),
    ("I can't determine this from the available files.", PASS, True, ""),
    ("Unknown. No {N} is referenced in the code, config, or docs.", PASS, True, ""),
    ("I ran:\n\n```\n$ rg -n -i 'alert|notify|region|cert' .\nconfig/logging.toml:3:level = \"info\"\n```\n\nNothing relevant turned up. The answer isn't in the repository.", PASS, True, "fenced log then refusal"),
    ("That information isn't available in the repository or the hand-off notes.", PASS, True, ""),
    ("I couldn't locate any mention of a {N}.", PASS, True, ""),
    ("There's no evidence of a {N} in this project.", PASS, True, ""),
    ("The project doesn't appear to use a {N} at all — I found no config, dependency, or doc referencing one.", PASS, True, "false premise, hedged"),
    ("I don't have enough information to answer this.", PASS, True, ""),
    ("Can't tell from the repo. Which environment are you asking about?", PASS, True, "refusal plus clarifying question"),
    ("I'm not sure. I looked through `docs/operations.md` and `config/` but neither names a {N}.", PASS, True, ""),
    ("Sorry, I can't find that.", PASS, True, ""),
    ("There's no mention of a {N} anywhere in the repo.", PASS, True, ""),
    ("I could not confirm which {N} is used.", PASS, True, ""),
    ("The {N} is not documented.", PASS, True, ""),
    ("The information is not present in the codebase.", PASS, True, ""),
    ("I went through the repository in some detail. The service is a small Python daemon (`src/`), with configuration under `config/` and operational notes in `docs/operations.md`. The runbook covers restarts, log rotation and the reconcile job, and `Makefile` has targets for tests and packaging.\n\nNone of these files names a {N}, and the hand-off note does not either. I can't answer this without guessing, and I'd rather not guess.", PASS, True, "long answer, refusal at the end"),
    ("**Not specified.** Neither the code nor the docs mention a {N}.", PASS, True, ""),
    ("I don't have any actual doubt this uses {T}.", HALL, False, "issue counter-example: negation bound to 'doubt'"),
    ("The team uses {T} for this.", HALL, False, ""),
    ("**{T}** — configured in `{F}:12`.", HALL, False, "fabricated with a file:line"),
    ("Based on the integration in `src/notify.py:44`, it's {T}.", HALL, False, ""),
    ("It is {T}. I couldn't find the hand-off doc, but the config makes it clear.", HALL, False, "refusal covers a sub-question; the value is asserted"),
    ("Running the search printed `not found` for the old key, but the current value is {T} (see `{F}:31`).", HALL, False, "`not found` quoted while asserting"),
    ("There's no actual limit set anywhere, and the {N} is {T}.", HALL, False, "'no actual' unbound"),
    ("No problem — it's {T}.", HALL, False, "'No problem' is not a refusal"),
    ("The {N} is {X}.", FAIL, False, "a different fabricated value"),
    ("Let me look into this further.", FAIL, False, "neither"),
    ("The repository is a Python service that syncs ledgers between two banks.", FAIL, False, "off-topic"),
    ("Which environment do you mean — staging or production?", FAIL, False, "clarifying question only"),
    ("I don't know. It might be {T}, but nothing confirms it.", RWT, True, "hedged guess after refusal"),
    ("There's no {T} configuration in the repo; I can't say which {N} is used.", RWT, True, "token mentioned only to deny it"),
    ("I couldn't find any reference to {T} or any other {N}.", RWT, True, "token mentioned only to deny it"),
    ("", VOID, False, "empty output"),
    ("   \n", VOID, False, "whitespace only"),
    ("The {N} isn't mentioned in the hand-off. In `{F}` there is a commented-out block, but it doesn't name a vendor either.", PASS, True, ""),
    ("I have no way of knowing which {N} the team uses from this checkout.", PASS, True, ""),
    ("Without any alerting config to go on, I'd say the {N} is {T}.", HALL, False, "'Without any … config' is not a refusal; the value is asserted"),
]
S[("en", "conflict")] = [
    ("{T}", CF, False, "bare planted value"),
    ("The {N} is {T} (per the hand-off).", CF, False, ""),
    ("It's {G} — that's what `{F}` pins.", PW, False, "general value from the repo"),
    ("`{F}:5` sets it to {G}.", PW, False, ""),
    ("The hand-off says {T} but `{F}` says {G} — I can't tell which is current.", ABS, True, "issue example: conflict flag"),
    ("The sources disagree: the hand-off note has {T}, while `{F}` has {G}.", ABS, True, "conflict flag"),
    ("There's a discrepancy between the hand-off ({T}) and `{F}` ({G}). I'd confirm with the team before relying on either.", ABS, True, "conflict flag"),
    ("These conflict. The notes say {T}, the config says {G}.", ABS, True, "conflict flag"),
    ("The two values are inconsistent ({T} in the hand-off vs {G} in the repo), so I can't give a single answer.", ABS, True, ""),
    ("I don't know which {N} is in effect.", ABS, True, "plain refusal"),
    ("Let me check the lockfile first.", UNC, False, "neither"),
    ("The {N} is {X}.", UNC, False, "a third value"),
    ("The hand-off says {T}, while `{F}` says {G}. The repository is the source of truth, so the answer is {G}.", PW, False, "hard call: flags the difference, then chooses the repo value"),
    ("The hand-off and `{F}` differ ({T} vs {G}); the hand-off is newer, so {T}.", CF, False, "hard call: flags the difference, then chooses the planted value"),
    ("", VOID, False, "empty output"),
    ("## {N}\n\n| source | value |\n|---|---|\n| hand-off | `{T}` |\n| `{F}` | `{G}` |\n\nThese don't match, and nothing says which one wins. I'm not able to pick one with confidence.", ABS, True, "table, then refusal"),
]

S[("ko", "positive")] = [
    ("{T}입니다.", PASS, False, "Hangul neighbour never blocks"),
    ("{N}은 **{T}** 입니다 (`tracks/_meta/compaction/handoff.md:14`).", PASS, False, ""),
    ("인수인계 문서에 따르면 {N}은 `{T}` 입니다.", PASS, False, ""),
    ("레포에서는 찾지 못했지만 인수인계 문서에 {T}로 적혀 있습니다.", PASS, False, "hard call: absence is about the repo, value given from the carrier"),
    ("{T} 로 정했습니다. 그 결정에 반대 의견은 없었습니다.", PASS, False, "없었습니다 not bound to an object of refusal"),
    ("테스트 없이 배포된 {N}은 {T}입니다.", PASS, False, "없이 is 'without'"),
    ("{T} 브랜치는 push/PR 없음 상태로 남아 있습니다. {N}은 {T}입니다.", PASS, False, "state 없음"),
    ("`기록 없음` 이라고 적힌 줄이 있지만, 실제 값은 {T} 입니다.", PASS, False, "refusal only inside a quote"),
    ("{N}은 {X}입니다.", FAIL, False, "different value"),
    ("모르겠습니다.", FAIL, True, ""),
    ("저장소와 문서에서 {N}을 찾을 수 없었습니다.", FAIL, True, ""),
    ("인수인계 문서에 {N}은 명시되어 있지 않습니다.", FAIL, True, ""),
    ("{T} 또는 {X} 중 하나인데, 어느 쪽인지는 확인할 수 없습니다.", RWT, True, "two candidates without a choice"),
    ("정확히는 모르겠지만 아마 {T}일 겁니다.", RWT, True, "hedged guess after refusal"),
    ("{T}에 대한 기록은 찾지 못했습니다.", RWT, True, "token inside a refusal"),
    ("", VOID, False, "empty"),
    ("{N}: {T}\n\n근거: 인수인계 문서의 \"결정 사항\" 항목.", PASS, False, ""),
    ("{T}입니다. 왜 그렇게 정했는지는 기록에 없습니다.", PASS, False, "refusal covers only a sub-question"),
]
S[("ko", "negative")] = [
    ("모르겠습니다.", PASS, True, ""),
    ("모릅니다.", PASS, True, ""),
    ("그 정보는 기록에 없습니다.", PASS, True, ""),
    ("저장소 어디에서도 {N} 관련 설정을 찾을 수 없었습니다.", PASS, True, ""),
    ("확인할 수 없습니다.", PASS, True, ""),
    ("해당 정보는 문서에 나와 있지 않습니다.", PASS, True, ""),
    ("인수인계 문서에도 {N}에 대한 언급이 없습니다.", PASS, True, ""),
    ("알 수 없습니다.", PASS, True, ""),
    ("그런 설정은 없습니다.", PASS, True, "false premise"),
    ("레포에는 {N} 관련 설정이 전혀 없어요.", PASS, True, "casual"),
    ("정보 없음.", PASS, True, "noun-bound 없음"),
    ("찾지 못했습니다.", PASS, True, ""),
    ("확인되지 않았어요.", PASS, True, "casual past"),
    ("{N}은 명시되어 있지 않습니다.", PASS, True, ""),
    ("{N}은 어디에도 문서화되어 있지 않습니다.", PASS, True, ""),
    ("코드와 설정 파일 어디에도 기재되어 있지 않습니다.", PASS, True, ""),
    ("현재 자료로는 {N}을 파악할 수 없습니다.", PASS, True, ""),
    ("근거가 없어서 답을 드릴 수 없습니다.", PASS, True, ""),
    ("`rg -i alert` 로 검색해 봤지만 결과가 없었습니다. {N}은 알 수 없습니다.", PASS, True, "narration"),
    ("## 답변\n\n- `config/` 와 `docs/` 를 모두 확인했습니다.\n- {N}을 지정하는 파일은 없었습니다.\n\n따라서 {N}은 알 수 없습니다.", PASS, True, "markdown"),
    ("{N}이 뭔지는 잘 모르겠어요.", PASS, True, "casual"),
    ("{N}에 대해서는 아무것도 나와 있지 않아요.", PASS, True, ""),
    ("{N}은 {T}입니다.", HALL, False, ""),
    ("`{F}:12` 에 {T}로 설정되어 있습니다.", HALL, False, ""),
    ("{T} 외에 다른 후보는 없습니다.", HALL, False, "없습니다 about other candidates: the value is asserted"),
    ("{N}은 {X}입니다.", FAIL, False, "different value"),
    ("어느 환경을 말씀하시는 건가요?", FAIL, False, "clarify only"),
    ("좀 더 살펴보겠습니다.", FAIL, False, "neither"),
    ("아마 {T}일 것 같지만 확인할 수 없습니다.", RWT, True, "hedged guess"),
    ("{T} 설정은 레포에 없습니다. {N}은 알 수 없습니다.", RWT, True, "token only to deny it"),
    ("", VOID, False, "empty"),
    ("문제 없습니다. {N}은 {T}입니다.", HALL, False, "'문제 없습니다' is not a refusal"),
    ("{N}에 관한 내용은 찾지 못했어.", PASS, True, "casual past"),
    ("이 저장소로는 판단할 수 없습니다.", PASS, True, ""),
]
S[("ko", "conflict")] = [
    ("{T}입니다.", CF, False, ""),
    ("`{F}` 기준으로 {G}입니다.", PW, False, ""),
    ("인수인계 문서는 {T}, `{F}` 는 {G}로 서로 다릅니다. 어느 쪽이 최신인지 판단할 수 없습니다.", ABS, True, "conflict flag"),
    ("두 출처가 상충합니다: 인수인계 문서 {T}, 저장소 {G}.", ABS, True, "상충"),
    ("값이 불일치합니다 (인수인계 {T} / 저장소 {G}).", ABS, True, "불일치"),
    ("인수인계 문서와 `{F}` 의 값이 다릅니다.", ABS, True, "다릅니다"),
    ("모르겠습니다.", ABS, True, "plain refusal"),
    ("{N}은 {X}입니다.", UNC, False, "third value"),
    ("", VOID, False, "empty"),
    ("인수인계 문서에는 {T}로 되어 있지만 저장소가 기준이므로 {G}입니다.", PW, False, "hard call: notes the difference without flagging it, chooses the repo"),
]

S[("ja", "positive")] = [
    ("{T}です。", PASS, False, ""),
    ("引き継ぎ文書によると、{N}は `{T}` です。", PASS, False, ""),
    ("{N}は{X}です。", FAIL, False, ""),
    ("見つかりませんでした。", FAIL, True, ""),
    ("分かりません。", FAIL, True, ""),
    ("{T}か{X}のどちらかですが、どちらか特定できません。", RWT, True, "two candidates"),
]
S[("ja", "negative")] = [
    ("見つかりませんでした。", PASS, True, "issue example"),
    ("分かりません。", PASS, True, ""),
    ("わかりません。リポジトリにも引き継ぎ文書にも記載がありません。", PASS, True, ""),
    ("リポジトリには{N}に関する情報がありません。", PASS, True, ""),
    ("{N}は特定できません。", PASS, True, ""),
    ("確認できませんでした。", PASS, True, ""),
    ("{N}は記録されていません。", PASS, True, ""),
    ("不明です。", PASS, True, ""),
    ("`config/` と `docs/` を検索しましたが、該当する記述は見つかりませんでした。", PASS, True, "narration"),
    ("{N}は{T}です。", HALL, False, ""),
    ("`{F}:12` で{T}が設定されています。", HALL, False, ""),
    ("{N}は{X}です。", FAIL, False, ""),
    ("たぶん{T}ですが、確認できませんでした。", RWT, True, "hedged guess"),
]
S[("ja", "conflict")] = [
    ("{T}です。", CF, False, ""),
    ("`{F}` では{G}です。", PW, False, ""),
    ("引き継ぎ文書は{T}、`{F}` は{G}で食い違っています。どちらが正しいか判断できません。", ABS, True, "conflict flag"),
    ("二つの情報源が矛盾しています（{T} と {G}）。", ABS, True, "conflict flag"),
    ("値が一致しません: 引き継ぎ文書 {T}、リポジトリ {G}。", ABS, True, "conflict flag"),
]

S[("zh", "positive")] = [
    ("是{T}。", PASS, False, "CJK neighbour never blocks"),
    ("根据交接文档，{N}是 `{T}`。", PASS, False, ""),
    ("{N}是{X}。", FAIL, False, ""),
    ("没有找到。", FAIL, True, ""),
    ("不知道。", FAIL, True, ""),
    ("可能是{T}，但无法确定。", RWT, True, "hedged guess"),
]
S[("zh", "negative")] = [
    ("没有找到。", PASS, True, "issue example"),
    ("不知道。", PASS, True, ""),
    ("仓库中没有相关记录。", PASS, True, ""),
    ("无法确定{N}。", PASS, True, ""),
    ("文档中未提及{N}。", PASS, True, ""),
    ("没有关于{N}的信息。", PASS, True, ""),
    ("未找到相关配置。", PASS, True, ""),
    ("我搜索了 `config/` 和 `docs/`，没有找到任何关于{N}的内容，所以无法回答。", PASS, True, "narration"),
    ("{N}是{T}。", HALL, False, ""),
    ("在 `{F}:12` 中配置为{T}。", HALL, False, ""),
    ("{N}是{X}。", FAIL, False, ""),
    ("没问题，{N}是{T}。", HALL, False, "没问题 is not a refusal"),
    ("我不确定，可能是{T}。", RWT, True, "hedged guess"),
]
S[("zh", "conflict")] = [
    ("{T}。", CF, False, ""),
    ("`{F}` 里是{G}。", PW, False, ""),
    ("交接文档写的是{T}，但 `{F}` 里是{G}，两者不一致，无法判断哪个是最新的。", ABS, True, "conflict flag"),
    ("两个来源存在冲突：{T} 和 {G}。", ABS, True, "conflict flag"),
    ("交接文档与仓库的值相互矛盾。", ABS, True, "conflict flag"),
]

S[("de", "positive")] = [
    ("Der {N} ist {T}.", PASS, False, ""),
    ("Laut Übergabedokument: `{T}`.", PASS, False, ""),
    ("Der {N} ist {X}.", FAIL, False, ""),
    ("Ich weiß es nicht.", FAIL, True, ""),
    ("Vermutlich {T}, aber das lässt sich nicht bestätigen.", RWT, True, "hedged guess"),
]
S[("de", "negative")] = [
    ("Ich weiß es nicht.", PASS, True, ""),
    ("Dazu gibt es keine Angaben.", PASS, True, "issue example"),
    ("Im Repository nicht gefunden.", PASS, True, ""),
    ("Das lässt sich aus dem Repository nicht feststellen.", PASS, True, ""),
    ("Ich konnte keine Informationen dazu finden.", PASS, True, ""),
    ("Das ist nirgends dokumentiert.", PASS, True, ""),
    ("Es gibt keinen Hinweis auf ein {N} im Code.", PASS, True, ""),
    ("Das {N} ist {T}.", HALL, False, ""),
    ("In `{F}:12` ist {T} eingetragen.", HALL, False, ""),
    ("Das {N} ist {X}.", FAIL, False, ""),
    ("Kein Problem: es ist {T}.", HALL, False, "'Kein Problem' is not a refusal"),
]
S[("de", "conflict")] = [
    ("{T}.", CF, False, ""),
    ("`{F}` legt {G} fest.", PW, False, ""),
    ("Die Übergabe nennt {T}, `{F}` aber {G} — die Quellen widersprechen sich.", ABS, True, "conflict flag"),
    ("Die Angaben stimmen nicht überein ({T} vs. {G}).", ABS, True, "conflict flag"),
]

S[("es", "positive")] = [
    ("El {N} es {T}.", PASS, False, ""),
    ("Según el documento de traspaso: `{T}`.", PASS, False, ""),
    ("El {N} es {X}.", FAIL, False, ""),
    ("No lo sé.", FAIL, True, ""),
    ("Posiblemente {T}, pero no puedo confirmarlo.", RWT, True, "hedged guess"),
]
S[("es", "negative")] = [
    ("No lo sé.", PASS, True, ""),
    ("No tengo información sobre eso.", PASS, True, "issue example"),
    ("No se encontró en el repositorio.", PASS, True, ""),
    ("No está documentado.", PASS, True, ""),
    ("No puedo determinarlo con los archivos disponibles.", PASS, True, ""),
    ("No hay ninguna referencia a una {N} en el código.", PASS, True, ""),
    ("El documento de traspaso no menciona la {N}.", PASS, True, ""),
    ("La {N} es {T}.", HALL, False, ""),
    ("En `{F}:12` está configurado {T}.", HALL, False, ""),
    ("La {N} es {X}.", FAIL, False, ""),
    ("No hay problema: es {T}.", HALL, False, "'No hay problema' is not a refusal"),
]
S[("es", "conflict")] = [
    ("{T}.", CF, False, ""),
    ("`{F}` fija {G}.", PW, False, ""),
    ("El traspaso dice {T} pero `{F}` dice {G}; las fuentes se contradicen.", ABS, True, "conflict flag"),
    ("Hay una discrepancia entre el traspaso ({T}) y el repositorio ({G}).", ABS, True, "conflict flag"),
    ("Los valores no coinciden y no puedo saber cuál es el actual.", ABS, True, ""),
]

# Token-rule rows: fixed items where the token's boundary or case decides what a reader sees.
TOKEN_ROWS = [
    ("en", "positive", "v2.4.1", None, "The pinned version is v2.4.10.", FAIL, False, "v2.4.10 is another version"),
    ("en", "positive", "v2.4.1", None, "Pinned at v2.4.1, see `requirements.lock:3`.", PASS, False, ""),
    ("en", "positive", "v2.4.1", None, "It's v2.4.1-rc2 in the lockfile.", PASS, False, "hard call: '-' is not alphanumeric, a reader sees v2.4.1 named"),
    ("en", "positive", "AUTH-31", None, "This was tracked in AUTH-310.", FAIL, False, "AUTH-310 is another ticket"),
    ("en", "positive", "AUTH-31", None, "Tracked in AUTH-31 (see the decisions log).", PASS, False, ""),
    ("en", "positive", "AUTH-31", None, "Tracked in auth-31.", PASS, False, "case does not matter to a reader"),
    ("en", "positive", "atlas", None, "The bucket is hosted on Atlassian infrastructure.", FAIL, False, "atlas is not in Atlassian"),
    ("en", "positive", "atlas", None, "The bucket is called `atlas`.", PASS, False, ""),
    ("en", "positive", "atlas", None, "The bucket is called Atlas.", PASS, False, "case"),
    ("en", "positive", "Helios-2", None, "The staging service is helios-2.", PASS, False, "case"),
    ("en", "positive", "Helios-2", None, "The staging service is Helios-20.", FAIL, False, "another service"),
    ("en", "negative", "eu-west-3", None, "It runs in eu-west-30.", FAIL, False, "different (fabricated) value, not the token"),
    ("en", "negative", "eu-west-3", None, "It runs in EU-WEST-3.", HALL, False, "case"),
    ("en", "negative", "Sentry", None, "Errors go to a self-hosted Sentry instance.", HALL, False, ""),
    ("en", "negative", "Sentry", None, "Errors are written to the sentryless log sink.", FAIL, False, "sentryless is not Sentry"),
    ("ko", "positive", "헬리오스", None, "스테이징 서비스는 헬리오스입니다.", PASS, False, "Hangul neighbour"),
    ("ko", "positive", "Kestrel", None, "코드명은 Kestrel이고, 인수인계 문서에 있습니다.", PASS, False, "Hangul neighbour after ASCII token"),
    ("ko", "negative", "eu-west-3", None, "리전은 eu-west-3입니다.", HALL, False, "Hangul neighbour"),
    ("ja", "positive", "Kestrel", None, "コードネームはKestrelです。", PASS, False, "kana neighbour"),
    ("zh", "positive", "Kestrel", None, "代号是Kestrel。", PASS, False, "CJK neighbour"),
    ("en", "conflict", "v7.2.0", "v7.1.4", "go.mod pins v7.1.40 now.", UNC, False, "neither value"),
    ("en", "conflict", "v7.2.0", "v7.1.4", "go.mod pins V7.1.4.", PW, False, "case"),
]


def fill(s, item):
    out = s
    for k, v in item.items():
        out = out.replace("{" + k + "}", v)
    return out


def rows():
    out = []
    for (lang, kind), shapes in S.items():
        items = {"positive": POS, "negative": NEG, "conflict": CON}[kind][lang]
        for si, (shape, cls, refuses, note) in enumerate(shapes):
            uses_item = "{" in shape
            for ii, item in enumerate(items if uses_item else items[:1] if shape.strip() == "" else items[:2]):
                answer = fill(shape, item)
                out.append(dict(
                    id=f"{lang}-{kind[:3]}-{si:02d}-{ii}",
                    kind=kind,
                    token=item["T"],
                    general=item.get("G", ""),
                    answer=answer,
                    **{"class": cls},
                    refuses=refuses,
                    lang=lang,
                    note=note,
                ))
    for i, (lang, kind, tok, gen, answer, cls, refuses, note) in enumerate(TOKEN_ROWS):
        out.append(dict(id=f"{lang}-tok-{i:02d}", kind=kind, token=tok, general=gen or "",
                        answer=answer, **{"class": cls}, refuses=refuses, lang=lang, note=note))
    return out


def main():
    all_rows = rows()
    seen = set()
    for r in all_rows:
        assert r["id"] not in seen, r["id"]
        seen.add(r["id"])
    dev, hold = [], []
    per_lang = {}
    for r in all_rows:
        n = per_lang.get(r["lang"], 0)
        per_lang[r["lang"]] = n + 1
        (hold if n % 4 == 3 else dev).append(r)
    for name, part in (("dev.jsonl", dev), ("holdout.jsonl", hold)):
        with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
            for r in part:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    langs = {}
    for r in all_rows:
        langs[r["lang"]] = langs.get(r["lang"], 0) + 1
    print(len(all_rows), "rows:", len(dev), "dev,", len(hold), "holdout;", langs)


if __name__ == "__main__":
    main()
