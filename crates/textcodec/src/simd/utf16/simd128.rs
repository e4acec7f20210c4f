//! WebAssembly SIMD (`simd128`): UTF-16 → UTF-16 code units (`generic.rs`) and UTF-16 →
//! UTF-8 with `i8x16.swizzle` packing, 8 units per step: SSE4's method (`sse4.rs`) with
//! the same tables, whose unused 0x80 entries `swizzle` turns into 0 as `pshufb` does.
//! WebAssembly is little-endian: a `u16` lane in memory is a little-endian unit.

use core::mem::MaybeUninit;

use crate::simd::vector::simd128::Simd128;
use crate::simd::vector::Isa;
use crate::simd::{out_ptr, Slots};
use core::arch::wasm32::*;

/// Blocks of 8 units without surrogates, copied (byte-swapped for big-endian): the
/// kernel of `generic.rs`.
pub(crate) fn bytes_to_units(src: &[u8], big_endian: bool, dst: &mut Slots<u16>) -> (usize, usize) {
    super::generic::bytes_to_units(Isa::<Simd128>::simd128(), src, big_endian, dst)
}

/// Swaps the bytes of every `u16` when `big_endian`.
#[inline(always)]
fn order(v: v128, big_endian: bool) -> v128 {
    if big_endian {
        i8x16_shuffle::<1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14>(v, v)
    } else {
        v
    }
}

/// UTF-16 → UTF-8, 8 units per step, for blocks without surrogates (a block with one
/// stops the loop: the scalar twin takes it): all ASCII narrowed (and then 16 units per
/// step while the run lasts); all from U+0800 on in a fixed layout ([`three_byte_8`]);
/// all below U+0800 built in 16-bit lanes and packed with the entry for the one-byte-lane
/// mask ([`below_0800`]); otherwise two halves of 4 units in 32-bit lanes of one to three
/// bytes ([`bmp_8`]). The 16 bytes after a step's output are saved and put back, so
/// nothing past what it reports changes (a step asks for 40 bytes of room: at most 24 of
/// output plus those 16).
// Hot loop. Bounds: `read` advances by 16 (32 in an ASCII run) while that many bytes are
// left; `written` advances by the output's length (at most 24 per step, 16 in an ASCII
// run) while `written + 40` (`+ 16`) is at most `dst.len()`; so neither passes its
// slice's length and the sums cannot overflow.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) fn bytes_to_utf8(src: &[u8], big_endian: bool, dst: &mut Slots<u8>) -> (usize, usize) {
    let above_ascii = u16x8_splat(0xFF80);
    let top5 = u16x8_splat(0xF800);
    let surrogate = u16x8_splat(0xD800);
    let (mut read, mut written) = (0, 0);
    while read + 16 <= src.len() && written + 40 <= dst.len() {
        // SAFETY: `read + 16 <= src.len()`.
        let v = order(
            unsafe { v128_load(src.as_ptr().add(read).cast()) },
            big_endian,
        );
        // SAFETY (all stores below): `written + 40 <= dst.len()`, and a step reads and
        // writes at most its output (24 bytes) plus 16 from `written` on.
        let d = out_ptr(dst);
        if !v128_any_true(v128_and(v, above_ascii)) {
            unsafe { v128_store64_lane::<0>(u8x16_narrow_i16x8(v, v), d.add(written).cast()) };
            read += 16;
            written += 8;
            // An ASCII run: 16 units per step while it lasts (one 16-byte store each).
            while read + 32 <= src.len() && written + 16 <= dst.len() {
                // SAFETY: `read + 32 <= src.len()`; the store writes `dst[written..written
                // + 16]`, in bounds.
                unsafe {
                    let a = order(v128_load(src.as_ptr().add(read).cast()), big_endian);
                    let b = order(v128_load(src.as_ptr().add(read + 16).cast()), big_endian);
                    if v128_any_true(v128_and(v128_or(a, b), above_ascii)) {
                        break;
                    }
                    v128_store(d.add(written).cast(), u8x16_narrow_i16x8(a, b));
                }
                read += 32;
                written += 16;
            }
            continue;
        }
        let top = v128_and(v, top5);
        if v128_any_true(u16x8_eq(top, surrogate)) {
            break;
        }
        let below_0800_lanes = u16x8_eq(top, u16x8_splat(0));
        written = if !v128_any_true(below_0800_lanes) {
            // All three bytes long (CJK text): a fixed layout, stored exactly.
            unsafe { three_byte_8(d.add(written), v) };
            written + 24
        } else if u16x8_all_true(below_0800_lanes) {
            unsafe { store_exact(d, written, &[below_0800(v)]) }
        } else {
            let (low, high) = bmp_8(v, below_0800_lanes);
            unsafe { store_exact(d, written, &[low, high]) }
        };
        read += 16;
    }
    (read, written)
}

/// Writes the UTF-8 of 8 units from U+0800 on that are not surrogates, 24 bytes, at `d`:
/// each unit's three bytes in a fixed place.
///
/// # Safety
/// `d .. d + 24` must be writable.
#[inline(always)]
unsafe fn three_byte_8(d: *mut u8, v: v128) {
    let six = u16x8_splat(0x3F);
    let cont = u16x8_splat(0x80);
    // Per 16-bit lane: 1110xxxx 10xxxxxx in bytes 0 and 1, and 10xxxxxx in byte 0.
    let first = v128_or(u16x8_shr(v, 12), u16x8_splat(0xE0));
    let second = v128_or(v128_and(u16x8_shr(v, 6), six), cont);
    let two = v128_or(first, u16x8_shl(second, 8));
    let third = v128_or(v128_and(v, six), cont);
    // Bytes 0-15 and 16-23 of the output: unit k's bytes are `two[2k]`, `two[2k + 1]`
    // and `third[2k]` (index 16 + 2k of the shuffle's pair).
    let head = i8x16_shuffle::<0, 1, 16, 2, 3, 18, 4, 5, 20, 6, 7, 22, 8, 9, 24, 10>(two, third);
    let tail = i8x16_shuffle::<11, 26, 12, 13, 28, 14, 15, 30, 0, 0, 0, 0, 0, 0, 0, 0>(two, third);
    // SAFETY: the caller guarantees `d .. d + 24`.
    unsafe {
        v128_store(d.cast(), head);
        v128_store64_lane::<0>(tail, d.add(16).cast());
    }
}

/// UTF-8 bytes packed at the start of a register, and how many count.
pub(in crate::simd) type Packed = (v128, usize);

/// Entry `index & 0xFF` of a 256-entry packing table.
#[inline(always)]
// Bounds: the index is below 256.
#[allow(clippy::indexing_slicing)]
fn entry(table: &[[u8; 16]; 256], index: u32) -> v128 {
    // SAFETY: each entry is 16 readable bytes.
    unsafe { v128_load(table[(index & 0xFF) as usize].as_ptr().cast()) }
}

/// Stores `parts` one after the other from `d + at` (16-byte stores), and puts back the
/// 16 bytes that follow the last one (saved first), so only the output's bytes change.
/// Returns the new end.
///
/// # Safety
/// `d + at .. d + end + 16` must be valid for reads and writes, where `end` is the
/// returned end.
#[inline(always)]
// Bounds: the lengths are at most 16 each and few; `at` is within a slice.
#[allow(clippy::arithmetic_side_effects)]
pub(in crate::simd) unsafe fn store_exact(d: *mut u8, at: usize, parts: &[Packed]) -> usize {
    let end = at + parts.iter().map(|&(_, n)| n).sum::<usize>();
    // SAFETY: the caller guarantees `d + at .. d + end + 16`; each 16-byte store starts
    // at most at the last part's start and ends before `end + 16`.
    unsafe {
        // Copied as `MaybeUninit` (the bytes may be uninitialised: see `Slots`).
        let after = d.add(end).cast::<MaybeUninit<[u8; 16]>>().read_unaligned();
        let mut p = d.add(at);
        for &(packed, n) in parts {
            v128_store(p.cast(), packed);
            p = p.add(n);
        }
        d.add(end)
            .cast::<MaybeUninit<[u8; 16]>>()
            .write_unaligned(after);
    }
    end
}

/// The UTF-8 of 8 units below U+0800, packed, and its length (at most 16).
#[inline(always)]
pub(in crate::simd) fn below_0800(v: v128) -> Packed {
    let ascii = u16x8_eq(v128_and(v, u16x8_splat(0xFF80)), u16x8_splat(0));
    // 110xxxxx 10xxxxxx in the lane's bytes 0 and 1 (u >> 6 is at most 0x1F here).
    let lead = v128_or(u16x8_shr(v, 6), u16x8_splat(0xC0));
    let trail = v128_or(v128_and(v, u16x8_splat(0x3F)), u16x8_splat(0x80));
    let lanes = v128_bitselect(v, v128_or(lead, u16x8_shl(trail, 8)), ascii);
    // One bit per lane: set if the lane is one byte long.
    let mask = u32::from(i16x8_bitmask(ascii));
    (
        i8x16_swizzle(lanes, entry(&super::pack::TWO_BYTE_LANES, mask)),
        super::pack::two_byte_len(mask),
    )
}

/// The UTF-8 of 8 units that are not surrogates as two packed halves (units 0-3, 4-7);
/// `below_0800` is the lane mask of the units below U+0800. Each unit's first two bytes
/// and its third are built in 16-bit lanes and interleaved into 32-bit lanes, then packed
/// by the table entry for the 4 lanes' lengths.
#[inline(always)]
// Bounds: the group `g` is 0 or 1, so the shifts stay below 8 bits.
#[allow(clippy::arithmetic_side_effects)]
pub(in crate::simd) fn bmp_8(v: v128, below_0800: v128) -> (Packed, Packed) {
    let six = u16x8_splat(0x3F);
    let cont = u16x8_splat(0x80);
    let ascii = u16x8_eq(v128_and(v, u16x8_splat(0xFF80)), u16x8_splat(0));
    let low6 = v128_or(v128_and(v, six), cont);
    // First two bytes: 110xxxxx 10xxxxxx, or 1110xxxx 10xxxxxx (first byte lowest).
    let two = v128_or(
        v128_or(u16x8_shr(v, 6), u16x8_splat(0xC0)),
        u16x8_shl(low6, 8),
    );
    let mid6 = v128_or(v128_and(u16x8_shr(v, 6), six), cont);
    let three = v128_or(
        v128_or(u16x8_shr(v, 12), u16x8_splat(0xE0)),
        u16x8_shl(mid6, 8),
    );
    let first = v128_bitselect(v, v128_bitselect(two, three, below_0800), ascii);
    // One bit per unit: at least two bytes long; at least three.
    let at_least_2 = !u32::from(i16x8_bitmask(ascii)) & 0xFF;
    let at_least_3 = !u32::from(i16x8_bitmask(below_0800)) & 0xFF;
    let index = |g: u32| ((at_least_2 >> (4 * g)) & 0xF) | (((at_least_3 >> (4 * g)) & 0xF) << 4);
    let pack = |lanes: v128, index: u32| {
        (
            i8x16_swizzle(lanes, entry(&super::pack::THREE_BYTE_LANES, index)),
            super::pack::three_byte_len(index),
        )
    };
    // The third byte is `low6`: in 32-bit lanes, (first two) | third << 16.
    (
        pack(
            i16x8_shuffle::<0, 8, 1, 9, 2, 10, 3, 11>(first, low6),
            index(0),
        ),
        pack(
            i16x8_shuffle::<4, 12, 5, 13, 6, 14, 7, 15>(first, low6),
            index(1),
        ),
    )
}
