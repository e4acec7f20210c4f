//! The language of detected text: fixed by the encoding for the CJK candidates, else
//! told from the decoded text's letters under the winning script model's per-language
//! unigrams (`generated/languages.rs`, from the training corpus).

use super::candidates::{group, Group, SINGLE};
use super::generated::languages as table;
use super::score::{SINGLE_MODELS, UNITS_PER_POINT};
use crate::Encoding;

/// A language the detector's models were trained on (`Guess::language`).
///
/// ```
/// use textcodec::detect::Language;
/// let ru = Language::from_code("ru").unwrap();
/// assert_eq!((ru.code(), ru.name()), ("ru", "Russian"));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Language(u8);

impl Language {
    /// The BCP 47 language code (ISO 639-1 where there is one): `"ru"`, `"zh"`, `"dsb"`.
    pub fn code(self) -> &'static str {
        table::LANGUAGES
            .get(usize::from(self.0))
            .map_or("", |l| l.0)
    }

    /// The English name: `"Russian"`, `"Chinese"`, `"Lower Sorbian"`.
    pub fn name(self) -> &'static str {
        table::LANGUAGES
            .get(usize::from(self.0))
            .map_or("", |l| l.1)
    }

    /// The language of a code (ASCII case-insensitive), if the detector knows it.
    pub fn from_code(code: &str) -> Option<Language> {
        table::LANGUAGES
            .iter()
            .position(|(c, _)| c.eq_ignore_ascii_case(code))
            .and_then(|i| u8::try_from(i).ok())
            .map(Language)
    }

    /// Every language the detector can name, by code.
    pub fn all() -> impl Iterator<Item = Language> {
        (0..table::LANGUAGES.len()).filter_map(|i| u8::try_from(i).ok().map(Language))
    }
}

impl core::fmt::Debug for Language {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Language({})", self.code())
    }
}

impl core::fmt::Display for Language {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// A language wins only this far (units, ⅛ nat) ahead of the next one of its script.
const LANGUAGE_MARGIN: i64 = 32;

/// The language of a multi-byte candidate's text.
pub(super) fn of_multi(encoding: Encoding) -> Option<Language> {
    match encoding {
        Encoding::ShiftJis | Encoding::EucJp | Encoding::Iso2022Jp => Some(Language(table::JA)),
        Encoding::Gbk | Encoding::Gb18030 | Encoding::Big5 => Some(Language(table::ZH)),
        Encoding::EucKr => Some(Language(table::KO)),
        _ => None,
    }
}

/// The language of `SINGLE[i]`'s text, from how often each byte value was seen (outside
/// markup): the language of the script whose letter unigrams fit best, if it leads the
/// next by [`LANGUAGE_MARGIN`] (a script of one language names it whatever the letters).
pub(super) fn of_single(i: usize, counts: &[u32; 256]) -> Option<Language> {
    let model = SINGLE_MODELS.get(i)?;
    let group = group(*SINGLE.get(i)?);
    match group {
        Group::Western => best(model, counts, &table::WESTERN_LANGUAGES),
        Group::Central => best(model, counts, &table::CENTRAL_LANGUAGES),
        Group::Turkish => best(model, counts, &table::TURKISH_LANGUAGES),
        Group::Baltic => best(model, counts, &table::BALTIC_LANGUAGES),
        Group::Vietnamese => best(model, counts, &table::VIETNAMESE_LANGUAGES),
        Group::Cyrillic => best(model, counts, &table::CYRILLIC_LANGUAGES),
        Group::Greek => best(model, counts, &table::GREEK_LANGUAGES),
        Group::Hebrew => best(model, counts, &table::HEBREW_LANGUAGES),
        Group::Arabic => best(model, counts, &table::ARABIC_LANGUAGES),
        Group::Thai => best(model, counts, &table::THAI_LANGUAGES),
    }
}

fn best<const N: usize>(
    model: &super::score::SingleByteModel,
    counts: &[u32; 256],
    langs: &[(u8, [i8; N])],
) -> Option<Language> {
    if let [(only, _)] = langs {
        return Some(Language(*only));
    }
    // Letters per class of the script model.
    let mut classes = [0u64; N];
    for (&entry, &n) in model.entry.iter().zip(counts) {
        let class = (entry & 0x7F) as usize;
        if let Some(c) = classes.get_mut(class) {
            *c = c.saturating_add(u64::from(n));
        }
    }
    // The classes seen (short text has few): only they are summed per language.
    let mut seen = [(0usize, 0i64); N];
    let mut count = 0usize;
    for (class, &n) in classes.iter().enumerate() {
        if n > 0 {
            if let Some(slot) = seen.get_mut(count) {
                *slot = (class, i64::try_from(n).unwrap_or(i64::MAX));
                count = count.saturating_add(1);
            }
        }
    }
    let seen = seen.get(..count).unwrap_or_default();
    let (mut first, mut second) = ((i64::MIN, 0u8), i64::MIN);
    for (lang, logp) in langs {
        let score = seen.iter().fold(0i64, |t, &(class, n)| {
            let p = logp.get(class).copied().unwrap_or(0);
            t.saturating_add(i64::from(p).saturating_mul(n))
        });
        if score > first.0 {
            second = first.0;
            first = (score, *lang);
        } else if score > second {
            second = score;
        }
    }
    (first.0.saturating_sub(second) >= LANGUAGE_MARGIN).then_some(Language(first.1))
}

/// Most languages in a script's table.
const MAX_LANGUAGES: usize = 32;

/// How well the letters of a single-byte candidate's text (ASCII letters included,
/// outside markup) fit one language of its script: the log-likelihood (units) of the
/// letter classes under the per-language unigrams, averaged over the script's languages
/// as probabilities (`ln mean exp`), plus each non-letter high byte's symbol score. The
/// pair scores look only at pairs with a non-ASCII byte, so this is where the ASCII
/// letters of Latin text tell its language (and with it, which of the script's letters
/// belong). The ASCII letters' part is the same for every encoding of a script: it is
/// computed once per script.
pub(super) struct LetterFit<'a> {
    counts: &'a [u32; 256],
    seen_high: &'a [u64; 2],
    /// Per Latin script (Western, Central, Turkish, Baltic, Vietnamese): each language's
    /// log-likelihood of the ASCII letters, once computed.
    ascii: [Option<[i64; MAX_LANGUAGES]>; 5],
}

impl<'a> LetterFit<'a> {
    pub(super) fn new(counts: &'a [u32; 256], seen_high: &'a [u64; 2]) -> Self {
        LetterFit {
            counts,
            seen_high,
            ascii: [None; 5],
        }
    }

    /// The fit of `SINGLE[i]`'s text; `None` for the non-Latin scripts.
    pub(super) fn of(&mut self, i: usize) -> Option<i64> {
        let model = SINGLE_MODELS.get(i)?;
        match group(*SINGLE.get(i)?) {
            Group::Western => Some(self.fit(0, model, &table::WESTERN_LANGUAGES)),
            Group::Central => Some(self.fit(1, model, &table::CENTRAL_LANGUAGES)),
            Group::Turkish => Some(self.fit(2, model, &table::TURKISH_LANGUAGES)),
            Group::Baltic => Some(self.fit(3, model, &table::BALTIC_LANGUAGES)),
            Group::Vietnamese => Some(self.fit(4, model, &table::VIETNAMESE_LANGUAGES)),
            _ => None,
        }
    }

    fn fit<const N: usize>(
        &mut self,
        script: usize,
        model: &super::score::SingleByteModel,
        langs: &[(u8, [i8; N])],
    ) -> i64 {
        let counts = self.counts;
        let ascii = match self.ascii.get(script).copied().flatten() {
            Some(a) => a,
            None => {
                let mut a = [0i64; MAX_LANGUAGES];
                for b in b'a'..=b'z' {
                    let count = counts
                        .get(usize::from(b))
                        .copied()
                        .unwrap_or(0)
                        .saturating_add(counts.get(usize::from(b & !0x20)).copied().unwrap_or(0));
                    if count == 0 {
                        continue;
                    }
                    let class = entry_class(model, usize::from(b));
                    for ((_, logp), s) in langs.iter().zip(a.iter_mut()) {
                        let p = logp.get(class).copied().unwrap_or(i8::MIN);
                        *s = s.saturating_add(i64::from(p).saturating_mul(i64::from(count)));
                    }
                }
                if let Some(slot) = self.ascii.get_mut(script) {
                    *slot = Some(a);
                }
                a
            }
        };
        // The high bytes seen: letters by their class in each language; symbols summed
        // apart (the same in every language).
        let mut scores = ascii;
        let mut symbols = 0i64;
        for (w, &word) in self.seen_high.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let b = 0x80usize
                    .wrapping_add(w.wrapping_mul(64))
                    .wrapping_add(bits.trailing_zeros() as usize);
                bits &= bits.wrapping_sub(1);
                let count = i64::from(counts.get(b).copied().unwrap_or(0));
                if count == 0 {
                    continue;
                }
                let entry = model.entry.get(b).copied().unwrap_or(0);
                let class = (entry & 0x7F) as usize;
                if class == 0 {
                    let uni = i64::from((entry >> 8) as u8 as i8);
                    symbols = symbols.saturating_add(uni.saturating_mul(count));
                    continue;
                }
                for ((_, logp), s) in langs.iter().zip(scores.iter_mut()) {
                    let p = logp.get(class).copied().unwrap_or(i8::MIN);
                    *s = s.saturating_add(i64::from(p).saturating_mul(count));
                }
            }
        }
        let k = langs.len().min(MAX_LANGUAGES);
        let best = scores
            .get(..k)
            .unwrap_or_default()
            .iter()
            .copied()
            .max()
            .unwrap_or(0);
        let sum: f32 = scores
            .get(..k)
            .unwrap_or_default()
            .iter()
            .map(|&s| {
                let behind = usize::try_from(best.saturating_sub(s)).unwrap_or(usize::MAX);
                EXP_NEG_UNITS.get(behind).copied().unwrap_or(0.0)
            })
            .sum();
        let mean = ln(sum) - ln(k as f32);
        best.saturating_add((mean * UNITS_PER_POINT) as i64)
            .saturating_add(symbols)
    }
}

/// `e^(−k / 8)`, k = 0..255: a language `k` units behind the best counts this much in the
/// mean (further behind, nothing).
static EXP_NEG_UNITS: [f32; 256] = exp_neg_units();

#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)] // compile time, in range
const fn exp_neg_units() -> [f32; 256] {
    // e^(−1/8) by its series, then its powers.
    let x = -1.0 / UNITS_PER_POINT as f64;
    let (mut term, mut step, mut n) = (1.0f64, 1.0f64, 1.0f64);
    while n < 20.0 {
        term = term * x / n;
        step += term;
        n += 1.0;
    }
    let mut out = [0.0f32; 256];
    let mut power = 1.0f64;
    let mut k = 0;
    while k < 256 {
        out[k] = power as f32;
        power *= step;
        k += 1;
    }
    out
}

/// The class of byte `b` in a single-byte model.
fn entry_class(model: &super::score::SingleByteModel, b: usize) -> usize {
    (model.entry.get(b).copied().unwrap_or(0) & 0x7F) as usize
}

/// `ln x` for `x > 0` (no `std` here): the exponent of the float, and the mantissa's
/// logarithm by the series of `atanh`.
fn ln(x: f32) -> f32 {
    if x.is_nan() || x <= 0.0 {
        return 0.0;
    }
    let bits = x.to_bits();
    let exponent = (((bits >> 23) & 0xFF) as i32).wrapping_sub(127);
    let m = f32::from_bits((bits & 0x007F_FFFF) | 0x3F80_0000); // [1, 2)
    let t = (m - 1.0) / (m + 1.0);
    let t2 = t * t;
    let series = 2.0 * t * (1.0 + t2 * (1.0 / 3.0 + t2 * (1.0 / 5.0 + t2 / 7.0)));
    exponent as f32 * core::f32::consts::LN_2 + series
}
