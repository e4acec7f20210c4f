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

use super::byte_map::HotPairs;
use super::pairs::PairLayout;
use super::{EncodeTable, PairTable, SingleByteTables};
use crate::once::{boxed_array, Once};
use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

mod packing;
use packing::*;

/// How a table derived from the indexes is held: on the heap, built on first use.
pub(super) type Linked<T> = Box<T>;

/// A pair table's rows, on the heap.
pub(super) type Rows = Box<[[u16; 256]; 128]>;

/// One *index single-byte*: its upper half, and the tables built from it on first use.
/// The upper half is kept in 208 bytes instead of 256: each code point's low byte, and
/// a 4-bit number per byte naming its high byte in a list of at most 16 (an index uses 3
/// to 10 blocks of 256 code points; none is U+0000, in block 0).
pub(crate) struct SingleByteIndex {
    /// The low bytes of the code points of bytes 0x80–0xFF.
    low: [u8; 128],
    /// Two 4-bit numbers a byte (byte `0x80 + k` in byte `k / 2`, the low nibble first):
    /// where the code point's high byte is in `high`.
    which: [u8; 64],
    /// The high bytes the index uses (block 0 first).
    high: [u8; 16],
    tables: Once<SingleByteTables>,
}

impl SingleByteIndex {
    /// The index as the generated tables declare it: only `decode`'s upper half is kept
    /// (the encode pages are inverted from it on first use).
    // Bounds: `k < 128`, `0x80 + k < 256`, `k / 2 < 64`, `n < 16` (checked: a failed
    // check stops the build).
    #[allow(
        clippy::indexing_slicing,
        clippy::arithmetic_side_effects,
        clippy::cast_possible_truncation
    )]
    pub(crate) const fn new(
        decode: [u16; 256],
        _page_of: [u8; 256],
        _pages: &'static [[u8; 256]],
    ) -> SingleByteIndex {
        let (mut low, mut which, mut high) = ([0u8; 128], [0u8; 64], [0u8; 16]);
        let mut used = 1;
        let mut k = 0;
        while k < 128 {
            let cp = decode[0x80 + k];
            let mut n = 0;
            while n < used && high[n] != (cp >> 8) as u8 {
                n += 1;
            }
            if n == used {
                assert!(used < 16, "a single-byte index uses more than 16 blocks");
                high[n] = (cp >> 8) as u8;
                used += 1;
            }
            low[k] = cp as u8;
            which[k / 2] |= (n as u8) << (k % 2 * 4);
            k += 1;
        }
        SingleByteIndex {
            low,
            which,
            high,
            tables: Once::new(),
        }
    }

    /// The code point of byte `0x80 + k` (0 = none; `k < 128`, else 0), at compile time
    /// too (the detector's models are built from it).
    // Bounds: checked; `k / 2 < 64`, a 4-bit number indexes the 16 high bytes.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    pub(crate) const fn upper_code_point(&self, k: usize) -> u16 {
        if k >= 128 {
            return 0;
        }
        let n = (self.which[k / 2] >> (k % 2 * 4)) & 0xF;
        (self.high[n as usize] as u16) << 8 | self.low[k] as u16
    }

    /// Its decode and encode tables, built on first use.
    #[inline(always)]
    pub(crate) fn tables(&'static self) -> &'static SingleByteTables {
        self.tables.get_or_init(|| single_byte_tables(self))
    }
}

/// The single-byte tables of an index from its upper half (bytes 0x80–0xFF).
fn single_byte_tables(index: &SingleByteIndex) -> Box<SingleByteTables> {
    let mut decode = [0u16; 256];
    for (b, entry) in decode.iter_mut().enumerate() {
        // ASCII bytes decode to themselves, the others as the index says.
        *entry = u16::try_from(b).map_or(0, |b| match b.checked_sub(0x80) {
            Some(k) => index.upper_code_point(usize::from(k)),
            None => b,
        });
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
    use super::{canonical, code_lengths, heads, huffman, huffman_into, pack, pack_into};
    use super::{Coded, PackedIndex};

    macro_rules! flat {
        ($($name:ident = $module:ident :: $table:ident;)*) => {$(
            #[inline(always)]
            pub(crate) fn $name() -> &'static [u16; $module::$table.len()] {
                // Packed, then its token heads Huffman-coded, all at compile time: only
                // the coded stream and its code are linked.
                const LEN: usize = pack_into(&$module::$table, &mut []);
                const PACKED: [u8; LEN] = pack::<LEN>(&$module::$table);
                const LENGTHS: [u8; 256] = code_lengths(&PACKED);
                const BYTES: usize = huffman_into(&PACKED, &LENGTHS, &mut []);
                const USED: usize = canonical(&LENGTHS).2;
                static STREAM: [u8; BYTES] = huffman::<BYTES>(&PACKED, &LENGTHS);
                static HEADS: [u8; USED] = heads::<USED>(&LENGTHS);
                static CODED: Coded = Coded {
                    stream: &STREAM,
                    counts: canonical(&LENGTHS).0,
                    heads: &HEADS,
                };
                static INDEX: PackedIndex<{ $module::$table.len() }> = PackedIndex::new(&CODED);
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
        // WebAssembly: a run of trails copied at once (`fill_row`); a loop over every byte
        // pair ran long enough for V8 to compile it again with its optimising compiler,
        // which competed with the first decode for the CPU. Elsewhere the pair at a time,
        // 1.6 KB less code (the footprint budget, .ci/extra.d/size.sh).
        #[cfg(target_arch = "wasm32")]
        let runs = layout.trail_runs();
        for ((lead, row), marked) in (0x80..=0xFF).zip(rows.iter_mut()).zip(&mut lead_map) {
            #[cfg(target_arch = "wasm32")]
            if layout.fill_row(lead, &runs, row) {
                *marked = 0xFF;
            }
            #[cfg(not(target_arch = "wasm32"))]
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
        static TABLE: $crate::once::Once<$crate::index::PairTable> = $crate::once::Once::new();
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

/// A decode index linked coded and expanded to its flat array on first use.
pub(crate) struct PackedIndex<const N: usize> {
    coded: &'static Coded,
    flat: Once<[u16; N]>,
}

impl<const N: usize> PackedIndex<N> {
    pub(crate) const fn new(coded: &'static Coded) -> Self {
        PackedIndex {
            coded,
            flat: Once::new(),
        }
    }

    /// The flat index: pointer → code point (its low 16 bits for Big5), 0 = none.
    #[inline(always)]
    pub(crate) fn get(&'static self) -> &'static [u16; N] {
        self.flat.get_or_init(|| {
            let mut flat = boxed_array::<u16, N>(0);
            unpack_into(self.coded, &mut flat[..]);
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
// Test code: an out-of-range index would panic and fail the test.
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;

    /// `index` packed and coded as the decode indexes are at compile time, here at run time
    /// (leaked: the decoder reads `'static` tables).
    fn coded(index: &[u16]) -> &'static Coded {
        let mut packed = vec![0u8; pack_into(index, &mut [])];
        assert_eq!(pack_into(index, &mut packed), packed.len());
        let lengths = code_lengths(&packed);
        let mut stream = vec![0u8; huffman_into(&packed, &lengths, &mut [])];
        assert_eq!(huffman_into(&packed, &lengths, &mut stream), stream.len());
        let (counts, heads, used) = canonical(&lengths);
        Box::leak(Box::new(Coded {
            stream: stream.leak(),
            counts,
            heads: heads[..used].to_vec().leak(),
        }))
    }

    /// Every flat index expands from its coded form to the generated array; coded, the
    /// five take at most 40 % of their flat size (the point of packing them).
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
        let sizes = flat.map(|index| {
            let coded = coded(index);
            [coded.stream.len() + coded.heads.len() + 50, index.len() * 2]
        });
        let (coded, flat) = sizes.iter().fold((0, 0), |(p, f), [a, b]| (p + a, f + b));
        assert!(coded * 100 <= flat * 40, "{sizes:?}");
    }

    /// Every token kind round-trips, at the edges of its range and past them.
    #[test]
    fn packing_round_trips_every_token_kind() {
        let mut index = vec![0u16, 0, 5, 6, 7, 8];
        index.extend(1000..1200); // runs longer than one token
        index.extend([0; 150]); // gaps longer than one token
                                // Rising code points with small gaps, in bitmaps of one to sixteen bytes.
        index.extend([2000, 2002, 2003, 2005, 2008, 2009, 2011, 2012, 2014, 2017]);
        index.extend((0..100).map(|k| 3000 + k * 5 / 4));
        index.extend((0..200).map(|k| 4000 + k * 3 / 2));
        index.extend((0..40).map(|k| 6000 + k * 3));
        for delta in [
            -33i32, -32, 31, 32, -5760, 5759, -5761, 5760, 0, 0x3000, -0x5000,
        ] {
            let prev = i32::from(*index.iter().rev().find(|&&c| c != 0).unwrap_or(&0));
            index.push(u16::try_from((prev + delta).clamp(1, 0xFFFF)).unwrap_or(1));
        }
        index.extend([
            0xFFFF, 0x0001, 0x4E00, 0xE000, 0x9FFF, 0x4E00, 0xA000, 0x4DFF, 0xFFFE, 0,
        ]);
        for end in [index.len(), 1, 7, 300] {
            let part = &index[..end];
            let mut back = vec![0u16; part.len()];
            unpack_into(coded(part), &mut back);
            assert_eq!(back, part, "{end}");
        }
        // One token kind only: its head still takes a bit.
        let mut back = vec![0u16; 5];
        unpack_into(coded(&[1, 2, 3, 4, 5]), &mut back);
        assert_eq!(back, [1, 2, 3, 4, 5]);
    }
}
