//! Bulk byte → code point mapping through a 256-entry table (the single-byte decoders and
//! x-user-defined), into UTF-16 or UTF-8, 32 input bytes per step.
//!
//! Kernels by level: AVX-512 holds the 128 non-ASCII entries of a table in four
//! registers and looks up 32 bytes at once with two-source permutes (`vpermt2w`), packing
//! UTF-8 with `vpcompressb`; AVX2 (32 bytes) and SSE4 (16 bytes) split the entries into
//! two byte planes of eight chained `pshufb` tables (`avx2.rs` explains the chaining) and
//! pack UTF-8 with the UTF-16 → UTF-8 kernels' steps; NEON (16 bytes) looks the two
//! planes up with `vqtbl4q_u8`/`vqtbx4q_u8`, 64 entries at a time (`neon.rs`); simd128
//! (16 bytes) maps blocks of ASCII and the encoding's linear range by arithmetic, looks
//! one or two other bytes up one by one, and only the rest with `i8x16.swizzle`, eight
//! 16-entry tables per plane (`simd128.rs`; the table kernels get the range for it). SSE2
//! (16 bytes, into UTF-16 only) has no byte shuffle: it maps blocks by the same
//! arithmetic, patches up to four other bytes from the table after its stores, and looks
//! a block with more up byte by byte (`sse2.rs`). The scalar level returns 0 and the
//! codec's portable loop (`codecs::fast_byte_map`, tested under every kernel) does all
//! the work; the naive oracle in the tests is the reference all are checked against.
//!
//! Decoders' contract (all levels): the bytes are taken in whole blocks (32 bytes, 16 for
//! SSE2, SSE4, NEON and simd128) while a block and its worst-case output fit (a long ASCII run
//! may be taken to its end); a block holding an error byte (a table entry of 0, or a surrogate,
//! which no index has) is taken up to that byte, and the call stops there.
//!
//! Encoders (UTF-8 → bytes: ASCII plus a single-byte encoding's [`HotPairs`], or
//! x-user-defined's U+F780..=U+F7FF): AVX-512 (64 bytes per step, `vpermt2b` lookups and
//! `vpcompressb`) and NEON (16 bytes, four `vqtbl4q_u8` lookups, kept bytes packed with
//! `vqtbl1q_u8`) have both; AVX2 has x-user-defined only (32 bytes, `pshufb` packing).
//! Elsewhere they take nothing and the codecs' generic loops encode. Their contract: whole
//! characters only, nothing written past what they report, and a stop before the first
//! character they cannot take or when a step's output (with any scratch bytes a kernel
//! saves and restores after it) might not fit. The tests check every level against the
//! indexes, character by character.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::dispatch::level;
use super::level::Level;
use crate::index::byte_map::{ByteMap, HotPairs};
use crate::simd::Slots;

/// Bytes per step.
pub(crate) const BLOCK: usize = 32;

/// Maps a prefix of `src` into `dst` as UTF-16 (see the module docs); returns its length
/// (bytes read = units written).
#[inline]
pub(crate) fn to_utf16(src: &[u8], map: &ByteMap<'_>, dst: &mut Slots<u16>) -> usize {
    to_utf16_with(level(), src, map, dst)
}

/// Maps a prefix of `src` into `dst` as UTF-8 (see the module docs): whole characters, and
/// nothing written past them; returns (bytes read, bytes written).
#[inline]
pub(crate) fn to_utf8(src: &[u8], map: &ByteMap<'_>, dst: &mut Slots<u8>) -> (usize, usize) {
    to_utf8_with(level(), src, map, dst)
}

#[cfg_attr(feature = "compact", allow(dead_code))]
pub(crate) fn to_utf16_with(
    k: &Level,
    src: &[u8],
    map: &ByteMap<'_>,
    dst: &mut Slots<u16>,
) -> usize {
    k.byte_map_to_utf16(src, map, dst).unwrap_or(0)
}

pub(crate) fn to_utf8_with(
    k: &Level,
    src: &[u8],
    map: &ByteMap<'_>,
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    k.byte_map_to_utf8(src, map, dst).unwrap_or((0, 0))
}

/// Encodes a prefix of `src` (bytes from a character boundary, UTF-8 or not) into `dst`:
/// ASCII and the hot two-byte characters, 64 (AVX-512) or 16 (NEON) bytes per step; stops
/// before anything else (other characters, unmappable ones, malformed UTF-8) or when a
/// step's output might not fit. What it takes is valid UTF-8 by construction (ASCII, and
/// hot leads, all in C2–DF, each with its trail), so it needs no validation first.
/// Returns (bytes read, bytes written); (0, 0) where there is no kernel (see
/// [`has_encode_kernel`]).
#[cfg_attr(feature = "compact", allow(dead_code))]
#[inline]
pub(crate) fn encode_hot_pairs(src: &[u8], hot: &HotPairs, dst: &mut Slots<u8>) -> (usize, usize) {
    encode_hot_pairs_with(level(), src, hot, dst)
}

/// Whether [`encode_hot_pairs`] has a kernel on this CPU.
#[cfg_attr(feature = "compact", allow(dead_code))]
#[inline]
pub(crate) fn has_encode_kernel() -> bool {
    level().has_encode_hot_pairs()
}

pub(crate) fn encode_hot_pairs_with(
    k: &Level,
    src: &[u8],
    hot: &HotPairs,
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    k.encode_hot_pairs(src, hot, dst).unwrap_or((0, 0))
}

/// Encodes a prefix of `src` (the bytes of a `&str` from a character boundary) as
/// x-user-defined: ASCII, and U+F780..=U+F7FF (`EF 9E/9F xx`) to 0x80..=0xFF, 64 (AVX-512),
/// 32 (AVX2) or 16 (NEON) bytes per step; stops before any other character or when a
/// step's output might not fit.
/// Returns (bytes read, bytes written); (0, 0) where there is no kernel.
#[inline]
pub(crate) fn encode_x_user_defined(src: &[u8], dst: &mut Slots<u8>) -> (usize, usize) {
    encode_x_user_defined_with(level(), src, dst)
}

pub(crate) fn encode_x_user_defined_with(
    k: &Level,
    src: &[u8],
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    k.encode_x_user_defined(src, dst).unwrap_or((0, 0))
}

/// x-user-defined to UTF-16, all of `src` that fits in whole 64-byte steps (every byte is
/// valid: ASCII to itself, 0x80..=0xFF to U+F780..=U+F7FF); returns the bytes taken (=
/// units written), 0 where there is no kernel.
#[inline]
pub(crate) fn x_user_defined_to_utf16(src: &[u8], dst: &mut Slots<u16>) -> usize {
    x_user_defined_to_utf16_with(level(), src, dst)
}

pub(crate) fn x_user_defined_to_utf16_with(k: &Level, src: &[u8], dst: &mut Slots<u16>) -> usize {
    k.x_user_defined_to_utf16(src, dst).unwrap_or(0)
}

#[cfg(target_arch = "x86_64")]
pub(super) mod sse2;

#[cfg(target_arch = "x86_64")]
pub(super) mod sse4;

#[cfg(target_arch = "x86_64")]
pub(super) mod avx2;

#[cfg(target_arch = "x86_64")]
pub(super) mod avx512;

#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
pub(super) mod neon;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(super) mod simd128;

#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little")
))]
mod pack;

#[cfg(test)]
// Bounds: test code over small buffers it builds itself; an out-of-range index, an
// overflow or a failed unwrap would panic and fail the test, which is what a test should do.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::panic
)]
mod tests;
