#!/bin/sh
# Reports what an agent can see from inside a dispatch: used by tests and by
# `harness run --agent 'command:/abs/tests/agents/probe.sh {prompt}'` to check isolation by hand.
# Arguments after the prompt are folders to look into for `*.labelmap` files and round journals
# (`journal/plan.json`, e.g. in the out-dir and its parent): what exists while agents run can be
# read by one unless the sandbox forbids it.
[ $# -gt 0 ] && shift
echo "cwd: $(pwd)"
echo "remotes: $(git remote -v 2>/dev/null | wc -l | tr -d ' ')"
git remote -v 2>/dev/null | sed 's/^/remote: /'
echo "git_works: $(git rev-parse --is-inside-work-tree 2>&1 | head -n 1)"
echo "commits: $(git log --oneline 2>/dev/null | wc -l | tr -d ' ')"
echo "all_refs_commits: $(git log --all --oneline 2>/dev/null | wc -l | tr -d ' ')"
echo "reflog: $(git reflog 2>/dev/null | wc -l | tr -d ' ')"
echo "refs: $(git for-each-ref --format='%(refname)' 2>/dev/null | tr '\n' ' ')"
if ls tracks/_meta/compaction/* >/dev/null 2>&1; then echo "seal: present"; else echo "seal: absent"; fi
echo "env: $(env | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=.*/\1/p' | sort | tr '\n' ' ')"
echo "home: $HOME"
echo "home_entries: $(ls -A "$HOME" 2>/dev/null | tr '\n' ' ')"
# Every file in the home, with its content: the user's agent memory must not be here.
find "$HOME" -type f 2>/dev/null | while IFS= read -r f; do
  echo "home_file: $f: $(head -c 200 "$f" | tr '\n' ' ')"
done
found=none
d=$(pwd)
while [ "$d" != "/" ]; do
  d=$(dirname "$d")
  for f in "$d"/*.labelmap; do
    [ -e "$f" ] && found="$f"
  done
done
echo "labelmap_above: $found"
for w in "$@"; do
  if ls "$w" >/dev/null 2>&1; then
    hits=$( (find "$w" -maxdepth 2 -name '*.labelmap'; find "$w" -maxdepth 3 -path '*/journal/plan.json') 2>/dev/null | tr '\n' ' ')
    echo "watch: $w: readable: ${hits:-none}"
  else
    echo "watch: $w: unreadable"
  fi
done
echo "procs: $(ls /proc 2>/dev/null | grep -c '^[0-9][0-9]*$')"
# The mount table (issue 14): an overlay checkout's mount must name no arm, no path of the
# round and no layer outside the dispatch's own folder. One line per mount.
sed 's/^/mountinfo: /' /proc/self/mountinfo 2>/dev/null
