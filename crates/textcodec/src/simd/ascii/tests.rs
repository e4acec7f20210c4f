use super::super::dispatch::available_kernels;
use super::*;
use crate::simd::slots;
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
    for k in available_kernels() {
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
