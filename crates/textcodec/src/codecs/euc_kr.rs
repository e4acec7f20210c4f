//! <https://encoding.spec.whatwg.org/#euc-kr-decoder> and
//! <https://encoding.spec.whatwg.org/#euc-kr-encoder>
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

/// EUC-KR's decoder state.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EucKrDecoder {
    /// EUC-KR leading
    leading: u8,
}

#[inline(always)]
// Bounds: called with an EUC-KR lead byte (0x81..=0xFE) and the match checks the
// trail byte, so the subtractions cannot wrap; the pointer is below 126 × 190.
#[allow(clippy::arithmetic_side_effects)]
fn pointer(leading: u8, byte: u8) -> Option<usize> {
    match byte {
        0x41..=0xFE => Some(usize::from(leading - 0x81) * 190 + usize::from(byte - 0x41)),
        _ => None,
    }
}

impl DecodeKernel for EucKrDecoder {
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
            if let Some(cp) = pointer(leading, byte).and_then(index::euc_kr_code_point) {
                return Step::Emit(scalar(u32::from(cp)));
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
        fast_multi_byte(src, dst, index::euc_kr_pairs, |s| match *s {
            [lead @ 0x81..=0xFE, trail, ..] => {
                let cp = index::euc_kr_code_point(pointer(lead, trail)?)?;
                Some((u32::from(cp), 2))
            }
            _ => None,
        })
    }
}

/// EUC-KR's encoder (stateless).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EucKrEncoder;

impl EncodeKernel for EucKrEncoder {
    // Bounds: index EUC-KR pointers are below 126 × 190, so both bytes fit.
    #[allow(clippy::arithmetic_side_effects)]
    #[inline(always)]
    fn encode_char(&mut self, c: char) -> Encoded {
        let cp = u32::from(c);
        if cp < 0x80 {
            return Encoded::one(cp as u8);
        }
        match index::euc_kr_pointer(cp) {
            None => Encoded::unmappable(c),
            Some(pointer) => {
                Encoded::two((pointer / 190) as u8 + 0x81, (pointer % 190) as u8 + 0x41)
            }
        }
    }
}
