//! Bulk ASCII primitives: the hot loops of every ASCII-compatible decoder and encoder.
//!
//! Every function has the same contract in all kernels; [`scalar`] is the portable twin
//! (word-at-a-time) and finishes the tails of the vector kernels. SSE2 is the x86-64
//! baseline; the AVX2 code runs only when [`super::dispatch`] detected AVX2 (the AVX-512
//! kernel family uses it too: at these widths, memory bandwidth is the limit).
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::dispatch::{kernel, Kernel};

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
    narrow_basic_latin_with(kernel(), src, dst)
}

pub(crate) fn ascii_prefix_len_with(k: Kernel, src: &[u8]) -> usize {
    match k {
        Kernel::Scalar => scalar::ascii_prefix_len(src),
        #[cfg(target_arch = "x86_64")]
        Kernel::Sse2 => sse2::ascii_prefix_len(src),
        // SAFETY: a `Kernel::Avx2`/`Avx512` value exists only after AVX2 was detected.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2(_) | Kernel::Avx512(_) => unsafe { avx2::ascii_prefix_len(src) },
    }
}

pub(crate) fn copy_ascii_with(k: Kernel, src: &[u8], dst: &mut [u8]) -> usize {
    match k {
        Kernel::Scalar => scalar::copy_ascii(src, dst),
        #[cfg(target_arch = "x86_64")]
        Kernel::Sse2 => sse2::copy_ascii(src, dst),
        // SAFETY: a `Kernel::Avx2` value exists only after AVX2 was detected.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2(_) => unsafe { avx2::copy_ascii(src, dst) },
        // SAFETY: a `Kernel::Avx512` value exists only after its features were detected.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512(_) => unsafe { avx512::copy_ascii(src, dst) },
    }
}

pub(crate) fn widen_ascii_with(k: Kernel, src: &[u8], dst: &mut [u16]) -> usize {
    match k {
        Kernel::Scalar => scalar::widen_ascii(src, dst),
        #[cfg(target_arch = "x86_64")]
        Kernel::Sse2 => sse2::widen_ascii(src, dst),
        // SAFETY: a `Kernel::Avx2` value exists only after AVX2 was detected.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2(_) => unsafe { avx2::widen_ascii(src, dst) },
        // SAFETY: a `Kernel::Avx512` value exists only after its features were detected.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512(_) => unsafe { avx512::widen_ascii(src, dst) },
    }
}

pub(crate) fn narrow_basic_latin_with(k: Kernel, src: &[u16], dst: &mut [u8]) -> usize {
    match k {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Kernel::Avx2`/`Avx512` value exists only after AVX2 was detected.
        Kernel::Avx2(_) | Kernel::Avx512(_) => unsafe { avx2::narrow_basic_latin(src, dst) },
        _ => scalar::narrow_basic_latin(src, dst),
    }
}

/// The portable twin: word-at-a-time, no `unsafe`.
pub(crate) mod scalar {
    const WORD: usize = core::mem::size_of::<usize>();
    const HIGH_BITS: usize = usize::from_ne_bytes([0x80; WORD]);

    // Hot loop. Bounds: `i` counts whole words already read and then single bytes while
    // `i < src.len()`, so it never exceeds `src.len()` and `src[i]` is in bounds.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
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

    // Bounds: `n` is the shorter of the two lengths and `len <= n` (a prefix length of
    // `src[..n]`), so all three slices are in bounds.
    #[allow(clippy::indexing_slicing)]
    pub(crate) fn copy_ascii(src: &[u8], dst: &mut [u8]) -> usize {
        let n = src.len().min(dst.len());
        let len = ascii_prefix_len(&src[..n]);
        dst[..len].copy_from_slice(&src[..len]);
        len
    }

    // Hot loop. Bounds: `i < n`, the shorter of the two lengths, wherever it indexes, and
    // it only counts up to `n`.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
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

    // Hot loop. Bounds: `i < n`, the shorter of the two lengths, wherever it indexes, and
    // it only counts up to `n`.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
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
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use core::arch::x86_64::*;

    const LANES: usize = 16;

    // Hot loop. Bounds: `i` only advances by a vector while `i + 16 <= src.len()`, so
    // `i <= src.len()` (and `i + 16` cannot overflow); a mask's trailing zeros are below 16.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
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

    // Hot loop. Bounds: `n` is the shorter length and `i` only advances by a vector while
    // `i + 16 <= n`, so `i <= n`; a mask's trailing zeros `len` are below 16, so
    // `i + len <= n` as well.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
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

    // Hot loop. Bounds: `n` is the shorter length and `i` only advances by a vector while
    // `i + 16 <= n`, so `i <= n`; a mask's trailing zeros `len` are below 16, so every `j`
    // in `i..i + len` is below `n`.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
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

/// 32 bytes at a time, two vectors per iteration in the copying loops.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use core::arch::x86_64::*;

    const LANES: usize = 32;

    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    // Hot loop. Bounds: `i` only advances by 64 or 32 bytes while `i + 64` or `i + 32` is
    // at most `src.len()`, so `i <= src.len()` and the sums cannot overflow; a mask's
    // trailing zeros are below 32.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    pub(crate) unsafe fn ascii_prefix_len(src: &[u8]) -> usize {
        let p = src.as_ptr();
        let mut i = 0;
        while i + 2 * LANES <= src.len() {
            // SAFETY: `i + 64 <= src.len()`: both 32-byte loads are in bounds.
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(p.add(i).cast()),
                    _mm256_loadu_si256(p.add(i + LANES).cast()),
                )
            };
            if _mm256_movemask_epi8(_mm256_or_si256(a, b)) != 0 {
                break;
            }
            i += 2 * LANES;
        }
        while i + LANES <= src.len() {
            // SAFETY: `i + 32 <= src.len()`.
            let v = unsafe { _mm256_loadu_si256(p.add(i).cast()) };
            let mask = _mm256_movemask_epi8(v);
            if mask != 0 {
                return i + mask.trailing_zeros() as usize;
            }
            i += LANES;
        }
        i + super::scalar::ascii_prefix_len(&src[i..])
    }

    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    // Hot loop. Bounds: `n` is the shorter length and `i` only advances by 64 or 32 bytes
    // while `i + 64` or `i + 32` is at most `n`, so `i <= n`; a mask's trailing zeros `len`
    // are below 32, so `i + len <= n` as well.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    pub(crate) unsafe fn copy_ascii(src: &[u8], dst: &mut [u8]) -> usize {
        let n = src.len().min(dst.len());
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
        let mut i = 0;
        while i + 2 * LANES <= n {
            // SAFETY: `i + 64 <= n`, the length of both slices or less: the loads and the
            // stores are in bounds.
            let done = unsafe {
                let a = _mm256_loadu_si256(s.add(i).cast());
                let b = _mm256_loadu_si256(s.add(i + LANES).cast());
                let ascii = _mm256_movemask_epi8(_mm256_or_si256(a, b)) == 0;
                if ascii {
                    _mm256_storeu_si256(d.add(i).cast(), a);
                    _mm256_storeu_si256(d.add(i + LANES).cast(), b);
                }
                !ascii
            };
            if done {
                break;
            }
            i += 2 * LANES;
        }
        while i + LANES <= n {
            // SAFETY: `i + 32 <= n`: the load and the store are in bounds.
            let mask = unsafe {
                let v = _mm256_loadu_si256(s.add(i).cast());
                let mask = _mm256_movemask_epi8(v);
                if mask == 0 {
                    _mm256_storeu_si256(d.add(i).cast(), v);
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

    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    // Hot loop. Bounds: `n` is the shorter length and `i` only advances by 32 while
    // `i + 32 <= n`, so `i <= n`; a mask's trailing zeros `len` are below 32, so every `j`
    // in `i..i + len` is below `n`.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    pub(crate) unsafe fn widen_ascii(src: &[u8], dst: &mut [u16]) -> usize {
        let n = src.len().min(dst.len());
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
        let mut i = 0;
        while i + LANES <= n {
            // SAFETY: `i + 32 <= n`: the 32-byte load reads `src[i..i + 32]` and the two
            // 16-unit stores write `dst[i..i + 32]`.
            let mask = unsafe {
                let v = _mm256_loadu_si256(s.add(i).cast());
                let mask = _mm256_movemask_epi8(v);
                if mask == 0 {
                    let lo = _mm256_cvtepu8_epi16(_mm256_castsi256_si128(v));
                    let hi = _mm256_cvtepu8_epi16(_mm256_extracti128_si256::<1>(v));
                    _mm256_storeu_si256(d.add(i).cast(), lo);
                    _mm256_storeu_si256(d.add(i + 16).cast(), hi);
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

    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    // Hot loop. Bounds: `n` is the shorter length and `i` only advances by 32 while
    // `i + 32 <= n`, so `i <= n` and the tail slices are in bounds.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    pub(crate) unsafe fn narrow_basic_latin(src: &[u16], dst: &mut [u8]) -> usize {
        let n = src.len().min(dst.len());
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
        let high = _mm256_set1_epi16(0xFF80u16 as i16);
        let mut i = 0;
        while i + 32 <= n {
            // SAFETY: `i + 32 <= n`: the two 16-unit loads read `src[i..i + 32]` and the
            // 32-byte store writes `dst[i..i + 32]`.
            let ascii = unsafe {
                let a = _mm256_loadu_si256(s.add(i).cast());
                let b = _mm256_loadu_si256(s.add(i + 16).cast());
                let ascii = _mm256_testz_si256(_mm256_or_si256(a, b), high) == 1;
                if ascii {
                    // packus interleaves the 128-bit lanes: a.lo b.lo a.hi b.hi.
                    let packed = _mm256_packus_epi16(a, b);
                    let ordered = _mm256_permute4x64_epi64::<0b11_01_10_00>(packed);
                    _mm256_storeu_si256(d.add(i).cast(), ordered);
                }
                ascii
            };
            if !ascii {
                break;
            }
            i += 32;
        }
        i + super::scalar::narrow_basic_latin(&src[i..n], &mut dst[i..n])
    }
}

/// Widening writes twice what it reads, so the stores are the limit: full 64-byte stores,
/// aligned to the cache line (an unaligned one touches two lines), four per step.
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use core::arch::x86_64::*;

    /// Stores the 64 bytes of `v` widened to `d[0..64]`.
    ///
    /// # Safety
    /// The CPU must support AVX-512 F/BW; `d[0..64]` must be writable.
    #[target_feature(enable = "avx2,avx512f,avx512bw")]
    #[inline]
    unsafe fn store_widened(d: *mut u16, v: __m512i) {
        let lo = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v));
        let hi = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(v));
        // SAFETY: the caller guarantees `d[0..64]` is writable.
        unsafe {
            _mm512_storeu_si512(d.cast(), lo);
            _mm512_storeu_si512(d.add(32).cast(), hi);
        }
    }

    /// The first `available.min(64)` bytes at `p` (masked load: nothing past them is read),
    /// the length of their ASCII prefix, and a mask of that prefix's bytes.
    /// # Safety
    /// The CPU must support AVX-512 F/BW, and `available.min(64)` bytes at `p` must be
    /// readable.
    #[target_feature(enable = "avx512f,avx512bw")]
    #[inline]
    // Bounds: shifts are by less than 64 (the full cases are taken apart).
    #[allow(clippy::arithmetic_side_effects)]
    unsafe fn ascii_prefix_64(p: *const u8, available: usize) -> (__m512i, usize, u64) {
        let m = available.min(64);
        let in_bounds = if m == 64 { u64::MAX } else { (1u64 << m) - 1 };
        // SAFETY: the mask selects the `m` readable bytes only.
        let v = unsafe { _mm512_maskz_loadu_epi8(in_bounds, p.cast()) };
        let non_ascii = _mm512_movepi8_mask(v);
        let len = if non_ascii == 0 {
            m
        } else {
            non_ascii.trailing_zeros() as usize
        };
        let keep = if len == 64 {
            u64::MAX
        } else {
            (1u64 << len) - 1
        };
        (v, len, keep)
    }

    /// # Safety
    /// The CPU must support AVX-512 F/BW.
    #[target_feature(enable = "avx512f,avx512bw")]
    // Hot loop. Bounds: `n` is the shorter length; whole steps run while `i + 64 <= n`,
    // the last covers `i..i + m` with `m = (n - i).min(64)` (masked loads and stores
    // select exactly those bytes) and takes `len <= m`, so `i <= n` throughout; shifts
    // are below 64.
    #[allow(clippy::arithmetic_side_effects)]
    pub(crate) unsafe fn copy_ascii(src: &[u8], dst: &mut [u8]) -> usize {
        let n = src.len().min(dst.len());
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
        let mut i = 0;
        // Whole 64-byte steps with plain loads and stores (a loop that computed a load and a
        // store mask on every step ran at a quarter of this speed; masks of all ones alone
        // measured as fast as plain accesses, so the cause is the per-step mask work) …
        while i + 64 <= n {
            // SAFETY: `i + 64 <= n`: the load reads `src[i..i + 64]`.
            let v = unsafe { _mm512_loadu_si512(s.add(i).cast()) };
            if _mm512_movepi8_mask(v) != 0 {
                break;
            }
            // SAFETY: `i + 64 <= n`: the store writes `dst[i..i + 64]`.
            unsafe { _mm512_storeu_si512(d.add(i).cast(), v) };
            i += 64;
        }
        // … then the step that ends the run (or the tail) masked: short runs need no
        // scalar loop or `memcpy` call.
        // SAFETY: `i <= n`: `src[i..i + (n - i).min(64)]` is readable.
        let (v, len, keep) = unsafe { ascii_prefix_64(s.add(i), n - i) };
        // SAFETY: the mask selects `dst[i..i + len]`, `len <= n - i`.
        unsafe { _mm512_mask_storeu_epi8(d.add(i).cast(), keep, v) };
        i + len
    }

    /// # Safety
    /// The CPU must support AVX2 and AVX-512 F/BW.
    #[target_feature(enable = "avx2,avx512f,avx512bw")]
    // Hot loop. Bounds: `n` is the shorter length. The first step takes `len <= n.min(64)`
    // units; the loop runs only after 64 (so `64 <= n`) and then
    // `i` is at most 64, and it only advances by 128 or 64 while `i + 128`
    // or `i + 64` is at most `n`, so `i <= n`, the sums cannot overflow and the tail
    // slices are in bounds; a mask's trailing zeros are below 64.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    pub(crate) unsafe fn widen_ascii(src: &[u8], dst: &mut [u16]) -> usize {
        let n = src.len().min(dst.len());
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
        // The first (up to) 64 bytes with masked loads and stores: short runs (words,
        // markup between non-ASCII text) end here without a scalar tail.
        // SAFETY: `src[..n.min(64)]` is readable.
        let (v, len, keep) = unsafe { ascii_prefix_64(s, n) };
        // SAFETY: the masks select units of `dst[0..len]` only, `len <= n`.
        unsafe {
            _mm512_mask_storeu_epi16(
                d.cast(),
                keep as u32,
                _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v)),
            );
            _mm512_mask_storeu_epi16(
                d.add(32).cast(),
                (keep >> 32) as u32,
                _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(v)),
            );
        }
        if len < 64 {
            return len;
        }
        // Go on from the first unit on a cache line boundary (the units before it, and
        // some after, are written already).
        let misaligned = (d as usize / 2) % 32;
        let mut i = if misaligned == 0 { 64 } else { 32 - misaligned };
        while i + 128 <= n {
            // SAFETY: `i + 128 <= n`: the loads read `src[i..i + 128]` and the stores write
            // `dst[i..i + 128]`.
            let ascii = unsafe {
                let a = _mm512_loadu_si512(s.add(i).cast());
                let b = _mm512_loadu_si512(s.add(i + 64).cast());
                let ascii = _mm512_movepi8_mask(_mm512_or_si512(a, b)) == 0;
                if ascii {
                    store_widened(d.add(i), a);
                    store_widened(d.add(i + 64), b);
                }
                ascii
            };
            if !ascii {
                break;
            }
            i += 128;
        }
        while i + 64 <= n {
            // SAFETY: `i + 64 <= n`: the load reads `src[i..i + 64]`.
            let v = unsafe { _mm512_loadu_si512(s.add(i).cast()) };
            let mask = _mm512_movepi8_mask(v);
            if mask != 0 {
                // The ASCII bytes before the first other one: masked stores.
                let len = mask.trailing_zeros() as usize;
                let keep = (1u64 << len) - 1;
                let lo = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v));
                let hi = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(v));
                // SAFETY: `i + 64 <= n`; the masks select units of `dst[i..i + len]` only.
                unsafe {
                    _mm512_mask_storeu_epi16(d.add(i).cast(), keep as u32, lo);
                    _mm512_mask_storeu_epi16(d.add(i + 32).cast(), (keep >> 32) as u32, hi);
                }
                return i + len;
            }
            // SAFETY: `i + 64 <= n`: `dst[i..i + 64]` is writable.
            unsafe { store_widened(d.add(i), v) };
            i += 64;
        }
        // SAFETY: AVX-512 implies AVX2 here (both were detected).
        i + unsafe { super::avx2::widen_ascii(&src[i..n], &mut dst[i..n]) }
    }
}

#[cfg(test)]
// Bounds: test code over small buffers it builds itself; an out-of-range index or an
// overflow would panic and fail the test, which is what a test should do.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod tests {
    use super::super::dispatch::available_kernels;
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
                            let n = copy_ascii_with(k, src, &mut dst);
                            assert_eq!(n, expected.min(room));
                            assert_eq!(&dst[..n], &src[..n]);
                            assert!(dst[n..].iter().all(|&b| b == 0xFF));
                            let mut wide = alloc::vec![0xFFFFu16; room];
                            let n = widen_ascii_with(k, src, &mut wide);
                            assert_eq!(n, expected.min(room));
                            assert!(wide[..n].iter().zip(src).all(|(&w, &b)| w == u16::from(b)));
                            assert!(wide[n..].iter().all(|&w| w == 0xFFFF), "{k:?} wrote past");
                            let mut narrow = alloc::vec![0xFFu8; room];
                            let n = narrow_basic_latin_with(k, &wide_src, &mut narrow);
                            assert_eq!(n, expected.min(room), "{k:?} narrow");
                            assert_eq!(&narrow[..n], &src[..n]);
                        }
                    }
                }
            }
        }
    }
}
