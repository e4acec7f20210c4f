//! Bulk ASCII primitives.
//!
//! Every function here has the same contract in all kernels; [`scalar`] is the portable
//! twin (word-at-a-time) and finishes the tails of the vector kernels. The x86-64 kernels
//! use SSE2, which every x86-64 CPU has, so no runtime detection is needed for them.

/// Which implementation the dispatching functions use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kernel {
    /// Portable word-at-a-time code.
    Scalar,
    /// SSE2 (x86-64 baseline).
    #[cfg(target_arch = "x86_64")]
    Sse2,
}

/// The kernel in use: the best the CPU supports, unless `TEXTCODEC_KERNEL=scalar` is set
/// (std builds) to force the portable code.
#[inline(always)]
pub(crate) fn kernel() -> Kernel {
    #[cfg(feature = "std")]
    {
        use std::sync::atomic::{AtomicU8, Ordering};
        static CHOICE: AtomicU8 = AtomicU8::new(0);
        match CHOICE.load(Ordering::Relaxed) {
            1 => return Kernel::Scalar,
            #[cfg(target_arch = "x86_64")]
            2 => return Kernel::Sse2,
            _ => {}
        }
        let forced_scalar = std::env::var_os("TEXTCODEC_KERNEL").is_some_and(|v| v == "scalar");
        let k = best_kernel(forced_scalar);
        CHOICE.store(if k == Kernel::Scalar { 1 } else { 2 }, Ordering::Relaxed);
        k
    }
    #[cfg(not(feature = "std"))]
    {
        best_kernel(false)
    }
}

fn best_kernel(forced_scalar: bool) -> Kernel {
    if forced_scalar {
        return Kernel::Scalar;
    }
    #[cfg(target_arch = "x86_64")]
    {
        Kernel::Sse2
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Kernel::Scalar
    }
}

/// Every kernel this machine can run (for tests and benchmarks).
#[allow(dead_code)]
pub(crate) fn available_kernels() -> &'static [Kernel] {
    #[cfg(target_arch = "x86_64")]
    {
        &[Kernel::Scalar, Kernel::Sse2]
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        &[Kernel::Scalar]
    }
}

/// Length of the longest prefix of `src` whose bytes are all ASCII.
#[inline]
pub(crate) fn ascii_prefix_len(src: &[u8]) -> usize {
    ascii_prefix_len_with(kernel(), src)
}

/// Copies the longest all-ASCII prefix of `src` that fits in `dst`; returns its length.
#[inline]
pub(crate) fn copy_ascii(src: &[u8], dst: &mut [u8]) -> usize {
    copy_ascii_with(kernel(), src, dst)
}

/// Widens the longest all-ASCII prefix of `src` that fits in `dst` to `u16`; returns its
/// length.
#[inline]
pub(crate) fn widen_ascii(src: &[u8], dst: &mut [u16]) -> usize {
    widen_ascii_with(kernel(), src, dst)
}

/// Narrows the longest prefix of `src` whose units are below 0x80 that fits in `dst`;
/// returns its length.
#[inline]
pub(crate) fn narrow_basic_latin(src: &[u16], dst: &mut [u8]) -> usize {
    let n = src.len().min(dst.len());
    let mut i = 0;
    while i < n {
        let u = src[i];
        if u >= 0x80 {
            break;
        }
        dst[i] = u as u8;
        i += 1;
    }
    i
}

pub(crate) fn ascii_prefix_len_with(k: Kernel, src: &[u8]) -> usize {
    match k {
        Kernel::Scalar => scalar::ascii_prefix_len(src),
        #[cfg(target_arch = "x86_64")]
        Kernel::Sse2 => sse2::ascii_prefix_len(src),
    }
}

pub(crate) fn copy_ascii_with(k: Kernel, src: &[u8], dst: &mut [u8]) -> usize {
    match k {
        Kernel::Scalar => scalar::copy_ascii(src, dst),
        #[cfg(target_arch = "x86_64")]
        Kernel::Sse2 => sse2::copy_ascii(src, dst),
    }
}

pub(crate) fn widen_ascii_with(k: Kernel, src: &[u8], dst: &mut [u16]) -> usize {
    match k {
        Kernel::Scalar => scalar::widen_ascii(src, dst),
        #[cfg(target_arch = "x86_64")]
        Kernel::Sse2 => sse2::widen_ascii(src, dst),
    }
}

/// The portable twin: word-at-a-time, no `unsafe`.
pub(crate) mod scalar {
    const WORD: usize = core::mem::size_of::<usize>();
    const HIGH_BITS: usize = usize::from_ne_bytes([0x80; WORD]);

    pub(crate) fn ascii_prefix_len(src: &[u8]) -> usize {
        let mut i = 0;
        let mut chunks = src.chunks_exact(WORD);
        for chunk in &mut chunks {
            let mut w = [0u8; WORD];
            w.copy_from_slice(chunk);
            if usize::from_ne_bytes(w) & HIGH_BITS != 0 {
                break;
            }
            i += WORD;
        }
        while i < src.len() && src[i] < 0x80 {
            i += 1;
        }
        i
    }

    pub(crate) fn copy_ascii(src: &[u8], dst: &mut [u8]) -> usize {
        let n = src.len().min(dst.len());
        let len = ascii_prefix_len(&src[..n]);
        dst[..len].copy_from_slice(&src[..len]);
        len
    }

    pub(crate) fn widen_ascii(src: &[u8], dst: &mut [u16]) -> usize {
        let n = src.len().min(dst.len());
        let mut i = 0;
        while i < n {
            let b = src[i];
            if b >= 0x80 {
                break;
            }
            dst[i] = u16::from(b);
            i += 1;
        }
        i
    }
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use core::arch::x86_64::*;

    const LANES: usize = 16;

    pub(crate) fn ascii_prefix_len(src: &[u8]) -> usize {
        let mut i = 0;
        while i + LANES <= src.len() {
            // SAFETY: `i + 16 <= src.len()`, so the unaligned 16-byte load stays in bounds;
            // SSE2 is part of the x86-64 baseline.
            let mask = unsafe {
                let v = _mm_loadu_si128(src.as_ptr().add(i).cast());
                _mm_movemask_epi8(v)
            };
            if mask != 0 {
                return i + mask.trailing_zeros() as usize;
            }
            i += LANES;
        }
        i + super::scalar::ascii_prefix_len(&src[i..])
    }

    pub(crate) fn copy_ascii(src: &[u8], dst: &mut [u8]) -> usize {
        let n = src.len().min(dst.len());
        let mut i = 0;
        while i + LANES <= n {
            // SAFETY: `i + 16 <= n <= len` of both slices: the load and the store are in
            // bounds. SSE2 is part of the x86-64 baseline.
            let mask = unsafe {
                let v = _mm_loadu_si128(src.as_ptr().add(i).cast());
                let mask = _mm_movemask_epi8(v);
                if mask == 0 {
                    _mm_storeu_si128(dst.as_mut_ptr().add(i).cast(), v);
                }
                mask
            };
            if mask != 0 {
                let len = mask.trailing_zeros() as usize;
                dst[i..i + len].copy_from_slice(&src[i..i + len]);
                return i + len;
            }
            i += LANES;
        }
        i + super::scalar::copy_ascii(&src[i..n], &mut dst[i..n])
    }

    pub(crate) fn widen_ascii(src: &[u8], dst: &mut [u16]) -> usize {
        let n = src.len().min(dst.len());
        let mut i = 0;
        while i + LANES <= n {
            // SAFETY: `i + 16 <= n`: the 16-byte load from `src` and the two 8-unit (16-byte)
            // stores to `dst[i..i + 16]` are in bounds. SSE2 is baseline on x86-64.
            let mask = unsafe {
                let v = _mm_loadu_si128(src.as_ptr().add(i).cast());
                let mask = _mm_movemask_epi8(v);
                if mask == 0 {
                    let zero = _mm_setzero_si128();
                    let lo = _mm_unpacklo_epi8(v, zero);
                    let hi = _mm_unpackhi_epi8(v, zero);
                    let out = dst.as_mut_ptr().add(i);
                    _mm_storeu_si128(out.cast(), lo);
                    _mm_storeu_si128(out.add(8).cast(), hi);
                }
                mask
            };
            if mask != 0 {
                let len = mask.trailing_zeros() as usize;
                for j in i..i + len {
                    dst[j] = u16::from(src[j]);
                }
                return i + len;
            }
            i += LANES;
        }
        i + super::scalar::widen_ascii(&src[i..n], &mut dst[i..n])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        for &k in available_kernels() {
            for len in 0..80usize {
                for align in 0..17usize {
                    for bad in (0..len).chain([usize::MAX]) {
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
                        for room in [0, 1, len / 2, len, len + 3] {
                            let mut dst = alloc::vec![0xFFu8; room];
                            let n = copy_ascii_with(k, src, &mut dst);
                            assert_eq!(n, expected.min(room));
                            assert_eq!(&dst[..n], &src[..n]);
                            let mut wide = alloc::vec![0xFFFFu16; room];
                            let n = widen_ascii_with(k, src, &mut wide);
                            assert_eq!(n, expected.min(room));
                            assert!(wide[..n].iter().zip(src).all(|(&w, &b)| w == u16::from(b)));
                        }
                    }
                }
            }
        }
    }
}
