#!/bin/sh
# Reports what an agent can see from inside a dispatch: used by tests and by
# `harness run --agent command:tests/agents/probe.sh` to check isolation by hand.
echo "cwd: $(pwd)"
echo "remotes: $(git remote -v 2>/dev/null | wc -l | tr -d ' ')"
git remote -v 2>/dev/null | sed 's/^/remote: /'
echo "commits: $(git log --oneline 2>/dev/null | wc -l | tr -d ' ')"
echo "all_refs_commits: $(git log --all --oneline 2>/dev/null | wc -l | tr -d ' ')"
echo "reflog: $(git reflog 2>/dev/null | wc -l | tr -d ' ')"
if ls tracks/_meta/compaction/* >/dev/null 2>&1; then echo "seal: present"; else echo "seal: absent"; fi
echo "env: $(env | sed 's/=.*//' | sort | tr '\n' ' ')"
echo "home: $HOME"
echo "home_entries: $(ls -A "$HOME" 2>/dev/null | tr '\n' ' ')"
found=none
d=$(pwd)
while [ "$d" != "/" ]; do
  d=$(dirname "$d")
  for f in "$d"/*.labelmap; do
    [ -e "$f" ] && found="$f"
  done
done
echo "labelmap_above: $found"
echo "procs: $(ls /proc 2>/dev/null | grep -c '^[0-9][0-9]*$')"
