#!/usr/bin/env bash
# Installs whatever is missing for building, serving and testing unroll-lab.
# Idempotent: each tool is checked with --version first and only installed when absent or wrong.
# Usage: scripts/setup.sh [--browser] [--cluster] [--bench] [--native]
#   --browser also installs Debian's chromium + chromedriver (browser and end-to-end tests);
#   --cluster also installs Debian's slurmctld, slurmd, slurm-client and munge (the cluster test
#   starts its own single-node Slurm from them; no daemon is enabled or started here);
#   --bench   also installs Debian's python3-venv (scripts/bench-vs-references.sh's torch/JAX venv);
#   --native  only what native builds need (cargo, python3): no wasm32 target, wasm-bindgen,
#             trunk, mdbook or wasm-opt (scripts/bench-vs-references.sh, scripts/measure-gpu.sh).
# Every script under scripts/ that needs a tool calls this first.
#
# What a cold machine spends here, and why it is fast:
# - the two Rust tools are compiled with a quick release profile (no LTO, 16 codegen units):
#   trunk's own profile asks for fat LTO and one codegen unit, which is most of its install time;
# - trunk without its default features (TLS and the update check): offline, it downloads nothing;
# - mdbook without its server and watcher (scripts/serve.sh serves the built book itself);
# - Debian's chromium downloads while the Rust tools compile (network and disk, not CPU);
# - wasm-bindgen-cli brings `wasm-bindgen-test-runner`, so the browser tests need no wasm-pack.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=tools.env
source "$here/tools.env"
export PATH="$HOME/.cargo/bin:$PATH"

say() { printf '\033[1m[setup]\033[0m %s (%s)\n' "$*" "$(date +%T)"; }
die() { printf '\033[31m[setup] error:\033[0m %s\n' "$*" >&2; exit 1; }

command -v cargo >/dev/null || die "cargo not found: install Rust with rustup (https://rustup.rs) and re-run."

# apt_pkgs PKG... : installs the Debian packages that are missing.
apt_pkgs() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing Debian packages: ${missing[*]}"
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq || die "apt-get update failed: is the Debian mirror reachable?"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null \
    || die "apt-get install ${missing[*]} failed: run it by hand to see apt's output."
  say "Debian packages ready: ${missing[*]}"
}

# cargo_tool BIN CRATE VERSION [extra cargo install args...]
cargo_tool() {
  local bin="$1" crate="$2" version="$3"; shift 3
  if command -v "$bin" >/dev/null && "$bin" --version 2>/dev/null | grep -q "$version"; then
    return 0
  fi
  say "installing $crate $version from crates.io"
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    CARGO_PROFILE_RELEASE_DEBUG=0 CARGO_TARGET_DIR="${TMPDIR:-/tmp}/unroll-lab-tool-build" \
    cargo install --quiet "$crate" --version "=$version" "$@" \
    || die "cargo install $crate@$version failed: check that crates.io is reachable and there is disk space (df -h)."
  "$bin" --version | grep -q "$version" || die "$bin is not version $version after install: remove it from ~/.cargo/bin and re-run."
  say "$crate $version ready"
}

debian=()
native=0
for flag in "$@"; do
  case "$flag" in
    --browser) debian+=(chromium chromium-driver) ;;
    --cluster) debian+=(slurmctld slurmd slurm-client munge) ;;
    --bench) debian+=(python3-venv) ;;
    --native) native=1 ;;
    *) die "unknown flag $flag (expected --browser, --cluster, --bench and/or --native)" ;;
  esac
done
# python3 serves the page (serve.sh, the e2e test) and runs the scripts' helpers.
command -v python3 >/dev/null || debian+=(python3)
apt_job=""
if [ ${#debian[@]} -gt 0 ]; then
  apt_pkgs "${debian[@]}" &
  apt_job=$!
fi
if [ "$native" = 1 ]; then
  if [ -n "$apt_job" ]; then wait "$apt_job" || die "the Debian packages did not install (see above)."; fi
  say "tools ready (native)"
  exit 0
fi

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown || die "rustup could not add wasm32-unknown-unknown (is the rustup mirror reachable?)"
fi
cargo_tool wasm-bindgen wasm-bindgen-cli "$WASM_BINDGEN_VERSION"
cargo_tool trunk trunk "$TRUNK_VERSION" --locked --no-default-features
# mdbook builds the book (docs/): without its default features (its own server and file watcher,
# which serve.sh does not use), keeping the search index.
cargo_tool mdbook mdbook "$MDBOOK_VERSION" --locked --no-default-features --features search
# wasm-opt for trunk's release builds (serve.sh, measure-browser.sh): binaryen from npm, at the
# version Trunk.toml names. Debian's binaryen (108) breaks wasm-bindgen's externref table.
binaryen="$here/../tools/binaryen"
if ! "$binaryen/node_modules/.bin/wasm-opt" --version 2>/dev/null | grep -q "version 132"; then
  command -v npm >/dev/null || apt_pkgs nodejs npm
  say "installing binaryen (wasm-opt) from npm"
  (cd "$binaryen" && npm ci --no-audit --no-fund --silent) \
    || die "npm ci in tools/binaryen failed: is the npm registry reachable?"
fi
if [ -n "$apt_job" ]; then wait "$apt_job" || die "the Debian packages did not install (see above)."; fi
rm -rf "${TMPDIR:-/tmp}/unroll-lab-tool-build"
say "tools ready"
