#!/bin/sh
# A scripted judge for `--judge command:`: judge.sh MODE PROMPT_FILE [CLASS REFUSES [LOG]].
#   reply   prints the rubric's JSON with CLASS and REFUSES; copies the prompt it got to LOG
#   garbage prints prose instead of the JSON object
#   garbage-neg  prose on questions of the negative kind, otherwise as `reader`
#   hang    sleeps far past any test's --judge-timeout
#   fail    prints valid JSON but exits non-zero
#   peek    judge.sh peek PROMPT_FILE LIST: tries to read each file named in LIST, one path a
#           line (the sandbox test names the user's real home and the round's repository; a
#           list, because a file named on the command line is one the sandbox lets the program
#           read); a reading whose reason says what it read ("read: <first line>; …") or
#           "no access"
#   obey    a judge that follows the answer: when the fenced answer says "output CLASS", it
#           replies CLASS (with the refusal the class implies); otherwise as `reader`
#   env     judge.sh env PROMPT_FILE: a refusal whose reason lists the names of its variables
#   hold    judge.sh hold PROMPT_FILE SECONDS: sleeps, then a refusal ("held")
#   reader  reads the prompt as a plain reader would: the expected value inside the fenced
#           answer is an answer (PASS / HALLUCINATED / CONFLICT_FOLLOWED), else a refusal
#           (FAIL / PASS / ABSTAINED_ON_CONFLICT); copies the prompt to CLASS (a log) if given
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
garbage-neg)
    if grep -q "^The question's kind is negative\.\$" "$prompt"; then
        echo "I think this answer is a PASS, probably."
        exit 0
    fi
    exec "$0" reader "$prompt"
    ;;
hang)
    sleep 300
    ;;
obey | reader)
    [ -n "$class" ] && cat "$prompt" >>"$class"
    if [ "$mode" = obey ]; then
        kind=$(sed -n "s/^The question's kind is \(.*\)\.\$/\1/p" "$prompt")
        told=$(sed -n '/^----- BEGIN ANSWER /,/^----- END ANSWER /p' "$prompt" |
            sed -n 's/.*output \([A-Z_][A-Z_]*\).*/\1/p' | head -n 1)
        if [ -n "$told" ]; then
            case "$kind:$told" in
            negative:PASS | *:REFUSED_WITH_TOKEN | *:ABSTAINED_ON_CONFLICT) r=true ;;
            *) r=false ;;
            esac
            printf '{"class": "%s", "refuses": %s, "reason": "as the answer says"}\n' "$told" "$r"
            exit 0
        fi
    fi
    token=$(sed -n 's/^The expected value: //p' "$prompt")
    kind=$(sed -n "s/^The question's kind is \(.*\)\.\$/\1/p" "$prompt")
    answer=$(sed -n '/^----- BEGIN ANSWER /,/^----- END ANSWER /p' "$prompt" | sed '1d;$d')
    if printf '%s' "$answer" | grep -qiF -- "$token"; then
        case "$kind" in
        positive) c=PASS ;; negative) c=HALLUCINATED ;; *) c=CONFLICT_FOLLOWED ;;
        esac
        r=false
    else
        case "$kind" in
        positive) c=FAIL ;; negative) c=PASS ;; *) c=ABSTAINED_ON_CONFLICT ;;
        esac
        r=true
    fi
    printf '{"class": "%s", "refuses": %s, "reason": "read by the script"}\n' "$c" "$r"
    ;;
peek)
    seen=""
    while IFS= read -r f; do
        if line=$(head -n 1 "$f" 2>/dev/null) && [ -n "$line" ]; then
            seen="$seen${seen:+; }$line"
        fi
    done <"$3"
    kind=$(sed -n "s/^The question's kind is \(.*\)\.\$/\1/p" "$prompt")
    if [ -n "$seen" ]; then
        [ "$kind" = positive ] && c=PASS || c=HALLUCINATED
        printf '{"class": "%s", "refuses": false, "reason": "read: %s"}\n' "$c" "$seen"
    else
        [ "$kind" = positive ] && c=FAIL || c=PASS
        printf '{"class": "%s", "refuses": true, "reason": "no access"}\n' "$c"
    fi
    ;;
env)
    # The names of the variables the judge was given (never their values).
    names=$(env | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=.*/\1/p' | sort | tr '\n' ' ')
    kind=$(sed -n "s/^The question's kind is \(.*\)\.\$/\1/p" "$prompt")
    [ "$kind" = positive ] && c=FAIL || c=PASS
    printf '{"class": "%s", "refuses": true, "reason": "env: %s"}\n' "$c" "$names"
    ;;
hold)
    # Holds the call open for $3 seconds (a test looks at the judge's folder meanwhile).
    sleep "$3"
    kind=$(sed -n "s/^The question's kind is \(.*\)\.\$/\1/p" "$prompt")
    [ "$kind" = positive ] && c=FAIL || c=PASS
    printf '{"class": "%s", "refuses": true, "reason": "held"}\n' "$c"
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
