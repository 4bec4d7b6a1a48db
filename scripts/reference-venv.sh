# Sourced by the scripts that run the Python references (scripts/bench-vs-references.sh,
# scripts/compare-ks-official.sh): the one venv they share, bench/reference/.venv, and the one
# way into it. After sourcing, $reference_python is the venv's interpreter and
#   reference_install MODULES SPEC SIZE
# makes sure `import MODULES` works there: it creates the venv where missing (with $PYTHON,
# default python3) and pip-installs SPEC (a list of requirements) once, SIZE telling the reader
# what the download costs. Failures go to the caller's `die`.
reference_venv=bench/reference/.venv
reference_python="$reference_venv/bin/python"

reference_install() {
  local modules="$1" spec="$2" size="$3"
  "$reference_python" -c "import $modules" >/dev/null 2>&1 && return 0
  local base_python="${PYTHON:-python3}"
  command -v "$base_python" >/dev/null || die "$base_python not found: install Python 3.10+ (or set PYTHON)."
  if [ ! -x "$reference_python" ]; then
    echo "creating $reference_venv ..." >&2
    "$base_python" -m venv "$reference_venv" \
      || die "'$base_python -m venv' failed: install the venv module (Debian: apt-get install python3-venv)."
  fi
  echo "installing $spec into $reference_venv (once; $size) ..." >&2
  local start
  start=$(date +%s)
  # shellcheck disable=SC2086 # the spec is a list of requirements
  "$reference_python" -m pip install --progress-bar off --quiet $spec \
    || die "pip install $spec failed: check that the Python package registry is reachable and there is disk space (df -h)."
  echo "$spec installed in $(( $(date +%s) - start )) s" >&2
  "$reference_python" -c "import $modules" || die "$spec installed but does not import (see the error above)."
}
