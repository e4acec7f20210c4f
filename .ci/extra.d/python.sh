#!/usr/bin/env bash
# Python package (bindings/python, issue #14): `pip install ./bindings/python` (PyO3 + maturin,
# abi3) into a virtualenv with the pinned test dependencies, then its pytest suite: the core
# API, codecs registration, sniffing, hypothesis properties over every encoding, Arrow and
# Polars, hostile Arrow arrays and mutable buffers (issue #27), and the PySpark integration
# test (local[2]; Java 17 is installed here if missing, and TEXTCODEC_REQUIRE_SPARK=1 makes
# a missing Java or pyspark a failure, not a skip); then the arbitrary-bytes tests once per
# SIMD kernel level.
# The abi3 wheel is also smoke-tested on the oldest supported CPython (3.9) when present.
# Idempotent: reuses bindings/python/.venv and cargo's bindings/python/target.
set -euo pipefail
cd "$(dirname "$0")/../../bindings/python"

fail() { echo "python.sh: FAILED: $*" >&2; exit 1; }
started=$(date +%s)

py="${PYTHON:-python3}"
command -v "$py" >/dev/null || fail "$py is not installed (CPython >= 3.9 is required)"
"$py" -c 'import sys; sys.exit(sys.version_info < (3, 9))' || fail "CPython >= 3.9 required, found $("$py" --version)"
echo "$("$py" --version), $(cargo --version)"

if ! java -version >/dev/null 2>&1; then
  echo "--- apt-get install openjdk-17-jre-headless (for the PySpark test)"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq || fail "apt-get update"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq openjdk-17-jre-headless >/dev/null \
    || fail "installing Java 17"
fi
java -version 2>&1 | sed -n 1p  # sed reads to the end: no SIGPIPE under pipefail

echo "--- virtualenv .venv + pinned test dependencies"
[ -x .venv/bin/python ] || "$py" -m venv .venv || fail "creating .venv"
.venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-test.txt \
  || fail "pip install -r requirements-test.txt"

echo "--- pip install ./bindings/python (maturin, release build)"
.venv/bin/python -m pip install -q --disable-pip-version-check --force-reinstall --no-deps . \
  || fail "pip install ./bindings/python"

echo "--- pytest (Spark included)"
TEXTCODEC_REQUIRE_SPARK=1 .venv/bin/python -m pytest -q -p no:cacheprovider tests \
  || fail "pytest bindings/python"

# The arbitrary-bytes and hostile-Arrow tests once more per SIMD kernel level (issue #27; the
# Arrow rows are decoded by the kernels once validated, about 6 s a level): each run forces the
# level with TEXTCODEC_KERNEL (the tests check it is the one in use). A level this CPU lacks
# is skipped, judged from /proc/cpuinfo as .ci/run does (other targets: the library's own
# list of supported levels). Hypothesis examples are capped to keep all levels within about
# a minute.
echo "--- arbitrary bytes at every kernel level"
levels="$(.venv/bin/python -c 'import textcodec._native as n; print(" ".join(n._kernel_info()["levels"]))')"
supported="$(.venv/bin/python -c 'import textcodec._native as n; print(" ".join(n._kernel_info()["supported"]))')"
cpu_has() { grep -qw "$1" /proc/cpuinfo; }
# Seconds since $1 (from `date +%s%N`), to a tenth.
seconds_since() { local ms=$((($(date +%s%N) - $1) / 1000000)); echo "$((ms / 1000)).$((ms % 1000 / 100))"; }
levels_started=$(date +%s%N)
for level in $levels; do
  case $level in
    sse2) needs="sse2" ;;
    sse4) needs="ssse3 sse4_1 sse4_2 popcnt" ;;
    avx2) needs="ssse3 sse4_1 sse4_2 popcnt avx2 bmi1 bmi2 abm" ;;
    avx512) needs="avx2 bmi2 avx512f avx512bw avx512vl avx512vbmi avx512_vbmi2" ;;
    scalar) needs="" ;;
    *) needs="-" ;;
  esac
  missing=""
  if [ "$needs" = "-" ]; then
    case " $supported " in *" $level "*) ;; *) missing=" (not supported here)" ;; esac
  else
    for f in $needs; do cpu_has "$f" || missing="$missing $f"; done
  fi
  if [ -n "$missing" ]; then
    echo "kernel $level: SKIPPED, this CPU lacks:$missing"
    continue
  fi
  level_started=$(date +%s%N)
  TEXTCODEC_KERNEL=$level TEXTCODEC_HYPOTHESIS_EXAMPLES=800 \
    .venv/bin/python -m pytest -q -p no:cacheprovider tests/test_arbitrary_bytes.py \
      tests/test_hostile_arrow.py \
    || fail "arbitrary-bytes and hostile-Arrow tests at kernel level $level"
  echo "kernel $level: $(seconds_since "$level_started") s"
done
echo "arbitrary bytes at every level: $(seconds_since "$levels_started") s"

# The same abi3 wheel on CPython 3.9 (the buffer protocol and str UTF-8 calls the module
# makes are outside 3.9's limited API headers; this proves they resolve there).
py39=""
for candidate in python3.9 "$(pyenv root 2>/dev/null)"/versions/3.9*/bin/python3.9; do
  if "$candidate" -c 'import venv' >/dev/null 2>&1; then
    py39="$candidate"
    break
  fi
done
if [ -n "$py39" ]; then
  echo "--- CPython 3.9: core tests"
  old="$(mktemp -d)"
  trap 'rm -rf "$old"' EXIT
  "$py39" -m venv "$old/venv" || fail "creating a 3.9 virtualenv"
  "$old/venv/bin/python" -m pip install -q --disable-pip-version-check -r requirements-test-py39.txt \
    || fail "pip install -r requirements-test-py39.txt"
  "$old/venv/bin/python" -m pip install -q --disable-pip-version-check --no-deps . \
    || fail "pip install ./bindings/python (3.9)"
  "$old/venv/bin/python" -m pytest -q -p no:cacheprovider tests/test_core.py tests/test_codecs.py tests/test_sniff.py \
    || fail "pytest on CPython 3.9"
else
  echo "--- CPython 3.9: SKIPPED (python3.9 not installed; the 3.11 run above covers the API)"
fi

echo "python.sh: OK in $(($(date +%s) - started)) s"
