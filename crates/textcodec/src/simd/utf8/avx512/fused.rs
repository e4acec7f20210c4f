use super::validate::{invalid, Leads, Tables};
use crate::simd::{out_ptr, Slots};
use core::arch::x86_64::*;

/// `vpermt2b` indices that interleave low bytes (first operand) and high bytes
/// (second) into units: `INTERLEAVE[0]` for units 0..32, `[1]` for 32..64.
// Bounds: evaluated at compile time (`k < 32`, so `2 * k + 1 < 64`); an out-of-bounds
// index or an overflow would fail the build, it cannot panic at run time.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const INTERLEAVE: [[u8; 64]; 2] = {
    let mut t = [[0u8; 64]; 2];
    let mut k = 0;
    while k < 32 {
        t[0][2 * k] = k as u8;
        t[0][2 * k + 1] = 64 + k as u8;
        t[1][2 * k] = 32 + k as u8;
        t[1][2 * k + 1] = 96 + k as u8;
        k += 1;
    }
    t
};

/// `vpermb` tables indexed by the low six bits of a byte `x`: `[0]` the XOR that turns
/// a continuation into the low byte of its unit when `x` is the byte before it (the
/// top two bits `0b10` become `x`'s low two); `[1]` `x`'s bits 2..=5, the high byte's
/// low nibble; `[2]` a 3-byte lead's payload, the high byte's high nibble.
// Bounds: evaluated at compile time (`x < 64`); an out-of-bounds index or an overflow
// would fail the build, it cannot panic at run time.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const BY_LOW_SIX: [[u8; 64]; 3] = {
    let mut t = [[0u8; 64]; 3];
    let mut x = 0;
    while x < 64 {
        t[0][x] = (((x & 3) ^ 2) << 6) as u8;
        t[1][x] = ((x >> 2) & 0x0F) as u8;
        t[2][x] = ((x & 0x0F) << 4) as u8;
        x += 1;
    }
    t
};

/// [`to_utf16`] validating: for any bytes.
///
/// # Safety
/// The CPU must support AVX2, BMI2, POPCNT and AVX-512 F/BW/VL/VBMI/VBMI2.
#[target_feature(enable = "avx2,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
pub(crate) unsafe fn validate_to_utf16(src: &[u8], dst: &mut Slots<u16>) -> (usize, usize) {
    // SAFETY: the same CPU features.
    unsafe { to_utf16::<true>(src, dst) }
}

/// [`to_utf16`] of a `str`, not validating.
///
/// # Safety
/// The CPU must support AVX2, BMI2, POPCNT and AVX-512 F/BW/VL/VBMI/VBMI2.
#[target_feature(enable = "avx2,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
pub(crate) unsafe fn valid_to_utf16(src: &str, dst: &mut Slots<u16>) -> (usize, usize) {
    // SAFETY: the same CPU features; `src` is a `str`, so valid UTF-8.
    unsafe { to_utf16::<false>(src.as_bytes(), dst) }
}

/// Converts (and, if `VALIDATE`, validates) `src` to UTF-16 into `dst`, whole
/// characters only. Returns (bytes of `src` read, units written): `src[..read]` is
/// valid UTF-8 and ends on a character boundary, and `dst[..written]` is its UTF-16.
/// It stops before the 64-byte block with the first error, when fewer than 64 bytes
/// or 64 units of room are left, or earlier (`read` may be 0); `dst` past `written`
/// may be overwritten.
///
/// # Safety
/// The CPU must support AVX2, BMI2, POPCNT and AVX-512 F/BW/VL/VBMI/VBMI2. Unless
/// `VALIDATE`, `src` must be valid UTF-8.
#[target_feature(enable = "avx2,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
// Hot loop. Bounds: a block runs only while `i + 64 <= src.len()` and
// `written + 64 <= dst.len()`; it advances `i` by at most 64 and `written` by at most
// 64 (a compress mask's popcount, the units of an ASCII block, or what the scalar
// twin wrote into `dst[written..]`), so neither passes its slice's length and no sum
// can overflow. The offset loads at `i - 1 ..= i - 3` are taken only when `i > 0`,
// and then `i >= 64`. `boundary_before(src, x)`
// returns a value in `x - 3 ..= x` for `x <= src.len()`, so `start <= end`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
unsafe fn to_utf16<const VALIDATE: bool>(src: &[u8], dst: &mut Slots<u16>) -> (usize, usize) {
    if src.len() < 64 {
        return (0, 0);
    }
    let t = Tables::new();
    // SAFETY: 64 readable bytes each.
    let (interleave_lo, interleave_hi) = unsafe {
        (
            _mm512_loadu_si512(INTERLEAVE[0].as_ptr().cast()),
            _mm512_loadu_si512(INTERLEAVE[1].as_ptr().cast()),
        )
    };
    let below_c0 = _mm512_set1_epi8(-0x40);
    let e0 = _mm512_set1_epi8(0xE0u8 as i8);
    let f0 = _mm512_set1_epi8(0xF0u8 as i8);
    // SAFETY: 64 readable bytes each.
    let (t_lo, t_hi, t_lead) = unsafe {
        (
            _mm512_loadu_si512(BY_LOW_SIX[0].as_ptr().cast()),
            _mm512_loadu_si512(BY_LOW_SIX[1].as_ptr().cast()),
            _mm512_loadu_si512(BY_LOW_SIX[2].as_ptr().cast()),
        )
    };
    // The first block, with three NUL bytes in front (the start is a character
    // boundary).
    let mut first = [0u8; 67];
    first[3..].copy_from_slice(&src[..64]);
    let (s, d) = (src.as_ptr(), out_ptr(dst));
    let (mut i, mut written) = (0, 0);
    // Whether the last block ended inside a character.
    let mut pending = false;
    while i + 64 <= src.len() && written + 64 <= dst.len() {
        // SAFETY: `first` holds `src[..64]` at 3; for `i > 0`, `i + 64 <= src.len()`.
        let p = unsafe {
            if i == 0 {
                first.as_ptr().add(3)
            } else {
                s.add(i)
            }
        };
        // SAFETY: `p .. p + 64` is readable (see above).
        let v = unsafe { _mm512_loadu_si512(p.cast()) };
        if _mm512_movepi8_mask(v) == 0 {
            if VALIDATE && pending {
                break;
            }
            let lo = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v));
            let hi = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(v));
            // SAFETY: `written + 64 <= dst.len()`.
            unsafe {
                _mm512_storeu_si512(d.add(written).cast(), lo);
                _mm512_storeu_si512(d.add(written + 32).cast(), hi);
            }
            i += 64;
            written += 64;
            continue;
        }
        // SAFETY: `p - 3 .. p` is readable: `first` has three bytes before `p`, and
        // `i >= 64` otherwise.
        let (b1, b2, b3) = unsafe {
            (
                _mm512_loadu_si512(p.sub(1).cast()),
                _mm512_loadu_si512(p.sub(2).cast()),
                _mm512_loadu_si512(p.sub(3).cast()),
            )
        };
        // Leads 2 and 3 bytes back: of the 3- and 4-byte characters that end here.
        let leads = if VALIDATE {
            let (invalid, leads) = invalid(&t, v, b1, b2, b3);
            if invalid {
                break;
            }
            leads
        } else {
            Leads {
                three: _mm512_cmpge_epu8_mask(b2, e0),
                four: _mm512_cmpge_epu8_mask(b3, f0),
            }
        };
        // The block ends inside a character: a lead of 2+ bytes at 63, of 3+ at 62 or
        // of 4 at 61. Per byte, adding the lowest of the bits that must all be set
        // carries into a bit that is 0 otherwise.
        let last = u32::from_le_bytes([src[i + 60], src[i + 61], src[i + 62], src[i + 63]]);
        pending = (u64::from(last & 0xC0E0_F000) + 0x4020_1000) & 0x1_0101_0000 != 0;
        if leads.four != 0 {
            // Rare: the scalar twin converts the characters that end in this block.
            let start = super::boundary_before(src, i);
            let end = super::boundary_before(src, i + 64);
            // SAFETY: the characters that end before `i + 64` are valid (checked
            // above, or `src` is valid), and `start`, `end` are boundaries.
            let chars = unsafe { core::str::from_utf8_unchecked(&src[start..end]) };
            let (r, w) = super::scalar::to_utf16(chars, &mut dst[written..]);
            written += w;
            if r < chars.len() {
                return (start + r, written);
            }
            i += 64;
            continue;
        }
        let cont0 = _mm512_cmplt_epi8_mask(v, below_c0);
        // Lane j ends a character when byte j + 1 is not a continuation; lane 63 when
        // the block does not end inside one.
        let ends = !((cont0 >> 1) | (u64::from(pending) << 63));
        // Low byte: ASCII as is; else the last byte's payload and the low two bits of
        // the byte before: the top two bits flipped from the continuation's 0b10.
        let lo = _mm512_xor_si512(v, _mm512_maskz_permutexvar_epi8(cont0, b1, t_lo));
        // High byte: bits 2..=5 of the byte before and, for a 3-byte character (a
        // 3-byte lead two back, in a lane that ends a character, is its own), the
        // lead's payload above them; 0 for ASCII.
        let hi = _mm512_or_si512(
            _mm512_maskz_permutexvar_epi8(cont0, b1, t_hi),
            _mm512_maskz_permutexvar_epi8(leads.three, b2, t_lead),
        );
        let lo = _mm512_maskz_compress_epi8(ends, lo);
        let hi = _mm512_maskz_compress_epi8(ends, hi);
        // SAFETY: `written + 64 <= dst.len()`.
        unsafe {
            _mm512_storeu_si512(
                d.add(written).cast(),
                _mm512_permutex2var_epi8(lo, interleave_lo, hi),
            );
            _mm512_storeu_si512(
                d.add(written + 32).cast(),
                _mm512_permutex2var_epi8(lo, interleave_hi, hi),
            );
        }
        written += ends.count_ones() as usize;
        i += 64;
    }
    (super::boundary_before(src, i), written)
}
