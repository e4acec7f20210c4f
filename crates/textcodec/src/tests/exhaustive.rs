//! Exhaustive index tests (#indexes): every pointer of every index through the real
//! [`Decoder`], every code point through the real [`Encoder`], with expectations from the
//! Standard's algorithms over the committed decode tables (see [`super::reference`]).

use std::string::String;
use std::vec::Vec;
#[allow(unused_imports)]
use std::{borrow::ToOwned, boxed::Box, format, string::ToString, vec};

use super::harness::{real_decode, real_encode_utf16, real_encode_utf8, Out};
use super::reference::{self as r, EncEvent};
use crate::{EncodeErrorMode, Encoding};

/// Every scalar value, in order.
fn all_scalars() -> impl Iterator<Item = char> {
    (0..=0x10FFFFu32).filter_map(char::from_u32)
}

/// Decodes `input` whole with the real decoder (replacement mode) to UTF-8 and UTF-16 and
/// compares with `expected`.
#[track_caller]
fn assert_decodes(encoding: Encoding, input: &[u8], expected: &str) {
    for out in [Out::Utf8, Out::Utf16] {
        let real = real_decode(encoding, input, false, out, &[], input.len() * 3 + 16);
        if real.text != expected {
            let (i, (a, b)) = real
                .text
                .chars()
                .zip(expected.chars())
                .enumerate()
                .find(|(_, (a, b))| a != b)
                .unwrap_or((0, ('?', '?')));
            panic!(
                "{encoding:?} {out:?}: output differs at char {i}: got U+{:04X}, want U+{:04X} (lengths {} / {})",
                u32::from(a),
                u32::from(b),
                real.text.chars().count(),
                expected.chars().count()
            );
        }
    }
}

/// U+FFFD, then the trailing byte again if it is ASCII (the multi-byte decoders restore it).
fn error_then(byte: u8, out: &mut String) {
    out.push('\u{FFFD}');
    if byte < 0x80 {
        out.push(char::from(byte));
    }
}

fn push_cp(out: &mut String, code_point: u32) {
    out.push(char::from_u32(code_point).expect("index code points are scalar values"));
}

// ---------------------------------------------------------------------------------------
// Single-byte and x-user-defined
// ---------------------------------------------------------------------------------------

#[test]
fn single_byte_every_byte_decodes_to_its_index_code_point() {
    let mut count = 0;
    for &encoding in Encoding::all().iter().filter(|e| e.is_single_byte()) {
        count += 1;
        let input: Vec<u8> = (0..=255u8).collect();
        let mut expected = String::new();
        for b in 0..=255u8 {
            if b < 0x80 {
                expected.push(char::from(b));
            } else {
                match r::single_byte(encoding, usize::from(b - 0x80)) {
                    Some(c) => push_cp(&mut expected, c),
                    None => expected.push('\u{FFFD}'),
                }
            }
        }
        assert_decodes(encoding, &input, &expected);
        // And one byte at a time, each as its own stream.
        for b in 0..=255u8 {
            let want: String = r::decode_replacement(encoding, &[b]);
            assert_decodes(encoding, &[b], &want);
        }
    }
    assert_eq!(count, 28, "28 single-byte encodings");
}

/// The encoder's expected result for every scalar value: ASCII as is, else the byte of the
/// first pointer (found by a linear search of the index), else an error.
fn single_byte_expected(encoding: Encoding) -> Vec<EncEvent> {
    // One linear pass records the first pointer of each code point (what *index pointer*
    // returns); `single_byte_pointer` is the per-code-point linear search, checked against it.
    let mut first = std::collections::HashMap::new();
    for p in 0..128 {
        if let Some(c) = r::single_byte(encoding, p) {
            first.entry(c).or_insert(p);
            assert_eq!(r::single_byte_pointer(encoding, c), Some(first[&c]));
        }
    }
    let mut events = Vec::new();
    let mut bytes = Vec::new();
    for c in all_scalars() {
        let cp = u32::from(c);
        if cp < 0x80 {
            bytes.push(cp as u8);
        } else if let Some(&p) = first.get(&cp) {
            bytes.push((p + 0x80) as u8);
        } else {
            if !bytes.is_empty() {
                events.push(EncEvent::Bytes(core::mem::take(&mut bytes)));
            }
            events.push(EncEvent::Error(cp));
        }
    }
    if !bytes.is_empty() {
        events.push(EncEvent::Bytes(bytes));
    }
    events
}

#[test]
fn single_byte_every_code_point_encodes_to_its_first_pointer() {
    let text: String = all_scalars().collect();
    let utf16: Vec<u16> = text.encode_utf16().collect();
    for &encoding in Encoding::all().iter().filter(|e| e.is_single_byte()) {
        let expected = single_byte_expected(encoding);
        let got = real_encode_utf8(encoding, &text, EncodeErrorMode::Fatal, &[], 1 << 16);
        assert!(got == expected, "{encoding:?} from UTF-8");
        let got = real_encode_utf16(encoding, &utf16, EncodeErrorMode::Fatal, &[], 1 << 16);
        assert!(got == expected, "{encoding:?} from UTF-16");
    }
}

#[test]
fn x_user_defined_every_byte_and_every_code_point() {
    let input: Vec<u8> = (0..=255u8).collect();
    let expected: String = input
        .iter()
        .map(|&b| {
            if b < 0x80 {
                char::from(b)
            } else {
                char::from_u32(0xF780 + u32::from(b) - 0x80).unwrap()
            }
        })
        .collect();
    assert_decodes(Encoding::XUserDefined, &input, &expected);
    let text: String = all_scalars().collect();
    let chars: Vec<char> = text.chars().collect();
    let want = r::encode_events(Encoding::XUserDefined, &chars).unwrap();
    let want = super::harness::normalize(want);
    let got = real_encode_utf8(
        Encoding::XUserDefined,
        &text,
        EncodeErrorMode::Fatal,
        &[],
        1 << 16,
    );
    assert!(got == want);
    let utf16: Vec<u16> = text.encode_utf16().collect();
    let got = real_encode_utf16(
        Encoding::XUserDefined,
        &utf16,
        EncodeErrorMode::Fatal,
        &[],
        1 << 16,
    );
    assert!(got == want);
    // 256 code points are encodable: ASCII and U+F780..U+F7FF.
    let encodable: usize = want
        .iter()
        .map(|e| match e {
            EncEvent::Bytes(b) => b.len(),
            EncEvent::Error(_) => 0,
        })
        .sum();
    assert_eq!(encodable, 256);
}

// ---------------------------------------------------------------------------------------
// Decoding every pointer of the multi-byte indexes
// ---------------------------------------------------------------------------------------

#[test]
fn jis0208_every_pointer_decodes_in_euc_jp_shift_jis_and_iso_2022_jp() {
    // EUC-JP and ISO-2022-JP reach pointers 0..8836 (94 × 94).
    let mut euc = Vec::new();
    let mut euc_want = String::new();
    let mut iso = b"\x1B$B".to_vec();
    let mut iso_want = String::new();
    let mut mapped = 0;
    for p in 0..94 * 94 {
        let (lead, trail) = ((p / 94) as u8, (p % 94) as u8);
        euc.extend_from_slice(&[lead + 0xA1, trail + 0xA1]);
        iso.extend_from_slice(&[lead + 0x21, trail + 0x21]);
        match r::jis0208(p) {
            Some(c) => {
                mapped += 1;
                push_cp(&mut euc_want, c);
                push_cp(&mut iso_want, c);
            }
            None => {
                euc_want.push('\u{FFFD}');
                iso_want.push('\u{FFFD}');
            }
        }
    }
    iso.extend_from_slice(b"\x1B(B");
    assert!(mapped > 6000);
    assert_decodes(Encoding::EucJp, &euc, &euc_want);
    assert_decodes(Encoding::Iso2022Jp, &iso, &iso_want);

    // Shift_JIS reaches pointers 0..60 × 188; 8836..=10715 are EUDC (Private Use).
    let mut sjis = Vec::new();
    let mut sjis_want = String::new();
    for p in 0..60 * 188 {
        let lead = (p / 188) as u8;
        let lead = lead + if lead < 0x1F { 0x81 } else { 0xC1 };
        let trail = (p % 188) as u8;
        let trail = trail + if trail < 0x3F { 0x40 } else { 0x41 };
        sjis.extend_from_slice(&[lead, trail]);
        if (8836..=10715).contains(&p) {
            push_cp(&mut sjis_want, 0xE000 + p as u32 - 8836);
        } else {
            match r::jis0208(p) {
                Some(c) => push_cp(&mut sjis_want, c),
                None => error_then(trail, &mut sjis_want),
            }
        }
    }
    assert_decodes(Encoding::ShiftJis, &sjis, &sjis_want);
}

#[test]
fn jis0212_every_pointer_decodes_in_euc_jp() {
    let mut input = Vec::new();
    let mut want = String::new();
    let mut mapped = 0;
    for p in 0..94 * 94 {
        input.extend_from_slice(&[0x8F, (p / 94) as u8 + 0xA1, (p % 94) as u8 + 0xA1]);
        match r::jis0212(p) {
            Some(c) => {
                mapped += 1;
                push_cp(&mut want, c);
            }
            None => want.push('\u{FFFD}'),
        }
    }
    assert!(mapped > 6000);
    assert_decodes(Encoding::EucJp, &input, &want);
}

#[test]
fn big5_every_pointer_decodes() {
    let mut input = Vec::new();
    let mut want = String::new();
    for p in 0..126 * 157 {
        let lead = (p / 157) as u8 + 0x81;
        let trail = (p % 157) as u8;
        let trail = trail + if trail < 0x3F { 0x40 } else { 0x62 };
        input.extend_from_slice(&[lead, trail]);
        // #big5-decoder step 3.6: four pointers decode to two code points.
        match p {
            1133 => want.push_str("\u{00CA}\u{0304}"),
            1135 => want.push_str("\u{00CA}\u{030C}"),
            1164 => want.push_str("\u{00EA}\u{0304}"),
            1166 => want.push_str("\u{00EA}\u{030C}"),
            _ => match r::big5(p) {
                Some(c) => push_cp(&mut want, c),
                None => error_then(trail, &mut want),
            },
        }
    }
    assert_decodes(Encoding::Big5, &input, &want);
}

#[test]
fn euc_kr_every_pointer_decodes() {
    let mut input = Vec::new();
    let mut want = String::new();
    for p in 0..126 * 190 {
        let (lead, trail) = ((p / 190) as u8 + 0x81, (p % 190) as u8 + 0x41);
        input.extend_from_slice(&[lead, trail]);
        match r::euc_kr(p) {
            Some(c) => push_cp(&mut want, c),
            None => error_then(trail, &mut want),
        }
    }
    assert_decodes(Encoding::EucKr, &input, &want);
}

#[test]
fn gb18030_every_two_byte_pointer_decodes_in_gb18030_and_gbk() {
    let mut input = Vec::new();
    let mut want = String::new();
    for p in 0..126 * 190 {
        let lead = (p / 190) as u8 + 0x81;
        let trail = (p % 190) as u8;
        let trail = trail + if trail < 0x3F { 0x40 } else { 0x41 };
        input.extend_from_slice(&[lead, trail]);
        match r::gb18030(p) {
            Some(c) => push_cp(&mut want, c),
            None => error_then(trail, &mut want),
        }
    }
    // GBK's decoder is gb18030's (#gbk-decoder); 0x80 is U+20AC in both.
    input.push(0x80);
    want.push('\u{20AC}');
    assert_decodes(Encoding::Gb18030, &input, &want);
    assert_decodes(Encoding::Gbk, &input, &want);
}

/// The four bytes for a four-byte gb18030 pointer (inverse of #gb18030-decoder step 3.2).
fn four_bytes(pointer: u32) -> [u8; 4] {
    [
        (pointer / 12600) as u8 + 0x81,
        (pointer / 1260 % 10) as u8 + 0x30,
        (pointer / 10 % 126) as u8 + 0x81,
        (pointer % 10) as u8 + 0x30,
    ]
}

#[test]
fn gb18030_every_four_byte_sequence_decodes_by_the_ranges_algorithm() {
    // Every four-byte sequence 0x81..0xFE 0x30..0x39 0x81..0xFE 0x30..0x39, i.e. pointers
    // 0..126 × 12600, valid (≤ 39419 or 189000..=1237575) or not.
    let mut input = Vec::with_capacity(126 * 12600 * 4);
    let mut want = String::new();
    let mut valid = 0;
    for p in 0..126 * 12600 {
        input.extend_from_slice(&four_bytes(p));
        match r::gb18030_ranges_code_point(p) {
            Some(c) => {
                valid += 1;
                push_cp(&mut want, c);
            }
            None => want.push('\u{FFFD}'),
        }
    }
    assert_eq!(valid, 39420 + (1237576 - 189000));
    // Pointer 7457 ↔ U+E7C7 (#index-gb18030-ranges-code-point step 2).
    assert_eq!(r::gb18030_ranges_code_point(7457), Some(0xE7C7));
    assert_eq!(r::gb18030_ranges_pointer(0xE7C7), 7457);
    assert_decodes(Encoding::Gb18030, &input, &want);
    assert_decodes(Encoding::Gbk, &input, &want);
}

// ---------------------------------------------------------------------------------------
// Encoding every code point
// ---------------------------------------------------------------------------------------

/// Every scalar value through the real encoder, from UTF-8 and from UTF-16, in fatal mode
/// (resuming after each error) and html mode, against the reference encoder.
fn every_code_point_encodes_like_the_reference(encoding: Encoding) {
    let chars: Vec<char> = all_scalars().collect();
    let text: String = chars.iter().collect();
    let utf16: Vec<u16> = text.encode_utf16().collect();
    let want = super::harness::normalize(r::encode_events(encoding, &chars).unwrap());
    let got = real_encode_utf8(encoding, &text, EncodeErrorMode::Fatal, &[], 1 << 16);
    assert!(got == want, "{encoding:?} fatal from UTF-8");
    let got = real_encode_utf16(encoding, &utf16, EncodeErrorMode::Fatal, &[], 1 << 16);
    assert!(got == want, "{encoding:?} fatal from UTF-16");
    let html = r::encode_html(encoding, &chars).unwrap();
    let got = real_encode_utf8(encoding, &text, EncodeErrorMode::Html, &[], 1 << 16);
    assert!(got == [EncEvent::Bytes(html)], "{encoding:?} html");
}

/// Decodes `bytes` (one character's encoding) and checks it is `c`.
#[track_caller]
fn round_trips(encoding: Encoding, bytes: &[u8], c: char) {
    let real = real_decode(encoding, bytes, true, Out::Utf8, &[], 16);
    assert!(real.errors.is_empty(), "{encoding:?} {bytes:02X?}");
    assert_eq!(real.text, c.to_string(), "{encoding:?} {bytes:02X?}");
}

#[test]
fn euc_jp_every_code_point() {
    every_code_point_encodes_like_the_reference(Encoding::EucJp);
    // Every jis0208 code point encodes to its first pointer (jis0212 is decode-only).
    for (p, c) in crate::index::all::jis0208() {
        let first = r::index_pointer(r::Index::Jis0208, u32::from(c)).unwrap();
        assert!(first <= p);
        let c = char::from_u32(u32::from(c)).unwrap();
        let bytes = r::encode_one(Encoding::EucJp, c);
        if p < 94 * 94 && !matches!(u32::from(c), 0xA5 | 0x203E | 0xFF61..=0xFF9F) {
            let want = [(first / 94) as u8 + 0xA1, (first % 94) as u8 + 0xA1];
            assert_eq!(bytes.as_deref(), Ok(&want[..]), "U+{:04X}", u32::from(c));
        }
    }
    // U+2212 is encoded as U+FF0D (#euc-jp-encoder step 6).
    assert_eq!(
        r::encode_one(Encoding::EucJp, '\u{2212}'),
        r::encode_one(Encoding::EucJp, '\u{FF0D}')
    );
}

#[test]
fn shift_jis_every_code_point() {
    every_code_point_encodes_like_the_reference(Encoding::ShiftJis);
    // #index-shift_jis-pointer: pointers 8272..=8835 are never chosen; code points that only
    // appear there are unencodable, the others use a later (IBM) pointer.
    let mut rerouted = 0;
    for (p, c) in crate::index::all::jis0208().filter(|e| (8272..=8835).contains(&e.0)) {
        let ch = char::from_u32(u32::from(c)).unwrap();
        let sjis = r::index_pointer(r::Index::ShiftJis, u32::from(c));
        assert!(sjis.is_none_or(|s| !(8272..=8835).contains(&s)), "{p}");
        if let Ok(bytes) = r::encode_one(Encoding::ShiftJis, ch) {
            round_trips(Encoding::ShiftJis, &bytes, ch);
            rerouted += 1;
        }
    }
    assert!(rerouted > 0);
    // EUDC decodes but does not encode: Private Use is not in index jis0208.
    for c in '\u{E000}'..='\u{E757}' {
        assert_eq!(r::encode_one(Encoding::ShiftJis, c), Err(u32::from(c)));
    }
}

#[test]
fn iso_2022_jp_every_code_point() {
    every_code_point_encodes_like_the_reference(Encoding::Iso2022Jp);
    // Halfwidth katakana encode as the fullwidth katakana of index ISO-2022-JP katakana.
    for (i, full) in crate::index::all::iso_2022_jp_katakana() {
        let half = char::from_u32(0xFF61 + i as u32).unwrap();
        let full = char::from_u32(u32::from(full)).unwrap();
        let a = r::encode_one(Encoding::Iso2022Jp, half).unwrap();
        assert_eq!(Ok(a.clone()), r::encode_one(Encoding::Iso2022Jp, full));
        assert_eq!(&a[..3], b"\x1B$B");
        assert_eq!(&a[5..], b"\x1B(B");
        round_trips(Encoding::Iso2022Jp, &a, full);
    }
}

#[test]
fn big5_every_code_point() {
    every_code_point_encodes_like_the_reference(Encoding::Big5);
    // #index-big5-pointer: never a pointer below (0xA1 − 0x81) × 157, and the last pointer
    // for six code points.
    let mut last = 0;
    for c in all_scalars() {
        if let Ok(bytes) = r::encode_one(Encoding::Big5, c) {
            if bytes.len() == 2 {
                assert!(bytes[0] >= 0xA1, "U+{:04X}", u32::from(c));
            }
        }
    }
    for code_point in [0x2550u32, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345] {
        let pointers: Vec<usize> = crate::index::all::big5()
            .filter(|e| e.1 == code_point && e.0 >= (0xA1 - 0x81) * 157)
            .map(|e| e.0)
            .collect();
        assert!(pointers.len() >= 2, "U+{code_point:04X} is a duplicate");
        let p = *pointers.last().unwrap();
        let trail = (p % 157) as u8;
        let want = [
            (p / 157) as u8 + 0x81,
            trail + if trail < 0x3F { 0x40 } else { 0x62 },
        ];
        let c = char::from_u32(code_point).unwrap();
        let got = real_encode_utf8(
            Encoding::Big5,
            &c.to_string(),
            EncodeErrorMode::Fatal,
            &[],
            8,
        );
        assert_eq!(got, [EncEvent::Bytes(want.to_vec())]);
        last += 1;
    }
    assert_eq!(last, 6);
}

#[test]
fn euc_kr_every_code_point() {
    every_code_point_encodes_like_the_reference(Encoding::EucKr);
    for (p, c) in crate::index::all::euc_kr() {
        let c = char::from_u32(u32::from(c)).unwrap();
        let first = r::index_pointer(r::Index::EucKr, u32::from(c)).unwrap();
        assert!(first <= p);
        round_trips(
            Encoding::EucKr,
            &r::encode_one(Encoding::EucKr, c).unwrap(),
            c,
        );
    }
}

#[test]
fn gb18030_every_code_point() {
    every_code_point_encodes_like_the_reference(Encoding::Gb18030);
    // Every scalar value but U+E5E5 is encodable (#gb18030-encoder step 3) and, side table
    // aside, round-trips.
    let side: Vec<u32> = r::gb18030_side_table().iter().map(|e| e.0).collect();
    assert_eq!(side.len(), 18);
    let chars: Vec<char> = all_scalars().collect();
    let events = r::encode_events(Encoding::Gb18030, &chars).unwrap();
    let errors: Vec<u32> = events
        .iter()
        .filter_map(|e| match e {
            EncEvent::Error(c) => Some(*c),
            _ => None,
        })
        .collect();
    assert_eq!(errors, [0xE5E5]);
    let text: String = chars
        .iter()
        .filter(|&&c| c != '\u{E5E5}' && !side.contains(&u32::from(c)))
        .collect();
    let bytes = match super::harness::normalize(real_encode_utf8(
        Encoding::Gb18030,
        &text,
        EncodeErrorMode::Fatal,
        &[],
        1 << 16,
    ))
    .as_slice()
    {
        [EncEvent::Bytes(b)] => b.clone(),
        other => panic!("{:?}", &other[..other.len().min(3)]),
    };
    let back = real_decode(Encoding::Gb18030, &bytes, true, Out::Utf8, &[], 1 << 20);
    assert!(back.errors.is_empty());
    assert!(back.text == text, "gb18030 round trip");
    // The side table: the listed bytes, which decode to other (non-PUA) code points.
    for &(code_point, want) in r::gb18030_side_table() {
        let c = char::from_u32(code_point).unwrap();
        for encoding in [Encoding::Gb18030, Encoding::Gbk] {
            let got = real_encode_utf8(encoding, &c.to_string(), EncodeErrorMode::Fatal, &[], 8);
            assert_eq!(got, [EncEvent::Bytes(want.to_vec())], "U+{code_point:04X}");
        }
        let back = r::decode_replacement(Encoding::Gb18030, &want);
        assert_ne!(back, c.to_string());
    }
    // U+E7C7 ↔ pointer 7457, four bytes (unless index gb18030 has it).
    if r::index_pointer(r::Index::Gb18030, 0xE7C7).is_none() {
        round_trips(Encoding::Gb18030, &four_bytes(7457), '\u{E7C7}');
        assert_eq!(
            r::encode_one(Encoding::Gb18030, '\u{E7C7}'),
            Ok(four_bytes(7457).to_vec())
        );
    }
}

#[test]
fn gbk_every_code_point() {
    every_code_point_encodes_like_the_reference(Encoding::Gbk);
    // GBK never emits four bytes (#gb18030-encoder step 8), U+20AC is 0x80 (step 4).
    let chars: Vec<char> = all_scalars().collect();
    let text: String = chars.iter().collect();
    let mut encoder = crate::Encoder::new(Encoding::Gbk, EncodeErrorMode::Fatal).unwrap();
    let mut buf = [0u8; 8];
    let mut one = [0u8; 4];
    for c in chars.iter().step_by(1) {
        let r = encoder.encode_from_utf8(c.encode_utf8(&mut one), &mut buf, true);
        assert!(r.written <= 2, "U+{:04X}", u32::from(*c));
    }
    assert_eq!(text.chars().count(), chars.len());
    assert_eq!(
        r::encode_one(Encoding::Gbk, '\u{20AC}'),
        Ok(std::vec![0x80])
    );
    assert_eq!(r::encode_one(Encoding::Gbk, '\u{E5E5}'), Err(0xE5E5));
    round_trips(Encoding::Gbk, &[0x80], '\u{20AC}');
}

/// `Decoder::latin1_byte_compatible_up_to` against the real decoder, for every encoding:
/// every byte after ASCII text and before more (so a lead meets a trail), the prefix it
/// names decodes to the bytes widened, and the byte after it does not (alone or in
/// context, it decodes to something else or is not yet decided); and `None` while a
/// decoder holds a partial sequence.
#[test]
fn latin1_byte_compatible_prefixes_decode_to_themselves() {
    use crate::{BomHandling, Decoder, DecoderOptions};
    let mut checked = 0;
    for &encoding in Encoding::all() {
        for b in 0..=255u8 {
            for bom in [BomHandling::Sniff, BomHandling::Keep, BomHandling::Remove] {
                let options = DecoderOptions {
                    bom,
                    ..DecoderOptions::default()
                };
                let src = [b, b'a', b, 0xA1, b'b'];
                let decoder = Decoder::with_options(encoding, options);
                let n = decoder
                    .latin1_byte_compatible_up_to(&src)
                    .expect("a new decoder holds nothing");
                let mut whole = Decoder::with_options(encoding, options);
                let mut out = String::new();
                let r = whole.decode_to_string(&src, &mut out, true);
                assert_eq!(r.read, src.len());
                let widened: String = src[..n].iter().map(|&x| char::from(x)).collect();
                assert!(
                    out.starts_with(&widened),
                    "{encoding:?} {bom:?} {src:02X?}: {n} claimed, decoded {out:?}"
                );
                // The prefix is the longest: the next byte, with what follows, does not
                // give its own value.
                let maybe_bom = bom == BomHandling::Sniff && matches!(b, 0xEF | 0xFE | 0xFF);
                if n < src.len() && !(n == 0 && maybe_bom) {
                    let rest: String = out[widened.len()..].chars().take(1).collect();
                    assert_ne!(
                        rest,
                        char::from(src[n]).to_string(),
                        "{encoding:?} {bom:?} {src:02X?}: stops at {n}"
                    );
                }
                checked += 1;
            }
        }
        // A decoder in the middle of a sequence cannot say.
        let mut decoder = Decoder::new(encoding);
        let mut out = String::new();
        let lead: &[u8] = match encoding {
            Encoding::Utf8 => b"\xC3",
            Encoding::EucJp | Encoding::EucKr => b"\xB0",
            Encoding::Iso2022Jp => b"\x1B$B",
            Encoding::Gbk | Encoding::Gb18030 | Encoding::Big5 | Encoding::ShiftJis => b"\x81",
            _ => continue,
        };
        let r = decoder.decode_to_string(lead, &mut out, false);
        assert_eq!(r.read, lead.len());
        assert_eq!(
            decoder.latin1_byte_compatible_up_to(b"abc"),
            None,
            "{encoding:?}"
        );
        // ... nor one that has seen part of a BOM.
        let mut decoder = Decoder::new(encoding);
        let r = decoder.decode_to_string(b"\xEF", &mut out, false);
        assert_eq!(r.read, 1);
        assert_eq!(
            decoder.latin1_byte_compatible_up_to(b"abc"),
            None,
            "{encoding:?}"
        );
    }
    assert_eq!(checked, 40 * 256 * 3);
}
