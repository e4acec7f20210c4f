//! textcodec's benchmark: every encoding family, decode to UTF-8, decode to UTF-16 and
//! encode from `&str`, against encoding_rs, `std::str::from_utf8`, simdutf8 and memcpy, all
//! in one process and one run. Prints markdown to stdout (progress on stderr).
//!
//! ```text
//! python3 scripts/make-corpus.py                       # once: writes bench-corpus/
//! cargo bench -p textcodec-bench                       # encoding_rs default features
//! cargo bench -p textcodec-bench --features fast-encode -- --only encode
//! ```
//!
//! Options (after `--`): `--only SECTIONS` (comma-separated: decode8, decode16, encode,
//! utf8, ascii, labels, grow, io, short, mem), `--filter TEXT` (rows whose input or encoding name contains TEXT),
//! `--function TEXT` (`mem` rows whose function name contains TEXT, e.g. `Latin-1 → UTF-8`),
//! `--samples N` (default 11), `--sample-ms MS` (default 25), `--quick` (3 × 5 ms),
//! `--wall-clock` (time with `Instant` instead of the thread's CPU time).

mod grow;
mod io;
mod labels;
mod mem;
mod out;
mod short;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Duration;

use out::{memcpy_peer, Out};
use textcodec::{
    BomHandling, DecodeErrorMode, DecodeStatus, Decoder, DecoderOptions, EncodeErrorMode,
    EncodeStatus, Encoder, Encoding,
};
use textcodec_bench::{
    corpus_dir, family, fmt_rate, fmt_ratio, geomean, is_legacy, measure, measure_ns, Clock, Peer,
    Timing, PLAN,
};

/// One benchmark input: bytes in `encoding` and the text they stand for.
struct Case {
    /// `<lang>.<po|text>` or `ascii`.
    input: String,
    encoding: Encoding,
    /// The text (what the encoders read).
    text: String,
    /// The text encoded (what the decoders read).
    bytes: Vec<u8>,
    /// Characters written as `&#N;` when encoding.
    unmappables: u64,
}

#[derive(Clone)]
struct Row {
    section: &'static str,
    input: String,
    encoding: Encoding,
    bytes: usize,
    textcodec: f64,
    encoding_rs: f64,
    memcpy: f64,
    /// simdutf's transcoder, for the rows it has one for (UTF-16 → UTF-8, UTF-8 → UTF-16).
    simdutf: f64,
}

struct Options {
    sections: Vec<String>,
    filter: Option<String>,
    function: Option<String>,
    timing: Timing,
}

const USAGE: &str = "\
usage: cargo bench -p textcodec-bench [--features fast-encode|compact] -- [options]
  --only SECTIONS   comma-separated: decode8,decode16,encode,utf8,ascii,labels,grow,io,short,mem
  --filter TEXT     rows whose input or encoding name contains TEXT
  --function TEXT   mem rows whose function name contains TEXT
  --samples N       samples per peer (11)
  --sample-ms MS    minimum time per sample (25)
  --quick           3 samples of 5 ms
  --wall-clock      wall time instead of thread CPU time
environment: TEXTCODEC_CORPUS (the corpus directory), TEXTCODEC_KERNEL (cap textcodec's
  kernel level), SIMDUTF_FORCE_IMPLEMENTATION (simdutf's)
";

/// Says what is wrong with the arguments, and how to give them, and exits.
fn usage_error(what: &str) -> ! {
    eprint!("{what}\n\n{USAGE}");
    std::process::exit(2)
}

fn parse_args() -> Options {
    let mut options = Options {
        sections: [
            "decode8", "decode16", "encode", "utf8", "ascii", "labels", "grow", "io", "short",
            "mem",
        ]
        .map(String::from)
        .to_vec(),
        filter: None,
        function: None,
        timing: Timing {
            samples: 11,
            sample_time: Duration::from_millis(25),
            clock: Clock::ThreadCpu,
        },
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--bench" => {}
            "--only" => {
                let v = args
                    .next()
                    .unwrap_or_else(|| usage_error("--only needs a value"));
                options.sections = v.split(',').map(String::from).collect();
            }
            "--filter" => options.filter = args.next(),
            "--function" => options.function = args.next(),
            "--samples" => {
                options.timing.samples = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| usage_error("--samples needs a number"))
            }
            "--sample-ms" => {
                let ms: u64 = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| usage_error("--sample-ms needs a number"));
                options.timing.sample_time = Duration::from_millis(ms);
            }
            "--wall-clock" => options.timing.clock = Clock::Wall,
            "--quick" => {
                options.timing.samples = 3;
                options.timing.sample_time = Duration::from_millis(5);
            }
            "--help" | "-h" => {
                print!("{USAGE}");
                std::process::exit(0);
            }
            other => usage_error(&format!("unknown argument {other:?}")),
        }
    }
    options
}

fn ers(e: Encoding) -> &'static encoding_rs::Encoding {
    encoding_rs::Encoding::for_label(e.name().as_bytes()).expect("encoding_rs knows every name")
}

fn encode_html(text: &str, e: Encoding) -> (Vec<u8>, u64) {
    let mut encoder = Encoder::new(e, EncodeErrorMode::Html).expect("encoder");
    let mut out = Vec::new();
    let r = encoder.encode_from_utf8_to_vec(text, &mut out, true);
    assert_eq!(r.status, EncodeStatus::InputEmpty);
    (out, encoder.unmappables())
}

fn load_cases(filter: &dyn Fn(&str) -> bool) -> (Vec<Case>, String) {
    let dir = corpus_dir();
    let read = |name: &str| {
        std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; build the corpus first: python3 scripts/make-corpus.py",
                dir.join(name).display()
            )
        })
    };
    let mut cases = Vec::new();
    for &(lang, encodings) in PLAN {
        for kind in ["po", "text"] {
            let text = read(&format!("{lang}.{kind}.txt"));
            let mut all = encodings.to_vec();
            all.extend([Encoding::Utf8, Encoding::Utf16Le, Encoding::Utf16Be]);
            for e in all {
                if !filter(&format!("{lang}.{kind}")) && !filter(e.name()) {
                    continue;
                }
                let (bytes, unmappables) = encode_html(&text, e);
                cases.push(Case {
                    input: format!("{lang}.{kind}"),
                    encoding: e,
                    text: text.clone(),
                    bytes,
                    unmappables,
                });
            }
            if lang == "ru" && (filter(&format!("{lang}.{kind}")) || filter("x-user-defined")) {
                // x-user-defined: the windows-1251 bytes read as x-user-defined, and the
                // text they decode to (ASCII and U+F780..U+F7FF) for the encoder.
                let (bytes, _) = encode_html(&text, Encoding::Windows1251);
                let (text, _) = textcodec::decode_without_bom(Encoding::XUserDefined, &bytes);
                cases.push(Case {
                    input: format!("{lang}.{kind}"),
                    encoding: Encoding::XUserDefined,
                    text: text.into_owned(),
                    bytes,
                    unmappables: 0,
                });
            }
        }
    }
    (cases, read("ascii.txt"))
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

/// Checks that both libraries agree on the decode and encode outputs of `case`, so that
/// they are timed doing the same work. Returns a note for each disagreement.
fn verify(case: &Case) -> Vec<String> {
    let mut notes = Vec::new();
    let e = case.encoding;
    let mut ours = String::new();
    let r = decoder(e).decode_to_string(&case.bytes, &mut ours, true);
    assert_eq!(r.status, DecodeStatus::InputEmpty);
    let (theirs, _) = ers(e).decode_without_bom_handling(&case.bytes);
    if ours != theirs {
        notes.push(format!(
            "{} {}: decoded text differs from encoding_rs",
            case.input, e
        ));
    }
    if e.is_utf16() {
        // encoding_rs has no UTF-16 encoder: check against std's.
        let expected: Vec<u8> = case
            .text
            .encode_utf16()
            .flat_map(|u| {
                if e == Encoding::Utf16Be {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                }
            })
            .collect();
        if expected != case.bytes {
            notes.push(format!(
                "{} {}: encoded bytes differ from std's encode_utf16",
                case.input, e
            ));
        }
    } else {
        let mut out = vec![0u8; case.text.len() * 11 + 64];
        let (_, read, written, _) = ers(e)
            .new_encoder()
            .encode_from_utf8(&case.text, &mut out, true);
        if read != case.text.len() || out[..written] != case.bytes[..] {
            notes.push(format!(
                "{} {}: encoded bytes differ from encoding_rs",
                case.input, e
            ));
        }
    }
    notes
}

fn bench_decode(case: &Case, utf16: bool, timing: Timing) -> Row {
    let e = case.encoding;
    let src = &case.bytes[..];
    let has_memcpy = matches!(family(e), "UTF-8" | "UTF-16");
    // Room for UTF-8 (3 bytes per byte) or UTF-16 (a unit per byte), and some.
    let out = Out::new((src.len() * 3).max(src.len() * 2) + 128);
    let out = &out;
    let mut peers = if utf16 {
        vec![
            Peer::new("textcodec", move || {
                decoder(e)
                    .decode_to_utf16(black_box(src), &mut out.units(), true)
                    .written
            }),
            Peer::new("encoding_rs", move || {
                let mut d = ers(e).new_decoder_without_bom_handling();
                d.decode_to_utf16(black_box(src), &mut out.units(), true).2
            }),
        ]
    } else {
        vec![
            Peer::new("textcodec", move || {
                decoder(e)
                    .decode_to_utf8(black_box(src), &mut out.bytes(), true)
                    .written
            }),
            Peer::new("encoding_rs", move || {
                let mut d = ers(e).new_decoder_without_bom_handling();
                d.decode_to_utf8(black_box(src), &mut out.bytes(), true).2
            }),
        ]
    };
    if has_memcpy {
        peers.push(memcpy_peer(src, out));
    }
    let simdutf_at = peers.len();
    let has_simdutf = match simdutf_peer(e, src, &case.text, utf16, out) {
        Some(peer) => {
            peers.push(peer);
            true
        }
        None => false,
    };
    let r = measure(&mut peers, src.len(), timing);
    Row {
        section: if utf16 { "decode16" } else { "decode8" },
        input: case.input.clone(),
        encoding: e,
        bytes: src.len(),
        textcodec: r[0],
        encoding_rs: r[1],
        memcpy: if has_memcpy { r[2] } else { f64::NAN },
        simdutf: if has_simdutf { r[simdutf_at] } else { f64::NAN },
    }
}

/// simdutf's validating transcoder for the same conversion, where it has one: UTF-16LE/BE
/// → UTF-8 and UTF-8 → UTF-16. The UTF-16 input is copied into aligned `u16`s up front.
// simdutf's C API takes raw pointers: the only `unsafe` in the harness.
#[allow(unsafe_code)]
fn simdutf_peer<'a>(
    e: Encoding,
    src: &'a [u8],
    text: &str,
    utf16: bool,
    out: &'a Out,
) -> Option<Peer<'a>> {
    match (e, utf16) {
        (Encoding::Utf16Le | Encoding::Utf16Be, false) => {
            let units: Vec<u16> = src
                .chunks_exact(2)
                .map(|b| u16::from_ne_bytes([b[0], b[1]]))
                .collect();
            let le = e == Encoding::Utf16Le;
            let convert = move || {
                let u = black_box(&units[..]);
                let mut out = out.bytes();
                assert!(out.len() >= 3 * u.len());
                // SAFETY: `out` has room for 3 bytes per unit, the most UTF-16 → UTF-8
                // can write.
                unsafe {
                    if le {
                        simdutf::convert_utf16le_to_utf8(u.as_ptr(), u.len(), out.as_mut_ptr())
                    } else {
                        simdutf::convert_utf16be_to_utf8(u.as_ptr(), u.len(), out.as_mut_ptr())
                    }
                }
            };
            // The peer must do the whole job: it returns 0 on any error.
            assert_eq!(
                convert(),
                text.len(),
                "simdutf UTF-16 → UTF-8 output length"
            );
            Some(Peer::new("simdutf", convert))
        }
        (Encoding::Utf8, true) => {
            let convert = move || {
                let s = black_box(src);
                let mut out = out.units();
                assert!(out.len() >= s.len());
                // SAFETY: `out` has room for one unit per byte, the most UTF-8 → UTF-16
                // can write.
                unsafe { simdutf::convert_utf8_to_utf16le(s.as_ptr(), s.len(), out.as_mut_ptr()) }
            };
            assert_eq!(
                convert(),
                text.encode_utf16().count(),
                "simdutf UTF-8 → UTF-16 output length"
            );
            Some(Peer::new("simdutf", convert))
        }
        _ => None,
    }
}

fn bench_encode(case: &Case, timing: Timing) -> Row {
    let e = case.encoding;
    let text = &case.text[..];
    let out = Out::new(text.len() * 11 + 64);
    let out = &out;
    let mut peers = vec![Peer::new("textcodec", move || {
        let mut encoder = Encoder::new(e, EncodeErrorMode::Html).expect("encoder");
        encoder
            .encode_from_utf8(black_box(text), &mut out.bytes(), true)
            .written
    })];
    // encoding_rs has no UTF-16 encoders (its UTF-16 output encoding is UTF-8).
    let has_ers = !e.is_utf16();
    if has_ers {
        peers.push(Peer::new("encoding_rs", move || {
            let mut encoder = ers(e).new_encoder();
            encoder
                .encode_from_utf8(black_box(text), &mut out.bytes(), true)
                .2
        }));
    }
    let has_memcpy = matches!(family(e), "UTF-8" | "UTF-16");
    if has_memcpy {
        peers.push(memcpy_peer(text.as_bytes(), out));
    }
    let r = measure(&mut peers, text.len(), timing);
    Row {
        section: "encode",
        input: case.input.clone(),
        encoding: e,
        bytes: text.len(),
        textcodec: r[0],
        encoding_rs: if has_ers { r[1] } else { f64::NAN },
        memcpy: if has_memcpy {
            r[peers.len() - 1]
        } else {
            f64::NAN
        },
        simdutf: f64::NAN,
    }
}

const SECTION_TITLES: &[(&str, &str)] = &[
    (
        "decode8",
        "Decode to UTF-8 (`Decoder::decode_to_utf8`, replacement mode, no BOM handling)",
    ),
    (
        "decode16",
        "Decode to UTF-16 (`Decoder::decode_to_utf16`, replacement mode, no BOM handling)",
    ),
    (
        "encode",
        "Encode from `&str` (`Encoder::encode_from_utf8`, html mode: unmappables as `&#N;`)",
    ),
    (
        "ascii",
        "Pure-ASCII input through every ASCII-compatible decoder (to UTF-8 / to UTF-16)",
    ),
];

fn title(section: &str) -> &'static str {
    SECTION_TITLES
        .iter()
        .find(|t| t.0 == section)
        .map_or("?", |t| t.1)
}

fn family_order(f: &str) -> usize {
    [
        "single-byte",
        "gb18030/GBK",
        "Big5",
        "EUC-JP",
        "ISO-2022-JP",
        "Shift_JIS",
        "EUC-KR",
        "x-user-defined",
        "UTF-8",
        "UTF-16",
    ]
    .iter()
    .position(|x| *x == f)
    .unwrap_or(99)
}

fn table(rows: &[Row], out: &mut String) {
    let mut rows: Vec<&Row> = rows.iter().collect();
    rows.sort_by_key(|r| {
        (
            family_order(family(r.encoding)),
            r.encoding.name(),
            r.input.clone(),
        )
    });
    let _ = writeln!(
        out,
        "| family | encoding | input | KB in | textcodec MB/s | encoding_rs MB/s | vs encoding_rs | memcpy MB/s | vs memcpy |"
    );
    let _ = writeln!(out, "|---|---|---|--:|--:|--:|--:|--:|--:|");
    for r in rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            family(r.encoding),
            r.encoding,
            r.input,
            r.bytes / 1000,
            fmt_rate(r.textcodec),
            fmt_rate(r.encoding_rs),
            fmt_ratio(r.textcodec / r.encoding_rs, Some(1.0)),
            fmt_rate(r.memcpy),
            fmt_ratio(r.textcodec / r.memcpy, None),
        );
    }
}

fn summary(rows: &[Row], out: &mut String) {
    let _ = writeln!(out, "\n## Geometric means per family\n");
    let _ = writeln!(
        out,
        "Geometric means over the rows of each family (MB/s, and the mean of the per-row ratios).\n"
    );
    let _ = writeln!(
        out,
        "| direction | family | rows | textcodec MB/s | encoding_rs MB/s | vs encoding_rs | min row vs encoding_rs | vs memcpy |"
    );
    let _ = writeln!(out, "|---|---|--:|--:|--:|--:|--:|--:|");
    for section in ["decode8", "decode16", "encode", "ascii"] {
        let mut groups: BTreeMap<(usize, &str), Vec<&Row>> = BTreeMap::new();
        for r in rows.iter().filter(|r| r.section == section) {
            let f = family(r.encoding);
            groups.entry((family_order(f), f)).or_default().push(r);
            if is_legacy(r.encoding) && section != "ascii" {
                groups.entry((50, "all legacy")).or_default().push(r);
            }
        }
        for ((_, f), rs) in groups {
            let ratios: Vec<f64> = rs.iter().map(|r| r.textcodec / r.encoding_rs).collect();
            let min = ratios
                .iter()
                .copied()
                .filter(|v| v.is_finite())
                .fold(f64::NAN, f64::min);
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} | {} |",
                section,
                f,
                rs.len(),
                fmt_rate(geomean(rs.iter().map(|r| r.textcodec))),
                fmt_rate(geomean(rs.iter().map(|r| r.encoding_rs))),
                fmt_ratio(geomean(ratios.iter().copied()), None),
                fmt_ratio(min, Some(1.0)),
                fmt_ratio(geomean(rs.iter().map(|r| r.textcodec / r.memcpy)), None),
            );
        }
    }
}

/// The rows simdutf has a transcoder for, against it (`SIMDUTF_FORCE_IMPLEMENTATION`
/// limits it to one of its kernels, e.g. `haswell` for AVX2, `westmere` for SSE4.2).
fn simdutf_table(rows: &[Row], out: &mut String) {
    let rows: Vec<&Row> = rows.iter().filter(|r| r.simdutf.is_finite()).collect();
    if rows.is_empty() {
        return;
    }
    let forced = std::env::var("SIMDUTF_FORCE_IMPLEMENTATION").map_or_else(
        |_| "its best kernel for this CPU".to_string(),
        |v| format!("`{v}`"),
    );
    let _ = writeln!(out, "\n## Against simdutf\n");
    let _ = writeln!(
        out,
        "simdutf {} (validating `convert_utf16{{le,be}}_to_utf8`, `convert_utf8_to_utf16le`), \
         measured in the same samples as the rows above. textcodec level: {}.\n",
        forced,
        std::env::var("TEXTCODEC_KERNEL").map_or_else(|_| "best".to_string(), |v| format!("`{v}`"))
    );
    let _ = writeln!(
        out,
        "| direction | encoding | input | textcodec MB/s | simdutf MB/s | vs simdutf |"
    );
    let _ = writeln!(out, "|---|---|---|--:|--:|--:|");
    let mut sorted = rows.clone();
    sorted.sort_by_key(|r| (r.section, r.encoding.name(), r.input.clone()));
    for r in &sorted {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} |",
            r.section,
            r.encoding,
            r.input,
            fmt_rate(r.textcodec),
            fmt_rate(r.simdutf),
            fmt_ratio(r.textcodec / r.simdutf, Some(0.8)),
        );
    }
    let mut groups: BTreeMap<(&str, &str), Vec<f64>> = BTreeMap::new();
    for r in &rows {
        groups
            .entry((r.section, r.encoding.name()))
            .or_default()
            .push(r.textcodec / r.simdutf);
    }
    let _ = writeln!(
        out,
        "\n| direction | encoding | rows | geomean vs simdutf | min row |"
    );
    let _ = writeln!(out, "|---|---|--:|--:|--:|");
    for ((section, name), ratios) in groups {
        let min = ratios.iter().copied().fold(f64::NAN, f64::min);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            section,
            name,
            ratios.len(),
            fmt_ratio(geomean(ratios.iter().copied()), None),
            fmt_ratio(min, Some(0.8)),
        );
    }
}

fn bench_utf8(cases: &[Case], timing: Timing, out: &mut String) -> Vec<(String, [f64; 7])> {
    let _ = writeln!(out, "\n## UTF-8 validation\n");
    let _ = writeln!(
        out,
        "Valid UTF-8 in, `&str` out (no copy): textcodec `utf8_decode_without_bom_or_fail`, \
         `std::str::from_utf8`, `simdutf8::basic::from_utf8`, encoding_rs \
         `Encoding::utf8_valid_up_to`. \"→ String\": validate and copy into a reused `String` \
         (textcodec `Decoder::decode_to_string` with UTF-8; simdutf8 + `push_str`). MB/s.\n"
    );
    let _ = writeln!(
        out,
        "| input | KB | textcodec | std | simdutf8 | encoding_rs | memcpy | textcodec vs simdutf8 | textcodec → String | simdutf8 → String | vs simdutf8 → String |"
    );
    let _ = writeln!(out, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    let mut results = Vec::new();
    for case in cases.iter().filter(|c| c.encoding == Encoding::Utf8) {
        eprintln!("utf8 {}", case.input);
        let src = &case.bytes[..];
        let mut s1 = String::with_capacity(src.len() + 64);
        let mut s2 = String::with_capacity(src.len() + 64);
        let copy = Out::new(src.len());
        let mut peers = vec![
            Peer::new("textcodec", || {
                textcodec::utf8_decode_without_bom_or_fail(black_box(src)).map_or(0, str::len)
            }),
            Peer::new("std", || {
                std::str::from_utf8(black_box(src)).map_or(0, str::len)
            }),
            Peer::new("simdutf8", || {
                simdutf8::basic::from_utf8(black_box(src)).map_or(0, str::len)
            }),
            Peer::new("encoding_rs", || {
                encoding_rs::Encoding::utf8_valid_up_to(black_box(src))
            }),
            memcpy_peer(src, &copy),
            Peer::new("textcodec-string", move || {
                s1.clear();
                let _ = decoder(Encoding::Utf8).decode_to_string(black_box(src), &mut s1, true);
                s1.len()
            }),
            Peer::new("simdutf8-string", move || {
                s2.clear();
                if let Ok(s) = simdutf8::basic::from_utf8(black_box(src)) {
                    s2.push_str(s);
                }
                s2.len()
            }),
        ];
        let r = measure(&mut peers, src.len(), timing);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            case.input,
            src.len() / 1000,
            fmt_rate(r[0]),
            fmt_rate(r[1]),
            fmt_rate(r[2]),
            fmt_rate(r[3]),
            fmt_rate(r[4]),
            fmt_ratio(r[0] / r[2], Some(1.0)),
            fmt_rate(r[5]),
            fmt_rate(r[6]),
            fmt_ratio(r[5] / r[6], Some(1.0)),
        );
        results.push((
            case.input.clone(),
            [r[0], r[1], r[2], r[3], r[4], r[5], r[6]],
        ));
    }
    let g = |i: usize| geomean(results.iter().map(|r| r.1[i]));
    let gr = |i: usize, j: usize| geomean(results.iter().map(|r| r.1[i] / r.1[j]));
    let _ = writeln!(
        out,
        "| **geomean** | | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
        fmt_rate(g(0)),
        fmt_rate(g(1)),
        fmt_rate(g(2)),
        fmt_rate(g(3)),
        fmt_rate(g(4)),
        fmt_ratio(gr(0, 2), Some(1.0)),
        fmt_rate(g(5)),
        fmt_rate(g(6)),
        fmt_ratio(gr(5, 6), Some(1.0)),
    );
    results
}

fn bench_ascii(ascii: &str, filter: &dyn Fn(&str) -> bool, timing: Timing) -> Vec<Row> {
    let mut rows = Vec::new();
    let src = ascii.as_bytes();
    for &e in Encoding::all() {
        if !e.is_ascii_compatible() || !filter(e.name()) {
            continue;
        }
        eprintln!("ascii {e}");
        let case = Case {
            input: "ascii".into(),
            encoding: e,
            text: ascii.into(),
            bytes: src.to_vec(),
            unmappables: 0,
        };
        for utf16 in [false, true] {
            let mut row = bench_decode(&case, utf16, timing);
            if row.memcpy.is_nan() {
                // memcpy of the same bytes, measured in the same run for this row.
                let copy = Out::new(src.len());
                let mut peers = [memcpy_peer(src, &copy)];
                row.memcpy = measure(&mut peers, src.len(), timing)[0];
            }
            row.section = "ascii";
            row.input = if utf16 {
                "ascii → UTF-16"
            } else {
                "ascii → UTF-8"
            }
            .into();
            rows.push(row);
        }
    }
    rows
}

fn main() {
    let options = parse_args();
    let timing = options.timing;
    let wants = |s: &str| options.sections.iter().any(|x| x == s);
    let filter = |name: &str| match &options.filter {
        Some(f) => name.contains(f.as_str()),
        None => true,
    };

    let mut out = String::new();
    let fast = cfg!(feature = "fast-encode");
    let _ = writeln!(
        out,
        "# textcodec benchmark run ({})\n",
        if fast {
            "encoding_rs with `fast-legacy-encode`"
        } else {
            "encoding_rs default features"
        }
    );
    let _ = writeln!(
        out,
        "{} samples of ≥ {} ms ({}) per peer, interleaved; medians. MB/s = 10^6 bytes of input per second.\n",
        timing.samples,
        timing.sample_time.as_millis(),
        match timing.clock {
            Clock::ThreadCpu => "thread CPU time",
            Clock::Wall => "wall clock",
        }
    );

    eprintln!("loading corpus from {}", corpus_dir().display());
    let (cases, ascii) = load_cases(&filter);

    let mut notes = Vec::new();
    for case in &cases {
        notes.extend(verify(case));
    }
    let _ = writeln!(out, "## Inputs\n");
    let _ = writeln!(
        out,
        "Each legacy/UTF-16 input is the UTF-8 corpus file encoded by textcodec's encoder in html mode at startup \
         (`&#N;` for unmappables); both libraries decode exactly these bytes. Verified before timing: \
         {}.\n",
        if notes.is_empty() {
            "textcodec and encoding_rs produce identical decode and encode outputs for every input".to_string()
        } else {
            format!("{} disagreement(s): {}", notes.len(), notes.join("; "))
        }
    );
    let _ = writeln!(
        out,
        "| input | encoding | bytes | UTF-8 text bytes | `&#N;` written |"
    );
    let _ = writeln!(out, "|---|---|--:|--:|--:|");
    for c in &cases {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            c.input,
            c.encoding,
            c.bytes.len(),
            c.text.len(),
            c.unmappables
        );
    }
    print!("{out}");
    out.clear();

    let mut rows = Vec::new();
    for section in ["decode8", "decode16", "encode"] {
        if !wants(section) {
            continue;
        }
        let mut section_rows = Vec::new();
        for case in &cases {
            eprintln!("{section} {} {}", case.input, case.encoding);
            section_rows.push(match section {
                "encode" => bench_encode(case, timing),
                "decode16" => bench_decode(case, true, timing),
                _ => bench_decode(case, false, timing),
            });
        }
        let _ = writeln!(out, "\n## {}\n", title(section));
        table(&section_rows, &mut out);
        print!("{out}");
        out.clear();
        rows.extend(section_rows);
    }
    if wants("ascii") {
        let ascii_rows = bench_ascii(&ascii, &filter, timing);
        let _ = writeln!(out, "\n## {}\n", title("ascii"));
        let _ = writeln!(out, "Input: `ascii.txt`, {} bytes.\n", ascii.len());
        table(&ascii_rows, &mut out);
        rows.extend(ascii_rows);
    }
    if wants("utf8") {
        bench_utf8(&cases, timing, &mut out);
    }
    if wants("grow") {
        grow::bench_grow(&cases, timing, &mut out);
    }
    if wants("labels") {
        labels::bench_labels(timing, &mut out);
    }
    if wants("io") {
        io::bench_io(&cases, timing, &mut out);
    }
    if wants("short") {
        short::bench_short(&cases, timing, &mut out);
    }
    if wants("mem") {
        mem::bench_mem(&cases, options.function.as_deref(), timing, &mut out);
    }
    summary(&rows, &mut out);
    simdutf_table(&rows, &mut out);
    print!("{out}");

    // Raw results for later comparison.
    let dir = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../target/textcodec-bench"
    ));
    if !rows.is_empty() && std::fs::create_dir_all(dir).is_ok() {
        let mut tsv =
            String::from("section\tinput\tencoding\tbytes\ttextcodec\tencoding_rs\tmemcpy\n");
        for r in &rows {
            let _ = writeln!(
                tsv,
                "{}\t{}\t{}\t{}\t{:.1}\t{:.1}\t{:.1}",
                r.section, r.input, r.encoding, r.bytes, r.textcodec, r.encoding_rs, r.memcpy
            );
        }
        let name = if fast {
            "results-fast-encode.tsv"
        } else {
            "results-default.tsv"
        };
        let _ = std::fs::write(dir.join(name), tsv);
        eprintln!("raw results: {}", dir.join(name).display());
    }
}
