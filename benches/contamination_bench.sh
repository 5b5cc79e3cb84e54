#!/usr/bin/env bash
# The contamination axis against the seed's way of doing it, side by side in one run.
#
#   bash benches/contamination_bench.sh [FILES] [KB_PER_FILE] [TOKENS]
#
# Defaults: 100,000 files of ~10 KB (about 1 GB) and 200 tokens, none of which occurs in the
# tree (the gate's normal, clean case: every blob must be read to the end). The tree is
# streamed into a fresh repository with `git fast-import`, so nothing is checked out; all three
# contenders read the same commit from the object database:
#   1. harness gate --phase pre      (one pass over every blob for all tokens; exit 3 = partial)
#   2. git grep -F -i -l, once with all tokens as -e patterns
#   3. git grep -F -i -l, once per token (what the seed did)  — PER_TOKEN=N limits it to the
#      first N tokens and scales the time up, said as such in the output.
# Needs a release build: cargo build --release
set -euo pipefail
files=${1:-100000}
kb=${2:-10}
ntok=${3:-200}
per_token=${PER_TOKEN:-$ntok}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
harness="$here/target/release/harness"
[ -x "$harness" ] || { echo "build first: cargo build --release" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/contam-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
repo="$work/repo"
git init -q "$repo"

python3 - "$files" "$kb" "$ntok" "$work" <<'PY' | git -C "$repo" fast-import --quiet
import random, sys
files, kb, ntok, work = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rnd = random.Random(7)
words = ["fn", "let", "mut", "impl", "struct", "return", "match", "self", "config", "value",
         "error", "result", "option", "string", "vector", "buffer", "reader", "writer", "index",
         "ledger", "batch", "upstream", "reconcile", "export", "entry", "account", "balance"]
words += ["".join(rnd.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rnd.randint(3, 9))) for _ in range(3000)]
out = sys.stdout.buffer
marks = []
for i in range(files):
    size = kb * 1024
    parts, n = [], 0
    while n < size:
        line = " ".join(rnd.choice(words) for _ in range(rnd.randint(4, 12))) + "\n"
        parts.append(line); n += len(line)
    data = "".join(parts).encode()
    out.write(b"blob\nmark :%d\ndata %d\n" % (i + 1, len(data)))
    out.write(data); out.write(b"\n")
out.write(b"commit refs/heads/main\ncommitter bench <b@x> 0 +0000\ndata 6\nbench\n")
for i in range(files):
    out.write(b"M 100644 :%d src/d%03d/f%06d.rs\n" % (i + 1, i % 1000, i))
out.write(b"\n")
# Tokens: shaped like real ones (names, ports, versions), absent from the tree.
with open(work + "/q.tsv", "w") as q:
    q.write("qid\tkind\tquestion\ttoken\n")
    for t in range(ntok):
        tok = "Zq%dk%sv%d" % (t, "".join(rnd.choice("xyzw") for _ in range(5)), rnd.randint(100, 999))
        q.write("t%03d\tnegative\tquestion %d?\t%s\n" % (t, t, tok))
PY
git -C "$repo" symbolic-ref HEAD refs/heads/main
size=$(git -C "$repo" count-objects -vH | awk '/size-pack/ {print $2 $3}')
echo "tree: $files files x ~${kb} KB, pack $size, $ntok tokens"

tokens=$(tail -n +2 "$work/q.tsv" | cut -f4)
now() { date +%s.%N; }
t0=$(now)
set +e
"$harness" gate --qset "$work/q.tsv" --repo "$repo" --phase pre > "$work/gate.out" 2>&1
rc=$?
set -e
t1=$(now)
[ "$rc" = 3 ] || { echo "harness gate exited $rc (want 3: clean, ledger UNCHECKED)"; cat "$work/gate.out"; exit 1; }
harness_s=$(echo "$t1 - $t0" | bc)

args=()
for t in $tokens; do args+=(-e "$t"); done
t0=$(now)
set +e; git -C "$repo" grep -F -i -l "${args[@]}" HEAD > /dev/null; grc=$?; set -e
t1=$(now)
[ "$grc" = 1 ] || { echo "git grep (all patterns) exited $grc (want 1: no match)"; exit 1; }
all_s=$(echo "$t1 - $t0" | bc)

n=0
t0=$(now)
for t in $tokens; do
  [ "$n" -lt "$per_token" ] || break
  set +e; git -C "$repo" grep -F -i -l -e "$t" HEAD > /dev/null; grc=$?; set -e
  [ "$grc" = 1 ] || { echo "git grep exited $grc for a token"; exit 1; }
  n=$((n + 1))
done
t1=$(now)
each_s=$(echo "($t1 - $t0) * $ntok / $n" | bc -l)

printf 'harness gate (one pass, all %d tokens):      %8.2f s\n' "$ntok" "$harness_s"
printf 'git grep -F -i -l, all tokens as -e:         %8.2f s   (harness is %.1fx faster)\n' "$all_s" "$(echo "$all_s / $harness_s" | bc -l)"
if [ "$n" = "$ntok" ]; then
  printf 'git grep -F -i -l, once per token (seed):    %8.2f s   (harness is %.1fx faster)\n' "$each_s" "$(echo "$each_s / $harness_s" | bc -l)"
else
  printf 'git grep -F -i -l, once per token (seed):    %8.2f s   (scaled from %d of %d tokens; harness is %.1fx faster)\n' "$each_s" "$n" "$ntok" "$(echo "$each_s / $harness_s" | bc -l)"
fi
