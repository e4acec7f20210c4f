//! The `compact` build's decode indexes (#indexes, *index code point*) for the indexes
//! whose code points mostly rise with their pointers (gb18030, EUC-KR, jis0212: the
//! GBK/3–4 and Hangul extensions are in code point order), stored in blocks of 16 pointers
//! derived at compile time from the generated flat arrays (which are then not linked):
//!
//! - a *delta* block: `code point = base + i + delta[i]` for the block's `i`-th pointer, one
//!   byte a pointer (`0xFF` = no entry), where the block's entries lie within 254 of a
//!   line of slope one (runs, and runs with small gaps);
//! - an *explicit* block: the 16 code points, two bytes each (0 = no entry).
//!
//! One `u32` header per block holds the base, the kind and the block's data offset; the
//! all-zero delta block (a whole run) and the empty block are stored once and shared. A
//! lookup is one header load and one or two data loads, as the flat array's one.

/// Pointers per block.
const B: usize = 16;
/// A delta byte for "no entry".
const NONE: u8 = 0xFF;
/// Header bit: the block is explicit.
const EXPLICIT: u32 = 1 << 31;
/// The shared blocks at the start of the data: 16 zero deltas, then 16 × [`NONE`].
const SHARED: usize = 2 * B;

/// A decode index in blocks (see the module docs).
pub(crate) struct BlockIndex {
    headers: &'static [u32],
    data: &'static [u8],
}

/// The base of block `b` if it can be a delta block: the least `code point − i` over its
/// entries, when every entry is within 254 of it. `Some(0)` for an empty block.
// Bounds: `p < decode.len()` is checked; code points are at least 0x80 where present, so
// `code point − i` (i < 16) does not wrap; the differences fit `usize`.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]
const fn delta_base(decode: &[u16], b: usize) -> Option<u16> {
    let (mut low, mut high) = (usize::MAX, 0);
    let mut i = 0;
    while i < B {
        let p = b * B + i;
        if p < decode.len() && decode[p] != 0 {
            let v = decode[p] as usize - i;
            if v < low {
                low = v;
            }
            if v > high {
                high = v;
            }
        }
        i += 1;
    }
    if low == usize::MAX {
        return Some(0);
    }
    if high - low < NONE as usize {
        Some(low as u16)
    } else {
        None
    }
}

/// Block `b`'s delta bytes (`base` from [`delta_base`]).
// Bounds as in `delta_base`; each delta is below 0xFF there.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]
const fn deltas(decode: &[u16], b: usize, base: u16) -> [u8; B] {
    let mut out = [NONE; B];
    let mut i = 0;
    while i < B {
        let p = b * B + i;
        if p < decode.len() && decode[p] != 0 {
            out[i] = (decode[p] as usize - i - base as usize) as u8;
        }
        i += 1;
    }
    out
}

/// Where block `b`'s data goes, given where the unshared data reached (`end`): (offset,
/// bytes it adds, header without the offset).
// Bounds: as in `deltas`.
#[allow(clippy::arithmetic_side_effects)]
const fn place(decode: &[u16], b: usize, end: usize) -> (usize, usize, u32) {
    match delta_base(decode, b) {
        Some(base) => {
            let d = deltas(decode, b, base);
            let mut zero = true;
            let mut empty = true;
            let mut i = 0;
            while i < B {
                zero &= d[i] == 0;
                empty &= d[i] == NONE;
                i += 1;
            }
            if zero {
                (0, 0, base as u32)
            } else if empty {
                (B, 0, 0)
            } else {
                (end, B, base as u32)
            }
        }
        None => (end, 2 * B, EXPLICIT),
    }
}

/// The number of blocks of an index of `len` pointers.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) const fn block_count(len: usize) -> usize {
    len.div_ceil(B)
}

/// The data length of `decode` in blocks.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) const fn data_len(decode: &[u16]) -> usize {
    let mut end = SHARED;
    let mut b = 0;
    while b < block_count(decode.len()) {
        end += place(decode, b, end).1;
        b += 1;
    }
    end
}

/// The headers of `decode` in blocks (`H` = [`block_count`]).
// Bounds: `b < H`; offsets are even and below 65536 (asserted), so `offset / 2` fits 15
// bits.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]
pub(crate) const fn headers<const H: usize>(decode: &[u16]) -> [u32; H] {
    let mut out = [0u32; H];
    let mut end = SHARED;
    let mut b = 0;
    while b < H {
        let (offset, added, header) = place(decode, b, end);
        assert!(offset < 0x10000 && offset % 2 == 0);
        out[b] = header | ((offset / 2) as u32) << 16;
        end += added;
        b += 1;
    }
    out
}

/// The data of `decode` in blocks (`D` = [`data_len`]).
// Bounds: every block's bytes lie within `D` (the same walk as `data_len`).
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]
pub(crate) const fn data<const D: usize>(decode: &[u16]) -> [u8; D] {
    let mut out = [0u8; D];
    let mut i = 0;
    while i < B {
        out[B + i] = NONE;
        i += 1;
    }
    let mut end = SHARED;
    let mut b = 0;
    while b < block_count(decode.len()) {
        let (offset, added, header) = place(decode, b, end);
        if added == B {
            let d = deltas(decode, b, header as u16);
            let mut i = 0;
            while i < B {
                out[offset + i] = d[i];
                i += 1;
            }
        } else if added == 2 * B {
            let mut i = 0;
            while i < B {
                let p = b * B + i;
                let v = if p < decode.len() { decode[p] } else { 0 };
                out[offset + 2 * i] = v as u8;
                out[offset + 2 * i + 1] = (v >> 8) as u8;
                i += 1;
            }
        }
        end += added;
        b += 1;
    }
    out
}

impl BlockIndex {
    pub(crate) const fn new(headers: &'static [u32], data: &'static [u8]) -> BlockIndex {
        BlockIndex { headers, data }
    }

    /// The code point of `pointer`, 0 if it has none (or is past the index).
    // Bounds: `b` is checked against the headers; the offsets and `i < 16` stay within
    // the data (as built); a base plus `i` plus a delta is at most 0xFFFF (it was a code
    // point).
    #[inline(always)]
    #[allow(
        clippy::indexing_slicing,
        clippy::arithmetic_side_effects,
        clippy::cast_possible_truncation
    )]
    pub(crate) const fn get(&self, pointer: usize) -> u16 {
        let b = pointer / B;
        if b >= self.headers.len() {
            return 0;
        }
        let header = self.headers[b];
        let i = pointer % B;
        let offset = (header >> 16 & 0x7FFF) as usize * 2;
        if header & EXPLICIT != 0 {
            u16::from_le_bytes([self.data[offset + 2 * i], self.data[offset + 2 * i + 1]])
        } else {
            let d = self.data[offset + i];
            if d == NONE {
                0
            } else {
                (header as u16).wrapping_add(i as u16 + d as u16)
            }
        }
    }

    /// One bit per pointer of block `b` whose code point is `unit` (bit `i` for pointer
    /// `16 b + i`; `unit` is not 0).
    // Bounds: as in `get`.
    #[inline(always)]
    #[allow(
        clippy::indexing_slicing,
        clippy::arithmetic_side_effects,
        clippy::cast_possible_truncation
    )]
    pub(crate) fn matches(&self, b: usize, unit: u16) -> u32 {
        let Some(&header) = self.headers.get(b) else {
            return 0;
        };
        let offset = (header >> 16 & 0x7FFF) as usize * 2;
        let mut bits = 0u32;
        if header & EXPLICIT != 0 {
            let block = &self.data[offset..offset + 2 * B];
            for (i, pair) in block.chunks_exact(2).enumerate() {
                let v = u16::from_le_bytes([pair[0], pair[1]]);
                bits |= u32::from(v == unit) << i;
            }
        } else {
            // The code point minus the line: a delta byte, or out of range.
            let k = unit.wrapping_sub(header as u16);
            let block = &self.data[offset..offset + B];
            for (i, &d) in block.iter().enumerate() {
                let want = k.wrapping_sub(i as u16);
                bits |= u32::from(want == u16::from(d) && d != NONE) << i;
            }
        }
        bits
    }
}

#[cfg(test)]
mod tests {
    use super::super::decode;
    use super::super::generated::{euc_kr, gb18030, jis0212};
    use super::super::DecodeIndex;

    /// Every pointer (and some past the end) reads as in the flat array.
    #[test]
    fn block_indexes_match_the_flat_arrays() {
        let indexes: [(&str, &[u16], DecodeIndex); 3] = [
            ("gb18030", &gb18030::GB18030_DECODE, decode::GB18030),
            ("EUC-KR", &euc_kr::EUC_KR_DECODE, decode::EUC_KR),
            ("jis0212", &jis0212::JIS0212_DECODE, decode::JIS0212),
        ];
        for (name, flat, blocks) in indexes {
            for p in 0..flat.len() + 40 {
                let want = flat.get(p).copied().unwrap_or(0);
                assert_eq!(blocks.get(p), want, "{name} {p}");
                if want != 0 {
                    assert!(blocks.matches(p / 16, want) >> (p % 16) & 1 == 1, "{name} {p}");
                }
            }
        }
    }
}
