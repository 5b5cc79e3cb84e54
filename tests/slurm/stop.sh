#!/usr/bin/env bash
# Stops the cluster tests/slurm/start.sh started in $HARNESS_SLURM_DIR (default
# /tmp/harness-slurm): cancels its jobs, then ends slurmd, slurmctld and munged by the pids in
# their pid files (never by name), waiting for each to exit. Safe to run when nothing is up.
set -uo pipefail

DIR=${HARNESS_SLURM_DIR:-/tmp/harness-slurm}
export SLURM_CONF="$DIR/slurm.conf"
[[ -d $DIR ]] || { echo "no slurm test cluster in $DIR"; exit 0; }

alive() { [[ -s "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

# Jobs first, while the controller can still kill their steps on the node.
if alive "$DIR/slurmctld.pid" && [[ -s $SLURM_CONF ]]; then
    scancel --full --quiet --user=root 2>/dev/null || true
    for _ in $(seq 1 40); do
        [[ -z $(squeue -h -t PENDING,RUNNING,COMPLETING,CONFIGURING 2>/dev/null) ]] && break
        sleep 0.25
    done
fi

stop_pid() {
    local pidfile=$1 name=$2 pid
    alive "$pidfile" || { rm -f "$pidfile"; return 0; }
    pid=$(cat "$pidfile")
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 1 40); do
        kill -0 "$pid" 2>/dev/null || { rm -f "$pidfile"; echo "stopped $name ($pid)"; return 0; }
        sleep 0.25
    done
    kill -KILL "$pid" 2>/dev/null
    rm -f "$pidfile"
    echo "killed $name ($pid) after 10 s"
}
stop_pid "$DIR/slurmd.pid" slurmd
stop_pid "$DIR/slurmctld.pid" slurmctld
stop_pid "$DIR/munged.pid" munged
