//! The scanning and counting kernels, written once over [`Vector`]: each vector level's
//! file (`sse2.rs`, `avx2.rs`, `neon.rs`, `simd128.rs`) instantiates them inside its
//! `#[target_feature]` function. They do whole vectors only and report how far they got;
//! the family functions finish with the scalar twins.

use crate::simd::vector::{Isa, Vector};

/// Bytes per step of the counting loop.
const STEP: usize = 64;

/// Steps between two sums of the per-lane counters: a vector adds at most 2 to a lane of
/// one of two counters, and a step is at most four vectors (two per counter), so an 8-bit
/// lane holds 63 steps.
const FLUSH: usize = 63;

/// The lanes of `acc` added up: bytes, or (`wide`) little-endian `u16` lanes.
#[inline(always)]
// Bounds: `LANES <= 32`, the array's length; a sum of at most 32 lanes of 16 bits fits.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
fn lanes_sum<V: Vector>(acc: V, wide: bool) -> usize {
    let mut lanes = [0u8; 32];
    // SAFETY: `lanes` has room for `LANES <= 32` bytes.
    unsafe { acc.store(lanes.as_mut_ptr()) };
    let lanes = &lanes[..V::LANES];
    if wide {
        lanes
            .chunks_exact(2)
            .map(|p| usize::from(u16::from_le_bytes([p[0], p[1]])))
            .sum()
    } else {
        lanes.iter().map(|&b| usize::from(b)).sum()
    }
}

/// Counts over the whole vectors of the `len` bytes at `p`: `step(acc, v)` returns `acc`
/// with at most 2 added to each lane (byte lanes, or `u16` lanes when `wide`). Two
/// counters take alternate vectors (two chains of dependent adds instead of one).
/// Returns (bytes read, count).
///
/// # Safety
/// `p .. p + len` must be readable.
// Bounds: `i` advances by `STEP` while `i + STEP <= len` and by `LANES` while `i + LANES
// <= len`; the count is at most twice the lanes read.
#[allow(clippy::arithmetic_side_effects)]
#[inline(always)]
unsafe fn count<V: Vector>(
    isa: Isa<V>,
    p: *const u8,
    len: usize,
    wide: bool,
    step: impl Fn(V, V) -> V,
) -> (usize, usize) {
    let zero = V::splat(isa, 0);
    let (mut i, mut total) = (0, 0);
    while i + STEP <= len {
        let (mut even, mut odd) = (zero, zero);
        let mut steps = 0;
        while steps < FLUSH && i + STEP <= len {
            let mut k = 0;
            while k < STEP {
                // SAFETY: `i + k + 2 * LANES <= i + STEP <= len`.
                unsafe {
                    even = step(even, V::load(isa, p.add(i + k)));
                    odd = step(odd, V::load(isa, p.add(i + k + V::LANES)));
                }
                k += 2 * V::LANES;
            }
            i += STEP;
            steps += 1;
        }
        total += lanes_sum(even, wide) + lanes_sum(odd, wide);
    }
    let mut acc = zero;
    while i + V::LANES <= len {
        // SAFETY: `i + LANES <= len`.
        acc = step(acc, unsafe { V::load(isa, p.add(i)) });
        i += V::LANES;
    }
    (i, total + lanes_sum(acc, wide))
}

/// (Bytes read, bytes that are not continuation bytes: above -65 as `i8`).
#[inline(always)]
pub(super) fn utf8_char_count<V: Vector>(isa: Isa<V>, src: &[u8]) -> (usize, usize) {
    let lead = V::splat(isa, -65i8 as u8);
    // SAFETY: `src` is readable.
    unsafe {
        count(isa, src.as_ptr(), src.len(), false, |acc, v| {
            acc.sub8(v.gt8_signed(lead))
        })
    }
}

/// (Bytes read, their UTF-16 length: one per non-continuation byte, one more per byte
/// from 0xF0 on).
#[inline(always)]
pub(super) fn utf8_utf16_len<V: Vector>(isa: Isa<V>, src: &[u8]) -> (usize, usize) {
    let (lead, four) = (V::splat(isa, -65i8 as u8), V::splat(isa, 0xF0));
    // SAFETY: `src` is readable.
    unsafe {
        count(isa, src.as_ptr(), src.len(), false, |acc, v| {
            acc.sub8(v.gt8_signed(lead)).sub8(v.ge8(four))
        })
    }
}

/// (Bytes read, bytes from 0x80 on: below 0 as `i8`).
#[inline(always)]
pub(super) fn non_ascii_count<V: Vector>(isa: Isa<V>, src: &[u8]) -> (usize, usize) {
    let zero = V::splat(isa, 0);
    // SAFETY: `src` is readable.
    unsafe {
        count(isa, src.as_ptr(), src.len(), false, |acc, v| {
            acc.sub8(zero.gt8_signed(v))
        })
    }
}

/// (Units read, their UTF-8 length with each surrogate counted as two bytes).
// Bounds: the count's bytes read are a multiple of 2 (`LANES` is even); the count adds
// at most 3 per unit.
#[allow(clippy::arithmetic_side_effects)]
#[inline(always)]
pub(super) fn utf16_utf8_len<V: Vector>(isa: Isa<V>, src: &[u16]) -> (usize, usize) {
    // Unsigned comparisons through the signed `gt16`: flipping the top bit keeps order.
    let flip = V::splat16(isa, 0x8000);
    let (above_7f, above_7ff) = (V::splat16(isa, 0x807F), V::splat16(isa, 0x87FF));
    let (top5, surrogate) = (V::splat16(isa, 0xF800), V::splat16(isa, 0xD800));
    // SAFETY: `src` is readable, `2 * src.len()` bytes.
    let (read, extra) = unsafe {
        count(isa, src.as_ptr().cast(), 2 * src.len(), true, |acc, v| {
            let f = v.xor(flip);
            let two = f.gt16(above_7f);
            // From U+0800 on, but not a surrogate (it counts two, with its partner).
            let three = f.gt16(above_7ff).xor(v.and(top5).eq16(surrogate));
            acc.sub16(two).sub16(three)
        })
    };
    (read / 2, read / 2 + extra)
}

/// Units of the whole vectors of `src` before the first one that holds a surrogate.
// Bounds: `i` advances by `LANES / 2` units while `i + LANES / 2 <= src.len()`.
#[allow(clippy::arithmetic_side_effects)]
#[inline(always)]
pub(super) fn utf16_valid_prefix_len<V: Vector>(isa: Isa<V>, src: &[u16]) -> usize {
    let (top5, surrogate) = (V::splat16(isa, 0xF800), V::splat16(isa, 0xD800));
    let units = V::LANES / 2;
    let p = src.as_ptr().cast::<u8>();
    let mut i = 0;
    while i + 2 * units <= src.len() {
        // SAFETY: `i + 2 * units <= src.len()`: both vectors are within `src`.
        let (a, b) = unsafe {
            (
                V::load(isa, p.add(2 * i)),
                V::load(isa, p.add(2 * i + V::LANES)),
            )
        };
        if a.and(top5)
            .eq16(surrogate)
            .or(b.and(top5).eq16(surrogate))
            .any_high()
        {
            break;
        }
        i += 2 * units;
    }
    while i + units <= src.len() {
        // SAFETY: `i + units <= src.len()`.
        let v = unsafe { V::load(isa, p.add(2 * i)) };
        if v.and(top5).eq16(surrogate).any_high() {
            break;
        }
        i += units;
    }
    i
}

/// Length of the prefix of whole vectors, and of the vector where a byte at or above
/// `bound` first appears, up to it.
// Bounds: `i` advances by `LANES` while `i + LANES <= src.len()`; a mask's trailing zeros
// are below `LANES`.
#[allow(clippy::arithmetic_side_effects)]
#[inline(always)]
pub(super) fn prefix_len_below<V: Vector>(isa: Isa<V>, src: &[u8], bound: u8) -> usize {
    let b = V::splat(isa, bound);
    let p = src.as_ptr();
    let mut i = 0;
    while i + 2 * V::LANES <= src.len() {
        // SAFETY: `i + 2 * LANES <= src.len()`.
        let (x, y) = unsafe { (V::load(isa, p.add(i)), V::load(isa, p.add(i + V::LANES))) };
        if x.ge8(b).or(y.ge8(b)).any_high() {
            break;
        }
        i += 2 * V::LANES;
    }
    while i + V::LANES <= src.len() {
        // SAFETY: `i + LANES <= src.len()`.
        let mask = unsafe { V::load(isa, p.add(i)) }.ge8(b).high_bits();
        if mask != 0 {
            return i + mask.trailing_zeros() as usize;
        }
        i += V::LANES;
    }
    i
}

/// [`prefix_len_below`] for `u16` units.
// Bounds: as for `prefix_len_below`, in units (a mask has two bits per unit).
#[allow(clippy::arithmetic_side_effects)]
#[inline(always)]
pub(super) fn utf16_prefix_len_below<V: Vector>(isa: Isa<V>, src: &[u16], bound: u16) -> usize {
    if bound == 0 {
        return 0;
    }
    let flip = V::splat16(isa, 0x8000);
    let last = V::splat16(isa, (bound - 1) ^ 0x8000);
    let units = V::LANES / 2;
    let p = src.as_ptr().cast::<u8>();
    let mut i = 0;
    while i + 2 * units <= src.len() {
        // SAFETY: `i + 2 * units <= src.len()`.
        let (x, y) = unsafe {
            (
                V::load(isa, p.add(2 * i)),
                V::load(isa, p.add(2 * i + V::LANES)),
            )
        };
        if x.xor(flip).gt16(last).or(y.xor(flip).gt16(last)).any_high() {
            break;
        }
        i += 2 * units;
    }
    while i + units <= src.len() {
        // SAFETY: `i + units <= src.len()`.
        let mask = unsafe { V::load(isa, p.add(2 * i)) }
            .xor(flip)
            .gt16(last)
            .high_bits();
        if mask != 0 {
            return i + mask.trailing_zeros() as usize / 2;
        }
        i += units;
    }
    i
}
