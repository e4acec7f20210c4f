//! NEON (aarch64): UTF-8 validation with the lookup algorithm of the x86 kernels
//! (`avx2.rs`, tables in `lookup.rs`): `vqtbl1q_u8` is `pshufb` (an index of 16 or more
//! gives 0, and the indexes here are nibbles), 16 bytes per lookup, 64 bytes per loop.

use super::lookup::{CUR_HIGH, INCOMPLETE_MAX, PREV_HIGH, PREV_LOW};
use core::arch::aarch64::*;

struct Tables {
    prev_high: uint8x16_t,
    prev_low: uint8x16_t,
    cur_high: uint8x16_t,
    /// Per position of a 16-byte block: the largest byte that does not start a character
    /// running past the block's end.
    incomplete_max: uint8x16_t,
}

/// Nonzero bytes where the 16 bytes at `p` are invalid, given the bytes before them.
///
/// # Safety
/// `p - 3 .. p + 16` must be readable.
#[inline]
unsafe fn block_errors(t: &Tables, p: *const u8) -> uint8x16_t {
    // SAFETY: the caller guarantees `p - 3 .. p + 16` is readable; NEON is part of every
    // aarch64 target.
    unsafe {
        let input = vld1q_u8(p);
        let back1 = vld1q_u8(p.sub(1));
        let back2 = vld1q_u8(p.sub(2));
        let back3 = vld1q_u8(p.sub(3));
        let a = vqtbl1q_u8(t.prev_high, vshrq_n_u8::<4>(back1));
        let b = vqtbl1q_u8(t.prev_low, vandq_u8(back1, vdupq_n_u8(0x0F)));
        let c = vqtbl1q_u8(t.cur_high, vshrq_n_u8::<4>(input));
        let special = vandq_u8(vandq_u8(a, b), c);
        // Third byte of a 3- or 4-byte sequence, or fourth of a 4-byte one: must be a
        // continuation, exactly where the tables expect two continuations in a row.
        let third = vqsubq_u8(back2, vdupq_n_u8(0xE0 - 0x80));
        let fourth = vqsubq_u8(back3, vdupq_n_u8(0xF0 - 0x80));
        let must_be_cont = vandq_u8(vorrq_u8(third, fourth), vdupq_n_u8(0x80));
        veorq_u8(must_be_cont, special)
    }
}

/// Checks the 64 bytes at `p`: `None` if invalid, else whether the last character runs
/// past them. `incomplete` says whether the previous 64 bytes ended so.
///
/// # Safety
/// `p - 3 .. p + 64` must be readable.
#[inline]
unsafe fn step(t: &Tables, p: *const u8, incomplete: bool) -> Option<bool> {
    // SAFETY: `p - 3 .. p + 64` is readable; NEON is part of every aarch64 target.
    unsafe {
        let v = [
            vld1q_u8(p),
            vld1q_u8(p.add(16)),
            vld1q_u8(p.add(32)),
            vld1q_u8(p.add(48)),
        ];
        let any = vorrq_u8(vorrq_u8(v[0], v[1]), vorrq_u8(v[2], v[3]));
        if vmaxvq_u8(any) < 0x80 {
            // ASCII: valid unless the previous bytes ended inside a character.
            return (!incomplete).then_some(false);
        }
        let errors = vorrq_u8(
            vorrq_u8(block_errors(t, p), block_errors(t, p.add(16))),
            vorrq_u8(block_errors(t, p.add(32)), block_errors(t, p.add(48))),
        );
        if vmaxvq_u8(errors) != 0 {
            return None;
        }
        Some(vmaxvq_u8(vqsubq_u8(v[3], t.incomplete_max)) != 0)
    }
}

pub(crate) fn valid_prefix_len(src: &[u8]) -> usize {
    // SAFETY: each table is 16 readable bytes; NEON is part of every aarch64 target.
    let t = unsafe {
        Tables {
            prev_high: vld1q_u8(PREV_HIGH.as_ptr()),
            prev_low: vld1q_u8(PREV_LOW.as_ptr()),
            cur_high: vld1q_u8(CUR_HIGH.as_ptr()),
            incomplete_max: vld1q_u8(INCOMPLETE_MAX[48..].as_ptr()),
        }
    };
    // SAFETY: `step` reads `p - 3 .. p + 64`, which `blocks` guarantees readable; the
    // CPU features it needs are this function's.
    unsafe { super::blocks(src, None, |p, incomplete| step(&t, p, incomplete)) }
}
