#!/usr/bin/env bash
# CI for the scorer's reading (issues 10, 20): measure it on the shipped labelled corpus and fail
# below the floors docs/readers.md states. The floors are on the rows the lexicon decides (no cue
# marked them uncertain) and on the share it decides; an UNDETERMINED row is never a wrong class.
# Needs only the Rust toolchain (the corpus is embedded).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
echo "== lexicon eval on the shipped corpus (floors: decided precision 0.99, coverage 0.80)"
cargo run --release --locked --quiet -- lexicon eval \
  --min-decided-precision 0.99 --min-coverage 0.80 | sed -n '1,60p'
# The blind corpora below were written by authors who never read the scorer. blind_dev,
# blind_heldout 1 to 12 and blind_tune16 were then tuned on (scorer/corpus/LABELS.md): their
# figures are not evidence. Precision floors sit a margin below what lexicon 2.5.0 + cues 1.7.0
# reached; cues 1.8.0 kept or raised every decided precision and deliberately gave up coverage
# (a refusal followed by another value, another form of the token, an unknown language, a
# negative's token named with a refusal are no longer certain), so the coverage floors sit a
# margin below what 1.8.0 reaches (0.700; 0.610; 0.603; 0.719; 0.678; 0.663; 0.728; 0.672;
# 0.638; 0.669; 0.678; 0.641; 0.638; blind_tune16 0.976 · 0.420), and losing a fixed family
# still fails here. adversarial_choice holds answers a second reader wrote to break the cues
# 1.7.0 choice reading: one certain wrong row there fails (1.000 · 0.309).
# The floors are only for the lexicon's own reading: --token-match and judges are not involved.
for spec in blind_dev:0.98:0.68 blind_heldout:0.98:0.59 blind_heldout2:0.97:0.58 \
    blind_heldout3:0.98:0.70 blind_heldout4:0.98:0.66 blind_heldout5:0.97:0.64 \
    blind_heldout6:0.98:0.71 blind_heldout7:0.96:0.65 blind_heldout8:0.98:0.62 \
    blind_heldout9:0.97:0.65 blind_heldout10:0.98:0.66 blind_heldout11:0.97:0.62 \
    blind_heldout12:0.98:0.62 blind_tune16:0.97:0.40 adversarial_choice:1.00:0.25; do
  IFS=: read -r name prec cov <<<"$spec"
  echo "== lexicon eval on scorer/corpus/$name.jsonl (tuned on; floors: decided precision $prec, coverage $cov)"
  cargo run --release --locked --quiet -- lexicon eval "scorer/corpus/$name.jsonl" \
    --min-decided-precision "$prec" --min-coverage "$cov" | sed -n '1,40p'
done
# The held-out files are reported, never floored: a floor on them would make them a target to
# tune against. blind_heldout14/15 were held out for cues 1.7.0 and again for 1.8.0;
# blind_heldout16/17 were written for 1.8.0 and measured once before and once after it;
# blind_heldout18/19 were written after cues 1.8.1 and measured once, never read;
# blind_heldout20/21 were written for cues 1.9.0 and measured once before and once after it,
# blind_heldout22-25 were written for cues 1.9.1 and measured before and after it;
# blind_heldout26-29 for cues 1.10.0 (26/27 measured on its first build too); blind_heldout30-33
# for cues 1.11.0, each measured once with 1.10.0 before any change. Rows of 14-27 were read while
# changing cues 1.9.1 to 1.11.0, and 30/33 after that first measurement: those sets are tuned on,
# still without a floor. 28, 29, 31 and 32 are held out from the current reading (measured once,
# after it was final).
for name in blind_heldout14 blind_heldout15 blind_heldout16 blind_heldout17 blind_heldout18 blind_heldout19 blind_heldout20 blind_heldout21 blind_heldout22 blind_heldout23 blind_heldout24 blind_heldout25 blind_heldout26 blind_heldout27 blind_heldout28 blind_heldout29 blind_heldout30 blind_heldout31 blind_heldout32 blind_heldout33; do
  case "$name" in
    blind_heldout28|blind_heldout29|blind_heldout31|blind_heldout32) what="held out from the current reading" ;;
    blind_heldout30|blind_heldout33) what="measured once with cues 1.10.0, then tuned on for 1.11.0" ;;
    *) what="written blind, since tuned on" ;;
  esac
  echo "== lexicon eval on scorer/corpus/$name.jsonl ($what; reported, no floor)"
  cargo run --release --locked --quiet -- lexicon eval "scorer/corpus/$name.jsonl" | sed -n '1,12p'
done
