#!/usr/bin/env bash
# Issue 12's load bar, heavy so not in the default suite: 2,000 dispatches of a fast,
# well-behaved agent at --jobs 64 must end with zero failed dispatches, three times in a row
# under the default sandbox (auto), and once more under --sandbox none. About 15-20 s a run
# on two cores (release build). Fails CI when any run has a failed dispatch.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

stress() {
    local out rc=0
    out=$(HARNESS_STRESS_SANDBOX="$1" cargo test --release --locked -p harness --test procs \
        two_thousand_fast_dispatches_at_jobs_64_never_fail -- --ignored --nocapture 2>&1) || rc=$?
    grep -E '^stress:|^test result' <<<"$out" || true
    if [ "$rc" -ne 0 ]; then
        tail -n 60 <<<"$out"
        echo "procs: stress run under --sandbox $1 FAILED"
        exit 1
    fi
}

for run in 1 2 3; do
    echo "== procs: stress run $run of 3 (2,000 dispatches, --jobs 64, --sandbox auto)"
    stress auto
done
echo "== procs: stress run under --sandbox none"
stress none
echo "procs: every stress run ended with zero failed dispatches"
