#!/bin/sh
# sealreader.sh after a 2 s pause: a deterministic agent slow enough to be caught mid-run
# (preemption tests) and to make executor wall times comparable (benches/executor_wall.sh).
sleep 2
exec "$(dirname "$0")/sealreader.sh" "$@"
