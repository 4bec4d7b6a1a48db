#!/usr/bin/env bash
# unroll-lab's `paper` preset against an independent PyTorch implementation of the official
# ks_train.py (bench/reference/ks_train_official.py), on the same data and the same test windows.
#
# 1. `unroll-lab study --preset paper --data-out DATA` writes the study's training trajectories,
#    test truths and baseline metrics (nothing trained);
# 2. ks_train_official.py --baseline-only scores the ETD1 solver alone on those windows (it must
#    agree with unroll-lab's baseline to round-off: the two sides score identically);
# 3. ours: `unroll-lab study --preset paper --iterations N --seeds S --modes correct
#    --modalities one,wig --jobs 1` (one training at a time, one thread);
# 4. the reference: ks_train_official.py for each modality and seed (torch on one thread), one at
#    a time;
# 5. compare_ks_official.py prints the mean and median relative error at H = 12 over the 40 test
#    windows per variant and seed, and the ratios ours / reference.
#
# Installs what is missing, as scripts/bench-vs-references.sh does: torch (and numpy) into
# bench/reference/.venv with pip (about 3 GB once), our CLI with `cargo build --release`.
#
# Usage: scripts/compare-ks-official.sh [--iterations N] [--seeds S] [--modalities one,wig] [--out DIR]
#   defaults: 6000 iterations, 2 seeds (0 and 1), one,wig, out = /tmp/compare-ks-official
# Environment: PYTHON (default python3), TORCH_SPEC (default torch==2.15.0), CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "compare-ks-official: $*" >&2; exit 1; }

iterations=6000
seeds=2
modalities=one,wig
out=/tmp/compare-ks-official
while [ $# -gt 0 ]; do
  case "$1" in
    --iterations) iterations="${2:-}"; shift 2 ;;
    --seeds) seeds="${2:-}"; shift 2 ;;
    --modalities) modalities="${2:-}"; shift 2 ;;
    --out) out="${2:-}"; shift 2 ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ "$iterations" =~ ^[1-9][0-9]*$ ]] || die "--iterations must be a positive integer, got '$iterations'"
[[ "$seeds" =~ ^[1-9][0-9]*$ ]] || die "--seeds must be a positive integer, got '$seeds'"
[[ "$modalities" =~ ^(one|nog|wig)(,(one|nog|wig))*$ ]] || die "--modalities takes one,nog,wig, got '$modalities'"
mkdir -p "$out"

# shellcheck source=scripts/reference-venv.sh
. scripts/reference-venv.sh
python="$reference_python"
reference_install "torch, numpy" "${TORCH_SPEC:-torch==2.15.0} numpy" "about 3 GB"

export PATH="$HOME/.cargo/bin:$PATH"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-${UNROLL_LAB_TARGET_DIR:-$HOME/.cache/unroll-lab/target}}"
cargo build --release --locked --quiet -p unroll-lab-cli || die "cargo build --release failed"
ours="$CARGO_TARGET_DIR/release/unroll-lab"

run() { echo "\$ $*"; "$@"; }

echo "commit $(git rev-parse --short HEAD), $(date -u), load $(cut -d' ' -f1-3 /proc/loadavg)"
run "$ours" study --preset paper --data-out "$out/data.json"
run "$python" bench/reference/ks_train_official.py --data "$out/data.json" --baseline-only
run "$ours" study --preset paper --iterations "$iterations" --seeds "$seeds" --modes correct \
  --modalities "$modalities" --jobs 1 --ensemble off --quiet --out "$out/ours.json"
refs=()
for modality in ${modalities//,/ }; do
  for ((seed = 0; seed < seeds; seed++)); do
    ref="$out/ref-$modality-$seed.json"
    run "$python" bench/reference/ks_train_official.py --data "$out/data.json" --threads 1 \
      --modality "$modality" --seed "$seed" --iterations "$iterations" --out "$ref"
    refs+=("$ref")
  done
done
run "$python" bench/reference/compare_ks_official.py "$out/ours.json" "${refs[@]}"
echo "done $(date -u), load $(cut -d' ' -f1-3 /proc/loadavg)"
