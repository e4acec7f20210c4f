//! UTF-8 validation and UTF-8 → UTF-16 conversion.
//!
//! Validity is the Standard's (#utf-8-decoder), which is exactly `core::str`'s: the
//! scalar twins use `core::str::from_utf8` and the tests compare every kernel with a
//! byte-at-a-time transcription of the Standard's decoder. Kernels find how far the input
//! is valid; they never handle errors (the UTF-8 decoder's handler does).
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::dispatch::level;
use super::level::Level;
use crate::simd::Slots;

/// Length of the longest prefix of `src` that is valid UTF-8 (whole characters only).
#[inline]
pub(crate) fn valid_prefix_len(src: &[u8]) -> usize {
    valid_prefix_len_with(level(), src)
}

pub(crate) fn valid_prefix_len_with(k: &Level, src: &[u8]) -> usize {
    k.utf8_valid_prefix_len(src)
}

/// Copies the longest valid UTF-8 prefix of `src` to the start of `dst` in one pass
/// (validating and copying each 64-byte block while it is in L1), and returns its length;
/// `None` where the level has no such loop or the two buffers lie so that the copy's
/// stores would 4K-alias the loads of the bytes behind them (output 1–191 bytes after the
/// input modulo 4096), or `dst` is shorter than `src`: the caller then validates and
/// copies in two passes. Nothing past the returned length is written.
#[inline]
pub(crate) fn copy_valid_prefix(src: &[u8], dst: &mut Slots<u8>) -> Option<usize> {
    copy_valid_prefix_with(level(), src, dst)
}

pub(crate) fn copy_valid_prefix_with(k: &Level, src: &[u8], dst: &mut Slots<u8>) -> Option<usize> {
    let gap = (super::out_ptr(dst) as usize).wrapping_sub(src.as_ptr() as usize) % 4096;
    if dst.len() < src.len() || (1..192).contains(&gap) {
        return None;
    }
    k.utf8_copy_valid_prefix(src, dst)
}

/// Validates and converts a prefix of `src` to UTF-16 in one pass where the kernel has a
/// loop for it (else returns (0, 0)). Returns (bytes of `src` read, units written):
/// `src[..read]` is valid UTF-8 that ends on a character boundary and `dst[..written]` its
/// UTF-16. It may stop anywhere before the first error (at most 64 bytes or the last 64
/// bytes or units of room earlier); the caller finishes with [`valid_prefix_len`] and
/// [`to_utf16`]. `dst` past `written` may be overwritten.
#[inline]
pub(crate) fn validate_to_utf16(src: &[u8], dst: &mut Slots<u16>) -> (usize, usize) {
    validate_to_utf16_with(level(), src, dst)
}

pub(crate) fn validate_to_utf16_with(
    k: &Level,
    src: &[u8],
    dst: &mut Slots<u16>,
) -> (usize, usize) {
    if let Some(done) = k.utf8_validate_to_utf16(src, dst) {
        return done;
    }
    if k.has_utf8_to_utf16() {
        // A level with a vector transcoder validates first, then converts.
        return (0, 0);
    }
    // No kernel (no vectors): one scalar pass, which is cheaper than validating first and
    // converting after; ASCII runs go to the level's widening.
    with_ascii_runs(k, src, dst)
}

/// [`scalar::validate_to_utf16`], with the runs of 16 ASCII bytes or more it stops at
/// widened by the level's ASCII kernel.
// Bounds: `read` and `written` are sums of what the two report (bytes of `src[read..]`
// read, units of `dst[written..]` written), so they stay within the slices.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
fn with_ascii_runs(k: &Level, src: &[u8], dst: &mut Slots<u16>) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    loop {
        let n = k.widen_ascii(&src[read..], &mut dst[written..]);
        read += n;
        written += n;
        let (r, w) = scalar::validate_to_utf16(&src[read..], &mut dst[written..]);
        read += r;
        written += w;
        if n + r == 0 || read == src.len() {
            return (read, written);
        }
    }
}

/// Converts valid UTF-8 to UTF-16, whole characters only, as far as `dst` has room.
/// Returns (bytes of `src` read, units written).
#[inline]
pub(crate) fn to_utf16(src: &str, dst: &mut Slots<u16>) -> (usize, usize) {
    to_utf16_with(level(), src, dst)
}

/// [`to_utf16`] into an initialised buffer.
#[inline]
pub(crate) fn to_utf16_initialised(src: &str, dst: &mut [u16]) -> (usize, usize) {
    // SAFETY: the kernels store only initialised units (they keep the `Slots` rules).
    to_utf16(src, unsafe { super::slots(dst) })
}

// Bounds: `read` and `written` are sums of what the kernels report (bytes of
// `src[read..]` read and units of `dst[written..]` written), so `read <= src.len()` and
// `written <= dst.len()`, and `read` is always a character boundary (the kernels stop on
// one). `end` is the next ASCII byte or the end, a character boundary in
// `read..=src.len()`, so `src[read..end]` is a valid `str` slice and `n + r` adds lengths
// of parts of one slice.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn to_utf16_with(k: &Level, src: &str, dst: &mut Slots<u16>) -> (usize, usize) {
    let (read, written) = k.utf8_to_utf16_blocks(src, dst).unwrap_or((0, 0));
    if k.has_utf8_to_utf16() {
        return with_scalar_stretches(src, dst, read, written, |s, d| {
            k.utf8_to_utf16(s, d).unwrap_or((0, 0))
        });
    }
    // No vector transcoder: ASCII runs go to the level's widening, the rest to the scalar
    // twin, a stretch up to the next ASCII byte at a time.
    let (mut read, mut written) = (read, written);
    loop {
        let n = k.widen_ascii(&src.as_bytes()[read..], &mut dst[written..]);
        read += n;
        written += n;
        let rest = &src.as_bytes()[read..];
        let end = read + rest.iter().position(|&b| b < 0x80).unwrap_or(rest.len());
        let (r, w) = scalar::to_utf16(&src[read..end], &mut dst[written..]);
        read += r;
        written += w;
        if read < end || read == src.len() || n + r == 0 {
            return (read, written);
        }
    }
}

/// Runs `simd` from (`read`, `written`) on, then the scalar twin over the next stretch
/// of at most 64 bytes ending on a character boundary (a four-byte character, the tail,
/// or a character the vector loop left for room), and again, until neither moves.
// Bounds: as for `to_utf16_with`: `read` and `written` are sums of what the kernels
// report, `end` lies in `read..=src.len()` on a character boundary.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
#[inline(always)]
fn with_scalar_stretches(
    src: &str,
    dst: &mut Slots<u16>,
    mut read: usize,
    mut written: usize,
    mut simd: impl FnMut(&str, &mut Slots<u16>) -> (usize, usize),
) -> (usize, usize) {
    loop {
        let (r, w) = simd(&src[read..], &mut dst[written..]);
        read += r;
        written += w;
        let mut end = src.len().min(read + 64);
        while !src.is_char_boundary(end) {
            end -= 1;
        }
        let (r2, w2) = scalar::to_utf16(&src[read..end], &mut dst[written..]);
        read += r2;
        written += w2;
        if read == src.len() || r + r2 == 0 || read < end {
            return (read, written);
        }
    }
}

/// The portable twins.
pub(crate) mod scalar;

/// Validation with the nibble-lookup technique (three 16-entry tables indexed by the
/// previous byte's high and low nibbles and the current byte's high nibble, whose AND
/// flags every invalid two-byte combination; plus a check that the bytes after a 3- or
/// 4-byte lead's second byte are continuations), 64 bytes per step, ASCII blocks skipped.
///
/// Every check is attributed to the position of its *current* byte, so when the blocks
/// before offset `b` pass, every character that ends before `b` is valid. On a failing
/// block (or at the tail) we back up to the start of the character that straddles `b`
/// and let the scalar twin find the exact valid prefix from there.
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod lookup;

/// The validator over those tables and the 16-byte UTF-8 → UTF-16 transcoder, written
/// once over [`super::vector::Lookup`]; instantiated by `sse4.rs`, `avx2.rs` (the
/// validator), `neon.rs` and `simd128.rs`.
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod generic;

#[cfg(target_arch = "x86_64")]
pub(super) mod avx2;

/// The packing table and window arithmetic of the UTF-8 → UTF-16 transcoders.
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
pub(in crate::simd) mod pack;

/// SSE2: one-pass validation and conversion to UTF-16, ASCII in vectors.
#[cfg(target_arch = "x86_64")]
pub(super) mod sse2;

#[cfg(target_arch = "x86_64")]
pub(super) mod sse4;

#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
pub(super) mod neon;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(super) mod simd128;

/// AVX-512: nibble-lookup validation, valid UTF-8 → UTF-16, and both in one pass.
#[cfg(target_arch = "x86_64")]
pub(super) mod avx512;

/// Every character ending before `i` is known valid: run the scalar twin from the first
/// byte of the character that straddles `i` (at most three bytes back).
// Bounds: the validators call this with `64 <= i <= src.len()`. `start` starts at
// `i - 1 < src.len()` and only moves down (by one) while it is above 0 and less than 4
// below `i`, so `i - start` and `start - 1` cannot underflow, `src[start]` and
// `src[start..]` are in bounds, and `start + …` is at most `src.len()` (the scalar twin
// returns a prefix length of `src[start..]`).
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
fn finish(src: &[u8], i: usize) -> usize {
    let mut start = i;
    if i > 0 {
        start = i - 1;
        while start > 0 && i - start < 4 && (src[start] as i8) < -0x40 {
            start -= 1;
        }
    }
    start + scalar::valid_prefix_len(&src[start..])
}

/// The longest character boundary at or before `i`, given that every character ending
/// before `i` is valid (it looks at most three bytes back: the character that contains
/// byte `i - 1` either ends there or straddles `i`).
// Bounds: `i <= src.len()`. `k` runs over 1..=3 while `k <= i`, so `src[i - k]` is in
// bounds and `i - k` cannot underflow; a lead's length is 2..=4.
#[cfg(target_arch = "x86_64")]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
fn boundary_before(src: &[u8], i: usize) -> usize {
    for k in 1..=3.min(i) {
        let b = src[i - k];
        if b < 0x80 {
            return i;
        }
        if b >= 0xC0 {
            let len = if b >= 0xF0 {
                4
            } else if b >= 0xE0 {
                3
            } else {
                2
            };
            return if len > k { i - k } else { i };
        }
    }
    i
}

#[cfg(test)]
// Bounds: test code over small buffers it builds itself; an out-of-range index, an
// overflow or a failed unwrap would panic and fail the test, which is what a test should do.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::unwrap_used
)]
mod tests;
