#!/usr/bin/env bash
# The library's tests for wasm32-wasip1 (issue #28), built twice, plain and with
# `-C target-feature=+simd128` (the build where a simd128 kernel level runs; clippy lints
# it), and run under Node's built-in WASI (scripts/wasi-run.mjs as cargo's runner). Prints
# the kernel level each build's tests ran at and the timings. Installs what it needs
# (idempotent): the rustup target; Node.js >= 20 must be there (node.sh needs it too).
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() { echo "wasm.sh: FAILED: $*" >&2; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }

target=wasm32-wasip1
# The unit tests and every integration test, with the async adapters' and serde's (their
# tests run on wasi too: tokio's current-thread runtime, futures' block_on). Not the doc
# tests, which the native runs cover.
args=(-p textcodec --target "$target" --features tokio,futures,serde --locked)

command -v node >/dev/null || fail "node is not installed (Node.js >= 20 runs the tests: node:wasi)"
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || fail "Node.js >= 20 required (node:wasi), found $(node --version)"
echo "node $(node --version)"
rustup target add "$target" >/dev/null 2>&1 || fail "rustup target add $target"
[ -d ../shared/spec/indexes ] \
  || echo "wasm.sh: ../shared/spec/indexes not found: tests/raw_indexes.rs skips its check"

export CARGO_TARGET_WASM32_WASIP1_RUNNER="node $PWD/scripts/wasi-run.mjs"
# The best level of each build, not one a caller's environment asks for.
unset TEXTCODEC_KERNEL
# No debuginfo: wasm32-wasip1 has no backtraces, and it makes the test modules ten times
# bigger and the builds a third slower.
export CARGO_PROFILE_TEST_DEBUG=0
# A target directory per flag set, so that neither build overwrites the other's (nor the
# native builds' artifacts, with this profile).
base=${CARGO_TARGET_DIR:-target}
all_start=$(now)
timings=""
for build in plain simd128; do
  # rustc's warnings fail both builds (the dependencies' are capped, as always); clippy
  # lints the simd128 one, where the wasm32 kernels are (clippy on plain wasm32 would add a
  # minute to a cold run for code the native and simd128 lints already cover).
  if [ "$build" = simd128 ]; then
    wasm_cargo() {
      CARGO_TARGET_DIR="$base/wasm-simd128" RUSTFLAGS="-C target-feature=+simd128 -D warnings" cargo "$@"
    }
    echo "--- clippy, $target ($build)"
    start=$(now)
    wasm_cargo clippy "${args[@]}" --all-targets -q -- -D warnings || fail "clippy on $target ($build)"
    timings="$timings
  $build: clippy $(since "$start"), "
  else
    wasm_cargo() { CARGO_TARGET_DIR="$base/wasm" RUSTFLAGS="-D warnings" cargo "$@"; }
    timings="$timings
  $build: "
  fi

  echo "--- $target ($build): build the tests"
  start=$(now)
  wasm_cargo test "${args[@]}" --tests --no-run -q || fail "building the tests for $target ($build)"
  timings="${timings}build $(since "$start")"

  echo "--- $target ($build): unit and integration tests under node:wasi"
  start=$(now)
  wasm_cargo test "${args[@]}" --tests -q || fail "tests on $target ($build)"
  timings="$timings, tests $(since "$start")"

  report=$(wasm_cargo test "${args[@]}" --test kernel -q -- --nocapture 2>&1) \
    || { echo "$report" >&2; fail "the kernel report test on $target ($build)"; }
  line=$(grep -m1 '^textcodec kernel:' <<<"$report") \
    || { echo "$report" >&2; fail "no kernel report from tests/kernel.rs on $target ($build)"; }
  echo "$target ($build): $line"
done
echo "wasm.sh timings:$timings
  total $(since "$all_start")"
