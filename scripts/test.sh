#!/usr/bin/env bash
# Runs every test: installs what is missing (scripts/setup.sh --browser --cluster), then
#   formatting; the book (mdbook build, then every relative link checked); the native build with clippy (warnings denied) and the native tests; the study run
#   as a Slurm job array on a throwaway single-node cluster; the wasm32
#   build with clippy (warnings denied); the browser tests (wasm-bindgen-test in headless Chromium)
#   and the end-to-end test (trunk build of the page + headless Chromium); last, the README's
#   `scripts/serve.sh PORT` in a fresh clone, until it serves the page and the book.
# Fails on the first failure. Usage: scripts/test.sh
#
# Each dependency graph is compiled once per target: clippy runs as the workspace's compiler
# wrapper (what `cargo clippy` does), so linting and building are one compilation, and every step
# of a target shares one build (same profile, same environment: nothing here sets RUSTFLAGS).
# The workspace's native crates (core, report, CLI) are built and tested natively; the page and
# the browser glue (`unroll-lab`, `unroll-browser`) for wasm32.
#
# The cargo target directory lives outside the clone, in $UNROLL_LAB_TARGET_DIR (default
# ~/.cache/unroll-lab/target), so a second run in a fresh clone reuses what the first compiled.
# UNROLL_LAB_FRESH_TARGET=1 uses the clone's own target/ instead (a cold, cache-free run).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --browser --cluster
export PATH="$HOME/.cargo/bin:$PATH"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
if [ "${UNROLL_LAB_FRESH_TARGET:-0}" = 1 ]; then
  export CARGO_TARGET_DIR="$PWD/target"
else
  export CARGO_TARGET_DIR="${UNROLL_LAB_TARGET_DIR:-$HOME/.cache/unroll-lab/target}"
fi
mkdir -p "$CARGO_TARGET_DIR"

# Clippy as the compiler of this crate only (dependencies are compiled by plain rustc, so they are
# shared with every other build); lints are errors. `cargo clippy -- -D warnings` sets exactly these.
clippy_driver="$(rustup which clippy-driver 2>/dev/null || command -v clippy-driver)" \
  || { echo "clippy-driver not found: rustup component add clippy" >&2; exit 1; }
export RUSTC_WORKSPACE_WRAPPER="$clippy_driver"
export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"

# UNROLL_LAB_TIMINGS=1 writes cargo's per-crate build timings (HTML) to $CARGO_TARGET_DIR/cargo-timings/.
timings=(); [ "${UNROLL_LAB_TIMINGS:-0}" = 1 ] && timings=(--timings)

step() { printf '\n\033[1m== %s\033[0m (%s)\n' "$*" "$(date +%T)"; }
start=$(date +%s)
echo "cargo target directory: $CARGO_TARGET_DIR"

step "rustfmt"
cargo fmt --all -- --check || { echo "formatting differs: run 'cargo fmt' and commit" >&2; exit 1; }

step "the book: mdbook build docs, then its links (scripts/check-links.py)"
mdbook build docs >/dev/null || { echo "mdbook build docs failed (see above): a chapter in docs/src/SUMMARY.md is missing or malformed" >&2; exit 1; }
python3 scripts/check-links.py docs/book

# `cargo test` builds every target `clippy --all-targets` checks (libs, bins, tests; there are no
# examples or benches) and the doc tests, of the native crates (core, report, CLI).
native=(--workspace --exclude unroll-lab --exclude unroll-browser)
step "native: build + clippy (warnings denied) + tests"
cargo test --locked "${native[@]}" "${timings[@]}"

# The API docs the book links (book/api/): every crate's, no warning (broken links, bad HTML).
step "API docs: cargo doc, warnings denied"
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --quiet "${native[@]}"
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --quiet --target wasm32-unknown-unknown \
  -p unroll-lab -p unroll-browser

step "cluster: a study as a Slurm job array on a single-node cluster (tests/cluster/run.sh)"
tests/cluster/run.sh "$CARGO_TARGET_DIR/debug/unroll-lab"

# The page and the browser glue with both workers (the WebGPU one needs `webgpu`).
web=(--target wasm32-unknown-unknown -p unroll-lab -p unroll-browser
  --features unroll-lab/webgpu,unroll-browser/webgpu)
step "wasm32: build + clippy (warnings denied) of every target"
cargo test --locked "${web[@]}" --no-run "${timings[@]}"

step "browser tests (wasm-bindgen-test-runner, headless Chromium)"
# The runner reads webdriver.json (Chromium binary and flags, WebGPU enabled).
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_TIMEOUT=900 \
  cargo test --locked "${web[@]}" --test browser -- --nocapture

step "end-to-end test (trunk build + headless Chromium)"
tests/e2e/run.sh

step "the README's first command: scripts/serve.sh PORT in a fresh clone (tests/serve/run.sh)"
tests/serve/run.sh

echo
echo "all tests passed in $(( $(date +%s) - start )) s"
