//! Bulk decoding of the CJK double-byte encodings' common case (gb18030's two-byte form,
//! Big5, EUC-JP's JIS X 0208, Shift_JIS, EUC-KR): 64-byte blocks of ASCII and valid pairs,
//! into UTF-16 or UTF-8.
//!
//! Which bytes of a block are leads is found without walking it byte by byte. A byte whose
//! row of the [`PairTable`] has a pair ("lead-capable") is a lead wherever a character
//! starts, and any other byte is never a lead. So in a run of lead-capable bytes the
//! first one is a lead (the byte before the run is not, or the run starts the block,
//! which starts on a character boundary), and roles alternate from there: lead, trail,
//! lead … A byte after the last lead of a run is its trail whatever its value (ASCII
//! trails are common: `81 40`). The run parities come from one addition (the carry of a
//! run's start bit clears the run). If anything else is in the block (a non-ASCII byte
//! that is neither lead nor trail, such as a Shift_JIS kana or gb18030's 0x80, or a pair
//! the table maps to 0: an error, a four-byte form, a plane-2 Big5 character), the block
//! is left to the codec's scalar path.
//!
//! The pairs are then looked up with `vpgatherdd`: each lead's table index ((lead & 0x7F)
//! << 8 | trail) in a 16-bit lane, the leads' indexes packed with `vpcompressw` (at most
//! 16 in 32 positions, since leads are never adjacent: one gather per half block), the
//! code points put back at the leads' positions with `vpexpandw` over the widened ASCII.
//! (A scalar loop storing the pairs into a buffer that is then loaded as vectors ran
//! CJK text at 0.7–0.8× the gathers' speed: the reload waits for the stores.) Finally
//! the units at character starts are packed with `vpcompressw` (UTF-16) or converted by
//! [`super::utf16`]'s BMP → UTF-8 step (UTF-8).
//!
//! AVX2 (`avx2.rs`) decodes to UTF-16 the same way in 32-byte blocks without the
//! compress instructions: each 16-bit lane holds at most one lead, so the pairs are
//! gathered in place and the units at character starts packed by a `pshufb` table. Into
//! UTF-8 it runs in two passes, up to 16 blocks into a UTF-16 buffer on the stack and
//! that buffer through [`super::utf16`]'s AVX2 kernel, over blocks that each hold a few
//! non-ASCII bytes and where the CJK text goes on for two blocks more (text whose short
//! CJK runs lie far apart, in markup or catalogs, is faster in the pair loop, which stores
//! an ASCII byte as it is). (A one-pass UTF-8 twin, the kept units
//! of each 8 positions through the 8-unit BMP → UTF-8 step, ran 0.6–0.8× encoding_rs
//! against the pair loop's 1.1–1.3×: most of each step's lanes are trails.)
//!
//! NEON (`neon.rs`, little-endian aarch64) keeps the AVX2 kernel's blocks, lanes, room
//! and two-pass UTF-8 path, and replaces what NEON lacks: the classes come from a 16-byte
//! bitmap read by two `vqtbl1q_u8`, the masks from bit weights folded by pairwise
//! additions (no `movemask`), and the pairs from 16 scalar loads into fixed lanes (no
//! gather; one per 16-bit lane, lead or not, so nothing branches on the leads).
//!
//! `simd128` (`simd128.rs`) is the NEON kernel into UTF-16 with `i8x16.bitmask` for the
//! masks; into UTF-8 it has none.
//!
//! The other levels have no kernel: these functions return (0, 0) and the codec's pair
//! loop does all the work. The tests check each kernel against a naive decoder of the same
//! pairs.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::dispatch::level;
use super::level::Level;
use crate::index::PairTable;
use crate::simd::Slots;

/// Decodes a prefix of `src` into `dst` as UTF-16: whole blocks of 64 bytes (AVX-512) or 32
/// (AVX2, NEON), one less when the last byte is a lead (its pair is left for the next
/// call), while they hold only ASCII and pairs of `table`, and 64 (AVX-512) or 40 (AVX2,
/// NEON) units of room are left; nothing is written past what it returns. Returns (bytes read, units
/// written); (0, 0) where the level has no kernel.
#[inline]
pub(crate) fn to_utf16(src: &[u8], table: &PairTable, dst: &mut Slots<u16>) -> (usize, usize) {
    to_utf16_with(level(), src, table, dst)
}

/// As [`to_utf16`], into UTF-8, while 96 (AVX-512) or 48 (AVX2, NEON) bytes of room are
/// left; the AVX2 and NEON paths also only start where the next `UTF8_DENSE_AHEAD` bytes
/// are blocks with `UTF8_MIN_NON_ASCII` non-ASCII bytes or more, and stop before a block
/// with fewer (each kernel file has its own pair of constants: AVX2 32 and 4, NEON 128 and
/// 16). Nothing is written past what it returns. Returns (bytes read, bytes written);
/// (0, 0) where the level has no kernel.
#[inline]
pub(crate) fn to_utf8(src: &[u8], table: &PairTable, dst: &mut Slots<u8>) -> (usize, usize) {
    to_utf8_with(level(), src, table, dst)
}

pub(crate) fn to_utf16_with(
    k: &Level,
    src: &[u8],
    table: &PairTable,
    dst: &mut Slots<u16>,
) -> (usize, usize) {
    k.pairs_to_utf16(src, table, dst).unwrap_or((0, 0))
}

pub(crate) fn to_utf8_with(
    k: &Level,
    src: &[u8],
    table: &PairTable,
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    k.pairs_to_utf8(src, table, dst).unwrap_or((0, 0))
}

/// The leads of a 64-byte block whose lead-capable bytes are `capable` (see the module
/// docs): in each run of set bits, the first, third, fifth … bit. A pure function of the
/// mask, tested against a byte-by-byte walk.
// Bounds: `wrapping_add` is the point (the carry out of bit 63 is dropped: a run that
// reaches the end has no bit after it).
#[inline(always)]
#[cfg_attr(
    not(any(
        target_arch = "x86_64",
        all(target_arch = "aarch64", target_endian = "little"),
        all(target_arch = "wasm32", target_feature = "simd128")
    )),
    allow(dead_code)
)]
pub(crate) fn leads_of(capable: u64) -> u64 {
    const EVEN: u64 = 0x5555_5555_5555_5555;
    let run_starts = capable & !(capable << 1);
    // Adding a run's start bit carries through the run: the runs that start at an even
    // position vanish from the sum, those that start at an odd one stay.
    let odd_runs = capable.wrapping_add(run_starts & EVEN) & capable;
    let even_runs = capable & !odd_runs;
    (even_runs & EVEN) | (odd_runs & !EVEN)
}

/// The constants of the 32-byte-block kernels without a gather (NEON, simd128): the block,
/// the table's size, and the bit weights and tables their classes and masks are made with.
/// The roles of the bytes of a 32-byte block (the AVX2, NEON and simd128 kernels):
/// `leads` and `trails` as bit masks, the bytes the block takes (`len`: 31 when its last
/// byte is a lead, whose trail is in the next block) and `in_block`, the mask of those
/// bytes. `None` when a non-ASCII byte is neither a lead nor a trail: the block is left to
/// the codec. `capable` and `non_ascii` are the block's masks of lead-capable and
/// non-ASCII bytes.
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
pub(crate) struct Roles {
    pub(crate) leads: u32,
    pub(crate) trails: u32,
    pub(crate) len: usize,
    pub(crate) in_block: u32,
}

/// See [`Roles`].
// Bounds: the casts keep the 32 bits of a 32-bit block's leads; shifts are by constants.
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
#[inline(always)]
#[allow(clippy::cast_possible_truncation)]
pub(crate) fn roles(capable: u32, non_ascii: u32) -> Option<Roles> {
    let mut leads = leads_of(u64::from(capable)) as u32;
    // A lead in the last position: its trail is in the next block.
    let (len, in_block) = if leads >> 31 != 0 {
        leads &= !(1 << 31);
        (31, u32::MAX >> 1)
    } else {
        (32, u32::MAX)
    };
    let trails = leads << 1;
    (non_ascii & !(leads | trails) & in_block == 0).then_some(Roles {
        leads,
        trails,
        len,
        in_block,
    })
}

#[cfg(any(
    all(target_arch = "aarch64", target_endian = "little"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod blocks {
    /// Bytes per block.
    pub(super) const BLOCK: usize = 32;
    /// Room a block needs: its 32 units, plus the 8 that the last packed store may
    /// overwrite (saved and put back).
    pub(super) const BLOCK_ROOM: usize = BLOCK + 8;

    /// Entries of a pair table: 128 rows of 256 trails.
    pub(super) const ENTRIES: usize = 128 * 256;

    /// Bit i % 8 in lane i: a lane of a mask (or of a mask byte spread over 8 lanes)
    /// ANDed with these holds that lane's bit.
    pub(super) const LANE_BITS: [u8; 16] =
        [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];

    /// By a byte's high nibble, the bit of its row in the capability bitmap (0 for ASCII).
    pub(super) const ROW_BITS: [u8; 16] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128];

    /// Which byte of a 32-bit mask covers each lane of the first and of the second register.
    pub(super) const MASK_BYTE: [[u8; 16]; 2] = [
        [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1],
        [2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3],
    ];
}

#[cfg(target_arch = "x86_64")]
pub(super) mod avx2;
#[cfg(target_arch = "x86_64")]
pub(super) mod avx512;
#[cfg(all(target_arch = "aarch64", target_endian = "little"))]
pub(super) mod neon;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(super) mod simd128;

#[cfg(test)]
// Bounds: test code over small buffers it builds itself; an out-of-range index, an
// overflow or a failed unwrap would panic and fail the test, which is what a test should do.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::unwrap_used
)]
mod tests;
