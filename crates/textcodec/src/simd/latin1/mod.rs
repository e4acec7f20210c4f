//! Latin-1 (ISO-8859-1 read literally: byte `b` is code point U+00`b`, not the Standard's
//! windows-1252 decoder) to UTF-16 and UTF-8, and UTF-16 units below U+0100 to bytes.
//!
//! Kernels convert whole vectors and report how far they got; the family functions
//! finish with the scalar twins. Latin-1 → UTF-8 without its own kernel is composed of
//! two others: ASCII runs copied by the level's ASCII kernel, other stretches widened to
//! UTF-16 on the stack and converted by the level's UTF-16 → UTF-8 kernel (Latin-1 is
//! UTF-16 below U+0100).
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::dispatch::level;
use super::level::Level;
use super::{ascii, utf16, Slots};

/// Widens `src` into `dst` (as many bytes as `dst` has room for); returns their number.
#[inline]
pub(crate) fn to_utf16(src: &[u8], dst: &mut Slots<u16>) -> usize {
    to_utf16_with(level(), src, dst)
}

// Bounds: `n` is at most both lengths; the kernel reports a prefix of it.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn to_utf16_with(k: &Level, src: &[u8], dst: &mut Slots<u16>) -> usize {
    let n = src.len().min(dst.len());
    let (src, dst) = (&src[..n], &mut dst[..n]);
    let read = k.mem().latin1_to_utf16(src, dst).unwrap_or(0);
    read + scalar::to_utf16(&src[read..], &mut dst[read..])
}

/// Narrows the longest prefix of `src` whose units are below U+0100 that fits in `dst`;
/// returns its length.
#[inline]
pub(crate) fn from_utf16(src: &[u16], dst: &mut Slots<u8>) -> usize {
    from_utf16_with(level(), src, dst)
}

// Bounds: as for `to_utf16_with`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn from_utf16_with(k: &Level, src: &[u16], dst: &mut Slots<u8>) -> usize {
    let n = src.len().min(dst.len());
    let (src, dst) = (&src[..n], &mut dst[..n]);
    let read = k.mem().utf16_to_latin1(src, dst).unwrap_or(0);
    read + scalar::from_utf16(&src[read..], &mut dst[read..])
}

/// Converts `src` to UTF-8, whole characters only, as far as `dst` has room. Returns
/// (bytes read, bytes written). `dst` past the bytes written may hold scratch bytes (the
/// AVX-512 kernel's 64-byte stores, the AVX2 kernel's 16-byte ones), as `mem`'s output
/// buffers allow.
#[inline]
pub(crate) fn to_utf8(src: &[u8], dst: &mut Slots<u8>) -> (usize, usize) {
    to_utf8_with(level(), src, dst)
}

/// Bytes widened on the stack per step of the composed Latin-1 → UTF-8 loop.
const STAGE: usize = 512;

// Bounds: `read` and `written` are sums of what the kernels report (bytes of
// `src[read..]` read, bytes of `dst[written..]` written), so they stay within the
// slices; `end` is in `read..=src.len()`; a staged unit is one byte read.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn to_utf8_with(k: &Level, src: &[u8], dst: &mut Slots<u8>) -> (usize, usize) {
    let (mut read, mut written) = k.mem().latin1_to_utf8(src, dst).unwrap_or((0, 0));
    if k.mem().has_latin1_to_utf8() {
        // The kernel stops only for room near the end or at the tail.
        let (r, w) = scalar::to_utf8(&src[read..], &mut dst[written..]);
        return (read + r, written + w);
    }
    let mut stage = [0u16; STAGE];
    loop {
        let n = ascii::copy_ascii_with(k, &src[read..], &mut dst[written..]);
        read += n;
        written += n;
        if read == src.len() {
            return (read, written);
        }
        let end = src.len().min(read + STAGE);
        let units = &mut stage[..end - read];
        // SAFETY: the Latin-1 kernels store only initialised units.
        to_utf16_with(k, &src[read..end], unsafe { super::slots(units) });
        let (r, w) = utf16::units_to_utf8_with(k, units, &mut dst[written..]);
        read += r;
        written += w;
        if read < end || read == src.len() {
            return (read, written);
        }
    }
}

/// The portable twins.
pub(crate) mod scalar;

/// Widening and narrowing, written once over [`super::vector::Vector`]; the files below
/// instantiate them per level.
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod generic;

#[cfg(target_arch = "x86_64")]
pub(super) mod sse2;

/// Latin-1 ↔ UTF-16 of `generic.rs`, and Latin-1 → UTF-8 with AVX2: 32 bytes per step,
/// each 8 bytes' one or two UTF-8 bytes packed by `pshufb`.
#[cfg(target_arch = "x86_64")]
pub(super) mod avx2;

/// Latin-1 → UTF-8 with AVX-512: 64 bytes per step, stored as they are where ASCII, else
/// each byte's first and second UTF-8 bytes interleaved by `vpermt2b` and the ones kept
/// packed by `vpcompressb`.
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
