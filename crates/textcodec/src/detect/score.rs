//! Plausibility scores of decoded text: per-character and character-pair evidence.
//!
//! Scores are integers in *units* ([`UNITS_PER_POINT`] units = one point of
//! [`super::Guess::score`]); sums of integers do not depend on the order of additions, so
//! any chunking gives the same totals.
#![allow(clippy::indexing_slicing)] // const builders (compile time) and `u8`-indexed 128/256 tables, see each site

use super::candidates::{group, Group, SINGLE};
use super::generated::model;

/// Score units per point of the public score (the tables store eighths of a nat).
pub(crate) const UNITS_PER_POINT: f32 = 8.0;

/// The code of a byte that the encoding's decoder rejects.
pub(crate) const ERROR: u8 = 0xFF;
/// Flag bit: an uppercase letter.
pub(crate) const UPPER: u8 = 0x80;
/// Class of word boundaries: spaces, punctuation, digits, symbols.
pub(crate) const BOUNDARY: u8 = 0;
/// Score of a C1 control character (never in text).
const C1_CONTROL: i8 = -128;
/// The Hangul filler and the archaic letters of the compatibility jamo (U+3164–U+318E;
/// KS X 1001 row 4 from A4D4): modern Korean text does not write them, so they score as
/// C1 controls. In EUC-KR they are A4 followed by D4–FE, which is how windows-874 writes
/// ค before a vowel or tone mark: short Thai text read as EUC-KR shows them.
const OLD_HANGUL_LETTERS: core::ops::RangeInclusive<u16> = 0x3164..=0x318E;
/// ฃ and ฅ, the two Thai consonants that went out of use (ข and ค took their place):
/// modern Thai text does not write them, so they score as C1 controls. windows-874 and
/// ISO-8859-11 put them at A3 and A5, inside other scripts' runs of letters.
const OBSOLETE_THAI: [u32; 2] = [0x0E03, 0x0E05];
/// Score of each non-ASCII character of valid UTF-8.
const UTF8_CHAR: i32 = 48;

/// A script's pair model (generated).
pub(crate) struct ScriptModel {
    /// Number of classes: 0 boundary, the ASCII letters, the script's letters, rare.
    pub(crate) classes: usize,
    /// Non-ASCII letters with their own class, by code point: (code point, class | UPPER).
    pub(crate) letters: &'static [(u16, u8)],
    /// Case transitions (boundary, small, capital) × (the same).
    pub(crate) case: [i8; 9],
    /// `classes × classes` pair scores, by (previous, current).
    pub(crate) pairs: &'static [i8],
}

/// A CJK language's character-class model (generated).
pub(crate) struct CjkModel {
    /// Frequent Han characters (U+4E00–U+9FFF), a bit per code point.
    pub(crate) han_top: &'static [u64; 328],
    /// Han characters seen in training.
    pub(crate) han_seen: &'static [u64; 328],
    /// Score per class (see `cjk_class`).
    pub(crate) scores: [i16; 12],
    /// Score of a non-ASCII character's side touching an ASCII letter.
    pub(crate) adjacent: i8,
    /// Score of a non-ASCII character's side touching a space.
    pub(crate) spaced: i8,
}

/// One single-byte encoding's view of the bytes 0x80–0xFF.
pub(crate) struct SingleByteModel {
    /// Class in the encoding's script model (`| UPPER` for capitals), or [`ERROR`].
    pub(crate) code: [u8; 128],
    /// Score of the character on its own (symbols, controls: penalties).
    pub(crate) unigram: [i8; 128],
    /// The script model.
    pub(crate) script: &'static ScriptModel,
    /// Whether ASCII letters have a class each (Latin) or share class 1.
    pub(crate) latin: bool,
    /// The bytes 0x80–0xFF the decoder rejects, a bit each (0x80 + 64 × word + bit).
    pub(crate) errors: [u64; 2],
    /// Every byte's class (bits 0–6), unigram score (bits 8–15, as `i8`) and case (bits
    /// 16–17, see `case_of`), ASCII included: one load per byte in the hot loop. An error
    /// byte's class is 127 (outside every model: scores the minimum).
    pub(crate) entry: [u32; 256],
}

const fn script_model(encoding: crate::Encoding) -> &'static ScriptModel {
    match group(encoding) {
        Group::Western => &model::WESTERN,
        Group::Central => &model::CENTRAL,
        Group::Turkish => &model::TURKISH,
        Group::Baltic => &model::BALTIC,
        Group::Vietnamese => &model::VIETNAMESE,
        Group::Cyrillic => &model::CYRILLIC,
        Group::Greek => &model::GREEK,
        Group::Hebrew => &model::HEBREW,
        Group::Arabic => &model::ARABIC,
        Group::Thai => &model::THAI,
    }
}

/// The *index single-byte* the decoders use.
const fn decode_table(encoding: crate::Encoding) -> &'static crate::index::SingleByteIndex {
    match encoding.single_byte_index() {
        Some(index) => index,
        // Not single-byte (never reached: only `SINGLE` is built).
        None => &crate::index::single_byte::WINDOWS_1252,
    }
}

/// Whether a code point is an uppercase letter (for letters without a class of their own).
const fn is_upper(cp: u32) -> bool {
    match cp {
        0xC0..=0xDE => cp != 0xD7,
        0x100..=0x137 | 0x14A..=0x177 => cp.is_multiple_of(2),
        0x139..=0x148 | 0x179..=0x17E => !cp.is_multiple_of(2),
        0x178 | 0x1A0 | 0x1AF | 0x218 | 0x21A => true,
        0x386..=0x3AB => true,
        0x400..=0x42F | 0x490 => true,
        0x1E00..=0x1EFF => cp.is_multiple_of(2),
        _ => false,
    }
}

/// Binary search in a sorted (code point, value) table at compile time.
#[allow(clippy::arithmetic_side_effects)] // compile time: lo ≤ hi ≤ len
const fn lookup_u8(table: &[(u16, u8)], cp: u32) -> Option<u8> {
    let (mut lo, mut hi) = (0, table.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let (key, value) = table[mid];
        if key as u32 == cp {
            return Some(value);
        } else if (key as u32) < cp {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    None
}

/// Score of a non-ASCII symbol that the training text does not have.
pub(crate) const SYMBOL_FLOOR: i8 = model::SYMBOL_FLOOR;

/// [`lookup_u8`] for the symbol scores.
#[allow(clippy::arithmetic_side_effects)] // compile time: lo ≤ hi ≤ len
pub(crate) const fn symbol_score(cp: u32) -> i8 {
    if cp >= 0x80 && cp < 0xA0 {
        return C1_CONTROL;
    }
    let table = &model::SYMBOLS;
    let (mut lo, mut hi) = (0, table.len());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let (key, value) = table[mid];
        if key as u32 == cp {
            return value;
        } else if (key as u32) < cp {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    model::SYMBOL_FLOOR
}

/// Whether a non-ASCII code point is a letter (or a combining mark of a script).
pub(crate) const fn is_letter(cp: u32) -> bool {
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

#[allow(clippy::arithmetic_side_effects)] // compile time: the loop index stays below 128
const fn build(encoding: crate::Encoding) -> SingleByteModel {
    let index = decode_table(encoding);
    let script = script_model(encoding);
    let mut out = SingleByteModel {
        code: [ERROR; 128],
        unigram: [0; 128],
        script,
        latin: matches!(
            group(encoding),
            Group::Western | Group::Central | Group::Turkish | Group::Baltic | Group::Vietnamese
        ),
        errors: [0; 2],
        entry: [0; 256],
    };
    let rare = (script.classes - 1) as u8;
    let mut i = 0;
    while i < 128 {
        let cp = index.upper_code_point(i) as u32;
        if cp == 0 {
            out.errors[i / 64] |= 1 << (i % 64);
        } else {
            if let Some(code) = lookup_u8(script.letters, cp) {
                out.code[i] = code;
            } else if cp == OBSOLETE_THAI[0] || cp == OBSOLETE_THAI[1] {
                out.code[i] = rare;
                out.unigram[i] = C1_CONTROL;
            } else if is_letter(cp) {
                out.code[i] = if is_upper(cp) { rare | UPPER } else { rare };
            } else {
                out.code[i] = BOUNDARY;
                out.unigram[i] = symbol_score(cp);
            }
        }
        i += 1;
    }
    let mut b = 0;
    while b < 256 {
        let (code, uni) = if b < 128 {
            (ascii_code(b as u8, out.latin), 0)
        } else {
            (out.code[b - 128], out.unigram[b - 128])
        };
        out.entry[b] = (code & 0x7F) as u32 | ((uni as u8 as u32) << 8) | (case_of(code) << 16);
        b += 1;
    }
    out
}

#[allow(clippy::arithmetic_side_effects)] // compile time: the loop index stays below 28
const fn build_all() -> [SingleByteModel; 28] {
    let mut out = [const {
        SingleByteModel {
            code: [ERROR; 128],
            unigram: [0; 128],
            script: &model::WESTERN,
            latin: true,
            errors: [0; 2],
            entry: [0; 256],
        }
    }; 28];
    let mut i = 0;
    while i < 28 {
        out[i] = build(SINGLE[i]);
        i += 1;
    }
    out
}

/// A word start (a space, then ASCII letter `k`) in a model, at compile time.
#[allow(clippy::arithmetic_side_effects)] // compile time: in-range table indexes
const fn word_start(m: &SingleByteModel, k: usize) -> i32 {
    let space = m.entry[b' ' as usize];
    let letter = m.entry[b'a' as usize + k];
    let a = (space & 0x7F) as usize;
    let b = (letter & 0x7F) as usize;
    let case = ((space >> 16) & 3) * 3 + ((letter >> 16) & 3);
    m.script.pairs[a * m.script.classes + b] as i32 + m.script.case[case as usize] as i32
}

/// For each single-byte model and ASCII letter: how much less likely a word starting with
/// it is than in the Latin model most at ease with it (≤ 0; 0 for Latin models).
#[allow(clippy::arithmetic_side_effects)] // compile time: loop indexes in range
const fn build_word_starts() -> [[i16; 26]; 28] {
    let mut out = [[0i16; 26]; 28];
    let mut k = 0;
    while k < 26 {
        let mut best = i32::MIN;
        let mut i = 0;
        while i < 28 {
            if SINGLE_MODELS[i].latin {
                let s = word_start(&SINGLE_MODELS[i], k);
                if s > best {
                    best = s;
                }
            }
            i += 1;
        }
        let mut i = 0;
        while i < 28 {
            if !SINGLE_MODELS[i].latin {
                let d = word_start(&SINGLE_MODELS[i], k) - best;
                out[i][k] = if d < 0 { d as i16 } else { 0 };
            }
            i += 1;
        }
        k += 1;
    }
    out
}

/// [`build_word_starts`], by candidate (order of [`SINGLE`]) and letter.
pub(crate) static WORD_STARTS: [[i16; 26]; 28] = build_word_starts();

/// The single-byte models, in the order of [`SINGLE`].
pub(crate) static SINGLE_MODELS: [SingleByteModel; 28] = build_all();

/// Class of an ASCII byte: in Latin models a letter's own class (1–26), elsewhere 1 for
/// every letter (`| UPPER` for capitals); everything else a boundary.
#[inline(always)]
pub(crate) const fn ascii_code(b: u8, latin: bool) -> u8 {
    let lower = b | 0x20;
    if !lower.is_ascii_lowercase() {
        return BOUNDARY;
    }
    let class = if latin {
        lower.wrapping_sub(b'a').wrapping_add(1)
    } else {
        1
    };
    if b.is_ascii_uppercase() {
        class | UPPER
    } else {
        class
    }
}

/// Case of a code: 0 boundary, 1 small, 2 capital.
const fn case_of(code: u8) -> u32 {
    if code & 0x7F == BOUNDARY {
        0
    } else if code & UPPER != 0 {
        2
    } else {
        1
    }
}

/// The score of the pair of bytes whose [`SingleByteModel::entry`] values are `prev` and
/// `cur`, in a script model.
#[inline(always)]
pub(crate) fn pair_score(script: &ScriptModel, prev: u32, cur: u32) -> i32 {
    let a = (prev & 0x7F) as usize;
    let b = (cur & 0x7F) as usize;
    let pair = script
        .pairs
        .get(a.wrapping_mul(script.classes).wrapping_add(b))
        .copied()
        .unwrap_or(i8::MIN);
    let case = ((prev >> 16) & 3)
        .wrapping_mul(3)
        .wrapping_add((cur >> 16) & 3);
    let case = script.case.get(case as usize).copied().unwrap_or(0);
    let uni = i32::from((cur >> 8) as u8 as i8);
    i32::from(pair)
        .wrapping_add(i32::from(case))
        .wrapping_add(uni)
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

/// Whether bit `i` is set.
#[inline(always)]
fn bit(set: &[u64], i: u32) -> bool {
    set.get((i >> 6) as usize)
        .is_some_and(|w| (w >> (i & 63)) & 1 == 1)
}

/// The class of a decoded UTF-16 unit ≥ 0x80 (order of [`CjkModel::scores`]).
#[inline]
fn cjk_class(m: &CjkModel, unit: u16) -> usize {
    let cp = u32::from(unit);
    match unit {
        0x4E00..=0x9FFF => {
            let i = cp.wrapping_sub(0x4E00);
            if bit(m.han_top, i) {
                0
            } else if bit(m.han_seen, i) {
                1
            } else {
                2
            }
        }
        0x3040..=0x309F => 3,
        0x30A0..=0x30FF => 4,
        0xFF61..=0xFF9F => 5,
        0xAC00..=0xD7A3 => {
            if bit(&model::HANGUL_TOP, cp.wrapping_sub(0xAC00)) {
                6
            } else {
                7
            }
        }
        0x3000..=0x303F => 8,
        0xFF01..=0xFF60 => 9,
        0xE000..=0xF8FF => 10,
        _ => 11,
    }
}

/// The score of decoded UTF-16 unit `unit` after `prev` for a multi-byte candidate.
#[inline]
pub(crate) fn cjk_score(flavor: Flavor, prev: u16, unit: u16) -> i32 {
    let m = match flavor {
        Flavor::Utf8 => return if unit >= 0x80 { UTF8_CHAR } else { 0 },
        Flavor::SimplifiedChinese => &model::SIMPLIFIED,
        Flavor::TraditionalChinese => &model::TRADITIONAL,
        Flavor::Japanese => &model::JAPANESE,
        Flavor::Korean => &model::KOREAN,
    };
    // The side between `prev` and `unit` when one of them is ASCII and the other not.
    let side = |ascii: u16| {
        if (ascii as u8).is_ascii_alphabetic() {
            i32::from(m.adjacent)
        } else if ascii == u16::from(b' ') {
            i32::from(m.spaced)
        } else {
            0
        }
    };
    if unit < 0x80 {
        return if prev >= 0x80 { side(unit) } else { 0 };
    }
    let touching = if prev < 0x80 { side(prev) } else { 0 };
    touching.wrapping_add(unit_score(m, unit))
}

#[inline]
fn unit_score(m: &CjkModel, unit: u16) -> i32 {
    if (0x80..0xA0).contains(&unit) || OLD_HANGUL_LETTERS.contains(&unit) {
        return i32::from(C1_CONTROL);
    }
    m.scores
        .get(cjk_class(m, unit))
        .map_or(i32::from(i8::MIN), |&s| i32::from(s))
}

/// Whether single-byte encodings `a` and `b` decode byte `0x80 + k` alike.
pub(crate) fn same_char(a: crate::Encoding, b: crate::Encoding, k: u8) -> bool {
    let i = usize::from(k & 0x7F);
    decode_table(a).upper_code_point(i) == decode_table(b).upper_code_point(i)
}

/// Whether a Hangul syllable is one of the 2,350 of KS X 1001 (EUC-KR's two-byte codes
/// with both bytes in 0xA1–0xFE, lead 0xB0–0xC8), by the EUC-KR index.
pub(crate) fn ks_x_1001_hangul(unit: u16) -> bool {
    // Index EUC-KR pointers run (lead − 0x81) × 190 + (trail − 0x41).
    crate::index::euc_kr_pointer(u32::from(unit)).is_some_and(|p| {
        let (row, cell) = (p / 190, p % 190);
        (0xB0 - 0x81..=0xC8 - 0x81).contains(&row) && cell >= 0xA1 - 0x41
    })
}

/// Whether a gb18030 decoder's output unit can only come from a four-byte sequence.
pub(crate) fn gb18030_four_byte_only(unit: u16) -> bool {
    (0xD800..=0xDFFF).contains(&unit)
        || (unit >= 0x80 && crate::index::gb18030_pointer(u32::from(unit)).is_none())
}

#[cfg(test)]
mod tests {
    #[test]
    fn ks_x_1001_has_2350_hangul_syllables() {
        let n = (0xAC00..=0xD7A3u16)
            .filter(|&u| super::ks_x_1001_hangul(u))
            .count();
        assert_eq!(n, 2350);
        // 가 is the first, 힝 the last; 똠 is only in Microsoft's extension.
        assert!(super::ks_x_1001_hangul(0xAC00) && super::ks_x_1001_hangul(0xD79D));
        assert!(!super::ks_x_1001_hangul(0xB620));
    }
}
