//! The table that packs kept bytes with a byte shuffle (`pshufb` on x86-64, `tbl` on
//! aarch64), for the x-user-defined and hot-pair encoders, built at compile time.

/// Indexed by a mask of 8 bytes (bit i: keep byte i), the positions of the kept bytes in
/// order as the bytes of a `u64` (first in the low byte); unused positions hold 0x80,
/// for which `pshufb` and `tbl` write 0. ORing 0x08 into every byte addresses the next 8
/// bytes instead (positions 8..=15; 0x88 is still out of range).
pub(super) static KEPT_BYTES: [u64; 256] = kept_bytes();

// Bounds: evaluated at compile time; at most 8 positions (`j < 8`).
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const fn kept_bytes() -> [u64; 256] {
    let mut t = [0u64; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut positions = [0x80u8; 8];
        let (mut j, mut bit) = (0, 0);
        while bit < 8 {
            if (mask >> bit) & 1 == 1 {
                positions[j] = bit as u8;
                j += 1;
            }
            bit += 1;
        }
        t[mask] = u64::from_le_bytes(positions);
        mask += 1;
    }
    t
}
