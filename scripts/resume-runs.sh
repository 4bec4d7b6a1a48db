#!/usr/bin/env bash
# Resumes a long run whose plan is committed under results/<RUN>/ (each cell checkpointed every
# 600 s, so a stop loses at most that), niced (the process and its scheduling group), until
# SECONDS from now, one lane per CELLS argument (one core each; lanes must not share a cell:
# two processes on one cell would both write its checkpoint).
# Commit results/<RUN>/cells (checkpoints and finished cells) before a session ends;
# `study merge` once every cell is done (`study status` lists what is left).
# Usage: scripts/resume-runs.sh SECONDS RUN CELLS [CELLS…]
#   e.g. scripts/resume-runs.sh 9000 kolmogorov-tenth 0-5 6-17
# UNROLL_LAB=path/to/unroll-lab uses that binary instead of building the release one.
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: scripts/resume-runs.sh SECONDS RUN CELLS [CELLS…]"
seconds=${1:?$usage}
run_id=${2:?$usage}
shift 2
[ "$#" -ge 1 ] || { echo "$usage" >&2; exit 2; }
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "SECONDS must be a whole number: '$seconds'" >&2; exit 2; }
[ -f "results/$run_id/plan.json" ] || { echo "no plan at results/$run_id/plan.json" >&2; exit 2; }
binary=${UNROLL_LAB:-}
if [ -z "$binary" ]; then
  export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/unroll-lab/target}"
  cargo build --release -p unroll-lab-cli >&2
  binary="$CARGO_TARGET_DIR/release/unroll-lab"
fi
deadline=$(( $(date +%s) + seconds ))
lane() { # cell list
  local left=$(( deadline - $(date +%s) ))
  [ "$left" -gt 60 ] || return 0
  # Its own session, whose scheduling group (Linux's autogroup, where `nice` alone only ranks
  # a session's own processes) is niced too: builds, tests and browsers run first.
  setsid --wait bash -c 'echo 19 > /proc/self/autogroup 2>/dev/null; exec nice -n 19 "$@"' _ \
    "$binary" study run-cell --plan "results/$run_id/plan.json" --cell "$1" \
    --out "results/$run_id/cells" --jobs 1 --checkpoint-every 600 --stop-after "$left"
}
for cells in "$@"; do
  lane "$cells" &
done
wait
