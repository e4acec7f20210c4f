//! Plausibility scores of decoded text: per-character and character-pair evidence.
//!
//! Scores are integers in *units* ([`UNITS_PER_POINT`] units = one point of
//! [`super::Guess::score`]); sums of integers do not depend on the order of additions, so
//! any chunking gives the same totals.
#![allow(clippy::indexing_slicing)] // const builders (compile time) and `u8`-indexed 128/256 tables, see each site

use super::candidates::{group, Group, SINGLE};

/// Score units per point of the public score.
pub(crate) const UNITS_PER_POINT: f32 = 16.0;

/// The code of a byte that the encoding's decoder rejects.
pub(crate) const ERROR: u8 = 0xFF;
/// Flag bit: an uppercase letter.
pub(crate) const UPPER: u8 = 0x80;
/// Class of word boundaries: spaces, punctuation, digits, symbols.
pub(crate) const BOUNDARY: u8 = 0;

/// One single-byte encoding's view of the bytes 0x80–0xFF.
pub(crate) struct SingleByteModel {
    /// Class in the encoding's script model (`| UPPER` for capitals), or [`ERROR`].
    pub(crate) code: [u8; 128],
    /// Score of the character on its own (symbols, controls: penalties).
    pub(crate) unigram: [i8; 128],
}

/// The *index single-byte* decode table (byte → code point, 0 = error) the decoders use.
const fn decode_table(encoding: crate::Encoding) -> &'static [u16; 256] {
    use crate::index::single_byte as t;
    use crate::Encoding::*;
    match encoding {
        Ibm866 => &t::IBM866.decode,
        Iso8859_2 => &t::ISO_8859_2.decode,
        Iso8859_3 => &t::ISO_8859_3.decode,
        Iso8859_4 => &t::ISO_8859_4.decode,
        Iso8859_5 => &t::ISO_8859_5.decode,
        Iso8859_6 => &t::ISO_8859_6.decode,
        Iso8859_7 => &t::ISO_8859_7.decode,
        Iso8859_8 | Iso8859_8I => &t::ISO_8859_8.decode,
        Iso8859_10 => &t::ISO_8859_10.decode,
        Iso8859_13 => &t::ISO_8859_13.decode,
        Iso8859_14 => &t::ISO_8859_14.decode,
        Iso8859_15 => &t::ISO_8859_15.decode,
        Iso8859_16 => &t::ISO_8859_16.decode,
        Koi8R => &t::KOI8_R.decode,
        Koi8U => &t::KOI8_U.decode,
        Macintosh => &t::MACINTOSH.decode,
        Windows874 => &t::WINDOWS_874.decode,
        Windows1250 => &t::WINDOWS_1250.decode,
        Windows1251 => &t::WINDOWS_1251.decode,
        Windows1252 => &t::WINDOWS_1252.decode,
        Windows1253 => &t::WINDOWS_1253.decode,
        Windows1254 => &t::WINDOWS_1254.decode,
        Windows1255 => &t::WINDOWS_1255.decode,
        Windows1256 => &t::WINDOWS_1256.decode,
        Windows1257 => &t::WINDOWS_1257.decode,
        Windows1258 => &t::WINDOWS_1258.decode,
        XMacCyrillic => &t::X_MAC_CYRILLIC.decode,
        // Not single-byte: every byte an error (never reached: only `SINGLE` is built).
        _ => &[0; 256],
    }
}

/// Whether a code point is an uppercase letter (the scripts of the single-byte encodings).
const fn is_upper(cp: u32) -> bool {
    match cp {
        0xC0..=0xDE => cp != 0xD7,
        0x100..=0x137 | 0x14A..=0x177 => cp.is_multiple_of(2),
        0x139..=0x148 | 0x179..=0x17E => cp % 2 == 1,
        0x178 | 0x1A0 | 0x1AF | 0x218 | 0x21A => true,
        0x386..=0x3AB => true,
        0x400..=0x42F | 0x490 => true,
        0x1E00..=0x1EFF => cp.is_multiple_of(2),
        _ => false,
    }
}

/// Whether a non-ASCII code point is a letter (or a combining mark of a script).
const fn is_letter(cp: u32) -> bool {
    match cp {
        0xAA | 0xB5 | 0xBA => true,
        0xC0..=0x24F => cp != 0xD7 && cp != 0xF7,
        0x300..=0x36F => true,
        0x386..=0x3CE => cp != 0x387,
        0x400..=0x4FF => true,
        0x591..=0x5C7 | 0x5D0..=0x5EA | 0x5F0..=0x5F2 => true,
        0x621..=0x64A | 0x64B..=0x652 | 0x660..=0x669 | 0x670..=0x6D3 => true,
        0xE01..=0xE3A | 0xE40..=0xE4E => true,
        0x1E00..=0x1EFF => true,
        _ => false,
    }
}

/// Unigram score of a non-letter character.
const fn symbol_score(cp: u32) -> i8 {
    match cp {
        0x80..=0x9F => -100,
        0xA0 => -6,
        0xAB | 0xBB | 0x2013 | 0x2014 | 0x2018 | 0x2019 | 0x201C | 0x201D | 0x201E | 0x2026 => -4,
        0xA9 | 0xAE | 0xB0 | 0xA7 | 0xB7 | 0x20AC | 0x2122 | 0x2022 => -10,
        _ => -24,
    }
}

#[allow(clippy::arithmetic_side_effects)] // compile time: the loop index stays below 128
const fn build(encoding: crate::Encoding) -> SingleByteModel {
    let index = decode_table(encoding);
    let mut model = SingleByteModel {
        code: [ERROR; 128],
        unigram: [0; 128],
    };
    let _ = group(encoding);
    let mut i = 0;
    while i < 128 {
        let cp = index[i + 128] as u32;
        if cp != 0 {
            if is_letter(cp) {
                model.code[i] = if is_upper(cp) { 1 | UPPER } else { 1 };
                model.unigram[i] = 0;
            } else {
                model.code[i] = BOUNDARY;
                model.unigram[i] = symbol_score(cp);
            }
        }
        i += 1;
    }
    model
}

#[allow(clippy::arithmetic_side_effects)] // compile time: the loop index stays below 28
const fn build_all() -> [SingleByteModel; 28] {
    let mut out = [const {
        SingleByteModel {
            code: [ERROR; 128],
            unigram: [0; 128],
        }
    }; 28];
    let mut i = 0;
    while i < 28 {
        out[i] = build(SINGLE[i]);
        i += 1;
    }
    out
}

/// The single-byte models, in the order of [`SINGLE`].
pub(crate) static SINGLE_MODELS: [SingleByteModel; 28] = build_all();

/// Class of an ASCII byte: letters 1 (`| UPPER` for capitals), everything else a boundary.
#[inline(always)]
pub(crate) fn ascii_code(b: u8) -> u8 {
    if b.is_ascii_lowercase() {
        1
    } else if b.is_ascii_uppercase() {
        1 | UPPER
    } else {
        BOUNDARY
    }
}

/// The score of the pair `prev`, `cur` (codes) in a script model, at least one of them
/// non-ASCII.
#[inline(always)]
pub(crate) fn pair_score(_group: Group, prev: u8, cur: u8) -> i32 {
    // A capital right after a small letter ("ÏðèâåÒ") is rare in any script.
    let prev_lower = prev != BOUNDARY && prev & UPPER == 0;
    if prev_lower && cur & UPPER != 0 {
        return -20;
    }
    if prev != BOUNDARY && cur != BOUNDARY {
        4
    } else {
        0
    }
}

/// What a multi-byte candidate's text is expected to be.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Flavor {
    Utf8,
    SimplifiedChinese,
    TraditionalChinese,
    Japanese,
    Korean,
}

/// The score of one decoded UTF-16 unit ≥ 0x80 for a multi-byte candidate.
#[inline]
pub(crate) fn cjk_score(flavor: Flavor, unit: u16) -> i32 {
    if flavor == Flavor::Utf8 {
        return 48;
    }
    let ja = flavor == Flavor::Japanese;
    let ko = flavor == Flavor::Korean;
    match unit {
        0x4E00..=0x9FFF => {
            if ko {
                4
            } else {
                24
            }
        }
        0x3040..=0x309F => {
            if ja {
                26
            } else {
                -24
            }
        }
        0x30A0..=0x30FF => {
            if ja {
                20
            } else {
                -16
            }
        }
        0xFF61..=0xFF9F => -30,
        0xAC00..=0xD7A3 => {
            if ko {
                26
            } else {
                -40
            }
        }
        0x3000..=0x303F | 0xFF01..=0xFF5E => 8,
        0xE000..=0xF8FF => -100,
        0xD800..=0xDFFF => -40,
        0x80..=0x9F => -100,
        _ => -20,
    }
}

/// Whether single-byte encodings `a` and `b` decode byte `0x80 + k` alike.
pub(crate) fn same_char(a: crate::Encoding, b: crate::Encoding, k: u8) -> bool {
    let i = usize::from(k & 0x7F) + 128;
    decode_table(a).get(i) == decode_table(b).get(i)
}

/// Whether a gb18030 decoder's output unit can only come from a four-byte sequence.
pub(crate) fn gb18030_four_byte_only(unit: u16) -> bool {
    (0xD800..=0xDFFF).contains(&unit)
        || (unit >= 0x80 && crate::index::gb18030_pointer(u32::from(unit)).is_none())
}
