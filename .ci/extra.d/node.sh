#!/usr/bin/env bash
# Node.js module (bindings/node): install the pinned dev dependencies, build the native
# addon in release mode, run its `node --test` suite, then the arbitrary-bytes suite once
# per forced kernel level. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/../../bindings/node"

fail() { echo "node.sh: FAILED: $*" >&2; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }

command -v node >/dev/null || fail "node is not installed (Node.js >= 20 is required)"
command -v npm >/dev/null || fail "npm is not installed"
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || fail "Node.js >= 20 required, found $(node --version)"
echo "node $(node --version), npm $(npm --version)"

echo "--- npm ci"
npm ci --no-audit --no-fund --loglevel=error || fail "npm ci"

echo "--- npm run build (release addon)"
rm -f textcodec.node
npm run build || fail "building the addon (npm run build)"
[ -f textcodec.node ] || fail "npm run build did not produce textcodec.node"

echo "--- npm test"
start=$(now)
npm test || fail "node --test (npm test)"
timings="npm test: $(since "$start")"

# The arbitrary-bytes suite once per kernel level (issue #27): TEXTCODEC_KERNEL caps the
# addon's dispatch at that level, so each level's kernels see every input. A level this CPU
# lacks is skipped with a message (the dispatch would silently run a lower one), as in
# .ci/run. Each run writes a digest of its one-shot results; every level must match the
# first, which catches a kernel bug that the whole-input and streamed paths share.
echo "--- arbitrary bytes at every kernel level (test/arbitrary-bytes.test.js)"
cpu_has() { grep -qw "$1" /proc/cpuinfo; }
case "$(uname -m)" in
  x86_64) levels="scalar sse2 sse4 avx2 avx512" ;;
  aarch64) levels="scalar neon" ;;
  *) levels="scalar" ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
first=""
for level in $levels; do
  case $level in
    sse2) needs="sse2" ;;
    sse4) needs="ssse3 sse4_1 sse4_2 popcnt" ;;
    avx2) needs="ssse3 sse4_1 sse4_2 popcnt avx2 bmi1 bmi2 abm" ;;
    avx512) needs="avx2 bmi2 avx512f avx512bw avx512vl avx512vbmi avx512_vbmi2" ;;
    neon) needs="asimd" ;;
    *) needs="" ;;
  esac
  missing=""
  for f in $needs; do cpu_has "$f" || missing="$missing $f"; done
  if [ -n "$missing" ]; then
    echo "kernel level $level: SKIPPED, this CPU lacks:$missing"
    timings="$timings, $level: skipped"
    continue
  fi
  start=$(now)
  # A generous per-level limit: a kernel that loops forever fails here, by name.
  if ! TEXTCODEC_KERNEL=$level TEXTCODEC_NODE_DIGEST="$work/$level.json" \
      timeout 300 node --test test/arbitrary-bytes.test.js >"$work/$level.tap" 2>&1; then
    # The failing tests' blocks of the TAP output (their messages name encoding and bytes).
    awk '/^not ok/ { show = 1 } /^ok / { show = 0 } show' "$work/$level.tap" | head -n 200
    tail -n 9 "$work/$level.tap"
    fail "arbitrary-bytes suite at kernel level $level (TEXTCODEC_KERNEL=$level)"
  fi
  [ -s "$work/$level.json" ] || fail "the suite at level $level wrote no digest"
  took=$(since "$start")
  echo "kernel level $level: $(grep -E '^# (pass|fail) ' "$work/$level.tap" | tr '\n' ' ')in $took"
  timings="$timings, $level: $took"
  if [ -z "$first" ]; then
    first=$level
  elif ! cmp -s "$work/$first.json" "$work/$level.json"; then
    diff "$work/$first.json" "$work/$level.json" || true
    fail "kernel level $level decodes or encodes differently from level $first (sections above)"
  fi
done
echo "timings: $timings"
