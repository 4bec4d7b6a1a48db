#!/usr/bin/env bash
# A benchmark, not a test: how much rebuilds after touching one file, in the builds trunk and
# scripts/test.sh run (dev profile, clippy as the compiler wrapper, the shared build cache).
# Prints seconds per build: native tests (no run), the page, the CPU worker, the WebGPU worker;
# first warm, then after touching a file of the page's src/ui/, then one of the core.
# Usage: scripts/measure-rebuild.sh   (run scripts/test.sh once first, so the builds are warm)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=env.sh
source scripts/env.sh
export RUSTC_WORKSPACE_WRAPPER="$(rustup which clippy-driver)"
export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
wasm=(cargo build -q --target wasm32-unknown-unknown)
page() { "${wasm[@]}" --manifest-path Cargo.toml --bin unroll-lab-web --features compact-fft; }
cpu() { "${wasm[@]}" --manifest-path crates/browser/Cargo.toml --bin unroll-lab-worker; }
gpu() { "${wasm[@]}" --manifest-path crates/browser/Cargo.toml --bin unroll-lab-gpu-worker --features webgpu; }
native() { cargo test -q --workspace --exclude unroll-lab --exclude unroll-browser --no-run; }
timed() { local start; start=$(date +%s.%N); "$1" >/dev/null 2>&1; python3 -c "print(f'$1: {$(date +%s.%N) - $start:.1f} s')"; }
echo "== warm"; for f in page cpu gpu native; do timed "$f"; done
echo "== after touching src/ui/hero.rs"; touch src/ui/hero.rs; for f in native page cpu gpu; do timed "$f"; done
echo "== after touching crates/core/src/lib.rs"; touch crates/core/src/lib.rs; for f in native page cpu gpu; do timed "$f"; done
