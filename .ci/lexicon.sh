#!/usr/bin/env bash
# CI for the scorer's reading (issues 10, 20): measure it on the shipped labelled corpus and fail
# below the floors the README states. The floors are on the rows the lexicon decides (no cue
# marked them uncertain) and on the share it decides; an UNDETERMINED row is never a wrong class.
# Needs only the Rust toolchain (the corpus is embedded).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
echo "== lexicon eval on the shipped corpus (floors: decided precision 0.99, coverage 0.80)"
cargo run --release --locked --quiet -- lexicon eval \
  --min-decided-precision 0.99 --min-coverage 0.80 | sed -n '1,60p'
# The blind corpus was written by an author who never read the scorer, then tuned on: its
# figures are tuned-on, not evidence (scorer/corpus/LABELS.md). The floors sit a margin below
# what cues 1.2.0 reached (1.000 · 0.778; blind_heldout, tuned on for 1.2.0: 0.995 · 0.568), so
# losing a fixed family fails here.
echo "== lexicon eval on scorer/corpus/blind_dev.jsonl (tuned on; floors: decided precision 0.98, coverage 0.70)"
cargo run --release --locked --quiet -- lexicon eval scorer/corpus/blind_dev.jsonl \
  --min-decided-precision 0.98 --min-coverage 0.70 | sed -n '1,40p'
echo "== lexicon eval on scorer/corpus/blind_heldout.jsonl (tuned on for cues 1.2.0; floors: decided precision 0.98, coverage 0.55)"
cargo run --release --locked --quiet -- lexicon eval scorer/corpus/blind_heldout.jsonl \
  --min-decided-precision 0.98 --min-coverage 0.55 | sed -n '1,40p'
# The held-out file for cues 1.2.0 is reported, never floored: a floor on it would make it a
# target to tune against.
echo "== lexicon eval on scorer/corpus/blind_heldout2.jsonl (held out for cues 1.2.0; reported, no floor)"
cargo run --release --locked --quiet -- lexicon eval scorer/corpus/blind_heldout2.jsonl | sed -n '1,12p'

