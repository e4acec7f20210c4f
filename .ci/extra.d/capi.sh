#!/usr/bin/env bash
# The C and C++ API (issue #30): crates/textcodec-c built as a user would use it.
#  1. include/textcodec.h matches the C API's source (`cargo xtask cheader --check`);
#  2. `make install-strip` into a temporary prefix; pkg-config finds textcodec and
#     textcodec-encoding-c there;
#  3. every header compiles alone with -Wall -Wextra -Werror -pedantic: textcodec.h as
#     C11 and C++17, textcodec.hpp as C++17 and C++20, encoding_rs.h as C11;
#  4. the C tests (tests/c/test_capi.c: the Rust tests' vectors, streaming split at every
#     position, every error path; test_encoding_c.c: a program written against
#     encoding_c's API; test_mem.c: the mem conversions) and the C++ tests, built through pkg-config against the installed
#     shared library and run; the C tests again with -fsanitize=address,undefined (the C
#     side instrumented, linked to the static library) and under Valgrind's memcheck;
#  5. examples/c/textconv built through pkg-config; conversions, a round trip, and its
#     failures (bad label, unencodable character, malformed input) leave no output file;
#  6. the README's C example compiles and prints what it says.
# Installs cc, c++, make, valgrind and pkg-config with apt-get if missing. 20-35 s with
# the library built; 104 s from an empty target directory on a busy 2-core machine
# (60 s of it building xtask with cbindgen, which .ci/run's `cargo xtask gen` step has
# already built, 25 s the release build of the library).
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() { echo "capi.sh: FAILED: $*" >&2; exit 1; }
started=$(date +%s)
t=$started
lap() { local now; now=$(date +%s); echo "--- $1: $((now - t)) s"; t=$now; }

missing=""
command -v cc >/dev/null || missing="$missing gcc"
command -v c++ >/dev/null || missing="$missing g++"
command -v valgrind >/dev/null || missing="$missing valgrind"
command -v pkg-config >/dev/null || missing="$missing pkg-config"
command -v make >/dev/null || missing="$missing make"
if [ -n "$missing" ]; then
  echo "--- apt-get install$missing"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq || fail "apt-get update"
  # shellcheck disable=SC2086 # package names
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null \
    || fail "apt-get install$missing"
fi
echo "$(cc --version | sed -n 1p); $(valgrind --version); pkg-config $(pkg-config --version)"

crate=crates/textcodec-c
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

# --- 1. the generated header
cargo xtask cheader --check || fail "include/textcodec.h is stale: run cargo xtask cheader"
lap "header check"

# --- 2. build and install
make -s -C "$crate" install-strip PREFIX="$prefix" >/dev/null || fail "make install-strip"
for f in lib/libtextcodec.so.0 lib/libtextcodec.so lib/libtextcodec.a include/textcodec.h \
  include/textcodec.hpp include/textcodec/encoding_c/encoding_rs.h lib/pkgconfig/textcodec.pc; do
  [ -e "$prefix/$f" ] || fail "make install did not install $f"
done
soname=$(objdump -p "$prefix/lib/libtextcodec.so" | awk '/SONAME/ { print $2 }')
[ "$soname" = libtextcodec.so.0 ] || fail "soname is '$soname', not libtextcodec.so.0"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
pkg-config --exists textcodec textcodec-encoding-c || fail "pkg-config does not find textcodec"
cflags=$(pkg-config --cflags textcodec)
libs=$(pkg-config --libs textcodec)
ec_cflags=$(pkg-config --cflags textcodec-encoding-c)
echo "pkg-config textcodec: $cflags $libs (version $(pkg-config --modversion textcodec))"
lap "build and install"

# --- 3. the headers alone, strict
strict=(-Wall -Wextra -Werror -pedantic)
echo '#include "textcodec.h"' >"$work/h.c"
echo '#include "textcodec.h"' >"$work/h.cpp"
echo '#include "textcodec.hpp"' >"$work/hpp.cpp"
echo '#include "encoding_rs.h"' >"$work/ec.c"
# shellcheck disable=SC2086 # pkg-config's flags are words
{
  cc -std=c11 "${strict[@]}" $cflags -c "$work/h.c" -o "$work/h.o" &&
    c++ -std=c++17 "${strict[@]}" $cflags -c "$work/h.cpp" -o "$work/h1.o" &&
    c++ -std=c++17 "${strict[@]}" $cflags -c "$work/hpp.cpp" -o "$work/h2.o" &&
    c++ -std=c++20 "${strict[@]}" $cflags -c "$work/hpp.cpp" -o "$work/h3.o" &&
    cc -std=c11 "${strict[@]}" $ec_cflags -c "$work/ec.c" -o "$work/h4.o"
} || fail "a header does not compile cleanly"
lap "headers (C11, C++17, C++20)"

# --- 4. the tests
tests="$crate/tests/c"
run() { # name, then the command
  local name=$1
  shift
  "$@" >"$work/$name.log" 2>&1 || { cat "$work/$name.log" >&2; fail "$name"; }
  echo "$name: $(tail -n 1 "$work/$name.log")"
}
# shellcheck disable=SC2086
{
  cc -std=c11 "${strict[@]}" -O1 -g $cflags -I"$tests" "$tests/test_capi.c" -o "$work/test_capi" $libs &&
    cc -std=c11 "${strict[@]}" -O1 -g $ec_cflags "$tests/test_encoding_c.c" -o "$work/test_encoding_c" \
      $(pkg-config --libs textcodec-encoding-c) &&
    cc -std=c11 "${strict[@]}" -O1 -g $cflags "$tests/test_mem.c" -o "$work/test_mem" $libs &&
    c++ -std=c++17 "${strict[@]}" -O1 -g $cflags -I"$tests" "$tests/test_cpp.cpp" -o "$work/test_cpp17" $libs &&
    c++ -std=c++20 "${strict[@]}" -O1 -g $cflags -I"$tests" "$tests/test_cpp.cpp" -o "$work/test_cpp20" $libs
} || fail "building the tests"
# Sanitizers on the C side, against the static library (its Rust is not instrumented).
san=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
static_libs="$prefix/lib/libtextcodec.a $(pkg-config --libs-only-l --static textcodec | sed 's/-ltextcodec//')"
# shellcheck disable=SC2086
{
  cc -std=c11 -O1 -g "${san[@]}" $cflags -I"$tests" "$tests/test_capi.c" -o "$work/test_capi_san" $static_libs &&
    cc -std=c11 -O1 -g "${san[@]}" $ec_cflags "$tests/test_encoding_c.c" -o "$work/test_encoding_c_san" $static_libs &&
    cc -std=c11 -O1 -g "${san[@]}" $cflags "$tests/test_mem.c" -o "$work/test_mem_san" $static_libs &&
    c++ -std=c++20 -O1 -g "${san[@]}" $cflags -I"$tests" "$tests/test_cpp.cpp" -o "$work/test_cpp_san" $static_libs
} || fail "building the sanitizer tests"
lap "test builds"
export LD_LIBRARY_PATH="$prefix/lib"
run test_capi "$work/test_capi"
run test_encoding_c "$work/test_encoding_c"
run test_mem "$work/test_mem"
run test_cpp17 "$work/test_cpp17"
run test_cpp20 "$work/test_cpp20"
# The binaries must use the installed library, by its soname: the test binary names it
# (NEEDED), and a program built the same way reports, through dladdr, the file the
# loader mapped. (Not `ldd | grep`: ldd's output varies with the loader.)
needed=$(objdump -p "$work/test_capi" | awk '/NEEDED/ { print $2 }')
case " $(echo $needed) " in
  *" libtextcodec.so.0 "*) ;;
  *) fail "test_capi does not name libtextcodec.so.0 (NEEDED: $(echo $needed))" ;;
esac
cat >"$work/loaded.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include "textcodec.h"
int main(void) {
  Dl_info info;
  const char *(*probe)(void) = textcodec_version;
  if (!dladdr(*(void **)&probe, &info) || !info.dli_fname) return 1;
  puts(info.dli_fname);
  return 0;
}
C
# shellcheck disable=SC2086
cc -std=c11 -O1 $cflags "$work/loaded.c" -o "$work/loaded" $libs -ldl || fail "building loaded.c"
loaded=$("$work/loaded") || fail "dladdr found no library for textcodec_version"
[ "$(readlink -f "$loaded")" = "$(readlink -f "$prefix/lib/libtextcodec.so.0")" ] \
  || fail "test binaries load $loaded, not the installed $prefix/lib/libtextcodec.so.0"
echo "loaded: $loaded"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
run "test_capi (ASan+UBSan)" "$work/test_capi_san"
run "test_encoding_c (ASan+UBSan)" "$work/test_encoding_c_san"
run "test_mem (ASan+UBSan)" "$work/test_mem_san"
run "test_cpp (ASan+UBSan)" "$work/test_cpp_san"
unset ASAN_OPTIONS UBSAN_OPTIONS
lap "tests and sanitizers"
vg=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite)
run "test_capi (Valgrind)" "${vg[@]}" "$work/test_capi"
run "test_encoding_c (Valgrind)" "${vg[@]}" "$work/test_encoding_c"
run "test_mem (Valgrind)" "${vg[@]}" "$work/test_mem"
lap "Valgrind"

# --- 5. textconv, as a user would build it
# shellcheck disable=SC2086
cc -std=c11 "${strict[@]}" -O2 examples/c/textconv.c $cflags -o "$work/textconv" $libs \
  || fail "building examples/c/textconv.c"
tc="$work/textconv"
"$tc" -f sjis -t utf-8 examples/shift_jis.txt "$work/utf8.txt" || fail "textconv sjis -> utf-8"
grep -q "ブラウザ" "$work/utf8.txt" || fail "textconv output is not the text"
"$tc" -f utf-8 -t shift_jis "$work/utf8.txt" "$work/back.txt" || fail "textconv utf-8 -> sjis"
cmp -s "$work/back.txt" examples/shift_jis.txt || fail "textconv round trip differs"
"$tc" -f utf-8 -t utf-16le "$work/utf8.txt" "$work/u16.txt" || fail "textconv -> utf-16le"
"$tc" -f utf-16le -t euc-jp "$work/u16.txt" "$work/eucjp.txt" || fail "textconv utf-16le -> euc-jp"
"$tc" -f euc-jp -t utf-8 "$work/eucjp.txt" "$work/utf8b.txt" || fail "textconv euc-jp -> utf-8"
cmp -s "$work/utf8.txt" "$work/utf8b.txt" || fail "textconv utf-8 -> utf-16 -> euc-jp -> utf-8 differs"
# A 3 MB file through its fixed 64 KiB buffers, under Valgrind: no leak, bounded memory.
for _ in $(seq 1 3000); do cat examples/shift_jis.txt; done >"$work/big.txt"
"${vg[@]}" "$tc" -f sjis -t utf-8 "$work/big.txt" "$work/big8.txt" || fail "textconv (Valgrind)"
"$tc" -f utf-8 -t sjis "$work/big8.txt" "$work/bigback.txt" && cmp -s "$work/big.txt" "$work/bigback.txt" \
  || fail "textconv 3 MB round trip"
# Failures: exit status, message, and no output file.
set +e
"$tc" -f nonsense -t utf-8 examples/shift_jis.txt "$work/x1" 2>"$work/e1"; s1=$?
"$tc" -f sjis -t latin1 examples/shift_jis.txt "$work/x2" 2>"$work/e2"; s2=$?
"$tc" -f utf-8 -d fatal -t utf-8 examples/shift_jis.txt "$work/x3" 2>"$work/e3"; s3=$?
set -e
[ "$s1" = 2 ] && grep -q "unknown encoding label 'nonsense'" "$work/e1" || fail "textconv bad label: $s1"
[ "$s2" = 1 ] && grep -q "cannot be encoded in windows-1252" "$work/e2" || fail "textconv unmappable: $s2"
[ "$s3" = 1 ] && grep -q "malformed UTF-8 at byte 10" "$work/e3" || fail "textconv malformed: $s3 $(cat "$work/e3")"
leftovers=$(find "$work" -maxdepth 1 -name 'x[123]*' | wc -l)
[ "$leftovers" = 0 ] || fail "a failed conversion left $leftovers file(s) behind"
"$tc" -f sjis -t latin1 -e html examples/shift_jis.txt "$work/x4" && grep -q "&#12502;" "$work/x4" \
  || fail "textconv -e html"
lap "textconv"

# --- 6. the README's C example, as printed there
awk '/^## From C and C\+\+/ { section = 1 } section && /^```c$/ { code = 1; next }
  code && /^```$/ { exit } code { print }' README.md >"$work/readme.c"
[ -s "$work/readme.c" ] || fail "no C example in the README's From C and C++ section"
# shellcheck disable=SC2086
cc -std=c11 "${strict[@]}" "$work/readme.c" $cflags -o "$work/readme" $libs || fail "the README's C example"
[ "$("$work/readme")" = "日本" ] || fail "the README's C example does not print 日本"
echo "README example: ok"

echo "capi.sh: ok in $(($(date +%s) - started)) s"
