#!/usr/bin/env bash
# Times whole-file conversions of ≥ 100 MB real-world inputs with the textcodec CLI,
# iconv (glibc) and uconv (ICU), and prints a markdown table (MB/s of input, ratios to
# textcodec, peak RSS). See BENCHMARKS.md.
#
#   python3 scripts/make-corpus.py        # once: bench-corpus/
#   scripts/bench-cli.sh [RUNS]           # default 3 runs per conversion, median reported
#
# Inputs (built in bench-corpus/cli/ from the corpus, not committed):
#   ja.utf8     ja.po.txt + ja.text.txt repeated to ≥ 100 MB   (Shift_JIS in / out)
#   zh.utf8     zh_Hans.po.txt + zh_Hans.text.txt, likewise    (gb18030 in / out)
#   latin.utf8  fr, de, en .po.txt + .text.txt, likewise       (windows-1252 in / out)
#   mixed.utf8  every <lang>.po.txt and .text.txt, likewise    (UTF-16LE in)
# The legacy and UTF-16LE inputs are made with the textcodec CLI in html mode (`&#N;` for
# the few unmappable characters), so every tool decodes the same bytes
# (one copy of the concatenation is encoded, then repeated to >= 100 MB).
# Encoding to legacy encodings reads the UTF-8 files; unmappables (a handful per MB) are
# written as `&#N;` by textcodec and skipped by `iconv -c` and `uconv -c`.
#
# Needs: iconv (libc-bin), uconv (apt-get install -y icu-devtools), GNU time
# (apt-get install -y time), cargo.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}
MIN_BYTES=$((100 * 1000 * 1000))
CORPUS=bench-corpus
DIR=$CORPUS/cli
TIME=/usr/bin/time

for tool in iconv uconv "$TIME"; do
  command -v "$tool" >/dev/null || { echo "missing $tool (see the header of $0)" >&2; exit 1; }
done
[ -f "$CORPUS/ja.po.txt" ] || { echo "no corpus: run python3 scripts/make-corpus.py" >&2; exit 1; }

cargo build --release --quiet -p textcodec-cli
TC=${CARGO_TARGET_DIR:-target}/release/textcodec
if ! printf 'caf\xc3\xa9' | "$TC" convert -f utf-8 -t windows-1252 >/dev/null 2>&1; then
  echo "the textcodec CLI's convert command does not work yet" >&2
  exit 1
fi

mkdir -p "$DIR"
repeat() { # repeat OUT FILES...: concatenate FILES, repeat the whole until >= MIN_BYTES
  local out=$1; shift
  python3 - "$out" "$MIN_BYTES" "$@" <<'EOF'
import sys
out, target, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
data = b"".join(open(f, "rb").read() for f in files)
reps = -(-target // len(data))
with open(out, "wb") as f:
    for _ in range(reps):
        f.write(data)
EOF
}
# build NAME LABEL FILES...: NAME.utf8 (the UTF-8 FILES repeated to >= MIN_BYTES) and
# NAME.LABEL (one copy of the FILES encoded by textcodec, repeated to >= MIN_BYTES).
build() {
  local name=$1 label=$2; shift 2
  [ -s "$DIR/$name.utf8" ] || repeat "$DIR/$name.utf8" "$@"
  if [ ! -s "$DIR/$name.$label" ]; then
    cat "$@" >"$DIR/unit.utf8"
    "$TC" convert -q -f utf-8 -t "$label" --encode-errors html "$DIR/unit.utf8" -o "$DIR/unit.$label"
    repeat "$DIR/$name.$label" "$DIR/unit.$label"
    rm -f "$DIR/unit.utf8" "$DIR/unit.$label"
  fi
}
build ja shift_jis "$CORPUS"/ja.po.txt "$CORPUS"/ja.text.txt
build zh gb18030 "$CORPUS"/zh_Hans.po.txt "$CORPUS"/zh_Hans.text.txt
build latin windows-1252 "$CORPUS"/{fr,de,en}.po.txt "$CORPUS"/{fr,de,en}.text.txt
build mixed utf-16le $(ls "$CORPUS"/*.po.txt "$CORPUS"/*.text.txt | sort)

# time_it OUT_VAR CMD...: median elapsed seconds and max peak RSS (KB) over $RUNS runs
time_it() {
  local times=() rss=0 i t m
  for ((i = 0; i < RUNS; i++)); do
    "$TIME" -f '%e %M' -o "$DIR/time.out" "$@" >/dev/null 2>"$DIR/stderr.out" || {
      echo "FAILED: $* ($(head -c 300 "$DIR/stderr.out"))" >&2
      echo "nan nan"; return
    }
    read -r t m <"$DIR/time.out"
    times+=("$t"); ((m > rss)) && rss=$m
  done
  printf '%s\n' "${times[@]}" | sort -g | awk -v r="$rss" '{a[NR]=$1} END {print a[int((NR+1)/2)], r}'
}

# Tool spellings of each encoding: textcodec label, iconv name, uconv (ICU) name.
declare -A ICONV=([shift_jis]=SHIFT_JIS [gb18030]=GB18030 [windows-1252]=CP1252 [utf-16le]=UTF-16LE [utf-8]=UTF-8)
declare -A UCONV=([shift_jis]=Shift_JIS [gb18030]=gb18030 [windows-1252]=windows-1252 [utf-16le]=UTF-16LE [utf-8]=UTF-8)

echo "| conversion | input MB | textcodec MB/s | iconv MB/s | uconv MB/s | textcodec vs iconv | textcodec vs uconv | peak RSS MB textcodec / iconv / uconv |"
echo "|---|--:|--:|--:|--:|--:|--:|--:|"
row() { # row FROM TO FILE
  local from=$1 to=$2 file=$3 bytes t_tc t_ic t_uc r_tc r_ic r_uc
  bytes=$(stat -c %s "$file")
  cat "$file" >/dev/null # page cache
  read -r t_tc r_tc < <(time_it "$TC" convert -f "$from" -t "$to" --encode-errors html "$file" -o /dev/null)
  read -r t_ic r_ic < <(time_it iconv -c -f "${ICONV[$from]}" -t "${ICONV[$to]}" "$file")
  read -r t_uc r_uc < <(time_it uconv -c -f "${UCONV[$from]}" -t "${UCONV[$to]}" "$file")
  awk -v f="$from" -v t="$to" -v b="$bytes" -v a="$t_tc" -v i="$t_ic" -v u="$t_uc" \
      -v ra="$r_tc" -v ri="$r_ic" -v ru="$r_uc" 'function rate(s) { return s > 0 ? b / s / 1e6 : 0 }
    BEGIN {
      printf "| %s → %s | %.0f | %.0f | %.0f | %.0f | %.2f× | %.2f× | %.1f / %.1f / %.1f |\n",
        f, t, b / 1e6, rate(a), rate(i), rate(u), rate(a) / rate(i), rate(a) / rate(u),
        ra / 1024, ri / 1024, ru / 1024
    }'
}
row shift_jis utf-8 "$DIR/ja.shift_jis"
row gb18030 utf-8 "$DIR/zh.gb18030"
row windows-1252 utf-8 "$DIR/latin.windows-1252"
row utf-16le utf-8 "$DIR/mixed.utf-16le"
row utf-8 shift_jis "$DIR/ja.utf8"
row utf-8 gb18030 "$DIR/zh.utf8"
row utf-8 windows-1252 "$DIR/latin.utf8"
echo
echo "Median of $RUNS runs each (GNU time, elapsed wall clock incl. process start and file I/O; output to /dev/null; input in page cache)."
