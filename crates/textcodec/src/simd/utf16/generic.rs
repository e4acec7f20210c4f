//! UTF-16 (bytes, either order) → code units, written once over [`Vector`]: each
//! vector level's file (`sse2.rs`, `avx2.rs`, `neon.rs`, `simd128.rs`) instantiates it.

use crate::simd::vector::{Isa, Vector};
use crate::simd::{out_ptr, Slots};

/// Blocks of `LANES / 2` units without surrogates, copied (byte-swapped for
/// big-endian); stops before a block with a surrogate (the scalar twin takes it).
/// Returns (bytes read, units written).
// Hot loop. Bounds: `read` and `written` only advance by `LANES` and `LANES / 2` while
// `read + LANES <= src.len()` and `written + LANES / 2 <= dst.len()`, so neither passes
// its slice's length and the sums cannot overflow.
#[allow(clippy::arithmetic_side_effects)]
#[inline(always)]
pub(super) fn bytes_to_units<V: Vector>(
    isa: Isa<V>,
    src: &[u8],
    big_endian: bool,
    dst: &mut Slots<u16>,
) -> (usize, usize) {
    let (top5, surrogate) = (V::splat16(isa, 0xF800), V::splat16(isa, 0xD800));
    let (mut read, mut written) = (0, 0);
    while read + V::LANES <= src.len() && written + V::LANES / 2 <= dst.len() {
        // SAFETY: `read + LANES <= src.len()`.
        let mut v = unsafe { V::load(isa, src.as_ptr().add(read)) };
        if big_endian {
            v = v.swap16();
        }
        if v.and(top5).eq16(surrogate).any_high() {
            break;
        }
        // SAFETY: `written + LANES / 2 <= dst.len()`: the store writes `LANES / 2` units.
        unsafe { v.store(out_ptr(dst).add(written).cast()) };
        read += V::LANES;
        written += V::LANES / 2;
    }
    (read, written)
}
