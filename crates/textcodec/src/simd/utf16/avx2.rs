use core::mem::MaybeUninit;

use crate::simd::{out_ptr, Slots};
use core::arch::x86_64::*;

/// Swaps the bytes of every `u16` when `big_endian`.
#[target_feature(enable = "avx2")]
fn order(v: __m256i, big_endian: bool) -> __m256i {
    if big_endian {
        let swap = _mm256_setr_epi8(
            1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11,
            10, 13, 12, 15, 14,
        );
        _mm256_shuffle_epi8(v, swap)
    } else {
        v
    }
}

/// UTF-16 → UTF-8, 16 units per step, for blocks without surrogates (a block with one
/// stops the loop: the scalar twin takes it). Three paths by the block's largest unit:
/// - all below U+0080: packed to bytes;
/// - all below U+0800: each unit's one or two UTF-8 bytes built in its 16-bit lane, then
///   packed by `pshufb` with the table entry for the 8-bit mask of one-byte lanes;
/// - otherwise: 8 units at a time widened to 32-bit lanes holding one to three UTF-8
///   bytes, packed 4 lanes at a time with the entry for their lengths.
///
/// Each packed half is stored as 16 bytes at the current end of the output; the 16 bytes
/// after a step's output are saved before its stores and put back after them, so nothing
/// past what the kernel reports is changed (a step asks for 64 bytes of room: at most 48
/// bytes of output plus those 16).
///
/// # Safety
/// The CPU must support AVX2, BMI2 and POPCNT.
#[target_feature(enable = "avx2,bmi2,popcnt")]
// Hot loop. Bounds: `read` advances by 32 while `read + 32 <= src.len()`; `written`
// advances by the lengths of the packed output (at most 48 per step) while `written + 64
// <= dst.len()`; so neither passes its slice's length and the sums cannot overflow.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) unsafe fn bytes_to_utf8(
    src: &[u8],
    big_endian: bool,
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    let above_ascii = _mm256_set1_epi16(0xFF80u16 as i16);
    let top5 = _mm256_set1_epi16(0xF800u16 as i16);
    let surrogate = _mm256_set1_epi16(0xD800u16 as i16);
    let (mut read, mut written) = (0, 0);
    while read + 32 <= src.len() && written + 64 <= dst.len() {
        // SAFETY: `read + 32 <= src.len()`.
        let v = order(
            unsafe { _mm256_loadu_si256(src.as_ptr().add(read).cast()) },
            big_endian,
        );
        // SAFETY (all stores below): `written + 64 <= dst.len()`, and a step writes at
        // most 48 bytes of output plus 16 of slack from `written` on.
        let d = out_ptr(dst);
        if _mm256_testz_si256(v, above_ascii) != 0 {
            let packed = _mm256_packus_epi16(v, v);
            let ordered = _mm256_permute4x64_epi64::<0b00_00_10_00>(packed);
            unsafe { _mm_storeu_si128(d.add(written).cast(), _mm256_castsi256_si128(ordered)) };
            read += 32;
            written += 16;
            // An ASCII run: 32 units per step while it lasts (one 32-byte store each).
            while read + 64 <= src.len() && written + 32 <= dst.len() {
                // SAFETY: `read + 64 <= src.len()`; the store writes `dst[written..written
                // + 32]`, in bounds.
                unsafe {
                    let a = order(
                        _mm256_loadu_si256(src.as_ptr().add(read).cast()),
                        big_endian,
                    );
                    let b = order(
                        _mm256_loadu_si256(src.as_ptr().add(read + 32).cast()),
                        big_endian,
                    );
                    if _mm256_testz_si256(_mm256_or_si256(a, b), above_ascii) == 0 {
                        break;
                    }
                    // Per lane: a's 8 bytes, b's 8 bytes; reordered to a0 a1 b0 b1.
                    let packed = _mm256_packus_epi16(a, b);
                    let ordered = _mm256_permute4x64_epi64::<0b11_01_10_00>(packed);
                    _mm256_storeu_si256(d.add(written).cast(), ordered);
                }
                read += 64;
                written += 32;
            }
            continue;
        }
        let sur = _mm256_cmpeq_epi16(_mm256_and_si256(v, top5), surrogate);
        if _mm256_testz_si256(sur, sur) == 0 {
            break;
        }
        written = if _mm256_testz_si256(v, top5) != 0 {
            unsafe { store_exact(d, written, &[below_0800(v)]) }
        } else {
            let low = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(v));
            let high = _mm256_cvtepu16_epi32(_mm256_extracti128_si256::<1>(v));
            unsafe { store_exact(d, written, &[bmp_8(low), bmp_8(high)]) }
        };
        read += 32;
    }
    (read, written)
}

/// UTF-8 bytes packed in the two halves of a register, and how many of each half count.
pub(in crate::simd) type Packed = (__m256i, usize, usize);

/// Stores `parts` one after the other from `d + at`, each half as a 16-byte store, and
/// puts back the 16 bytes that follow the last one (saved first), so only the output's
/// bytes change. Returns the new end (`at` plus the parts' lengths).
///
/// # Safety
/// The CPU must support AVX2; `d + at .. d + end + 16` must be valid for reads and writes,
/// where `end` is the returned end.
#[target_feature(enable = "avx2")]
#[inline]
// Bounds: the lengths are at most 16 each and few; `at` is within a slice.
#[allow(clippy::arithmetic_side_effects)]
pub(in crate::simd) unsafe fn store_exact(d: *mut u8, at: usize, parts: &[Packed]) -> usize {
    let end = at + parts.iter().map(|&(_, n0, n1)| n0 + n1).sum::<usize>();
    // SAFETY: the caller guarantees `d + at .. d + end + 16`; each half's 16-byte store
    // starts at most at the last part's start plus its first length, and ends before
    // `end + 16`.
    unsafe {
        // Copied as `MaybeUninit` (the bytes may be uninitialised: see `Slots`).
        let after = d.add(end).cast::<MaybeUninit<[u8; 16]>>().read_unaligned();
        let mut p = d.add(at);
        for &(packed, n0, n1) in parts {
            _mm_storeu_si128(p.cast(), _mm256_castsi256_si128(packed));
            _mm_storeu_si128(p.add(n0).cast(), _mm256_extracti128_si256::<1>(packed));
            p = p.add(n0 + n1);
        }
        d.add(end)
            .cast::<MaybeUninit<[u8; 16]>>()
            .write_unaligned(after);
    }
    end
}

/// The UTF-8 of 16 units below U+0800: the packed bytes of units 0-7 and 8-15 in the two
/// halves, and their lengths.
///
/// # Safety
/// The CPU must support AVX2, BMI2 and POPCNT.
#[target_feature(enable = "avx2,bmi2,popcnt")]
#[inline]
pub(in crate::simd) unsafe fn below_0800(v: __m256i) -> Packed {
    let ascii = _mm256_cmpeq_epi16(
        _mm256_and_si256(v, _mm256_set1_epi16(0xFF80u16 as i16)),
        _mm256_setzero_si256(),
    );
    // Two-byte form in the lane's bytes 0 and 1: 110xxxxx (U+0080..U+07FF: u >> 6 is
    // at most 0x1F), 10xxxxxx.
    let lead = _mm256_or_si256(_mm256_srli_epi16::<6>(v), _mm256_set1_epi16(0xC0));
    let trail = _mm256_or_si256(
        _mm256_and_si256(v, _mm256_set1_epi16(0x3F)),
        _mm256_set1_epi16(0x80),
    );
    let two = _mm256_or_si256(lead, _mm256_slli_epi16::<8>(trail));
    let lanes = _mm256_blendv_epi8(two, v, ascii);
    // One bit per lane: bit i set if lane i is one byte long.
    let mask = _pext_u32(_mm256_movemask_epi8(ascii) as u32, 0x5555_5555);
    let (m0, m1) = (mask & 0xFF, mask >> 8);
    let shuffle = unsafe { pair_of_entries(&super::pack::TWO_BYTE_LANES, m0, m1) };
    let packed = _mm256_shuffle_epi8(lanes, shuffle);
    (
        packed,
        super::pack::two_byte_len(m0),
        super::pack::two_byte_len(m1),
    )
}

/// The UTF-8 of 8 BMP code points that are not surrogates, in 32-bit lanes: the packed
/// bytes of lanes 0-3 and 4-7 in the two halves, and their lengths (at most 12 each).
///
/// # Safety
/// The CPU must support AVX2, BMI2 and POPCNT.
#[target_feature(enable = "avx2,bmi2,popcnt")]
#[inline]
pub(in crate::simd) unsafe fn bmp_8(x: __m256i) -> Packed {
    let six = _mm256_set1_epi32(0x3F);
    let cont = _mm256_set1_epi32(0x80);
    let at_least_2 = _mm256_cmpgt_epi32(x, _mm256_set1_epi32(0x7F));
    let at_least_3 = _mm256_cmpgt_epi32(x, _mm256_set1_epi32(0x7FF));
    let low6 = _mm256_or_si256(_mm256_and_si256(x, six), cont);
    let mid6 = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32::<6>(x), six), cont);
    // 110xxxxx 10xxxxxx and 1110xxxx 10xxxxxx 10xxxxxx, first byte lowest.
    let two = _mm256_or_si256(
        _mm256_or_si256(_mm256_srli_epi32::<6>(x), _mm256_set1_epi32(0xC0)),
        _mm256_slli_epi32::<8>(low6),
    );
    let three = _mm256_or_si256(
        _mm256_or_si256(_mm256_srli_epi32::<12>(x), _mm256_set1_epi32(0xE0)),
        _mm256_or_si256(_mm256_slli_epi32::<8>(mid6), _mm256_slli_epi32::<16>(low6)),
    );
    let lanes = _mm256_blendv_epi8(_mm256_blendv_epi8(x, two, at_least_2), three, at_least_3);
    let m2 = _mm256_movemask_ps(_mm256_castsi256_ps(at_least_2)) as u32;
    let m3 = _mm256_movemask_ps(_mm256_castsi256_ps(at_least_3)) as u32;
    let i0 = (m2 & 0xF) | ((m3 & 0xF) << 4);
    let i1 = (m2 >> 4) | ((m3 >> 4) << 4);
    let shuffle = unsafe { pair_of_entries(&super::pack::THREE_BYTE_LANES, i0, i1) };
    let packed = _mm256_shuffle_epi8(lanes, shuffle);
    (
        packed,
        super::pack::three_byte_len(i0),
        super::pack::three_byte_len(i1),
    )
}

/// Entries `low` and `high` of a 256-entry table in the two halves of a register.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
#[inline]
// Bounds: `low` and `high` are masks below 256 (8-bit masks), the table's length.
#[allow(clippy::indexing_slicing)]
unsafe fn pair_of_entries(table: &[[u8; 16]; 256], low: u32, high: u32) -> __m256i {
    let (low, high) = ((low & 0xFF) as usize, (high & 0xFF) as usize);
    // SAFETY: each entry is 16 readable bytes.
    unsafe {
        _mm256_set_m128i(
            _mm_loadu_si128(table[high].as_ptr().cast()),
            _mm_loadu_si128(table[low].as_ptr().cast()),
        )
    }
}

/// Blocks of 16 units without surrogates, copied (byte-swapped for big-endian).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
// Hot loop. Bounds: `read` and `written` only advance by 32 and 16 while `read + 32 <=
// src.len()` and `written + 16 <= dst.len()`, so neither passes its slice's length and
// the sums cannot overflow.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) unsafe fn bytes_to_units(
    src: &[u8],
    big_endian: bool,
    dst: &mut Slots<u16>,
) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    let top5 = _mm256_set1_epi16(0xF800u16 as i16);
    let surrogate = _mm256_set1_epi16(0xD800u16 as i16);
    while read + 32 <= src.len() && written + 16 <= dst.len() {
        // SAFETY: `read + 32 <= src.len()`.
        let v = order(
            unsafe { _mm256_loadu_si256(src.as_ptr().add(read).cast()) },
            big_endian,
        );
        let sur = _mm256_cmpeq_epi16(_mm256_and_si256(v, top5), surrogate);
        if _mm256_testz_si256(sur, sur) == 0 {
            break;
        }
        // SAFETY: `written + 16 <= dst.len()`.
        unsafe { _mm256_storeu_si256(out_ptr(dst).add(written).cast(), v) };
        read += 32;
        written += 16;
    }
    (read, written)
}
