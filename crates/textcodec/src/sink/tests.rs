use super::*;
use crate::index::byte_map::{has_error_bytes, linear_range, utf8_table};
use alloc::string::{String, ToString};

/// A byte map with one error byte (0xFF) and one-, two- and three-byte characters.
fn map_tables() -> ([u16; 256], [u32; 256]) {
    let mut units = [0u16; 256];
    for (b, u) in units.iter_mut().enumerate() {
        *u = match b {
            0..=0x7F => b as u16,
            0x80..=0xBF => 0x0400 + b as u16, // two bytes of UTF-8
            0xC0..=0xFE => 0x3000 + b as u16, // three bytes
            _ => 0,                           // 0xFF: an error
        };
    }
    let utf8 = utf8_table(&units);
    (units, utf8)
}

/// The run methods store past what they report; through `write_into_str` the buffer
/// must stay valid UTF-8 and hold exactly the decoded prefix, whatever it held before.
/// Small enough for Miri, which checks the `unsafe` adapters' bounds and initialisation.
#[test]
fn run_methods_keep_str_and_string_valid() {
    let (units, utf8) = map_tables();
    let map = ByteMap {
        units: &units,
        utf8: &utf8,
        has_errors: has_error_bytes(&units),
        linear: linear_range(&units),
    };
    let input: [u8; 9] = [b'a', 0x80, 0xC0, b'b', 0xC1, 0xFF, b'c', 0x81, 0xC2];
    let want: String = input[..5]
        .iter()
        .map(|&b| char::from_u32(u32::from(units[usize::from(b)])).unwrap())
        .collect();
    for fill in ["é", "日", "😀", "ab"] {
        for size in [4usize, 7, 12, 20] {
            let mut s = fill.repeat(size.div_ceil(fill.len()));
            let (n, written) =
                write_into_str(s.as_mut_str(), |sink| sink.push_byte_map_run(&input, &map));
            assert!(core::str::from_utf8(s.as_bytes()).is_ok());
            // Stops at the error byte (or earlier when out of room).
            assert!(n <= 5);
            assert_eq!(&s[..written], &want[..written]);
            let (n2, written2) = write_into_str(s.as_mut_str(), |sink| {
                sink.push_bmp_run(&input[..5], |b| units[usize::from(b)])
            });
            assert!(core::str::from_utf8(s.as_bytes()).is_ok());
            assert!(n2 <= 5);
            assert_eq!(&s[..written2], &want[..written2]);
            // 16 bytes stored for 5 (when they fit), the rest scratch.
            let (n3, written3) = write_into_str(s.as_mut_str(), |sink| {
                sink.copy_short_ascii(b"abcdeFGHIJKLMNOP", 5)
            });
            assert!(core::str::from_utf8(s.as_bytes()).is_ok());
            assert_eq!((n3, written3), (5.min(s.len()), 5.min(s.len())));
            assert_eq!(&s[..written3], &"abcde"[..written3]);
            assert!(!s[written3..].contains('F'), "scratch left in {s:?}");
        }
    }
    let mut s = "x".to_string();
    let n = append_to_string(&mut s, 16, |sink| sink.push_byte_map_run(&input, &map));
    assert_eq!(n, 5);
    assert_eq!(s, alloc::format!("x{want}"));
    // UTF-16: the same stop at the error byte.
    let mut buf = [0u16; 12];
    let mut sink = Utf16Sink::new(&mut buf);
    assert_eq!(sink.push_byte_map_run(&input, &map), 5);
    let expected: alloc::vec::Vec<u16> = want.encode_utf16().collect();
    assert_eq!(&buf[..5], &expected[..]);
}

/// NUL bytes among non-ASCII ones are characters, not errors, in both run loops, for a
/// table with error bytes (the UTF-16 loop's cheap check cannot tell NUL from an error
/// and must search) and for one without (no check at all): the run stops exactly at
/// the first error byte, wherever it is.
#[test]
fn byte_map_runs_tell_nul_from_error_bytes() {
    let (units, utf8) = map_tables();
    let mut total = units;
    total[0xFF] = 0x00FF;
    let total_utf8 = utf8_table(&total);
    assert!(has_error_bytes(&units) && !has_error_bytes(&total));
    for (units, utf8) in [(&units, &utf8), (&total, &total_utf8)] {
        let map = ByteMap {
            units,
            utf8,
            has_errors: has_error_bytes(units),
            linear: linear_range(units),
        };
        for error_at in 0..=16 {
            // Non-ASCII bytes and NULs, one error byte (0xFF) at `error_at` (none at 16).
            let input: alloc::vec::Vec<u8> = (0..16)
                .map(|i| match i {
                    _ if i == error_at => 0xFF,
                    i if i % 3 == 0 => 0,
                    i => 0x80 + i as u8 * 4,
                })
                .collect();
            let want = if map.has_errors { error_at } else { 16 };
            let mut buf = [0u16; 16];
            let mut sink = Utf16Sink::new(&mut buf);
            assert_eq!(
                sink.push_byte_map_run(&input, &map),
                want,
                "error at {error_at}"
            );
            let expected: alloc::vec::Vec<u16> = input[..want]
                .iter()
                .map(|&b| units[usize::from(b)])
                .collect();
            assert_eq!(&buf[..want], &expected[..]);
            let mut s = String::new();
            let n = append_to_string(&mut s, 64, |sink| sink.push_byte_map_run(&input, &map));
            assert_eq!(n, want, "utf-8, error at {error_at}");
            assert_eq!(s.encode_utf16().collect::<alloc::vec::Vec<_>>(), expected);
        }
    }
}

/// The pair loop (raw stores) in every room size: whole characters only, the `&mut
/// str` left valid, stops at a non-pair, at a lone final lead and before a long ASCII
/// run; the same in UTF-16.
#[test]
fn double_byte_runs_stop_where_they_must_in_any_room() {
    // Pairs 0x81 xx → U+4E00 + xx (three bytes), 0x82 xx → U+0100 + xx (two bytes);
    // 0x83 is not a lead.
    let pair = |lead: u8, trail: u8| match lead {
        0x81 => 0x4E00 + u16::from(trail),
        0x82 => 0x0100 + u16::from(trail & 0x3F),
        _ => 0,
    };
    let decode = |bytes: &[u8]| -> String {
        let mut out = String::new();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] < 0x80 {
                out.push(char::from(bytes[i]));
                i += 1;
            } else {
                out.push(char::from_u32(u32::from(pair(bytes[i], bytes[i + 1]))).unwrap());
                i += 2;
            }
        }
        out
    };
    let input: &[u8] = &[
        0x81, 0x41, b' ', 0x82, 0x42, b'a', b'b', 0x81, 0x7F, 0x83, 0x41,
    ];
    let long_ascii: &[u8] = b"\x81\x41 0123456789abcdefXYZ";
    let lone_lead: &[u8] = &[b'x', 0x81];
    for (src, whole) in [(input, 9usize), (long_ascii, 2), (lone_lead, 1)] {
        for room in 0..24 {
            let mut s = "é".repeat(room / 2) + &"a".repeat(room % 2);
            let (n, written) = write_into_str(s.as_mut_str(), |sink| {
                sink.push_double_byte_run::<true>(src, pair)
            });
            assert!(core::str::from_utf8(s.as_bytes()).is_ok());
            assert!(n <= whole, "room {room}");
            assert_eq!(&s[..written], decode(&src[..n]), "room {room}");
            if room >= 3 * whole + 4 {
                assert_eq!(n, whole, "room {room}");
            }
            let mut units = alloc::vec![0u16; room];
            let mut sink = Utf16Sink::new(&mut units);
            let n16 = sink.push_double_byte_run::<true>(src, pair);
            let w16 = sink.written();
            let want: alloc::vec::Vec<u16> = decode(&src[..n16]).encode_utf16().collect();
            assert_eq!(&units[..w16], &want[..]);
            if room >= whole {
                assert_eq!(n16, whole, "utf16 room {room}");
            }
        }
    }
}
