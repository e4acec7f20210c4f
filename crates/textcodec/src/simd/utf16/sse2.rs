//! SSE2 (x86-64 baseline): UTF-16 → UTF-16 code units and UTF-16 → UTF-8, 8 units per step.

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

/// UTF-16 → UTF-8, 8 units per step, for blocks without surrogates (a block with one
/// stops the loop: the scalar twin takes it). SSE2 has no byte shuffle to pack mixed
/// lengths, so an all-ASCII block is packed (`packuswb`) and any other block is written
/// unit by unit from a register spill, with no classification left to do but the length.
/// Every store writes output bytes only: nothing past what it reports changes.
// Hot loop. Bounds: `read` advances by 16 while `read + 16 <= src.len()`; `written`
// advances by at most 24 per step while `written + 24 <= dst.len()`, and a step writes
// `dst[written..written + 24]` at most; so no index passes its slice's length and the sums
// cannot overflow. `u >> 6` and `u >> 12` of a `u16` fit a byte after the masks.
#[allow(
    clippy::arithmetic_side_effects,
    clippy::indexing_slicing,
    clippy::cast_possible_truncation
)]
pub(crate) fn bytes_to_utf8(src: &[u8], big_endian: bool, dst: &mut [u8]) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while read + 16 <= src.len() && written + 24 <= dst.len() {
        let mut units = [0u16; 8];
        // SAFETY: SSE2 is part of the x86-64 baseline; the load reads `src[read..read +
        // 16]`, in bounds; the stores write `dst[written..written + 8]` (room checked)
        // and the 16 bytes of `units`.
        let ascii = unsafe {
            let mut v = _mm_loadu_si128(src.as_ptr().add(read).cast());
            if big_endian {
                v = _mm_or_si128(_mm_slli_epi16::<8>(v), _mm_srli_epi16::<8>(v));
            }
            let above = _mm_and_si128(v, _mm_set1_epi16(0xFF80u16 as i16));
            if _mm_movemask_epi8(_mm_cmpeq_epi16(above, _mm_setzero_si128())) == 0xFFFF {
                _mm_storel_epi64(dst.as_mut_ptr().add(written).cast(), _mm_packus_epi16(v, v));
                true
            } else {
                let top5 = _mm_and_si128(v, _mm_set1_epi16(0xF800u16 as i16));
                let surrogates = _mm_cmpeq_epi16(top5, _mm_set1_epi16(0xD800u16 as i16));
                if _mm_movemask_epi8(surrogates) != 0 {
                    break;
                }
                _mm_storeu_si128(units.as_mut_ptr().cast(), v);
                false
            }
        };
        read += 16;
        if ascii {
            written += 8;
            continue;
        }
        let out = &mut dst[written..written + 24];
        let mut n = 0;
        for u in units {
            if u < 0x80 {
                out[n] = u as u8;
                n += 1;
            } else if u < 0x800 {
                out[n] = 0xC0 | (u >> 6) as u8;
                out[n + 1] = 0x80 | (u & 0x3F) as u8;
                n += 2;
            } else {
                out[n] = 0xE0 | (u >> 12) as u8;
                out[n + 1] = 0x80 | ((u >> 6) & 0x3F) as u8;
                out[n + 2] = 0x80 | (u & 0x3F) as u8;
                n += 3;
            }
        }
        written += n;
    }
    (read, written)
}
