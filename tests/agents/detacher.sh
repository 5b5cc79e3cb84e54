#!/bin/sh
# Misbehaves the way issue 12 found: leaves processes behind that left its process group.
# `detacher.sh PROMPT MARK [stay]` starts `sleep MARK` three ways: in the background keeping
# stdout (still in the group), after `setsid` keeping stdout and stderr open, and
# double-forked under `nohup setsid` with its output sent elsewhere (holding nothing of the
# dispatch). It answers "I don't know." and exits 0; with `stay` it then sleeps MARK itself
# (a dispatch still running). MARK is a sleep length no other test uses, so a test finds
# every leftover in /proc by its command line.
mark=$2
sleep "$mark" &
setsid sleep "$mark" &
( nohup setsid sleep "$mark" >/dev/null 2>&1 </dev/null & )
echo "I don't know."
if [ "$3" = stay ]; then
  exec sleep "$mark"
fi
exit 0
