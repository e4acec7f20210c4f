//! The CJK double-byte encodings' pairs: (lead, trail) → code point.
//!
//! A [`PairLayout`] says how an encoding's pairs number the pointers of its flat index
//! (the Standard's decoder arithmetic: row from the lead, column from the trail, pointer
//! = row × row length + column) plus its one exception (Shift_JIS's EUDC range, Big5's
//! plane-2 entries). A [`PairTable`] answers `get(lead, trail)`:
//!
//! from a 64 KiB table built from the layout (one load, no range checks: the decoders' pair
//! loops and the AVX-512 gather kernel use it) by the table layout: at compile time by
//! default (`full.rs`), on the heap on first use with the `compact` feature (`compact/`),
//! so that the five tables' 320 KiB are not linked there.
//!
//! Both go through [`PairLayout::get`], which the tests check against the Standard's
//! pointer arithmetic written out again.

use super::generated;
use super::layout::{decode, pair_table, Rows};

/// What a layout does besides the index lookup.
#[derive(Clone, Copy)]
enum Quirk {
    None,
    /// Big5: pairs whose code point is in plane 2 are left to the general path (the flat
    /// index holds their low 16 bits only; `BIG5_DECODE_ASTRAL` flags them).
    Big5Plane2,
    /// Shift_JIS: pointers 8836–10715 map to U+E000–U+E757 (#shift_jis-decoder step 3.7).
    ShiftJisEudc,
}

/// No row or no column: large enough that a pointer with it is past every index (the
/// longest has 23940 entries), so one bounds check rejects both.
const NONE: u16 = 0x8000;

/// How a double-byte encoding's pairs address its flat index (see the module docs).
pub(crate) struct PairLayout {
    index: &'static [u16],
    /// `row_start[lead - 0x80]`: the pointer of the lead's first pair, [`NONE`] if it is
    /// not a lead.
    row_start: [u16; 128],
    /// `column_of[trail]`: the trail's column, [`NONE`] if it is not a trail.
    column_of: [u16; 256],
    quirk: Quirk,
}

impl PairLayout {
    /// `leads`: inclusive lead ranges with the row of their first lead; the columns number
    /// the bytes of `trails` (inclusive ranges) consecutively.
    // Bounds: every caller's leads are at least 0x80 and its rows and columns below 255
    // (at most 126 rows, 190 columns), so the tables are indexed in range and the row and
    // column numbers fit a byte without meeting NONE.
    #[allow(
        clippy::indexing_slicing,
        clippy::arithmetic_side_effects,
        clippy::cast_possible_truncation
    )]
    #[cfg_attr(all(feature = "compact", not(target_arch = "wasm32")), inline(never))]
    const fn new(
        index: &'static [u16],
        row_len: usize,
        leads: &[(u8, u8, usize)],
        trails: &[(u8, u8)],
        quirk: Quirk,
    ) -> Self {
        let mut row_start = [NONE; 128];
        let mut l = 0;
        while l < leads.len() {
            let (lo, hi, first_row) = leads[l];
            let mut lead = lo as usize;
            while lead <= hi as usize {
                row_start[lead - 0x80] = ((first_row + lead - lo as usize) * row_len) as u16;
                lead += 1;
            }
            l += 1;
        }
        let mut column_of = [NONE; 256];
        let mut column = 0;
        let mut t = 0;
        while t < trails.len() {
            let (lo, hi) = trails[t];
            let mut trail = lo as usize;
            while trail <= hi as usize {
                column_of[trail] = column as u16;
                column += 1;
                trail += 1;
            }
            t += 1;
        }
        PairLayout {
            index,
            row_start,
            column_of,
            quirk,
        }
    }

    /// The same layout over `index` (its rows and columns made at compile time).
    #[cfg(any(not(feature = "compact"), target_arch = "wasm32"))]
    const fn with_index(self, index: &'static [u16]) -> Self {
        PairLayout { index, ..self }
    }

    /// The BMP code point of the pair `lead trail`, 0 if it is not a valid pair (not a lead
    /// and a trail, no index entry, or a Big5 plane-2 entry).
    // Bounds: `lead - 0x80` is checked against the 128 rows, `trail < 256` indexes the
    // columns; a row start (below 0x8000) plus a column (at most 0x8000) fits `usize`;
    // the pointer is checked against the index and the astral bit words before they are
    // read. The EUDC code point is at most 0xE000 + 1879.
    #[cfg_attr(all(feature = "compact", target_arch = "wasm32"), allow(dead_code))]
    #[inline(always)]
    #[allow(
        clippy::indexing_slicing,
        clippy::arithmetic_side_effects,
        clippy::cast_possible_truncation
    )]
    pub(crate) const fn get(&self, lead: u8, trail: u8) -> u16 {
        let row = lead.wrapping_sub(0x80) as usize;
        let start = if row < 128 { self.row_start[row] } else { NONE };
        // NONE in either puts the pointer past the index.
        let pointer = start as usize + self.column_of[trail as usize] as usize;
        let code_point = if pointer < self.index.len() {
            self.index[pointer]
        } else {
            0
        };
        match self.quirk {
            // Those pointers have no index entry (the tests would see it if one had).
            Quirk::ShiftJisEudc if code_point == 0 && pointer >= 8836 && pointer <= 10715 => {
                (0xE000 - 8836 + pointer) as u16
            }
            Quirk::Big5Plane2 if code_point != 0 => {
                let astral = &generated::big5::BIG5_DECODE_ASTRAL;
                if pointer / 32 < astral.len() && astral[pointer / 32] >> (pointer % 32) & 1 == 1 {
                    0
                } else {
                    code_point
                }
            }
            _ => code_point,
        }
    }
}

/// The `compact` layout's first-use build of a [`PairTable`] in WebAssembly, row by row
/// (tested natively against [`PairLayout::get`]).
#[cfg(all(feature = "compact", any(target_arch = "wasm32", test)))]
impl PairLayout {
    /// The trails as runs of consecutive columns: (first trail, its column, length).
    // Bounds: `trail + len <= 256`, the length of `column_of`; columns are below NONE.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    pub(crate) fn trail_runs(&self) -> alloc::vec::Vec<(usize, usize, usize)> {
        let mut runs = alloc::vec::Vec::new();
        let mut trail = 0;
        while trail < 256 {
            let column = self.column_of[trail];
            if column == NONE {
                trail += 1;
                continue;
            }
            let mut len = 1;
            while trail + len < 256
                && usize::from(self.column_of[trail + len]) == usize::from(column) + len
            {
                len += 1;
            }
            runs.push((trail, usize::from(column), len));
            trail += len;
        }
        runs
    }

    /// Writes the pairs of `lead` into `row` (all 0 before), each trail's as [`Self::get`]
    /// gives it, with a run of trails copied from the index at once: a loop over every
    /// byte pair ran long enough in WebAssembly for V8 to compile it again with its
    /// optimising compiler, which competed with the first decode for the CPU. Returns
    /// whether the row holds a pair.
    // Bounds: `lead - 0x80` is checked against the rows; runs lie in the 256 trails
    // (`trail_runs`); a row start plus a column fits `usize`, and the copy is clamped to the
    // index; EUDC pointers are at most 10715, and the astral words are read with `get`.
    #[allow(
        clippy::indexing_slicing,
        clippy::arithmetic_side_effects,
        clippy::cast_possible_truncation
    )]
    pub(crate) fn fill_row(
        &self,
        lead: u8,
        runs: &[(usize, usize, usize)],
        row: &mut [u16; 256],
    ) -> bool {
        let Some(&start) = self.row_start.get(usize::from(lead.wrapping_sub(0x80))) else {
            return false;
        };
        if start == NONE {
            return false;
        }
        let mut any = false;
        for &(trail, column, len) in runs {
            let cells = &mut row[trail..trail + len];
            let from = usize::from(start) + column;
            // The index may end within a row (Shift_JIS's last rows are EUDC pointers).
            if let Some(index) = self.index.get(from..) {
                let have = index.len().min(len);
                cells[..have].copy_from_slice(&index[..have]);
            }
            match self.quirk {
                Quirk::None => {}
                Quirk::ShiftJisEudc => {
                    let first = from.max(8836);
                    let end = (from + len).min(10716);
                    for pointer in first..end {
                        let cell = &mut cells[pointer - from];
                        if *cell == 0 {
                            *cell = (0xE000 - 8836 + pointer) as u16;
                        }
                    }
                }
                Quirk::Big5Plane2 => {
                    let astral = &generated::big5::BIG5_DECODE_ASTRAL;
                    for (k, cell) in cells.iter_mut().enumerate() {
                        let pointer = from + k;
                        let word = astral.get(pointer / 32).copied().unwrap_or(0);
                        if word >> (pointer % 32) & 1 == 1 {
                            *cell = 0;
                        }
                    }
                }
            }
            any = any || cells.iter().any(|&c| c != 0);
        }
        any
    }
}

/// An encoding's pairs: `get(lead, trail)` is one load.
pub(crate) struct PairTable {
    /// `rows[lead - 0x80][trail]`: the code point of the pair, 0 where it is not valid
    /// (inline in a static, or on the heap: the layout's [`Rows`]).
    pub(super) rows: Rows,
    /// `lead_map[lead - 0x80]` is 0xFF where the row of `lead` has a pair, else 0: the
    /// bytes that are leads wherever a character starts (the vector kernel's classes).
    #[cfg_attr(
        not(any(
            target_arch = "x86_64",
            all(target_arch = "aarch64", target_endian = "little"),
            all(target_arch = "wasm32", target_feature = "simd128")
        )),
        allow(dead_code)
    )]
    pub(super) lead_map: [u8; 128],
}

impl PairTable {
    /// The rows (see the field's docs): the vector kernels look pairs up in them.
    #[cfg(any(
        target_arch = "x86_64",
        all(target_arch = "aarch64", target_endian = "little"),
        all(target_arch = "wasm32", target_feature = "simd128")
    ))]
    pub(crate) fn rows(&self) -> &[[u16; 256]; 128] {
        &self.rows
    }

    /// 0xFF for a byte `0x80 + k` whose row has a pair, 0 otherwise.
    #[cfg_attr(
        not(any(
            target_arch = "x86_64",
            all(target_arch = "aarch64", target_endian = "little"),
            all(target_arch = "wasm32", target_feature = "simd128")
        )),
        allow(dead_code)
    )]
    pub(crate) fn lead_map(&self) -> &[u8; 128] {
        &self.lead_map
    }

    /// The code point of `lead trail`, 0 if it is not a valid pair (an ASCII lead never
    /// is; callers have tested for it, so the compiler drops this check).
    #[inline(always)]
    pub(crate) fn get(&self, lead: u8, trail: u8) -> u16 {
        self.rows
            .get(usize::from(lead.wrapping_sub(0x80)))
            .and_then(|row| row.get(usize::from(trail)))
            .copied()
            .unwrap_or(0)
    }
}

/// The pair tables of the five layouts, as `fn() -> &'static PairTable`, built as the
/// table layout builds them (see `pair_table!` in `full.rs` and `compact/mod.rs`) from the flat
/// decode index.
macro_rules! pair_tables {
    ($($(#[$doc:meta])* $name:ident = $decode:ident, $row_len:expr, $leads:expr, $trails:expr, $quirk:expr;)*) => {$(
        $(#[$doc])*
        #[inline(always)]
        pub(crate) fn $name() -> &'static PairTable {
            // The rows and columns at compile time, except in the `compact` layout outside
            // WebAssembly, which makes them at its first use in one copy of `new`: five
            // layouts of 768 bytes each put it 2.5 KB over its footprint budget
            // (.ci/extra.d/size.sh). In WebAssembly a first decode would compile and run
            // `new` (the first-call latency of the JavaScript package).
            #[cfg(any(not(feature = "compact"), target_arch = "wasm32"))]
            const SHAPE: PairLayout = PairLayout::new(&[], $row_len, $leads, $trails, $quirk);
            #[cfg(any(not(feature = "compact"), target_arch = "wasm32"))]
            return pair_table!(SHAPE.with_index(decode::$decode()));
            #[cfg(all(feature = "compact", not(target_arch = "wasm32")))]
            return pair_table!(PairLayout::new(decode::$decode(), $row_len, $leads, $trails, $quirk));
        }
    )*
        /// Every layout, for the tests.
        #[cfg(all(test, feature = "compact"))]
        fn all_layouts() -> alloc::vec::Vec<(&'static str, PairLayout)> {
            alloc::vec![$((stringify!($name), PairLayout::new(decode::$decode(), $row_len, $leads, $trails, $quirk))),*]
        }
    };
}

/// WebAssembly's row-at-a-time build gives every pair `get` gives.
#[cfg(all(test, feature = "compact"))]
#[test]
#[allow(clippy::indexing_slicing)]
fn fill_row_matches_get() {
    let mut pairs = 0;
    for (name, layout) in all_layouts() {
        let runs = layout.trail_runs();
        for lead in 0x80..=0xFFu8 {
            let mut row = [0u16; 256];
            let any = layout.fill_row(lead, &runs, &mut row);
            let want: alloc::vec::Vec<u16> = (0..=0xFFu8).map(|t| layout.get(lead, t)).collect();
            assert_eq!(&row[..], &want[..], "{name} lead {lead:#04X}");
            assert_eq!(any, want.iter().any(|&p| p != 0), "{name} lead {lead:#04X}");
            pairs += want.iter().filter(|&&p| p != 0).count();
        }
    }
    assert!(pairs > 60_000, "{pairs}");
}

pair_tables! {
    /// gb18030's two-byte sequences (GBK): leads 0x81–0xFE, trails 0x40–0x7E and 0x80–0xFE.
    gb18030_pairs = gb18030,
        190, &[(0x81, 0xFE, 0)], &[(0x40, 0x7E), (0x80, 0xFE)], Quirk::None;
    /// EUC-KR: leads 0x81–0xFE, trails 0x41–0xFE.
    euc_kr_pairs = euc_kr,
        190, &[(0x81, 0xFE, 0)], &[(0x41, 0xFE)], Quirk::None;
    /// Big5: leads 0x81–0xFE, trails 0x40–0x7E and 0xA1–0xFE; the BMP entries only.
    big5_pairs = big5,
        157, &[(0x81, 0xFE, 0)], &[(0x40, 0x7E), (0xA1, 0xFE)], Quirk::Big5Plane2;
    /// EUC-JP's JIS X 0208 pairs: leads and trails 0xA1–0xFE (ISO-2022-JP's kanji are the
    /// same pairs without their high bits).
    jis0208_pairs = jis0208,
        94, &[(0xA1, 0xFE, 0)], &[(0xA1, 0xFE)], Quirk::None;
    /// Shift_JIS: leads 0x81–0x9F (rows 0–30) and 0xE0–0xFC (rows 31–59), trails 0x40–0x7E
    /// and 0x80–0xFC, and the EUDC pointers.
    shift_jis_pairs = jis0208,
        188, &[(0x81, 0x9F, 0), (0xE0, 0xFC, 31)], &[(0x40, 0x7E), (0x80, 0xFC)], Quirk::ShiftJisEudc;
}
