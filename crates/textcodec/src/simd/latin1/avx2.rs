//! AVX2: Latin-1 ↔ UTF-16 units of `generic.rs` with 32-byte vectors, and Latin-1 →
//! UTF-8 in its own loop.

use super::generic;
use crate::simd::utf16::pack::TWO_BYTE_LANES;
use crate::simd::vector::Isa;
use crate::simd::{out_ptr, Slots};
use core::arch::x86_64::*;

#[target_feature(enable = "avx2")]
pub(crate) fn to_utf16(src: &[u8], dst: &mut Slots<u16>) -> usize {
    generic::to_utf16(Isa::avx2(), src, dst)
}

#[target_feature(enable = "avx2")]
pub(crate) fn from_utf16(src: &[u16], dst: &mut Slots<u8>) -> usize {
    generic::from_utf16(Isa::avx2(), src, dst)
}

/// Latin-1 → UTF-8, 32 bytes per step: stored as they are where they are all ASCII;
/// else each byte's first UTF-8 byte (itself if ASCII, else C2 or C3) and second (the
/// byte with bit 6 clear) are interleaved into 16-bit lanes, 8 bytes per 128-bit half,
/// and each half is packed by `pshufb` with the `TWO_BYTE_LANES` entry for its 8-bit
/// ASCII mask and stored as 16 bytes: up to 8 scratch bytes past what it reports, which
/// the next store overwrites or, after the last, are left in `dst` (never past its end).
/// Near-ASCII input (`ascii::avx2::mostly_ascii`) also runs a tight loop over 64 ASCII
/// bytes at a time before each step; other input converts two vectors per loop test
/// (de.text 1.21× faster than one). Stops with fewer than 32 bytes left or 64 bytes of
/// room. Returns (bytes read, bytes written).
#[target_feature(enable = "avx2,popcnt")]
pub(crate) fn to_utf8(src: &[u8], dst: &mut Slots<u8>) -> (usize, usize) {
    if crate::simd::ascii::avx2::mostly_ascii(src) {
        steps::<true>(src, dst)
    } else {
        steps::<false>(src, dst)
    }
}

/// [`to_utf8`]'s loop, with or without the ASCII loop.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
// Hot loop. Bounds: the ASCII loop runs while `i + 64 <= src.len()` and `written + 64 <=
// dst.len()` and copies 64 bytes; the two-vector loop runs while `i + 64 <= src.len()`
// and `written + 128 <= dst.len()`, a single step while `i + 32 <= src.len()` and
// `written + 64 <= dst.len()`; each vector reads 32 bytes of `src` from `i` and writes
// at most 64 bytes from `written` ([`convert_vector`]).
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
fn steps<const ASCII_RUNS: bool>(src: &[u8], dst: &mut Slots<u8>) -> (usize, usize) {
    let (s, d) = (src.as_ptr(), out_ptr(dst));
    let (mut i, mut written) = (0, 0);
    while i + 32 <= src.len() && written + 64 <= dst.len() {
        // ASCII text: 64 bytes per step while they are ASCII.
        while ASCII_RUNS && i + 64 <= src.len() && written + 64 <= dst.len() {
            // SAFETY: `i + 64 <= src.len()`.
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(s.add(i).cast()),
                    _mm256_loadu_si256(s.add(i + 32).cast()),
                )
            };
            if _mm256_movemask_epi8(_mm256_or_si256(a, b)) != 0 {
                break;
            }
            // SAFETY: `written + 64 <= dst.len()`.
            unsafe {
                _mm256_storeu_si256(d.add(written).cast(), a);
                _mm256_storeu_si256(d.add(written + 32).cast(), b);
            }
            i += 64;
            written += 64;
        }
        // Two vectors per iteration while there is room for both.
        while !ASCII_RUNS && i + 64 <= src.len() && written + 128 <= dst.len() {
            // SAFETY: `i + 64 <= src.len()`; each vector writes at most 64 bytes.
            unsafe {
                let a = _mm256_loadu_si256(s.add(i).cast());
                let b = _mm256_loadu_si256(s.add(i + 32).cast());
                written = convert_vector(a, d, written);
                written = convert_vector(b, d, written);
            }
            i += 64;
        }
        if i + 32 > src.len() || written + 64 > dst.len() {
            break;
        }
        // SAFETY: `i + 32 <= src.len()`, `written + 64 <= dst.len()`.
        unsafe {
            let v = _mm256_loadu_si256(s.add(i).cast());
            written = convert_vector(v, d, written);
        }
        i += 32;
    }
    (i, written)
}

/// Writes the UTF-8 of the 32 Latin-1 bytes `v` at `d + at` (16-byte stores, up to 8
/// bytes of scratch after the output); returns the new end.
///
/// # Safety
/// The CPU must support AVX2 and POPCNT; `d + at .. d + at + 64` must be writable.
#[target_feature(enable = "avx2,popcnt")]
#[inline]
// Bounds: the four packed groups start at `at` plus 0, 8..=16, 16..=32 and 24..=48.
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
unsafe fn convert_vector(v: __m256i, d: *mut u8, at: usize) -> usize {
    let high = _mm256_movemask_epi8(v) as u32;
    if high == 0 {
        // SAFETY: the caller's room.
        unsafe { _mm256_storeu_si256(d.add(at).cast(), v) };
        return at + 32;
    }
    let (c2, x_bf) = (
        _mm256_set1_epi8(0xC2u8 as i8),
        _mm256_set1_epi8(0xBFu8 as i8),
    );
    // Signed, the bytes from 0xC0 on are above 0xBF (-65) and those from 0x80 below:
    // their leads are C3 and C2 (ASCII bytes keep their own value).
    let leads = _mm256_sub_epi8(c2, _mm256_cmpgt_epi8(v, x_bf));
    let firsts = _mm256_blendv_epi8(v, leads, v);
    let seconds = _mm256_and_si256(v, x_bf);
    // Per 128-bit half: bytes 0-7 (`low`) or 8-15 (`high`) of that half of `v`.
    let low = _mm256_unpacklo_epi8(firsts, seconds);
    let high_lanes = _mm256_unpackhi_epi8(firsts, seconds);
    let ascii = !high;
    let entry = |shift: u32| TWO_BYTE_LANES[((ascii >> shift) & 0xFF) as usize].as_ptr();
    // SAFETY: each entry is 16 readable bytes.
    let (low_shuffle, high_shuffle) = unsafe {
        (
            _mm256_loadu2_m128i(entry(16).cast(), entry(0).cast()),
            _mm256_loadu2_m128i(entry(24).cast(), entry(8).cast()),
        )
    };
    let low = _mm256_shuffle_epi8(low, low_shuffle);
    let high_lanes = _mm256_shuffle_epi8(high_lanes, high_shuffle);
    // Where each of the 8-byte groups 1, 2 and 3 starts: 8 bytes per group before it
    // plus one per non-ASCII byte.
    let at1 = at + 8 + (high & 0xFF).count_ones() as usize;
    let at2 = at + 16 + (high & 0xFFFF).count_ones() as usize;
    let at3 = at + 24 + (high & 0xFF_FFFF).count_ones() as usize;
    // SAFETY: see Bounds; the caller's room.
    unsafe {
        _mm_storeu_si128(d.add(at).cast(), _mm256_castsi256_si128(low));
        _mm_storeu_si128(d.add(at1).cast(), _mm256_castsi256_si128(high_lanes));
        _mm_storeu_si128(d.add(at2).cast(), _mm256_extracti128_si256::<1>(low));
        _mm_storeu_si128(d.add(at3).cast(), _mm256_extracti128_si256::<1>(high_lanes));
    }
    at + 32 + high.count_ones() as usize
}
