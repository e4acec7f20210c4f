//! The `compact` build's code point → pointer lookups (#indexes: *index pointer*, *index
//! Big5 pointer*), derived at compile time from the generated [`RankTable`]s so that their
//! pointer lists (two bytes an entry, 126 KB for the four CJK indexes) are not linked.
//!
//! A [`WindowTable`] keeps the rank table's directory (the blocks of 64 code points, their
//! bitmaps and first positions) but, per code point, only the *window* of its pointer: the
//! pointer divided by 128, one byte (the longest index has 23940 pointers, 188 windows).
//! The pointer itself is then found by searching those 128 entries of the decode index,
//! which the build links anyway, for the code point: 16 entries per step, compared all at
//! once. The first match in the window is the pointer the Standard picks: no earlier
//! pointer with the same code point lies in the window (the tests check every code point
//! against the rank table).
//!
//! [`RankTable`]: super::RankTable

/// Entries per window: `pointer >> WINDOW_SHIFT` is the window.
const WINDOW_SHIFT: u32 = 7;

/// A code point → pointer map searched through its decode index (see the module docs).
pub(crate) struct WindowTable {
    pub(crate) block_of: &'static [u16],
    pub(crate) present: &'static [u64],
    pub(crate) first: &'static [u16],
    /// The window of each pointer of the rank table, in code point order.
    pub(crate) windows: &'static [u8],
    /// The decode index (pointer → code point or its low 16 bits, 0 = none).
    pub(crate) decode: &'static [u16],
    /// Big5's plane-2 bits (bit `p % 32` of word `p / 32`), empty for the other indexes.
    pub(crate) astral: &'static [u32],
}

/// The window of each pointer (`pointers` has `N` entries).
// Bounds: `i < N` = `pointers.len()`; a pointer below 65536 shifted by 7 is below 512, and
// the assertion keeps it below 256.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]
pub(crate) const fn windows<const N: usize>(pointers: &[u16]) -> [u8; N] {
    let mut out = [0u8; N];
    let mut i = 0;
    while i < N {
        let window = pointers[i] >> WINDOW_SHIFT;
        assert!(window < 256, "an index longer than 32768 pointers");
        out[i] = window as u8;
        i += 1;
    }
    out
}

/// The position of the first entry of `table` (at most 128 entries) equal to `unit`: a
/// minimum over all of them, without branches, so that the compiler compares 8 or 16 at
/// once.
#[inline(always)]
pub(crate) fn first_equal(table: &[u16], unit: u16) -> Option<usize> {
    let mut first = i16::MAX;
    for (i, &u) in table.iter().take(128).enumerate() {
        // `i < 128` fits `i16`.
        let candidate = if u == unit { i as i16 } else { i16::MAX };
        first = first.min(candidate);
    }
    usize::try_from(first).ok().filter(|&i| i < 128)
}

impl WindowTable {
    /// The pointer the Standard picks for `code_point` in this table's index, or `None`.
    #[inline(always)]
    pub(crate) fn pointer(&self, code_point: u32) -> Option<u16> {
        let block = usize::from(*self.block_of.get((code_point >> 6) as usize)?);
        let bits = *self.present.get(block)?;
        let bit = 1u64 << (code_point & 63);
        if bits & bit == 0 {
            return None;
        }
        // `bits & (bit - 1)`: the block's code points below this one (`bit` is not 0).
        let rank = (bits & bit.wrapping_sub(1)).count_ones() as usize;
        let first = usize::from(*self.first.get(block)?);
        let window = *self.windows.get(first.checked_add(rank)?)?;
        self.search(usize::from(window) << WINDOW_SHIFT, code_point)
    }

    /// The first pointer from `start` on, within the window, whose code point is
    /// `code_point`. Not inlined: one copy serves every encoder (inlined, the unrolled
    /// search grows each encoder's loop by kilobytes).
    #[inline(never)]
    fn search(&self, start: usize, code_point: u32) -> Option<u16> {
        let low = code_point as u16;
        let plane2 = code_point > 0xFFFF;
        let rest = self.decode.get(start..)?;
        let window = rest.get(..1 << WINDOW_SHIFT).unwrap_or(rest);
        let mut from = 0;
        while let Some(k) = window.get(from..).and_then(|w| first_equal(w, low)) {
            let pointer = start.wrapping_add(from).wrapping_add(k);
            if self.is_plane2(pointer) == plane2 {
                return u16::try_from(pointer).ok();
            }
            // A Big5 entry with the same low 16 bits in the other plane: look further.
            from = from.wrapping_add(k).wrapping_add(1);
        }
        None
    }

    /// Whether `pointer` maps to a plane-2 code point (Big5 only).
    #[inline(always)]
    fn is_plane2(&self, pointer: usize) -> bool {
        self.astral
            .get(pointer / 32)
            .is_some_and(|&word| word >> (pointer % 32) & 1 == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{encode, generated};

    /// Every code point the indexes can hold: the window search finds the rank table's
    /// pointer (the Standard's pick), and nothing where the rank table has none.
    #[test]
    fn window_tables_match_the_rank_tables_for_every_code_point() {
        let tables = [
            (
                "jis0208",
                &encode::JIS0208,
                &generated::jis0208::JIS0208_ENCODE,
            ),
            ("EUC-KR", &encode::EUC_KR, &generated::euc_kr::EUC_KR_ENCODE),
            (
                "gb18030",
                &encode::GB18030,
                &generated::gb18030::GB18030_ENCODE,
            ),
            ("Big5", &encode::BIG5, &generated::big5::BIG5_ENCODE),
        ];
        for (name, window, rank) in tables {
            for cp in 0..0x30000u32 {
                assert_eq!(window.pointer(cp), rank.pointer(cp), "{name} U+{cp:04X}");
            }
        }
    }
}
