//! <https://encoding.spec.whatwg.org/#utf-8-decoder> and
//! <https://encoding.spec.whatwg.org/#utf-8-encoder>
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::{scalar, DecodeKernel, EncodeKernel, Encoded, Step};
use crate::sink::Sink;
use crate::slots::Slots;

/// UTF-8's decoder state.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Utf8Decoder {
    /// UTF-8 code point
    code_point: u32,
    /// UTF-8 bytes seen
    bytes_seen: u8,
    /// UTF-8 bytes needed
    bytes_needed: u8,
    /// UTF-8 lower boundary
    lower_boundary: u8,
    /// UTF-8 upper boundary
    upper_boundary: u8,
}

impl Default for Utf8Decoder {
    fn default() -> Self {
        Utf8Decoder {
            code_point: 0,
            bytes_seen: 0,
            bytes_needed: 0,
            lower_boundary: 0x80,
            upper_boundary: 0xBF,
        }
    }
}

impl Utf8Decoder {
    /// Whether no character is in progress.
    pub(crate) fn is_idle(&self) -> bool {
        self.bytes_needed == 0
    }
}

impl DecodeKernel for Utf8Decoder {
    fn handle(&mut self, byte: Option<u8>) -> Step {
        let Some(byte) = byte else {
            // Steps 1–2: end-of-queue.
            if self.bytes_needed != 0 {
                *self = Utf8Decoder::default();
                return Step::ERROR;
            }
            return Step::Finished;
        };
        // Step 3.
        if self.bytes_needed == 0 {
            match byte {
                0x00..=0x7F => return Step::ascii(byte),
                0xC2..=0xDF => {
                    self.bytes_needed = 1;
                    self.code_point = u32::from(byte & 0x1F);
                }
                0xE0..=0xEF => {
                    if byte == 0xE0 {
                        self.lower_boundary = 0xA0;
                    }
                    if byte == 0xED {
                        self.upper_boundary = 0x9F;
                    }
                    self.bytes_needed = 2;
                    self.code_point = u32::from(byte & 0xF);
                }
                0xF0..=0xF4 => {
                    if byte == 0xF0 {
                        self.lower_boundary = 0x90;
                    }
                    if byte == 0xF4 {
                        self.upper_boundary = 0x8F;
                    }
                    self.bytes_needed = 3;
                    self.code_point = u32::from(byte & 0x7);
                }
                _ => return Step::ERROR,
            }
            return Step::Continue;
        }
        // Step 4: out of range: reset, restore byte, error.
        if !(self.lower_boundary..=self.upper_boundary).contains(&byte) {
            *self = Utf8Decoder::default();
            return Step::ERROR_UNREAD;
        }
        // Steps 5–7.
        self.lower_boundary = 0x80;
        self.upper_boundary = 0xBF;
        self.code_point = (self.code_point << 6) | u32::from(byte & 0x3F);
        // At most 4 (bytes needed ≤ 3 plus the lead): no overflow.
        self.bytes_seen = self.bytes_seen.saturating_add(1);
        // Step 8.
        if self.bytes_seen != self.bytes_needed {
            return Step::Continue;
        }
        // Steps 9–11.
        let code_point = self.code_point;
        *self = Utf8Decoder::default();
        Step::Emit(scalar(code_point))
    }

    #[inline(always)]
    fn is_ground(&self) -> bool {
        self.bytes_needed == 0
    }

    /// The longest valid prefix (validity as `core::str`'s, which is exactly the
    /// Standard's; the SIMD validators are tested against a transcription of the steps
    /// above) decodes without the handler: copied into UTF-8, converted into UTF-16.
    #[inline]
    fn fast<S: Sink>(&mut self, src: &[u8], dst: &mut S) -> usize {
        // Errors close together (binary or badly damaged input) come back here after each
        // one: a short scalar look first spares every such call the vector validator's
        // start-up cost. An error within the first 16 bytes ends the fast path there.
        let head = src.get(..16).unwrap_or(src);
        if let Err(e) = core::str::from_utf8(head) {
            if e.error_len().is_some() {
                let valid = head.get(..e.valid_up_to()).unwrap_or_default();
                return core::str::from_utf8(valid).map_or(0, |s| dst.copy_str(s));
            }
        }
        dst.copy_valid_utf8(src)
    }
}

/// UTF-8's encoder (stateless).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Utf8Encoder;

impl EncodeKernel for Utf8Encoder {
    /// The Standard's steps produce exactly `char::encode_utf8`'s bytes (its note says so).
    #[inline]
    fn encode_char(&mut self, c: char) -> Encoded {
        let mut bytes = [0u8; 8];
        let n = c.encode_utf8(&mut bytes).len();
        Encoded::Bytes(u64::from_le_bytes(bytes), n as u8)
    }

    /// Its own loop after validating (see [`EncodeKernel::fast_bytes`]).
    #[cfg(feature = "std")]
    #[inline]
    fn fast_bytes(&mut self, src: &[u8], dst: &mut Slots<u8>) -> (usize, usize) {
        super::validated_fast(self, src, dst)
    }

    #[inline]
    fn fast(&mut self, src: &str, dst: &mut Slots<u8>) -> (usize, usize) {
        let mut n = src.len().min(dst.len());
        while !src.is_char_boundary(n) {
            // 0 is always a boundary: this stops.
            n = n.saturating_sub(1);
        }
        // `n <= min(src.len(), dst.len())`: both slices exist. `copy_bytes`, not a plain
        // copy: an output a few bytes after the input modulo 4 KiB ran `memcpy` at 2.7
        // GB/s instead of 37 (4K aliasing; a benchmark's buffers landed so).
        if let (Some(d), Some(s)) = (dst.get_mut(..n), src.as_bytes().get(..n)) {
            crate::simd::copy_bytes(d, s);
        }
        (n, n)
    }
}
