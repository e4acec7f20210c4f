//! <https://encoding.spec.whatwg.org/#interface-textencoder>
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use alloc::vec::Vec;

use crate::{EncodeErrorMode, Encoder, Encoding};

/// `TextEncoderEncodeIntoResult`: UTF-16 code units read, bytes written.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct EncodeIntoResult {
    /// Code units of the source converted.
    pub read: u64,
    /// Bytes written to the destination.
    pub written: u64,
}

/// `TextEncoder` (#interface-textencoder): UTF-8 only, no state.
///
/// ```
/// use textcodec::api::TextEncoder;
/// let e = TextEncoder::new();
/// assert_eq!(e.encode_utf16(&[0x61, 0xD800]), b"a\xEF\xBF\xBD");
/// let mut dst = [0u8; 4];
/// let r = e.encode_into(&[0x61, 0xD83D, 0xDE00], &mut dst);
/// assert_eq!((r.read, r.written), (1, 1)); // the emoji's 4 bytes do not fit in the 3 left
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct TextEncoder;

impl TextEncoder {
    /// `new TextEncoder()`.
    pub fn new() -> TextEncoder {
        TextEncoder
    }

    /// `encoding`: always `"utf-8"`.
    pub fn encoding(&self) -> &'static str {
        "utf-8"
    }

    /// `encode(input)` for a Rust string (already a scalar value string).
    pub fn encode(&self, input: &str) -> Vec<u8> {
        input.as_bytes().to_vec()
    }

    /// `encode(input)` for a JavaScript string: USVString conversion (lone surrogates become
    /// U+FFFD), then UTF-8.
    pub fn encode_utf16(&self, input: &[u16]) -> Vec<u8> {
        let mut out = Vec::new();
        if let Some(mut encoder) = Encoder::new(Encoding::Utf8, EncodeErrorMode::Fatal) {
            // UTF-8 can encode every scalar value: this never stops early.
            let _ = encoder.encode_from_utf16_to_vec(input, &mut out, true);
        }
        out
    }

    /// `encodeInto(source, destination)` (#dom-textencoder-encodeinto): converts scalar values
    /// while their bytes fit (never part of a character), counting UTF-16 code units read (a
    /// surrogate pair counts two; a lone surrogate, which becomes U+FFFD, one).
    pub fn encode_into(&self, source: &[u16], destination: &mut [u8]) -> EncodeIntoResult {
        let Some(mut encoder) = Encoder::new(Encoding::Utf8, EncodeErrorMode::Fatal) else {
            return EncodeIntoResult::default();
        };
        // With `last`, a leading surrogate at the very end is U+FFFD rather than held back;
        // the encoder stops before the first character whose bytes do not fit.
        let r = encoder.encode_from_utf16(source, destination, true);
        EncodeIntoResult {
            read: r.read as u64,
            written: r.written as u64,
        }
    }

    /// `encodeInto` for a Rust string source; `read` still counts UTF-16 code units.
    pub fn encode_into_str(&self, source: &str, destination: &mut [u8]) -> EncodeIntoResult {
        let mut n = source.len().min(destination.len());
        while !source.is_char_boundary(n) {
            // 0 is always a boundary: this stops.
            n = n.saturating_sub(1);
        }
        // `n <= min(source.len(), destination.len())` on a char boundary: both exist.
        let (Some(dst), Some(src)) = (destination.get_mut(..n), source.get(..n)) else {
            return EncodeIntoResult::default();
        };
        dst.copy_from_slice(src.as_bytes());
        let read: usize = src.chars().map(char::len_utf16).sum();
        EncodeIntoResult {
            read: read as u64,
            written: n as u64,
        }
    }
}
