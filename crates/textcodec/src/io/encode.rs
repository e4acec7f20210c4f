//! Encoding as you write: [`EncodeWriter`] (`io::Write` over UTF-8 bytes, `fmt::Write`), the
//! buffering core it shares with the async writers, and [`EncodeError`]. The Standard's
//! *encode* (#encode) and *encode or fail* (#encode-or-fail) over an I/O queue that the
//! caller's writes fill, with end-of-queue at [`EncodeWriter::finish`].
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::boxed::Box;
use std::io::{self, Write};
use std::vec;

use crate::{EncodeStatus, Encoder, Encoding, Unmappable};

/// The smallest room in the output buffer that `accept` encodes into: the most bytes one
/// character can take (ISO-2022-JP in html mode: an escape and `&#65533;`, 11 bytes) plus
/// the end-of-stream escape (3), rounded up.
const MIN_ROOM: usize = 32;

/// The encoding writers' default output buffer. Larger than the readers' (16 KiB): a
/// mostly-ASCII windows-1252 text encodes at 3–6 GB/s, where each output buffer's copy
/// into the inner writer is a visible share; measured on a 2 MB text into a `Vec`, writer
/// over one-shot throughput was 0.80× with 16 KiB and 0.85–0.88× with 64 KiB.
pub(crate) const ENCODE_CAPACITY: usize = 64 * 1024;

/// What went wrong while encoding text written to an [`EncodeWriter`] (or read through a
/// [`TranscodeReader`](super::TranscodeReader)): the inner error of an
/// [`io::ErrorKind::InvalidData`] error.
///
/// ```
/// use std::io::Write;
/// use textcodec::{io::{EncodeError, EncodeWriter}, EncodeErrorMode, Encoder, Encoding};
///
/// let encoder = Encoder::new(Encoding::Windows1252, EncodeErrorMode::Fatal).unwrap();
/// let mut writer = EncodeWriter::new(Vec::new(), encoder);
/// let err = writer.write_all("snow ☃!".as_bytes()).unwrap_err();
/// let e = err.get_ref().unwrap().downcast_ref::<EncodeError>().unwrap();
/// assert_eq!((e.unmappable().unwrap().character(), e.offset()), ('☃', 5));
/// assert_eq!(e.to_string(), "U+2603 '☃' at byte 5 of the text cannot be encoded in windows-1252");
/// // Nothing after it was written.
/// assert_eq!(writer.finish().unwrap(), b"snow ");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct EncodeError {
    kind: ErrorKind,
    offset: u64,
    encoding: Encoding,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum ErrorKind {
    Unmappable(Unmappable),
    /// Bytes that are not UTF-8 (at most 3: the longest invalid prefix of a sequence).
    InvalidUtf8([u8; 4], u8),
    /// The stream ended inside a UTF-8 sequence.
    IncompleteUtf8([u8; 4], u8),
}

impl EncodeError {
    pub(crate) fn unmappable_at(unmappable: Unmappable, offset: u64, encoding: Encoding) -> Self {
        EncodeError {
            kind: ErrorKind::Unmappable(unmappable),
            offset,
            encoding,
        }
    }

    /// The character the encoding cannot represent (fatal mode), if that is the error.
    pub fn unmappable(&self) -> Option<Unmappable> {
        match self.kind {
            ErrorKind::Unmappable(u) => Some(u),
            _ => None,
        }
    }

    /// Whether the error is bytes that are not UTF-8 (written to an [`EncodeWriter`]
    /// through `io::Write`), or UTF-8 cut off by the end of the stream.
    pub fn is_invalid_utf8(&self) -> bool {
        !matches!(self.kind, ErrorKind::Unmappable(_))
    }

    /// The offset, in bytes of UTF-8 text from the start of the stream, of the character
    /// or bytes in error.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The encoding being written.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }
}

fn hex(f: &mut core::fmt::Formatter<'_>, bytes: &[u8; 4], len: u8) -> core::fmt::Result {
    for b in bytes.get(..usize::from(len)).unwrap_or_default() {
        write!(f, " {b:02X}")?;
    }
    Ok(())
}

impl core::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.kind {
            ErrorKind::Unmappable(u) => write!(
                f,
                "U+{:04X} '{}' at byte {} of the text cannot be encoded in {}",
                u32::from(u.character()),
                u.character().escape_debug(),
                self.offset,
                self.encoding.name()
            ),
            ErrorKind::InvalidUtf8(bytes, len) => {
                write!(f, "invalid UTF-8")?;
                hex(f, &bytes, len)?;
                write!(f, " at byte {} of the text", self.offset)
            }
            ErrorKind::IncompleteUtf8(bytes, len) => {
                write!(f, "the text ends inside a UTF-8 sequence")?;
                hex(f, &bytes, len)?;
                write!(f, " at byte {}", self.offset)
            }
        }
    }
}

impl std::error::Error for EncodeError {}

impl From<EncodeError> for io::Error {
    fn from(e: EncodeError) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, e)
    }
}

/// The length of the UTF-8 sequence `lead` begins (0 for a byte that begins none).
fn sequence_len(lead: u8) -> usize {
    match lead {
        0x00..=0x7F => 1,
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => 0,
    }
}

/// How `bytes`, which does not start with a valid UTF-8 sequence, starts: the beginning
/// of a sequence that more bytes could complete (`None`), or that many invalid bytes.
fn invalid_prefix(bytes: &[u8]) -> Option<usize> {
    match core::str::from_utf8(bytes.get(..bytes.len().min(4)).unwrap_or_default()) {
        Err(e) if e.valid_up_to() == 0 => e.error_len(),
        // Unreachable for callers (a valid first character); treat one byte as invalid.
        _ => Some(1),
    }
}

/// The buffering state of an encoding writer, without the writer: the encoder, the encoded
/// bytes not yet written to the inner writer, and a UTF-8 sequence cut by a write's end.
#[derive(Debug)]
pub(crate) struct EncodeCore {
    encoder: Encoder,
    /// `out_start <= out_end <= out.len()`.
    out: Box<[u8]>,
    out_start: usize,
    out_end: usize,
    partial: [u8; 4],
    /// `partial_len < 4`, and `partial[..partial_len]` begins a UTF-8 sequence.
    partial_len: usize,
    /// UTF-8 bytes accepted so far (the offset errors report).
    position: u64,
    /// The inner writer reported more bytes written than it was given: what it holds is
    /// unknown, so every later call fails rather than write anything again.
    broken: bool,
}

impl EncodeCore {
    pub(crate) fn new(capacity: usize, encoder: Encoder) -> EncodeCore {
        EncodeCore {
            encoder,
            out: vec![0; capacity.max(2 * MIN_ROOM)].into_boxed_slice(),
            out_start: 0,
            out_end: 0,
            partial: [0; 4],
            partial_len: 0,
            position: 0,
            broken: false,
        }
    }

    pub(crate) fn encoder(&self) -> &Encoder {
        &self.encoder
    }

    /// Encoded bytes waiting for the inner writer.
    pub(crate) fn pending_output(&self) -> &[u8] {
        self.out
            .get(self.out_start..self.out_end)
            .unwrap_or_default()
    }

    /// Records that the inner writer took `n` bytes of [`EncodeCore::pending_output`].
    pub(crate) fn output_written(&mut self, n: usize) -> io::Result<()> {
        match n {
            0 => Err(io::Error::new(
                io::ErrorKind::WriteZero,
                "the inner writer accepted no bytes",
            )),
            n if n > self.out_end.saturating_sub(self.out_start) => {
                // Its claim covers all it was given: those bytes are not offered again
                // (not even by the best-effort finish of `Drop`), and the adapter stays
                // failed.
                self.broken = true;
                self.out_start = 0;
                self.out_end = 0;
                Err(Self::broken_error())
            }
            n => {
                self.out_start = self.out_start.saturating_add(n);
                if self.out_start == self.out_end {
                    self.out_start = 0;
                    self.out_end = 0;
                }
                Ok(())
            }
        }
    }

    /// An error once the inner writer broke its contract (see `broken`).
    pub(crate) fn check_usable(&self) -> io::Result<()> {
        if self.broken {
            return Err(Self::broken_error());
        }
        Ok(())
    }

    fn broken_error() -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidData,
            "the inner writer reported more bytes written than it was given",
        )
    }

    /// Free space at the end of the output buffer, after moving pending bytes to the front
    /// if that makes the difference.
    fn room(&mut self) -> usize {
        let room = self.out.len().saturating_sub(self.out_end);
        if room < MIN_ROOM && self.out_start > 0 {
            self.out.copy_within(self.out_start..self.out_end, 0);
            self.out_end = self.out_end.saturating_sub(self.out_start);
            self.out_start = 0;
        }
        self.out.len().saturating_sub(self.out_end)
    }

    fn error(&self, kind: ErrorKind, offset: u64) -> io::Error {
        EncodeError {
            kind,
            offset,
            encoding: self.encoder.encoding(),
        }
        .into()
    }

    /// Encodes a prefix of `buf` (UTF-8) into the output buffer and returns its length.
    /// `Ok(0)` for a non-empty `buf` means the buffer is full: write it out and call again.
    /// An error means `buf` starts with bytes that are not UTF-8 or a character the
    /// encoder rejects (fatal mode), and nothing of `buf` was taken; the bytes before such
    /// a point are taken by one call and the error comes with the next.
    pub(crate) fn accept(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.broken {
            return Err(Self::broken_error());
        }
        if buf.is_empty() || self.room() < MIN_ROOM {
            return Ok(0);
        }
        let mut taken = 0usize;
        if self.partial_len > 0 {
            taken = self.complete_partial(buf)?;
            if self.partial_len > 0 || taken == buf.len() {
                return Ok(taken);
            }
        }
        while taken < buf.len() {
            let room = self.room();
            if room < MIN_ROOM {
                break;
            }
            let rest = buf.get(taken..).unwrap_or_default();
            // Validate about as much as the room takes, ending on a character boundary
            // (so a cut character is only ever the end of `buf`): at most three bytes
            // back, the most a character has before its last. Further back lies no lead
            // but malformed input (a run of lone continuation bytes), which the encoder
            // stops at by itself; backing over it could pass valid text and report that
            // as the error.
            let mut window = rest.len().min(room);
            if window < rest.len() {
                for _ in 0..3 {
                    if window == 0 || rest.get(window).is_none_or(|&b| b & 0xC0 != 0x80) {
                        break;
                    }
                    window = window.saturating_sub(1);
                }
            }
            // Encodes the window's whole characters up to the first malformed or cut
            // sequence, validating as it goes (one pass over the bytes).
            let dst = self.out.get_mut(self.out_end..).unwrap_or_default();
            let r = self
                .encoder
                .encode_from_maybe_utf8(rest.get(..window).unwrap_or_default(), dst);
            self.out_end = self.out_end.saturating_add(r.written).min(self.out.len());
            let mut read = r.read;
            if let EncodeStatus::Unmappable(u) = r.status {
                // The character is not taken: `read` stops before it (its bytes may be
                // offered again, and are rejected again). What the encoder wrote before
                // rejecting it (ISO-2022-JP's return to ASCII) is the Standard's output
                // before the error.
                read = read.saturating_sub(u.character().len_utf8());
                if read == 0 && taken > 0 {
                    // An error now would say nothing of `buf` was taken, and the text
                    // this call encoded would be offered and written again: it comes
                    // with the next call.
                    break;
                }
                if read == 0 {
                    return Err(EncodeError::unmappable_at(
                        u,
                        self.position,
                        self.encoder.encoding(),
                    )
                    .into());
                }
            }
            if read > 0 {
                self.position = self.position.saturating_add(read as u64);
                taken = taken.saturating_add(read);
                if matches!(r.status, EncodeStatus::Unmappable(_)) {
                    break; // the error comes with the next call
                }
                continue;
            }
            if r.status == EncodeStatus::OutputFull {
                // (Cannot happen with `MIN_ROOM` free; stops a loop if it did.)
                break;
            }
            // Nothing taken: `rest` starts with a sequence that is malformed or cut by the
            // end of this write.
            match invalid_prefix(rest) {
                None if rest.len() < 4 => {
                    // A sequence cut by the end of this write: keep it for the next.
                    self.partial
                        .iter_mut()
                        .zip(rest)
                        .for_each(|(to, &from)| *to = from);
                    self.partial_len = rest.len();
                    self.position = self.position.saturating_add(rest.len() as u64);
                    return Ok(buf.len());
                }
                _ if taken > 0 => break,
                bad => {
                    let len = bad.unwrap_or(1).min(3);
                    let mut bytes = [0u8; 4];
                    bytes
                        .iter_mut()
                        .zip(rest.get(..len).unwrap_or_default())
                        .for_each(|(to, &from)| *to = from);
                    return Err(self.error(ErrorKind::InvalidUtf8(bytes, len as u8), self.position));
                }
            }
        }
        Ok(taken)
    }

    /// Encodes as much of `text` as fits (at least one character: the caller checked the
    /// room). An error means `text` starts with a character the encoder rejects.
    fn encode(&mut self, text: &str) -> io::Result<usize> {
        let dst = self.out.get_mut(self.out_end..).unwrap_or_default();
        let r = self.encoder.encode_from_utf8(text, dst, false);
        self.out_end = self.out_end.saturating_add(r.written).min(self.out.len());
        let mut read = r.read;
        if let EncodeStatus::Unmappable(u) = r.status {
            // The character is not taken: `read` stops before it (its bytes may be offered
            // again, and are rejected again). What the encoder wrote before rejecting it
            // (ISO-2022-JP's return to ASCII) is the Standard's output before the error.
            read = read.saturating_sub(u.character().len_utf8());
            if read == 0 {
                return Err(
                    EncodeError::unmappable_at(u, self.position, self.encoder.encoding()).into(),
                );
            }
        }
        self.position = self.position.saturating_add(read as u64);
        Ok(read)
    }

    /// Adds bytes of `buf` to the held partial sequence; encodes it once complete. Returns
    /// the bytes of `buf` taken.
    fn complete_partial(&mut self, buf: &[u8]) -> io::Result<usize> {
        let held = self.partial_len;
        let need = sequence_len(self.partial[0]).saturating_sub(held);
        let take = need.min(buf.len());
        let mut seq = self.partial;
        seq.iter_mut()
            .skip(held)
            .zip(buf.get(..take).unwrap_or_default())
            .for_each(|(to, &from)| *to = from);
        let len = held.saturating_add(take);
        let seq_bytes = seq.get(..len).unwrap_or_default();
        let start = self.position.saturating_sub(held as u64);
        match core::str::from_utf8(seq_bytes) {
            Ok(c) => {
                // `encode` counts the whole character; the held bytes were counted already.
                self.position = start;
                match self.encode(c) {
                    Ok(_) => {
                        self.partial_len = 0;
                        Ok(take)
                    }
                    Err(e) => {
                        // Reported with its offset, the character goes with its held
                        // bytes (accepted already), as one inside a single write would:
                        // else finishing would report them again as a cut sequence.
                        self.partial_len = 0;
                        self.position = start.saturating_add(held as u64);
                        Err(e)
                    }
                }
            }
            Err(e) if e.error_len().is_none() => {
                self.partial = seq;
                self.partial_len = len;
                self.position = self.position.saturating_add(take as u64);
                Ok(take)
            }
            Err(_) => {
                // The held bytes and these do not make a character: report the held ones
                // (already accepted, so they are dropped) and take nothing of `buf`.
                self.partial_len = 0;
                let mut bytes = [0u8; 4];
                bytes
                    .iter_mut()
                    .zip(self.partial.get(..held).unwrap_or_default())
                    .for_each(|(to, &from)| *to = from);
                Err(self.error(ErrorKind::InvalidUtf8(bytes, held as u8), start))
            }
        }
    }

    /// End-of-queue: the encoder's final bytes (ISO-2022-JP back to ASCII) into the output
    /// buffer; `Ok(false)` if there is no room (write the buffer out and call again). A UTF-8
    /// sequence left incomplete is an error, or dropped with `discard_partial`.
    pub(crate) fn end(&mut self, discard_partial: bool) -> io::Result<bool> {
        if self.broken {
            return Err(Self::broken_error());
        }
        if self.partial_len > 0 {
            let held = self.partial_len;
            self.partial_len = 0;
            if !discard_partial {
                let offset = self.position.saturating_sub(held as u64);
                let mut bytes = [0u8; 4];
                bytes
                    .iter_mut()
                    .zip(self.partial.get(..held).unwrap_or_default())
                    .for_each(|(to, &from)| *to = from);
                return Err(self.error(ErrorKind::IncompleteUtf8(bytes, held as u8), offset));
            }
        }
        if self.room() < MIN_ROOM {
            return Ok(false);
        }
        let dst = self.out.get_mut(self.out_end..).unwrap_or_default();
        let r = self.encoder.encode_from_utf8("", dst, true);
        self.out_end = self.out_end.saturating_add(r.written).min(self.out.len());
        Ok(r.status == EncodeStatus::InputEmpty)
    }
}

/// Writes text as bytes in some encoding to `W`, encoding with an [`Encoder`] (fatal,
/// html or replace, per its error mode).
///
/// * [`io::Write`] takes **UTF-8 bytes**: a character split across `write` calls is held
///   until it is complete; bytes that are not UTF-8 are an [`io::ErrorKind::InvalidData`]
///   error ([`EncodeError::is_invalid_utf8`]) and nothing of that write is taken.
/// * [`fmt::Write`](core::fmt::Write) takes `str` (`write!` with `std::fmt::Write` in
///   scope); its errors carry no detail, use `io::Write::write_fmt` for that.
/// * Fatal mode: a character the encoding lacks is an `InvalidData` error whose inner
///   [`EncodeError`] names the character and its offset in the text; the text before it
///   is written, nothing after it. The writer stays usable: a write that skips the
///   character goes on (ISO-2022-JP included: the encoder's state is consistent).
/// * Output is buffered (64 KiB by default): [`Write::flush`] writes it and flushes `W`,
///   but does not end the stream. [`EncodeWriter::finish`] ends it: it writes the
///   encoder's final bytes (ISO-2022-JP returns to ASCII with `ESC ( B`), flushes, and
///   returns `W`; it fails if the text ends inside a UTF-8 sequence.
/// * **Dropping without `finish`** finishes on a best-effort basis, like `BufWriter`: the
///   end state and the buffered bytes are written, errors are ignored, and an incomplete
///   UTF-8 sequence at the end is dropped. Call `finish` to see errors.
///
/// ```
/// use std::io::Write;
/// use textcodec::{io::EncodeWriter, EncodeErrorMode, Encoder, Encoding};
///
/// let encoder = Encoder::new(Encoding::Iso2022Jp, EncodeErrorMode::Fatal).unwrap();
/// let mut writer = EncodeWriter::new(Vec::new(), encoder);
/// let text = "日本 text";
/// // Any split works, even inside a character.
/// writer.write_all(&text.as_bytes()[..2])?;
/// writer.write_all(&text.as_bytes()[2..])?;
/// write!(writer, "; 語")?;
/// let bytes = writer.finish()?;
/// assert_eq!(bytes, b"\x1b$BF|K\\\x1b(B text; \x1b$B8l\x1b(B");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct EncodeWriter<W: Write> {
    /// `None` only after `finish` took it.
    inner: Option<W>,
    core: EncodeCore,
}

impl<W: Write> EncodeWriter<W> {
    /// Wraps `inner` with a 64 KiB output buffer.
    pub fn new(inner: W, encoder: Encoder) -> Self {
        Self::with_capacity(ENCODE_CAPACITY, inner, encoder)
    }

    /// Wraps `inner` with an output buffer of `capacity` bytes (at least 64).
    pub fn with_capacity(capacity: usize, inner: W, encoder: Encoder) -> Self {
        EncodeWriter {
            inner: Some(inner),
            core: EncodeCore::new(capacity, encoder),
        }
    }

    /// The encoder (e.g. for [`Encoder::unmappables`]).
    pub fn encoder(&self) -> &Encoder {
        self.core.encoder()
    }

    /// The inner writer.
    pub fn get_ref(&self) -> Option<&W> {
        self.inner.as_ref()
    }

    /// The inner writer. Writing to it directly puts bytes before those still buffered.
    pub fn get_mut(&mut self) -> Option<&mut W> {
        self.inner.as_mut()
    }

    /// Ends the stream (the encoder's final bytes), writes everything out, flushes and
    /// returns the inner writer. An error if the text ends inside a UTF-8 sequence or the
    /// inner writer fails (an [`io::ErrorKind::Interrupted`] write or flush is retried,
    /// not an error); see [`EncodeWriter::try_finish`] to keep the writer then.
    pub fn finish(mut self) -> io::Result<W> {
        self.try_finish()?;
        self.inner
            .take()
            .ok_or_else(|| io::Error::other("EncodeWriter has no inner writer"))
    }

    /// Ends the stream, writes everything out and flushes the inner writer, keeping it.
    /// Calling it again is harmless; writing after it starts a new stream.
    pub fn try_finish(&mut self) -> io::Result<()> {
        self.finish_with(false)
    }

    fn finish_with(&mut self, discard_partial: bool) -> io::Result<()> {
        while !self.core.end(discard_partial)? {
            self.write_out()?;
        }
        self.write_out()?;
        self.flush_inner()
    }

    fn inner_mut(&mut self) -> io::Result<&mut W> {
        self.inner
            .as_mut()
            .ok_or_else(|| io::Error::other("EncodeWriter has no inner writer"))
    }

    /// Flushes the inner writer, retrying an interrupted flush (as `write_all` retries an
    /// interrupted write): `finish` consumes the adapter, so an `Interrupted` passed up
    /// from there would lose the writer and what it still buffers.
    fn flush_inner(&mut self) -> io::Result<()> {
        loop {
            match self.inner_mut()?.flush() {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                other => return other,
            }
        }
    }

    /// Writes the whole output buffer to the inner writer; an interrupted write is
    /// retried, as `BufWriter` does.
    fn write_out(&mut self) -> io::Result<()> {
        self.core.check_usable()?;
        while !self.core.pending_output().is_empty() {
            let Some(inner) = self.inner.as_mut() else {
                return Err(io::Error::other("EncodeWriter has no inner writer"));
            };
            match inner.write(self.core.pending_output()) {
                Ok(n) => self.core.output_written(n)?,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

impl<W: Write> Write for EncodeWriter<W> {
    /// Takes UTF-8 bytes; see the type's documentation for what an error means.
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut taken = 0usize;
        while taken < buf.len() {
            match self.core.accept(buf.get(taken..).unwrap_or_default()) {
                Ok(0) => {
                    if let Err(e) = self.write_out() {
                        return if taken > 0 { Ok(taken) } else { Err(e) };
                    }
                }
                Ok(n) => taken = taken.saturating_add(n),
                Err(_) if taken > 0 => return Ok(taken),
                Err(e) => return Err(e),
            }
        }
        Ok(taken)
    }

    /// Writes the buffered bytes and flushes the inner writer. The stream does not end:
    /// ISO-2022-JP may still be in a non-ASCII state (see [`EncodeWriter::finish`]).
    fn flush(&mut self) -> io::Result<()> {
        self.write_out()?;
        self.flush_inner()
    }
}

impl<W: Write> core::fmt::Write for EncodeWriter<W> {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        self.write_all(s.as_bytes()).map_err(|_| core::fmt::Error)
    }
}

impl<W: Write> Drop for EncodeWriter<W> {
    fn drop(&mut self) {
        if self.inner.is_some() {
            // Best effort, as `BufWriter` does: errors cannot be reported from here.
            let _ = self.finish_with(true);
        }
    }
}
