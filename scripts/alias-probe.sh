#!/usr/bin/env bash
# 4K-aliasing probe (BENCHMARKS.md, "4K aliasing"): decodes a
# corpus file from UTF-8 to UTF-8 with textcodec and encoding_rs, and copies it with
# `memcpy`; then converts its Latin-1 characters (the others left out) to UTF-8 with
# textcodec::mem, simdutf and encoding_rs::mem; each with the output placed 0-96 bytes
# after the input modulo 4096, and prints MB/s per placement. The probe crate is written under target/alias-probe (not committed);
# encoding_rs comes from crates.io.
#   scripts/alias-probe.sh [corpus file, default bench-corpus/he.po.txt]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
input=$(realpath "${1:-bench-corpus/he.po.txt}")
dir=target/alias-probe
mkdir -p "$dir/src"
cat > "$dir/Cargo.toml" <<TOML
[package]
name = "alias-probe"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
textcodec = { path = "$root/crates/textcodec" }
encoding_rs = "0.8"
simdutf = "0.7"

[workspace]
TOML
cat > "$dir/src/main.rs" <<'RS'
use std::hint::black_box;
use std::time::Instant;

fn mb_per_s(bytes: usize, reps: usize, run: impl Fn()) -> f64 {
    let t = Instant::now();
    for _ in 0..reps {
        run();
    }
    (bytes * reps) as f64 / t.elapsed().as_secs_f64() / 1e6
}

fn main() {
    let path = std::env::args().nth(1).expect("corpus file");
    let text = std::fs::read(path).expect("readable corpus file");
    let n = text.len();
    let mut arena = vec![0u8; 3 * n + (4 << 20)];
    let page = (4096 - arena.as_ptr() as usize % 4096) % 4096;
    let reps = 300;
    println!("| output after input (mod 4096) | textcodec | encoding_rs | memcpy |");
    println!("|--:|--:|--:|--:|");
    for gap in [0usize, 8, 16, 24, 32, 48, 96] {
        let src_at = page;
        let dst_at = page + (n + 8192) / 4096 * 4096 + gap;
        arena[src_at..src_at + n].copy_from_slice(&text);
        let (head, tail) = arena.split_at_mut(dst_at);
        let src = &head[src_at..src_at + n];
        let dst = std::cell::RefCell::new(&mut tail[..n * 3 + 64]);
        let textcodec = mb_per_s(n, reps, || {
            let mut d = textcodec::Decoder::with_options(
                textcodec::Encoding::Utf8,
                textcodec::DecoderOptions {
                    error_mode: textcodec::DecodeErrorMode::Replacement,
                    bom: textcodec::BomHandling::Keep,
                },
            );
            black_box(d.decode_to_utf8(black_box(src), &mut dst.borrow_mut(), true));
        });
        let encoding_rs = mb_per_s(n, reps, || {
            let mut d = encoding_rs::UTF_8.new_decoder_without_bom_handling();
            black_box(d.decode_to_utf8(black_box(src), &mut dst.borrow_mut(), true));
        });
        let memcpy = mb_per_s(n, reps, || {
            dst.borrow_mut()[..n].copy_from_slice(black_box(src));
        });
        println!("| {gap} | {textcodec:.0} | {encoding_rs:.0} | {memcpy:.0} |");
    }
    let latin1: Vec<u8> = String::from_utf8_lossy(&text)
        .chars()
        .filter(|&c| c <= '\u{FF}')
        .map(|c| c as u8)
        .collect();
    let n = latin1.len();
    println!("\nLatin-1 → UTF-8 ({n} bytes of Latin-1):\n");
    println!("| output after input (mod 4096) | textcodec::mem | simdutf | encoding_rs::mem |");
    println!("|--:|--:|--:|--:|");
    for gap in [0usize, 8, 16, 24, 32, 48, 64, 96] {
        let src_at = page;
        let dst_at = page + (n + 8192) / 4096 * 4096 + gap;
        arena[src_at..src_at + n].copy_from_slice(&latin1);
        let (head, tail) = arena.split_at_mut(dst_at);
        let src = &head[src_at..src_at + n];
        let dst = std::cell::RefCell::new(&mut tail[..n * 2 + 64]);
        let textcodec = mb_per_s(n, reps, || {
            black_box(textcodec::mem::latin1_to_utf8(black_box(src), &mut dst.borrow_mut()));
        });
        let simdutf = mb_per_s(n, reps, || {
            let mut d = dst.borrow_mut();
            // SAFETY: `d` has room for twice the input.
            black_box(unsafe {
                simdutf::convert_latin1_to_utf8(src.as_ptr(), n, d.as_mut_ptr())
            });
        });
        let encoding_rs = mb_per_s(n, reps, || {
            black_box(encoding_rs::mem::convert_latin1_to_utf8(
                black_box(src),
                &mut dst.borrow_mut(),
            ));
        });
        println!("| {gap} | {textcodec:.0} | {simdutf:.0} | {encoding_rs:.0} |");
    }
}
RS
cargo build --release --quiet --manifest-path "$dir/Cargo.toml"
"$dir/target/release/alias-probe" "$input"
