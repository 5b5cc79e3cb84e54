#!/usr/bin/env bash
# The Slurm executor's tests on a real one-node cluster (tests/slurm/start.sh), run by .ci/run.
# Installs Debian's slurm-wlm and munge (pinned) when it can; when it cannot (not root, no
# apt-get, not Debian bookworm), it says what it skipped and why and exits 0. When it ran the
# tests and one failed, it exits non-zero. The cluster is stopped on every way out.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SLURM_VERSION=22.05.8-4+deb12u3
MUNGE_VERSION=0.5.15-2+deb12u1
skip() { echo "slurm: SKIPPED: $*"; exit 0; }

echo "== slurm: executor tests on a one-node cluster"
[[ $(id -u) -eq 0 ]] || skip "not root (slurmctld and slurmd run as root in the test cluster)"
if ! command -v sbatch >/dev/null || ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    command -v apt-get >/dev/null || skip "no apt-get to install slurm-wlm and munge"
    echo "slurm: installing slurm-wlm $SLURM_VERSION and munge $MUNGE_VERSION"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            "slurm-wlm=$SLURM_VERSION" "slurmctld=$SLURM_VERSION" "slurmd=$SLURM_VERSION" \
            "slurm-client=$SLURM_VERSION" "munge=$MUNGE_VERSION" >/dev/null; }; then
        skip "apt-get could not install slurm-wlm=$SLURM_VERSION and munge=$MUNGE_VERSION (not Debian bookworm?)"
    fi
fi

trap 'tests/slurm/stop.sh' EXIT
start=$(date +%s)
tests/slurm/start.sh || { echo "slurm: FAILED: the test cluster did not start"; exit 1; }
echo "slurm: cluster up in $(( $(date +%s) - start )) s"
export SLURM_CONF=${HARNESS_SLURM_DIR:-/tmp/harness-slurm}/slurm.conf

# One test at a time: they share the cluster's two CPUs and watch its queue.
cargo test -p harness --locked --lib executor::slurm -- --ignored --test-threads 1 &&
    cargo test -p harness --locked --test slurm -- --ignored --test-threads 1
