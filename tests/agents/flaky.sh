#!/bin/sh
# Fails the way the infrastructure does on every other start, then answers: `flaky.sh PROMPT
# STATE_DIR`. Odd-numbered runs (counted in STATE_DIR, so --jobs 1 and --sandbox none) say
# "rate limited" on stderr and exit 1 with no output, like a refused request; even-numbered
# runs answer "I don't know.".
n=$(ls "$2" | wc -l)
: > "$2/run$n"
if [ $((n % 2)) -eq 0 ]; then
  echo "rate limited, try again" >&2
  exit 1
fi
echo "I don't know."
