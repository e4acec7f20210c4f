//! `pshufb` tables that pack the UTF-8 bytes built in fixed-width lanes (the SSE4 and AVX2
//! UTF-16 → UTF-8 kernels, AVX2's Latin-1 → UTF-8), built at compile time. A table entry lists, in order, the
//! lane bytes that belong to the output; unused positions hold 0x80 (`pshufb` writes 0).

/// Bytes of a 16-bit lane that hold one or two UTF-8 bytes: indexed by the mask of the
/// 8 lanes (bit i: lane i is one byte long, below U+0080), the bytes to keep in order
/// (byte 2i, then byte 2i + 1 if lane i is two bytes long).
pub(in crate::simd) static TWO_BYTE_LANES: [[u8; 16]; 256] = two_byte_lanes();

/// Bytes of a 32-bit lane that hold one to three UTF-8 bytes: indexed by
/// `at_least_2 | at_least_3 << 4` for 4 lanes (bit i of each: lane i is at least two or
/// three bytes long), the bytes to keep in order (bytes 4i .. 4i + len).
pub(super) static THREE_BYTE_LANES: [[u8; 16]; 256] = three_byte_lanes();

// Bounds: evaluated at compile time; every index is below 16 (at most 8 lanes of two bytes,
// or 4 lanes of three), so an out-of-bounds index would fail the build, not panic at run
// time.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const fn two_byte_lanes() -> [[u8; 16]; 256] {
    let mut t = [[0x80u8; 16]; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut j = 0;
        let mut lane = 0;
        while lane < 8 {
            t[mask][j] = 2 * lane as u8;
            j += 1;
            if (mask >> lane) & 1 == 0 {
                t[mask][j] = 2 * lane as u8 + 1;
                j += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    t
}

// Bounds: as for `two_byte_lanes` (at most 4 lanes × 3 bytes = 12 positions).
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const fn three_byte_lanes() -> [[u8; 16]; 256] {
    let mut t = [[0x80u8; 16]; 256];
    let mut index = 0;
    while index < 256 {
        let mut j = 0;
        let mut lane = 0;
        while lane < 4 {
            let len = 1 + ((index >> lane) & 1) + ((index >> (lane + 4)) & 1);
            let mut k = 0;
            while k < len {
                t[index][j] = (4 * lane + k) as u8;
                j += 1;
                k += 1;
            }
            lane += 1;
        }
        index += 1;
    }
    t
}

/// Output length of `TWO_BYTE_LANES[mask]` (8 lanes).
#[inline(always)]
pub(super) fn two_byte_len(one_byte_mask: u32) -> usize {
    // 8 lanes, each 2 bytes minus 1 for a one-byte lane: at most 16, no overflow.
    16usize.saturating_sub((one_byte_mask & 0xFF).count_ones() as usize)
}

/// Output length of `THREE_BYTE_LANES[index]` (4 lanes).
#[inline(always)]
pub(super) fn three_byte_len(index: u32) -> usize {
    4usize.saturating_add((index & 0xFF).count_ones() as usize)
}
