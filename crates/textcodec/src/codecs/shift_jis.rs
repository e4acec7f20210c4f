//! <https://encoding.spec.whatwg.org/#shift_jis-decoder> and
//! <https://encoding.spec.whatwg.org/#shift_jis-encoder>
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

/// Shift_JIS's decoder state.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ShiftJisDecoder {
    /// Shift_JIS leading
    leading: u8,
}

/// Steps 3.4–3.6: the pointer, or `None` for a trailing byte outside 0x40–0x7E and 0x80–0xFC.
#[inline(always)]
// Bounds: called with a Shift_JIS lead byte (0x81..=0x9F or 0xE0..=0xFC) and the match
// checks the trail byte, so nothing wraps; the pointer is below 188 × 60.
#[allow(clippy::arithmetic_side_effects)]
fn pointer(leading: u8, byte: u8) -> Option<usize> {
    let offset = if byte < 0x7F { 0x40 } else { 0x41 };
    let leading_offset = if leading < 0xA0 { 0x81 } else { 0xC1 };
    match byte {
        0x40..=0x7E | 0x80..=0xFC => {
            Some(usize::from(leading - leading_offset) * 188 + usize::from(byte - offset))
        }
        _ => None,
    }
}

/// Steps 3.7–3.8: EUDC (pointers 8836 to 10715 map to the Private Use Area), else jis0208.
#[inline(always)]
// Bounds: `pointer` is in 8836..=10715 where it is added, so the sum stays below 0xE800.
#[allow(clippy::arithmetic_side_effects)]
fn code_point(pointer: usize) -> Option<u32> {
    if (8836..=10715).contains(&pointer) {
        return Some(0xE000 - 8836 + pointer as u32);
    }
    index::jis0208_code_point(pointer).map(u32::from)
}

impl DecodeKernel for ShiftJisDecoder {
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
            if let Some(cp) = pointer(leading, byte).and_then(code_point) {
                return Step::Emit(scalar(cp));
            }
            // An ASCII byte is never swallowed: 0x82 0x22 is U+FFFD then U+0022.
            return if byte < 0x80 {
                Step::ERROR_UNREAD
            } else {
                Step::ERROR
            };
        }
        // Steps 4–7.
        match byte {
            0x00..=0x80 => Step::Emit(char::from(byte)),
            0xA1..=0xDF => Step::Emit(scalar(0xFF61 - 0xA1 + u32::from(byte))),
            0x81..=0x9F | 0xE0..=0xFC => {
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
        // Two-byte pairs (EUDC's Private Use code points included); 0x80 and kana are left
        // to `sequence`.
        fast_multi_byte(src, dst, index::shift_jis_pairs, |s| match *s {
            [0x80, ..] => Some((0x80, 1)),
            [kana @ 0xA1..=0xDF, ..] => Some((0xFF61 - 0xA1 + u32::from(kana), 1)),
            [lead @ (0x81..=0x9F | 0xE0..=0xFC), trail, ..] => {
                Some((code_point(pointer(lead, trail)?)?, 2))
            }
            _ => None,
        })
    }
}

/// Shift_JIS's encoder (stateless).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ShiftJisEncoder;

impl EncodeKernel for ShiftJisEncoder {
    // Bounds: in the U+FF61..=U+FF9F arm `cp - 0xFF61 + 0xA1` ≤ 0xDF; index Shift_JIS pointers
    // are below 188 × 60, so the lead is at most 0x3C + 0xC1 and the trail 187 + 0x41 - 0x3F.
    #[allow(clippy::arithmetic_side_effects)]
    #[inline(always)]
    fn encode_char(&mut self, c: char) -> Encoded {
        let mut cp = u32::from(c);
        match cp {
            // Step 2.
            0..=0x80 => return Encoded::one(cp as u8),
            // Steps 3–4.
            0xA5 => return Encoded::one(0x5C),
            0x203E => return Encoded::one(0x7E),
            // Step 5.
            0xFF61..=0xFF9F => return Encoded::one((cp - 0xFF61 + 0xA1) as u8),
            // Step 6.
            0x2212 => cp = 0xFF0D,
            _ => {}
        }
        // Steps 7–8.
        let Some(pointer) = index::shift_jis_pointer(cp) else {
            return Encoded::unmappable(c);
        };
        // Steps 9–13.
        let leading = (pointer / 188) as u8;
        let leading_offset = if leading < 0x1F { 0x81 } else { 0xC1 };
        let trailing = (pointer % 188) as u8;
        let offset = if trailing < 0x3F { 0x40 } else { 0x41 };
        Encoded::two(leading + leading_offset, trailing + offset)
    }
}
