#!/bin/sh
# `gatedreader.sh GATE PROMPT`: sealreader.sh once the folder GATE holds a file named `open`.
# It first leaves `GATE/started.<pid>`, so a test knows an agent is mid-run and can preempt it
# there, not by luck of timing; it waits at most 120 s, then fails. It reads outside its
# checkout, so it only works under --sandbox none.
gate=$1
shift
: > "$gate/started.$$"
n=0
while [ ! -e "$gate/open" ] && [ "$n" -lt 1200 ]; do
  sleep 0.1
  n=$((n + 1))
done
if [ ! -e "$gate/open" ]; then
  echo "gatedreader: the gate never opened" >&2
  exit 3
fi
exec "$(dirname "$0")/sealreader.sh" "$@"
