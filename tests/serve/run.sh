#!/usr/bin/env bash
# The README's first command on a clean clone: `git clone` this repository (HEAD, plus the working
# tree's uncommitted changes to tracked files), run `scripts/serve.sh PORT` there as the README
# gives it, wait until it serves index.html (which links the book) and book/index.html over HTTP,
# then stop it. The clone has no dist/, no tools/binaryen/node_modules and no target/: serve.sh
# must install and build everything itself. It builds trunk's dev profile
# (UNROLL_LAB_SERVE_PROFILE=dev) in scripts/test.sh's environment, so it reuses the end-to-end
# test's wasm build from the shared cache (the crate's too: the clone's files keep the
# checkout's modification times); the release build (LTO, wasm-opt) is the only step
# the README's command runs that this test does not (scripts/measure-browser.sh runs it).
# Usage: tests/serve/run.sh   (UNROLL_LAB_SERVE_TIMEOUT: seconds to wait, default 3600)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
timeout="${UNROLL_LAB_SERVE_TIMEOUT:-3600}"
work="$(mktemp -d)"
server=""
cleanup() {
  if [ -n "$server" ]; then kill -- "-$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
git clone --quiet "$root" "$work/clone"
git -C "$root" diff HEAD --binary | git -C "$work/clone" apply --allow-empty
# The clone's files take the checkout's modification times, as they have its contents (HEAD
# plus its uncommitted changes): cargo then finds the crate that the checkout's own build made
# from these sources as fresh as it is there, instead of compiling it again for files that are
# all new.
python3 - "$root" "$work/clone" <<'PY'
import os, subprocess, sys
root, clone = sys.argv[1:]
files = subprocess.run(["git", "-C", clone, "ls-files", "-z"], capture_output=True, check=True)
for name in files.stdout.decode().split("\0"):
    source = os.path.join(root, name)
    if name and os.path.isfile(source):
        stat = os.stat(source)
        os.utime(os.path.join(clone, name), ns=(stat.st_atime_ns, stat.st_mtime_ns))
PY
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# Its own process group, so that stopping it stops trunk, cargo and the server too.
(cd "$work/clone" && exec setsid env UNROLL_LAB_SERVE_PROFILE=dev \
  scripts/serve.sh "$port" >"$work/serve.log" 2>&1) &
server=$!
start=$(date +%s)
fetch() { python3 - "http://127.0.0.1:$port/$1" <<'PY'
import sys, urllib.request
try:
    print(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode(errors="replace"))
except Exception:
    sys.exit(1)
PY
}
until page=$(fetch index.html) && book=$(fetch book/index.html); do
  if ! kill -0 "$server" 2>/dev/null; then
    tail -n 40 "$work/serve.log" >&2
    echo "[serve test] error: scripts/serve.sh $port exited before serving (log above)" >&2
    exit 1
  fi
  if [ $(( $(date +%s) - start )) -gt "$timeout" ]; then
    tail -n 40 "$work/serve.log" >&2
    echo "[serve test] error: nothing served on port $port after $timeout s (log above)" >&2
    exit 1
  fi
  sleep 2
done
grep -q 'href="book/index.html"' <<<"$page" || { echo "[serve test] error: index.html does not link book/index.html" >&2; exit 1; }
grep -q '<title>.*unroll-lab' <<<"$book" || { echo "[serve test] error: book/index.html is not the book" >&2; exit 1; }
echo "[serve test] scripts/serve.sh $port in a fresh clone served the page and the book after $(( $(date +%s) - start )) s"
