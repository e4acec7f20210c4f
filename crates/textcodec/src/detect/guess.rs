//! The detector's answers: [`Guess`] and the entries of a ranking, [`Candidate`].

use super::{Binary, Language};
#[cfg(doc)]
use super::{Detector, Hints, NO_RUNNER_UP};
use crate::Encoding;

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
