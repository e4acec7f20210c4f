//! SSSE3/SSE4.1 (x86-64-v2): single-byte table lookups, 16 bytes per step, with the
//! chained `pshufb` tables of the AVX2 kernel (see `avx2.rs`) at half the width; into
//! UTF-8, a map that is linear over the whole upper half (x-user-defined) by arithmetic.

use super::super::utf16::sse4::{below_0800, bmp_4, store_exact, Packed};
use crate::index::byte_map::ByteMap;
use crate::simd::{out_ptr, write_slots, write_utf8, Slots};
use core::arch::x86_64::*;

/// Bytes per step.
const STEP: usize = 16;

/// The two byte planes of the 128 non-ASCII entries, each as eight chained tables.
struct Planes {
    low: [__m128i; 8],
    high: [__m128i; 8],
}

impl Planes {
    /// # Safety
    /// The CPU must support SSE4.1.
    #[target_feature(enable = "sse4.1")]
    // Bounds: `t < 8`: the loads read `units[128 + 16t .. 128 + 16t + 16]`.
    #[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
    unsafe fn load(units: &[u16; 256]) -> Self {
        let mut planes = Planes {
            low: [_mm_setzero_si128(); 8],
            high: [_mm_setzero_si128(); 8],
        };
        let (mut prev_low, mut prev_high) = (_mm_setzero_si128(), _mm_setzero_si128());
        let mask = _mm_set1_epi16(0xFF);
        for t in 0..8 {
            // SAFETY: entries 128 + 16t .. 128 + 16(t + 1) are within the table.
            let (a, b) = unsafe {
                let p = units.as_ptr().add(128 + 16 * t);
                (_mm_loadu_si128(p.cast()), _mm_loadu_si128(p.add(8).cast()))
            };
            let low = _mm_packus_epi16(_mm_and_si128(a, mask), _mm_and_si128(b, mask));
            let high = _mm_packus_epi16(_mm_srli_epi16::<8>(a), _mm_srli_epi16::<8>(b));
            planes.low[t] = _mm_xor_si128(low, prev_low);
            planes.high[t] = _mm_xor_si128(high, prev_high);
            (prev_low, prev_high) = (low, high);
        }
        planes
    }

    /// The code units of 16 bytes as units 0-7 and 8-15, and a mask of the bytes that
    /// are errors (a non-ASCII byte whose entry is 0 or a surrogate).
    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    fn map(&self, bytes: __m128i) -> (__m128i, __m128i, u32) {
        let mut index = _mm_and_si128(bytes, _mm_set1_epi8(0x7F));
        let (mut low, mut high) = (_mm_setzero_si128(), _mm_setzero_si128());
        for (l, h) in self.low.iter().zip(&self.high) {
            low = _mm_xor_si128(low, _mm_shuffle_epi8(*l, index));
            high = _mm_xor_si128(high, _mm_shuffle_epi8(*h, index));
            index = _mm_sub_epi8(index, _mm_set1_epi8(16));
        }
        let non_ascii = _mm_cmplt_epi8(bytes, _mm_setzero_si128());
        let low = _mm_blendv_epi8(bytes, low, non_ascii);
        let high = _mm_and_si128(high, non_ascii);
        let zero = _mm_cmpeq_epi8(_mm_or_si128(low, high), _mm_setzero_si128());
        let surrogate = _mm_cmpeq_epi8(
            _mm_and_si128(high, _mm_set1_epi8(0xF8u8 as i8)),
            _mm_set1_epi8(0xD8u8 as i8),
        );
        let errors = _mm_and_si128(_mm_or_si128(zero, surrogate), non_ascii);
        (
            _mm_unpacklo_epi8(low, high),
            _mm_unpackhi_epi8(low, high),
            _mm_movemask_epi8(errors) as u32,
        )
    }
}

/// The units of 16 bytes by arithmetic, for a map whose linear range is the whole upper
/// half (x-user-defined: 0x80..=0xFF to U+F780..=U+F7FF): `byte + offset` for the bytes at
/// or above 0x80, the byte itself below.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
fn map_upper_half(bytes: __m128i, offset: __m128i) -> (__m128i, __m128i) {
    let high = _mm_cmplt_epi8(bytes, _mm_setzero_si128());
    let add = |v: __m128i, h: __m128i| {
        _mm_add_epi16(
            _mm_cvtepu8_epi16(v),
            _mm_and_si128(_mm_cvtepi8_epi16(h), offset),
        )
    };
    (
        add(bytes, high),
        add(_mm_srli_si128::<8>(bytes), _mm_srli_si128::<8>(high)),
    )
}

/// The units of a step, stored to a buffer to be copied up to an error.
#[inline]
fn spill(a: __m128i, b: __m128i) -> [u16; 16] {
    let mut units = [0u16; 16];
    // SAFETY: `units` holds 16 units: two 8-unit stores; SSE2 is baseline on x86-64.
    unsafe {
        _mm_storeu_si128(units.as_mut_ptr().cast(), a);
        _mm_storeu_si128(units.as_mut_ptr().add(8).cast(), b);
    }
    units
}

/// # Safety
/// The CPU must support SSSE3 and SSE4.1.
#[target_feature(enable = "ssse3,sse4.1")]
// Hot loop. Bounds: a step runs only while `i + 16 <= n` (the shorter length), then `i`
// advances by 16, so it never passes `n`; `valid` (an error's position) is below 16.
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
pub(in crate::simd) unsafe fn to_utf16(
    src: &[u8],
    map: &ByteMap<'_>,
    dst: &mut Slots<u16>,
) -> usize {
    let units = map.units;
    let n = src.len().min(dst.len());
    // SAFETY: SSE4.1 is enabled here.
    let planes = unsafe { Planes::load(units) };
    let mut i = 0;
    while i + STEP <= n {
        // SAFETY: `i + 16 <= n`: the load reads `src[i..i + 16]` and the stores write
        // `dst[i..i + 16]`.
        unsafe {
            let bytes = _mm_loadu_si128(src.as_ptr().add(i).cast());
            let (a, b) = if _mm_movemask_epi8(bytes) == 0 {
                (
                    _mm_cvtepu8_epi16(bytes),
                    _mm_cvtepu8_epi16(_mm_srli_si128::<8>(bytes)),
                )
            } else {
                let (a, b, errors) = planes.map(bytes);
                if errors != 0 {
                    let valid = errors.trailing_zeros() as usize;
                    write_slots(&mut dst[i..i + valid], &spill(a, b)[..valid]);
                    return i + valid;
                }
                (a, b)
            };
            let d = out_ptr(dst).add(i);
            _mm_storeu_si128(d.cast(), a);
            _mm_storeu_si128(d.add(8).cast(), b);
        }
        i += STEP;
    }
    i
}

/// Output bytes a step may need: three per byte, and the 16 that `store_exact` saves and
/// restores after them.
const ROOM: usize = 3 * STEP + 16;

/// # Safety
/// The CPU must support SSSE3, SSE4.1 and POPCNT.
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
// Hot loop. Bounds: a step runs only while `i + 16 <= src.len()` and `written + 64 <=
// dst.len()`, writes at most 48 bytes of output (plus the 16 after them, restored) and
// advances `i` by at most 16; `valid` is below 16.
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
pub(in crate::simd) unsafe fn to_utf8(
    src: &[u8],
    map: &ByteMap<'_>,
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    let units = map.units;
    // SAFETY: SSE4.1 is enabled here.
    let planes = unsafe { Planes::load(units) };
    // A linear range over the whole upper half, without a hole: every block by
    // arithmetic, without the sixteen `pshufb` of `Planes::map` (x-user-defined ru.text:
    // 0.77x → 1.04-1.11x encoding_rs).
    let r = map.linear;
    let upper_half = (r.lo == 0x80 && r.hi == 0xFF && r.hole_lo > r.hole_hi)
        .then(|| _mm_set1_epi16(r.offset as i16));
    let (mut i, mut written) = (0, 0);
    while i + STEP <= src.len() && written + ROOM <= dst.len() {
        // SAFETY: `i + 16 <= src.len()`: the load reads `src[i..i + 16]`; the stores
        // write within `dst[written..written + 64]`.
        unsafe {
            let bytes = _mm_loadu_si128(src.as_ptr().add(i).cast());
            let d = out_ptr(dst);
            if _mm_movemask_epi8(bytes) == 0 {
                _mm_storeu_si128(d.add(written).cast(), bytes);
                i += STEP;
                written += STEP;
                continue;
            }
            let (a, b, errors) = match upper_half {
                Some(offset) => {
                    let (a, b) = map_upper_half(bytes, offset);
                    (a, b, 0)
                }
                None => planes.map(bytes),
            };
            if errors != 0 {
                // The characters before the error, one at a time (rare).
                let valid = errors.trailing_zeros() as usize;
                for &u in &spill(a, b)[..valid] {
                    let c = char::from_u32(u32::from(u)).unwrap_or('\u{FFFD}');
                    {
                        let len = c.len_utf8();
                        write_utf8(&mut dst[written..written + len], c);
                        written += len;
                    }
                }
                return (i + valid, written);
            }
            let mut parts: [Packed; 4] = [(_mm_setzero_si128(), 0); 4];
            let mut count = 0;
            for v in [a, b] {
                if _mm_testz_si128(v, _mm_set1_epi16(0xF800u16 as i16)) != 0 {
                    parts[count] = below_0800(v);
                    count += 1;
                } else {
                    parts[count] = bmp_4(_mm_cvtepu16_epi32(v));
                    parts[count + 1] = bmp_4(_mm_cvtepu16_epi32(_mm_srli_si128::<8>(v)));
                    count += 2;
                }
            }
            written = store_exact(d, written, &parts[..count]);
        }
        i += STEP;
    }
    (i, written)
}
