//! Every single byte and every two-byte sequence of every decoder (and structured longer
//! sequences: gb18030 four-byte, EUC-JP jis0212, ISO-2022-JP escapes in every state) against
//! the naive reference decoder, in replacement and fatal mode, to UTF-8 and UTF-16, whole
//! and byte by byte; then with ASCII padding of 0..=64 bytes before and after, to reach every
//! alignment of the fast paths.

use std::vec::Vec;
#[allow(unused_imports)]
use std::{borrow::ToOwned, boxed::Box, format, string::ToString, vec};

use super::harness::{check_decode, Out};
use super::reference::decode_events;
use crate::Encoding;

/// One encoding per decoder algorithm (GBK shares gb18030's; the single-byte decoders are
/// table-driven, so three representatives: the exhaustive tests cover every table).
const DECODERS: [Encoding; 14] = [
    Encoding::Utf8,
    Encoding::Utf16Be,
    Encoding::Utf16Le,
    Encoding::Gb18030,
    Encoding::Gbk,
    Encoding::Big5,
    Encoding::EucJp,
    Encoding::Iso2022Jp,
    Encoding::ShiftJis,
    Encoding::EucKr,
    Encoding::Replacement,
    Encoding::XUserDefined,
    Encoding::Windows1252,
    Encoding::Iso8859_8,
];

/// All four modes/outputs, whole; and replacement-to-UTF-8 byte by byte.
fn check_thoroughly(encoding: Encoding, input: &[u8]) {
    let events = decode_events(encoding, input);
    let cap = input.len() * 3 + 8;
    for fatal in [false, true] {
        for out in [Out::Utf8, Out::Utf16] {
            check_decode(encoding, input, &events, fatal, out, &[], cap);
        }
    }
    let every: Vec<usize> = (1..input.len()).collect();
    check_decode(encoding, input, &events, false, Out::Utf8, &every, cap);
    check_decode(encoding, input, &events, true, Out::Utf16, &every, cap);
}

/// Replacement to UTF-8 and UTF-16, fatal to UTF-8, whole.
fn check_quickly(encoding: Encoding, input: &[u8]) {
    let events = decode_events(encoding, input);
    let cap = input.len() * 3 + 8;
    check_decode(encoding, input, &events, false, Out::Utf8, &[], cap);
    check_decode(encoding, input, &events, false, Out::Utf16, &[], cap);
    check_decode(encoding, input, &events, true, Out::Utf8, &[], cap);
}

#[test]
fn every_single_byte_of_every_encoding() {
    for &encoding in Encoding::all() {
        check_thoroughly(encoding, &[]);
        for b in 0..=255u8 {
            check_thoroughly(encoding, &[b]);
        }
    }
}

#[test]
fn every_two_byte_sequence_of_every_decoder() {
    for encoding in DECODERS {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                check_thoroughly(encoding, &[a, b]);
            }
        }
    }
}

#[test]
fn utf8_three_and_four_byte_sequences() {
    // Every lead byte with every second byte and a sample of third/fourth bytes.
    let tails = [
        0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xF5, 0xFF,
    ];
    for a in 0xC0..=0xFFu8 {
        for b in 0..=255u8 {
            for &c in &tails {
                check_quickly(Encoding::Utf8, &[a, b, c]);
                check_quickly(Encoding::Utf8, &[a, b, c, 0x80]);
                check_quickly(Encoding::Utf8, &[a, b, 0x80, c]);
            }
        }
    }
}

#[test]
fn utf16_surrogate_sequences() {
    // A leading surrogate followed by every code unit, and by a lone byte; both byte orders.
    for (encoding, be) in [(Encoding::Utf16Be, true), (Encoding::Utf16Le, false)] {
        let unit = |u: u16| if be { u.to_be_bytes() } else { u.to_le_bytes() };
        for lead in [0xD800u16, 0xDBFF, 0xDC00, 0xDFFF, 0x0041] {
            for second in 0..=0xFFFFu16 {
                let mut input = unit(lead).to_vec();
                input.extend_from_slice(&unit(second));
                check_quickly(encoding, &input);
            }
            for b in 0..=255u8 {
                let mut input = unit(lead).to_vec();
                input.push(b);
                check_quickly(encoding, &input);
            }
        }
    }
}

#[test]
fn gb18030_three_and_four_byte_sequences() {
    let firsts = [
        0x81u8, 0x82, 0x84, 0x85, 0x8F, 0x90, 0x95, 0xE3, 0xE4, 0xFD, 0xFE,
    ];
    let fourths = [0x00u8, 0x2F, 0x30, 0x35, 0x39, 0x3A, 0x41, 0x80, 0x81, 0xFF];
    for encoding in [Encoding::Gb18030, Encoding::Gbk] {
        for &a in &firsts {
            for b in 0x2Fu8..=0x3A {
                for c in 0..=255u8 {
                    check_quickly(encoding, &[a, b, c]);
                    for &d in &fourths {
                        check_quickly(encoding, &[a, b, c, d]);
                    }
                }
            }
        }
    }
}

#[test]
fn euc_jp_jis0212_and_katakana_sequences() {
    for b in 0..=255u8 {
        for c in 0..=255u8 {
            check_quickly(Encoding::EucJp, &[0x8F, b, c]);
            check_quickly(Encoding::EucJp, &[0x8E, b, c]);
        }
    }
}

#[test]
fn iso_2022_jp_escapes_in_every_state() {
    let prefixes: [&[u8]; 7] = [
        b"",
        b"\x1B(B",
        b"\x1B(J",
        b"\x1B(I",
        b"\x1B$@",
        b"\x1B$B",
        b"\x1B$B\x30",
    ];
    for prefix in prefixes {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let mut input = prefix.to_vec();
                input.extend_from_slice(&[a, b]);
                if !prefix.is_empty() {
                    check_quickly(Encoding::Iso2022Jp, &input);
                }
                // An escape sequence (or something that is not one) in this state.
                let mut input = prefix.to_vec();
                input.extend_from_slice(&[0x1B, a, b]);
                check_quickly(Encoding::Iso2022Jp, &input);
            }
        }
        // Escape sequences back to back (the output flag) and at end-of-queue.
        for esc in [&b"\x1B(B"[..], b"\x1B(J", b"\x1B(I", b"\x1B$@", b"\x1B$B"] {
            for tail in [
                &b""[..],
                b"\x1B",
                b"\x1B(",
                b"\x1B$",
                b"A",
                b"\x1B(B",
                b"\x1B$B",
            ] {
                let mut input = prefix.to_vec();
                input.extend_from_slice(esc);
                input.extend_from_slice(tail);
                check_thoroughly(Encoding::Iso2022Jp, &input);
            }
        }
    }
}

#[test]
fn ascii_padding_before_and_after_every_alignment() {
    let trails = [
        0x00u8, 0x0A, 0x1B, 0x21, 0x30, 0x39, 0x40, 0x41, 0x5C, 0x7E, 0x7F, 0x80, 0xA0, 0xA1, 0xBF,
        0xFE,
    ];
    let mut sequences: Vec<Vec<u8>> = Vec::new();
    for a in 0..=255u8 {
        sequences.push(std::vec![a]);
        for k in 0..4 {
            let b = trails[(usize::from(a) + 5 * k) % trails.len()];
            sequences.push(std::vec![a, b]);
        }
    }
    // Valid multi-byte characters too (the fast paths' own territory).
    sequences.push(std::vec![0xE6, 0x97, 0xA5, 0xF0, 0x9F, 0x98, 0x80]);
    sequences.push(std::vec![0x94, 0x39, 0xFC, 0x36, 0x81, 0x35, 0xF4, 0x37]);
    sequences.push(std::vec![0x8F, 0xB0, 0xA1, 0x8E, 0xB1, 0xA4, 0xA2]);
    sequences.push(b"\x1B$B\x30\x21\x1B(I\x21\x1B(J\x5C".to_vec());
    let mut count = 0u64;
    for encoding in DECODERS {
        for seq in &sequences {
            for before in 0..=64usize {
                let after = (before * 7 + 3) % 65;
                let mut input = std::vec![b'a'; before];
                input.extend_from_slice(seq);
                input.extend(core::iter::repeat_n(b'z', after));
                check_quickly(encoding, &input);
                count += 1;
            }
        }
    }
    assert!(count > 1_000_000);
}
