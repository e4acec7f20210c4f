//! `std::io` adapters: decode a byte stream into UTF-8 as you read it.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::boxed::Box;
use std::io::{self, Read};
use std::vec;

use crate::{DecodeStatus, Decoder};

/// Reads bytes in some encoding from `R` and yields them as UTF-8, decoding with a
/// [`Decoder`] (replacement or fatal, per its options). In fatal mode a malformed sequence
/// is an [`io::ErrorKind::InvalidData`] error whose inner error is the
/// [`crate::MalformedSequence`].
///
/// ```
/// use std::io::Read;
/// use textcodec::{io::DecodeReader, Decoder, Encoding};
/// let mut reader = DecodeReader::new(&b"caf\xE9"[..], Decoder::new(Encoding::Windows1252));
/// let mut s = String::new();
/// reader.read_to_string(&mut s).unwrap();
/// assert_eq!(s, "café");
/// ```
pub struct DecodeReader<R> {
    inner: R,
    decoder: Decoder,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    eof: bool,
    done: bool,
}

impl<R: Read> DecodeReader<R> {
    /// Wraps `inner` with an 8 KiB input buffer.
    pub fn new(inner: R, decoder: Decoder) -> Self {
        Self::with_capacity(8192, inner, decoder)
    }

    /// Wraps `inner` with an input buffer of `capacity` bytes (at least 1).
    pub fn with_capacity(capacity: usize, inner: R, decoder: Decoder) -> Self {
        DecodeReader {
            inner,
            decoder,
            buf: vec![0; capacity.max(1)].into_boxed_slice(),
            start: 0,
            end: 0,
            eof: false,
            done: false,
        }
    }

    /// The decoder (e.g. to read [`Decoder::encoding`] after BOM sniffing).
    pub fn decoder(&self) -> &Decoder {
        &self.decoder
    }

    /// Unwraps the inner reader.
    pub fn into_inner(self) -> R {
        self.inner
    }
}

impl<R: Read> Read for DecodeReader<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        loop {
            if self.done {
                return Ok(0);
            }
            if self.start == self.end && !self.eof {
                self.start = 0;
                self.end = loop {
                    match self.inner.read(&mut self.buf) {
                        // `Read::read` promises n <= buf.len(), but a buggy or hostile
                        // reader must not make us panic (std's own readers check too).
                        Ok(n) if n > self.buf.len() => {
                            return Err(io::Error::new(
                                io::ErrorKind::InvalidData,
                                "the inner reader returned more bytes than the buffer holds",
                            ));
                        }
                        Ok(n) => break n,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                        Err(e) => return Err(e),
                    }
                };
                self.eof = self.end == 0;
            }
            // A character needs up to 4 bytes: decode into a scratch buffer when `out` is tiny.
            // `start <= end <= buf.len()`: `end` was checked above and `start` only advances
            // by what the decoder read from `buf[start..end]`.
            let pending = self.buf.get(self.start..self.end).unwrap_or_default();
            let r = self.decoder.decode_to_utf8(pending, out, self.eof);
            self.start = self.start.saturating_add(r.read);
            match r.status {
                DecodeStatus::Malformed(m) => {
                    return Err(io::Error::new(io::ErrorKind::InvalidData, m));
                }
                DecodeStatus::InputEmpty if self.eof => {
                    self.done = true;
                }
                DecodeStatus::OutputFull if r.written == 0 => {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        "DecodeReader needs a read buffer of at least 4 bytes",
                    ));
                }
                _ => {}
            }
            if r.written > 0 {
                return Ok(r.written);
            }
        }
    }
}
