//! UTF-16 → UTF-8 and UTF-16 (bytes, either endianness) → UTF-16 units.
//!
//! Kernels convert code units that are not surrogates and whole surrogate pairs; they stop
//! at a lone surrogate (or a leading surrogate at the very end of the input), which the
//! callers' spec-faithful slow paths handle, and when the next character does not fit.
//! Output is only ever whole characters, and nothing past what a kernel reports written
//! changes (`TextEncoder.encodeInto` writes into the caller's buffer), so a UTF-8
//! destination stays valid UTF-8.
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

/// Converts the longest prefix of `src` (UTF-16 code units as bytes, big- or
/// little-endian) made of non-surrogates and surrogate pairs to UTF-8, whole characters
/// only, as far as `dst` has room. Returns (bytes of `src` read, bytes written).
#[inline]
pub(crate) fn bytes_to_utf8(src: &[u8], big_endian: bool, dst: &mut Slots<u8>) -> (usize, usize) {
    bytes_to_utf8_with(level(), src, big_endian, dst)
}

/// [`bytes_to_utf8`] for `u16` input. Returns (units read, bytes written).
#[inline]
pub(crate) fn units_to_utf8(src: &[u16], dst: &mut Slots<u8>) -> (usize, usize) {
    units_to_utf8_with(level(), src, dst)
}

/// [`units_to_utf8`] that may leave scratch bytes in `dst` past the bytes written (as
/// `mem`'s output buffers allow): the level's `mem` kernel where it has one.
#[inline]
pub(crate) fn units_to_utf8_scratch(src: &[u16], dst: &mut Slots<u8>) -> (usize, usize) {
    let k = level();
    match k.mem().utf16_to_utf8(src, dst) {
        Some(done) => done,
        None => units_to_utf8_with(k, src, dst),
    }
}

/// [`units_to_utf8`] at level `k`.
#[inline]
pub(crate) fn units_to_utf8_with(k: &Level, src: &[u16], dst: &mut Slots<u8>) -> (usize, usize) {
    let (read, written) = bytes_to_utf8_with(k, as_bytes(src), cfg!(target_endian = "big"), dst);
    (read / 2, written)
}

/// The code units of `src` as bytes, in memory order.
pub(super) fn as_bytes(src: &[u16]) -> &[u8] {
    // SAFETY: `u8` has no alignment requirement and every byte of a `u16` slice is
    // initialised; the new slice covers exactly the same memory, for the same lifetime.
    unsafe { core::slice::from_raw_parts(src.as_ptr().cast::<u8>(), core::mem::size_of_val(src)) }
}

/// Copies the longest prefix of `src` (UTF-16 as bytes) made of non-surrogates and
/// surrogate pairs into `dst` as code units, whole characters only. Returns (bytes read,
/// units written).
#[inline]
pub(crate) fn bytes_to_units(src: &[u8], big_endian: bool, dst: &mut Slots<u16>) -> (usize, usize) {
    bytes_to_units_with(level(), src, big_endian, dst)
}

/// Goes on from the vector kernel's first result `first` (bytes read, output written):
/// the scalar twin over a bounded stretch (one character that stopped the vector code, or
/// the tail), then the vector kernel again, until neither makes progress.
// Bounds: `read` and `written` are sums of what the kernels report (bytes of
// `src[read..]` read, units of `dst[written..]` written), so `read <= src.len()` and
// `written <= dst.len()`. `end` is `src.len()` or `read + 64` (no overflow: `read` is at
// most a slice length), at least `read`; the scalar twin reads within `src[read..end]`,
// so `read <= end` stays true after it and `end - read` cannot underflow. `r + r2` adds
// two lengths of parts of one slice.
#[inline(always)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(super) fn alternate<T>(
    src: &[u8],
    dst: &mut Slots<T>,
    first: (usize, usize),
    mut simd: impl FnMut(&[u8], &mut Slots<T>) -> (usize, usize),
    scalar: impl Fn(&[u8], &mut Slots<T>) -> (usize, usize),
) -> (usize, usize) {
    let (mut read, mut written) = first;
    let mut r = first.0;
    loop {
        let end = src.len().min(read + 64);
        let (r2, w2) = scalar(&src[read..end], &mut dst[written..]);
        read += r2;
        written += w2;
        // Stop at a lone surrogate or for room; a window that ends inside a pair (or an
        // odd byte) goes round again and stops only if nothing moves.
        if read == src.len() || r + r2 == 0 || (read < end && end - read >= 4) {
            return (read, written);
        }
        let w;
        (r, w) = simd(&src[read..], &mut dst[written..]);
        read += r;
        written += w;
    }
}

pub(crate) fn bytes_to_utf8_with(
    k: &Level,
    src: &[u8],
    big_endian: bool,
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    let scalar = |s: &[u8], d: &mut Slots<u8>| scalar::bytes_to_utf8(s, big_endian, d);
    let vector = |s: &[u8], d: &mut Slots<u8>| k.utf16_bytes_to_utf8(s, big_endian, d);
    match vector(src, dst) {
        Some(first) => alternate(
            src,
            dst,
            first,
            |s, d| vector(s, d).unwrap_or((0, 0)),
            scalar,
        ),
        None => scalar(src, dst),
    }
}

pub(crate) fn bytes_to_units_with(
    k: &Level,
    src: &[u8],
    big_endian: bool,
    dst: &mut Slots<u16>,
) -> (usize, usize) {
    let scalar = |s: &[u8], d: &mut Slots<u16>| scalar::bytes_to_units(s, big_endian, d);
    let vector = |s: &[u8], d: &mut Slots<u16>| k.utf16_bytes_to_units(s, big_endian, d);
    match vector(src, dst) {
        Some(first) => alternate(
            src,
            dst,
            first,
            |s, d| vector(s, d).unwrap_or((0, 0)),
            scalar,
        ),
        None => scalar(src, dst),
    }
}

/// The portable twins.
pub(crate) mod scalar;

/// UTF-16 bytes → units, written once over [`super::vector::Vector`].
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod generic;

#[cfg(target_arch = "x86_64")]
pub(super) mod sse2;

#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
pub(super) mod neon;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(super) mod simd128;

#[cfg(target_arch = "x86_64")]
pub(super) mod sse4;

#[cfg(target_arch = "x86_64")]
pub(super) mod avx2;

/// Packing tables of the SSE4, AVX2, NEON and simd128 UTF-16 → UTF-8 kernels (and of
/// AVX2's Latin-1 → UTF-8, whose lanes are the same).
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
pub(in crate::simd) mod pack;

/// UTF-16 → UTF-8 with AVX-512. Windows of 32 units without surrogates take one of three
/// paths: below U+0080 and U+0800 (16-bit lanes, one `vpcompressb`), all from U+0800 on
/// (three bytes each, two byte permutes) or mixed (bytes built in 16-bit lanes, spread to
/// 32-bit lanes, two `vpcompressb`). Otherwise a window of 16 units: each unit is encoded
/// into the bytes of a 32-bit lane (a surrogate pair at its trailing unit, which also gets
/// the unit before it from a load one unit back, so pairs that straddle windows need no
/// carry); a 64-bit mask marks the bytes that belong to the output and `vpcompressb` packs
/// them.
#[cfg(target_arch = "x86_64")]
pub(super) mod avx512;

#[cfg(test)]
// Bounds: test code over small buffers it builds itself; an out-of-range index, an
// overflow or a failed unwrap would panic and fail the test, which is what a test should do.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::unwrap_used
)]
mod tests;
