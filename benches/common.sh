# Shared by the benches that run whole harness rounds (source it; bash): the inputs of a
# round of N positive questions, clocks, and the medians and ratios they print. A median
# of nothing prints nan and a ratio with a missing or non-positive side prints n/a: a bench
# never shows "not measured" as 0.

# A token that base64 text is unlikely to hold as a whole word; the start gate checks that
# it is absent from the corpus anyway. $1 = the question's number.
token() { printf 'qq%s%sbench%s' "$1" "$RANDOM" "$$"; }

# Writes questions.tsv and handoff.md for $1 positive questions into folder $2.
make_inputs() {
  local dir=$2 i t
  mkdir -p "$dir"
  printf 'qid\tkind\tquestion\ttoken\n' > "$dir/questions.tsv"
  printf '# hand-off\n' > "$dir/handoff.md"
  for i in $(seq 1 "$1"); do
    t=$(token "$i")
    printf 'B%03d\tpositive\tWhat is value number %d?\t%s\n' "$i" "$i" "$t" >> "$dir/questions.tsv"
    printf 'value %d: %s\n' "$i" "$t" >> "$dir/handoff.md"
  done
}

now() { date +%s.%N; }
# Milliseconds from $1 to $2 (seconds, as `now` prints them).
ms() { awk -v s="$1" -v e="$2" 'BEGIN { printf "%.1f\n", (e - s) * 1000 }'; }
# The median of the numbers in file $1, one per line.
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR == 0) { print "nan"; exit } printf "%.1f", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
# $1 / $2, or n/a when either is not a number or $2 is not positive ($1 may be negative: a
# difference of two noisy rounds can be).
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^-?[0-9.]+$/ && b ~ /^[0-9.]+$/ && b > 0) printf "%.3f", a / b; else print "n/a" }'; }

# Generates the tree of $1 files ($PER bytes each, benches/gen_tree.sh) as repository
# $WORK/repo$1 with a plain export beside it; sets REPO, PLAIN, mb (the export's size) and
# n (the files git tracks).
prepare_tree() {
  REPO=$WORK/repo$1
  gen_tree "$REPO" "$1" "$PER" "$WORK"
  PLAIN=$WORK/plain$1
  mkdir "$PLAIN" && git -C "$REPO" archive HEAD | tar -x -C "$PLAIN"
  mb=$(du -sm "$PLAIN" | cut -f1)
  n=$(git -C "$REPO" ls-files | wc -l)
}
