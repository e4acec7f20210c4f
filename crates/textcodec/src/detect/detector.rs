//! The streaming [`Detector`]: feeds every candidate's decoder and scorer, prunes the
//! hopeless ones at step boundaries, and answers with a [`Guess`].

use super::binary;
use super::confidence;
use super::language;
use super::multi::{examine_multi, flavor, Multi};
use super::rank::{Entry, Key};
use super::score::{self, pair_score, SINGLE_MODELS, UNITS_PER_POINT};
use super::utf16::{examine_utf16, Utf16};
use super::{
    Binary, Guess, Hints, Language, CONTROL_IN_TEXT, NO_RUNNER_UP, PRUNE, PRUNE_AFTER,
    PRUNE_OTHER_FAMILY, SATURATION_MARGIN, SATURATION_NON_ASCII, STEP, UTF16_CHECK, UTF16_GIVE_UP,
};
use crate::detect::candidates::MULTI;
use crate::{BomHandling, DecodeErrorMode, Decoder, DecoderOptions, Encoding};

/// The streaming detector: feed it the bytes, then ask for a [`Guess`].
#[derive(Clone, Debug)]
pub struct Detector {
    pub(super) multi: [Multi; 7],
    pub(super) single_score: [i64; 28],
    /// Each single-byte candidate's score at the last step boundary where it was not
    /// disqualified: what a disqualified one reports (the same for any chunking; its
    /// scoring stops at the chunk where it was disqualified).
    pub(super) alive_score: [i64; 28],
    /// Bit `i`: `SINGLE[i]` is no longer scored (disqualified or far behind at a step
    /// boundary).
    pub(super) single_off: u32,
    /// Bit `i`: `MULTI[i]`'s text is no longer scored (far behind at a step boundary).
    pub(super) multi_off: u8,
    /// Which bytes 0x80–0xFF were seen (for decode equivalence).
    pub(super) seen_high: [u64; 2],
    /// The previous byte (a space at the start).
    pub(super) prev: u8,
    /// How many ASCII words (after an ASCII non-letter) start with each letter a–z, outside
    /// markup.
    pub(super) word_starts: [u64; 26],
    /// ESC bytes seen: ISO-2022-JP's escapes, or controls in any other encoding's text.
    pub(super) escapes: u64,
    /// Inside an HTML tag (`<` then a letter, `/` or `!`, up to `>` or a non-ASCII byte):
    /// its words (element and attribute names, URLs) are markup, not text of a language.
    pub(super) in_tag: bool,
    pub(super) examined: u64,
    pub(super) non_ascii: u64,
    /// gb18030 decoded a four-byte sequence.
    pub(super) gb_four_byte: bool,
    pub(super) done: bool,
    pub(super) stopped_early: bool,
    /// UTF-16LE and UTF-16BE.
    pub(super) utf16: [Utf16; 2],
    /// Bit `i`: `utf16[i]`'s text is no longer scored (far behind at a step boundary, or
    /// hopeless at a multiple of [`UTF16_CHECK`]).
    pub(super) utf16_off: u8,
    /// A binary data byte was seen (as of the last UTF-16 part examined).
    pub(super) utf16_pattern: bool,
    /// Binary data bytes seen (controls in the text of every candidate but UTF-16).
    pub(super) binary_bytes: u64,
    /// The first bytes of the input, for the binary formats' signatures.
    pub(super) head: [u8; binary::HEAD],
    /// How often each byte value was seen outside markup (for the language).
    pub(super) counts: [u32; 256],
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
    pub(super) fn examine(&mut self, bytes: &[u8]) {
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
            if self
                .utf16
                .iter()
                .enumerate()
                .all(|(i, u)| !u.alive || self.utf16_off & (1 << i) != 0)
            {
                // Every live one stopped being scored: only its decoder runs (for exact
                // disqualification), and no part boundary matters any more.
                for u in self.utf16.iter_mut().filter(|u| u.alive) {
                    examine_utf16(u, rest, false, false);
                }
                break;
            }
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

    pub(super) fn examine_single(&mut self, bytes: &[u8]) {
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
    pub(super) fn step_boundary(&mut self) {
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
    pub(super) fn prune_utf16(&mut self, best_single: i64) {
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

    pub(super) fn finish(&mut self) {
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
    pub(super) fn ascii_words(&self) -> [i64; 28] {
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
    pub(super) fn single_disqualified(&self, i: usize) -> bool {
        SINGLE_MODELS.get(i).is_none_or(|m| {
            m.errors[0] & self.seen_high[0] != 0 || m.errors[1] & self.seen_high[1] != 0
        })
    }

    /// Whether enough evidence was seen to stop looking.
    pub(super) fn saturated(&self) -> bool {
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
    pub(super) fn head(&self) -> &[u8] {
        let n = usize::try_from(self.examined).unwrap_or(usize::MAX);
        self.head.get(..n).unwrap_or(&self.head)
    }

    /// Whether the input so far is ASCII text: no byte ≥ 0x80 and no binary data byte.
    pub(super) fn ascii_text(&self) -> bool {
        self.non_ascii == 0 && self.binary_bytes == 0
    }

    /// Whether the guess is the hints' default: ASCII text without ISO-2022-JP escapes to
    /// non-ASCII text, and without a binary format's signature.
    pub(super) fn ascii_default(&self) -> bool {
        let iso2022 = self.multi.get(4).is_some_and(|m| m.alive && m.chars > 0);
        self.ascii_text() && !iso2022 && binary::signature(self.head()).is_none()
    }

    /// Whether the winner's text has controls that text does not have: binary data bytes
    /// that make up more than 1 % of the input, or for UTF-16, control code units that
    /// make up more than 1 % of its units.
    pub(super) fn control_bytes(&self, winner: &Entry) -> Option<Binary> {
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
    pub(super) fn class(&self, key: Key) -> usize {
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
    pub(super) fn language(&self, key: Key) -> Option<Language> {
        match key {
            Key::Multi(i) => MULTI.get(i).and_then(|&e| language::of_multi(e)),
            Key::Single(i) => language::of_single(i, &self.counts),
            Key::Utf16(_) => None,
        }
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
