//! SSSE3/SSE4.1 (x86-64-v2): valid UTF-8 → UTF-16, 16 bytes per step (the AVX2 method
//! in two 8-lane halves, with the same table).

use crate::simd::{out_ptr, Slots};
use core::arch::x86_64::*;

/// The code point each of 8 byte positions would start (as a one-, two- or three-byte
/// lead), from the bytes `b` and the next two, `n1` and `n2`, widened to 16-bit lanes.
#[target_feature(enable = "sse4.1")]
#[inline]
fn units_8(b: __m128i, n1: __m128i, n2: __m128i) -> __m128i {
    let six = _mm_set1_epi16(0x3F);
    let low1 = _mm_and_si128(n1, six);
    let two = _mm_or_si128(
        _mm_slli_epi16::<6>(_mm_and_si128(b, _mm_set1_epi16(0x1F))),
        low1,
    );
    let three = _mm_or_si128(
        _mm_or_si128(_mm_slli_epi16::<12>(b), _mm_slli_epi16::<6>(low1)),
        _mm_and_si128(n2, six),
    );
    let lead = _mm_cmpgt_epi16(b, _mm_set1_epi16(0xBF));
    let lead_3 = _mm_cmpgt_epi16(b, _mm_set1_epi16(0xDF));
    _mm_blendv_epi8(_mm_blendv_epi8(b, two, lead), three, lead_3)
}

/// As [`super::transcode_avx2::to_utf16`], 16 bytes per step; stops at a four-byte
/// character, the last 32 bytes or the last 16 units of room.
///
/// # Safety
/// The CPU must support SSSE3, SSE4.1 and POPCNT; `src` must be valid UTF-8 (otherwise
/// the output is unspecified, though memory safe).
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
// Hot loop. Bounds: `read` advances by at most 16 while `read + 32 <= src.len()`, and
// `written` by at most 16 while `written + 16 <= dst.len()`, so neither passes its
// slice's length and the sums cannot overflow.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) unsafe fn to_utf16(src: &str, dst: &mut Slots<u16>) -> (usize, usize) {
    let src = src.as_bytes();
    let (mut read, mut written) = (0, 0);
    while read + 32 <= src.len() && written + 16 <= dst.len() {
        // SAFETY: `read + 32 <= src.len()`: the loads read within `src[read..read + 18]`;
        // the stores write at most 16 units from `written`, and `written + 16 <=
        // dst.len()`.
        unsafe {
            let p = src.as_ptr().add(read);
            let d = out_ptr(dst).add(written);
            let w = _mm_loadu_si128(p.cast());
            if _mm_movemask_epi8(w) == 0 {
                _mm_storeu_si128(d.cast(), _mm_cvtepu8_epi16(w));
                _mm_storeu_si128(d.add(8).cast(), _mm_cvtepu8_epi16(_mm_srli_si128::<8>(w)));
                read += 16;
                written += 16;
                continue;
            }
            let at_least = |b: u8| {
                let floor = _mm_set1_epi8(b as i8);
                _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(w, floor), w)) as u32
            };
            if at_least(0xF0) != 0 {
                break;
            }
            let continuation = _mm_movemask_epi8(_mm_cmpeq_epi8(
                _mm_and_si128(w, _mm_set1_epi8(0xC0u8 as i8)),
                _mm_set1_epi8(0x80u8 as i8),
            )) as u32;
            let (starts, taken) = super::pack::whole_characters::<16>(
                continuation.into(),
                at_least(0xC0).into(),
                at_least(0xE0).into(),
            );
            let w1 = _mm_loadu_si128(p.add(1).cast());
            let w2 = _mm_loadu_si128(p.add(2).cast());
            let low = units_8(
                _mm_cvtepu8_epi16(w),
                _mm_cvtepu8_epi16(w1),
                _mm_cvtepu8_epi16(w2),
            );
            let high = units_8(
                _mm_cvtepu8_epi16(_mm_srli_si128::<8>(w)),
                _mm_cvtepu8_epi16(_mm_srli_si128::<8>(w1)),
                _mm_cvtepu8_epi16(_mm_srli_si128::<8>(w2)),
            );
            let (s0, s1) = ((starts & 0xFF) as usize, ((starts >> 8) & 0xFF) as usize);
            let table = &super::pack::KEPT_UNITS;
            let n0 = s0.count_ones() as usize;
            let keep = |s: usize| _mm_loadu_si128(table.as_ptr().add(s).cast());
            _mm_storeu_si128(d.cast(), _mm_shuffle_epi8(low, keep(s0)));
            _mm_storeu_si128(d.add(n0).cast(), _mm_shuffle_epi8(high, keep(s1)));
            written += n0 + s1.count_ones() as usize;
            read += taken;
        }
    }
    (read, written)
}
