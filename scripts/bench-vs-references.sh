#!/usr/bin/env bash
# How fast is unroll-lab's training next to the paper's framework (PyTorch) and jitted JAX?
#
# Runs the PyTorch and JAX references of the study's set-up (bench/reference/bench_train.py and
# bench_train_jax.py: ResNet1D 16×10, batch 16, m = 3, P/C × ONE/NOG/WIG, Adam; JAX jits the whole
# train step, optax Adam) and `unroll-lab bench train --json` back to back, on one thread (all pinned
# to CPU 0 with taskset; torch.set_num_threads(1); XLA without its Eigen thread pool) and on all
# cores, and prints iterations/s of each and the ratios ours/torch and ours/jax per variant. With --repeat R each side runs R times,
# alternating, and the best of the R rates counts (less noise on a shared machine). The load average
# before and after is printed with the table: on a busy machine the all-cores figures mean little.
#
# Installs what is missing, and only that, so a second run is quick:
#   - Debian's python3-venv, through `scripts/setup.sh --native --bench` (nothing for the wasm build);
#   - torch, jax and optax into bench/reference/.venv (from the Python package registry, with pip;
#     torch's Linux x86_64 wheel pulls in its CUDA libraries: about 3 GB to download, 5 GB on disk,
#     once; jax's CPU wheels about 100 MB);
#   - our CLI: `cargo build --release -p unroll-lab-cli` in $CARGO_TARGET_DIR (default: like
#     scripts/test.sh, $UNROLL_LAB_TARGET_DIR or ~/.cache/unroll-lab/target).
#
# Usage: scripts/bench-vs-references.sh [--iterations N] [--repeat R] [--threads "1 all"] [--out DIR]
#   --iterations N   timed iterations per variant after 3 warm-up ones (default 30)
#   --repeat R       runs per side and thread setting, best counts (default 2)
#   --threads LIST   which settings, from "1" and "all" (default "1 all")
#   --out DIR        also keep every JSON result in DIR
# Environment: PYTHON (the interpreter that makes the venv, default python3),
#   TORCH_SPEC (what pip installs, default torch==2.15.0),
#   JAX_SPEC (default "jax==0.10.2 optax==0.2.8").
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "bench-vs-references: $*" >&2; exit 1; }

iterations=30
repeat=2
threads_list="1 all"
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --iterations) iterations="${2:-}"; shift 2 ;;
    --repeat) repeat="${2:-}"; shift 2 ;;
    --threads) threads_list="${2:-}"; shift 2 ;;
    --out) out="${2:-}"; shift 2 ;;
    -h|--help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[[ "$iterations" =~ ^[1-9][0-9]*$ ]] || die "--iterations must be a positive integer, got '$iterations'"
[[ "$repeat" =~ ^[1-9][0-9]*$ ]] || die "--repeat must be a positive integer, got '$repeat'"
for t in $threads_list; do
  [ "$t" = 1 ] || [ "$t" = all ] || die "--threads takes \"1\", \"all\" or \"1 all\", got '$threads_list'"
done
scripts/setup.sh --native --bench

# --- torch and jax in the references' venv (scripts/reference-venv.sh) -----------------------
# shellcheck source=scripts/reference-venv.sh
. scripts/reference-venv.sh
python="$reference_python"
reference_install torch "${TORCH_SPEC:-torch==2.15.0}" "about 3 GB to download on Linux x86_64, 5 GB of disk"
reference_install "jax, optax" "${JAX_SPEC:-jax==0.10.2 optax==0.2.8}" "about 100 MB"

# --- our CLI -----------------------------------------------------------------------------------
export PATH="$HOME/.cargo/bin:$PATH"
command -v cargo >/dev/null || die "cargo not found: install Rust with rustup (https://rustup.rs) or run scripts/setup.sh."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-${UNROLL_LAB_TARGET_DIR:-$HOME/.cache/unroll-lab/target}}"
mkdir -p "$CARGO_TARGET_DIR"
echo "building unroll-lab (release) in $CARGO_TARGET_DIR ..." >&2
cargo build --release --locked --quiet -p unroll-lab-cli || die "cargo build --release -p unroll-lab-cli failed (see above)."
ours="$CARGO_TARGET_DIR/release/unroll-lab"
[ -x "$ours" ] || die "built, but $ours is missing"

command -v taskset >/dev/null || die "taskset not found: install util-linux (Debian: apt-get install util-linux)."

# --- the runs ------------------------------------------------------------------------------------
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cores=$(nproc)
load() { cut -d' ' -f1-3 /proc/loadavg; }
load_before="$(load)"
echo "machine: $cores cores; load average before: $load_before" >&2
for t in $threads_list; do
  if [ "$t" = 1 ]; then pin=(taskset -c 0); torch_threads=1; else pin=(); torch_threads=0; fi
  for r in $(seq 1 "$repeat"); do
    echo "threads $t, run $r/$repeat: torch ..." >&2
    "${pin[@]}" "$python" bench/reference/bench_train.py --iterations "$iterations" \
      --threads "$torch_threads" --json > "$work/torch-$t-$r.json" \
      || die "the PyTorch reference failed (threads $t)"
    echo "threads $t, run $r/$repeat: jax ..." >&2
    "${pin[@]}" "$python" bench/reference/bench_train_jax.py --iterations "$iterations" \
      --threads "$torch_threads" --json > "$work/jax-$t-$r.json" \
      || die "the JAX reference failed (threads $t)"
    echo "threads $t, run $r/$repeat: unroll-lab ..." >&2
    "${pin[@]}" "$ours" bench train --json --iterations "$iterations" > "$work/ours-$t-$r.json" \
      || die "unroll-lab bench train failed (threads $t)"
  done
done
load_after="$(load)"
if [ -n "$out" ]; then mkdir -p "$out" && cp "$work"/*.json "$out"/; fi

# --- the table -----------------------------------------------------------------------------------
"$python" - "$work" "$repeat" "$iterations" "$cores" "$load_before" "$load_after" $threads_list <<'EOF'
import json, sys
work, repeat, iterations, cores, before, after = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]
settings = sys.argv[7:]
print(f"load average (1, 5, 15 min) before: {before}; after: {after}; {cores} cores")
if float(before.split()[0]) > 0.5 * int(cores) or float(after.split()[0]) > 0.5 * int(cores):
    print("warning: the machine was busy; the all-cores figures suffer most (a torch op waits for its")
    print("slowest thread, and a descheduled thread costs a time slice): rerun on an idle machine")
def rates(path):
    data = json.load(open(path))
    return data, {f"{v['mode'][0].upper()}-{v['modality'].upper()}": v["iterations_per_sec"] for v in data["variants"]}
versions = {}
for t in settings:
    best = {"ours": {}, "torch": {}, "jax": {}}
    for r in range(1, repeat + 1):
        for side in best:
            data, rate = rates(f"{work}/{side}-{t}-{r}.json")
            versions[side] = data.get(f"{side}_version", "")
            for k, v in rate.items():
                best[side][k] = max(best[side].get(k, 0.0), v)
    ours, torch, jax = best["ours"], best["torch"], best["jax"]
    label = "1 thread (taskset -c 0)" if t == "1" else f"all cores ({cores})"
    print(f"\n{label}: best of {repeat} runs, {iterations} timed iterations each, torch {versions['torch']}, jax {versions['jax']}")
    print(f"{'variant':<8} {'ours it/s':>10} {'torch it/s':>11} {'jax it/s':>9} {'ours/torch':>11} {'ours/jax':>9}")
    for k in ours:
        print(f"{k:<8} {ours[k]:>10.1f} {torch[k]:>11.1f} {jax[k]:>9.1f} {ours[k] / torch[k]:>10.2f}x {ours[k] / jax[k]:>8.2f}x")
EOF
