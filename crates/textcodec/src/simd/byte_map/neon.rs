//! NEON (aarch64, little-endian): single-byte table lookups, 16 bytes per step.
//!
//! The 128 non-ASCII entries split into two byte planes of 128 bytes, each held in eight
//! registers: `vqtbl4q_u8` looks an index up in the first 64 entries (an index past them
//! gives 0) and `vqtbx4q_u8` in the other 64 with the index less 64 (an index past them,
//! which is where the first lookup's indexes wrap to, keeps what the first lookup gave).
//! Four lookups per 16 bytes, against sixteen `pshufb`s for SSE4's chained tables. The
//! planes are zipped back into units (`vst2q_u8` stores them interleaved, i.e. as
//! little-endian `u16`) or packed to UTF-8 with the UTF-16 → UTF-8 kernel's steps.

use super::super::utf16::neon::{below_0800, bmp_4, store_exact, Packed};
use crate::simd::{out_ptr, write_slots, write_utf8, Slots};
use core::arch::aarch64::*;

/// Bytes per step.
const STEP: usize = 16;

/// The two byte planes of the 128 non-ASCII entries, as two 64-entry tables each.
struct Planes {
    low: [uint8x16x4_t; 2],
    high: [uint8x16x4_t; 2],
}

impl Planes {
    // Bounds: `t < 8`: the loads read entries `128 + 16t .. 128 + 16t + 16` (32 bytes);
    // the tables take `p[t..t + 4]` for `t` 0 and 4.
    #[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
    fn load(units: &[u16; 256]) -> Self {
        // SAFETY: NEON is part of every aarch64 target; each `vld2q_u8` reads 16 entries
        // (32 bytes) within the table and splits their bytes: on a little-endian target
        // the even bytes are the low ones.
        unsafe {
            let part = |t: usize| vld2q_u8(units.as_ptr().add(128 + 16 * t).cast::<u8>());
            let p: [uint8x16x2_t; 8] = core::array::from_fn(part);
            let low = |t: usize| uint8x16x4_t(p[t].0, p[t + 1].0, p[t + 2].0, p[t + 3].0);
            let high = |t: usize| uint8x16x4_t(p[t].1, p[t + 1].1, p[t + 2].1, p[t + 3].1);
            Planes {
                low: [low(0), low(4)],
                high: [high(0), high(4)],
            }
        }
    }

    /// The low and high bytes of the units of 16 bytes, and a lane mask (0xFF) of the
    /// bytes that are errors: non-ASCII with an entry of 0 or a surrogate.
    #[inline(always)]
    fn map(&self, bytes: uint8x16_t) -> (uint8x16_t, uint8x16_t, uint8x16_t) {
        // SAFETY: NEON is part of every aarch64 target (register operations only).
        unsafe {
            let index = vandq_u8(bytes, vdupq_n_u8(0x7F));
            let upper = vsubq_u8(index, vdupq_n_u8(64));
            let low = vqtbx4q_u8(vqtbl4q_u8(self.low[0], index), self.low[1], upper);
            let high = vqtbx4q_u8(vqtbl4q_u8(self.high[0], index), self.high[1], upper);
            let non_ascii = vcltzq_s8(vreinterpretq_s8_u8(bytes));
            let low = vbslq_u8(non_ascii, low, bytes);
            let high = vandq_u8(high, non_ascii);
            let zero = vceqzq_u8(vorrq_u8(low, high));
            let surrogate = vceqq_u8(vandq_u8(high, vdupq_n_u8(0xF8)), vdupq_n_u8(0xD8));
            (low, high, vandq_u8(vorrq_u8(zero, surrogate), non_ascii))
        }
    }
}

/// The units of a step and the position of its first error (16 if none).
// Bounds: `from_fn` passes `k < 16`, the arrays' length.
#[allow(clippy::indexing_slicing)]
fn spill(low: uint8x16_t, high: uint8x16_t, errors: uint8x16_t) -> ([u16; 16], usize) {
    let (mut l, mut h, mut e) = ([0u8; 16], [0u8; 16], [0u8; 16]);
    // SAFETY: each store writes 16 bytes into a 16-byte array.
    unsafe {
        vst1q_u8(l.as_mut_ptr(), low);
        vst1q_u8(h.as_mut_ptr(), high);
        vst1q_u8(e.as_mut_ptr(), errors);
    }
    let units = core::array::from_fn(|k| u16::from_le_bytes([l[k], h[k]]));
    (units, e.iter().position(|&x| x != 0).unwrap_or(16))
}

// Hot loop. Bounds: a step runs only while `i + 16 <= n` (the shorter length), then `i`
// advances by 16, so it never passes `n`; `valid` (an error's position) is below 16.
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
pub(super) fn to_utf16(src: &[u8], units: &[u16; 256], dst: &mut Slots<u16>) -> usize {
    let n = src.len().min(dst.len());
    let planes = Planes::load(units);
    let mut i = 0;
    while i + STEP <= n {
        // SAFETY: NEON is part of every aarch64 target; `i + 16 <= n`: the load reads
        // `src[i..i + 16]` and the stores write `dst[i..i + 16]` (32 bytes).
        unsafe {
            let bytes = vld1q_u8(src.as_ptr().add(i));
            let d = out_ptr(dst).add(i);
            if vmaxvq_u8(bytes) < 0x80 {
                vst1q_u16(d, vmovl_u8(vget_low_u8(bytes)));
                vst1q_u16(d.add(8), vmovl_high_u8(bytes));
            } else {
                let (low, high, errors) = planes.map(bytes);
                if vmaxvq_u8(errors) != 0 {
                    let (units, valid) = spill(low, high, errors);
                    write_slots(&mut dst[i..i + valid], &units[..valid]);
                    return i + valid;
                }
                vst2q_u8(d.cast::<u8>(), uint8x16x2_t(low, high));
            }
        }
        i += STEP;
    }
    i
}

/// Output bytes a step may need: three per byte, and the 16 that `store_exact` saves and
/// restores after them.
const ROOM: usize = 3 * STEP + 16;

// Hot loop. Bounds: a step runs only while `i + 16 <= src.len()` and `written + 64 <=
// dst.len()`, writes at most 48 bytes of output (plus the 16 after them, restored) and
// advances `i` by at most 16; `valid` is below 16.
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
pub(super) fn to_utf8(src: &[u8], units: &[u16; 256], dst: &mut Slots<u8>) -> (usize, usize) {
    let planes = Planes::load(units);
    let (mut i, mut written) = (0, 0);
    while i + STEP <= src.len() && written + ROOM <= dst.len() {
        // SAFETY: NEON is part of every aarch64 target; `i + 16 <= src.len()`: the load
        // reads `src[i..i + 16]`; the stores write within `dst[written..written + 64]`.
        unsafe {
            let bytes = vld1q_u8(src.as_ptr().add(i));
            let d = out_ptr(dst);
            if vmaxvq_u8(bytes) < 0x80 {
                vst1q_u8(d.add(written), bytes);
                i += STEP;
                written += STEP;
                continue;
            }
            let (low, high, errors) = planes.map(bytes);
            if vmaxvq_u8(errors) != 0 {
                // The characters before the error, one at a time (rare).
                let (units, valid) = spill(low, high, errors);
                for &u in &units[..valid] {
                    let c = char::from_u32(u32::from(u)).unwrap_or('\u{FFFD}');
                    let len = c.len_utf8();
                    write_utf8(&mut dst[written..written + len], c);
                    written += len;
                }
                return (i + valid, written);
            }
            let halves = [
                vreinterpretq_u16_u8(vzip1q_u8(low, high)),
                vreinterpretq_u16_u8(vzip2q_u8(low, high)),
            ];
            let mut parts: [Packed; 4] = [(vdupq_n_u8(0), 0); 4];
            let mut count = 0;
            for v in halves {
                if vmaxvq_u16(v) < 0x800 {
                    parts[count] = below_0800(v);
                    count += 1;
                } else {
                    parts[count] = bmp_4(vmovl_u16(vget_low_u16(v)));
                    parts[count + 1] = bmp_4(vmovl_high_u16(v));
                    count += 2;
                }
            }
            written = store_exact(d, written, &parts[..count]);
        }
        i += STEP;
    }
    (i, written)
}

/// x-user-defined to UTF-16, 16 bytes per step: ASCII as it is, 0x80 + k to U+F780 + k
/// (a high byte of 0xF7 under every non-ASCII byte). Every byte is valid.
// Hot loop. Bounds: `i` advances by 16 while `i + 16 <= n` (the shorter length).
#[allow(clippy::arithmetic_side_effects)]
pub(super) fn x_user_defined_to_utf16(src: &[u8], dst: &mut Slots<u16>) -> usize {
    let n = src.len().min(dst.len());
    let mut i = 0;
    while i + STEP <= n {
        // SAFETY: NEON is part of every aarch64 target; `i + 16 <= n`: the load reads
        // `src[i..i + 16]`, the interleaved store writes `dst[i..i + 16]` (32 bytes).
        unsafe {
            let bytes = vld1q_u8(src.as_ptr().add(i));
            let non_ascii = vcltzq_s8(vreinterpretq_s8_u8(bytes));
            let high = vandq_u8(non_ascii, vdupq_n_u8(0xF7));
            vst2q_u8(out_ptr(dst).add(i).cast::<u8>(), uint8x16x2_t(bytes, high));
        }
        i += STEP;
    }
    i
}
