//! NEON (aarch64): UTF-16 → UTF-16 code units, 8 units per step.

use core::arch::aarch64::*;

/// Blocks of 8 units without surrogates, copied (byte-swapped for big-endian).
// Hot loop. Bounds: `read` and `written` only advance by 16 and 8 while `read + 16 <=
// src.len()` and `written + 8 <= dst.len()`, so neither passes its slice's length and the
// sums cannot overflow.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) fn bytes_to_units(src: &[u8], big_endian: bool, dst: &mut [u16]) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while read + 16 <= src.len() && written + 8 <= dst.len() {
        // SAFETY: NEON is part of every aarch64 target; the load reads `src[read..read +
        // 16]` and the store writes `dst[written..written + 8]`, both in bounds. aarch64
        // Linux is little-endian: a byte vector reinterpreted as `u16` lanes reads them
        // as little-endian units.
        let stop = unsafe {
            let mut bytes = vld1q_u8(src.as_ptr().add(read));
            if big_endian {
                bytes = vrev16q_u8(bytes);
            }
            let v = vreinterpretq_u16_u8(bytes);
            let top5 = vandq_u16(v, vdupq_n_u16(0xF800));
            let stop = vmaxvq_u16(vceqq_u16(top5, vdupq_n_u16(0xD800))) != 0;
            if !stop {
                vst1q_u16(dst.as_mut_ptr().add(written), v);
            }
            stop
        };
        if stop {
            break;
        }
        read += 16;
        written += 8;
    }
    (read, written)
}
