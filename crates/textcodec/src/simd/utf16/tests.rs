use super::super::dispatch::available_levels;
use super::*;
use crate::simd::test_slots as slots;
use alloc::vec::Vec;

/// Deliberately naive oracle: UTF-16 units to (units of the convertible prefix, its
/// UTF-8), with the textbook arithmetic.
fn naive(units: &[u16]) -> (usize, Vec<u8>) {
    let mut out = Vec::new();
    let mut i = 0;
    while i < units.len() {
        let u = u32::from(units[i]);
        let (cp, n) = if (0xD800..0xDC00).contains(&u) {
            match units.get(i + 1).map(|&t| u32::from(t)) {
                Some(t) if (0xDC00..0xE000).contains(&t) => {
                    (0x10000 + ((u - 0xD800) << 10) + (t - 0xDC00), 2)
                }
                _ => break,
            }
        } else if (0xDC00..0xE000).contains(&u) {
            break;
        } else {
            (u, 1)
        };
        if cp < 0x80 {
            out.push(cp as u8);
        } else if cp < 0x800 {
            out.extend([0xC0 | (cp >> 6) as u8, 0x80 | (cp & 0x3F) as u8]);
        } else if cp < 0x10000 {
            out.extend([
                0xE0 | (cp >> 12) as u8,
                0x80 | ((cp >> 6) & 0x3F) as u8,
                0x80 | (cp & 0x3F) as u8,
            ]);
        } else {
            out.extend([
                0xF0 | (cp >> 18) as u8,
                0x80 | ((cp >> 12) & 0x3F) as u8,
                0x80 | ((cp >> 6) & 0x3F) as u8,
                0x80 | (cp & 0x3F) as u8,
            ]);
        }
        i += n;
    }
    (i, out)
}

fn samples() -> Vec<Vec<u16>> {
    let pieces: &[&[u16]] = &[
        &[0x61],
        &[0xE9],
        &[0x7FF],
        &[0x800],
        &[0x65E5],
        &[0xFFFF],
        &[0xD83D, 0xDE00],
        &[0xDBFF, 0xDFFF],
        &[0x20],
        &[0x436],
    ];
    // Below U+0800 only, too (a separate AVX-512 path).
    let short: Vec<&[u16]> = pieces.iter().copied().filter(|p| p[0] < 0x800).collect();
    // Mixed lengths without pairs (another).
    let single: Vec<&[u16]> = pieces.iter().copied().filter(|p| p.len() == 1).collect();
    // And from U+0800 on without pairs (another).
    let long: Vec<&[u16]> = pieces
        .iter()
        .copied()
        .filter(|p| p.len() == 1 && p[0] >= 0x800)
        .collect();
    let mut out = Vec::new();
    for pieces in [pieces, &short[..], &single[..], &long[..]] {
        for seed in 0..pieces.len() {
            let mut v = Vec::new();
            let mut k = seed;
            while v.len() < 120 {
                v.extend_from_slice(pieces[k % pieces.len()]);
                k = (k * 5 + 1) % 1013;
            }
            out.push(v);
        }
    }
    out.push(alloc::vec![0x41; 120]);
    // Long ASCII runs of distinct units (the kernels' wide ASCII steps reorder lanes),
    // then a two-byte character, then ASCII again.
    let mut run: Vec<u16> = (0..150u16).map(|i| 0x20 + i % 95).collect();
    run.push(0xE9);
    run.extend((0..100u16).map(|i| 0x7E - i % 90));
    out.push(run);
    out
}

/// The level's `mem` kernel (which may leave scratch past its output, never past the
/// buffer): the oracle's bytes for whole characters, as far as they go and fit. `n` and
/// `expected` are the oracle's result for `units`.
fn check_mem_kernel(k: &Level, units: &[u16], (n, expected): (usize, &[u8]), room: usize) {
    if !k.mem().has_utf16_to_utf8() {
        return;
    }
    let mut buf = alloc::vec![0xAAu8; room + 64];
    let (r, w) = k
        .mem()
        .utf16_to_utf8(units, slots(&mut buf[..room]))
        .unwrap();
    assert!(
        buf[room..].iter().all(|&b| b == 0xAA),
        "{k:?} wrote past the buffer"
    );
    assert!(r <= n, "{k:?}");
    if r == n {
        assert_eq!(&buf[..w], expected, "{k:?} {room}");
    } else {
        assert_eq!(&buf[..w], &naive(&units[..r]).1[..], "{k:?} {room}");
        // Stopped for room only: the next character does not fit.
        let next = &expected[w..];
        let first = core::str::from_utf8(next).unwrap().chars().next().unwrap();
        assert!(w + first.len_utf8() > room, "{k:?} {r} {w} {room}");
    }
}

#[test]
fn every_kernel_matches_the_naive_oracle() {
    let step = if cfg!(miri) { 23 } else { 1 };
    for k in available_levels() {
        for text in samples()
            .into_iter()
            .take(if cfg!(miri) { 3 } else { usize::MAX })
        {
            for len in (0..text.len()).step_by(step) {
                for lone in [None, Some(0xD800u16), Some(0xDC00), Some(0xDBFF)] {
                    for at in (0..=len).step_by(if lone.is_some() {
                        step.max(1)
                    } else {
                        usize::MAX
                    }) {
                        let mut units = text[..len].to_vec();
                        if let Some(l) = lone {
                            units.insert(at, l);
                        }
                        let (n, expected) = naive(&units);
                        for big_endian in [false, true] {
                            let bytes: Vec<u8> = units
                                .iter()
                                .flat_map(|u| {
                                    if big_endian {
                                        u.to_be_bytes()
                                    } else {
                                        u.to_le_bytes()
                                    }
                                })
                                .collect();
                            for room in [expected.len(), expected.len() + 64, expected.len() / 2] {
                                let mut dst = alloc::vec![0xAAu8; room];
                                let (r, w) =
                                    bytes_to_utf8_with(k, &bytes, big_endian, slots(&mut dst));
                                assert!(r % 2 == 0 && r <= 2 * n, "{k:?}");
                                // Nothing past the output changes (`encodeInto`).
                                assert!(dst[w..].iter().all(|&b| b == 0xAA), "{k:?} wrote past");
                                let (_, want) = naive(&units[..r / 2]);
                                assert_eq!(&dst[..w], &want[..], "{k:?} {len} {lone:?} {at}");
                                if r / 2 < n {
                                    // Stopped for room only.
                                    let (_, more) = naive(&units[..(r / 2 + 2).min(n)]);
                                    let next = naive(&units[r / 2..n]).1;
                                    let first = core::str::from_utf8(&next)
                                        .unwrap()
                                        .chars()
                                        .next()
                                        .unwrap();
                                    assert!(
                                        w + first.len_utf8() > room,
                                        "{k:?} {r} {w} {room} {}",
                                        more.len()
                                    );
                                } else {
                                    assert_eq!(r / 2, n);
                                }
                                if !big_endian {
                                    check_mem_kernel(k, &units, (n, &expected), room);
                                }
                                let mut wide = alloc::vec![0u16; room];
                                let (r, w) =
                                    bytes_to_units_with(k, &bytes, big_endian, slots(&mut wide));
                                assert!(r % 2 == 0 && r <= 2 * n && w == r / 2);
                                assert_eq!(&wide[..w], &units[..w]);
                                if w < n {
                                    let need = if (0xD800..0xDC00).contains(&units[w]) {
                                        2
                                    } else {
                                        1
                                    };
                                    assert!(w + need > room);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
