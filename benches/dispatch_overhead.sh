#!/usr/bin/env bash
# Per-dispatch overhead of `harness run` without the agent (checkout + plant + treediff +
# record + the agent's process around `true`), against `git clone --no-local --depth 1
# file://REPO && cp seal` per dispatch, on a generated repository of ~10,000 files / ~100 MB.
#
# The agent is `true {prompt}` (answers nothing), --sandbox none, --jobs 1, so what is
# timed is the harness's own work. A dispatch writes its `.prompt` first; with one job the
# time from one dispatch's `.prompt` to the next one's is one whole dispatch, so the round's
# fixed costs (gate search over the corpus, template, reports) stay out of the number.
# Rounds of K dispatches and blocks of K clones are interleaved R times: on a busy VM
# sequential blocks measure the machine's mood, not the method.
#
# Usage: benches/dispatch_overhead.sh [ROUNDS=4] [K=4] [FILES=10000] [BYTES_PER_FILE=10000]
# (K is rounded down to an even number: questions x 2 arms x 1 rep.)
set -euo pipefail

R=${1:-4}
K=${2:-4}
FILES=${3:-10000}
PER=${4:-10000}
Q=$(( K / 2 ))
K=$(( Q * 2 ))
[ "$K" -ge 2 ] || { echo "need K >= 2" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
trap 'chmod -R u+w "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT

echo "building harness (release) ..." >&2
cargo build -q --release -p harness --manifest-path "$HERE/Cargo.toml"
HARNESS=$HERE/target/release/harness

REPO=$WORK/repo
# shellcheck source=benches/gen_tree.sh
. "$HERE/benches/gen_tree.sh"
gen_tree "$REPO" "$FILES" "$PER" "$WORK"

# shellcheck source=benches/common.sh
. "$HERE/benches/common.sh"

# Rounds: per-dispatch intervals (ms) between consecutive `.prompt` mtimes, one per line.
run_round() { # $1 = round number
  local dir=$WORK/in$1 out=$WORK/results/o$1
  make_inputs "$Q" "$dir"
  set +e
  HOME=$WORK "$HARNESS" run --qset "$dir/questions.tsv" --seal "$dir/handoff.md" --repo "$REPO" \
    --agent 'command:true {prompt}' --reps 1 --jobs 1 --sandbox none --quiet --out "$out" >/dev/null 2>"$WORK/err$1"
  local rc=$?
  set -e
  if ! grep -q '^complete: yes' "$out/ROUND_DONE" 2>/dev/null; then
    echo "harness round $1 did not complete (exit $rc):" >&2
    cat "$WORK/err$1" >&2
    exit 1
  fi
  # Per-dispatch files are in dispatches/; a binary from before that folder writes them flat.
  d=$out/dispatches
  [ -d "$d" ] || d=$out
  stat -c '%.9Y' "$d"/*.prompt | sort -n | awk 'NR > 1 { printf "%.1f\n", ($1 - p) * 1000 } { p = $1 }'
  rm -rf "$out"
}

clone_block() { # $1 = block number; one line per clone+cp (ms)
  local i s e dst
  for i in $(seq 1 "$K"); do
    dst=$WORK/clones/c$1_$i
    s=$(now)
    git clone -q --no-local --depth 1 "file://$REPO" "$dst"
    mkdir -p "$dst/tracks/_meta/compaction"
    cp "$WORK/handoff.md" "$dst/tracks/_meta/compaction/"
    e=$(now)
    echo "($e - $s) * 1000" | bc -l | xargs printf '%.1f\n'
    rm -rf "$dst"
  done
}

printf 'seal\n' > "$WORK/handoff.md"
: > "$WORK/ours.ms"
: > "$WORK/clone.ms"
for r in $(seq 1 "$R"); do
  echo "round $r/$R: $K harness dispatches, then $K clones ..." >&2
  run_round "$r" >> "$WORK/ours.ms"
  clone_block "$r" >> "$WORK/clone.ms"
done

stats() { sort -n "$1" | awk '{ v[NR] = $1; s += $1 } END { printf "n=%d mean=%.1f median=%.1f min=%.1f max=%.1f", NR, s / NR, (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), v[1], v[NR] }'; }
mean() { awk '{ s += $1 } END { printf "%.3f", s / NR }' "$1"; }

printf 'files=%d bytes_per_file=%d rounds=%d dispatches_per_round=%d\n' "$FILES" "$PER" "$R" "$K"
printf 'harness_per_dispatch_ms: %s\n' "$(stats "$WORK/ours.ms")"
printf 'clone_cp_per_dispatch_ms: %s\n' "$(stats "$WORK/clone.ms")"
printf 'ratio_harness_over_clone_mean=%.3f\n' "$(echo "$(mean "$WORK/ours.ms") / $(mean "$WORK/clone.ms")" | bc -l)"
printf 'ratio_harness_over_clone_median=%s\n' "$(ratio "$(median "$WORK/ours.ms")" "$(median "$WORK/clone.ms")")"
