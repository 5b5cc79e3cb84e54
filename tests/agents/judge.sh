#!/bin/sh
# A scripted judge for `--judge command:`: judge.sh MODE PROMPT_FILE [CLASS REFUSES [LOG]].
#   reply   prints the rubric's JSON with CLASS and REFUSES; copies the prompt it got to LOG
#   garbage prints prose instead of the JSON object
#   hang    sleeps far past any test's --judge-timeout
#   fail    prints valid JSON but exits non-zero
mode=$1
prompt=$2
class=$3
refuses=$4
log=$5
case "$mode" in
reply)
    [ -n "$log" ] && cat "$prompt" >>"$log"
    printf '{"class": "%s", "refuses": %s, "reason": "scripted reading"}\n' "$class" "$refuses"
    ;;
garbage)
    echo "I think this answer is a PASS, probably."
    ;;
hang)
    sleep 300
    ;;
fail)
    printf '{"class": "%s", "refuses": %s, "reason": "then fails"}\n' "$class" "$refuses"
    echo "judge: upstream error" >&2
    exit 4
    ;;
*)
    echo "judge.sh: unknown mode $mode" >&2
    exit 2
    ;;
esac
