//! The bulk decoding kernels as the sinks take them: one [`BulkDecode`] per family of
//! [`crate::simd`] kernels, each calling the active level's kernel (or taking nothing
//! where the level has none).
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::{BulkDecode, ByteMap};
use crate::index::PairTable;
use crate::simd::{byte_map, double_byte};
use crate::slots::Slots;

/// Single-byte decoding through a table, as the sinks take it.
pub(crate) struct Table<'a>(pub(crate) &'a ByteMap<'a>);

// SAFETY: `to_utf8` and `to_utf16` (and every level's kernels behind them) take whole
// characters only, write nothing past what they report (`simd::byte_map`'s docs), and store only the
// table's code points: scalar values (no index holds a surrogate, and a kernel stops
// before one), tested against the naive oracle at every level.
unsafe impl BulkDecode for Table<'_> {
    #[inline]
    fn to_utf8(&self, src: &[u8], dst: &mut Slots<u8>) -> (usize, usize) {
        byte_map::to_utf8(src, self.0, dst)
    }
    #[inline]
    fn to_utf16(&self, src: &[u8], dst: &mut Slots<u16>) -> (usize, usize) {
        let n = byte_map::to_utf16(src, self.0, dst);
        (n, n)
    }
}

/// x-user-defined by arithmetic, into UTF-16 only (its UTF-8 path goes through [`Table`]).
pub(crate) struct XUserDefined;

// SAFETY: ASCII and U+F780..=U+F7FF only (no surrogates), nothing past what it reports.
unsafe impl BulkDecode for XUserDefined {
    #[inline]
    fn to_utf8(&self, _src: &[u8], _dst: &mut Slots<u8>) -> (usize, usize) {
        (0, 0)
    }
    #[inline]
    fn to_utf16(&self, src: &[u8], dst: &mut Slots<u16>) -> (usize, usize) {
        let n = byte_map::x_user_defined_to_utf16(src, dst);
        (n, n)
    }
}

/// Double-byte decoding of blocks of ASCII and pairs, as the sinks take it.
pub(crate) struct Pairs<'a>(pub(crate) &'a PairTable);

// SAFETY: the kernels take whole blocks of ASCII and valid pairs (a pair's code point is a
// BMP scalar value from the table, never a surrogate), write nothing past what they report
// (`simd::double_byte`'s docs), tested against the naive decoder at every level.
unsafe impl BulkDecode for Pairs<'_> {
    #[inline]
    fn to_utf8(&self, src: &[u8], dst: &mut Slots<u8>) -> (usize, usize) {
        double_byte::to_utf8(src, self.0, dst)
    }
    #[inline]
    fn to_utf16(&self, src: &[u8], dst: &mut Slots<u16>) -> (usize, usize) {
        double_byte::to_utf16(src, self.0, dst)
    }
}
