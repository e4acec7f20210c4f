//! Decoding as you read: [`DecodeReader`] (`Read` + `BufRead`) and the buffering core it
//! shares with the async readers. The Standard's *decode* (#decode) and *run*
//! (#concept-encoding-run) over an I/O queue that the inner reader fills chunk by chunk.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::boxed::Box;
use std::io::{self, BufRead, Read};
use std::string::String;
use std::vec;
use std::vec::Vec;

use crate::{DecodeResult, DecodeStatus, Decoder, Encoding, MalformedSequence};

/// The default size of the input buffer (and of the decoded-text buffer, when one is used).
pub(crate) const DEFAULT_CAPACITY: usize = 16 * 1024;

/// The smallest decoded-text buffer: room for the most one handler step writes (Big5's
/// two code points, 4 bytes; U+FFFD, 3 bytes) with plenty to spare.
const MIN_TEXT: usize = 64;

/// What a step of the core needs next.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// This many bytes (of text for a reader, of decoded text for `fill_text`) are ready.
    Ready(usize),
    /// The stream is over (and the decoder has processed end-of-queue).
    End,
    /// The input buffer is empty: fill it from the inner reader
    /// ([`DecodeCore::input_space`], then [`DecodeCore::input_filled`]).
    NeedInput,
}

/// What one decode attempt gave.
enum Decoded {
    Wrote(usize),
    /// The output buffer cannot take the next character (it is smaller than 4 bytes).
    TooSmall,
    End,
    NeedInput,
}

/// Where a decoding reader's bytes wait to be decoded.
pub(crate) trait Input {
    /// The bytes read and not yet decoded, and whether the stream ends after them; `None`
    /// when they are used up and the adapter must read more first ([`Step::NeedInput`]).
    fn pending(&mut self) -> io::Result<Option<(&[u8], bool)>>;
    /// Marks the first `n` pending bytes decoded.
    fn consume(&mut self, n: usize);
}

/// The adapter's own input buffer, which it fills from an inner `Read` (or `AsyncRead`)
/// ([`DecodeCore::input_space`], [`DecodeCore::input_filled`]).
#[derive(Debug)]
pub(crate) struct Buffer {
    input: Box<[u8]>,
    /// `start <= end <= input.len()`: `end` is checked in `input_filled`, `start` advances by
    /// what the decoder read from `input[start..end]`.
    start: usize,
    end: usize,
    /// The inner reader reported the end of its stream.
    eof: bool,
}

impl Input for Buffer {
    fn pending(&mut self) -> io::Result<Option<(&[u8], bool)>> {
        if self.start == self.end && !self.eof {
            return Ok(None);
        }
        let pending = self.input.get(self.start..self.end).unwrap_or_default();
        Ok(Some((pending, self.eof)))
    }

    fn consume(&mut self, n: usize) {
        self.start = self.start.saturating_add(n).min(self.end);
    }
}

/// An inner `BufRead`'s own buffer: decoded where it lies, without a copy.
#[derive(Debug)]
pub(crate) struct Borrowed<R>(R);

impl<R: BufRead> Input for Borrowed<R> {
    fn pending(&mut self) -> io::Result<Option<(&[u8], bool)>> {
        let pending = self.0.fill_buf()?;
        Ok(Some((pending, pending.is_empty())))
    }

    fn consume(&mut self, n: usize) {
        self.0.consume(n);
    }
}

/// The input side: the decoder, the bytes read from the inner reader and not yet decoded,
/// and an error found after text that was handed out first.
#[derive(Debug)]
pub(crate) struct Source<I> {
    decoder: Decoder,
    /// The decoder's encoding before end-of-queue reset it (a BOM's, when one was found).
    encoding: Encoding,
    input: I,
    /// The decoder has processed end-of-queue: reads return 0 from now on.
    done: bool,
    /// A fatal-mode error to report on the next call (text before it went out first).
    error: Option<MalformedSequence>,
}

impl<I: Input> Source<I> {
    /// Runs `decode(decoder, pending input, last)` until it writes something, needs input,
    /// or the stream ends. `decode` must report what it read from the slice it was given.
    fn decode_with(
        &mut self,
        mut decode: impl FnMut(&mut Decoder, &[u8], bool) -> DecodeResult,
    ) -> io::Result<Decoded> {
        loop {
            if let Some(m) = self.error.take() {
                return Err(malformed(m));
            }
            if self.done {
                return Ok(Decoded::End);
            }
            let Some((pending, eof)) = self.input.pending()? else {
                return Ok(Decoded::NeedInput);
            };
            // End-of-queue is given on its own, after the last input, so that the encoding
            // in use (a BOM's) is known before the decoder resets for a new stream.
            let last = eof && pending.is_empty();
            let r = decode(&mut self.decoder, pending, last);
            let read = r.read.min(pending.len());
            if !last {
                self.encoding = self.decoder.encoding();
            }
            self.input.consume(read);
            match r.status {
                DecodeStatus::Malformed(m) if r.written > 0 => {
                    // The text before the error goes out first; the error on the next call.
                    self.error = Some(m);
                }
                DecodeStatus::Malformed(m) => return Err(malformed(m)),
                DecodeStatus::InputEmpty if last => self.done = true,
                DecodeStatus::OutputFull if r.written == 0 => return Ok(Decoded::TooSmall),
                _ => {}
            }
            if r.written > 0 {
                return Ok(Decoded::Wrote(r.written));
            }
        }
    }
}

/// `n`, the count a `Read::read` given `offered` bytes returned, if it is possible.
fn checked_count(n: usize, offered: usize) -> io::Result<usize> {
    if n > offered {
        // `Read::read` promises n <= buf.len(), but a buggy or hostile reader must not
        // make us use bytes it never wrote.
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "the inner reader returned more bytes than the buffer holds",
        ));
    }
    Ok(n)
}

fn malformed(m: MalformedSequence) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, m)
}

/// The buffering state of a decoding reader, without the reader: the sync and async
/// adapters differ only in how they fill the input buffer.
#[derive(Debug)]
pub(crate) struct DecodeCore<I = Buffer> {
    source: Source<I>,
    /// Decoded text not yet handed out (`BufRead`, and reads smaller than a character).
    /// Allocated on first use. `text_start <= text_end <= text.len()`.
    text: Vec<u8>,
    text_start: usize,
    text_end: usize,
    text_capacity: usize,
}

impl DecodeCore<Buffer> {
    /// A core with its own input buffer of `capacity` bytes (at least 1).
    pub(crate) fn new(capacity: usize, decoder: Decoder) -> DecodeCore {
        let capacity = capacity.max(1);
        let input = Buffer {
            input: vec![0; capacity].into_boxed_slice(),
            start: 0,
            end: 0,
            eof: false,
        };
        DecodeCore::with_input(input, capacity, decoder)
    }

    /// The most text one read can produce from a full input buffer (plus slack for
    /// pending bytes): the size worth offering to a read.
    #[cfg(feature = "tokio")]
    pub(crate) fn max_read(&self) -> usize {
        self.source
            .input
            .input
            .len()
            .saturating_mul(3)
            .saturating_add(64)
    }

    /// The empty input buffer, to fill from the inner reader (call after
    /// [`Step::NeedInput`]).
    pub(crate) fn input_space(&mut self) -> &mut [u8] {
        let buffer = &mut self.source.input;
        buffer.start = 0;
        buffer.end = 0;
        &mut buffer.input
    }

    /// Fills the input buffer with one read of at most `most` bytes from `inner`.
    pub(crate) fn fill_input_from<R: Read>(
        &mut self,
        inner: &mut R,
        most: usize,
    ) -> io::Result<()> {
        let space = self.input_space();
        let offered = space.len().min(most);
        let n = inner.read(space.get_mut(..offered).unwrap_or_default())?;
        self.input_filled(checked_count(n, offered)?)
    }

    /// Records that the inner reader put `n` bytes in [`DecodeCore::input_space`] (0: the
    /// end of the stream).
    pub(crate) fn input_filled(&mut self, n: usize) -> io::Result<()> {
        let buffer = &mut self.source.input;
        // `Read::read` promises n <= buf.len(), but a buggy or hostile reader must not make
        // us slice past the buffer (std's own readers check too).
        if n > buffer.input.len() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "the inner reader returned more bytes than the buffer holds",
            ));
        }
        buffer.start = 0;
        buffer.end = n;
        buffer.eof = n == 0;
        Ok(())
    }

    /// UTF-8 the decoder would pass through as it is ([`Decoder::passes_through`]; any
    /// error mode), with nothing else waiting, is read by the inner reader straight into
    /// `out` and validated there: one copy instead of two (into the input buffer, then into
    /// `out`). Bytes from the first that is not valid UTF-8 on go to the input buffer for
    /// the decoder (so a read is at most the input buffer's size). `None`: not possible
    /// now, or nothing valid came; read through the decoder.
    pub(crate) fn read_utf8_in_place<R: Read>(
        &mut self,
        inner: &mut R,
        out: &mut [u8],
    ) -> io::Result<Option<usize>> {
        if !self.in_place_ready() {
            return Ok(None);
        }
        let take = out.len().min(self.in_place_limit());
        let Some(out) = out.get_mut(..take) else {
            return Ok(None);
        };
        let n = checked_count(inner.read(out)?, take)?;
        let read = out.get(..n).unwrap_or_default();
        let valid = crate::simd::valid_utf8_prefix(read).len();
        let rest = read.get(valid..).unwrap_or_default();
        self.stash_rest(rest);
        self.in_place_done(valid, rest.len(), n == 0)?;
        Ok((valid > 0).then_some(valid))
    }

    /// Whether the next bytes of the stream may be read in place (by the inner reader
    /// straight into the caller's memory, then validated there): the decoder would pass
    /// UTF-8 through as it is, and nothing waits in the input or text buffers, nor an
    /// error, nor the end.
    pub(crate) fn in_place_ready(&self) -> bool {
        let source = &self.source;
        source.error.is_none()
            && !source.done
            && source.input.start == source.input.end
            && !source.input.eof
            && self.text_start == self.text_end
            && source.decoder.passes_through(None)
    }

    /// How many bytes to read into the input buffer next: all it holds, but one byte while
    /// a UTF-8 decoder has the BOM question or a cut character open, so that it is ready
    /// for the in-place reads as soon as that is settled. (Reads of a few bytes would cut
    /// the next character in text without ASCII, three-byte Japanese for one, and go on
    /// cutting.)
    pub(crate) fn next_fill_size(&self) -> usize {
        let decoder = &self.source.decoder;
        if decoder.encoding() == Encoding::Utf8 && !decoder.passes_through(None) {
            1
        } else {
            usize::MAX
        }
    }

    /// The most bytes one in-place read may take: what the input buffer can hold of them
    /// when they are not valid UTF-8 ([`DecodeCore::stash_rest`]).
    pub(crate) fn in_place_limit(&self) -> usize {
        self.source.input.input.len()
    }

    /// Puts `rest`, the bytes of an in-place read from the first that is not valid UTF-8
    /// on (at most [`DecodeCore::in_place_limit`]), in the empty input buffer; then call
    /// [`DecodeCore::in_place_done`].
    pub(crate) fn stash_rest(&mut self, rest: &[u8]) {
        if let Some(to) = self.input_space().get_mut(..rest.len()) {
            to.copy_from_slice(rest);
        }
    }

    /// Records an in-place read: `valid` bytes of valid UTF-8 went to the caller, `rest`
    /// bytes after them were stashed for the decoder, and `eof`: the read returned 0.
    pub(crate) fn in_place_done(&mut self, valid: usize, rest: usize, eof: bool) -> io::Result<()> {
        self.source.decoder.passed_through(valid);
        if eof || rest > 0 {
            // The end of the stream (the decoder's end-of-queue), or bytes for the decoder.
            self.input_filled(rest)?;
        }
        Ok(())
    }
}

impl<I: Input> DecodeCore<I> {
    /// A core over `input`, with a text buffer (when one is needed) of about
    /// `text_capacity` bytes.
    fn with_input(input: I, text_capacity: usize, decoder: Decoder) -> DecodeCore<I> {
        DecodeCore {
            source: Source {
                encoding: decoder.encoding(),
                decoder,
                input,
                done: false,
                error: None,
            },
            text: Vec::new(),
            text_start: 0,
            text_end: 0,
            text_capacity: text_capacity.clamp(MIN_TEXT, 64 * 1024),
        }
    }

    pub(crate) fn decoder(&self) -> &Decoder {
        &self.source.decoder
    }

    pub(crate) fn encoding(&self) -> Encoding {
        self.source.encoding
    }

    /// Decodes into `dst` (not empty): buffered text first, then straight from the input;
    /// a `dst` too small for the next character is served through the text buffer, so
    /// reads of any size work.
    pub(crate) fn read_into(&mut self, dst: &mut [u8]) -> io::Result<Step> {
        loop {
            let buffered = self.buffered_text();
            if !buffered.is_empty() {
                let n = buffered.len().min(dst.len());
                if let (Some(to), Some(from)) = (dst.get_mut(..n), buffered.get(..n)) {
                    to.copy_from_slice(from);
                }
                self.consume_text(n);
                return Ok(Step::Ready(n));
            }
            match self
                .source
                .decode_with(|d, src, last| d.decode_to_utf8(src, dst, last))?
            {
                Decoded::Wrote(n) => return Ok(Step::Ready(n)),
                Decoded::End => return Ok(Step::End),
                Decoded::NeedInput => return Ok(Step::NeedInput),
                Decoded::TooSmall => match self.fill_text()? {
                    Step::Ready(_) => continue,
                    other => return Ok(other),
                },
            }
        }
    }

    /// Decodes into `dst`, a `str` buffer of at least [`MIN_TEXT`] bytes, from the input
    /// only (callers do not mix this with the text buffer), at most `max_input` bytes of
    /// it per decoder call.
    pub(crate) fn read_into_str(&mut self, dst: &mut str, max_input: usize) -> io::Result<Step> {
        match self.source.decode_with(|d, src, last| {
            // (`last` comes with no input left: nothing is cut from it then.)
            let src = src.get(..max_input.min(src.len())).unwrap_or_default();
            d.decode_to_str(src, dst, last)
        })? {
            Decoded::Wrote(n) => Ok(Step::Ready(n)),
            Decoded::End | Decoded::TooSmall => Ok(Step::End),
            Decoded::NeedInput => Ok(Step::NeedInput),
        }
    }

    /// The pending input when it is UTF-8 the decoder would pass through as it is
    /// ([`Decoder::passes_through`]), nothing else waits (text, an error) and the stream is
    /// not over; `None` otherwise, and when the input buffer is empty. A prefix of it that
    /// is used goes to [`DecodeCore::passed_through`].
    pub(crate) fn pass_through_input(&mut self) -> io::Result<Option<&[u8]>> {
        let source = &mut self.source;
        if source.error.is_some() || source.done || self.text_start < self.text_end {
            return Ok(None);
        }
        Ok(source.input.pending()?.and_then(|(pending, _)| {
            let first = *pending.first()?;
            source
                .decoder
                .passes_through(Some(first))
                .then_some(pending)
        }))
    }

    /// Marks the first `n` bytes of [`DecodeCore::pass_through_input`] used.
    pub(crate) fn passed_through(&mut self, n: usize) {
        self.source.input.consume(n);
        self.source.decoder.passed_through(n);
    }

    /// Makes sure the text buffer holds something, unless the stream is over or input is
    /// needed (`BufRead::fill_buf`).
    pub(crate) fn fill_text(&mut self) -> io::Result<Step> {
        if self.text_start < self.text_end {
            return Ok(Step::Ready(self.text_end.saturating_sub(self.text_start)));
        }
        if self.text.len() < self.text_capacity {
            self.text.resize(self.text_capacity, 0);
        }
        self.text_start = 0;
        self.text_end = 0;
        let text = &mut self.text;
        match self
            .source
            .decode_with(|d, src, last| d.decode_to_utf8(src, text, last))?
        {
            Decoded::Wrote(n) => {
                self.text_end = n.min(self.text.len());
                Ok(Step::Ready(self.text_end))
            }
            // Unreachable: the text buffer holds any character.
            Decoded::TooSmall | Decoded::End => Ok(Step::End),
            Decoded::NeedInput => Ok(Step::NeedInput),
        }
    }

    /// The decoded text not yet consumed (whole characters, unless a tiny read took part
    /// of one).
    pub(crate) fn buffered_text(&self) -> &[u8] {
        self.text
            .get(self.text_start..self.text_end)
            .unwrap_or_default()
    }

    pub(crate) fn consume_text(&mut self, n: usize) {
        self.text_start = self.text_start.saturating_add(n).min(self.text_end);
    }

    /// Appends the rest of the stream's text to `dst` (`read_to_string`): buffered text,
    /// then straight from the input with [`Decoder::decode_to_string`] (no scratch copy,
    /// no re-validation). `fill` refills the input buffer.
    pub(crate) fn read_to_string(
        &mut self,
        dst: &mut String,
        mut fill: impl FnMut(&mut DecodeCore<I>) -> io::Result<()>,
    ) -> io::Result<usize> {
        let before = dst.len();
        self.take_buffered_text(dst)?;
        loop {
            match self.append_to_string(dst) {
                Ok(Step::End) => return Ok(dst.len().saturating_sub(before)),
                // An inner `BufRead` interrupted while filling its buffer: retried too.
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
                Ok(_) => match fill(self) {
                    // As `Read::read_to_end` promises: an interrupted read is retried.
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    other => other?,
                },
            }
        }
    }

    /// Moves the buffered text to `dst` (the start of `read_to_string`). It is whole
    /// characters unless a read smaller than a character took part of one: then it is an
    /// error, as std's `read_to_string` fails on bytes that are not UTF-8.
    pub(crate) fn take_buffered_text(&mut self, dst: &mut String) -> io::Result<()> {
        if !self.buffered_text().is_empty() {
            let Ok(s) = core::str::from_utf8(self.buffered_text()) else {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "read_to_string after a read that split a character",
                ));
            };
            dst.push_str(s);
            self.text_start = self.text_end;
        }
        Ok(())
    }

    /// Appends what the input buffer decodes to to `dst`, straight (no text buffer); returns
    /// `NeedInput` when it is used up (refill, then call again) or `End`.
    pub(crate) fn append_to_string(&mut self, dst: &mut String) -> io::Result<Step> {
        loop {
            match self
                .source
                .decode_with(|d, src, last| d.decode_to_string(src, dst, last))?
            {
                Decoded::Wrote(_) | Decoded::TooSmall => {}
                Decoded::End => return Ok(Step::End),
                Decoded::NeedInput => return Ok(Step::NeedInput),
            }
        }
    }
}

/// Reads bytes in some encoding from `R` and yields them as UTF-8, decoding with a
/// [`Decoder`] (replacement or fatal, BOM handling per its options).
///
/// * Reads of any size work, down to one byte: a character that does not fit is kept and
///   handed out over the next reads.
/// * [`BufRead`] is implemented (`lines()`, `read_line`, `read_until`); its buffer always
///   holds whole characters.
/// * `read_to_string` and `read_to_end` decode straight into the caller's buffer.
/// * Fatal mode: a malformed sequence is an [`io::ErrorKind::InvalidData`] error whose
///   inner error is the [`MalformedSequence`] (with its stream offset), returned after the
///   text before it. Reading on resumes after the malformed bytes.
/// * Errors of the inner reader, [`io::ErrorKind::Interrupted`] and
///   [`io::ErrorKind::WouldBlock`] included, are returned as they are and lose nothing: call
///   again to go on.
///
/// Memory: one input buffer (16 KiB by default, [`DecodeReader::with_capacity`]) plus,
/// once `BufRead` or a read shorter than a character is used, a text buffer as large.
///
/// A Shift_JIS file, line by line:
///
/// ```
/// use std::io::BufRead;
/// use textcodec::{io::DecodeReader, Decoder, Encoding};
///
/// // "日本語\nテキスト\n" in Shift_JIS, as a file would hold it.
/// let file: &[u8] = b"\x93\xfa\x96\x7b\x8c\xea\n\x83\x65\x83\x4c\x83\x58\x83\x67\n";
/// let reader = DecodeReader::new(file, Decoder::new(Encoding::ShiftJis));
/// let lines: Vec<String> = reader.lines().collect::<Result<_, _>>()?;
/// assert_eq!(lines, ["日本語", "テキスト"]);
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// Fatal mode reports where the input is malformed:
///
/// ```
/// use std::io::Read;
/// use textcodec::{io::DecodeReader, DecodeErrorMode, Decoder, DecoderOptions, Encoding, MalformedSequence};
///
/// let options = DecoderOptions { error_mode: DecodeErrorMode::Fatal, ..Default::default() };
/// let mut reader = DecodeReader::new(&b"ok \xFF"[..], Decoder::with_options(Encoding::Utf8, options));
/// let mut text = String::new();
/// let err = reader.read_to_string(&mut text).unwrap_err();
/// let malformed = err.get_ref().unwrap().downcast_ref::<MalformedSequence>().unwrap();
/// assert_eq!((text.as_str(), malformed.offset()), ("ok ", 3));
/// ```
#[derive(Debug)]
pub struct DecodeReader<R> {
    inner: R,
    core: DecodeCore,
}

impl<R: Read> DecodeReader<R> {
    /// Wraps `inner` with a 16 KiB input buffer.
    pub fn new(inner: R, decoder: Decoder) -> Self {
        Self::with_capacity(DEFAULT_CAPACITY, inner, decoder)
    }

    /// Wraps `inner` with an input buffer of `capacity` bytes (at least 1).
    pub fn with_capacity(capacity: usize, inner: R, decoder: Decoder) -> Self {
        DecodeReader {
            inner,
            core: DecodeCore::new(capacity, decoder),
        }
    }

    /// The decoder (e.g. for [`Decoder::replacements`]). At the end of the stream it is
    /// reset for a new one; [`DecodeReader::encoding`] keeps the encoding used.
    pub fn decoder(&self) -> &Decoder {
        self.core.decoder()
    }

    /// The encoding being decoded: the decoder's, or the one a byte order mark selected
    /// (known once the first bytes are read; kept after the end of the stream).
    pub fn encoding(&self) -> Encoding {
        self.core.encoding()
    }

    /// The inner reader.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The inner reader. Reading from it directly skips bytes this reader has not decoded.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// Unwraps the inner reader; input read from it but not yet decoded is lost.
    pub fn into_inner(self) -> R {
        self.inner
    }

    fn fill_input(inner: &mut R, core: &mut DecodeCore) -> io::Result<()> {
        core.fill_input_from(inner, usize::MAX)
    }
}

impl<R: Read> Read for DecodeReader<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        if let Some(n) = self.core.read_utf8_in_place(&mut self.inner, out)? {
            return Ok(n);
        }
        loop {
            match self.core.read_into(out)? {
                Step::Ready(n) => return Ok(n),
                Step::End => return Ok(0),
                Step::NeedInput => {
                    let most = self.core.next_fill_size();
                    self.core.fill_input_from(&mut self.inner, most)?;
                }
            }
        }
    }

    /// Decodes straight into `buf`. On an error, the text decoded before it stays appended.
    fn read_to_string(&mut self, buf: &mut String) -> io::Result<usize> {
        let inner = &mut self.inner;
        self.core
            .read_to_string(buf, |core| Self::fill_input(inner, core))
    }

    /// Decodes straight into `buf` when what it holds is UTF-8 (as when it is empty). On
    /// an error, the text decoded before it stays appended.
    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        let inner = &mut self.inner;
        read_to_end_as_text(&mut self.core, buf, |core, text| {
            core.read_to_string(text, |core| Self::fill_input(inner, core))
        })
    }
}

/// `Read::read_to_end` through `read_to_string` (the decoder's `String` path: no scratch
/// copy, no zero-filling) when `buf` holds UTF-8, as when it is empty; otherwise the text
/// is appended after it. Returns the bytes appended.
fn read_to_end_as_text<I: Input>(
    core: &mut DecodeCore<I>,
    buf: &mut Vec<u8>,
    mut read_to_string: impl FnMut(&mut DecodeCore<I>, &mut String) -> io::Result<usize>,
) -> io::Result<usize> {
    // Bytes of a character split by an earlier tiny read go first, as they are.
    let head = core.buffered_text();
    let mut head_len = 0;
    if core::str::from_utf8(head).is_err() {
        buf.extend_from_slice(head);
        head_len = head.len();
        core.consume_text(head_len);
    }
    let before = buf.len();
    let done = match String::from_utf8(core::mem::take(buf)) {
        Ok(mut text) => {
            let r = read_to_string(core, &mut text);
            *buf = text.into_bytes();
            r
        }
        Err(e) => {
            *buf = e.into_bytes();
            let mut text = String::new();
            let r = read_to_string(core, &mut text);
            buf.extend_from_slice(text.as_bytes());
            r
        }
    };
    done.map(|_| buf.len().saturating_sub(before).saturating_add(head_len))
}

impl<R: Read> BufRead for DecodeReader<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        loop {
            match self.core.fill_text()? {
                Step::Ready(_) | Step::End => break,
                Step::NeedInput => Self::fill_input(&mut self.inner, &mut self.core)?,
            }
        }
        Ok(self.core.buffered_text())
    }

    fn consume(&mut self, amt: usize) {
        self.core.consume_text(amt);
    }
}

/// [`DecodeReader`] over a [`BufRead`]: decodes the bytes where the inner reader buffers
/// them, without copying them into a buffer of its own first. Over an in-memory slice
/// (`&[u8]`, `io::Cursor`) that makes it as fast as the one-shot [`Decoder`] calls; over
/// `BufReader<File>` or a decompressor's `BufRead` it saves a copy of every byte. Otherwise
/// it behaves as `DecodeReader` does: reads of any size, `BufRead`, `read_to_string`
/// straight into the caller's `String`, fatal-mode [`io::ErrorKind::InvalidData`] errors
/// with the [`MalformedSequence`], the inner reader's errors returned as they are.
///
/// Memory: none for input; a text buffer (16 KiB) once `BufRead` or a read shorter than a
/// character is used.
///
/// ```
/// use std::io::Read;
/// use textcodec::{io::DecodeBufReader, Decoder, Encoding};
///
/// let euc_kr: &[u8] = b"\xc7\xd1\xb1\xb9\xbe\xee \xc5\xd8\xbd\xba\xc6\xae";
/// let mut reader = DecodeBufReader::new(euc_kr, Decoder::new(Encoding::EucKr));
/// let mut text = String::new();
/// reader.read_to_string(&mut text)?;
/// assert_eq!(text, "한국어 텍스트");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct DecodeBufReader<R> {
    core: DecodeCore<Borrowed<R>>,
}

impl<R: BufRead> DecodeBufReader<R> {
    /// Wraps `inner`.
    pub fn new(inner: R, decoder: Decoder) -> Self {
        DecodeBufReader {
            core: DecodeCore::with_input(Borrowed(inner), DEFAULT_CAPACITY, decoder),
        }
    }

    /// The decoder (e.g. for [`Decoder::replacements`]). At the end of the stream it is
    /// reset for a new one; [`DecodeBufReader::encoding`] keeps the encoding used.
    pub fn decoder(&self) -> &Decoder {
        self.core.decoder()
    }

    /// The encoding being decoded: the decoder's, or the one a byte order mark selected
    /// (known once the first bytes are read; kept after the end of the stream).
    pub fn encoding(&self) -> Encoding {
        self.core.encoding()
    }

    /// The inner reader.
    pub fn get_ref(&self) -> &R {
        &self.core.source.input.0
    }

    /// The inner reader. Reading from it directly skips bytes this reader has not decoded.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.core.source.input.0
    }

    /// Unwraps the inner reader. Bytes this reader has decoded are consumed from it;
    /// those of a character not yet complete are held by the decoder and lost.
    pub fn into_inner(self) -> R {
        self.core.source.input.0
    }
}

/// The inner `BufRead` is asked for more whenever its buffer is used up, so the core never
/// waits for a fill from outside; were it to, this reports an error rather than spin.
fn no_fill<I>(_: &mut DecodeCore<I>) -> io::Result<()> {
    Err(io::Error::other(
        "DecodeBufReader: input requested from outside",
    ))
}

impl<R: BufRead> Read for DecodeBufReader<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        match self.core.read_into(out)? {
            Step::Ready(n) => Ok(n),
            Step::End => Ok(0),
            Step::NeedInput => no_fill(&mut self.core).map(|()| 0),
        }
    }

    /// Decodes straight into `buf`. On an error, the text decoded before it stays appended.
    fn read_to_string(&mut self, buf: &mut String) -> io::Result<usize> {
        self.core.read_to_string(buf, no_fill)
    }

    /// Decodes straight into `buf` when what it holds is UTF-8 (as when it is empty). On
    /// an error, the text decoded before it stays appended.
    fn read_to_end(&mut self, buf: &mut Vec<u8>) -> io::Result<usize> {
        read_to_end_as_text(&mut self.core, buf, |core, text| {
            core.read_to_string(text, no_fill)
        })
    }
}

impl<R: BufRead> BufRead for DecodeBufReader<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if let Step::NeedInput = self.core.fill_text()? {
            no_fill(&mut self.core)?;
        }
        Ok(self.core.buffered_text())
    }

    fn consume(&mut self, amt: usize) {
        self.core.consume_text(amt);
    }
}
