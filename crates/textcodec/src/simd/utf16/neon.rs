//! NEON (aarch64): UTF-16 → UTF-16 code units and UTF-16 → UTF-8, 8 units per step.

use core::mem::MaybeUninit;

use crate::simd::vector::neon::Neon;
use crate::simd::vector::Isa;
use crate::simd::{out_ptr, Slots};
use core::arch::aarch64::*;

/// Blocks of 8 units without surrogates, copied (byte-swapped for big-endian): the
/// kernel of `generic.rs`.
pub(crate) fn bytes_to_units(src: &[u8], big_endian: bool, dst: &mut Slots<u16>) -> (usize, usize) {
    super::generic::bytes_to_units(Isa::<Neon>::neon(), src, big_endian, dst)
}

/// UTF-16 units (native order) → UTF-8 with this level's kernel, for the other families'
/// kernels at this level: as `super::units_to_utf8` at NEON (the kernel, then the scalar
/// twin for what it leaves). Returns (units read, bytes written).
pub(in crate::simd) fn units_to_utf8(src: &[u16], dst: &mut Slots<u8>) -> (usize, usize) {
    let src = super::as_bytes(src);
    let first = bytes_to_utf8(src, false, dst);
    let scalar = |s: &[u8], d: &mut Slots<u8>| super::scalar::bytes_to_utf8(s, false, d);
    let vector = |s: &[u8], d: &mut Slots<u8>| bytes_to_utf8(s, false, d);
    let (read, written) = super::alternate(src, dst, first, vector, scalar);
    (read / 2, written)
}

/// UTF-8 bytes packed at the start of a register, and how many count.
pub(in crate::simd) type Packed = (uint8x16_t, usize);

/// UTF-16 → UTF-8, 8 units per step, for blocks without surrogates (the SSE4 kernel's
/// method: `vqtbl1q_u8` packs with the same tables; lane masks come from `vaddvq` over
/// per-lane bit weights, NEON having no `movemask`). A step of units from U+0800 on only
/// (CJK text) needs no packing: its three byte planes are stored interleaved by `vst3_u8`.
/// Nothing past what it reports changes: the 16 bytes after a packed step's output are
/// saved and put back.
// Hot loop. Bounds: `read` advances by 16 while `read + 16 <= src.len()`; `written`
// advances by at most 24 per step while `written + 40 <= dst.len()`; so neither passes
// its slice's length and the sums cannot overflow.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) fn bytes_to_utf8(src: &[u8], big_endian: bool, dst: &mut Slots<u8>) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while read + 16 <= src.len() && written + 40 <= dst.len() {
        // SAFETY: NEON is part of every aarch64 target; the load reads `src[read..read +
        // 16]`; a step reads and writes at most its output (24 bytes) plus 16 from
        // `written` on, within `dst` since `written + 40 <= dst.len()`.
        let stop = unsafe {
            let mut bytes = vld1q_u8(src.as_ptr().add(read));
            if big_endian {
                bytes = vrev16q_u8(bytes);
            }
            let v = vreinterpretq_u16_u8(bytes);
            let d = out_ptr(dst);
            let max = vmaxvq_u16(v);
            if max < 0x80 {
                vst1_u8(d.add(written), vmovn_u16(v));
                written += 8;
                false
            } else if vmaxvq_u16(vceqq_u16(
                vandq_u16(v, vdupq_n_u16(0xF800)),
                vdupq_n_u16(0xD800),
            )) != 0
            {
                true
            } else {
                written = if max < 0x800 {
                    store_exact(d, written, &[below_0800(v)])
                } else if vminvq_u16(v) >= 0x800 {
                    // All three bytes (CJK text): 24 bytes, exactly, no packing.
                    vst3_u8(d.add(written), three_byte_8(v));
                    written + 24
                } else {
                    let low = bmp_4(vmovl_u16(vget_low_u16(v)));
                    let high = bmp_4(vmovl_u16(vget_high_u16(v)));
                    store_exact(d, written, &[low, high])
                };
                false
            }
        };
        if stop {
            break;
        }
        read += 16;
    }
    (read, written)
}

/// Stores `parts` one after the other from `d + at`, and puts back the 16 bytes that
/// follow the last one (saved first). Returns the new end.
///
/// # Safety
/// `d + at .. d + end + 16` must be valid for reads and writes, where `end` is the
/// returned end.
#[inline]
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
            vst1q_u8(p, packed);
            p = p.add(n);
        }
        d.add(end)
            .cast::<MaybeUninit<[u8; 16]>>()
            .write_unaligned(after);
    }
    end
}

/// Bit i in lane i: `vaddvq` of a lane mask ANDed with these is the mask as an integer.
const LANE_BITS_16: [u16; 8] = [1, 2, 4, 8, 16, 32, 64, 128];
const LANE_BITS_32: [u32; 4] = [1, 2, 4, 8];

/// Entry `index` (below 256) of a packing table.
#[inline]
// Bounds: callers pass 8-bit masks; the tables have 256 entries.
#[allow(clippy::indexing_slicing)]
fn entry(table: &[[u8; 16]; 256], index: u32) -> uint8x16_t {
    // SAFETY: an entry is 16 readable bytes; NEON is part of every aarch64 target.
    unsafe { vld1q_u8(table[(index & 0xFF) as usize].as_ptr()) }
}

/// The UTF-8 of 8 units below U+0800, packed, and its length (at most 16).
#[inline]
pub(in crate::simd) fn below_0800(v: uint16x8_t) -> Packed {
    // SAFETY: NEON is part of every aarch64 target (these are register operations and a
    // 16-byte load of a constant).
    unsafe {
        let ascii = vcltq_u16(v, vdupq_n_u16(0x80));
        // 110xxxxx 10xxxxxx in the lane's bytes 0 and 1 (u >> 6 is at most 0x1F here).
        let lead = vorrq_u16(vshrq_n_u16::<6>(v), vdupq_n_u16(0xC0));
        let trail = vorrq_u16(vandq_u16(v, vdupq_n_u16(0x3F)), vdupq_n_u16(0x80));
        let lanes = vbslq_u16(ascii, v, vorrq_u16(lead, vshlq_n_u16::<8>(trail)));
        let mask = u32::from(vaddvq_u16(vandq_u16(
            ascii,
            vld1q_u16(LANE_BITS_16.as_ptr()),
        )));
        (
            vqtbl1q_u8(
                vreinterpretq_u8_u16(lanes),
                entry(&super::pack::TWO_BYTE_LANES, mask),
            ),
            super::pack::two_byte_len(mask),
        )
    }
}

/// The UTF-8 of 8 code points from U+0800 to U+FFFF that are not surrogates, as the
/// planes of their first, second and third bytes (for `vst3_u8`).
#[inline]
fn three_byte_8(v: uint16x8_t) -> uint8x8x3_t {
    // SAFETY: NEON is part of every aarch64 target (register operations only).
    unsafe {
        let six = vdup_n_u8(0x3F);
        let cont = vdup_n_u8(0x80);
        // 1110xxxx 10xxxxxx 10xxxxxx; the narrowing shifts keep the low byte of each.
        let first = vorr_u8(vshr_n_u8::<4>(vshrn_n_u16::<8>(v)), vdup_n_u8(0xE0));
        let second = vorr_u8(vand_u8(vshrn_n_u16::<6>(v), six), cont);
        let third = vorr_u8(vand_u8(vmovn_u16(v), six), cont);
        uint8x8x3_t(first, second, third)
    }
}

/// The UTF-8 of 4 BMP code points that are not surrogates, packed, and its length.
#[inline]
pub(in crate::simd) fn bmp_4(x: uint32x4_t) -> Packed {
    // SAFETY: NEON is part of every aarch64 target (register operations and a 16-byte
    // load of a constant).
    unsafe {
        let six = vdupq_n_u32(0x3F);
        let cont = vdupq_n_u32(0x80);
        let at_least_2 = vcgtq_u32(x, vdupq_n_u32(0x7F));
        let at_least_3 = vcgtq_u32(x, vdupq_n_u32(0x7FF));
        let low6 = vorrq_u32(vandq_u32(x, six), cont);
        let mid6 = vorrq_u32(vandq_u32(vshrq_n_u32::<6>(x), six), cont);
        // 110xxxxx 10xxxxxx and 1110xxxx 10xxxxxx 10xxxxxx, first byte lowest.
        let two = vorrq_u32(
            vorrq_u32(vshrq_n_u32::<6>(x), vdupq_n_u32(0xC0)),
            vshlq_n_u32::<8>(low6),
        );
        let three = vorrq_u32(
            vorrq_u32(vshrq_n_u32::<12>(x), vdupq_n_u32(0xE0)),
            vorrq_u32(vshlq_n_u32::<8>(mid6), vshlq_n_u32::<16>(low6)),
        );
        let lanes = vbslq_u32(at_least_3, three, vbslq_u32(at_least_2, two, x));
        let bits = vld1q_u32(LANE_BITS_32.as_ptr());
        let index = vaddvq_u32(vandq_u32(at_least_2, bits))
            | (vaddvq_u32(vandq_u32(at_least_3, bits)) << 4);
        (
            vqtbl1q_u8(
                vreinterpretq_u8_u32(lanes),
                entry(&super::pack::THREE_BYTE_LANES, index),
            ),
            super::pack::three_byte_len(index),
        )
    }
}
