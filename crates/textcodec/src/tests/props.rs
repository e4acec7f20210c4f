//! Property tests over all 40 encodings, against the naive reference: any chunking, any
//! output space, both error modes, both output forms, buffer bounds, and round trips.

use std::string::String;
use std::vec::Vec;
#[allow(unused_imports)]
use std::{borrow::ToOwned, boxed::Box, format, string::ToString, vec};

use proptest::prelude::*;

use super::harness::{
    check_decode, errors_in, normalize, real_encode_utf16, real_encode_utf8, Out,
};
use super::reference::{self as r, EncEvent};
use crate::{
    BomHandling, DecodeErrorMode, DecodeStatus, Decoder, DecoderOptions, EncodeErrorMode,
    EncodeStatus, Encoder, Encoding,
};

/// A piece of test input, turned into bytes per encoding.
#[derive(Clone, Debug)]
enum Piece {
    /// Arbitrary bytes.
    Bytes(Vec<u8>),
    /// An ASCII run (long enough for the bulk paths).
    Ascii(usize),
    /// The encoding of these scalar values by the reference encoder (errors skipped), so
    /// that inputs contain valid multi-byte sequences.
    Text(Vec<char>),
}

fn piece() -> impl Strategy<Value = Piece> {
    let scalar = prop_oneof![
        3 => (0x80u32..0x800).prop_map(|c| char::from_u32(c).unwrap()),
        6 => (0x2000u32..0xA000).prop_filter_map("scalar", char::from_u32),
        2 => (0xAC00u32..0xD7A4).prop_filter_map("scalar", char::from_u32),
        2 => (0xE000u32..0x10000).prop_filter_map("scalar", char::from_u32),
        1 => any::<char>(),
        1 => (0u32..0x80).prop_map(|c| char::from_u32(c).unwrap()),
    ];
    prop_oneof![
        2 => proptest::collection::vec(any::<u8>(), 0..12).prop_map(Piece::Bytes),
        1 => (0usize..80).prop_map(Piece::Ascii),
        3 => proptest::collection::vec(scalar, 0..12).prop_map(Piece::Text),
    ]
}

fn pieces() -> impl Strategy<Value = Vec<Piece>> {
    proptest::collection::vec(piece(), 0..8)
}

fn bytes_for(encoding: Encoding, pieces: &[Piece]) -> Vec<u8> {
    let mut out = Vec::new();
    for p in pieces {
        match p {
            Piece::Bytes(b) => out.extend_from_slice(b),
            Piece::Ascii(n) => out.extend((0..*n).map(|i| b'a' + (i % 26) as u8)),
            Piece::Text(chars) => {
                let target = match encoding {
                    Encoding::Replacement => Encoding::Utf8,
                    e => e,
                };
                for event in r::encode_events(target, chars).unwrap() {
                    if let EncEvent::Bytes(b) = event {
                        out.extend_from_slice(&b);
                    }
                }
            }
        }
    }
    out
}

fn splits_from(seeds: &[usize], len: usize) -> Vec<usize> {
    let mut splits: Vec<usize> = seeds.iter().map(|s| s % (len + 1)).collect();
    splits.sort_unstable();
    splits
}

fn decoder(encoding: Encoding, fatal: bool) -> Decoder {
    Decoder::with_options(
        encoding,
        DecoderOptions {
            error_mode: if fatal {
                DecodeErrorMode::Fatal
            } else {
                DecodeErrorMode::Replacement
            },
            bom: BomHandling::Keep,
        },
    )
}

/// Decoding each chunk into exactly `max_*_buffer_length(chunk)` never runs out of room.
fn check_bounds(encoding: Encoding, input: &[u8], splits: &[usize]) {
    for fatal in [false, true] {
        let mut d8 = decoder(encoding, fatal);
        let mut d16 = decoder(encoding, fatal);
        let mut start = 0;
        let mut bounds = splits.to_vec();
        bounds.push(input.len());
        for (i, &end) in bounds.iter().enumerate() {
            let last = i + 1 == bounds.len();
            let mut chunk = &input[start..end];
            loop {
                let cap = d8.max_utf8_buffer_length(chunk.len()).unwrap();
                let mut buf = std::vec![0u8; cap];
                let res = d8.decode_to_utf8(chunk, &mut buf, last);
                assert_ne!(
                    res.status,
                    DecodeStatus::OutputFull,
                    "{encoding:?} UTF-8 bound"
                );
                chunk = &chunk[res.read..];
                if res.status == DecodeStatus::InputEmpty {
                    break;
                }
            }
            let mut chunk = &input[start..end];
            loop {
                let cap = d16.max_utf16_buffer_length(chunk.len()).unwrap();
                let mut buf = std::vec![0u16; cap];
                let res = d16.decode_to_utf16(chunk, &mut buf, last);
                assert_ne!(
                    res.status,
                    DecodeStatus::OutputFull,
                    "{encoding:?} UTF-16 bound"
                );
                chunk = &chunk[res.read..];
                if res.status == DecodeStatus::InputEmpty {
                    break;
                }
            }
            start = end;
        }
    }
}

/// Whether `c` survives encoding then decoding in `encoding` (as the Standard defines
/// them: some encodable code points decode to others, e.g. U+00A5 in Shift_JIS).
fn round_trips(encoding: Encoding, c: char) -> bool {
    match r::encode_one(encoding, c) {
        Ok(bytes) => r::decode_replacement(encoding, &bytes) == c.to_string(),
        Err(_) => false,
    }
}

fn check_encoder(encoding: Encoding, text: &str, seeds: &[usize], cap: usize) {
    let chars: Vec<char> = text.chars().collect();
    let want = normalize(r::encode_events(encoding, &chars).unwrap());
    // From UTF-8, split at char boundaries, into small buffers.
    let splits = splits_from(seeds, text.len());
    let got = real_encode_utf8(encoding, text, EncodeErrorMode::Fatal, &splits, cap);
    assert_eq!(got, want, "{encoding:?} from UTF-8 {splits:?} cap {cap}");
    // From UTF-16, split at any unit (between surrogates too).
    let units: Vec<u16> = text.encode_utf16().collect();
    let usplits = splits_from(seeds, units.len());
    let got = real_encode_utf16(encoding, &units, EncodeErrorMode::Fatal, &usplits, cap);
    assert_eq!(got, want, "{encoding:?} from UTF-16 {usplits:?} cap {cap}");
    let one_shot = real_encode_utf16(encoding, &units, EncodeErrorMode::Fatal, &[], 1 << 12);
    assert_eq!(one_shot, want);
    // html mode.
    let html = r::encode_html(encoding, &chars).unwrap();
    let got = real_encode_utf8(encoding, text, EncodeErrorMode::Html, &splits, cap);
    assert_eq!(got, normalize(std::vec![EncEvent::Bytes(html.clone())]));
    // Buffer bounds, in every mode, from both forms.
    for mode in [
        EncodeErrorMode::Fatal,
        EncodeErrorMode::Html,
        EncodeErrorMode::Replace,
    ] {
        let mut e = Encoder::new(encoding, mode).unwrap();
        let mut src = text;
        loop {
            let mut buf = std::vec![0u8; e.max_buffer_length_from_utf8(src.len()).unwrap()];
            let res = e.encode_from_utf8(src, &mut buf, true);
            assert_ne!(
                res.status,
                EncodeStatus::OutputFull,
                "{encoding:?} {mode:?}"
            );
            src = &src[res.read..];
            if res.status == EncodeStatus::InputEmpty {
                break;
            }
        }
        let mut e = Encoder::new(encoding, mode).unwrap();
        let mut src = &units[..];
        loop {
            let mut buf = std::vec![0u8; e.max_buffer_length_from_utf16(src.len()).unwrap()];
            let res = e.encode_from_utf16(src, &mut buf, true);
            assert_ne!(
                res.status,
                EncodeStatus::OutputFull,
                "{encoding:?} {mode:?} UTF-16"
            );
            src = &src[res.read..];
            if res.status == EncodeStatus::InputEmpty {
                break;
            }
        }
    }
    // Round trip: representable text comes back; unencodable text comes back as `&#N;`.
    if encoding != Encoding::Utf16Be && encoding != Encoding::Utf16Le {
        let kept: Vec<char> = chars
            .iter()
            .copied()
            .filter(|&c| round_trips(encoding, c) || r::encode_one(encoding, c).is_err())
            .collect();
        let mut expected = String::new();
        for &c in &kept {
            match r::encode_one(encoding, c) {
                Ok(_) => expected.push(c),
                Err(code_point) => expected.push_str(&std::format!("&#{code_point};")),
            }
        }
        let kept_text: String = kept.iter().collect();
        let mut e = Encoder::new(encoding, EncodeErrorMode::Html).unwrap();
        let mut bytes = Vec::new();
        let _ = e.encode_from_utf8_to_vec(&kept_text, &mut bytes, true);
        assert_eq!(
            r::decode_replacement(encoding, &bytes),
            expected,
            "{encoding:?}"
        );
        let mut d = decoder(encoding, true);
        let mut back = String::new();
        let res = d.decode_to_string(&bytes, &mut back, true);
        assert_eq!(res.status, DecodeStatus::InputEmpty);
        assert_eq!(back, expected, "{encoding:?} round trip");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn chunked_decoding_matches_the_reference(
        pieces in pieces(),
        seeds in proptest::collection::vec(any::<usize>(), 0..6),
        cap in 1usize..24,
    ) {
        for &encoding in Encoding::all() {
            let input = bytes_for(encoding, &pieces);
            let events = r::decode_events(encoding, &input);
            let splits = splits_from(&seeds, input.len());
            let every: Vec<usize> = (1..input.len()).collect();
            let one_shot = input.len() * 3 + 8;
            for fatal in [false, true] {
                for out in [Out::Utf8, Out::Utf16] {
                    check_decode(encoding, &input, &events, fatal, out, &[], one_shot);
                    check_decode(encoding, &input, &events, fatal, out, &splits, cap);
                }
                check_decode(encoding, &input, &events, fatal, Out::Utf8, &every, one_shot);
            }
            check_decode(encoding, &input, &events, false, Out::Utf16, &every, 1);
            check_bounds(encoding, &input, &splits);
            // Fatal mode fails as often as replacement mode replaces.
            let mut d = decoder(encoding, false);
            let mut s = String::new();
            let _ = d.decode_to_string(&input, &mut s, true);
            prop_assert_eq!(d.replacements() as usize, errors_in(&events));
        }
    }

    #[test]
    fn decode_to_string_and_str_match_the_reference(
        pieces in pieces(),
        seeds in proptest::collection::vec(any::<usize>(), 0..4),
        cap in 0usize..12,
    ) {
        for &encoding in Encoding::all() {
            let input = bytes_for(encoding, &pieces);
            let want = r::decode_replacement(encoding, &input);
            let splits = splits_from(&seeds, input.len());
            // decode_to_string, chunked.
            let mut d = decoder(encoding, false);
            let mut s = String::new();
            let mut start = 0;
            let mut bounds = splits.clone();
            bounds.push(input.len());
            for (i, &end) in bounds.iter().enumerate() {
                let res = d.decode_to_string(&input[start..end], &mut s, i + 1 == bounds.len());
                prop_assert_eq!(res.status, DecodeStatus::InputEmpty);
                prop_assert_eq!(res.read, end - start);
                start = end;
            }
            prop_assert_eq!(&s, &want);
            // decode_to_str into small `&mut str` buffers.
            let mut d = decoder(encoding, false);
            let mut out = String::new();
            let mut src = &input[..];
            loop {
                let mut buf = " ".repeat(cap + 4);
                let res = d.decode_to_str(src, buf.as_mut_str(), true);
                out.push_str(&buf[..res.written]);
                src = &src[res.read..];
                if res.status == DecodeStatus::InputEmpty {
                    break;
                }
            }
            prop_assert_eq!(&out, &want);
            // decode_to_utf16_vec.
            let mut d = decoder(encoding, false);
            let mut v = Vec::new();
            let _ = d.decode_to_utf16_vec(&input, &mut v, true);
            prop_assert_eq!(String::from_utf16(&v).unwrap(), want);
        }
    }

    #[test]
    fn encoding_matches_the_reference_and_round_trips(
        pieces in pieces(),
        extra in proptest::collection::vec(any::<char>(), 0..4),
        seeds in proptest::collection::vec(any::<usize>(), 0..6),
        cap in 1usize..24,
    ) {
        for &encoding in Encoding::all() {
            if encoding == Encoding::Replacement {
                prop_assert!(Encoder::new(encoding, EncodeErrorMode::Fatal).is_none());
                continue;
            }
            // Text the encoding can mostly represent (decoded from its own bytes), plus
            // arbitrary characters.
            let mut text = r::decode_replacement(encoding, &bytes_for(encoding, &pieces));
            text.extend(extra.iter());
            check_encoder(encoding, &text, &seeds, cap);
        }
    }

    #[test]
    fn utf16_input_with_lone_surrogates(
        units in proptest::collection::vec(
            prop_oneof![any::<u16>(), 0xD800u16..0xE000, 0u16..0x80], 0..24),
        seeds in proptest::collection::vec(any::<usize>(), 0..6),
    ) {
        // Lone surrogates are U+FFFD (the conversion to a scalar value string that callers
        // of the Standard's encoders do first).
        let text = String::from_utf16_lossy(&units);
        let chars: Vec<char> = text.chars().collect();
        let splits = splits_from(&seeds, units.len());
        for &encoding in Encoding::all() {
            let Some(events) = r::encode_events(encoding, &chars) else { continue };
            let got = real_encode_utf16(encoding, &units, EncodeErrorMode::Fatal, &splits, 8);
            prop_assert_eq!(got, normalize(events));
        }
    }
}
