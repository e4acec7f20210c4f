//! The codec kernels: one module per encoding section of the Standard.
//!
//! A decoder kernel is the Standard's *handler* (`handle`, one byte or end-of-queue at a
//! time, written step by step from the spec) plus an optional bulk fast path (`fast`) that
//! decodes runs of complete, valid sequences without touching the handler. The streaming
//! driver in [`crate::decoder`] owns everything the handler does not: the I/O queue with
//! its *restore* operation, error modes, output space, BOM handling and byte offsets.
//!
//! An encoder kernel maps one scalar value at a time (`encode_char`) and may offer a bulk
//! fast path too; [`crate::encoder`] drives it.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

pub(crate) mod big5;
pub(crate) mod euc_jp;
pub(crate) mod euc_kr;
pub(crate) mod gb18030;
pub(crate) mod iso_2022_jp;
pub(crate) mod replacement;
pub(crate) mod shift_jis;
pub(crate) mod single_byte;
pub(crate) mod utf_16;
pub(crate) mod utf_8;
pub(crate) mod x_user_defined;

use crate::index::PairTable;
use crate::sink::{non_ascii_bits_16, starts_with_ascii_run, ByteMap, Sink};
use crate::slots::{write_slots, Slots};

/// What a decoder handler returned for one item (#encoders-and-decoders).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Step {
    /// *continue*: the byte was consumed and nothing is emitted yet.
    Continue,
    /// One code point.
    Emit(char),
    /// Two code points (Big5's four special pointers).
    Emit2(char, char),
    /// *error*, with what the handler restored to the I/O queue.
    Error(Restore),
    /// *finished* (end-of-queue with nothing pending).
    Finished,
}

/// How an *error* leaves the I/O queue. The Standard's handlers restore only a suffix of
/// the bytes they consumed, so these counts describe every case.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) struct Restore {
    /// The current byte is restored (not consumed).
    pub(crate) unread: bool,
    /// How many bytes consumed before the current one are restored, in stream order,
    /// in front of the current byte.
    pub(crate) prior: u8,
    /// How many consumed bytes stay pending in the handler's state after the error (they
    /// begin the next sequence rather than belong to the malformed one).
    pub(crate) held: u8,
}

impl Step {
    /// An error that consumes the current byte.
    pub(crate) const ERROR: Step = Step::Error(Restore {
        unread: false,
        prior: 0,
        held: 0,
    });
    /// An error that restores the current byte (an ASCII byte is never swallowed).
    pub(crate) const ERROR_UNREAD: Step = Step::Error(Restore {
        unread: true,
        prior: 0,
        held: 0,
    });

    #[inline(always)]
    pub(crate) fn ascii(byte: u8) -> Step {
        Step::Emit(char::from(byte))
    }
}

/// A code point from an index or an arithmetic rule of the Standard, as a `char`. Every
/// value the tables and rules produce is a scalar value (the exhaustive tests check it);
/// the fallback keeps this total without a panic path.
#[inline(always)]
pub(crate) fn scalar(code_point: u32) -> char {
    char::from_u32(code_point).unwrap_or('\u{FFFD}')
}

/// A decoder: the Standard's handler plus an optional fast path.
pub(crate) trait DecodeKernel: Copy {
    /// The handler, given one byte or `None` for end-of-queue.
    fn handle(&mut self, byte: Option<u8>) -> Step;

    /// Whether no bytes are pending in the handler's state (so `fast` may run and the
    /// driver can forget the bytes of the last sequence).
    fn is_ground(&self) -> bool;

    /// Decodes a prefix of `src` made only of complete sequences that the handler would
    /// turn into code points without error, as far as `dst` has room; returns the bytes
    /// consumed. Called only when `is_ground()`; must leave the kernel ground, or in the
    /// state the handler would have reached. The default does nothing.
    #[inline(always)]
    fn fast<S: Sink>(&mut self, _src: &[u8], _dst: &mut S) -> usize {
        0
    }
}

/// What an encoder kernel did with one scalar value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Encoded {
    /// Bytes to emit (at most 8: an escape sequence followed by a two-byte character),
    /// packed little-endian (the first byte is the lowest) so that they stay in a register
    /// from the table lookup to the store; and their count.
    Bytes(u64, u8),
    /// *error* with this code point: the scalar value is not encodable. `bytes` are emitted
    /// first (ISO-2022-JP switches back to ASCII before the error).
    Unmappable {
        code_point: char,
        prefix: [u8; 8],
        prefix_len: u8,
    },
}

impl Encoded {
    #[inline(always)]
    pub(crate) fn one(b: u8) -> Encoded {
        Encoded::Bytes(u64::from(b), 1)
    }
    #[inline(always)]
    pub(crate) fn two(a: u8, b: u8) -> Encoded {
        Encoded::Bytes(u64::from(a) | (u64::from(b) << 8), 2)
    }
    #[inline(always)]
    pub(crate) fn four(a: u8, b: u8, c: u8, d: u8) -> Encoded {
        Encoded::Bytes(u64::from(u32::from_le_bytes([a, b, c, d])), 4)
    }
    #[inline(always)]
    pub(crate) fn unmappable(c: char) -> Encoded {
        Encoded::Unmappable {
            code_point: c,
            prefix: [0; 8],
            prefix_len: 0,
        }
    }
}

/// An encoder: the Standard's handler for one scalar value, and for end-of-queue.
pub(crate) trait EncodeKernel: Copy {
    /// The handler for one scalar value (restores inside the handler, such as ISO-2022-JP's
    /// escape-then-reprocess, are folded into one result).
    fn encode_char(&mut self, c: char) -> Encoded;

    /// The handler for end-of-queue: bytes to emit (ISO-2022-JP's return to ASCII), then
    /// *finished*.
    fn finish(&mut self) -> Encoded {
        Encoded::Bytes(0, 0)
    }

    /// Whether every ASCII scalar value encodes to its own byte in every state (all
    /// encoders but ISO-2022-JP and textcodec's UTF-16 extension): lets the bulk loops copy
    /// ASCII runs with the SIMD kernels.
    const ASCII_IS_IDENTITY: bool = true;

    /// Encodes a prefix of `src` (valid UTF-8) made of characters that map without error,
    /// as far as `dst` has room; returns (bytes of `src` consumed, bytes written). The
    /// default is the generic bulk loop over `encode_char`.
    #[inline]
    fn fast(&mut self, src: &str, dst: &mut Slots<u8>) -> (usize, usize) {
        encode_bulk_from_utf8(self, src, dst)
    }

    /// As [`EncodeKernel::fast`] over bytes that may not be UTF-8 (`io::EncodeWriter`'s
    /// input): also stops before a malformed sequence or one cut by the end of `src`. The
    /// default folds the check into the generic loop (one pass: ASCII runs need none, each
    /// other character is checked as it is decoded); kernels whose `fast` is a faster loop
    /// of their own validate first and run it ([`validated_fast`]). Only `io` (feature
    /// `std`) has such input.
    #[cfg(feature = "std")]
    #[inline]
    fn fast_bytes(&mut self, src: &[u8], dst: &mut Slots<u8>) -> (usize, usize) {
        encode_bulk_from_utf8_bytes(self, src, dst)
    }

    /// As [`EncodeKernel::fast`] for UTF-16 input: stops before a lone surrogate or a
    /// leading surrogate at the end of `src` (the driver handles both); returns (units of
    /// `src` consumed, bytes written).
    #[inline]
    fn fast_utf16(&mut self, src: &[u16], dst: &mut Slots<u8>) -> (usize, usize) {
        encode_bulk_from_utf16(self, src, dst)
    }
}

/// Writes the bytes of one encoded character at `dst[written..]` if they fit; returns the
/// new `written`, or `None` (nothing written) when they do not fit.
#[inline(always)]
// Hot path. Bounds: every slice is checked by `get_mut`; `written + 8` and `written + len`
// are at most `dst.len()` + 8, far below `usize::MAX` (slices are at most isize::MAX).
#[allow(clippy::arithmetic_side_effects)]
fn put_encoded(dst: &mut Slots<u8>, written: usize, packed: u64, len: u8) -> Option<usize> {
    let len = usize::from(len);
    let bytes = packed.to_le_bytes();
    // With eight bytes of room, one unconditional 8-byte store is cheaper than a
    // length-dependent copy; the bytes past `len` are overwritten by what follows.
    if let Some(d) = dst.get_mut(written..written + 8) {
        write_slots(d, &bytes);
        return Some(written + len);
    }
    let d = dst.get_mut(written..written + len)?;
    write_slots(d, bytes.get(..len)?);
    Some(written + len)
}

/// The generic bulk encode loop over UTF-8 input, monomorphised per kernel: ASCII runs are
/// copied in bulk (when the kernel maps ASCII to itself), every other character goes
/// through the kernel's inlined `encode_char` on a copy of its state, committed only when
/// the bytes are written. Stops at the first unmappable character or when `dst` is full.
#[inline(always)]
// Hot loop. Bounds: `read` stays on a char boundary of `src` (it advances over an ASCII
// byte, a run `copy_ascii` reports, or a whole character found at `read`), so
// `src[read..]` is valid and `read <= src.len()`; `written <= dst.len()` by `put_encoded`
// and `copy_ascii`, so `dst[written..]` is valid. Neither can overflow.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn encode_bulk_from_utf8<K: EncodeKernel>(
    kernel: &mut K,
    src: &str,
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    encode_bulk::<K, false>(kernel, src.as_bytes(), dst)
}

/// [`encode_bulk_from_utf8`] over bytes that may not be UTF-8: stops before a malformed
/// sequence or one cut by the end of `bytes` (see [`EncodeKernel::fast_bytes`]).
#[cfg(feature = "std")]
#[inline(always)]
pub(crate) fn encode_bulk_from_utf8_bytes<K: EncodeKernel>(
    kernel: &mut K,
    bytes: &[u8],
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    encode_bulk::<K, true>(kernel, bytes, dst)
}

/// A kernel's own `fast` loop over the valid UTF-8 prefix of `bytes` (the
/// [`EncodeKernel::fast_bytes`] of kernels whose `fast` beats the generic loop).
#[cfg(feature = "std")]
#[inline]
pub(crate) fn validated_fast<K: EncodeKernel>(
    kernel: &mut K,
    bytes: &[u8],
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    // No more input than `dst` can take (every character takes at least one byte, and
    // at most four of input): the validation does not run far past what is encoded.
    let bound = bytes.len().min(dst.len().saturating_mul(4));
    kernel.fast(
        crate::simd::valid_utf8_prefix(bytes.get(..bound).unwrap_or_default()),
        dst,
    )
}

/// The loop of [`encode_bulk_from_utf8`] (`CHECKED` false: `bytes` are a `&str`'s) and
/// [`encode_bulk_from_utf8_bytes`] (`CHECKED`: any bytes).
#[inline(always)]
// Bounds as in `encode_bulk_from_utf8`; with `CHECKED`, `read` advances only over ASCII
// bytes or whole sequences `utf8_char_checked` found inside `bytes`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
fn encode_bulk<K: EncodeKernel, const CHECKED: bool>(
    kernel: &mut K,
    bytes: &[u8],
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while let Some(&byte) = bytes.get(read) {
        if K::ASCII_IS_IDENTITY && byte < 0x80 {
            if bytes.get(read + 1).is_some_and(|&next| next < 0x80) {
                // A run: the SIMD kernel.
                let n = crate::simd::ascii::copy_ascii(&bytes[read..], &mut dst[written..]);
                if n == 0 {
                    break; // no room
                }
                read += n;
                written += n;
            } else {
                // A lone ASCII byte between non-ASCII characters is written inline.
                let Some(slot) = dst.get_mut(written) else {
                    break;
                };
                slot.write(byte);
                read += 1;
                written += 1;
            }
            continue;
        }
        let step = if CHECKED {
            utf8_char_checked(bytes, read)
                .and_then(|(c, len)| encode_one(kernel, c, len, read, dst, written))
        } else {
            encode_one_from_utf8(kernel, bytes, read, dst, written)
        };
        // Unmappable (the driver applies the error mode), no room, or (`CHECKED`) not
        // UTF-8 at `read`.
        let Some((r, w)) = step else {
            break;
        };
        read = r;
        written = w;
    }
    (read, written)
}

/// One step of the bulk loop: encodes the character at `bytes[read..]` (a `&str`'s bytes,
/// `read` a char boundary before the end) into `dst[written..]` through the kernel's
/// handler. Returns the new (read, written), or `None` — nothing changed — when the
/// character is unmappable or its bytes do not fit.
#[inline(always)]
pub(crate) fn encode_one_from_utf8<K: EncodeKernel>(
    kernel: &mut K,
    bytes: &[u8],
    read: usize,
    dst: &mut Slots<u8>,
    written: usize,
) -> Option<(usize, usize)> {
    let (c, len) = utf8_char_at(bytes, read);
    encode_one(kernel, c, len, read, dst, written)
}

/// Encodes `c`, found at `read` and `len` bytes long, into `dst[written..]`; as
/// [`encode_one_from_utf8`].
#[inline(always)]
fn encode_one<K: EncodeKernel>(
    kernel: &mut K,
    c: char,
    len: usize,
    read: usize,
    dst: &mut Slots<u8>,
    written: usize,
) -> Option<(usize, usize)> {
    let mut next = *kernel;
    let Encoded::Bytes(out, n) = next.encode_char(c) else {
        return None;
    };
    let written = put_encoded(dst, written, out, n)?;
    *kernel = next;
    // `read + len` is within `bytes` (a whole character starts at `read`).
    Some((read.saturating_add(len), written))
}

/// The character starting at `bytes[i]` and its length, if a whole well-formed UTF-8
/// sequence starts there (Unicode's Table 3-7: no overlong form, no surrogate, nothing past
/// U+10FFFF — what the Encoding Standard's UTF-8 decoder accepts); `None` for a malformed
/// sequence, one cut by the end of `bytes`, or `i` past the end.
#[inline(always)]
// Bounds: every index is below the length of the slice `get` returned.
#[allow(clippy::indexing_slicing)]
pub(crate) fn utf8_char_checked(bytes: &[u8], i: usize) -> Option<(char, usize)> {
    // A continuation byte (0x80..=0xBF) is below -64 as an `i8`. The checks are one
    // combined test per length, not a branch per byte: this runs once per non-ASCII
    // character of `io::EncodeWriter`'s input.
    let cont = |b: u8| (b as i8) < -64;
    let low = |b: u8| u32::from(b & 0x3F);
    let lead = *bytes.get(i)?;
    let lead32 = u32::from(lead);
    match lead {
        0x00..=0x7F => Some((char::from(lead), 1)),
        0xC2..=0xDF => {
            let s = bytes.get(i..i.checked_add(2)?)?;
            if !cont(s[1]) {
                return None;
            }
            Some((char::from_u32(((lead32 & 0x1F) << 6) | low(s[1]))?, 2))
        }
        0xE0..=0xEF => {
            let s = bytes.get(i..i.checked_add(3)?)?;
            let cp = ((lead32 & 0x0F) << 12) | (low(s[1]) << 6) | low(s[2]);
            // Overlong forms are below U+0800; `from_u32` rejects surrogates.
            if !(cont(s[1]) & cont(s[2]) & (cp >= 0x800)) {
                return None;
            }
            Some((char::from_u32(cp)?, 3))
        }
        0xF0..=0xF4 => {
            let s = bytes.get(i..i.checked_add(4)?)?;
            let cp = ((lead32 & 0x07) << 18) | (low(s[1]) << 12) | (low(s[2]) << 6) | low(s[3]);
            // Overlong forms are below U+10000; `from_u32` rejects what is past U+10FFFF.
            if !(cont(s[1]) & cont(s[2]) & cont(s[3]) & (cp >= 0x1_0000)) {
                return None;
            }
            Some((char::from_u32(cp)?, 4))
        }
        _ => None,
    }
}

/// The character starting at `bytes[i]` of a `&str`'s bytes, and its length. The input is
/// valid UTF-8 (a `&str`) and `i` a char boundary; were it not, U+FFFD is returned rather
/// than a panic.
#[inline(always)]
pub(crate) fn utf8_char_at(bytes: &[u8], i: usize) -> (char, usize) {
    let b = |k: usize| u32::from(bytes.get(i.wrapping_add(k)).copied().unwrap_or(0) & 0x3F);
    let lead = u32::from(bytes.get(i).copied().unwrap_or(0));
    let (cp, len) = if lead < 0x80 {
        (lead, 1)
    } else if lead < 0xE0 {
        (((lead & 0x1F) << 6) | b(1), 2)
    } else if lead < 0xF0 {
        (((lead & 0x0F) << 12) | (b(1) << 6) | b(2), 3)
    } else {
        (((lead & 0x07) << 18) | (b(1) << 12) | (b(2) << 6) | b(3), 4)
    };
    (scalar(cp), len)
}

/// The generic bulk encode loop over UTF-16 input; see [`encode_bulk_from_utf8`]. Surrogate
/// pairs are joined; a lone surrogate, or a leading one at the end of `src`, stops the loop.
#[inline(always)]
// Hot loop. Bounds: `read <= src.len()` (it advances over units found by `get`, or a run
// `narrow_basic_latin` reports) and `written <= dst.len()` as in `encode_bulk_from_utf8`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn encode_bulk_from_utf16<K: EncodeKernel>(
    kernel: &mut K,
    src: &[u16],
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while let Some(&unit) = src.get(read) {
        if K::ASCII_IS_IDENTITY && unit < 0x80 {
            if src.get(read + 1).is_some_and(|&next| next < 0x80) {
                let n = crate::simd::ascii::narrow_basic_latin(&src[read..], &mut dst[written..]);
                if n == 0 {
                    break;
                }
                read += n;
                written += n;
            } else {
                let Some(slot) = dst.get_mut(written) else {
                    break;
                };
                slot.write(unit as u8);
                read += 1;
                written += 1;
            }
            continue;
        }
        let (c, len) = match unit {
            0xD800..=0xDBFF => match src.get(read + 1) {
                Some(&trail @ 0xDC00..=0xDFFF) => {
                    let cp =
                        0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(trail) - 0xDC00);
                    (scalar(cp), 2)
                }
                _ => break,
            },
            0xDC00..=0xDFFF => break,
            _ => (scalar(u32::from(unit)), 1),
        };
        let mut next = *kernel;
        let Encoded::Bytes(out, n) = next.encode_char(c) else {
            break;
        };
        let Some(w) = put_encoded(dst, written, out, n) else {
            break;
        };
        *kernel = next;
        written = w;
        read += len;
    }
    (read, written)
}

/// Whether at most two of the first 16 bytes of `block` are not ASCII (false if `block`
/// is shorter: the dense path handles the end of the input). Clearing the lowest set bit
/// twice instead of counting: baseline x86-64 has no `popcnt` instruction.
#[inline(always)]
fn at_most_two_non_ascii_in_16(block: &[u8]) -> bool {
    non_ascii_bits_16(block).is_some_and(|high| {
        let once = high & high.wrapping_sub(1);
        once & once.wrapping_sub(1) == 0
    })
}

/// Whether `src` starts with 8 ASCII bytes.
#[inline(always)]
fn starts_with_8_ascii(src: &[u8]) -> bool {
    match src.get(..8) {
        Some(head) => {
            let mut word = [0u8; 8];
            word.copy_from_slice(head);
            u64::from_le_bytes(word) & 0x8080_8080_8080_8080 == 0
        }
        None => false,
    }
}

/// The fast loop of the single-byte decoders: ASCII runs through the SIMD kernel,
/// everything else 16 bytes at a time through `map` (one table load and store per byte,
/// no branch on the byte), as far as the output surely has room. Returns the bytes
/// consumed; stops before an error byte.
#[inline(always)]
pub(crate) fn fast_byte_map<S: Sink>(src: &[u8], dst: &mut S, map: &ByteMap<'_>) -> usize {
    // Where the CPU has a bulk kernel (AVX-512 table permutes), it takes whole blocks up to
    // the first error byte; the loop below does the rest (everything, elsewhere).
    let mut i = if src.len() >= crate::simd::byte_map::BLOCK {
        dst.decode_bulk(&crate::sink::Table(map), src)
    } else {
        0
    };
    loop {
        let rest = src.get(i..).unwrap_or_default();
        // Runs of 8 ASCII bytes or more (words of Latin-script text, markup) go to the
        // SIMD kernel; shorter ones are mapped with the rest.
        if starts_with_8_ascii(rest) {
            let n = dst.copy_ascii(rest);
            if n == 0 {
                return i; // no room
            }
            i = i.saturating_add(n);
            continue;
        }
        let block = rest.get(..rest.len().min(16)).unwrap_or_default();
        if !S::IS_UTF16 && at_most_two_non_ascii_in_16(block) {
            // Sparse non-ASCII (Latin-script text) into UTF-8: the ASCII bytes through the
            // SIMD kernel, each non-ASCII byte alone through the table. (Into UTF-16 the
            // table loop is the faster way even for sparse text: 1.2-1.6x on Latin text
            // at the SSE2 level; into UTF-8 it is 0.65-0.9x, its stores being
            // variable-length.)
            let first = block.first().copied().unwrap_or(0);
            let n = if first < 0x80 {
                // The run ends before the block's first non-ASCII byte (there is one: the
                // block does not start with 8 ASCII bytes).
                let bits = non_ascii_bits_16(block).unwrap_or(0);
                dst.copy_short_ascii(block, (bits.trailing_zeros() / 8) as usize)
            } else {
                dst.push_byte_map_run(block.get(..1).unwrap_or_default(), map)
            };
            if n == 0 {
                return i; // no room, or an error byte
            }
            i = i.saturating_add(n);
            continue;
        }
        let written = dst.push_byte_map_run(block, map);
        i = i.saturating_add(written);
        if written < block.len() || block.is_empty() {
            return i; // an error, no more room, or the end
        }
    }
}

/// WebAssembly with the `compact` tables: how many more steps short input may take through
/// the decoders' per-byte path before [`fast_multi_byte`] is used for it. Its first use
/// builds the encoding's 64 KiB pair table and has V8 compile that and the SIMD pair
/// kernel: 0.2 ms of a 2-byte first Shift_JIS decode in Node 20, as much as about 23 KB
/// cost on the per-byte path (21 bytes: 460 ns against 277 through the pair loop). So short
/// input pays for it once about 16 KB have gone the slow way; input of
/// [`PAIR_LOOP_MIN_BYTES`] or more takes the pair loop at once, and from then on all input
/// of every encoding does. (One count for the five pair loops.)
#[cfg(all(feature = "compact", target_arch = "wasm32"))]
static PER_BYTE_CREDIT: core::sync::atomic::AtomicUsize =
    core::sync::atomic::AtomicUsize::new(1 << 14);
#[cfg(all(feature = "compact", target_arch = "wasm32"))]
const PAIR_LOOP_MIN_BYTES: usize = 64;

/// Whether [`fast_multi_byte`] leaves `len` bytes of input to the per-byte path (see
/// [`PER_BYTE_CREDIT`]). One step is charged per call: the driver calls the fast path again
/// after each per-byte step.
#[cfg(all(feature = "compact", target_arch = "wasm32"))]
#[inline(always)]
fn per_byte_first(len: usize) -> bool {
    use core::sync::atomic::Ordering::Relaxed;
    let credit = PER_BYTE_CREDIT.load(Relaxed);
    if credit == 0 {
        return false;
    }
    if len >= PAIR_LOOP_MIN_BYTES {
        PER_BYTE_CREDIT.store(0, Relaxed);
        return false;
    }
    PER_BYTE_CREDIT.store(credit.saturating_sub(1), Relaxed);
    true
}

/// The fast loop shared by the ASCII-compatible multi-byte decoders: ASCII runs of 16
/// bytes or more in bulk; 64-byte blocks of ASCII and pairs of `pairs` in the vector
/// kernel where there is one ([`crate::sink::Pairs`]); otherwise two-byte sequences
/// and short ASCII runs in the sink's tight loop ([`Sink::push_double_byte_run`], at most
/// 64 bytes before the kernel is tried again); then `sequence(rest)` for one complete, valid
/// non-ASCII sequence at the start of `rest` that `pair` did not take (other lengths,
/// non-BMP code points): its code point (a scalar value, as the indexes and the
/// Standard's arithmetic give) and length; `None` hands the rest to the handler.
/// Returns the bytes consumed. `pairs` gives the table, built on its first call in the
/// `compact` build.
#[inline(always)]
// Hot loop. Bounds: `i <= src.len()` always: `copy_ascii` and `push_double_byte_run`
// consume at most the slice they are given (`src[i..]`), and `sequence` returns a length
// within its input; so the slices cannot panic and `i` (at most `src.len()` ≤ isize::MAX)
// cannot overflow.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn fast_multi_byte<S: Sink>(
    src: &[u8],
    dst: &mut S,
    pairs: impl FnOnce() -> &'static PairTable,
    sequence: impl Fn(&[u8]) -> Option<(u32, usize)>,
) -> usize {
    #[cfg(all(feature = "compact", target_arch = "wasm32"))]
    if per_byte_first(src.len()) {
        return 0;
    }
    let pairs = pairs();
    let pair = |lead, trail| pairs.get(lead, trail);
    let mut i = 0;
    while i < src.len() {
        // Long runs (markup, Latin text) go to the SIMD kernel; short ones (spaces and
        // punctuation between CJK characters) are cheaper inline than its call.
        if starts_with_ascii_run(&src[i..]) {
            let n = dst.copy_ascii(&src[i..]);
            if n == 0 {
                break; // no room
            }
            i += n;
            continue;
        }
        let n = dst.decode_bulk(&crate::sink::Pairs(pairs), &src[i..]);
        if n > 0 {
            i += n;
            continue;
        }
        let window = &src[i..src.len().min(i + 64)];
        let n = dst.push_double_byte_run::<true>(window, &pair);
        if n > 0 {
            i += n;
            continue;
        }
        // Not a pair (or no room, or the end): one sequence the general way.
        let Some((code_point, len)) = sequence(&src[i..]) else {
            break;
        };
        let c = scalar(code_point);
        if dst.room() < S::units(c) {
            break;
        }
        dst.push(c);
        i += len;
    }
    i
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::unwrap_used)]
mod tests {
    use super::{at_most_two_non_ascii_in_16, utf8_char_checked};

    /// The checked decoding step against the standard library's validator: every lead
    /// byte followed by continuation bytes at every range edge (and non-continuations),
    /// whole and cut short, at the start and after another character.
    #[test]
    fn utf8_char_checked_matches_std() {
        const EDGES: [u8; 12] = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xFF,
        ];
        let mut seen = 0usize;
        for lead in 0..=255u8 {
            for &b1 in &EDGES {
                for &b2 in &EDGES {
                    for &b3 in &EDGES {
                        let whole = [lead, b1, b2, b3];
                        for len in 0..=4 {
                            for prefix in [&b""[..], "é".as_bytes()] {
                                let mut bytes = prefix.to_vec();
                                bytes.extend_from_slice(&whole[..len]);
                                let at = prefix.len();
                                // std: the first character of what validates after `at`.
                                let valid = match core::str::from_utf8(&bytes[at..]) {
                                    Ok(s) => s,
                                    Err(e) => {
                                        core::str::from_utf8(&bytes[at..at + e.valid_up_to()])
                                            .unwrap()
                                    }
                                };
                                let want = valid.chars().next().map(|c| (c, c.len_utf8()));
                                assert_eq!(utf8_char_checked(&bytes, at), want, "{bytes:02X?}");
                                seen += usize::from(want.is_some_and(|(_, n)| n == 4));
                            }
                        }
                    }
                }
            }
        }
        assert!(seen > 0);
        assert_eq!(utf8_char_checked(b"ab", 2), None);
        assert_eq!(utf8_char_checked(b"ab", usize::MAX), None);
    }

    /// The bit trick against counting, for every placement of up to four non-ASCII bytes
    /// among 16, and for short blocks.
    #[test]
    fn at_most_two_non_ascii_matches_counting() {
        for mask in 0u32..(1 << 16) {
            if mask.count_ones() > 4 {
                continue;
            }
            let block: std::vec::Vec<u8> = (0..16)
                .map(|i| if mask >> i & 1 == 1 { 0xC3 } else { b'a' })
                .collect();
            assert_eq!(at_most_two_non_ascii_in_16(&block), mask.count_ones() <= 2);
        }
        assert!(!at_most_two_non_ascii_in_16(b"short"));
    }
}
