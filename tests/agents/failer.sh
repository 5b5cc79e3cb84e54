#!/bin/sh
# Prints something on both streams and fails: a dispatch failure, not an answer.
echo "partial output before failing"
echo "failer: something went wrong" >&2
exit 3
