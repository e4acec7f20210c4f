#!/usr/bin/env bash
# textcodec::io adapters (issue #15), bounded memory on a multi-GB stream: 4 GiB of
# Shift_JIS generated on the fly, through TranscodeReader to UTF-8 and back through
# EncodeWriter to io::sink(); the test asserts a peak resident size under 64 MiB. It is
# #[ignore]d in the ordinary test run (it takes tens of seconds).
set -euo pipefail
cd "$(dirname "$0")/../.."
start=$(date +%s)
cargo test -p textcodec --test io --locked -q -- --ignored --exact \
  multi_gb_streams_run_in_bounded_memory --nocapture
echo "io-memory: OK in $(( $(date +%s) - start )) s"
