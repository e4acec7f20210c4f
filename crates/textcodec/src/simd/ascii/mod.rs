//! Bulk ASCII primitives: the hot loops of every ASCII-compatible decoder and encoder.
//!
//! Every function has the same contract in all kernels; [`scalar`] is the portable twin
//! (word-at-a-time) and finishes the tails of the vector kernels. SSE2 is the x86-64
//! baseline; the AVX2 code runs only when [`super::dispatch`] detected AVX2 (the AVX-512
//! kernel family uses it too: at these widths, memory bandwidth is the limit).
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::dispatch::{kernel, Kernel};
use crate::simd::Slots;

/// Length of the longest prefix of `src` whose bytes are all ASCII.
#[inline]
pub(crate) fn ascii_prefix_len(src: &[u8]) -> usize {
    ascii_prefix_len_with(kernel(), src)
}

/// Copies the longest all-ASCII prefix of `src` that fits in `dst`; returns its length.
#[inline]
pub(crate) fn copy_ascii(src: &[u8], dst: &mut Slots<u8>) -> usize {
    copy_ascii_with(kernel(), src, dst)
}

/// Widens the longest all-ASCII prefix of `src` that fits in `dst` to `u16`; returns its
/// length.
#[inline]
pub(crate) fn widen_ascii(src: &[u8], dst: &mut Slots<u16>) -> usize {
    widen_ascii_with(kernel(), src, dst)
}

/// Narrows the longest prefix of `src` whose units are below 0x80 that fits in `dst`;
/// returns its length.
#[inline]
pub(crate) fn narrow_basic_latin(src: &[u16], dst: &mut Slots<u8>) -> usize {
    narrow_basic_latin_with(kernel(), src, dst)
}

pub(crate) fn ascii_prefix_len_with(k: Kernel, src: &[u8]) -> usize {
    match k {
        #[cfg(target_arch = "x86_64")]
        Kernel::Sse2 | Kernel::Sse4(_) => sse2::ascii_prefix_len(src),
        // SAFETY: a `Kernel::Avx2`/`Avx512` value exists only after AVX2 was detected.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2(_) | Kernel::Avx512(_) => unsafe { avx2::ascii_prefix_len(src) },
        #[cfg(target_arch = "aarch64")]
        Kernel::Neon(_) => neon::ascii_prefix_len(src),
        _ => scalar::ascii_prefix_len(src),
    }
}

pub(crate) fn copy_ascii_with(k: Kernel, src: &[u8], dst: &mut Slots<u8>) -> usize {
    match k {
        #[cfg(target_arch = "x86_64")]
        Kernel::Sse2 | Kernel::Sse4(_) => sse2::copy_ascii(src, dst),
        // SAFETY: a `Kernel::Avx2` value exists only after AVX2 was detected.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2(_) => unsafe { avx2::copy_ascii(src, dst) },
        // SAFETY: a `Kernel::Avx512` value exists only after its features were detected.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512(_) => unsafe { avx512::copy_ascii(src, dst) },
        #[cfg(target_arch = "aarch64")]
        Kernel::Neon(_) => neon::copy_ascii(src, dst),
        _ => scalar::copy_ascii(src, dst),
    }
}

pub(crate) fn widen_ascii_with(k: Kernel, src: &[u8], dst: &mut Slots<u16>) -> usize {
    match k {
        #[cfg(target_arch = "x86_64")]
        Kernel::Sse2 | Kernel::Sse4(_) => sse2::widen_ascii(src, dst),
        // SAFETY: a `Kernel::Avx2` value exists only after AVX2 was detected.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2(_) => unsafe { avx2::widen_ascii(src, dst) },
        // SAFETY: a `Kernel::Avx512` value exists only after its features were detected.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512(_) => unsafe { avx512::widen_ascii(src, dst) },
        #[cfg(target_arch = "aarch64")]
        Kernel::Neon(_) => neon::widen_ascii(src, dst),
        _ => scalar::widen_ascii(src, dst),
    }
}

pub(crate) fn narrow_basic_latin_with(k: Kernel, src: &[u16], dst: &mut Slots<u8>) -> usize {
    match k {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Kernel::Avx2`/`Avx512` value exists only after AVX2 was detected.
        Kernel::Avx2(_) | Kernel::Avx512(_) => unsafe { avx2::narrow_basic_latin(src, dst) },
        #[cfg(target_arch = "aarch64")]
        Kernel::Neon(_) => neon::narrow_basic_latin(src, dst),
        _ => scalar::narrow_basic_latin(src, dst),
    }
}

/// The portable twin: word-at-a-time, no `unsafe`.
pub(crate) mod scalar;

#[cfg(target_arch = "x86_64")]
mod sse2;

#[cfg(target_arch = "aarch64")]
mod neon;

/// 32 bytes at a time, two vectors per iteration in the copying loops.
#[cfg(target_arch = "x86_64")]
mod avx2;

/// Widening writes twice what it reads, so the stores are the limit: full 64-byte stores,
/// aligned to the cache line (an unaligned one touches two lines), four per step.
#[cfg(target_arch = "x86_64")]
mod avx512;

#[cfg(test)]
// Bounds: test code over small buffers it builds itself; an out-of-range index or an
// overflow would panic and fail the test, which is what a test should do.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod tests;
