//! [`TextCodec`]: a [`tokio_util::codec`] codec for framed I/O (`FramedRead`,
//! `FramedWrite`, `Framed`): bytes in an encoding in, `String` chunks out, and `&str` /
//! `String` items encoded out. The streaming [`Decoder`] and [`Encoder`] carry state across
//! frames, so chunks may split characters anywhere.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::io;
use std::string::String;

use bytes::{Buf, BytesMut};

use crate::io::EncodeError;
use crate::{DecodeStatus, Decoder, EncodeStatus, Encoder, MalformedSequence};

/// A codec that decodes byte chunks into `String` chunks (whatever text the bytes received
/// so far hold; a character split across chunks comes whole in a later one) and encodes
/// `&str`/`String` items.
///
/// Errors (fatal modes) are `InvalidData` [`io::Error`]s with a [`MalformedSequence`] or an
/// [`EncodeError`] inside; text decoded before a malformed sequence is returned first. An
/// item with an unencodable character is rejected whole (nothing of it is written, the
/// encoder's state is as before it).
///
/// The encoder's end of stream (ISO-2022-JP's return to ASCII) is not an item: call
/// [`TextCodec::encode_end`] before closing (e.g. through `FramedWrite::write_buffer_mut`
/// and `encoder_mut`), or use [`super::EncodeWriter`], whose `shutdown` does it.
///
/// ```
/// use bytes::BytesMut;
/// use tokio_util::codec::{Decoder as _, Encoder as _};
/// use textcodec::{tokio::TextCodec, Decoder, EncodeErrorMode, Encoder, Encoding};
///
/// let mut codec = TextCodec::new(
///     Decoder::new(Encoding::EucKr),
///     Encoder::new(Encoding::EucKr, EncodeErrorMode::Html).unwrap(),
/// );
/// let mut buf = BytesMut::from(&b"\xC7\xD1\xB1"[..]); // "한" and half of "글"
/// assert_eq!(codec.decode(&mut buf)?.as_deref(), Some("한"));
/// buf.extend_from_slice(b"\xDB");
/// assert_eq!(codec.decode_eof(&mut buf)?.as_deref(), Some("글"));
///
/// let mut out = BytesMut::new();
/// codec.encode("한글 ☃", &mut out)?;
/// codec.encode_end(&mut out);
/// assert_eq!(&out[..], b"\xC7\xD1\xB1\xDB &#9731;");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct TextCodec {
    decoder: Decoder,
    encoder: Option<Encoder>,
    /// A decode error found after text that was returned first.
    error: Option<MalformedSequence>,
    /// UTF-8 bytes encoded so far (the offset encode errors report).
    encoded: u64,
}

impl TextCodec {
    /// A codec that decodes with `decoder` and encodes with `encoder`.
    pub fn new(decoder: Decoder, encoder: Encoder) -> TextCodec {
        TextCodec {
            decoder,
            encoder: Some(encoder),
            error: None,
            encoded: 0,
        }
    }

    /// A codec that only decodes (encoding items is an error).
    pub fn decoding(decoder: Decoder) -> TextCodec {
        TextCodec {
            decoder,
            encoder: None,
            error: None,
            encoded: 0,
        }
    }

    /// The decoder.
    pub fn decoder(&self) -> &Decoder {
        &self.decoder
    }

    /// The encoder, if this codec encodes.
    pub fn encoder(&self) -> Option<&Encoder> {
        self.encoder.as_ref()
    }

    fn decode_chunk(&mut self, src: &mut BytesMut, last: bool) -> io::Result<Option<String>> {
        if let Some(m) = self.error.take() {
            return Err(io::Error::new(io::ErrorKind::InvalidData, m));
        }
        if src.is_empty() && !last {
            return Ok(None);
        }
        let mut text = String::new();
        let r = self.decoder.decode_to_string(src, &mut text, last);
        src.advance(r.read.min(src.len()));
        if let DecodeStatus::Malformed(m) = r.status {
            if text.is_empty() {
                return Err(io::Error::new(io::ErrorKind::InvalidData, m));
            }
            self.error = Some(m);
        }
        Ok((!text.is_empty()).then_some(text))
    }

    /// Writes the encoder's end-of-stream bytes (ISO-2022-JP: `ESC ( B` unless already in
    /// the ASCII state) and resets it for a new stream.
    pub fn encode_end(&mut self, dst: &mut BytesMut) {
        if let Some(encoder) = &mut self.encoder {
            let mut end = [0u8; 8];
            let r = encoder.encode_from_utf8("", &mut end, true);
            dst.extend_from_slice(end.get(..r.written).unwrap_or_default());
        }
    }

    fn encode_str(&mut self, item: &str, dst: &mut BytesMut) -> io::Result<()> {
        let Some(encoder) = &mut self.encoder else {
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                "this TextCodec only decodes",
            ));
        };
        let before = encoder.clone();
        let start = dst.len();
        let max = encoder
            .max_buffer_length_from_utf8(item.len())
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "item too long"))?;
        dst.resize(start.saturating_add(max), 0);
        let out = dst.get_mut(start..).unwrap_or_default();
        let r = encoder.encode_from_utf8(item, out, false);
        match r.status {
            EncodeStatus::Unmappable(u) => {
                *encoder = before;
                dst.truncate(start);
                let at = r.read.saturating_sub(u.character().len_utf8()) as u64;
                let offset = self.encoded.saturating_add(at);
                Err(EncodeError::unmappable_at(u, offset, encoder.encoding()).into())
            }
            _ => {
                dst.truncate(start.saturating_add(r.written));
                self.encoded = self.encoded.saturating_add(item.len() as u64);
                Ok(())
            }
        }
    }
}

impl tokio_util::codec::Decoder for TextCodec {
    type Item = String;
    type Error = io::Error;

    /// Decodes all of `src`; `None` if that gives no text yet.
    fn decode(&mut self, src: &mut BytesMut) -> io::Result<Option<String>> {
        self.decode_chunk(src, false)
    }

    /// Decodes the rest with end-of-queue (a truncated sequence becomes U+FFFD, or an
    /// error in fatal mode).
    fn decode_eof(&mut self, src: &mut BytesMut) -> io::Result<Option<String>> {
        self.decode_chunk(src, true)
    }
}

impl tokio_util::codec::Encoder<&str> for TextCodec {
    type Error = io::Error;

    fn encode(&mut self, item: &str, dst: &mut BytesMut) -> io::Result<()> {
        self.encode_str(item, dst)
    }
}

impl tokio_util::codec::Encoder<String> for TextCodec {
    type Error = io::Error;

    fn encode(&mut self, item: String, dst: &mut BytesMut) -> io::Result<()> {
        self.encode_str(&item, dst)
    }
}
