#!/bin/sh
# Answers from the planted seal when there is one: prints the seal line sharing the most
# words (3+ letters) with the prompt; refuses otherwise. Prompt: $1, or stdin when absent.
if [ $# -gt 0 ]; then prompt=$1; else prompt=$(cat); fi
seal=""
for f in tracks/_meta/compaction/*; do
  [ -f "$f" ] && seal="$f" && break
done
if [ -z "$seal" ]; then
  echo "I could not find any record of that."
  exit 0
fi
words=$(printf '%s\n' "$prompt" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9\n' '\n' | awk 'length($0) >= 3' | sort -u)
best=""
best_n=0
while IFS= read -r line; do
  low=$(printf '%s\n' "$line" | tr 'A-Z' 'a-z')
  n=0
  for w in $words; do
    case "$low" in *"$w"*) n=$((n + 1)) ;; esac
  done
  if [ "$n" -gt "$best_n" ]; then best_n=$n; best=$line; fi
done < "$seal"
if [ "$best_n" -gt 0 ]; then
  printf '%s\n' "$best"
else
  echo "I could not find any record of that."
fi
