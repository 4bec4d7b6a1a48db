#!/usr/bin/env bash
# Browser figures (a benchmark, not a test): builds the page with trunk (--release: wasm-opt'd, as
# served in production, or the dev build with --dev), prints the wasm size raw and gzip, serves it
# and runs the default preset in headless Chromium (tests/e2e/measure.mjs), printing the run time,
# the backend, the workers used, the time to interactive and the main-thread tasks over 50 ms.
# Usage: scripts/measure-browser.sh [--dev] [QUERY]   (QUERY default: '?device=cpu', the CPU fallback)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/tools/binaryen/node_modules/.bin:$HOME/.cargo/bin:$PATH"  # wasm-opt 132 (npm)
profile=--release; dist=target/measure-dist
if [ "${1:-}" = "--dev" ]; then profile=""; dist=target/e2e-dist; shift; fi
query="${1:-?device=cpu}"
trunk build $profile --dist "$dist"
for wasm in "$dist"/*.wasm; do
  raw=$(stat -c %s "$wasm"); gz=$(gzip -9 -c "$wasm" | wc -c)
  awk -v n="$(basename "$wasm")" -v r="$raw" -v g="$gz" 'BEGIN { printf "wasm %s: %.2f MB raw, %.2f MB gzip -9\n", n, r / 1e6, g / 1e6 }'
done
(cd tests/e2e && { [ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund; })
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$dist" >/tmp/unroll-lab-measure-server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
E2E_BASE_URL="http://127.0.0.1:$port/" node tests/e2e/measure.mjs "$query"
