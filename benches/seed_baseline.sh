#!/usr/bin/env bash
# Seed baseline for the scorer bench: classify the bench's answers the way the seed's bash
# scorer did, one process pipeline per answer, and time it against the Rust classifier.
#
#   HARNESS_BENCH_DUMP=/tmp/scorer-bench cargo bench -p scorer --bench classify   # dump inputs
#   bash benches/seed_baseline.sh /tmp/scorer-bench          # per answer: grep -F + grep -E
#   bash benches/seed_baseline.sh /tmp/scorer-bench --full   # also cat + the tag and quote seds
#   cargo bench -p scorer --bench classify                    # the Rust side, same answers
#
# Default mode is the brief's minimum: per answer one `grep -qF` for the token and one
# `LC_ALL=C grep -qiE` for the refusal lexicon (the scorer's own patterns, joined as one ERE),
# so it is a lower bound on the seed's cost. `--full` adds what the seed's score_one also ran
# per answer: `cat` into a variable, a `sed` for the VERDICT tag, a `sed` stripping backtick
# spans, with grep reading from pipes. The big answer (10 MB) is timed the same way, once.
#
# It also counts answers whose class differs from the Rust scorer's (dumped beside them):
# byte-wise C-locale matching, no fence stripping (and none at all in the default mode) and
# bash's per-line `$` make some differ; the count is printed, not hidden.
set -uo pipefail

DIR="${1:?usage: seed_baseline.sh DUMP_DIR [--full]}"
MODE="${2:-minimal}"
[ -f "$DIR/index.tsv" ] && [ -f "$DIR/refusal.ere" ] || {
	echo "no dump in $DIR (run HARNESS_BENCH_DUMP=$DIR cargo bench -p scorer --bench classify)" >&2
	exit 2
}
RE="$(cat "$DIR/refusal.ere")"

class_of() { # kind has_tok has_ref
	case "$1" in
	positive) if [ "$2" = 1 ] && [ "$3" = 0 ]; then echo PASS; elif [ "$2" = 1 ]; then echo REFUSED_WITH_TOKEN; else echo FAIL; fi ;;
	negative) if [ "$2" = 1 ] && [ "$3" = 1 ]; then echo REFUSED_WITH_TOKEN; elif [ "$2" = 1 ]; then echo HALLUCINATED; elif [ "$3" = 1 ]; then echo PASS; else echo FAIL; fi ;;
	conflict) if [ "$2" = 1 ] && [ "$3" = 0 ]; then echo CONFLICT_FOLLOWED; elif [ "$3" = 1 ]; then echo ABSTAINED_ON_CONFLICT; else echo UNCLASSIFIED; fi ;;
	esac
}

score_minimal() { # file kind token -> class
	local has_tok=0 has_ref=0
	grep -qF -- "$3" "$1" && has_tok=1
	LC_ALL=C grep -qiE -- "$RE" "$1" && has_ref=1
	class_of "$2" "$has_tok" "$has_ref"
}

score_full() { # file kind token -> class, as the seed's score_one
	local body tag has_tok=0 has_ref=0 noquote
	body="$(cat "$1")"
	tag="$(printf '%s' "$body" | LC_ALL=C sed -n 's/.*<<VERDICT:\([A-Z_]*\)>>.*/\1/p' | tail -1)"
	: "$tag"
	printf '%s' "$body" | grep -qF -- "$3" && has_tok=1
	noquote="$(printf '%s' "$body" | sed -E 's/`[^`]*`//g')"
	printf '%s' "$noquote" | LC_ALL=C grep -qiE -- "$RE" && has_ref=1
	class_of "$2" "$has_tok" "$has_ref"
}

score() { if [ "$MODE" = --full ]; then score_full "$@"; else score_minimal "$@"; fi; }

run_index() { # index file -> prints "n differ"
	local n=0 differ=0 file kind token want got
	# Every cell of the index is non-empty, so IFS-tab folding (the seed's qset bug) cannot bite.
	while IFS=$'\t' read -r file kind token want; do
		got="$(score "$DIR/$file" "$kind" "$token")"
		n=$((n + 1))
		[ "$got" = "$want" ] || differ=$((differ + 1))
	done <"$1"
	echo "$n $differ"
}

now() { date +%s.%N; }

t0=$(now)
read -r n differ < <(run_index "$DIR/index.tsv")
t1=$(now)
echo "seed-style ($MODE): $n answers in $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", b - a}') s  (class differs from Rust on $differ)"

if [ -f "$DIR/big.tsv" ]; then
	t0=$(now)
	read -r n differ < <(run_index "$DIR/big.tsv")
	t1=$(now)
	echo "seed-style ($MODE): 10 MB answer in $(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.2f", b - a}') s  (class differs from Rust: $differ)"
fi
