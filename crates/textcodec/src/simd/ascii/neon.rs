//! NEON (aarch64): ASCII scanning, copying, widening and narrowing, 16 bytes per step.
//! A step is ASCII when its largest byte (`vmaxvq_u8`) is below 0x80; the scalar twin
//! finds the first non-ASCII byte in the step that has one, and finishes the tail.

use crate::simd::{out_ptr, Slots};
use core::arch::aarch64::*;

// Hot loop. Bounds: `i` only advances by 16 while `i + 16 <= src.len()`, so
// `i <= src.len()` and `i + 16` cannot overflow.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn ascii_prefix_len(src: &[u8]) -> usize {
    let mut i = 0;
    while i + 16 <= src.len() {
        // SAFETY: `i + 16 <= src.len()`; NEON is part of every aarch64 target.
        let max = unsafe { vmaxvq_u8(vld1q_u8(src.as_ptr().add(i))) };
        if max >= 0x80 {
            break;
        }
        i += 16;
    }
    i + super::scalar::ascii_prefix_len(&src[i..])
}

// Hot loop. Bounds: `n` is the shorter length; `i` only advances by 16 while
// `i + 16 <= n`, so the slices are in bounds.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn copy_ascii(src: &[u8], dst: &mut Slots<u8>) -> usize {
    let n = src.len().min(dst.len());
    let mut i = 0;
    while i + 16 <= n {
        // SAFETY: `i + 16 <= n`: the load reads `src[i..i + 16]`, the store writes
        // `dst[i..i + 16]`; NEON is part of every aarch64 target.
        let ascii = unsafe {
            let v = vld1q_u8(src.as_ptr().add(i));
            let ascii = vmaxvq_u8(v) < 0x80;
            if ascii {
                vst1q_u8(out_ptr(dst).add(i), v);
            }
            ascii
        };
        if !ascii {
            break;
        }
        i += 16;
    }
    i + super::scalar::copy_ascii(&src[i..n], &mut dst[i..n])
}

// Hot loop. Bounds: as for `copy_ascii` (16 bytes in, 16 units out per step).
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn widen_ascii(src: &[u8], dst: &mut Slots<u16>) -> usize {
    let n = src.len().min(dst.len());
    let mut i = 0;
    while i + 16 <= n {
        // SAFETY: `i + 16 <= n`: the load reads `src[i..i + 16]`, the stores write
        // `dst[i..i + 16]`; NEON is part of every aarch64 target.
        let ascii = unsafe {
            let v = vld1q_u8(src.as_ptr().add(i));
            let ascii = vmaxvq_u8(v) < 0x80;
            if ascii {
                let d = out_ptr(dst).add(i);
                vst1q_u16(d, vmovl_u8(vget_low_u8(v)));
                vst1q_u16(d.add(8), vmovl_u8(vget_high_u8(v)));
            }
            ascii
        };
        if !ascii {
            break;
        }
        i += 16;
    }
    i + super::scalar::widen_ascii(&src[i..n], &mut dst[i..n])
}

// Hot loop. Bounds: as for `copy_ascii` (16 units in, 16 bytes out per step).
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn narrow_basic_latin(src: &[u16], dst: &mut Slots<u8>) -> usize {
    let n = src.len().min(dst.len());
    let mut i = 0;
    while i + 16 <= n {
        // SAFETY: `i + 16 <= n`: the loads read `src[i..i + 16]`, the store writes
        // `dst[i..i + 16]`; NEON is part of every aarch64 target.
        let ascii = unsafe {
            let p = src.as_ptr().add(i);
            let (a, b) = (vld1q_u16(p), vld1q_u16(p.add(8)));
            let ascii = vmaxvq_u16(vorrq_u16(a, b)) < 0x80;
            if ascii {
                vst1q_u8(out_ptr(dst).add(i), vcombine_u8(vmovn_u16(a), vmovn_u16(b)));
            }
            ascii
        };
        if !ascii {
            break;
        }
        i += 16;
    }
    i + super::scalar::narrow_basic_latin(&src[i..n], &mut dst[i..n])
}
