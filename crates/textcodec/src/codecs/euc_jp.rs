//! <https://encoding.spec.whatwg.org/#euc-jp-decoder> and
//! <https://encoding.spec.whatwg.org/#euc-jp-encoder>
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

/// EUC-JP's decoder state.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EucJpDecoder {
    /// EUC-JP jis0212
    jis0212: bool,
    /// EUC-JP leading
    leading: u8,
}

#[inline(always)]
// Bounds: called with a lead and trail byte both in 0xA1..=0xFE (checked by the caller,
// #euc-jp-decoder step 5), so the subtractions cannot wrap; the pointer is below 94 × 94.
#[allow(clippy::arithmetic_side_effects)]
fn pointer(leading: u8, byte: u8) -> usize {
    usize::from(leading - 0xA1) * 94 + usize::from(byte - 0xA1)
}

impl DecodeKernel for EucJpDecoder {
    fn handle(&mut self, byte: Option<u8>) -> Step {
        let Some(byte) = byte else {
            // Steps 1–2.
            if self.leading != 0 {
                *self = EucJpDecoder::default();
                return Step::ERROR;
            }
            return Step::Finished;
        };
        // Step 3: halfwidth katakana.
        if self.leading == 0x8E && (0xA1..=0xDF).contains(&byte) {
            self.leading = 0;
            return Step::Emit(scalar(0xFF61 - 0xA1 + u32::from(byte)));
        }
        // Step 4: JIS X 0212 follows.
        if self.leading == 0x8F && (0xA1..=0xFE).contains(&byte) {
            self.jis0212 = true;
            self.leading = byte;
            return Step::Continue;
        }
        // Step 5.
        if self.leading != 0 {
            let leading = self.leading;
            self.leading = 0;
            let mut code_point = None;
            if (0xA1..=0xFE).contains(&leading) && (0xA1..=0xFE).contains(&byte) {
                let p = pointer(leading, byte);
                code_point = if self.jis0212 {
                    index::jis0212_code_point(p)
                } else {
                    index::jis0208_code_point(p)
                };
            }
            self.jis0212 = false;
            if let Some(cp) = code_point {
                return Step::Emit(scalar(u32::from(cp)));
            }
            return if byte < 0x80 {
                Step::ERROR_UNREAD
            } else {
                Step::ERROR
            };
        }
        // Steps 6–8.
        match byte {
            0x00..=0x7F => Step::ascii(byte),
            0x8E | 0x8F | 0xA1..=0xFE => {
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
        // JIS X 0208 pairs; kana and JIS X 0212 are left to `sequence`.
        fast_multi_byte(src, dst, index::jis0208_pairs, |s| match *s {
            [0x8E, kana @ 0xA1..=0xDF, ..] => Some((0xFF61 - 0xA1 + u32::from(kana), 2)),
            [0x8F, lead @ 0xA1..=0xFE, trail @ 0xA1..=0xFE, ..] => {
                let cp = index::jis0212_code_point(pointer(lead, trail))?;
                Some((u32::from(cp), 3))
            }
            [lead @ 0xA1..=0xFE, trail @ 0xA1..=0xFE, ..] => {
                let cp = index::jis0208_code_point(pointer(lead, trail))?;
                Some((u32::from(cp), 2))
            }
            _ => None,
        })
    }
}

/// EUC-JP's encoder (stateless; JIS X 0212 is never used for encoding).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EucJpEncoder;

impl EncodeKernel for EucJpEncoder {
    // Bounds: in the U+FF61..=U+FF9F arm `cp - 0xFF61 + 0xA1` ≤ 0xDF; index jis0208 pointers
    // are below 94 × 94, so both bytes fit.
    #[allow(clippy::arithmetic_side_effects)]
    #[inline(always)]
    fn encode_char(&mut self, c: char) -> Encoded {
        let mut cp = u32::from(c);
        match cp {
            // Step 2.
            0..=0x7F => return Encoded::one(cp as u8),
            // Steps 3–4.
            0xA5 => return Encoded::one(0x5C),
            0x203E => return Encoded::one(0x7E),
            // Step 5.
            0xFF61..=0xFF9F => return Encoded::two(0x8E, (cp - 0xFF61 + 0xA1) as u8),
            // Step 6.
            0x2212 => cp = 0xFF0D,
            _ => {}
        }
        // Steps 7–11.
        match index::jis0208_pointer(cp) {
            None => Encoded::unmappable(c),
            Some(pointer) => Encoded::two((pointer / 94) as u8 + 0xA1, (pointer % 94) as u8 + 0xA1),
        }
    }
}
