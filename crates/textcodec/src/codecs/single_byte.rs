//! <https://encoding.spec.whatwg.org/#single-byte-decoder> and
//! <https://encoding.spec.whatwg.org/#single-byte-encoder>: one table-driven codec for all
//! 28 single-byte encodings.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::{DecodeKernel, EncodeKernel, Encoded, Step};
use crate::index::SingleByteIndex;
use crate::simd::sink::Sink;

/// The single-byte decoder (stateless but for its index).
#[derive(Clone, Copy)]
pub(crate) struct SingleByteDecoder {
    index: &'static SingleByteIndex,
}

impl core::fmt::Debug for SingleByteDecoder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SingleByteDecoder")
    }
}

impl SingleByteDecoder {
    pub(crate) fn new(index: &'static SingleByteIndex) -> Self {
        SingleByteDecoder { index }
    }
}

impl DecodeKernel for SingleByteDecoder {
    fn handle(&mut self, byte: Option<u8>) -> Step {
        // Step 1.
        let Some(byte) = byte else {
            return Step::Finished;
        };
        // Step 2.
        if byte < 0x80 {
            return Step::ascii(byte);
        }
        // Steps 3–5.
        match self.index.code_point(byte) {
            None => Step::ERROR,
            Some(cp) => Step::Emit(super::scalar(u32::from(cp))),
        }
    }

    #[inline(always)]
    fn is_ground(&self) -> bool {
        true
    }

    #[inline]
    // Hot loop. Bounds: `i <= src.len()` always: `copy_ascii` returns at most the length of
    // the slice it is given (`src[i..]`), and `i += 1` follows `src.get(i)` finding a byte.
    // So the slice cannot panic and the additions cannot overflow.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn fast<S: Sink>(&mut self, src: &[u8], dst: &mut S) -> usize {
        let mut i = 0;
        while let Some(&byte) = src.get(i) {
            if byte < 0x80 {
                // A lone ASCII byte (a space between words) is written inline; only a run
                // of two or more enters the bulk ASCII kernel, whose call costs more than a
                // table lookup in mostly non-ASCII text.
                if src.get(i + 1).is_some_and(|&next| next < 0x80) {
                    let n = dst.copy_ascii(&src[i..]);
                    if n == 0 {
                        return i; // out of room
                    }
                    i += n;
                    continue;
                }
                if dst.room() == 0 {
                    return i;
                }
                dst.push_bmp(u16::from(byte));
                i += 1;
                continue;
            }
            let Some(cp) = self.index.code_point(byte) else {
                return i; // an error: the handler reports it
            };
            if dst.room() < S::units(super::scalar(u32::from(cp))) {
                return i;
            }
            dst.push_bmp(cp);
            i += 1;
        }
        i
    }
}

/// The single-byte encoder.
#[derive(Clone, Copy)]
pub(crate) struct SingleByteEncoder {
    pub(crate) index: &'static SingleByteIndex,
}

impl core::fmt::Debug for SingleByteEncoder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SingleByteEncoder")
    }
}

impl EncodeKernel for SingleByteEncoder {
    #[inline(always)]
    fn encode_char(&mut self, c: char) -> Encoded {
        let cp = u32::from(c);
        // Step 2.
        if cp < 0x80 {
            return Encoded::one(cp as u8);
        }
        // Steps 3–5.
        match self.index.byte_for(cp) {
            Some(b) => Encoded::one(b),
            None => Encoded::unmappable(c),
        }
    }
}
