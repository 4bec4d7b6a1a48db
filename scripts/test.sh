#!/usr/bin/env bash
# Runs every test: installs what is missing (scripts/setup.sh --browser), then
#   formatting and clippy (native and wasm32, warnings denied), native tests, browser tests
#   (wasm-pack test --headless --chrome) and the end-to-end test (trunk build + headless Chromium).
# Fails on the first failure. Usage: scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --browser
export PATH="$HOME/.cargo/bin:$PATH"
# Two cores: one job per core, and avoid duplicate rebuilds between steps by sharing target/.
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
step() { printf '\n\033[1m== %s\033[0m (%s)\n' "$*" "$(date +%T)"; }
start=$(date +%s)

step "rustfmt"
cargo fmt --all -- --check || { echo "formatting differs: run 'cargo fmt' and commit" >&2; exit 1; }

step "clippy (native)"
cargo clippy --all-targets --locked -- -D warnings
step "clippy (wasm32)"
cargo clippy --all-targets --locked --target wasm32-unknown-unknown -- -D warnings

step "native tests"
cargo test --locked

step "browser tests (wasm-pack test --headless --chrome)"
# wasm-bindgen-test-runner reads webdriver.json (Chromium binary and flags, WebGPU enabled).
WASM_BINDGEN_TEST_TIMEOUT=900 wasm-pack test --headless --chrome --chromedriver /usr/bin/chromedriver \
  --mode no-install -- --locked --test browser -- --nocapture

step "end-to-end test (trunk build + headless Chromium)"
tests/e2e/run.sh

echo
echo "all tests passed in $(( $(date +%s) - start )) s"
