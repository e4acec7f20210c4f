//! AVX2: single-byte table lookups, 32 bytes per step, with `pshufb`.
//!
//! The table's 128 non-ASCII entries are split into two byte planes (the low and the high
//! bytes of the code units), each held as eight 16-entry tables. `pshufb` by `(byte &
//! 0x7F) - 16t` looks a byte up in table t: a byte below table t gives a negative index,
//! which `pshufb` turns into 0, but a byte above it gives its column's entry of table t.
//! So each table is stored XORed with the one before it, and the XOR of all eight
//! lookups leaves exactly the entry of the byte's own table.

use super::super::utf16::avx2::{below_0800, bmp_8, store_exact, Packed};
use super::pack::KEPT_BYTES;
use super::BLOCK;
use crate::index::byte_map::ByteMap;
use crate::simd::{out_ptr, write_slots, write_utf8, Slots};
use core::arch::x86_64::*;

/// The two planes, each as eight chained tables (see the module docs), in both lanes.
struct Planes {
    low: [__m256i; 8],
    high: [__m256i; 8],
}

impl Planes {
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    // Bounds: `t < 8`: the loads read `units[128 + 16t .. 128 + 16t + 16]`.
    #[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
    unsafe fn load(units: &[u16; 256]) -> Self {
        let mut planes = Planes {
            low: [_mm256_setzero_si256(); 8],
            high: [_mm256_setzero_si256(); 8],
        };
        let (mut prev_low, mut prev_high) = (_mm_setzero_si128(), _mm_setzero_si128());
        for t in 0..8 {
            // SAFETY: entries 128 + 16t .. 128 + 16(t + 1) are within the table.
            let v = unsafe { _mm256_loadu_si256(units.as_ptr().add(128 + 16 * t).cast()) };
            let bytes = _mm256_packus_epi16(
                _mm256_and_si256(v, _mm256_set1_epi16(0xFF)),
                _mm256_srli_epi16::<8>(v),
            );
            // Quads: low bytes of entries 0-7, high 0-7, low 8-15, high 8-15 → low 0-15,
            // high 0-15.
            let ordered = _mm256_permute4x64_epi64::<0b11_01_10_00>(bytes);
            let (low, high) = (
                _mm256_castsi256_si128(ordered),
                _mm256_extracti128_si256::<1>(ordered),
            );
            planes.low[t] = _mm256_broadcastsi128_si256(_mm_xor_si128(low, prev_low));
            planes.high[t] = _mm256_broadcastsi128_si256(_mm_xor_si128(high, prev_high));
            (prev_low, prev_high) = (low, high);
        }
        planes
    }

    /// The code units of 32 bytes as units 0-15 and 16-31, and a mask of the bytes that
    /// are errors (a non-ASCII byte whose entry is 0 or a surrogate).
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn map(&self, bytes: __m256i) -> (__m256i, __m256i, u32) {
        let mut index = _mm256_and_si256(bytes, _mm256_set1_epi8(0x7F));
        let (mut low, mut high) = (_mm256_setzero_si256(), _mm256_setzero_si256());
        for (l, h) in self.low.iter().zip(&self.high) {
            low = _mm256_xor_si256(low, _mm256_shuffle_epi8(*l, index));
            high = _mm256_xor_si256(high, _mm256_shuffle_epi8(*h, index));
            index = _mm256_sub_epi8(index, _mm256_set1_epi8(16));
        }
        let non_ascii = _mm256_cmpgt_epi8(_mm256_setzero_si256(), bytes);
        let low = _mm256_blendv_epi8(bytes, low, non_ascii);
        let high = _mm256_and_si256(high, non_ascii);
        let zero = _mm256_cmpeq_epi8(_mm256_or_si256(low, high), _mm256_setzero_si256());
        let surrogate = _mm256_cmpeq_epi8(
            _mm256_and_si256(high, _mm256_set1_epi8(0xF8u8 as i8)),
            _mm256_set1_epi8(0xD8u8 as i8),
        );
        let errors = _mm256_and_si256(_mm256_or_si256(zero, surrogate), non_ascii);
        // Interleave the planes (in-lane), then put the halves in order.
        let (u0, u1) = (
            _mm256_unpacklo_epi8(low, high),
            _mm256_unpackhi_epi8(low, high),
        );
        (
            _mm256_permute2x128_si256::<0x20>(u0, u1),
            _mm256_permute2x128_si256::<0x31>(u0, u1),
            _mm256_movemask_epi8(errors) as u32,
        )
    }
}

/// The units of a block up to its first error, stored to a buffer to be copied.
///
/// # Safety
/// The CPU must support AVX.
#[target_feature(enable = "avx")]
#[inline]
unsafe fn spill(a: __m256i, b: __m256i) -> [u16; 32] {
    let mut units = [0u16; 32];
    // SAFETY: `units` holds 32 units: two 16-unit stores.
    unsafe {
        _mm256_storeu_si256(units.as_mut_ptr().cast(), a);
        _mm256_storeu_si256(units.as_mut_ptr().add(16).cast(), b);
    }
    units
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
// Hot loop. Bounds: a block runs only while `i + 32 <= n` (the shorter length), then `i`
// advances by 32, so it never passes `n`; `valid` (an error's position) is below 32.
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
pub(in crate::simd) unsafe fn to_utf16(
    src: &[u8],
    map: &ByteMap<'_>,
    dst: &mut Slots<u16>,
) -> usize {
    let units = map.units;
    let n = src.len().min(dst.len());
    // SAFETY: AVX2 is enabled here.
    let planes = unsafe { Planes::load(units) };
    let mut i = 0;
    while i + BLOCK <= n {
        // SAFETY: `i + 32 <= n`: the load reads `src[i..i + 32]` and the stores write
        // `dst[i..i + 32]`.
        unsafe {
            let bytes = _mm256_loadu_si256(src.as_ptr().add(i).cast());
            let d = out_ptr(dst).add(i);
            let (a, b) = if _mm256_movemask_epi8(bytes) == 0 {
                (
                    _mm256_cvtepu8_epi16(_mm256_castsi256_si128(bytes)),
                    _mm256_cvtepu8_epi16(_mm256_extracti128_si256::<1>(bytes)),
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
            _mm256_storeu_si256(d.cast(), a);
            _mm256_storeu_si256(d.add(16).cast(), b);
        }
        i += BLOCK;
    }
    i
}

/// Output bytes a block may need: three per byte, and the 16 that `store_exact` saves
/// and restores after them.
const ROOM: usize = 3 * BLOCK + 16;

/// # Safety
/// The CPU must support AVX2, BMI2 and POPCNT.
#[target_feature(enable = "avx2,bmi2,popcnt")]
// Hot loop. Bounds: a step runs only while `i + 32 <= src.len()` and `written + 112 <=
// dst.len()`, writes at most 96 bytes of output (plus the 16 after them, restored) and
// advances `i` by at most 32; `valid` is below 32.
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
pub(in crate::simd) unsafe fn to_utf8(
    src: &[u8],
    map: &ByteMap<'_>,
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    let units = map.units;
    // SAFETY: AVX2 is enabled here.
    let planes = unsafe { Planes::load(units) };
    let (mut i, mut written) = (0, 0);
    while i + BLOCK <= src.len() && written + ROOM <= dst.len() {
        // SAFETY: `i + 32 <= src.len()`: the load reads `src[i..i + 32]`; the stores
        // write within `dst[written..written + 112]`.
        unsafe {
            let bytes = _mm256_loadu_si256(src.as_ptr().add(i).cast());
            let d = out_ptr(dst);
            if _mm256_movemask_epi8(bytes) == 0 {
                _mm256_storeu_si256(d.add(written).cast(), bytes);
                i += BLOCK;
                written += BLOCK;
                continue;
            }
            let (a, b, errors) = planes.map(bytes);
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
            let mut parts: [Packed; 4] = [(_mm256_setzero_si256(), 0, 0); 4];
            let mut count = 0;
            for v in [a, b] {
                if _mm256_testz_si256(v, _mm256_set1_epi16(0xF800u16 as i16)) != 0 {
                    parts[count] = below_0800(v);
                    count += 1;
                } else {
                    parts[count] = bmp_8(_mm256_cvtepu16_epi32(_mm256_castsi256_si128(v)));
                    parts[count + 1] =
                        bmp_8(_mm256_cvtepu16_epi32(_mm256_extracti128_si256::<1>(v)));
                    count += 2;
                }
            }
            written = store_exact(d, written, &parts[..count]);
        }
        i += BLOCK;
    }
    (i, written)
}

/// x-user-defined to UTF-16, 32 bytes per step: ASCII as it is, 0x80 + k to U+F780 + k
/// (0xF700 added to the widened non-ASCII bytes). Every byte is valid.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
// Hot loop. Bounds: `i` advances by 32 while `i + 32 <= n` (the shorter length).
#[allow(clippy::arithmetic_side_effects)]
pub(in crate::simd) unsafe fn x_user_defined_to_utf16(src: &[u8], dst: &mut Slots<u16>) -> usize {
    let n = src.len().min(dst.len());
    let offset = _mm256_set1_epi16(0xF700u16 as i16);
    let mut i = 0;
    while i + BLOCK <= n {
        // SAFETY: `i + 32 <= n`: the load reads `src[i..i + 32]`, the stores write
        // `dst[i..i + 32]`.
        unsafe {
            let v = _mm256_loadu_si256(src.as_ptr().add(i).cast());
            let d = out_ptr(dst).add(i);
            for (k, half) in [_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v)]
                .into_iter()
                .enumerate()
            {
                let wide = _mm256_cvtepu8_epi16(half);
                let high = _mm256_cmpgt_epi16(wide, _mm256_set1_epi16(0x7F));
                let units = _mm256_add_epi16(wide, _mm256_and_si256(high, offset));
                _mm256_storeu_si256(d.add(16 * k).cast(), units);
            }
        }
        i += BLOCK;
    }
    i
}

/// The bytes of one 128-bit lane of `v` whose bits are set in `keep` (16 bits), packed:
/// the kept bytes of its first 8 in the low half, those of its last 8 in the high half,
/// with their counts, for [`store_exact`].
///
/// # Safety
/// The CPU must support AVX2 and POPCNT.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
// Bounds: `keep & 0xFF` and `keep >> 8` index a 256-entry table (keep < 2^16).
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
unsafe fn keep_bytes(lane: __m128i, keep: u32) -> Packed {
    let (first, second) = ((keep & 0xFF) as usize, (keep >> 8 & 0xFF) as usize);
    let control = _mm256_set_epi64x(
        i64::from_le_bytes([0x80; 8]),
        (KEPT_BYTES[second] | 0x0808_0808_0808_0808) as i64,
        i64::from_le_bytes([0x80; 8]),
        KEPT_BYTES[first] as i64,
    );
    let packed = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(lane), control);
    (
        packed,
        first.count_ones() as usize,
        second.count_ones() as usize,
    )
}

/// Encodes a prefix of `src` (the bytes of a `&str` from a character boundary) as
/// x-user-defined, 32 bytes per step: ASCII as it is, U+F780..=U+F7FF (`EF 9E/9F xx`) to
/// 0x80 | (second & 1) << 6 | (third & 0x3F). Stops before any other character, or when a
/// step's output (with [`store_exact`]'s 16 bytes after it) might not fit. Returns (bytes
/// read, bytes written).
///
/// # Safety
/// The CPU must support AVX2, BMI2 and POPCNT.
#[target_feature(enable = "avx2,bmi2,popcnt")]
// Hot loop. Bounds: a step runs only while `i + 32 <= src.len()` and `written + 48 <=
// dst.len()`, reads `src[i..i + 32]`, writes at most 32 bytes plus the 16 that
// `store_exact` puts back, and advances `i` by `take <= 32`; `trailing_zeros` of nonzero
// masks is below 32.
#[allow(clippy::arithmetic_side_effects)]
pub(in crate::simd) unsafe fn encode_x_user_defined(
    src: &[u8],
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    let (s, d) = (src.as_ptr(), out_ptr(dst));
    let (mut i, mut written) = (0, 0);
    while i + BLOCK <= src.len() && written + BLOCK + 16 <= dst.len() {
        // SAFETY: `i + 32 <= src.len()`.
        let v = unsafe { _mm256_loadu_si256(s.add(i).cast()) };
        let non_ascii = _mm256_movemask_epi8(v) as u32;
        if non_ascii == 0 {
            // SAFETY: `written + 32 <= dst.len()`.
            unsafe { _mm256_storeu_si256(d.add(written).cast(), v) };
            i += BLOCK;
            written += BLOCK;
            continue;
        }
        let at_least = |x: u8| {
            let bound = _mm256_set1_epi8(x as i8);
            _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(v, bound), v)) as u32
        };
        let leads = at_least(0xC0);
        // Every lead must be EF followed by 9E or 9F (the third byte is then any
        // continuation, the input being UTF-8); else the step ends at that lead.
        let ef = _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(0xEFu8 as i8))) as u32;
        let second_ok = _mm256_movemask_epi8(_mm256_cmpeq_epi8(
            _mm256_and_si256(v, _mm256_set1_epi8(0xFEu8 as i8)),
            _mm256_set1_epi8(0x9Eu8 as i8),
        )) as u32;
        let bad = (leads & !ef) | ((leads << 1) & !second_ok) >> 1;
        // A character cut by the step's end is the next step's.
        let cut = leads & (0b11 << 30);
        let stop = bad | cut;
        let take = if stop == 0 { 32 } else { stop.trailing_zeros() };
        // Byte j of `prev` is byte j - 1 of `v` (byte 0: zero).
        let prev = _mm256_alignr_epi8::<15>(v, _mm256_permute2x128_si256::<0x08>(v, v));
        let mapped = _mm256_or_si256(
            _mm256_or_si256(
                _mm256_and_si256(_mm256_slli_epi16::<6>(prev), _mm256_set1_epi8(0x40)),
                _mm256_and_si256(v, _mm256_set1_epi8(0x3F)),
            ),
            _mm256_set1_epi8(0x80u8 as i8),
        );
        // Kept bytes are ASCII (top bit clear: `v`) or third bytes (top bit set: mapped).
        let out = _mm256_blendv_epi8(v, mapped, v);
        let third = leads << 2;
        let keep = _bzhi_u32(!non_ascii | third, take);
        // SAFETY: AVX2 and POPCNT are enabled for this function.
        let parts = unsafe {
            [
                keep_bytes(_mm256_castsi256_si128(out), keep & 0xFFFF),
                keep_bytes(_mm256_extracti128_si256::<1>(out), keep >> 16),
            ]
        };
        // SAFETY: the parts hold at most 32 bytes and `written + 48 <= dst.len()`.
        written = unsafe { store_exact(d, written, &parts) };
        i += take as usize;
        // Stopped at a character it cannot take (not at a cut one, which the next step
        // starts with).
        if bad != 0 && take == bad.trailing_zeros() {
            break;
        }
    }
    (i, written)
}
