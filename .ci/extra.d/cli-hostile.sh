#!/usr/bin/env bash
# textcodec CLI on hostile streams: peak resident memory stays under 32 MiB whatever the
# input, measured with /usr/bin/time on streams piped through the CLI:
#   - all invalid bytes (0xFF...) decoded as UTF-8 and as Shift_JIS;
#   - an endless ISO-2022-JP escape run (1B 28 42 repeated: every escape after the first
#     is an error) and 1B 24 42 + an invalid byte repeated;
#   - UTF-16LE made only of lone (leading) surrogates (00 D8 repeated).
# Every input byte is an error here (the CLI reports the first and lets the decoder replace
# the rest: 45–85 MB/s of input in a release build, 3 bytes of output per error): the
# default sizes (MiB, per stream) keep this check well under two minutes. HOSTILE_SCALE=N
# multiplies them (SECURITY.md reports 1–2 GiB runs; memory does not depend on the size).
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
scale="${HOSTILE_SCALE:-1}"
limit_kib=$((32 * 1024))

# `repeat HEX`: the bytes HEX, repeated forever (until the reader closes the pipe).
repeat() {
  python3 -c '
import sys
unit = bytes.fromhex(sys.argv[1])
block = unit * ((1 << 20) // len(unit) + 1)
out = sys.stdout.buffer
try:
    while True:
        out.write(block)
except BrokenPipeError:
    pass
' "$1" 2>/dev/null || true
}

failed=0
# name, bytes to repeat, --from label, MiB, minimum output bytes per input byte (x100)
run() {
  local name="$1" hex="$2" from="$3" mib="$4" min_ratio="$5"
  local size=$((mib * scale * 1024 * 1024))
  local start end
  start=$(date +%s)
  set +o pipefail
  repeat "$hex" | head -c "$size" \
    | /usr/bin/time -f '%M' -o "$tmp/rss" "$bin" convert -q -f "$from" -t utf-8 \
    | wc -c >"$tmp/out"
  set -o pipefail
  end=$(date +%s)
  local rss out
  rss="$(tail -n 1 "$tmp/rss")"
  out="$(cat "$tmp/out")"
  echo "$name: $size bytes in, $out bytes out, peak RSS ${rss} KiB, $((end - start)) s"
  if [ "$rss" -ge "$limit_kib" ]; then
    echo "FAIL: $name: peak RSS ${rss} KiB >= 32 MiB" >&2
    failed=1
  fi
  # Each error is one U+FFFD (3 bytes): the stream was really decoded, not cut short.
  if [ "$out" -lt $((size * min_ratio / 100)) ]; then
    echo "FAIL: $name: output too short ($out bytes)" >&2
    failed=1
  fi
}

run "UTF-8, all 0xFF" ff utf-8 64 300
run "Shift_JIS, all 0xFF" ff shift_jis 128 300
run "ISO-2022-JP, ESC ( B repeated" 1b2842 iso-2022-jp 256 99
run "ISO-2022-JP, ESC \$ B + 0xFF repeated" 1b2442ff iso-2022-jp 256 74
run "UTF-16LE, lone surrogates" 00d8 utf-16le 192 150

if [ "$failed" -ne 0 ]; then
  exit 1
fi
echo "cli-hostile: OK (every stream < 32 MiB)"
