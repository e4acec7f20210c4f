//! NEON (aarch64, little-endian): valid UTF-8 → UTF-16, 16 bytes per step, the SSE4
//! kernel's method: every byte position's would-be code point is computed in 16-bit
//! lanes from it and the next two bytes, then the lanes at character starts are packed
//! with `vqtbl1q_u8` over the same table (`pack::KEPT_UNITS`: its 0x80 entries are out
//! of `tbl`'s range, which writes 0 as `pshufb` does). NEON has no `movemask`: a byte
//! mask is the sum of each half's lanes ANDed with their bit weights.

use crate::simd::{out_ptr, Slots};
use core::arch::aarch64::*;

/// Bit i of each 8-byte half in its lane i.
const LANE_BITS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];

/// Bit i set where lane i of `lanes` (0 or 0xFF each) is set.
#[inline(always)]
fn movemask(lanes: uint8x16_t) -> u32 {
    // SAFETY: NEON is part of every aarch64 target; the load reads the 16-byte constant.
    unsafe {
        let bits = vandq_u8(lanes, vld1q_u8(LANE_BITS.as_ptr()));
        u32::from(vaddv_u8(vget_low_u8(bits))) | (u32::from(vaddv_u8(vget_high_u8(bits))) << 8)
    }
}

/// The code point each of 8 byte positions would start (as a one-, two- or three-byte
/// lead), from the bytes `b` and the next two, `n1` and `n2`, widened to 16-bit lanes.
#[inline(always)]
fn units_8(b: uint16x8_t, n1: uint16x8_t, n2: uint16x8_t) -> uint16x8_t {
    // SAFETY: NEON is part of every aarch64 target (register operations only).
    unsafe {
        let six = vdupq_n_u16(0x3F);
        let low1 = vandq_u16(n1, six);
        let two = vorrq_u16(vshlq_n_u16::<6>(vandq_u16(b, vdupq_n_u16(0x1F))), low1);
        // The lead's top four bits shift out of the lane.
        let three = vorrq_u16(
            vorrq_u16(vshlq_n_u16::<12>(b), vshlq_n_u16::<6>(low1)),
            vandq_u16(n2, six),
        );
        let lead = vcgtq_u16(b, vdupq_n_u16(0xBF));
        let lead_3 = vcgtq_u16(b, vdupq_n_u16(0xDF));
        vbslq_u16(lead_3, three, vbslq_u16(lead, two, b))
    }
}

/// Converts valid UTF-8 to UTF-16, 16 bytes per step; stops at a four-byte character,
/// the last 32 bytes or the last 16 units of room (the scalar twin does the rest).
/// `src` must be valid UTF-8 (otherwise the output is unspecified, though memory safe).
// Hot loop. Bounds: `read` advances by at most 16 while `read + 32 <= src.len()`, and
// `written` by at most 16 while `written + 16 <= dst.len()`, so neither passes its
// slice's length and the sums cannot overflow; the table index is a byte mask (< 256).
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
pub(crate) fn to_utf16(src: &str, dst: &mut Slots<u16>) -> (usize, usize) {
    let src = src.as_bytes();
    let (mut read, mut written) = (0, 0);
    while read + 32 <= src.len() && written + 16 <= dst.len() {
        // SAFETY: NEON is part of every aarch64 target; `read + 32 <= src.len()`: the
        // loads read within `src[read..read + 18]`; the stores write at most 16 units
        // from `written`, and `written + 16 <= dst.len()`.
        unsafe {
            let p = src.as_ptr().add(read);
            let d = out_ptr(dst).add(written);
            let w = vld1q_u8(p);
            let max = vmaxvq_u8(w);
            if max < 0x80 {
                vst1q_u16(d, vmovl_u8(vget_low_u8(w)));
                vst1q_u16(d.add(8), vmovl_high_u8(w));
                read += 16;
                written += 16;
                continue;
            }
            if max >= 0xF0 {
                break;
            }
            let at_least = |b: u8| movemask(vcgeq_u8(w, vdupq_n_u8(b)));
            let continuation = movemask(vceqq_u8(vandq_u8(w, vdupq_n_u8(0xC0)), vdupq_n_u8(0x80)));
            let (starts, taken) = super::pack::whole_characters::<16>(
                continuation.into(),
                at_least(0xC0).into(),
                at_least(0xE0).into(),
            );
            let w1 = vld1q_u8(p.add(1));
            let w2 = vld1q_u8(p.add(2));
            let low = units_8(
                vmovl_u8(vget_low_u8(w)),
                vmovl_u8(vget_low_u8(w1)),
                vmovl_u8(vget_low_u8(w2)),
            );
            let high = units_8(vmovl_high_u8(w), vmovl_high_u8(w1), vmovl_high_u8(w2));
            let (s0, s1) = ((starts & 0xFF) as usize, ((starts >> 8) & 0xFF) as usize);
            let table = &super::pack::KEPT_UNITS;
            let keep = |s: usize| vld1q_u8(table[s].as_ptr());
            let pack = |v: uint16x8_t, s: usize| {
                vreinterpretq_u16_u8(vqtbl1q_u8(vreinterpretq_u8_u16(v), keep(s)))
            };
            let n0 = s0.count_ones() as usize;
            vst1q_u16(d, pack(low, s0));
            vst1q_u16(d.add(n0), pack(high, s1));
            written += n0 + s1.count_ones() as usize;
            read += taken;
        }
    }
    (read, written)
}
