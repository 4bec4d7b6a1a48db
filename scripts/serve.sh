#!/usr/bin/env bash
# Serves the app and its book: builds the site into dist/ (scripts/build-site.sh, which installs
# what is missing: the release page and workers, the book, the committed runs as the page reads
# them), then serves dist/ with a static server on 127.0.0.1 (python3 -m http.server): the page
# at /, the book at /book/. No file watcher runs, so nothing that changes on disk can take the
# server down.
# Usage: scripts/serve.sh [--watch] [PORT]   (default 8080)
#   --watch  development mode: `trunk watch --release` rebuilds the page when its sources change
#            (src/, static/, index.html, Cargo.toml, Trunk.toml, polled: nothing else is watched),
#            while scripts/static-server.py serves the last build, the book and the committed
#            runs' page copies; reload by hand.
# The build cache is the one scripts/test.sh uses (scripts/env.sh), so a second build is incremental.
# UNROLL_LAB_SERVE_PROFILE=dev builds trunk's dev profile instead of --release (no LTO, no wasm-opt):
# the serve test (tests/serve/run.sh) uses it to share the end-to-end test's build.
set -euo pipefail
cd "$(dirname "$0")/.."
watch=0
if [ "${1:-}" = --watch ]; then watch=1; shift; fi
port="${1:-8080}"
if ! [[ "$port" =~ ^[0-9]+$ ]] || [ "$#" -gt 1 ]; then
  echo "[serve] error: usage: scripts/serve.sh [--watch] [PORT] (got: $*)" >&2
  exit 2
fi
scripts/setup.sh
# shellcheck source=env.sh
source scripts/env.sh
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
  echo "[serve] error: port $port is already in use. Stop what is listening there (ss -ltnp | grep :$port) or pass another port: scripts/serve.sh 8081" >&2
  exit 1
fi
book() {
  mdbook build docs --dest-dir "$1" >/dev/null \
    || { echo "[serve] error: mdbook build docs failed (see above)" >&2; exit 1; }
}
if [ "$watch" = 0 ]; then
  echo "[serve] building the site into dist/ (scripts/build-site.sh; first build: several minutes)"
  profile=()
  [ "${UNROLL_LAB_SERVE_PROFILE:-release}" = dev ] && profile=(--dev)
  scripts/build-site.sh "${profile[@]}" dist
  echo "[serve] serving dist/ on http://127.0.0.1:$port/ (the book: http://127.0.0.1:$port/book/); Ctrl-C stops"
  exec python3 -m http.server "$port" --bind 127.0.0.1 --directory dist
fi
# --watch: trunk replaces dist/ on every build, so the book and the committed runs are served from
# beside it (docs/book/, target/site-results/). trunk watch polls the sources (--poll: no inotify
# queue to overflow) and builds once at start; if it fails or dies, the server keeps serving the
# last build.
book "$PWD/docs/book"
cargo build --locked -p unroll-lab-cli
"$CARGO_TARGET_DIR/debug/unroll-lab" site-results --results results --out "$PWD/target/site-results"
trunk watch --release --dist dist --poll --poll-interval 2s --watch src --watch static \
  --watch index.html --watch Cargo.toml --watch Trunk.toml &
watcher=$!
trap 'kill "$watcher" 2>/dev/null || true' EXIT
echo "[serve] development mode: trunk watch rebuilds the page when src/, static/, index.html, Cargo.toml or Trunk.toml change (reload by hand)"
echo "[serve] serving dist/ on http://127.0.0.1:$port/ once the first build is done, and the book at /book/; Ctrl-C stops"
python3 scripts/static-server.py "$port" dist --mount /book/=docs/book --mount /results/=target/site-results
