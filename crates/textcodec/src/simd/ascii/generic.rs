//! The ASCII kernels, written once over [`Vector`]: each vector level's file (`sse2.rs`,
//! `avx2.rs`, `neon.rs`, `simd128.rs`) instantiates them inside its `#[target_feature]`
//! function. A step is 64 bytes ([`Block`]: 2 AVX2 vectors, 4 of 16 bytes) while it is
//! ASCII, then one vector at a time, where a vector's high bits give the first non-ASCII
//! byte; the scalar twin takes the tail of less than a vector.

use super::scalar;
use crate::simd::vector::{Block, Isa, Vector, BLOCK};
use crate::simd::{out_ptr, stores_alias_next_loads, write_short, Slots};

/// Length of the longest all-ASCII prefix of `src`.
// Hot loop. Bounds: `i` only advances by a block or a vector while `i + 64` or
// `i + LANES` is at most `src.len()`, so `i <= src.len()` and the sums cannot overflow; a
// mask's trailing zeros are below `LANES`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
#[inline(always)]
pub(super) fn ascii_prefix_len<V: Vector>(isa: Isa<V>, src: &[u8]) -> usize {
    let p = src.as_ptr();
    let mut i = 0;
    while i + BLOCK <= src.len() {
        // SAFETY: `i + 64 <= src.len()`.
        let block = unsafe { Block::load(isa, p.add(i)) };
        if block.or_all().any_high() {
            break;
        }
        i += BLOCK;
    }
    while i + V::LANES <= src.len() {
        // SAFETY: `i + LANES <= src.len()`.
        let mask = unsafe { V::load(isa, p.add(i)) }.high_bits();
        if mask != 0 {
            return i + mask.trailing_zeros() as usize;
        }
        i += V::LANES;
    }
    i + scalar::ascii_prefix_len(&src[i..])
}

/// Copies 64-byte ASCII blocks from `s` to `d` while a whole block fits in `n`, loading
/// each block before storing the one before it (so that no load waits behind a store it
/// 4K-aliases, the output 1–63 bytes after the input modulo 4 KiB); returns the bytes
/// copied (a multiple of 64; it stops before a block with a non-ASCII byte, which the
/// caller looks at again).
///
/// # Safety
/// `s .. s + n` must be readable and `d .. d + n` writable.
// Bounds: the blocks loaded lie in `0..n`: the first while `64 <= n`, each next one while
// `i + 128 <= n`; the stores write the blocks loaded before.
#[allow(clippy::arithmetic_side_effects)]
#[inline(always)]
unsafe fn copy_loading_ahead<V: Vector>(isa: Isa<V>, s: *const u8, d: *mut u8, n: usize) -> usize {
    if n < BLOCK {
        return 0;
    }
    // SAFETY (every load and store below): see Bounds and the caller's guarantee.
    let mut block = unsafe { Block::load(isa, s) };
    let mut i = 0;
    while !block.or_all().any_high() {
        let last = i + 2 * BLOCK > n;
        let next = if last {
            block
        } else {
            unsafe { Block::load(isa, s.add(i + BLOCK)) }
        };
        unsafe { block.store(d.add(i)) };
        i += BLOCK;
        if last {
            break;
        }
        block = next;
    }
    i
}

/// Copies the longest all-ASCII prefix of `src` that fits in `dst`; returns its length.
// Hot loop. Bounds: `n` is the shorter length and `i` only advances by a block or a
// vector while `i + 64` or `i + LANES` is at most `n`, so `i <= n`; a mask's trailing
// zeros `len` are below `LANES`, so `i + len <= n` as well.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
#[inline(always)]
pub(super) fn copy_ascii<V: Vector>(isa: Isa<V>, src: &[u8], dst: &mut Slots<u8>) -> usize {
    let n = src.len().min(dst.len());
    let (s, d) = (src.as_ptr(), out_ptr(dst));
    // With `dst` a few bytes after `src` modulo 4096 each load would follow a store it
    // aliases (4K aliasing): there the next 64 bytes are loaded before these are stored.
    let mut i = if stores_alias_next_loads(s, d) {
        // SAFETY: `n` is at most both lengths.
        unsafe { copy_loading_ahead(isa, s, d, n) }
    } else {
        0
    };
    while i + BLOCK <= n {
        // SAFETY: `i + 64 <= n`, the length of both slices or less.
        let block = unsafe { Block::load(isa, s.add(i)) };
        if block.or_all().any_high() {
            break;
        }
        // SAFETY: as above.
        unsafe { block.store(d.add(i)) };
        i += BLOCK;
    }
    while i + V::LANES <= n {
        // SAFETY: `i + LANES <= n`.
        let v = unsafe { V::load(isa, s.add(i)) };
        let mask = v.high_bits();
        if mask != 0 {
            let len = mask.trailing_zeros() as usize;
            write_short(&mut dst[i..i + len], &src[i..i + len]);
            return i + len;
        }
        // SAFETY: as above.
        unsafe { v.store(d.add(i)) };
        i += V::LANES;
    }
    i + scalar::copy_ascii(&src[i..n], &mut dst[i..n])
}

/// Widens the longest all-ASCII prefix of `src` that fits in `dst`; returns its length.
/// (64-byte blocks first: one vector per step ran at 33 or 51 GB/s at AVX2 depending on
/// where the linker put the same machine code.)
// Hot loop. Bounds: `n` is the shorter length and `i` only advances by `LANES` while
// `i + LANES <= n`, so `i <= n`; a mask's trailing zeros `len` are below `LANES`, so
// every `j` in `i..i + len` is below `n`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
#[inline(always)]
pub(super) fn widen_ascii<V: Vector>(isa: Isa<V>, src: &[u8], dst: &mut Slots<u16>) -> usize {
    let n = src.len().min(dst.len());
    let (s, d) = (src.as_ptr(), out_ptr(dst));
    let mut i = 0;
    while i + BLOCK <= n {
        // SAFETY: `i + 64 <= n`: the load reads `src[i..i + 64]`.
        let block = unsafe { Block::load(isa, s.add(i)) };
        if block.or_all().any_high() {
            break;
        }
        for k in 0..Block::<V>::VECTORS {
            // SAFETY: `k * LANES + LANES <= 64`: the load reads within `src[i..i + 64]`
            // (again: the block's vectors are in registers) and the two stores write
            // `dst[i + k * LANES..][..LANES]`, within `dst[i..i + 64]`.
            unsafe {
                let at = i + k * V::LANES;
                let (low, high) = V::load(isa, s.add(at)).widen();
                low.store(d.add(at).cast());
                high.store(d.add(at + V::LANES / 2).cast());
            }
        }
        i += BLOCK;
    }
    while i + V::LANES <= n {
        // SAFETY: `i + LANES <= n`: the load reads `src[i..i + LANES]`.
        let v = unsafe { V::load(isa, s.add(i)) };
        let mask = v.high_bits();
        if mask != 0 {
            let len = mask.trailing_zeros() as usize;
            for j in i..i + len {
                dst[j].write(u16::from(src[j]));
            }
            return i + len;
        }
        let (low, high) = v.widen();
        // SAFETY: the two stores write `LANES / 2` units each, `dst[i..i + LANES]`.
        unsafe {
            low.store(d.add(i).cast());
            high.store(d.add(i + V::LANES / 2).cast());
        }
        i += V::LANES;
    }
    i + scalar::widen_ascii(&src[i..n], &mut dst[i..n])
}

/// Narrows the longest prefix of `src` whose units are below 0x80 that fits in `dst`,
/// `LANES` units per step (the scalar twin finds the end in the step that has it);
/// returns its length.
// Hot loop. Bounds: `n` is the shorter length and `i` only advances by `LANES` while
// `i + LANES <= n`, so `i <= n` and the tail slices are in bounds.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
#[inline(always)]
pub(super) fn narrow_basic_latin<V: Vector>(
    isa: Isa<V>,
    src: &[u16],
    dst: &mut Slots<u8>,
) -> usize {
    let n = src.len().min(dst.len());
    let (s, d) = (src.as_ptr(), out_ptr(dst));
    let above_ascii = V::splat16(isa, 0xFF80);
    let mut i = 0;
    while i + V::LANES <= n {
        // SAFETY: `i + LANES <= n`: the two loads read `src[i..i + LANES]`.
        let (a, b) = unsafe {
            (
                V::load(isa, s.add(i).cast()),
                V::load(isa, s.add(i + V::LANES / 2).cast()),
            )
        };
        if !a.or(b).and(above_ascii).is_zero() {
            break;
        }
        // SAFETY: the store writes `dst[i..i + LANES]`.
        unsafe { V::narrow(a, b).store(d.add(i)) };
        i += V::LANES;
    }
    i + scalar::narrow_basic_latin(&src[i..n], &mut dst[i..n])
}
