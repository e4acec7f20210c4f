#!/usr/bin/env bash
# Footprint budget of the `compact` build (issue #28): a tiny program that decodes and
# encodes through `Encoding::for_label` must grow by no more with textcodec (compact) than
# with encoding_rs. Both are measured in the same run of scripts/size-probe.sh (release,
# fat LTO, stripped; see its header), so a toolchain or encoding_rs update moves both.
# Needs crates.io (the encoding_rs probe); builds under target/size-probe.
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() { echo "size.sh: FAILED: $*" >&2; exit 1; }
started=$(date +%s)

echo "--- scripts/size-probe.sh --features textcodec/compact"
table=$(scripts/size-probe.sh --features textcodec/compact) || fail "the size probe did not build or run"
echo "$table"

# The table's rows: | name | stripped bytes | added over the baseline |
added_of() { # the row whose name starts with $1
  awk -F'|' -v name="$1" '
    { cell = $2; gsub(/^ +| +$/, "", cell) }
    index(cell, name) == 1 { v = $4; gsub(/[^0-9]/, "", v); print v; exit }
  ' <<<"$table"
}
compact=$(added_of "textcodec")
encoding_rs=$(added_of "encoding_rs")
[[ "$compact" =~ ^[0-9]+$ && "$encoding_rs" =~ ^[0-9]+$ ]] \
  || fail "could not read the added sizes from the probe's table"

margin=$((encoding_rs - compact))
echo "compact adds $compact B, encoding_rs adds $encoding_rs B: margin $margin B" \
  "($(($(date +%s) - started)) s)"
if [ "$compact" -gt "$encoding_rs" ]; then
  fail "the compact build adds $compact B, $((-margin)) B more than encoding_rs's $encoding_rs B;" \
    "see BENCHMARKS.md (Footprint) for where the bytes go"
fi
echo "size.sh: ok"
