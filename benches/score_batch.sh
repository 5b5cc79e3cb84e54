#!/usr/bin/env bash
# `harness score` over many answers (issue 14), side by side in one run: a process per answer
# (what a shell loop pays: the lexicon compiled every time), one process for all the files of one
# question, and one `--batch` JSONL of the same answers. Answers are the negative rows of the
# shipped corpus (scorer/corpus/dev.jsonl) with one shared token, so the many-files form can score
# them in one call; their languages and lengths are the corpus's.
#
#   bash benches/score_batch.sh [ANSWERS=600]
#
# Needs a release build: cargo build --release (or HARNESS=<binary>). Prints ms per answer for each form and the
# ratios, and checks the three forms gave the same verdicts (a fast wrong answer is no win).
set -euo pipefail
n=${1:-600}
[ "$n" -ge 2 ] || { echo "need at least 2 answers (one file prints a bare class)" >&2; exit 2; }
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
harness=${HARNESS:-$here/target/release/harness}
[ -x "$harness" ] || { echo "build first: cargo build --release" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/score-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

python3 - "$here/scorer/corpus/dev.jsonl" "$n" "$work" <<'PY'
import json, os, sys
src, n, work = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rows = [json.loads(l) for l in open(src, encoding="utf-8") if l.strip()]
rows = [r for r in rows if r["kind"] == "negative"]
os.makedirs(f"{work}/a")
with open(f"{work}/batch.jsonl", "w", encoding="utf-8") as b, open(f"{work}/list", "w") as lst:
    for i in range(n):
        r = rows[i % len(rows)]
        # One token for the whole set, so the many-files form can score them in one call.
        answer = r["answer"].replace(r["token"], "TOKEN-BENCH")
        path = f"{work}/a/{i:05d}.txt"
        open(path, "w", encoding="utf-8").write(answer)
        lst.write(path + "\n")
        b.write(json.dumps({"id": f"{i:05d}", "kind": "negative", "token": "TOKEN-BENCH",
                            "answer": answer}, ensure_ascii=False) + "\n")
PY

now() { date +%s.%N; }
s=$(now)
while read -r f; do
  printf '%s\t%s\n' "$(basename "$f" .txt)" \
    "$("$harness" score --kind negative --token TOKEN-BENCH "$f")"
done < "$work/list" > "$work/loop.out"
e=$(now); t_loop=$(awk -v s="$s" -v e="$e" 'BEGIN { print (e - s) * 1000 }')

s=$(now)
mapfile -t files < "$work/list"
# One process for every file (an argument list too long fails loudly: E2BIG, not a silent split).
"$harness" score --kind negative --token TOKEN-BENCH "${files[@]}" \
  | sed 's#^.*/\([0-9]*\)\.txt\t#\1\t#' > "$work/files.out"
e=$(now); t_files=$(awk -v s="$s" -v e="$e" 'BEGIN { print (e - s) * 1000 }')

s=$(now)
"$harness" score --batch "$work/batch.jsonl" > "$work/batch.out"
e=$(now); t_batch=$(awk -v s="$s" -v e="$e" 'BEGIN { print (e - s) * 1000 }')

for f in files batch; do
  if ! cmp -s "$work/loop.out" "$work/$f.out"; then
    echo "the $f form's verdicts differ from a process per answer:" >&2
    diff "$work/loop.out" "$work/$f.out" | head >&2
    exit 1
  fi
done
awk -v n="$n" -v l="$t_loop" -v f="$t_files" -v b="$t_batch" 'BEGIN {
  printf "%d answers, same verdicts in all three forms (ms per answer)\n", n
  printf "  process per answer  %8.3f\n", l / n
  printf "  many files, 1 call  %8.3f   (%.1fx faster)\n", f / n, l / f
  printf "  --batch JSONL       %8.3f   (%.1fx faster)\n", b / n, l / b
}'
