//! Transcoding as you read: [`TranscodeReader`], bytes in one encoding in, bytes in another
//! out. *decode* (#decode) into a bounded text buffer, then *encode* (#encode) or *encode or
//! fail* (#encode-or-fail) from it, per the encoder's error mode.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::boxed::Box;
use std::io::{self, Read};
use std::string::String;
use std::vec;

use super::decode::{DecodeCore, Step, DEFAULT_CAPACITY};
use super::encode::EncodeError;
use crate::{Decoder, EncodeResult, EncodeStatus, Encoder, Encoding};

/// Reads to fill a `dst` at least this large are encoded into it directly; smaller ones go
/// through the output buffer (one character can take 11 bytes, plus 3 for the end).
const DIRECT: usize = 16;

/// The most input the UTF-8 decoder is given at a time (see `decode_more`).
const PASS_THROUGH_SLICE: usize = 64;

/// Reads bytes in one encoding from `R` and yields them in another: a [`Decoder`] into a
/// UTF-8 text buffer, an [`Encoder`] from it. Memory is bounded by the three buffers
/// (input, text, output), whatever the stream's length.
///
/// * Reads of any size work; the output is the one-shot `decode` + `encode` result.
/// * A fatal decoder's malformed sequence is an [`io::ErrorKind::InvalidData`] error with
///   the [`MalformedSequence`](crate::MalformedSequence) inside; a fatal encoder's
///   unencodable character is one with an [`EncodeError`] inside, whose offset counts
///   bytes of the decoded UTF-8 text. Either comes after the output before it; reading on
///   resumes after the sequence or character (which is dropped).
/// * Errors of the inner reader are returned as they are and lose nothing.
///
/// ```
/// use std::io::Read;
/// use textcodec::{io::TranscodeReader, Decoder, EncodeErrorMode, Encoder, Encoding};
///
/// // EUC-JP in, Shift_JIS out.
/// let euc_jp: &[u8] = b"\xC6\xFC\xCB\xDC\xB8\xEC";
/// let mut reader = TranscodeReader::new(
///     euc_jp,
///     Decoder::new(Encoding::EucJp),
///     Encoder::new(Encoding::ShiftJis, EncodeErrorMode::Html).unwrap(),
/// );
/// let mut shift_jis = Vec::new();
/// reader.read_to_end(&mut shift_jis)?;
/// assert_eq!(shift_jis, b"\x93\xfa\x96\x7b\x8c\xea"); // 日本語
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct TranscodeReader<R> {
    inner: R,
    source: DecodeCore,
    /// Decoded text; `text[text_start..text_end]` is still to be encoded. Both are on
    /// character boundaries (the decoder writes whole characters, the encoder reads them).
    text: String,
    text_start: usize,
    text_end: usize,
    encoder: Encoder,
    /// Encoded bytes not yet read (reads smaller than [`DIRECT`]).
    out: Box<[u8]>,
    out_start: usize,
    out_end: usize,
    /// UTF-8 bytes of text encoded so far (the offset encode errors report).
    text_position: u64,
    /// The encoder's end-of-stream bytes are written: reads return 0 from now on.
    ended: bool,
    /// An encode error found after output that went out first.
    error: Option<EncodeError>,
}

impl<R: Read> TranscodeReader<R> {
    /// Wraps `inner` with 16 KiB buffers.
    pub fn new(inner: R, decoder: Decoder, encoder: Encoder) -> Self {
        Self::with_capacity(DEFAULT_CAPACITY, inner, decoder, encoder)
    }

    /// Wraps `inner` with an input buffer of `capacity` bytes and a text buffer as large
    /// (at least 64 bytes).
    pub fn with_capacity(capacity: usize, inner: R, decoder: Decoder, encoder: Encoder) -> Self {
        TranscodeReader {
            inner,
            source: DecodeCore::new(capacity, decoder),
            text: "\0".repeat(capacity.max(64)),
            text_start: 0,
            text_end: 0,
            encoder,
            out: vec![0; DIRECT].into_boxed_slice(),
            out_start: 0,
            out_end: 0,
            text_position: 0,
            ended: false,
            error: None,
        }
    }

    /// The decoder (reset for a new stream at the end of this one).
    pub fn decoder(&self) -> &Decoder {
        self.source.decoder()
    }

    /// The encoding being decoded: the decoder's, or the one a byte order mark selected.
    pub fn source_encoding(&self) -> crate::Encoding {
        self.source.encoding()
    }

    /// The encoder (e.g. for [`Encoder::unmappables`]).
    pub fn encoder(&self) -> &Encoder {
        &self.encoder
    }

    /// The inner reader.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The inner reader. Reading from it directly skips bytes not yet transcoded.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// Unwraps the inner reader; input read from it but not yet transcoded is lost.
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// Decodes the next chunk of text, or reads more input; `false` at the end of the
    /// stream. The UTF-8 decoder takes a few bytes at a time: it is called only where the
    /// input cannot be passed through ([`TranscodeReader::pass_through`]: a BOM, a
    /// malformed sequence, a character cut by the end of the input buffer), and hands back
    /// as soon as it has.
    fn decode_more(&mut self) -> io::Result<bool> {
        let max_input = if self.source.decoder().encoding() == Encoding::Utf8 {
            PASS_THROUGH_SLICE
        } else {
            usize::MAX
        };
        match self
            .source
            .read_into_str(self.text.as_mut_str(), max_input)?
        {
            Step::Ready(n) => {
                self.text_start = 0;
                self.text_end = n.min(self.text.len());
                Ok(true)
            }
            Step::End => Ok(false),
            Step::NeedInput => {
                let n = self.inner.read(self.source.input_space())?;
                self.source.input_filled(n)?;
                Ok(true)
            }
        }
    }

    /// From UTF-8 input, valid characters encode straight from the input buffer
    /// ([`Encoder::encode_from_maybe_utf8`], validating as it encodes), without the
    /// decoder and the text buffer; the decoder takes over where the input is not plain
    /// valid UTF-8. Returns `None` when the input cannot be passed through now, else the
    /// bytes written to `dst` (0: they went to the output buffer, for a small `dst`).
    fn pass_through(&mut self, dst: &mut [u8]) -> io::Result<Option<usize>> {
        let Some(input) = self.source.pass_through_input()? else {
            return Ok(None);
        };
        let small = dst.len() < DIRECT;
        let mut out = core::mem::take(&mut self.out);
        let target = if small { &mut out[..] } else { dst };
        let r = self.encoder.encode_from_maybe_utf8(input, target);
        self.out = out;
        if r.read == 0 {
            // A malformed or cut sequence first: the decoder's.
            return Ok(None);
        }
        self.source.passed_through(r.read);
        let written = self.encoded(r, false)?;
        if small {
            self.out_start = 0;
            self.out_end = written.min(self.out.len());
            return Ok(Some(0));
        }
        Ok(Some(written))
    }

    /// A UTF-8 encoder encodes every character as the decoder wrote it and has no final
    /// bytes, so transcoding to UTF-8 is decoding: straight into `dst` (through the
    /// decoder's own text buffer for reads too small for a character), without this
    /// reader's text buffer and the encoder's copy of it.
    fn read_utf8(&mut self, dst: &mut [u8]) -> io::Result<usize> {
        if self.ended {
            return Ok(0);
        }
        loop {
            match self.source.read_into(dst)? {
                Step::Ready(n) => {
                    self.text_position = self.text_position.saturating_add(n as u64);
                    return Ok(n);
                }
                Step::End => {
                    self.ended = true;
                    return Ok(0);
                }
                Step::NeedInput => {
                    let n = self.inner.read(self.source.input_space())?;
                    self.source.input_filled(n)?;
                }
            }
        }
    }

    /// Encodes pending text (or, at the end, the encoder's final bytes) into `dst`; returns
    /// the bytes written, which may be 0 when the text buffer is empty.
    fn encode_into(&mut self, dst: &mut [u8], last: bool) -> io::Result<usize> {
        let text = self
            .text
            .get(self.text_start..self.text_end)
            .unwrap_or_default();
        let r = self.encoder.encode_from_utf8(text, dst, last);
        self.text_start = self.text_start.saturating_add(r.read).min(self.text_end);
        self.encoded(r, last)
    }

    /// Accounts for an encoder call over `r.read` bytes of text; returns the bytes it wrote
    /// or its error.
    fn encoded(&mut self, r: EncodeResult, last: bool) -> io::Result<usize> {
        self.text_position = self.text_position.saturating_add(r.read as u64);
        match r.status {
            EncodeStatus::Unmappable(u) => {
                // `read` includes the character: it is dropped, the next read goes on.
                let offset = self
                    .text_position
                    .saturating_sub(u.character().len_utf8() as u64);
                let e = EncodeError::unmappable_at(u, offset, self.encoder.encoding());
                if r.written == 0 {
                    return Err(e.into());
                }
                self.error = Some(e);
            }
            EncodeStatus::InputEmpty if last => self.ended = true,
            _ => {}
        }
        Ok(r.written)
    }
}

impl<R: Read> Read for TranscodeReader<R> {
    fn read(&mut self, dst: &mut [u8]) -> io::Result<usize> {
        if dst.is_empty() {
            return Ok(0);
        }
        if self.encoder.encoding() == Encoding::Utf8 {
            return self.read_utf8(dst);
        }
        loop {
            let buffered = self.out.get(self.out_start..self.out_end);
            if let Some(buffered) = buffered.filter(|b| !b.is_empty()) {
                let n = buffered.len().min(dst.len());
                if let (Some(to), Some(from)) = (dst.get_mut(..n), buffered.get(..n)) {
                    to.copy_from_slice(from);
                }
                self.out_start = self.out_start.saturating_add(n);
                return Ok(n);
            }
            if let Some(e) = self.error.take() {
                return Err(e.into());
            }
            if self.ended {
                return Ok(0);
            }
            if self.text_start == self.text_end {
                match self.pass_through(dst)? {
                    Some(0) => continue,
                    Some(written) => return Ok(written),
                    None => {}
                }
            }
            let last = self.text_start == self.text_end && !self.decode_more()?;
            let written = if dst.len() >= DIRECT {
                self.encode_into(dst, last)?
            } else {
                let mut out = core::mem::take(&mut self.out);
                let r = self.encode_into(&mut out, last);
                self.out = out;
                self.out_start = 0;
                self.out_end = 0;
                self.out_end = r?.min(self.out.len());
                continue;
            };
            if written > 0 {
                return Ok(written);
            }
        }
    }
}
