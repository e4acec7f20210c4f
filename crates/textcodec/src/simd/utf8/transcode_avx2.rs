//! AVX2: valid UTF-8 → UTF-16, 16 bytes per step (32 when they are all ASCII).

use crate::simd::{out_ptr, Slots};
use core::arch::x86_64::*;

/// Converts the valid UTF-8 `src` (starting on a character boundary) to UTF-16 until a
/// four-byte character, the last 32 bytes or the last 32 units of room; stops on a
/// character boundary. Each byte position's code point is computed in a 16-bit lane from
/// the byte and the two after it (as if it were a one-, two- or three-byte lead), and the
/// lanes at character starts are packed by `pshufb`, 8 lanes at a time. Returns (bytes
/// read, units written); `dst` past `written` may be overwritten.
///
/// # Safety
/// The CPU must support AVX2, BMI2 and POPCNT; `src` must be valid UTF-8 (otherwise the
/// output is unspecified, though memory safe).
#[target_feature(enable = "avx2,bmi2,popcnt")]
// Hot loop. Bounds: `read` advances by at most 32 while `read + 32 <= src.len()`, and
// `written` by at most 32 while `written + 32 <= dst.len()`, so neither passes its
// slice's length and the sums cannot overflow.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) unsafe fn to_utf16(src: &[u8], dst: &mut Slots<u16>) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while read + 32 <= src.len() && written + 32 <= dst.len() {
        // SAFETY: `read + 32 <= src.len()`: the loads read `src[read..read + 32]`; the
        // stores write at most 32 units from `written`, and `written + 32 <= dst.len()`.
        unsafe {
            let p = src.as_ptr().add(read);
            let d = out_ptr(dst).add(written);
            let all = _mm256_loadu_si256(p.cast());
            if _mm256_movemask_epi8(all) == 0 {
                _mm256_storeu_si256(d.cast(), _mm256_cvtepu8_epi16(_mm256_castsi256_si128(all)));
                let high = _mm256_extracti128_si256::<1>(all);
                _mm256_storeu_si256(d.add(16).cast(), _mm256_cvtepu8_epi16(high));
                read += 32;
                written += 32;
                continue;
            }
            let w = _mm256_castsi256_si128(all);
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
            let (starts, taken) =
                super::pack::whole_characters(continuation, at_least(0xC0), at_least(0xE0));
            let b = _mm256_cvtepu8_epi16(w);
            let n1 = _mm256_cvtepu8_epi16(_mm_loadu_si128(p.add(1).cast()));
            let n2 = _mm256_cvtepu8_epi16(_mm_loadu_si128(p.add(2).cast()));
            let six = _mm256_set1_epi16(0x3F);
            let low1 = _mm256_and_si256(n1, six);
            let two = _mm256_or_si256(
                _mm256_slli_epi16::<6>(_mm256_and_si256(b, _mm256_set1_epi16(0x1F))),
                low1,
            );
            let three = _mm256_or_si256(
                _mm256_or_si256(_mm256_slli_epi16::<12>(b), _mm256_slli_epi16::<6>(low1)),
                _mm256_and_si256(n2, six),
            );
            let lead = _mm256_cmpgt_epi16(b, _mm256_set1_epi16(0xBF));
            let lead_3 = _mm256_cmpgt_epi16(b, _mm256_set1_epi16(0xDF));
            let units = _mm256_blendv_epi8(_mm256_blendv_epi8(b, two, lead), three, lead_3);
            let (s0, s1) = ((starts & 0xFF) as usize, ((starts >> 8) & 0xFF) as usize);
            let table = &super::pack::KEPT_UNITS;
            let shuffle = _mm256_set_m128i(
                _mm_loadu_si128(table.as_ptr().add(s1).cast()),
                _mm_loadu_si128(table.as_ptr().add(s0).cast()),
            );
            let packed = _mm256_shuffle_epi8(units, shuffle);
            let n0 = s0.count_ones() as usize;
            _mm_storeu_si128(d.cast(), _mm256_castsi256_si128(packed));
            _mm_storeu_si128(d.add(n0).cast(), _mm256_extracti128_si256::<1>(packed));
            written += n0 + s1.count_ones() as usize;
            read += taken;
        }
    }
    (read, written)
}
