//! `mem` against naive oracles: a byte-at-a-time transcription of the Standard's UTF-8
//! decoder, std's `String::from_utf8_lossy`, `char::decode_utf16`, and textcodec's own
//! UTF-8 decoder. `.ci/run` runs these once per forced kernel level; the inputs are
//! longer than 64 bytes where it matters, so the vector loops take them.

use super::*;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

/// The Standard's UTF-8 decoder (#utf-8-decoder), byte at a time, error mode replacement.
fn spec_utf8_decode(src: &[u8]) -> String {
    let mut out = String::new();
    let (mut cp, mut seen, mut needed, mut lower, mut upper) = (0u32, 0, 0, 0x80u8, 0xBFu8);
    let mut i = 0;
    while i <= src.len() {
        let Some(&byte) = src.get(i) else {
            // End-of-queue with bytes needed: an error.
            if needed != 0 {
                out.push('\u{FFFD}');
            }
            break;
        };
        i += 1;
        if needed == 0 {
            match byte {
                0x00..=0x7F => out.push(char::from(byte)),
                0xC2..=0xDF => {
                    needed = 1;
                    cp = u32::from(byte & 0x1F);
                }
                0xE0..=0xEF => {
                    if byte == 0xE0 {
                        lower = 0xA0;
                    }
                    if byte == 0xED {
                        upper = 0x9F;
                    }
                    needed = 2;
                    cp = u32::from(byte & 0xF);
                }
                0xF0..=0xF4 => {
                    if byte == 0xF0 {
                        lower = 0x90;
                    }
                    if byte == 0xF4 {
                        upper = 0x8F;
                    }
                    needed = 3;
                    cp = u32::from(byte & 0x7);
                }
                _ => out.push('\u{FFFD}'),
            }
            continue;
        }
        if !(lower..=upper).contains(&byte) {
            (cp, seen, needed, lower, upper) = (0, 0, 0, 0x80, 0xBF);
            // Restore byte to the queue.
            i -= 1;
            out.push('\u{FFFD}');
            continue;
        }
        (lower, upper) = (0x80, 0xBF);
        cp = (cp << 6) | u32::from(byte & 0x3F);
        seen += 1;
        if seen == needed {
            out.push(char::from_u32(cp).unwrap());
            (cp, seen, needed) = (0, 0, 0);
        }
    }
    out
}

/// The offset of the first error: the decoder's, from its output (the longest prefix
/// that decodes without U+FFFD and ends where a character ends).
fn naive_valid_up_to(src: &[u8]) -> usize {
    (0..=src.len())
        .rev()
        .find(|&n| core::str::from_utf8(&src[..n]).is_ok())
        .unwrap()
}

/// Everything `mem` says about `src` as UTF-8, checked against the oracles.
fn check_utf8(src: &[u8]) {
    let spec = spec_utf8_decode(src);
    // The claim that std's lossy conversion is the Standard's decoder, on this input, and
    // that textcodec's decoder is too.
    assert_eq!(String::from_utf8_lossy(src), spec, "{src:X?}");
    assert_eq!(crate::utf8_decode_without_bom(src), spec, "{src:X?}");
    let units: Vec<u16> = spec.encode_utf16().collect();
    let mut dst = vec![0u16; utf16_max_len_from_utf8(src.len())];
    let (read, written) = utf8_to_utf16_lossy(src, &mut dst);
    assert_eq!((read, &dst[..written]), (src.len(), &units[..]), "{src:X?}");
    assert_eq!(utf8_to_utf16_lossy_vec(src), units);
    assert_eq!(utf16_len_from_utf8_lossy(src), units.len(), "{src:X?}");
    let valid = naive_valid_up_to(src);
    assert_eq!(utf8_valid_up_to(src), valid, "{src:X?}");
    let checked = utf8_to_utf16_checked(src, &mut dst);
    if valid == src.len() {
        assert_eq!(checked, Ok(units.len()));
        let s = core::str::from_utf8(src).unwrap();
        assert_eq!(utf16_len_from_str(s), units.len());
        assert_eq!(char_count_str(s), s.chars().count());
        assert_eq!(str_to_utf16_vec(s), units);
        assert_eq!(is_latin1_str(s), s.chars().all(|c| c <= '\u{FF}'));
    } else {
        let before = core::str::from_utf8(&src[..valid])
            .unwrap()
            .encode_utf16()
            .count();
        assert_eq!(
            checked,
            Err(ConvertError::Invalid {
                valid_up_to: valid,
                written: before
            }),
            "{src:X?}"
        );
    }
    assert_eq!(
        is_latin1_utf8(src),
        valid == src.len() && spec.chars().all(|c| c <= '\u{FF}'),
        "{src:X?}"
    );
    let mut latin1 = vec![0u8; src.len()];
    match utf8_to_latin1(src, &mut latin1) {
        Ok(n) => {
            assert!(valid == src.len());
            assert_eq!(
                &latin1[..n],
                &spec.chars().map(|c| c as u8).collect::<Vec<_>>()[..]
            );
        }
        Err(ConvertError::Invalid {
            valid_up_to,
            written,
        }) => {
            let good = core::str::from_utf8(&src[..valid_up_to]).unwrap();
            assert!(good.chars().all(|c| c <= '\u{FF}'), "{src:X?}");
            assert_eq!(written, good.chars().count());
            let next = core::str::from_utf8(&src[valid_up_to..])
                .map(|s| s.chars().next())
                .unwrap_or_else(|e| {
                    core::str::from_utf8(&src[valid_up_to..valid_up_to + e.valid_up_to()])
                        .unwrap()
                        .chars()
                        .next()
                });
            assert!(next.is_none_or(|c| c > '\u{FF}'), "{src:X?}");
        }
        Err(e) => panic!("{e:?} with room for all"),
    }
    assert_eq!(
        ascii_prefix_len(src),
        src.iter().take_while(|b| b.is_ascii()).count()
    );
    assert_eq!(is_ascii(src), src.is_ascii());
}

/// Bytes that sit on a boundary of the decoder's ranges.
const EDGES: [u8; 24] = [
    0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC,
    0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF,
];

#[test]
fn utf8_sequences_of_edge_bytes_after_every_padding_match_the_standard() {
    // Every sequence of up to three edge bytes, then four (a sample), after 61–64 ASCII
    // bytes (so that it straddles the first 64-byte block), and alone.
    let mut seqs: Vec<Vec<u8>> = vec![vec![]];
    for &a in &EDGES {
        seqs.push(vec![a]);
        for &b in &EDGES {
            seqs.push(vec![a, b]);
            for &c in &EDGES {
                seqs.push(vec![a, b, c]);
            }
        }
    }
    for (i, &a) in EDGES.iter().enumerate() {
        for &d in EDGES.iter().skip(i % 5).step_by(5) {
            seqs.push(vec![a, 0x9F, 0xBF, d]);
            seqs.push(vec![a, 0x90, 0x80, d]);
        }
    }
    for seq in &seqs {
        check_utf8(seq);
        for pad in [61, 64] {
            let mut src = vec![b'x'; pad];
            src.extend_from_slice(seq);
            src.extend_from_slice(b" tail");
            check_utf8(&src);
        }
    }
}

#[test]
fn every_two_byte_input_matches_the_standard() {
    for a in 0..=255u8 {
        for b in 0..=255u8 {
            let src = [a, b];
            let spec = spec_utf8_decode(&src);
            assert_eq!(String::from_utf8_lossy(&src), spec);
            assert_eq!(
                utf8_to_utf16_lossy_vec(&src),
                spec.encode_utf16().collect::<Vec<_>>()
            );
        }
    }
}

/// Mixed text of every UTF-8 length, with ASCII runs, `len` bytes or a little less.
fn mixed(len: usize) -> String {
    let parts = [
        "Grüße, ",
        "текст ",
        "中文字 ",
        "😀🎉 ",
        "plain ASCII words here ",
        "é",
    ];
    let mut s = String::new();
    let mut i = 0;
    while s.len() + parts[i % parts.len()].len() <= len {
        s.push_str(parts[i % parts.len()]);
        i += 1;
    }
    s
}

#[test]
fn utf8_errors_at_every_offset_of_a_long_text() {
    let text = mixed(300);
    for bad in [
        &b"\xFF"[..],
        b"\xC3",
        b"\xE2\x82",
        b"\xED\xA0\x80",
        b"\xF4\x90\x80\x80",
        b"\xF0\x9F\x98",
    ] {
        for at in 0..text.len() {
            let mut src = text.as_bytes()[..at].to_vec();
            src.extend_from_slice(bad);
            src.extend_from_slice(&text.as_bytes()[at..]);
            check_utf8(&src);
            // And at the very end.
            check_utf8(&src[..at + bad.len()]);
        }
    }
}

#[test]
fn utf8_to_utf16_resumes_exactly_after_every_room() {
    let mut text = mixed(200).into_bytes();
    text.splice(100..100, *b"\xE2\x82 \xFF");
    text.extend_from_slice(b"\xF0\x9F");
    let whole = utf8_to_utf16_lossy_vec(&text);
    for room in 1..40 {
        let (mut read, mut out) = (0, Vec::new());
        let mut dst = vec![0u16; room];
        while read < text.len() {
            let (r, w) = utf8_to_utf16_lossy(&text[read..], &mut dst);
            assert!(r + w > 0 || room < 2, "stuck at {read} with room {room}");
            if r + w == 0 {
                break;
            }
            out.extend_from_slice(&dst[..w]);
            read += r;
        }
        if room >= 2 {
            assert_eq!(out, whole, "room {room}");
        }
        // Checked: full means full, with what fitted written.
        let s = mixed(200);
        match utf8_to_utf16_checked(s.as_bytes(), &mut dst) {
            Ok(n) => assert_eq!(&dst[..n], &s.encode_utf16().collect::<Vec<_>>()[..]),
            Err(ConvertError::OutputFull { read, written }) => {
                assert_eq!(
                    &dst[..written],
                    &s[..read].encode_utf16().collect::<Vec<_>>()[..]
                );
                let (r, w) = str_to_utf16(&s, &mut dst);
                assert_eq!((r, w), (read, written));
            }
            Err(e) => panic!("{e:?}"),
        }
    }
}

/// The USVString conversion, naively.
fn naive_well_formed(src: &[u16]) -> String {
    char::decode_utf16(src.iter().copied())
        .map(|r| r.unwrap_or('\u{FFFD}'))
        .collect()
}

fn check_utf16(src: &[u16]) {
    let lossy = naive_well_formed(src);
    let mut dst = vec![0u8; utf8_max_len_from_utf16(src.len())];
    let (read, written) = utf16_to_utf8_lossy(src, &mut dst);
    assert_eq!(
        (read, &dst[..written]),
        (src.len(), lossy.as_bytes()),
        "{src:X?}"
    );
    assert_eq!(utf16_to_string_lossy(src), lossy);
    assert_eq!(utf8_len_from_utf16_lossy(src), lossy.len(), "{src:X?}");
    assert_eq!(char_count_utf16(src), lossy.chars().count(), "{src:X?}");
    let valid = char::decode_utf16(src.iter().copied())
        .take_while(Result::is_ok)
        .map(|r| r.unwrap().len_utf16())
        .sum::<usize>();
    assert_eq!(utf16_valid_up_to(src), valid, "{src:X?}");
    let checked = utf16_to_utf8_checked(src, &mut dst);
    if valid == src.len() {
        assert_eq!(checked, Ok(lossy.len()));
        assert_eq!(utf8_len_from_utf16(src), lossy.len());
    } else {
        let before = String::from_utf16(&src[..valid]).unwrap().len();
        assert_eq!(
            checked,
            Err(ConvertError::Invalid {
                valid_up_to: valid,
                written: before
            })
        );
    }
    let mut fixed = src.to_vec();
    let lone = utf16_make_well_formed(&mut fixed);
    assert_eq!(fixed, lossy.encode_utf16().collect::<Vec<_>>(), "{src:X?}");
    assert_eq!(
        lone,
        lossy.chars().filter(|&c| c == '\u{FFFD}').count()
            - src.iter().filter(|&&u| u == 0xFFFD).count()
    );
    assert_eq!(is_latin1_utf16(src), src.iter().all(|&u| u < 0x100));
    assert_eq!(is_ascii_utf16(src), src.iter().all(|&u| u < 0x80));
    assert_eq!(
        ascii_prefix_len_utf16(src),
        src.iter().take_while(|&&u| u < 0x80).count()
    );
    let mut narrow = vec![0u8; src.len()];
    match utf16_to_latin1(src, &mut narrow) {
        Ok(n) => assert_eq!(
            narrow[..n]
                .iter()
                .map(|&b| u16::from(b))
                .collect::<Vec<_>>(),
            src
        ),
        Err(ConvertError::Invalid { valid_up_to, .. }) => {
            assert_eq!(valid_up_to, src.iter().position(|&u| u > 0xFF).unwrap());
        }
        Err(e) => panic!("{e:?}"),
    }
}

#[test]
fn utf16_lone_surrogates_at_every_offset_of_a_long_text() {
    let text: Vec<u16> = mixed(300).encode_utf16().collect();
    check_utf16(&text);
    for bad in [0xD800u16, 0xDBFF, 0xDC00, 0xDFFF] {
        for at in 0..text.len() {
            let mut src = text.clone();
            src.insert(at, bad);
            check_utf16(&src);
            // Replacing a unit (half of a pair, sometimes) instead.
            let mut src = text.clone();
            src[at] = bad;
            check_utf16(&src);
            check_utf16(&src[..at + 1]);
        }
    }
}

#[test]
fn utf16_short_inputs_of_edge_units() {
    let edges = [
        0x0u16, 0x7F, 0x80, 0xFF, 0x100, 0x7FF, 0x800, 0xD7FF, 0xD800, 0xDBFF, 0xDC00, 0xDFFF,
        0xE000, 0xFFFD, 0xFFFF,
    ];
    check_utf16(&[]);
    for &a in &edges {
        check_utf16(&[a]);
        for &b in &edges {
            check_utf16(&[a, b]);
            for &c in &edges {
                check_utf16(&[a, b, c]);
            }
        }
    }
}

#[test]
fn utf16_to_utf8_resumes_exactly_after_every_room() {
    let mut text: Vec<u16> = mixed(200).encode_utf16().collect();
    text.insert(90, 0xDC00);
    text.push(0xD800);
    let whole = naive_well_formed(&text);
    for room in 4..40 {
        let (mut read, mut out) = (0, Vec::new());
        let mut dst = vec![0u8; room];
        while read < text.len() {
            let (r, w) = utf16_to_utf8_lossy(&text[read..], &mut dst);
            assert!(r > 0, "stuck at {read} with room {room}");
            out.extend_from_slice(&dst[..w]);
            read += r;
        }
        assert_eq!(out, whole.as_bytes(), "room {room}");
    }
    // Too little room for the next character: nothing written, nothing changed.
    let mut dst = [0xAAu8; 2];
    assert_eq!(utf16_to_utf8_lossy(&[0x20AC], &mut dst), (0, 0));
    assert_eq!(utf16_to_utf8_lossy(&[0xD800], &mut dst), (0, 0));
    assert_eq!(dst, [0xAA; 2]);
    assert_eq!(
        utf16_to_utf8_checked(&[0x41, 0x20AC], &mut dst),
        Err(ConvertError::OutputFull {
            read: 1,
            written: 1
        })
    );
}

#[test]
fn latin1_converts_every_byte_at_every_offset() {
    let all: Vec<u8> = (0..=255).collect();
    let mut long = b"The quick brown fox jumps over the lazy dog. ".repeat(3);
    long.extend_from_slice(&all);
    long.extend_from_slice(&b"caf\xE9 na\xEFve ".repeat(20));
    for src in [&all[..], &long[..], &[][..]] {
        let naive: String = src.iter().map(|&b| char::from(b)).collect();
        let mut dst = vec![0u8; utf8_max_len_from_latin1(src.len())];
        let (read, written) = latin1_to_utf8(src, &mut dst);
        assert_eq!((read, &dst[..written]), (src.len(), naive.as_bytes()));
        assert_eq!(latin1_to_string(src), naive);
        assert_eq!(utf8_len_from_latin1(src), naive.len());
        let mut wide = vec![0u16; src.len()];
        assert_eq!(latin1_to_utf16(src, &mut wide), src.len());
        assert_eq!(wide, naive.encode_utf16().collect::<Vec<_>>());
        let mut back = vec![0u8; src.len()];
        assert_eq!(utf16_to_latin1(&wide, &mut back), Ok(src.len()));
        assert_eq!(back, src);
        assert_eq!(utf8_to_latin1(naive.as_bytes(), &mut back), Ok(src.len()));
        assert_eq!(back, src);
        assert!(
            is_latin1_str(&naive) && is_latin1_utf8(naive.as_bytes()) && is_latin1_utf16(&wide)
        );
        // Every room: whole characters, and the rest converts after.
        for room in 0..40 {
            let mut small = vec![0u8; room];
            let (r, w) = latin1_to_utf8(src, &mut small);
            let part: String = src[..r].iter().map(|&b| char::from(b)).collect();
            assert_eq!(&small[..w], part.as_bytes());
            if r < src.len() {
                assert!(w + char::from(src[r]).len_utf8() > room);
            }
        }
    }
    // A character above U+00FF at every offset.
    let text = "Grüße aus Köln, très bien. ".repeat(4);
    for at in (0..text.len()).filter(|&i| text.is_char_boundary(i)) {
        let s = [&text[..at], "€", &text[at..]].concat();
        check_utf8(s.as_bytes());
        let wide: Vec<u16> = s.encode_utf16().collect();
        check_utf16(&wide);
        assert!(!is_latin1_str(&s));
    }
}

#[test]
fn empty_inputs_and_outputs() {
    check_utf8(b"");
    check_utf16(&[]);
    assert_eq!(str_to_utf16("", &mut []), (0, 0));
    assert_eq!(str_to_utf16("a", &mut []), (0, 0));
    assert_eq!(utf8_to_utf16_lossy(b"\xFF", &mut []), (0, 0));
    assert_eq!(
        utf8_to_utf16_checked(b"a", &mut []),
        Err(ConvertError::OutputFull {
            read: 0,
            written: 0
        })
    );
    assert_eq!(
        utf8_to_latin1(b"a", &mut []),
        Err(ConvertError::OutputFull {
            read: 0,
            written: 0
        })
    );
    assert_eq!(
        utf8_to_latin1(b"\xC3\xA9", &mut []),
        Err(ConvertError::OutputFull {
            read: 0,
            written: 0
        })
    );
    assert_eq!(latin1_to_utf8(b"\xE9", &mut [0]), (0, 0));
    assert_eq!(latin1_to_utf16(b"ab", &mut []), 0);
    assert_eq!(
        utf16_to_latin1(&[0x41], &mut []),
        Err(ConvertError::OutputFull {
            read: 0,
            written: 0
        })
    );
    assert_eq!(utf16_make_well_formed(&mut []), 0);
    assert!(is_ascii(b"") && is_ascii_utf16(&[]) && is_latin1_str("") && is_latin1_utf8(b""));
    assert_eq!(
        ConvertError::Invalid {
            valid_up_to: 3,
            written: 1
        }
        .to_string(),
        "invalid input at offset 3"
    );
    assert_eq!(utf8_max_len_from_utf16(usize::MAX), usize::MAX);
}
