//! Counting and scanning without output: code points and UTF-16 length of UTF-8, UTF-8
//! length of UTF-16, the longest well-formed UTF-16 prefix, and the longest prefix of
//! bytes or units below a bound (ASCII, Latin-1 checks).
//!
//! Each vector kernel does whole vectors and returns how far it got (with its count);
//! the family functions below finish with the scalar twin. The counting kernels keep one
//! counter per lane and add the lanes up every 255 steps, so no lane overflows.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::dispatch::level;
use super::level::Level;

/// Code points in valid UTF-8 `src`: the bytes that are not continuation bytes
/// (0x80–0xBF). On ill-formed input, the count of such bytes.
#[inline]
pub(crate) fn utf8_char_count(src: &[u8]) -> usize {
    utf8_char_count_with(level(), src)
}

// Bounds: the kernel reports a prefix length `read <= src.len()` and a count of at most
// `read`; the twin's count is at most `src.len() - read`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn utf8_char_count_with(k: &Level, src: &[u8]) -> usize {
    let (read, n) = k.mem().utf8_char_count(src).unwrap_or((0, 0));
    n + scalar::utf8_char_count(&src[read..])
}

/// UTF-16 length of valid UTF-8 `src`: one unit per code point, two for a four-byte
/// sequence (its lead, 0xF0–0xF4).
#[inline]
pub(crate) fn utf8_utf16_len(src: &[u8]) -> usize {
    utf8_utf16_len_with(level(), src)
}

// Bounds: as for `utf8_char_count_with` (a count is at most twice the bytes counted).
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn utf8_utf16_len_with(k: &Level, src: &[u8]) -> usize {
    let (read, n) = k.mem().utf8_utf16_len(src).unwrap_or((0, 0));
    n + scalar::utf8_utf16_len(&src[read..])
}

/// Bytes of `src` from 0x80 on (the UTF-8 length of Latin-1 is `src.len()` plus this).
#[inline]
pub(crate) fn non_ascii_count(src: &[u8]) -> usize {
    non_ascii_count_with(level(), src)
}

// Bounds: as for `utf8_char_count_with`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn non_ascii_count_with(k: &Level, src: &[u8]) -> usize {
    let (read, n) = k.mem().non_ascii_count(src).unwrap_or((0, 0));
    n + scalar::non_ascii_count(&src[read..])
}

/// UTF-8 length of `src` with every surrogate counted as two bytes: exact for
/// well-formed UTF-16 (a pair is four bytes), one less per lone surrogate than its
/// U+FFFD takes.
#[inline]
pub(crate) fn utf16_utf8_len(src: &[u16]) -> usize {
    utf16_utf8_len_with(level(), src)
}

// Bounds: as for `utf8_char_count_with` (a count is at most three per unit, and a `u16`
// slice has fewer than `usize::MAX / 6` units).
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn utf16_utf8_len_with(k: &Level, src: &[u16]) -> usize {
    let (read, n) = k.mem().utf16_utf8_len(src).unwrap_or((0, 0));
    n + scalar::utf16_utf8_len(&src[read..])
}

/// Length of the longest well-formed prefix of `src` (no lone surrogate): `src.len()`,
/// or the index of the first lone surrogate.
#[inline]
pub(crate) fn utf16_valid_prefix_len(src: &[u16]) -> usize {
    utf16_valid_prefix_len_with(level(), src)
}

/// Units the scalar twin looks at after the vector kernel stops (at a surrogate), before
/// the kernel runs again.
const STRETCH: usize = 32;

// Bounds: `read` is a sum of prefix lengths of `src[read..]` (plus, for a pair across a
// stretch's end, the trail at `end < src.len()`), so `read <= src.len()`; `end` is in
// `read..=src.len()`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn utf16_valid_prefix_len_with(k: &Level, src: &[u16]) -> usize {
    let mut read = 0;
    loop {
        let Some(r) = k.mem().utf16_valid_prefix_len(&src[read..]) else {
            return scalar::utf16_valid_prefix_len(src);
        };
        read += r;
        if read == src.len() {
            return read;
        }
        // The kernel stopped at a vector with a surrogate: the twin takes a stretch.
        let end = src.len().min(read + STRETCH);
        read += scalar::utf16_valid_prefix_len(&src[read..end]);
        if read == src.len() {
            return read;
        }
        if read < end {
            // A lead at the stretch's last unit may pair with the unit after it.
            let paired = read + 1 == end
                && (0xD800..0xDC00).contains(&src[read])
                && src.get(end).is_some_and(|u| (0xDC00..0xE000).contains(u));
            if !paired {
                return read;
            }
            read = end + 1;
            if read == src.len() {
                return read;
            }
        }
    }
}

/// Length of the longest prefix of `src` whose bytes are below `bound`.
#[inline]
pub(crate) fn prefix_len_below(src: &[u8], bound: u8) -> usize {
    prefix_len_below_with(level(), src, bound)
}

// Bounds: the kernel reports a prefix length of `src`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn prefix_len_below_with(k: &Level, src: &[u8], bound: u8) -> usize {
    let read = k.mem().prefix_len_below(src, bound).unwrap_or(0);
    read + scalar::prefix_len_below(&src[read..], bound)
}

/// Length of the longest prefix of `src` whose units are below `bound`.
#[inline]
pub(crate) fn utf16_prefix_len_below(src: &[u16], bound: u16) -> usize {
    utf16_prefix_len_below_with(level(), src, bound)
}

// Bounds: as for `prefix_len_below_with`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn utf16_prefix_len_below_with(k: &Level, src: &[u16], bound: u16) -> usize {
    let read = k.mem().utf16_prefix_len_below(src, bound).unwrap_or(0);
    read + scalar::utf16_prefix_len_below(&src[read..], bound)
}

/// The portable twins.
pub(crate) mod scalar;

/// The vector kernels, written once over [`super::vector::Vector`]; the files below
/// instantiate them per level.
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod generic;

#[cfg(target_arch = "x86_64")]
pub(super) mod sse2;

#[cfg(target_arch = "x86_64")]
pub(super) mod avx2;

/// AVX-512: the counts as `vpcmpb`/`vpcmpw` masks and `popcnt`, 64 bytes per vector; the
/// well-formed UTF-16 prefix 32 units per vector.
#[cfg(target_arch = "x86_64")]
pub(super) mod avx512;

#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
pub(super) mod neon;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(super) mod simd128;

#[cfg(test)]
// Bounds: test code over buffers it builds itself; an out-of-range index or an
// overflow would panic and fail the test, which is what a test should do.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod tests;
