#!/usr/bin/env bash
# CI for the scorer's lexicon (issue 10): measure it on the shipped labelled corpus and fail
# below the floors the README states. Needs only the Rust toolchain (the corpus is embedded).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
echo "== lexicon eval on the shipped corpus (floors: agreement 0.95, refusal precision 0.95, recall 0.98)"
cargo run --release --locked --quiet -- lexicon eval \
  --min-agreement 0.95 --min-precision 0.95 --min-recall 0.98 | sed -n '1,40p'
