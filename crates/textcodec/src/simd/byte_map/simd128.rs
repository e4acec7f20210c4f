//! WebAssembly SIMD (`simd128`): single-byte table lookups, 16 bytes per step, and
//! x-user-defined to UTF-16.
//!
//! The 128 non-ASCII entries split into two byte planes of 128 bytes, each held in eight
//! registers of 16 entries. `i8x16.swizzle` gives 0 for an index of 16 or more, so table
//! `t` is looked up with the index less 16t (an index below 16t wraps to 0xF0 and above,
//! one past the table's end is 16 or more: both give 0) and the eight results are ORed:
//! sixteen lookups per 16 bytes, each entry taken from exactly one table. (SSE4's
//! `pshufb` reads the low four bits of any index below 0x80, hence its XOR-chained
//! tables; NEON's `tbl` looks up 64 entries at once.) The planes are interleaved back
//! into units, or packed to UTF-8 with the UTF-16 → UTF-8 kernel's steps.

use core::mem::MaybeUninit;

use super::super::utf16::simd128::{below_0800, bmp_8, store_exact, Packed};
use crate::index::byte_map::{ByteMap, LinearRange};
use crate::simd::{out_ptr, write_slots, write_utf8, Slots};
use core::arch::wasm32::*;

/// Bytes per step.
const STEP: usize = 16;

/// The two byte planes of the 128 non-ASCII entries, as eight 16-entry tables each.
struct Planes {
    low: [v128; 8],
    high: [v128; 8],
}

impl Planes {
    // Bounds: `t < 8`: the loads read entries `128 + 16t .. 128 + 16t + 16` (32 bytes).
    #[allow(clippy::arithmetic_side_effects)]
    #[inline(always)]
    fn load(units: &[u16; 256]) -> Self {
        let part = |t: usize| {
            // SAFETY: entries `128 + 16t .. 128 + 16t + 16` are within the table.
            let (a, b) = unsafe {
                let p = units.as_ptr().add(128 + 16 * t);
                (v128_load(p.cast()), v128_load(p.add(8).cast()))
            };
            // Little-endian units: the even bytes are the low ones.
            (
                i8x16_shuffle::<0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30>(a, b),
                i8x16_shuffle::<1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31>(a, b),
            )
        };
        let parts: [(v128, v128); 8] = core::array::from_fn(part);
        Planes {
            low: parts.map(|(low, _)| low),
            high: parts.map(|(_, high)| high),
        }
    }

    /// The low and high bytes of the units of 16 bytes, and a lane mask of the bytes that
    /// are errors (a non-ASCII byte whose entry is 0 or a surrogate).
    #[inline(always)]
    fn map(&self, bytes: v128) -> (v128, v128, v128) {
        let mut index = v128_and(bytes, u8x16_splat(0x7F));
        let (mut low, mut high) = (u8x16_splat(0), u8x16_splat(0));
        for (l, h) in self.low.iter().zip(&self.high) {
            low = v128_or(low, i8x16_swizzle(*l, index));
            high = v128_or(high, i8x16_swizzle(*h, index));
            index = u8x16_sub(index, u8x16_splat(16));
        }
        let non_ascii = i8x16_lt(bytes, i8x16_splat(0));
        let low = v128_bitselect(low, bytes, non_ascii);
        let high = v128_and(high, non_ascii);
        let zero = u8x16_eq(v128_or(low, high), u8x16_splat(0));
        let surrogate = u8x16_eq(v128_and(high, u8x16_splat(0xF8)), u8x16_splat(0xD8));
        (low, high, v128_and(v128_or(zero, surrogate), non_ascii))
    }
}

/// The table's linear range (its letters, mostly: `index::byte_map::linear_range`) in registers: a
/// block of ASCII bytes and bytes of the range maps by arithmetic, without the sixteen
/// lookups.
struct Linear {
    lo: v128,
    /// `hi - lo`.
    span: v128,
    offset: v128,
    empty: bool,
    /// The hole's first byte and length - 1 (byte 0 alone, in no range, if it has none).
    hole_lo: v128,
    hole_span: v128,
}

impl Linear {
    #[inline(always)]
    fn new(range: LinearRange) -> Self {
        Linear {
            lo: u8x16_splat(range.lo),
            span: u8x16_splat(range.hi.wrapping_sub(range.lo)),
            offset: u16x8_splat(range.offset),
            empty: range.lo > range.hi,
            hole_lo: u8x16_splat(if range.hole_lo > range.hole_hi {
                0
            } else {
                range.hole_lo
            }),
            hole_span: u8x16_splat(range.hole_hi.saturating_sub(range.hole_lo)),
        }
    }

    /// Units 0-7 and 8-15 of `bytes` if each is ASCII or in the range.
    #[inline(always)]
    fn map(&self, bytes: v128) -> Option<(v128, v128)> {
        // In the range: `byte - lo <= hi - lo` (unsigned).
        let in_range = u8x16_le(u8x16_sub(bytes, self.lo), self.span);
        // Not in the hole: its error bytes go to the lookups, which stop at them.
        let in_hole = u8x16_le(u8x16_sub(bytes, self.hole_lo), self.hole_span);
        let in_range = v128_andnot(in_range, in_hole);
        let ascii = i8x16_ge(bytes, i8x16_splat(0));
        if self.empty || !u8x16_all_true(v128_or(in_range, ascii)) {
            return None;
        }
        let units = |wide: v128| {
            let high = i16x8_gt(wide, i16x8_splat(0x7F));
            u16x8_add(wide, v128_and(high, self.offset))
        };
        Some((
            units(u16x8_extend_low_u8x16(bytes)),
            units(u16x8_extend_high_u8x16(bytes)),
        ))
    }
}

/// The table's top quarter (bytes 0xC0-0xFF) when its 64 entries share one high byte and
/// no linear range covers them: KOI8-R's and KOI8-U's letters, in an order no arithmetic
/// follows. A block of ASCII bytes and such bytes maps by four lookups of the low bytes
/// instead of [`Planes::map`]'s sixteen.
pub(super) struct Quarter {
    low: [v128; 4],
    high: v128,
}

impl Quarter {
    /// The unused quarter of the loop without one.
    const NONE: Quarter = Quarter {
        low: [u64x2(0, 0); 4],
        high: u64x2(0, 0),
    };

    /// First byte of the quarter.
    const FIRST: u8 = 0xC0;

    // Bounds: the loads read entries `0xC0 + 16t .. 0xC0 + 16t + 16`, `t < 4` (32 bytes).
    #[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
    pub(super) fn of(units: &[u16; 256], range: LinearRange) -> Option<Self> {
        let high = units[usize::from(Self::FIRST)] >> 8;
        let covered = range.lo <= range.hi
            && range.lo <= Self::FIRST
            && range.hi == 0xFF
            && (range.hole_lo > range.hole_hi || range.hole_hi < Self::FIRST);
        // A high byte of 0 would make entry 0 (an error byte) look mapped; no surrogates.
        if covered || high == 0 || high & 0xF8 == 0xD8 {
            return None;
        }
        if units[usize::from(Self::FIRST)..]
            .iter()
            .any(|&u| u >> 8 != high)
        {
            return None;
        }
        let part = |t: usize| {
            // SAFETY: entries `0xC0 + 16t .. 0xC0 + 16t + 16` are within the table.
            let (a, b) = unsafe {
                let p = units.as_ptr().add(usize::from(Self::FIRST) + 16 * t);
                (v128_load(p.cast()), v128_load(p.add(8).cast()))
            };
            i8x16_shuffle::<0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30>(a, b)
        };
        Some(Quarter {
            low: core::array::from_fn(part),
            high: u8x16_splat(high as u8),
        })
    }

    /// Units 0-7 and 8-15 of `bytes` if each is ASCII or in the quarter.
    #[inline(always)]
    fn map(&self, bytes: v128) -> Option<(v128, v128)> {
        let ascii = i8x16_ge(bytes, i8x16_splat(0));
        let top = u8x16_ge(bytes, u8x16_splat(Self::FIRST));
        if !u8x16_all_true(v128_or(ascii, top)) {
            return None;
        }
        // ASCII bytes index 0x40..=0xBF here, past every table (swizzle gives 0).
        let mut index = u8x16_sub(bytes, u8x16_splat(Self::FIRST));
        let mut low = u8x16_splat(0);
        for table in &self.low {
            low = v128_or(low, i8x16_swizzle(*table, index));
            index = u8x16_sub(index, u8x16_splat(16));
        }
        Some(interleave(
            v128_bitselect(bytes, low, ascii),
            v128_andnot(self.high, ascii),
        ))
    }
}

/// Units 0-7 and 8-15 of 16 bytes' low and high planes.
#[inline(always)]
fn interleave(low: v128, high: v128) -> (v128, v128) {
    (
        i8x16_shuffle::<0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23>(low, high),
        i8x16_shuffle::<8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31>(low, high),
    )
}

/// The units of a step, stored to a buffer to be copied up to an error.
#[inline]
fn spill(a: v128, b: v128) -> [u16; 16] {
    let mut units = [0u16; 16];
    // SAFETY: `units` holds 16 units: two 8-unit stores.
    unsafe {
        v128_store(units.as_mut_ptr().cast(), a);
        v128_store(units.as_mut_ptr().add(8).cast(), b);
    }
    units
}

/// The unit of non-ASCII byte `b`, `None` for an error byte (entry 0, or a surrogate,
/// which no index has).
#[inline(always)]
// Bounds: a byte indexes the 256 entries.
#[allow(clippy::indexing_slicing)]
fn mapped(units: &[u16; 256], b: u8) -> Option<u16> {
    let u = units[usize::from(b)];
    (u != 0 && u & 0xF800 != 0xD800).then_some(u)
}

/// The positions of the non-ASCII bytes of a block whose high-bit mask is `mask`, when
/// there are one or two (`16` for a missing second).
#[inline(always)]
fn sparse(mask: u32) -> Option<(usize, usize)> {
    let rest = mask & mask.wrapping_sub(1);
    if mask == 0 || rest & rest.wrapping_sub(1) != 0 {
        return None;
    }
    Some((
        mask.trailing_zeros() as usize,
        rest.trailing_zeros().min(16) as usize,
    ))
}

/// Single-byte decode into UTF-16, 16 bytes per step: an ASCII block widened; a block of
/// ASCII and the linear range by arithmetic ([`Linear::map`]); a block with one or two
/// other non-ASCII bytes widened and those lanes replaced by their table entries, looked
/// up one by one ([`sparse_to_utf16`]); any other block through the sixteen lookups of
/// [`Planes::map`] (which also finds the exact position of an error byte); for a table
/// with a [`Quarter`], a block of ASCII and its bytes by that quarter's four lookups.
pub(in crate::simd) fn to_utf16(src: &[u8], map: &ByteMap<'_>, dst: &mut Slots<u16>) -> usize {
    // Inputs too short to pay for the quarter's check go without it.
    match Quarter::of(map.units, map.linear).filter(|_| src.len() >= 256) {
        Some(quarter) => to_utf16_steps::<true>(src, map, &quarter, dst),
        None => to_utf16_steps::<false>(src, map, &Quarter::NONE, dst),
    }
}

/// [`to_utf16`]'s loop, with [`Quarter::map`] (`QUARTER`) or without it: two functions,
/// so that the loop of tables without a quarter is the code it was (V8 compiled the whole
/// loop differently when it merely held the quarter's path, and windows-1251 lost).
// Hot loop. Bounds: a step runs only while `i + 16 <= n` (the shorter length), then `i`
// advances by 16, so it never passes `n`; `valid` is below 16.
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
#[inline(never)]
fn to_utf16_steps<const QUARTER: bool>(
    src: &[u8],
    map: &ByteMap<'_>,
    quarter: &Quarter,
    dst: &mut Slots<u16>,
) -> usize {
    let (units, range) = (map.units, map.linear);
    let n = src.len().min(dst.len());
    let planes = Planes::load(units);
    let linear = Linear::new(range);
    let mut i = 0;
    while i + STEP <= n {
        // SAFETY: `i + 16 <= n`: the load reads `src[i..i + 16]`.
        let bytes = unsafe { v128_load(src.as_ptr().add(i).cast()) };
        let mask = u32::from(u8x16_bitmask(bytes));
        let block = &mut dst[i..i + STEP];
        if mask == 0 {
            store_widened(block, bytes);
            i += STEP;
            continue;
        }
        if QUARTER {
            if let Some(units) = quarter.map(bytes) {
                store_units(block, units);
                i += STEP;
                continue;
            }
        }
        if let Some(units) = linear.map(bytes) {
            store_units(block, units);
            i += STEP;
            continue;
        }
        if let Some(positions) = sparse(mask) {
            if sparse_to_utf16(&src[i..i + STEP], bytes, positions, units, block) {
                i += STEP;
                continue;
            }
        }
        let (low, high, errors) = planes.map(bytes);
        let (a, b) = interleave(low, high);
        let errors = u8x16_bitmask(errors);
        if errors != 0 {
            let valid = errors.trailing_zeros() as usize;
            write_slots(&mut block[..valid], &spill(a, b)[..valid]);
            return i + valid;
        }
        store_units(block, (a, b));
        i += STEP;
    }
    i
}

/// Units 0-7 and 8-15 stored into `block` (16 units).
#[inline(always)]
fn store_units(block: &mut Slots<u16>, (a, b): (v128, v128)) {
    if block.len() >= STEP {
        // SAFETY: the stores write the 16 units of `block`.
        unsafe {
            let d = out_ptr(block);
            v128_store(d.cast(), a);
            v128_store(d.add(8).cast(), b);
        }
    }
}

/// The 16 bytes of `bytes` widened into `block` (16 units).
#[inline(always)]
fn store_widened(block: &mut Slots<u16>, bytes: v128) {
    if block.len() >= STEP {
        // SAFETY: the stores write the 16 units of `block`.
        unsafe {
            let d = out_ptr(block);
            v128_store(d.cast(), u16x8_extend_low_u8x16(bytes));
            v128_store(d.add(8).cast(), u16x8_extend_high_u8x16(bytes));
        }
    }
}

/// [`to_utf16`]'s step for a block `src` (16 bytes, `bytes` in a register) whose only
/// non-ASCII bytes are at `p1` and `p2` (16: none): their entries looked up first
/// (`false`, nothing written, if one is an error byte), then the block widened into
/// `block` and those lanes replaced. Out of line: the loop around the ASCII blocks stays
/// small (inlined, it made ASCII-heavy text 1.8x slower in V8).
#[inline(never)]
// Bounds: positions are below 16, the length of `src` and `block`.
#[allow(clippy::indexing_slicing)]
fn sparse_to_utf16(
    src: &[u8],
    bytes: v128,
    (p1, p2): (usize, usize),
    units: &[u16; 256],
    block: &mut Slots<u16>,
) -> bool {
    let Some(u1) = mapped(units, src[p1]) else {
        return false;
    };
    let u2 = if p2 < STEP {
        match mapped(units, src[p2]) {
            Some(u) => u,
            None => return false,
        }
    } else {
        0
    };
    store_widened(block, bytes);
    block[p1].write(u1);
    if p2 < STEP {
        block[p2].write(u2);
    }
    true
}

/// Output bytes a step may need: three per byte, and the 16 that `store_exact` saves and
/// restores after them.
const ROOM: usize = 3 * STEP + 16;

/// Single-byte decode into UTF-8, 16 bytes per step: an ASCII block copied; a block with
/// one or two non-ASCII bytes ([`sparse_to_utf8`]) as its ASCII stretches around their
/// characters; any other block through [`Planes::map`] and the UTF-16 → UTF-8 packing.
// Hot loop. Bounds: a step runs only while `i + 16 <= src.len()` and `written + 64 <=
// dst.len()`, writes at most 48 bytes of output (plus the 16 after them, restored) and
// advances `i` by at most 16; `valid` is below 16.
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
pub(in crate::simd) fn to_utf8(
    src: &[u8],
    map: &ByteMap<'_>,
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    let (units, range) = (map.units, map.linear);
    let planes = Planes::load(units);
    let linear = Linear::new(range);
    let (mut i, mut written) = (0, 0);
    while i + STEP <= src.len() && written + ROOM <= dst.len() {
        // SAFETY: `i + 16 <= src.len()`: the load reads `src[i..i + 16]`.
        let bytes = unsafe { v128_load(src.as_ptr().add(i).cast()) };
        let d = out_ptr(dst);
        let mask = u32::from(u8x16_bitmask(bytes));
        if mask == 0 {
            // SAFETY: `written + 64 <= dst.len()`: the store writes 16 bytes.
            unsafe { v128_store(d.add(written).cast(), bytes) };
            i += STEP;
            written += STEP;
            continue;
        }
        let linear_units = linear.map(bytes);
        if linear_units.is_none() {
            if let Some(end) =
                sparse(mask)
                    .filter(|_| i + 2 * STEP <= src.len())
                    .and_then(|(p1, p2)| {
                        sparse_to_utf8(&src[i..i + 2 * STEP], units, p1, p2, dst, written)
                    })
            {
                i += STEP;
                written = end;
                continue;
            }
        }
        let (a, b) = match linear_units {
            Some(units) => units,
            None => {
                let (low, high, errors) = planes.map(bytes);
                let (a, b) = interleave(low, high);
                let errors = u8x16_bitmask(errors);
                if errors != 0 {
                    // The characters before the error, one at a time (rare).
                    let valid = errors.trailing_zeros() as usize;
                    for &u in &spill(a, b)[..valid] {
                        let c = char::from_u32(u32::from(u)).unwrap_or('\u{FFFD}');
                        let len = c.len_utf8();
                        write_utf8(&mut dst[written..written + len], c);
                        written += len;
                    }
                    return (i + valid, written);
                }
                (a, b)
            }
        };
        let mut parts: [Packed; 4] = [(u8x16_splat(0), 0); 4];
        let mut count = 0;
        for v in [a, b] {
            let below_0800_lanes = u16x8_eq(v128_and(v, u16x8_splat(0xF800)), u16x8_splat(0));
            if u16x8_all_true(below_0800_lanes) {
                parts[count] = below_0800(v);
                count += 1;
            } else {
                (parts[count], parts[count + 1]) = bmp_8(v, below_0800_lanes);
                count += 2;
            }
        }
        // SAFETY: the parts hold at most 48 bytes; `written + 64 <= dst.len()`.
        written = unsafe { store_exact(d, written, &parts[..count]) };
        i += STEP;
    }
    (i, written)
}

/// The UTF-8 of the block `src[..16]` (with `src[16..32]` readable after it) whose only
/// non-ASCII bytes are at `p1` and `p2` (16: none), written at `dst[at..]`: each ASCII
/// stretch by a 16-byte copy from the input (the next stretch's copy overwrites what one
/// copies too far), each character by itself; the 16 bytes after the end are saved first
/// and put back, so nothing past it changes. Returns the end, or `None` (nothing written)
/// at an error byte. The caller guarantees `at + 64 <= dst.len()`.
#[inline(always)]
// Bounds: `p1 < p2 <= 16`; the output is at most 16 - 2 + 2 * 3 = 20 bytes, every store
// starts at or before its end, so all lie within `dst[at..at + 36]`; the loads read
// `src[p + 1..p + 17]` for `p < 16`, within its 32 bytes.
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
fn sparse_to_utf8(
    src: &[u8],
    units: &[u16; 256],
    p1: usize,
    p2: usize,
    dst: &mut Slots<u8>,
    at: usize,
) -> Option<usize> {
    let char_of = |b: u8| char::from_u32(u32::from(mapped(units, b)?));
    let c1 = char_of(src[p1])?;
    let c2 = if p2 < 16 {
        Some(char_of(src[p2])?)
    } else {
        None
    };
    let (l1, l2) = (c1.len_utf8(), c2.map_or(0, char::len_utf8));
    let end = at + 16 - 1 - usize::from(c2.is_some()) + l1 + l2;
    let d = out_ptr(dst);
    // SAFETY: `dst[at..at + 36]` is writable (see Bounds); the 16 bytes after `end` are
    // copied as `MaybeUninit` (they may be uninitialised: see `Slots`).
    let after = unsafe { d.add(end).cast::<MaybeUninit<[u8; 16]>>().read_unaligned() };
    let copy = |from: usize, to: usize| {
        // SAFETY: `src[from..from + 16]` is readable and `dst[to..to + 16]` writable (see
        // Bounds).
        unsafe { v128_store(d.add(to).cast(), v128_load(src.as_ptr().add(from).cast())) }
    };
    copy(0, at);
    let mut to = at + p1;
    write_utf8(&mut dst[to..to + l1], c1);
    to += l1;
    copy(p1 + 1, to);
    if let Some(c2) = c2 {
        to += p2 - p1 - 1;
        write_utf8(&mut dst[to..to + l2], c2);
        to += l2;
        copy(p2 + 1, to);
    }
    // SAFETY: as above.
    unsafe {
        d.add(end)
            .cast::<MaybeUninit<[u8; 16]>>()
            .write_unaligned(after)
    };
    Some(end)
}

/// x-user-defined to UTF-16, 16 bytes per step: ASCII as it is, 0x80 + k to U+F780 + k
/// (a high byte of 0xF7 under every non-ASCII byte). Every byte is valid.
// Hot loop. Bounds: `i` advances by 16 while `i + 16 <= n` (the shorter length).
#[allow(clippy::arithmetic_side_effects)]
pub(in crate::simd) fn x_user_defined_to_utf16(src: &[u8], dst: &mut Slots<u16>) -> usize {
    let n = src.len().min(dst.len());
    let mut i = 0;
    while i + STEP <= n {
        // SAFETY: `i + 16 <= n`: the load reads `src[i..i + 16]`, the stores write
        // `dst[i..i + 16]` (32 bytes).
        unsafe {
            let bytes = v128_load(src.as_ptr().add(i).cast());
            let high = v128_and(i8x16_lt(bytes, i8x16_splat(0)), u8x16_splat(0xF7));
            let (a, b) = interleave(bytes, high);
            let d = out_ptr(dst).add(i);
            v128_store(d.cast(), a);
            v128_store(d.add(8).cast(), b);
        }
        i += STEP;
    }
    i
}
