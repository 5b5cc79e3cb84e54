#!/usr/bin/env bash
# Per-dispatch cost measured the way a user would (issue 23, "bars-style"): the wall time of
# whole `harness run` rounds of two sizes on the same repository, side by side, so every
# per-round cost (gate search, template build, reports) cancels:
#
#   per dispatch = (T(BIG questions) - T(SMALL questions)) / (2 x (BIG - SMALL))
#                                                 (x 2 arms x 1 rep, --jobs 1; default 6 and 2)
#
# On a 100k-file tree a round's fixed cost (gate search, template build) is ~15 s and varies by
# a second between rounds, which buries 8 extra dispatches of ~50 ms; BIG=22 gives 40 extra
# dispatches, enough signal for the difference to mean something there.
#
# with a no-op agent (`true {prompt}`) under --sandbox auto, on generated trees
# (benches/gen_tree.sh) of each size asked for, against `cp -r` of the same tree (a plain
# export of it) timed in the same run. Small rounds, big rounds and the copy are interleaved
# ROUNDS times, so a busy machine's mood falls on all three alike. From the big rounds'
# round.json it also prints each phase's median (checkout, sandbox setup, agent, teardown,
# cleanup; issue 23's per-phase timings), which says where any growth comes from.
#
# Prints one row per size (medians over the rounds, ms) and, with more than one size, the
# growth of the per-dispatch cost from the smallest tree to the largest. A median nothing
# measured prints nan and its ratios n/a, never 0.
#
# Usage: benches/dispatch_bars.sh [FILES=1000,20000,100000] [BYTES_PER_FILE=12000] [ROUNDS=3]
#   SANDBOX=none benches/dispatch_bars.sh ...   the copy fallback instead of auto
#   SMALL=2 BIG=22 benches/dispatch_bars.sh ...   the two round sizes (questions)
set -euo pipefail

SIZES=${1:-1000,20000,100000}
PER=${2:-12000}
R=${3:-3}
MODE=${SANDBOX:-auto}
SMALL=${SMALL:-2}
BIG=${BIG:-6}
[ "$BIG" -gt "$SMALL" ] || { echo "need BIG > SMALL" >&2; exit 2; }
EXTRA=$(( 2 * (BIG - SMALL) ))
HERE=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
trap 'chmod -R u+w "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT
# shellcheck source=benches/gen_tree.sh
. "$HERE/benches/gen_tree.sh"

echo "building harness (release) ..." >&2
cargo build -q --release --locked -p harness --manifest-path "$HERE/Cargo.toml"
HARNESS=${CARGO_TARGET_DIR:-$HERE/target}/release/harness

# shellcheck source=benches/common.sh
. "$HERE/benches/common.sh"

# One whole round of $1 questions; appends its wall time (ms) to $2; with $3, appends the
# round's phase medians (ms, `phase=ms` words) to that file.
round() {
  local q=$1 dir out s e rc
  dir=$(mktemp -d "$WORK/in.XXXX")
  out=$WORK/results/$(basename "$dir")
  make_inputs "$q" "$dir"
  s=$(now)
  set +e
  HOME=$WORK XDG_STATE_HOME=$WORK/state "$HARNESS" run --qset "$dir/questions.tsv" \
    --seal "$dir/handoff.md" --repo "$REPO" --agent 'command:true {prompt}' --reps 1 --jobs 1 \
    --sandbox "$MODE" --no-preflight --quiet --out "$out" >/dev/null 2>"$dir/err"
  rc=$?
  set -e
  e=$(now)
  if ! grep -q '^complete: yes' "$out/ROUND_DONE" 2>/dev/null; then
    echo "harness round of $q questions did not complete (exit $rc):" >&2
    cat "$dir/err" >&2
    exit 1
  fi
  ms "$s" "$e" >> "$2"
  if [ -n "${3:-}" ]; then
    python3 - "$out/round.json" >> "$3" <<'PY'
import json, sys
phases = json.load(open(sys.argv[1])).get("phases", [])
print(" ".join(f"{p['phase']}={p['median_us'] / 1000:.1f}" for p in phases) or "none")
PY
  fi
  rm -rf "$out" "$dir"
}

ROWS=$WORK/rows
: > "$ROWS"
for FILES in ${SIZES//,/ }; do
  prepare_tree "$FILES"
  S=$WORK/s$FILES
  mkdir -p "$S"
  : > "$S/small"; : > "$S/big"; : > "$S/cp"; : > "$S/per"; : > "$S/phases"
  for r in $(seq 1 "$R"); do
    echo "[$n files] round $r/$R: $SMALL questions, $BIG questions, cp -r ..." >&2
    before=$(wc -l < "$S/big")
    round "$SMALL" "$S/small"
    round "$BIG" "$S/big" "$S/phases"
    s=$(now); cp -r "$PLAIN" "$WORK/copy"; e=$(now); ms "$s" "$e" >> "$S/cp"
    rm -rf "$WORK/copy"
    # This round's own difference (the small and big round ran back to back).
    awk -v a="$(tail -n 1 "$S/big")" -v b="$(tail -n 1 "$S/small")" -v k="$EXTRA" 'BEGIN { printf "%.1f\n", (a - b) / k }' >> "$S/per"
    [ "$(wc -l < "$S/big")" -gt "$before" ]
  done
  ph=$(python3 - "$S/phases" <<'PY'
import sys, statistics
rows = [dict(w.split("=") for w in l.split()) for l in open(sys.argv[1]) if "=" in l]
names = ["checkout", "home", "sandbox", "agent", "teardown", "cleanup"]
print(" ".join(f"{n}={statistics.median(float(r[n]) for r in rows if n in r):.1f}"
               if any(n in r for r in rows) else f"{n}=nan" for n in names))
PY
)
  printf '%s %s %s %s %s %s %s\n' "$n" "$mb" "$(median "$S/small")" "$(median "$S/big")" \
    "$(median "$S/per")" "$(median "$S/cp")" "$ph" >> "$ROWS"
  rm -rf "$REPO" "$PLAIN"
done

printf '\nsandbox=%s bytes_per_file=%d rounds=%d; per dispatch = (T%d - T%d) / %d, median of the rounds (ms)\n' "$MODE" "$PER" "$R" "$BIG" "$SMALL" "$EXTRA"
printf '%8s %6s | %9s %9s | %9s %9s %8s | %s\n' files MB "T$SMALL" "T$BIG" dispatch cp_r disp/cp "phase medians in the $BIG-question rounds (ms)"
while read -r n mb t2 t6 per cp ph; do
  printf '%8s %6s | %9s %9s | %9s %9s %8s | %s\n' "$n" "$mb" "$t2" "$t6" "$per" "$cp" "$(ratio "$per" "$cp")" "$ph"
done < "$ROWS"
if [ "$(wc -l < "$ROWS")" -gt 1 ]; then
  first=$(head -n 1 "$ROWS") last=$(tail -n 1 "$ROWS")
  g=$(ratio "$(echo "$last" | cut -d' ' -f5)" "$(echo "$first" | cut -d' ' -f5)")
  printf 'growth of the per-dispatch cost, %s -> %s files: %s\n' "${first%% *}" "${last%% *}" \
    "$([ "$g" = n/a ] && echo n/a || echo "${g}x")"
fi
