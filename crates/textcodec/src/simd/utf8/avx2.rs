//! AVX2: the nibble-lookup validator of `generic.rs` with 32-byte vectors (the tables
//! repeated in both 128-bit halves, as `vpshufb` looks up within each), and its one-pass
//! copy; and valid UTF-8 → UTF-16, 32 bytes per step (16 when the second half holds a
//! four-byte character).

use super::generic;
use crate::simd::vector::Isa;
use crate::simd::{out_ptr, Slots};
use core::arch::x86_64::*;

#[target_feature(enable = "avx2")]
#[inline(never)]
pub(crate) fn valid_prefix_len(src: &[u8]) -> usize {
    generic::valid_prefix_len(Isa::avx2(), src)
}

#[target_feature(enable = "avx2")]
pub(crate) fn copy_valid_prefix(src: &[u8], dst: &mut Slots<u8>) -> usize {
    generic::copy_valid_prefix(Isa::avx2(), src, dst, |chunk| valid_prefix_len(chunk))
}

/// The code point each of 16 byte positions would start (as a one-, two- or three-byte
/// lead), from the bytes `b` and the next two, `n1` and `n2`, widened to 16-bit lanes.
#[target_feature(enable = "avx2")]
#[inline]
fn units_16(b: __m256i, n1: __m256i, n2: __m256i) -> __m256i {
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
    _mm256_blendv_epi8(_mm256_blendv_epi8(b, two, lead), three, lead_3)
}

/// Converts the valid UTF-8 `src` (starting on a character boundary) to UTF-16 until a
/// four-byte character in the first 16 bytes, the last 64 bytes or the last 32 units of
/// room; stops on a character boundary. Each byte position's code point is computed in a 16-bit lane from
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
pub(crate) unsafe fn to_utf16(src: &str, dst: &mut Slots<u16>) -> (usize, usize) {
    let src = src.as_bytes();
    let (mut read, mut written) = (0, 0);
    while read + 64 <= src.len() && written + 32 <= dst.len() {
        // SAFETY: `read + 64 <= src.len()`: the loads read within `src[read..read + 34]`;
        // the stores write at most 32 units from `written` (16-byte stores, each at most
        // 8 units past the units counted before it), and `written + 32 <= dst.len()`.
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
            let ge = |b: u8| {
                let floor = _mm256_set1_epi8(b as i8);
                u64::from(
                    _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(all, floor), all))
                        as u32,
                )
            };
            let four = ge(0xF0);
            if four & 0xFFFF != 0 {
                break;
            }
            let continuation = u64::from(_mm256_movemask_epi8(_mm256_cmpeq_epi8(
                _mm256_and_si256(all, _mm256_set1_epi8(0xC0u8 as i8)),
                _mm256_set1_epi8(0x80u8 as i8),
            )) as u32);
            let (lead, lead_3) = (ge(0xC0), ge(0xE0));
            // The whole 32-byte window while it has no four-byte character (CJK text:
            // about ten characters per step), else its first 16 bytes.
            let (starts, taken, halves) = if four == 0 {
                let (starts, taken) =
                    super::pack::whole_characters::<32>(continuation, lead, lead_3);
                (starts, taken, 2)
            } else {
                let (starts, taken) = super::pack::whole_characters::<16>(
                    continuation & 0xFFFF,
                    lead & 0xFFFF,
                    lead_3 & 0xFFFF,
                );
                (starts, taken, 1)
            };
            let n1 = _mm256_loadu_si256(p.add(1).cast());
            let n2 = _mm256_loadu_si256(p.add(2).cast());
            let table = &super::pack::KEPT_UNITS;
            let mut out = d;
            for half in 0..halves {
                let (b, n1, n2) = if half == 0 {
                    (
                        _mm256_castsi256_si128(all),
                        _mm256_castsi256_si128(n1),
                        _mm256_castsi256_si128(n2),
                    )
                } else {
                    (
                        _mm256_extracti128_si256::<1>(all),
                        _mm256_extracti128_si256::<1>(n1),
                        _mm256_extracti128_si256::<1>(n2),
                    )
                };
                let units = units_16(
                    _mm256_cvtepu8_epi16(b),
                    _mm256_cvtepu8_epi16(n1),
                    _mm256_cvtepu8_epi16(n2),
                );
                let starts = starts >> (16 * half);
                let (s0, s1) = ((starts & 0xFF) as usize, ((starts >> 8) & 0xFF) as usize);
                let shuffle = _mm256_set_m128i(
                    _mm_loadu_si128(table.as_ptr().add(s1).cast()),
                    _mm_loadu_si128(table.as_ptr().add(s0).cast()),
                );
                let packed = _mm256_shuffle_epi8(units, shuffle);
                let n0 = s0.count_ones() as usize;
                _mm_storeu_si128(out.cast(), _mm256_castsi256_si128(packed));
                _mm_storeu_si128(out.add(n0).cast(), _mm256_extracti128_si256::<1>(packed));
                out = out.add(n0 + s1.count_ones() as usize);
            }
            written += starts.count_ones() as usize;
            read += taken;
        }
    }
    (read, written)
}
