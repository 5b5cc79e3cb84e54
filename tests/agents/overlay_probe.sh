#!/bin/sh
# Overlay probe (issue 14): reports what one dispatch sees of earlier dispatches and of its
# mount table, then leaves traces for the next dispatch to find: a new file and an edit of a
# tracked file. Prints one `key=value` line per fact.
echo "leftovers=$(ls -a | grep -c '^left-over-')"
echo "readme=$(tr -d '\n' < README.md)"
echo "left" > "left-over-$$"
echo "tampered" >> README.md
grep ' - overlay \| - tmpfs \| - ext4 \| - xfs \| - btrfs ' /proc/self/mountinfo | sed 's/^/mount=/'
echo "cwd=$(pwd)"
