#!/bin/sh
# A stand-in for Claude Code's `-p --output-format stream-json`: answers like sealreader.sh
# (the planted seal's line sharing the most words with the prompt, else a refusal) and prints
# the answer as a stream — an assistant message with tool_use blocks, then the result object
# with num_turns, usage and total_cost_usd — so a round records the usage Claude reports.
# Usage differs by what the agent had: with a seal (ARM) 2 turns, 1 tool call and SCALE×100
# input tokens plus the prompt's length; without one (CTRL) 5 turns, 3 tool calls and four
# times the tokens. Options before the prompt: --scale N (default 10); others are ignored.
scale=10
while [ $# -gt 1 ]; do
  case "$1" in
    --scale) scale=$2; shift 2 ;;
    *) shift ;;
  esac
done
prompt=$1
seal=""
for f in tracks/_meta/compaction/*; do
  [ -f "$f" ] && seal="$f" && break
done
n=${#prompt}
if [ -n "$seal" ]; then
  turns=2; tools=1; input=$((scale * 100 + n))
else
  turns=5; tools=3; input=$((scale * 400 + n))
fi
output=$((turns * 20))
cost=$(awk "BEGIN { printf \"%.6f\", $input / 1000000 + $output / 200000 }")
answer="I could not find any record of that."
if [ -n "$seal" ]; then
  words=$(printf '%s\n' "$prompt" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9\n' '\n' | awk 'length($0) >= 4' | sort -u)
  best_n=0
  while IFS= read -r line; do
    low=$(printf '%s\n' "$line" | tr 'A-Z' 'a-z')
    k=0
    for w in $words; do
      case "$low" in *"$w"*) k=$((k + 1)) ;; esac
    done
    if [ "$k" -gt "$best_n" ]; then best_n=$k; answer=$line; fi
  done < "$seal"
fi
escaped=$(printf '%s' "$answer" | sed 's/\\/\\\\/g; s/"/\\"/g')
printf '{"type":"system","subtype":"init"}\n'
uses=""
i=0
while [ "$i" -lt "$tools" ]; do
  i=$((i + 1))
  [ -n "$uses" ] && uses="$uses,"
  uses="$uses{\"type\":\"tool_use\",\"id\":\"t$i\",\"name\":\"Read\",\"input\":{}}"
done
printf '{"type":"assistant","message":{"content":[%s]}}\n' "$uses"
printf '{"type":"result","subtype":"success","is_error":false,"num_turns":%d,"usage":{"input_tokens":%d,"output_tokens":%d},"total_cost_usd":%s,"duration_ms":5,"permission_denials":[],"result":"%s"}\n' \
  "$turns" "$input" "$output" "$cost" "$escaped"
