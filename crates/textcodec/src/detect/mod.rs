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
mod detector;
mod guess;
mod hints;
mod language;
mod multi;
mod rank;
#[rustfmt::skip]
#[allow(clippy::unreadable_literal)]
mod generated {
    pub(crate) mod calibration;
    pub(crate) mod languages;
    pub(crate) mod model;
}
mod score;
mod utf16;

pub use binary::Binary;
pub use detector::Detector;
pub use guess::{Candidate, Guess};
pub use hints::Hints;
pub use language::Language;
use score::UNITS_PER_POINT;

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
