use super::BLOCK;
use crate::index::byte_map::ByteMap;
use crate::simd::{out_ptr, Slots};
use core::arch::x86_64::*;

/// The table's 128 non-ASCII entries in four registers: entries 0x80–0xBF in the first
/// pair, 0xC0–0xFF in the second (a two-source permute indexes 64 16-bit lanes with the
/// low six bits of each index).
struct HighHalf([__m512i; 4]);

impl HighHalf {
    /// # Safety
    /// The CPU must support AVX-512 F.
    #[target_feature(enable = "avx512f")]
    // Bounds: the four 64-byte loads read `units[128..256]`.
    #[allow(clippy::arithmetic_side_effects)]
    unsafe fn load(units: &[u16; 256]) -> Self {
        let p = units.as_ptr();
        // SAFETY: entries 128 + 32k .. 128 + 32(k + 1), k < 4, are within the table.
        unsafe {
            HighHalf([
                _mm512_loadu_si512(p.add(128).cast()),
                _mm512_loadu_si512(p.add(160).cast()),
                _mm512_loadu_si512(p.add(192).cast()),
                _mm512_loadu_si512(p.add(224).cast()),
            ])
        }
    }

    /// The code points of 32 bytes, and a mask of the lanes that are errors (a
    /// non-ASCII byte whose entry is 0 or a surrogate).
    /// # Safety
    /// The CPU must support AVX2 and AVX-512 F/BW.
    #[target_feature(enable = "avx2,avx512f,avx512bw")]
    #[inline]
    unsafe fn map(&self, bytes: __m256i) -> (__m512i, u32) {
        let wide = _mm512_cvtepu8_epi16(bytes);
        let high = _mm256_movemask_epi8(bytes) as u32;
        let [t0, t1, t2, t3] = self.0;
        let low_quarter = _mm512_permutex2var_epi16(t0, wide, t1);
        let high_quarter = _mm512_permutex2var_epi16(t2, wide, t3);
        let upper = _mm512_test_epi16_mask(wide, _mm512_set1_epi16(0x40));
        let mapped = _mm512_mask_blend_epi16(upper, low_quarter, high_quarter);
        let units = _mm512_mask_blend_epi16(high, wide, mapped);
        let zero = _mm512_cmpeq_epi16_mask(mapped, _mm512_setzero_si512());
        let surrogate = _mm512_cmpeq_epi16_mask(
            _mm512_and_si512(mapped, _mm512_set1_epi16(0xF800u16 as i16)),
            _mm512_set1_epi16(0xD800u16 as i16),
        );
        (units, high & (zero | surrogate))
    }
}

/// # Safety
/// The CPU must support AVX2 and AVX-512 F/BW.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
// Hot loop. Bounds: a block runs only while `i + 32 <= n` (the shorter length), then
// `i` advances by 32 at most (by 64 where `i + 64 <= n`), so it never passes `n`;
// `errors.trailing_zeros()` of a nonzero `u32` is below 32.
#[allow(clippy::arithmetic_side_effects)]
pub(in crate::simd) unsafe fn to_utf16(
    src: &[u8],
    map: &ByteMap<'_>,
    dst: &mut Slots<u16>,
) -> usize {
    let units = map.units;
    let n = src.len().min(dst.len());
    // SAFETY: AVX-512 F is enabled here.
    let table = unsafe { HighHalf::load(units) };
    let (s, mut d) = (src.as_ptr(), out_ptr(dst));
    let mut i = 0;
    while i + BLOCK <= n {
        if i + 2 * BLOCK <= n {
            // SAFETY: `i + 64 <= n`: the load reads `src[i..i + 64]`.
            let v = unsafe { _mm512_loadu_si512(s.add(i).cast()) };
            if _mm512_movepi8_mask(v) == 0 {
                // ASCII (markup, Latin words): widened without the lookups; a run
                // longer than two steps goes to the ASCII kernel's wider steps.
                let long = i + 4 * BLOCK <= n
                    // SAFETY: `i + 128 <= n`: the load reads `src[i + 64..i + 128]`.
                    && _mm512_movepi8_mask(unsafe { _mm512_loadu_si512(s.add(i + 2 * BLOCK).cast()) }) == 0;
                if long {
                    let (rest, out) = (
                        src.get(i..n).unwrap_or_default(),
                        dst.get_mut(i..n).unwrap_or_default(),
                    );
                    let run = super::super::ascii::widen_ascii(rest, out);
                    // `dst` was reborrowed: take the pointer again.
                    d = out_ptr(dst);
                    if run == 0 {
                        break; // (cannot happen: 128 ASCII bytes and room for them)
                    }
                    i += run;
                    continue;
                }
                // SAFETY: `i + 64 <= n`: the stores write `dst[i..i + 64]`.
                unsafe {
                    _mm512_storeu_si512(
                        d.add(i).cast(),
                        _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v)),
                    );
                    _mm512_storeu_si512(
                        d.add(i + BLOCK).cast(),
                        _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(v)),
                    );
                }
                i += 2 * BLOCK;
                continue;
            }
        }
        // SAFETY: `i + 32 <= n`: the load reads `src[i..i + 32]`.
        let bytes = unsafe { _mm256_loadu_si256(s.add(i).cast()) };
        // SAFETY: the features `map` needs are enabled here.
        let (out, errors) = unsafe { table.map(bytes) };
        if errors != 0 {
            let valid = errors.trailing_zeros();
            // SAFETY: `i + 32 <= n`: the masked store writes `dst[i..i + valid]` only.
            unsafe { _mm512_mask_storeu_epi16(d.add(i).cast(), (1u32 << valid) - 1, out) };
            return i + valid as usize;
        }
        // SAFETY: `i + 32 <= n`: the store writes `dst[i..i + 32]`.
        unsafe { _mm512_storeu_si512(d.add(i).cast(), out) };
        i += BLOCK;
    }
    i
}

/// `vpermb` indexes that move every byte one place up.
// Bounds: `j < 64`, the array's length; `j - 1` only for `j >= 1`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const BACK_ONE: [u8; 64] = {
    let mut idx = [0u8; 64];
    let mut j = 1;
    while j < 64 {
        idx[j] = (j - 1) as u8;
        j += 1;
    }
    idx
};

/// # Safety
/// The CPU must support AVX2, BMI2, POPCNT and AVX-512 F/BW/VBMI/VBMI2.
#[target_feature(enable = "avx2,bmi2,popcnt,avx512f,avx512bw,avx512vbmi,avx512vbmi2")]
// Hot loop. Bounds: a step runs only while `i + 64 <= src.len()` and `written + 64 <=
// dst.len()`, reads `src[i..i + 64]`, writes at most 64 bytes (a compress mask's
// popcount) and advances `i` by `take <= 64`; `trailing_zeros` of nonzero masks is
// below 64, and a trail's lead lies before it (so `bad.trailing_zeros() >= 1` when a
// trail is bad: position 0 of a step is a character boundary).
#[allow(clippy::arithmetic_side_effects)]
#[cfg_attr(feature = "compact", allow(dead_code))]
pub(in crate::simd) unsafe fn encode_hot_pairs(
    src: &[u8],
    hot: &super::HotPairs,
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    let p = hot.bytes.as_ptr();
    // SAFETY: the four 64-byte loads read `hot.bytes[0..256]`.
    let (t0, t1, t2, t3) = unsafe {
        (
            _mm512_loadu_si512(p.cast()),
            _mm512_loadu_si512(p.add(64).cast()),
            _mm512_loadu_si512(p.add(128).cast()),
            _mm512_loadu_si512(p.add(192).cast()),
        )
    };
    let [l0, l1, l2, l3] = hot.leads.map(|lead| _mm512_set1_epi8(lead as i8));
    // Byte j of `previous(v)` is byte j - 1 of `v` (byte 0: anything).
    // SAFETY: 64 readable bytes.
    let back_one = unsafe { _mm512_loadu_si512(BACK_ONE.as_ptr().cast()) };
    let (s, d) = (src.as_ptr(), out_ptr(dst));
    let (mut i, mut written) = (0, 0);
    while i + 64 <= src.len() && written + 64 <= dst.len() {
        // SAFETY: `i + 64 <= src.len()`.
        let v = unsafe { _mm512_loadu_si512(s.add(i).cast()) };
        let non_ascii = _mm512_movepi8_mask(v);
        if non_ascii == 0 {
            // SAFETY: `written + 64 <= dst.len()`.
            unsafe { _mm512_storeu_si512(d.add(written).cast(), v) };
            i += 64;
            written += 64;
            continue;
        }
        let leads = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(0xC0u8 as i8));
        let trails = non_ascii & !leads;
        // Three- and four-byte characters end the step at their lead.
        let long = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(0xE0u8 as i8));
        let prev = _mm512_permutexvar_epi8(back_one, v);
        let (e0, e1, e2, e3) = (
            _mm512_cmpeq_epi8_mask(prev, l0),
            _mm512_cmpeq_epi8_mask(prev, l1),
            _mm512_cmpeq_epi8_mask(prev, l2),
            _mm512_cmpeq_epi8_mask(prev, l3),
        );
        let slot = _mm512_mask_mov_epi8(
            _mm512_mask_mov_epi8(
                _mm512_maskz_mov_epi8(e1, _mm512_set1_epi8(0x40)),
                e2,
                _mm512_set1_epi8(0x80u8 as i8),
            ),
            e3,
            _mm512_set1_epi8(0xC0u8 as i8),
        );
        let idx = _mm512_ternarylogic_epi32::<0xEA>(v, _mm512_set1_epi8(0x3F), slot);
        let low_half = _mm512_permutex2var_epi8(t0, idx, t1);
        let high_half = _mm512_permutex2var_epi8(t2, idx, t3);
        let mapped = _mm512_mask_blend_epi8(_mm512_movepi8_mask(idx), low_half, high_half);
        // Where the step stops: at the lead of a trail of a cold lead or of an unmappable
        // character, and — in input that is not a `&str` — at a lead without its trail and
        // at a trail without a lead. A slot's match counts only after a lead: an unused
        // slot holds lead 0, which a NUL before a lone trail would otherwise match.
        let after_lead = leads << 1;
        let cold = trails & !((e0 | e1 | e2 | e3) & after_lead);
        let unmapped = trails & _mm512_cmpeq_epi8_mask(mapped, _mm512_setzero_si512());
        let at_lead = ((cold | unmapped | !trails) & after_lead) >> 1;
        let bad = at_lead | (cold & !after_lead);
        let mut take = 64;
        if long != 0 {
            take = long.trailing_zeros();
        }
        if bad != 0 {
            take = take.min(bad.trailing_zeros());
        }
        let stopped = take < 64;
        // A lead at the end of the step: its character is the next step's.
        if !stopped && leads >> 63 != 0 {
            take = 63;
        }
        let keep = _bzhi_u64(!leads, take);
        let out = _mm512_maskz_compress_epi8(keep, _mm512_mask_blend_epi8(trails, v, mapped));
        let n = keep.count_ones();
        // SAFETY: `n <= 64` and `written + 64 <= dst.len()`: the masked store writes
        // `dst[written..written + n]` only.
        unsafe { _mm512_mask_storeu_epi8(d.add(written).cast(), _bzhi_u64(u64::MAX, n), out) };
        written += n as usize;
        i += take as usize;
        if stopped {
            break;
        }
    }
    (i, written)
}

/// # Safety
/// The CPU must support AVX2, BMI2, POPCNT and AVX-512 F/BW/VBMI/VBMI2.
#[target_feature(enable = "avx2,bmi2,popcnt,avx512f,avx512bw,avx512vbmi,avx512vbmi2")]
// Hot loop. Bounds: a step runs only while `i + 64 <= src.len()` and `written + 64 <=
// dst.len()`, reads `src[i..i + 64]`, writes at most 64 bytes (a compress mask's
// popcount) and advances `i` by `take <= 64`; `trailing_zeros` of nonzero masks is
// below 64.
#[allow(clippy::arithmetic_side_effects)]
pub(in crate::simd) unsafe fn encode_x_user_defined(
    src: &[u8],
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    // SAFETY: 64 readable bytes.
    let back_one = unsafe { _mm512_loadu_si512(BACK_ONE.as_ptr().cast()) };
    let (s, d) = (src.as_ptr(), out_ptr(dst));
    let (mut i, mut written) = (0, 0);
    while i + 64 <= src.len() && written + 64 <= dst.len() {
        // SAFETY: `i + 64 <= src.len()`.
        let v = unsafe { _mm512_loadu_si512(s.add(i).cast()) };
        let non_ascii = _mm512_movepi8_mask(v);
        if non_ascii == 0 {
            // SAFETY: `written + 64 <= dst.len()`.
            unsafe { _mm512_storeu_si512(d.add(written).cast(), v) };
            i += 64;
            written += 64;
            continue;
        }
        let leads = _mm512_cmpge_epu8_mask(v, _mm512_set1_epi8(0xC0u8 as i8));
        // Every lead must be EF followed by 9E or 9F (then the third byte is any
        // continuation, the input being UTF-8); else the step ends at that lead.
        let ef = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(0xEFu8 as i8));
        let second_ok = _mm512_cmpeq_epi8_mask(
            _mm512_and_si512(v, _mm512_set1_epi8(0xFEu8 as i8)),
            _mm512_set1_epi8(0x9Eu8 as i8),
        );
        let bad = (leads & !ef) | ((leads << 1) & !second_ok) >> 1;
        // A character cut by the step's end is the next step's.
        let cut = leads & (0b11 << 62);
        let stop = bad | cut;
        let take = if stop == 0 { 64 } else { stop.trailing_zeros() };
        // The third byte becomes 0x80 | (second & 1) << 6 | (third & 0x3F) (a three-way
        // OR).
        let prev = _mm512_permutexvar_epi8(back_one, v);
        let third = leads << 2;
        let mapped = _mm512_ternarylogic_epi32::<0xFE>(
            _mm512_and_si512(_mm512_slli_epi16::<6>(prev), _mm512_set1_epi8(0x40)),
            _mm512_and_si512(v, _mm512_set1_epi8(0x3F)),
            _mm512_set1_epi8(0x80u8 as i8),
        );
        let out = _mm512_mask_blend_epi8(third, v, mapped);
        let keep = _bzhi_u64(!non_ascii | third, take);
        let packed = _mm512_maskz_compress_epi8(keep, out);
        let n = keep.count_ones();
        // SAFETY: `n <= 64` and `written + 64 <= dst.len()`: the masked store writes
        // `dst[written..written + n]` only.
        unsafe { _mm512_mask_storeu_epi8(d.add(written).cast(), _bzhi_u64(u64::MAX, n), packed) };
        written += n as usize;
        i += take as usize;
        // Stopped at a character it cannot take (not at a cut one, which the next
        // step starts with).
        if bad != 0 && take == bad.trailing_zeros() {
            break;
        }
    }
    (i, written)
}

/// # Safety
/// The CPU must support AVX2 and AVX-512 F/BW.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
// Hot loop. Bounds: a step runs only while `i + 64 <= n` (the shorter length) and
// advances `i` by 64.
#[allow(clippy::arithmetic_side_effects)]
pub(in crate::simd) unsafe fn x_user_defined_to_utf16(src: &[u8], dst: &mut Slots<u16>) -> usize {
    let n = src.len().min(dst.len());
    let (s, d) = (src.as_ptr(), out_ptr(dst));
    // 0x80 + k becomes 0xF780 + k: add 0xF700 to the widened non-ASCII bytes.
    let offset = _mm512_set1_epi16(0xF700u16 as i16);
    let mut i = 0;
    while i + 64 <= n {
        // SAFETY: `i + 64 <= n`: the load reads `src[i..i + 64]`.
        let v = unsafe { _mm512_loadu_si512(s.add(i).cast()) };
        let high = _mm512_movepi8_mask(v);
        let lo = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v));
        let hi = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(v));
        let lo = _mm512_mask_add_epi16(lo, high as u32, lo, offset);
        let hi = _mm512_mask_add_epi16(hi, (high >> 32) as u32, hi, offset);
        // SAFETY: `i + 64 <= n`: the stores write `dst[i..i + 64]`.
        unsafe {
            _mm512_storeu_si512(d.add(i).cast(), lo);
            _mm512_storeu_si512(d.add(i + 32).cast(), hi);
        }
        i += 64;
    }
    i
}

/// Worst-case UTF-8 of a block: 32 three-byte characters.
const MAX_OUT: usize = 3 * BLOCK;

/// # Safety
/// The CPU must support AVX2, BMI2, POPCNT and AVX-512 F/BW/VBMI2.
#[target_feature(enable = "avx2,bmi2,popcnt,avx512f,avx512bw,avx512vbmi2")]
// Hot loop. Bounds: a block runs only while `i + 32 <= src.len()` and `written + 96 <=
// dst.len()`, then `i` advances by at most 32 (64 ASCII bytes where `i + 64 <=
// src.len()`, writing 64) and `written` by the bytes stored (at most 96: a compress mask of 64 bits for the one- and two-byte path, two masks of 48
// for the three-byte path), so neither passes its slice's length. Shifts and
// `trailing_zeros` are of values below 64.
#[allow(clippy::arithmetic_side_effects)]
pub(in crate::simd) unsafe fn to_utf8(
    src: &[u8],
    map: &ByteMap<'_>,
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    let units = map.units;
    // SAFETY: AVX-512 F is enabled here.
    let table = unsafe { HighHalf::load(units) };
    let (s, d) = (src.as_ptr(), out_ptr(dst));
    let (mut i, mut written) = (0, 0);
    while i + BLOCK <= src.len() && written + MAX_OUT <= dst.len() {
        if i + 2 * BLOCK <= src.len() {
            // SAFETY: `i + 64 <= src.len()`: the load reads `src[i..i + 64]`.
            let v = unsafe { _mm512_loadu_si512(s.add(i).cast()) };
            if _mm512_movepi8_mask(v) == 0 {
                // ASCII: copied as it is (this inline step is faster here than the
                // ASCII kernel's call, even for long runs).
                // SAFETY: `written + 96 <= dst.len()`: the store writes 64 bytes.
                unsafe { _mm512_storeu_si512(d.add(written).cast(), v) };
                i += 2 * BLOCK;
                written += 2 * BLOCK;
                continue;
            }
        }
        // SAFETY: `i + 32 <= src.len()`: the load reads `src[i..i + 32]`.
        let bytes = unsafe { _mm256_loadu_si256(s.add(i).cast()) };
        if _mm256_movemask_epi8(bytes) == 0 {
            // SAFETY: `written + 96 <= dst.len()`: the store writes 32 bytes.
            unsafe { _mm256_storeu_si256(d.add(written).cast(), bytes) };
            i += BLOCK;
            written += BLOCK;
            continue;
        }
        // SAFETY: the features `map` needs are enabled here.
        let (cps, errors) = unsafe { table.map(bytes) };
        // Lanes taken: all, or those before the first error.
        let valid = if errors == 0 {
            BLOCK as u32
        } else {
            errors.trailing_zeros()
        };
        let wide = _mm512_cmpge_epu16_mask(cps, _mm512_set1_epi16(0x800));
        if wide == 0 {
            // One or two bytes per character, in 16-bit lanes (little-endian: the lead
            // byte low): 0xC0 | c >> 6, then 0x80 | c & 0x3F.
            let lead = _mm512_or_si512(_mm512_srli_epi16::<6>(cps), _mm512_set1_epi16(0xC0));
            let trail = _mm512_ternarylogic_epi32::<0xEA>(
                cps,
                _mm512_set1_epi16(0x3F),
                _mm512_set1_epi16(0x80),
            );
            let two = _mm512_or_si512(lead, _mm512_slli_epi16::<8>(trail));
            let ascii = _mm512_cmplt_epu16_mask(cps, _mm512_set1_epi16(0x80));
            let lanes = _mm512_mask_mov_epi16(two, ascii, cps);
            // Every lane's first byte; its second unless ASCII; lanes up to `valid`.
            let keep = (0x5555_5555_5555_5555u64
                | _pdep_u64(u64::from(!ascii), 0xAAAA_AAAA_AAAA_AAAA))
                & _bzhi_u64(u64::MAX, 2 * valid);
            let out = _mm512_maskz_compress_epi8(keep, lanes);
            let len = keep.count_ones();
            // SAFETY: `len <= 64` and `written + 96 <= dst.len()`: the masked store
            // writes `dst[written..written + len]` only.
            unsafe {
                _mm512_mask_storeu_epi8(d.add(written).cast(), _bzhi_u64(u64::MAX, len), out)
            };
            written += len as usize;
        } else {
            // Up to three bytes per character, in 32-bit lanes, 16 characters at a time.
            for half in 0..2u32 {
                let taken = valid.saturating_sub(16 * half).min(16);
                let c = _mm512_cvtepu16_epi32(if half == 0 {
                    _mm512_castsi512_si256(cps)
                } else {
                    _mm512_extracti64x4_epi64::<1>(cps)
                });
                let lanes = utf8_lanes(c);
                // Every lane's first byte, and its other nonzero ones (a character's
                // bytes after the first are continuations, never 0); lanes up to
                // `taken`.
                let keep = (_mm512_test_epi8_mask(lanes, lanes) | 0x1111_1111_1111_1111)
                    & _bzhi_u64(u64::MAX, 4 * taken);
                let out = _mm512_maskz_compress_epi8(keep, lanes);
                let len = keep.count_ones();
                // SAFETY: `len <= 48` (three bytes per lane at most) and the bytes
                // written so far in this block are at most 48: the masked store
                // writes within `dst[written..written + 96]`.
                unsafe {
                    _mm512_mask_storeu_epi8(d.add(written).cast(), _bzhi_u64(u64::MAX, len), out)
                };
                written += len as usize;
            }
        }
        if errors != 0 {
            return (i + valid as usize, written);
        }
        i += BLOCK;
    }
    (i, written)
}

/// The UTF-8 bytes of 16 BMP code points (not surrogates), one per 32-bit lane,
/// little-endian, zeros above.
/// # Safety
/// The CPU must support AVX-512 F.
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn utf8_lanes(c: __m512i) -> __m512i {
    let x3f = _mm512_set1_epi32(0x3F);
    let x80 = _mm512_set1_epi32(0x80);
    // (x & 0x3F) | 0x80 in one instruction.
    let cont = |x: __m512i| _mm512_ternarylogic_epi32::<0xEA>(x, x3f, x80);
    let two = _mm512_or_si512(
        _mm512_or_si512(_mm512_srli_epi32::<6>(c), _mm512_set1_epi32(0xC0)),
        _mm512_slli_epi32::<8>(cont(c)),
    );
    let three = _mm512_or_si512(
        _mm512_or_si512(_mm512_srli_epi32::<12>(c), _mm512_set1_epi32(0xE0)),
        _mm512_or_si512(
            _mm512_slli_epi32::<8>(cont(_mm512_srli_epi32::<6>(c))),
            _mm512_slli_epi32::<16>(cont(c)),
        ),
    );
    let ascii = _mm512_cmplt_epu32_mask(c, x80);
    let short = _mm512_cmplt_epu32_mask(c, _mm512_set1_epi32(0x800));
    _mm512_mask_mov_epi32(_mm512_mask_mov_epi32(three, short, two), ascii, c)
}
