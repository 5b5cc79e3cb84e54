#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for the `--executor slurm` tests.
#
#   tests/slurm/start.sh        # starts munged, slurmctld and slurmd (as root); waits until idle
#   export SLURM_CONF=/tmp/harness-slurm/slurm.conf   # what it prints last; sbatch & co. need it
#   tests/slurm/stop.sh         # stops exactly what start.sh started
#
# Needs Debian's `slurm-wlm` and `munge` (`.ci/slurm.sh` installs them) and root. Everything it
# writes (config, munge key, state, logs, pid files) lives in $HARNESS_SLURM_DIR
# (default /tmp/harness-slurm); nothing under /etc is touched and no system service is started.
# Idempotent: when the cluster of that folder is already up and idle it only prints the export.
set -euo pipefail

DIR=${HARNESS_SLURM_DIR:-/tmp/harness-slurm}
CTLD_PORT=${HARNESS_SLURM_CTLD_PORT:-6817}
SLURMD_PORT=${HARNESS_SLURM_SLURMD_PORT:-6818}
CONF="$DIR/slurm.conf"
export SLURM_CONF="$CONF"

die() { echo "tests/slurm/start.sh: $*" >&2; exit 1; }
alive() { [[ -s "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

[[ $(id -u) -eq 0 ]] || die "run as root: slurmctld and slurmd run as root here (SlurmUser=root)"
for tool in munged slurmctld slurmd sinfo sbatch squeue scancel; do
    command -v "$tool" >/dev/null || die "$tool not found; install Debian's slurm-wlm and munge (see .ci/slurm.sh)"
done

NODE=$(hostname -s)
node_state() { sinfo -h -n "$NODE" -o '%T' 2>/dev/null | head -1; }

if alive "$DIR/munged.pid" && alive "$DIR/slurmctld.pid" && alive "$DIR/slurmd.pid" \
    && [[ $(node_state) == idle* || $(node_state) == mixed* || $(node_state) == allocated* ]]; then
    echo "slurm test cluster already up in $DIR (node $NODE: $(node_state))"
    echo "export SLURM_CONF=$CONF"
    exit 0
fi
# Half-started or dead from an earlier run: stop what is left, then start clean.
"$(dirname "$0")/stop.sh" >/dev/null 2>&1 || true

mkdir -p "$DIR"/{munge,state,spool,log}
chmod 0700 "$DIR/munge"

# munge: its own key and socket, so a system munged (if any) is never used or disturbed.
if [[ ! -s "$DIR/munge/munge.key" ]]; then
    dd if=/dev/urandom of="$DIR/munge/munge.key" bs=1024 count=1 status=none
fi
chmod 0400 "$DIR/munge/munge.key"
SOCKET="$DIR/munge/munge.socket"
munged --force --key-file="$DIR/munge/munge.key" --socket="$SOCKET" \
    --pid-file="$DIR/munged.pid" --log-file="$DIR/log/munged.log" \
    --seed-file="$DIR/munge/munged.seed" \
    || die "munged did not start; see $DIR/log/munged.log"

# The node as slurmd sees it: this machine's CPUs and memory (a little memory kept back for
# the daemons, so a job asking for "all of it" is not refused by slurmd's own accounting).
read -r CPUS MEM < <(slurmd -C | awk '/^NodeName/ {
    for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    print v["CPUs"], v["RealMemory"] }')
[[ -n ${CPUS:-} && -n ${MEM:-} ]] || die "slurmd -C did not report CPUs and memory"
MEM=$(( MEM > 1024 ? MEM - 512 : MEM ))

cat > "$CONF" <<CONF
# Written by tests/slurm/start.sh: one node, this machine, everything under $DIR.
ClusterName=harness-test
SlurmctldHost=$NODE(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCKET
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
DefMemPerCPU=$(( MEM / CPUS ))
ReturnToService=2
MinJobAge=600
MaxArraySize=100001
MaxJobCount=200000
SchedulerParameters=batch_sched_delay=0,sched_min_interval=100000
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
PartitionName=debug Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
CONF
# slurmctld/slurmd read cgroup.conf only for cgroup plugins; none is used here.

slurmctld -f "$CONF" -c || die "slurmctld did not start; see $DIR/log/slurmctld.log"
slurmd -f "$CONF" || die "slurmd did not start; see $DIR/log/slurmd.log"

for _ in $(seq 1 120); do
    state=$(node_state)
    case $state in
        idle*) break ;;
        down*|drain*) scontrol update nodename="$NODE" state=resume >/dev/null 2>&1 || true ;;
    esac
    sleep 0.5
done
[[ $(node_state) == idle* ]] || die "node $NODE is '$(node_state)', not idle, after 60 s; see $DIR/log/"
echo "slurm test cluster up in $DIR: node $NODE, $CPUS CPUs, $MEM MB, partition debug"
echo "export SLURM_CONF=$CONF"
