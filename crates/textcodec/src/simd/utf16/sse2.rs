//! SSE2 (x86-64 baseline): UTF-16 → UTF-16 code units, 8 units per step.

use core::arch::x86_64::*;

/// Blocks of 8 units without surrogates, copied (byte-swapped for big-endian).
// Hot loop. Bounds: `read` and `written` only advance by 16 and 8 while `read + 16 <=
// src.len()` and `written + 8 <= dst.len()`, so neither passes its slice's length and the
// sums cannot overflow.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) fn bytes_to_units(src: &[u8], big_endian: bool, dst: &mut [u16]) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while read + 16 <= src.len() && written + 8 <= dst.len() {
        // SAFETY: SSE2 is part of the x86-64 baseline; the load reads `src[read..read +
        // 16]` and the store writes `dst[written..written + 8]`, both in bounds.
        let stop = unsafe {
            let mut v = _mm_loadu_si128(src.as_ptr().add(read).cast());
            if big_endian {
                v = _mm_or_si128(_mm_slli_epi16::<8>(v), _mm_srli_epi16::<8>(v));
            }
            let top5 = _mm_and_si128(v, _mm_set1_epi16(0xF800u16 as i16));
            let surrogates = _mm_cmpeq_epi16(top5, _mm_set1_epi16(0xD800u16 as i16));
            let stop = _mm_movemask_epi8(surrogates) != 0;
            if !stop {
                _mm_storeu_si128(dst.as_mut_ptr().add(written).cast(), v);
            }
            stop
        };
        if stop {
            break;
        }
        read += 16;
        written += 8;
    }
    (read, written)
}
