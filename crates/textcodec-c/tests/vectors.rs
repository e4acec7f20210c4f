//! The decode and encode vectors of the C and C++ tests (`tests/c/vectors.h`), and their
//! generator: the Standard's examples from `crates/textcodec/tests/spec_examples.rs`
//! (checked here against the Rust library first, so a wrong vector fails in Rust too),
//! plus, for every encoding, a decode of every byte and a few sequences and an encode of
//! a multilingual text, as the Rust library decodes and encodes them.
//!
//! The test fails when the committed `tests/c/vectors.h` differs from what it renders;
//! `TEXTCODEC_BLESS=1 cargo test -p textcodec-c --test vectors` rewrites it.

use std::fmt::Write as _;

use textcodec::{
    BomHandling, DecodeErrorMode, DecodeStatus, Decoder, DecoderOptions, EncodeErrorMode,
    EncodeStatus, Encoder, Encoding,
};

/// Replacement mode, no BOM handling (spec_examples.rs `dec`).
const DECODE: &[(Encoding, &[u8], &str)] = &[
    // ASCII after a lead byte is restored (#shift_jis-decoder step 3.9, …).
    (Encoding::ShiftJis, b"\x82\x22", "\u{FFFD}\""),
    (Encoding::EucKr, b"\x81\x22", "\u{FFFD}\""),
    (Encoding::Big5, b"\x81\x22", "\u{FFFD}\""),
    (Encoding::EucJp, b"\xA1\x22", "\u{FFFD}\""),
    (Encoding::EucJp, b"\x8E\x22", "\u{FFFD}\""),
    (Encoding::EucJp, b"\x8F\xA1\x22", "\u{FFFD}\""),
    (Encoding::Gb18030, b"\x81\x22", "\u{FFFD}\""),
    (Encoding::Gbk, b"\x81\x22", "\u{FFFD}\""),
    (Encoding::Utf8, b"\xE3\x22", "\u{FFFD}\""),
    (Encoding::Utf8, b"\xF0\x9F\x22", "\u{FFFD}\""),
    (Encoding::ShiftJis, b"\x82\xFD", "\u{FFFD}"),
    (Encoding::EucKr, b"\x81\xFF", "\u{FFFD}"),
    // gb18030 (#gb18030-decoder).
    (Encoding::Gb18030, b"\x81", "\u{FFFD}"),
    (Encoding::Gb18030, b"\x81\x30", "\u{FFFD}"),
    (Encoding::Gb18030, b"\x81\x30\x81", "\u{FFFD}"),
    (Encoding::Gbk, b"\x81\x30\x81", "\u{FFFD}"),
    (Encoding::Gb18030, b"ab\x81\x30\x81", "ab\u{FFFD}"),
    (Encoding::Gb18030, b"\x81\x30\x41", "\u{FFFD}0A"),
    (Encoding::Gb18030, b"\x84\x31\xA5\x30", "\u{FFFD}"),
    (Encoding::Gb18030, b"\xE3\x32\x9A\x36", "\u{FFFD}"),
    (Encoding::Gb18030, b"\x84\x31\xA4\x39", "\u{FFFF}"),
    (Encoding::Gb18030, b"\xE3\x32\x9A\x35", "\u{10FFFF}"),
    (Encoding::Gb18030, b"\x90\x30\x81\x30", "\u{10000}"),
    (Encoding::Gb18030, b"\x81\x35\xF4\x37", "\u{E7C7}"),
    (Encoding::Gb18030, b"\xA3\xA0", "\u{3000}"),
    (Encoding::Gbk, b"\x80", "\u{20AC}"),
    // ISO-2022-JP (#iso-2022-jp-decoder).
    (Encoding::Iso2022Jp, b"\x1B(BA", "A"),
    (Encoding::Iso2022Jp, b"\x1B(J\x1B(BA", "\u{FFFD}A"),
    (Encoding::Iso2022Jp, b"A\x1B(B", "A"),
    (Encoding::Iso2022Jp, b"\x1B(J\x5C\x7E", "\u{A5}\u{203E}"),
    (Encoding::Iso2022Jp, b"\x1B(I\x21\x5F", "\u{FF61}\u{FF9F}"),
    (Encoding::Iso2022Jp, b"\x1B(I\x60", "\u{FFFD}"),
    (Encoding::Iso2022Jp, b"\x1BA", "\u{FFFD}A"),
    (Encoding::Iso2022Jp, b"\x1B", "\u{FFFD}"),
    (Encoding::Iso2022Jp, b"\x1B(A", "\u{FFFD}(A"),
    (Encoding::Iso2022Jp, b"\x1B(", "\u{FFFD}("),
    (
        Encoding::Iso2022Jp,
        b"\x0E\x0F\x80",
        "\u{FFFD}\u{FFFD}\u{FFFD}",
    ),
    (Encoding::Iso2022Jp, b"\x1B$B\x30\x1B(BA", "\u{FFFD}A"),
    (Encoding::Iso2022Jp, b"\x1B$B\x30", "\u{FFFD}"),
    (Encoding::Iso2022Jp, b"\x1B$B\x0A", "\u{FFFD}"),
    (
        Encoding::Iso2022Jp,
        b"\x1B(J\x5C\x1B(B\x1B(J\x5C\x1B(B",
        "\u{A5}\u{FFFD}\u{A5}",
    ),
    // UTF-16 (#shared-utf-16-decoder).
    (Encoding::Utf16Le, b"A\x00B", "A\u{FFFD}"),
    (Encoding::Utf16Be, b"\x00AB", "A\u{FFFD}"),
    (Encoding::Utf16Le, b"\x00\xDCA\x00", "\u{FFFD}A"),
    (Encoding::Utf16Le, b"\x00\xD8A\x00", "\u{FFFD}A"),
    (Encoding::Utf16Be, b"\xD8\x00\x00A", "\u{FFFD}A"),
    (
        Encoding::Utf16Be,
        b"\xD8\x00\xD8\x3D\xDE\x00",
        "\u{FFFD}\u{1F600}",
    ),
    (Encoding::Utf16Le, b"\x3D\xD8", "\u{FFFD}"),
    (Encoding::Utf16Le, b"\x3D\xD8\x00", "\u{FFFD}"),
    // replacement (#replacement-decoder).
    (Encoding::Replacement, b"", ""),
    (Encoding::Replacement, b"a", "\u{FFFD}"),
    (Encoding::Replacement, b"anything at all \xFF", "\u{FFFD}"),
    // Shift_JIS and Big5 specifics.
    (Encoding::ShiftJis, b"\x80", "\u{80}"),
    (Encoding::ShiftJis, b"\xA1\xDF", "\u{FF61}\u{FF9F}"),
    (Encoding::ShiftJis, b"\xF0\x40", "\u{E000}"),
    (Encoding::Big5, b"\x88\x62", "\u{CA}\u{304}"),
    (Encoding::Big5, b"\x88\x64", "\u{CA}\u{30C}"),
    (Encoding::Big5, b"\x88\xA3", "\u{EA}\u{304}"),
    (Encoding::Big5, b"\x88\xA5", "\u{EA}\u{30C}"),
    // The README's examples.
    (Encoding::ShiftJis, b"\x93\xfa\x96\x7b", "日本"),
    (Encoding::Gb18030, b"\x81\x30\x81\x30", "\u{80}"),
    (Encoding::Windows1252, b"caf\xE9", "café"),
    (Encoding::Koi8R, b"\xD2\xC1\xC4", "рад"),
    (Encoding::EucKr, b"\xC7\xD1\xB1\xDB", "한글"),
];

/// The *decode* hook (BOM sniffing) with a fallback encoding: input, fallback, text,
/// encoding used (spec_examples.rs `decode_hook_sniffs_and_switches`).
const DECODE_BOM: &[(&[u8], Encoding, &str, Encoding)] = &[
    (
        b"\xEF\xBB\xBFA\xC3\xA9",
        Encoding::Windows1252,
        "Aé",
        Encoding::Utf8,
    ),
    (b"\xFE\xFF\x00A", Encoding::Utf8, "A", Encoding::Utf16Be),
    (b"\xFF\xFEA\x00", Encoding::ShiftJis, "A", Encoding::Utf16Le),
    (
        b"\xEF\xBB",
        Encoding::Windows1252,
        "ï»",
        Encoding::Windows1252,
    ),
    (
        b"\xEF\xBB\xBF\xEF\xBB\xBF",
        Encoding::Utf8,
        "\u{FEFF}",
        Encoding::Utf8,
    ),
    (b"\xFF", Encoding::Windows1252, "ÿ", Encoding::Windows1252),
    (b"", Encoding::Windows1252, "", Encoding::Windows1252),
];

/// Fatal mode, resuming after each error: input, text, errors (offset, bytes).
type FatalVector = (
    Encoding,
    &'static [u8],
    &'static str,
    &'static [(u64, &'static [u8])],
);
const DECODE_FATAL: &[FatalVector] = &[
    (Encoding::ShiftJis, b"\x82\x22", "\"", &[(0, b"\x82")]),
    (Encoding::EucKr, b"\x81\x22", "\"", &[(0, b"\x81")]),
    (Encoding::Big5, b"\x81\x22", "\"", &[(0, b"\x81")]),
    (Encoding::Gb18030, b"\x81\x22", "\"", &[(0, b"\x81")]),
    (Encoding::EucJp, b"\xA1\x22", "\"", &[(0, b"\xA1")]),
    (Encoding::Iso2022Jp, b"\x1B(A", "(A", &[(0, b"\x1B")]),
    (
        Encoding::Iso2022Jp,
        b"\x1B(J\x5C\x1B(B\x1B(J\x5C\x1B(B",
        "\u{A5}\u{A5}",
        &[(7, b"\x1B(J")],
    ),
    (
        Encoding::Utf16Be,
        b"\xD8\x00\x00A",
        "A",
        &[(0, b"\xD8\x00")],
    ),
    (
        Encoding::Utf16Le,
        b"\x3D\xD8\x00",
        "",
        &[(0, b"\x3D\xD8\x00")],
    ),
    (Encoding::Utf8, b"ab\xE3\x81", "ab", &[(2, b"\xE3\x81")]),
    (
        Encoding::Utf8,
        b"a\xFFb\xFFc",
        "abc",
        &[(1, b"\xFF"), (3, b"\xFF")],
    ),
];

/// Encoding UTF-8 text: mode, text, bytes (spec_examples.rs `enc` and the hooks).
const ENCODE: &[(Encoding, EncodeErrorMode, &str, &[u8])] = &[
    (
        Encoding::Gb18030,
        EncodeErrorMode::Fatal,
        "\u{E7C7}",
        b"\x81\x35\xF4\x37",
    ),
    (
        Encoding::Gb18030,
        EncodeErrorMode::Html,
        "\u{E5E5}",
        b"&#58853;",
    ),
    (
        Encoding::Gbk,
        EncodeErrorMode::Html,
        "\u{E5E5}",
        b"&#58853;",
    ),
    (Encoding::Gbk, EncodeErrorMode::Fatal, "\u{20AC}", b"\x80"),
    (
        Encoding::Gbk,
        EncodeErrorMode::Html,
        "\u{10000}",
        b"&#65536;",
    ),
    (Encoding::Gbk, EncodeErrorMode::Html, "\u{80}", b"&#128;"),
    (
        Encoding::Gb18030,
        EncodeErrorMode::Fatal,
        "\u{80}",
        b"\x81\x30\x81\x30",
    ),
    (
        Encoding::Gb18030,
        EncodeErrorMode::Fatal,
        "\u{E78D}",
        b"\xA6\xD9",
    ),
    (
        Encoding::Gbk,
        EncodeErrorMode::Fatal,
        "\u{E864}",
        b"\xFE\xA0",
    ),
    (
        Encoding::Iso2022Jp,
        EncodeErrorMode::Fatal,
        "\u{A5}",
        b"\x1B\x28\x4A\x5C\x1B\x28\x42",
    ),
    (
        Encoding::Iso2022Jp,
        EncodeErrorMode::Html,
        "a\u{E}",
        b"a&#65533;",
    ),
    (
        Encoding::Iso2022Jp,
        EncodeErrorMode::Html,
        "\u{A5}\u{1B}",
        b"\x1B(J\x5C&#65533;\x1B(B",
    ),
    (
        Encoding::Iso2022Jp,
        EncodeErrorMode::Html,
        "\u{4E9C}\u{F}",
        b"\x1B$B\x30\x21\x1B(B&#65533;",
    ),
    (
        Encoding::Iso2022Jp,
        EncodeErrorMode::Fatal,
        "\u{A5}\\",
        b"\x1B(J\x5C\x1B(B\\",
    ),
    (
        Encoding::Iso2022Jp,
        EncodeErrorMode::Fatal,
        "\u{A5}a\u{203E}",
        b"\x1B(J\x5Ca\x7E\x1B(B",
    ),
    (
        Encoding::Windows1252,
        EncodeErrorMode::Html,
        "a€☃",
        b"a\x80&#9731;",
    ),
    (
        Encoding::Windows1252,
        EncodeErrorMode::Replace,
        "a€☃",
        b"a\x80?",
    ),
    (
        Encoding::ShiftJis,
        EncodeErrorMode::Fatal,
        "\u{80}",
        b"\x80",
    ),
    (
        Encoding::ShiftJis,
        EncodeErrorMode::Html,
        "\u{E000}",
        b"&#57344;",
    ),
    (
        Encoding::ShiftJis,
        EncodeErrorMode::Fatal,
        "\u{A5}\u{203E}",
        b"\x5C\x7E",
    ),
    (
        Encoding::EucJp,
        EncodeErrorMode::Fatal,
        "\u{A5}\u{203E}",
        b"\x5C\x7E",
    ),
    (
        Encoding::ShiftJis,
        EncodeErrorMode::Html,
        "日本😀",
        b"\x93\xfa\x96\x7b&#128512;",
    ),
    (
        Encoding::EucJp,
        EncodeErrorMode::Fatal,
        "日本語\n",
        b"\xC6\xFC\xCB\xDC\xB8\xEC\n",
    ),
];

/// Fatal encoding that stops: text, bytes written, read, character, code point.
type UnmappableVector = (Encoding, &'static str, &'static [u8], usize, u32, u32);
const ENCODE_UNMAPPABLE: &[UnmappableVector] = &[
    (Encoding::Windows1252, "a€☃b", b"a\x80", 7, 0x2603, 0x2603),
    (
        Encoding::Iso2022Jp,
        "\u{4E9C}\u{1F600}",
        b"\x1B$B\x30\x21\x1B(B",
        7,
        0x1F600,
        0x1F600,
    ),
    (Encoding::Iso2022Jp, "\u{1B}", b"", 1, 0x1B, 0xFFFD),
    (Encoding::Iso2022Jp, "\u{E}", b"", 1, 0xE, 0xFFFD),
];

/// The text every encoder encodes (html mode) in the per-encoding vectors.
const SAMPLE_TEXT: &str =
    "Hello, café ÄÖÜ ß Ωμέγα Привет ĐŠČ שלום مرحبا ไทย 日本語 ｶﾀｶﾅ 한국어 中文 \
                           ¥‾€ 😀\u{FFFD}\r\n\t~\\";

fn sample_bytes() -> Vec<u8> {
    let mut v: Vec<u8> = (0..=255u8).collect();
    // Common two- and four-byte sequences of the CJK encodings, ISO-2022-JP escapes, UTF-16
    // pairs and UTF-8 sequences: each decoder reads some of them as text.
    v.extend_from_slice(
        b"\x82\xA0\x93\xFA\x96\x7B\xB0\xA1\xC7\xD1\xA4\x40\x81\x30\x81\x30\x8E\xB1\x8F\xA1\xA1\
          \x1B$B\x30\x21\x1B(B\x1B(J\\~\x1B(Iab\x1B(B\xD8\x3D\xDE\x00\xE6\x97\xA5\xF0\x9F\x98\x80",
    );
    v
}

fn decode(encoding: Encoding, input: &[u8], bom: BomHandling) -> (String, Encoding) {
    let mut d = Decoder::with_options(
        encoding,
        DecoderOptions {
            error_mode: DecodeErrorMode::Replacement,
            bom,
        },
    );
    let mut s = String::new();
    let mut used = encoding;
    let r = d.decode_to_string(input, &mut s, false);
    assert_eq!(r.status, DecodeStatus::InputEmpty);
    if input.len() >= 3 {
        used = d.encoding();
    }
    let r = d.decode_to_string(b"", &mut s, true);
    assert_eq!(r.status, DecodeStatus::InputEmpty);
    if let Some(e) = textcodec::bom_sniff(input).filter(|_| bom == BomHandling::Sniff) {
        used = e;
    }
    (s, used)
}

fn decode_fatal(encoding: Encoding, input: &[u8]) -> (String, Vec<(u64, Vec<u8>)>) {
    let mut d = Decoder::with_options(
        encoding,
        DecoderOptions {
            error_mode: DecodeErrorMode::Fatal,
            bom: BomHandling::Keep,
        },
    );
    let mut s = String::new();
    let mut errors = Vec::new();
    let mut src = input;
    loop {
        let r = d.decode_to_string(src, &mut s, true);
        src = &src[r.read..];
        match r.status {
            DecodeStatus::InputEmpty => return (s, errors),
            DecodeStatus::Malformed(m) => errors.push((m.offset(), m.bytes().to_vec())),
            DecodeStatus::OutputFull => unreachable!(),
        }
    }
}

fn encode(encoding: Encoding, mode: EncodeErrorMode, text: &str) -> Vec<u8> {
    let mut e = Encoder::new(encoding, mode).unwrap();
    let mut out = Vec::new();
    let r = e.encode_from_utf8_to_vec(text, &mut out, true);
    assert_eq!(r.status, EncodeStatus::InputEmpty, "{encoding:?} {text:?}");
    out
}

fn c_bytes(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "{0}".to_string();
    }
    let mut s = String::from("{");
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        if i % 24 == 23 {
            s.push_str("\n    ");
        }
        let _ = write!(s, "0x{b:02X}");
    }
    s.push('}');
    s
}

fn c_units(text: &str) -> String {
    let units: Vec<u16> = text.encode_utf16().collect();
    if units.is_empty() {
        return "{0}".to_string();
    }
    let mut s = String::from("{");
    for (i, u) in units.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        if i % 16 == 15 {
            s.push_str("\n    ");
        }
        let _ = write!(s, "0x{u:04X}");
    }
    s.push('}');
    s
}

fn c_name(e: Encoding) -> String {
    format!(
        "TEXTCODEC_{}",
        e.name().to_ascii_uppercase().replace('-', "_")
    )
}

fn mode_name(m: EncodeErrorMode) -> &'static str {
    match m {
        EncodeErrorMode::Fatal => "TEXTCODEC_ENCODE_FATAL",
        EncodeErrorMode::Html => "TEXTCODEC_ENCODE_HTML",
        EncodeErrorMode::Replace => "TEXTCODEC_ENCODE_REPLACE",
    }
}

/// Renders the C header.
fn render() -> String {
    let mut data = String::new();
    let mut out = String::new();
    out.push_str(
        "/* @generated by crates/textcodec-c/tests/vectors.rs \
         (TEXTCODEC_BLESS=1 cargo test -p textcodec-c --test vectors). DO NOT EDIT.\n \
         * The decode and encode vectors of the C and C++ tests: the Standard's examples \
         from\n * crates/textcodec/tests/spec_examples.rs and, per encoding, what the Rust \
         library gives. */\n\
         #ifndef TEXTCODEC_TEST_VECTORS_H\n#define TEXTCODEC_TEST_VECTORS_H\n\n\
         #include <stddef.h>\n#include <stdint.h>\n#include \"textcodec.h\"\n\n",
    );
    out.push_str(
        "typedef struct {\n  uint32_t encoding; /* decoder's encoding */\n  uint32_t bom; \
         /* TEXTCODEC_BOM_* */\n  uint32_t used; /* encoding used (a BOM may switch) */\n  \
         const uint8_t *input; size_t input_len;\n  const uint8_t *utf8; size_t utf8_len;\n  \
         const uint16_t *utf16; size_t utf16_len;\n} tc_decode_vector;\n\n\
         typedef struct { uint64_t offset; const uint8_t *bytes; size_t len; } tc_error;\n\n\
         typedef struct {\n  uint32_t encoding;\n  const uint8_t *input; size_t input_len;\n  \
         const uint8_t *utf8; size_t utf8_len;\n  const tc_error *errors; size_t error_count;\n\
         } tc_fatal_vector;\n\n\
         typedef struct {\n  uint32_t encoding; uint32_t mode;\n  const uint8_t *utf8; size_t \
         utf8_len;\n  const uint16_t *utf16; size_t utf16_len;\n  const uint8_t *bytes; size_t \
         bytes_len;\n} tc_encode_vector;\n\n\
         typedef struct {\n  uint32_t encoding;\n  const uint8_t *utf8; size_t utf8_len;\n  \
         const uint8_t *bytes; size_t bytes_len;\n  size_t read; uint32_t character; uint32_t \
         code_point;\n} tc_unmappable_vector;\n\n",
    );
    let mut n = 0usize;
    let mut array = |data: &mut String, kind: &str, init: String| -> String {
        n += 1;
        let name = format!("tc_v{n}");
        let _ = writeln!(data, "static const {kind} {name}[] = {init};");
        name
    };

    // Decode vectors: the Standard's examples, the BOM ones, then every encoding's sample.
    let mut decode_rows = Vec::new();
    let sample = sample_bytes();
    let mut decode_cases: Vec<(Encoding, BomHandling, Vec<u8>, String, Encoding)> = DECODE
        .iter()
        .map(|&(e, i, t)| (e, BomHandling::Keep, i.to_vec(), t.to_string(), e))
        .chain(
            DECODE_BOM
                .iter()
                .map(|&(i, e, t, u)| (e, BomHandling::Sniff, i.to_vec(), t.to_string(), u)),
        )
        .collect();
    for &e in Encoding::all() {
        let (text, _) = decode(e, &sample, BomHandling::Keep);
        decode_cases.push((e, BomHandling::Keep, sample.clone(), text, e));
    }
    for (e, bom, input, text, used) in &decode_cases {
        let i = array(&mut data, "uint8_t", c_bytes(input));
        let u8s = array(&mut data, "uint8_t", c_bytes(text.as_bytes()));
        let u16s = array(&mut data, "uint16_t", c_units(text));
        let bom = match bom {
            BomHandling::Keep => "TEXTCODEC_BOM_KEEP",
            BomHandling::Sniff => "TEXTCODEC_BOM_SNIFF",
            BomHandling::Remove => "TEXTCODEC_BOM_REMOVE",
        };
        decode_rows.push(format!(
            "  {{{}, {bom}, {}, {i}, {}, {u8s}, {}, {u16s}, {}}}",
            c_name(*e),
            c_name(*used),
            input.len(),
            text.len(),
            text.encode_utf16().count()
        ));
    }

    let mut fatal_rows = Vec::new();
    for (e, input, text, errors) in DECODE_FATAL {
        let i = array(&mut data, "uint8_t", c_bytes(input));
        let t = array(&mut data, "uint8_t", c_bytes(text.as_bytes()));
        let mut errs = String::from("{");
        for (offset, bytes) in errors.iter() {
            let b = array(&mut data, "uint8_t", c_bytes(bytes));
            let _ = write!(errs, "{{{offset}, {b}, {}}},", bytes.len());
        }
        errs.push('}');
        let er = array(&mut data, "tc_error", errs);
        fatal_rows.push(format!(
            "  {{{}, {i}, {}, {t}, {}, {er}, {}}}",
            c_name(*e),
            input.len(),
            text.len(),
            errors.len()
        ));
    }

    let mut encode_cases: Vec<(Encoding, EncodeErrorMode, String, Vec<u8>)> = ENCODE
        .iter()
        .map(|&(e, m, t, b)| (e, m, t.to_string(), b.to_vec()))
        .collect();
    for &e in Encoding::all() {
        if let Some(mut encoder) = Encoder::new(e, EncodeErrorMode::Html) {
            let mut bytes = Vec::new();
            let _ = encoder.encode_from_utf8_to_vec(SAMPLE_TEXT, &mut bytes, true);
            encode_cases.push((e, EncodeErrorMode::Html, SAMPLE_TEXT.to_string(), bytes));
        }
    }
    let mut encode_rows = Vec::new();
    for (e, m, text, bytes) in &encode_cases {
        let t = array(&mut data, "uint8_t", c_bytes(text.as_bytes()));
        let u = array(&mut data, "uint16_t", c_units(text));
        let b = array(&mut data, "uint8_t", c_bytes(bytes));
        encode_rows.push(format!(
            "  {{{}, {}, {t}, {}, {u}, {}, {b}, {}}}",
            c_name(*e),
            mode_name(*m),
            text.len(),
            text.encode_utf16().count(),
            bytes.len()
        ));
    }

    let mut unmappable_rows = Vec::new();
    for (e, text, bytes, read, c, cp) in ENCODE_UNMAPPABLE {
        let t = array(&mut data, "uint8_t", c_bytes(text.as_bytes()));
        let b = array(&mut data, "uint8_t", c_bytes(bytes));
        unmappable_rows.push(format!(
            "  {{{}, {t}, {}, {b}, {}, {read}, 0x{c:X}, 0x{cp:X}}}",
            c_name(*e),
            text.len(),
            bytes.len()
        ));
    }

    out.push_str(&data);
    let _ = write!(
        out,
        "\nstatic const tc_decode_vector DECODE_VECTORS[] = {{\n{}\n}};\n\
         static const tc_fatal_vector FATAL_VECTORS[] = {{\n{}\n}};\n\
         static const tc_encode_vector ENCODE_VECTORS[] = {{\n{}\n}};\n\
         static const tc_unmappable_vector UNMAPPABLE_VECTORS[] = {{\n{}\n}};\n\n\
         #define TC_COUNT(a) (sizeof(a) / sizeof((a)[0]))\n\n#endif\n",
        decode_rows.join(",\n"),
        fatal_rows.join(",\n"),
        encode_rows.join(",\n"),
        unmappable_rows.join(",\n"),
    );
    out
}

#[test]
fn the_vectors_hold_in_rust() {
    for &(e, input, want) in DECODE {
        assert_eq!(
            decode(e, input, BomHandling::Keep).0,
            want,
            "{e:?} {input:02X?}"
        );
    }
    for &(input, fallback, want, used) in DECODE_BOM {
        assert_eq!(
            decode(fallback, input, BomHandling::Sniff),
            (want.to_string(), used),
            "{input:02X?}"
        );
        let (text, hook_used) = textcodec::decode(input, fallback);
        assert_eq!((text.as_ref(), hook_used), (want, used));
    }
    for &(e, input, want, errors) in DECODE_FATAL {
        let (text, got) = decode_fatal(e, input);
        assert_eq!(text, want, "{e:?} {input:02X?}");
        let want: Vec<(u64, Vec<u8>)> = errors.iter().map(|(o, b)| (*o, b.to_vec())).collect();
        assert_eq!(got, want, "{e:?} {input:02X?}");
    }
    for &(e, m, text, want) in ENCODE {
        assert_eq!(encode(e, m, text), want, "{e:?} {text:?}");
    }
    for &(e, text, want, read, c, cp) in ENCODE_UNMAPPABLE {
        let mut encoder = Encoder::new(e, EncodeErrorMode::Fatal).unwrap();
        let mut buf = [0u8; 64];
        let r = encoder.encode_from_utf8(text, &mut buf, true);
        assert_eq!(&buf[..r.written], want, "{e:?} {text:?}");
        assert_eq!(r.read, read);
        match r.status {
            EncodeStatus::Unmappable(u) => {
                assert_eq!(
                    (u32::from(u.character()), u32::from(u.code_point())),
                    (c, cp)
                );
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn the_c_vectors_are_up_to_date() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/vectors.h");
    let want = render();
    if std::env::var_os("TEXTCODEC_BLESS").is_some() {
        std::fs::write(&path, &want).unwrap();
        return;
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "{} is out of date: TEXTCODEC_BLESS=1 cargo test -p textcodec-c --test vectors",
        path.display()
    );
}
