#!/usr/bin/env bash
# Memory checking without nightly (issue #27): Miri and the sanitizers need a nightly
# toolchain; Valgrind's memcheck runs stable binaries. At the avx2, sse2 and scalar kernel
# levels (TEXTCODEC_KERNEL; Valgrind's virtual CPU has no AVX-512, so that level cannot
# run here), it runs:
#  1. the library's unit tests (`cargo test -p textcodec --lib`), a subset (see UNIT_SKIP);
#  2. the integration tests about memory (INTEGRATION: what the kernels leave in a
#     `&mut str`, the growing outputs' spare capacity, the security holes' regressions,
#     arbitrary bytes through the std adapters);
#  3. a fuzz-corpus replay: every cargo-fuzz target in fuzz/, built with the stable
#     toolchain (libFuzzer's own driver, given files, runs each input once; no coverage
#     instrumentation is needed for that), fed the committed seeds
#     (fuzz/corpus/<target>/seed-*). The targets' own checks run, not a copy of them.
# Any Valgrind error (a read or write outside an allocation, a jump on uninitialised
# memory, a bad free, a definite leak) fails the check, as does a failing test or target.
# Only definite leaks count: std's thread-local and libFuzzer's buffers are still
# reachable at exit by design. To see where an uninitialised value came from, rerun the
# failing command with --track-origins=yes (about twice as slow).
# The jobs run in parallel (one per core, at most 6). On a busy 2-core machine: about
# 2.5 minutes of Valgrind, after 20 s (warm) to 2.5 minutes (cold) of builds.
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() { echo "valgrind.sh: FAILED: $*" >&2; exit 1; }
started=$(date +%s)
elapsed() { echo "$(( $(date +%s) - $1 )) s"; }

if ! command -v valgrind >/dev/null; then
  echo "--- apt-get install valgrind (not installed)"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq || fail "apt-get update"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq valgrind >/dev/null \
    || fail "apt-get install valgrind"
fi
echo "$(valgrind --version), $(cargo --version)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A hung run must not eat the CI budget: 15 minutes is many times the expected time.
vg=(timeout 900 valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite
  --errors-for-leak-kinds=definite --num-callers=40)

# --- builds
t=$(date +%s)
# The unit tests with `--cfg miri`: the kernel tests then use their reduced sizes (written
# for Miri, another slow memory checker: a few lengths around each vector width, fewer
# alignments and error positions), which run under Valgrind in seconds; at full size the
# UTF-8 and UTF-16 kernel tests alone take over 5 minutes each. `cargo rustc` gives the
# flag to textcodec only, and the binary gets its own name: the ordinary test build stays
# cached. The flag must not change the library itself.
if grep -rnE 'cfg!?\((not\()?miri' crates/textcodec/src --include='*.rs' \
  | grep -vE '(^|/)tests(\.rs|/)'; then
  fail "library code depends on cfg(miri): the --cfg miri build would not test the shipped code"
fi
unit_bin=$(cargo rustc -p textcodec --lib --profile test --locked \
  --message-format=json-render-diagnostics -- --cfg miri \
  | grep -o '"executable":"[^"]*"' | sed 's/.*":"//; s/"$//' | tail -n 1) \
  || fail "building the unit tests"
[ -x "$unit_bin" ] || fail "no unit-test executable in cargo's output"
# The integration tests (the ordinary build of `cargo test -p textcodec --tests`, cached
# after the per-level runs of .ci/run).
# arbitrary_bytes: any bytes through the std adapters with hostile inner readers and
# writers (1,000 cases per property here: about 7 s a level).
INTEGRATION="security growing regressions arbitrary_bytes"
integration_bins=$(cargo test -p textcodec --tests --no-run --locked \
  --message-format=json-render-diagnostics \
  | grep -o '"executable":"[^"]*"' | sed 's/.*":"//; s/"$//' \
  | grep -E "/(${INTEGRATION// /|})-[0-9a-f]+$") \
  || fail "building the integration tests"
[ "$(echo "$integration_bins" | wc -l)" = "$(echo "$INTEGRATION" | wc -w)" ] \
  || fail "expected the integration tests $INTEGRATION, found: $integration_bins"
# The fuzz targets on stable, optimised, with debug assertions and overflow checks on (as
# a debug build would have them), in their own target directory.
fuzz_bins=$(CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS=true CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true \
  cargo build --manifest-path fuzz/Cargo.toml --release --bins --locked \
  --target-dir fuzz/target/valgrind --message-format=json-render-diagnostics \
  | grep -o '"executable":"[^"]*"' | sed 's/.*":"//; s/"$//' | sort) \
  || fail "building the fuzz targets"
[ -n "$fuzz_bins" ] || fail "no fuzz target executables in cargo's output"
# The CLI reports the level in use (a no-op build after `cargo test`).
cli_bin=$(cargo test -p textcodec-cli --no-run --locked --message-format=json-render-diagnostics \
  | grep -o '"executable":"[^"]*/textcodec"' | sed 's/.*":"//; s/"$//' | sed -n 1p) \
  || fail "building the CLI"
[ -x "$cli_bin" ] || fail "no textcodec executable in cargo's output"
echo "--- built in $(elapsed "$t")"

# --- levels: those Valgrind's virtual CPU runs (asked of the CLI under Valgrind itself: a
# level it lacks would silently run the best one below, testing nothing new)
levels=""
for level in avx2 sse2 scalar; do
  version=$(TEXTCODEC_KERNEL=$level valgrind -q "$cli_bin" --version) \
    || fail "textcodec --version under Valgrind"
  if [[ "$version" == *"(kernel: $level, set by TEXTCODEC_KERNEL)"* ]]; then
    levels="$levels $level"
  else
    echo "kernel level $level: SKIPPED, not available under Valgrind on this CPU ($version)"
  fi
done
[ -n "$levels" ] || fail "no kernel level runs under Valgrind"

# --- the unit tests to leave out, by name (libtest --skip: substring match). Most are
# correctness sweeps over every code point, pointer or short sequence of a codec, 50 to
# more than 150 s under Valgrind; what Valgrind checks (buffer edges, kernel tails, the
# growing outputs' spare capacity) the kernel tests, the property tests and the other
# sweeps reach with smaller inputs.
UNIT_SKIP=(
  every_code_point                            # tests::exhaustive: 7 CJK + single-byte encoders
  gb18030_every_four_byte_sequence            # tests::exhaustive: 1.6 M sequences
  every_two_byte_sequence_of_every_decoder    # tests::sweep
  ascii_padding_before_and_after_every_alignment
  gb18030_three_and_four_byte_sequences
  iso_2022_jp_escapes_in_every_state
  utf8_char_checked_matches_std               # codecs: safe code, no kernel (8 s)
)
# Run at the first (highest) level only: the UTF-8 and UTF-16 sequence sweeps (30-40 s
# each).
UNIT_ONCE=(
  utf8_three_and_four_byte_sequences
  utf16_surrogate_sequences
)

# One test thread: Valgrind runs one thread at a time anyway, and the log stays in order.
unit() { # level, then libtest arguments
  local level=$1
  shift
  TEXTCODEC_KERNEL=$level "${vg[@]}" "$unit_bin" --test-threads=1 "$@"
}

integration() { # level
  local level=$1 status=0 bin
  for bin in $integration_bins; do
    echo "--- $(basename "$bin")"
    PROPTEST_CASES=1000 TEXTCODEC_KERNEL=$level "${vg[@]}" "$bin" --test-threads=1 || status=$?
  done
  return "$status"
}

fuzz_replay() { # level
  local level=$1 status=0 bin name seeds targets=0 inputs=0
  for bin in $fuzz_bins; do
    name=$(basename "$bin")
    seeds=(fuzz/corpus/"$name"/seed-*)
    if [ ! -e "${seeds[0]}" ]; then
      echo "$name: no committed seeds (fuzz/corpus/$name/seed-*), not replayed"
      continue
    fi
    echo "--- $name: ${#seeds[@]} seeds"
    # -rss_limit_mb=0: Valgrind's own memory would count against libFuzzer's limit.
    TEXTCODEC_KERNEL=$level "${vg[@]}" "$bin" -rss_limit_mb=0 \
      -artifact_prefix="$work/$level-$name-" "${seeds[@]}" || status=$?
    targets=$((targets + 1))
    inputs=$((inputs + ${#seeds[@]}))
  done
  echo "replayed $inputs seeds through $targets fuzz targets"
  return "$status"
}

# --- the jobs (the longest, with UNIT_ONCE, first), in parallel lanes
jobs=()
first=1
for level in $levels; do
  skips=()
  for s in "${UNIT_SKIP[@]}"; do skips+=(--skip "$s"); done
  if [ "$first" = 1 ]; then
    first=0
  else
    for s in "${UNIT_ONCE[@]}"; do skips+=(--skip "$s"); done
  fi
  jobs+=("unit-tests-$level|unit $level ${skips[*]}")
done
for level in $levels; do
  jobs+=("integration-$level|integration $level" "fuzz-replay-$level|fuzz_replay $level")
done

lanes=$(nproc 2>/dev/null || echo 2)
[ "$lanes" -le 6 ] || lanes=6
run_job() { # name, then the command and its arguments
  local name=$1 t status=0
  shift
  t=$(date +%s)
  "$@" >"$work/$name.log" 2>&1 || status=$?
  case $status in
    0) echo "$name: OK in $(elapsed "$t"): $(grep -hE '^(test result|replayed)' "$work/$name.log" \
      | sed -E 's/; 0 (ignored|measured)//g; s/; finished in .*//' | paste -sd ' ')" ;;
    124) echo "$name: FAILED, timed out after $(elapsed "$t")" ;;
    99) echo "$name: FAILED, Valgrind found errors, in $(elapsed "$t")" ;;
    *) echo "$name: FAILED (exit $status) in $(elapsed "$t")" ;;
  esac
  [ "$status" = 0 ] || touch "$work/$name.failed"
}
echo "--- ${#jobs[@]} jobs in $lanes lanes"
running=0
for job in "${jobs[@]}"; do
  # shellcheck disable=SC2086 # the command is words without glob characters
  run_job "${job%%|*}" ${job#*|} &
  running=$((running + 1))
  if [ "$running" -ge "$lanes" ]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait

failed=0
for job in "${jobs[@]}"; do
  name=${job%%|*}
  [ -e "$work/$name.failed" ] || continue
  failed=1
  echo "=== $name: Valgrind's report and the end of the output" >&2
  grep -E '^==[0-9]+== ' "$work/$name.log" | head -n 150 >&2 || true
  grep -vE '^==[0-9]+== ' "$work/$name.log" | tail -n 40 >&2
done
[ "$failed" = 0 ] || fail "see above"
echo "valgrind: OK in $(elapsed "$started") (levels:$levels)"
