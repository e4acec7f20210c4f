#!/usr/bin/env bash
# Footprint probe (issue #16): how much a tiny program grows when it decodes and encodes
# through `Encoding::for_label` with textcodec, against the same program with encoding_rs
# and against a baseline that links neither. Release, fat LTO, one codegen unit,
# stripped, panic=abort. Prints a markdown table of stripped binary sizes and the growth
# over the baseline. The probe crates are written under target/size-probe (not
# committed); encoding_rs comes from crates.io.
#   scripts/size-probe.sh [extra cargo args for the textcodec probe, e.g. --features textcodec/compact]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
dir=target/size-probe
mkdir -p "$dir"

probe() { # name, dependency line, main.rs body
  mkdir -p "$dir/$1/src"
  cat > "$dir/$1/Cargo.toml" <<TOML
[package]
name = "probe-$1"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
$2

[profile.release]
opt-level = 3
lto = "fat"
codegen-units = 1
strip = true
panic = "abort"

[workspace]
TOML
  printf '%s\n' "$3" > "$dir/$1/src/main.rs"
}

read_input='use std::io::Read;
fn input() -> (String, Vec<u8>) {
    let label = std::env::args().nth(1).unwrap_or_default();
    let mut bytes = Vec::new();
    std::io::stdin().read_to_end(&mut bytes).unwrap();
    (label, bytes)
}'

probe baseline "" "$read_input
fn main() {
    let (label, bytes) = input();
    let text = String::from_utf8_lossy(&bytes);
    println!(\"{} {} {}\", label.len(), text.len(), text.as_bytes().len());
}"

probe textcodec "textcodec = { path = \"$root/crates/textcodec\" }" "$read_input
fn main() {
    let (label, bytes) = input();
    let Some(encoding) = textcodec::Encoding::for_label(label.as_bytes()) else { return };
    let (text, used) = textcodec::decode(&bytes, encoding);
    let (out, _) = textcodec::encode(&text, used);
    println!(\"{} {} {}\", used.name(), text.len(), out.len());
}"

probe encoding_rs 'encoding_rs = "0.8"' "$read_input
fn main() {
    let (label, bytes) = input();
    let Some(encoding) = encoding_rs::Encoding::for_label(label.as_bytes()) else { return };
    let (text, used, _) = encoding.decode(&bytes);
    let (out, _, _) = used.encode(&text);
    println!(\"{} {} {}\", used.name(), text.len(), out.len());
}"

size_of() { # name, extra cargo args
  local name=$1
  shift
  cargo build -q --release --manifest-path "$dir/$name/Cargo.toml" \
    --target-dir "$dir/target-$name" "$@" >&2
  stat -c %s "$dir/target-$name/release/probe-$name"
}

base=$(size_of baseline)
tc=$(size_of textcodec "$@")
ers=$(size_of encoding_rs)
# Both probes work: Shift_JIS in, the same text and bytes out.
for name in textcodec encoding_rs; do
  printf '\x93\xfa\x96\x7b' | "$dir/target-$name/release/probe-$name" sjis >&2
done
echo "| binary | bytes (stripped) | added over baseline |"
echo "|---|--:|--:|"
echo "| baseline (std only) | $base | — |"
echo "| textcodec ${*:-(default features)} | $tc | $((tc - base)) |"
echo "| encoding_rs 0.8 | $ers | $((ers - base)) |"
