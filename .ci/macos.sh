#!/usr/bin/env bash
# Builds harness for macOS on this Linux machine: a real Mach-O binary for Apple silicon
# (aarch64-apple-darwin, linked by zig) and a type-check of the whole workspace for Intel Macs
# (x86_64-apple-darwin). zig is the C compiler for the vendored C libraries (zlib, libgit2).
# No macOS machine runs the test suite here: this proves the code compiles and links for Darwin.
# Where the tools cannot be installed (no Python venv, no network to PyPI, no rustup) the step
# is skipped with the reason, and the rest of CI goes on.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Pinned: the versions this script was last run with.
ZIGLANG_VERSION=0.17.1
CARGO_ZIGBUILD_VERSION=0.24.1
TOOLS="${HARNESS_MACOS_TOOLS:-target/macos-tools}"

skip() {
    echo "== macOS build SKIPPED: $*"
    exit 0
}

echo "== macOS: ziglang $ZIGLANG_VERSION and cargo-zigbuild $CARGO_ZIGBUILD_VERSION (PyPI, in $TOOLS)"
command -v python3 >/dev/null || skip "python3 is not installed"
if [ ! -x "$TOOLS/bin/pip" ]; then
    python3 -m venv "$TOOLS" || skip "python3 cannot make a venv"
fi
"$TOOLS/bin/pip" install --quiet --disable-pip-version-check \
    "ziglang==$ZIGLANG_VERSION" "cargo-zigbuild==$CARGO_ZIGBUILD_VERSION" ||
    skip "ziglang/cargo-zigbuild could not be installed from PyPI"
export PATH="$PWD/$TOOLS/bin:$PATH"

command -v rustup >/dev/null || skip "rustup is not installed (needed for the Darwin targets)"
rustup target add aarch64-apple-darwin x86_64-apple-darwin ||
    skip "rustup could not add the Darwin targets"

# Dependencies ask the linker for Apple frameworks (CoreFoundation, Security, Foundation) and
# libobjc, which zig does not ship (it ships libSystem, libiconv). Without a macOS SDK they are
# given as link stubs that export NOTHING: they name the real libraries (every Mac has them)
# and supply no symbol, so a binary that needed one would fail to link here, and the check
# after the build proves every symbol it imports comes from libSystem or libiconv.
stubs="$TOOLS/link-stubs"
stub() { # <path under $stubs> <install name>
    mkdir -p "$(dirname "$stubs/$1")"
    printf '%s\n' '--- !tapi-tbd' 'tbd-version:     4' \
        'targets:         [ x86_64-macos, arm64-macos ]' \
        "install-name:    '$2'" 'current-version: 1' '...' >"$stubs/$1"
}
fw=System/Library/Frameworks
stub "$fw/CoreFoundation.framework/CoreFoundation.tbd" "/$fw/CoreFoundation.framework/Versions/A/CoreFoundation"
stub "$fw/Security.framework/Security.tbd" "/$fw/Security.framework/Versions/A/Security"
stub "$fw/Foundation.framework/Foundation.tbd" "/$fw/Foundation.framework/Versions/C/Foundation"
stub usr/lib/libobjc.tbd /usr/lib/libobjc.A.dylib

echo "== macOS: cargo zigbuild --release --target aarch64-apple-darwin -p harness"
cargo-zigbuild rustc --release --locked --target aarch64-apple-darwin -p harness --bin harness -- \
    -C "link-arg=-F$PWD/$stubs/$fw" -C "link-arg=-L$PWD/$stubs/usr/lib"
bin=target/aarch64-apple-darwin/release/harness
kind=$(file -b "$bin")
echo "$bin: $kind"
case "$kind" in
    *"Mach-O 64-bit"*arm64*) ;;
    *) echo "expected a Mach-O 64-bit arm64 executable"; exit 1 ;;
esac
if command -v llvm-nm >/dev/null; then
    froms=$(llvm-nm -m -u "$bin" | sed -n 's/.*(from \(.*\))$/\1/p' | sort | uniq -c)
    echo "imported symbols by library:"; echo "$froms"
    if echo "$froms" | grep -qv ' libSystem$\| libiconv$'; then
        echo "the binary imports from a library other than libSystem/libiconv"; exit 1
    fi
else
    echo "(llvm-nm not installed: the imports were not listed)"
fi

echo "== macOS: type-check of the workspace for x86_64-apple-darwin"
cargo-zigbuild check --target x86_64-apple-darwin --workspace --locked
echo "macOS: arm64 binary built and linked, x86_64 workspace type-checked"
