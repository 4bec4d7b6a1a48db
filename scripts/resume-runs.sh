#!/usr/bin/env bash
# Resumes the long runs whose plans are committed under results/ (each cell checkpointed every
# 600 s, so a stop loses at most that), niced (the process and its scheduling group), until
# SECONDS from now, on two cores: the Kolmogorov tenth-budget run.
# Commit their cells/ (checkpoints and finished cells) before a session ends; `study merge`
# once every cell of a plan is done. Usage: scripts/resume-runs.sh SECONDS [UNROLL_LAB_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:?usage: scripts/resume-runs.sh SECONDS [BINARY]}
binary=${2:-}
if [ -z "$binary" ]; then
  export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/unroll-lab/target}"
  cargo build --release --bin unroll-lab >&2
  binary="$CARGO_TARGET_DIR/release/unroll-lab"
fi
deadline=$(( $(date +%s) + seconds ))
run() { # plan directory, cell list
  local left=$(( deadline - $(date +%s) ))
  [ "$left" -gt 60 ] || return 0
  # Its own session, whose scheduling group (Linux's autogroup, where `nice` alone only ranks
  # a session's own processes) is niced too: builds, tests and browsers run first.
  setsid --wait bash -c 'echo 19 > /proc/self/autogroup 2>/dev/null; exec nice -n 19 "$@"' _ \
    "$binary" study run-cell --plan "results/$1/plan.json" --cell "$2" \
    --out "results/$1/cells" --jobs 1 --checkpoint-every 600 --stop-after "$left"
}
# Two lanes, one core each, on disjoint cells (two processes on one cell would both write its
# checkpoint): the Kolmogorov cells split by variant (6, 7 and 12–17 are done). (Every KS plan
# is merged.)
run kolmogorov-tenth 0-5 &
run kolmogorov-tenth 9-11,6-8 &
wait
