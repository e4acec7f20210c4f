//! SSE2 (x86-64 baseline): x-user-defined to UTF-16, 16 bytes per step (no table lookup:
//! its map is arithmetic), for the SSE2 and SSE4 levels.

use crate::index::byte_map::LinearRange;
use crate::simd::{out_ptr, Slots};
use core::arch::x86_64::*;

/// Bytes per step.
const STEP: usize = 16;

/// Each byte widened to its unit, plus 0xF700 where it is 0x80 or above (the Standard's
/// x-user-defined decoder: 0x80..=0xFF to U+F780..=U+F7FF). Whole steps only; returns
/// the bytes taken (= units written).
// Bounds: `i + 16 <= n = min(src.len(), dst.len())` for every load and store.
#[allow(clippy::arithmetic_side_effects)]
pub(in crate::simd) fn x_user_defined_to_utf16(src: &[u8], dst: &mut Slots<u16>) -> usize {
    let n = src.len().min(dst.len());
    let d = out_ptr(dst);
    let mut i = 0;
    while i + STEP <= n {
        // SAFETY: SSE2 is part of the x86-64 baseline; the load reads `src[i..i + 16]`,
        // the stores write `dst[i..i + 16]`.
        unsafe {
            let v = _mm_loadu_si128(src.as_ptr().add(i).cast());
            let zero = _mm_setzero_si128();
            let offset = _mm_set1_epi16(0xF700u16 as i16);
            for (k, wide) in [_mm_unpacklo_epi8(v, zero), _mm_unpackhi_epi8(v, zero)]
                .into_iter()
                .enumerate()
            {
                let high = _mm_cmpgt_epi16(wide, _mm_set1_epi16(0x7F));
                let units = _mm_add_epi16(wide, _mm_and_si128(high, offset));
                _mm_storeu_si128(d.add(i + 8 * k).cast(), units);
            }
        }
        i += STEP;
    }
    i
}

/// Single-byte decoding to UTF-16 without a table: whole 16-byte blocks of ASCII bytes
/// and bytes of `range` (each to `byte + range.offset`), up to the first block with any
/// other byte; returns the bytes taken (= units written). SSE2 has no byte shuffle for the
/// table lookups of the SSE4 and AVX2 kernels, but the letters of most single-byte
/// encodings lie in one such range (see [`crate::index::byte_map::linear_range`]).
// Bounds: `i + 16 <= n = min(src.len(), dst.len())` for every load and store.
#[allow(clippy::arithmetic_side_effects, clippy::cast_possible_wrap)]
pub(in crate::simd) fn linear_to_utf16(
    src: &[u8],
    range: LinearRange,
    dst: &mut Slots<u16>,
) -> usize {
    let n = src.len().min(dst.len());
    if range.lo > range.hi {
        return 0;
    }
    let d = out_ptr(dst);
    let mut i = 0;
    // SAFETY: SSE2 is part of the x86-64 baseline.
    let (lo, span, offset) = unsafe {
        (
            _mm_set1_epi8(range.lo as i8),
            _mm_set1_epi8((range.hi - range.lo) as i8),
            _mm_set1_epi16(range.offset as i16),
        )
    };
    while i + STEP <= n {
        // SAFETY: SSE2 is part of the x86-64 baseline; the load reads `src[i..i + 16]`,
        // the stores write `dst[i..i + 16]`.
        unsafe {
            let v = _mm_loadu_si128(src.as_ptr().add(i).cast());
            let zero = _mm_setzero_si128();
            // In the range: `byte - lo <= hi - lo` (unsigned, as `min` keeps it).
            let from_lo = _mm_sub_epi8(v, lo);
            let in_range = _mm_cmpeq_epi8(_mm_min_epu8(from_lo, span), from_lo);
            let ascii = _mm_cmpgt_epi8(v, _mm_set1_epi8(-1));
            if _mm_movemask_epi8(_mm_or_si128(in_range, ascii)) != 0xFFFF {
                break;
            }
            // Bytes at or above 0x80 are all in the range here.
            let high = _mm_cmplt_epi8(v, zero);
            for (k, (wide, mask)) in [
                (_mm_unpacklo_epi8(v, zero), _mm_unpacklo_epi8(high, high)),
                (_mm_unpackhi_epi8(v, zero), _mm_unpackhi_epi8(high, high)),
            ]
            .into_iter()
            .enumerate()
            {
                let units = _mm_add_epi16(wide, _mm_and_si128(mask, offset));
                _mm_storeu_si128(d.add(i + 8 * k).cast(), units);
            }
        }
        i += STEP;
    }
    i
}
