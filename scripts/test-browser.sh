#!/usr/bin/env bash
# Browser tests (wasm-pack test --headless --chrome) and the end-to-end test (trunk build,
# served on localhost, driven in headless Chromium by playwright-core). NOT YET VERIFIED.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --browser
export PATH="$HOME/.cargo/bin:$PATH"
step() { printf '\n== %s (%s)\n' "$*" "$(date +%T)"; }
step "browser tests (wasm-pack test --headless --chrome)"
# wasm-bindgen-test-runner reads webdriver.json (Chromium binary and flags, WebGPU enabled).
WASM_BINDGEN_TEST_TIMEOUT=600 wasm-pack test --headless --chrome --chromedriver /usr/bin/chromedriver \
  --mode no-install -- --locked --test browser

step "end-to-end test (trunk build + headless Chromium)"
tests/e2e/run.sh

