//! The C API's cost over the Rust API, in one process: each case runs the Rust call and
//! the `extern "C"` function that wraps it (the same code a C program reaches through
//! libtextcodec) on the same input, interleaved, and reports the median time per call and
//! the difference. 24-byte inputs measure the per-call overhead; 1 MB inputs the
//! throughput. `cargo bench -p textcodec-c --bench overhead [-- --quick]`.
#![allow(unsafe_code, missing_docs)]

use std::hint::black_box;
use std::time::Instant;

use textcodec::{DecodeErrorMode, Decoder, DecoderOptions, EncodeErrorMode, Encoder, Encoding};
use textcodec_c::*;

/// Median nanoseconds per call of `f` over `rounds` rounds of `iters` calls.
fn time(rounds: usize, iters: usize, mut f: impl FnMut()) -> f64 {
    let mut samples = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let start = Instant::now();
        for _ in 0..iters {
            f();
        }
        samples.push(start.elapsed().as_nanos() as f64 / iters as f64);
    }
    samples.sort_by(f64::total_cmp);
    samples[rounds / 2]
}

struct Case {
    name: &'static str,
    bytes: usize,
    rust: Box<dyn FnMut()>,
    c: Box<dyn FnMut()>,
}

fn text_1mb(unit: &str) -> String {
    let mut s = String::with_capacity(1 << 20);
    while s.len() + unit.len() <= 1 << 20 {
        s.push_str(unit);
    }
    s
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    // 24 bytes each: windows-1252 text with two non-ASCII bytes; Shift_JIS Japanese; UTF-8.
    let latin: &'static [u8] = b"caf\xE9 cr\xE8me br\xFBl\xE9e, ok!!!";
    let sjis: &'static [u8] = b"\x93\xfa\x96\x7b\x8c\xea\x82\xcc\x83\x65\x83\x4c\x83\x58\x83\x67\x82\xc5\x82\xb7\x81\x42ab";
    let utf8_text: &'static str = "crème brûlée, naïf!!";
    assert_eq!((latin.len(), sjis.len(), utf8_text.len()), (24, 24, 24));

    for (name, enc, input) in [
        (
            "decode 24 B windows-1252 -> UTF-8, one-shot",
            Encoding::Windows1252,
            latin,
        ),
        (
            "decode 24 B Shift_JIS -> UTF-8, one-shot",
            Encoding::ShiftJis,
            sjis,
        ),
    ] {
        let id = enc as u32;
        let mut out = vec![0u8; 128];
        let mut out2 = vec![0u8; 128];
        cases.push(Case {
            name,
            bytes: input.len(),
            rust: Box::new(move || {
                let mut d = Decoder::with_options(black_box(enc), DecoderOptions::default());
                let _ = black_box(d.decode_to_utf8(black_box(input), &mut out, true));
            }),
            c: Box::new(move || unsafe {
                let _ = black_box(textcodec_decode_to_utf8(
                    black_box(id),
                    TEXTCODEC_DECODE_REPLACEMENT,
                    TEXTCODEC_BOM_SNIFF,
                    black_box(input).as_ptr(),
                    input.len(),
                    out2.as_mut_ptr(),
                    out2.len(),
                ));
            }),
        });
    }
    {
        let input = sjis;
        let mut d = Decoder::new(Encoding::ShiftJis);
        let cd = textcodec_decoder_new(
            Encoding::ShiftJis as u32,
            TEXTCODEC_DECODE_REPLACEMENT,
            TEXTCODEC_BOM_SNIFF,
        );
        let mut out = vec![0u8; 128];
        let mut out2 = vec![0u8; 128];
        cases.push(Case {
            name: "decode 24 B Shift_JIS -> UTF-8, streaming decoder",
            bytes: 24,
            rust: Box::new(move || {
                let _ = black_box(d.decode_to_utf8(black_box(input), &mut out, true));
            }),
            c: Box::new(move || unsafe {
                let _ = black_box(textcodec_decoder_decode_to_utf8(
                    cd,
                    black_box(input).as_ptr(),
                    input.len(),
                    out2.as_mut_ptr(),
                    out2.len(),
                    true,
                ));
            }),
        });
    }
    {
        let mut e = Encoder::new(Encoding::Windows1252, EncodeErrorMode::Fatal).unwrap();
        let ce = textcodec_encoder_new(Encoding::Windows1252 as u32, TEXTCODEC_ENCODE_FATAL);
        let mut out = vec![0u8; 128];
        let mut out2 = vec![0u8; 128];
        cases.push(Case {
            name: "encode 24 B UTF-8 -> windows-1252, streaming encoder",
            bytes: 24,
            rust: Box::new(move || {
                let _ = black_box(e.encode_from_utf8(black_box(utf8_text), &mut out, true));
            }),
            c: Box::new(move || unsafe {
                // The C call also validates the UTF-8 (a &str is valid by construction).
                let _ = black_box(textcodec_encoder_encode_from_utf8(
                    ce,
                    black_box(utf8_text).as_ptr(),
                    utf8_text.len(),
                    out2.as_mut_ptr(),
                    out2.len(),
                    true,
                ));
            }),
        });
    }
    // 1 MB throughput.
    let ja = text_1mb("日本語のテキストです。ASCII も少し混ざる。");
    let fr = text_1mb("Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter. ");
    let sjis_mb: &'static [u8] = Box::leak(
        textcodec::encode(&ja, Encoding::ShiftJis)
            .0
            .into_owned()
            .into_boxed_slice(),
    );
    let latin_mb: &'static [u8] = Box::leak(
        textcodec::encode(&fr, Encoding::Windows1252)
            .0
            .into_owned()
            .into_boxed_slice(),
    );
    let ja: &'static str = Box::leak(ja.into_boxed_str());
    let fr: &'static str = Box::leak(fr.into_boxed_str());
    for (name, enc, input) in [
        (
            "decode 1 MB Shift_JIS -> UTF-8",
            Encoding::ShiftJis,
            sjis_mb,
        ),
        (
            "decode 1 MB windows-1252 -> UTF-8",
            Encoding::Windows1252,
            latin_mb,
        ),
        ("decode 1 MB UTF-8 -> UTF-8", Encoding::Utf8, ja.as_bytes()),
    ] {
        let mut d = Decoder::with_options(
            enc,
            DecoderOptions {
                error_mode: DecodeErrorMode::Replacement,
                ..Default::default()
            },
        );
        let cd = textcodec_decoder_new(
            enc as u32,
            TEXTCODEC_DECODE_REPLACEMENT,
            TEXTCODEC_BOM_SNIFF,
        );
        let mut out = vec![0u8; input.len() * 3];
        let mut out2 = vec![0u8; input.len() * 3];
        cases.push(Case {
            name,
            bytes: input.len(),
            rust: Box::new(move || {
                let _ = black_box(d.decode_to_utf8(black_box(input), &mut out, true));
            }),
            c: Box::new(move || unsafe {
                let _ = black_box(textcodec_decoder_decode_to_utf8(
                    cd,
                    input.as_ptr(),
                    input.len(),
                    out2.as_mut_ptr(),
                    out2.len(),
                    true,
                ));
            }),
        });
    }
    for (name, enc, text) in [
        ("encode 1 MB UTF-8 -> Shift_JIS", Encoding::ShiftJis, ja),
        (
            "encode 1 MB UTF-8 -> windows-1252",
            Encoding::Windows1252,
            fr,
        ),
        ("encode 1 MB UTF-8 -> UTF-8", Encoding::Utf8, ja),
    ] {
        let mut e = Encoder::new(enc, EncodeErrorMode::Fatal).unwrap();
        let ce = textcodec_encoder_new(enc as u32, TEXTCODEC_ENCODE_FATAL);
        let mut out = vec![0u8; text.len() * 2];
        let mut out2 = vec![0u8; text.len() * 2];
        cases.push(Case {
            name,
            bytes: text.len(),
            rust: Box::new(move || {
                let _ = black_box(e.encode_from_utf8(black_box(text), &mut out, true));
            }),
            c: Box::new(move || unsafe {
                let _ = black_box(textcodec_encoder_encode_from_utf8(
                    ce,
                    text.as_ptr(),
                    text.len(),
                    out2.as_mut_ptr(),
                    out2.len(),
                    true,
                ));
            }),
        });
    }
    // textcodec::mem: UTF-8 -> UTF-16 lossy, 24 bytes and 1 MB.
    for (name, text) in [
        ("mem 24 B UTF-8 -> UTF-16, lossy", utf8_text),
        ("mem 1 MB UTF-8 -> UTF-16, lossy", ja),
    ] {
        let bytes = text.as_bytes();
        let mut out = vec![0u16; bytes.len()];
        let mut out2 = vec![0u16; bytes.len()];
        cases.push(Case {
            name,
            bytes: bytes.len(),
            rust: Box::new(move || {
                let _ = black_box(textcodec::mem::utf8_to_utf16_lossy(
                    black_box(bytes),
                    &mut out,
                ));
            }),
            c: Box::new(move || unsafe {
                let _ = black_box(textcodec_mem_utf8_to_utf16_lossy(
                    black_box(bytes).as_ptr(),
                    bytes.len(),
                    out2.as_mut_ptr(),
                    out2.len(),
                ));
            }),
        });
    }
    // The same from bytes on the Rust side too: a `&[u8]` from outside must be validated
    // before `encode_from_utf8` takes it as `&str`, which the C API does inside.
    for (name, enc, text) in [
        (
            "encode 1 MB UTF-8 bytes -> windows-1252 (Rust validates first)",
            Encoding::Windows1252,
            fr,
        ),
        (
            "encode 1 MB UTF-8 bytes -> UTF-8 (Rust validates first)",
            Encoding::Utf8,
            ja,
        ),
    ] {
        let bytes = text.as_bytes();
        let mut e = Encoder::new(enc, EncodeErrorMode::Fatal).unwrap();
        let ce = textcodec_encoder_new(enc as u32, TEXTCODEC_ENCODE_FATAL);
        let mut out = vec![0u8; text.len() * 2];
        let mut out2 = vec![0u8; text.len() * 2];
        cases.push(Case {
            name,
            bytes: text.len(),
            rust: Box::new(move || {
                let text = textcodec::utf8_decode_without_bom_or_fail(black_box(bytes)).unwrap();
                let _ = black_box(e.encode_from_utf8(text, &mut out, true));
            }),
            c: Box::new(move || unsafe {
                let _ = black_box(textcodec_encoder_encode_from_utf8(
                    ce,
                    bytes.as_ptr(),
                    bytes.len(),
                    out2.as_mut_ptr(),
                    out2.len(),
                    true,
                ));
            }),
        });
    }
    cases
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    println!("| case | Rust | C API | C API − Rust | C / Rust speed |");
    println!("|---|---|---|---|---|");
    for mut case in cases() {
        let big = case.bytes > 4096;
        let (rounds, iters) = match (big, quick) {
            (true, false) => (31, 20),
            (true, true) => (7, 5),
            (false, false) => (31, 200_000),
            (false, true) => (7, 20_000),
        };
        // Warm up, then alternate to share the machine's swings between the two.
        time(3, iters, &mut case.rust);
        time(3, iters, &mut case.c);
        let mut rust = Vec::new();
        let mut c = Vec::new();
        for _ in 0..3 {
            rust.push(time(rounds, iters, &mut case.rust));
            c.push(time(rounds, iters, &mut case.c));
        }
        rust.sort_by(f64::total_cmp);
        c.sort_by(f64::total_cmp);
        let (r, k) = (rust[1], c[1]);
        if big {
            let gbs = |ns: f64| case.bytes as f64 / ns;
            println!(
                "| {} | {:.2} GB/s | {:.2} GB/s | {:+.1} µs | {:.2}× |",
                case.name,
                gbs(r),
                gbs(k),
                (k - r) / 1000.0,
                r / k
            );
        } else {
            println!(
                "| {} | {:.1} ns | {:.1} ns | {:+.1} ns | {:.2}× |",
                case.name,
                r,
                k,
                k - r,
                r / k
            );
        }
    }
}
