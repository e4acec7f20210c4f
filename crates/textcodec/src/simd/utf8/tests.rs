use super::super::dispatch::available_levels;
use super::super::level::Level;
use super::*;
use crate::simd::test_slots as slots;
use alloc::vec::Vec;

/// Deliberately naive oracle: the Standard's UTF-8 decoder steps, one byte at a time,
/// returning where the first error begins (the valid prefix).
fn naive_valid_prefix(src: &[u8]) -> usize {
    let (mut needed, mut seen, mut lower, mut upper) = (0, 0, 0x80, 0xBF);
    let mut start = 0;
    for (i, &b) in src.iter().enumerate() {
        if needed == 0 {
            start = i;
            match b {
                0x00..=0x7F => continue,
                0xC2..=0xDF => needed = 1,
                0xE0..=0xEF => {
                    if b == 0xE0 {
                        lower = 0xA0;
                    }
                    if b == 0xED {
                        upper = 0x9F;
                    }
                    needed = 2;
                }
                0xF0..=0xF4 => {
                    if b == 0xF0 {
                        lower = 0x90;
                    }
                    if b == 0xF4 {
                        upper = 0x8F;
                    }
                    needed = 3;
                }
                _ => return i,
            }
            continue;
        }
        if b < lower || b > upper {
            return start;
        }
        lower = 0x80;
        upper = 0xBF;
        seen += 1;
        if seen == needed {
            needed = 0;
            seen = 0;
        }
    }
    if needed == 0 {
        src.len()
    } else {
        start
    }
}

/// `valid_prefix_len_with(k, src)`, checking on the way that the one-pass copy (where
/// the level has one) finds the same length, copies exactly that prefix, and writes
/// nothing past it.
fn valid_prefix_checking_copy(k: &Level, src: &[u8]) -> usize {
    let n = valid_prefix_len_with(k, src);
    let mut dst = alloc::vec![0xAAu8; src.len() + 8];
    if let Some(copied) = copy_valid_prefix_with(k, src, slots(&mut dst[..src.len()])) {
        assert_eq!(copied, n, "{k:?}: copy's valid length");
        assert_eq!(&dst[..n], &src[..n], "{k:?}: copied bytes");
        assert!(
            dst[n..].iter().all(|&b| b == 0xAA),
            "{k:?}: written past {n}"
        );
    }
    n
}

/// Naive UTF-16 of valid UTF-8: the textbook bit arithmetic, one character at a time.
fn naive_utf16(src: &[u8]) -> Vec<u16> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < src.len() {
        let b = u32::from(src[i]);
        let (len, mut cp) = match b {
            0..=0x7F => (1, b),
            0xC0..=0xDF => (2, b & 0x1F),
            0xE0..=0xEF => (3, b & 0x0F),
            _ => (4, b & 0x07),
        };
        for k in 1..len {
            cp = (cp << 6) | (u32::from(src[i + k]) & 0x3F);
        }
        if cp >= 0x10000 {
            out.push((0xD800 + ((cp - 0x10000) >> 10)) as u16);
            out.push((0xDC00 + (cp & 0x3FF)) as u16);
        } else {
            out.push(cp as u16);
        }
        i += len;
    }
    out
}

/// Texts of every character length, mixed so that characters straddle every
/// position of a vector.
fn samples() -> Vec<Vec<u8>> {
    let pieces = [
        "a",
        "é",
        "ж",
        "€",
        "日本",
        "😀",
        "\u{7FF}",
        "\u{800}",
        "\u{FFFF}",
        "\u{10FFFF}",
    ];
    // Without 4-byte characters too: the AVX-512 conversion leaves blocks with them to
    // the scalar twin.
    let bmp: Vec<&str> = pieces.iter().copied().filter(|p| p.len() < 4).collect();
    // One- and two-byte characters only (Latin, Greek, Cyrillic … text).
    let two: Vec<&str> = pieces.iter().copied().filter(|p| p.len() < 3).collect();
    let mut out = Vec::new();
    for pieces in [&pieces[..], &bmp[..], &two[..]] {
        for seed in 0..pieces.len() {
            let mut s = alloc::string::String::new();
            let mut k = seed;
            while s.len() < 220 {
                s.push_str(pieces[k % pieces.len()]);
                k = (k * 7 + 3) % 1009;
            }
            out.push(s.into_bytes());
        }
    }
    out.push(alloc::vec![b'x'; 220]);
    out
}

/// Bytes that break UTF-8 in every way the Standard distinguishes.
const BAD: &[&[u8]] = &[
    b"\x80",
    b"\xBF",
    b"\xC0\x80",
    b"\xC1\xBF",
    b"\xC2",
    b"\xE0\x80\x80",
    b"\xE0\x9F\xBF",
    b"\xE1\x80",
    b"\xED\xA0\x80",
    b"\xED\xBF\xBF",
    b"\xEF\xBF",
    b"\xF0\x80\x80\x80",
    b"\xF0\x8F\xBF\xBF",
    b"\xF4\x90\x80\x80",
    b"\xF5\x80\x80\x80",
    b"\xFF",
    b"\xF1\x80\x80",
    b"\xF8\x88\x80\x80\x80",
    b"\xC2\xC2",
];

#[test]
fn validation_matches_the_naive_oracle() {
    let (step, lens) = if cfg!(miri) { (37, 70) } else { (1, 200) };
    for k in available_levels() {
        for text in samples()
            .into_iter()
            .take(if cfg!(miri) { 3 } else { usize::MAX })
        {
            for len in (0..lens.min(text.len())).step_by(if cfg!(miri) { 13 } else { 1 }) {
                let valid = &text[..len];
                assert_eq!(
                    valid_prefix_checking_copy(k, valid),
                    naive_valid_prefix(valid),
                    "{k:?} {len}"
                );
                for bad in BAD {
                    for at in (0..=len).step_by(step) {
                        let mut buf = valid[..at].to_vec();
                        buf.extend_from_slice(bad);
                        buf.extend_from_slice(&valid[at..]);
                        assert_eq!(
                            valid_prefix_checking_copy(k, &buf),
                            naive_valid_prefix(&buf),
                            "{k:?} {len} {at} {bad:x?}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn one_pass_copy_takes_every_layout_but_the_aliasing_ones() {
    // One arena, the output at chosen offsets after the input modulo 4096: the copy runs
    // in one pass unless the output starts 1-191 bytes after the input (then `None`, and
    // the caller validates and copies in two passes).
    let text: Vec<u8> = "Grüße, 日本語 😀 and ASCII. ".repeat(40).into_bytes();
    let mut arena = alloc::vec![0u8; 3 * 4096 + text.len()];
    let src_at = 4096 - (arena.as_ptr() as usize % 4096);
    arena[src_at..src_at + text.len()].copy_from_slice(&text);
    for k in available_levels() {
        for gap in [0usize, 1, 64, 191, 192, 256, 2048, 4032, 4095] {
            let dst_at = src_at + text.len().next_multiple_of(4096) + gap;
            let (head, tail) = arena.split_at_mut(dst_at);
            let src = &head[src_at..src_at + text.len()];
            let dst = slots(&mut tail[..text.len()]);
            let fused = matches!(k.name(), "avx2" | "simd128");
            match copy_valid_prefix_with(k, src, dst) {
                Some(n) => {
                    assert!(fused && !(1..192).contains(&gap), "{k:?} {gap}");
                    assert_eq!(n, text.len(), "{k:?} {gap}");
                    assert_eq!(&tail[..n], &text[..], "{k:?} {gap}");
                }
                None => assert!(!fused || (1..192).contains(&gap), "{k:?} {gap}"),
            }
        }
    }
}

#[test]
fn validation_matches_the_oracle_on_every_short_sequence() {
    if cfg!(miri) {
        return;
    }
    // Every 1- and 2-byte string and a sweep of 3-/4-byte ones, after ASCII padding
    // of every length up to two vectors so each straddles the block boundaries.
    let interesting: Vec<u8> = (0..=255u8)
        .filter(|b| b % 16 == 0 || b % 16 == 15 || matches!(b, 0xC1..=0xC2 | 0xDF..=0xE1 | 0xEC..=0xEE | 0xF3..=0xF5 | 0x8F..=0x90 | 0x9F..=0xA0))
        .collect();
    for k in available_levels() {
        for pad in [0usize, 29, 30, 31, 32, 33, 61, 62, 63, 64, 65] {
            let mut buf = alloc::vec![b'.'; pad];
            let mut dst = alloc::vec![0u16; pad + 80];
            for &a in &interesting {
                for &b in &interesting {
                    for &c in &[0x80u8, 0xBF, b'z'] {
                        for &d in &[0x80u8, b'z'] {
                            buf.truncate(pad);
                            buf.extend_from_slice(&[a, b, c, d]);
                            buf.extend_from_slice(&[b'.'; 70]);
                            let valid = naive_valid_prefix(&buf);
                            assert_eq!(
                                valid_prefix_checking_copy(k, &buf),
                                valid,
                                "{k:?} {pad} {a:x} {b:x} {c:x} {d:x}"
                            );
                            if matches!(k.name(), "sse2" | "scalar") {
                                let (r, w) = validate_to_utf16_with(k, &buf, slots(&mut dst));
                                assert_eq!(r, valid, "{k:?} {pad} {a:x} {b:x} {c:x} {d:x}");
                                assert_eq!(&dst[..w], &naive_utf16(&buf[..r])[..]);
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn to_utf16_handles_characters_straddling_every_window_position() {
    let pads = if cfg!(miri) { 0..3 } else { 0..70 };
    for k in available_levels() {
        for pad in pads.clone() {
            for piece in ["é", "€", "😀"] {
                let mut s = alloc::string::String::from("a").repeat(pad);
                while s.len() < pad + 100 {
                    s.push_str(piece);
                }
                s.push_str(&"b".repeat(40));
                let expected = naive_utf16(s.as_bytes());
                let mut dst = alloc::vec![0u16; expected.len() + 32];
                let (r, w) = to_utf16_with(k, &s, slots(&mut dst));
                assert_eq!(
                    (r, &dst[..w]),
                    (s.len(), &expected[..]),
                    "{k:?} {pad} {piece}"
                );
            }
        }
    }
}

#[test]
fn to_utf16_matches_the_naive_oracle() {
    let step = if cfg!(miri) { 17 } else { 1 };
    for k in available_levels() {
        for text in samples()
            .into_iter()
            .take(if cfg!(miri) { 3 } else { usize::MAX })
        {
            for start in 0..4 {
                for end in (start..text.len()).step_by(step) {
                    let Ok(s) = core::str::from_utf8(&text[start..end]) else {
                        continue;
                    };
                    let expected = naive_utf16(s.as_bytes());
                    for room in [expected.len(), expected.len() + 40, expected.len() / 2] {
                        let mut dst = alloc::vec![0u16; room];
                        let (r, w) = to_utf16_with(k, s, slots(&mut dst));
                        assert!(s.is_char_boundary(r));
                        assert_eq!(&dst[..w], &naive_utf16(&s.as_bytes()[..r])[..], "{k:?}");
                        // Stopped only for room: the next character would not fit.
                        if r < s.len() {
                            let c = s[r..].chars().next().unwrap();
                            assert!(w + c.len_utf16() > room, "{k:?} {r} {w} {room}");
                        }
                    }
                }
            }
        }
    }
}

/// Runs of ASCII and of one other character length, of lengths that put every kind of
/// boundary at every position of a 64-byte block: 2-byte-only stretches, 3-byte ones,
/// 4-byte ones, ASCII runs longer than a block (the ASCII step realigns the output).
fn runs() -> Vec<Vec<u8>> {
    let pieces = [
        "é",
        "ж",
        "\u{7FF}",
        "€",
        "日",
        "\u{FFFF}",
        "😀",
        "\u{10FFFF}",
    ];
    let mut out = Vec::new();
    let mut seed = 7u32;
    let mut next = |m: u32| {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
        (seed >> 16) % m
    };
    for round in 0..if cfg!(miri) { 2 } else { 24 } {
        let mut s = alloc::string::String::new();
        while s.len() < 600 {
            let ascii = next(if round % 3 == 0 { 200 } else { 40 });
            for k in 0..ascii {
                s.push(char::from(b'a' + (k % 26) as u8));
            }
            // Mostly 1- and 2-byte characters in a third of the texts.
            let kinds = if round % 3 == 1 {
                2
            } else {
                pieces.len() as u32
            };
            let piece = pieces[next(kinds) as usize];
            for _ in 0..next(50) {
                s.push_str(piece);
            }
        }
        out.push(s.into_bytes());
    }
    out
}

/// The fused kernel's contract (a valid prefix, converted, ending on a boundary, short
/// of the valid prefix by at most a block and a character, or of the end by the last
/// 64 bytes), and the whole decode that `Utf16Sink::copy_valid_utf8` makes of it:
/// fused prefix, then validation and conversion of the rest.
#[test]
fn validate_to_utf16_matches_the_naive_oracle() {
    let step = if cfg!(miri) { 61 } else { 1 };
    for k in available_levels() {
        for text in runs().into_iter().chain(samples()) {
            for start in 0..3 {
                let text = &text[start..];
                let bad_at = (0..text.len()).step_by(step * 7).map(Some).chain([None]);
                for (n, at) in bad_at.enumerate() {
                    let mut buf = text.to_vec();
                    if let Some(at) = at {
                        let bad = BAD[n % BAD.len()];
                        buf.splice(at..at, bad.iter().copied());
                    }
                    let valid = naive_valid_prefix(&buf);
                    let expected = naive_utf16(&buf[..valid]);
                    for room in [expected.len() + 64, expected.len(), expected.len() / 2] {
                        let mut dst = alloc::vec![0u16; room];
                        let (r, w) = validate_to_utf16_with(k, &buf, slots(&mut dst));
                        assert!(r <= valid, "{k:?} {at:?} {r} {valid}");
                        assert!(core::str::from_utf8(&buf[..r]).is_ok());
                        assert_eq!(&dst[..w], &naive_utf16(&buf[..r])[..], "{k:?} {at:?}");
                        if k.name() == "scalar" && room >= expected.len() {
                            // The scalar pass stops only at the first error or the end.
                            assert_eq!(r, valid, "{k:?} {at:?}");
                        }
                        if k.name() == "sse2" && room >= expected.len() + 4 {
                            // At the first error, or in the last 7 bytes.
                            assert!(r == valid || r + 8 > buf.len(), "{k:?} {at:?} {r}");
                        }
                        if k.name() == "avx512" && room >= expected.len() + 64 {
                            // Stops only at the block with the error or at the end.
                            assert!(r + 64 + 3 >= valid.min(buf.len() - 63), "{r} {valid}");
                        }
                        // The rest as `copy_valid_utf8` does it.
                        let rest = valid_prefix_len_with(k, &buf[r..]);
                        let rest = core::str::from_utf8(&buf[r..r + rest]).unwrap();
                        let (r2, w2) = to_utf16_with(k, rest, slots(&mut dst[w..]));
                        if room >= expected.len() {
                            assert_eq!(r + r2, valid, "{k:?} {at:?}");
                            assert_eq!(&dst[..w + w2], &expected[..], "{k:?} {at:?}");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn to_utf16_matches_the_oracle_on_runs() {
    for k in available_levels() {
        for text in runs() {
            for start in 0..4 {
                let Ok(s) = core::str::from_utf8(&text[start..]) else {
                    continue;
                };
                let expected = naive_utf16(s.as_bytes());
                for room in [expected.len(), expected.len() + 64, expected.len() / 3] {
                    let mut dst = alloc::vec![0u16; room];
                    let (r, w) = to_utf16_with(k, s, slots(&mut dst));
                    assert_eq!(&dst[..w], &naive_utf16(&s.as_bytes()[..r])[..], "{k:?}");
                    if r < s.len() {
                        let c = s[r..].chars().next().unwrap();
                        assert!(w + c.len_utf16() > room, "{k:?} {r} {w} {room}");
                    }
                }
            }
        }
    }
}

/// A run of three-byte characters with one bad three-byte form (overlong, surrogate, a
/// continuation missing or a lead out of range) at every character position: every
/// level's one-pass conversion and validation stop exactly before it (the SSE2 kernel
/// converts five such characters per vector step and checks them in the vector).
#[test]
fn three_byte_runs_stop_at_every_bad_form() {
    let bad: [&[u8]; 6] = [
        b"\xE0\x80\x80",
        b"\xE0\x9F\xBF",
        b"\xED\xA0\x80",
        b"\xED\xBF\xBF",
        b"\xE6\x97\x41",
        b"\xF0\x97\xA5",
    ];
    for k in available_levels() {
        for lead in 0..3 {
            for at in 0..12 {
                for form in bad {
                    let mut buf = b"a".repeat(lead);
                    for i in 0..20 {
                        if i == at {
                            buf.extend_from_slice(form);
                        } else {
                            buf.extend_from_slice("日".as_bytes());
                        }
                    }
                    buf.extend_from_slice(&[b'z'; 20]);
                    let valid = lead + 3 * at;
                    assert_eq!(naive_valid_prefix(&buf), valid);
                    assert_eq!(valid_prefix_len_with(k, &buf), valid, "{k:?} {at} {form:?}");
                    let mut dst = alloc::vec![0u16; buf.len() + 16];
                    let (r, w) = validate_to_utf16_with(k, &buf, slots(&mut dst));
                    assert!(r <= valid, "{k:?} {at} {form:?}");
                    assert_eq!(&dst[..w], &naive_utf16(&buf[..r])[..], "{k:?} {at}");
                    if matches!(k.name(), "sse2" | "scalar") {
                        assert_eq!(r, valid, "{k:?} {at} {form:?}");
                    }
                }
            }
        }
    }
}

/// The one-pass copy works in 16 KiB chunks, each validated and copied in one pass or
/// two by its share of ASCII: a character cut by a chunk boundary, and an error just
/// before, at or after one, give the validator's length and bytes, in mostly-ASCII text
/// (two passes) and in text of two- and three-byte characters (one pass), in inputs that
/// end near a boundary.
#[test]
fn copy_valid_prefix_across_chunks() {
    if cfg!(miri) {
        return;
    }
    const CHUNK: usize = 16 * 1024;
    let mut cases = 0;
    for k in available_levels() {
        for filler in ["a", "abcdefgh\u{e9}", "\u{e9}", "\u{65e5}\u{672c}"] {
            for wide in ["\u{20ac}", "\u{1d11e}"] {
                for cut in 1..wide.len() {
                    // `wide` starts `cut` bytes before the first boundary.
                    let mut text = alloc::string::String::new();
                    while text.len() + filler.len() + cut + 8 <= CHUNK {
                        text.push_str(filler);
                    }
                    while text.len() < CHUNK - cut {
                        text.push('a');
                    }
                    text.push_str(wide);
                    while text.len() < 2 * CHUNK + 300 {
                        text.push_str(filler);
                    }
                    let bytes = text.as_bytes();
                    for bad in [
                        None,
                        Some(CHUNK - 5),
                        Some(CHUNK - 1),
                        Some(CHUNK),
                        Some(CHUNK + 2),
                        Some(2 * CHUNK + 1),
                    ] {
                        let mut src = bytes.to_vec();
                        if let Some(at) = bad {
                            src[at] = 0xFF;
                        }
                        for len in [src.len(), CHUNK - 1, CHUNK + 1, 2 * CHUNK + 2] {
                            let src = &src[..len];
                            let want = naive_valid_prefix(src);
                            assert_eq!(
                                valid_prefix_checking_copy(k, src),
                                want,
                                "{k:?} {filler:?} {wide:?} {cut} {bad:?} {len}"
                            );
                            cases += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(cases > 0);
}

/// Long near-ASCII input (the AVX-512 validator's loop for it skips ASCII blocks after a
/// character boundary): a lead byte cut off by ASCII at the end of a block, one or two
/// bytes before it, or at a block's start; a whole character there instead; at every
/// level the validator stops where the oracle does.
#[test]
fn validation_of_long_ascii_text_stops_at_cut_characters() {
    if cfg!(miri) {
        return;
    }
    let mut cases = 0;
    for k in available_levels() {
        for len in [4096, 8192 + 100] {
            for at in [1023, 1024, 2047, 4031, len - 1025, len - 70] {
                for back in 0..4 {
                    for seq in [
                        &b"\xC3"[..],
                        b"\xE3\x81",
                        b"\xF0\x9F\x98",
                        b"\xC3\xA9",
                        b"\xE3\x81\x82",
                    ] {
                        let mut src = alloc::vec![b'a'; len];
                        let start = at - back;
                        src[start..start + seq.len()].copy_from_slice(seq);
                        let want = naive_valid_prefix(&src);
                        assert_eq!(
                            valid_prefix_len_with(k, &src),
                            want,
                            "{k:?} {len} {at} {back} {seq:02X?}"
                        );
                        cases += 1;
                    }
                }
            }
        }
    }
    assert!(cases > 0);
}

/// Long text of multi-byte characters (the AVX-512 validator checks every block of it in
/// full, with no ASCII test and no note of where a character ends): an ASCII run after a
/// cut character, a stray continuation, an overlong form, a surrogate, a byte never in
/// UTF-8, each at and around block boundaries; at every level the validator stops where
/// the oracle does.
#[test]
fn validation_of_long_non_ascii_text_stops_where_the_oracle_does() {
    if cfg!(miri) {
        return;
    }
    let mut cases = 0;
    for k in available_levels() {
        for filler in ["\u{65e5}\u{672c}", "\u{e9}t\u{e9}", "\u{1f600}\u{3b1}"] {
            let mut text = alloc::string::String::new();
            while text.len() < 8192 + 100 {
                text.push_str(filler);
            }
            let len = text.len();
            for at in [
                64,
                1023,
                1024,
                2047,
                4032,
                4095,
                4096,
                len - 1025,
                len - 70,
                len - 3,
            ] {
                for bad in [
                    &b"\xE6aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"[..],
                    b"\xF0\x9F\x98a",
                    b"\x80",
                    b"\xC0\x80",
                    b"\xED\xA0\x80",
                    b"\xFF",
                    b"aaaa",
                ] {
                    let mut src = text.as_bytes().to_vec();
                    let end = (at + bad.len()).min(len);
                    src[at..end].copy_from_slice(&bad[..end - at]);
                    let want = naive_valid_prefix(&src);
                    assert_eq!(
                        valid_prefix_len_with(k, &src),
                        want,
                        "{k:?} {filler:?} {at} {bad:02X?}"
                    );
                    cases += 1;
                }
            }
        }
    }
    assert!(cases > 0);
}
