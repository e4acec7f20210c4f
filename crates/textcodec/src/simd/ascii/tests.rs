use super::super::dispatch::available_levels;
use super::*;
use crate::simd::test_slots as slots;
use alloc::vec::Vec;

/// Deliberately naive oracle: one byte at a time.
fn naive_prefix(src: &[u8]) -> usize {
    let mut n = 0;
    for &b in src {
        if b > 127 {
            break;
        }
        n += 1;
    }
    n
}

#[test]
fn every_kernel_matches_the_naive_oracle_across_lengths_and_alignments() {
    // Under Miri: a few lengths around the vector widths, two alignments.
    let (lens, max_align, bad_step) = if cfg!(miri) {
        (&[0usize, 1, 15, 16, 17, 33, 65][..], 2, 7)
    } else {
        (&[][..], 33, 1)
    };
    let all_lens: Vec<usize> = if lens.is_empty() {
        (0..150).collect()
    } else {
        lens.to_vec()
    };
    for k in available_levels() {
        for &len in &all_lens {
            for align in 0..max_align {
                for bad in (0..len).step_by(bad_step).chain([usize::MAX]) {
                    let mut buf: Vec<u8> = (0..len + align).map(|i| (i % 128) as u8).collect();
                    if bad != usize::MAX {
                        buf[align + bad] = 0x80 | (bad as u8);
                    }
                    let src = &buf[align..];
                    let expected = naive_prefix(src);
                    assert_eq!(
                        ascii_prefix_len_with(k, src),
                        expected,
                        "{k:?} {len} {align} {bad}"
                    );
                    let wide_src: Vec<u16> = src
                        .iter()
                        .map(|&b| {
                            if b < 0x80 {
                                u16::from(b)
                            } else {
                                0x100 | u16::from(b)
                            }
                        })
                        .collect();
                    for room in [0, 1, len / 2, len, len + 3] {
                        let mut dst = alloc::vec![0xFFu8; room];
                        let n = copy_ascii_with(k, src, slots(&mut dst));
                        assert_eq!(n, expected.min(room));
                        assert_eq!(&dst[..n], &src[..n]);
                        assert!(dst[n..].iter().all(|&b| b == 0xFF));
                        let mut wide = alloc::vec![0xFFFFu16; room];
                        let n = widen_ascii_with(k, src, slots(&mut wide));
                        assert_eq!(n, expected.min(room));
                        assert!(wide[..n].iter().zip(src).all(|(&w, &b)| w == u16::from(b)));
                        assert!(wide[n..].iter().all(|&w| w == 0xFFFF), "{k:?} wrote past");
                        let mut narrow = alloc::vec![0xFFu8; room];
                        let n = narrow_basic_latin_with(k, &wide_src, slots(&mut narrow));
                        assert_eq!(n, expected.min(room), "{k:?} narrow");
                        assert_eq!(&narrow[..n], &src[..n]);
                    }
                }
            }
        }
    }
}

/// `copy_ascii` with the output placed 0–96 bytes after the input modulo 4096 (the AVX2
/// kernel loads ahead at gaps 1–63), every length up to 300 and a non-ASCII byte anywhere.
#[test]
fn copy_ascii_is_exact_at_every_gap_modulo_4096() {
    let lens: &[usize] = if cfg!(miri) { &[0, 64, 130] } else { &[] };
    let all_lens: Vec<usize> = if lens.is_empty() {
        (0..300)
            .step_by(7)
            .chain([64, 127, 128, 129, 192, 256])
            .collect()
    } else {
        lens.to_vec()
    };
    for k in available_levels() {
        for gap in [0usize, 1, 8, 16, 24, 32, 33, 63, 64, 96] {
            for &len in &all_lens {
                for bad in [usize::MAX, 0, 31, 63, 64, 100, 127, 128, 200, 250] {
                    let mut src: Vec<u8> = (0..len).map(|i| (i * 5 % 128) as u8).collect();
                    if bad < len {
                        src[bad] = 0xC3;
                    }
                    let mut arena = alloc::vec![0xA5u8; len + 4096 + 64];
                    let base = (arena.as_ptr() as usize).wrapping_sub(src.as_ptr() as usize);
                    let start = (gap + 4096 - base % 4096) % 4096;
                    let dst = &mut arena[start..start + len];
                    let n = copy_ascii_with(k, &src, slots(dst));
                    let want = naive_prefix(&src);
                    assert_eq!(n, want, "{k:?} gap {gap} len {len} bad {bad}");
                    assert_eq!(&arena[start..start + n], &src[..n], "{k:?} gap {gap}");
                    assert!(
                        arena[..start]
                            .iter()
                            .chain(&arena[start + n..])
                            .all(|&b| b == 0xA5),
                        "{k:?} gap {gap} len {len}: wrote outside"
                    );
                }
            }
        }
    }
}
