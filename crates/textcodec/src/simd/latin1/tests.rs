use super::super::dispatch::available_levels;
use super::*;
use crate::simd::test_slots as slots;
use alloc::vec::Vec;

/// Deliberately naive oracle: each byte is the code point of its value.
fn naive_utf8(src: &[u8]) -> Vec<u8> {
    src.iter()
        .map(|&b| char::from(b))
        .collect::<alloc::string::String>()
        .into_bytes()
}

fn sample(len: usize, seed: u8) -> Vec<u8> {
    // Runs of ASCII and of bytes from 0x80 on, of varying lengths.
    (0..len)
        .map(|i| {
            let i = i as u32 + u32::from(seed);
            if (i / 37).is_multiple_of(2) {
                (i % 0x80) as u8
            } else {
                (i.wrapping_mul(151) % 256) as u8
            }
        })
        .collect()
}

/// Bytes after a `dst` that the Latin-1 → UTF-8 tests check are never written (a vector
/// store's length and more).
const GUARD: usize = 128;

/// Converts `src` at level `k` into `room` bytes followed by [`GUARD`] and checks the
/// result against the oracle: the bytes written are the UTF-8 of the bytes read, nothing
/// past `room` is written (`dst` past `written` may hold scratch bytes), and it stops
/// only when the next character does not fit.
fn check_to_utf8(k: &Level, src: &[u8], room: usize, what: &str) {
    let mut buf = alloc::vec![0xAAu8; room + GUARD];
    let (read, written) = to_utf8_with(k, src, slots(&mut buf[..room]));
    assert_eq!(
        &buf[..written],
        &naive_utf8(&src[..read])[..],
        "{k:?} {what} {room}"
    );
    assert!(
        buf[room..].iter().all(|&b| b == 0xAA),
        "{k:?} {what} {room}: wrote past the end of dst"
    );
    if read < src.len() {
        assert!(
            written + char::from(src[read]).len_utf8() > room,
            "{k:?} {what} {room}: stopped early"
        );
    }
}

#[test]
fn latin1_to_utf8_matches_the_oracle_for_every_room() {
    for k in available_levels() {
        for len in (0..140).chain([1000, 4099]) {
            let src = sample(len, len as u8);
            let expected = naive_utf8(&src);
            for room in [
                0,
                1,
                2,
                len / 2,
                len,
                expected.len() - 1.min(expected.len()),
                expected.len(),
                2 * len + 3,
            ] {
                check_to_utf8(k, &src, room, &alloc::format!("{len}"));
            }
        }
    }
}

/// As the test below, for inputs that end at several offsets of their last 128-byte
/// steps (the AVX-512 ASCII loop loads each step's blocks before the step before it
/// stores, so its last steps are where it must not read past `src`), all-ASCII ones
/// included.
#[test]
fn latin1_to_utf8_of_near_ascii_text_ending_anywhere_matches_the_oracle() {
    for k in available_levels() {
        for len in [4096, 4100, 4160, 4223, 4224, 4288, 4351, 4352, 5003] {
            for gap in [97, 300, 1000, 4096] {
                let src: Vec<u8> = (0..len)
                    .map(|i| {
                        if i % gap == gap - 1 {
                            0x80 + (i % 128) as u8
                        } else {
                            b'a' + (i % 26) as u8
                        }
                    })
                    .collect();
                let expected = naive_utf8(&src);
                let full = expected.len();
                for room in [
                    full + 200,
                    full,
                    full - 1,
                    full - 100,
                    full - 129,
                    len / 2 + 7,
                ] {
                    check_to_utf8(k, &src, room, &alloc::format!("{len} {gap}"));
                }
            }
        }
    }
}

#[test]
fn widening_and_narrowing_match_the_oracle() {
    for k in available_levels() {
        for len in (0..100).chain([1000]) {
            let src = sample(len, 3);
            for room in [0, len / 2, len, len + 5] {
                let mut wide = alloc::vec![0xAAAAu16; room];
                let n = to_utf16_with(k, &src, slots(&mut wide));
                assert_eq!(n, len.min(room));
                let expected: Vec<u16> = src[..n].iter().map(|&b| u16::from(b)).collect();
                assert_eq!(&wide[..n], &expected[..], "{k:?} {len} {room}");
                let mut narrow = alloc::vec![0u8; room];
                assert_eq!(from_utf16_with(k, &wide[..n], slots(&mut narrow)), n);
                assert_eq!(&narrow[..n], &src[..n]);
            }
            // A unit from U+0100 on at every offset stops the narrowing there.
            let wide: Vec<u16> = src.iter().map(|&b| u16::from(b)).collect();
            for at in 0..len {
                for bad in [0x100u16, 0xFF00, 0xFFFF, 0x1FF] {
                    let mut w = wide.clone();
                    w[at] = bad;
                    let mut narrow = alloc::vec![0u8; len];
                    assert_eq!(from_utf16_with(k, &w, slots(&mut narrow)), at, "{k:?} {at}");
                    assert_eq!(&narrow[..at], &src[..at]);
                }
            }
        }
    }
}

/// Near-ASCII input of 4 KiB or more (the AVX-512 kernel's loop for it copies ASCII 128
/// bytes at a time): a non-ASCII byte every few hundred bytes, at varying offsets from the
/// 64-byte blocks, into room that runs out anywhere.
#[test]
fn latin1_to_utf8_of_near_ascii_text_matches_the_oracle() {
    for k in available_levels() {
        for spacing in [200, 333, 1000] {
            let src: Vec<u8> = (0..9000)
                .map(|i: usize| {
                    if i % spacing == spacing - 1 {
                        0x80 | (i % 0x80) as u8
                    } else {
                        b' ' + (i % 90) as u8
                    }
                })
                .collect();
            let expected = naive_utf8(&src);
            for room in [4096, 5000, 9000, expected.len() - 1, expected.len(), 20_000] {
                check_to_utf8(k, &src, room, &alloc::format!("{spacing}"));
            }
        }
    }
}

/// Every offset of `src` and of `dst` from a 64-byte boundary, and a single non-ASCII
/// byte (or a run of them) at every position of the first 100: the packed stores of each
/// 8-byte group land where the lengths before it say, for any alignment. `dst` is
/// exactly as long as the output, then a guard.
#[test]
fn latin1_to_utf8_at_every_offset_matches_the_oracle() {
    for k in available_levels() {
        for offset in 0..64 {
            for at in 0..100 {
                for run in [1, 9, 40] {
                    let len = 160 - offset % 7;
                    let mut src: Vec<u8> =
                        (0..offset + len).map(|i| b'a' + (i % 26) as u8).collect();
                    for (j, b) in src[offset..].iter_mut().enumerate().skip(at).take(run) {
                        *b = 0x80 + (j.wrapping_mul(37) % 0x80) as u8;
                    }
                    let src = &src[offset..];
                    let expected = naive_utf8(src);
                    let mut buf = alloc::vec![0xAAu8; offset + expected.len() + GUARD];
                    let dst = &mut buf[offset..offset + expected.len()];
                    let (read, written) = to_utf8_with(k, src, slots(dst));
                    assert_eq!(
                        (read, written),
                        (src.len(), expected.len()),
                        "{k:?} {offset} {at} {run}"
                    );
                    assert_eq!(
                        &buf[offset..offset + written],
                        &expected[..],
                        "{k:?} {offset} {at} {run}"
                    );
                    assert!(
                        buf[offset + expected.len()..].iter().all(|&b| b == 0xAA),
                        "{k:?} {offset} {at} {run}: wrote past the end of dst"
                    );
                }
            }
        }
    }
}

/// Every byte value in every position of a 32-byte vector: each lead (C2 or C3) and
/// continuation byte, and each 8-bit ASCII mask's packing entry.
#[test]
fn latin1_to_utf8_of_every_byte_matches_the_oracle() {
    for k in available_levels() {
        for shift in 0..32 {
            let src: Vec<u8> = (0..512usize).map(|i| (i + shift) as u8).collect();
            // Masks of 8 bytes: each of the 256 patterns of ASCII and non-ASCII bytes.
            let masks: Vec<u8> = (0..256usize * 8)
                .map(|i| {
                    if (i / 8 + shift) >> (i % 8) & 1 == 1 {
                        0xE0 + (i % 32) as u8
                    } else {
                        b'0' + (i % 10) as u8
                    }
                })
                .collect();
            for src in [&src[..], &masks[..]] {
                let expected = naive_utf8(src);
                let mut buf = alloc::vec![0xAAu8; expected.len() + GUARD];
                let (read, written) = to_utf8_with(k, src, slots(&mut buf[..expected.len()]));
                assert_eq!(
                    (read, written),
                    (src.len(), expected.len()),
                    "{k:?} {shift}"
                );
                assert_eq!(&buf[..written], &expected[..], "{k:?} {shift}");
                assert!(
                    buf[expected.len()..].iter().all(|&b| b == 0xAA),
                    "{k:?} {shift}"
                );
            }
        }
    }
}
