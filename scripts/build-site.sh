#!/usr/bin/env bash
# Builds the published site into OUT, one folder any static host serves from its root or any
# sub-path, with no custom headers: the release page and its two workers (trunk), the book under
# book/ (mdbook), the static assets, and the committed runs as the page reads them under results/
# (`unroll-lab site-results`: the index and each run's page copy, gzipped, no cells/, no weights
# the page cannot use). Installs what is missing first (scripts/setup.sh). What this writes is
# what .github/workflows/pages.yml publishes and what the end-to-end test serves from a sub-path.
#
# Usage: scripts/build-site.sh [--base PATH] [--dev] OUT
#   --base PATH  the address the site is served at, e.g. /unroll-lab/ (a GitHub Pages project
#                site); default ./ (every URL relative: the same folder works at any address)
#   --dev        trunk's dev profile (no LTO, no wasm-opt; what the tests build), not --release
# UNROLL_LAB=path/to/unroll-lab uses that CLI for site-results instead of building it (dev profile).
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: scripts/build-site.sh [--base PATH] [--dev] OUT"
base=./
profile=(--release)
out=""
while [ "$#" -gt 0 ]; do
  case "$1" in
    --base) [ "$#" -ge 2 ] || { echo "$usage" >&2; exit 2; }; base="$2"; shift 2 ;;
    --dev) profile=(); shift ;;
    -*) echo "unknown option $1; $usage" >&2; exit 2 ;;
    *) [ -z "$out" ] || { echo "$usage" >&2; exit 2; }; out="$1"; shift ;;
  esac
done
[ -n "$out" ] || { echo "$usage" >&2; exit 2; }
# The base as trunk wants it: ./ or an absolute path that starts and ends with /.
case "$base" in
  ./|.) base=./ ;;
  /*) base="${base%/}/" ;;
  *) echo "--base must be ./ or an absolute path such as /unroll-lab/ (got '$base')" >&2; exit 2 ;;
esac
scripts/setup.sh
# shellcheck source=env.sh
source scripts/env.sh
mkdir -p "$out"
out="$(cd "$out" && pwd)"
say() { printf '\033[1m[site]\033[0m %s (%s)\n' "$*" "$(date +%T)"; }

say "the page and its workers: trunk build ${profile[*]} --public-url $base"
trunk build "${profile[@]}" --public-url "$base" --dist "$out"

say "the book: mdbook build docs into book/"
mdbook build docs --dest-dir "$out/book" >/dev/null \
  || { echo "[site] error: mdbook build docs failed (see above)" >&2; exit 1; }

say "the API docs of the core, the report and the CLI into api/ (cargo doc; the book links them)"
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --quiet -p unroll-core -p unroll-pool -p unroll-report -p unroll-lab-cli
rm -rf "$out/api" && cp -r "$CARGO_TARGET_DIR/doc" "$out/api"

cli="${UNROLL_LAB:-}"
if [ -z "$cli" ]; then
  say "the CLI that writes the committed runs' page copies (cargo build, dev profile)"
  cargo build --locked -p unroll-lab-cli
  cli="$CARGO_TARGET_DIR/debug/unroll-lab"
fi
say "the committed runs as the page reads them: unroll-lab site-results"
"$cli" site-results --results results --out "$out/results"

bytes=$(du -sb "$out" | cut -f1)
files=$(find "$out" -type f | wc -l)
say "site in $out: $(python3 -c "print(f'{$bytes/1e6:.1f}')") MB in $files files, for the address $base"
