//! Ranking the candidates: each one's score with its prior, the winner and its margin
//! over the best candidate that decodes the input differently, and the confidences.

use alloc::vec::Vec;

use super::candidates::{base_prior, MULTI, SINGLE};
use super::confidence;
use super::generated;
use super::language;
use super::score::{self, SINGLE_MODELS, UNITS_PER_POINT};
use super::{
    Candidate, Detector, Hints, CONTROL_IN_TEXT, ESC_IN_TEXT, ISO_2022_JP_ESCAPES, PRUNE,
    REGION_BONUS, UTF16_PRIOR, UTF16_WITHOUT_CONTROLS,
};
use crate::Encoding;

/// At most this much (units) is charged: the ASCII letters of text that mixes in words
/// of another language (English in translated documentation) tell less than their
/// number says.
const LETTER_FIT_CAP: i64 = 12 * UNITS_PER_POINT as i64;

/// Only the Latin candidates this far (units) behind the best live one are charged: just
/// over [`LETTER_FIT_CAP`], so every one that could still win after the charges is charged
/// (chosen on the calibration set: 40 points gave 3 more wrong guesses of 68,820, 20 the
/// same).
const LETTER_FIT_WINDOW: i64 = 13 * UNITS_PER_POINT as i64;

impl Detector {
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
    pub(super) fn entries(&self, hints: &Hints<'_>) -> [Entry; CANDIDATES] {
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
        self.fit_letters(&mut all);
        all
    }

    /// Charges the Latin single-byte candidates near the best one for how much worse
    /// their letters fit a language of their script than the best-fitting reading's do
    /// (see `language::LetterFit`): the difference, up to [`LETTER_FIT_CAP`]. The
    /// best-fitting one keeps its score, so comparisons with the other scripts and with
    /// the multi-byte candidates do not move. Only when a Latin candidate leads: else the
    /// winner cannot change.
    fn fit_letters(&self, all: &mut [Entry; CANDIDATES]) {
        let live = |e: &Entry| !e.dead && !e.pruned;
        let latin = |key: Key| match key {
            Key::Single(i) => SINGLE_MODELS.get(i).is_some_and(|m| m.latin),
            _ => false,
        };
        // The best live candidate; ties go to the earlier one, as in `top`.
        let mut best: Option<&Entry> = None;
        for e in all.iter().filter(|e| live(e)) {
            if best.is_none_or(|b| e.units > b.units) {
                best = Some(e);
            }
        }
        // Only a Latin winner can change: where another one wins, the Latin readings
        // stay as they are (nothing to compute).
        let Some(best) = best.filter(|b| latin(b.key)).map(|b| b.units) else {
            return;
        };
        let floor = best.saturating_sub(LETTER_FIT_WINDOW);
        let mut fit = language::LetterFit::new(&self.counts, &self.seen_high);
        let mut fits = [None; CANDIDATES];
        let mut top = i64::MIN;
        let mut near = 0usize;
        for (e, f) in all.iter().zip(fits.iter_mut()) {
            let Key::Single(i) = e.key else {
                continue;
            };
            if !live(e) || e.units < floor || !latin(e.key) {
                continue;
            }
            *f = fit.of(i);
            if let Some(fit) = *f {
                top = top.max(fit);
                near = near.saturating_add(1);
            }
        }
        if near < 2 {
            return;
        }
        for (e, f) in all.iter_mut().zip(fits) {
            if let Some(fit) = f {
                let behind = top.saturating_sub(fit);
                let charge = behind.min(LETTER_FIT_CAP);
                e.units = e.units.saturating_sub(charge);
            }
        }
    }

    /// The winner's index in `all`, the margin (units) over the best candidate that
    /// decodes differently, and whether that runner-up stopped being scored. Ties go to
    /// the earlier candidate.
    pub(super) fn top(&self, all: &[Entry]) -> (Option<usize>, Option<i64>, bool) {
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
    pub(super) fn ranked(&self, hints: &Hints<'_>) -> Vec<Candidate> {
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
    /// the other live candidates in proportion to `exp(score / SPREAD)`, none above the
    /// guess's.
    pub(super) fn confidences(
        &self,
        all: &[Entry; CANDIDATES],
        hints: &Hints<'_>,
    ) -> [f32; CANDIDATES] {
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
                // Never above the guess's: where the guess is unsure (c < 1/2) and one
                // rival takes most of the rest, its share alone would exceed c, and a
                // ranking would list a candidate below the guess as the likelier one.
                ((1.0 - c) * weight(e) / total).min(c)
            } else {
                0.0
            };
        }
        out
    }

    /// Whether two candidates decode the input seen to the same text.
    pub(super) fn equivalent(&self, a: Key, b: Key) -> bool {
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
pub(super) enum Key {
    Multi(usize),
    Single(usize),
    Utf16(usize),
}

/// Number of candidates in a ranking.
pub(super) const CANDIDATES: usize = 38;

/// A candidate while ranking.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub(super) encoding: Encoding,
    pub(super) units: i64,
    /// Disqualified by its decoder, or excluded by the hints.
    pub(super) dead: bool,
    pub(super) excluded: bool,
    pub(super) pruned: bool,
    pub(super) key: Key,
}

impl Entry {
    /// Smaller is better.
    pub(super) fn order(&self) -> (bool, bool, core::cmp::Reverse<i64>) {
        (self.dead, self.pruned, core::cmp::Reverse(self.units))
    }
}
