//! SSSE3/SSE4.1 (x86-64-v2): UTF-16 → UTF-8 with `pshufb` packing, 8 units per step (the
//! AVX2 kernel's method at half the width, with the same tables).

use core::mem::MaybeUninit;

use crate::simd::{out_ptr, Slots};
use core::arch::x86_64::*;

/// Swaps the bytes of every `u16` when `big_endian`.
#[target_feature(enable = "ssse3")]
#[inline]
fn order(v: __m128i, big_endian: bool) -> __m128i {
    if big_endian {
        _mm_shuffle_epi8(
            v,
            _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14),
        )
    } else {
        v
    }
}

/// UTF-16 → UTF-8, 8 units per step, for blocks without surrogates (a block with one
/// stops the loop: the scalar twin takes it): all ASCII packed; all below U+0800 built
/// in 16-bit lanes and packed with the entry for the one-byte-lane mask; all from U+0800
/// on in a fixed layout ([`three_byte_8`]); otherwise two halves of 4 units in 32-bit
/// lanes of one to three bytes ([`bmp_8`]). As in the AVX2 kernel, the 16
/// bytes after a step's output are saved and put back, so nothing past what it reports
/// changes (a step asks for 40 bytes of room: at most 24 of output plus those 16).
///
/// # Safety
/// The CPU must support SSSE3, SSE4.1 and POPCNT.
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
// Hot loop. Bounds: `read` advances by 16 while `read + 16 <= src.len()`; `written`
// advances by the packed output's length (at most 24 per step) while `written + 40 <=
// dst.len()`; so neither passes its slice's length and the sums cannot overflow.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) unsafe fn bytes_to_utf8(
    src: &[u8],
    big_endian: bool,
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    let above_ascii = _mm_set1_epi16(0xFF80u16 as i16);
    let top5 = _mm_set1_epi16(0xF800u16 as i16);
    let surrogate = _mm_set1_epi16(0xD800u16 as i16);
    let (mut read, mut written) = (0, 0);
    while read + 16 <= src.len() && written + 40 <= dst.len() {
        // SAFETY: `read + 16 <= src.len()`.
        let v = order(
            unsafe { _mm_loadu_si128(src.as_ptr().add(read).cast()) },
            big_endian,
        );
        // SAFETY (all stores below): `written + 40 <= dst.len()`, and a step reads and
        // writes at most its output (24 bytes) plus 16 from `written` on.
        let d = out_ptr(dst);
        if _mm_testz_si128(v, above_ascii) != 0 {
            unsafe { _mm_storel_epi64(d.add(written).cast(), _mm_packus_epi16(v, v)) };
            read += 16;
            written += 8;
            // An ASCII run: 16 units per step while it lasts (one 16-byte store each).
            while read + 32 <= src.len() && written + 16 <= dst.len() {
                // SAFETY: `read + 32 <= src.len()`; the store writes `dst[written..written
                // + 16]`, in bounds.
                unsafe {
                    let a = order(_mm_loadu_si128(src.as_ptr().add(read).cast()), big_endian);
                    let b = order(
                        _mm_loadu_si128(src.as_ptr().add(read + 16).cast()),
                        big_endian,
                    );
                    if _mm_testz_si128(_mm_or_si128(a, b), above_ascii) == 0 {
                        break;
                    }
                    _mm_storeu_si128(d.add(written).cast(), _mm_packus_epi16(a, b));
                }
                read += 32;
                written += 16;
            }
            continue;
        }
        if _mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(v, top5), surrogate)) != 0 {
            break;
        }
        let below_0800_lanes = _mm_cmpeq_epi16(_mm_and_si128(v, top5), _mm_setzero_si128());
        written = if _mm_testz_si128(below_0800_lanes, below_0800_lanes) != 0 {
            // All three bytes long (CJK text): a fixed layout, stored exactly.
            unsafe { three_byte_8(d.add(written), v) };
            written + 24
        } else if _mm_testz_si128(v, top5) != 0 {
            unsafe { store_exact(d, written, &[below_0800(v)]) }
        } else {
            let (low, high) = bmp_8(v, below_0800_lanes);
            unsafe { store_exact(d, written, &[low, high]) }
        };
        read += 16;
    }
    (read, written)
}

/// Writes the UTF-8 of 8 units from U+0800 on that are not surrogates, 24 bytes, at `d`:
/// each unit's three bytes in a fixed place (as the AVX2 kernel's `three_byte_16`).
///
/// # Safety
/// The CPU must support SSSE3; `d .. d + 24` must be writable.
#[target_feature(enable = "ssse3")]
#[inline]
unsafe fn three_byte_8(d: *mut u8, v: __m128i) {
    let six = _mm_set1_epi16(0x3F);
    let cont = _mm_set1_epi16(0x80);
    // Per 16-bit lane: 1110xxxx 10xxxxxx in bytes 0 and 1, and 10xxxxxx in byte 0.
    let first = _mm_or_si128(_mm_srli_epi16::<12>(v), _mm_set1_epi16(0xE0));
    let second = _mm_or_si128(_mm_and_si128(_mm_srli_epi16::<6>(v), six), cont);
    let two = _mm_or_si128(first, _mm_slli_epi16::<8>(second));
    let third = _mm_or_si128(_mm_and_si128(v, six), cont);
    // Bytes 0-15 and 16-23 of the output; -1 selects nothing.
    let head = _mm_or_si128(
        _mm_shuffle_epi8(
            two,
            _mm_setr_epi8(0, 1, -1, 2, 3, -1, 4, 5, -1, 6, 7, -1, 8, 9, -1, 10),
        ),
        _mm_shuffle_epi8(
            third,
            _mm_setr_epi8(-1, -1, 0, -1, -1, 2, -1, -1, 4, -1, -1, 6, -1, -1, 8, -1),
        ),
    );
    let tail = _mm_or_si128(
        _mm_shuffle_epi8(
            two,
            _mm_setr_epi8(
                11, -1, 12, 13, -1, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1,
            ),
        ),
        _mm_shuffle_epi8(
            third,
            _mm_setr_epi8(
                -1, 10, -1, -1, 12, -1, -1, 14, -1, -1, -1, -1, -1, -1, -1, -1,
            ),
        ),
    );
    // SAFETY: the caller guarantees `d .. d + 24`.
    unsafe {
        _mm_storeu_si128(d.cast(), head);
        _mm_storel_epi64(d.add(16).cast(), tail);
    }
}

/// The UTF-8 of 8 units that are not surrogates as two packed halves (units 0-3, 4-7);
/// `below_0800` is 0xFFFF in the lanes below U+0800. Each unit's first two bytes and its
/// third are built in 16-bit lanes and interleaved in place into 32-bit lanes (no
/// widening), then packed by the table entry for the 4 lanes' lengths.
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
#[inline]
// Bounds: the group `g` is 0 or 1, so the shifts stay below 8 bits.
#[allow(clippy::arithmetic_side_effects)]
fn bmp_8(v: __m128i, below_0800: __m128i) -> (Packed, Packed) {
    let six = _mm_set1_epi16(0x3F);
    let cont = _mm_set1_epi16(0x80);
    let ascii = _mm_cmpeq_epi16(
        _mm_and_si128(v, _mm_set1_epi16(0xFF80u16 as i16)),
        _mm_setzero_si128(),
    );
    let low6 = _mm_or_si128(_mm_and_si128(v, six), cont);
    // First two bytes: 110xxxxx 10xxxxxx, or 1110xxxx 10xxxxxx (first byte lowest).
    let two = _mm_or_si128(
        _mm_or_si128(_mm_srli_epi16::<6>(v), _mm_set1_epi16(0xC0)),
        _mm_slli_epi16::<8>(low6),
    );
    let mid6 = _mm_or_si128(_mm_and_si128(_mm_srli_epi16::<6>(v), six), cont);
    let three = _mm_or_si128(
        _mm_or_si128(_mm_srli_epi16::<12>(v), _mm_set1_epi16(0xE0)),
        _mm_slli_epi16::<8>(mid6),
    );
    let first = _mm_blendv_epi8(_mm_blendv_epi8(three, two, below_0800), v, ascii);
    // One bit per unit: at least two bytes long; at least three.
    let at_least_2 = !(_mm_movemask_epi8(_mm_packs_epi16(ascii, ascii)) as u32) & 0xFF;
    let at_least_3 = !(_mm_movemask_epi8(_mm_packs_epi16(below_0800, below_0800)) as u32) & 0xFF;
    let index = |g: u32| ((at_least_2 >> (4 * g)) & 0xF) | (((at_least_3 >> (4 * g)) & 0xF) << 4);
    let pack = |lanes: __m128i, index: u32| {
        let shuffle = entry(&super::pack::THREE_BYTE_LANES, index);
        (
            _mm_shuffle_epi8(lanes, shuffle),
            super::pack::three_byte_len(index),
        )
    };
    // The third byte is `low6`: in 32-bit lanes, (first two) | third << 16.
    (
        pack(_mm_unpacklo_epi16(first, low6), index(0)),
        pack(_mm_unpackhi_epi16(first, low6), index(1)),
    )
}

/// Entry `index & 0xFF` of a 256-entry packing table.
#[target_feature(enable = "sse2")]
#[inline]
fn entry(table: &[[u8; 16]; 256], index: u32) -> __m128i {
    // SAFETY: the index is below 256; each entry is 16 readable bytes.
    unsafe { _mm_loadu_si128(table.as_ptr().add((index & 0xFF) as usize).cast()) }
}

/// UTF-8 bytes packed at the start of a register, and how many count.
pub(in crate::simd) type Packed = (__m128i, usize);

/// Stores `parts` one after the other from `d + at` (16-byte stores), and puts back the
/// 16 bytes that follow the last one (saved first), so only the output's bytes change.
/// Returns the new end.
///
/// # Safety
/// The CPU must support SSE2; `d + at .. d + end + 16` must be valid for reads and writes,
/// where `end` is the returned end.
#[inline]
// Bounds: the lengths are at most 16 each and few; `at` is within a slice.
#[allow(clippy::arithmetic_side_effects)]
pub(in crate::simd) unsafe fn store_exact(d: *mut u8, at: usize, parts: &[Packed]) -> usize {
    let end = at + parts.iter().map(|&(_, n)| n).sum::<usize>();
    // SAFETY: the caller guarantees `d + at .. d + end + 16`; each 16-byte store starts
    // at most at the last part's start and ends before `end + 16`.
    unsafe {
        // Copied as `MaybeUninit` (the bytes may be uninitialised: see `Slots`).
        let after = d.add(end).cast::<MaybeUninit<[u8; 16]>>().read_unaligned();
        let mut p = d.add(at);
        for &(packed, n) in parts {
            _mm_storeu_si128(p.cast(), packed);
            p = p.add(n);
        }
        d.add(end)
            .cast::<MaybeUninit<[u8; 16]>>()
            .write_unaligned(after);
    }
    end
}

/// The UTF-8 of 8 units below U+0800, packed, and its length (at most 16).
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
#[inline]
pub(in crate::simd) fn below_0800(v: __m128i) -> Packed {
    let ascii = _mm_cmpeq_epi16(
        _mm_and_si128(v, _mm_set1_epi16(0xFF80u16 as i16)),
        _mm_setzero_si128(),
    );
    // 110xxxxx 10xxxxxx in the lane's bytes 0 and 1 (u >> 6 is at most 0x1F here).
    let lead = _mm_or_si128(_mm_srli_epi16::<6>(v), _mm_set1_epi16(0xC0));
    let trail = _mm_or_si128(_mm_and_si128(v, _mm_set1_epi16(0x3F)), _mm_set1_epi16(0x80));
    let lanes = _mm_blendv_epi8(_mm_or_si128(lead, _mm_slli_epi16::<8>(trail)), v, ascii);
    // One bit per lane: set if the lane is one byte long.
    let mask = _mm_movemask_epi8(_mm_packs_epi16(ascii, _mm_setzero_si128())) as u32;
    let shuffle = entry(&super::pack::TWO_BYTE_LANES, mask);
    (
        _mm_shuffle_epi8(lanes, shuffle),
        super::pack::two_byte_len(mask),
    )
}

/// The UTF-8 of 4 BMP code points that are not surrogates, in 32-bit lanes, packed, and
/// its length (at most 12).
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
#[inline]
pub(in crate::simd) fn bmp_4(x: __m128i) -> Packed {
    let six = _mm_set1_epi32(0x3F);
    let cont = _mm_set1_epi32(0x80);
    let at_least_2 = _mm_cmpgt_epi32(x, _mm_set1_epi32(0x7F));
    let at_least_3 = _mm_cmpgt_epi32(x, _mm_set1_epi32(0x7FF));
    let low6 = _mm_or_si128(_mm_and_si128(x, six), cont);
    let mid6 = _mm_or_si128(_mm_and_si128(_mm_srli_epi32::<6>(x), six), cont);
    // 110xxxxx 10xxxxxx and 1110xxxx 10xxxxxx 10xxxxxx, first byte lowest.
    let two = _mm_or_si128(
        _mm_or_si128(_mm_srli_epi32::<6>(x), _mm_set1_epi32(0xC0)),
        _mm_slli_epi32::<8>(low6),
    );
    let three = _mm_or_si128(
        _mm_or_si128(_mm_srli_epi32::<12>(x), _mm_set1_epi32(0xE0)),
        _mm_or_si128(_mm_slli_epi32::<8>(mid6), _mm_slli_epi32::<16>(low6)),
    );
    let lanes = _mm_blendv_epi8(_mm_blendv_epi8(x, two, at_least_2), three, at_least_3);
    let index = (_mm_movemask_ps(_mm_castsi128_ps(at_least_2))
        | (_mm_movemask_ps(_mm_castsi128_ps(at_least_3)) << 4)) as u32;
    let shuffle = entry(&super::pack::THREE_BYTE_LANES, index);
    (
        _mm_shuffle_epi8(lanes, shuffle),
        super::pack::three_byte_len(index),
    )
}
