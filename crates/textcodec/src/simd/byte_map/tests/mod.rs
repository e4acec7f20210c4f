use super::super::dispatch::available_levels;
use super::super::level::Level;
use super::*;
use crate::index::byte_map::{has_error_bytes, linear_range, utf8_table};
use crate::simd::test_slots as slots;
use alloc::string::String;
use alloc::vec::Vec;

/// The encoders' kernels.
mod encoders;

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
