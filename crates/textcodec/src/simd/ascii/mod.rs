//! Bulk ASCII primitives: the hot loops of every ASCII-compatible decoder and encoder.
//!
//! Every function has the same contract in all kernels; [`scalar`] is the portable twin
//! (word-at-a-time) and finishes the tails of the vector kernels. The SSE2, AVX2, NEON
//! and simd128 kernels are one algorithm over [`super::vector`] (`generic.rs`), 64
//! bytes per step; AVX-512 copies and widens with its own (the AVX-512 level scans and
//! narrows with AVX2's: at these widths, memory bandwidth is the limit).
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

/// Length of the longest prefix of `src` whose bytes are all ASCII.
#[inline]
pub(crate) fn ascii_prefix_len(src: &[u8]) -> usize {
    ascii_prefix_len_with(level(), src)
}

/// Copies the longest all-ASCII prefix of `src` that fits in `dst`; returns its length.
#[inline]
pub(crate) fn copy_ascii(src: &[u8], dst: &mut Slots<u8>) -> usize {
    copy_ascii_with(level(), src, dst)
}

/// Widens the longest all-ASCII prefix of `src` that fits in `dst` to `u16`; returns its
/// length.
#[inline]
pub(crate) fn widen_ascii(src: &[u8], dst: &mut Slots<u16>) -> usize {
    widen_ascii_with(level(), src, dst)
}

/// Narrows the longest prefix of `src` whose units are below 0x80 that fits in `dst`;
/// returns its length.
#[inline]
pub(crate) fn narrow_basic_latin(src: &[u16], dst: &mut Slots<u8>) -> usize {
    narrow_basic_latin_with(level(), src, dst)
}

pub(crate) fn ascii_prefix_len_with(k: &Level, src: &[u8]) -> usize {
    k.ascii_prefix_len(src)
}

pub(crate) fn copy_ascii_with(k: &Level, src: &[u8], dst: &mut Slots<u8>) -> usize {
    k.copy_ascii(src, dst)
}

pub(crate) fn widen_ascii_with(k: &Level, src: &[u8], dst: &mut Slots<u16>) -> usize {
    k.widen_ascii(src, dst)
}

pub(crate) fn narrow_basic_latin_with(k: &Level, src: &[u16], dst: &mut Slots<u8>) -> usize {
    k.narrow_basic_latin(src, dst)
}

/// The portable twin: word-at-a-time, no `unsafe`.
pub(crate) mod scalar;

/// The vector kernels, written once over [`super::vector::Vector`]; the files below
/// instantiate them per level.
#[cfg(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod generic;

#[cfg(target_arch = "x86_64")]
pub(super) mod sse2;

#[cfg(target_arch = "aarch64")]
pub(super) mod neon;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(super) mod simd128;

#[cfg(target_arch = "x86_64")]
pub(super) mod avx2;

/// Widening writes twice what it reads, so the stores are the limit: full 64-byte stores,
/// aligned to the cache line (an unaligned one touches two lines), four per step.
#[cfg(target_arch = "x86_64")]
pub(super) mod avx512;

#[cfg(test)]
// Bounds: test code over small buffers it builds itself; an out-of-range index or an
// overflow would panic and fail the test, which is what a test should do.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod tests;
