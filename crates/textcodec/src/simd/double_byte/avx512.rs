use super::super::utf16::avx512::bmp_to_utf8_32;
use super::leads_of;
use crate::index::PairTable;
use crate::simd::Slots;
use core::arch::x86_64::*;

/// The kernel for both outputs: `UTF8` writes bytes to `d` (room `room` bytes, 96 per
/// block), else UTF-16 units (room `room` units, 64 per block).
///
/// # Safety
/// The CPU must support AVX2, BMI1, BMI2, POPCNT and AVX-512 F/BW/VL/VBMI/VBMI2;
/// `d .. d + room` (bytes, or units for UTF-16) must be writable.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
// Hot loop. Bounds: a block runs only while `i + 64 <= src.len()` and `written` plus
// the block's worst-case output (64 units, 96 bytes) is at most `room`; `i` advances by
// 63 or 64 and `written` by what was stored, so neither passes its limit and no sum
// overflows. Indexes into `block`, `buf` (64) and `pairs` (0x8000) are masked.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(super) unsafe fn decode<const UTF8: bool>(
    src: &[u8],
    table: &PairTable,
    d: *mut u8,
    room: usize,
) -> (usize, usize) {
    let block_room = if UTF8 { 96 } else { 64 };
    // Row `lead - 0x80`, column `trail`: 128 × 256 units.
    let pairs = table.rows().as_flattened();
    // SAFETY: `lead_map` is 128 readable bytes.
    let (map_lo, map_hi) = unsafe {
        let p = table.lead_map().as_ptr();
        (
            _mm512_loadu_si512(p.cast()),
            _mm512_loadu_si512(p.add(64).cast()),
        )
    };
    // Byte k + 1 into position k.
    let next_index = _mm512_add_epi8(
        _mm512_set_epi8(
            63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42,
            41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20,
            19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
        ),
        _mm512_set1_epi8(1),
    );
    let (mut i, mut written) = (0, 0);
    while i + 64 <= src.len() && written + block_room <= room {
        // SAFETY: `i + 64 <= src.len()`.
        let v = unsafe { _mm512_loadu_si512(src.as_ptr().add(i).cast()) };
        let non_ascii = _mm512_movepi8_mask(v);
        let lo = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v));
        let hi = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(v));
        if non_ascii == 0 {
            // All ASCII (the markup between translations): stored as it is.
            // SAFETY: room for the block's output (checked above): 64 bytes, or 64
            // units.
            unsafe {
                if UTF8 {
                    _mm512_storeu_si512(d.add(written).cast(), v);
                } else {
                    let d = d.cast::<u16>().add(written);
                    _mm512_storeu_si512(d.cast(), lo);
                    _mm512_storeu_si512(d.add(32).cast(), hi);
                }
            }
            written += 64;
            i += 64;
            continue;
        }
        // The map is indexed by the low seven bits; only non-ASCII bytes count.
        let capable = _mm512_movepi8_mask(_mm512_permutex2var_epi8(map_lo, v, map_hi)) & non_ascii;
        let mut leads = leads_of(capable);
        // A lead in the last position: its trail is in the next block.
        let (len, in_block) = if leads >> 63 != 0 {
            leads &= !(1 << 63);
            (63, u64::MAX >> 1)
        } else {
            (64, u64::MAX)
        };
        let trails = leads << 1;
        if non_ascii & !(leads | trails) & in_block != 0 {
            break;
        }
        // Each byte's pair index (itself & 0x7F, then the next byte) in a 16-bit lane.
        let next = _mm512_permutexvar_epi8(next_index, v);
        let index = |lead: __m256i, trail: __m256i| {
            _mm512_or_si512(
                _mm512_slli_epi16::<8>(_mm512_and_si512(
                    _mm512_cvtepu8_epi16(lead),
                    _mm512_set1_epi16(0x7F),
                )),
                _mm512_cvtepu8_epi16(trail),
            )
        };
        let idx_lo = index(_mm512_castsi512_si256(v), _mm512_castsi512_si256(next));
        let idx_hi = index(
            _mm512_extracti64x4_epi64::<1>(v),
            _mm512_extracti64x4_epi64::<1>(next),
        );
        // At most 16 leads in 32 positions (they are never adjacent): one gather each.
        let lookup = |idx: __m512i, leads: u32, widened: __m512i| {
            let n = leads.count_ones();
            let packed = _mm512_maskz_compress_epi16(leads, idx);
            let idx32 = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(packed));
            let active = _bzhi_u32(u32::MAX, n) as u16;
            // SAFETY: every index is below 0x7F00 (leads are at most 0xFE), so the four
            // bytes read at `2 * index` are within the 65 536-byte table.
            let got = unsafe {
                _mm512_mask_i32gather_epi32::<2>(
                    _mm512_setzero_si512(),
                    active,
                    idx32,
                    pairs.as_ptr().cast(),
                )
            };
            let values = _mm512_cvtepi32_epi16(got);
            let unmapped = _mm256_cmpeq_epi16_mask(values, _mm256_setzero_si256()) & active;
            (
                _mm512_mask_expand_epi16(widened, leads, _mm512_castsi256_si512(values)),
                unmapped,
            )
        };
        // A half without leads (ASCII, or trails only) needs no gather: the gathers'
        // latency is most of a block's time.
        let (lo, bad_lo) = match leads as u32 {
            0 => (lo, 0),
            half => lookup(idx_lo, half, lo),
        };
        let (hi, bad_hi) = match (leads >> 32) as u32 {
            0 => (hi, 0),
            half => lookup(idx_hi, half, hi),
        };
        if bad_lo | bad_hi != 0 {
            break;
        }
        // SAFETY: room for the block's output (checked above).
        written += unsafe { store(d, written, lo, hi, !trails & in_block, UTF8) };
        i += len;
    }
    (i, written)
}

/// Writes the units of `lo` (positions 0..32) and `hi` (32..64) whose bit in `starts`
/// is set to `d` at `written` (units, or bytes for UTF-8); returns how many.
///
/// # Safety
/// As [`decode`], with 64 units or 96 bytes of room at `written`; the units are not
/// surrogates.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
#[inline]
// Bounds: `n0 <= 32` units or 48 bytes, within the room the caller checked.
#[allow(clippy::arithmetic_side_effects)]
unsafe fn store(
    d: *mut u8,
    written: usize,
    lo: __m512i,
    hi: __m512i,
    starts: u64,
    utf8: bool,
) -> usize {
    let (s0, s1) = (starts as u32, (starts >> 32) as u32);
    if utf8 {
        // SAFETY: 96 bytes of room at `written`, and `n0 <= 48` of them used first.
        unsafe {
            let n0 = bmp_to_utf8_32(lo, s0, d.add(written));
            n0 + bmp_to_utf8_32(hi, s1, d.add(written + n0))
        }
    } else {
        let d = d.cast::<u16>();
        let (n0, n1) = (s0.count_ones(), s1.count_ones());
        // SAFETY: 64 units of room at `written`; the masked stores write `n0 + n1`.
        unsafe {
            _mm512_mask_storeu_epi16(
                d.add(written).cast(),
                _bzhi_u32(u32::MAX, n0),
                _mm512_maskz_compress_epi16(s0, lo),
            );
            _mm512_mask_storeu_epi16(
                d.add(written + n0 as usize).cast(),
                _bzhi_u32(u32::MAX, n1),
                _mm512_maskz_compress_epi16(s1, hi),
            );
        }
        (n0 + n1) as usize
    }
}

/// [`decode`] into UTF-16.
///
/// # Safety
/// The CPU must support AVX2, BMI1, BMI2, POPCNT and AVX-512 F/BW/VL/VBMI/VBMI2.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
pub(in crate::simd) unsafe fn to_utf16(
    src: &[u8],
    table: &PairTable,
    dst: &mut Slots<u16>,
) -> (usize, usize) {
    // SAFETY: the same CPU features; `dst` has `dst.len()` writable units.
    unsafe { decode::<false>(src, table, crate::simd::out_ptr(dst).cast(), dst.len()) }
}

/// [`decode`] into UTF-8.
///
/// # Safety
/// As [`to_utf16`].
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
pub(in crate::simd) unsafe fn to_utf8(
    src: &[u8],
    table: &PairTable,
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    // SAFETY: the same CPU features; `dst` has `dst.len()` writable bytes.
    unsafe { decode::<true>(src, table, crate::simd::out_ptr(dst), dst.len()) }
}
