#!/usr/bin/env bash
# Installs whatever is missing for building, serving and testing unroll-lab.
# Idempotent: each tool is checked with --version first and only installed when absent or wrong.
# Usage: scripts/setup.sh [--browser]   (--browser also installs Debian's chromium + chromedriver)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=tools.env
source "$here/tools.env"
export PATH="$HOME/.cargo/bin:$PATH"

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
die() { printf '\033[31m[setup] error:\033[0m %s\n' "$*" >&2; exit 1; }

command -v cargo >/dev/null || die "cargo not found: install Rust with rustup (https://rustup.rs) and re-run."

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown || die "rustup could not add wasm32-unknown-unknown (is the rustup mirror reachable?)"
fi

# cargo_tool BIN CRATE VERSION [extra cargo install args...]
cargo_tool() {
  local bin="$1" crate="$2" version="$3"; shift 3
  if command -v "$bin" >/dev/null && "$bin" --version 2>/dev/null | grep -q "$version"; then
    return 0
  fi
  say "installing $crate $version from crates.io (cold: several minutes)"
  cargo install "$crate" --version "=$version" "$@" \
    || die "cargo install $crate@$version failed: check that crates.io is reachable and there is disk space (df -h)."
  "$bin" --version | grep -q "$version" || die "$bin is not version $version after install: remove it from ~/.cargo/bin and re-run."
}

apt_pkgs() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing Debian packages: ${missing[*]}"
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq || die "apt-get update failed: is the Debian mirror reachable?"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" \
    || die "apt-get install ${missing[*]} failed: see the apt output above."
}

apt_pkgs binaryen
cargo_tool wasm-bindgen wasm-bindgen-cli "$WASM_BINDGEN_VERSION"
cargo_tool trunk trunk "$TRUNK_VERSION" --locked
if [ "${1:-}" = "--browser" ]; then
  apt_pkgs chromium chromium-driver
  cargo_tool wasm-pack wasm-pack "$WASM_PACK_VERSION"
fi
say "tools ready"
