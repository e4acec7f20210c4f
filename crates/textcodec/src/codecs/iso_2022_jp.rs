//! <https://encoding.spec.whatwg.org/#iso-2022-jp-decoder> and
//! <https://encoding.spec.whatwg.org/#iso-2022-jp-encoder>
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::{scalar, DecodeKernel, EncodeKernel, Encoded, Restore, Step};
use crate::index;
use crate::sink::Sink;
use crate::slots::{write_slots, Slots};

/// ISO-2022-JP decoder states.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum State {
    #[default]
    Ascii,
    Roman,
    Katakana,
    LeadingByte,
    TrailingByte,
    EscapeStart,
    Escape,
}

/// ISO-2022-JP's decoder state.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Iso2022JpDecoder {
    /// ISO-2022-JP decoder state
    state: State,
    /// ISO-2022-JP decoder output state
    output_state: State,
    /// ISO-2022-JP leading
    leading: u8,
    /// ISO-2022-JP output
    output: bool,
}

impl Iso2022JpDecoder {
    /// Whether the decoder is in its ASCII state, as it starts (#iso-2022-jp-decoder).
    pub(crate) fn in_ascii_state(&self) -> bool {
        self.state == State::Ascii
    }

    /// Shared by every state on 0x1B: set state to escape start, return continue.
    #[inline(always)]
    fn escape_start(&mut self) -> Step {
        self.state = State::EscapeStart;
        Step::Continue
    }

    /// "Set ISO-2022-JP output to false and return error."
    #[inline(always)]
    fn error(&mut self) -> Step {
        self.output = false;
        Step::ERROR
    }

    /// "Set ISO-2022-JP output to false and return a code point."
    #[inline(always)]
    fn emit(&mut self, code_point: u32) -> Step {
        self.output = false;
        Step::Emit(scalar(code_point))
    }
}

/// The jis0208 pointer of a two-byte sequence (#iso-2022-jp-decoder, lead byte and trail
/// byte steps).
#[inline(always)]
// Bounds: both callers pass bytes in 0x21..=0x7E (the decoder's lead-byte state only holds
// such a lead; the trail is matched), so nothing wraps and the pointer is below 94 × 94.
#[allow(clippy::arithmetic_side_effects)]
fn pointer(lead: u8, trail: u8) -> usize {
    usize::from(lead - 0x21) * 94 + usize::from(trail - 0x21)
}

impl DecodeKernel for Iso2022JpDecoder {
    fn handle(&mut self, byte: Option<u8>) -> Step {
        match self.state {
            State::Ascii => match byte {
                Some(0x1B) => self.escape_start(),
                Some(b @ 0x00..=0x7F) if !matches!(b, 0x0E | 0x0F) => self.emit(u32::from(b)),
                None => Step::Finished,
                Some(_) => self.error(),
            },
            State::Roman => match byte {
                Some(0x1B) => self.escape_start(),
                Some(0x5C) => self.emit(0xA5),
                Some(0x7E) => self.emit(0x203E),
                Some(b @ 0x00..=0x7F) if !matches!(b, 0x0E | 0x0F) => self.emit(u32::from(b)),
                None => Step::Finished,
                Some(_) => self.error(),
            },
            State::Katakana => match byte {
                Some(0x1B) => self.escape_start(),
                Some(b @ 0x21..=0x5F) => self.emit(0xFF61 - 0x21 + u32::from(b)),
                None => Step::Finished,
                Some(_) => self.error(),
            },
            State::LeadingByte => match byte {
                Some(0x1B) => self.escape_start(),
                Some(b @ 0x21..=0x7E) => {
                    self.output = false;
                    self.leading = b;
                    self.state = State::TrailingByte;
                    Step::Continue
                }
                None => Step::Finished,
                Some(_) => self.error(),
            },
            State::TrailingByte => match byte {
                Some(0x1B) => {
                    // The ESC begins an escape sequence; the leading byte alone is the error.
                    self.state = State::EscapeStart;
                    Step::Error(Restore {
                        unread: false,
                        prior: 0,
                        held: 1,
                    })
                }
                Some(b @ 0x21..=0x7E) => {
                    self.state = State::LeadingByte;
                    let pointer = pointer(self.leading, b);
                    match index::jis0208_code_point(pointer) {
                        None => Step::ERROR,
                        Some(cp) => Step::Emit(scalar(u32::from(cp))),
                    }
                }
                None | Some(_) => {
                    self.state = State::LeadingByte;
                    Step::ERROR
                }
            },
            State::EscapeStart => {
                // Step 1.
                if let Some(b @ (0x24 | 0x28)) = byte {
                    self.leading = b;
                    self.state = State::Escape;
                    return Step::Continue;
                }
                // Steps 2–3: restore the byte (if any), error.
                self.output = false;
                self.state = self.output_state;
                Step::Error(Restore {
                    unread: byte.is_some(),
                    prior: 0,
                    held: 0,
                })
            }
            State::Escape => {
                // Steps 1–6.
                let leading = self.leading;
                self.leading = 0;
                let state = match (leading, byte) {
                    (0x28, Some(0x42)) => Some(State::Ascii),
                    (0x28, Some(0x4A)) => Some(State::Roman),
                    (0x28, Some(0x49)) => Some(State::Katakana),
                    (0x24, Some(0x40 | 0x42)) => Some(State::LeadingByte),
                    _ => None,
                };
                // Step 7.
                if let Some(state) = state {
                    self.state = state;
                    self.output_state = state;
                    let output = self.output;
                    self.output = true;
                    return if output { Step::ERROR } else { Step::Continue };
                }
                // Steps 8–9: restore leading (and byte), error.
                self.output = false;
                self.state = self.output_state;
                Step::Error(Restore {
                    unread: byte.is_some(),
                    prior: 1,
                    held: 0,
                })
            }
        }
    }

    #[inline(always)]
    fn is_ground(&self) -> bool {
        matches!(
            self.state,
            State::Ascii | State::Roman | State::Katakana | State::LeadingByte
        )
    }

    /// ASCII runs in the ASCII state, two-byte characters in the leading-byte state, and
    /// whole escape sequences between them.
    #[inline]
    // Bounds: `i` only grows after `src.get(i)` / `src.get(i..)` found the bytes it steps
    // over, so `i <= src.len() <= isize::MAX`: the additions cannot overflow.
    #[allow(clippy::arithmetic_side_effects)]
    fn fast<S: Sink>(&mut self, src: &[u8], dst: &mut S) -> usize {
        // Kanji pairs are EUC-JP's JIS X 0208 pairs without the high bits: bytes outside
        // 0x21..=0x7E (escapes, line breaks) have no entry and stop the run.
        let pair = |lead: u8, trail: u8| {
            if lead.wrapping_sub(0x21) < 0x5E && trail.wrapping_sub(0x21) < 0x5E {
                index::jis0208_pairs().get(lead | 0x80, trail | 0x80)
            } else {
                0
            }
        };
        let mut i = 0;
        loop {
            let rest = src.get(i..).unwrap_or_default();
            let n = match self.state {
                // Steps for the ASCII state: every byte but ESC, SO, SI and ≥ 0x80 is
                // itself; the run up to the first of those goes to the SIMD kernel.
                State::Ascii => {
                    dst.copy_ascii(rest.get(..plain_ascii_prefix(rest)).unwrap_or_default())
                }
                State::LeadingByte => dst.push_double_byte_run::<false>(rest, pair),
                _ => 0,
            };
            if n > 0 {
                self.output = false;
                i += n;
            }
            // A whole escape sequence (text switches sets every few characters): escape
            // start, escape and step 7 of the escape state at once, but for its error
            // (two sequences in a row), left to the handler.
            let next = match src.get(i..).unwrap_or_default() {
                [0x1B, 0x28, 0x42, ..] => State::Ascii,
                [0x1B, 0x28, 0x4A, ..] => State::Roman,
                [0x1B, 0x28, 0x49, ..] => State::Katakana,
                [0x1B, 0x24, 0x40 | 0x42, ..] => State::LeadingByte,
                _ => break,
            };
            if self.output {
                break;
            }
            self.state = next;
            self.output_state = next;
            self.output = true;
            i += 3;
        }
        i
    }
}

/// ISO-2022-JP encoder states.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum EncoderState {
    #[default]
    Ascii,
    Roman,
    Jis0208,
}

const TO_ASCII: [u8; 3] = [0x1B, 0x28, 0x42];
const TO_ROMAN: [u8; 3] = [0x1B, 0x28, 0x4A];
const TO_JIS0208: [u8; 3] = [0x1B, 0x24, 0x42];

/// ISO-2022-JP's encoder state.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Iso2022JpEncoder {
    /// ISO-2022-JP encoder state
    pub(crate) state: EncoderState,
}

/// One run of the handler: bytes, an escape sequence after which the code point is
/// restored (processed again), or an error.
enum HandlerResult {
    Bytes([u8; 2], u8),
    EscapeThenRestore([u8; 3]),
    Error(char),
}

impl Iso2022JpEncoder {
    // Bounds: `cp - 0xFF61` only runs when `cp` is in U+FF61..=U+FF9F; index jis0208 pointers
    // are below 94 × 94, so both bytes fit.
    #[allow(clippy::arithmetic_side_effects)]
    fn handler(&mut self, c: char) -> HandlerResult {
        let mut cp = u32::from(c);
        let ascii = cp < 0x80;
        // Step 3: these would switch states in a decoder.
        if matches!(self.state, EncoderState::Ascii | EncoderState::Roman)
            && matches!(cp, 0x0E | 0x0F | 0x1B)
        {
            return HandlerResult::Error('\u{FFFD}');
        }
        // Step 4.
        if self.state == EncoderState::Ascii && ascii {
            return HandlerResult::Bytes([cp as u8, 0], 1);
        }
        // Step 5.
        if self.state == EncoderState::Roman
            && ((ascii && cp != 0x5C && cp != 0x7E) || cp == 0xA5 || cp == 0x203E)
        {
            let byte = match cp {
                0xA5 => 0x5C,
                0x203E => 0x7E,
                _ => cp as u8,
            };
            return HandlerResult::Bytes([byte, 0], 1);
        }
        // Step 6.
        if ascii && self.state != EncoderState::Ascii {
            self.state = EncoderState::Ascii;
            return HandlerResult::EscapeThenRestore(TO_ASCII);
        }
        // Step 7.
        if (cp == 0xA5 || cp == 0x203E) && self.state != EncoderState::Roman {
            self.state = EncoderState::Roman;
            return HandlerResult::EscapeThenRestore(TO_ROMAN);
        }
        // Step 8.
        if cp == 0x2212 {
            cp = 0xFF0D;
        }
        // Step 9.
        if (0xFF61..=0xFF9F).contains(&cp) {
            match index::iso_2022_jp_katakana((cp - 0xFF61) as usize) {
                Some(full) => cp = u32::from(full),
                None => return HandlerResult::Error(c),
            }
        }
        // Steps 10–11.
        let Some(pointer) = index::jis0208_pointer(cp) else {
            if self.state == EncoderState::Jis0208 {
                self.state = EncoderState::Ascii;
                return HandlerResult::EscapeThenRestore(TO_ASCII);
            }
            return HandlerResult::Error(c);
        };
        // Step 12.
        if self.state != EncoderState::Jis0208 {
            self.state = EncoderState::Jis0208;
            return HandlerResult::EscapeThenRestore(TO_JIS0208);
        }
        // Steps 13–15.
        HandlerResult::Bytes(jis0208_bytes(pointer), 2)
    }
}

/// Steps 13–15: the two bytes of an index jis0208 pointer.
#[inline(always)]
// Bounds: pointers are below 94 × 94, so both bytes are in 0x21..=0x7E.
#[allow(clippy::arithmetic_side_effects)]
fn jis0208_bytes(pointer: u16) -> [u8; 2] {
    [(pointer / 94) as u8 + 0x21, (pointer % 94) as u8 + 0x21]
}

/// [`jis0208_bytes`] as one little-endian `u16`, for the bulk loop: an array of two byte
/// values copied into the output was built on the stack and loaded back whole, a
/// store-forwarding stall per character (35 % of the time on Japanese text at AVX-512).
#[inline(always)]
fn jis0208_pair(pointer: u16) -> u16 {
    let [first, second] = jis0208_bytes(pointer);
    u16::from(first) | u16::from(second) << 8
}

/// The jis0208 pointer of a code point that steps 3–12 leave unchanged in the jis0208
/// state and that index jis0208 has (non-ASCII, not U+00A5, U+203E, U+2212 or halfwidth
/// katakana): the kanji and kana of running text.
#[inline(always)]
fn plain_kanji_pointer(c: char) -> Option<u16> {
    let cp = u32::from(c);
    let plain = cp >= 0x80 && !matches!(cp, 0xA5 | 0x203E | 0x2212 | 0xFF61..=0xFF9F);
    index::jis0208_pointer(cp).filter(|_| plain)
}

/// The length of the prefix of `bytes` that the encoder's ASCII state writes unchanged
/// (step 4): ASCII other than SO, SI and ESC (step 3's errors). Eight bytes at a time.
#[inline]
fn plain_ascii_prefix(bytes: &[u8]) -> usize {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has_zero_byte = |x: u64| x.wrapping_sub(LOW) & !x & HIGH != 0;
    let mut chunks = bytes.chunks_exact(8);
    let mut n = 0usize;
    for chunk in chunks.by_ref() {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        // Non-ASCII, ESC (0x1B), or SO/SI (0x0E/0x0F: equal to 0x0F once bit 0 is set).
        if w & HIGH != 0
            || has_zero_byte(w ^ (0x1B * LOW))
            || has_zero_byte((w | LOW) ^ (0x0F * LOW))
        {
            break;
        }
        n = n.saturating_add(8);
    }
    let tail = bytes.get(n..).unwrap_or_default();
    n.saturating_add(
        tail.iter()
            .take_while(|&&b| b < 0x80 && !matches!(b, 0x0E | 0x0F | 0x1B))
            .count(),
    )
}

impl EncodeKernel for Iso2022JpEncoder {
    // ASCII needs an escape outside the ASCII state, and ESC, SO and SI are errors.
    const ASCII_IS_IDENTITY: bool = false;

    /// Its own loop after validating (see [`EncodeKernel::fast_bytes`]).
    #[cfg(feature = "std")]
    #[inline]
    fn fast_bytes(&mut self, src: &[u8], dst: &mut Slots<u8>) -> (usize, usize) {
        super::validated_fast(self, src, dst)
    }

    /// The generic loop, but ASCII runs in the ASCII state are copied in bulk.
    #[inline]
    fn fast(&mut self, src: &str, dst: &mut Slots<u8>) -> (usize, usize) {
        let bytes = src.as_bytes();
        let (mut read, mut written) = (0usize, 0usize);
        while read < bytes.len() {
            if self.state == EncoderState::Ascii {
                let (Some(rest), Some(out)) = (bytes.get(read..), dst.get_mut(written..)) else {
                    break;
                };
                let n = plain_ascii_prefix(rest).min(out.len());
                if let (Some(d), Some(s)) = (out.get_mut(..n), rest.get(..n)) {
                    write_slots(d, s);
                }
                // Within `bytes` and `dst`: `n` is at most both remaining lengths.
                read = read.saturating_add(n);
                written = written.saturating_add(n);
                if read == bytes.len() {
                    break;
                }
                // A kanji after ASCII: steps 13–14 (escape to jis0208, the code point
                // restored) and 15 at once.
                let (c, len) = super::utf8_char_at(bytes, read);
                if let Some(pointer) = plain_kanji_pointer(c) {
                    let Some(out) = dst.get_mut(written..written.saturating_add(5)) else {
                        break;
                    };
                    if let Some((escape, kanji)) = out.split_at_mut_checked(TO_JIS0208.len()) {
                        write_slots(escape, &TO_JIS0208);
                        write_slots(kanji, &jis0208_pair(pointer).to_le_bytes());
                    }
                    self.state = EncoderState::Jis0208;
                    read = read.saturating_add(len);
                    written = written.saturating_add(5);
                }
            }
            if self.state == EncoderState::Jis0208 {
                let Some(&byte) = bytes.get(read) else { break };
                if byte < 0x80 {
                    // ASCII after kanji: step 6 (escape to ASCII, the code point restored);
                    // the ASCII state takes it next.
                    let Some(out) = dst.get_mut(written..written.saturating_add(3)) else {
                        break;
                    };
                    write_slots(out, &TO_ASCII);
                    self.state = EncoderState::Ascii;
                    written = written.saturating_add(3);
                    continue;
                }
                // A run of kanji and kana: steps 13–15 directly.
                let (c, len) = super::utf8_char_at(bytes, read);
                if let Some(pointer) = plain_kanji_pointer(c) {
                    let Some(out) = dst.get_mut(written..written.saturating_add(2)) else {
                        break;
                    };
                    write_slots(out, &jis0208_pair(pointer).to_le_bytes());
                    read = read.saturating_add(len);
                    written = written.saturating_add(2);
                    continue;
                }
            }
            match super::encode_one_from_utf8(self, bytes, read, dst, written) {
                Some((r, w)) => (read, written) = (r, w),
                None => break,
            }
        }
        (read, written)
    }

    #[inline(always)]
    fn encode_char(&mut self, c: char) -> Encoded {
        // The handler restores the code point after an escape; at most one escape precedes
        // the bytes or the error (the state after an escape accepts the code point).
        let mut out = [0u8; 8];
        let mut n = 0u8;
        for _ in 0..3 {
            match self.handler(c) {
                HandlerResult::Bytes(bytes, len) => {
                    // `n` is 0 or 3 and `len` at most 2: this fits `out`.
                    let end = n.saturating_add(len);
                    let (Some(dst), Some(src)) = (
                        out.get_mut(usize::from(n)..usize::from(end)),
                        bytes.get(..usize::from(len)),
                    ) else {
                        break;
                    };
                    dst.copy_from_slice(src);
                    return Encoded::Bytes(u64::from_le_bytes(out), end);
                }
                HandlerResult::EscapeThenRestore(escape) => {
                    let Some(dst) = out.get_mut(usize::from(n)..usize::from(n.saturating_add(3)))
                    else {
                        break;
                    };
                    dst.copy_from_slice(&escape);
                    n = n.saturating_add(3);
                }
                HandlerResult::Error(code_point) => {
                    return Encoded::Unmappable {
                        code_point,
                        prefix: out,
                        prefix_len: n,
                    }
                }
            }
        }
        // Unreachable by the state machine's construction; report rather than loop.
        Encoded::Unmappable {
            code_point: c,
            prefix: out,
            prefix_len: n,
        }
    }

    /// Steps 1–2: end-of-queue returns to ASCII.
    fn finish(&mut self) -> Encoded {
        if self.state != EncoderState::Ascii {
            self.state = EncoderState::Ascii;
            return Encoded::Bytes(u64::from_le_bytes([0x1B, 0x28, 0x42, 0, 0, 0, 0, 0]), 3);
        }
        Encoded::Bytes(0, 0)
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::plain_ascii_prefix;

    /// The SWAR scan against the obvious one, with each stopping byte at every position of
    /// a run long enough to cover whole words and a tail.
    #[test]
    fn plain_ascii_prefix_stops_at_so_si_esc_and_non_ascii() {
        let naive = |b: &[u8]| {
            b.iter()
                .take_while(|&&x| x < 0x80 && !matches!(x, 0x0E | 0x0F | 0x1B))
                .count()
        };
        for stop in [0x0E, 0x0F, 0x1B, 0x80, 0xFF, 0xE3] {
            for len in 0..40 {
                for at in 0..=len {
                    let mut run: std::vec::Vec<u8> =
                        (0..len).map(|i| 0x0A + (i * 7 % 0x70) as u8).collect();
                    run.retain(|b| !matches!(b, 0x0E | 0x0F | 0x1B));
                    let at = at.min(run.len());
                    run.insert(at, stop);
                    assert_eq!(plain_ascii_prefix(&run), naive(&run), "{run:?}");
                    assert_eq!(plain_ascii_prefix(&run), at);
                }
            }
        }
    }
}
