//! The growing APIs write into spare capacity that is not zero-filled first (issue #16).
//! Here that capacity holds garbage from an earlier use (0xFF bytes, which no UTF-8
//! output contains; 0xDEAD units, a lone surrogate no decoder writes), so a kernel that
//! reported more than it wrote would show up as a difference from the same conversion
//! into a fresh zeroed buffer — for every encoding, input split anywhere into two
//! chunks, text long enough for every kernel's block loop.

use textcodec::{DecodeErrorMode, Decoder, DecoderOptions, EncodeErrorMode, Encoder, Encoding};

/// A text every encoding has characters of, and some it lacks (html mode writes those).
fn sample_text() -> String {
    let parts = [
        "ASCII text, long enough for the vector loops to take whole blocks of it. ",
        "café déjà vu ŁÓDŹ Ελληνικά Русский текст עברית العربية ไทย Tiếng Việt ",
        "日本語のテキスト、カタカナ ｶﾀｶﾅ 漢字 中文简体 繁體中文 한국어 텍스트 ",
        "€ ™ ‰ 😀 𠀋 \u{F780}\u{F7FF} ",
    ];
    // Under Miri (which checks that nothing uninitialised is read or kept), once.
    parts.concat().repeat(if cfg!(miri) { 1 } else { 6 })
}

/// Where the tests split their input: every `step`-th position (far fewer under Miri).
fn splits(len: usize, step: usize) -> impl Iterator<Item = usize> {
    let step = if cfg!(miri) { len / 3 + 1 } else { step };
    (0..=len).step_by(step).chain([len])
}

/// `bytes` (in `encoding`) plus some malformed sequences.
fn sample_bytes(encoding: Encoding) -> Vec<u8> {
    let mut encoder = Encoder::new(encoding.output_encoding(), EncodeErrorMode::Html).unwrap();
    let mut bytes = Vec::new();
    let _ = encoder.encode_from_utf8_to_vec(&sample_text(), &mut bytes, true);
    if encoding.is_utf16() {
        // The encoder writes UTF-8 for UTF-16 labels (get an output encoding): build
        // the code units by hand.
        bytes.clear();
        for unit in sample_text().encode_utf16() {
            let b = if encoding == Encoding::Utf16Be {
                unit.to_be_bytes()
            } else {
                unit.to_le_bytes()
            };
            bytes.extend_from_slice(&b);
        }
        bytes.extend_from_slice(&[0x00, 0xD8, 0x41, 0x00]);
    } else {
        bytes.extend_from_slice(b"\xFF\x80\xFE tail \x81");
    }
    bytes
}

fn dirty_string(capacity: usize) -> String {
    let mut garbage = vec![0xFFu8; capacity];
    garbage.clear();
    String::from_utf8(garbage).unwrap()
}

fn dirty_units(capacity: usize) -> Vec<u16> {
    let mut garbage = vec![0xDEADu16; capacity];
    garbage.clear();
    garbage
}

fn dirty_bytes(capacity: usize) -> Vec<u8> {
    let mut garbage = vec![0xFFu8; capacity];
    garbage.clear();
    garbage
}

fn decoder(encoding: Encoding) -> Decoder {
    Decoder::with_options(
        encoding,
        DecoderOptions {
            error_mode: DecodeErrorMode::Replacement,
            ..DecoderOptions::default()
        },
    )
}

#[test]
fn decoding_into_dirty_capacity_matches_a_zeroed_buffer() {
    for &encoding in Encoding::all() {
        let bytes = sample_bytes(encoding);
        let mut fresh8 = vec![0u8; 3 * bytes.len() + 16];
        let r = decoder(encoding).decode_to_utf8(&bytes, &mut fresh8, true);
        let expected8 = &fresh8[..r.written];
        let mut fresh16 = vec![0u16; bytes.len() + 16];
        let r = decoder(encoding).decode_to_utf16(&bytes, &mut fresh16, true);
        let expected16 = &fresh16[..r.written];
        for split in splits(bytes.len(), 37) {
            let (a, b) = bytes.split_at(split);
            let mut d = decoder(encoding);
            let mut s = dirty_string(4 * bytes.len());
            let _ = d.decode_to_string(a, &mut s, false);
            let _ = d.decode_to_string(b, &mut s, true);
            assert_eq!(
                s.as_bytes(),
                expected8,
                "{} to UTF-8, split at {split}",
                encoding.name()
            );

            let mut d = decoder(encoding);
            let mut v = dirty_units(2 * bytes.len());
            let _ = d.decode_to_utf16_vec(a, &mut v, false);
            let _ = d.decode_to_utf16_vec(b, &mut v, true);
            assert_eq!(
                v,
                expected16,
                "{} to UTF-16, split at {split}",
                encoding.name()
            );
        }
    }
}

#[test]
fn encoding_into_dirty_capacity_matches_a_zeroed_buffer() {
    let text = sample_text();
    let units: Vec<u16> = text.encode_utf16().collect();
    for &encoding in Encoding::all() {
        let Some(mut encoder) = Encoder::new(encoding, EncodeErrorMode::Html) else {
            continue; // replacement has no encoder
        };
        let mut fresh = vec![0u8; 12 * text.len() + 16];
        let r = encoder.encode_from_utf8(&text, &mut fresh, true);
        let expected = &fresh[..r.written];
        for split in splits(units.len(), 41) {
            let at = text
                .char_indices()
                .map(|(i, _)| i)
                .find(|&i| i >= split)
                .unwrap_or(text.len());
            let mut e = Encoder::new(encoding, EncodeErrorMode::Html).unwrap();
            let mut out = dirty_bytes(12 * text.len());
            let _ = e.encode_from_utf8_to_vec(&text[..at], &mut out, false);
            let _ = e.encode_from_utf8_to_vec(&text[at..], &mut out, true);
            assert_eq!(
                out,
                expected,
                "{} from UTF-8, split at {at}",
                encoding.name()
            );

            let mut e = Encoder::new(encoding, EncodeErrorMode::Html).unwrap();
            let mut out = dirty_bytes(12 * text.len());
            let _ = e.encode_from_utf16_to_vec(&units[..split], &mut out, false);
            let _ = e.encode_from_utf16_to_vec(&units[split..], &mut out, true);
            assert_eq!(
                out,
                expected,
                "{} from UTF-16, split at {split}",
                encoding.name()
            );
        }
    }
}
