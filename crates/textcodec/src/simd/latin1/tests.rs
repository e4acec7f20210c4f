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
                // `dst` past `written` may hold scratch bytes; past its end, nothing.
                let mut buf = alloc::vec![0xAAu8; room + GUARD];
                let (read, written) = to_utf8_with(k, &src, slots(&mut buf[..room]));
                let whole = naive_utf8(&src[..read]);
                assert_eq!(&buf[..written], &whole[..], "{k:?} {len} {room}");
                assert!(
                    buf[room..].iter().all(|&b| b == 0xAA),
                    "{k:?} {len} {room}: wrote past the end of dst"
                );
                // It stops only when the next character does not fit.
                if read < len {
                    assert!(
                        written + char::from(src[read]).len_utf8() > room,
                        "{k:?} {len} {room}"
                    );
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
                let mut buf = alloc::vec![0xAAu8; room + GUARD];
                let (read, written) = to_utf8_with(k, &src, slots(&mut buf[..room]));
                assert_eq!(
                    &buf[..written],
                    &naive_utf8(&src[..read])[..],
                    "{k:?} {spacing} {room}"
                );
                assert!(
                    buf[room..].iter().all(|&b| b == 0xAA),
                    "{k:?} {spacing} {room}: wrote past the end of dst"
                );
                assert!(
                    read == src.len() || written + 2 > room,
                    "{k:?} {spacing} {room}: stopped early"
                );
            }
        }
    }
}
