#!/usr/bin/env bash
# End-to-end test: builds the page with trunk, serves dist/ on a free localhost port, and runs the
# playwright-core tests (node's test runner) against it in Debian's headless Chromium.
set -euo pipefail
cd "$(dirname "$0")"
root="$(cd ../.. && pwd)"
export PATH="$HOME/.cargo/bin:$PATH"
# playwright-core drives Debian's Chromium; axe-core is the accessibility checker the tests inject.
{ [ -d node_modules/playwright-core ] && [ -f node_modules/axe-core/axe.min.js ]; } || npm ci --no-audit --no-fund \
  || { echo "[e2e] error: npm ci failed: is the npm registry reachable?" >&2; exit 1; }
# The dev profile and environment of scripts/test.sh: trunk reuses the wasm32 build of the test step for
# the worker (`--features webgpu`); the page (its `compact-fft` feature, no burn WebGPU) is its own build.
(cd "$root" && trunk build --dist target/e2e-dist)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$root/target/e2e-dist" >/tmp/unroll-lab-e2e-server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
# The native CLI, for the browser-vs-CLI comparison (built by the native test step).
bin="${CARGO_TARGET_DIR:-$root/target}/debug/unroll-lab"
[ -x "$bin" ] && export UNROLL_LAB_BIN="$bin"
E2E_BASE_URL="http://127.0.0.1:$port/" node --test --test-concurrency=1 .
