#!/usr/bin/env bash
# End-to-end test, where the site will live: builds it as scripts/build-site.sh builds it for a
# GitHub Pages project site (--base /unroll-lab/; the dev profile, sharing the wasm32 build of the
# test step), serves it from that sub-path with a plain static server (no rewrite rules, no
# custom headers), with the same folder at a second sub-path (/unroll-lab-preview/: a second
# deployment on one origin), and runs the playwright-core tests (node's test runner) against it
# in Debian's headless Chromium.
set -euo pipefail
cd "$(dirname "$0")"
root="$(cd ../.. && pwd)"
export PATH="$HOME/.cargo/bin:$PATH"
# playwright-core drives Debian's Chromium; axe-core is the accessibility checker the tests inject.
{ [ -d node_modules/playwright-core ] && [ -f node_modules/axe-core/axe.min.js ]; } || npm ci --no-audit --no-fund \
  || { echo "[e2e] error: npm ci failed: is the npm registry reachable?" >&2; exit 1; }
# The native CLI: it writes the site's committed runs, and the browser-vs-CLI test compares with it
# (built by the native test step).
bin="${CARGO_TARGET_DIR:-$root/target}/debug/unroll-lab"
[ -x "$bin" ] && export UNROLL_LAB_BIN="$bin" UNROLL_LAB="$bin"
served="$root/target/e2e-site"
rm -rf "$served"
"$root/scripts/build-site.sh" --dev --base /unroll-lab/ "$served/unroll-lab"
ln -s unroll-lab "$served/unroll-lab-preview"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$served" >/tmp/unroll-lab-e2e-server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
E2E_BASE_URL="http://127.0.0.1:$port/unroll-lab/" E2E_SECOND_BASE_URL="http://127.0.0.1:$port/unroll-lab-preview/" \
  node --test --test-concurrency=1 .
