#!/usr/bin/env bash
# The npm package bindings/js (issue #29): the WebAssembly core built plain and with
# +simd128 (rustfmt and clippy on it first), then the package's `npm test`: Node (both
# builds, ES module and CommonJS, bindings/node's Web IDL tests on the wasm core, iconv-lite
# compatibility), the packed tarball installed offline, Deno and Bun (npm packages), and
# headless Chromium (Debian's chromium, driven by playwright-core) and headless Firefox
# (Debian's firefox-esr, over WebDriver BiDi) with the Shift_JIS CSV demo; and the Node tests once more on the native addon (bindings/node, built here with
# npm ci && npm run build as node.sh does: node.sh, which runs after this script, then finds
# it built and cargo has nothing to redo). Installs what it needs, idempotently: chromium and firefox-esr (apt), the rustup target, the pinned
# dev dependencies (npm ci). Prints the timings of each part.
set -euo pipefail
cd "$(dirname "$0")/../../bindings/js"

fail() { echo "js.sh: FAILED: $*" >&2; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }
all_start=$(now)
timings=""
log=$(mktemp)
trap 'rm -f "$log"' EXIT

command -v node >/dev/null || fail "node is not installed (Node.js >= 20 is required)"
command -v npm >/dev/null || fail "npm is not installed"
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || fail "Node.js >= 20 required, found $(node --version)"
echo "node $(node --version), npm $(npm --version)"

start=$(now)
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/firefox-esr ]; then
  echo "--- apt-get install chromium firefox-esr"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium firefox-esr >/dev/null; } \
    || fail "apt-get install chromium firefox-esr"
fi
[ -x /usr/bin/chromium ] || fail "/usr/bin/chromium is missing after apt-get install chromium"
[ -x /usr/bin/firefox-esr ] || fail "/usr/bin/firefox-esr is missing after apt-get install firefox-esr"
rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || fail "rustup target add wasm32-unknown-unknown"
timings="$timings
  installs: $(since "$start")"

echo "--- rustfmt and clippy (wasm/: simd128, plain, the detect module)"
start=$(now)
cargo fmt --manifest-path wasm/Cargo.toml --check || fail "rustfmt on bindings/js/wasm (cargo fmt --manifest-path bindings/js/wasm/Cargo.toml)"
(cd wasm && CARGO_TARGET_DIR=target/simd RUSTFLAGS="-C target-feature=+simd128" \
  cargo clippy --release --locked --target wasm32-unknown-unknown -q -- -D warnings) || fail "clippy on bindings/js/wasm (simd128)"
(cd wasm && CARGO_TARGET_DIR=target/plain \
  cargo clippy --release --locked --target wasm32-unknown-unknown -q -- -D warnings) || fail "clippy on bindings/js/wasm (plain)"
(cd wasm && CARGO_TARGET_DIR=target/detect-plain \
  cargo clippy --release --locked --target wasm32-unknown-unknown --features detect -q -- -D warnings) || fail "clippy on bindings/js/wasm (the detect module)"
timings="$timings
  rustfmt + clippy: $(since "$start")"

echo "--- npm ci"
start=$(now)
npm ci --no-audit --no-fund --loglevel=error || fail "npm ci"
timings="$timings
  npm ci: $(since "$start")"

echo "--- npm run build (wasm core, plain and simd128; the detect module; dist/)"
start=$(now)
rm -f wasm/textcodec.wasm wasm/textcodec-simd.wasm wasm/textcodec-detect.wasm
npm run build || fail "npm run build"
timings="$timings
  build: $(since "$start")"

echo "--- native addon for the native run of npm test (bindings/node: npm ci && npm run build)"
start=$(now)
(cd ../node && npm ci --no-audit --no-fund --loglevel=error && npm run build) || fail "building the native addon (bindings/node: npm run build)"
[ -f ../node/textcodec.node ] || fail "bindings/node: npm run build did not produce textcodec.node"
native_build=$(since "$start")
timings="$timings
  native addon build: $native_build"

echo "--- npm test"
start=$(now)
npm test 2>&1 | tee "$log" || fail "npm test"
timings="$timings
  npm test: $(since "$start")"
# The CI time the native path adds: the addon build (which node.sh no longer does) and the
# native run of the Node tests, as npm test timed it.
native_tests=$(grep -E '^  Node.*native addon' "$log" | awk -F': ' '{ s += $NF } END { printf "%.1f s", s }')
grep -q '^  Node.*native addon' "$log" || fail "npm test did not run the Node tests on the native addon"
timings="$timings
  (native path: addon build $native_build, native test runs $native_tests)"
echo "js.sh timings:$timings
  total: $(since "$all_start")"
