//! WebAssembly SIMD (`simd128`): 32-byte blocks of ASCII and pairs into UTF-16, the NEON
//! kernel's design (see [`super`] and `neon.rs`) with what WebAssembly has:
//!
//! * Classes: the NEON kernel's 16-byte capability bitmap, read by two `i8x16.swizzle`
//!   (the entry for the low nibble, the bit for the high nibble: 0 for ASCII).
//! * Masks: `i8x16.bitmask` gives each register's 16 lanes as an integer at once.
//! * Lookups: as on NEON, each 16-bit lane holds at most one lead; 8 scalar loads per
//!   register put the pairs into fixed lanes (`i16x8.replace_lane`), lead or not.
//! * Packing: `i8x16.swizzle` through `KEPT_UNITS` (its 0x80 entries give 0).
//!
//! The JavaScript package decodes into UTF-16, so only that direction has a kernel here;
//! into UTF-8 the codec's pair loop runs.

use super::blocks::{BLOCK, BLOCK_ROOM, ENTRIES, LANE_BITS, MASK_BYTE, ROW_BITS};
use super::{roles, Roles};
use crate::index::PairTable;
use crate::simd::utf8::pack::KEPT_UNITS;
use crate::simd::{out_ptr, Slots};
use core::arch::wasm32::*;
use core::mem::MaybeUninit;

/// The 16 bytes at `p`.
///
/// # Safety
/// `p .. p + 16` must be readable.
#[inline(always)]
unsafe fn load(p: *const u8) -> v128 {
    // SAFETY: the caller's bound (`v128_load` takes any alignment).
    unsafe { v128_load(p.cast()) }
}

/// A 16-byte constant.
#[inline(always)]
fn constant(bytes: &[u8; 16]) -> v128 {
    // SAFETY: `bytes` is 16 readable bytes.
    unsafe { load(bytes.as_ptr()) }
}

/// The lead-capable bytes as a bitmap `i8x16.swizzle` can read: entry `lo` has bit `h` set
/// when byte `0x80 + 16h + lo` is lead-capable (`lead_map` holds 0xFF or 0 per byte).
#[inline(always)]
// Bounds: `enumerate` over the eight 16-byte rows gives `h < 8`, so `1 << h` fits a byte.
#[allow(clippy::arithmetic_side_effects)]
fn capable_bitmap(lead_map: &[u8; 128]) -> v128 {
    let mut bitmap = u8x16_splat(0);
    for (h, row) in lead_map.chunks_exact(16).enumerate() {
        // SAFETY: `row` is 16 readable bytes.
        let row = unsafe { load(row.as_ptr()) };
        bitmap = v128_or(bitmap, v128_and(row, u8x16_splat(1 << h)));
    }
    bitmap
}

/// 0xFF in the lanes of `v` that are lead-capable (never ASCII).
#[inline(always)]
fn capable_lanes(v: v128, bitmap: v128, row_bits: v128) -> v128 {
    let entry = u8x16_swizzle(bitmap, v128_and(v, u8x16_splat(0x0F)));
    let bit = u8x16_swizzle(row_bits, u8x16_shr(v, 4));
    u8x16_ne(v128_and(entry, bit), u8x16_splat(0))
}

/// 0xFF in the lanes of register `R` (0: bytes 0-15 of the block, 1: bytes 16-31) whose
/// bit of `mask` is set.
#[inline(always)]
// Bounds: `R` is 0 or 1 (the callers' constants).
#[allow(clippy::indexing_slicing)]
fn lanes_of<const R: usize>(mask: u32, weights: v128) -> v128 {
    let spread = u8x16_swizzle(u32x4_splat(mask), constant(&MASK_BYTE[R]));
    u8x16_ne(v128_and(spread, weights), u8x16_splat(0))
}

/// The entries of `pairs` at the 8 lanes of `index` (the low 15 bits of each).
#[inline(always)]
fn look_up(pairs: &[u16; ENTRIES], index: v128) -> v128 {
    /// Entry `index[K] & 0x7FFF` (below `ENTRIES`: the bound check folds away).
    #[inline(always)]
    fn entry<const K: usize>(pairs: &[u16; ENTRIES], index: v128) -> u16 {
        let i = usize::from(u16x8_extract_lane::<K>(index) & 0x7FFF);
        pairs.get(i).copied().unwrap_or(0)
    }
    u16x8(
        entry::<0>(pairs, index),
        entry::<1>(pairs, index),
        entry::<2>(pairs, index),
        entry::<3>(pairs, index),
        entry::<4>(pairs, index),
        entry::<5>(pairs, index),
        entry::<6>(pairs, index),
        entry::<7>(pairs, index),
    )
}

/// One register of a block: the units at its 16 byte positions as two groups of 8 (the
/// pair at a lead, the byte itself elsewhere), and a lane mask (0xFFFF) of the lanes whose
/// lead has no pair. `v` is the register, `next` the 16 bytes from one byte on, `leads`
/// 0xFF at its leads (never two in one 16-bit lane).
#[inline(always)]
fn units(pairs: &[u16; ENTRIES], v: v128, next: v128, leads: v128) -> ([v128; 2], v128) {
    let zero = u16x8_splat(0);
    let even = u16x8_ne(v128_and(leads, u16x8_splat(0x00FF)), zero);
    let odd = u16x8_ne(v128_and(leads, u16x8_splat(0xFF00)), zero);
    // Each lane's pair: its own two bytes (lead even) or the next two (lead odd); the
    // lane as big-endian is the table index (lead & 0x7F) << 8 | trail, once `look_up`
    // drops the lead's top bit.
    let pair = v128_bitselect(next, v, odd);
    let index = i8x16_shuffle::<1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14>(pair, pair);
    let values = look_up(pairs, index);
    let unmapped = v128_and(u16x8_eq(values, zero), v128_or(even, odd));
    let even_units = v128_bitselect(values, v128_and(v, u16x8_splat(0x00FF)), even);
    let odd_units = v128_bitselect(values, u16x8_shr(v, 8), odd);
    (
        [
            i16x8_shuffle::<0, 8, 1, 9, 2, 10, 3, 11>(even_units, odd_units),
            i16x8_shuffle::<4, 12, 5, 13, 6, 14, 7, 15>(even_units, odd_units),
        ],
        unmapped,
    )
}

/// Decodes whole 32-byte blocks (31 when the last byte is a lead) of ASCII and pairs of
/// `table` to UTF-16 into `dst` while 40 units of room are left; stops before a block
/// with anything else. Nothing past the returned units is changed. Returns (bytes read,
/// units written).
// Hot loop. Bounds: a block runs only while `i + 32 <= src.len()` and `written + 40 <=
// dst.len()`; `i` advances by 31 or 32 and `written` by the units stored (at most 32), so
// neither passes its limit. `KEPT_UNITS` is indexed by a byte; the group ends are sums of
// at most 32.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn to_utf16(src: &[u8], table: &PairTable, dst: &mut Slots<u16>) -> (usize, usize) {
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
        let non_ascii = u32::from(u8x16_bitmask(v0)) | u32::from(u8x16_bitmask(v1)) << 16;
        if non_ascii == 0 {
            // SAFETY: `written + 32 <= room`.
            unsafe {
                let out = d.add(written).cast::<v128>();
                v128_store(out, u16x8_extend_low_u8x16(v0));
                v128_store(out.add(1), u16x8_extend_high_u8x16(v0));
                v128_store(out.add(2), u16x8_extend_low_u8x16(v1));
                v128_store(out.add(3), u16x8_extend_high_u8x16(v1));
            }
            written += BLOCK;
            i += BLOCK;
            continue;
        }
        let capable = u32::from(u8x16_bitmask(capable_lanes(v0, bitmap, row_bits)))
            | u32::from(u8x16_bitmask(capable_lanes(v1, bitmap, row_bits))) << 16;
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
        let next0 = i8x16_shuffle::<1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16>(v0, v1);
        let next1 = i8x16_shuffle::<1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 15>(v1, v1);
        // A register without a lead (ASCII, or the trail of the last one) is only widened:
        // its 8 lookups are most of a block's cost.
        let ([g0, g1], unmapped0) = if leads & 0xFFFF == 0 {
            (
                [u16x8_extend_low_u8x16(v0), u16x8_extend_high_u8x16(v0)],
                u8x16_splat(0),
            )
        } else {
            units(pairs, v0, next0, lanes_of::<0>(leads, weights))
        };
        let ([g2, g3], unmapped1) = if leads >> 16 == 0 {
            (
                [u16x8_extend_low_u8x16(v1), u16x8_extend_high_u8x16(v1)],
                u8x16_splat(0),
            )
        } else {
            units(pairs, v1, next1, lanes_of::<1>(leads, weights))
        };
        if v128_any_true(v128_or(unmapped0, unmapped1)) {
            break;
        }
        let starts = !trails & in_block;
        // The units kept in groups 0 to g.
        let end0 = (starts & 0xFF).count_ones() as usize;
        let end1 = (starts & 0xFFFF).count_ones() as usize;
        let end2 = (starts & 0xFF_FFFF).count_ones() as usize;
        let n = starts.count_ones() as usize;
        let pack = |group: v128, g: u32| {
            u8x16_swizzle(
                group,
                constant(&KEPT_UNITS[(starts >> (8 * g) & 0xFF) as usize]),
            )
        };
        // SAFETY: `written + 40 <= room`: each 16-byte store starts at most 24 units past
        // `written` and ends at most 8 units past the block's `n <= 32`; those 8 units are
        // saved first and put back (copied as `MaybeUninit`: they may be uninitialised).
        unsafe {
            let out = d.add(written);
            let after = out.add(n).cast::<MaybeUninit<[u16; 8]>>().read_unaligned();
            v128_store(out.cast(), pack(g0, 0));
            v128_store(out.add(end0).cast(), pack(g1, 1));
            v128_store(out.add(end1).cast(), pack(g2, 2));
            v128_store(out.add(end2).cast(), pack(g3, 3));
            out.add(n)
                .cast::<MaybeUninit<[u16; 8]>>()
                .write_unaligned(after);
        }
        written += n;
        i += len;
    }
    (i, written)
}
