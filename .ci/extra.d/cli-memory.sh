#!/usr/bin/env bash
# textcodec CLI: converting a 256 MiB stream through pipes keeps peak resident memory under
# 32 MiB (the CLI streams with fixed buffers, whatever the input size).
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ ! -x /usr/bin/time ]; then
  apt-get install -y time >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y time >/dev/null 2>&1; } || true
fi
if [ ! -x /usr/bin/time ]; then
  echo "SKIPPED: /usr/bin/time is missing and could not be installed; peak RSS not measured" >&2
  exit 0
fi

# The binary the integration tests use (test profile: optimised); a no-op after `cargo test`.
cargo test -p textcodec-cli --locked --no-run -q >/dev/null 2>&1 || cargo build -p textcodec-cli --locked -q
bin="${CARGO_TARGET_DIR:-target}/debug/textcodec"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

size=$((256 * 1024 * 1024))
set +o pipefail
yes 'Mixed text: ASCII, 日本語のテキスト, ｶﾀｶﾅ, and more ASCII to make a long line.' \
  | head -c "$size" \
  | /usr/bin/time -f '%M' -o "$tmp/rss" "$bin" convert -q -f utf-8 -t shift_jis --encode-errors replace \
  | wc -c >"$tmp/out"
set -o pipefail
rss_kib="$(tail -n 1 "$tmp/rss")"
out_bytes="$(cat "$tmp/out")"
echo "converted $size bytes of UTF-8 to $out_bytes bytes of Shift_JIS; peak RSS ${rss_kib} KiB"
if [ "$out_bytes" -lt $((size / 2)) ]; then
  echo "FAIL: output too short" >&2
  exit 1
fi
if [ "$rss_kib" -ge $((32 * 1024)) ]; then
  echo "FAIL: peak RSS ${rss_kib} KiB >= 32 MiB" >&2
  exit 1
fi
echo "cli-memory: OK (< 32 MiB)"
