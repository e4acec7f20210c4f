//! <https://encoding.spec.whatwg.org/#shared-utf-16-decoder>, used by
//! <https://encoding.spec.whatwg.org/#utf-16be-decoder> and
//! <https://encoding.spec.whatwg.org/#utf-16le-decoder>.
//!
//! The Standard defines no UTF-16 encoder; [`Utf16Encoder`] is textcodec's documented
//! extension (the CLI's `--to utf-16le`), the obvious inverse of the decoder.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::{DecodeKernel, EncodeKernel, Encoded, Restore, Step};
use crate::sink::Sink;
use crate::slots::Slots;

/// The shared UTF-16 decoder's state.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Utf16Decoder {
    /// UTF-16 leading byte
    leading_byte: Option<u8>,
    /// UTF-16 leading surrogate
    leading_surrogate: Option<u16>,
    /// is UTF-16BE decoder
    big_endian: bool,
}

impl Utf16Decoder {
    pub(crate) fn new(big_endian: bool) -> Self {
        Utf16Decoder {
            leading_byte: None,
            leading_surrogate: None,
            big_endian,
        }
    }

    #[inline(always)]
    fn unit(&self, first: u8, second: u8) -> u16 {
        if self.big_endian {
            u16::from_be_bytes([first, second])
        } else {
            u16::from_le_bytes([first, second])
        }
    }
}

impl DecodeKernel for Utf16Decoder {
    fn handle(&mut self, byte: Option<u8>) -> Step {
        let Some(byte) = byte else {
            // Steps 1–2.
            if self.leading_byte.is_some() || self.leading_surrogate.is_some() {
                self.leading_byte = None;
                self.leading_surrogate = None;
                return Step::ERROR;
            }
            return Step::Finished;
        };
        // Step 3.
        let Some(leading_byte) = self.leading_byte else {
            self.leading_byte = Some(byte);
            return Step::Continue;
        };
        // Steps 4–5.
        let code_unit = self.unit(leading_byte, byte);
        self.leading_byte = None;
        // Step 6.
        if let Some(leading_surrogate) = self.leading_surrogate.take() {
            if (0xDC00..=0xDFFF).contains(&code_unit) {
                // Bounds: a leading surrogate is 0xD800..=0xDBFF (step 8 keeps only those)
                // and `code_unit` 0xDC00..=0xDFFF here: c ≤ 0x10FFFF.
                #[allow(clippy::arithmetic_side_effects)]
                let c = 0x10000
                    + ((u32::from(leading_surrogate) - 0xD800) << 10)
                    + (u32::from(code_unit) - 0xDC00);
                return Step::Emit(super::scalar(c));
            }
            // Restore the code unit's two bytes (the leading byte and this one): the lead
            // surrogate alone is the error.
            return Step::Error(Restore {
                unread: true,
                prior: 1,
                held: 0,
            });
        }
        // Step 7.
        if (0xD800..=0xDBFF).contains(&code_unit) {
            self.leading_surrogate = Some(code_unit);
            return Step::Continue;
        }
        // Step 8.
        if (0xDC00..=0xDFFF).contains(&code_unit) {
            return Step::ERROR;
        }
        // Step 9.
        Step::Emit(super::scalar(u32::from(code_unit)))
    }

    #[inline(always)]
    fn is_ground(&self) -> bool {
        self.leading_byte.is_none() && self.leading_surrogate.is_none()
    }

    /// Whole code units and whole surrogate pairs; anything else is left to the handler.
    #[inline]
    // Hot loop. Bounds: `copy_utf16` returns at most `src.len()`; every index is checked
    // against `src.len()` first (`i + 1 < len`, `i + 3 < len`) and `i` only grows by the
    // units just read, so nothing panics or overflows (`src.len()` ≤ isize::MAX). The
    // surrogate arithmetic runs on a checked leading (0xD800..=0xDBFF) and trailing
    // (0xDC00..=0xDFFF) unit.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn fast<S: Sink>(&mut self, src: &[u8], dst: &mut S) -> usize {
        // The bulk kernels stop at the same places as the loop below, which remains as
        // their specification (and finishes whatever they leave).
        let mut i = dst.copy_utf16(src, self.big_endian);
        while i + 1 < src.len() {
            let unit = self.unit(src[i], src[i + 1]);
            if !(0xD800..=0xDFFF).contains(&unit) {
                let c = super::scalar(u32::from(unit));
                if dst.room() < S::units(c) {
                    break;
                }
                dst.push_bmp(unit);
                i += 2;
                continue;
            }
            if unit >= 0xDC00 || i + 3 >= src.len() {
                break;
            }
            let trail = self.unit(src[i + 2], src[i + 3]);
            if !(0xDC00..=0xDFFF).contains(&trail) || dst.room() < S::units('\u{10000}') {
                break;
            }
            let c = 0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(trail) - 0xDC00);
            dst.push(super::scalar(c));
            i += 4;
        }
        i
    }
}

/// UTF-16 encoder (textcodec extension: the Standard has none). Every scalar value is
/// encodable.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Utf16Encoder {
    pub(crate) big_endian: bool,
}

impl EncodeKernel for Utf16Encoder {
    // Two bytes per ASCII character.
    const ASCII_IS_IDENTITY: bool = false;

    #[inline(always)]
    fn encode_char(&mut self, c: char) -> Encoded {
        // Built as one integer so the bytes stay in a register (an array filled byte by
        // byte would be stored and reloaded).
        let cp = u32::from(c);
        let (units, len) = match cp.checked_sub(0x10000) {
            None => (u64::from(cp), 2),
            Some(v) => {
                let lead = 0xD800 | (v >> 10);
                let trail = 0xDC00 | (v & 0x3FF);
                (u64::from(lead) | (u64::from(trail) << 16), 4)
            }
        };
        let bytes = if self.big_endian {
            // Swap the bytes within each 16-bit unit.
            ((units & 0x00FF_00FF) << 8) | ((units >> 8) & 0x00FF_00FF)
        } else {
            units
        };
        Encoded::Bytes(bytes, len)
    }

    /// Its own loop after validating (see [`EncodeKernel::fast_bytes`]).
    #[cfg(feature = "std")]
    #[inline]
    fn fast_bytes(&mut self, src: &[u8], dst: &mut Slots<u8>) -> (usize, usize) {
        super::validated_fast(self, src, dst)
    }

    /// Through the UTF-8 → UTF-16 kernel of the level (the decoders' own), a stack buffer
    /// of units at a time, then each unit's two bytes in the encoder's order: every
    /// character is encodable, so this stops only for room (the driver encodes a last
    /// character that fits in part of one buffer by `encode_char`).
    // Bounds: `to_utf16` reads `r` bytes of `src[read..]` (stopping on a character
    // boundary) and writes `w <= CHUNK` units, and `2 * w` bytes fit in `dst[written..]`
    // (`room` units were offered), so `read <= src.len()` and `written <= dst.len()`.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn fast(&mut self, src: &str, dst: &mut Slots<u8>) -> (usize, usize) {
        const CHUNK: usize = 512;
        let mut units = [0u16; CHUNK];
        let (mut read, mut written) = (0, 0);
        while read < src.len() {
            let room = ((dst.len() - written) / 2).min(CHUNK);
            let (r, w) = crate::simd::utf8::to_utf16_initialised(&src[read..], &mut units[..room]);
            if r == 0 {
                break;
            }
            let out = dst[written..written + 2 * w].chunks_exact_mut(2);
            if self.big_endian {
                for (pair, unit) in out.zip(&units[..w]) {
                    crate::slots::write_slots(pair, &unit.to_be_bytes());
                }
            } else {
                for (pair, unit) in out.zip(&units[..w]) {
                    crate::slots::write_slots(pair, &unit.to_le_bytes());
                }
            }
            read += r;
            written += 2 * w;
        }
        (read, written)
    }
}
