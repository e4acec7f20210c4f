//! SSE2 (x86-64 baseline), 16 bytes per step: single-byte decoding to UTF-16 by
//! arithmetic where the table is linear and by lookups where it is not, and x-user-defined
//! to UTF-16 (its map is arithmetic; for the SSE2 and SSE4 levels).

use crate::index::byte_map::ByteMap;
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

/// At most this many bytes of a block outside ASCII and the linear range are looked up
/// one by one over the arithmetic's lanes; a block with more is looked up whole.
const PATCH_MAX: u32 = 4;

/// Whether `unit`, the table's unit of byte `b`, ends the kernel's prefix: an error byte
/// (unit 0, which only byte 0 maps to legitimately) or a surrogate (no index has one; the
/// kernels stop before it as before an error).
#[inline(always)]
fn stops(b: u8, unit: u16) -> bool {
    (unit == 0 && b != 0) | ((unit & 0xF800) == 0xD800)
}

/// Single-byte decoding to UTF-16, 16 bytes per step, up to the first byte whose unit
/// [`stops`] the prefix; whole steps only; returns the bytes taken (= units written).
///
/// SSE2 has no byte shuffle for the table lookups of the SSE4 and AVX2 kernels, but the
/// letters of most single-byte encodings lie in one linear range (see
/// [`crate::index::byte_map::linear_range`], perhaps around a hole of error bytes): a
/// block's ASCII bytes and bytes of the range (each to `byte + offset`) are mapped by
/// arithmetic, and its few other bytes (up to
/// [`PATCH_MAX`]: Greek capitals, Thai vowels) looked up in the table and written over the
/// arithmetic's lanes after the stores. A block with more other bytes (Central European
/// Latin, KOI8's unordered Cyrillic) is looked up whole, which costs less than patching
/// them one by one. Tables with an error byte have every looked-up byte checked before
/// anything of its block is stored (one loop over them for both ways, which costs a second
/// lookup per byte of a whole block but keeps one copy of the code: the footprint), so
/// nothing is stored past what is returned. An
/// all-ASCII block hands its run to the ASCII kernel (64 bytes per step).
// Bounds: `i + 16 <= n = min(src.len(), dst.len())` for every load and store, and every
// `src[i + j]` and `dst[i + j]` has `j < 16` (a bit of a 16-bit mask, or the loop
// counter); `units` has 256 entries, indexed by a byte.
#[allow(
    clippy::arithmetic_side_effects,
    clippy::cast_possible_wrap,
    clippy::indexing_slicing
)]
pub(in crate::simd) fn to_utf16(src: &[u8], map: &ByteMap<'_>, dst: &mut Slots<u16>) -> usize {
    let n = src.len().min(dst.len());
    let (units, range, checked) = (map.units, map.linear, map.has_errors);
    // An empty range is taken as 0x00..=0x7F with offset 0: ASCII, which the arithmetic
    // maps already, so every non-ASCII byte is looked up.
    let (lo, hi, offset) = if range.lo > range.hi {
        (0, 0x7F, 0)
    } else {
        (range.lo, range.hi, range.offset)
    };
    // An empty hole is taken as byte 0 alone, which is in no range.
    let (hole_lo, hole_hi) = if range.hole_lo > range.hole_hi {
        (0, 0)
    } else {
        (range.hole_lo, range.hole_hi)
    };
    // SAFETY: SSE2 is part of the x86-64 baseline.
    let (lo, span, offset, hole_lo, hole_span) = unsafe {
        (
            _mm_set1_epi8(lo as i8),
            _mm_set1_epi8((hi - lo) as i8),
            _mm_set1_epi16(offset as i16),
            _mm_set1_epi8(hole_lo as i8),
            _mm_set1_epi8((hole_hi - hole_lo) as i8),
        )
    };
    // The table's unit of the byte at `at`.
    let unit = |at: usize| {
        // SAFETY: every caller passes `at < i + 16 <= n`.
        units[usize::from(unsafe { *src.get_unchecked(at) })]
    };
    let mut i = 0;
    while i + STEP <= n {
        // SAFETY: SSE2 is part of the x86-64 baseline; the load reads `src[i..i + 16]`.
        let v = unsafe { _mm_loadu_si128(src.as_ptr().add(i).cast()) };
        // SAFETY: as above.
        if unsafe { _mm_movemask_epi8(v) } == 0 {
            // At least the block's first byte, which is ASCII, whatever the kernel takes.
            let ascii = crate::simd::ascii::sse2::widen_ascii(&src[i..n], &mut dst[i..n]);
            if ascii == 0 {
                dst[i].write(u16::from(src[i]));
            }
            i += ascii.max(1);
            continue;
        }
        // SAFETY: SSE2 is part of the x86-64 baseline.
        let other = unsafe {
            // In the range: `byte - lo <= hi - lo` (unsigned, as `min` keeps it), and not
            // in the hole (its error bytes are looked up, and stop).
            let from_lo = _mm_sub_epi8(v, lo);
            let in_range = _mm_cmpeq_epi8(_mm_min_epu8(from_lo, span), from_lo);
            let from_hole = _mm_sub_epi8(v, hole_lo);
            let in_hole = _mm_cmpeq_epi8(_mm_min_epu8(from_hole, hole_span), from_hole);
            let in_range = _mm_andnot_si128(in_hole, in_range);
            let ascii = _mm_cmpgt_epi8(v, _mm_set1_epi8(-1));
            !(_mm_movemask_epi8(_mm_or_si128(in_range, ascii)) as u32) & 0xFFFF
        };
        let d = out_ptr(dst);
        if checked {
            // Only the other bytes can stop (ASCII and the range map to nonzero units
            // outside the surrogates), and each is checked before anything of the block
            // is stored.
            let mut bits = other;
            while bits != 0 {
                let j = bits.trailing_zeros() as usize;
                if stops(src[i + j], unit(i + j)) {
                    // Rare: the block's units before the stop, through the table.
                    for k in 0..j {
                        // SAFETY: `i + k < i + j < i + 16 <= n`.
                        unsafe { d.add(i + k).write(unit(i + k)) };
                    }
                    return i + j;
                }
                bits &= bits - 1;
            }
        }
        if other.count_ones() > PATCH_MAX {
            // The whole block through the table.
            for j in 0..STEP {
                // SAFETY: `i + j < i + 16 <= n`.
                unsafe { d.add(i + j).write(unit(i + j)) };
            }
            i += STEP;
            continue;
        }
        // SAFETY: SSE2 is part of the x86-64 baseline; the stores write `dst[i..i + 16]`,
        // and the patches `dst[i + j]` with `j < 16`.
        unsafe {
            let zero = _mm_setzero_si128();
            // Bytes at or above 0x80 get the offset (the other bytes' lanes are patched).
            let high = _mm_cmplt_epi8(v, zero);
            for (k, (wide, mask)) in [
                (_mm_unpacklo_epi8(v, zero), _mm_unpacklo_epi8(high, high)),
                (_mm_unpackhi_epi8(v, zero), _mm_unpackhi_epi8(high, high)),
            ]
            .into_iter()
            .enumerate()
            {
                let wide = _mm_add_epi16(wide, _mm_and_si128(mask, offset));
                _mm_storeu_si128(d.add(i + 8 * k).cast(), wide);
            }
            let mut bits = other;
            while bits != 0 {
                let j = bits.trailing_zeros() as usize;
                d.add(i + j).write(unit(i + j));
                bits &= bits - 1;
            }
        }
        i += STEP;
    }
    i
}
