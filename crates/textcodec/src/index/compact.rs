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

/// Packed-index tokens (one byte, then the operand bytes the kind takes), each giving the
/// next entries from the previous code point `prev` (0 at the start): CJK indexes are
/// mostly runs of consecutive code points (gb18030 and EUC-KR), rising code points with
/// small gaps (the extensions of gb18030 and EUC-KR list the code points of a block that
/// the base set lacks, in order), close ones, or jumps within the CJK Unified Ideographs
/// (Big5 and jis0208 order them by radical or reading).
const RUN: u8 = 0x00; // 0x00..=0x1F: `t + 1` entries prev + 1, prev + 2, …
const GAP: u8 = 0x20; // 0x20..=0x2F: `t - 0x20 + 1` entries without a code point (0)
const BITS: u8 = 0x30; // 0x30..=0x3F + `t - 0x30 + 1` bytes: bit j set → entry prev + 1 + j
const NEAR: u8 = 0x40; // 0x40..=0x7F: one entry, prev + (t - 0x60): −32..=31
const HAN: u8 = 0x80; // 0x80..=0xD1 + 1 byte: U+4E00 + ((t - 0x80) << 8 | byte), to U+9FFF
const FAR: u8 = 0xD2; // 0xD2..=0xFE + 1 byte: prev + ((t - 0xD2) << 8 | byte) − FAR_BIAS
const ABSOLUTE: u8 = 0xFF; // 0xFF + 2 bytes: the code point, big-endian
const MAX_RUN: usize = (GAP - RUN) as usize;
const MAX_GAP: usize = (BITS - GAP) as usize;
/// The code points a bitmap covers at most: 8 per operand byte.
const MAX_SPAN: i32 = ((NEAR - BITS) as i32) * 8;
const NEAR_BIAS: i32 = 32;
const HAN_FIRST: i32 = 0x4E00;
const HAN_END: i32 = HAN_FIRST + ((FAR - HAN) as i32) * 256;
const FAR_BIAS: i32 = ((ABSOLUTE - FAR) as i32) * 128;

/// One token other than a bitmap for the entries from `index[i]` (none past `end`), after
/// code point `prev`: its bytes and their count, the next entry and the new `prev`.
// Bounds: `i < end <= index.len()`; the differences are between two `u16`s, and each
// token's range is checked before its operand is cast.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]
const fn token(
    index: &[u16],
    mut i: usize,
    end: usize,
    mut prev: i32,
) -> ([u8; 3], usize, usize, i32) {
    let code_point = index[i] as i32;
    if code_point == 0 {
        let mut count = 0;
        while count < MAX_GAP && i < end && index[i] == 0 {
            count += 1;
            i += 1;
        }
        return ([GAP + (count - 1) as u8, 0, 0], 1, i, prev);
    }
    if code_point == prev + 1 {
        let mut count = 0;
        while count < MAX_RUN && i < end && index[i] as i32 == prev + 1 {
            prev += 1;
            count += 1;
            i += 1;
        }
        return ([RUN + (count - 1) as u8, 0, 0], 1, i, prev);
    }
    let delta = code_point - prev;
    let (bytes, n) = if delta >= -NEAR_BIAS && delta < NEAR_BIAS {
        ([NEAR + (delta + NEAR_BIAS) as u8, 0, 0], 1)
    } else if delta >= -FAR_BIAS && delta < FAR_BIAS {
        let biased = (delta + FAR_BIAS) as u32;
        ([FAR + (biased >> 8) as u8, biased as u8, 0], 2)
    } else if code_point >= HAN_FIRST && code_point < HAN_END {
        let offset = (code_point - HAN_FIRST) as u32;
        ([HAN + (offset >> 8) as u8, offset as u8, 0], 2)
    } else {
        ([ABSOLUTE, (code_point >> 8) as u8, code_point as u8], 3)
    };
    (bytes, n, i + 1, code_point)
}

/// Where a bitmap from `index[i]` after `prev` would end: the entries that rise from `prev`
/// within [`MAX_SPAN`] code points (the end, and the last code point), and the bytes the
/// other tokens take for them.
// Bounds: `j < index.len()`; `token` returns a next entry past `k`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const fn bitmap_chain(index: &[u16], i: usize, prev: i32) -> (usize, i32, usize) {
    let (mut j, mut last) = (i, prev);
    while j < index.len() && index[j] as i32 > last && index[j] as i32 - prev <= MAX_SPAN {
        last = index[j] as i32;
        j += 1;
    }
    let (mut k, mut at, mut plain) = (i, prev, 0);
    while k < j {
        let (_, n, next, next_prev) = token(index, k, j, at);
        plain += n;
        k = next;
        at = next_prev;
    }
    (j, last, plain)
}

/// Packs `index` into `out` (nothing is written past `out`'s end) and returns the packed
/// length: with an empty `out` it only measures. `const`, so that the generated indexes are
/// packed at compile time. Where a bitmap is smaller than the other tokens for the rising
/// entries that follow, it takes them all.
// Bounds: every write is checked against `out.len()`; `i < index.len()`; a bitmap's bits
// are below `MAX_SPAN` (`code point - prev - 1`), so its bytes are at most 16 and `len + 1
// + bit / 8` is checked before each write.
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
        let (end, last, plain) = bitmap_chain(index, i, prev);
        let bytes = ((last - prev + 7) / 8) as usize;
        if end > i + 1 && 1 + bytes < plain {
            if len < out.len() {
                out[len] = BITS + (bytes - 1) as u8;
            }
            let mut k = 1;
            while k <= bytes {
                if len + k < out.len() {
                    out[len + k] = 0;
                }
                k += 1;
            }
            while i < end {
                let bit = (index[i] as i32 - prev - 1) as usize;
                if len + 1 + bit / 8 < out.len() {
                    out[len + 1 + bit / 8] |= 1 << (bit % 8);
                }
                i += 1;
            }
            len += 1 + bytes;
            prev = last;
            continue;
        }
        let (bytes, n, next, next_prev) = token(index, i, index.len(), prev);
        let mut k = 0;
        while k < n {
            if len + k < out.len() {
                out[len + k] = bytes[k];
            }
            k += 1;
        }
        len += n;
        i = next;
        prev = next_prev;
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

/// The longest code of a packed index's token heads (bits). The heads of the largest
/// index (about 23,000 tokens) cannot need more: a code of `n` bits takes a total count of
/// at least the Fibonacci number F(n + 2).
const MAX_BITS: usize = 24;

/// The operand bytes after token head `token`.
// Bounds: `token - BITS < 16` in its arm.
#[allow(clippy::arithmetic_side_effects)]
const fn operand_bytes(token: u8) -> usize {
    match token {
        BITS..NEAR => (token - BITS) as usize + 1,
        HAN..ABSOLUTE => 1,
        ABSOLUTE => 2,
        _ => 0,
    }
}

/// The Huffman code length of each token head of `packed` (0 for a head it does not use):
/// the two lightest trees merged until one is left, ties to the lower node.
// Bounds: nodes number below 511 (256 leaves, at most 255 merges); `i` walks `packed`.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]
const fn code_lengths(packed: &[u8]) -> [u8; 256] {
    let mut weight = [0u64; 511];
    let mut parent = [0usize; 511];
    let mut alive = [false; 511];
    let mut i = 0;
    while i < packed.len() {
        weight[packed[i] as usize] += 1;
        alive[packed[i] as usize] = true;
        i += 1 + operand_bytes(packed[i]);
    }
    let mut nodes = 256;
    // The last tree left (usize::MAX for an empty stream).
    let root = loop {
        let (mut a, mut b) = (usize::MAX, usize::MAX);
        let mut n = 0;
        while n < nodes {
            if alive[n] {
                if a == usize::MAX || weight[n] < weight[a] {
                    b = a;
                    a = n;
                } else if b == usize::MAX || weight[n] < weight[b] {
                    b = n;
                }
            }
            n += 1;
        }
        if b == usize::MAX {
            break a;
        }
        weight[nodes] = weight[a] + weight[b];
        alive[nodes] = true;
        (alive[a], alive[b]) = (false, false);
        (parent[a], parent[b]) = (nodes, nodes);
        nodes += 1;
    };
    let mut lengths = [0u8; 256];
    let mut s = 0;
    while s < 256 {
        if weight[s] > 0 {
            let (mut node, mut depth) = (s, 0);
            while node != root {
                node = parent[node];
                depth += 1;
            }
            assert!(depth <= MAX_BITS, "a token head's code is too long");
            // A lone head still takes one bit.
            lengths[s] = if depth == 0 { 1 } else { depth as u8 };
        }
        s += 1;
    }
    lengths
}

/// The canonical code of `lengths` as the decoder reads it: how many codes each length has,
/// and the heads in code order (by length, then value); `.2` = how many heads there are.
// Bounds: lengths are at most MAX_BITS; fewer than 256 heads are counted.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]
const fn canonical(lengths: &[u8; 256]) -> ([u16; MAX_BITS + 1], [u8; 256], usize) {
    let mut counts = [0u16; MAX_BITS + 1];
    let mut symbols = [0u8; 256];
    let mut used = 0;
    let mut len = 1;
    while len <= MAX_BITS {
        let mut s = 0;
        while s < 256 {
            if lengths[s] as usize == len {
                counts[len] += 1;
                symbols[used] = s as u8;
                used += 1;
            }
            s += 1;
        }
        len += 1;
    }
    (counts, symbols, used)
}

/// The codes of the heads (MSB first, canonical: within a length, codes rise with the
/// head), as [`canonical`] orders them.
// Bounds: as `canonical`; codes of at most MAX_BITS bits fit a `u32`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const fn codes(lengths: &[u8; 256]) -> [u32; 256] {
    let (counts, _, _) = canonical(lengths);
    let mut next = [0u32; MAX_BITS + 1];
    let mut code = 0u32;
    let mut len = 1;
    while len <= MAX_BITS {
        code = (code + counts[len - 1] as u32) << 1;
        next[len] = code;
        len += 1;
    }
    let mut codes = [0u32; 256];
    let mut s = 0;
    while s < 256 {
        let len = lengths[s] as usize;
        if len > 0 {
            codes[s] = next[len];
            next[len] += 1;
        }
        s += 1;
    }
    codes
}

/// `packed` with its token heads Huffman-coded by `lengths` and its operand bytes as they
/// are, MSB first, into `out` (nothing past its end); returns the length in bytes (with an
/// empty `out` it only measures).
// Bounds: `i` walks `packed`, whose operands follow their heads; every write is checked
// against `out.len()`.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]
pub(crate) const fn huffman_into(packed: &[u8], lengths: &[u8; 256], out: &mut [u8]) -> usize {
    let codes = codes(lengths);
    let mut bit = 0usize;
    let mut i = 0;
    while i < packed.len() {
        let head = packed[i] as usize;
        let (mut value, mut len) = (codes[head], lengths[head] as usize);
        let mut operand = 0;
        loop {
            while len > 0 {
                len -= 1;
                if value >> len & 1 == 1 && bit / 8 < out.len() {
                    out[bit / 8] |= 0x80 >> (bit % 8);
                }
                bit += 1;
            }
            if operand == operand_bytes(packed[i]) {
                break;
            }
            operand += 1;
            (value, len) = (packed[i + operand] as u32, 8);
        }
        i += 1 + operand;
    }
    bit.div_ceil(8)
}

/// [`huffman_into`] into exactly `L` bytes.
pub(crate) const fn huffman<const L: usize>(packed: &[u8], lengths: &[u8; 256]) -> [u8; L] {
    let mut out = [0u8; L];
    let len = huffman_into(packed, lengths, &mut out);
    assert!(
        len == L,
        "the coded length changed between measuring and coding"
    );
    out
}

/// The first `USED` heads of a canonical order (`USED` = its `.2`).
// Bounds: `USED` ≤ 256.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) const fn heads<const USED: usize>(lengths: &[u8; 256]) -> [u8; USED] {
    let (_, symbols, _) = canonical(lengths);
    let mut out = [0u8; USED];
    let mut k = 0;
    while k < USED {
        out[k] = symbols[k];
        k += 1;
    }
    out
}

/// A Huffman-coded packed index as the decoder reads it.
pub(crate) struct Coded {
    /// The bit stream ([`huffman_into`]).
    pub(crate) stream: &'static [u8],
    /// How many head codes each length has ([`canonical`]).
    pub(crate) counts: [u16; MAX_BITS + 1],
    /// The heads in code order.
    pub(crate) heads: &'static [u8],
}

/// Reads a [`huffman_into`] stream: heads by their codes, operand bytes as they are.
struct Bits<'a> {
    stream: &'a [u8],
    at: usize,
    counts: &'a [u16; MAX_BITS + 1],
    heads: &'a [u8],
}

impl Bits<'_> {
    /// The next bit, `None` past the end.
    fn bit(&mut self) -> Option<u16> {
        let byte = self.stream.get(self.at / 8)?;
        let bit = byte << (self.at % 8) >> 7;
        self.at = self.at.wrapping_add(1);
        Some(u16::from(bit))
    }

    /// The next 8 bits (missing ones 0).
    fn byte(&mut self) -> u8 {
        let at = self.at / 8;
        let high = self.stream.get(at).copied().unwrap_or(0);
        let low = self.stream.get(at.wrapping_add(1)).copied().unwrap_or(0);
        let byte = u16::from_be_bytes([high, low]) << (self.at % 8) >> 8;
        self.at = self.at.wrapping_add(8);
        byte as u8
    }

    /// The next head: its code read a bit at a time against the first code and the count
    /// of each length (the canonical order).
    fn head(&mut self) -> Option<u8> {
        let (mut code, mut first, mut index) = (0u16, 0u16, 0usize);
        for &count in self.counts.get(1..)? {
            code |= self.bit()?;
            let offset = code.wrapping_sub(first);
            if offset < count {
                return self
                    .heads
                    .get(index.wrapping_add(usize::from(offset)))
                    .copied();
            }
            index = index.wrapping_add(usize::from(count));
            first = first.wrapping_add(count) << 1;
            code <<= 1;
        }
        None
    }
}

/// The entries a coded index holds, the first `out.len()` of them written to `out` (the
/// inverse of [`pack_into`] and [`huffman_into`]; a truncated stream leaves the rest 0).
fn unpack_into(coded: &Coded, out: &mut [u16]) {
    let mut bits = Bits {
        stream: coded.stream,
        at: 0,
        counts: &coded.counts,
        heads: coded.heads,
    };
    let mut entries = out.iter_mut();
    let mut prev: u16 = 0;
    // The stream's last byte may end in padding: stop after the last entry.
    while entries.len() > 0 {
        let Some(token) = bits.head() else {
            break;
        };
        match token {
            RUN..GAP => {
                for entry in entries
                    .by_ref()
                    .take(usize::from(token.wrapping_sub(RUN)) + 1)
                {
                    prev = prev.wrapping_add(1);
                    *entry = prev;
                }
                continue;
            }
            GAP..BITS => {
                for entry in entries
                    .by_ref()
                    .take(usize::from(token.wrapping_sub(GAP)) + 1)
                {
                    *entry = 0;
                }
                continue;
            }
            BITS..NEAR => {
                let mut offset = prev;
                for _ in BITS..=token {
                    let byte = bits.byte();
                    for bit in 0..8 {
                        offset = offset.wrapping_add(1);
                        if byte >> bit & 1 == 1 {
                            prev = offset;
                            if let Some(entry) = entries.next() {
                                *entry = prev;
                            }
                        }
                    }
                }
                continue;
            }
            NEAR..HAN => {
                let biased = u16::from(token.wrapping_sub(NEAR));
                // The difference wraps back into the code point (the biases fit `u16`).
                prev = prev.wrapping_add(biased).wrapping_sub(NEAR_BIAS as u16);
            }
            HAN..FAR => {
                let offset = u16::from(token.wrapping_sub(HAN)) << 8 | u16::from(bits.byte());
                prev = offset.wrapping_add(HAN_FIRST as u16);
            }
            ABSOLUTE => {
                let high = bits.byte();
                prev = u16::from_be_bytes([high, bits.byte()]);
            }
            // FAR..=0xFE
            _ => {
                let biased = u16::from(token.wrapping_sub(FAR)) << 8 | u16::from(bits.byte());
                prev = prev.wrapping_add(biased).wrapping_sub(FAR_BIAS as u16);
            }
        }
        if let Some(entry) = entries.next() {
            *entry = prev;
        }
    }
}

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
