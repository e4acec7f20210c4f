//! <https://encoding.spec.whatwg.org/#big5-decoder> and
//! <https://encoding.spec.whatwg.org/#big5-encoder>
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::{fast_multi_byte, scalar, DecodeKernel, EncodeKernel, Encoded, Step};
use crate::index;
use crate::sink::Sink;

/// Big5's decoder state.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Big5Decoder {
    /// Big5 leading
    leading: u8,
}

/// (leading − 0x81) × 157 + (byte − offset), or `None` for a trailing byte outside
/// 0x40–0x7E and 0xA1–0xFE.
#[inline(always)]
// Bounds: the decoder calls this with a Big5 lead byte (0x81..=0xFE) and the match
// checks the trail byte against its offset, so the subtractions cannot wrap and the
// pointer is below 126 × 157.
#[allow(clippy::arithmetic_side_effects)]
fn pointer(leading: u8, byte: u8) -> Option<usize> {
    let offset = if byte < 0x7F { 0x40 } else { 0x62 };
    match byte {
        0x40..=0x7E | 0xA1..=0xFE => {
            Some(usize::from(leading - 0x81) * 157 + usize::from(byte - offset))
        }
        _ => None,
    }
}

/// The four pointers that decode to two code points (step 3.6).
#[inline(always)]
fn two_code_points(pointer: usize) -> Option<(char, char)> {
    match pointer {
        1133 => Some(('\u{00CA}', '\u{0304}')),
        1135 => Some(('\u{00CA}', '\u{030C}')),
        1164 => Some(('\u{00EA}', '\u{0304}')),
        1166 => Some(('\u{00EA}', '\u{030C}')),
        _ => None,
    }
}

impl DecodeKernel for Big5Decoder {
    fn handle(&mut self, byte: Option<u8>) -> Step {
        let Some(byte) = byte else {
            // Steps 1–2.
            if self.leading != 0 {
                self.leading = 0;
                return Step::ERROR;
            }
            return Step::Finished;
        };
        // Step 3.
        if self.leading != 0 {
            let leading = self.leading;
            self.leading = 0;
            let pointer = pointer(leading, byte);
            if let Some((a, b)) = pointer.and_then(two_code_points) {
                return Step::Emit2(a, b);
            }
            if let Some(cp) = pointer.and_then(index::big5_code_point) {
                return Step::Emit(scalar(cp));
            }
            return if byte < 0x80 {
                Step::ERROR_UNREAD
            } else {
                Step::ERROR
            };
        }
        // Steps 4–6.
        match byte {
            0x00..=0x7F => Step::ascii(byte),
            0x81..=0xFE => {
                self.leading = byte;
                Step::Continue
            }
            _ => Step::ERROR,
        }
    }

    #[inline(always)]
    fn is_ground(&self) -> bool {
        self.leading == 0
    }

    #[inline]
    fn fast<S: Sink>(&mut self, src: &[u8], dst: &mut S) -> usize {
        // Plane-2 code points are left to `sequence`, the two-code-point pointers (absent
        // from the index) to the handler.
        fast_multi_byte(src, dst, index::big5_pairs, |s| match *s {
            [lead @ 0x81..=0xFE, trail, ..] => {
                // The two-code-point pointers are left to the handler.
                let cp = index::big5_code_point(pointer(lead, trail)?)?;
                Some((cp, 2))
            }
            _ => None,
        })
    }
}

/// Big5's encoder (stateless).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Big5Encoder;

impl EncodeKernel for Big5Encoder {
    // Bounds: index Big5 pointers are below 126 × 157, so the lead is at most 0x81 + 125 and
    // trailing + offset at most 156 + 0x62: no overflow.
    #[allow(clippy::arithmetic_side_effects)]
    #[inline(always)]
    fn encode_char(&mut self, c: char) -> Encoded {
        let cp = u32::from(c);
        // Step 2.
        if cp < 0x80 {
            return Encoded::one(cp as u8);
        }
        // Steps 3–4.
        let Some(pointer) = index::big5_pointer(cp) else {
            return Encoded::unmappable(c);
        };
        // Steps 5–8.
        let leading = (pointer / 157) as u8 + 0x81;
        let trailing = (pointer % 157) as u8;
        let offset = if trailing < 0x3F { 0x40 } else { 0x62 };
        Encoded::two(leading, trailing + offset)
    }
}
