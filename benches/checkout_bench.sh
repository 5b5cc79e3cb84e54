#!/usr/bin/env bash
# Per-dispatch checkout overhead: harness (template copy + plant + treediff, runners crate)
# against `git clone --no-local --depth 1 file://REPO && cp seal` on the same repository,
# interleaved dispatch by dispatch so both see the same memory and page-cache conditions.
# Generates a repo of ~10,000 files / ~100 MB (text-like content, a few executables and symlinks).
#
# Usage: benches/checkout_bench.sh [DISPATCHES=10] [FILES=10000] [BYTES_PER_FILE=10000]
set -euo pipefail

N=${1:-10}
FILES=${2:-10000}
PER=${3:-10000}
HERE=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
trap 'chmod -R u+w "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT

REPO=$WORK/repo
mkdir -p "$REPO"
echo "generating $FILES files x $PER bytes in $REPO ..." >&2
# base64 of random bytes: text-like, compresses about as poorly as dense source does.
head -c $(( FILES * PER * 3 / 4 )) /dev/urandom | base64 -w 100 > "$WORK/big"
(
  cd "$REPO"
  split -b "$PER" -a 5 -d "$WORK/big" f_
  i=0
  for f in f_*; do
    d=$(printf 'd%03d' $(( i % 100 )))
    mkdir -p "$d"
    mv "$f" "$d/$f.txt"
    i=$(( i + 1 ))
  done
  chmod +x d000/*.txt
  ln -s d001 link_dir
  ln -s ../d002/f_00002.txt d003/link_file
  git init -q -b main .
  git -c core.autocrlf=false add -A
  git -c user.name=b -c user.email=b@localhost commit -qm bench
)
rm -f "$WORK/big"
echo "repo: $(git -C "$REPO" ls-files | wc -l) files, $(du -sm --exclude=.git "$REPO" | cut -f1) MB in the tree" >&2

echo "timing $N dispatches each, interleaved (runners example)" >&2
cargo build -q --release -p runners --example checkout_bench --manifest-path "$HERE/Cargo.toml"
"$HERE/target/release/examples/checkout_bench" "$REPO" "$N"
