use crate::simd::{out_ptr, write_short, Slots};
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
pub(crate) fn copy_ascii(src: &[u8], dst: &mut Slots<u8>) -> usize {
    let n = src.len().min(dst.len());
    let mut i = 0;
    while i + LANES <= n {
        // SAFETY: `i + 16 <= n <= len` of both slices: the load and the store are in
        // bounds. SSE2 is part of the x86-64 baseline.
        let mask = unsafe {
            let v = _mm_loadu_si128(src.as_ptr().add(i).cast());
            let mask = _mm_movemask_epi8(v);
            if mask == 0 {
                _mm_storeu_si128(out_ptr(dst).add(i).cast(), v);
            }
            mask
        };
        if mask != 0 {
            let len = mask.trailing_zeros() as usize;
            write_short(&mut dst[i..i + len], &src[i..i + len]);
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
pub(crate) fn widen_ascii(src: &[u8], dst: &mut Slots<u16>) -> usize {
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
                let out = out_ptr(dst).add(i);
                _mm_storeu_si128(out.cast(), lo);
                _mm_storeu_si128(out.add(8).cast(), hi);
            }
            mask
        };
        if mask != 0 {
            let len = mask.trailing_zeros() as usize;
            for j in i..i + len {
                dst[j].write(u16::from(src[j]));
            }
            return i + len;
        }
        i += LANES;
    }
    i + super::scalar::widen_ascii(&src[i..n], &mut dst[i..n])
}
