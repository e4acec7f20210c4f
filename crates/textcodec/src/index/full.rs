//! The default build's table layout (#indexes): every table is built at compile time from
//! the generated indexes and linked — the flat decode indexes as generated, the CJK encode
//! pages expanded from the generated [`RankTable`]s, the five 64 KiB pair tables, and
//! each single-byte index with its UTF-8, encode and hot-pair tables. Nothing is built at
//! run time and no access pays more than its load.
//!
//! `compact/` is the other layout, with the same API (see `index/mod.rs`).

use super::byte_map::{hot_pairs, HotPairs};
use super::generated::{big5, euc_kr, gb18030, jis0208, jis0212};
use super::pairs::PairLayout;
use super::{EncodeTable, PairTable, RankTable, SingleByteTables};

/// How a table derived from the indexes is held: a reference to a static.
pub(super) type Linked<T> = &'static T;

/// A pair table's rows, inline in its static.
pub(super) type Rows = [[u16; 256]; 128];

/// One *index single-byte* with all its tables, built at compile time.
pub(crate) struct SingleByteIndex {
    tables: SingleByteTables,
}

impl SingleByteIndex {
    /// The index with its tables (the generated tables call this; `decode` is the only
    /// decoding data written out, the rest is derived from it here).
    pub(crate) const fn new(
        decode: [u16; 256],
        page_of: [u8; 256],
        pages: &'static [[u8; 256]],
    ) -> SingleByteIndex {
        SingleByteIndex {
            tables: SingleByteTables::new(
                decode,
                SingleByteEncode {
                    page_of,
                    pages,
                    hot: hot_pairs(&decode),
                },
            ),
        }
    }

    /// The code point of byte `0x80 + k` (0 = none; `k < 128`, else 0), at compile time
    /// too (the detector's models are built from it).
    // Bounds: checked.
    #[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
    pub(crate) const fn upper_code_point(&self, k: usize) -> u16 {
        if k >= 128 {
            return 0;
        }
        self.tables.decode[0x80 + k]
    }

    /// Its decode and encode tables.
    #[inline(always)]
    pub(crate) fn tables(&'static self) -> &'static SingleByteTables {
        &self.tables
    }
}

/// The encode side of a single-byte index: code point → byte pages, and the hot pairs the
/// AVX-512 and NEON encoders read.
pub(crate) struct SingleByteEncode {
    /// code point >> 8 → page number in `pages` (page 0 is empty).
    page_of: [u8; 256],
    /// code point & 0xFF → byte (0 = not encodable).
    pages: &'static [[u8; 256]],
    /// The two-byte UTF-8 characters of its busiest 64-code-point blocks → bytes.
    hot: HotPairs,
}

impl SingleByteEncode {
    #[inline(always)]
    pub(super) fn byte_for(&self, code_point: u32) -> Option<u8> {
        super::paged_byte(&self.page_of, self.pages, code_point)
    }

    #[inline(always)]
    pub(super) fn hot_pairs(&self) -> Option<&HotPairs> {
        Some(&self.hot)
    }
}

/// The flat decode indexes (pointer → code point, 0 = none): the generated statics.
pub(super) mod decode {
    use super::{big5, euc_kr, gb18030, jis0208, jis0212};

    macro_rules! flat {
        ($($name:ident = $module:ident :: $table:ident;)*) => {$(
            #[inline(always)]
            pub(crate) const fn $name() -> &'static [u16; $module::$table.len()] {
                &$module::$table
            }
        )*};
    }
    flat! {
        gb18030 = gb18030::GB18030_DECODE;
        euc_kr = euc_kr::EUC_KR_DECODE;
        big5 = big5::BIG5_DECODE_LOW;
        jis0208 = jis0208::JIS0208_DECODE;
        jis0212 = jis0212::JIS0212_DECODE;
    }
}

/// The encode tables: direct pages expanded at compile time from the generated rank
/// tables, which apply the Standard's pointer rules.
pub(super) mod encode {
    use super::{big5, euc_kr, gb18030, jis0208, rank_pages, EncodeTable};

    macro_rules! tables {
        ($($name:ident = $module:ident :: $rank:ident, $blocks:ident;)*) => {$(
            #[inline(always)]
            pub(crate) fn $name() -> &'static EncodeTable {
                static TABLE: EncodeTable = {
                    static PAGES: [[u16; 64]; $module::$blocks] = rank_pages(&$module::$rank);
                    EncodeTable { page_of: $module::$rank.block_of, pages: &PAGES }
                };
                &TABLE
            }
        )*};
    }
    tables! {
        jis0208 = jis0208::JIS0208_ENCODE, JIS0208_ENCODE_BLOCKS;
        euc_kr = euc_kr::EUC_KR_ENCODE, EUC_KR_ENCODE_BLOCKS;
        gb18030 = gb18030::GB18030_ENCODE, GB18030_ENCODE_BLOCKS;
        big5 = big5::BIG5_ENCODE, BIG5_ENCODE_BLOCKS;
    }
}

/// The direct-lookup pages of a rank table: page `b` maps `cp & 63` to the pointer of the
/// code point in block `b`, `u16::MAX` where it has none (`N` = the number of blocks).
// Bounds: `b < N` = the number of blocks = the lengths of `present` and `first` (the
// generator's `_BLOCKS` constant); `first[b] + rank` is within `pointers` (the generator
// numbered them so); `k < 64`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const fn rank_pages<const N: usize>(rank: &RankTable) -> [[u16; 64]; N] {
    let mut pages = [[u16::MAX; 64]; N];
    let mut b = 0;
    while b < N {
        let mut next = rank.first[b] as usize;
        let mut k = 0;
        while k < 64 {
            if rank.present[b] >> k & 1 == 1 {
                pages[b][k] = rank.pointers[next];
                next += 1;
            }
            k += 1;
        }
        b += 1;
    }
    pages
}

impl PairTable {
    /// The table of a layout, at compile time; a lead's byte in the lead map is 0xFF where
    /// its row has a pair.
    // Bounds: `k < 128`, `t < 256`.
    #[allow(
        clippy::indexing_slicing,
        clippy::arithmetic_side_effects,
        clippy::cast_possible_truncation
    )]
    pub(super) const fn new(layout: PairLayout) -> Self {
        let mut rows = [[0u16; 256]; 128];
        let mut lead_map = [0u8; 128];
        let mut k = 0;
        while k < 128 {
            let mut t = 0;
            while t < 256 {
                rows[k][t] = layout.get((0x80 + k) as u8, t as u8);
                if rows[k][t] != 0 {
                    lead_map[k] = 0xFF;
                }
                t += 1;
            }
            k += 1;
        }
        PairTable { rows, lead_map }
    }
}

/// `fn() -> &'static PairTable` body for a [`PairLayout`] expression: a static built at
/// compile time.
macro_rules! pair_table {
    ($layout:expr) => {{
        static TABLE: $crate::index::PairTable = $crate::index::PairTable::new($layout);
        &TABLE
    }};
}
pub(super) use pair_table;
