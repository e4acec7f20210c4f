//! <https://encoding.spec.whatwg.org/#indexes>
//!
//! Typed, safe lookups into the generated index tables. Each index exists twice, laid out
//! for its direction: decoding reads a flat pointer → code point array; encoding reads a
//! code point → pointer map in which the Standard's pointer rules (first pointer, *index
//! Shift_JIS pointer*, *index Big5 pointer*) are already applied by the generator (`cargo
//! xtask gen`) to a [`RankTable`].
//!
//! Two table layouts hold them, with one API, chosen by the `compact` feature below: the
//! default build's (`full.rs`) builds every table at compile time and links it; the
//! `compact` build's (`compact/`) links the decode indexes packed and builds every
//! other table, in the same layout, on the heap on first use. The lookups in this file
//! and the codecs' loops are the same in both.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

#[rustfmt::skip]
// Each layout reads part of it: the default one the rank tables and their block counts,
// the `compact` one neither (its tests compare with the rank tables).
#[allow(dead_code)]
mod generated {
    pub(crate) mod big5;
    pub(crate) mod euc_kr;
    pub(crate) mod gb18030;
    pub(crate) mod jis0208;
    pub(crate) mod jis0212;
    pub(crate) mod single_byte;
}

pub(crate) use generated::single_byte;

pub(crate) mod byte_map;
mod pairs;
pub(crate) use pairs::{
    big5_pairs, euc_kr_pairs, gb18030_pairs, jis0208_pairs, shift_jis_pairs, PairTable,
};

/// The table layout: `full.rs` by default, `compact/mod.rs` with the `compact` feature. Both
/// define [`SingleByteIndex`] (what the generated single-byte tables declare), the flat
/// decode indexes (`decode::*`), the CJK encode tables (`encode::*`), the single-byte
/// encode side, how a derived table is held (`Linked`, `Rows`) and how a pair table is
/// built (`pair_table!`).
#[cfg_attr(not(feature = "compact"), path = "full.rs")]
#[cfg_attr(feature = "compact", path = "compact/mod.rs")]
mod layout;
pub(crate) use layout::SingleByteIndex;

/// One *index single-byte* in both directions.
pub(crate) struct SingleByteTables {
    /// byte → code point: ASCII bytes to themselves, bytes ≥ 0x80 to *index code point*
    /// of byte − 0x80, 0 where the index has no entry.
    pub(crate) decode: [u16; 256],
    /// byte → its code point's UTF-8 bytes, packed (see [`byte_map::utf8_table`]).
    pub(crate) utf8: [u32; 256],
    /// Whether some byte is not in the index (see [`byte_map::ByteMap::has_errors`]).
    pub(crate) has_errors: bool,
    /// Where the non-ASCII bytes map by arithmetic (see [`byte_map::ByteMap::linear`]).
    pub(crate) linear: byte_map::LinearRange,
    /// code point → byte, as the layout keeps it.
    encode: layout::SingleByteEncode,
}

impl SingleByteTables {
    /// The tables of a decode table and its encode side: at compile time (default) or on
    /// first use (`compact`).
    const fn new(decode: [u16; 256], encode: layout::SingleByteEncode) -> SingleByteTables {
        SingleByteTables {
            decode,
            utf8: byte_map::utf8_table(&decode),
            has_errors: byte_map::has_error_bytes(&decode),
            linear: byte_map::linear_range(&decode),
            encode,
        }
    }

    /// The decode tables as the fast loops take them.
    pub(crate) fn byte_map(&self) -> byte_map::ByteMap<'_> {
        byte_map::ByteMap {
            units: &self.decode,
            utf8: &self.utf8,
            has_errors: self.has_errors,
            linear: self.linear,
        }
    }

    /// The *index code point* for `byte` − 0x80, or `None`. `byte` must be ≥ 0x80.
    #[inline(always)]
    pub(crate) fn code_point(&self, byte: u8) -> Option<u16> {
        // A `u8` indexes the 256 entries: `get` compiles to no check.
        match self.decode.get(usize::from(byte)) {
            Some(&0) | None => None,
            Some(&cp) => Some(cp),
        }
    }

    /// The byte for a non-ASCII code point (*index pointer* + 0x80), or `None`.
    #[inline(always)]
    pub(crate) fn byte_for(&self, code_point: u32) -> Option<u8> {
        self.encode.byte_for(code_point)
    }

    /// The two-byte UTF-8 characters of its busiest 64-code-point blocks → bytes (the
    /// AVX-512 and NEON encoders' table, derived from `decode`), or `None` where the
    /// layout links none (`compact`, whose encoders run the generic loop).
    #[inline(always)]
    pub(crate) fn hot_pairs(&self) -> Option<&byte_map::HotPairs> {
        self.encode.hot_pairs()
    }
}

/// `pages[page_of[cp >> 8]][cp & 0xFF]` (0 = none): a single-byte encode lookup.
#[inline(always)]
fn paged_byte(page_of: &[u8; 256], pages: &[[u8; 256]], code_point: u32) -> Option<u8> {
    if code_point > 0xFFFF {
        return None;
    }
    // `code_point >> 8` < 256 and `code_point & 0xFF` < 256, the tables' lengths.
    let page = *page_of.get((code_point >> 8) as usize)?;
    match pages
        .get(usize::from(page))
        .and_then(|p| p.get((code_point & 0xFF) as usize).copied())
    {
        Some(0) | None => None,
        Some(b) => Some(b),
    }
}

/// A code point → pointer map for rank lookups (generated): the code points in blocks of
/// 64, block `block_of[cp >> 6]` (0 = empty) holding the code points whose bits are set in
/// `present[block]`; their pointers are listed in code point order in `pointers`, the
/// block's first at `first[block]`. About two bytes per entry: the default layout expands
/// it into [`EncodeTable`] pages at compile time; the `compact` one reads it in its tests
/// only (the oracle of the tables it inverts from the decode indexes).
#[allow(dead_code)]
pub(crate) struct RankTable {
    pub(crate) block_of: &'static [u16],
    pub(crate) present: &'static [u64],
    pub(crate) first: &'static [u16],
    pub(crate) pointers: &'static [u16],
}

impl RankTable {
    /// The pointer the Standard picks for `code_point` in this table's index, or `None`:
    /// the code point's rank among its block's, past the block's first.
    // The tests' oracle for the encode tables both builds derive from it.
    #[cfg(test)]
    pub(crate) fn pointer(&self, code_point: u32) -> Option<u16> {
        let block = usize::from(*self.block_of.get((code_point >> 6) as usize)?);
        let bits = *self.present.get(block)?;
        let bit = 1u64 << (code_point & 63);
        if bits & bit == 0 {
            return None;
        }
        // `bits & (bit - 1)`: the block's code points below this one (`bit` is not 0).
        let rank = (bits & bit.wrapping_sub(1)).count_ones() as usize;
        let first = usize::from(*self.first.get(block)?);
        self.pointers.get(first.checked_add(rank)?).copied()
    }
}

/// A code point → pointer table: `pages[page_of[cp >> 6]][cp & 63]`, `u16::MAX` for none
/// (one more load than a rank lookup saves, for 128 bytes a block). The default layout
/// expands it at compile time from the generated rank tables, the `compact` one at run
/// time from the decode index.
pub(crate) struct EncodeTable {
    page_of: layout::Linked<[u16]>,
    pages: layout::Linked<[[u16; 64]]>,
}

impl EncodeTable {
    /// The pointer the Standard picks for `code_point` in this table's index, or `None`.
    #[inline(always)]
    pub(crate) fn pointer(&self, code_point: u32) -> Option<u16> {
        let page = *self.page_of.get((code_point >> 6) as usize)?;
        let pointer = *self
            .pages
            .get(usize::from(page))?
            .get((code_point & 63) as usize)?;
        if pointer == u16::MAX {
            None
        } else {
            Some(pointer)
        }
    }
}

use layout::{decode, encode};

#[inline(always)]
fn flat(table: &[u16], pointer: usize) -> Option<u16> {
    match table.get(pointer) {
        Some(0) | None => None,
        Some(&cp) => Some(cp),
    }
}

/// *index code point* in index jis0208.
#[inline(always)]
pub(crate) fn jis0208_code_point(pointer: usize) -> Option<u16> {
    flat(decode::jis0208(), pointer)
}

/// *index pointer* in index jis0208 (EUC-JP and ISO-2022-JP encoders).
#[inline(always)]
pub(crate) fn jis0208_pointer(code_point: u32) -> Option<u16> {
    encode::jis0208().pointer(code_point)
}

/// *index Shift_JIS pointer* (#index-shift_jis-pointer): index jis0208 without pointers
/// 8272 to 8835. That changes the answer only where the index pointer lies in that range
/// (the NEC-selected IBM extensions, all repeated later in the index), so the encode
/// table is shared with the EUC-JP and ISO-2022-JP encoders and those pointers are
/// looked up again in a 564-entry table instead.
#[inline(always)]
pub(crate) fn shift_jis_pointer(code_point: u32) -> Option<u16> {
    let pointer = encode::jis0208().pointer(code_point)?;
    match pointer.checked_sub(8272) {
        Some(k) if k <= 8835 - 8272 => {
            let again = *generated::jis0208::SHIFT_JIS_EXCLUDED.get(usize::from(k))?;
            (again != u16::MAX).then_some(again)
        }
        _ => Some(pointer),
    }
}

/// *index code point* in index jis0212 (EUC-JP decoder only).
#[inline(always)]
pub(crate) fn jis0212_code_point(pointer: usize) -> Option<u16> {
    flat(decode::jis0212(), pointer)
}

/// *index code point* in index ISO-2022-JP katakana for `code_point` − 0xFF61.
#[inline(always)]
pub(crate) fn iso_2022_jp_katakana(offset: usize) -> Option<u16> {
    flat(&generated::jis0208::ISO_2022_JP_KATAKANA, offset)
}

/// *index code point* in index EUC-KR.
#[inline(always)]
pub(crate) fn euc_kr_code_point(pointer: usize) -> Option<u16> {
    flat(decode::euc_kr(), pointer)
}

/// *index pointer* in index EUC-KR.
#[inline(always)]
pub(crate) fn euc_kr_pointer(code_point: u32) -> Option<u16> {
    encode::euc_kr().pointer(code_point)
}

/// *index code point* in index gb18030.
#[inline(always)]
pub(crate) fn gb18030_code_point(pointer: usize) -> Option<u16> {
    flat(decode::gb18030(), pointer)
}

/// *index pointer* in index gb18030.
#[inline(always)]
pub(crate) fn gb18030_pointer(code_point: u32) -> Option<u16> {
    encode::gb18030().pointer(code_point)
}

/// <https://encoding.spec.whatwg.org/#index-gb18030-ranges-code-point>
pub(crate) fn gb18030_ranges_code_point(pointer: u32) -> Option<u32> {
    // Step 1.
    if (pointer > 39419 && pointer < 189000) || pointer > 1237575 {
        return None;
    }
    // Step 2.
    if pointer == 7457 {
        return Some(0xE7C7);
    }
    // Step 3: the last range start ≤ pointer (the first range starts at pointer 0).
    let pointers = &generated::gb18030::GB18030_RANGES_POINTERS;
    let i = pointers.partition_point(|&p| p <= pointer).checked_sub(1)?;
    // Step 4.
    let offset = *pointers.get(i)?;
    let code_point_offset = *generated::gb18030::GB18030_RANGES_CODE_POINTS.get(i)?;
    // `offset <= pointer` (range start) and the result is at most U+FFFF or U+10FFFF.
    code_point_offset.checked_add(pointer.checked_sub(offset)?)
}

/// <https://encoding.spec.whatwg.org/#index-gb18030-ranges-pointer>
pub(crate) fn gb18030_ranges_pointer(code_point: u32) -> u32 {
    // Step 1.
    if code_point == 0xE7C7 {
        return 7457;
    }
    // Step 2: the last range start ≤ code point (the first starts at U+0080; callers pass
    // only non-ASCII code points).
    let code_points = &generated::gb18030::GB18030_RANGES_CODE_POINTS;
    let i = code_points
        .partition_point(|&c| c <= code_point)
        .saturating_sub(1);
    // Step 3.
    // `i` < the tables' (equal) lengths: `partition_point` ≤ len, minus one saturating.
    let (Some(&pointer_offset), Some(&start)) = (
        generated::gb18030::GB18030_RANGES_POINTERS.get(i),
        code_points.get(i),
    ) else {
        return 0;
    };
    // `start <= code_point` for the non-ASCII code points callers pass; the pointer is
    // below 1237576.
    pointer_offset.saturating_add(code_point.saturating_sub(start))
}

/// *index code point* in index Big5 (may be a plane-2 code point).
#[inline(always)]
pub(crate) fn big5_code_point(pointer: usize) -> Option<u32> {
    let low = *decode::big5().get(pointer)?;
    if low == 0 {
        return None;
    }
    // One bit per pointer of BIG5_DECODE_LOW, which `pointer` is within.
    let bits = generated::big5::BIG5_DECODE_ASTRAL
        .get(pointer / 32)
        .copied()
        .unwrap_or(0);
    let astral = bits >> (pointer % 32) & 1;
    Some(u32::from(low) | (astral << 17))
}

/// *index Big5 pointer* (#index-big5-pointer).
#[inline(always)]
pub(crate) fn big5_pointer(code_point: u32) -> Option<u16> {
    encode::big5().pointer(code_point)
}

/// Every pointer of a decode table with its code point, for the exhaustive tests.
#[cfg(test)]
pub(crate) mod all {
    pub(crate) fn jis0208() -> impl Iterator<Item = (usize, u16)> {
        super::generated::jis0208::JIS0208_DECODE
            .iter()
            .enumerate()
            .filter(|e| *e.1 != 0)
            .map(|(p, &c)| (p, c))
    }
    pub(crate) fn jis0212() -> impl Iterator<Item = (usize, u16)> {
        super::generated::jis0212::JIS0212_DECODE
            .iter()
            .enumerate()
            .filter(|e| *e.1 != 0)
            .map(|(p, &c)| (p, c))
    }
    pub(crate) fn euc_kr() -> impl Iterator<Item = (usize, u16)> {
        super::generated::euc_kr::EUC_KR_DECODE
            .iter()
            .enumerate()
            .filter(|e| *e.1 != 0)
            .map(|(p, &c)| (p, c))
    }
    pub(crate) fn gb18030() -> impl Iterator<Item = (usize, u16)> {
        super::generated::gb18030::GB18030_DECODE
            .iter()
            .enumerate()
            .filter(|e| *e.1 != 0)
            .map(|(p, &c)| (p, c))
    }
    pub(crate) fn big5() -> impl Iterator<Item = (usize, u32)> {
        (0..super::generated::big5::BIG5_DECODE_LOW.len())
            .filter_map(|p| super::big5_code_point(p).map(|c| (p, c)))
    }
    pub(crate) fn gb18030_ranges() -> impl Iterator<Item = (u32, u32)> {
        super::generated::gb18030::GB18030_RANGES_POINTERS
            .iter()
            .copied()
            .zip(
                super::generated::gb18030::GB18030_RANGES_CODE_POINTS
                    .iter()
                    .copied(),
            )
    }
    pub(crate) fn iso_2022_jp_katakana() -> impl Iterator<Item = (usize, u16)> {
        super::generated::jis0208::ISO_2022_JP_KATAKANA
            .iter()
            .copied()
            .enumerate()
    }
}

#[cfg(test)]
// Test code: an out-of-range index would panic and fail the test.
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
mod pair_table_tests {
    use super::*;

    /// Every code point the indexes can hold: the encode tables (expanded from the rank
    /// tables by default, inverted from the decode indexes by `compact`) give the rank
    /// tables' pointer, the generator's application of the Standard's pointer rules, and
    /// nothing where they have none.
    #[test]
    fn encode_tables_match_the_rank_tables_for_every_code_point() {
        let tables = [
            (
                "jis0208",
                encode::jis0208(),
                &generated::jis0208::JIS0208_ENCODE,
            ),
            (
                "EUC-KR",
                encode::euc_kr(),
                &generated::euc_kr::EUC_KR_ENCODE,
            ),
            (
                "gb18030",
                encode::gb18030(),
                &generated::gb18030::GB18030_ENCODE,
            ),
            ("Big5", encode::big5(), &generated::big5::BIG5_ENCODE),
        ];
        for (name, table, rank) in tables {
            for cp in 0..0x30000u32 {
                assert_eq!(table.pointer(cp), rank.pointer(cp), "{name} U+{cp:04X}");
            }
        }
    }

    /// Every single-byte table against its generated decode table: the same code point for
    /// every byte and, for every code point, the first byte that has it.
    #[test]
    fn single_byte_tables_match_their_indexes() {
        for &encoding in crate::Encoding::all() {
            let (Some(index), Some(tables)) =
                (encoding.single_byte_index(), encoding.single_byte_tables())
            else {
                continue;
            };
            for b in 0..=255u8 {
                let want = if b < 0x80 {
                    u16::from(b)
                } else {
                    index.upper_code_point(usize::from(b - 0x80))
                };
                assert_eq!(tables.decode[usize::from(b)], want, "{encoding:?} {b:X}");
            }
            for cp in 0x80..0x10000u32 {
                let first =
                    (0x80..=0xFFu8).find(|&b| u32::from(tables.decode[usize::from(b)]) == cp);
                assert_eq!(tables.byte_for(cp), first, "{encoding:?} U+{cp:04X}");
            }
        }
    }

    /// Every (lead, trail) of the five pair tables against the Standard's pointer
    /// arithmetic, written out again here as the oracle.
    #[test]
    fn pair_tables_match_the_standards_pointers_for_every_byte_pair() {
        for lead in 0..=255u8 {
            for trail in 0..=255u8 {
                let (l, t) = (usize::from(lead), usize::from(trail));
                let gb = match (lead, trail) {
                    (0x81..=0xFE, 0x40..=0x7E | 0x80..=0xFE) => {
                        let off = if trail < 0x7F { 0x40 } else { 0x41 };
                        gb18030_code_point((l - 0x81) * 190 + t - off)
                    }
                    _ => None,
                };
                assert_eq!(
                    gb18030_pairs().get(lead, trail),
                    gb.unwrap_or(0),
                    "gb18030 {lead:X} {trail:X}"
                );

                let kr = match (lead, trail) {
                    (0x81..=0xFE, 0x41..=0xFE) => euc_kr_code_point((l - 0x81) * 190 + t - 0x41),
                    _ => None,
                };
                assert_eq!(
                    euc_kr_pairs().get(lead, trail),
                    kr.unwrap_or(0),
                    "EUC-KR {lead:X} {trail:X}"
                );

                let big5 = match (lead, trail) {
                    (0x81..=0xFE, 0x40..=0x7E | 0xA1..=0xFE) => {
                        let off = if trail < 0x7F { 0x40 } else { 0x62 };
                        big5_code_point((l - 0x81) * 157 + t - off)
                            .and_then(|c| u16::try_from(c).ok())
                    }
                    _ => None,
                };
                assert_eq!(
                    big5_pairs().get(lead, trail),
                    big5.unwrap_or(0),
                    "Big5 {lead:X} {trail:X}"
                );

                let jis = match (lead, trail) {
                    (0xA1..=0xFE, 0xA1..=0xFE) => jis0208_code_point((l - 0xA1) * 94 + t - 0xA1),
                    _ => None,
                };
                assert_eq!(
                    jis0208_pairs().get(lead, trail),
                    jis.unwrap_or(0),
                    "EUC-JP {lead:X} {trail:X}"
                );

                let sjis = match (lead, trail) {
                    (0x81..=0x9F | 0xE0..=0xFC, 0x40..=0x7E | 0x80..=0xFC) => {
                        let lead_off = if lead < 0xA0 { 0x81 } else { 0xC1 };
                        let off = if trail < 0x7F { 0x40 } else { 0x41 };
                        let p = (l - lead_off) * 188 + t - off;
                        if (8836..=10715).contains(&p) {
                            Some((0xE000 - 8836 + p) as u16)
                        } else {
                            jis0208_code_point(p)
                        }
                    }
                    _ => None,
                };
                assert_eq!(
                    shift_jis_pairs().get(lead, trail),
                    sjis.unwrap_or(0),
                    "Shift_JIS {lead:X} {trail:X}"
                );
            }
        }
    }

    /// The lead maps mark exactly the bytes with a pair, and only bytes the Standard's
    /// decoder treats as a lead wherever a character starts (the vector kernel relies on
    /// both).
    #[test]
    fn lead_maps_mark_standard_leads_with_pairs() {
        type StandardLead = fn(u8) -> bool;
        let tables: [(&str, &PairTable, StandardLead); 5] = [
            ("gb18030", gb18030_pairs(), |b| (0x81..=0xFE).contains(&b)),
            ("EUC-KR", euc_kr_pairs(), |b| (0x81..=0xFE).contains(&b)),
            ("Big5", big5_pairs(), |b| (0x81..=0xFE).contains(&b)),
            ("EUC-JP", jis0208_pairs(), |b| (0xA1..=0xFE).contains(&b)),
            (
                "Shift_JIS",
                shift_jis_pairs(),
                |b| matches!(b, 0x81..=0x9F | 0xE0..=0xFC),
            ),
        ];
        for (name, table, standard_lead) in tables {
            let mut leads = 0;
            for lead in 0x80..=0xFFu8 {
                let has_pair = (0..=255u8).any(|t| table.get(lead, t) != 0);
                let marked = table.lead_map()[usize::from(lead - 0x80)];
                assert_eq!(marked, if has_pair { 0xFF } else { 0 }, "{name} {lead:X}");
                assert!(!has_pair || standard_lead(lead), "{name} {lead:X}");
                leads += usize::from(has_pair);
            }
            assert!(leads >= 50, "{name}: {leads}");
        }
    }
}
