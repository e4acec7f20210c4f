//! The `pshufb`/`tbl` table that packs the 16-bit lanes at character starts (the SSE4,
//! AVX2 and NEON UTF-8 → UTF-16 kernels), built at compile time.

/// Indexed by a mask of 8 lanes (bit i: lane i holds a character), the bytes of the
/// kept lanes in order (2i, 2i + 1); unused positions hold 0x80 (`pshufb` writes 0).
pub(in crate::simd) static KEPT_UNITS: [[u8; 16]; 256] = kept_units();

// Bounds: evaluated at compile time; at most 8 lanes of two bytes (`j < 16`), so an
// out-of-bounds index would fail the build, not panic at run time.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const fn kept_units() -> [[u8; 16]; 256] {
    let mut t = [[0x80u8; 16]; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut j = 0;
        let mut lane = 0;
        while lane < 8 {
            if (mask >> lane) & 1 == 1 {
                t[mask][j] = 2 * lane as u8;
                t[mask][j + 1] = 2 * lane as u8 + 1;
                j += 2;
            }
            lane += 1;
        }
        mask += 1;
    }
    t
}

/// Which characters of a window of `BYTES` bytes (16 or 32) of valid UTF-8 (starting on
/// a character boundary) are whole inside it, from its byte masks (bit i of each: byte i
/// is a continuation, at least 0xC0, at least 0xE0). Returns (the mask of their first
/// bytes, the bytes they take: `BYTES - 2` to `BYTES`).
#[inline(always)]
// Bounds: `BYTES` is 16 or 32 (callers' constants), so the shifts are in range;
// `crossing` is nonzero with the top two bits of the window only, so `taken` is
// `BYTES - 2` or `BYTES - 1` and `1 << taken` is at least 1.
#[allow(clippy::arithmetic_side_effects)]
pub(super) fn whole_characters<const BYTES: u32>(
    continuation: u64,
    lead: u64,
    lead_3: u64,
) -> (u64, usize) {
    let starts = !continuation & ((1u64 << BYTES) - 1);
    // A lead at the last byte, or a three-byte lead at the one before, starts a character
    // that runs past the window (four-byte leads never reach the kernels).
    let last = 1u64 << (BYTES - 1);
    let crossing = (lead & last) | (lead_3 & (last >> 1));
    if crossing == 0 {
        (starts, BYTES as usize)
    } else {
        let taken = crossing.trailing_zeros();
        (starts & ((1u64 << taken) - 1), taken as usize)
    }
}
