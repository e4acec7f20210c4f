use crate::simd::{out_ptr, Slots};
use core::arch::x86_64::*;

/// # Safety
/// The CPU must support AVX2, BMI2, POPCNT and AVX-512 F/BW/VL/VBMI2, and `src` must be valid
/// UTF-8.
#[target_feature(enable = "avx2,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi2")]
// Hot loop. Bounds: each window runs only while `i + 33 <= src.len()` and
// `written + 32 <= dst.len()`, and then advances `i` by 32 or 29 and `written` by at
// most 32 (a compress mask's popcount), so neither passes its slice's length and no
// sum can overflow. `i - 1`, `i - 2`, `i - 3` are taken only when `i >= 3`; `src[i..i +
// 32]` is within `i + 33`; `32 - leading_zeros` of a `u32` is 0..=32.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) unsafe fn to_utf16(src: &str, dst: &mut Slots<u16>) -> (usize, usize) {
    let src = src.as_bytes();
    // Payload mask by high nibble: ASCII 7 bits, continuation 6, 2-byte lead 5,
    // 3-byte lead 4, 4-byte lead 3.
    const PAYLOAD: [u8; 16] = [
        0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x3F, 0x3F, 0x3F, 0x3F, 0x1F, 0x1F, 0x0F,
        0x07,
    ];
    // SAFETY: 16 readable bytes.
    let payload_table =
        _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(PAYLOAD.as_ptr().cast()) });
    let nibble = _mm256_set1_epi8(0x0F);
    let f0 = _mm256_set1_epi8(0xF0u8 as i8);
    let below_c0 = _mm256_set1_epi8(-0x40);
    let payload = |v: __m256i| {
        let high = _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble);
        _mm512_cvtepu8_epi16(_mm256_and_si256(
            v,
            _mm256_shuffle_epi8(payload_table, high),
        ))
    };
    // Continuations are 0x80..0xBF: below -0x40 as i8.
    let cont = |v: __m256i| _mm256_movemask_epi8(_mm256_cmpgt_epi8(below_c0, v)) as u32;
    let lead4 =
        |v: __m256i| _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(v, f0), v)) as u32;
    let (s, d) = (src.as_ptr(), out_ptr(dst));
    let (mut i, mut read, mut written) = (0, 0, 0);
    // Bytes i-3..=i+32 are looked at (those before the start count as NUL); up to 32
    // units are stored.
    while i + 33 <= src.len() && written + 32 <= dst.len() {
        // SAFETY: `i + 33 <= src.len()`: the loads at `i` and `i + 1` are in bounds.
        let (input, next) = unsafe {
            (
                _mm256_loadu_si256(s.add(i).cast()),
                _mm256_loadu_si256(s.add(i + 1).cast()),
            )
        };
        if _mm256_movemask_epi8(input) == 0 {
            // All ASCII (so the window starts and ends on character boundaries).
            // SAFETY: `written + 32 <= dst.len()`.
            unsafe { _mm512_storeu_si512(d.add(written).cast(), _mm512_cvtepu8_epi16(input)) };
            i += 32;
            read = i;
            written += 32;
            continue;
        }
        let (back1, back2, back3) = if i >= 3 {
            // SAFETY: `3 <= i` and `i + 32 <= src.len()`: the loads are in bounds.
            unsafe {
                (
                    _mm256_loadu_si256(s.add(i - 1).cast()),
                    _mm256_loadu_si256(s.add(i - 2).cast()),
                    _mm256_loadu_si256(s.add(i - 3).cast()),
                )
            }
        } else {
            // Only the first window (i == 0): NUL before the start.
            let mut buf = [0u8; 35];
            buf[3..].copy_from_slice(&src[i..i + 32]);
            // SAFETY: each load reads 32 of the 35 bytes of `buf`.
            unsafe {
                (
                    _mm256_loadu_si256(buf.as_ptr().add(2).cast()),
                    _mm256_loadu_si256(buf.as_ptr().add(1).cast()),
                    _mm256_loadu_si256(buf.as_ptr().cast()),
                )
            }
        };
        let c0 = cont(input);
        let c1 = cont(back1);
        // Lane j ends a character when byte j + 1 is not a continuation.
        let ends = !cont(next);
        let (p0, p1, p2) = (payload(input), payload(back1), payload(back2));
        // A continuation takes the payload before it, shifted 6; the third byte of a
        // 3-byte character also the one before that, shifted 12.
        let mut cp = _mm512_or_si512(
            p0,
            _mm512_or_si512(
                _mm512_maskz_slli_epi16::<6>(c0, p1),
                _mm512_maskz_slli_epi16::<12>(c0 & c1, p2),
            ),
        );
        let mut keep = ends;
        let (third, fourth) = (lead4(back2), lead4(back3));
        if third | fourth != 0 {
            // High surrogate at the third byte: 0xD800 + (code point >> 10) - 0x40.
            let high = _mm512_add_epi16(
                _mm512_or_si512(
                    _mm512_or_si512(_mm512_slli_epi16::<8>(p2), _mm512_slli_epi16::<2>(p1)),
                    _mm512_srli_epi16::<4>(p0),
                ),
                _mm512_set1_epi16(0xD7C0u16 as i16),
            );
            // Low surrogate at the fourth: 0xDC00 + the low 10 bits.
            let low = _mm512_or_si512(
                _mm512_or_si512(
                    _mm512_slli_epi16::<6>(_mm512_and_si512(p1, _mm512_set1_epi16(0x0F))),
                    p0,
                ),
                _mm512_set1_epi16(0xDC00u16 as i16),
            );
            cp = _mm512_mask_mov_epi16(cp, third, high);
            cp = _mm512_mask_mov_epi16(cp, fourth, low);
            keep |= third;
            if third >> 31 != 0 {
                // The character's last byte is in the next window: start that window
                // at the character (its lead is byte 29) so both halves go together.
                keep &= !(1 << 31);
                let units = _mm512_maskz_compress_epi16(keep, cp);
                // SAFETY: `written + 32 <= dst.len()`.
                unsafe { _mm512_storeu_si512(d.add(written).cast(), units) };
                written += keep.count_ones() as usize;
                i += 29;
                read = i;
                continue;
            }
        }
        let units = _mm512_maskz_compress_epi16(keep, cp);
        // SAFETY: `written + 32 <= dst.len()`.
        unsafe { _mm512_storeu_si512(d.add(written).cast(), units) };
        written += keep.count_ones() as usize;
        // Characters that end in this window are done; one that straddles its end is
        // finished by the next window (or left to the caller).
        read = i + 32 - ends.leading_zeros() as usize;
        i += 32;
    }
    (read, written)
}
