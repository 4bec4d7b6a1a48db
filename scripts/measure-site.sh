#!/usr/bin/env bash
# The published site's figures (a benchmark, not a test): builds it as the Pages workflow does
# (scripts/build-site.sh --base /unroll-lab/, release), prints its size by part, serves it from
# /unroll-lab/ with a plain static server and prints the bytes of a first visit until Run is
# ready and of the default Run, cold cache, without and with WebGPU (tests/e2e/site-bytes.mjs).
# Usage: scripts/measure-site.sh [--no-build]   (--no-build: measure target/measure-site as built)
set -euo pipefail
cd "$(dirname "$0")/.."
served=target/measure-site
if [ "${1:-}" != --no-build ]; then
  rm -rf "$served"
  scripts/build-site.sh --base /unroll-lab/ "$served/unroll-lab"
fi
site="$served/unroll-lab"
echo "site: $(du -sb "$site" | awk '{printf "%.1f MB", $1/1e6}') in $(find "$site" -type f | wc -l) files"
for part in book results static; do
  echo "  $part/: $(du -sb "$site/$part" | awk '{printf "%.1f MB", $1/1e6}')"
done
for wasm in "$site"/*.wasm; do
  echo "  $(basename "$wasm"): $(stat -c %s "$wasm" | awk '{printf "%.2f MB", $1/1e6}'), gzip -9 $(gzip -9 -c "$wasm" | wc -c | awk '{printf "%.2f MB", $1/1e6}')"
done
[ -n "$(find "$site" -path '*/cells/*' -print -quit)" ] && { echo "error: the site carries cells/" >&2; exit 1; }
(cd tests/e2e && { [ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund; })
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$served" >/tmp/unroll-lab-measure-site.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
E2E_BASE_URL="http://127.0.0.1:$port/unroll-lab/" SITE_DIR="$PWD/$site" node tests/e2e/site-bytes.mjs
