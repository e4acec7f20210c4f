#!/usr/bin/env bash
# The detection-accuracy benchmark end to end (issue #13, part 4; BENCHMARKS.md,
# "Detection accuracy"):
#
#   1. a venv in .venv-eval/ (gitignored) with the project's Python package (its WHATWG
#      encoders make the samples and its decoders score the Python peers) and the peers
#      chardet, charset_normalizer, faust-cchardet (uchardet) and pyicu-binary (ICU);
#   2. scripts/make-detect-eval.py: downloads the pinned sources once (npm, Debian) into
#      detect-eval/sources/ and writes the samples to detect-eval/ (gitignored);
#   3. cargo bench --bench detect_accuracy: chardetng (and textcodec::detect with
#      TEXTCODEC_DETECT=1, which adds `--features textcodec-detect`);
#   4. scripts/detect-peers.py: the Python peers on the same samples;
#   5. scripts/detect-report.py: the markdown tables, also in target/detect-eval/report.md.
#
# Usage: scripts/detect-eval.sh [--offline]   (after a first run, --offline needs no
# network: the sources are cached and pip is not called)
set -euo pipefail
cd "$(dirname "$0")/.."
offline=
[[ "${1:-}" == "--offline" ]] && offline=--offline

if [[ ! -x .venv-eval/bin/python ]]; then
    [[ -n "$offline" ]] && { echo "no .venv-eval/: run once without --offline" >&2; exit 1; }
    python3 -m venv .venv-eval
fi
if [[ -z "$offline" ]]; then
    .venv-eval/bin/pip install -q ./bindings/python
    # Pinned peer versions: the ones BENCHMARKS.md reports.
    .venv-eval/bin/pip install -q chardet==7.7.0 charset_normalizer==3.5.2 \
        faust-cchardet==3.2.0 pyicu-binary==2.7.4 \
        || echo "some Python peers did not install; detect-peers.py skips those" >&2
fi

.venv-eval/bin/python scripts/make-detect-eval.py $offline
features=()
[[ -n "${TEXTCODEC_DETECT:-}" ]] && features=(--features textcodec-detect)
rm -f target/detect-eval/results-*.tsv target/detect-eval/speed-*.tsv \
    target/detect-eval/peers-*.tsv
cargo bench -p textcodec-bench --bench detect_accuracy "${features[@]}"
.venv-eval/bin/python scripts/detect-peers.py
python3 scripts/detect-report.py
