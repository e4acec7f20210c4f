//! How the `compact` build links its CJK decode indexes: each index as a stream of
//! tokens (runs, gaps, bitmaps, near and far steps from the previous code point, packed
//! at compile time by `const` evaluation, [`pack_into`]), the token stream Huffman-coded
//! ([`huffman_into`]), and the decoder that expands it to the flat index on first use
//! ([`unpack_into`]).

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
pub(super) const fn code_lengths(packed: &[u8]) -> [u8; 256] {
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
pub(super) const fn canonical(lengths: &[u8; 256]) -> ([u16; MAX_BITS + 1], [u8; 256], usize) {
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

    /// [`Bits::head`] by its first [`PEEK_BITS`] bits in `table` (a longer code bit by
    /// bit); `None` past the end, as there.
    #[cfg(target_arch = "wasm32")]
    #[inline(always)]
    fn head_through(&mut self, table: &HeadTable) -> Option<u8> {
        let at = self.at / 8;
        let byte = |i: usize| u32::from(self.stream.get(at.wrapping_add(i)).copied().unwrap_or(0));
        // The 24 bits from the byte of `at`, then the PEEK_BITS from `at` itself.
        let window = byte(0) << 16 | byte(1) << 8 | byte(2);
        let peek = (window << (self.at % 8) >> (24 - PEEK_BITS)) & ((1 << PEEK_BITS) - 1);
        let entry = table.0.get(peek as usize).copied().unwrap_or(0);
        if entry == 0 {
            return self.head();
        }
        let end = self.at.wrapping_add(usize::from(entry >> 8));
        if end > self.stream.len().wrapping_mul(8) {
            return None;
        }
        self.at = end;
        Some(entry as u8)
    }
}

/// WebAssembly: the heads read through a table of their codes' first [`PEEK_BITS`] bits,
/// built per index expanded (2 KB on the stack). Read a bit at a time, jis0208's heads ran
/// about 20 M of V8's tier-up budget (1.8 M by default), so V8 compiled the loop again in
/// the background during a first Shift_JIS decode, which took twice as long on busy cores.
/// Native builds keep the bitwise reader, whose footprint is smaller.
#[cfg(target_arch = "wasm32")]
const PEEK_BITS: usize = 10;

/// `table[bits]`: for the next [`PEEK_BITS`] bits of the stream, `length << 8 | head` of
/// the code they start with, or 0 where that code is longer.
#[cfg(target_arch = "wasm32")]
struct HeadTable([u16; 1 << PEEK_BITS]);

#[cfg(target_arch = "wasm32")]
impl HeadTable {
    /// The canonical codes of `counts` and `heads` (see [`Bits::head`]): each code of
    /// `length` bits fills the `1 << (PEEK_BITS - length)` entries that start with it.
    // Bounds: a canonical code of `length` bits is below `1 << length`, so the entries it
    // fills are below `1 << PEEK_BITS`; `length` fits 8 bits.
    #[allow(
        clippy::indexing_slicing,
        clippy::arithmetic_side_effects,
        clippy::cast_possible_truncation
    )]
    fn new(counts: &[u16; MAX_BITS + 1], heads: &[u8]) -> Self {
        let mut table = [0u16; 1 << PEEK_BITS];
        let (mut code, mut index) = (0usize, 0usize);
        for (length, &count) in counts.iter().enumerate().take(PEEK_BITS + 1).skip(1) {
            for _ in 0..count {
                let Some(&head) = heads.get(index) else {
                    return HeadTable(table);
                };
                let span = PEEK_BITS - length;
                table[code << span..(code + 1) << span]
                    .fill((length as u16) << 8 | u16::from(head));
                code += 1;
                index += 1;
            }
            code <<= 1;
        }
        HeadTable(table)
    }
}

/// The entries a coded index holds, the first `out.len()` of them written to `out` (the
/// inverse of [`pack_into`] and [`huffman_into`]; a truncated stream leaves the rest 0).
pub(super) fn unpack_into(coded: &Coded, out: &mut [u16]) {
    let mut bits = Bits {
        stream: coded.stream,
        at: 0,
        counts: &coded.counts,
        heads: coded.heads,
    };
    #[cfg(target_arch = "wasm32")]
    let table = HeadTable::new(&coded.counts, coded.heads);
    let mut entries = out.iter_mut();
    let mut prev: u16 = 0;
    // The stream's last byte may end in padding: stop after the last entry.
    while entries.len() > 0 {
        #[cfg(target_arch = "wasm32")]
        let head = bits.head_through(&table);
        #[cfg(not(target_arch = "wasm32"))]
        let head = bits.head();
        let Some(token) = head else {
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
