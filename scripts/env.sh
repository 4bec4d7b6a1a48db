# Sourced by the scripts under scripts/ after scripts/setup.sh: puts the tools setup.sh installed
# on PATH (cargo's bin, wasm-opt 132 from npm's binaryen) and points cargo at the shared build
# cache, the target directory scripts/test.sh uses: $CARGO_TARGET_DIR if set, else
# $UNROLL_LAB_TARGET_DIR, else ~/.cache/unroll-lab/target (UNROLL_LAB_FRESH_TARGET=1: the
# clone's own target/). A second build in any clone is then incremental.
unroll_lab_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$unroll_lab_root/tools/binaryen/node_modules/.bin:$HOME/.cargo/bin:$PATH"
if [ "${UNROLL_LAB_FRESH_TARGET:-0}" = 1 ]; then
  export CARGO_TARGET_DIR="$unroll_lab_root/target"
else
  export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-${UNROLL_LAB_TARGET_DIR:-$HOME/.cache/unroll-lab/target}}"
fi
mkdir -p "$CARGO_TARGET_DIR"
