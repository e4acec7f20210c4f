//! `cargo xtask gen-detect [--check] [--corpus DIR]`: the encoding detector's model
//! (`crates/textcodec/src/detect/generated/model.rs`) from the training corpus that
//! `scripts/fetch-detect-training.py` writes (`detect-corpus/` by default: one UTF-8 file
//! of translated strings per language).
//!
//! What is counted (everything in natural logs, stored in eighths: one unit = 1/8 nat):
//!
//! * **Script models** (Western, Central European, Turkish, Baltic and Vietnamese Latin,
//!   Cyrillic, Greek, Hebrew, Arabic, Thai; the languages of each below): the text is mapped to classes — 0 for word boundaries (spaces, digits,
//!   punctuation, symbols), the ASCII letters (26 classes for Latin, one class for the
//!   other scripts), the script's most frequent letters (case-folded), and one class for
//!   its rarer letters — and class pairs are counted. A pair scores `ln P(b | a) + K`
//!   (add-half smoothing; into the rare class also `− ln` of how many letters share it,
//!   and into the one ASCII-letter class of a non-Latin script `− ln 26`).
//!   A 3 × 3 table scores case transitions (boundary, small, capital). Romanian ș ț
//!   (comma below) count as ş ţ (cedilla): see `fold`.
//! * **Symbols**: every non-ASCII character that is not a letter scores `ln P(c | a
//!   boundary)` over all languages; unlisted ones get the floor.
//! * **CJK**: for Japanese, Simplified and Traditional Chinese, and Korean, the classes of
//!   non-ASCII characters (frequent Han, other seen Han, unseen Han, hiragana, katakana,
//!   half-width katakana, frequent Hangul, other Hangul, CJK punctuation, full-width forms,
//!   private use, other) score `ln(P(class | language) / class size) + K`; bit sets list
//!   the frequent Han characters per language and the frequent Hangul syllables. A side
//!   of a non-ASCII character touching an ASCII letter scores `ln P(touching)`.
//!
//! Output is deterministic: sorted maps, ties broken by code point.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// Units per nat in the stored tables.
const UNITS: f64 = 8.0;
/// Added to every pair's log-probability (so plausible pairs are positive).
const PAIR_K: f64 = 4.0;
/// Added to every CJK character's log-probability per character.
const CJK_K: f64 = 10.5;
/// At most this many letter classes per script (besides ASCII and rare).
const MAX_LETTERS: usize = 96;
/// A letter needs this share of the script's non-ASCII letters to get its own class.
const MIN_SHARE: f64 = 0.0002;

struct Script {
    name: &'static str,
    languages: &'static [&'static str],
    latin_ascii: bool,
}

const SCRIPTS: [Script; 10] = [
    Script {
        name: "WESTERN",
        languages: &[
            "af", "ast", "br", "ca", "cy", "da", "de", "es", "eu", "fi", "fr", "fy", "ga", "gd",
            "gl", "ia", "id", "is", "it", "lb", "ms", "nb", "nl", "nn", "pt", "pt_BR", "sq", "sv",
            "sw",
        ],
        latin_ascii: true,
    },
    Script {
        name: "CENTRAL",
        languages: &[
            "bs", "cs", "dsb", "hr", "hsb", "hu", "pl", "ro", "sk", "sl", "sr_Latn",
        ],
        latin_ascii: true,
    },
    Script {
        name: "TURKISH",
        languages: &["tr"],
        latin_ascii: true,
    },
    Script {
        name: "BALTIC",
        languages: &["lt", "lv", "et"],
        latin_ascii: true,
    },
    Script {
        name: "VIETNAMESE",
        languages: &["vi-1258"],
        latin_ascii: true,
    },
    Script {
        name: "CYRILLIC",
        languages: &[
            "ru", "uk", "be", "bg", "sr", "mk", "kk", "ky", "mn", "tg", "tt", "os", "udm",
        ],
        latin_ascii: false,
    },
    Script {
        name: "GREEK",
        languages: &["el"],
        latin_ascii: false,
    },
    Script {
        name: "HEBREW",
        languages: &["he"],
        latin_ascii: false,
    },
    Script {
        name: "ARABIC",
        languages: &["ar", "ar_DZ", "fa", "ur", "ckb", "ug"],
        latin_ascii: false,
    },
    Script {
        name: "THAI",
        languages: &["th"],
        latin_ascii: false,
    },
];

/// The same definition as `is_letter` in `crates/textcodec/src/detect/score.rs`.
fn is_letter(cp: u32) -> bool {
    matches!(cp,
        0xAA | 0xB5 | 0xBA
        | 0x300..=0x36F
        | 0x591..=0x5C7 | 0x5D0..=0x5EA | 0x5F0..=0x5F2
        | 0x621..=0x64A | 0x64B..=0x652 | 0x660..=0x669 | 0x670..=0x6D3
        | 0xE01..=0xE3A | 0xE40..=0xE4E
        | 0x1E00..=0x1EFF)
        || ((0xC0..=0x24F).contains(&cp) && cp != 0xD7 && cp != 0xF7)
        || ((0x386..=0x3CE).contains(&cp) && cp != 0x387)
        || (0x400..=0x4FF).contains(&cp)
}

fn in_script(script: &str, cp: u32) -> bool {
    match script {
        "WESTERN" | "CENTRAL" | "TURKISH" | "BALTIC" | "VIETNAMESE" => {
            matches!(cp, 0xAA | 0xBA | 0xC0..=0x24F | 0x300..=0x36F | 0x1E00..=0x1EFF)
        }
        "CYRILLIC" => (0x400..=0x4FF).contains(&cp),
        "GREEK" => (0x370..=0x3FF).contains(&cp),
        "HEBREW" => (0x590..=0x5FF).contains(&cp),
        "ARABIC" => (0x600..=0x6FF).contains(&cp),
        "THAI" => (0xE00..=0xE7F).contains(&cp),
        _ => false,
    }
}

/// Case-folds a letter, and writes Romanian ș ț (comma below) as ş ţ (cedilla): the
/// legacy encodings have only the cedilla forms and ISO-8859-16 only the comma forms (at
/// the same bytes as ISO-8859-2's cedilla ones), so which of the two a text has tells the
/// encoding, not the language; scored as one letter, the choice is left to the priors and
/// to the bytes where the encodings really differ.
fn fold(c: char) -> char {
    let mut lower = c.to_lowercase();
    let l = match (lower.next(), lower.next()) {
        (Some(l), None) => l,
        _ => c,
    };
    match l {
        '\u{219}' => '\u{15F}',
        '\u{21B}' => '\u{163}',
        _ => l,
    }
}

/// The other forms of a folded letter (see [`fold`]): the comma-below twins of ş ţ.
fn twins(c: char) -> &'static [char] {
    match c {
        '\u{15F}' => &['\u{219}', '\u{218}'],
        '\u{163}' => &['\u{21B}', '\u{21A}'],
        _ => &[],
    }
}

fn read_language(corpus: &Path, lang: &str) -> Result<String, String> {
    let path = corpus.join(format!("{lang}.txt"));
    std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads several languages; a missing file is an error (the corpus is incomplete).
fn read_all(corpus: &Path, langs: &[&str]) -> Result<String, String> {
    let mut text = String::new();
    for lang in langs {
        text.push_str(&read_language(corpus, lang)?);
        text.push('\n');
    }
    Ok(text)
}

fn ln(x: f64) -> f64 {
    x.ln()
}

fn units(x: f64, lo: f64, hi: f64) -> i64 {
    (x * UNITS).round().clamp(lo, hi) as i64
}

struct ScriptOut {
    letters: Vec<(u32, u8)>,
    classes: usize,
    pairs: Vec<i64>,
    case: [i64; 9],
    /// The class of each letter with its own class (case-folded).
    class_of_letter: BTreeMap<char, usize>,
}

impl ScriptOut {
    /// The class of a character (0 for word boundaries), as `script_model` counts it.
    fn class(&self, latin_ascii: bool, c: char) -> usize {
        let cp = c as u32;
        if c.is_ascii_alphabetic() {
            return if latin_ascii {
                1 + (c.to_ascii_lowercase() as usize - 'a' as usize)
            } else {
                1
            };
        }
        if cp >= 0x80 && is_letter(cp) {
            return match self.class_of_letter.get(&fold(c)) {
                Some(&k) => k,
                None => self.classes - 1,
            };
        }
        0
    }
}

fn script_model(script: &Script, text: &str) -> ScriptOut {
    // Letter frequencies (case-folded) of the script.
    let mut freq: BTreeMap<char, u64> = BTreeMap::new();
    let mut total = 0u64;
    for c in text.chars() {
        let cp = c as u32;
        if cp >= 0x80 && is_letter(cp) && in_script(script.name, cp) {
            *freq.entry(fold(c)).or_default() += 1;
            total += 1;
        }
    }
    let mut by_count: Vec<(char, u64)> = freq.into_iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let chosen: Vec<char> = by_count
        .iter()
        .filter(|(_, n)| (*n as f64) >= MIN_SHARE * total as f64 && *n >= 3)
        .take(MAX_LETTERS)
        .map(|(c, _)| *c)
        .collect();
    let ascii_classes = if script.latin_ascii { 26 } else { 1 };
    let first_letter = 1 + ascii_classes;
    let rare = first_letter + chosen.len();
    let classes = rare + 1;
    let rare_members = (by_count.len() - chosen.len()).max(8) as f64;
    let class_of_letter: BTreeMap<char, usize> = chosen
        .iter()
        .enumerate()
        .map(|(i, &c)| (c, first_letter + i))
        .collect();
    let classify = |c: char| -> (usize, usize) {
        // (class, case: 0 boundary, 1 small, 2 capital)
        let cp = c as u32;
        let case = if c.is_uppercase() { 2 } else { 1 };
        if c.is_ascii_alphabetic() {
            let class = if script.latin_ascii {
                1 + (c.to_ascii_lowercase() as usize - 'a' as usize)
            } else {
                1
            };
            return (class, case);
        }
        if cp >= 0x80 && is_letter(cp) {
            return match class_of_letter.get(&fold(c)) {
                Some(&k) => (k, case),
                None => (rare, case),
            };
        }
        (0, 0)
    };
    let mut pair = vec![0u64; classes * classes];
    let mut case = [0u64; 9];
    for line in text.lines() {
        let (mut prev, mut prev_case) = (0usize, 0usize);
        for c in line.chars().chain(std::iter::once(' ')) {
            let (class, k) = classify(c);
            pair[prev * classes + class] += 1;
            case[prev_case * 3 + k] += 1;
            prev = class;
            prev_case = k;
        }
    }
    let mut pairs = vec![0i64; classes * classes];
    for a in 0..classes {
        let row: u64 = (0..classes).map(|b| pair[a * classes + b]).sum();
        for b in 0..classes {
            let p = (pair[a * classes + b] as f64 + 0.5) / (row as f64 + 0.5 * classes as f64);
            let mut lp = ln(p) + PAIR_K;
            if b == rare {
                lp -= ln(rare_members);
            }
            if b == 1 && !script.latin_ascii {
                // One class stands for 26 letters, which Latin models tell apart: make the
                // two comparable.
                lp -= ln(26.0);
            }
            pairs[a * classes + b] = units(lp, -128.0, 127.0);
        }
    }
    let mut case_out = [0i64; 9];
    for a in 0..3 {
        let row: u64 = (0..3).map(|b| case[a * 3 + b]).sum();
        for b in 0..3 {
            let p = (case[a * 3 + b] as f64 + 0.5) / (row as f64 + 1.5);
            // Relative to the most common transition from `a`: only surprises cost.
            let best = (0..3).map(|x| case[a * 3 + x]).max().unwrap_or(0) as f64 + 0.5;
            let rel = ln(p) - ln(best / (row as f64 + 1.5));
            case_out[a * 3 + b] = units(rel, -128.0, 0.0);
        }
    }
    // Words in capitals (headings, signs, the titles of legal texts) are rarer in the
    // training text (user-interface strings) than in text at large. In Greek and Cyrillic
    // that made all-capitals text read better in another encoding of the script, or of
    // another one, that has small letters at those bytes (Greek capitals as KOI8-R,
    // KOI8-R capitals as windows-1253, windows-1251 capitals as KOI8-R). So there a word
    // in capitals scores as the same word in small letters: a capital after a capital as
    // a small letter after a small one, a capital before a word boundary as a small
    // letter. A small letter then a capital keeps its cost (it tells case-swapped
    // encodings apart). Latin encodings all put capitals and small letters alike, and a
    // wrong one often reads as a capital pair ("DŽverr" for "Déverr"): their table stays.
    if !script.latin_ascii {
        case_out[2 * 3 + 2] = case_out[2 * 3 + 2].max(case_out[3 + 1]);
        case_out[2 * 3] = case_out[2 * 3].max(case_out[3]);
    }
    // Every cased form of each chosen letter, sorted by code point.
    let mut letters: Vec<(u32, u8)> = Vec::new();
    for (&c, &k) in &class_of_letter {
        if (c as u32) >= 0x80 {
            letters.push((c as u32, k as u8));
        }
        let mut upper = c.to_uppercase();
        if let (Some(u), None) = (upper.next(), upper.next()) {
            if u != c && (0x80..0x10000).contains(&(u as u32)) {
                letters.push((u as u32, k as u8 | 0x80));
            }
        }
        for &t in twins(c) {
            let case = if t.is_uppercase() { 0x80 } else { 0 };
            letters.push((t as u32, k as u8 | case));
        }
    }
    letters.sort();
    letters.dedup_by_key(|e| e.0);
    ScriptOut {
        letters,
        classes,
        pairs,
        case: case_out,
        class_of_letter,
    }
}

/// Symbols: non-ASCII non-letters, scored against all boundaries.
fn symbols(text: &str) -> (Vec<(u32, i64)>, i64) {
    let mut freq: BTreeMap<u32, u64> = BTreeMap::new();
    let mut boundaries = 0u64;
    for c in text.chars() {
        let cp = c as u32;
        if cp < 0x80 {
            if !c.is_ascii_alphabetic() {
                boundaries += 1;
            }
        } else if !is_letter(cp) && cp < 0x10000 && !(0x80..0xA0).contains(&cp) {
            boundaries += 1;
            *freq.entry(cp).or_default() += 1;
        }
    }
    let floor = units(ln(0.5 / boundaries as f64), -128.0, 0.0);
    let list = freq
        .into_iter()
        .filter(|&(_, n)| n >= 3)
        .map(|(cp, n)| (cp, units(ln(n as f64 / boundaries as f64), -128.0, 0.0)))
        .filter(|&(_, s)| s > floor)
        .collect();
    (list, floor)
}

const HAN_BASE: u32 = 0x4E00;
const HAN_WORDS: usize = (0xA000 - 0x4E00) / 64; // 328
const HANGUL_BASE: u32 = 0xAC00;
const HANGUL_WORDS: usize = 175; // 11172 syllables
const CJK_CLASSES: usize = 12;
/// How many distinct characters each CJK class stands for (classes 0 and 3 are set from
/// the data). Order: frequent Han, other seen Han, unseen Han, hiragana, katakana,
/// half-width katakana, frequent Hangul, other Hangul, CJK punctuation, full-width
/// forms, private use, other.
const CJK_CLASS_SIZE: [f64; CJK_CLASSES] = [
    0.0, 0.0, 20000.0, 90.0, 90.0, 63.0, 0.0, 10000.0, 64.0, 94.0, 6400.0, 2000.0,
];
const TOP_HAN: usize = 600;
const TOP_HANGUL: usize = 900;
/// Occurrences a Hangul syllable needs in the Korean training text to be frequent: one,
/// so every syllable seen is (712, fewer than `TOP_HANGUL`). Chosen on the calibration
/// set: with the Korean text of `scripts/fetch-detect-training.py`, 1 and 2 both gave
/// 1,143 wrong guesses of 68,820, and 1 gave the right answers more confidence (mean
/// −ln of the confidence of the right answer 0.06452 against 0.06454).
const MIN_HANGUL: u64 = 1;

struct CjkOut {
    han_top: [u64; HAN_WORDS],
    han_seen: [u64; HAN_WORDS],
    scores: [i64; CJK_CLASSES],
    adjacent: i64,
    spaced: i64,
}

fn cjk_class(cp: u32, han_top: &[u64], han_seen: &[u64], hangul_top: &[u64]) -> usize {
    let bit = |set: &[u64], i: u32| set[(i / 64) as usize] >> (i % 64) & 1 == 1;
    match cp {
        0x4E00..=0x9FFF => {
            if bit(han_top, cp - HAN_BASE) {
                0
            } else if bit(han_seen, cp - HAN_BASE) {
                1
            } else {
                2
            }
        }
        0x3040..=0x309F => 3,
        0x30A0..=0x30FF => 4,
        0xFF61..=0xFF9F => 5,
        0xAC00..=0xD7A3 => {
            if bit(hangul_top, cp - HANGUL_BASE) {
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

fn top_set<const W: usize>(
    text: &str,
    range: std::ops::RangeInclusive<u32>,
    base: u32,
    top: usize,
    min: u64,
) -> [u64; W] {
    let mut freq: BTreeMap<u32, u64> = BTreeMap::new();
    for c in text.chars() {
        if range.contains(&(c as u32)) {
            *freq.entry(c as u32).or_default() += 1;
        }
    }
    let mut by_count: Vec<(u32, u64)> = freq.into_iter().filter(|&(_, n)| n >= min).collect();
    by_count.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut set = [0u64; W];
    for &(cp, _) in by_count.iter().take(top) {
        let i = cp - base;
        set[(i / 64) as usize] |= 1 << (i % 64);
    }
    set
}

fn cjk_model(text: &str, hangul_top: &[u64]) -> CjkOut {
    let han_top = top_set::<HAN_WORDS>(text, 0x4E00..=0x9FFF, HAN_BASE, TOP_HAN, 2);
    let han_seen = top_set::<HAN_WORDS>(text, 0x4E00..=0x9FFF, HAN_BASE, usize::MAX, 1);
    let mut counts = [0u64; CJK_CLASSES];
    let mut total = 0u64;
    for c in text.chars() {
        let cp = c as u32;
        if (0x80..0x10000).contains(&cp) {
            counts[cjk_class(cp, &han_top, &han_seen, hangul_top)] += 1;
            total += 1;
        }
    }
    let popcount = |s: &[u64]| s.iter().map(|w| w.count_ones() as f64).sum::<f64>();
    let mut size = CJK_CLASS_SIZE;
    size[0] = popcount(&han_top).max(1.0);
    size[1] = (popcount(&han_seen) - size[0]).max(1.0);
    size[6] = popcount(hangul_top).max(1.0);
    // How often a side of a non-ASCII character touches an ASCII letter, and a space
    // (Korean writes spaces between words, Chinese and Japanese do not).
    let (mut sides, mut touching, mut spaced) = (0u64, 0u64, 0u64);
    for line in text.lines() {
        let chars: Vec<char> = line.chars().collect();
        for w in chars.windows(2) {
            let (a, b) = (w[0], w[1]);
            if (!a.is_ascii() && b.is_ascii_alphabetic())
                || (a.is_ascii_alphabetic() && !b.is_ascii())
            {
                touching += 1;
            }
            if (!a.is_ascii() && b == ' ') || (a == ' ' && !b.is_ascii()) {
                spaced += 1;
            }
        }
        sides += 2 * chars.iter().filter(|c| !c.is_ascii()).count() as u64;
    }
    let side_score = |n: u64| units(ln((n as f64 + 0.5) / (sides as f64 + 1.0)), -128.0, 0.0);
    let adjacent = side_score(touching);
    let spaced = side_score(spaced);
    let mut scores = [0i64; CJK_CLASSES];
    for k in 0..CJK_CLASSES {
        let p = (counts[k] as f64 + 0.5) / (total as f64 + 0.5 * CJK_CLASSES as f64);
        scores[k] = units(ln(p / size[k]) + CJK_K, -128.0 * 4.0, 127.0);
    }
    CjkOut {
        han_top,
        han_seen,
        scores,
        adjacent,
        spaced,
    }
}

fn words(out: &mut String, name: &str, set: &[u64]) {
    let _ = writeln!(out, "pub(crate) static {name}: [u64; {}] = [", set.len());
    for chunk in set.chunks(4) {
        let line: Vec<String> = chunk.iter().map(|w| format!("0x{w:016x}")).collect();
        let _ = writeln!(out, "    {},", line.join(", "));
    }
    let _ = writeln!(out, "];");
}

/// The generated file's text.
pub fn generate(corpus: &Path) -> Result<String, String> {
    let mut out = String::new();
    out.push_str(
        "// @generated by `cargo xtask gen-detect` from the training corpus of\n\
         // scripts/fetch-detect-training.py (detect-corpus/). DO NOT EDIT.\n\
         //! The encoding detector's model tables (see `xtask/src/detect_model.rs`).\n\n\
         use super::super::score::{CjkModel, ScriptModel};\n\n",
    );
    let mut all_text = String::new();
    for script in &SCRIPTS {
        let text = read_all(corpus, script.languages)?;
        all_text.push_str(&text);
        let m = script_model(script, &text);
        let _ = writeln!(
            out,
            "pub(crate) static {}: ScriptModel = ScriptModel {{",
            script.name
        );
        let _ = writeln!(out, "    classes: {},", m.classes);
        let _ = writeln!(out, "    letters: &[");
        for chunk in m.letters.chunks(6) {
            let line: Vec<String> = chunk
                .iter()
                .map(|(cp, k)| format!("(0x{cp:04X}, 0x{k:02X})"))
                .collect();
            let _ = writeln!(out, "        {},", line.join(", "));
        }
        let _ = writeln!(out, "    ],");
        let _ = writeln!(out, "    case: {:?},", m.case);
        let _ = writeln!(out, "    pairs: &[");
        for row in m.pairs.chunks(m.classes) {
            let line: Vec<String> = row.iter().map(|v| v.to_string()).collect();
            let _ = writeln!(out, "        {},", line.join(", "));
        }
        let _ = writeln!(out, "    ],\n}};\n");
    }
    let (syms, floor) = symbols(&all_text);
    let _ = writeln!(
        out,
        "/// Score of a non-ASCII symbol not listed in [`SYMBOLS`]."
    );
    let _ = writeln!(out, "pub(crate) const SYMBOL_FLOOR: i8 = {floor};");
    let _ = writeln!(
        out,
        "/// Non-ASCII symbols (not letters) by code point, and their scores."
    );
    let _ = writeln!(
        out,
        "pub(crate) static SYMBOLS: [(u16, i8); {}] = [",
        syms.len()
    );
    for chunk in syms.chunks(6) {
        let line: Vec<String> = chunk
            .iter()
            .map(|(cp, s)| format!("(0x{cp:04X}, {s})"))
            .collect();
        let _ = writeln!(out, "    {},", line.join(", "));
    }
    let _ = writeln!(out, "];\n");

    let ko = read_all(corpus, &["ko"])?;
    let hangul_top =
        top_set::<HANGUL_WORDS>(&ko, 0xAC00..=0xD7A3, HANGUL_BASE, TOP_HANGUL, MIN_HANGUL);
    words(&mut out, "HANGUL_TOP", &hangul_top);
    let cjk: [(&str, &[&str]); 4] = [
        ("JAPANESE", &["ja"]),
        ("SIMPLIFIED", &["zh_Hans", "zh_CN"]),
        ("TRADITIONAL", &["zh_Hant", "zh_TW", "zh_HK"]),
        ("KOREAN", &["ko"]),
    ];
    for (name, langs) in cjk {
        let text = read_all(corpus, langs)?;
        let m = cjk_model(&text, &hangul_top);
        words(&mut out, &format!("{name}_HAN_TOP"), &m.han_top);
        words(&mut out, &format!("{name}_HAN_SEEN"), &m.han_seen);
        let _ = writeln!(
            out,
            "pub(crate) static {name}: CjkModel = CjkModel {{ han_top: &{name}_HAN_TOP, han_seen: &{name}_HAN_SEEN, scores: {:?}, adjacent: {}, spaced: {} }};\n",
            m.scores, m.adjacent, m.spaced
        );
    }
    Ok(out)
}

/// Languages by code (BCP 47: ISO 639-1 where there is one) and English name: every
/// language the models are trained on, in code order (a language's index in this list is
/// what the generated tables store).
const LANGUAGE_NAMES: [(&str, &str); 63] = [
    ("af", "Afrikaans"),
    ("ar", "Arabic"),
    ("ast", "Asturian"),
    ("be", "Belarusian"),
    ("bg", "Bulgarian"),
    ("br", "Breton"),
    ("bs", "Bosnian"),
    ("ca", "Catalan"),
    ("ckb", "Central Kurdish"),
    ("cs", "Czech"),
    ("cy", "Welsh"),
    ("da", "Danish"),
    ("de", "German"),
    ("dsb", "Lower Sorbian"),
    ("el", "Greek"),
    ("es", "Spanish"),
    ("et", "Estonian"),
    ("eu", "Basque"),
    ("fa", "Persian"),
    ("fi", "Finnish"),
    ("fr", "French"),
    ("fy", "Western Frisian"),
    ("ga", "Irish"),
    ("gd", "Scottish Gaelic"),
    ("gl", "Galician"),
    ("he", "Hebrew"),
    ("hr", "Croatian"),
    ("hsb", "Upper Sorbian"),
    ("hu", "Hungarian"),
    ("ia", "Interlingua"),
    ("id", "Indonesian"),
    ("is", "Icelandic"),
    ("it", "Italian"),
    ("ja", "Japanese"),
    ("kk", "Kazakh"),
    ("ko", "Korean"),
    ("ky", "Kyrgyz"),
    ("lb", "Luxembourgish"),
    ("lt", "Lithuanian"),
    ("lv", "Latvian"),
    ("mk", "Macedonian"),
    ("mn", "Mongolian"),
    ("ms", "Malay"),
    ("nb", "Norwegian Bokmål"),
    ("nl", "Dutch"),
    ("nn", "Norwegian Nynorsk"),
    ("os", "Ossetic"),
    ("pl", "Polish"),
    ("pt", "Portuguese"),
    ("ro", "Romanian"),
    ("ru", "Russian"),
    ("sk", "Slovak"),
    ("sl", "Slovenian"),
    ("sq", "Albanian"),
    ("sr", "Serbian"),
    ("sv", "Swedish"),
    ("sw", "Swahili"),
    ("tg", "Tajik"),
    ("th", "Thai"),
    ("tr", "Turkish"),
    ("tt", "Tatar"),
    ("udm", "Udmurt"),
    ("uk", "Ukrainian"),
];

/// Languages the generated list adds to those of the script models: the CJK ones and
/// Vietnamese (its corpus file is `vi-1258`).
const EXTRA_LANGUAGES: [(&str, &str); 3] = [("ur", "Urdu"), ("ug", "Uyghur"), ("vi", "Vietnamese")];

/// Chinese: one language for both scripts (the encoding tells which).
const CHINESE: (&str, &str) = ("zh", "Chinese");

/// The language code of a corpus file: `pt_BR` → `pt`, `vi-1258` → `vi`, `sr_Latn` → `sr`.
fn language_code(file: &str) -> &str {
    file.split(['_', '-', '@', '.']).next().unwrap_or(file)
}

/// The generated language file's text: the language list and, per script model, each
/// language's log-probability of each letter class (unigrams, add-half smoothing, in
/// units), which tells the languages of one script apart once the encoding is known.
pub fn generate_languages(corpus: &Path) -> Result<String, String> {
    let mut names: Vec<(&str, &str)> = LANGUAGE_NAMES
        .iter()
        .chain(&EXTRA_LANGUAGES)
        .chain(std::iter::once(&CHINESE))
        .copied()
        .collect();
    names.sort();
    names.dedup();
    let index = |code: &str| names.iter().position(|(c, _)| *c == code);
    let mut out = String::new();
    out.push_str(
        "// @generated by `cargo xtask gen-detect` from the training corpus of\n\
         // scripts/fetch-detect-training.py (detect-corpus/). DO NOT EDIT.\n\
         //! The languages the detector names, and each script model's per-language letter\n\
         //! unigrams (see `xtask/src/detect_model.rs`, `generate_languages`).\n\n",
    );
    let _ = writeln!(
        out,
        "/// Every language: (BCP 47 code, English name), by code.\npub(crate) static LANGUAGES: [(&str, &str); {}] = [",
        names.len()
    );
    for chunk in names.chunks(4) {
        let line: Vec<String> = chunk
            .iter()
            .map(|(c, n)| format!("({c:?}, {n:?})"))
            .collect();
        let _ = writeln!(out, "    {},", line.join(", "));
    }
    let _ = writeln!(out, "];\n");
    for (code, _) in [("ja", ""), ("ko", ""), ("zh", "")] {
        let i = index(code).ok_or(format!("{code} not in the language list"))?;
        let _ = writeln!(out, "pub(crate) const {}: u8 = {i};", code.to_uppercase());
    }
    out.push('\n');
    for script in &SCRIPTS {
        let text = read_all(corpus, script.languages)?;
        let m = script_model(script, &text);
        // Languages of the script, variants merged, in code order.
        let mut by_code: BTreeMap<&str, String> = BTreeMap::new();
        for file in script.languages {
            let t = read_language(corpus, file)?;
            by_code.entry(language_code(file)).or_default().push_str(&t);
        }
        let _ = writeln!(
            out,
            "/// {}: (language, log P(letter class | language) in units) per language.",
            script.name
        );
        let _ = writeln!(
            out,
            "pub(crate) static {}_LANGUAGES: [(u8, [i8; {}]); {}] = [",
            script.name,
            m.classes,
            by_code.len()
        );
        for (code, text) in &by_code {
            let i = index(code).ok_or(format!("{code} not in the language list"))?;
            let mut counts = vec![0u64; m.classes];
            for c in text.chars() {
                let k = m.class(script.latin_ascii, c);
                // Word boundaries tell nothing; nor do ASCII letters in a non-Latin script.
                if k != 0 && (script.latin_ascii || k != 1) {
                    counts[k] += 1;
                }
            }
            let total: u64 = counts.iter().sum();
            let letters = (1..m.classes)
                .filter(|&k| script.latin_ascii || k != 1)
                .count() as f64;
            let logp: Vec<String> = counts
                .iter()
                .enumerate()
                .map(|(k, &n)| {
                    if k == 0 || (!script.latin_ascii && k == 1) {
                        return "0".to_string();
                    }
                    let p = (n as f64 + 0.5) / (total as f64 + 0.5 * letters);
                    units(ln(p), -128.0, 0.0).to_string()
                })
                .collect();
            let _ = writeln!(out, "    ({i}, [{}]),", logp.join(", "));
        }
        let _ = writeln!(out, "];\n");
    }
    Ok(out)
}

/// `cargo xtask gen-detect`: writes (or with `check`, compares) the model file and the
/// language file.
pub fn run(root: &Path, corpus: &Path, check: bool) -> Result<(), String> {
    if !corpus.join("MANIFEST.txt").is_file() {
        return Err(format!(
            "{} has no MANIFEST.txt: run scripts/fetch-detect-training.py first",
            corpus.display()
        ));
    }
    let dir = root.join("crates/textcodec/src/detect/generated");
    for (file, text) in [
        ("model.rs", generate(corpus)?),
        ("languages.rs", generate_languages(corpus)?),
    ] {
        let path = dir.join(file);
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        if current == text {
            println!("{} is up to date ({} bytes)", path.display(), text.len());
            continue;
        }
        if check {
            return Err(format!(
                "{} is out of date (run `cargo xtask gen-detect`)",
                path.display()
            ));
        }
        std::fs::write(&path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote {} ({} bytes)", path.display(), text.len());
    }
    Ok(())
}
