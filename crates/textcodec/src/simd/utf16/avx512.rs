use crate::simd::{out_ptr, Slots};
use core::arch::x86_64::*;

/// `vpermt2b` indexes that lay out the UTF-8 of 32 units `width` bytes apart (two
/// tables: output bytes 0..64 and 64..128): output byte j is byte `j % width` of unit
/// `k = j / width`, taken from the first-bytes vector (its bytes 2k, 2k + 1) or, for
/// byte 2 and beyond, from the last-byte vector (byte 2k, index 64 + 2k).
// Bounds: evaluated at compile time for widths 3 and 4 (`j < 128`, so `j / 64 < 2`,
// and `k < 32`); an out-of-bounds index or a division by zero would fail the build, it
// cannot panic at run time.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const fn unit_bytes_index(width: usize) -> [[u8; 64]; 2] {
    let mut t = [[0u8; 64]; 2];
    let mut j = 0;
    while j < 128 {
        let (k, r) = (j / width % 32, j % width);
        let from = match r {
            0 => 2 * k,
            1 => 2 * k + 1,
            _ => 64 + 2 * k,
        };
        t[j / 64][j % 64] = from as u8;
        j += 1;
    }
    t
}

/// For 32 three-byte units: packed, 96 bytes (the second table's first 32 are used).
const THREE_BYTE_INDEX: [[u8; 64]; 2] = unit_bytes_index(3);

/// For 32 units of mixed length: unit 16h + k in the 32-bit lane k of vector h (its
/// byte 3 is never kept).
const SPREAD_INDEX: [[u8; 64]; 2] = unit_bytes_index(4);

/// Writes the UTF-8 of the units of `w` (32 in 16-bit lanes) whose bit in `starts` is
/// set, in order, to `d`; returns the bytes written. 16-bit lanes hold the first two
/// bytes of each unit's UTF-8 and the third byte; two byte permutes spread them into
/// 32-bit lanes (16 units per vector), and `vpcompressb` keeps byte 0 of a selected
/// unit, byte 1 from U+0080 and byte 2 from U+0800 on.
///
/// # Safety
/// The CPU must support BMI2, POPCNT and AVX-512 F/BW/VBMI/VBMI2; the selected units
/// must not be surrogates; `d .. d + 96` must be writable (only the bytes returned are
/// written).
#[target_feature(enable = "avx2,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
#[inline]
// Bounds: `n0, n1 <= 48`, so `d + n0` and its `n1` bytes stay within the 96.
#[allow(clippy::arithmetic_side_effects)]
pub(in crate::simd) unsafe fn bmp_to_utf8_32(w: __m512i, starts: u32, d: *mut u8) -> usize {
    let x3f = _mm512_set1_epi16(0x3F);
    let x80 = _mm512_set1_epi16(0x80);
    let ascii = _mm512_cmplt_epu16_mask(w, x80);
    let below_800 = _mm512_cmplt_epu16_mask(w, _mm512_set1_epi16(0x800));
    let low = _mm512_ternarylogic_epi32::<0xEA>(w, x3f, x80);
    let middle = _mm512_ternarylogic_epi32::<0xEA>(_mm512_srli_epi16::<6>(w), x3f, x80);
    let lead3 = _mm512_or_si512(_mm512_srli_epi16::<12>(w), _mm512_set1_epi16(0xE0));
    // `u >> 6` is below 0x20 for two-byte units, so no mask is needed.
    let lead2 = _mm512_or_si512(_mm512_srli_epi16::<6>(w), _mm512_set1_epi16(0xC0));
    let three = _mm512_or_si512(lead3, _mm512_slli_epi16::<8>(middle));
    let two = _mm512_or_si512(lead2, _mm512_slli_epi16::<8>(low));
    let firsts = _mm512_mask_mov_epi16(_mm512_mask_mov_epi16(three, below_800, two), ascii, w);
    // SAFETY: the index tables are 64 readable bytes each.
    let (idx0, idx1) = unsafe {
        (
            _mm512_loadu_si512(SPREAD_INDEX[0].as_ptr().cast()),
            _mm512_loadu_si512(SPREAD_INDEX[1].as_ptr().cast()),
        )
    };
    let lanes0 = _mm512_permutex2var_epi8(firsts, idx0, low);
    let lanes1 = _mm512_permutex2var_epi8(firsts, idx1, low);
    let keep = |starts: u32, ascii: u32, below_800: u32| {
        let starts = starts & 0xFFFF;
        _pdep_u64(u64::from(starts), 0x1111_1111_1111_1111)
            | _pdep_u64(u64::from(starts & !ascii), 0x2222_2222_2222_2222)
            | _pdep_u64(u64::from(starts & !below_800), 0x4444_4444_4444_4444)
    };
    let keep0 = keep(starts, ascii, below_800);
    let keep1 = keep(starts >> 16, ascii >> 16, below_800 >> 16);
    let (n0, n1) = (keep0.count_ones(), keep1.count_ones());
    // SAFETY: `n0, n1 <= 48` and `d .. d + 96` is writable: the masked stores write
    // `d .. d + n0 + n1` only.
    unsafe {
        _mm512_mask_storeu_epi8(
            d.cast(),
            _bzhi_u64(u64::MAX, n0),
            _mm512_maskz_compress_epi8(keep0, lanes0),
        );
        _mm512_mask_storeu_epi8(
            d.add(n0 as usize).cast(),
            _bzhi_u64(u64::MAX, n1),
            _mm512_maskz_compress_epi8(keep1, lanes1),
        );
    }
    (n0 + n1) as usize
}

/// # Safety
/// The CPU must support AVX2, BMI2, POPCNT and AVX-512 F/BW/VL/VBMI/VBMI2.
#[target_feature(enable = "avx2,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
// Hot loop. Bounds: every step runs only while `i + 32 <= src.len()` and `written + 64
// <= dst.len()` (the wider steps check `i + 64` and `written + 96`), then advances `i`
// by the bytes it read and `written` by at most the bytes it checked room for, so
// neither passes its slice's length and no sum can overflow. `i - 2` is taken when
// `i >= 2` (or after `i += 32`); `src[..30]` is within `i + 32` at `i == 0`. The
// two-byte path keeps at least the 32 low bytes (`n >= 32`, so `64 - n` is 0..=32), and
// the spreading multiply by 0xF turns each bit at a multiple of 4 into a nibble of
// ones, which never carries.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) unsafe fn bytes_to_utf8(
    src: &[u8],
    big_endian: bool,
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    let (s, d) = (src.as_ptr(), out_ptr(dst));
    let swap = _mm256_setr_epi8(
        1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10,
        13, 12, 15, 14,
    );
    let order = |v: __m256i| {
        if big_endian {
            _mm256_shuffle_epi8(v, swap)
        } else {
            v
        }
    };
    let top6 = _mm256_set1_epi16(0xFC00u16 as i16);
    let is_lead = |v: __m256i| {
        _mm256_cmpeq_epi16_mask(
            _mm256_and_si256(v, top6),
            _mm256_set1_epi16(0xD800u16 as i16),
        )
    };
    let is_trail = |v: __m256i| {
        _mm256_cmpeq_epi16_mask(
            _mm256_and_si256(v, top6),
            _mm256_set1_epi16(0xDC00u16 as i16),
        )
    };
    let x3f = _mm512_set1_epi32(0x3F);
    let x80 = _mm512_set1_epi32(0x80);
    // (x & 0x3F) | 0x80 in one instruction.
    let cont = |x: __m512i| _mm512_ternarylogic_epi32::<0xEA>(x, x3f, x80);
    let (mut i, mut read, mut written) = (0, 0, 0);
    // Whether the unit before the window is a leading surrogate (its pair, and so its
    // output, is the window's first unit).
    let mut pending_lead = false;
    let swap512 = _mm512_broadcast_i32x4(_mm256_castsi256_si128(swap));
    // Up to 64 bytes are written, with masked stores: exactly the bytes produced.
    while i + 32 <= src.len() && written + 64 <= dst.len() {
        if !pending_lead && i + 64 <= src.len() {
            // 32 units below U+0800 (no surrogates): one or two bytes each, in 16-bit
            // lanes.
            // SAFETY: `i + 64 <= src.len()`.
            let mut w = unsafe { _mm512_loadu_si512(s.add(i).cast()) };
            if big_endian {
                w = _mm512_shuffle_epi8(w, swap512);
            }
            if _mm512_cmpge_epu16_mask(w, _mm512_set1_epi16(0x800)) == 0 {
                let ascii = _mm512_cmplt_epu16_mask(w, _mm512_set1_epi16(0x80));
                let n = if ascii == u32::MAX {
                    // SAFETY: `written + 64 <= dst.len()`: 32 bytes fit.
                    unsafe { _mm256_storeu_si256(d.add(written).cast(), _mm512_cvtepi16_epi8(w)) };
                    32
                } else {
                    // Lead byte 0xC0 | u >> 6, then 0x80 | u & 0x3F (little-endian lane).
                    let lead = _mm512_or_si512(_mm512_srli_epi16::<6>(w), _mm512_set1_epi16(0xC0));
                    let trail = _mm512_ternarylogic_epi32::<0xEA>(
                        w,
                        _mm512_set1_epi16(0x3F),
                        _mm512_set1_epi16(0x80),
                    );
                    let two = _mm512_or_si512(lead, _mm512_slli_epi16::<8>(trail));
                    let bytes = _mm512_mask_mov_epi16(two, ascii, w);
                    let keep = 0x5555_5555_5555_5555u64
                        | _pdep_u64(u64::from(!ascii), 0xAAAA_AAAA_AAAA_AAAA);
                    let out = _mm512_maskz_compress_epi8(keep, bytes);
                    let n = keep.count_ones();
                    // SAFETY: `n <= 64` and `written + 64 <= dst.len()`: the masked
                    // store writes `dst[written..written + n]` only.
                    unsafe {
                        _mm512_mask_storeu_epi8(d.add(written).cast(), u64::MAX >> (64 - n), out)
                    };
                    n as usize
                };
                i += 64;
                read = i;
                written += n;
                continue;
            }
            let top5 = _mm512_and_si512(w, _mm512_set1_epi16(0xF800u16 as i16));
            let below_800 = _mm512_cmplt_epu16_mask(w, _mm512_set1_epi16(0x800));
            if written + 96 <= dst.len()
                && below_800 != 0
                && _mm512_cmpeq_epi16_mask(top5, _mm512_set1_epi16(0xD800u16 as i16)) == 0
            {
                // 32 units of one, two and three bytes, no surrogates (CJK, Thai or
                // Vietnamese text with spaces, digits and line breaks).
                // SAFETY: `written + 96 <= dst.len()`.
                let n = unsafe { bmp_to_utf8_32(w, u32::MAX, d.add(written)) };
                i += 64;
                read = i;
                written += n;
                continue;
            }
            if written + 96 <= dst.len()
                && below_800 == 0
                && _mm512_cmpeq_epi16_mask(top5, _mm512_set1_epi16(0xD800u16 as i16)) == 0
            {
                // 32 units from U+0800 on, no surrogates: three bytes each. Lanes hold
                // [0xE0 | u >> 12, 0x80 | (u >> 6) & 0x3F] and [0x80 | u & 0x3F, _];
                // two byte permutes interleave them into 96 bytes.
                let x3f = _mm512_set1_epi16(0x3F);
                let x80 = _mm512_set1_epi16(0x80);
                let first = _mm512_or_si512(_mm512_srli_epi16::<12>(w), _mm512_set1_epi16(0xE0));
                let second = _mm512_ternarylogic_epi32::<0xEA>(_mm512_srli_epi16::<6>(w), x3f, x80);
                let lead_pairs = _mm512_or_si512(first, _mm512_slli_epi16::<8>(second));
                let last = _mm512_ternarylogic_epi32::<0xEA>(w, x3f, x80);
                // SAFETY: the index tables are 64 readable bytes each.
                let (idx0, idx1) = unsafe {
                    (
                        _mm512_loadu_si512(THREE_BYTE_INDEX[0].as_ptr().cast()),
                        _mm512_loadu_si512(THREE_BYTE_INDEX[1].as_ptr().cast()),
                    )
                };
                let out0 = _mm512_permutex2var_epi8(lead_pairs, idx0, last);
                let out1 = _mm512_permutex2var_epi8(lead_pairs, idx1, last);
                // SAFETY: `written + 96 <= dst.len()`.
                unsafe {
                    _mm512_storeu_si512(d.add(written).cast(), out0);
                    _mm256_storeu_si256(d.add(written + 64).cast(), _mm512_castsi512_si256(out1));
                }
                i += 64;
                read = i;
                written += 96;
                continue;
            }
        }
        // SAFETY: `i + 32 <= src.len()`.
        let v = order(unsafe { _mm256_loadu_si256(s.add(i).cast()) });
        if !pending_lead && _mm256_testz_si256(v, _mm256_set1_epi16(0xFF80u16 as i16)) == 1 {
            // SAFETY: `written + 64 <= dst.len()`: 16 bytes fit.
            unsafe { _mm_storeu_si128(d.add(written).cast(), _mm256_cvtepi16_epi8(v)) };
            i += 32;
            read = i;
            written += 16;
            continue;
        }
        let before = if i >= 2 {
            // SAFETY: `2 <= i` and `i + 32 <= src.len()`.
            order(unsafe { _mm256_loadu_si256(s.add(i - 2).cast()) })
        } else {
            // Only the first window (i == 0): no unit before it.
            let mut buf = [0u8; 32];
            buf[2..].copy_from_slice(&src[..30]);
            // SAFETY: 32 readable bytes.
            order(unsafe { _mm256_loadu_si256(buf.as_ptr().cast()) })
        };
        let lead = is_lead(v);
        let trail = is_trail(v);
        // Every trailing surrogate must follow a leading one and every leading one
        // (the one before the window included) precede a trailing one; otherwise the
        // scalar twin takes over where the last character ended.
        if trail != is_lead(before) {
            break;
        }
        let u = _mm512_cvtepu16_epi32(v);
        let one = _mm256_cmplt_epu16_mask(v, _mm256_set1_epi16(0x80));
        let two = _mm256_cmplt_epu16_mask(v, _mm256_set1_epi16(0x800)) & !one;
        // Pairs: (lead << 10) + trail - (0xD800 << 10) - 0xDC00 + 0x10000.
        let cp = _mm512_sub_epi32(
            _mm512_add_epi32(_mm512_slli_epi32::<10>(_mm512_cvtepu16_epi32(before)), u),
            _mm512_set1_epi32(0x35F_DC00),
        );
        let t2 = _mm512_or_si512(
            _mm512_or_si512(_mm512_srli_epi32::<6>(u), _mm512_set1_epi32(0xC0)),
            _mm512_slli_epi32::<8>(cont(u)),
        );
        let t3 = _mm512_or_si512(
            _mm512_or_si512(_mm512_srli_epi32::<12>(u), _mm512_set1_epi32(0xE0)),
            _mm512_or_si512(
                _mm512_slli_epi32::<8>(cont(_mm512_srli_epi32::<6>(u))),
                _mm512_slli_epi32::<16>(cont(u)),
            ),
        );
        let mut bytes = _mm512_mask_mov_epi32(t3, two, t2);
        bytes = _mm512_mask_mov_epi32(bytes, one, u);
        if trail != 0 {
            let t4 = _mm512_or_si512(
                _mm512_or_si512(
                    _mm512_or_si512(_mm512_srli_epi32::<18>(cp), _mm512_set1_epi32(0xF0)),
                    _mm512_slli_epi32::<8>(cont(_mm512_srli_epi32::<12>(cp))),
                ),
                _mm512_or_si512(
                    _mm512_slli_epi32::<16>(cont(_mm512_srli_epi32::<6>(cp))),
                    _mm512_slli_epi32::<24>(cont(cp)),
                ),
            );
            bytes = _mm512_mask_mov_epi32(bytes, trail, t4);
        }
        // Bytes kept per lane: the 1st always, the 2nd unless ASCII, the 3rd from
        // U+0800 on (surrogates included), the 4th for pairs; none at a leading
        // surrogate.
        let (one, two, lead64, trail64) = (
            u64::from(one),
            u64::from(two),
            u64::from(lead),
            u64::from(trail),
        );
        let mut keep = 0x1111_1111_1111_1111u64
            | _pdep_u64(!one & 0xFFFF, 0x2222_2222_2222_2222)
            | _pdep_u64(!(one | two) & 0xFFFF, 0x4444_4444_4444_4444)
            | _pdep_u64(trail64, 0x8888_8888_8888_8888);
        keep &= !(_pdep_u64(lead64, 0x1111_1111_1111_1111) * 0xF);
        let out = _mm512_maskz_compress_epi8(keep, bytes);
        let n = keep.count_ones();
        // SAFETY: `n <= 48` and `written + 64 <= dst.len()`: the masked store writes
        // `dst[written..written + n]` only.
        unsafe { _mm512_mask_storeu_epi8(d.add(written).cast(), _bzhi_u64(u64::MAX, n), out) };
        written += n as usize;
        pending_lead = lead >> 15 != 0;
        i += 32;
        // A leading surrogate in the last lane belongs to the next window's output.
        read = if pending_lead { i - 2 } else { i };
    }
    (read, written)
}
