#!/usr/bin/env bash
# firsthour checks that need a browser: the HTML report rendered by headless Chromium, its verdict
# badge checked in the picture (reports/tests/screenshot.rs, #[ignore] in the default suite).
# Installs Debian's chromium with apt-get when it is missing and this runs as root; when it cannot
# be installed, says what it skipped and why, and exits 0 (the browser is optional). A check that
# ran and failed fails CI.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The version this was checked with; Debian security updates drop old builds from the mirror,
# so when the pinned one is gone the current one is installed and named.
CHROMIUM_PIN="156.0.8078.114-1~deb12u1"
# Another apt may hold the dpkg lock (a second CI job, a person): wait for it rather than fail.
APT=(apt-get -o DPkg::Lock::Timeout=600 -qq)

skip() {
    echo "== firsthour: SKIPPED the HTML screenshot test (reports/tests/screenshot.rs): $1"
    exit 0
}
install() { DEBIAN_FRONTEND=noninteractive "${APT[@]}" install -y "$1" >/dev/null; }

if ! command -v chromium >/dev/null 2>&1; then
    command -v apt-get >/dev/null 2>&1 || skip "chromium is not installed and there is no apt-get to install it"
    [ "$(id -u)" -eq 0 ] || skip "chromium is not installed and installing it needs root (apt-get install chromium)"
    echo "== firsthour: installing chromium $CHROMIUM_PIN (Debian package)"
    if ! apt-cache show chromium >/dev/null 2>&1; then
        "${APT[@]}" update || skip "chromium is not installed and apt-get update failed (no network or mirror?)"
    fi
    if ! install "chromium=$CHROMIUM_PIN"; then
        echo "== firsthour: pinned build $CHROMIUM_PIN not installable; installing the current one"
        if ! { "${APT[@]}" update && install chromium; }; then
            skip "chromium could not be installed with apt-get (see the apt-get output above)"
        fi
    fi
    command -v chromium >/dev/null 2>&1 || skip "apt-get installed chromium but no chromium command is on PATH"
fi
echo "== firsthour: HTML screenshot test ($(chromium --version 2>/dev/null | head -1))"
cargo test -p reports --locked --test screenshot -- --ignored
