use crate::simd::{out_ptr, Slots};
use core::arch::x86_64::*;

/// Latin-1 → UTF-8, 64 bytes per step where they are ASCII (stored as they are), else
/// 32: otherwise each
/// byte is widened to a `u16` lane holding its UTF-8 (lead `0xC0 | b >> 6` in the low
/// byte, trail `0x80 | b & 0x3F` in the high one; an ASCII byte alone), and
/// `vpcompressb` keeps every low byte and the high byte of the non-ASCII lanes. Stops
/// with fewer than 32 bytes left or 64 bytes of room. Returns (bytes read, bytes
/// written).
///
/// # Safety
/// The CPU must support AVX2, BMI2, POPCNT and AVX-512 F/BW/VL/VBMI2.
#[target_feature(enable = "avx2,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi2")]
// Hot loop. Bounds: a step runs only while `i + 32 <= src.len()` and `written + 64 <=
// dst.len()`, reads `src[i..i + 32]` (or `i + 64`, checked) and writes at most 64 bytes
// from `written`; `n` is
// 32 plus the non-ASCII bytes (at most 64), so `64 - n` is in 0..=32.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) unsafe fn to_utf8(src: &[u8], dst: &mut Slots<u8>) -> (usize, usize) {
    let (s, d) = (src.as_ptr(), out_ptr(dst));
    let (x3f, x80, xc0) = (
        _mm512_set1_epi16(0x3F),
        _mm512_set1_epi16(0x80),
        _mm512_set1_epi16(0xC0),
    );
    let (mut i, mut written) = (0, 0);
    while i + 32 <= src.len() && written + 64 <= dst.len() {
        if i + 64 <= src.len() {
            // SAFETY: `i + 64 <= src.len()`.
            let v = unsafe { _mm512_loadu_si512(s.add(i).cast()) };
            if _mm512_movepi8_mask(v) == 0 {
                // SAFETY: `written + 64 <= dst.len()`.
                unsafe { _mm512_storeu_si512(d.add(written).cast(), v) };
                i += 64;
                written += 64;
                continue;
            }
        }
        // SAFETY: `i + 32 <= src.len()`.
        let b = unsafe { _mm256_loadu_si256(s.add(i).cast()) };
        let high = _mm256_movemask_epi8(b) as u32;
        if high == 0 {
            // SAFETY: `written + 32 <= dst.len()`.
            unsafe { _mm256_storeu_si256(d.add(written).cast(), b) };
            i += 32;
            written += 32;
            continue;
        }
        let w = _mm512_cvtepu8_epi16(b);
        let lead = _mm512_or_si512(_mm512_srli_epi16::<6>(w), xc0);
        let trail = _mm512_ternarylogic_epi32::<0xEA>(w, x3f, x80);
        let two = _mm512_or_si512(lead, _mm512_slli_epi16::<8>(trail));
        let bytes = _mm512_mask_mov_epi16(two, !high, w);
        let keep = 0x5555_5555_5555_5555u64 | _pdep_u64(u64::from(high), 0xAAAA_AAAA_AAAA_AAAA);
        let n = keep.count_ones();
        let out = _mm512_maskz_compress_epi8(keep, bytes);
        // SAFETY: `n <= 64` and `written + 64 <= dst.len()`: the masked store writes
        // `dst[written..written + n]` only.
        unsafe { _mm512_mask_storeu_epi8(d.add(written).cast(), u64::MAX >> (64 - n), out) };
        i += 32;
        written += n as usize;
    }
    (i, written)
}

/// Latin-1 → UTF-16, 32 bytes per vector (`vpmovzxbw` to one 64-byte store), two per
/// step. Returns the bytes done.
///
/// # Safety
/// The CPU must support AVX-512 F/BW.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
// Bounds: `i` advances by 64 or 32 while that many bytes are left in both `src` and
// `dst` (`n`); the stores write `dst[i..i + 64]` or `dst[i..i + 32]` (units).
#[allow(clippy::arithmetic_side_effects)]
pub(crate) unsafe fn to_utf16(src: &[u8], dst: &mut Slots<u16>) -> usize {
    let n = src.len().min(dst.len());
    let (s, d) = (src.as_ptr(), out_ptr(dst));
    let mut i = 0;
    while i + 64 <= n {
        // SAFETY: see Bounds.
        unsafe {
            let a = _mm256_loadu_si256(s.add(i).cast());
            let b = _mm256_loadu_si256(s.add(i + 32).cast());
            _mm512_storeu_si512(d.add(i).cast(), _mm512_cvtepu8_epi16(a));
            _mm512_storeu_si512(d.add(i + 32).cast(), _mm512_cvtepu8_epi16(b));
        }
        i += 64;
    }
    if i + 32 <= n {
        // SAFETY: see Bounds.
        unsafe {
            let a = _mm256_loadu_si256(s.add(i).cast());
            _mm512_storeu_si512(d.add(i).cast(), _mm512_cvtepu8_epi16(a));
        }
        i += 32;
    }
    i
}
