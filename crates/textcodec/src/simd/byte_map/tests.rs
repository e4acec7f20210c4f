use super::super::dispatch::available_levels;
use super::super::level::Level;
use super::*;
use crate::index::byte_map::{has_error_bytes, hot_pairs, linear_range, utf8_table};
use crate::simd::test_slots as slots;
use alloc::vec::Vec;

/// A table exercising every path: ASCII identity, errors, two- and three-byte
/// characters, a surrogate (never in an index, must be refused).
fn table() -> [u16; 256] {
    let mut t = [0u16; 256];
    for (b, slot) in t.iter_mut().enumerate() {
        let b16 = b as u16;
        *slot = match b {
            0..=0x7F => b16,
            0x81 | 0x9D => 0,            // errors
            0x8F => 0xD800,              // a surrogate
            0x80..=0x9F => 0x2000 + b16, // three bytes
            0xA0..=0xDF => b16,          // two bytes (Latin-1)
            _ => 0x0400 + (b16 - 0xE0),  // two bytes (Cyrillic)
        };
    }
    t
}

/// Naive oracle: byte by byte, stopping at the first error.
fn naive(src: &[u8], units: &[u16; 256]) -> (Vec<u16>, usize) {
    let mut out = Vec::new();
    for (i, &b) in src.iter().enumerate() {
        let u = units[usize::from(b)];
        if b >= 0x80 && (u == 0 || (0xD800..0xE000).contains(&u)) {
            return (out, i);
        }
        out.push(u);
    }
    (out, src.len())
}

#[test]
fn every_kernel_matches_the_naive_oracle_across_lengths_errors_and_room() {
    let units = table();
    let utf8 = utf8_table(&units);
    let map = ByteMap {
        units: &units,
        utf8: &utf8,
        has_errors: has_error_bytes(&units),
        linear: linear_range(&units),
    };
    let (max_len, err_step) = if cfg!(miri) { (70, 13) } else { (260, 1) };
    // Byte mixes: Latin-like (sparse non-ASCII), dense two-byte, three-byte.
    let mixes: [&dyn Fn(usize) -> u8; 5] = [
        // ASCII runs longer than two 64-byte steps (the ASCII kernel's), and than one.
        &|i| {
            if i % 203 == 202 {
                0xE9
            } else {
                b' ' + (i % 90) as u8
            }
        },
        &|i| {
            if i % 71 == 70 {
                0xE9
            } else {
                b' ' + (i % 90) as u8
            }
        },
        &|i| {
            if i % 7 == 3 {
                0xE9
            } else {
                b'a' + (i % 26) as u8
            }
        },
        &|i| 0xA0 + (i % 0x5F) as u8,
        &|i| [0x80, 0x41, 0xE1, 0x9F, 0x00][i % 5],
    ];
    for k in available_levels() {
        for mix in &mixes {
            for len in 0..max_len {
                let clean: Vec<u8> = (0..len).map(mix).collect();
                for bad in (0..len).step_by(err_step).chain([usize::MAX]) {
                    let mut src = clean.clone();
                    if bad != usize::MAX {
                        src[bad] = [0x81, 0x8F, 0x9D][bad % 3];
                    }
                    let (expected, valid) = naive(&src, &units);
                    for room in [0, len / 2, len, 3 * len + 100] {
                        let mut wide = alloc::vec![0xAAAAu16; room];
                        let n = to_utf16_with(k, &src, &map, slots(&mut wide));
                        check_prefix(k, true, n, valid, len, room >= len);
                        assert_eq!(&wide[..n], &expected[..n], "{k:?} utf16 {len} {bad}");
                        assert!(wide[n..].iter().all(|&u| u == 0xAAAA), "{k:?} wrote past");

                        let mut narrow = alloc::vec![0xAAu8; room];
                        let (read, written) = to_utf8_with(k, &src, &map, slots(&mut narrow));
                        check_prefix(k, false, read, valid, len, room >= 3 * len + 96);
                        let text = core::str::from_utf8(&narrow[..written])
                            .unwrap_or_else(|e| panic!("{k:?} invalid UTF-8 {e}"));
                        let want = String::from_utf16(&expected[..read]).unwrap();
                        assert_eq!(text, want, "{k:?} utf8 {len} {bad} {room}");
                        assert!(narrow[written..].iter().all(|&b| b == 0xAA), "{k:?} past");
                    }
                }
            }
        }
    }
}

/// Every single-byte encoding's table, on text of ASCII and the top quarter (0xC0-0xFF:
/// KOI8-R's and KOI8-U's letters, which the simd128 kernel maps by four lookups when the
/// quarter shares one high byte), with other non-ASCII bytes (errors too, where the table
/// has them) at spacings that leave many whole blocks of the quarter, every length to
/// 300 and room that runs out: every kernel against the oracle.
#[test]
fn top_quarter_text_matches_the_oracle_in_every_single_byte_encoding() {
    let (max_len, len_step) = if cfg!(miri) { (270, 89) } else { (300, 1) };
    for index in crate::Encoding::all()
        .iter()
        .filter_map(|e| e.single_byte_tables())
    {
        let units = &index.decode;
        let map = ByteMap {
            units,
            utf8: &index.utf8,
            has_errors: index.has_errors,
            linear: index.linear,
        };
        for other_every in [0, 37, 150] {
            let mix = |i: usize| -> u8 {
                if other_every != 0 && i % other_every == other_every - 1 {
                    0x80 + (i % 0x40) as u8
                } else if i % 6 == 5 {
                    b' '
                } else {
                    0xC0 + ((i * 13) % 0x40) as u8
                }
            };
            for len in (0..max_len).step_by(len_step) {
                let src: Vec<u8> = (0..len).map(mix).collect();
                let (expected, valid) = naive(&src, units);
                for k in available_levels() {
                    for room in [len / 2, len, len + 16] {
                        let mut wide = alloc::vec![0xAAAAu16; room];
                        let n = to_utf16_with(k, &src, &map, slots(&mut wide));
                        check_prefix(k, true, n, valid, len, room >= len);
                        assert_eq!(&wide[..n], &expected[..n], "{k:?} {len} {other_every}");
                        assert!(wide[n..].iter().all(|&u| u == 0xAAAA), "{k:?} wrote past");
                    }
                }
            }
        }
    }
    // The tables the quarter is for have one.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    for e in [crate::Encoding::Koi8R, crate::Encoding::Koi8U] {
        let index = e.single_byte_tables().unwrap();
        assert!(
            simd128::Quarter::of(&index.decode, index.linear).is_some(),
            "{e:?}"
        );
    }
}

/// A table whose linear range spans a hole of error bytes (as ISO-8859-6's Arabic and
/// windows-874's Thai do): every kernel must stop at a hole byte although the range's
/// arithmetic would map it.
#[test]
fn kernels_stop_at_the_error_bytes_of_a_linear_range_hole() {
    let mut units = [0u16; 256];
    for (b, slot) in units.iter_mut().enumerate() {
        *slot = match b {
            0..=0x7F => b as u16,
            0xD0..=0xD3 => 0,                   // the hole
            0xC0..=0xFF => 0x0600 + b as u16,   // two runs, one offset
            _ => 0x2100 + (b * 37 % 64) as u16, // elsewhere: no run, looked up
        };
    }
    let range = linear_range(&units);
    assert_eq!(
        (range.lo, range.hi, range.hole_lo, range.hole_hi),
        (0xC0, 0xFF, 0xD0, 0xD3)
    );
    let utf8 = utf8_table(&units);
    let map = ByteMap {
        units: &units,
        utf8: &utf8,
        has_errors: has_error_bytes(&units),
        linear: range,
    };
    for k in available_levels() {
        for len in [15, 16, 17, 31, 32, 33, 64, 100] {
            // Letters from both runs, spaces, now and then a byte outside the range.
            let clean: Vec<u8> = (0..len)
                .map(|i| match i % 9 {
                    0 => b' ',
                    4 => 0xA5,
                    j => [0xC1, 0xCF, 0xD4, 0xFE][j % 4],
                })
                .collect();
            for bad in (0..len).chain([usize::MAX]) {
                let mut src = clean.clone();
                if bad != usize::MAX {
                    src[bad] = 0xD0 + (bad % 4) as u8;
                }
                let (expected, valid) = naive(&src, &units);
                let mut wide = alloc::vec![0xAAAAu16; len];
                let n = to_utf16_with(k, &src, &map, slots(&mut wide));
                assert!(n <= valid, "{k:?} read {n} past the error at {valid}");
                assert_eq!(&wide[..n], &expected[..n], "{k:?} utf16 {len} {bad}");
                assert!(wide[n..].iter().all(|&u| u == 0xAAAA), "{k:?} wrote past");
                let mut narrow = alloc::vec![0xAAu8; 3 * len];
                let (read, written) = to_utf8_with(k, &src, &map, slots(&mut narrow));
                assert!(read <= valid, "{k:?} read {read} past the error at {valid}");
                let want = String::from_utf16(&expected[..read]).unwrap();
                assert_eq!(
                    &narrow[..written],
                    want.as_bytes(),
                    "{k:?} utf8 {len} {bad}"
                );
            }
        }
    }
}

/// Maps whose linear range is the whole upper half (x-user-defined's, and one of two-byte
/// characters), which the SSE4 kernel into UTF-8 maps by arithmetic: every level against
/// the oracle, every length and room.
#[test]
fn upper_half_linear_maps_match_the_oracle() {
    for offset in [0xF700u16, 0x0300] {
        let mut units = [0u16; 256];
        for (b, slot) in units.iter_mut().enumerate() {
            *slot = if b < 0x80 {
                b as u16
            } else {
                offset + b as u16
            };
        }
        let range = linear_range(&units);
        assert_eq!((range.lo, range.hi, range.offset), (0x80, 0xFF, offset));
        let utf8 = utf8_table(&units);
        let map = ByteMap {
            units: &units,
            utf8: &utf8,
            has_errors: has_error_bytes(&units),
            linear: range,
        };
        for k in available_levels() {
            for len in 0..if cfg!(miri) { 40 } else { 100 } {
                let src: Vec<u8> = (0..len)
                    .map(|i| {
                        if i % 5 == 2 {
                            b'a' + (i % 26) as u8
                        } else {
                            (i * 37) as u8 | 0x80
                        }
                    })
                    .collect();
                let (expected, valid) = naive(&src, &units);
                assert_eq!(valid, len);
                for room in [0, len, 2 * len + 7, 3 * len + 100] {
                    let mut narrow = alloc::vec![0xAAu8; room];
                    let (read, written) = to_utf8_with(k, &src, &map, slots(&mut narrow));
                    check_prefix(k, false, read, valid, len, room >= 3 * len + 96);
                    let want = String::from_utf16(&expected[..read]).unwrap();
                    assert_eq!(
                        &narrow[..written],
                        want.as_bytes(),
                        "{k:?} {offset:#x} {len}"
                    );
                    assert!(narrow[written..].iter().all(|&b| b == 0xAA), "{k:?} past");
                }
            }
        }
    }
}

/// What a kernel may read (`utf16`: into UTF-16, else UTF-8): nothing (levels without a kernel), or whole blocks up to
/// the first error (taken exactly when its block is whole and, with ample room,
/// reached).
fn check_prefix(k: &Level, utf16: bool, read: usize, valid: usize, len: usize, ample_room: bool) {
    assert!(read <= valid, "{k:?} read {read} past the error at {valid}");
    #[cfg(target_arch = "x86_64")]
    if k.name() == "sse2" && utf16 && ample_room {
        // 16-byte steps, into UTF-16 only.
        assert!(
            read == valid || read + 16 > len,
            "{k:?} stopped early (len {len}, read {read}, valid {valid})"
        );
    }
    #[cfg(target_arch = "x86_64")]
    if matches!(k.name(), "avx512" | "avx2" | "sse4") && ample_room {
        // It goes on while a whole block is left (blocks count from where an ASCII
        // run, taken to its end, stopped).
        assert!(
            read == valid || read + BLOCK > len,
            "{k:?} stopped early (len {len}, read {read}, valid {valid})"
        );
    }
    #[cfg(any(
        all(target_arch = "aarch64", target_endian = "little"),
        all(target_arch = "wasm32", target_feature = "simd128")
    ))]
    if matches!(k.name(), "neon" | "simd128") && ample_room {
        // 16-byte steps.
        assert!(
            read == valid || read + 16 > len,
            "{k:?} stopped early (len {len}, read {read}, valid {valid})"
        );
    }
    let _ = (utf16, len, ample_room);
}

use alloc::string::String;

/// `len` characters from `takeable` but one from `others` at `other_at` (none if out
/// of range), and the byte offset of that one (the text's length if none).
fn mixed_text(len: usize, other_at: usize, takeable: &[char], others: &[char]) -> (String, usize) {
    let text: String = (0..len)
        .map(|i| {
            if i == other_at {
                others[(i / 5 + len) % others.len()]
            } else {
                takeable[(i * 31 + len) % takeable.len()]
            }
        })
        .collect();
    let stop = text
        .char_indices()
        .nth(other_at)
        .map_or(text.len(), |(at, _)| at);
    (text, stop)
}

/// Which encoder kernel is under test.
#[derive(Clone, Copy)]
enum Encoder {
    HotPairs,
    XUserDefined,
}

/// An encoder kernel's step and the output room it needs to take one (its step's worst
/// case plus any scratch bytes it saves and restores), `None` for levels without one
/// (they take nothing).
fn encoder_step(k: &Level, encoder: Encoder) -> Option<(usize, usize)> {
    let _ = encoder;
    match k.name() {
        "avx512" => Some((64, 64)),
        "avx2" if matches!(encoder, Encoder::XUserDefined) => Some((32, 48)),
        "neon" if cfg!(target_endian = "little") => Some((16, 32)),
        _ => None,
    }
}

/// The bytes `text` encodes to, character by character, up to `stop` (`encode` of each
/// character), and for each byte offset up to `stop` that starts a character the length
/// of the output before it.
fn expected_output(text: &str, stop: usize, encode: impl Fn(char) -> u8) -> (Vec<u8>, Vec<usize>) {
    let mut out = Vec::new();
    let mut out_at = alloc::vec![usize::MAX; stop + 1];
    for (at, c) in text[..stop].char_indices() {
        out_at[at] = out.len();
        out.push(encode(c));
    }
    out_at[stop] = out.len();
    (out, out_at)
}

/// Runs one encoder kernel over `text` (at byte `align` of its buffer) into `room` bytes
/// (at byte `align` of theirs, full of 0xAA) and checks the contract: a prefix of whole
/// characters, none past `stop` (the first character it must not take), exactly their
/// bytes, nothing written after them; and that it went as far as its steps allow: up to
/// `stop`, or to where a whole step no longer fits the input or the room.
#[allow(clippy::too_many_arguments)]
fn check_encoder(
    k: &Level,
    encoder: Encoder,
    hot: &HotPairs,
    text: &str,
    stop: usize,
    (want, out_at): (&[u8], &[usize]),
    align: usize,
    room: usize,
) {
    let mut src = alloc::vec![b'!'; align];
    src.extend_from_slice(text.as_bytes());
    let src = &src[align..];
    let mut dst = alloc::vec![0xAAu8; align + room];
    let out = slots(&mut dst[align..]);
    let (read, written) = match encoder {
        Encoder::HotPairs => encode_hot_pairs_with(k, src, hot, out),
        Encoder::XUserDefined => encode_x_user_defined_with(k, src, out),
    };
    let what = match encoder {
        Encoder::HotPairs => "hot pairs",
        Encoder::XUserDefined => "x-user-defined",
    };
    let at = || {
        let len = text.len();
        alloc::format!(
            "{k:?} {what}: len {len} stop {stop} align {align} room {room} read {read} {text:?}"
        )
    };
    assert!(
        read <= stop && text.is_char_boundary(read),
        "{}: read",
        at()
    );
    assert_eq!(written, out_at[read], "{}: written", at());
    assert_eq!(&dst[align..align + written], &want[..written], "{}", at());
    assert!(
        dst[..align]
            .iter()
            .chain(&dst[align + written..])
            .all(|&b| b == 0xAA),
        "{}: wrote outside its output",
        at()
    );
    match encoder_step(k, encoder) {
        Some((step, need)) => assert!(
            read == stop || read + step > text.len() || written + need > room,
            "{}: stopped early",
            at()
        ),
        None => assert_eq!((read, written), (0, 0), "{}", at()),
    }
}

/// The characters a hot-pair kernel must take for `index` (ASCII, hot and mappable), and
/// others it must stop before: three- and four-byte ones, the index's characters outside
/// the hot blocks, and (if any) a hot-block character the index does not map.
fn hot_pair_characters(
    index: &crate::index::SingleByteTables,
    hot: &HotPairs,
) -> (Vec<char>, Vec<char>) {
    let mut takeable: Vec<char> = (0x00u8..0x80).step_by(7).map(char::from).collect();
    let mut others: Vec<char> = alloc::vec!['€', '\u{2013}', '日', '😀', '\u{7FF}', '\u{80}'];
    for b in 0x80..=0xFFu8 {
        let Some(cp) = index.code_point(b) else {
            continue;
        };
        let c = char::from_u32(u32::from(cp)).unwrap();
        let lead = c.encode_utf8(&mut [0; 4]).as_bytes()[0];
        if c.len_utf8() == 2 && hot.leads.contains(&lead) {
            takeable.push(c);
        } else {
            others.push(c);
        }
    }
    for k in 0..4 {
        for t in 0..64u32 {
            let lead = u32::from(hot.leads[k]);
            if lead == 0 || hot.bytes[k * 64 + t as usize] != 0 {
                continue;
            }
            let cp = ((lead & 0x1F) << 6) | t;
            if cp >= 0x80 {
                others.push(char::from_u32(cp).unwrap());
                break;
            }
        }
    }
    // (U+0080 is takeable where the index maps it: ISO-8859-2's C1 controls.)
    others.retain(|c| !takeable.contains(c));
    (takeable, others)
}

/// A single-byte encoder's byte for a character it takes (ASCII or in its index).
fn single_byte_encode(index: &crate::index::SingleByteTables) -> impl Fn(char) -> u8 + '_ {
    |c| {
        if (c as u32) < 0x80 {
            c as u8
        } else {
            index.byte_for(c as u32).unwrap()
        }
    }
}

/// The hot-pair encoder kernel against the index, character by character, over long
/// texts of a few encodings with busy hot blocks: it takes a prefix of whole characters,
/// all ASCII or hot and mappable, writes exactly their bytes, and with room takes every
/// whole step such characters fill.
#[test]
fn hot_pair_encoder_matches_the_index_across_mixes_and_room() {
    use crate::index::single_byte::{ISO_8859_2, WINDOWS_1251, WINDOWS_1252, WINDOWS_1255};
    let indexes = [&WINDOWS_1252, &WINDOWS_1251, &ISO_8859_2, &WINDOWS_1255].map(|i| i.tables());
    let (max_len, step) = if cfg!(miri) { (70, 23) } else { (200, 1) };
    for index in indexes {
        let hot = &hot_pairs(&index.decode);
        let (takeable, others) = hot_pair_characters(index, hot);
        assert!(takeable.len() > 40, "hot blocks too small");
        for len in 0..max_len {
            for other_at in (0..len).step_by(step * 5).chain([usize::MAX]) {
                let (text, stop) = mixed_text(len, other_at, &takeable, &others);
                let (want, out_at) = expected_output(&text, stop, single_byte_encode(index));
                for room in [0, 31, 32, 63, 64, text.len(), text.len() + 64] {
                    for k in available_levels() {
                        let expected = (&want[..], &out_at[..]);
                        check_encoder(k, Encoder::HotPairs, hot, &text, stop, expected, 0, room);
                    }
                }
            }
        }
    }
}

/// The hot-pair encoder kernel in every single-byte encoding (its own hot blocks, however
/// few characters they hold), with a character it must stop before at every position,
/// the text at every alignment within a 16-byte step, and output room around every
/// kernel's thresholds.
#[test]
fn hot_pair_encoder_stops_at_every_position_in_every_single_byte_encoding() {
    let (max_len, step) = if cfg!(miri) { (20, 7) } else { (72, 1) };
    let encodings = crate::Encoding::all()
        .iter()
        .filter_map(|e| e.single_byte_tables());
    for (n, index) in encodings.enumerate() {
        let hot = &hot_pairs(&index.decode);
        let (takeable, others) = hot_pair_characters(index, hot);
        for len in 0..max_len {
            for other_at in (0..len).step_by(step).chain([usize::MAX]) {
                let (text, stop) = mixed_text(len, other_at, &takeable, &others);
                let (want, out_at) = expected_output(&text, stop, single_byte_encode(index));
                let align = (n + len + other_at % 16) % 16;
                let rooms = [0, 16, 31, 32, 33, 48, 63, 64, 65, 95, 96, text.len() + 64];
                for room in rooms {
                    for k in available_levels() {
                        let expected = (&want[..], &out_at[..]);
                        check_encoder(
                            k,
                            Encoder::HotPairs,
                            hot,
                            &text,
                            stop,
                            expected,
                            align,
                            room,
                        );
                    }
                }
            }
        }
    }
}

/// The hot-pair encoder kernel over bytes that are not all UTF-8 (`EncodeWriter` hands it
/// a writer's bytes unchecked): text of hot characters with one malformed piece — a lead
/// without its trail, a lone trail, an overlong or a long lead cut short, bytes never in
/// UTF-8 — at every position. Every kernel takes only whole valid characters, before the
/// piece, and writes exactly their bytes.
#[test]
fn hot_pair_encoder_takes_only_valid_utf8() {
    use crate::index::single_byte::{WINDOWS_1251, WINDOWS_1252};
    let (max_len, step) = if cfg!(miri) { (40, 13) } else { (140, 1) };
    let junk: [&[u8]; 9] = [
        b"\xD0",
        b"\xD0A",
        b"\xD0\xD0",
        b"\x80",
        b"\xBF\x80",
        b"\xC0\xAF",
        b"\xC1\xBF",
        b"\xE3\x81",
        b"\xFF",
    ];
    for index in [&WINDOWS_1251, &WINDOWS_1252].map(|i| i.tables()) {
        let hot = &hot_pairs(&index.decode);
        let (takeable, _) = hot_pair_characters(index, hot);
        for len in 0..max_len {
            let (text, _) = mixed_text(len, usize::MAX, &takeable, &[]);
            for at in (0..=text.len())
                .filter(|&i| text.is_char_boundary(i))
                .step_by(step)
            {
                for piece in junk {
                    let mut src = text.as_bytes()[..at].to_vec();
                    src.extend_from_slice(piece);
                    src.extend_from_slice(&text.as_bytes()[at..]);
                    let (want, out_at) = expected_output(&text, at, single_byte_encode(index));
                    for k in available_levels() {
                        let mut dst = alloc::vec![0xAAu8; src.len() + 64];
                        let (read, written) = encode_hot_pairs_with(k, &src, hot, slots(&mut dst));
                        let what = || alloc::format!("{k:?} at {at} {piece:?} {text:?}");
                        assert!(
                            read <= at && text.is_char_boundary(read),
                            "{}: read {read}",
                            what()
                        );
                        assert_eq!(written, out_at[read], "{}", what());
                        assert_eq!(&dst[..written], &want[..written], "{}", what());
                    }
                }
            }
        }
    }
}

/// What any hot-pair kernel may do with arbitrary bytes: take a prefix that is valid
/// UTF-8 of characters the index maps (ASCII or a two-byte character), write exactly
/// their bytes and nothing past them. Returns a description of the first breach.
fn breach_of_hot_pair_contract(
    index: &crate::index::SingleByteTables,
    src: &[u8],
    (read, written): (usize, usize),
    dst: &[u8],
    room: usize,
) -> Option<alloc::string::String> {
    let Ok(taken) = core::str::from_utf8(src.get(..read)?) else {
        return Some(alloc::format!("read {read}: not valid UTF-8"));
    };
    let mut want = Vec::new();
    for c in taken.chars() {
        let byte = if (c as u32) < 0x80 {
            Some(c as u8)
        } else if c.len_utf8() == 2 {
            index.byte_for(c as u32)
        } else {
            None
        };
        match byte {
            Some(b) => want.push(b),
            None => return Some(alloc::format!("took {c:?}, which it must not")),
        }
    }
    if written != want.len() || dst.get(..written) != Some(&want[..]) {
        return Some(alloc::format!(
            "wrote {:?}, want {want:?}",
            &dst[..written.min(dst.len())]
        ));
    }
    if dst[written..room].iter().any(|&b| b != 0xAA) {
        return Some(alloc::format!("wrote past {written}"));
    }
    None
}

/// Every byte value followed by every trail byte, at the start, the middle and the end of
/// a kernel step, amid hot characters, in every single-byte encoding (whose unused hot
/// slots hold lead 0: a NUL before a lone trail once passed as a character, see
/// SECURITY.md).
#[test]
fn hot_pair_encoder_refuses_a_trail_after_every_byte_value() {
    let trails: Vec<u8> = if cfg!(miri) {
        alloc::vec![0x80, 0xBF]
    } else {
        (0x80..0xC0).collect()
    };
    let firsts: Vec<u8> = if cfg!(miri) {
        alloc::vec![0x00, 0x41, 0xC3, 0xD0]
    } else {
        (0..=0xFF).collect()
    };
    let encodings = crate::Encoding::all()
        .iter()
        .filter_map(|e| Some((e.name(), e.single_byte_tables()?)));
    for (name, index) in encodings {
        let hot = &hot_pairs(&index.decode);
        let (takeable, _) = hot_pair_characters(index, hot);
        // Hot characters first, so the pair lands mid-step after taken text.
        let (text, _) = mixed_text(20, usize::MAX, &takeable, &[]);
        let mut src = Vec::with_capacity(256);
        let mut dst = alloc::vec![0xAAu8; 256];
        for at in [0, 1, 31, 62, 63, 64] {
            for &first in &firsts {
                for &trail in &trails {
                    src.clear();
                    src.extend(text.bytes().chain(core::iter::repeat(b'a')).take(at));
                    src.extend([first, trail]);
                    src.resize(160, b'z');
                    for k in available_levels() {
                        dst.fill(0xAA);
                        let room = dst.len();
                        let done = encode_hot_pairs_with(k, &src, hot, slots(&mut dst));
                        if let Some(breach) =
                            breach_of_hot_pair_contract(index, &src, done, &dst, room)
                        {
                            panic!("{k:?} {name} {first:02X} {trail:02X} at {at}: {breach}");
                        }
                    }
                }
            }
        }
    }
}

/// Random bytes drawn from the values that matter to the kernels (NUL, ASCII, hot and
/// cold leads, trails, three- and four-byte leads, bytes never in UTF-8) in every
/// single-byte encoding, with random output room: the contract above.
#[test]
fn hot_pair_encoder_keeps_its_contract_over_random_bytes() {
    let rounds = if cfg!(miri) { 20 } else { 3000 };
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let alphabet: [u8; 16] = [
        0x00, 0x20, 0x41, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC2, 0xC3, 0xD0, 0xD1, 0xD7, 0xE2, 0xF0,
        0xFF,
    ];
    let indexes: Vec<_> = crate::Encoding::all()
        .iter()
        .filter_map(|e| Some((e.name(), e.single_byte_tables()?)))
        .collect();
    let mut src = Vec::new();
    let mut dst = alloc::vec![0u8; 400];
    for round in 0..rounds {
        let (name, index) = indexes[round % indexes.len()];
        let hot = &hot_pairs(&index.decode);
        let len = (next() % 300) as usize;
        src.clear();
        // Mostly hot characters and ASCII, so kernels get far; random bytes between.
        let (takeable, _) = hot_pair_characters(index, hot);
        while src.len() < len {
            let r = next();
            if r % 4 == 0 {
                src.push(alphabet[(r >> 8) as usize % alphabet.len()]);
            } else {
                let c = takeable[(r >> 8) as usize % takeable.len()];
                src.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            }
        }
        let room = (next() % 400) as usize;
        for k in available_levels() {
            dst.fill(0xAA);
            let done = encode_hot_pairs_with(k, &src, hot, slots(&mut dst[..room]));
            if let Some(breach) = breach_of_hot_pair_contract(index, &src, done, &dst, dst.len()) {
                panic!("{k:?} {name} room {room} {src:02X?}: {breach}");
            }
        }
    }
}

/// The x-user-defined encoder kernel against the Standard's mapping, character by
/// character: a prefix of whole characters, each ASCII or U+F780..=U+F7FF, exactly their
/// bytes, and with room every whole step up to the first other character; that character
/// at every position, the text at every alignment within a 16-byte step, and output room
/// around every kernel's thresholds.
#[test]
fn x_user_defined_encoder_matches_the_mapping_across_mixes_and_room() {
    let (max_len, step) = if cfg!(miri) { (70, 7) } else { (200, 1) };
    let takeable: Vec<char> = (0u32..0x80)
        .step_by(5)
        .chain(0xF780..0xF800)
        .filter_map(char::from_u32)
        .collect();
    // Other three-byte characters with lead EF (second byte next to 9E/9F, and not), and
    // one- to four-byte ones.
    let others = [
        'é', '日', '😀', '\u{F77F}', '\u{F800}', '\u{E000}', '\u{7FF}', '\u{FFFF}', '\u{F700}',
    ];
    let hot = &hot_pairs(&[0; 256]);
    let encode = |c: char| match c as u32 {
        cp @ 0..=0x7F => cp as u8,
        cp => (cp - 0xF780 + 0x80) as u8,
    };
    for len in 0..max_len {
        for other_at in (0..len).step_by(step).chain([usize::MAX]) {
            let (text, stop) = mixed_text(len, other_at, &takeable, &others);
            let (want, out_at) = expected_output(&text, stop, encode);
            let align = (len + other_at % 16) % 16;
            let rooms = [
                0,
                16,
                31,
                32,
                33,
                47,
                48,
                49,
                63,
                64,
                65,
                text.len(),
                text.len() + 64,
            ];
            for room in rooms {
                for k in available_levels() {
                    let expected = (&want[..], &out_at[..]);
                    check_encoder(
                        k,
                        Encoder::XUserDefined,
                        hot,
                        &text,
                        stop,
                        expected,
                        align,
                        room,
                    );
                }
            }
        }
    }
}

/// x-user-defined to UTF-16 against the Standard's arithmetic, every byte value, with
/// lengths and rooms around the step.
#[test]
fn x_user_defined_to_utf16_matches_the_standard() {
    let src: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
    let want: Vec<u16> = src
        .iter()
        .map(|&b| {
            if b < 0x80 {
                u16::from(b)
            } else {
                0xF780 + u16::from(b) - 0x80
            }
        })
        .collect();
    for k in available_levels() {
        for len in [0, 1, 63, 64, 65, 128, 191, 300] {
            for room in [0, 63, 64, len, len + 5] {
                let mut dst = alloc::vec![0xAAAAu16; room];
                let n = x_user_defined_to_utf16_with(k, &src[..len], slots(&mut dst));
                // Whole steps: 64 bytes (AVX-512), 32 (AVX2), 16 (SSE4, SSE2, NEON,
                // simd128); nothing at the scalar level.
                let step = match k.name() {
                    "avx512" => 64,
                    "avx2" => 32,
                    "sse4" | "sse2" => 16,
                    "neon" if cfg!(target_endian = "little") => 16,
                    "simd128" => 16,
                    _ => usize::MAX,
                };
                assert!(n <= len.min(room), "{k:?} {n}");
                assert_eq!(
                    n,
                    len.min(room) / step * step,
                    "{k:?} stopped early or late"
                );
                assert_eq!(&dst[..n], &want[..n], "{k:?} len {len}");
                assert!(dst[n..].iter().all(|&u| u == 0xAAAA), "{k:?} wrote past");
            }
        }
    }
}

/// The arithmetic range of real indexes: where the letters are, and nowhere a byte maps
/// to anything but `byte + offset` inside it.
#[test]
fn linear_ranges_of_the_indexes() {
    use crate::index::byte_map::LinearRange;
    use crate::Encoding;
    let decode = |e: Encoding| -> [u16; 256] {
        let index = e.single_byte_index().unwrap();
        core::array::from_fn(|b| {
            if b < 0x80 {
                b as u16
            } else {
                index.upper_code_point(b - 0x80)
            }
        })
    };
    let range = |lo, hi, offset| LinearRange {
        lo,
        hi,
        offset,
        hole_lo: 1,
        hole_hi: 0,
    };
    let holed = |lo, hi, offset, hole_lo, hole_hi| LinearRange {
        lo,
        hi,
        offset,
        hole_lo,
        hole_hi,
    };
    assert_eq!(
        linear_range(&decode(Encoding::Windows1252)),
        range(0xA0, 0xFF, 0)
    );
    assert_eq!(
        linear_range(&decode(Encoding::Windows1251)),
        range(0xC0, 0xFF, 0x350)
    );
    // The letters, not the longer run of C1 controls at 0x80..=0x9F.
    assert_eq!(
        linear_range(&decode(Encoding::Iso8859_8)),
        range(0xE0, 0xFA, 0x05D0 - 0xE0)
    );
    // Two runs around unmapped bytes: Arabic, Greek, Thai.
    assert_eq!(
        linear_range(&decode(Encoding::Iso8859_6)),
        holed(0xC1, 0xF2, 0x0621 - 0xC1, 0xDB, 0xDF)
    );
    assert_eq!(
        linear_range(&decode(Encoding::Iso8859_7)),
        holed(0xBE, 0xFE, 0x038E - 0xBE, 0xD2, 0xD2)
    );
    assert_eq!(
        linear_range(&decode(Encoding::Windows874)),
        holed(0xA1, 0xFB, 0x0E01 - 0xA1, 0xDB, 0xDE)
    );
    for e in Encoding::all()
        .iter()
        .copied()
        .filter(|e| e.single_byte_index().is_some())
    {
        let units = decode(e);
        let r = linear_range(&units);
        assert!(r.lo >= 0x80 && r.lo <= r.hi, "{e:?}: {r:?}");
        for b in r.lo..=r.hi {
            if (r.hole_lo..=r.hole_hi).contains(&b) {
                assert_eq!(units[usize::from(b)], 0, "{e:?} {b:x} in the hole");
                continue;
            }
            assert!(
                !(0x80..0xA0).contains(&units[usize::from(b)]),
                "{e:?} {b:x}"
            );
            assert_eq!(
                units[usize::from(b)],
                u16::from(b).wrapping_add(r.offset),
                "{e:?} {b:x}"
            );
        }
    }
    // No run at all: every non-ASCII byte an error.
    let mut ascii_only = [0u16; 256];
    for (b, u) in ascii_only.iter_mut().enumerate().take(0x80) {
        *u = b as u16;
    }
    let r = linear_range(&ascii_only);
    assert!(r.lo > r.hi, "{r:?}");
}
