//! Differential test against encoding_rs (a dev-dependency only) over all 40 encodings:
//! decoding (to UTF-8 and UTF-16) and encoding (from UTF-8 and UTF-16) on structured and
//! random inputs.
//!
//! Every difference must be one where the current Standard and encoding_rs disagree. With
//! encoding_rs 0.8.44 (which has the GB18030-2022 index and encoder side table) the only
//! allowed difference is [`ENCODE_SKIPPED`]: encodings the Standard gives no encoder, for
//! which the two libraries deliberately do different things (checked to still differ in
//! `encoders_the_standard_does_not_define`). Decoding agrees on every input tried.

use textcodec::{
    BomHandling, DecodeErrorMode, Decoder, DecoderOptions, EncodeErrorMode, Encoder, Encoding,
};

/// Encodings whose *encoding* cannot be compared, with the reason.
const ENCODE_SKIPPED: [(Encoding, &str); 3] = [
    // #encoders-and-decoders: "The replacement and UTF-16BE/LE encodings have no encoder."
    // encoding_rs's `new_encoder` silently gives UTF-8's encoder for these (its
    // `output_encoding`); textcodec returns no encoder for replacement and offers UTF-16
    // encoders as a documented extension (`Encoder::new` doc). Their output encoding,
    // which the Standard's callers use, is UTF-8 in both (checked in
    // `output_encodings_agree`).
    (
        Encoding::Replacement,
        "#encoders-and-decoders: replacement has no encoder",
    ),
    (
        Encoding::Utf16Be,
        "#encoders-and-decoders: UTF-16BE has no encoder (textcodec extension)",
    ),
    (
        Encoding::Utf16Le,
        "#encoders-and-decoders: UTF-16LE has no encoder (textcodec extension)",
    ),
];

fn rs(encoding: Encoding) -> &'static encoding_rs::Encoding {
    let rs = encoding_rs::Encoding::for_label(encoding.name().as_bytes())
        .unwrap_or_else(|| panic!("encoding_rs knows {}", encoding.name()));
    assert_eq!(rs.name(), encoding.name());
    rs
}

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn ours_utf8(encoding: Encoding, input: &[u8]) -> (String, bool) {
    let mut d = Decoder::with_options(
        encoding,
        DecoderOptions {
            error_mode: DecodeErrorMode::Replacement,
            bom: BomHandling::Keep,
        },
    );
    let mut s = String::new();
    let _ = d.decode_to_string(input, &mut s, true);
    (s, d.replacements() > 0)
}

fn ours_utf16(encoding: Encoding, input: &[u8]) -> Vec<u16> {
    let mut d = Decoder::with_options(
        encoding,
        DecoderOptions {
            error_mode: DecodeErrorMode::Replacement,
            bom: BomHandling::Keep,
        },
    );
    let mut v = Vec::new();
    let _ = d.decode_to_utf16_vec(input, &mut v, true);
    v
}

fn theirs_utf8(encoding: Encoding, input: &[u8]) -> (String, bool) {
    let (text, had_errors) = rs(encoding).decode_without_bom_handling(input);
    (text.into_owned(), had_errors)
}

fn theirs_utf16(encoding: Encoding, input: &[u8]) -> Vec<u16> {
    let mut d = rs(encoding).new_decoder_without_bom_handling();
    let mut out = vec![0u16; d.max_utf16_buffer_length(input.len()).unwrap()];
    let (result, read, written, _) = d.decode_to_utf16(input, &mut out, true);
    assert_eq!(result, encoding_rs::CoderResult::InputEmpty);
    assert_eq!(read, input.len());
    out.truncate(written);
    out
}

#[track_caller]
fn compare_decode(encoding: Encoding, input: &[u8]) {
    let ours = ours_utf8(encoding, input);
    let theirs = theirs_utf8(encoding, input);
    assert!(
        ours == theirs,
        "{encoding:?} decode {input:02X?}: ours {ours:?}, encoding_rs {theirs:?}"
    );
    let ours = ours_utf16(encoding, input);
    let theirs = theirs_utf16(encoding, input);
    assert!(
        ours == theirs,
        "{encoding:?} decode to UTF-16 {input:02X?}: ours {ours:04X?}, encoding_rs {theirs:04X?}"
    );
    // The one-shot functions, which take shortcuts of their own (borrowing, UTF-16's
    // single kernel call): without BOM handling, and the Standard's *decode* (BOM sniff).
    let (text, had_errors) = textcodec::decode_without_bom(encoding, input);
    let theirs = theirs_utf8(encoding, input);
    assert!(
        (text.as_ref(), had_errors) == (theirs.0.as_str(), theirs.1),
        "{encoding:?} decode_without_bom {input:02X?}: ours {text:?}, encoding_rs {theirs:?}"
    );
    let (text, used) = textcodec::decode(input, encoding);
    let (theirs, theirs_used, _) = rs(encoding).decode(input);
    assert!(
        text == theirs && used.name() == theirs_used.name(),
        "{encoding:?} decode {input:02X?}: ours {text:?} ({used:?}), encoding_rs {theirs:?} ({})",
        theirs_used.name()
    );
}

/// UTF-16's one-shot shortcut converts the longest prefix without a lone surrogate in one
/// call and hands the rest to the decoder: every place the rest can start (an odd byte,
/// a lone surrogate of either kind, a pair cut in two), with and without a BOM.
#[test]
fn utf16_one_shot_decodes_alike_wherever_the_shortcut_stops() {
    let units: [u16; 8] = [0x41, 0xE9, 0x4E2D, 0xD83D, 0xDE00, 0xDC00, 0xD800, 0xFEFF];
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for encoding in [Encoding::Utf16Le, Encoding::Utf16Be] {
        for _ in 0..4000 {
            let n = rng.below(40) as usize;
            let mut input = Vec::new();
            match rng.below(4) {
                0 => input.extend_from_slice(b"\xFF\xFE"),
                1 => input.extend_from_slice(b"\xFE\xFF"),
                2 => input.extend_from_slice(b"\xEF\xBB\xBF"),
                _ => {}
            }
            for _ in 0..n {
                let unit = units[rng.below(8) as usize];
                let bytes = if encoding == Encoding::Utf16Be {
                    unit.to_be_bytes()
                } else {
                    unit.to_le_bytes()
                };
                input.extend_from_slice(&bytes);
            }
            if rng.below(3) == 0 {
                input.push(rng.next() as u8);
            }
            compare_decode(encoding, &input);
        }
    }
}

fn ours_encode_utf8(encoding: Encoding, text: &str) -> Vec<u8> {
    let mut e = Encoder::new(encoding, EncodeErrorMode::Html).unwrap();
    let mut out = Vec::new();
    let _ = e.encode_from_utf8_to_vec(text, &mut out, true);
    out
}

fn ours_encode_utf16(encoding: Encoding, text: &[u16]) -> Vec<u8> {
    let mut e = Encoder::new(encoding, EncodeErrorMode::Html).unwrap();
    let mut out = Vec::new();
    let _ = e.encode_from_utf16_to_vec(text, &mut out, true);
    out
}

fn theirs_encode_utf8(encoding: Encoding, text: &str) -> Vec<u8> {
    let (bytes, used, _) = rs(encoding).encode(text);
    assert_eq!(used.name(), encoding.name());
    bytes.into_owned()
}

fn theirs_encode_utf16(encoding: Encoding, text: &[u16]) -> Vec<u8> {
    let mut e = rs(encoding).new_encoder();
    let mut out = Vec::new();
    let mut buf = vec![0u8; 1024];
    let mut src = text;
    loop {
        let (result, read, written, _) = e.encode_from_utf16(src, &mut buf, true);
        out.extend_from_slice(&buf[..written]);
        src = &src[read..];
        match result {
            encoding_rs::CoderResult::InputEmpty => return out,
            encoding_rs::CoderResult::OutputFull => {}
        }
    }
}

fn encodings_to_encode() -> impl Iterator<Item = Encoding> {
    Encoding::all()
        .iter()
        .copied()
        .filter(|e| !ENCODE_SKIPPED.iter().any(|s| s.0 == *e))
}

#[track_caller]
fn compare_encode(encoding: Encoding, text: &str) {
    let ours = ours_encode_utf8(encoding, text);
    let theirs = theirs_encode_utf8(encoding, text);
    if ours != theirs {
        let at = ours.iter().zip(&theirs).take_while(|(a, b)| a == b).count();
        panic!(
            "{encoding:?} encode: differ at byte {at}: ours {:02X?}, encoding_rs {:02X?}",
            &ours[at..(at + 16).min(ours.len())],
            &theirs[at..(at + 16).min(theirs.len())]
        );
    }
    let units: Vec<u16> = text.encode_utf16().collect();
    assert!(
        ours_encode_utf16(encoding, &units) == theirs_encode_utf16(encoding, &units),
        "{encoding:?} encode from UTF-16"
    );
}

#[test]
fn output_encodings_agree() {
    for &encoding in Encoding::all() {
        assert_eq!(
            encoding.output_encoding().name(),
            rs(encoding).output_encoding().name()
        );
    }
}

#[test]
fn every_one_and_two_byte_input_decodes_alike() {
    for &encoding in Encoding::all() {
        compare_decode(encoding, b"");
        for a in 0..=255u8 {
            compare_decode(encoding, &[a]);
        }
        if encoding.is_single_byte() || encoding == Encoding::XUserDefined {
            continue;
        }
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                compare_decode(encoding, &[a, b]);
            }
        }
    }
}

#[test]
fn structured_multi_byte_inputs_decode_alike() {
    // gb18030 four-byte ranges, every valid and invalid first/third byte.
    for encoding in [Encoding::Gb18030, Encoding::Gbk] {
        for a in 0x81..=0xFEu8 {
            for b in [0x30u8, 0x31, 0x35, 0x39] {
                for c in 0x80..=0xFFu8 {
                    compare_decode(encoding, &[a, b, c, 0x30, a, b, c, 0x39, 0x41]);
                    compare_decode(encoding, &[a, b, c]);
                    compare_decode(encoding, &[a, b, c, 0x41]);
                }
            }
        }
    }
    // EUC-JP jis0212.
    for b in 0..=255u8 {
        for c in 0..=255u8 {
            compare_decode(Encoding::EucJp, &[0x8F, b, c]);
        }
    }
    // ISO-2022-JP escapes in every state.
    for prefix in [&b""[..], b"\x1B(J", b"\x1B(I", b"\x1B$B", b"\x1B$@\x30"] {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let mut input = prefix.to_vec();
                input.extend_from_slice(&[0x1B, a, b, 0x41]);
                compare_decode(Encoding::Iso2022Jp, &input);
                let mut input = prefix.to_vec();
                input.extend_from_slice(&[a, b]);
                compare_decode(Encoding::Iso2022Jp, &input);
            }
        }
    }
}

#[test]
fn random_inputs_decode_alike() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for &encoding in Encoding::all() {
        for _ in 0..3000 {
            let len = rng.below(48) as usize;
            let input: Vec<u8> = (0..len)
                .map(|_| match rng.below(4) {
                    0 => rng.below(0x80) as u8,
                    // Bytes that matter to escapes and leads.
                    1 => [0x1B, 0x24, 0x28, 0x42, 0x30, 0x39, 0x81, 0xA1][rng.below(8) as usize],
                    _ => rng.next() as u8,
                })
                .collect();
            compare_decode(encoding, &input);
        }
        // Valid text: our encoder's output of random text.
        for _ in 0..300 {
            let text = random_text(&mut rng, 40);
            let bytes = match encoding {
                Encoding::Replacement => text.clone().into_bytes(),
                e => {
                    let mut enc = Encoder::new(e, EncodeErrorMode::Html).unwrap();
                    let mut out = Vec::new();
                    let _ = enc.encode_from_utf8_to_vec(&text, &mut out, true);
                    out
                }
            };
            compare_decode(encoding, &bytes);
        }
    }
}

fn random_text(rng: &mut Rng, max: u64) -> String {
    let len = rng.below(max);
    (0..len)
        .filter_map(|_| {
            let c = match rng.below(6) {
                0 => rng.below(0x80) as u32,
                1 => 0x80 + rng.below(0x780) as u32,
                2 => 0x2000 + rng.below(0x8000) as u32,
                3 => 0xAC00 + rng.below(0x2BA4) as u32,
                4 => 0xE000 + rng.below(0x2000) as u32,
                _ => rng.below(0x110000) as u32,
            };
            char::from_u32(c)
        })
        .collect()
}

#[test]
fn every_code_point_encodes_alike() {
    let all: String = (0..=0x10FFFFu32).filter_map(char::from_u32).collect();
    for encoding in encodings_to_encode() {
        compare_encode(encoding, &all);
    }
}

#[test]
fn random_texts_encode_alike() {
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    for encoding in encodings_to_encode() {
        for _ in 0..2000 {
            let text = random_text(&mut rng, 24);
            compare_encode(encoding, &text);
        }
        // ISO-2022-JP state changes: mixes of ASCII, Roman and jis0208 characters.
        for _ in 0..2000 {
            let text: String = (0..rng.below(12))
                .map(|_| {
                    [
                        'a',
                        '\\',
                        '~',
                        '\u{A5}',
                        '\u{203E}',
                        '\u{3042}',
                        '\u{FF76}',
                        '\u{2212}',
                        '\u{1B}',
                        '\u{E}',
                        '\u{1F600}',
                        '\u{E000}',
                    ][rng.below(12) as usize]
                })
                .collect();
            compare_encode(encoding, &text);
        }
    }
}

#[test]
fn lone_surrogates_encode_alike() {
    let mut rng = Rng(42);
    for encoding in encodings_to_encode() {
        for _ in 0..2000 {
            let units: Vec<u16> = (0..rng.below(12))
                .map(|_| match rng.below(3) {
                    0 => 0xD800 + rng.below(0x800) as u16,
                    1 => rng.below(0x80) as u16,
                    _ => rng.next() as u16,
                })
                .collect();
            assert_eq!(
                ours_encode_utf16(encoding, &units),
                theirs_encode_utf16(encoding, &units),
                "{encoding:?} {units:04X?}"
            );
        }
    }
}

#[test]
fn encoders_the_standard_does_not_define() {
    for (encoding, reason) in ENCODE_SKIPPED {
        assert!(!encoding.has_encoder(), "{reason}");
        // encoding_rs encodes these as UTF-8.
        let (bytes, used, _) = rs(encoding).encode("a\u{E9}");
        assert_eq!((&*bytes, used), ("a\u{E9}".as_bytes(), encoding_rs::UTF_8));
        assert_eq!(rs(encoding).new_encoder().encoding(), encoding_rs::UTF_8);
        match encoding {
            Encoding::Replacement => {
                assert!(Encoder::new(encoding, EncodeErrorMode::Html).is_none())
            }
            Encoding::Utf16Be => assert_eq!(ours_encode_utf8(encoding, "a\u{E9}"), b"\0a\0\xE9"),
            _ => assert_eq!(ours_encode_utf8(encoding, "a\u{E9}"), b"a\0\xE9\0"),
        }
    }
}
