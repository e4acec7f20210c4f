//! Bulk byte → code point mapping through a 256-entry table (the single-byte decoders and
//! x-user-defined), into UTF-16 or UTF-8, 32 input bytes per step.
//!
//! Only the AVX-512 family has a kernel here: its two-source permutes (`vpermt2w`) hold the
//! 128 non-ASCII entries of a table in four registers and look up 32 bytes at once, and
//! `vpcompressb` packs the variable-length UTF-8. At the other levels these functions do
//! nothing (they return 0) and the codec's portable loop (`codecs::fast_byte_map`, tested
//! under every kernel) does all the work; the naive oracle in the tests below is the
//! reference both are checked against.
//!
//! Contract (all levels): the bytes are taken in whole 32-byte blocks while a block and
//! its worst-case output fit (a long ASCII run may be taken to its end); a block holding
//! an error byte (a table entry of 0, or a surrogate, which no index has) is taken up to
//! that byte, and the call stops there.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::dispatch::{kernel, Kernel};
use super::sink::ByteMap;

/// Bytes per step.
pub(crate) const BLOCK: usize = 32;

/// Maps a prefix of `src` into `dst` as UTF-16 (see the module docs); returns its length
/// (bytes read = units written).
#[inline]
pub(crate) fn to_utf16(src: &[u8], map: &ByteMap<'_>, dst: &mut [u16]) -> usize {
    to_utf16_with(kernel(), src, map, dst)
}

/// Maps a prefix of `src` into `dst` as UTF-8 (see the module docs): whole characters, and
/// nothing written past them; returns (bytes read, bytes written).
#[inline]
pub(crate) fn to_utf8(src: &[u8], map: &ByteMap<'_>, dst: &mut [u8]) -> (usize, usize) {
    to_utf8_with(kernel(), src, map, dst)
}

pub(crate) fn to_utf16_with(k: Kernel, src: &[u8], map: &ByteMap<'_>, dst: &mut [u16]) -> usize {
    match k {
        // SAFETY: a `Kernel::Avx512` value exists only after its features were detected.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512(_) => unsafe { avx512::to_utf16(src, map.units, dst) },
        _ => 0,
    }
}

pub(crate) fn to_utf8_with(
    k: Kernel,
    src: &[u8],
    map: &ByteMap<'_>,
    dst: &mut [u8],
) -> (usize, usize) {
    match k {
        // SAFETY: a `Kernel::Avx512` value exists only after its features were detected.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512(_) => unsafe { avx512::to_utf8(src, map.units, dst) },
        _ => (0, 0),
    }
}

/// Encoding side: the two-byte UTF-8 characters of up to four "hot" lead bytes (the
/// 64-code-point blocks a single-byte encoding maps most of, e.g. C2/C3 for Latin-1,
/// D0/D1 for Cyrillic) → their bytes: `bytes[k * 64 + (trail & 0x3F)]` for `leads[k]
/// trail`, 0 where the character is not encodable. Unused slots have lead 0 (no lead
/// byte matches it).
pub(crate) struct HotPairs {
    pub(crate) leads: [u8; 4],
    pub(crate) bytes: [u8; 256],
}

/// The [`HotPairs`] of a single-byte decode table (byte → code point, 0 = none), at
/// compile time: the four lead bytes whose blocks hold the most of its code points.
// Bounds: leads of two-byte UTF-8 are 0xC2..=0xDF (`cp >> 6` below 0x20 for cp < 0x800),
// so `lead & 0x1F` indexes the 32 counts; `k < 4` and `cp & 0x3F < 64` index `bytes`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) const fn hot_pairs(decode: &[u16; 256]) -> HotPairs {
    let mut count = [0u16; 32];
    let mut b = 0x80;
    while b < 256 {
        let cp = decode[b];
        if cp >= 0x80 && cp < 0x800 {
            count[(cp >> 6) as usize] += 1;
        }
        b += 1;
    }
    let mut leads = [0u8; 4];
    let mut k = 0;
    while k < 4 {
        // The block with the most code points not taken yet (ties: the lowest).
        let (mut best, mut best_count) = (0, 0);
        let mut block = 0;
        while block < 32 {
            if count[block] > best_count {
                best = block;
                best_count = count[block];
            }
            block += 1;
        }
        if best_count > 0 {
            leads[k] = 0xC0 | best as u8;
            count[best] = 0;
        }
        k += 1;
    }
    let mut bytes = [0u8; 256];
    let mut b = 0x80;
    while b < 256 {
        let cp = decode[b];
        if cp >= 0x80 && cp < 0x800 {
            let lead = 0xC0 | (cp >> 6) as u8;
            let mut k = 0;
            while k < 4 {
                if leads[k] == lead {
                    bytes[k * 64 + (cp & 0x3F) as usize] = b as u8;
                }
                k += 1;
            }
        }
        b += 1;
    }
    HotPairs { leads, bytes }
}

/// Encodes a prefix of `src` (the bytes of a `&str` from a character boundary) into
/// `dst`: ASCII and the hot two-byte characters, 64 bytes per step; stops before anything
/// else (other characters, unmappable ones) or when a step's output might not fit.
/// Returns (bytes read, bytes written); (0, 0) where there is no kernel (see
/// [`has_encode_kernel`]).
#[inline]
pub(crate) fn encode_hot_pairs(src: &[u8], hot: &HotPairs, dst: &mut [u8]) -> (usize, usize) {
    encode_hot_pairs_with(kernel(), src, hot, dst)
}

/// Whether [`encode_hot_pairs`] has a kernel on this CPU.
#[inline]
pub(crate) fn has_encode_kernel() -> bool {
    #[cfg(target_arch = "x86_64")]
    if let Kernel::Avx512(_) = kernel() {
        return true;
    }
    false
}

pub(crate) fn encode_hot_pairs_with(
    k: Kernel,
    src: &[u8],
    hot: &HotPairs,
    dst: &mut [u8],
) -> (usize, usize) {
    match k {
        // SAFETY: a `Kernel::Avx512` value exists only after its features were detected.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512(_) => unsafe { avx512::encode_hot_pairs(src, hot, dst) },
        _ => (0, 0),
    }
}

/// Encodes a prefix of `src` (the bytes of a `&str` from a character boundary) as
/// x-user-defined: ASCII, and U+F780..=U+F7FF (`EF 9E/9F xx`) to 0x80..=0xFF, 64 bytes per
/// step; stops before any other character or when a step's output might not fit.
/// Returns (bytes read, bytes written); (0, 0) where there is no kernel.
#[inline]
pub(crate) fn encode_x_user_defined(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    encode_x_user_defined_with(kernel(), src, dst)
}

pub(crate) fn encode_x_user_defined_with(k: Kernel, src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    match k {
        // SAFETY: a `Kernel::Avx512` value exists only after its features were detected.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512(_) => unsafe { avx512::encode_x_user_defined(src, dst) },
        _ => (0, 0),
    }
}

/// x-user-defined to UTF-16, all of `src` that fits in whole 64-byte steps (every byte is
/// valid: ASCII to itself, 0x80..=0xFF to U+F780..=U+F7FF); returns the bytes taken (=
/// units written), 0 where there is no kernel.
#[inline]
pub(crate) fn x_user_defined_to_utf16(src: &[u8], dst: &mut [u16]) -> usize {
    x_user_defined_to_utf16_with(kernel(), src, dst)
}

pub(crate) fn x_user_defined_to_utf16_with(k: Kernel, src: &[u8], dst: &mut [u16]) -> usize {
    match k {
        // SAFETY: a `Kernel::Avx512` value exists only after its features were detected.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512(_) => unsafe { avx512::x_user_defined_to_utf16(src, dst) },
        _ => 0,
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::BLOCK;
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
    pub(super) unsafe fn to_utf16(src: &[u8], units: &[u16; 256], dst: &mut [u16]) -> usize {
        let n = src.len().min(dst.len());
        // SAFETY: AVX-512 F is enabled here.
        let table = unsafe { HighHalf::load(units) };
        let (s, mut d) = (src.as_ptr(), dst.as_mut_ptr());
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
                        d = dst.as_mut_ptr();
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
    pub(super) unsafe fn encode_hot_pairs(
        src: &[u8],
        hot: &super::HotPairs,
        dst: &mut [u8],
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
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
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
            // Trails of a cold lead, or of an unmappable character: stop at their lead.
            let cold = trails & !(e0 | e1 | e2 | e3);
            let unmapped = trails & _mm512_cmpeq_epi8_mask(mapped, _mm512_setzero_si512());
            let bad = cold | unmapped;
            let mut take = 64;
            if long != 0 {
                take = long.trailing_zeros();
            }
            if bad != 0 {
                take = take.min(bad.trailing_zeros().saturating_sub(1));
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
    pub(super) unsafe fn encode_x_user_defined(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
        // SAFETY: 64 readable bytes.
        let back_one = unsafe { _mm512_loadu_si512(BACK_ONE.as_ptr().cast()) };
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
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
            unsafe {
                _mm512_mask_storeu_epi8(d.add(written).cast(), _bzhi_u64(u64::MAX, n), packed)
            };
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
    pub(super) unsafe fn x_user_defined_to_utf16(src: &[u8], dst: &mut [u16]) -> usize {
        let n = src.len().min(dst.len());
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
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
    pub(super) unsafe fn to_utf8(src: &[u8], units: &[u16; 256], dst: &mut [u8]) -> (usize, usize) {
        // SAFETY: AVX-512 F is enabled here.
        let table = unsafe { HighHalf::load(units) };
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
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
                        _mm512_mask_storeu_epi8(
                            d.add(written).cast(),
                            _bzhi_u64(u64::MAX, len),
                            out,
                        )
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
}

#[cfg(test)]
// Bounds: test code over small buffers it builds itself; an out-of-range index, an
// overflow or a failed unwrap would panic and fail the test, which is what a test should do.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::panic
)]
mod tests {
    use super::super::dispatch::available_kernels;
    use super::super::sink::utf8_table;
    use super::*;
    use alloc::vec::Vec;

    /// A table exercising every path: ASCII identity, errors, two- and three-byte
    /// characters, a surrogate (never in an index, must be refused).
    fn table() -> [u16; 256] {
        let mut t = [0u16; 256];
        for (b, slot) in t.iter_mut().enumerate() {
            let b16 = b as u16;
            *slot = match b {
                0..=0x7F => b16,
                0x81 | 0x9D => 0,            // errors
                0x8F => 0xD800,              // a surrogate
                0x80..=0x9F => 0x2000 + b16, // three bytes
                0xA0..=0xDF => b16,          // two bytes (Latin-1)
                _ => 0x0400 + (b16 - 0xE0),  // two bytes (Cyrillic)
            };
        }
        t
    }

    /// Naive oracle: byte by byte, stopping at the first error.
    fn naive(src: &[u8], units: &[u16; 256]) -> (Vec<u16>, usize) {
        let mut out = Vec::new();
        for (i, &b) in src.iter().enumerate() {
            let u = units[usize::from(b)];
            if b >= 0x80 && (u == 0 || (0xD800..0xE000).contains(&u)) {
                return (out, i);
            }
            out.push(u);
        }
        (out, src.len())
    }

    #[test]
    fn every_kernel_matches_the_naive_oracle_across_lengths_errors_and_room() {
        let units = table();
        let utf8 = utf8_table(&units);
        let map = ByteMap {
            units: &units,
            utf8: &utf8,
        };
        let (max_len, err_step) = if cfg!(miri) { (70, 13) } else { (260, 1) };
        // Byte mixes: Latin-like (sparse non-ASCII), dense two-byte, three-byte.
        let mixes: [&dyn Fn(usize) -> u8; 5] = [
            // ASCII runs longer than two 64-byte steps (the ASCII kernel's), and than one.
            &|i| {
                if i % 203 == 202 {
                    0xE9
                } else {
                    b' ' + (i % 90) as u8
                }
            },
            &|i| {
                if i % 71 == 70 {
                    0xE9
                } else {
                    b' ' + (i % 90) as u8
                }
            },
            &|i| {
                if i % 7 == 3 {
                    0xE9
                } else {
                    b'a' + (i % 26) as u8
                }
            },
            &|i| 0xA0 + (i % 0x5F) as u8,
            &|i| [0x80, 0x41, 0xE1, 0x9F, 0x00][i % 5],
        ];
        for k in available_kernels() {
            for mix in &mixes {
                for len in 0..max_len {
                    let clean: Vec<u8> = (0..len).map(mix).collect();
                    for bad in (0..len).step_by(err_step).chain([usize::MAX]) {
                        let mut src = clean.clone();
                        if bad != usize::MAX {
                            src[bad] = [0x81, 0x8F, 0x9D][bad % 3];
                        }
                        let (expected, valid) = naive(&src, &units);
                        for room in [0, len / 2, len, 3 * len + 100] {
                            let mut wide = alloc::vec![0xAAAAu16; room];
                            let n = to_utf16_with(k, &src, &map, &mut wide);
                            check_prefix(k, n, valid, len, room >= len);
                            assert_eq!(&wide[..n], &expected[..n], "{k:?} utf16 {len} {bad}");
                            assert!(wide[n..].iter().all(|&u| u == 0xAAAA), "{k:?} wrote past");

                            let mut narrow = alloc::vec![0xAAu8; room];
                            let (read, written) = to_utf8_with(k, &src, &map, &mut narrow);
                            check_prefix(k, read, valid, len, room >= 3 * len + 96);
                            let text = core::str::from_utf8(&narrow[..written])
                                .unwrap_or_else(|e| panic!("{k:?} invalid UTF-8 {e}"));
                            let want = String::from_utf16(&expected[..read]).unwrap();
                            assert_eq!(text, want, "{k:?} utf8 {len} {bad} {room}");
                            assert!(narrow[written..].iter().all(|&b| b == 0xAA), "{k:?} past");
                        }
                    }
                }
            }
        }
    }

    /// What a kernel may read: nothing (levels without a kernel), or whole blocks up to
    /// the first error (taken exactly when its block is whole and, with ample room,
    /// reached).
    fn check_prefix(k: Kernel, read: usize, valid: usize, len: usize, ample_room: bool) {
        assert!(read <= valid, "{k:?} read {read} past the error at {valid}");
        #[cfg(target_arch = "x86_64")]
        if matches!(k, Kernel::Avx512(_)) && ample_room {
            // It goes on while a whole block is left (blocks count from where an ASCII
            // run, taken to its end, stopped).
            assert!(
                read == valid || read + BLOCK > len,
                "{k:?} stopped early (len {len}, read {read}, valid {valid})"
            );
        }
        let _ = (len, ample_room);
    }

    use alloc::string::String;

    /// `len` characters from `takeable` but one from `others` at `other_at` (none if out
    /// of range), and the byte offset of that one (the text's length if none).
    fn mixed_text(
        len: usize,
        other_at: usize,
        takeable: &[char],
        others: &[char],
    ) -> (String, usize) {
        let text: String = (0..len)
            .map(|i| {
                if i == other_at {
                    others[(i / 5 + len) % others.len()]
                } else {
                    takeable[(i * 31 + len) % takeable.len()]
                }
            })
            .collect();
        let stop = text
            .char_indices()
            .nth(other_at)
            .map_or(text.len(), |(at, _)| at);
        (text, stop)
    }

    /// The encoder kernel against the index, character by character: it takes a prefix of
    /// whole characters, all ASCII or hot and mappable, writes exactly their bytes, and
    /// with ample room takes every whole step such characters fill.
    #[test]
    fn hot_pair_encoder_matches_the_index_across_mixes_and_room() {
        use crate::index::single_byte::{ISO_8859_2, WINDOWS_1251, WINDOWS_1252, WINDOWS_1255};
        let indexes = [&WINDOWS_1252, &WINDOWS_1251, &ISO_8859_2, &WINDOWS_1255];
        let (max_len, step) = if cfg!(miri) { (70, 23) } else { (200, 1) };
        for index in indexes {
            let hot = &index.hot;
            // Characters the kernel must take (ASCII, hot and mappable), and others.
            let mut takeable: Vec<char> = (0x20u8..0x7F).step_by(7).map(char::from).collect();
            let mut others: Vec<char> = alloc::vec!['€', '\u{2013}', '日', '😀', '\u{7FF}'];
            for b in 0x80..=0xFFu8 {
                let Some(cp) = index.code_point(b) else {
                    continue;
                };
                let c = char::from_u32(u32::from(cp)).unwrap();
                let lead = c.encode_utf8(&mut [0; 4]).as_bytes()[0];
                if c.len_utf8() == 2 && hot.leads.contains(&lead) {
                    takeable.push(c);
                } else {
                    others.push(c);
                }
            }
            // A hot-block character the index does not map (if any): must stop the kernel.
            for k in 0..4 {
                for t in 0..64u32 {
                    let lead = u32::from(hot.leads[k]);
                    if lead == 0 || hot.bytes[k * 64 + t as usize] != 0 {
                        continue;
                    }
                    let cp = ((lead & 0x1F) << 6) | t;
                    if cp >= 0x80 {
                        others.push(char::from_u32(cp).unwrap());
                        break;
                    }
                }
            }
            assert!(takeable.len() > 40, "hot blocks too small");
            for len in 0..max_len {
                for other_at in (0..len).step_by(step * 5).chain([usize::MAX]) {
                    let (text, stop_char) = mixed_text(len, other_at, &takeable, &others);
                    for room in [0, 63, 64, text.len(), text.len() + 64] {
                        for k in available_kernels() {
                            let mut dst = alloc::vec![0xAAu8; room];
                            let (read, written) =
                                encode_hot_pairs_with(k, text.as_bytes(), hot, &mut dst);
                            assert!(text.is_char_boundary(read), "{k:?} read {read}");
                            assert!(read <= stop_char, "{k:?} read past a stop at {stop_char}");
                            let want: Vec<u8> = text[..read]
                                .chars()
                                .map(|c| {
                                    if (c as u32) < 0x80 {
                                        c as u8
                                    } else {
                                        index.byte_for(c as u32).unwrap()
                                    }
                                })
                                .collect();
                            assert_eq!(&dst[..written], &want[..], "{k:?} len {len}");
                            assert!(dst[written..].iter().all(|&b| b == 0xAA), "{k:?} past");
                            #[cfg(target_arch = "x86_64")]
                            if matches!(k, Kernel::Avx512(_)) && room >= text.len() + 64 {
                                // Whole 64-byte steps up to the stop are taken (a step may
                                // end one byte early, before a lead).
                                assert!(
                                    read + 64 > stop_char.min(text.len()) || read == stop_char,
                                    "{k:?} stopped early at {read} (stop {stop_char}, len {})",
                                    text.len()
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// The x-user-defined encoder kernel against the Standard's mapping, character by
    /// character: a prefix of whole characters, each ASCII or U+F780..=U+F7FF, exactly their
    /// bytes, and with ample room every whole step up to the first other character.
    #[test]
    fn x_user_defined_encoder_matches_the_mapping_across_mixes_and_room() {
        let max_len = if cfg!(miri) { 70 } else { 200 };
        let takeable: Vec<char> = (0u32..0x80)
            .step_by(5)
            .chain(0xF780..0xF800)
            .filter_map(char::from_u32)
            .collect();
        let others = [
            'é', '日', '😀', '\u{F77F}', '\u{F800}', '\u{E000}', '\u{7FF}',
        ];
        for len in 0..max_len {
            for other_at in (0..len).step_by(7).chain([usize::MAX]) {
                let (text, stop) = mixed_text(len, other_at, &takeable, &others);
                for room in [0, 63, 64, text.len(), text.len() + 64] {
                    for k in available_kernels() {
                        let mut dst = alloc::vec![0xAAu8; room];
                        let (read, written) =
                            encode_x_user_defined_with(k, text.as_bytes(), &mut dst);
                        assert!(
                            text.is_char_boundary(read) && read <= stop,
                            "{k:?} read {read}"
                        );
                        let want: Vec<u8> = text[..read]
                            .chars()
                            .map(|c| match c as u32 {
                                cp @ 0..=0x7F => cp as u8,
                                cp => (cp - 0xF780 + 0x80) as u8,
                            })
                            .collect();
                        assert_eq!(&dst[..written], &want[..], "{k:?} len {len}");
                        assert!(dst[written..].iter().all(|&b| b == 0xAA), "{k:?} past");
                        #[cfg(target_arch = "x86_64")]
                        if matches!(k, Kernel::Avx512(_)) && room >= text.len() + 64 {
                            assert!(read == stop || read + 64 > text.len(), "{k:?} early {read}");
                        }
                    }
                }
            }
        }
    }

    /// x-user-defined to UTF-16 against the Standard's arithmetic, every byte value, with
    /// lengths and rooms around the step.
    #[test]
    fn x_user_defined_to_utf16_matches_the_standard() {
        let src: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
        let want: Vec<u16> = src
            .iter()
            .map(|&b| {
                if b < 0x80 {
                    u16::from(b)
                } else {
                    0xF780 + u16::from(b) - 0x80
                }
            })
            .collect();
        for k in available_kernels() {
            for len in [0, 1, 63, 64, 65, 128, 191, 300] {
                for room in [0, 63, 64, len, len + 5] {
                    let mut dst = alloc::vec![0xAAAAu16; room];
                    let n = x_user_defined_to_utf16_with(k, &src[..len], &mut dst);
                    assert!(n <= len.min(room) && n.is_multiple_of(64), "{k:?} {n}");
                    #[cfg(target_arch = "x86_64")]
                    if matches!(k, Kernel::Avx512(_)) {
                        assert_eq!(n, len.min(room) / 64 * 64, "{k:?} stopped early");
                    }
                    assert_eq!(&dst[..n], &want[..n], "{k:?} len {len}");
                    assert!(dst[n..].iter().all(|&u| u == 0xAAAA), "{k:?} wrote past");
                }
            }
        }
    }
}
