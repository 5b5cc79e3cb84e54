#!/usr/bin/env bash
# Wall time of one round through two executors, side by side: local `--jobs J` versus
# `--executor slurm --jobs J` on the one-node test cluster (tests/slurm/start.sh), with a 2 s
# agent (tests/agents/slowreader.sh: sleeps 2 s, then answers from the seal). Q questions x 2
# arms x REPS reps; the default is 20 x 2 x 5 = 200 dispatches. Both rounds must end complete
# with the same rows, or the numbers mean nothing and the script fails.
#
# Usage (root, cluster up, SLURM_CONF exported):
#   tests/slurm/start.sh && export SLURM_CONF=/tmp/harness-slurm/slurm.conf
#   benches/executor_wall.sh [Q=20] [REPS=5] [JOBS=2]
#   tests/slurm/stop.sh
set -euo pipefail

Q=${1:-20}
REPS=${2:-5}
J=${3:-2}
HERE=$(cd "$(dirname "$0")/.." && pwd)
: "${SLURM_CONF:?export SLURM_CONF (tests/slurm/start.sh prints it)}"
WORK=$(mktemp -d /tmp/harness-executor-wall.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

echo "building harness (release) ..." >&2
cargo build -q --release -p harness --manifest-path "$HERE/Cargo.toml"
HARNESS=$HERE/target/release/harness

# The repository, and a qset whose tokens are assembled here (never literal in this file):
# half positives the seal answers, half negatives it is silent on.
mkdir -p "$WORK/repo" "$WORK/inputs"
git -C "$WORK/repo" init -q
printf 'A small service.\n' > "$WORK/repo/README.md"
git -C "$WORK/repo" add -A
git -C "$WORK/repo" -c user.name=b -c user.email=b@example.invalid commit -qm base
printf 'qid\tkind\tquestion\ttoken\n' > "$WORK/inputs/q.tsv"
printf '# Hand-off\n' > "$WORK/inputs/seal.md"
words=(alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu)
for i in $(seq 1 "$Q"); do
    w=${words[$(( (i - 1) % ${#words[@]} ))]}$i
    t="zz$w$(( 9 * 7 * 11 ))"
    if (( i % 2 )); then
        printf 'P%d\tpositive\tWhat is the %s setting?\t%s\n' "$i" "$w" "$t" >> "$WORK/inputs/q.tsv"
        printf '%s setting: %s\n' "$w" "$t" >> "$WORK/inputs/seal.md"
    else
        printf 'N%d\tnegative\tWhat is the %s colour?\t%s\n' "$i" "$w" "$t" >> "$WORK/inputs/q.tsv"
    fi
done
AGENT="command:$HERE/tests/agents/slowreader.sh {prompt}"
N=$(( Q * 2 * REPS ))

round() {  # round NAME EXTRA...
    local name=$1; shift
    local t0 t1
    t0=$(date +%s.%N)
    (cd "$WORK/repo" && "$HARNESS" run --quiet --qset "$WORK/inputs/q.tsv" --seal "$WORK/inputs/seal.md" \
        --agent "$AGENT" --reps "$REPS" --jobs "$J" --out "$WORK/$name" "$@" > "$WORK/$name.log" 2>&1) || true
    t1=$(date +%s.%N)
    grep -q '^complete: yes' "$WORK/$name/ROUND_DONE" || { echo "$name: round incomplete" >&2; tail -20 "$WORK/$name.log" >&2; exit 1; }
    awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }'
}

echo "round: $Q questions x 2 arms x $REPS reps = $N dispatches, 2 s agent, --jobs $J" >&2
local_s=$(round local)
slurm_s=$(round slurm --executor slurm)
rows() { cut -d, -f2-6 "$1/verdicts.csv" | sort; }
if ! diff <(rows "$WORK/local") <(rows "$WORK/slurm") >/dev/null; then
    echo "the two rounds' rows differ" >&2; exit 1
fi
printf 'dispatches: %d (agent: 2 s each; ideal at %d at once: %d s)\n' "$N" "$J" $(( N * 2 / J ))
printf 'local --jobs %d:            %7.1f s\n' "$J" "$local_s"
printf 'slurm --jobs %d (1 node):   %7.1f s\n' "$J" "$slurm_s"
printf 'slurm / local:             %7.2f\n' "$(awk -v a="$local_s" -v b="$slurm_s" 'BEGIN { print b / a }')"
printf 'rows: identical (%d)\n' "$(rows "$WORK/local" | wc -l)"
