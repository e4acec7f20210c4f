//! Decoder output buffers: the [`Sink`] trait the decoders write through, its two
//! implementations ([`utf8`]: bytes, [`utf16`]: code units), the bulk decoding kernels
//! they take ([`bulk`]: one entry point, [`BulkDecode`]) and the adapters over a `Vec`'s
//! spare capacity. The kernels themselves are in [`crate::simd`] and the single-byte
//! tables they map with in `index/byte_map.rs`; this module only calls and reads them.
//!
//! [`Utf8Sink`] writes into a byte buffer and maintains the invariant that
//! `buf[..pos]` is valid UTF-8 beyond what it found there: every write is a whole scalar
//! value or a run of ASCII. Because it can only be built in its module and exposes no raw
//! access, the `String`/`&mut str` adapters there may rely on that invariant without
//! re-validating.
#![allow(unsafe_code)]
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use alloc::vec::Vec;

use crate::slots::Slots;

mod bulk;
mod utf16;
mod utf8;

pub(crate) use crate::index::byte_map::ByteMap;
pub(crate) use bulk::{Pairs, Table, XUserDefined};
pub(crate) use utf16::{append_to_utf16_vec, Utf16Sink};
#[cfg(feature = "tokio")]
pub(crate) use utf8::read_valid_utf8;
pub(crate) use utf8::{append_to_string, write_into_str, Utf8Sink};

/// The output side of a decoder, in code units (bytes for UTF-8, `u16` for UTF-16).
pub(crate) trait Sink {
    /// Whether this sink writes UTF-16 (else UTF-8): lets a kernel pick, at compile time,
    /// the loop that suits the output form.
    const IS_UTF16: bool;
    /// Free space, in code units.
    fn room(&self) -> usize;
    /// Code units written so far.
    fn written(&self) -> usize;
    /// Code units `c` takes in this sink's encoding form.
    fn units(c: char) -> usize;
    /// Writes `c`. The caller has checked `room() >= units(c)`; if it has not, nothing is
    /// written (never a partial sequence).
    fn push(&mut self, c: char);
    /// Writes a BMP code point given as `u16` (not a surrogate). Same room rule as `push`.
    fn push_bmp(&mut self, c: u16) {
        self.push(char::from_u32(u32::from(c)).unwrap_or('\u{FFFD}'));
    }
    /// How many BMP code points surely fit (a BMP code point is at most three bytes of
    /// UTF-8, one unit of UTF-16).
    fn bmp_room(&self) -> usize;
    /// Writes `map(b)` for each byte of `src` (BMP code points, not surrogates: a
    /// surrogate becomes U+FFFD) as far as they surely fit (at most `bmp_room()`); returns
    /// how many were written. For UTF-16 a loop the compiler can vectorise.
    fn push_bmp_run(&mut self, src: &[u8], map: impl Fn(u8) -> u16) -> usize;
    /// Writes `map`'s code point for each byte of `src` as far as they surely fit (at most
    /// `bmp_room()`) and up to the first error byte; returns how many were written. One
    /// table load and one store per byte, in either encoding form: errors are rare, so the
    /// bytes are written first and an error found on the way only moves the end back
    /// (what lies past it is scratch).
    fn push_byte_map_run(&mut self, src: &[u8], map: &ByteMap<'_>) -> usize;
    /// Decodes a prefix of `src` with a bulk kernel of the active level, into this sink's
    /// form, as far as the kernel goes (0 where the level has none); returns the bytes of
    /// `src` taken. The one entry point from the sinks to the decoding kernels: what a
    /// [`BulkDecode`] reports written is trusted (its contract is `unsafe`).
    fn decode_bulk(&mut self, kernel: &impl BulkDecode, src: &[u8]) -> usize;
    /// Decodes a run of ASCII bytes and two-byte sequences (the CJK decoders' common case):
    /// `pair(lead, trail)` is the BMP code point of a valid pair starting with the
    /// non-ASCII byte `lead`, or 0 when `lead` starts anything else (another length, an
    /// error: the caller's general path takes it). Stops there, at the end of `src` (a
    /// lead without its trail included), before an ASCII run of 16 bytes or more (one for
    /// [`Sink::copy_ascii`]: [`starts_with_ascii_run`] is asked where each ASCII run
    /// begins), or when a character might not fit; returns the bytes taken. One room
    /// check per run, not per character.
    ///
    /// With `ASCII_SINGLES` false, every two bytes are a pair, whatever their values
    /// (ISO-2022-JP's kanji state: the pairs are 7-bit).
    fn push_double_byte_run<const ASCII_SINGLES: bool>(
        &mut self,
        src: &[u8],
        pair: impl Fn(u8, u8) -> u16,
    ) -> usize;
    /// Copies the longest all-ASCII prefix of `src` that fits; returns its length.
    fn copy_ascii(&mut self, src: &[u8]) -> usize;
    /// Copies `block[..n]` (ASCII; `block` holds 16 bytes): a short run between non-ASCII
    /// bytes, for which [`Sink::copy_ascii`]'s kernel call costs more than the copy. Returns
    /// `n`, or less when out of room.
    fn copy_short_ascii(&mut self, block: &[u8], n: usize) -> usize {
        self.copy_ascii(block.get(..n).unwrap_or_default())
    }
    /// Copies as much of the valid UTF-8 `src` as fits, ending on a character boundary;
    /// returns the bytes of `src` taken.
    fn copy_str(&mut self, src: &str) -> usize;
    /// Decodes the longest prefix of `src` that is valid UTF-8 (whole characters), as far
    /// as it fits; returns the bytes of `src` taken.
    fn copy_valid_utf8(&mut self, src: &[u8]) -> usize;
    /// Decodes the longest prefix of `src` (UTF-16 code units as bytes in the given byte
    /// order) made of non-surrogates and surrogate pairs, whole characters only, as far as
    /// it fits; returns the bytes of `src` taken (even).
    fn copy_utf16(&mut self, src: &[u8], big_endian: bool) -> usize;
}

/// A bulk decoding kernel as the sinks take it: decodes a prefix of `src` into either
/// output form, as far as the active level's kernel goes.
///
/// # Safety
/// For every `src` and `dst`, each method returns `(read, written)` with `read <=
/// src.len()` and `written <= dst.len()`, having stored initialised values into
/// `dst[..written]` and nothing past it (the rules of [`Slots`]), and that output is whole
/// characters only: `to_utf8`'s is valid UTF-8, which a [`Utf8Sink`] makes part of its
/// text without validating it again, and `to_utf16`'s holds no lone surrogate.
pub(crate) unsafe trait BulkDecode {
    /// Into UTF-8: (bytes of `src` read, bytes written).
    fn to_utf8(&self, src: &[u8], dst: &mut Slots<u8>) -> (usize, usize);
    /// Into UTF-16: (bytes of `src` read, units written).
    fn to_utf16(&self, src: &[u8], dst: &mut Slots<u16>) -> (usize, usize);
}

/// The high bit of each of the first 16 bytes of `src` (non-zero bits = non-ASCII bytes),
/// or `None` if `src` is shorter.
#[inline(always)]
pub(crate) fn non_ascii_bits_16(src: &[u8]) -> Option<u128> {
    let mut word = [0u8; 16];
    word.copy_from_slice(src.get(..16)?);
    Some(u128::from_le_bytes(word) & 0x8080_8080_8080_8080_8080_8080_8080_8080)
}

/// Whether `src` starts with 16 ASCII bytes: worth the SIMD kernel's call (shorter runs,
/// such as spaces and punctuation between words, are cheaper inline).
#[inline(always)]
pub(crate) fn starts_with_ascii_run(src: &[u8]) -> bool {
    non_ascii_bits_16(src) == Some(0)
}

/// Whether a run of 16 ASCII bytes or more starts at `src[i]` (the pair loops hand those
/// to the ASCII kernel); a lone ASCII byte (a space between words) needs no look-ahead.
#[inline(always)]
pub(super) fn long_ascii_run_at(src: &[u8], i: usize) -> bool {
    src.get(i.saturating_add(1)).is_some_and(|&b| b < 0x80)
        && starts_with_ascii_run(src.get(i..).unwrap_or_default())
}

/// Validation runs this many bytes ahead of the copy or conversion at most, so that the
/// second pass reads from L1 cache.
const CHUNK: usize = 16 * 1024;

/// Calls `take(valid)` on consecutive chunks of the longest valid UTF-8 prefix of `src`;
/// `take` returns how much it consumed (all of `valid`, unless out of room). Returns the
/// bytes consumed in total.
// Bounds: `read <= src.len()` (it sums what `take` consumed of the chunks `src[read..end]`,
// each at most the chunk), so `read + CHUNK` cannot overflow, `end` lies in
// `read..=src.len()`, and `end - read` cannot underflow.
#[inline(always)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn for_valid_utf8_chunks(src: &[u8], mut take: impl FnMut(&str) -> usize) -> usize {
    let mut read = 0;
    loop {
        let end = src.len().min(read + CHUNK);
        let valid = crate::simd::valid_utf8_prefix(&src[read..end]);
        let n = take(valid);
        read += n;
        // Done at the end, at an error or when out of room. A chunk boundary may cut a
        // character, leaving at most three bytes unread before `end`: go on from there.
        if end == src.len() || n < valid.len() || end - read >= 4 {
            return read;
        }
    }
}

/// Runs `f` over `additional` slots of `vec`'s spare capacity (reserved here), as they
/// are: not zero-filled first. `f` returns its result and how many slots it wrote from the
/// start, which become part of `vec`.
///
/// # Safety
/// `f` must have initialised the slots it reports written, from the start (what writers
/// of [`Slots`] report as written is; a count from anywhere else is not to be trusted).
pub(crate) unsafe fn append_to_vec<T: Copy, R>(
    vec: &mut Vec<T>,
    additional: usize,
    f: impl FnOnce(&mut Slots<T>) -> (R, usize),
) -> R {
    vec.reserve(additional);
    let spare = vec.spare_capacity_mut();
    let n = additional.min(spare.len());
    let (result, written) = f(spare.get_mut(..n).unwrap_or_default());
    let new_len = vec.len().saturating_add(written.min(n));
    // SAFETY: `written.min(n)` slots past the length are within the capacity, and `f`
    // initialised them (the caller's obligation).
    unsafe { vec.set_len(new_len) };
    result
}

#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::arithmetic_side_effects
)]
mod tests;
