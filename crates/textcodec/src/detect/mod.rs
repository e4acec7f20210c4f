//! Detect the encoding of unlabelled bytes (the HTML Standard's *encoding sniffing
//! algorithm* step 8: "attempt to autodetect the character encoding using frequency
//! analysis or other algorithms").
//!
//! ```
//! use textcodec::detect::{detect, Detector, Hints};
//! use textcodec::Encoding;
//!
//! // "Привет, мир! Как дела?" in windows-1251.
//! let bytes = b"\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0! \xca\xe0\xea \xe4\xe5\xeb\xe0?";
//! let guess = detect(bytes, &Hints::new());
//! assert_eq!(guess.encoding, Encoding::Windows1251);
//!
//! // Streaming: chunks split anywhere give the same guess.
//! let mut detector = Detector::new();
//! for chunk in bytes.chunks(3) {
//!     detector.feed(chunk, false);
//! }
//! detector.feed(b"", true);
//! assert_eq!(detector.guess(&Hints::new()).encoding, guess.encoding);
//!
//! // How sure; in which language (Japanese text: by its encoding); candidate sets.
//! assert!(guess.confidence > 0.9);
//! let sjis = b"\x93\xfa\x96\x7b\x8c\xea\x82\xcc\x83\x65\x83\x4c\x83\x58\x83\x67";
//! assert_eq!(detect(sjis, &Hints::new()).language.map(|l| l.name()), Some("Japanese"));
//! let koi8 = detect(bytes, &Hints::new().allowing(&[Encoding::Koi8R]));
//! assert_eq!(koi8.encoding, Encoding::Koi8R);
//!
//! // Binary data is not text.
//! let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
//! assert_eq!(detect(png, &Hints::new()).binary, Some(textcodec::detect::Binary::Png));
//! ```
//!
//! ## What it answers
//!
//! [`Guess::encoding`], with [`Guess::confidence`]: the probability that decoding with
//! it gives the text, calibrated on held-out text (`scripts/make-detect-calibration.py`,
//! `scripts/fit-detect-calibration.py`; of guesses with confidence about *c*, a fraction
//! about *c* are right); [`Guess::language`] where the model knows it; [`Guess::binary`]
//! for input that is not text (a binary format's signature at the start, or binary data
//! bytes of <https://mimesniff.spec.whatwg.org/#binary-data-byte> in more than 1 % of
//! the input); [`Guess::ascii_only`] when nothing told encodings apart. UTF-16LE and
//! UTF-16BE without a byte order mark are candidates: their text is scored as
//! alphabetic and as CJK text, and each binary data byte (the NULs and block bytes of
//! UTF-16 text) counts against every other candidate as a control in its text; bytes
//! that are all printable ASCII are never read as UTF-16. [`Hints::allow`] and
//! [`Hints::deny`] restrict the candidates.
//!
//! ## How it decides
//!
//! 1. **Exact elimination.** Every candidate's decoder (the library's own, streaming, in
//!    fatal mode) runs over the input; a candidate whose decoder reports an error anywhere
//!    is *disqualified*. A guess is never a disqualified candidate when another one
//!    survives (UTF-8 counts as disqualified when [`Hints::allow_utf8`] is false).
//! 2. **Plausibility.** Survivors are scored on their decoded text: single-byte encodings by
//!    character classes and pairs of characters under their script's model, multi-byte
//!    ones by their characters' classes (Han, kana, Hangul, symbols, private use) for the
//!    language the encoding is for. Words of ASCII letters (outside HTML tags) count
//!    against the non-Latin candidates, single-byte and CJK alike (but ISO-2022-JP, whose
//!    characters are ASCII bytes), and each ESC byte against every candidate but
//!    ISO-2022-JP (a control in their text). Priors (how common an encoding is, and the
//!    [`Hints::tld`]/[`Hints::locale`] region) break ties and decide short inputs.
//! 3. **GBK and gb18030** decode alike: the detector returns GBK unless it saw a gb18030
//!    four-byte sequence, and does not count the other as the runner-up of the
//!    [`Guess::margin`]; likewise ISO-8859-8 and ISO-8859-8-I (ISO-8859-8 is returned), and
//!    single-byte encodings that decode the bytes seen to the same text.
//!
//! ## Scores
//!
//! [`Guess::score`] and [`Candidate::score`] are sums of evidence in points (about a
//! natural-log likelihood ratio each): 0 means no evidence, each plausible non-ASCII
//! character adds about one to three points, each implausible one subtracts several; the
//! prior adds between −2.3 and 0 and a hinted region +2.5. [`Guess::margin`] is the
//! winner's score minus that of the best surviving candidate that would decode the input
//! differently ([`NO_RUNNER_UP`] if there is none).
//!
//! ## Memory and stopping
//!
//! A [`Detector`] has a fixed size and allocates nothing while fed. It looks at input in
//! steps of 256 bytes (counted from the start of the input, so the chunking changes
//! nothing). At each step boundary, once 32 non-ASCII bytes were seen, a candidate 50
//! points behind the best of its family (single-byte or multi-byte; UTF-8 excepted), or
//! 200 points behind the best of the other family, stops being scored: its score is
//! frozen and it ranks after every candidate still scored (a margin over it is at least
//! 50 points). Decoders keep running, so disqualification stays exact. The detector stops
//! looking (saturates) at a step boundary once it has seen at least 8 KiB of non-ASCII
//! bytes and the margin is over 200 points or every other candidate stopped being
//! scored; [`Guess::stopped_early`] says so.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

mod binary;
mod candidates;
mod confidence;
mod language;
mod multi;
#[rustfmt::skip]
#[allow(clippy::unreadable_literal)]
mod generated {
    pub(crate) mod calibration;
    pub(crate) mod languages;
    pub(crate) mod model;
}
mod score;
mod utf16;

use alloc::vec::Vec;

use crate::{BomHandling, DecodeErrorMode, Decoder, DecoderOptions, Encoding};
pub use binary::Binary;
use candidates::{base_prior, Region, MULTI, SINGLE};
pub use language::Language;
use multi::{examine_multi, flavor, Multi};
use score::{pair_score, SINGLE_MODELS, UNITS_PER_POINT};
use utf16::{examine_utf16, Utf16};

/// [`Guess::margin`] when no surviving candidate decodes the input differently.
pub const NO_RUNNER_UP: f32 = 1.0e6;

/// Input is examined in steps of this many bytes (stream offsets); saturation is checked
/// at step boundaries only, so the stopping point does not depend on the chunking.
const STEP: u64 = 256;
/// Candidates this far behind the best (units) at a step boundary stop being scored.
const PRUNE: i64 = 50 * UNITS_PER_POINT as i64;
/// ...or this far behind the best of the other family (single-byte or multi-byte).
const PRUNE_OTHER_FAMILY: i64 = 200 * UNITS_PER_POINT as i64;
/// No pruning before this many non-ASCII bytes.
const PRUNE_AFTER: u64 = 32;
/// Saturation needs this many non-ASCII bytes...
const SATURATION_NON_ASCII: u64 = 8192;
/// ...and this margin (units).
const SATURATION_MARGIN: i64 = 200 * UNITS_PER_POINT as i64;

/// Added to the encodings of the hinted region (units).
const REGION_BONUS: i64 = 24;

/// Added to ISO-2022-JP when its escapes led to non-ASCII text (units).
const ISO_2022_JP_ESCAPES: i64 = 64;

/// Subtracted per ESC byte from every candidate but ISO-2022-JP (units): the others
/// decode it as a C0 control, which text does not have (the score of a C1 control).
const ESC_IN_TEXT: i64 = 128;

/// Subtracted per binary data byte from every candidate but UTF-16 (units): a control
/// in their text, as ESC.
const CONTROL_IN_TEXT: i64 = 128;

/// A UTF-16 candidate whose text scores below this (units) at a multiple of
/// [`UTF16_CHECK`] bytes, before any binary data byte was seen, stops being scored. Without
/// such a byte only CJK text can be UTF-16 (text in any other script has a NUL or its
/// block's byte, 0x01–0x1E, in every other byte), and CJK text that reads this badly (a
/// hundred points down: a dozen unseen ideographs in the first few dozen bytes) does not
/// make up the [`UTF16_WITHOUT_CONTROLS`] penalty; other text read as UTF-16 gets there
/// within a few dozen bytes.
const UTF16_GIVE_UP: i64 = -100 * UNITS_PER_POINT as i64;

/// See [`UTF16_GIVE_UP`].
const UTF16_CHECK: u64 = 32;

/// The UTF-16 candidates' prior (units): text without a byte order mark is rarely UTF-16.
const UTF16_PRIOR: i64 = -20;

/// Subtracted from the UTF-16 candidates when no binary data byte was seen (units): the
/// byte pattern of UTF-16 text (a NUL or a script block's byte in every other byte) is
/// missing, as it is only in CJK text, which then has to make up for it with its
/// characters (about four points each for frequent ones).
const UTF16_WITHOUT_CONTROLS: i64 = -96;

/// Hints about the input's origin.
#[derive(Clone, Copy, Debug, Default)]
pub struct Hints<'a> {
    /// The top-level domain of the URL the bytes came from, e.g. `b"jp"` (ASCII
    /// case-insensitive; a leading dot is ignored).
    pub tld: Option<&'a [u8]>,
    /// Whether UTF-8 is an allowed answer (`Default` gives `false`; [`Hints::new`] `true`).
    pub allow_utf8: bool,
    /// The user's locale as a language tag (`ja-JP`, `zh-Hant`, `ru`).
    pub locale: Option<&'a str>,
    /// Only these encodings may be the answer (`None`: every candidate). The others rank
    /// as disqualified ([`Candidate::excluded`]). Twins that decode alike are separate
    /// candidates: list GBK and gb18030, or ISO-8859-8 and ISO-8859-8-I, to allow both.
    pub allow: Option<&'a [Encoding]>,
    /// These encodings may not be the answer (they rank as disqualified, as with
    /// [`Hints::allow`]). `&[Encoding::Utf16Le, Encoding::Utf16Be]` turns off the
    /// recognition of UTF-16 without a byte order mark.
    pub deny: &'a [Encoding],
}

impl<'a> Hints<'a> {
    /// No TLD, no locale, every candidate allowed (UTF-8 included).
    pub fn new() -> Self {
        Hints {
            tld: None,
            allow_utf8: true,
            locale: None,
            allow: None,
            deny: &[],
        }
    }

    /// These hints with only `encodings` allowed ([`Hints::allow`]).
    ///
    /// ```
    /// use textcodec::detect::{detect, Hints};
    /// use textcodec::Encoding;
    /// let bytes = b"\xcf\xf0\xe8\xe2\xe5\xf2"; // "Привет" in windows-1251
    /// let only = [Encoding::Koi8R, Encoding::Iso8859_5];
    /// let guess = detect(bytes, &Hints::new().allowing(&only));
    /// assert!(only.contains(&guess.encoding));
    /// ```
    pub fn allowing(self, encodings: &'a [Encoding]) -> Self {
        Hints {
            allow: Some(encodings),
            ..self
        }
    }

    /// These hints with `encodings` denied ([`Hints::deny`]).
    pub fn denying(self, encodings: &'a [Encoding]) -> Self {
        Hints {
            deny: encodings,
            ..self
        }
    }

    /// Whether `encoding` may be the answer.
    pub fn allows(&self, encoding: Encoding) -> bool {
        (encoding != Encoding::Utf8 || self.allow_utf8)
            && self.allow.is_none_or(|a| a.contains(&encoding))
            && !self.deny.contains(&encoding)
    }

    fn region(&self) -> Option<Region> {
        self.tld
            .and_then(Region::for_tld)
            .or_else(|| self.locale.and_then(Region::for_locale))
    }

    /// The encoding assumed when the bytes give no evidence (ASCII only): the region's,
    /// or if that is not allowed, the first allowed ASCII-compatible candidate.
    fn default_encoding(&self) -> Encoding {
        let wanted = if let Some(region) = self.tld.and_then(Region::for_tld) {
            region.default_encoding()
        } else {
            match self.locale {
                Some(tag) => crate::sniff::default_for_locale(tag),
                None => Encoding::Windows1252,
            }
        };
        if self.allows(wanted) {
            return wanted;
        }
        SINGLE
            .iter()
            .chain(&[
                Encoding::Utf8,
                Encoding::Gbk,
                Encoding::Gb18030,
                Encoding::Big5,
                Encoding::EucJp,
                Encoding::ShiftJis,
                Encoding::EucKr,
                Encoding::Iso2022Jp,
            ])
            .copied()
            .find(|&e| self.allows(e))
            .unwrap_or(wanted)
    }
}

/// The detector's answer.
#[derive(Clone, Copy, Debug)]
pub struct Guess {
    /// The guessed encoding.
    pub encoding: Encoding,
    /// The winner's plausibility score (higher is better; see the module docs' *Scores*).
    pub score: f32,
    /// Winner's score minus the runner-up's (≥ 0); large means sure.
    pub margin: f32,
    /// The detector saturated before the end of the input: later bytes were not examined.
    pub stopped_early: bool,
    /// No non-ASCII byte and no binary data byte was seen: the guess is the hints'
    /// default (the TLD's region, the locale's HTML default, or windows-1252) — unless
    /// ISO-2022-JP escapes to non-ASCII text were seen, which make it ISO-2022-JP. Never
    /// for binary data, nor UTF-16 text (which always has a byte that is not printable
    /// ASCII).
    pub ascii_only: bool,
    /// The probability that decoding with [`Guess::encoding`] gives the text the bytes
    /// were written as, calibrated on held-out text (of the guesses with confidence about
    /// *c*, a fraction about *c* are right); 1 for ASCII-only input (every ASCII-compatible
    /// encoding decodes it alike), 0 for binary data.
    pub confidence: f32,
    /// The language of the text, where the model of the winning encoding knows it: by the
    /// encoding for Japanese, Chinese and Korean, by the letters for the single-byte
    /// encodings (`None` when no language of the script leads clearly), `None` for UTF-8,
    /// UTF-16, ASCII-only and binary input.
    pub language: Option<Language>,
    /// The input is not text: a binary format's signature, or control bytes no text has
    /// (see [`Binary`]). [`Guess::encoding`] is then the best text reading, for callers
    /// that decode anyway, with [`Guess::confidence`] 0.
    pub binary: Option<Binary>,
}

/// Equality compares the scores' bits (so `Guess` can be `Eq` and `Hash`, and be part of
/// [`crate::sniff::SniffReport`]).
impl PartialEq for Guess {
    fn eq(&self, other: &Self) -> bool {
        self.encoding == other.encoding
            && self.score.to_bits() == other.score.to_bits()
            && self.margin.to_bits() == other.margin.to_bits()
            && self.stopped_early == other.stopped_early
            && self.ascii_only == other.ascii_only
            && self.confidence.to_bits() == other.confidence.to_bits()
            && self.language == other.language
            && self.binary == other.binary
    }
}

impl Eq for Guess {}

impl core::hash::Hash for Guess {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.encoding.hash(state);
        self.score.to_bits().hash(state);
        self.margin.to_bits().hash(state);
        self.stopped_early.hash(state);
        self.ascii_only.hash(state);
        self.confidence.to_bits().hash(state);
        self.language.hash(state);
        self.binary.hash(state);
    }
}

/// One entry of [`Detector::ranking`].
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    /// The encoding.
    pub encoding: Encoding,
    /// Its plausibility score; for a disqualified single-byte candidate, its score at the
    /// last 256-byte step before the byte that disqualified it (0 if in the first step).
    pub score: f32,
    /// Its decoder reported an error on the input, or the hints do not allow it
    /// ([`Candidate::excluded`]).
    pub disqualified: bool,
    /// The hints do not allow it ([`Hints::allow`], [`Hints::deny`],
    /// [`Hints::allow_utf8`]).
    pub excluded: bool,
    /// The probability that decoding with it gives the input's text (see
    /// [`Guess::confidence`]): the guess's confidence for the first candidate and those
    /// that decode the input alike, the rest shared among the other candidates by their
    /// scores; 0 when disqualified.
    pub confidence: f32,
}

/// The streaming detector: feed it the bytes, then ask for a [`Guess`].
#[derive(Clone, Debug)]
pub struct Detector {
    multi: [Multi; 7],
    single_score: [i64; 28],
    /// Each single-byte candidate's score at the last step boundary where it was not
    /// disqualified: what a disqualified one reports (the same for any chunking; its
    /// scoring stops at the chunk where it was disqualified).
    alive_score: [i64; 28],
    /// Bit `i`: `SINGLE[i]` is no longer scored (disqualified or far behind at a step
    /// boundary).
    single_off: u32,
    /// Bit `i`: `MULTI[i]`'s text is no longer scored (far behind at a step boundary).
    multi_off: u8,
    /// Which bytes 0x80–0xFF were seen (for decode equivalence).
    seen_high: [u64; 2],
    /// The previous byte (a space at the start).
    prev: u8,
    /// How many ASCII words (after an ASCII non-letter) start with each letter a–z, outside
    /// markup.
    word_starts: [u64; 26],
    /// ESC bytes seen: ISO-2022-JP's escapes, or controls in any other encoding's text.
    escapes: u64,
    /// Inside an HTML tag (`<` then a letter, `/` or `!`, up to `>` or a non-ASCII byte):
    /// its words (element and attribute names, URLs) are markup, not text of a language.
    in_tag: bool,
    examined: u64,
    non_ascii: u64,
    /// gb18030 decoded a four-byte sequence.
    gb_four_byte: bool,
    done: bool,
    stopped_early: bool,
    /// UTF-16LE and UTF-16BE.
    utf16: [Utf16; 2],
    /// Bit `i`: `utf16[i]`'s text is no longer scored (far behind at a step boundary, or
    /// hopeless at a multiple of [`UTF16_CHECK`]).
    utf16_off: u8,
    /// A binary data byte was seen (as of the last UTF-16 part examined).
    utf16_pattern: bool,
    /// Binary data bytes seen (controls in the text of every candidate but UTF-16).
    binary_bytes: u64,
    /// The first bytes of the input, for the binary formats' signatures.
    head: [u8; binary::HEAD],
    /// How often each byte value was seen outside markup (for the language).
    counts: [u32; 256],
}

impl Default for Detector {
    fn default() -> Self {
        Detector::new()
    }
}

impl Detector {
    /// A detector that has seen nothing.
    pub fn new() -> Self {
        let options = DecoderOptions {
            error_mode: DecodeErrorMode::Fatal,
            bom: BomHandling::Keep,
        };
        Detector {
            multi: MULTI.map(|encoding| Multi {
                decoder: Decoder::with_options(encoding, options),
                alive: true,
                score: 0,
                chars: 0,
                prev: 0,
            }),
            single_score: [0; 28],
            alive_score: [0; 28],
            single_off: 0,
            multi_off: 0,
            seen_high: [0; 2],
            prev: b' ',
            word_starts: [0; 26],
            escapes: 0,
            in_tag: false,
            examined: 0,
            non_ascii: 0,
            gb_four_byte: false,
            done: false,
            stopped_early: false,
            utf16: [Encoding::Utf16Le, Encoding::Utf16Be]
                .map(|encoding| Utf16::new(Decoder::with_options(encoding, options))),
            utf16_off: 0,
            utf16_pattern: false,
            binary_bytes: 0,
            head: [0; binary::HEAD],
            counts: [0; 256],
        }
    }

    /// Feeds the next chunk of input (split anywhere); `last` marks the end of the input.
    /// Returns `true` once the detector has stopped looking (it saturated, or `last` was
    /// seen): further calls are then ignored.
    pub fn feed(&mut self, bytes: &[u8], last: bool) -> bool {
        if self.done {
            return true;
        }
        let mut rest = bytes;
        while !rest.is_empty() {
            let room = STEP.saturating_sub(self.examined % STEP);
            let take = usize::try_from(room).unwrap_or(usize::MAX).min(rest.len());
            let (step, tail) = rest.split_at_checked(take).unwrap_or((rest, &[]));
            self.examine(step);
            rest = tail;
            if !self.examined.is_multiple_of(STEP) {
                continue;
            }
            self.step_boundary();
            if self.saturated() {
                self.done = true;
                self.stopped_early = true;
                return true;
            }
        }
        if last {
            self.finish();
            self.done = true;
        }
        self.done
    }

    /// Whether the detector has stopped looking (saturated, or the last chunk was fed).
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// How many bytes were examined.
    pub fn bytes_examined(&self) -> u64 {
        self.examined
    }

    /// Examines bytes that do not cross a step boundary.
    fn examine(&mut self, bytes: &[u8]) {
        let start = usize::try_from(self.examined).unwrap_or(usize::MAX);
        if let Some(head) = self.head.get_mut(start..) {
            for (d, &b) in head.iter_mut().zip(bytes) {
                *d = b;
            }
        }
        let mut offset = self.examined;
        self.examined = self.examined.saturating_add(bytes.len() as u64);
        self.examine_single(bytes);
        // UTF-16 in parts that end at multiples of UTF16_CHECK (stream offsets, so the
        // chunking changes nothing), after each of which a hopeless reading stops being
        // scored.
        let mut rest = bytes;
        while !rest.is_empty() && self.utf16.iter().any(|u| u.alive) {
            let room = UTF16_CHECK.saturating_sub(offset % UTF16_CHECK);
            let take = usize::try_from(room).unwrap_or(usize::MAX).min(rest.len());
            let (part, tail) = rest.split_at_checked(take).unwrap_or((rest, &[]));
            for (i, u) in self.utf16.iter_mut().enumerate() {
                if u.alive {
                    examine_utf16(u, part, false, self.utf16_off & (1 << i) == 0);
                }
            }
            offset = offset.saturating_add(part.len() as u64);
            self.utf16_pattern |= part.iter().any(|&b| binary::is_binary_data_byte(b));
            if offset.is_multiple_of(UTF16_CHECK) && !self.utf16_pattern {
                for (i, u) in self.utf16.iter().enumerate() {
                    if u.alive && u.score() < UTF16_GIVE_UP {
                        self.utf16_off |= 1 << i;
                    }
                }
            }
            rest = tail;
        }
        for (i, m) in self.multi.iter_mut().enumerate() {
            if m.alive {
                let scoring = self.multi_off & (1 << i) == 0;
                let four = examine_multi(m, bytes, false, flavor(i), scoring);
                if four && i == 1 {
                    self.gb_four_byte = true;
                }
            }
        }
    }

    fn examine_single(&mut self, bytes: &[u8]) {
        let first_prev = self.prev;
        let Some(&last) = bytes.last() else {
            return;
        };
        self.prev = last;
        // ASCII words: how often each letter starts one (after an ASCII non-letter), tags
        // left out.
        let mut prev_letter = first_prev >= 0x80 || first_prev.is_ascii_alphabetic();
        let mut prev_byte = first_prev;
        for &b in bytes {
            if b == 0x1B {
                self.escapes = self.escapes.saturating_add(1);
            } else if binary::is_binary_data_byte(b) {
                self.binary_bytes = self.binary_bytes.saturating_add(1);
            }
            let letter = b.is_ascii_alphabetic();
            let opens = prev_byte == b'<' && (letter || b == b'/' || b == b'!');
            prev_byte = b;
            if self.in_tag || opens {
                self.in_tag = b != b'>' && b < 0x80;
                prev_letter = letter || b >= 0x80;
                continue;
            }
            if let Some(c) = self.counts.get_mut(usize::from(b)) {
                *c = c.saturating_add(1);
            }
            if letter && !prev_letter {
                let k = usize::from((b | 0x20).wrapping_sub(b'a'));
                if let Some(c) = self.word_starts.get_mut(k) {
                    *c = c.saturating_add(1);
                }
            }
            prev_letter = letter || b >= 0x80;
        }
        if first_prev < 0x80 && bytes.is_ascii() {
            return;
        }
        // The pairs with a non-ASCII byte.
        let mut pairs = [(0u8, 0u8); STEP as usize];
        let mut n = 0usize;
        let mut prev = first_prev;
        for &b in bytes {
            if b >= 0x80 {
                self.non_ascii = self.non_ascii.saturating_add(1);
                if let Some(word) = self.seen_high.get_mut(usize::from((b >> 6) & 1)) {
                    *word |= 1u64 << (b & 0x3F);
                }
            }
            if b >= 0x80 || prev >= 0x80 {
                if let Some(slot) = pairs.get_mut(n) {
                    *slot = (prev, b);
                    n = n.wrapping_add(1);
                }
            }
            prev = b;
        }
        let pairs = pairs.get(..n).unwrap_or_default();
        for (i, model) in SINGLE_MODELS.iter().enumerate() {
            // Off, or disqualified by a byte seen (whose score is then the one at the last
            // step boundary: see `alive_score`).
            if self.single_off & (1 << i) != 0 || self.single_disqualified(i) {
                continue;
            }
            let total = pairs
                .iter()
                .fold(0i32, |t, &(p, c)| t.wrapping_add(single_pair(model, p, c)));
            if let Some(t) = self.single_score.get_mut(i) {
                *t = t.saturating_add(i64::from(total));
            }
        }
    }

    /// At a step boundary: stop scoring the single-byte candidates now disqualified, and
    /// the candidates (but UTF-8) far behind the best of their family (single-byte,
    /// multi-byte), or very far behind the best of the other family.
    fn step_boundary(&mut self) {
        let mut best_single = i64::MIN;
        for (i, model) in SINGLE_MODELS.iter().enumerate() {
            if model.errors[0] & self.seen_high[0] != 0 || model.errors[1] & self.seen_high[1] != 0
            {
                self.single_off |= 1 << i;
            } else {
                if let (Some(a), Some(&s)) = (self.alive_score.get_mut(i), self.single_score.get(i))
                {
                    *a = s;
                }
                // Only candidates still scored: frozen scores do not move on.
                if self.single_off & (1 << i) == 0 {
                    if let Some(&s) = self.single_score.get(i) {
                        best_single = best_single.max(s);
                    }
                }
            }
        }
        self.prune_utf16(best_single);
        if self.non_ascii < PRUNE_AFTER {
            return;
        }
        let multi_off = self.multi_off;
        let best_multi = self
            .multi
            .iter()
            .enumerate()
            .skip(1)
            .filter(|(i, m)| m.alive && multi_off & (1 << i) == 0)
            .map(|(_, m)| m.score)
            .max()
            .unwrap_or(i64::MIN);
        let floor = |own: i64, other: i64| {
            own.saturating_sub(PRUNE)
                .max(other.saturating_sub(PRUNE_OTHER_FAMILY))
        };
        let single_floor = floor(best_single, best_multi);
        for (i, &s) in self.single_score.iter().enumerate() {
            if s < single_floor {
                self.single_off |= 1 << i;
            }
        }
        let multi_floor = floor(best_multi, best_single);
        for (i, m) in self.multi.iter().enumerate().skip(1) {
            if m.score < multi_floor {
                self.multi_off |= 1 << i;
            }
        }
    }

    /// Stops scoring the UTF-16 candidates that are ruled out, or far behind the best
    /// other candidate (whose text has the binary data bytes as controls).
    fn prune_utf16(&mut self, best_single: i64) {
        let multi_off = self.multi_off;
        let best_multi = self
            .multi
            .iter()
            .enumerate()
            .filter(|(i, m)| m.alive && multi_off & (1 << i) == 0)
            .map(|(_, m)| m.score)
            .max()
            .unwrap_or(i64::MIN);
        let controls =
            CONTROL_IN_TEXT.saturating_mul(i64::try_from(self.binary_bytes).unwrap_or(i64::MAX));
        let floor = best_single
            .max(best_multi)
            .saturating_sub(controls)
            .saturating_sub(PRUNE_OTHER_FAMILY);
        for (i, u) in self.utf16.iter().enumerate() {
            if !u.alive || u.score() < floor {
                self.utf16_off |= 1 << i;
            }
        }
    }

    fn finish(&mut self) {
        if self.prev >= 0x80 {
            for (i, model) in SINGLE_MODELS.iter().enumerate() {
                if self.single_off & (1 << i) == 0 && !self.single_disqualified(i) {
                    if let Some(t) = self.single_score.get_mut(i) {
                        *t = t.saturating_add(i64::from(single_pair(model, self.prev, b' ')));
                    }
                }
            }
        }
        for (i, m) in self.multi.iter_mut().enumerate() {
            let scoring = self.multi_off & (1 << i) == 0;
            if m.alive && examine_multi(m, &[], true, flavor(i), scoring) && i == 1 {
                self.gb_four_byte = true;
            }
        }
        for (i, u) in self.utf16.iter_mut().enumerate() {
            if u.alive {
                examine_utf16(u, &[], true, self.utf16_off & (1 << i) == 0);
            }
        }
    }

    /// The evidence of the ASCII words for the non-Latin single-byte candidates: for
    /// each word start, how much less likely a word starting with an ASCII letter is in
    /// their script model than in the Latin model most at ease with that letter. Latin
    /// text with a few non-ASCII letters is not Cyrillic or Greek text with a few Latin
    /// words. One value per candidate (0 for the Latin ones).
    fn ascii_words(&self) -> [i64; 28] {
        let mut out = [0i64; 28];
        if self.word_starts.iter().all(|&c| c == 0) {
            return out;
        }
        for (o, row) in out.iter_mut().zip(&score::WORD_STARTS) {
            for (&count, &d) in self.word_starts.iter().zip(row) {
                *o = o.saturating_add(i64::from(d).saturating_mul(count as i64));
            }
        }
        out
    }

    /// Whether `SINGLE[i]`'s decoder rejects one of the bytes seen.
    fn single_disqualified(&self, i: usize) -> bool {
        SINGLE_MODELS.get(i).is_none_or(|m| {
            m.errors[0] & self.seen_high[0] != 0 || m.errors[1] & self.seen_high[1] != 0
        })
    }

    /// Whether enough evidence was seen to stop looking.
    fn saturated(&self) -> bool {
        if self.non_ascii < SATURATION_NON_ASCII {
            return false;
        }
        let (_, margin, runner_up_pruned) = self.top(&self.entries(&Hints::new()));
        match margin {
            Some(m) => m >= SATURATION_MARGIN || runner_up_pruned,
            None => true,
        }
    }

    /// The guess for the input seen so far.
    pub fn guess(&self, hints: &Hints<'_>) -> Guess {
        let signature = binary::signature(self.head());
        if self.ascii_default() {
            return Guess {
                encoding: hints.default_encoding(),
                score: 0.0,
                margin: 0.0,
                stopped_early: self.stopped_early,
                ascii_only: true,
                confidence: 1.0,
                language: None,
                binary: None,
            };
        }
        let all = self.entries(hints);
        let (winner, margin, _) = self.top(&all);
        let winner = winner.and_then(|i| all.get(i));
        let binary = signature.or_else(|| winner.and_then(|w| self.control_bytes(w)));
        let (confidence, language) = match winner {
            Some(w) if binary.is_none() && !w.dead => (
                confidence::calibrated(self.class(w.key), margin),
                self.language(w.key),
            ),
            _ => (0.0, None),
        };
        Guess {
            encoding: winner.map_or(hints.default_encoding(), |e| e.encoding),
            score: winner.map_or(0.0, |e| e.units as f32 / UNITS_PER_POINT),
            margin: margin.map_or(NO_RUNNER_UP, |m| m as f32 / UNITS_PER_POINT),
            stopped_early: self.stopped_early,
            ascii_only: self.ascii_text() && binary.is_none(),
            confidence,
            language,
            binary,
        }
    }

    /// The first bytes of the input (at most [`binary::HEAD`]).
    fn head(&self) -> &[u8] {
        let n = usize::try_from(self.examined).unwrap_or(usize::MAX);
        self.head.get(..n).unwrap_or(&self.head)
    }

    /// Whether the input so far is ASCII text: no byte ≥ 0x80 and no binary data byte.
    fn ascii_text(&self) -> bool {
        self.non_ascii == 0 && self.binary_bytes == 0
    }

    /// Whether the guess is the hints' default: ASCII text without ISO-2022-JP escapes to
    /// non-ASCII text, and without a binary format's signature.
    fn ascii_default(&self) -> bool {
        let iso2022 = self.multi.get(4).is_some_and(|m| m.alive && m.chars > 0);
        self.ascii_text() && !iso2022 && binary::signature(self.head()).is_none()
    }

    /// Whether the winner's text has controls that text does not have: binary data bytes
    /// that make up more than 1 % of the input, or for UTF-16, control code units that
    /// make up more than 1 % of its units.
    fn control_bytes(&self, winner: &Entry) -> Option<Binary> {
        if self.binary_bytes == 0 {
            return None;
        }
        let binary = match winner.key {
            Key::Utf16(i) => self
                .utf16
                .get(i)
                .is_none_or(|u| u.controls.saturating_mul(100) > u.units),
            _ => self.binary_bytes.saturating_mul(100) > self.examined,
        };
        binary.then_some(Binary::ControlBytes)
    }

    /// The calibration class of a candidate (see `confidence.rs`).
    fn class(&self, key: Key) -> usize {
        match key {
            Key::Multi(0) => confidence::UTF8,
            Key::Multi(_) => confidence::CJK,
            Key::Single(i) => {
                if SINGLE_MODELS.get(i).is_some_and(|m| m.latin) {
                    confidence::LATIN
                } else {
                    confidence::OTHER_SCRIPT
                }
            }
            Key::Utf16(_) => confidence::UTF16,
        }
    }

    /// The language of a candidate's text.
    fn language(&self, key: Key) -> Option<Language> {
        match key {
            Key::Multi(i) => MULTI.get(i).and_then(|&e| language::of_multi(e)),
            Key::Single(i) => language::of_single(i, &self.counts),
            Key::Utf16(_) => None,
        }
    }

    /// Every candidate (38: UTF-8, GBK, gb18030, Big5, EUC-JP, ISO-2022-JP, Shift_JIS,
    /// EUC-KR, the 28 single-byte encodings, UTF-16LE and UTF-16BE), best first;
    /// disqualified ones last, and before them the ones that stopped being scored (see
    /// *Memory and stopping*). The first is [`Detector::guess`]'s encoding unless the
    /// input was ASCII only.
    pub fn ranking(&self, hints: &Hints<'_>) -> Vec<Candidate> {
        self.ranked(hints)
    }

    /// Every candidate with its score (prior and ESC bytes included), in the fixed
    /// candidate order.
    fn entries(&self, hints: &Hints<'_>) -> [Entry; CANDIDATES] {
        let region = hints.region();
        let esc_in_text =
            ESC_IN_TEXT.saturating_mul(i64::try_from(self.escapes).unwrap_or(i64::MAX));
        let controls =
            CONTROL_IN_TEXT.saturating_mul(i64::try_from(self.binary_bytes).unwrap_or(i64::MAX));
        let prior = |e: Encoding| -> i64 {
            let mut p = i64::from(base_prior(e));
            if region.is_some_and(|r| r.favours(e)) {
                p = p.saturating_add(REGION_BONUS);
            }
            if e != Encoding::Iso2022Jp {
                p = p.saturating_sub(esc_in_text);
            }
            p.saturating_sub(controls)
        };
        let mut all = [Entry {
            encoding: Encoding::Utf8,
            units: 0,
            dead: true,
            excluded: false,
            pruned: false,
            key: Key::Multi(0),
        }; CANDIDATES];
        let mut slots = all.iter_mut();
        let mut push = |mut e: Entry| {
            if !hints.allows(e.encoding) {
                e.excluded = true;
                e.dead = true;
            }
            if let Some(slot) = slots.next() {
                *slot = e;
            }
        };
        let ascii_words = self.ascii_words();
        // The CJK candidates' text is as far from Latin as the non-Latin single-byte
        // scripts': the ASCII words count against them as against the most lenient of
        // those. Not against ISO-2022-JP, whose characters are ASCII bytes that the word
        // count cannot tell from words.
        let cjk_words = SINGLE_MODELS
            .iter()
            .zip(&ascii_words)
            .filter(|(m, _)| !m.latin)
            .map(|(_, &w)| w)
            .max()
            .unwrap_or(0);
        for (i, m) in self.multi.iter().enumerate() {
            let Some(&encoding) = MULTI.get(i) else {
                continue;
            };
            let words = match encoding {
                Encoding::Utf8 | Encoding::Iso2022Jp => 0,
                _ => cjk_words,
            };
            let dead = !m.alive;
            let pruned = self.multi_off & (1 << i) != 0;
            let key = Key::Multi(i);
            if encoding == Encoding::Gb18030 {
                let (first, second) = if self.gb_four_byte {
                    (Encoding::Gb18030, Encoding::Gbk)
                } else {
                    (Encoding::Gbk, Encoding::Gb18030)
                };
                let units = m.score.saturating_add(prior(first)).saturating_add(words);
                push(Entry {
                    encoding: first,
                    units,
                    dead,
                    excluded: false,
                    pruned,
                    key,
                });
                // The twin decodes alike: listed right after, one unit lower.
                let units = units.saturating_sub(1);
                push(Entry {
                    encoding: second,
                    units,
                    dead,
                    excluded: false,
                    pruned,
                    key,
                });
            } else {
                let mut units = m
                    .score
                    .saturating_add(prior(encoding))
                    .saturating_add(words);
                if encoding == Encoding::Iso2022Jp && m.chars > 0 {
                    // Valid escapes to JIS text do not happen by chance.
                    units = units.saturating_add(ISO_2022_JP_ESCAPES);
                }
                push(Entry {
                    encoding,
                    units,
                    dead,
                    excluded: false,
                    pruned,
                    key,
                });
            }
        }
        for (i, &encoding) in SINGLE.iter().enumerate() {
            let dead = self.single_disqualified(i);
            let scores = if dead {
                &self.alive_score
            } else {
                &self.single_score
            };
            let units = scores
                .get(i)
                .copied()
                .unwrap_or(0)
                .saturating_add(prior(encoding))
                .saturating_add(ascii_words.get(i).copied().unwrap_or(0));
            let pruned = !dead && self.single_off & (1 << i) != 0;
            push(Entry {
                encoding,
                units,
                dead,
                excluded: false,
                pruned,
                key: Key::Single(i),
            });
        }
        for (i, (u, encoding)) in self
            .utf16
            .iter()
            .zip([Encoding::Utf16Le, Encoding::Utf16Be])
            .enumerate()
        {
            // Bytes that are all printable ASCII (and ESC) are read as ASCII, however
            // their pairs would read as UTF-16.
            let pattern = if self.binary_bytes == 0 {
                UTF16_WITHOUT_CONTROLS
            } else {
                0
            };
            let dead = !u.alive || self.ascii_text();
            push(Entry {
                encoding,
                units: u
                    .score()
                    .saturating_add(UTF16_PRIOR)
                    .saturating_add(pattern),
                dead,
                excluded: false,
                // As for the single-byte candidates: a disqualified one is not "pruned".
                pruned: !dead && self.utf16_off & (1 << i) != 0,
                key: Key::Utf16(i),
            });
        }
        all
    }

    /// The winner's index in `all`, the margin (units) over the best candidate that
    /// decodes differently, and whether that runner-up stopped being scored. Ties go to
    /// the earlier candidate.
    fn top(&self, all: &[Entry]) -> (Option<usize>, Option<i64>, bool) {
        let better = |a: &Entry, b: &Entry| a.order() < b.order();
        let mut winner: Option<(usize, &Entry)> = None;
        for (i, e) in all.iter().enumerate() {
            if winner.is_none_or(|(_, w)| better(e, w)) {
                winner = Some((i, e));
            }
        }
        let Some((index, w)) = winner else {
            return (None, None, false);
        };
        if w.dead {
            return (Some(index), None, false);
        }
        let mut runner: Option<&Entry> = None;
        for (i, e) in all.iter().enumerate() {
            if i != index
                && !e.dead
                && runner.is_none_or(|r| better(e, r))
                && !self.equivalent(w.key, e.key)
            {
                runner = Some(e);
            }
        }
        match runner {
            None => (Some(index), None, false),
            Some(r) => {
                let diff = w.units.saturating_sub(r.units).max(0);
                if r.pruned && !w.pruned {
                    (Some(index), Some(diff.max(PRUNE)), true)
                } else {
                    (Some(index), Some(diff), false)
                }
            }
        }
    }

    /// Every candidate, sorted: disqualified last; before them, those that stopped being
    /// scored (they fell far behind, see `step_boundary`); equal scores keep the candidate
    /// order (most common first).
    fn ranked(&self, hints: &Hints<'_>) -> Vec<Candidate> {
        let mut all = self.entries(hints);
        // Insertion sort: stable, and no allocation.
        for i in 1..all.len() {
            let mut j = i;
            while let (Some(a), Some(b)) = (all.get(j.wrapping_sub(1)), all.get(j)) {
                if b.order() < a.order() {
                    all.swap(j.wrapping_sub(1), j);
                    j = j.wrapping_sub(1);
                } else {
                    break;
                }
            }
        }
        let confidences = self.confidences(&all, hints);
        all.iter()
            .zip(confidences)
            .map(|(e, confidence)| Candidate {
                encoding: e.encoding,
                score: e.units as f32 / UNITS_PER_POINT,
                disqualified: e.dead,
                excluded: e.excluded,
                confidence,
            })
            .collect()
    }

    /// Each candidate's confidence, `all` sorted best first: the guess's for the winner
    /// and those that decode the input alike, the rest of the probability shared among
    /// the other live candidates in proportion to `exp(score / SPREAD)`.
    fn confidences(&self, all: &[Entry; CANDIDATES], hints: &Hints<'_>) -> [f32; CANDIDATES] {
        let mut out = [0.0f32; CANDIDATES];
        let guess = self.guess(hints);
        let Some(w) = all.first() else {
            return out;
        };
        if self.ascii_default() {
            // Every ASCII-compatible candidate decodes ASCII alike.
            for (o, e) in out.iter_mut().zip(all) {
                if !e.dead && !matches!(e.key, Key::Utf16(_)) {
                    *o = 1.0;
                }
            }
            return out;
        }
        if guess.binary.is_some() || w.dead {
            return out;
        }
        let c = guess.confidence;
        let rest = all
            .iter()
            .skip(1)
            .filter(|e| !e.dead && !self.equivalent(w.key, e.key));
        let Some(best) = rest.clone().map(|e| e.units).max() else {
            if let Some(o) = out.first_mut() {
                *o = c;
            }
            return out;
        };
        let weight = |e: &Entry| {
            let nats = e.units.saturating_sub(best) as f32
                / (UNITS_PER_POINT * generated::calibration::SPREAD);
            confidence::exp_neg(nats)
        };
        // GBK and gb18030 share a decoder and a score: count them once.
        let mut total = 0.0f32;
        let mut twin_seen = false;
        for e in rest {
            if e.key == Key::Multi(1) {
                if twin_seen {
                    continue;
                }
                twin_seen = true;
            }
            total += weight(e);
        }
        for (o, e) in out.iter_mut().zip(all) {
            if e.dead {
                continue;
            }
            *o = if self.equivalent(w.key, e.key) {
                c
            } else if total > 0.0 {
                (1.0 - c) * weight(e) / total
            } else {
                0.0
            };
        }
        out
    }

    /// Whether two candidates decode the input seen to the same text.
    fn equivalent(&self, a: Key, b: Key) -> bool {
        match (a, b) {
            (Key::Multi(x), Key::Multi(y)) => x == y,
            (Key::Single(x), Key::Single(y)) => {
                let (Some(&ex), Some(&ey)) = (SINGLE.get(x), SINGLE.get(y)) else {
                    return false;
                };
                // Compare the two decodings of each high byte seen.
                self.seen_high.iter().enumerate().all(|(w, &word)| {
                    let mut bits = word;
                    while bits != 0 {
                        let k = (w as u32)
                            .wrapping_mul(64)
                            .wrapping_add(bits.trailing_zeros());
                        if !score::same_char(ex, ey, k as u8) {
                            return false;
                        }
                        bits &= bits.wrapping_sub(1);
                    }
                    true
                })
            }
            (Key::Utf16(x), Key::Utf16(y)) => x == y,
            _ => false,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Key {
    Multi(usize),
    Single(usize),
    Utf16(usize),
}

/// Number of candidates in a ranking.
const CANDIDATES: usize = 38;

/// A candidate while ranking.
#[derive(Clone, Copy, Debug)]
struct Entry {
    encoding: Encoding,
    units: i64,
    /// Disqualified by its decoder, or excluded by the hints.
    dead: bool,
    excluded: bool,
    pruned: bool,
    key: Key,
}

impl Entry {
    /// Smaller is better.
    fn order(&self) -> (bool, bool, core::cmp::Reverse<i64>) {
        (self.dead, self.pruned, core::cmp::Reverse(self.units))
    }
}

/// The score of the pair `prev`, `cur` (one of them non-ASCII) for a single-byte model.
#[inline(always)]
fn single_pair(model: &score::SingleByteModel, prev: u8, cur: u8) -> i32 {
    // `u8` indexes the 256 entries: no bounds check.
    let p = model.entry.get(usize::from(prev)).copied().unwrap_or(0);
    let c = model.entry.get(usize::from(cur)).copied().unwrap_or(0);
    // At most ±400 per pair: no overflow within a step's 256 pairs.
    pair_score(model.script, p, c)
}

/// Detects the encoding of a whole input in one call: [`Detector::feed`] with `last`, then
/// [`Detector::guess`].
///
/// ```
/// use textcodec::detect::{detect, Hints};
/// use textcodec::Encoding;
/// // "日本語のテキスト" in Shift_JIS.
/// let bytes = b"\x93\xfa\x96\x7b\x8c\xea\x82\xcc\x83\x65\x83\x4c\x83\x58\x83\x67";
/// assert_eq!(detect(bytes, &Hints::new()).encoding, Encoding::ShiftJis);
/// ```
pub fn detect(bytes: &[u8], hints: &Hints<'_>) -> Guess {
    let mut detector = Detector::new();
    detector.feed(bytes, true);
    detector.guess(hints)
}
