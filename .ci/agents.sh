#!/usr/bin/env bash
# Real agent CLIs (issue 11): installs the pinned Claude Code, Codex and Gemini CLI into a
# project-local npm prefix and runs the #[ignore]d real-CLI tests against the scripted model
# endpoint (tests/model-endpoint/): rounds, each preset as a judge (`rejudge`), each preset's
# calibration (`harness judge eval`, *_judge_eval), and a repository carrying hooks and an MCP
# server. Prints what it ran and what it skipped and why. A CLI it
# could not install is a skip (the tests print it); a test that ran and failed fails CI.
#
#   bash .ci/agents.sh            # install + test
#   bash .ci/agents.sh --install  # install only (prints the bin folder to put on PATH)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The versions the presets were checked against (runners/src/agent.rs, CHECKED_VERSIONS).
CLAUDE_CODE_VERSION=2.1.328
CODEX_VERSION=0.169.0
GEMINI_CLI_VERSION=0.61.0
PREFIX="${HARNESS_AGENTS_PREFIX:-/opt/harness-agents}"

install() {
    if ! command -v npm >/dev/null 2>&1; then
        echo "agents: SKIP install: npm not found (apt-get install nodejs npm; node >= 20)"
        return 0
    fi
    mkdir -p "$PREFIX"
    echo "agents: npm install into $PREFIX: @anthropic-ai/claude-code@$CLAUDE_CODE_VERSION @openai/codex@$CODEX_VERSION @google/gemini-cli@$GEMINI_CLI_VERSION"
    if ! npm install --prefix "$PREFIX" --no-audit --no-fund --loglevel=error \
        "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION" \
        "@openai/codex@$CODEX_VERSION" \
        "@google/gemini-cli@$GEMINI_CLI_VERSION"; then
        echo "agents: SKIP: npm install failed (the real-CLI tests will skip each missing CLI)"
        return 0
    fi
    for cli in claude codex gemini; do
        if out=$("$PREFIX/node_modules/.bin/$cli" --version 2>&1 </dev/null); then
            echo "agents: $cli --version: $out"
        else
            echo "agents: $cli installed but does not run here: $out"
        fi
    done
}

install
if [[ "${1:-}" == "--install" ]]; then
    echo "agents: bin folder: $PREFIX/node_modules/.bin"
    exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "agents: SKIP real-CLI tests: python3 (the scripted model endpoint) not found"
    exit 0
fi
echo "agents: cargo test -p harness --test real_agents -- --ignored --test-threads 1"
HARNESS_AGENTS_BIN="$PREFIX/node_modules/.bin" \
    cargo test -p harness --test real_agents --locked -- --ignored --test-threads 1 --nocapture
