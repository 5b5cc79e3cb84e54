#!/bin/sh
# A well-behaved fast agent: answers on stdout, notes on stderr, starts nothing in the
# background and exits 0. Used for load tests (many at once must never fail).
echo answer
echo "note: done" >&2
exit 0
