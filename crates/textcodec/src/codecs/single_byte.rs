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
use crate::index::SingleByteTables;
use crate::simd::Slots;
use crate::sink::Sink;

/// The single-byte decoder (stateless but for its index).
#[derive(Clone, Copy)]
pub(crate) struct SingleByteDecoder {
    index: &'static SingleByteTables,
}

impl core::fmt::Debug for SingleByteDecoder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SingleByteDecoder")
    }
}

impl SingleByteDecoder {
    pub(crate) fn new(index: &'static SingleByteTables) -> Self {
        SingleByteDecoder { index }
    }

    /// Whether `byte` decodes to the code point of its own value.
    pub(crate) fn maps_to_itself(&self, byte: u8) -> bool {
        byte < 0x80 || self.index.code_point(byte) == Some(u16::from(byte))
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
    fn fast<S: Sink>(&mut self, src: &[u8], dst: &mut S) -> usize {
        super::fast_byte_map(src, dst, &self.index.byte_map())
    }
}

/// The single-byte encoder.
#[derive(Clone, Copy)]
pub(crate) struct SingleByteEncoder {
    pub(crate) index: &'static SingleByteTables,
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
    /// Where the CPU has a kernel (AVX-512, NEON) and the tables have hot pairs (not in
    /// the `compact` build): ASCII and the two-byte characters of the encoding's busiest
    /// blocks 64 (16) bytes at a time, the generic loop for a short span wherever the
    /// kernel stops (another character, or an unmappable one); elsewhere the generic loop
    /// throughout.
    #[inline]
    fn fast(&mut self, src: &str, dst: &mut Slots<u8>) -> (usize, usize) {
        match self.index.hot_pairs() {
            Some(hot) if crate::simd::byte_map::has_encode_kernel() => {
                self.hot_pair_loop(src.as_bytes(), hot, dst, |kernel, span, out| {
                    super::encode_bulk_from_utf8(kernel, src.get(span).unwrap_or_default(), out)
                })
            }
            _ => super::encode_bulk_from_utf8(self, src, dst),
        }
    }
    /// The hot-pair kernel where the CPU has one (it takes only valid UTF-8), with the
    /// generic loop checking as it goes between its runs; elsewhere the generic loop
    /// throughout (the trait's default).
    #[cfg(feature = "std")]
    #[inline]
    fn fast_bytes(&mut self, src: &[u8], dst: &mut Slots<u8>) -> (usize, usize) {
        match self.index.hot_pairs() {
            Some(hot) if crate::simd::byte_map::has_encode_kernel() => {
                self.hot_pair_loop(src, hot, dst, |kernel, span, out| {
                    super::encode_bulk_from_utf8_bytes(
                        kernel,
                        src.get(span).unwrap_or_default(),
                        out,
                    )
                })
            }
            _ => super::encode_bulk_from_utf8_bytes(self, src, dst),
        }
    }
}

impl SingleByteEncoder {
    /// The hot-pair kernel, then `generic` over a span of about 32 bytes of `src` (given as
    /// its range) from where it stopped (another character, an unmappable or malformed one),
    /// by turns. A span ends before a byte that is no UTF-8 continuation byte (a character
    /// boundary, in UTF-8).
    /// Returns (bytes read, bytes written), as the kernels' `fast` loops.
    #[inline(always)]
    fn hot_pair_loop(
        &mut self,
        src: &[u8],
        hot: &crate::index::byte_map::HotPairs,
        dst: &mut Slots<u8>,
        generic: impl Fn(&mut Self, core::ops::Range<usize>, &mut Slots<u8>) -> (usize, usize),
    ) -> (usize, usize) {
        let (mut read, mut written) = (0usize, 0usize);
        loop {
            let (rest, out) = (
                src.get(read..).unwrap_or_default(),
                dst.get_mut(written..).unwrap_or_default(),
            );
            let (r, w) = crate::simd::byte_map::encode_hot_pairs(rest, hot, out);
            read = read.saturating_add(r);
            written = written.saturating_add(w);
            let mut end = read.saturating_add(32).min(src.len());
            while src.get(end).is_some_and(|&b| b & 0xC0 == 0x80) {
                end = end.saturating_add(1);
            }
            let out = dst.get_mut(written..).unwrap_or_default();
            let (r, w) = generic(self, read..end, out);
            let span_len = end.saturating_sub(read);
            read = read.saturating_add(r);
            written = written.saturating_add(w);
            if r < span_len || read == src.len() {
                // An unmappable or malformed character, no room, or the end.
                return (read, written);
            }
        }
    }
}
