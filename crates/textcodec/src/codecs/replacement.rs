//! <https://encoding.spec.whatwg.org/#replacement-decoder>
//!
//! The replacement encoding exists so that labels of encodings browsers do not support
//! (ISO-2022-KR, HZ-GB-2312, ISO-2022-CN…) decode to a single U+FFFD instead of being
//! misread as something else.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::{DecodeKernel, Step};
use crate::sink::Sink;

/// replacement's decoder state.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ReplacementDecoder {
    /// replacement error returned
    error_returned: bool,
}

impl DecodeKernel for ReplacementDecoder {
    fn handle(&mut self, byte: Option<u8>) -> Step {
        // Step 1.
        if byte.is_none() {
            return Step::Finished;
        }
        // Step 2.
        if !self.error_returned {
            self.error_returned = true;
            return Step::ERROR;
        }
        // Step 3 returns *finished*, which ends processing: nothing after the first byte is
        // ever output. Consuming the remaining bytes silently is observably the same and lets
        // the streaming driver ignore them chunk after chunk.
        Step::Continue
    }

    #[inline(always)]
    fn is_ground(&self) -> bool {
        true
    }

    #[inline]
    fn fast<S: Sink>(&mut self, src: &[u8], _dst: &mut S) -> usize {
        if self.error_returned {
            src.len()
        } else {
            0
        }
    }
}
