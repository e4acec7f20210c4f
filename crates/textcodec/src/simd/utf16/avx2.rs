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

/// Basic Latin runs, 16 units at a time; stops at the first block with anything else.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
// Hot loop. Bounds: `read` and `written` only advance by 32 and 16 while `read + 32 <=
// src.len()` and `written + 16 <= dst.len()`, so neither passes its slice's length and
// the sums cannot overflow.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) unsafe fn bytes_to_utf8(src: &[u8], big_endian: bool, dst: &mut [u8]) -> (usize, usize) {
    let high = _mm256_set1_epi16(0xFF80u16 as i16);
    let (mut read, mut written) = (0, 0);
    while read + 32 <= src.len() && written + 16 <= dst.len() {
        // SAFETY: `read + 32 <= src.len()`.
        let v = order(
            unsafe { _mm256_loadu_si256(src.as_ptr().add(read).cast()) },
            big_endian,
        );
        if _mm256_testz_si256(v, high) == 0 {
            break;
        }
        let packed = _mm256_packus_epi16(v, v);
        let ordered = _mm256_permute4x64_epi64::<0b00_00_10_00>(packed);
        // SAFETY: `written + 16 <= dst.len()`.
        unsafe {
            _mm_storeu_si128(
                dst.as_mut_ptr().add(written).cast(),
                _mm256_castsi256_si128(ordered),
            )
        };
        read += 32;
        written += 16;
    }
    (read, written)
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
    dst: &mut [u16],
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
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().add(written).cast(), v) };
        read += 32;
        written += 16;
    }
    (read, written)
}
