#!/usr/bin/env bash
# Per-dispatch overhead of `harness run` without the agent (checkout + plant + treediff +
# record + scoring), against `git clone --no-local --depth 1 file://REPO && cp seal` per
# dispatch, on a generated repository of ~10,000 files / ~100 MB.
#
# The agent is `true {prompt}` (answers nothing) and --sandbox none, --jobs 1, so what is timed is
# the harness's own work. A round also has fixed costs (gate search over the corpus, the
# template, reports); they are taken out by timing a 2-dispatch round and a round of N and
# dividing the difference by N-2. The clone baseline is timed the same way, N times in a row.
#
# Usage: benches/dispatch_overhead.sh [DISPATCHES=20] [FILES=10000] [BYTES_PER_FILE=10000]
# (DISPATCHES is rounded down to an even number: questions x 2 arms x 1 rep.)
set -euo pipefail

N=${1:-20}
FILES=${2:-10000}
PER=${3:-10000}
Q=$(( N / 2 ))
N=$(( Q * 2 ))
[ "$Q" -ge 2 ] || { echo "need at least 4 dispatches" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
trap 'chmod -R u+w "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT

echo "building harness (release) ..." >&2
cargo build -q --release -p harness --manifest-path "$HERE/Cargo.toml"
HARNESS=$HERE/target/release/harness

REPO=$WORK/repo
mkdir -p "$REPO"
echo "generating $FILES files x $PER bytes in $REPO ..." >&2
# base64 of random bytes: text-like, compresses about as poorly as dense source does.
head -c $(( FILES * PER * 3 / 4 )) /dev/urandom | base64 -w 100 > "$WORK/big"
(
  cd "$REPO"
  split -b "$PER" -a 5 -d "$WORK/big" f_
  i=0
  for f in f_*; do
    d=$(printf 'd%03d' $(( i % 100 )))
    mkdir -p "$d"
    mv "$f" "$d/$f.txt"
    i=$(( i + 1 ))
  done
  chmod +x d000/*.txt
  ln -s d001 link_dir
  git init -q -b main .
  git -c core.autocrlf=false add -A
  git -c user.name=b -c user.email=b@localhost commit -qm bench
)
rm -f "$WORK/big"
echo "repo: $(git -C "$REPO" ls-files | wc -l) files, $(du -sm --exclude=.git "$REPO" | cut -f1) MB in the tree" >&2

# Tokens: letters and digits that base64 text is unlikely to hold as a whole word; the
# start gate checks they are absent from the corpus anyway.
token() { printf 'qq%s%sbench%s' "$1" "$RANDOM" "$$"; }
make_inputs() { # $1 = questions, $2 = folder
  local dir=$2
  mkdir -p "$dir"
  printf 'qid\tkind\tquestion\ttoken\n' > "$dir/questions.tsv"
  printf '# hand-off\n' > "$dir/handoff.md"
  for i in $(seq 1 "$1"); do
    t=$(token "$i")
    printf 'B%03d\tpositive\tWhat is value number %d?\t%s\n' "$i" "$i" "$t" >> "$dir/questions.tsv"
    printf 'value %d: %s\n' "$i" "$t" >> "$dir/handoff.md"
  done
}

now() { date +%s.%N; }

run_round() { # $1 = questions; prints seconds
  local dir=$WORK/in$1 out=$WORK/results/o$1
  make_inputs "$1" "$dir"
  local s e
  s=$(now)
  set +e
  HOME=$WORK "$HARNESS" run --qset "$dir/questions.tsv" --seal "$dir/handoff.md" --repo "$REPO" \
    --agent 'command:true {prompt}' --reps 1 --jobs 1 --sandbox none --quiet --out "$out" >/dev/null 2>"$WORK/err$1"
  local rc=$?
  set -e
  e=$(now)
  if ! grep -q '^complete: yes' "$out/ROUND_DONE" 2>/dev/null; then
    echo "harness round with $1 questions did not complete (exit $rc):" >&2
    cat "$WORK/err$1" >&2
    exit 1
  fi
  echo "$e - $s" | bc -l
}

echo "harness: a 2-dispatch round and a $N-dispatch round ..." >&2
t_small=$(run_round 1)
t_big=$(run_round "$Q")
ours_ms=$(echo "($t_big - $t_small) * 1000 / ($N - 2)" | bc -l)

echo "baseline: git clone --no-local --depth 1 + cp seal, $N times ..." >&2
printf 'seal\n' > "$WORK/handoff.md"
s=$(now)
for i in $(seq 1 "$N"); do
  dst=$WORK/clones/c$i
  git clone -q --no-local --depth 1 "file://$REPO" "$dst"
  mkdir -p "$dst/tracks/_meta/compaction"
  cp "$WORK/handoff.md" "$dst/tracks/_meta/compaction/"
done
e=$(now)
clone_ms=$(echo "($e - $s) * 1000 / $N" | bc -l)

printf 'dispatches=%d files=%d bytes_per_file=%d\n' "$N" "$FILES" "$PER"
printf 'harness_round_2_dispatches_s=%.2f\n' "$t_small"
printf 'harness_round_%d_dispatches_s=%.2f\n' "$N" "$t_big"
printf 'harness_per_dispatch_ms=%.1f\n' "$ours_ms"
printf 'clone_cp_per_dispatch_ms=%.1f\n' "$clone_ms"
printf 'ratio_harness_over_clone=%.3f\n' "$(echo "$ours_ms / $clone_ms" | bc -l)"
