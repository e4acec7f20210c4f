//! The `compact` build's table layout (#indexes), with the same API as the default
//! layout (`full.rs`; see `index/mod.rs`): the CJK decode indexes are linked *packed*
//! (about half their size, see [`pack_into`]) and the single-byte indexes as their upper
//! halves only; everything else the default build links — the flat decode indexes, the
//! pair tables, the encode pages, the single-byte UTF-8 and encode tables — is built from
//! them on the heap by the first decoder or encoder of the encoding that needs it
//! ([`Once`]) and kept for the program's life, in the default build's layouts, so that the
//! compact build runs the same loops at the same speed. It links no hot-pair tables: its
//! single-byte encoders run the generic loop at every level.
//!
//! Both builds derive their tables from the same generated files: the default build at
//! compile time, this one by packing at compile time (the generated flat arrays are read by
//! `const` evaluation only, so they are not linked) and expanding at run time. The tests
//! compare every expanded table with the generated one it stands for.
//!
//! What the first use costs, on the heap: a CJK decoder its flat index (14–48 KB) and pair
//! table (64 KiB, Shift_JIS and EUC-JP one each over jis0208), a CJK encoder its encode
//! pages (48–84 KB), a single-byte encoding under 4 KB.

use super::pairs::PairLayout;
use super::{EncodeTable, PairTable, SingleByteTables};
use crate::simd::byte_map::HotPairs;
use crate::simd::once::{boxed_array, Once};
use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

/// How a table derived from the indexes is held: on the heap, built on first use.
pub(super) type Linked<T> = Box<T>;

/// A pair table's rows, on the heap.
pub(super) type Rows = Box<[[u16; 256]; 128]>;

/// One *index single-byte*: its upper half, and the tables built from it on first use.
pub(crate) struct SingleByteIndex {
    /// The code points of bytes 0x80–0xFF (0 = none).
    upper: [u16; 128],
    tables: Once<SingleByteTables>,
}

impl SingleByteIndex {
    /// The index as the generated tables declare it: only `decode`'s upper half is kept
    /// (the encode pages are inverted from it on first use).
    // Bounds: `k < 128`, `0x80 + k < 256`.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    pub(crate) const fn new(
        decode: [u16; 256],
        _page_of: [u8; 256],
        _pages: &'static [[u8; 256]],
    ) -> SingleByteIndex {
        let mut upper = [0u16; 128];
        let mut k = 0;
        while k < 128 {
            upper[k] = decode[0x80 + k];
            k += 1;
        }
        SingleByteIndex {
            upper,
            tables: Once::new(),
        }
    }

    /// The code point of byte `0x80 + k` (0 = none; `k < 128`, else 0), at compile time
    /// too (the detector's models are built from it).
    // Bounds: checked.
    #[allow(clippy::indexing_slicing)]
    pub(crate) const fn upper_code_point(&self, k: usize) -> u16 {
        if k >= 128 {
            return 0;
        }
        self.upper[k]
    }

    /// Its decode and encode tables, built on first use.
    #[inline(always)]
    pub(crate) fn tables(&'static self) -> &'static SingleByteTables {
        self.tables.get_or_init(|| single_byte_tables(&self.upper))
    }
}

/// The single-byte tables of an index from its upper half (bytes 0x80–0xFF).
fn single_byte_tables(upper: &[u16; 128]) -> Box<SingleByteTables> {
    let mut decode = [0u16; 256];
    for (b, entry) in decode.iter_mut().enumerate() {
        // ASCII bytes decode to themselves.
        *entry = u16::try_from(b).unwrap_or(0);
    }
    if let Some(high) = decode.get_mut(0x80..) {
        high.copy_from_slice(upper);
    }
    let encode = SingleByteEncode::inverted(&decode);
    Box::new(SingleByteTables::new(decode, encode))
}

/// The encode side of a single-byte index: code point → byte pages, built on the heap.
pub(crate) struct SingleByteEncode {
    /// code point >> 8 → page number in `pages` (page 0 is empty).
    page_of: [u8; 256],
    /// code point & 0xFF → byte (0 = not encodable).
    pages: Box<[[u8; 256]]>,
}

impl SingleByteEncode {
    /// The pages of a decode table: each code point maps to its first byte (*index
    /// pointer*).
    // Bounds: `cp >> 8 < 256` for a `u16`; page numbers index `pages`, one page per
    // number handed out (at most 128 + 1: one per byte).
    #[allow(
        clippy::indexing_slicing,
        clippy::arithmetic_side_effects,
        clippy::cast_possible_truncation
    )]
    fn inverted(decode: &[u16; 256]) -> SingleByteEncode {
        let mut page_of = [0u8; 256];
        let mut pages = vec![[0u8; 256]];
        for (b, &cp) in decode.iter().enumerate().skip(0x80) {
            if cp == 0 {
                continue;
            }
            let page = usize::from(cp >> 8);
            if page_of[page] == 0 {
                page_of[page] = pages.len() as u8;
                pages.push([0; 256]);
            }
            let slot = &mut pages[usize::from(page_of[page])][usize::from(cp & 0xFF)];
            if *slot == 0 {
                *slot = b as u8;
            }
        }
        SingleByteEncode {
            page_of,
            pages: pages.into_boxed_slice(),
        }
    }

    #[inline(always)]
    pub(super) fn byte_for(&self, code_point: u32) -> Option<u8> {
        super::paged_byte(&self.page_of, &self.pages, code_point)
    }

    /// None: the compact build links no hot-pair tables.
    #[inline(always)]
    pub(super) fn hot_pairs(&self) -> Option<&HotPairs> {
        None
    }
}

/// The flat decode indexes (pointer → code point, 0 = none; Big5's low 16 bits): packed at
/// compile time from the generated arrays, which are not linked, and expanded on first use.
pub(super) mod decode {
    use super::super::generated::{big5, euc_kr, gb18030, jis0208, jis0212};
    use super::{pack, pack_into, PackedIndex};

    macro_rules! flat {
        ($($name:ident = $module:ident :: $table:ident;)*) => {$(
            #[inline(always)]
            pub(crate) fn $name() -> &'static [u16; $module::$table.len()] {
                const LEN: usize = pack_into(&$module::$table, &mut []);
                static PACKED: [u8; LEN] = pack::<LEN>(&$module::$table);
                static INDEX: PackedIndex<{ $module::$table.len() }> = PackedIndex::new(&PACKED);
                INDEX.get()
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

/// The encode tables, inverted on first use from the decode indexes with the Standard's
/// pointer rules.
pub(super) mod encode {
    use super::super::generated::big5::BIG5_DECODE_ASTRAL;
    use super::{decode, invert, EncodeTable, Once};

    /// The first pointer of each code point (*index pointer*) …
    macro_rules! tables {
        ($($name:ident = $decode:ident;)*) => {$(
            #[inline(always)]
            pub(crate) fn $name() -> &'static EncodeTable {
                static TABLE: Once<EncodeTable> = Once::new();
                // Built out of line: every caller inlines only the check.
                #[cold]
                #[inline(never)]
                fn build() -> alloc::boxed::Box<EncodeTable> {
                    invert(decode::$decode(), &[], 0, &[])
                }
                TABLE.get_or_init(build)
            }
        )*};
    }
    tables! {
        jis0208 = jis0208;
        euc_kr = euc_kr;
        gb18030 = gb18030;
    }

    /// … and *index Big5 pointer*: pointers from (0xA1 − 0x81) × 157 on, the last one for
    /// six code points.
    pub(crate) fn big5() -> &'static EncodeTable {
        static TABLE: Once<EncodeTable> = Once::new();
        #[cold]
        #[inline(never)]
        fn build() -> alloc::boxed::Box<EncodeTable> {
            invert(
                decode::big5(),
                &BIG5_DECODE_ASTRAL,
                (0xA1 - 0x81) * 157,
                &[0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345],
            )
        }
        TABLE.get_or_init(build)
    }
}

impl PairTable {
    /// The table of a layout, built on the heap at run time (one copy for the five
    /// tables).
    #[inline(never)]
    pub(super) fn boxed(layout: &PairLayout) -> Box<Self> {
        let mut rows = boxed_array::<[u16; 256], 128>([0; 256]);
        let mut lead_map = [0u8; 128];
        for ((lead, row), marked) in (0x80..=0xFF).zip(rows.iter_mut()).zip(&mut lead_map) {
            for (trail, pair) in (0..=0xFF).zip(row.iter_mut()) {
                *pair = layout.get(lead, trail);
                if *pair != 0 {
                    *marked = 0xFF;
                }
            }
        }
        Box::new(PairTable { rows, lead_map })
    }
}

/// `fn() -> &'static PairTable` body for a [`PairLayout`] expression: built on first use
/// (from the expanded decode index).
macro_rules! pair_table {
    ($layout:expr) => {{
        static TABLE: $crate::simd::once::Once<$crate::index::PairTable> =
            $crate::simd::once::Once::new();
        // Built out of line: every caller inlines only the check.
        #[cold]
        #[inline(never)]
        fn build() -> alloc::boxed::Box<$crate::index::PairTable> {
            $crate::index::PairTable::boxed(&$layout)
        }
        TABLE.get_or_init(build)
    }};
}
pub(super) use pair_table;

/// Packed-index tokens (one byte, then the operand bytes the kind takes), each giving the
/// next entries from the previous code point `prev` (0 at the start): CJK indexes are
/// mostly runs of consecutive code points (gb18030 and EUC-KR), close ones, or jumps within
/// the CJK Unified Ideographs (Big5 and jis0208 order them by radical or reading).
const RUN: u8 = 0x00; // 0x00..=0x1F: `t + 1` entries prev + 1, prev + 2, …
const GAP: u8 = 0x20; // 0x20..=0x3F: `t - 0x20 + 1` entries without a code point (0)
const NEAR: u8 = 0x40; // 0x40..=0x7F: one entry, prev + (t - 0x60): −32..=31
const HAN: u8 = 0x80; // 0x80..=0xD1 + 1 byte: U+4E00 + ((t - 0x80) << 8 | byte), to U+9FFF
const FAR: u8 = 0xD2; // 0xD2..=0xFE + 1 byte: prev + ((t - 0xD2) << 8 | byte) − FAR_BIAS
const ABSOLUTE: u8 = 0xFF; // 0xFF + 2 bytes: the code point, big-endian
const MAX_COUNT: usize = 32;
const NEAR_BIAS: i32 = 32;
const HAN_FIRST: i32 = 0x4E00;
const HAN_END: i32 = HAN_FIRST + ((FAR - HAN) as i32) * 256;
const FAR_BIAS: i32 = ((ABSOLUTE - FAR) as i32) * 128;

/// Packs `index` into `out` (nothing is written past `out`'s end) and returns the packed
/// length: with an empty `out` it only measures. `const`, so that the generated indexes are
/// packed at compile time.
// Bounds: every write is checked against `out.len()`; `i < index.len()`; the
// differences are between two `u16`s, and each token's range is checked before its
// operand is cast.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]
pub(crate) const fn pack_into(index: &[u16], out: &mut [u8]) -> usize {
    let mut len = 0;
    let mut prev: i32 = 0;
    let mut i = 0;
    while i < index.len() {
        let code_point = index[i] as i32;
        let mut bytes = [0u8; 3];
        let mut n = 1;
        if code_point == 0 || code_point == prev + 1 {
            // A run: of gaps, or of consecutive code points.
            let gap = code_point == 0;
            let mut count = 0;
            while count < MAX_COUNT
                && i < index.len()
                && if gap {
                    index[i] == 0
                } else {
                    index[i] as i32 == prev + 1
                }
            {
                if !gap {
                    prev += 1;
                }
                count += 1;
                i += 1;
            }
            bytes[0] = if gap { GAP } else { RUN } + (count - 1) as u8;
        } else {
            let delta = code_point - prev;
            if delta >= -NEAR_BIAS && delta < NEAR_BIAS {
                bytes[0] = NEAR + (delta + NEAR_BIAS) as u8;
            } else if delta >= -FAR_BIAS && delta < FAR_BIAS {
                let biased = (delta + FAR_BIAS) as u32;
                bytes = [FAR + (biased >> 8) as u8, biased as u8, 0];
                n = 2;
            } else if code_point >= HAN_FIRST && code_point < HAN_END {
                let offset = (code_point - HAN_FIRST) as u32;
                bytes = [HAN + (offset >> 8) as u8, offset as u8, 0];
                n = 2;
            } else {
                bytes = [ABSOLUTE, (code_point >> 8) as u8, code_point as u8];
                n = 3;
            }
            prev = code_point;
            i += 1;
        }
        let mut k = 0;
        while k < n {
            if len + k < out.len() {
                out[len + k] = bytes[k];
            }
            k += 1;
        }
        len += n;
    }
    len
}

/// `index` packed into exactly `L` bytes (`L` = [`pack_into`]'s measure).
pub(crate) const fn pack<const L: usize>(index: &[u16]) -> [u8; L] {
    let mut out = [0u8; L];
    let len = pack_into(index, &mut out);
    assert!(
        len == L,
        "the packed length changed between measuring and packing"
    );
    out
}

/// The entries a packed index holds, the first `out.len()` of them written to `out` (the
/// inverse of [`pack_into`]; a truncated stream leaves the rest 0).
fn unpack_into(packed: &[u8], out: &mut [u16]) {
    let mut entries = out.iter_mut();
    let mut emit = |code_point: u16| entries.next().map(|entry| *entry = code_point);
    let mut bytes = packed.iter().copied();
    let mut prev: u16 = 0;
    while let Some(token) = bytes.next() {
        match token {
            RUN..GAP => {
                for _ in RUN..=token {
                    prev = prev.wrapping_add(1);
                    emit(prev);
                }
                continue;
            }
            GAP..NEAR => {
                for _ in GAP..=token {
                    emit(0);
                }
                continue;
            }
            NEAR..HAN => {
                let biased = u16::from(token.wrapping_sub(NEAR));
                // The difference wraps back into the code point (the biases fit `u16`).
                prev = prev.wrapping_add(biased).wrapping_sub(NEAR_BIAS as u16);
            }
            HAN..FAR => {
                let offset = u16::from(token.wrapping_sub(HAN)) << 8;
                let offset = offset | u16::from(bytes.next().unwrap_or(0));
                prev = offset.wrapping_add(HAN_FIRST as u16);
            }
            ABSOLUTE => {
                let high = bytes.next().unwrap_or(0);
                prev = u16::from_be_bytes([high, bytes.next().unwrap_or(0)]);
            }
            // FAR..=0xFE
            _ => {
                let biased =
                    u16::from(token.wrapping_sub(FAR)) << 8 | u16::from(bytes.next().unwrap_or(0));
                prev = prev.wrapping_add(biased).wrapping_sub(FAR_BIAS as u16);
            }
        }
        emit(prev);
    }
}

/// A decode index linked packed and expanded to its flat array on first use.
pub(crate) struct PackedIndex<const N: usize> {
    packed: &'static [u8],
    flat: Once<[u16; N]>,
}

impl<const N: usize> PackedIndex<N> {
    pub(crate) const fn new(packed: &'static [u8]) -> Self {
        PackedIndex {
            packed,
            flat: Once::new(),
        }
    }

    /// The flat index: pointer → code point (its low 16 bits for Big5), 0 = none.
    #[inline(always)]
    pub(crate) fn get(&'static self) -> &'static [u16; N] {
        self.flat.get_or_init(|| {
            let mut flat = boxed_array::<u16, N>(0);
            unpack_into(self.packed, &mut flat[..]);
            flat
        })
    }
}

/// The encode table of a decode index: for each code point the pointer the Standard picks,
/// the first (*index pointer*) or, for `last` code points, the last (*index Big5
/// pointer*), among pointers from `from` on. `decode[p]` is the code point of pointer `p`
/// (0 for none), plus 0x20000 where bit `p` of `astral` is set (Big5's plane 2). One copy
/// for the four tables (a first use is no hot path).
// Bounds: a code point below 0x30000 has its block below 0xC00 and `cp & 63 < 64`;
// `page_of` grows to cover each block before it is indexed, and page numbers index
// `pages`, which holds one page per number handed out (fewer than 65536: one per block).
#[inline(never)]
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]
fn invert(decode: &[u16], astral: &[u32], from: usize, last: &[u32]) -> Box<EncodeTable> {
    let mut page_of: Vec<u16> = Vec::new();
    // Page 0 is the empty page of blocks without code points.
    let mut pages: Vec<[u16; 64]> = vec![[u16::MAX; 64]];
    for (pointer, &low) in decode.iter().enumerate().skip(from) {
        if low == 0 {
            continue;
        }
        let plane_2 = astral
            .get(pointer / 32)
            .map_or(0, |bits| bits >> (pointer % 32) & 1);
        let cp = u32::from(low) | plane_2 << 17;
        let block = (cp >> 6) as usize;
        if block >= page_of.len() {
            page_of.resize(block + 1, 0);
        }
        if page_of[block] == 0 {
            page_of[block] = pages.len() as u16;
            pages.push([u16::MAX; 64]);
        }
        let slot = &mut pages[usize::from(page_of[block])][(cp & 63) as usize];
        if *slot == u16::MAX || last.contains(&cp) {
            *slot = pointer as u16;
        }
    }
    Box::new(EncodeTable {
        page_of: page_of.into_boxed_slice(),
        pages: pages.into_boxed_slice(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every flat index expands from its packed form to the generated array; packed, the
    /// five take at most 55 % of their flat size (the point of packing them).
    #[test]
    fn packed_indexes_expand_to_the_generated_ones() {
        use super::super::generated::*;
        assert_eq!(decode::gb18030(), &gb18030::GB18030_DECODE);
        assert_eq!(decode::euc_kr(), &euc_kr::EUC_KR_DECODE);
        assert_eq!(decode::big5(), &big5::BIG5_DECODE_LOW);
        assert_eq!(decode::jis0208(), &jis0208::JIS0208_DECODE);
        assert_eq!(decode::jis0212(), &jis0212::JIS0212_DECODE);
        let flat: [&[u16]; 5] = [
            &gb18030::GB18030_DECODE,
            &euc_kr::EUC_KR_DECODE,
            &big5::BIG5_DECODE_LOW,
            &jis0208::JIS0208_DECODE,
            &jis0212::JIS0212_DECODE,
        ];
        let sizes = flat.map(|index| [pack_into(index, &mut []), index.len() * 2]);
        assert!(
            sizes.iter().all(|[packed, flat]| packed < flat),
            "{sizes:?}"
        );
        let (packed, flat) = sizes.iter().fold((0, 0), |(p, f), [a, b]| (p + a, f + b));
        assert!(packed * 100 <= flat * 55, "{sizes:?}");
    }

    /// Every token kind round-trips, at the edges of its range and past them.
    #[test]
    fn packing_round_trips_every_token_kind() {
        let mut index = vec![0u16, 0, 5, 6, 7, 8];
        index.extend(1000..1200); // runs longer than one token
        index.extend([0; 150]); // gaps longer than one token
        for delta in [
            -33i32, -32, 31, 32, -5760, 5759, -5761, 5760, 0, 0x3000, -0x5000,
        ] {
            let prev = i32::from(*index.iter().rev().find(|&&c| c != 0).unwrap_or(&0));
            index.push(u16::try_from((prev + delta).clamp(1, 0xFFFF)).unwrap_or(1));
        }
        index.extend([
            0xFFFF, 0x0001, 0x4E00, 0xE000, 0x9FFF, 0x4E00, 0xA000, 0x4DFF, 0xFFFE, 0,
        ]);
        let mut packed = vec![0u8; pack_into(&index, &mut [])];
        let len = pack_into(&index, &mut packed);
        assert_eq!(len, packed.len());
        let mut back = vec![0u16; index.len()];
        unpack_into(&packed, &mut back);
        assert_eq!(back, index);
    }
}
