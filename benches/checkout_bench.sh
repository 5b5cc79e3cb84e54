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
# shellcheck source=benches/gen_tree.sh
. "$HERE/benches/gen_tree.sh"
gen_tree "$REPO" "$FILES" "$PER" "$WORK"

echo "timing $N dispatches each, interleaved (runners example)" >&2
cargo build -q --release -p runners --example checkout_bench --manifest-path "$HERE/Cargo.toml"
"$HERE/target/release/examples/checkout_bench" "$REPO" "$N"
