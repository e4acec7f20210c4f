use super::super::dispatch::available_levels;
use super::*;
use alloc::vec::Vec;

/// Deliberately naive oracles, from `char` and `str`.
fn naive_char_count(s: &str) -> usize {
    s.chars().count()
}

fn naive_utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// UTF-8 length of UTF-16 with surrogates as two bytes: a pair's four, decoded.
fn naive_utf8_len(src: &[u16]) -> usize {
    char::decode_utf16(src.iter().copied())
        .map(|r| r.map_or(2, char::len_utf8))
        .sum()
}

fn naive_valid_prefix(src: &[u16]) -> usize {
    let mut n = 0;
    for r in char::decode_utf16(src.iter().copied()) {
        match r {
            Ok(c) => n += c.len_utf16(),
            Err(_) => break,
        }
    }
    n
}

/// A string of `len` bytes or a little less, cycling through characters of every
/// length, shifted by `seed`.
fn mixed(len: usize, seed: usize) -> alloc::string::String {
    let chars = [
        'a',
        'é',
        'ß',
        '€',
        '中',
        '😀',
        'z',
        '\u{7FF}',
        '\u{800}',
        '\u{10FFFF}',
    ];
    let mut s = alloc::string::String::new();
    let mut i = seed;
    while s.len() + 4 <= len {
        s.push(chars[i % chars.len()]);
        // Runs of ASCII, so that whole vectors take each path.
        if i.is_multiple_of(3) {
            s.push_str("abcdefghijklmnopqrstuvwxyzABCDEFGHIJ");
        }
        i += 1;
    }
    s
}

#[test]
fn the_counts_match_the_naive_oracles_at_every_level() {
    for k in available_levels() {
        for len in (0..200).chain([1000, 5000, 70_000]) {
            for seed in [0, 1, 5] {
                let s = mixed(len, seed);
                for start in 0..4.min(s.len() + 1) {
                    if !s.is_char_boundary(start) {
                        continue;
                    }
                    let s = &s[start..];
                    assert_eq!(
                        utf8_char_count_with(k, s.as_bytes()),
                        naive_char_count(s),
                        "{k:?} {len}"
                    );
                    assert_eq!(
                        utf8_utf16_len_with(k, s.as_bytes()),
                        naive_utf16_len(s),
                        "{k:?} {len}"
                    );
                    let units: Vec<u16> = s.encode_utf16().collect();
                    assert_eq!(utf16_utf8_len_with(k, &units), s.len(), "{k:?} {len}");
                }
            }
        }
        // 70 000 bytes of 0xF0: every lane's counter goes round many times.
        let leads = alloc::vec![0xF0u8; 70_000];
        assert_eq!(utf8_utf16_len_with(k, &leads), 140_000, "{k:?}");
        assert_eq!(utf8_char_count_with(k, &leads), 70_000, "{k:?}");
        assert_eq!(non_ascii_count_with(k, &leads), 70_000, "{k:?}");
        let wide = alloc::vec![0xFFFFu16; 70_000];
        assert_eq!(utf16_utf8_len_with(k, &wide), 210_000, "{k:?}");
    }
}

#[test]
fn utf16_counts_and_scans_match_the_oracles_with_a_surrogate_at_every_offset() {
    for k in available_levels() {
        // Up to three steps of four 32-unit vectors; the units around the surrogates
        // (D7FF, E000) and the extremes (0, FFFF) too.
        for len in [
            0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 130, 255, 256, 300,
        ] {
            let base: Vec<u16> = (0..len)
                .map(|i| [0x41, 0xE9, 0x4E2D, 0x7FF, 0xD7FF, 0xE000, 0xFFFF, 0][i % 8])
                .collect();
            assert_eq!(utf16_valid_prefix_len_with(k, &base), len, "{k:?} {len}");
            for at in 0..len {
                for bad in [0xD800u16, 0xDBFF, 0xDC00, 0xDFFF] {
                    let mut src = base.clone();
                    src[at] = bad;
                    assert_eq!(
                        utf16_valid_prefix_len_with(k, &src),
                        naive_valid_prefix(&src),
                        "{k:?} {len} {at} {bad:X}"
                    );
                    assert_eq!(utf16_utf8_len_with(k, &src), naive_utf8_len(&src), "{k:?}");
                    // A pair at `at` (when it fits): well-formed again.
                    if at + 1 < len {
                        src[at] = 0xD83D;
                        src[at + 1] = 0xDE00;
                        assert_eq!(
                            utf16_valid_prefix_len_with(k, &src),
                            naive_valid_prefix(&src),
                            "{k:?} {len} pair at {at}"
                        );
                        assert_eq!(utf16_utf8_len_with(k, &src), naive_utf8_len(&src));
                    }
                }
                for bound in [0x80u16, 0x100] {
                    let mut src = base.iter().map(|&u| u.min(0x7F)).collect::<Vec<_>>();
                    src[at] = bound;
                    let naive = src.iter().position(|&u| u >= bound).unwrap_or(len);
                    assert_eq!(utf16_prefix_len_below_with(k, &src, bound), naive, "{k:?}");
                    src[at] = 0xFFFF;
                    assert_eq!(utf16_prefix_len_below_with(k, &src, bound), at, "{k:?}");
                }
            }
        }
    }
}

#[test]
fn prefix_len_below_finds_the_first_byte_at_the_bound_at_every_offset() {
    for k in available_levels() {
        for len in [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 150] {
            for bound in [0x80u8, 0xC4, 1, 0xFF] {
                let base: Vec<u8> = (0..len).map(|i| (i as u8) % bound.max(1)).collect();
                assert_eq!(prefix_len_below_with(k, &base, bound), len, "{k:?}");
                for at in 0..len {
                    for b in [bound, 0xFF] {
                        let mut src = base.clone();
                        src[at] = b;
                        let naive = src.iter().position(|&x| x >= bound).unwrap_or(len);
                        assert_eq!(prefix_len_below_with(k, &src, bound), naive, "{k:?} {at}");
                    }
                }
            }
        }
    }
}

/// Deliberately naive: the bytes from 0x80 on, one at a time.
fn naive_non_ascii(src: &[u8]) -> usize {
    src.iter().filter(|&&b| b >= 0x80).count()
}

#[test]
fn the_byte_class_counts_match_the_naive_oracles_on_any_bytes_at_every_level() {
    // Bytes of every value, non-ASCII in runs and alone, in a pattern that does not
    // repeat at a vector's length, long enough for many flushes of the byte counters.
    let mut bytes = Vec::new();
    let mut x = 0x2545_F491u32;
    while bytes.len() < 80_000 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let run = (x % 97) as usize;
        let b = (x >> 8) as u8;
        bytes.extend(core::iter::repeat_n(b, run % 7 + 1));
        bytes.extend((0..run).map(|j| (j as u8).wrapping_mul(b) & 0x7F));
    }
    for k in available_levels() {
        for len in (0..300).chain([4095, 4096, 32_639, 32_640, 32_641, 65_281, 80_000]) {
            for start in [0, 1, 3, 31] {
                let src = &bytes[start..start + len.min(bytes.len() - start)];
                assert_eq!(
                    non_ascii_count_with(k, src),
                    naive_non_ascii(src),
                    "{k:?} {len} {start}"
                );
                let chars = src.iter().filter(|&&b| (b as i8) >= -0x40).count();
                assert_eq!(utf8_char_count_with(k, src), chars, "{k:?} {len} {start}");
            }
        }
    }
}
