#!/usr/bin/env bash
# Checkouts in constant time (issue 14), measured side by side in one invocation on generated
# trees (benches/gen_tree.sh) of each size asked for:
#
#  1. The round's template build (`Template::build`, the runners example `template_bench`)
#     against `git archive HEAD | tar -x` of the same repository, interleaved.
#  2. The harness's own cost per dispatch: `harness run` with a no-op agent (`true {prompt}`),
#     --jobs 1, under --sandbox auto (overlay checkouts where they mount) and --sandbox none
#     (the copy fallback). A dispatch writes its `.prompt` first; with one job the time from
#     one dispatch's `.prompt` to the next one's is one whole dispatch (checkout, plant, check,
#     sandbox, agent process, record, cleanup), so the round's fixed costs (gate search,
#     template, reports) stay out of the number.
#     Against, per dispatch, making a private copy of the same tree: `cp -r` of a plain export,
#     `git clone --no-local --depth 1`, `git archive HEAD | tar -x` and `git worktree add`
#     (each timed without its removal, which the harness's number includes).
#     Harness rounds and blocks of the peers are interleaved ROUNDS times, so a busy machine's
#     mood falls on every method alike.
#
# Prints one table row per size (medians, ms) with the ratios, and with more than one size
# the growth of the per-dispatch overhead from the smallest tree to the largest.
#
# With HARNESS_BEFORE=<path to an older harness binary> each round also runs that binary under
# --sandbox none (column `before`), interleaved with the others: the copy fallback against the
# binary it replaced (issue 14: "no slower than today"), e.g. a release build of 12bcdbb, the
# commit before overlay checkouts.
#
# Usage: benches/checkout_overlay.sh [FILES=20000] [BYTES_PER_FILE=12000] [ROUNDS=3] [K=4]
#   FILES may be a comma-separated list (e.g. 1000,20000,100000); K dispatches per harness
#   round (rounded down to even: questions x 2 arms x 1 rep), K copies per peer block.
#   20,000 x 12,000 bytes is the issue's 240 MB tree.
set -euo pipefail

SIZES=${1:-20000}
PER=${2:-12000}
R=${3:-3}
K=${4:-4}
Q=$(( K / 2 ))
K=$(( Q * 2 ))
[ "$K" -ge 4 ] || { echo "need K >= 4 (K-1 intervals per round)" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
trap 'chmod -R u+w "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT
# shellcheck source=benches/gen_tree.sh
. "$HERE/benches/gen_tree.sh"

echo "building harness and template_bench (release) ..." >&2
cargo build -q --release --locked -p harness --manifest-path "$HERE/Cargo.toml"
cargo build -q --release --locked -p runners --example template_bench --manifest-path "$HERE/Cargo.toml"
HARNESS=$HERE/target/release/harness
TEMPLATE_BENCH=$HERE/target/release/examples/template_bench

# shellcheck source=benches/common.sh
. "$HERE/benches/common.sh"

# One harness round under sandbox $1; appends its per-dispatch intervals (ms) to $2; the
# round's checkout method to $3; with $4, runs that harness binary instead of this tree's.
run_round() {
  local mode=$1 dir out rc bin=${4:-$HARNESS}
  dir=$(mktemp -d "$WORK/in.XXXX")
  out=$WORK/results/$(basename "$dir")
  make_inputs "$Q" "$dir"
  set +e
  HOME=$WORK "$bin" run --qset "$dir/questions.tsv" --seal "$dir/handoff.md" --repo "$REPO" \
    --agent 'command:true {prompt}' --reps 1 --jobs 1 --sandbox "$mode" --no-preflight --quiet \
    --out "$out" >/dev/null 2>"$dir/err"
  rc=$?
  set -e
  if ! grep -q '^complete: yes' "$out/ROUND_DONE" 2>/dev/null; then
    echo "harness round ($bin, --sandbox $mode) did not complete (exit $rc):" >&2
    cat "$dir/err" >&2
    exit 1
  fi
  # Per-dispatch files are in dispatches/; a binary from before that folder writes them flat.
  d=$out/dispatches
  [ -d "$d" ] || d=$out
  stat -c '%.9Y' "$d"/*.prompt | sort -n | awk 'NR > 1 { printf "%.1f\n", ($1 - p) * 1000 } { p = $1 }' >> "$2"
  sed -n 's/^checkout: //p' "$out/ROUND_DONE" >> "$3"
  rm -rf "$out" "$dir"
}

# K private copies by method $1; appends one time (ms) per copy to $2.
peer_block() {
  local how=$1 i s e dst
  for i in $(seq 1 "$K"); do
    dst=$WORK/peer/$how$i
    mkdir -p "$WORK/peer"
    s=$(now)
    case "$how" in
      cp_r) cp -r "$PLAIN" "$dst" ;;
      clone) git clone -q --no-local --depth 1 "file://$REPO" "$dst" ;;
      archive_tar) mkdir "$dst" && git -C "$REPO" archive HEAD | tar -x -C "$dst" ;;
      worktree) git -C "$REPO" worktree add -q --detach "$dst" HEAD ;;
    esac
    e=$(now)
    ms "$s" "$e" >> "$2"
    if [ "$how" = worktree ]; then
      git -C "$REPO" worktree remove --force "$dst"
    else
      rm -rf "$dst"
    fi
  done
}

# Knobs for focused runs (the defaults run everything):
#   PEERS=           the harness modes only (e.g. many rounds of none against before);
#   NONE=            no --sandbox none rounds (e.g. many rounds of auto across sizes);
#   TEMPLATE_RUNS=0  no template build timing.
PEERS=${PEERS-cp_r clone archive_tar worktree}
NONE=${NONE-yes}
TEMPLATE_RUNS=${TEMPLATE_RUNS-3}
ROWS=$WORK/rows
: > "$ROWS"
for FILES in ${SIZES//,/ }; do
  prepare_tree "$FILES"

  t_ours=nan t_arch=nan
  if [ "$TEMPLATE_RUNS" -gt 0 ]; then
    echo "[$n files] template build vs git archive | tar ..." >&2
    tline=$("$TEMPLATE_BENCH" "$REPO" "$TEMPLATE_RUNS")
    t_ours=$(printf '%s\n' "$tline" | sed -n 's/.*template_build_ms=\([0-9.]*\).*/\1/p')
    t_arch=$(printf '%s\n' "$tline" | sed -n 's/.*git_archive_tar_ms=\([0-9.]*\).*/\1/p')
  fi

  S=$WORK/s$FILES
  mkdir -p "$S"
  for m in auto none before cp_r clone archive_tar worktree; do : > "$S/$m.ms"; done
  : > "$S/methods"
  for r in $(seq 1 "$R"); do
    modes="auto only"
    [ -z "$NONE" ] || modes="auto, none${HARNESS_BEFORE:+ and before (order alternating)}"
    echo "[$n files] round $r/$R: harness $modes${PEERS:+, then $K of each peer} ..." >&2
    run_round auto "$S/auto.ms" "$S/methods"
    if [ -z "$NONE" ]; then
      :
    elif [ -n "${HARNESS_BEFORE:-}" ] && [ $(( r % 2 )) -eq 0 ]; then
      run_round none "$S/before.ms" /dev/null "$HARNESS_BEFORE"
      run_round none "$S/none.ms" "$S/methods"
    else
      run_round none "$S/none.ms" "$S/methods"
      if [ -n "${HARNESS_BEFORE:-}" ]; then
        run_round none "$S/before.ms" /dev/null "$HARNESS_BEFORE"
      fi
    fi
    for p in $PEERS; do peer_block "$p" "$S/$p.ms"; done
  done
  for m in auto none before cp_r clone archive_tar worktree; do eval "med_$m=$(median "$S/$m.ms")"; done
  # shellcheck disable=SC2154
  printf '%s %s %s %s %s %s %s %s %s %s %s %s %s\n' "$n" "$mb" "$t_ours" "$t_arch" \
    "$med_auto" "$med_none" "$med_before" "$med_cp_r" "$med_clone" "$med_archive_tar" "$med_worktree" \
    "$(sort -u "$S/methods" | tr '\n' '/' | sed 's#/$##')" "$(wc -l < "$S/auto.ms")" >> "$ROWS"
  rm -rf "$REPO" "$PLAIN"
done

printf '\nbytes_per_file=%d rounds=%d dispatches_per_round=%d (medians, ms; n = intervals per harness mode)\n' "$PER" "$R" "$K"
printf '%8s %6s | %9s %9s %6s | %9s %9s %9s %9s %9s %9s %9s | %7s %7s %7s %7s %7s %7s | %s\n' \
  files MB template archive ratio auto none before cp_r clone arch_tar worktree \
  auto/cp auto/cln auto/arc none/cp none/cln none/bef "checkout (n)"
while read -r n mb to ta au no be cp cl ar wt meth cnt; do
  printf '%8s %6s | %9s %9s %6s | %9s %9s %9s %9s %9s %9s %9s | %7s %7s %7s %7s %7s %7s | %s (%s)\n' \
    "$n" "$mb" "$to" "$ta" "$(ratio "$to" "$ta")" "$au" "$no" "$be" "$cp" "$cl" "$ar" "$wt" \
    "$(ratio "$au" "$cp")" "$(ratio "$au" "$cl")" "$(ratio "$au" "$ar")" \
    "$(ratio "$no" "$cp")" "$(ratio "$no" "$cl")" "$(ratio "$no" "$be")" "$meth" "$cnt"
done < "$ROWS"
if [ "$(wc -l < "$ROWS")" -gt 1 ]; then
  first=$(head -n 1 "$ROWS") last=$(tail -n 1 "$ROWS")
  times() { local r; r=$(ratio "$1" "$2"); [ "$r" = n/a ] && echo n/a || echo "${r}x"; }
  printf 'growth of the per-dispatch overhead, %s -> %s files: auto %s, none %s\n' \
    "${first%% *}" "${last%% *}" \
    "$(times "$(echo "$last" | cut -d' ' -f5)" "$(echo "$first" | cut -d' ' -f5)")" \
    "$(times "$(echo "$last" | cut -d' ' -f6)" "$(echo "$first" | cut -d' ' -f6)")"
fi
