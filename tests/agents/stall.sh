#!/bin/sh
# For Ctrl-C and resume tests: `stall.sh PROMPT STATE_DIR [SECONDS [READER]]`. A prompt containing
# "slowly" stalls until STATE_DIR/go exists: it appends its own pid and a sleeping child's
# pid to STATE_DIR/pids and waits, so a test can check that a cancel left no process behind.
# Inside the sandbox STATE_DIR is out of reach; the child's `sleep SECONDS` (default 300) is
# then what a test finds in /proc.
# Every answer then comes from sealreader.sh (seal present: answer; absent: refuse), or from
# READER: under --sandbox auto/full only the files a command names get a read rule, never the
# folder they sit in, so a sandboxed round names the reader as an absolute argument.
prompt=$1
state=$2
case "$prompt" in
  *slowly*)
    if [ ! -e "$state/go" ]; then
      sleep "${3:-300}" &
      echo "$$ $!" >> "$state/pids"
      wait
    fi
    ;;
esac
exec "${4:-$(dirname "$0")/sealreader.sh}" "$prompt"
