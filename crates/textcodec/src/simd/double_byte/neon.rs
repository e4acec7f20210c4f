//! NEON (aarch64, little-endian): 32-byte blocks of ASCII and pairs into UTF-16 (see the
//! module docs of [`super`]), and into UTF-8 in two passes as the AVX2 kernel does.
//!
//! NEON has neither a gather nor a `movemask`, so the AVX2 kernel's steps change shape:
//!
//! * Classes: a byte is lead-capable where bit `h` of entry `lo` of a 16-byte bitmap is
//!   set (`0x80 + 16h + lo`); one `vqtbl1q_u8` reads the entry for the low nibble, another
//!   the bit for the high nibble (0 for ASCII), and `vtstq_u8` tests one against the other.
//! * Masks: the capable and non-ASCII lanes of the block's two registers become two 32-bit
//!   masks in one go: each lane ANDed with its bit weight, then three rounds of pairwise
//!   additions (`vpaddq_u8`) fold the four registers into one 64-bit lane. The leads come
//!   from [`super::leads_of`], as on x86.
//! * Lookups: the leads go back into registers through the same bit weights (a `vqtbl1q_u8`
//!   spreads each byte of the mask over 8 lanes, `vtstq_u8` picks the bit). As with AVX2,
//!   each 16-bit lane (bytes 2k, 2k + 1) holds at most one lead, so the block's 16 lanes
//!   each make one table index from their own two bytes (lead even) or the next two (odd),
//!   and 16 scalar loads put the pairs straight into the lanes (`vld1q_lane_u16` at fixed
//!   lanes: no branch on the number of leads, and no vector reload of scalar stores, which
//!   waits for them). A lane without a lead loads an entry it then ignores.
//! * Packing: the units at each byte position (the pair at a lead, the byte elsewhere) are
//!   interleaved back into position order (`vzip1q_u16`/`vzip2q_u16`) and the units at
//!   character starts packed eight positions at a time by `vqtbl1q_u8` through
//!   `KEPT_UNITS` (the UTF-8 → UTF-16 kernels' table: its 0x80 entries are out of `tbl`'s
//!   range, which writes 0). The groups' offsets are the running sums of their lengths:
//!   one `vcnt_u8` of the start mask and one multiplication.

use super::blocks::{BLOCK, BLOCK_ROOM, ENTRIES, LANE_BITS, MASK_BYTE, ROW_BITS};
use super::{roles, Roles};
use crate::index::PairTable;
use crate::simd::utf8::pack::KEPT_UNITS;
use crate::simd::{out_ptr, Slots};
use core::arch::aarch64::*;
use core::mem::MaybeUninit;

/// The 16 bytes at `p`.
///
/// # Safety
/// `p .. p + 16` must be readable.
#[inline(always)]
unsafe fn load(p: *const u8) -> uint8x16_t {
    // SAFETY: the caller's bound; NEON is part of every aarch64 target.
    unsafe { vld1q_u8(p) }
}

/// A 16-byte constant.
#[inline(always)]
fn constant(bytes: &[u8; 16]) -> uint8x16_t {
    // SAFETY: `bytes` is 16 readable bytes.
    unsafe { load(bytes.as_ptr()) }
}

/// The lead-capable bytes as a bitmap `vqtbl1q_u8` can read: entry `lo` has bit `h` set
/// when byte `0x80 + 16h + lo` is lead-capable (`lead_map` holds 0xFF or 0 per byte).
#[inline(always)]
// Bounds: `enumerate` over the eight 16-byte rows gives `h < 8`, so `1 << h` fits a byte.
#[allow(clippy::arithmetic_side_effects)]
fn capable_bitmap(lead_map: &[u8; 128]) -> uint8x16_t {
    // SAFETY: NEON is part of every aarch64 target (register operations only).
    let mut bitmap = unsafe { vdupq_n_u8(0) };
    for (h, row) in lead_map.chunks_exact(16).enumerate() {
        // SAFETY: `row` is 16 readable bytes; the rest are register operations.
        bitmap = unsafe { vorrq_u8(bitmap, vandq_u8(load(row.as_ptr()), vdupq_n_u8(1 << h))) };
    }
    bitmap
}

/// 0xFF in the lanes of `v` that are lead-capable (never ASCII).
#[inline(always)]
fn capable_lanes(v: uint8x16_t, bitmap: uint8x16_t, row_bits: uint8x16_t) -> uint8x16_t {
    // SAFETY: NEON is part of every aarch64 target (register operations only).
    unsafe {
        let entry = vqtbl1q_u8(bitmap, vandq_u8(v, vdupq_n_u8(0x0F)));
        let bit = vqtbl1q_u8(row_bits, vshrq_n_u8::<4>(v));
        vtstq_u8(entry, bit)
    }
}

/// The lane masks `a0`, `a1` (the two registers of a block) and `b0`, `b1` as two 32-bit
/// integers: bit i set where lane i is set (0xFF; lanes hold 0 or 0xFF).
#[inline(always)]
fn masks([a0, a1]: [uint8x16_t; 2], [b0, b1]: [uint8x16_t; 2], weights: uint8x16_t) -> (u32, u32) {
    // SAFETY: NEON is part of every aarch64 target (register operations only).
    let folded = unsafe {
        // Each round adds neighbouring lanes: after three, each byte holds the weighted
        // sum of 8 lanes, i.e. one byte of a mask (distinct bits: no carries). Bytes 0-3
        // are `a`'s mask, 4-7 `b`'s, in order.
        let a = vpaddq_u8(vandq_u8(a0, weights), vandq_u8(a1, weights));
        let b = vpaddq_u8(vandq_u8(b0, weights), vandq_u8(b1, weights));
        let ab = vpaddq_u8(a, b);
        vgetq_lane_u64::<0>(vreinterpretq_u64_u8(vpaddq_u8(ab, ab)))
    };
    // The casts keep the low and high halves of the 64-bit lane.
    (folded as u32, (folded >> 32) as u32)
}

/// 0xFF in the lanes of register `R` (0: bytes 0-15 of the block, 1: bytes 16-31) whose
/// bit of `mask` is set.
#[inline(always)]
// Bounds: `R` is 0 or 1 (the callers' constants).
#[allow(clippy::indexing_slicing)]
fn lanes_of<const R: usize>(mask: u32, weights: uint8x16_t) -> uint8x16_t {
    // SAFETY: NEON is part of every aarch64 target (register operations and a constant).
    unsafe {
        let bytes = vreinterpretq_u8_u32(vdupq_n_u32(mask));
        vtstq_u8(vqtbl1q_u8(bytes, constant(&MASK_BYTE[R])), weights)
    }
}

/// The entries of `pairs` at the 8 lanes of `index` (the low 15 bits of each).
#[inline(always)]
fn look_up(pairs: &[u16; ENTRIES], index: uint16x8_t) -> uint16x8_t {
    /// `acc` with lane `K` loaded from `pairs[index[K]]`.
    ///
    /// # Safety
    /// Lane `K` of `index` must be below `ENTRIES`.
    #[inline(always)]
    unsafe fn lane<const K: i32>(
        pairs: &[u16; ENTRIES],
        index: uint16x8_t,
        acc: uint16x8_t,
    ) -> uint16x8_t {
        // SAFETY: by the caller's bound the load reads one entry of `pairs`; NEON is part
        // of every aarch64 target.
        unsafe {
            vld1q_lane_u16::<K>(
                pairs.as_ptr().add(usize::from(vgetq_lane_u16::<K>(index))),
                acc,
            )
        }
    }
    // SAFETY: NEON is part of every aarch64 target; every lane of `index` is masked
    // below 0x8000 = `ENTRIES` first, which is what `lane` needs.
    unsafe {
        let index = vandq_u16(index, vdupq_n_u16(0x7FFF));
        let acc = lane::<0>(pairs, index, vdupq_n_u16(0));
        let acc = lane::<1>(pairs, index, acc);
        let acc = lane::<2>(pairs, index, acc);
        let acc = lane::<3>(pairs, index, acc);
        let acc = lane::<4>(pairs, index, acc);
        let acc = lane::<5>(pairs, index, acc);
        let acc = lane::<6>(pairs, index, acc);
        lane::<7>(pairs, index, acc)
    }
}

/// One register of a block: the units at its 16 byte positions as two groups of 8 (the
/// pair at a lead, the byte itself elsewhere), and a lane mask (0xFFFF) of the lanes whose
/// lead has no pair. `v` is the register, `next` the 16 bytes from one byte on, `leads`
/// 0xFF at its leads (never two in one 16-bit lane).
#[inline(always)]
fn units(
    pairs: &[u16; ENTRIES],
    v: uint8x16_t,
    next: uint8x16_t,
    leads: uint8x16_t,
) -> ([uint16x8_t; 2], uint16x8_t) {
    // SAFETY: NEON is part of every aarch64 target (register operations only).
    unsafe {
        let leads = vreinterpretq_u16_u8(leads);
        let even = vtstq_u16(leads, vdupq_n_u16(0x00FF));
        let odd = vtstq_u16(leads, vdupq_n_u16(0xFF00));
        // Each lane's pair: its own two bytes (lead even) or the next two (lead odd); the
        // lane as big-endian is the table index (lead & 0x7F) << 8 | trail, once
        // `look_up` drops the lead's top bit.
        let pair = vbslq_u8(vreinterpretq_u8_u16(odd), next, v);
        let values = look_up(pairs, vreinterpretq_u16_u8(vrev16q_u8(pair)));
        let unmapped = vandq_u16(vceqzq_u16(values), vorrq_u16(even, odd));
        let v = vreinterpretq_u16_u8(v);
        let even_units = vbslq_u16(even, values, vandq_u16(v, vdupq_n_u16(0x00FF)));
        let odd_units = vbslq_u16(odd, values, vshrq_n_u16::<8>(v));
        (
            [
                vzip1q_u16(even_units, odd_units),
                vzip2q_u16(even_units, odd_units),
            ],
            unmapped,
        )
    }
}

/// Decodes whole 32-byte blocks (31 when the last byte is a lead) of ASCII and pairs of
/// `table` to UTF-16 into `dst` while 40 units of room are left; stops before a block
/// with anything else, and before a block with fewer than `MIN_NON_ASCII` non-ASCII bytes
/// (the UTF-8 path leaves those to the codec's pair loop). Nothing past the returned units
/// is changed. Returns (bytes read, units written).
// Hot loop. Bounds: a block runs only while `i + 32 <= src.len()` and `written + 40 <=
// dst.len()`; `i` advances by 31 or 32 and `written` by the units stored (at most 32), so
// neither passes its limit. Table indexes are masked to 8 bits (`KEPT_UNITS`) and 15 bits
// (`look_up`); the group ends are sums of at most 32.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
fn decode<const MIN_NON_ASCII: u32>(
    src: &[u8],
    table: &PairTable,
    dst: &mut Slots<u16>,
) -> (usize, usize) {
    let Some(pairs) = table.rows().as_flattened().first_chunk::<ENTRIES>() else {
        return (0, 0); // cannot happen: the rows are exactly `ENTRIES` long
    };
    let bitmap = capable_bitmap(table.lead_map());
    let (weights, row_bits) = (constant(&LANE_BITS), constant(&ROW_BITS));
    let (room, d) = (dst.len(), out_ptr(dst));
    let (mut i, mut written) = (0, 0);
    while i + BLOCK <= src.len() && written + BLOCK_ROOM <= room {
        // SAFETY: `i + 32 <= src.len()`.
        let (v0, v1) = unsafe {
            let p = src.as_ptr().add(i);
            (load(p), load(p.add(16)))
        };
        // SAFETY: NEON is part of every aarch64 target (register operations only).
        if unsafe { vmaxvq_u8(vorrq_u8(v0, v1)) } < 0x80 {
            if MIN_NON_ASCII > 0 {
                break;
            }
            // SAFETY: `written + 32 <= room`; NEON is part of every aarch64 target.
            unsafe {
                let out = d.add(written);
                vst1q_u16(out, vmovl_u8(vget_low_u8(v0)));
                vst1q_u16(out.add(8), vmovl_high_u8(v0));
                vst1q_u16(out.add(16), vmovl_u8(vget_low_u8(v1)));
                vst1q_u16(out.add(24), vmovl_high_u8(v1));
            }
            written += BLOCK;
            i += BLOCK;
            continue;
        }
        // SAFETY: NEON is part of every aarch64 target (register operations only).
        let (capable, non_ascii) = unsafe {
            masks(
                [
                    capable_lanes(v0, bitmap, row_bits),
                    capable_lanes(v1, bitmap, row_bits),
                ],
                [
                    vcltzq_s8(vreinterpretq_s8_u8(v0)),
                    vcltzq_s8(vreinterpretq_s8_u8(v1)),
                ],
                weights,
            )
        };
        if non_ascii.count_ones() < MIN_NON_ASCII {
            break;
        }
        let Some(Roles {
            leads,
            trails,
            len,
            in_block,
        }) = roles(capable, non_ascii)
        else {
            break;
        };
        // The second register's `next` ends with a byte of its own: only a lead at
        // position 31 would read it, and that lead was dropped above.
        // SAFETY: NEON is part of every aarch64 target (register operations only).
        let (next0, next1) = unsafe { (vextq_u8::<1>(v0, v1), vextq_u8::<1>(v1, v1)) };
        let ([g0, g1], unmapped0) = units(pairs, v0, next0, lanes_of::<0>(leads, weights));
        let ([g2, g3], unmapped1) = units(pairs, v1, next1, lanes_of::<1>(leads, weights));
        // SAFETY: NEON is part of every aarch64 target (register operations only).
        if unsafe { vmaxvq_u16(vorrq_u16(unmapped0, unmapped1)) } != 0 {
            break;
        }
        let starts = !trails & in_block;
        // Byte g: the units kept in groups 0 to g (per-byte popcounts, then running sums).
        // SAFETY: NEON is part of every aarch64 target (register operations only).
        let ends = unsafe {
            vget_lane_u32::<0>(vreinterpret_u32_u8(vcnt_u8(vcreate_u8(u64::from(starts)))))
        }
        .wrapping_mul(0x0101_0101);
        let end = |g: u32| (ends >> (8 * g) & 0xFF) as usize;
        let n = end(3);
        let pack = |group: uint16x8_t, g: u32| {
            let keep = &KEPT_UNITS[(starts >> (8 * g) & 0xFF) as usize];
            // SAFETY: NEON is part of every aarch64 target; the table entry is 16 bytes.
            unsafe { vreinterpretq_u16_u8(vqtbl1q_u8(vreinterpretq_u8_u16(group), constant(keep))) }
        };
        // SAFETY: `written + 40 <= room`: each 16-byte store starts at most 24 units past
        // `written` and ends at most 8 units past the block's `n <= 32`; those 8 units are
        // saved first and put back (copied as `MaybeUninit`: they may be uninitialised).
        unsafe {
            let out = d.add(written);
            let after = out.add(n).cast::<MaybeUninit<[u16; 8]>>().read_unaligned();
            vst1q_u16(out, pack(g0, 0));
            vst1q_u16(out.add(end(0)), pack(g1, 1));
            vst1q_u16(out.add(end(1)), pack(g2, 2));
            vst1q_u16(out.add(end(2)), pack(g3, 3));
            out.add(n)
                .cast::<MaybeUninit<[u16; 8]>>()
                .write_unaligned(after);
        }
        written += n;
        i += len;
    }
    (i, written)
}

/// [`decode`] into `dst`: every block with ASCII and pairs only.
pub(crate) fn to_utf16(src: &[u8], table: &PairTable, dst: &mut Slots<u16>) -> (usize, usize) {
    decode::<0>(src, table, dst)
}

/// Room in bytes of UTF-8 that one 32-byte block of the UTF-8 path needs: 16 pairs of three
/// bytes each at most (an ASCII byte gives one).
const UTF8_BLOCK_ROOM: usize = 48;

/// The UTF-8 path stops before a block with fewer non-ASCII bytes than this (the AVX2
/// kernel's figure, measured on x86: markup and Latin text between CJK characters are
/// cheaper in the codec's pair loop, one store per ASCII byte, than widened and narrowed
/// again).
pub(crate) const UTF8_MIN_NON_ASCII: u32 = 16;

/// ... and starts only where the next this many bytes are such blocks.
pub(crate) const UTF8_DENSE_AHEAD: usize = 128;

/// Whether every 32-byte block of `src` (a multiple of 32 bytes long) has at least
/// `min_non_ascii` non-ASCII bytes.
fn dense(src: &[u8], min_non_ascii: u32) -> bool {
    src.chunks_exact(BLOCK).all(|block| {
        // SAFETY: `block` is 32 bytes long; NEON is part of every aarch64 target.
        let n = unsafe {
            let p = block.as_ptr();
            let top = vaddq_u8(vshrq_n_u8::<7>(load(p)), vshrq_n_u8::<7>(load(p.add(16))));
            vaddvq_u8(top)
        };
        u32::from(n) >= min_non_ascii
    })
}

/// Into UTF-8 in two passes over up to 16 blocks at a time, as the AVX2 kernel: [`decode`]
/// into a buffer on the stack (1 KiB), then the UTF-16 → UTF-8 kernel into `dst`; it
/// stops before a block of mostly ASCII ([`UTF8_MIN_NON_ASCII`]) and starts only where the
/// next [`UTF8_DENSE_AHEAD`] bytes are such blocks (after a probe of two of their bytes).
/// A block runs only while [`UTF8_BLOCK_ROOM`] bytes of room are left, so the second pass
/// always has room for every unit of the first; block boundaries are the UTF-16 kernel's
/// over the whole input (a chunk that ends inside a block leaves that block to the next
/// chunk). Nothing past the returned bytes is changed.
// Bounds: `read <= src.len()` and `written <= dst.len()` (sums of what the kernels report
// over `src[read..]` and `dst[written..]`); `take <= src.len() - read`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn to_utf8(src: &[u8], table: &PairTable, dst: &mut Slots<u8>) -> (usize, usize) {
    const BLOCKS: usize = 16;
    // A probe first: text that mixes short CJK runs with ASCII calls here at every run,
    // and most calls end here.
    if !(src.get(64).is_some_and(|&b| b >= 0x80)
        && src.get(UTF8_DENSE_AHEAD - 1).is_some_and(|&b| b >= 0x80)
        && src
            .get(..UTF8_DENSE_AHEAD)
            .is_some_and(|ahead| dense(ahead, UTF8_MIN_NON_ASCII)))
    {
        return (0, 0);
    }
    // `decode` runs a block while 40 units of room are left (32 and the 8 its last packed
    // store may cover): 15 blocks of at most 32 units, then 40.
    let mut units = [MaybeUninit::<u16>::uninit(); BLOCKS * BLOCK + 8];
    let (mut read, mut written) = (0, 0);
    loop {
        let blocks = ((dst.len() - written) / UTF8_BLOCK_ROOM).min(BLOCKS);
        let take = (src.len() - read).min(blocks * BLOCK);
        if take < BLOCK {
            break;
        }
        let (r, u) = decode::<UTF8_MIN_NON_ASCII>(&src[read..read + take], table, &mut units);
        if r == 0 {
            break;
        }
        // SAFETY: `decode` stored (initialised) the first `u` units of `units`.
        let units = unsafe { core::slice::from_raw_parts(units.as_ptr().cast::<u16>(), u) };
        // Table entries and ASCII: no surrogates, and room for all (see above).
        let (units_read, w) = crate::simd::utf16::neon::units_to_utf8(units, &mut dst[written..]);
        debug_assert_eq!(units_read, u);
        if units_read != u {
            // Cannot happen (see above); what was written past `written` is not reported.
            break;
        }
        read += r;
        written += w;
        if r + BLOCK <= take {
            break; // stopped before a block with something else
        }
    }
    (read, written)
}
