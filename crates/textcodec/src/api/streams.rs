//! <https://encoding.spec.whatwg.org/#interface-textdecoderstream> and
//! <https://encoding.spec.whatwg.org/#interface-textencoderstream>, as push-based
//! transformers: the embedder's `TransformStream` calls `transform` per chunk and `flush`
//! at the end, enqueueing non-empty results.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use alloc::string::String;
use alloc::vec::Vec;

use super::text_decoder::DecoderCommon;
use super::{ApiError, TextDecoderOptions};

/// `TextDecoderStream`'s conversion state.
///
/// ```
/// use textcodec::api::{TextDecoderStream, TextDecoderOptions};
/// let mut s = TextDecoderStream::new("shift_jis", TextDecoderOptions::default()).unwrap();
/// assert_eq!(s.transform(b"\x82").unwrap(), ""); // nothing to enqueue yet
/// assert_eq!(s.transform(b"\xA0x").unwrap(), "あx");
/// assert_eq!(s.flush().unwrap(), "");
/// ```
#[derive(Clone, Debug)]
pub struct TextDecoderStream {
    common: DecoderCommon,
}

impl TextDecoderStream {
    /// `new TextDecoderStream(label, options)`: `RangeError` as for `TextDecoder`.
    pub fn new(label: &str, options: TextDecoderOptions) -> Result<TextDecoderStream, ApiError> {
        Ok(TextDecoderStream {
            common: DecoderCommon::new(label, options)?,
        })
    }

    /// `encoding`, lowercased.
    pub fn encoding(&self) -> &'static str {
        self.common.encoding.lowercase_name()
    }

    /// `fatal`.
    pub fn fatal(&self) -> bool {
        self.common.fatal()
    }

    /// `ignoreBOM`.
    pub fn ignore_bom(&self) -> bool {
        self.common.ignore_bom
    }

    /// *decode and enqueue a chunk*: the text to enqueue (empty means enqueue nothing), or
    /// `TypeError`, which errors both sides of the stream.
    pub fn transform(&mut self, chunk: &[u8]) -> Result<String, ApiError> {
        self.common.decode_chunk(chunk, false)
    }

    /// *flush and enqueue*: end-of-queue. A sequence left incomplete is U+FFFD, or
    /// `TypeError` in fatal mode.
    pub fn flush(&mut self) -> Result<String, ApiError> {
        self.common.decode_chunk(&[], true)
    }

    /// [`TextDecoderStream::transform`] producing UTF-16 code units (a JavaScript string).
    pub fn transform_to_utf16(&mut self, chunk: &[u8]) -> Result<Vec<u16>, ApiError> {
        self.common.decode_chunk(chunk, false)
    }

    /// [`TextDecoderStream::flush`] producing UTF-16 code units.
    pub fn flush_to_utf16(&mut self) -> Result<Vec<u16>, ApiError> {
        self.common.decode_chunk(&[], true)
    }
}

/// `TextEncoderStream`'s conversion state: UTF-8 encoding of string chunks, re-joining a
/// surrogate pair split across chunks (*leading surrogate*).
///
/// ```
/// use textcodec::api::TextEncoderStream;
/// let mut s = TextEncoderStream::new();
/// assert_eq!(s.transform(&[0x61, 0xD83D]), b"a");
/// assert_eq!(s.transform(&[0xDE00]), "😀".as_bytes());
/// assert_eq!(s.transform(&[0xD800]), b"");
/// assert_eq!(s.flush(), b"\xEF\xBF\xBD");
/// ```
#[derive(Clone, Debug, Default)]
pub struct TextEncoderStream {
    /// leading surrogate
    leading_surrogate: Option<u16>,
}

impl TextEncoderStream {
    /// `new TextEncoderStream()`.
    pub fn new() -> TextEncoderStream {
        TextEncoderStream::default()
    }

    /// `encoding`: always `"utf-8"`.
    pub fn encoding(&self) -> &'static str {
        "utf-8"
    }

    /// *encode and enqueue a chunk* for a JavaScript string chunk: the bytes to enqueue
    /// (empty means enqueue nothing).
    pub fn transform(&mut self, chunk: &[u16]) -> Vec<u8> {
        let mut out = Vec::with_capacity(chunk.len().saturating_mul(3));
        let mut buf = [0u8; 4];
        let mut push = |c: char, out: &mut Vec<u8>| {
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        };
        for &unit in chunk {
            // *convert code unit to scalar value*.
            if let Some(leading) = self.leading_surrogate.take() {
                if (0xDC00..=0xDFFF).contains(&unit) {
                    // Bounds: `leading` is only ever set to 0xD800..=0xDBFF (below) and
                    // `unit` is 0xDC00..=0xDFFF here: c ≤ 0x10FFFF.
                    #[allow(clippy::arithmetic_side_effects)]
                    let c = 0x10000
                        + ((u32::from(leading) - 0xD800) << 10)
                        + (u32::from(unit) - 0xDC00);
                    push(char::from_u32(c).unwrap_or('\u{FFFD}'), &mut out);
                    continue;
                }
                // Restore the unit; the leading surrogate alone is U+FFFD.
                push('\u{FFFD}', &mut out);
            }
            match unit {
                0xD800..=0xDBFF => self.leading_surrogate = Some(unit),
                0xDC00..=0xDFFF => push('\u{FFFD}', &mut out),
                _ => push(
                    char::from_u32(u32::from(unit)).unwrap_or('\u{FFFD}'),
                    &mut out,
                ),
            }
        }
        out
    }

    /// [`TextEncoderStream::transform`] for a Rust string chunk (it has no surrogates, but a
    /// leading surrogate left by a previous UTF-16 chunk is still resolved).
    pub fn transform_str(&mut self, chunk: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(chunk.len().saturating_add(3));
        if !chunk.is_empty() && self.leading_surrogate.take().is_some() {
            out.extend_from_slice("\u{FFFD}".as_bytes());
        }
        out.extend_from_slice(chunk.as_bytes());
        out
    }

    /// *encode and flush*: EF BF BD if a leading surrogate is left, else nothing.
    pub fn flush(&mut self) -> Vec<u8> {
        match self.leading_surrogate.take() {
            Some(_) => "\u{FFFD}".as_bytes().to_vec(),
            None => Vec::new(),
        }
    }
}
