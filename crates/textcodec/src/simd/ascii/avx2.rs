use crate::simd::{out_ptr, write_short, Slots};
use core::arch::x86_64::*;

const LANES: usize = 32;

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
// Hot loop. Bounds: `i` only advances by 64 or 32 bytes while `i + 64` or `i + 32` is
// at most `src.len()`, so `i <= src.len()` and the sums cannot overflow; a mask's
// trailing zeros are below 32.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) unsafe fn ascii_prefix_len(src: &[u8]) -> usize {
    let p = src.as_ptr();
    let mut i = 0;
    while i + 2 * LANES <= src.len() {
        // SAFETY: `i + 64 <= src.len()`: both 32-byte loads are in bounds.
        let (a, b) = unsafe {
            (
                _mm256_loadu_si256(p.add(i).cast()),
                _mm256_loadu_si256(p.add(i + LANES).cast()),
            )
        };
        if _mm256_movemask_epi8(_mm256_or_si256(a, b)) != 0 {
            break;
        }
        i += 2 * LANES;
    }
    while i + LANES <= src.len() {
        // SAFETY: `i + 32 <= src.len()`.
        let v = unsafe { _mm256_loadu_si256(p.add(i).cast()) };
        let mask = _mm256_movemask_epi8(v);
        if mask != 0 {
            return i + mask.trailing_zeros() as usize;
        }
        i += LANES;
    }
    i + super::scalar::ascii_prefix_len(&src[i..])
}

/// Copies 64-byte ASCII blocks from `s` to `d` while the whole block fits in `n`, loading
/// each block before storing the one before it; returns the bytes copied (a multiple of
/// 64; it stops before a block with a non-ASCII byte, which the caller looks at again).
///
/// # Safety
/// The CPU must support AVX2; `s .. s + n` must be readable and `d .. d + n` writable.
#[target_feature(enable = "avx2")]
// Bounds: the blocks loaded lie in `0..n`: the first while `64 <= n`, each next one while
// `i + 128 <= n`; the stores write the blocks loaded before.
#[allow(clippy::arithmetic_side_effects)]
unsafe fn copy_ascii_loading_ahead(s: *const u8, d: *mut u8, n: usize) -> usize {
    if n < 2 * LANES {
        return 0;
    }
    // SAFETY (all loads and stores below): see above.
    let (mut a, mut b) = unsafe {
        (
            _mm256_loadu_si256(s.cast()),
            _mm256_loadu_si256(s.add(LANES).cast()),
        )
    };
    let mut i = 0;
    while _mm256_movemask_epi8(_mm256_or_si256(a, b)) == 0 {
        let last = i + 4 * LANES > n;
        let (next_a, next_b) = if last {
            (a, b)
        } else {
            unsafe {
                (
                    _mm256_loadu_si256(s.add(i + 2 * LANES).cast()),
                    _mm256_loadu_si256(s.add(i + 3 * LANES).cast()),
                )
            }
        };
        unsafe {
            _mm256_storeu_si256(d.add(i).cast(), a);
            _mm256_storeu_si256(d.add(i + LANES).cast(), b);
        }
        i += 2 * LANES;
        if last {
            break;
        }
        (a, b) = (next_a, next_b);
    }
    i
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
// Hot loop. Bounds: `n` is the shorter length and `i` only advances by 64 or 32 bytes
// while `i + 64` or `i + 32` is at most `n`, so `i <= n`; a mask's trailing zeros `len`
// are below 32, so `i + len <= n` as well.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) unsafe fn copy_ascii(src: &[u8], dst: &mut Slots<u8>) -> usize {
    let n = src.len().min(dst.len());
    let (s, d) = (src.as_ptr(), out_ptr(dst));
    // With `dst` a few bytes after `src` modulo 4096 each load would follow a store it
    // aliases (4K aliasing): there the next 64 bytes are loaded before these are stored.
    let mut i = if crate::simd::stores_alias_next_loads(s, d) {
        // SAFETY: AVX2 is enabled; `n` is at most both lengths.
        unsafe { copy_ascii_loading_ahead(s, d, n) }
    } else {
        0
    };
    while i + 2 * LANES <= n {
        // SAFETY: `i + 64 <= n`, the length of both slices or less: the loads and the
        // stores are in bounds.
        let done = unsafe {
            let a = _mm256_loadu_si256(s.add(i).cast());
            let b = _mm256_loadu_si256(s.add(i + LANES).cast());
            let ascii = _mm256_movemask_epi8(_mm256_or_si256(a, b)) == 0;
            if ascii {
                _mm256_storeu_si256(d.add(i).cast(), a);
                _mm256_storeu_si256(d.add(i + LANES).cast(), b);
            }
            !ascii
        };
        if done {
            break;
        }
        i += 2 * LANES;
    }
    while i + LANES <= n {
        // SAFETY: `i + 32 <= n`: the load and the store are in bounds.
        let mask = unsafe {
            let v = _mm256_loadu_si256(s.add(i).cast());
            let mask = _mm256_movemask_epi8(v);
            if mask == 0 {
                _mm256_storeu_si256(d.add(i).cast(), v);
            }
            mask
        };
        if mask != 0 {
            let len = mask.trailing_zeros() as usize;
            write_short(&mut dst[i..i + len], &src[i..i + len]);
            return i + len;
        }
        i += LANES;
    }
    i + super::scalar::copy_ascii(&src[i..n], &mut dst[i..n])
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
// Hot loop. Bounds: `n` is the shorter length and `i` only advances by 32 while
// `i + 32 <= n`, so `i <= n`; a mask's trailing zeros `len` are below 32, so every `j`
// in `i..i + len` is below `n`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) unsafe fn widen_ascii(src: &[u8], dst: &mut Slots<u16>) -> usize {
    let n = src.len().min(dst.len());
    let (s, d) = (src.as_ptr(), out_ptr(dst));
    let mut i = 0;
    while i + LANES <= n {
        // SAFETY: `i + 32 <= n`: the 32-byte load reads `src[i..i + 32]` and the two
        // 16-unit stores write `dst[i..i + 32]`.
        let mask = unsafe {
            let v = _mm256_loadu_si256(s.add(i).cast());
            let mask = _mm256_movemask_epi8(v);
            if mask == 0 {
                let lo = _mm256_cvtepu8_epi16(_mm256_castsi256_si128(v));
                let hi = _mm256_cvtepu8_epi16(_mm256_extracti128_si256::<1>(v));
                _mm256_storeu_si256(d.add(i).cast(), lo);
                _mm256_storeu_si256(d.add(i + 16).cast(), hi);
            }
            mask
        };
        if mask != 0 {
            let len = mask.trailing_zeros() as usize;
            for j in i..i + len {
                dst[j].write(u16::from(src[j]));
            }
            return i + len;
        }
        i += LANES;
    }
    i + super::scalar::widen_ascii(&src[i..n], &mut dst[i..n])
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
// Hot loop. Bounds: `n` is the shorter length and `i` only advances by 32 while
// `i + 32 <= n`, so `i <= n` and the tail slices are in bounds.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) unsafe fn narrow_basic_latin(src: &[u16], dst: &mut Slots<u8>) -> usize {
    let n = src.len().min(dst.len());
    let (s, d) = (src.as_ptr(), out_ptr(dst));
    let high = _mm256_set1_epi16(0xFF80u16 as i16);
    let mut i = 0;
    while i + 32 <= n {
        // SAFETY: `i + 32 <= n`: the two 16-unit loads read `src[i..i + 32]` and the
        // 32-byte store writes `dst[i..i + 32]`.
        let ascii = unsafe {
            let a = _mm256_loadu_si256(s.add(i).cast());
            let b = _mm256_loadu_si256(s.add(i + 16).cast());
            let ascii = _mm256_testz_si256(_mm256_or_si256(a, b), high) == 1;
            if ascii {
                // packus interleaves the 128-bit lanes: a.lo b.lo a.hi b.hi.
                let packed = _mm256_packus_epi16(a, b);
                let ordered = _mm256_permute4x64_epi64::<0b11_01_10_00>(packed);
                _mm256_storeu_si256(d.add(i).cast(), ordered);
            }
            ascii
        };
        if !ascii {
            break;
        }
        i += 32;
    }
    i + super::scalar::narrow_basic_latin(&src[i..n], &mut dst[i..n])
}
