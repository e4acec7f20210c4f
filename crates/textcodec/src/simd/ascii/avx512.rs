use crate::simd::{out_ptr, Slots};
use core::arch::x86_64::*;

/// Stores the 64 bytes of `v` widened to `d[0..64]`.
///
/// # Safety
/// The CPU must support AVX-512 F/BW; `d[0..64]` must be writable.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
#[inline]
unsafe fn store_widened(d: *mut u16, v: __m512i) {
    let lo = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v));
    let hi = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(v));
    // SAFETY: the caller guarantees `d[0..64]` is writable.
    unsafe {
        _mm512_storeu_si512(d.cast(), lo);
        _mm512_storeu_si512(d.add(32).cast(), hi);
    }
}

/// The first `available.min(64)` bytes at `p` (masked load: nothing past them is read),
/// the length of their ASCII prefix, and a mask of that prefix's bytes.
/// # Safety
/// The CPU must support AVX-512 F/BW, and `available.min(64)` bytes at `p` must be
/// readable.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
// Bounds: shifts are by less than 64 (the full cases are taken apart).
#[allow(clippy::arithmetic_side_effects)]
unsafe fn ascii_prefix_64(p: *const u8, available: usize) -> (__m512i, usize, u64) {
    let m = available.min(64);
    let in_bounds = if m == 64 { u64::MAX } else { (1u64 << m) - 1 };
    // SAFETY: the mask selects the `m` readable bytes only.
    let v = unsafe { _mm512_maskz_loadu_epi8(in_bounds, p.cast()) };
    let non_ascii = _mm512_movepi8_mask(v);
    let len = if non_ascii == 0 {
        m
    } else {
        non_ascii.trailing_zeros() as usize
    };
    let keep = if len == 64 {
        u64::MAX
    } else {
        (1u64 << len) - 1
    };
    (v, len, keep)
}

/// # Safety
/// The CPU must support AVX-512 F/BW.
#[target_feature(enable = "avx512f,avx512bw")]
// Hot loop. Bounds: `n` is the shorter length; whole steps run while `i + 64 <= n`,
// the last covers `i..i + m` with `m = (n - i).min(64)` (masked loads and stores
// select exactly those bytes) and takes `len <= m`, so `i <= n` throughout; shifts
// are below 64.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) unsafe fn copy_ascii(src: &[u8], dst: &mut Slots<u8>) -> usize {
    let n = src.len().min(dst.len());
    let (s, d) = (src.as_ptr(), out_ptr(dst));
    let mut i = 0;
    // Whole 64-byte steps with plain loads and stores (a loop that computed a load and a
    // store mask on every step ran at a quarter of this speed; masks of all ones alone
    // measured as fast as plain accesses, so the cause is the per-step mask work) …
    while i + 64 <= n {
        // SAFETY: `i + 64 <= n`: the load reads `src[i..i + 64]`.
        let v = unsafe { _mm512_loadu_si512(s.add(i).cast()) };
        if _mm512_movepi8_mask(v) != 0 {
            break;
        }
        // SAFETY: `i + 64 <= n`: the store writes `dst[i..i + 64]`.
        unsafe { _mm512_storeu_si512(d.add(i).cast(), v) };
        i += 64;
    }
    // … then the step that ends the run (or the tail) masked: short runs need no
    // scalar loop or `memcpy` call.
    // SAFETY: `i <= n`: `src[i..i + (n - i).min(64)]` is readable.
    let (v, len, keep) = unsafe { ascii_prefix_64(s.add(i), n - i) };
    // SAFETY: the mask selects `dst[i..i + len]`, `len <= n - i`.
    unsafe { _mm512_mask_storeu_epi8(d.add(i).cast(), keep, v) };
    i + len
}

/// # Safety
/// The CPU must support AVX2 and AVX-512 F/BW.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
// Hot loop. Bounds: `n` is the shorter length. The first step takes `len <= n.min(64)`
// units; the loop runs only after 64 (so `64 <= n`) and then
// `i` is at most 64, and it only advances by 128 or 64 while `i + 128`
// or `i + 64` is at most `n`, so `i <= n`, the sums cannot overflow and the tail
// slices are in bounds; a mask's trailing zeros are below 64.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) unsafe fn widen_ascii(src: &[u8], dst: &mut Slots<u16>) -> usize {
    let n = src.len().min(dst.len());
    let (s, d) = (src.as_ptr(), out_ptr(dst));
    // The first (up to) 64 bytes with masked loads and stores: short runs (words,
    // markup between non-ASCII text) end here without a scalar tail.
    // SAFETY: `src[..n.min(64)]` is readable.
    let (v, len, keep) = unsafe { ascii_prefix_64(s, n) };
    // SAFETY: the masks select units of `dst[0..len]` only, `len <= n`.
    unsafe {
        _mm512_mask_storeu_epi16(
            d.cast(),
            keep as u32,
            _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v)),
        );
        _mm512_mask_storeu_epi16(
            d.add(32).cast(),
            (keep >> 32) as u32,
            _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(v)),
        );
    }
    if len < 64 {
        return len;
    }
    // Go on from the first unit on a cache line boundary (the units before it, and
    // some after, are written already).
    let misaligned = (d as usize / 2) % 32;
    let mut i = if misaligned == 0 { 64 } else { 32 - misaligned };
    while i + 128 <= n {
        // SAFETY: `i + 128 <= n`: the loads read `src[i..i + 128]` and the stores write
        // `dst[i..i + 128]`.
        let ascii = unsafe {
            let a = _mm512_loadu_si512(s.add(i).cast());
            let b = _mm512_loadu_si512(s.add(i + 64).cast());
            let ascii = _mm512_movepi8_mask(_mm512_or_si512(a, b)) == 0;
            if ascii {
                store_widened(d.add(i), a);
                store_widened(d.add(i + 64), b);
            }
            ascii
        };
        if !ascii {
            break;
        }
        i += 128;
    }
    while i + 64 <= n {
        // SAFETY: `i + 64 <= n`: the load reads `src[i..i + 64]`.
        let v = unsafe { _mm512_loadu_si512(s.add(i).cast()) };
        let mask = _mm512_movepi8_mask(v);
        if mask != 0 {
            // The ASCII bytes before the first other one: masked stores.
            let len = mask.trailing_zeros() as usize;
            let keep = (1u64 << len) - 1;
            let lo = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v));
            let hi = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(v));
            // SAFETY: `i + 64 <= n`; the masks select units of `dst[i..i + len]` only.
            unsafe {
                _mm512_mask_storeu_epi16(d.add(i).cast(), keep as u32, lo);
                _mm512_mask_storeu_epi16(d.add(i + 32).cast(), (keep >> 32) as u32, hi);
            }
            return i + len;
        }
        // SAFETY: `i + 64 <= n`: `dst[i..i + 64]` is writable.
        unsafe { store_widened(d.add(i), v) };
        i += 64;
    }
    // AVX2's kernel, callable here: this function is compiled for AVX2 too.
    i + super::avx2::widen_ascii(&src[i..n], &mut dst[i..n])
}

/// Whether `src` is 4 KiB or more and at most 4 of 16 blocks of 64 bytes spread evenly
/// over it hold a non-ASCII byte (English or Welsh text, markup; not catalogs whose header
/// alone is ASCII). The kernels that keep a tight loop for ASCII runs take it only for
/// such input: on other text its test after every non-ASCII block costs more than the
/// loop saves.
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(in crate::simd) fn mostly_ascii(src: &[u8]) -> bool {
    non_ascii_blocks(src, 16).is_some_and(|n| n <= 4)
}

/// Whether `src` is 4 KiB or more and at least 45 of 64 blocks of 64 bytes spread evenly
/// over it (70 %) hold a non-ASCII byte: text in a non-Latin script, or Latin text with
/// a letter in nearly every 64 bytes. Kernels that skip ASCII blocks check every block
/// of such text instead: the skip's test and its bookkeeping cost more than the blocks
/// it saves. (The share at which UTF-8 validation gains from it is 65–70 % of the blocks;
/// 16 samples, as [`mostly_ascii`] takes, told 51 % from 76 % badly.)
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(in crate::simd) fn mostly_non_ascii(src: &[u8]) -> bool {
    non_ascii_blocks(src, 64).is_some_and(|n| n >= 45)
}

/// How many of `samples` blocks of 64 bytes spread evenly over `src` hold a non-ASCII
/// byte; `None` for inputs under 4 KiB, which gain nothing from a choice of loop.
#[target_feature(enable = "avx512f,avx512bw")]
// Bounds: `len >= 4096`, and block `k` starts at `(len - 64) / samples * k <= len - 64`
// (`k < samples`), so it lies within `src`.
#[allow(clippy::arithmetic_side_effects)]
#[inline]
fn non_ascii_blocks(src: &[u8], samples: usize) -> Option<usize> {
    if src.len() < 4096 || samples == 0 {
        return None;
    }
    let step = (src.len() - 64) / samples;
    let non_ascii = (0..samples)
        .filter(|k| {
            // SAFETY: the block lies within `src` (see above).
            let v = unsafe { _mm512_loadu_si512(src.as_ptr().add(step * k).cast()) };
            _mm512_movepi8_mask(v) != 0
        })
        .count();
    Some(non_ascii)
}
