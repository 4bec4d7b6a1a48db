#!/usr/bin/env bash
# The page module's size under the release profile and under its own `web-page` profile (what
# trunk's release build uses, index.html's data-cargo-profile-release), on the same sources and
# with the page's features (index.html's data-cargo-features, read from it):
# cargo build, wasm-bindgen, wasm-opt -Os as trunk runs them, gzip -9. A benchmark, not a test.
# Installs what is missing first (scripts/setup.sh: wasm-bindgen-cli, binaryen's wasm-opt 132) and
# builds in the shared build cache (scripts/env.sh).
# Usage: scripts/page-size.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# shellcheck source=env.sh
source scripts/env.sh
target="$CARGO_TARGET_DIR"
features="--enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git log --oneline -1
page_features=$(grep -o 'data-bin="unroll-lab-web"[^>]*' index.html | grep -o 'data-cargo-features="[^"]*"' | cut -d'"' -f2)
echo "page features: ${page_features:-none}"
for profile in release web-page; do
  cargo build --locked --profile "$profile" --target wasm32-unknown-unknown -p unroll-lab --bin unroll-lab-web \
    --features "$page_features" >/dev/null 2>&1
  wasm-bindgen --target web --out-dir "$work/$profile" --no-typescript \
    "$target/wasm32-unknown-unknown/$profile/unroll-lab-web.wasm"
  # shellcheck disable=SC2086
  wasm-opt -Os $features "$work/$profile/unroll-lab-web_bg.wasm" -o "$work/$profile/opt.wasm"
  raw=$(stat -c %s "$work/$profile/opt.wasm"); gz=$(gzip -9 -c "$work/$profile/opt.wasm" | wc -c)
  awk -v p="$profile" -v r="$raw" -v g="$gz" 'BEGIN { printf "page, %s profile: %.2f MB raw, %.2f MB gzip -9\n", p, r / 1e6, g / 1e6 }'
done
