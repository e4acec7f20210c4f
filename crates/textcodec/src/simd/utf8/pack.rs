//! The `pshufb`/`tbl` table that packs the 16-bit lanes at character starts (the SSE4,
//! AVX2 and NEON UTF-8 → UTF-16 kernels), built at compile time.

/// Indexed by a mask of 8 lanes (bit i: lane i holds a character), the bytes of the
/// kept lanes in order (2i, 2i + 1); unused positions hold 0x80 (`pshufb` writes 0).
pub(super) static KEPT_UNITS: [[u8; 16]; 256] = kept_units();

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

/// Which characters of a 16-byte window of valid UTF-8 (starting on a character
/// boundary) are whole inside it, from its byte masks (bit i of each: byte i is a
/// continuation, at least 0xC0, at least 0xE0). Returns (the mask of their first bytes,
/// the bytes they take: 14 to 16).
#[inline(always)]
// Bounds: `crossing` is nonzero with bits 14 and 15 only, so `taken` is 14 or 15: the
// shift is in range and `1 << taken` is at least 1.
#[allow(clippy::arithmetic_side_effects)]
pub(super) fn whole_characters(continuation: u32, lead: u32, lead_3: u32) -> (u32, usize) {
    let starts = !continuation & 0xFFFF;
    // A lead at byte 15, or a three-byte lead at 14, starts a character that runs past
    // the window (four-byte leads never reach the kernels).
    let crossing = (lead & 0x8000) | (lead_3 & 0x4000);
    if crossing == 0 {
        (starts, 16)
    } else {
        let taken = crossing.trailing_zeros();
        (starts & ((1u32 << taken) - 1), taken as usize)
    }
}
