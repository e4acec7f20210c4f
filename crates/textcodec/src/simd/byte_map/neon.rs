//! NEON (aarch64, little-endian): single-byte table lookups, 16 bytes per step.
//!
//! The 128 non-ASCII entries split into two byte planes of 128 bytes, each held in eight
//! registers: `vqtbl4q_u8` looks an index up in the first 64 entries (an index past them
//! gives 0) and `vqtbx4q_u8` in the other 64 with the index less 64 (an index past them,
//! which is where the first lookup's indexes wrap to, keeps what the first lookup gave).
//! Four lookups per 16 bytes, against sixteen `pshufb`s for SSE4's chained tables. The
//! planes are zipped back into units (`vst2q_u8` stores them interleaved, i.e. as
//! little-endian `u16`) or packed to UTF-8 with the UTF-16 → UTF-8 kernel's steps.
//!
//! The encoders (UTF-8 → x-user-defined, and → a single-byte encoding's ASCII and hot
//! pairs) also take 16 bytes per step: lane masks become integers through bit weights
//! and pairwise additions (NEON has no `movemask`), the step's bytes to keep are packed
//! with `vqtbl1q_u8` through a table of the kept positions of every 8-lane mask
//! (`pack::KEPT_BYTES`), and the two packed halves are stored with `store_exact`.

use super::super::utf16::neon::{below_0800, bmp_4, store_exact, Packed};
use super::pack::KEPT_BYTES;
use crate::index::byte_map::ByteMap;
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
pub(in crate::simd) fn to_utf16(src: &[u8], map: &ByteMap<'_>, dst: &mut Slots<u16>) -> usize {
    let units = map.units;
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
pub(in crate::simd) fn to_utf8(
    src: &[u8],
    map: &ByteMap<'_>,
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    let units = map.units;
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
pub(in crate::simd) fn x_user_defined_to_utf16(src: &[u8], dst: &mut Slots<u16>) -> usize {
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

/// Bit i of each 8-lane half in its lane i.
const HALF_BITS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];

/// Four lane masks (0 or 0xFF in each lane) as 16-bit integers, bit i for lane i. Each
/// mask's lanes are ANDed with their bit weights, then three rounds of pairwise
/// additions (`vpaddq_u8`) sum every 8-lane half into one byte (the weights of a half
/// are distinct bits, so the sums are ORs): bytes 0-1 of the result are `a`'s mask, 2-3
/// `b`'s, 4-5 `c`'s and 6-7 `d`'s.
#[inline(always)]
fn movemask_4(a: uint8x16_t, b: uint8x16_t, c: uint8x16_t, d: uint8x16_t) -> [u32; 4] {
    // SAFETY: NEON is part of every aarch64 target; the load reads the 16-byte constant.
    let masks = unsafe {
        let w = vld1q_u8(HALF_BITS.as_ptr());
        let ab = vpaddq_u8(vandq_u8(a, w), vandq_u8(b, w));
        let cd = vpaddq_u8(vandq_u8(c, w), vandq_u8(d, w));
        let quarters = vpaddq_u8(ab, cd);
        vgetq_lane_u64::<0>(vreinterpretq_u64_u8(vpaddq_u8(quarters, quarters)))
    };
    [0, 16, 32, 48].map(|shift| (masks >> shift) as u32 & 0xFFFF)
}

/// The bytes of `v` whose bits are set in `keep` (16 bits), packed: the kept bytes of
/// its first 8 lanes, then those of its last 8, as the two parts [`store_exact`] stores
/// one after the other.
#[inline(always)]
// Bounds: `keep & 0xFF` and `keep >> 8 & 0xFF` index a 256-entry table.
#[allow(clippy::indexing_slicing)]
fn keep_bytes(v: uint8x16_t, keep: u32) -> [Packed; 2] {
    let (first, second) = (keep & 0xFF, keep >> 8 & 0xFF);
    let low = KEPT_BYTES[first as usize];
    // Positions 8..=15 (an unused 0x80 becomes 0x88, still out of range: 0).
    let high = KEPT_BYTES[second as usize] | 0x0808_0808_0808_0808;
    // SAFETY: NEON is part of every aarch64 target (register operations only).
    unsafe {
        let packed = vqtbl1q_u8(v, vcombine_u8(vcreate_u8(low), vcreate_u8(high)));
        [
            (packed, first.count_ones() as usize),
            (vextq_u8::<8>(packed, packed), second.count_ones() as usize),
        ]
    }
}

/// Output bytes an encoder step may need: one per input byte, and the 16 that
/// `store_exact` saves and restores after them.
const ENCODE_ROOM: usize = STEP + 16;

/// Encodes a prefix of `src` (the bytes of a `&str` from a character boundary) as
/// x-user-defined, 16 bytes per step: ASCII as it is, U+F780..=U+F7FF (`EF 9E/9F xx`) to
/// 0x80 | (second & 1) << 6 | (third & 0x3F). Stops before any other character, or when a
/// step's output (with [`store_exact`]'s 16 bytes after it) might not fit. Returns (bytes
/// read, bytes written).
// Hot loop. Bounds: a step runs only while `i + 16 <= src.len()` and `written + 32 <=
// dst.len()`, reads `src[i..i + 16]`, writes at most 16 bytes plus the 16 that
// `store_exact` puts back, and advances `i` by `take <= 16`; `trailing_zeros` of nonzero
// 16-bit masks is below 16, so `1 << take` fits a `u32`.
#[allow(clippy::arithmetic_side_effects)]
pub(in crate::simd) fn encode_x_user_defined(src: &[u8], dst: &mut Slots<u8>) -> (usize, usize) {
    let (mut i, mut written) = (0, 0);
    while i + STEP <= src.len() && written + ENCODE_ROOM <= dst.len() {
        // SAFETY: NEON is part of every aarch64 target; `i + 16 <= src.len()`: the load
        // reads `src[i..i + 16]`.
        let v = unsafe { vld1q_u8(src.as_ptr().add(i)) };
        // SAFETY: NEON is part of every aarch64 target (a register operation).
        if unsafe { vmaxvq_u8(v) } < 0x80 {
            // SAFETY: `written + 32 <= dst.len()`: the store writes 16 bytes.
            unsafe { vst1q_u8(out_ptr(dst).add(written), v) };
            i += STEP;
            written += STEP;
            continue;
        }
        // SAFETY: NEON is part of every aarch64 target (register operations only).
        let (out, masks) = unsafe {
            let non_ascii = vcltzq_s8(vreinterpretq_s8_u8(v));
            let leads = vcgeq_u8(v, vdupq_n_u8(0xC0));
            let ef = vceqq_u8(v, vdupq_n_u8(0xEF));
            let second_ok = vceqq_u8(vandq_u8(v, vdupq_n_u8(0xFE)), vdupq_n_u8(0x9E));
            // Byte j of `prev` is byte j - 1 of `v` (byte 0: zero). A third byte becomes
            // 0x80 | (second & 1) << 6 | (third & 0x3F).
            let prev = vextq_u8::<15>(vdupq_n_u8(0), v);
            let mapped = vorrq_u8(
                vorrq_u8(
                    vandq_u8(vshlq_n_u8::<6>(prev), vdupq_n_u8(0x40)),
                    vandq_u8(v, vdupq_n_u8(0x3F)),
                ),
                vdupq_n_u8(0x80),
            );
            // Kept bytes are ASCII (as they are) or third bytes (mapped).
            let out = vbslq_u8(non_ascii, mapped, v);
            (out, movemask_4(non_ascii, leads, ef, second_ok))
        };
        let [non_ascii, leads, ef, second_ok] = masks;
        // Every lead must be EF followed by 9E or 9F (the third byte is then any
        // continuation, the input being UTF-8); else the step ends at that lead. A lead
        // in lane 15 is only checked for EF here (its second byte is the next step's).
        let bad = (leads & !ef) | ((leads << 1) & !second_ok & 0xFFFF) >> 1;
        // A character cut by the step's end is the next step's.
        let cut = leads & 0xC000;
        let stop = bad | cut;
        let take = if stop == 0 { 16 } else { stop.trailing_zeros() };
        let third = (leads << 2) & 0xFFFF;
        let keep = (!non_ascii | third) & ((1 << take) - 1);
        // SAFETY: the parts hold at most 16 bytes and `written + 32 <= dst.len()`.
        written = unsafe { store_exact(out_ptr(dst), written, &keep_bytes(out, keep)) };
        i += take as usize;
        // Stopped at a character it cannot take (not at a cut one, which the next step
        // starts with).
        if bad != 0 && take == bad.trailing_zeros() {
            break;
        }
    }
    (i, written)
}

/// Encodes a prefix of `src` (the bytes of a `&str` from a character boundary) into a
/// single-byte encoding, 16 bytes per step: ASCII as it is, and the two-byte characters
/// whose lead is one of `hot.leads` to their byte. A trail byte's is
/// `hot.bytes[k * 64 + (trail & 0x3F)]` where its lead (the byte before it) is
/// `hot.leads[k]`: `vqtbl4q_u8` looks `trail & 0x3F` up in each of the four 64-byte
/// blocks, and the block of the matching lead is kept (an unused slot's lead, 0, can
/// only match before lane 0 or after an ASCII NUL, where no trail is, and its block is
/// all zeros anyway). Stops before anything else (three- and four-byte characters, cold
/// leads, characters the table does not map: 0), or when a step's output (with
/// [`store_exact`]'s 16 bytes after it) might not fit. Returns (bytes read, bytes
/// written).
// Hot loop. Bounds: a step runs only while `i + 16 <= src.len()` and `written + 32 <=
// dst.len()`, reads `src[i..i + 16]`, writes at most 16 bytes plus the 16 that
// `store_exact` puts back, and advances `i` by `take <= 16`; `trailing_zeros` of nonzero
// 16-bit masks is below 16, so `1 << take` fits a `u32`. A trail's lead lies before it
// (position 0 of a step is a character boundary), so a bad trail's position is at least
// 1 (`saturating_sub` all the same).
#[allow(clippy::arithmetic_side_effects)]
#[cfg_attr(feature = "compact", allow(dead_code))]
pub(in crate::simd) fn encode_hot_pairs(
    src: &[u8],
    hot: &super::HotPairs,
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    let blocks: [uint8x16x4_t; 4] = core::array::from_fn(|k| {
        // SAFETY: NEON is part of every aarch64 target; `k < 4`: the load reads
        // `hot.bytes[64k..64k + 64]`, within its 256 bytes.
        unsafe { vld1q_u8_x4(hot.bytes.as_ptr().add(64 * k)) }
    });
    // SAFETY: NEON is part of every aarch64 target (register operations only).
    let leads = hot.leads.map(|lead| unsafe { vdupq_n_u8(lead) });
    let (mut i, mut written) = (0, 0);
    while i + STEP <= src.len() && written + ENCODE_ROOM <= dst.len() {
        // SAFETY: NEON is part of every aarch64 target; `i + 16 <= src.len()`: the load
        // reads `src[i..i + 16]`.
        let v = unsafe { vld1q_u8(src.as_ptr().add(i)) };
        // SAFETY: NEON is part of every aarch64 target (a register operation).
        if unsafe { vmaxvq_u8(v) } < 0x80 {
            // SAFETY: `written + 32 <= dst.len()`: the store writes 16 bytes.
            unsafe { vst1q_u8(out_ptr(dst).add(written), v) };
            i += STEP;
            written += STEP;
            continue;
        }
        // SAFETY: NEON is part of every aarch64 target (register operations only).
        let (out, masks) = unsafe {
            let low6 = vandq_u8(v, vdupq_n_u8(0x3F));
            // Byte j of `prev` is byte j - 1 of `v` (byte 0: zero).
            let prev = vextq_u8::<15>(vdupq_n_u8(0), v);
            let mut mapped = vdupq_n_u8(0);
            for (block, lead) in blocks.iter().zip(&leads) {
                let entry = vqtbl4q_u8(*block, low6);
                mapped = vorrq_u8(mapped, vandq_u8(entry, vceqq_u8(prev, *lead)));
            }
            let lead_bytes = vcgeq_u8(v, vdupq_n_u8(0xC0));
            let long = vcgeq_u8(v, vdupq_n_u8(0xE0));
            let trails = vceqq_u8(vandq_u8(v, vdupq_n_u8(0xC0)), vdupq_n_u8(0x80));
            // After a lead, anything but the trail of a hot, mapped character (a trail
            // of a cold lead, nothing kept: 0; of an unmapped character; no trail, in
            // input that is not a `&str`) stops the step at the lead; a trail after no lead
            // (neither a `&str`'s) at itself.
            let after_lead = vcgeq_u8(prev, vdupq_n_u8(0xC0));
            let good_trails = vandq_u8(trails, vtstq_u8(mapped, mapped));
            let bad_after_lead = vbicq_u8(after_lead, good_trails);
            let lone = vbicq_u8(trails, after_lead);
            (
                vbslq_u8(trails, mapped, v),
                movemask_4(lead_bytes, long, bad_after_lead, lone),
            )
        };
        let [lead_bytes, long, bad_after_lead, lone] = masks;
        // Three- and four-byte characters end the step at their lead; see above for the
        // rest.
        let mut take = 16;
        if long != 0 {
            take = long.trailing_zeros();
        }
        let bad = (bad_after_lead >> 1) | lone;
        if bad != 0 {
            take = take.min(bad.trailing_zeros());
        }
        let stopped = take < 16;
        // A lead at the end of the step: its character is the next step's.
        if !stopped && lead_bytes & 0x8000 != 0 {
            take = 15;
        }
        let keep = !lead_bytes & ((1 << take) - 1);
        // SAFETY: the parts hold at most 16 bytes and `written + 32 <= dst.len()`.
        written = unsafe { store_exact(out_ptr(dst), written, &keep_bytes(out, keep)) };
        i += take as usize;
        if stopped {
            break;
        }
    }
    (i, written)
}
