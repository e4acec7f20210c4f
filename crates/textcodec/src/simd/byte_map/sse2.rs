//! SSE2 (x86-64 baseline): x-user-defined to UTF-16, 16 bytes per step (no table lookup:
//! its map is arithmetic), for the SSE2 and SSE4 levels.

use crate::simd::{out_ptr, Slots};
use core::arch::x86_64::*;

/// Bytes per step.
const STEP: usize = 16;

/// Each byte widened to its unit, plus 0xF700 where it is 0x80 or above (the Standard's
/// x-user-defined decoder: 0x80..=0xFF to U+F780..=U+F7FF). Whole steps only; returns
/// the bytes taken (= units written).
// Bounds: `i + 16 <= n = min(src.len(), dst.len())` for every load and store.
#[allow(clippy::arithmetic_side_effects)]
pub(super) fn x_user_defined_to_utf16(src: &[u8], dst: &mut Slots<u16>) -> usize {
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
