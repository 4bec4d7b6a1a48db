#!/usr/bin/env bash
# Serves the app: installs what is missing (scripts/setup.sh), then `trunk serve --release`.
# Usage: scripts/serve.sh [PORT]   (default 8080)
set -euo pipefail
cd "$(dirname "$0")/.."
port="${1:-8080}"
scripts/setup.sh
export PATH="$PWD/tools/binaryen/node_modules/.bin:$HOME/.cargo/bin:$PATH"  # wasm-opt 132 (npm)
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
  echo "[serve] error: port $port is already in use. Stop what is listening there (ss -ltnp | grep :$port) or pass another port: scripts/serve.sh 8081" >&2
  exit 1
fi
echo "[serve] building and serving on http://127.0.0.1:$port/ (first build: several minutes)"
exec trunk serve --release --port "$port" --address 127.0.0.1
