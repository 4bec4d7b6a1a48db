#!/usr/bin/env bash
# Browser figures (a benchmark, not a test): builds the page with trunk (--release: wasm-opt'd, as
# served in production, or the dev build with --dev), prints the wasm size raw and gzip, serves it
# and runs the default preset in headless Chromium (tests/e2e/measure.mjs), printing first paint,
# layout shift, time to interactive, the idle page's main-thread share with the hero animating,
# the run time, the backend, the workers used, the longest main-thread task while loading, idle,
# during the run, at its end and while importing the largest committed results file, and the ms
# per training iteration in the worker per variant beside the native `bench train` figure of the
# same variant (release build, CPU backend, one thread; after the browser run, so they do not
# compete for the cores).
# Installs what is missing first (scripts/setup.sh --browser: trunk, wasm-bindgen, wasm-opt 132,
# Debian's Chromium) and builds in the shared build cache (scripts/env.sh).
# Builds the site with scripts/build-site.sh.
# Usage: scripts/measure-browser.sh [--dev] [QUERY]   (QUERY default: '?device=cpu', the CPU fallback)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --browser
# shellcheck source=env.sh
source scripts/env.sh  # wasm-opt 132 (npm) and cargo's bin on PATH; CARGO_TARGET_DIR
profile=--release; dist=target/measure-dist
if [ "${1:-}" = "--dev" ]; then profile=""; dist=target/measure-dev-dist; shift; fi
query="${1:-?device=cpu}"
# The site as published (scripts/build-site.sh: the page, its workers, the book, the committed runs).
if [ -n "$profile" ]; then scripts/build-site.sh "$dist"; else scripts/build-site.sh --dev "$dist"; fi
for wasm in "$dist"/*.wasm; do
  raw=$(stat -c %s "$wasm"); gz=$(gzip -9 -c "$wasm" | wc -c)
  awk -v n="$(basename "$wasm")" -v r="$raw" -v g="$gz" 'BEGIN { printf "wasm %s: %.2f MB raw, %.2f MB gzip -9\n", n, r / 1e6, g / 1e6 }'
done
# Each package's share of the code (cargo's output, which still has its names), the burn stack's
# names in each module, and wasm-ld's per-export constructor wrappers (`*.command_export`: none
# once the entry points run the static constructors themselves).
# (The page's release build uses Cargo.toml's `web-page` profile: index.html's data-cargo-profile-release.)
cargo_out="$CARGO_TARGET_DIR/wasm32-unknown-unknown"
for bin in unroll-lab-web unroll-lab-worker unroll-lab-gpu-worker; do
  dir=debug
  if [ -n "$profile" ]; then dir=release; [ "$bin" = unroll-lab-web ] && dir=web-page; fi
  python3 scripts/wasm-weight.py "$cargo_out/$dir/$bin.wasm" --top 12 --grep burn_,cubecl,wgpu,.command_export
done
(cd tests/e2e && { [ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund; })
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$dist" >/tmp/unroll-lab-measure-server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
largest=$(git ls-files '*results*.json' 'results/*.json' | xargs ls -S | head -n 1)
iterations=$(mktemp)
E2E_BASE_URL="http://127.0.0.1:$port/" IMPORT_FILE="$PWD/$largest" ITERATIONS_JSON="$iterations" \
  node tests/e2e/measure.mjs "$query"
kill $server 2>/dev/null || true
native=$(mktemp)
cargo run --release --locked --quiet -p unroll-lab-cli -- bench train --json --iterations 20 >"$native"
python3 - "$iterations" "$native" <<'PY'
import json, sys
wasm = json.load(open(sys.argv[1]))
native = {f"{v['mode'][0].upper()}-{v['modality'].upper()}": v["ms_per_iteration"] for v in json.load(open(sys.argv[2]))["variants"]}
print("ms per training iteration (CPU backend, one thread): variant, wasm worker, native bench train, wasm/native")
for variant in sorted(set(wasm) | set(native)):
    w, n = wasm.get(variant), native.get(variant)
    ratio = f"{w / n:.2f}x" if w and n else "-"
    print(f"  {variant}: {w or float('nan'):.1f} ms, {n or float('nan'):.1f} ms, {ratio}")
PY
