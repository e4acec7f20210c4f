//! textcodec against encoding_rs inside a WebAssembly engine: both built for
//! `wasm32-wasip1` with the same flags, run by Node's `node:wasi` (V8). Prints a markdown
//! table: MB/s (10^6 input bytes per second of the thread's CPU time; median of
//! interleaved samples) and the ratio per row, then the geometric means per conversion.
//!
//! ```text
//! python3 scripts/make-corpus.py      # once: writes bench-corpus/
//! cd benches/wasm
//! RUSTFLAGS="-C target-feature=+simd128" cargo build --release --target wasm32-wasip1
//! node --no-liftoff ../../scripts/wasi-run.mjs \
//!     target/wasm32-wasip1/release/textcodec-wasm-bench.wasm /bench-corpus [--quick]
//! ```
//!
//! The runner shows the repository as `/`, so the corpus is `/bench-corpus`.
//! `TEXTCODEC_KERNEL=scalar` measures the same build at textcodec's portable level;
//! `--filter TEXT` keeps the conversions whose name contains TEXT.
//!
//! Rows: UTF-8 → UTF-16 (`TextDecoder`'s work), UTF-16 → UTF-8 from `u16` units
//! (`TextEncoder`'s), UTF-16LE bytes → UTF-8, UTF-8 validation, single-byte decoding
//! (windows-1252, windows-1251, KOI8-R, IBM866) into UTF-16 and UTF-8, and the CJK encodings into UTF-16 (the
//! JavaScript package's decode). Before
//! timing, each row checks that both libraries produce the same output.
//!
//! Run Node with `--no-liftoff`: V8 then compiles every function with its optimising
//! compiler up front, where by default it starts on its baseline compiler and tiers up
//! hot functions in the background, partway through the first samples.

use std::hint::black_box;
use std::time::Duration;

use textcodec::{
    BomHandling, DecodeErrorMode, Decoder, DecoderOptions, EncodeErrorMode, Encoder, Encoding,
};

/// A conversion: (name, encoding or `None` for UTF-8 → UTF-8 validation).
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// Decode `encoding` into UTF-16.
    ToUtf16,
    /// Decode `encoding` into UTF-8.
    ToUtf8,
    /// Encode UTF-16 units into UTF-8.
    FromUtf16,
    /// Validate UTF-8.
    Validate,
}

struct Row {
    conversion: String,
    input: String,
    bytes: usize,
    textcodec: f64,
    encoding_rs: f64,
}

fn decoder(e: Encoding) -> Decoder {
    Decoder::with_options(
        e,
        DecoderOptions {
            error_mode: DecodeErrorMode::Replacement,
            bom: BomHandling::Keep,
        },
    )
}

fn ers(e: Encoding) -> &'static encoding_rs::Encoding {
    encoding_rs::Encoding::for_label(e.name().as_bytes()).expect("encoding_rs knows every name")
}

/// The clock: this thread's CPU time (WASI's `CLOCK_THREAD_CPUTIME_ID`; Node implements
/// it with the thread's `clock_gettime`), so that other processes on a busy machine do
/// not count; the monotonic clock where the runtime has no thread clock.
mod clock {
    #[link(wasm_import_module = "wasi_snapshot_preview1")]
    extern "C" {
        fn clock_time_get(id: u32, precision: u64, time: *mut u64) -> u16;
    }

    /// Nanoseconds on the clock.
    pub fn now() -> u64 {
        const THREAD_CPUTIME: u32 = 3;
        const MONOTONIC: u32 = 1;
        let mut t = 0u64;
        // SAFETY: WASI's `clock_time_get` writes one `u64` at the pointer.
        #[allow(unsafe_code)]
        let thread = unsafe { clock_time_get(THREAD_CPUTIME, 1, &mut t) };
        if thread == 0 {
            return t;
        }
        // SAFETY: as above.
        #[allow(unsafe_code)]
        unsafe {
            clock_time_get(MONOTONIC, 1, &mut t)
        };
        t
    }

    /// Seconds since `start` (a value of [`now`]).
    pub fn since(start: u64) -> f64 {
        now().saturating_sub(start) as f64 / 1e9
    }
}

/// Seconds per call of `f`, median of `samples`, each sample a batch of calls taking at
/// least `sample`; `a` and `b` alternate, so both see the same state of the engine.
fn measure(
    a: &mut dyn FnMut() -> usize,
    b: &mut dyn FnMut() -> usize,
    samples: usize,
    sample: Duration,
) -> (f64, f64) {
    let calibrate = |f: &mut dyn FnMut() -> usize| {
        let mut n = 1u64;
        loop {
            let t = clock::now();
            for _ in 0..n {
                black_box(f());
            }
            let el = clock::since(t);
            if el >= sample.as_secs_f64() / 4.0 || n >= 1 << 30 {
                return ((sample.as_secs_f64() / (el / n as f64)).ceil() as u64).max(1);
            }
            n *= 2;
        }
    };
    let time = |f: &mut dyn FnMut() -> usize, n: u64| {
        let t = clock::now();
        for _ in 0..n {
            black_box(f());
        }
        clock::since(t) / n as f64
    };
    let (na, nb) = (calibrate(a), calibrate(b));
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for _ in 0..samples {
        ta.push(time(a, na));
        tb.push(time(b, nb));
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    (median(&mut ta), median(&mut tb))
}

/// Bytes of `text` in `e` (unmappables as `&#N;`, as the native benchmark's inputs).
fn encoded(text: &str, e: Encoding) -> Vec<u8> {
    match e {
        Encoding::Utf8 => text.as_bytes().to_vec(),
        Encoding::Utf16Le => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
        _ => {
            let mut encoder = Encoder::new(e, EncodeErrorMode::Html).expect("an encoder");
            let mut out = Vec::new();
            let _ = encoder.encode_from_utf8_to_vec(text, &mut out, true);
            out
        }
    }
}

/// Both libraries' output for one run (checked equal before timing).
fn outputs(kind: Kind, e: Encoding, src: &[u8], units: &[u16]) -> (Vec<u16>, Vec<u16>) {
    let to_units = |s: &[u8]| {
        String::from_utf8_lossy(s)
            .encode_utf16()
            .collect::<Vec<_>>()
    };
    match kind {
        Kind::ToUtf16 => {
            let (mut a, mut b) = (vec![0u16; src.len() + 64], vec![0u16; src.len() + 64]);
            let n = decoder(e).decode_to_utf16(src, &mut a, true).written;
            let (_, _, m, _) = ers(e)
                .new_decoder_without_bom_handling()
                .decode_to_utf16(src, &mut b, true);
            a.truncate(n);
            b.truncate(m);
            (a, b)
        }
        Kind::ToUtf8 => {
            let (mut a, mut b) = (vec![0u8; src.len() * 3 + 64], vec![0u8; src.len() * 3 + 64]);
            let n = decoder(e).decode_to_utf8(src, &mut a, true).written;
            let (_, _, m, _) = ers(e)
                .new_decoder_without_bom_handling()
                .decode_to_utf8(src, &mut b, true);
            (to_units(&a[..n]), to_units(&b[..m]))
        }
        Kind::FromUtf16 => {
            let (mut a, mut b) = (
                vec![0u8; units.len() * 3 + 64],
                vec![0u8; units.len() * 3 + 64],
            );
            let n = Encoder::new(Encoding::Utf8, EncodeErrorMode::Fatal)
                .expect("UTF-8 encoder")
                .encode_from_utf16(units, &mut a, true)
                .written;
            let (_, _, m, _) = encoding_rs::UTF_8
                .new_encoder()
                .encode_from_utf16(units, &mut b, true);
            (to_units(&a[..n]), to_units(&b[..m]))
        }
        Kind::Validate => {
            let a = textcodec::utf8_decode_without_bom_or_fail(src).map_or(0, str::len);
            let b = encoding_rs::Encoding::utf8_valid_up_to(src);
            (vec![a as u16], vec![b as u16])
        }
    }
}

fn bench(kind: Kind, e: Encoding, src: &[u8], units: &[u16], t: (usize, Duration)) -> (f64, f64) {
    let (mut a16, mut b16) = (vec![0u16; src.len() + 64], vec![0u16; src.len() + 64]);
    let (mut a8, mut b8) = (
        vec![0u8; (src.len() + units.len()) * 3 + 64],
        vec![0u8; (src.len() + units.len()) * 3 + 64],
    );
    let (sa, sb) = match kind {
        Kind::ToUtf16 => measure(
            &mut || {
                decoder(e)
                    .decode_to_utf16(black_box(src), &mut a16, true)
                    .written
            },
            &mut || {
                let mut d = ers(e).new_decoder_without_bom_handling();
                d.decode_to_utf16(black_box(src), &mut b16, true).2
            },
            t.0,
            t.1,
        ),
        Kind::ToUtf8 => measure(
            &mut || {
                decoder(e)
                    .decode_to_utf8(black_box(src), &mut a8, true)
                    .written
            },
            &mut || {
                let mut d = ers(e).new_decoder_without_bom_handling();
                d.decode_to_utf8(black_box(src), &mut b8, true).2
            },
            t.0,
            t.1,
        ),
        Kind::FromUtf16 => measure(
            &mut || {
                Encoder::new(Encoding::Utf8, EncodeErrorMode::Fatal).map_or(0, |mut enc| {
                    enc.encode_from_utf16(black_box(units), &mut a8, true)
                        .written
                })
            },
            &mut || {
                let mut enc = encoding_rs::UTF_8.new_encoder();
                enc.encode_from_utf16(black_box(units), &mut b8, true).2
            },
            t.0,
            t.1,
        ),
        Kind::Validate => measure(
            &mut || textcodec::utf8_decode_without_bom_or_fail(black_box(src)).map_or(0, str::len),
            &mut || encoding_rs::Encoding::utf8_valid_up_to(black_box(src)),
            t.0,
            t.1,
        ),
    };
    (sa, sb)
}

fn geomean(v: impl Iterator<Item = f64>) -> f64 {
    let (mut sum, mut n) = (0.0, 0);
    for x in v {
        sum += x.ln();
        n += 1;
    }
    (sum / f64::from(n.max(1))).exp()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let corpus = args
        .iter()
        .enumerate()
        .find(|(i, a)| !a.starts_with("--") && (*i == 0 || args[i - 1] != "--filter"))
        .map(|(_, a)| a)
        .cloned()
        .unwrap_or_else(|| "/bench-corpus".into());
    let quick = args.iter().any(|a| a == "--quick");
    // `--filter TEXT`: only the conversions whose name contains TEXT.
    let filter = args
        .iter()
        .position(|a| a == "--filter")
        .and_then(|i| args.get(i + 1))
        .cloned();
    let timing = if quick {
        (3, Duration::from_millis(10))
    } else {
        (11, Duration::from_millis(50))
    };
    let read = |name: &str| {
        std::fs::read_to_string(format!("{corpus}/{name}.txt"))
            .unwrap_or_else(|err| panic!("{corpus}/{name}.txt: {err} (run scripts/make-corpus.py)"))
    };
    // (conversion, encoding, kind, inputs)
    let plan: &[(&str, Encoding, Kind, &[&str])] = &[
        (
            "UTF-8 → UTF-16",
            Encoding::Utf8,
            Kind::ToUtf16,
            &[
                "en.text",
                "de.text",
                "ru.text",
                "ja.text",
                "zh_Hans.text",
                "ar.po",
                "vi.text",
            ],
        ),
        (
            "UTF-16 → UTF-8 (u16 units)",
            Encoding::Utf8,
            Kind::FromUtf16,
            &[
                "en.text",
                "de.text",
                "ru.text",
                "ja.text",
                "zh_Hans.text",
                "ar.po",
                "vi.text",
            ],
        ),
        (
            "UTF-16LE → UTF-8 (bytes)",
            Encoding::Utf16Le,
            Kind::ToUtf8,
            &[
                "en.text",
                "de.text",
                "ru.text",
                "ja.text",
                "zh_Hans.text",
                "ar.po",
                "vi.text",
            ],
        ),
        (
            "UTF-8 validation",
            Encoding::Utf8,
            Kind::Validate,
            &[
                "en.text",
                "de.text",
                "ru.text",
                "ja.text",
                "zh_Hans.text",
                "ar.po",
                "vi.text",
            ],
        ),
        (
            "windows-1252 → UTF-16",
            Encoding::Windows1252,
            Kind::ToUtf16,
            &["de.text", "fr.text", "en.text"],
        ),
        (
            "windows-1252 → UTF-8",
            Encoding::Windows1252,
            Kind::ToUtf8,
            &["de.text", "fr.text", "en.text"],
        ),
        (
            "windows-1251 → UTF-16",
            Encoding::Windows1251,
            Kind::ToUtf16,
            &["ru.text", "uk.text", "ru.po"],
        ),
        (
            "windows-1251 → UTF-8",
            Encoding::Windows1251,
            Kind::ToUtf8,
            &["ru.text", "uk.text", "ru.po"],
        ),
        (
            "KOI8-R → UTF-16",
            Encoding::Koi8R,
            Kind::ToUtf16,
            &["ru.text", "uk.text"],
        ),
        (
            "IBM866 → UTF-16",
            Encoding::Ibm866,
            Kind::ToUtf16,
            &["ru.text"],
        ),
        (
            "KOI8-R → UTF-8",
            Encoding::Koi8R,
            Kind::ToUtf8,
            &["ru.text"],
        ),
        (
            "Shift_JIS → UTF-16",
            Encoding::ShiftJis,
            Kind::ToUtf16,
            &["ja.text", "ja.po"],
        ),
        (
            "EUC-JP → UTF-16",
            Encoding::EucJp,
            Kind::ToUtf16,
            &["ja.text"],
        ),
        (
            "GBK → UTF-16",
            Encoding::Gbk,
            Kind::ToUtf16,
            &["zh_Hans.text", "zh_Hans.po"],
        ),
        (
            "Big5 → UTF-16",
            Encoding::Big5,
            Kind::ToUtf16,
            &["zh_Hant.text"],
        ),
        (
            "EUC-KR → UTF-16",
            Encoding::EucKr,
            Kind::ToUtf16,
            &["ko.text", "ko.po"],
        ),
    ];
    let info = textcodec::kernel_info();
    println!("# textcodec vs encoding_rs in WebAssembly (wasm32-wasip1)\n");
    println!(
        "textcodec level `{}` (levels of this build: {}). {} samples of ≥ {} ms per library, \
         interleaved; medians. MB/s = 10^6 input bytes per second (UTF-16 → UTF-8 from units: \
         two bytes per unit).\n",
        info.active,
        info.levels.join(", "),
        timing.0,
        timing.1.as_millis()
    );
    println!("| conversion | input | KB in | textcodec MB/s | encoding_rs MB/s | vs encoding_rs |");
    println!("|---|---|--:|--:|--:|--:|");
    let mut rows = Vec::new();
    let plan: Vec<_> = plan
        .iter()
        .filter(|p| filter.as_ref().is_none_or(|f| p.0.contains(f.as_str())))
        .collect();
    for &&(conversion, e, kind, inputs) in &plan {
        for &input in inputs {
            let text = read(input);
            let src = encoded(&text, e);
            let units: Vec<u16> = text.encode_utf16().collect();
            let (a, b) = outputs(kind, e, &src, &units);
            assert!(
                a == b,
                "{conversion} {input}: the two libraries' outputs differ"
            );
            let bytes = if kind == Kind::FromUtf16 {
                units.len() * 2
            } else {
                src.len()
            };
            let (ta, tb) = bench(kind, e, &src, &units, timing);
            let row = Row {
                conversion: conversion.into(),
                input: input.into(),
                bytes,
                textcodec: bytes as f64 / ta / 1e6,
                encoding_rs: bytes as f64 / tb / 1e6,
            };
            println!(
                "| {} | {} | {} | {:.0} | {:.0} | {:.2}× |",
                row.conversion,
                row.input,
                row.bytes / 1000,
                row.textcodec,
                row.encoding_rs,
                row.textcodec / row.encoding_rs
            );
            rows.push(row);
        }
    }
    println!("\n| conversion | rows | textcodec MB/s | encoding_rs MB/s | vs encoding_rs (geomean) | min row |");
    println!("|---|--:|--:|--:|--:|--:|");
    for &&(conversion, ..) in &plan {
        let rs: Vec<&Row> = rows.iter().filter(|r| r.conversion == conversion).collect();
        let ratios = || rs.iter().map(|r| r.textcodec / r.encoding_rs);
        println!(
            "| {} | {} | {:.0} | {:.0} | {:.2}× | {:.2}× |",
            conversion,
            rs.len(),
            geomean(rs.iter().map(|r| r.textcodec)),
            geomean(rs.iter().map(|r| r.encoding_rs)),
            geomean(ratios()),
            ratios().fold(f64::INFINITY, f64::min)
        );
    }
}
