//! Micro-benchmark for the UTF-8/UTF-16 and ASCII bulk paths: MB/s of textcodec against
//! encoding_rs, simdutf8 and memcpy on ~1 MB inputs.
//!
//! ```text
//! cargo run --release -p textcodec --example utf_speed [-- FILTER]
//! TEXTCODEC_KERNEL=scalar cargo run --release -p textcodec --example utf_speed
//! ```
//!
//! Inputs come from `bench-corpus/` (scripts/make-corpus.py) when it exists, else from
//! built-in samples; each is repeated to about 1 MB. Every figure is the median of 15
//! timed wall-clock batches, so measure on a quiet machine (the benches/ harness times
//! thread CPU time); throughput counts input bytes.

use std::hint::black_box;
use std::time::{Duration, Instant};

use textcodec::{BomHandling, DecodeErrorMode, Decoder, DecoderOptions, EncodeErrorMode, Encoder};

const TARGET: usize = 1 << 20;

fn grow(sample: &str) -> String {
    let mut s = String::with_capacity(TARGET + sample.len());
    while s.len() < TARGET {
        s.push_str(sample);
    }
    s
}

fn load(name: &str, fallback: &str) -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench-corpus/");
    let text = std::fs::read_to_string(format!("{root}{name}")).unwrap_or_else(|_| fallback.into());
    grow(&text)
}

fn inputs() -> Vec<(&'static str, String)> {
    let emoji: String = (0..2000)
        .map(|i| {
            let e = char::from_u32(0x1F600 + (i % 80)).unwrap();
            if i % 3 == 0 {
                format!("{e} ")
            } else {
                format!("{e}")
            }
        })
        .collect();
    vec![
        (
            "ascii",
            load("ascii.txt", "The quick brown fox jumps over the lazy dog. "),
        ),
        (
            "latin(de)",
            load("de.text.txt", "Größenwahn über Äpfel und Öl. "),
        ),
        (
            "cyrillic(ru)",
            load(
                "ru.text.txt",
                "Съешь же ещё этих мягких французских булок. ",
            ),
        ),
        (
            "cjk(ja)",
            load("ja.text.txt", "日本語のテキスト、漢字とかなの混在。"),
        ),
        ("cjk(zh)", load("zh_Hans.text.txt", "中文文本的例子。")),
        ("emoji", grow(&emoji)),
    ]
}

/// Median MB/s (input bytes) of `f` over 15 batches, wall-clock.
fn measure(bytes: usize, mut f: impl FnMut()) -> f64 {
    f();
    let start = Instant::now();
    let mut reps = 0u32;
    while start.elapsed() < Duration::from_millis(20) {
        f();
        reps += 1;
    }
    let reps = reps.max(1);
    let mut rates: Vec<f64> = (0..15)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..reps {
                f();
            }
            let secs = t.elapsed().as_secs_f64();
            (bytes as f64 * f64::from(reps)) / secs / 1e6
        })
        .collect();
    rates.sort_by(f64::total_cmp);
    rates[rates.len() / 2]
}

fn decoder(e: textcodec::Encoding) -> Decoder {
    Decoder::with_options(
        e,
        DecoderOptions {
            error_mode: DecodeErrorMode::Replacement,
            bom: BomHandling::Keep,
        },
    )
}

fn row(what: &str, input: &str, ours: f64, others: &[(&str, f64)]) {
    let mut line = format!("{what:<22} {input:<13} textcodec {ours:>8.0} MB/s");
    for (name, v) in others {
        line += &format!(" | {name} {v:>8.0} ({:.2}x)", ours / v);
    }
    println!("{line}");
}

fn main() {
    let filter = std::env::args().nth(1).unwrap_or_default();
    let run = |what: &str| what.contains(filter.as_str());
    for (name, text) in inputs() {
        let utf8 = text.as_bytes();
        let utf16: Vec<u16> = text.encode_utf16().collect();
        let le: Vec<u8> = utf16.iter().flat_map(|u| u.to_le_bytes()).collect();
        let be: Vec<u8> = utf16.iter().flat_map(|u| u.to_be_bytes()).collect();
        let mut out8 = vec![0u8; utf8.len() * 3 + 64];
        let mut out16 = vec![0u16; utf8.len() + 64];

        if run("utf8->utf8") {
            let mut d = decoder(textcodec::Encoding::Utf8);
            let ours = measure(utf8.len(), || {
                let r = d.decode_to_utf8(black_box(utf8), &mut out8, true);
                let _ = black_box(r);
            });
            let mut s = String::with_capacity(utf8.len() * 2);
            let ours_string = measure(utf8.len(), || {
                s.clear();
                let r = d.decode_to_string(black_box(utf8), &mut s, true);
                let _ = black_box(r);
            });
            let mut ers = encoding_rs::UTF_8.new_decoder_without_bom_handling();
            let theirs = measure(utf8.len(), || {
                let r = ers.decode_to_utf8(black_box(utf8), &mut out8, false);
                let _ = black_box(r);
            });
            let simd_copy = measure(utf8.len(), || {
                let s = simdutf8::basic::from_utf8(black_box(utf8)).unwrap();
                out8[..s.len()].copy_from_slice(s.as_bytes());
                let _ = black_box(&out8);
            });
            let simd_only = measure(utf8.len(), || {
                let _ = black_box(simdutf8::basic::from_utf8(black_box(utf8)).is_ok());
            });
            let core_only = measure(utf8.len(), || {
                let _ = black_box(core::str::from_utf8(black_box(utf8)).is_ok());
            });
            row(
                "utf8->utf8 [u8]",
                name,
                ours,
                &[
                    ("encoding_rs", theirs),
                    ("simdutf8+copy", simd_copy),
                    ("simdutf8 validate", simd_only),
                    ("core validate", core_only),
                ],
            );
            row(
                "utf8->utf8 String",
                name,
                ours_string,
                &[("simdutf8+copy", simd_copy)],
            );
        }
        if run("utf8->utf16") {
            let mut d = decoder(textcodec::Encoding::Utf8);
            let ours = measure(utf8.len(), || {
                let _ = black_box(d.decode_to_utf16(black_box(utf8), &mut out16, true));
            });
            let mut ers = encoding_rs::UTF_8.new_decoder_without_bom_handling();
            let theirs = measure(utf8.len(), || {
                let _ = black_box(ers.decode_to_utf16(black_box(utf8), &mut out16, false));
            });
            row("utf8->utf16", name, ours, &[("encoding_rs", theirs)]);
        }
        for (label, enc, ers_enc, bytes) in [
            (
                "utf16le->utf8",
                textcodec::Encoding::Utf16Le,
                encoding_rs::UTF_16LE,
                &le,
            ),
            (
                "utf16be->utf8",
                textcodec::Encoding::Utf16Be,
                encoding_rs::UTF_16BE,
                &be,
            ),
        ] {
            if !run(label) {
                continue;
            }
            let mut d = decoder(enc);
            let ours = measure(bytes.len(), || {
                let _ = black_box(d.decode_to_utf8(black_box(bytes), &mut out8, true));
            });
            let mut ers = ers_enc.new_decoder_without_bom_handling();
            let theirs = measure(bytes.len(), || {
                let _ = black_box(ers.decode_to_utf8(black_box(bytes), &mut out8, false));
            });
            row(label, name, ours, &[("encoding_rs", theirs)]);
        }
        if run("encode utf16->utf8") {
            let mut e = Encoder::new(textcodec::Encoding::Utf8, EncodeErrorMode::Fatal).unwrap();
            let ours = measure(utf16.len() * 2, || {
                let _ = black_box(e.encode_from_utf16(black_box(&utf16), &mut out8, true));
            });
            let mut ers = encoding_rs::UTF_8.new_encoder();
            let theirs = measure(utf16.len() * 2, || {
                let _ = black_box(ers.encode_from_utf16(black_box(&utf16), &mut out8, false));
            });
            row("encode utf16->utf8", name, ours, &[("encoding_rs", theirs)]);
        }
        if name == "ascii" && run("ascii") {
            let memcpy = measure(utf8.len(), || {
                out8[..utf8.len()].copy_from_slice(black_box(utf8));
                let _ = black_box(&out8);
            });
            for (label, enc, ers_enc) in [
                (
                    "ascii windows-1252",
                    textcodec::Encoding::Windows1252,
                    encoding_rs::WINDOWS_1252,
                ),
                (
                    "ascii shift_jis",
                    textcodec::Encoding::ShiftJis,
                    encoding_rs::SHIFT_JIS,
                ),
                ("ascii utf-8", textcodec::Encoding::Utf8, encoding_rs::UTF_8),
            ] {
                let mut d = decoder(enc);
                let ours8 = measure(utf8.len(), || {
                    let _ = black_box(d.decode_to_utf8(black_box(utf8), &mut out8, true));
                });
                let ours16 = measure(utf8.len(), || {
                    let _ = black_box(d.decode_to_utf16(black_box(utf8), &mut out16, true));
                });
                let mut ers = ers_enc.new_decoder_without_bom_handling();
                let theirs8 = measure(utf8.len(), || {
                    let _ = black_box(ers.decode_to_utf8(black_box(utf8), &mut out8, false));
                });
                let theirs16 = measure(utf8.len(), || {
                    let _ = black_box(ers.decode_to_utf16(black_box(utf8), &mut out16, false));
                });
                row(
                    &format!("{label} ->8"),
                    name,
                    ours8,
                    &[("encoding_rs", theirs8), ("memcpy", memcpy)],
                );
                row(
                    &format!("{label} ->16"),
                    name,
                    ours16,
                    &[("encoding_rs", theirs16), ("memcpy", memcpy)],
                );
            }
        }
    }
}
