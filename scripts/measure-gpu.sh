#!/usr/bin/env bash
# How fast does unroll-lab train on this machine's GPU, next to one CPU core?
#
# Prints `unroll-lab bench train` (the study's ResNet1D 16×10, batch 16, m = 3, P/C × ONE/NOG/WIG)
# iterations/s per variant on every device this machine offers natively: cpu (burn-flex, one
# thread), wgpu (burn-cubecl on Vulkan/Metal/DX12), wgpu-fusion (the same with burn's kernel fusion)
# and the ratio of each to the CPU, and on the GPU devices the kernel launches (dispatches) per
# iteration, before and after fusion; cuda is tried and says why this build lacks it. A device the machine lacks is reported as such, not as a failure. Where Python
# with PyTorch or JAX sees a CUDA GPU, the references in bench/reference/ run there too (--references).
#
# Builds what is missing (after `scripts/setup.sh --native`, which checks for cargo and python3 and
# installs nothing for the wasm build): `cargo build --release --features gpu -p unroll-lab-cli` in
# $CARGO_TARGET_DIR (default ~/.cache/unroll-lab/target-gpu, apart from the test build's), and with
# `--features gpu,fusion` in its sibling target-gpu-fusion. With UNROLL_LAB_BIN (and
# UNROLL_LAB_FUSION_BIN) set, those binaries are used instead (a machine without a Rust toolchain).
#
# Usage: scripts/measure-gpu.sh [--iterations N] [--devices "cpu wgpu cuda"] [--references] [--out DIR]
#   --iterations N   timed iterations per variant after 3 warm-up ones (default 30)
#   --devices LIST   which devices to try (default "cpu wgpu wgpu-fusion cuda")
#   --references     also time bench/reference/*.py on CUDA with the python3 on PATH (no install)
#   --out DIR        keep every JSON result in DIR
# Then, per device, ensembles of K = 1, 6, 18 members (a variant's seeds as one model:
# `bench train --ensemble 1,6,18`): per-network iterations/s and the ratio to one network alone,
# and on a GPU the launches per ensemble iteration.
# Not measured here: the page on WebGPU in headless Chromium (scripts/measure-browser.sh does
# that where Chromium and a GPU meet).
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "measure-gpu: $*" >&2; exit 2; }

iterations=30
devices="cpu wgpu wgpu-fusion cuda"
references=0
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --iterations) iterations="${2:-}"; shift 2 ;;
    --devices) devices="${2:-}"; shift 2 ;;
    --references) references=1; shift ;;
    --out) out="${2:-}"; shift 2 ;;
    -h|--help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ "$iterations" =~ ^[1-9][0-9]*$ ]] || die "--iterations must be a positive integer, got '$iterations'"
for device in $devices; do
  case "$device" in cpu|wgpu|wgpu-fusion|cuda) ;; *) die "--devices takes cpu, wgpu, wgpu-fusion and cuda, got '$device'" ;; esac
done
[ -n "$out" ] || out="$(mktemp -d)"
mkdir -p "$out"

# build FEATURES TARGET_DIR: the release CLI with those features; prints its path.
build() {
  command -v cargo >/dev/null || die "no cargo: install Rust (https://rustup.rs) or set UNROLL_LAB_BIN"
  scripts/setup.sh --native >&2
  CARGO_TARGET_DIR="$2" cargo build --release --locked --features "$1" -p unroll-lab-cli >&2
  echo "$2/release/unroll-lab"
}
target="${CARGO_TARGET_DIR:-$HOME/.cache/unroll-lab/target-gpu}"
bin="${UNROLL_LAB_BIN:-}"
[ -n "$bin" ] || bin="$(build gpu "$target")"
[ -x "$bin" ] || die "$bin is not an executable"
fusion_bin="${UNROLL_LAB_FUSION_BIN:-}"
if [ -z "$fusion_bin" ] && [[ " $devices " == *" wgpu-fusion "* ]]; then
  fusion_bin="$(build gpu,fusion "$target-fusion")"
fi

echo "machine: $(nproc) cores; $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo 'no nvidia-smi')"
for device in $devices; do
  echo "--- bench train --device $device" >&2
  runner="$bin" backend="$device"
  if [ "$device" = wgpu-fusion ]; then runner="$fusion_bin" backend=wgpu; fi
  if [ ! -x "$runner" ]; then echo "$device: no binary" >&2; continue; fi
  if timeout 600 "$runner" bench train --device "$backend" --iterations "$iterations" --json \
    >"$out/ours-$device.json" 2>"$out/ours-$device.err"; then
    echo "$device: measured" >&2
  else
    echo "$device: not available: $(tail -n 3 "$out/ours-$device.err")" >&2
    rm -f "$out/ours-$device.json"
    continue
  fi
  echo "--- bench train --device $device --ensemble 1,6,18" >&2
  if ! timeout 600 "$runner" bench train --device "$backend" --iterations "$iterations" \
    --ensemble 1,6,18 --json >"$out/ensemble-$device.txt" 2>"$out/ensemble-$device.err"; then
    echo "$device ensembles: failed: $(tail -n 3 "$out/ensemble-$device.err")" >&2
    rm -f "$out/ensemble-$device.txt"
  fi
done

if [ "$references" = 1 ]; then
  for reference in bench/reference/bench_train*.py; do
    name="$(basename "$reference" .py)"
    echo "--- $reference --device cuda" >&2
    if timeout 600 python3 "$reference" --device cuda --iterations "$iterations" --json \
      >"$out/ref-$name.json" 2>"$out/ref-$name.err"; then
      echo "$name: measured" >&2
    else
      echo "$name: not available: $(tail -n 3 "$out/ref-$name.err")" >&2
      rm -f "$out/ref-$name.json"
    fi
  done
fi

python3 - "$out" <<'EOF'
import glob, json, os, sys

out = sys.argv[1]
runs = {}
for path in sorted(glob.glob(os.path.join(out, "*.json"))):
    with open(path) as file:
        bench = json.load(file)
    name = os.path.basename(path)[:-5]
    runs[name] = {f"{v['mode']}-{v['modality']}": v["iterations_per_sec"] for v in bench["variants"]}
    runs[name]["__device"] = bench["device"]
if not runs:
    sys.exit("measure-gpu: nothing was measured")
variants = [key for key in next(iter(runs.values())) if key != "__device"]
cpu = runs.get("ours-cpu")
print("iterations/s per variant" + (" (× one CPU core in brackets)" if cpu else ""))
print("| run | device | " + " | ".join(variants) + " |")
print("|---|---|" + "---|" * len(variants))
for name, rates in runs.items():
    cells = []
    for variant in variants:
        rate = rates.get(variant)
        if rate is None:
            cells.append("—")
        elif cpu and name != "ours-cpu" and cpu.get(variant):
            cells.append(f"{rate:.1f} ({rate / cpu[variant]:.2f}×)")
        else:
            cells.append(f"{rate:.1f}")
    print(f"| {name} | {rates['__device']} | " + " | ".join(cells) + " |")

launches = {}
for path in sorted(glob.glob(os.path.join(out, "ours-*.json"))):
    with open(path) as file:
        bench = json.load(file)
    counts = {f"{v['mode']}-{v['modality']}": v.get("gpu_launches_per_iteration") for v in bench["variants"]}
    if any(count is not None for count in counts.values()):
        launches[os.path.basename(path)[:-5]] = counts
if launches:
    print()
    print("GPU kernel launches (dispatches) per iteration, as issued after fusion")
    print("| run | " + " | ".join(variants) + " |")
    print("|---|" + "---|" * len(variants))
    for name, counts in launches.items():
        cells = ["—" if counts.get(v) is None else f"{counts[v]:.0f}" for v in variants]
        print(f"| {name} | " + " | ".join(cells) + " |")
EOF

python3 - "$out" <<'EOF'
import glob, json, os

out = __import__("sys").argv[1]
paths = sorted(glob.glob(os.path.join(out, "ensemble-*.txt")))
for index, path in enumerate(paths):
    device = os.path.basename(path)[len("ensemble-"):-len(".txt")]
    variants = json.load(open(path))
    if index == 0:
        print()
        print("ensembles: per-network iterations/s (× one network alone)")
        sizes = " | ".join(f"K = {s['members']}" for s in variants[0]["sizes"])
        print(f"| device | variant | alone | {sizes} |")
        print("|---|---|---|" + "---|" * len(variants[0]["sizes"]))
    for variant in variants:
        sizes = " | ".join(
            f"{s['per_network_iterations_per_sec']:.1f} ({s['speedup']:.2f}×)" for s in variant["sizes"]
        )
        print(f"| {device} | {variant['variant']} | {variant['alone_iterations_per_sec']:.1f} | {sizes} |")
        alone = variant.get("alone_gpu_launches_per_iteration")
        if alone is not None:
            counts = " | ".join(f"{s.get('gpu_launches_per_iteration') or 0:.0f} launches/it" for s in variant["sizes"])
            print(f"| {device} | (dispatches) | {alone:.0f} launches/it | {counts} |")
EOF
