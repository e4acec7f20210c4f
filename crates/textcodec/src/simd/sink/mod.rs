//! Decoder output buffers.
//!
//! [`Utf8Sink`] writes into a byte buffer and maintains the invariant that
//! `buf[..pos]` is valid UTF-8 beyond what it found there: every write is a whole scalar
//! value or a run of ASCII. Because it can only be built here and exposes no raw access, the
//! `String`/`&mut str` adapters below may rely on that invariant without re-validating.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use alloc::string::String;
use alloc::vec::Vec;

use core::mem::MaybeUninit;

use super::{slots, write_slots, Slots};
use crate::index::PairTable;

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
    /// Maps a prefix of `src` through `map` in bulk where the CPU has a kernel for it
    /// ([`super::byte_map`]: whole 32-byte blocks, up to the first error byte); returns the
    /// bytes of `src` taken (0 where there is no such kernel).
    fn map_bytes_bulk(&mut self, src: &[u8], map: &ByteMap<'_>) -> usize;
    /// Maps whole 16-byte blocks of ASCII and [`ByteMap::linear`] bytes by arithmetic where
    /// the level has a kernel for it and no table kernel ([`super::byte_map::linear_to_utf16`]:
    /// SSE2, into UTF-16); returns the bytes of `src` taken (0 elsewhere).
    fn map_linear_bulk(&mut self, _src: &[u8], _map: &ByteMap<'_>) -> usize {
        0
    }
    /// x-user-defined in bulk where the CPU has a kernel for it (UTF-16: arithmetic, 64
    /// bytes per step; UTF-8: [`Sink::map_bytes_bulk`] with its table); returns the bytes
    /// of `src` taken (0 where there is no such kernel).
    fn x_user_defined_bulk(&mut self, src: &[u8]) -> usize;
    /// Decodes 64-byte blocks of ASCII and pairs of `pairs` where the CPU has a kernel for
    /// it ([`super::double_byte`]); returns the bytes of `src` taken (0 where there is no
    /// such kernel, or the first block holds anything else).
    fn double_byte_bulk(&mut self, src: &[u8], pairs: &PairTable) -> usize;
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
fn long_ascii_run_at(src: &[u8], i: usize) -> bool {
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
        let valid = super::valid_utf8_prefix(&src[read..end]);
        let n = take(valid);
        read += n;
        // Done at the end, at an error or when out of room. A chunk boundary may cut a
        // character, leaving at most three bytes unread before `end`: go on from there.
        if end == src.len() || n < valid.len() || end - read >= 4 {
            return read;
        }
    }
}

/// A byte → code point mapping in both output forms (single-byte and x-user-defined
/// decoding).
pub(crate) struct ByteMap<'a> {
    /// byte → UTF-16 code unit (BMP); 0 for an error byte (never byte 0).
    pub(crate) units: &'a [u16; 256],
    /// byte → UTF-8 bytes packed little-endian in the low 24 bits, their count in the top
    /// 8 bits; 0 for an error byte. Built by [`utf8_table`].
    pub(crate) utf8: &'a [u32; 256],
    /// Whether `units` has an error byte ([`has_error_bytes`]). Most single-byte encodings
    /// map all 256 bytes; their loops skip the per-byte error check, which costs about a
    /// third of the portable UTF-16 loop's time.
    pub(crate) has_errors: bool,
    /// The longest run of non-ASCII bytes that map to consecutive code units
    /// ([`linear_range`]): the SSE2 level decodes blocks of ASCII and such bytes to UTF-16
    /// by arithmetic, without the table.
    pub(crate) linear: LinearRange,
}

/// Bytes `lo..=hi` (all ≥ 0x80) map to `byte + offset` (wrapping `u16` arithmetic); an
/// empty range has `lo > hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LinearRange {
    pub(crate) lo: u8,
    pub(crate) hi: u8,
    pub(crate) offset: u16,
}

/// The longest run of bytes in 0x80..=0xFF whose units are `byte + offset` for one
/// `offset` (no error byte in it; the first such run on a tie), at compile time. The
/// letters of most single-byte encodings lie in one: windows-1252's 0xA0..=0xFF (offset
/// 0), windows-1251's 0xC0..=0xFF (Cyrillic А..я), ISO-8859-7's Greek, ISO-8859-8's
/// Hebrew.
// Bounds: `b` and `start` stay in 0x80..=0x100 and index below 256 only while < 256.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) const fn linear_range(units: &[u16; 256]) -> LinearRange {
    let mut best = LinearRange {
        lo: 1,
        hi: 0,
        offset: 0,
    };
    let mut best_len = 0;
    let mut start = 0x80;
    let mut b = 0x80;
    while b <= 0x100 {
        let ends = b == 0x100
            || units[b] == 0
            || (b > start
                && units[b].wrapping_sub(b as u16) != units[start].wrapping_sub(start as u16));
        if ends {
            let ok_start = start < 0x100 && units[start] != 0;
            if ok_start && b - start > best_len {
                best_len = b - start;
                best = LinearRange {
                    lo: start as u8,
                    hi: (b - 1) as u8,
                    offset: units[start].wrapping_sub(start as u16),
                };
            }
            start = if b < 0x100 && units[b] == 0 { b + 1 } else { b };
        }
        b += 1;
    }
    best
}

/// Whether a [`ByteMap::units`] table has an error byte (a 0 entry for a byte other than
/// 0), at compile time. Fails to compile for a table holding U+FFFF, which the portable
/// UTF-16 loop's error check relies on not being there (no index has it).
// Bounds: `b < 256`, the table's length.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) const fn has_error_bytes(units: &[u16; 256]) -> bool {
    let mut errors = false;
    let mut b = 0;
    while b < 256 {
        assert!(units[b] != 0xFFFF, "U+FFFF in a single-byte table");
        errors |= b != 0 && units[b] == 0;
        b += 1;
    }
    errors
}

/// The [`ByteMap::utf8`] table for a [`ByteMap::units`] table, at compile time. A unit of
/// 0 for a byte other than 0 is an error and stays 0; surrogates (never in the indexes)
/// would become U+FFFD.
// Bounds: `b < 256`, the tables' length; the arithmetic is on values below 0x10000.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) const fn utf8_table(units: &[u16; 256]) -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut b = 0;
    while b < 256 {
        let u = units[b];
        if u != 0 || b == 0 {
            let c = if (u & 0xF800) == 0xD800 {
                0xFFFD
            } else {
                u as u32
            };
            table[b] = if c < 0x80 {
                c | (1 << 24)
            } else if c < 0x800 {
                (0xC0 | (c >> 6)) | ((0x80 | (c & 0x3F)) << 8) | (2 << 24)
            } else {
                (0xE0 | (c >> 12))
                    | ((0x80 | ((c >> 6) & 0x3F)) << 8)
                    | ((0x80 | (c & 0x3F)) << 16)
                    | (3 << 24)
            };
        }
        b += 1;
    }
    table
}

/// A UTF-8 output buffer. See the module docs for its invariant.
pub(crate) struct Utf8Sink<'a> {
    buf: &'a mut Slots<u8>,
    pos: usize,
    /// End of the bytes the run methods may have written past `pos` (three- and four-byte
    /// stores for shorter characters): scratch, repaired by `write_into_str`'s guard.
    scratch_end: usize,
}

impl<'a> Utf8Sink<'a> {
    /// A sink over `buf`; whatever `buf` held is overwritten from the start.
    pub(crate) fn new(buf: &'a mut [u8]) -> Self {
        Self::over_slots(slots(buf))
    }

    /// A sink over slots that need not be initialised (a `String`'s spare capacity);
    /// `buf[..written()]` is initialised afterwards (see [`Slots`]).
    pub(crate) fn over_slots(buf: &'a mut Slots<u8>) -> Self {
        Utf8Sink {
            buf,
            pos: 0,
            scratch_end: 0,
        }
    }
}

/// The UTF-8 bytes of a BMP code point (a surrogate becomes U+FFFD), packed little-endian
/// with zeros above them, and their count: computed without branches on the length.
#[inline(always)]
// Bounds: the length is 1 + two booleans, at most 3.
#[allow(clippy::arithmetic_side_effects)]
fn utf8_of_bmp(u: u16) -> (u32, usize) {
    let c = u32::from(if (u & 0xF800) == 0xD800 { 0xFFFD } else { u });
    let one = c;
    let two = (0xC0 | (c >> 6)) | ((0x80 | (c & 0x3F)) << 8);
    let three =
        (0xE0 | (c >> 12)) | ((0x80 | ((c >> 6) & 0x3F)) << 8) | ((0x80 | (c & 0x3F)) << 16);
    let len = 1 + usize::from(c >= 0x80) + usize::from(c >= 0x800);
    let packed = if c < 0x80 {
        one
    } else if c < 0x800 {
        two
    } else {
        three
    };
    (packed, len)
}

// The sink's bounds invariant: `pos <= buf.len()` (it starts at 0 and only ever advances by
// what was written into `buf[pos..]`).
impl Sink for Utf8Sink<'_> {
    const IS_UTF16: bool = false;
    // Hot path. Bounds: `pos <= buf.len()`.
    #[inline(always)]
    #[allow(clippy::arithmetic_side_effects)]
    fn room(&self) -> usize {
        self.buf.len() - self.pos
    }
    #[inline(always)]
    fn bmp_room(&self) -> usize {
        self.room() / 3
    }
    // Hot path. Bounds: `n` characters of at most three bytes each fit in the room, so
    // every three-byte store at `pos` is within `buf` (the room left is at least three
    // bytes per character still to write).
    #[inline(always)]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn push_bmp_run(&mut self, src: &[u8], map: impl Fn(u8) -> u16) -> usize {
        let n = src.len().min(self.bmp_room());
        let mut pos = self.pos;
        for &b in &src[..n] {
            let (packed, len) = utf8_of_bmp(map(b));
            // Three bytes are stored whatever the length: the zeros past a shorter
            // character are overwritten by the next one, or stay as scratch.
            write_slots(&mut self.buf[pos..pos + 3], &packed.to_le_bytes()[..3]);
            pos += len;
        }
        if n > 0 {
            self.scratch_end = self.scratch_end.max(pos + 2);
        }
        self.pos = pos;
        n
    }
    // Hot path. Bounds: each character takes at most three bytes and one more byte of room
    // is kept, so every four-byte store at `pos` is within `buf`.
    #[inline(always)]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn push_byte_map_run(&mut self, src: &[u8], map: &ByteMap<'_>) -> usize {
        let n = src.len().min(self.room().saturating_sub(1) / 3);
        let start = self.pos;
        let mut pos = start;
        let mut error = false;
        for &b in &src[..n] {
            let entry = map.utf8[usize::from(b)];
            // Four bytes stored (the top one is the length, 0 for an error): what lies past
            // the character is overwritten by the next one, or stays as scratch.
            write_slots(&mut self.buf[pos..pos + 4], &entry.to_le_bytes());
            pos += (entry >> 24) as usize;
            error |= entry == 0;
        }
        if n > 0 {
            // The last store ended at most four bytes past `pos`.
            self.scratch_end = self.scratch_end.max(pos + 4);
        }
        if !error {
            self.pos = pos;
            return n;
        }
        // Rare: keep the characters before the first error (already written).
        let valid = src[..n]
            .iter()
            .position(|&b| map.utf8[usize::from(b)] == 0)
            .unwrap_or(n);
        self.pos = start
            + src[..valid]
                .iter()
                .map(|&b| (map.utf8[usize::from(b)] >> 24) as usize)
                .sum::<usize>();
        valid
    }
    // Hot loop. Bounds: `i < src.len()` where `lead` is read and `i + 1 < src.len()` where
    // `trail` is; `i` advances by one or two within `src`. `pos` only grows by what was
    // written, at most three bytes, while `pos < limit`, so it stays below `buf.len()`.
    #[inline(always)]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn push_double_byte_run<const ASCII_SINGLES: bool>(
        &mut self,
        src: &[u8],
        pair: impl Fn(u8, u8) -> u16,
    ) -> usize {
        // Every step stores four bytes at most (one character and scratch).
        let limit = self.buf.len().saturating_sub(3);
        let out = self.buf.as_mut_ptr().cast::<u8>();
        let (mut i, mut pos, mut in_ascii) = (0, self.pos, false);
        while i < src.len() && pos < limit {
            let lead = src[i];
            if ASCII_SINGLES && lead < 0x80 {
                if !in_ascii && long_ascii_run_at(src, i) {
                    break;
                }
                // SAFETY: `pos < limit <= buf.len()`.
                unsafe { out.add(pos).write(lead) };
                pos += 1;
                i += 1;
                in_ascii = true;
            } else {
                let Some(&trail) = src.get(i + 1) else { break };
                let c = pair(lead, trail);
                if c == 0 {
                    break;
                }
                let (packed, len) = if c >= 0x800 && (c & 0xF800) != 0xD800 {
                    // The common case (CJK): three bytes.
                    let c = u32::from(c);
                    let packed = (0xE0 | (c >> 12))
                        | ((0x80 | ((c >> 6) & 0x3F)) << 8)
                        | ((0x80 | (c & 0x3F)) << 16);
                    (packed, 3)
                } else {
                    utf8_of_bmp(c)
                };
                // Four bytes stored: past the character is scratch (or the next one).
                // SAFETY: `pos < limit = buf.len() - 3`: `buf[pos..pos + 4]` exists.
                unsafe {
                    out.add(pos)
                        .cast::<[u8; 4]>()
                        .write_unaligned(packed.to_le_bytes())
                };
                pos += len;
                i += 2;
                in_ascii = false;
            }
        }
        // The last store ended at most four bytes past `pos`.
        self.scratch_end = self.scratch_end.max(pos + 4);
        self.pos = pos;
        i
    }
    /// Keeps the invariant: the kernel writes whole characters (scalar values from the
    /// table; it refuses surrogates) into `buf[pos..]`, nothing past what it reports.
    // Bounds: `pos <= buf.len()`, and `written` bytes were written into `buf[pos..]`.
    #[inline]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn map_bytes_bulk(&mut self, src: &[u8], map: &ByteMap<'_>) -> usize {
        let (read, written) = super::byte_map::to_utf8(src, map, &mut self.buf[self.pos..]);
        self.pos += written;
        read
    }
    fn x_user_defined_bulk(&mut self, _src: &[u8]) -> usize {
        // The codec's UTF-8 path maps through its table (`map_bytes_bulk`).
        0
    }
    // Bounds: `pos <= buf.len()`, and the kernel wrote `written` bytes into `buf[pos..]`.
    #[inline]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn double_byte_bulk(&mut self, src: &[u8], pairs: &PairTable) -> usize {
        let (read, written) = super::double_byte::to_utf8(src, pairs, &mut self.buf[self.pos..]);
        self.pos += written;
        read
    }
    #[inline(always)]
    fn written(&self) -> usize {
        self.pos
    }
    #[inline(always)]
    fn units(c: char) -> usize {
        c.len_utf8()
    }
    // Hot path. Bounds: `pos` advances by the bytes written into `buf[pos..]`, so it stays
    // at most `buf.len()`.
    #[inline(always)]
    #[allow(clippy::arithmetic_side_effects)]
    fn push(&mut self, c: char) {
        let mut bytes = [0; 4];
        let bytes = c.encode_utf8(&mut bytes).as_bytes();
        if let Some(dst) = self
            .buf
            .get_mut(self.pos..)
            .and_then(|d| d.get_mut(..bytes.len()))
        {
            write_slots(dst, bytes);
            self.pos += bytes.len();
        }
    }
    // Hot path. Bounds: `pos <= buf.len()`, so `room` does not underflow and `buf[pos..]`
    // is in bounds; each branch writes `dst[0..k]` and advances `pos` by `k` only after
    // checking `room >= k`.
    #[inline(always)]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn push_bmp(&mut self, c: u16) {
        let room = self.buf.len() - self.pos;
        let dst = &mut self.buf[self.pos..];
        if c < 0x80 {
            if room >= 1 {
                dst[0].write(c as u8);
                self.pos += 1;
            }
        } else if c < 0x800 {
            if room >= 2 {
                dst[0].write(0xC0 | (c >> 6) as u8);
                dst[1].write(0x80 | (c & 0x3F) as u8);
                self.pos += 2;
            }
        } else if (0xD800..=0xDFFF).contains(&c) {
            // Never produced by the decoders (tables hold scalar values only); stay valid.
            self.push('\u{FFFD}');
        } else if room >= 3 {
            dst[0].write(0xE0 | (c >> 12) as u8);
            dst[1].write(0x80 | ((c >> 6) & 0x3F) as u8);
            dst[2].write(0x80 | (c & 0x3F) as u8);
            self.pos += 3;
        }
    }
    // Hot path. Bounds: `pos <= buf.len()`, and `n` bytes were written into `buf[pos..]`.
    #[inline(always)]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn copy_ascii(&mut self, src: &[u8]) -> usize {
        let n = super::ascii::copy_ascii(src, &mut self.buf[self.pos..]);
        self.pos += n;
        n
    }
    // Bounds: all 16 bytes are stored only when 16 bytes of room are left (the ones past
    // `n` are ASCII scratch); `n <= 16`.
    #[inline(always)]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn copy_short_ascii(&mut self, block: &[u8], n: usize) -> usize {
        match block.get(..16) {
            Some(whole) if self.room() >= 16 && n <= 16 => {
                write_slots(&mut self.buf[self.pos..self.pos + 16], whole);
                self.scratch_end = self.scratch_end.max(self.pos + 16);
                self.pos += n;
                n
            }
            _ => self.copy_ascii(block.get(..n).unwrap_or_default()),
        }
    }
    // Bounds: `n <= src.len()` and `n <= room`, so `pos + n <= buf.len()`; it backs up to
    // a character boundary and stops at 0 at the latest (`is_char_boundary(0)` holds).
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn copy_str(&mut self, src: &str) -> usize {
        let room = self.room();
        let mut n = src.len().min(room);
        while !src.is_char_boundary(n) {
            n -= 1;
        }
        super::copy_bytes(&mut self.buf[self.pos..self.pos + n], &src.as_bytes()[..n]);
        self.pos += n;
        n
    }
    /// Keeps the invariant: only a validated prefix that ends on a character boundary is
    /// copied (n valid bytes are n output bytes, so limiting the input to the room is
    /// exact).
    // Bounds: `limit` is at most `src.len()` and the room; `ascii <= limit` (a prefix of
    // `src[..limit]`), and the chunks copied are parts of `src[ascii..limit]`, so their
    // total fits in the room left after the ASCII run and `pos` stays at most `buf.len()`.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn copy_valid_utf8(&mut self, src: &[u8]) -> usize {
        let limit = src.len().min(self.room());
        // A leading ASCII run in one pass (ASCII is whole characters).
        let ascii = self.copy_ascii(&src[..limit]);
        // `copy_ascii` wrote `ascii` bytes, so `limit - ascii` bytes of room are left.
        if let Some(n) =
            super::utf8::copy_valid_prefix(&src[ascii..limit], &mut self.buf[self.pos..])
        {
            self.pos += n;
            return ascii + n;
        }
        ascii
            + for_valid_utf8_chunks(&src[ascii..limit], |valid| {
                super::copy_bytes(
                    &mut self.buf[self.pos..self.pos + valid.len()],
                    valid.as_bytes(),
                );
                self.pos += valid.len();
                valid.len()
            })
    }
    /// Keeps the invariant: the kernels write whole characters only, from `pos` on, and
    /// nothing past what they report as written.
    // Bounds: `pos <= buf.len()`, and `written` bytes were written into `buf[pos..]`.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn copy_utf16(&mut self, src: &[u8], big_endian: bool) -> usize {
        let (read, written) =
            super::utf16::bytes_to_utf8(src, big_endian, &mut self.buf[self.pos..]);
        self.pos += written;
        read
    }
}

/// A UTF-16 output buffer.
pub(crate) struct Utf16Sink<'a> {
    buf: &'a mut Slots<u16>,
    pos: usize,
}

impl<'a> Utf16Sink<'a> {
    pub(crate) fn new(buf: &'a mut [u16]) -> Self {
        Self::over_slots(slots(buf))
    }

    /// A sink over slots that need not be initialised (a `Vec`'s spare capacity);
    /// `buf[..written()]` is initialised afterwards (see [`Slots`]).
    pub(crate) fn over_slots(buf: &'a mut Slots<u16>) -> Self {
        Utf16Sink { buf, pos: 0 }
    }
}

// The sink's bounds invariant: `pos <= buf.len()` (it starts at 0 and only ever advances by
// what was written into `buf[pos..]`).
impl Sink for Utf16Sink<'_> {
    const IS_UTF16: bool = true;
    // Hot path. Bounds: `pos <= buf.len()`.
    #[inline(always)]
    #[allow(clippy::arithmetic_side_effects)]
    fn room(&self) -> usize {
        self.buf.len() - self.pos
    }
    #[inline(always)]
    fn bmp_room(&self) -> usize {
        self.room()
    }
    // Hot path. Bounds: `n` is at most the room, so `buf[pos..pos + n]` exists and `pos`
    // stays at most `buf.len()`.
    #[inline(always)]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn push_bmp_run(&mut self, src: &[u8], map: impl Fn(u8) -> u16) -> usize {
        let n = src.len().min(self.room());
        for (slot, &b) in self.buf[self.pos..self.pos + n].iter_mut().zip(&src[..n]) {
            let u = map(b);
            // Never produced by the decoders (their tables hold scalar values only).
            slot.write(if (u & 0xF800) == 0xD800 { 0xFFFD } else { u });
        }
        self.pos += n;
        n
    }
    // Hot path. Bounds: as `push_bmp_run`.
    #[inline(always)]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn push_byte_map_run(&mut self, src: &[u8], map: &ByteMap<'_>) -> usize {
        let n = src.len().min(self.room());
        let out = &mut self.buf[self.pos..self.pos + n];
        if !map.has_errors {
            for (slot, &b) in out.iter_mut().zip(&src[..n]) {
                slot.write(map.units[usize::from(b)]);
            }
            self.pos += n;
            return n;
        }
        // A unit of 0 is an error but for byte 0. `unit - 1` wraps to the largest value
        // only for a unit of 0 (no table holds U+FFFF: `has_error_bytes`), so one `max` per
        // byte finds the 0s; a NUL byte (rare among non-ASCII bytes) also gives one and the
        // exact search below tells the two apart.
        let mut highest = 0u16;
        for (slot, &b) in out.iter_mut().zip(&src[..n]) {
            let unit = map.units[usize::from(b)];
            slot.write(unit);
            highest = highest.max(unit.wrapping_sub(1));
        }
        // Rare: keep the units before the first error (what follows is scratch).
        let valid = if highest == u16::MAX {
            src[..n]
                .iter()
                .position(|&b| b != 0 && map.units[usize::from(b)] == 0)
                .unwrap_or(n)
        } else {
            n
        };
        self.pos += valid;
        valid
    }
    // Hot loop. Bounds: `i < src.len()` where `lead` is read and `i + 1 < src.len()` where
    // `trail` is; `i` advances by one or two within `src`. `pos` grows by one per step while
    // `pos < buf.len()`.
    #[inline(always)]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn push_double_byte_run<const ASCII_SINGLES: bool>(
        &mut self,
        src: &[u8],
        pair: impl Fn(u8, u8) -> u16,
    ) -> usize {
        let limit = self.buf.len();
        let out = self.buf.as_mut_ptr().cast::<u16>();
        let (mut i, mut pos, mut in_ascii) = (0, self.pos, false);
        while i < src.len() && pos < limit {
            let lead = src[i];
            let unit = if ASCII_SINGLES && lead < 0x80 {
                if !in_ascii && long_ascii_run_at(src, i) {
                    break;
                }
                i += 1;
                in_ascii = true;
                u16::from(lead)
            } else {
                let Some(&trail) = src.get(i + 1) else { break };
                let c = pair(lead, trail);
                if c == 0 {
                    break;
                }
                i += 2;
                in_ascii = false;
                // As `push_bmp`: the tables hold scalar values only (tested), and a `u16`
                // buffer has no validity invariant to protect.
                c
            };
            // SAFETY: `pos < limit = buf.len()`.
            unsafe { out.add(pos).write(unit) };
            pos += 1;
        }
        self.pos = pos;
        i
    }
    // Bounds: `pos <= buf.len()`, and `n` units were written into `buf[pos..]`.
    #[inline]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn map_bytes_bulk(&mut self, src: &[u8], map: &ByteMap<'_>) -> usize {
        let n = super::byte_map::to_utf16(src, map, &mut self.buf[self.pos..]);
        self.pos += n;
        n
    }
    // Bounds: as `map_bytes_bulk`.
    #[inline]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn map_linear_bulk(&mut self, src: &[u8], map: &ByteMap<'_>) -> usize {
        let n = super::byte_map::linear_to_utf16(src, map.linear, &mut self.buf[self.pos..]);
        self.pos += n;
        n
    }
    // Bounds: `pos <= buf.len()`, and `n` units were written into `buf[pos..]`.
    #[inline]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn x_user_defined_bulk(&mut self, src: &[u8]) -> usize {
        let n = super::byte_map::x_user_defined_to_utf16(src, &mut self.buf[self.pos..]);
        self.pos += n;
        n
    }
    // Bounds: `pos <= buf.len()`, and the kernel wrote `written` units into `buf[pos..]`.
    #[inline]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn double_byte_bulk(&mut self, src: &[u8], pairs: &PairTable) -> usize {
        let (read, written) = super::double_byte::to_utf16(src, pairs, &mut self.buf[self.pos..]);
        self.pos += written;
        read
    }
    #[inline(always)]
    fn written(&self) -> usize {
        self.pos
    }
    #[inline(always)]
    fn units(c: char) -> usize {
        c.len_utf16()
    }
    // Hot path. Bounds: `pos` advances by the units written into `buf[pos..]`, so it stays
    // at most `buf.len()`.
    #[inline(always)]
    #[allow(clippy::arithmetic_side_effects)]
    fn push(&mut self, c: char) {
        let mut units = [0; 2];
        let units = c.encode_utf16(&mut units);
        if let Some(dst) = self
            .buf
            .get_mut(self.pos..)
            .and_then(|d| d.get_mut(..units.len()))
        {
            write_slots(dst, units);
            self.pos += units.len();
        }
    }
    // Hot path. Bounds: `pos` advances by 1 only after writing `buf[pos]`, so it stays at
    // most `buf.len()`.
    #[inline(always)]
    #[allow(clippy::arithmetic_side_effects)]
    fn push_bmp(&mut self, c: u16) {
        if let Some(slot) = self.buf.get_mut(self.pos) {
            slot.write(c);
            self.pos += 1;
        }
    }
    // Hot path. Bounds: `pos <= buf.len()`, and `n` units were written into `buf[pos..]`.
    #[inline(always)]
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn copy_ascii(&mut self, src: &[u8]) -> usize {
        let n = super::ascii::widen_ascii(src, &mut self.buf[self.pos..]);
        self.pos += n;
        n
    }
    // Bounds: `pos <= buf.len()`, and `written` units were written into `buf[pos..]`.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn copy_str(&mut self, src: &str) -> usize {
        let (read, written) = super::utf8::to_utf16(src, &mut self.buf[self.pos..]);
        self.pos += written;
        read
    }
    // Bounds: `limit <= src.len()`, `ascii <= limit` (a prefix of `src[..limit]`), `read`
    // is a prefix length of `src[ascii..limit]` and the chunks' bytes taken are parts of
    // `src[done..limit]`, so every sum is at most `limit`; `pos <= buf.len()`, and
    // `written` units were written into `buf[pos..]`.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn copy_valid_utf8(&mut self, src: &[u8]) -> usize {
        // A leading ASCII run in one pass (one unit per byte).
        let ascii = self.copy_ascii(&src[..src.len().min(self.room())]);
        // n units of room take at most 3n bytes (a BMP character is 1-3 bytes and one
        // unit; a 4-byte one is two units). The kernels stop for room themselves: the
        // limit only bounds the validation done ahead of them.
        let limit = src
            .len()
            .min(ascii.saturating_add(self.room().saturating_mul(3)));
        // Validation and conversion in one pass where the kernel has it; then the rest
        // (the tail, or up to an error) in chunks, validated then converted.
        let (read, written) =
            super::utf8::validate_to_utf16(&src[ascii..limit], &mut self.buf[self.pos..]);
        self.pos += written;
        let done = ascii + read;
        let limit = src
            .len()
            .min(done.saturating_add(self.room().saturating_mul(3)));
        done + for_valid_utf8_chunks(&src[done..limit], |valid| self.copy_str(valid))
    }
    // Bounds: `pos <= buf.len()`, and `written` units were written into `buf[pos..]`.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn copy_utf16(&mut self, src: &[u8], big_endian: bool) -> usize {
        let (read, written) =
            super::utf16::bytes_to_units(src, big_endian, &mut self.buf[self.pos..]);
        self.pos += written;
        read
    }
}

/// Runs `f` over `additional` slots of `vec`'s spare capacity (reserved here), as they
/// are: not zero-filled first. `f` returns its result and how many slots it wrote from the
/// start, which become part of `vec`.
pub(crate) fn append_to_vec<T: Copy, R>(
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
    // wrote them: writers of `Slots` initialise what they report as written, from the
    // start (see `Slots`; every kernel's tests check its count against an oracle).
    unsafe { vec.set_len(new_len) };
    result
}

/// Runs `f` with a [`Utf8Sink`] over `additional` bytes of `s`'s spare capacity (reserved
/// here, not zero-filled), then appends exactly what `f` wrote. Returns `f`'s result.
pub(crate) fn append_to_string<R>(
    s: &mut String,
    additional: usize,
    f: impl FnOnce(&mut Utf8Sink<'_>) -> R,
) -> R {
    // SAFETY: the length is only changed below, to cover bytes a `Utf8Sink` wrote: whole
    // UTF-8 sequences from the start of the spare capacity (its invariant), so the
    // `String` holds valid UTF-8 whenever it is observable again, even if `f` panics
    // (the length is then unchanged).
    let vec = unsafe { s.as_mut_vec() };
    vec.reserve(additional);
    let old_len = vec.len();
    let spare = vec.spare_capacity_mut();
    let n = additional.min(spare.len());
    let mut sink = Utf8Sink::over_slots(spare.get_mut(..n).unwrap_or_default());
    let result = f(&mut sink);
    let new_len = old_len.saturating_add(sink.pos);
    // SAFETY: `sink.pos <= n` bytes of the capacity were written by the sink, initialised
    // and valid UTF-8 (see above and `Slots`).
    unsafe { vec.set_len(new_len) };
    result
}

/// Runs `f` with a [`Utf8Sink`] over `dst`. Afterwards `dst[..written]` holds what `f`
/// wrote, and any UTF-8 continuation bytes right after it (the rest of a character that
/// was partly overwritten) are set to 0 so `dst` stays valid UTF-8. Returns `f`'s result
/// and the number of bytes written.
pub(crate) fn write_into_str<R>(
    dst: &mut str,
    f: impl FnOnce(&mut Utf8Sink<'_>) -> R,
) -> (R, usize) {
    /// Zeroes orphaned continuation bytes after the written prefix when dropped, so the
    /// str is repaired even if `f` unwinds.
    struct TailGuard<'a> {
        sink: Utf8Sink<'a>,
    }
    impl Drop for TailGuard<'_> {
        fn drop(&mut self) {
            // `pos <= buf.len()` (the sink's invariant): the bytes after the written ones.
            // First the scratch bytes of the run methods' wide stores (set to 0), then any
            // orphaned continuation bytes of the str's earlier content.
            let pos = self.sink.pos;
            let scratch_end = self.sink.scratch_end.clamp(pos, self.sink.buf.len());
            if let Some(scratch) = self.sink.buf.get_mut(pos..scratch_end) {
                scratch.fill(MaybeUninit::new(0));
            }
            if let Some(after) = self.sink.buf.get_mut(scratch_end..) {
                // SAFETY: the slots came from an initialised `str`, and writers of `Slots`
                // only store initialised values.
                let continuation =
                    |b: &MaybeUninit<u8>| (unsafe { b.assume_init() } & 0xC0) == 0x80;
                for b in after.iter_mut().take_while(|b| continuation(b)) {
                    b.write(0);
                }
            }
        }
    }
    // SAFETY: writes go through a `Utf8Sink` (whole UTF-8 sequences only, each completed
    // before the next begins, plus at most three scratch bytes past the last one, which
    // `scratch_end` covers). The bytes after `written` were valid UTF-8 before;
    // `TailGuard` zeroes the scratch bytes and, if the writes split one of the old
    // characters, its orphaned continuation bytes (ASCII NUL), on every exit path, so the
    // str is valid UTF-8 when the borrow ends.
    let bytes = unsafe { dst.as_bytes_mut() };
    let mut guard = TailGuard {
        sink: Utf8Sink::new(bytes),
    };
    let result = f(&mut guard.sink);
    let written = guard.sink.pos;
    drop(guard);
    (result, written)
}

#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::arithmetic_side_effects
)]
mod tests;
