//! The UTF-16LE and UTF-16BE candidates (text without a byte order mark): each runs the
//! library's own UTF-16 decoder in fatal mode (an unpaired surrogate or an odd byte at the
//! end rules it out), and its text is scored as alphabetic text and as the text of each
//! CJK language, the best of which counts.
//!
//! What tells UTF-16 apart is the byte pattern of its code units: text in Latin, Cyrillic,
//! Greek, Arabic … has one byte of each unit in 0x00–0x0E (NUL for ASCII, the script's
//! block otherwise), which every other candidate decodes as controls (binary data bytes,
//! penalised for them); CJK text has one byte in the script's blocks and decodes to
//! frequent characters, where any other reading of the same bytes gives rare ones.

#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use crate::{DecodeStatus, Decoder};

use super::score::{self, cjk_score, Flavor};

/// The flavours a UTF-16 text is scored as: alphabetic, then the CJK languages.
const FLAVORS: [Flavor; 5] = [
    Flavor::Utf8, // stands for "alphabetic" here (see `alphabetic`)
    Flavor::Japanese,
    Flavor::SimplifiedChinese,
    Flavor::TraditionalChinese,
    Flavor::Korean,
];

/// Score of a control code unit (C0 but tab, line feed, form feed and carriage return;
/// DEL), in every flavour: as a C1 control in the other candidates.
pub(super) const CONTROL: i32 = -128;
/// Score of a non-ASCII letter of an alphabetic script (units).
const LETTER: i32 = 16;

/// A UTF-16 candidate's decoder and evidence.
#[derive(Clone, Debug)]
pub(super) struct Utf16 {
    pub(super) decoder: Decoder,
    pub(super) alive: bool,
    /// The text's score in each of [`FLAVORS`].
    pub(super) scores: [i64; 5],
    /// The last unit decoded (0 at the start).
    pub(super) prev: u16,
    /// Code units decoded.
    pub(super) units: u64,
    /// Control code units decoded.
    pub(super) controls: u64,
}

impl Utf16 {
    pub(super) fn new(decoder: Decoder) -> Self {
        Utf16 {
            decoder,
            alive: true,
            scores: [0; 5],
            prev: 0,
            units: 0,
            controls: 0,
        }
    }

    /// The best flavour's score.
    pub(super) fn score(&self) -> i64 {
        self.scores.iter().copied().max().unwrap_or(0)
    }
}

/// Whether a code unit is a control that text does not have.
#[inline]
fn is_control(unit: u16) -> bool {
    (unit < 0x20 && !matches!(unit, 0x09 | 0x0A | 0x0C | 0x0D)) || unit == 0x7F
}

/// The score of a unit as alphabetic text (any script but CJK).
#[inline]
fn alphabetic(unit: u16) -> i32 {
    let cp = u32::from(unit);
    match unit {
        0..=0x7F => 0,
        // The byte order mark, read as a character: no evidence either way.
        0xFEFF => 0,
        // Halves of a supplementary character (an emoji, a rare ideograph).
        0xD800..=0xDFFF => -16,
        _ if score::is_letter(cp) => LETTER,
        _ => i32::from(score::symbol_score(cp)),
    }
}

/// Whether a code unit is one that CJK text does not have: outside the blocks the CJK
/// models give a class of their own (Han, kana, Hangul, CJK punctuation, full-width
/// forms, private use) and the supplementary planes, neither a letter nor a symbol of the
/// training text. The CJK models lump such characters into one lenient class, as the
/// legacy CJK decoders give mostly ones that text has (quotation marks, Greek and
/// Cyrillic letters, box drawing); but the units of bytes that are not UTF-16 are any
/// code point — CJK Extension A, Yi, Vai, Latin Extended-D, presentation forms for Big5
/// or EUC-KR text without a space — which without this scored no worse than punctuation
/// and let such text read as UTF-16 (an 8-character Big5 sample did).
///
/// Hangul syllables outside the 2,350 of KS X 1001 count as unknown too: Korean text
/// seldom has them (EUC-KR reached them only through Microsoft's extension), while the
/// units of Big5 or GBK text read as UTF-16BE (a lead byte 0xB0–0xD7 first) are Hangul
/// syllables, four in five of them outside KS X 1001.
#[inline]
fn unknown_to_cjk(unit: u16) -> bool {
    let cp = u32::from(unit);
    if (0xAC00..=0xD7A3).contains(&unit) {
        return !score::ks_x_1001_hangul(unit);
    }
    let cjk = matches!(
        unit,
        0x3000..=0x30FF | 0x4E00..=0x9FFF | 0xD800..=0xF8FF | 0xFF01..=0xFF9F
    );
    unit >= 0xA0
        && !cjk
        && !score::is_letter(cp)
        && unit != 0xFEFF
        && score::symbol_score(cp) <= score::SYMBOL_FLOOR
}

/// Runs a UTF-16 candidate's decoder over `bytes` and scores its text (if `scoring`).
pub(super) fn examine_utf16(u: &mut Utf16, bytes: &[u8], last: bool, scoring: bool) {
    let mut buf = [0u16; 128];
    let mut rest = bytes;
    loop {
        let result = u.decoder.decode_to_utf16(rest, &mut buf, last);
        let written = buf.get(..result.written).unwrap_or_default();
        u.units = u.units.saturating_add(written.len() as u64);
        if scoring {
            let mut prev = u.prev;
            let mut totals = [0i64; 5];
            for &unit in written {
                if is_control(unit) {
                    u.controls = u.controls.saturating_add(1);
                    for t in &mut totals {
                        *t = t.saturating_add(i64::from(CONTROL));
                    }
                } else {
                    let [alpha, cjk @ ..] = &mut totals;
                    *alpha = alpha.saturating_add(i64::from(alphabetic(unit)));
                    let unknown = unknown_to_cjk(unit);
                    for (t, &flavor) in cjk.iter_mut().zip(FLAVORS.get(1..).unwrap_or_default()) {
                        if unknown {
                            *t = t.saturating_add(i64::from(score::SYMBOL_FLOOR));
                        } else if unit >= 0x80 || prev >= 0x80 {
                            *t = t.saturating_add(i64::from(cjk_score(flavor, prev, unit)));
                        }
                    }
                }
                prev = unit;
            }
            u.prev = prev;
            for (s, t) in u.scores.iter_mut().zip(totals) {
                *s = s.saturating_add(t);
            }
        }
        rest = rest.get(result.read..).unwrap_or_default();
        match result.status {
            DecodeStatus::Malformed(_) => {
                u.alive = false;
                return;
            }
            DecodeStatus::OutputFull => continue,
            DecodeStatus::InputEmpty => return,
        }
    }
}
