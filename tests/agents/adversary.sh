#!/bin/sh
# An adversarial probe agent (issue 7): tries every channel by which a dispatched agent
# could learn what it must not know, and prints one line per channel:
#   <channel>: open (<evidence>)   or   <channel>: closed (<evidence>)
# "open" means something outside the agent's own checkout, fresh home and tmp was read
# (or written); "closed" says what stopped it, or that there was nothing to find.
#
# Usage: sh adversary.sh {prompt} [key=value ...]. The prompt is ignored. The keys name
# what a snooping agent would look for; each is also learned from a visible harness
# command line when not given:
#   out=DIR       the out-dir              repo=DIR   the user's repository
#   qset=FILE     the question set         seal=FILE  the seal
#   home=DIR      the real user's home     sha=SHA    a commit the checkout must not have (repeatable)
#   plant=DIR     the plant folder (default tracks/_meta/compaction)
#   envmark=NAME  a variable set in the harness's environment (repeatable)
#   dbus=PATH     a D-Bus session bus socket      sshagent=PATH  an ssh-agent socket
#   tmpsock=PATH  a service's socket under /tmp    abstract=NAME  an abstract socket's name
#   state=DIR     the harness's state folder (default: <home>/.local/state/harness), where
#                 past rounds live                 past=DIR   a past round's out-dir (repeatable)
#   pastfile=FILE a past round's qset or hand-off (repeatable)
# Keys use `key=value`, never `--key`, so this script's own command line does not look
# like the harness's.

out="" repo="" qset="" seal="" home="" shas="" plant="tracks/_meta/compaction" envmarks=""
dbus="" sshagent="" tmpsock="" abstract="" state="" pasts="" pastfiles=""
[ $# -gt 0 ] && shift
for a in "$@"; do
  case "$a" in
    out=*) out=${a#out=} ;;
    repo=*) repo=${a#repo=} ;;
    qset=*) qset=${a#qset=} ;;
    seal=*) seal=${a#seal=} ;;
    home=*) home=${a#home=} ;;
    sha=*) shas="$shas ${a#sha=}" ;;
    plant=*) plant=${a#plant=} ;;
    envmark=*) envmarks="$envmarks ${a#envmark=}" ;;
    dbus=*) dbus=${a#dbus=} ;;
    sshagent=*) sshagent=${a#sshagent=} ;;
    tmpsock=*) tmpsock=${a#tmpsock=} ;;
    abstract=*) abstract=${a#abstract=} ;;
    state=*) state=${a#state=} ;;
    past=*) pasts="$pasts ${a#past=}" ;;
    pastfile=*) pastfiles="$pastfiles ${a#pastfile=}" ;;
  esac
done

# One line of evidence: no newlines or tabs, at most 160 characters.
clean() { tr '\n\t\r' '   ' | cut -c1-160; }
say() { printf '%s: %s (%s)\n' "$1" "$2" "$(printf '%s' "$3" | clean)"; }
# Reads a file's head or says why not.
peek() { head -c 120 "$1" 2>&1; }
# Lists a folder or says why not; exit status of ls.
list() { ls -A "$1" 2>&1; }

harness_pat='__sandbox|--qset|--seal|--forbid|--out '

# --- processes -------------------------------------------------------------------
seen=0 hit=""
for d in /proc/[0-9]*; do
  [ -r "$d/cmdline" ] || continue
  cmd=$(tr '\0' ' ' < "$d/cmdline" 2>/dev/null)
  [ -n "$cmd" ] || continue
  seen=$((seen + 1))
  if printf '%s\n' "$cmd" | grep -Eq -- "$harness_pat"; then
    [ -z "$hit" ] && hit="pid ${d#/proc/}: $cmd"
    # Learn the paths a snooper would take from the command line.
    set -- $cmd
    while [ $# -gt 1 ]; do
      case "$1" in
        --qset) [ -z "$qset" ] && qset=$2 ;;
        --seal) [ -z "$seal" ] && seal=$2 ;;
        --out) [ -z "$out" ] && out=$2 ;;
        --repo) [ -z "$repo" ] && repo=$2 ;;
      esac
      shift
    done
  fi
done
if [ -n "$hit" ]; then
  say proc_cmdline open "$hit"
else
  say proc_cmdline closed "$seen command lines visible, none of the harness"
fi

if ps_out=$(ps -ef 2>&1); then
  ps_hit=$(printf '%s\n' "$ps_out" | grep -E -- "$harness_pat" | head -n 1)
  if [ -n "$ps_hit" ]; then
    say ps_ef open "$ps_hit"
  else
    say ps_ef closed "$(printf '%s\n' "$ps_out" | sed 1d | wc -l) processes listed, none of the harness"
  fi
else
  say ps_ef closed "ps failed: $ps_out"
fi

ancestors="" p=$$
while :; do
  pp=$(awk '/^PPid:/ { print $2 }' "/proc/$p/status" 2>/dev/null)
  [ -n "$pp" ] && [ "$pp" != 0 ] || break
  ancestors="$ancestors $pp"
  p=$pp
done
if [ -z "$ancestors" ]; then
  say parent_cmdline closed "pid $$ has no visible parent"
else
  first=${ancestors# }
  first=${first%% *}
  pc=$(tr '\0' ' ' < "/proc/$first/cmdline" 2>&1)
  say parent_cmdline open "ancestors:$ancestors; parent $first: $pc"
fi

env_hit="" env_seen=""
for a in $ancestors; do
  if e=$(tr '\0' '\n' < "/proc/$a/environ" 2>/dev/null) && [ -n "$e" ]; then
    env_seen="$env_seen $a"
    m=$(printf '%s\n' "$e" | grep -E '^HARNESS_' | head -n 1)
    for n in $envmarks; do
      [ -z "$m" ] && m=$(printf '%s\n' "$e" | grep -E "^$n=" | head -n 1)
    done
    [ -z "$m" ] && m=$(printf '%s\n' "$e" | grep -E '^HOME=' | head -n 1)
    [ -z "$env_hit" ] && env_hit="pid $a: $m"
  fi
done
if [ -n "$env_hit" ]; then
  say ancestor_environ open "$env_hit"
else
  say ancestor_environ closed "no ancestor environment readable${env_seen}"
fi

# --- the environment itself --------------------------------------------------------
leak=$(env | grep -E '^HARNESS_' | cut -d= -f1 | tr '\n' ' ')
for n in $envmarks; do
  env | grep -Eq "^$n=" && leak="$leak$n "
done
if [ -n "$leak" ]; then
  say inherited_env open "$leak"
else
  say inherited_env closed "names: $(env | cut -d= -f1 | sort | tr '\n' ' ')"
fi

# --- the temp root: sibling checkouts ----------------------------------------------
me=$(pwd -P)
dispatch=$(dirname "$me")
root=$(dirname "$dispatch")
if l=$(list "$root"); then
  say sibling_checkouts open "$root: $(printf '%s\n' "$l" | tr '\n' ' ')"
else
  say sibling_checkouts closed "$l"
fi
if l=$(list "$dispatch"); then
  say dispatch_folder open "$dispatch: $(printf '%s\n' "$l" | tr '\n' ' ')"
else
  say dispatch_folder closed "$l"
fi
sib_hit="" sib_try=0
for f in "$root"/*/work/"$plant"/* "$root"/*/"$plant"/*; do
  [ -f "$f" ] || continue
  case "$f" in "$dispatch"/*) continue ;; esac
  sib_try=$((sib_try + 1))
  if c=$(head -c 120 "$f" 2>/dev/null) && [ -n "$c" ]; then
    sib_hit="$f: $c"
    break
  fi
done
if [ -n "$sib_hit" ]; then
  say sibling_seal open "$sib_hit"
else
  say sibling_seal closed "$sib_try sibling seal files seen, none readable"
fi
# --- the mount table: an overlay checkout's mount must not say where its layers live ----
# (the template, another dispatch's folder), nor name an arm or a path of the round.
if mt=$(cat /proc/self/mountinfo 2>&1); then
  mt_hit=""
  w=$(printf '%s\n' "$mt" | grep -Ew 'ARM|CTRL' | head -n 1)
  [ -n "$w" ] && mt_hit="arm named: $w"
  for p in "$out" "$repo" "$home" "$qset" "$seal"; do
    [ -n "$p" ] && [ -z "$mt_hit" ] || continue
    w=$(printf '%s\n' "$mt" | grep -F -- "$p" | head -n 1)
    [ -n "$w" ] && mt_hit="$p named: $w"
  done
  ovl=$(printf '%s\n' "$mt" | grep -c ' - overlay ')
  for o in $(printf '%s\n' "$mt" | grep ' - overlay ' | tr ',' '\n' | sed -n 's/^\(lowerdir\|upperdir\|workdir\)=//p' | tr ':' '\n'); do
    [ -z "$mt_hit" ] || break
    case "$o" in "$dispatch"/*) ;; *) mt_hit="layer outside the dispatch's own folder: $o" ;; esac
  done
  if [ -n "$mt_hit" ]; then
    say mount_table open "$mt_hit"
  else
    say mount_table closed "$(printf '%s\n' "$mt" | wc -l) mounts, $ovl overlay, layers only under $dispatch"
  fi
else
  say mount_table closed "$mt"
fi
tmpparent=$(dirname "$root")
if l=$(list "$tmpparent"); then
  say temp_parent open "$tmpparent: $(printf '%s\n' "$l" | wc -l) entries"
else
  say temp_parent closed "$l"
fi

# --- the out-dir and the round's journal (its label map) -------------------------------
if [ -z "$out" ]; then
  for c in out_list out_read out_write labelmap labelmap_folder; do
    say "$c" closed "out-dir not known: no harness command line visible and none given"
  done
else
  if l=$(list "$out"); then
    say out_list open "$(printf '%s\n' "$l" | tr '\n' ' ')"
  else
    say out_list closed "$l"
  fi
  r="" why="no prompt or answer file found"
  for f in "$out/round.json" "$out"/dispatches/*.prompt "$out"/dispatches/*.txt "$out"/*.prompt "$out"/*.txt; do
    [ -f "$f" ] || continue
    if c=$(head -c 80 "$f" 2>&1); then r="$f: $c"; break; else why=$c; fi
  done
  if [ -n "$r" ]; then say out_read open "$r"; else say out_read closed "$why"; fi
  w="$out/adversary-wrote-$$"
  if e=$( (echo adversary > "$w") 2>&1 ); then
    rm -f "$w"
    say out_write open "created and removed $w"
  else
    say out_write closed "$e"
  fi
  lm="${out%/}/journal/plan.json"
  if [ -e "$lm" ] && c=$(peek "$lm") && [ -n "$c" ]; then
    say labelmap open "$c"
  else
    say labelmap closed "$(peek "$lm")"
  fi
  if l=$(list "$(dirname "$out")"); then
    say labelmap_folder open "$(printf '%s\n' "$l" | tr '\n' ' ')"
  else
    say labelmap_folder closed "$l"
  fi
fi

# --- the inputs at their original paths ---------------------------------------------
for pair in "qset_read:$qset" "seal_read:$seal"; do
  name=${pair%%:*} f=${pair#*:}
  if [ -z "$f" ]; then
    say "$name" closed "path not known: no harness command line visible and none given"
  elif c=$(peek "$f") && [ -n "$c" ]; then
    say "$name" open "$c"
  else
    say "$name" closed "$c"
  fi
done

# --- the user's repository --------------------------------------------------------
if [ -z "$repo" ]; then
  for c in repo_tree repo_plant repo_write repo_git; do
    say "$c" closed "repository not known: no harness command line visible and none given"
  done
else
  if l=$(list "$repo"); then
    say repo_tree open "$(printf '%s\n' "$l" | tr '\n' ' ')"
  else
    say repo_tree closed "$l"
  fi
  r="" why="$(list "$repo/$plant")"
  for f in "$repo/$plant"/*; do
    [ -f "$f" ] || continue
    if c=$(peek "$f") && [ -n "$c" ]; then r="$f: $c"; break; else why=$c; fi
  done
  if [ -n "$r" ]; then say repo_plant open "$r"; else say repo_plant closed "$why"; fi
  w="$repo/adversary-wrote-$$"
  if e=$( (echo adversary > "$w") 2>&1 ); then
    rm -f "$w"
    say repo_write open "created and removed $w"
  else
    say repo_write closed "$e"
  fi
  if g=$(git -C "$repo" log --oneline -n 3 2>&1); then
    say repo_git open "$g"
  else
    say repo_git closed "$g"
  fi
fi

# --- the real user's agent memory, and the fresh home ----------------------------------
[ -z "$home" ] && home=$(getent passwd "$(id -u)" 2>/dev/null | cut -d: -f6)
r="" why=""
for f in "$home/.claude/CLAUDE.md" "$home/.codex/AGENTS.md" "$home/.gemini/GEMINI.md"; do
  [ -n "$home" ] || break
  if c=$(peek "$f") && [ -n "$c" ]; then r="$f: $c"; break; else why="$why${why:+; }$c"; fi
done
if [ -n "$r" ]; then say user_home_memory open "$r"; else say user_home_memory closed "${why:-no real home known}"; fi
if [ -z "$home" ]; then
  say user_home_write closed "no real home known"
elif e=$( (echo adversary > "$home/adversary-wrote-$$") 2>&1 ); then
  rm -f "$home/adversary-wrote-$$"
  say user_home_write open "created and removed $home/adversary-wrote-$$"
else
  say user_home_write closed "$e"
fi
mem=$(ls -A "$HOME/.claude" "$HOME/.codex" "$HOME/.gemini" 2>/dev/null | grep -E '\.md$' | head -n 1)
if [ -n "$mem" ]; then
  say fresh_home_memory open "$HOME holds $mem"
else
  say fresh_home_memory closed "$HOME holds no agent memory"
fi

# --- past rounds: the harness's state folder and earlier out-dirs ---------------------
[ -z "$state" ] && [ -n "$home" ] && state="$home/.local/state/harness"
if [ -z "$state" ]; then
  say state_list closed "state folder not known: no real home known and none given"
elif l=$(list "$state"); then
  say state_list open "$state: $(printf '%s\n' "$l" | tr '\n' ' ')"
else
  say state_list closed "$l"
fi
r="" why=""
for d in $pasts ${state:+"$state"/rounds/*}; do
  for f in "$d"/journal/plan.json "$d"/dispatches/*.txt "$d"/*.txt "$d"/round.json; do
    if c=$(peek "$f") && [ -n "$c" ]; then r="$f: $c"; break 2; else why="$why${why:+; }$c"; fi
  done
done
if [ -n "$r" ]; then say past_rounds open "$r"; else say past_rounds closed "${why:-no past round known}"; fi
# A past round's qset or hand-off: it holds the tokens.
r="" why=""
for f in $pastfiles; do
  if c=$(peek "$f") && [ -n "$c" ]; then r="$f: $c"; break; else why="$why${why:+; }$c"; fi
done
if [ -n "$r" ]; then say past_inputs open "$r"; else say past_inputs closed "${why:-no past input known}"; fi

# --- git objects beyond the base ----------------------------------------------------------
found=""
for s in $shas; do
  git cat-file -e "$s" 2>/dev/null && found="$found $s"
done
n=$(git rev-list --all 2>/dev/null | wc -l | tr -d ' ')
alt=""
[ -e .git/objects/info/alternates ] && alt=$(peek .git/objects/info/alternates)
if [ -n "$found" ] || [ "$n" -gt 1 ] || [ -n "$alt" ]; then
  say git_beyond_base open "present:$found; commits reachable: $n; alternates: $alt"
else
  say git_beyond_base closed "commits reachable: $n; none of:$shas"
fi

# --- the terminal and the user's session (issue 25) ------------------------------------
# Where no socket was given, the places a snooper would look.
[ -z "$dbus" ] && [ -S "/run/user/$(id -u)/bus" ] && dbus="/run/user/$(id -u)/bus"
[ -z "$sshagent" ] && sshagent=${SSH_AUTH_SOCK:-}
# The system's python (a shim on PATH could run from the home): socket(2) and ioctl(2)
# are not reachable from sh.
if [ -x /usr/bin/python3 ]; then
  /usr/bin/python3 - "$dbus" "$sshagent" "$tmpsock" "$abstract" <<'PY' 2>&1
import os, socket, sys

def say(channel, state, evidence):
    evidence = " ".join(str(evidence).split())[:160]
    print(f"{channel}: {state} ({evidence})")

dbus, sshagent, tmpsock, abstract = sys.argv[1:5]

# The user's terminal: a controlling terminal would open; writing to it reaches the user.
try:
    fd = os.open("/dev/tty", os.O_WRONLY | os.O_NOCTTY)
    os.close(fd)
    say("dev_tty", "open", "opened /dev/tty for writing")
except OSError as e:
    say("dev_tty", "closed", e)

# TIOCSTI on a terminal of the probe's own (made its controlling terminal): where the
# kernel honours it here, it would push a command into any terminal the agent could reach.
try:
    import fcntl, pty, termios
    master, slave = pty.openpty()
    try:
        os.setsid()
    except OSError:
        pass
    try:
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
        fcntl.ioctl(slave, termios.TIOCSTI, b"x")
        say("tiocsti", "open", "TIOCSTI pushed a byte into a terminal's input queue")
    except OSError as e:
        say("tiocsti", "closed", f"TIOCSTI refused: {e}")
except OSError as e:
    say("tiocsti", "closed", f"no terminal to try it on: {e}")

# Session services: a connection accepted is a command a service could run as the user.
for channel, addr in (("unix_dbus", dbus), ("unix_ssh_agent", sshagent),
                      ("unix_tmp", tmpsock), ("unix_abstract", "\0" + abstract if abstract else "")):
    if not addr:
        say(channel, "closed", "no such socket known: none given and none at the usual place")
        continue
    shown = addr.replace("\0", "@")
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(3)
        s.connect(addr)
        s.close()
        say(channel, "open", f"connected to {shown}")
    except OSError as e:
        say(channel, "closed", f"{shown}: {e}")
PY
else
  for c in dev_tty tiocsti unix_dbus unix_ssh_agent unix_tmp unix_abstract; do
    # Not "closed": nothing was tried, and a reader must not take it for a result.
    say "$c" untried "/usr/bin/python3 is missing"
  done
fi
