//! Single-byte mappings in both output forms, built at compile time from an index's
//! upper half: the tables the single-byte and x-user-defined decoders hand to the sinks.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

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
