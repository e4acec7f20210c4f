#!/usr/bin/env bash
# Fuzz smoke test: builds every cargo-fuzz target in fuzz/ and runs each for a short while
# (FUZZ_SMOKE_SECONDS, default 20 s; 12 targets ≈ 4 minutes of fuzzing after the build)
# from its seed corpus. Any crash, panic, timeout or leak fails the check. The long runs
# (10 minutes and more per target) are manual; see SECURITY.md.
# Skips (exit 0, saying why) only when nightly Rust or cargo-fuzz is not usable here.
set -euo pipefail
cd "$(dirname "$0")/../../fuzz"

seconds="${FUZZ_SMOKE_SECONDS:-20}"
# Install cargo-fuzz on a fresh machine when nightly Rust is there (idempotent).
if cargo +nightly --version >/dev/null 2>&1 && ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  echo "installing cargo-fuzz"
  cargo install cargo-fuzz --locked >/dev/null 2>&1 || echo "cargo install cargo-fuzz failed"
fi
if ! reason="$(cargo +nightly fuzz --version 2>&1)"; then
  echo "fuzz smoke SKIPPED: 'cargo +nightly fuzz' is not usable: ${reason##*$'\n'}"
  exit 0
fi

targets="$(cargo +nightly fuzz list)"
echo "building $(echo "$targets" | wc -l) fuzz targets ($reason)"
nice -n 10 cargo +nightly fuzz build -O
bin_dir="target/x86_64-unknown-linux-gnu/release"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failed=0
for t in $targets; do
  # Fuzz into a scratch corpus so the repository's seed corpus stays as committed.
  mkdir -p "$work/$t"
  if nice -n 10 "$bin_dir/$t" "$work/$t" "corpus/$t" -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$work/" >"$work/$t.log" 2>&1; then
    echo "$t: OK ($(grep -Eo 'DONE[[:space:]]+cov: [0-9]+ ft: [0-9]+' "$work/$t.log" | tail -n 1))"
  else
    echo "$t: FAILED" >&2
    grep -E -A12 'panicked|ERROR: libFuzzer|SUMMARY' "$work/$t.log" | head -n 40 >&2 || true
    grep -E 'Base64:' "$work/$t.log" >&2 || true
    failed=1
  fi
done
if [ "$failed" -ne 0 ]; then
  echo "fuzz smoke: FAILED" >&2
  exit 1
fi
echo "fuzz smoke: OK (every target ${seconds}s)"
