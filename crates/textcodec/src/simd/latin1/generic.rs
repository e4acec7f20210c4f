//! Latin-1 ↔ UTF-16 units, written once over [`Vector`]: each vector level's file
//! instantiates them inside its `#[target_feature]` function. Whole vectors only; the
//! family functions finish with the scalar twins.

use crate::simd::vector::{Isa, Vector};
use crate::simd::{out_ptr, Slots};

/// Widens whole vectors of `src` into `dst` (the same length); returns the bytes done.
// Bounds: `i` advances by `LANES` while `i + LANES <= n`, `n` the shorter length.
#[allow(clippy::arithmetic_side_effects)]
#[inline(always)]
pub(super) fn to_utf16<V: Vector>(isa: Isa<V>, src: &[u8], dst: &mut Slots<u16>) -> usize {
    let n = src.len().min(dst.len());
    let (s, d) = (src.as_ptr(), out_ptr(dst).cast::<u8>());
    let mut i = 0;
    while i + V::LANES <= n {
        // SAFETY: `i + LANES <= n`: the load reads `src[i..i + LANES]` and the stores
        // write `dst[i..i + LANES]`, `2 * LANES` bytes.
        unsafe {
            let (lo, hi) = V::load(isa, s.add(i)).widen();
            lo.store(d.add(2 * i));
            hi.store(d.add(2 * i + V::LANES));
        }
        i += V::LANES;
    }
    i
}

/// Narrows whole vectors of `src` into `dst` (the same length) while every unit is below
/// U+0100; returns the units done.
// Bounds: `i` advances by `LANES` units while `i + LANES <= n`.
#[allow(clippy::arithmetic_side_effects)]
#[inline(always)]
pub(super) fn from_utf16<V: Vector>(isa: Isa<V>, src: &[u16], dst: &mut Slots<u8>) -> usize {
    let n = src.len().min(dst.len());
    let (s, d) = (src.as_ptr().cast::<u8>(), out_ptr(dst));
    let high = V::splat16(isa, 0xFF00);
    let mut i = 0;
    while i + V::LANES <= n {
        // SAFETY: `i + LANES <= n`: the loads read `src[i..i + LANES]` (`2 * LANES`
        // bytes).
        let (a, b) = unsafe {
            (
                V::load(isa, s.add(2 * i)),
                V::load(isa, s.add(2 * i + V::LANES)),
            )
        };
        if !a.or(b).and(high).is_zero() {
            break;
        }
        // SAFETY: the store writes `dst[i..i + LANES]`.
        unsafe { V::narrow(a, b).store(d.add(i)) };
        i += V::LANES;
    }
    i
}
