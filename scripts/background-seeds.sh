#!/usr/bin/env bash
# The added seeds of the paper-budget runs (issue "every claim with its uncertainty"), on two
# niced lanes (one core each, disjoint cells) until SECONDS from now: what is left is the blog's
# 52×12 seeds 1–2 (ks-paper-official and the blog's 26×8 are at six seeds, merged). Its extended
# plan and the cells trained for it live in results/ks-blog52-official/extended/ (plan.json,
# cells/); the old plan's cells are adopted into it when every added cell is done
# (docs/src/paper-budget.md says how).
# Resumable: run it again in any later session; finished cells are skipped and running ones go
# on from their last checkpoint (every 600 s). Commit results/*/extended before a session ends.
# Usage: scripts/background-seeds.sh SECONDS
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:?usage: scripts/background-seeds.sh SECONDS}
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "SECONDS must be a whole number: '$seconds'" >&2; exit 2; }
if [ -z "${UNROLL_LAB:-}" ]; then
  export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/unroll-lab/target}"
  cargo build --release -p unroll-lab-cli >&2
  export UNROLL_LAB="$CARGO_TARGET_DIR/release/unroll-lab"
fi
deadline=$(( $(date +%s) + seconds ))
# lane RUN:CELLS…: each run's cells in turn, until the deadline.
lane() {
  local item left
  for item in "$@"; do
    left=$(( deadline - $(date +%s) ))
    [ "$left" -gt 120 ] || return 0
    scripts/resume-runs.sh "$left" "${item%%:*}/extended" "${item#*:}"
  done
}
lane ks-blog52-official:1-2,4 &
lane ks-blog52-official:5,7-8 &
wait
