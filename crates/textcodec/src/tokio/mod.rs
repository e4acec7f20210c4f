//! Feature `tokio`: decoding and encoding adapters over tokio's async I/O traits, and a
//! [`tokio_util::codec`] codec ([`TextCodec`]).
//!
//! | adapter | reads / writes | traits |
//! | --- | --- | --- |
//! | [`DecodeReader`] | bytes in an encoding → UTF-8 | `AsyncRead`, `AsyncBufRead` |
//! | [`EncodeWriter`] | UTF-8 bytes → bytes in an encoding | `AsyncWrite` (`shutdown` ends the stream) |
//! | [`TextCodec`] | framed: byte chunks ↔ `String` chunks | `codec::Decoder`, `codec::Encoder` |
//!
//! They behave as their [`crate::io`] twins (reads and writes of any size, errors after the
//! text before them, `InvalidData` with a [`MalformedSequence`](crate::MalformedSequence) or
//! [`EncodeError`](crate::io::EncodeError) inside) and are **cancellation-safe**: the state
//! lives in the adapter, not in the future, so dropping a `read`/`write` future between
//! polls loses nothing that was reported read or written.
//!
//! An HTTP-body-like stream of Shift_JIS chunks, decoded as it arrives:
//!
//! ```
//! use tokio::io::AsyncReadExt;
//! use textcodec::{tokio::DecodeReader, Decoder, Encoding};
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! // A body arriving in pieces that split characters ("日本語のテキスト" in Shift_JIS).
//! let (mut tx, rx) = tokio::io::duplex(4);
//! tokio::spawn(async move {
//!     use tokio::io::AsyncWriteExt;
//!     for chunk in [&b"\x93\xfa\x96"[..], b"\x7b\x8c\xea\x82", b"\xcc\x83\x65\x83\x4c\x83\x58\x83\x67"] {
//!         tx.write_all(chunk).await.unwrap();
//!     }
//! });
//! let mut body = DecodeReader::new(rx, Decoder::new(Encoding::ShiftJis));
//! let mut text = String::new();
//! body.read_to_string(&mut text).await?;
//! assert_eq!(text, "日本語のテキスト");
//! # Ok::<(), std::io::Error>(())
//! # }).unwrap();
//! ```
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

mod codec;

use core::pin::Pin;
use core::task::{Context, Poll};
use std::io;

use ::tokio::io::{AsyncBufRead, AsyncRead, AsyncWrite, ReadBuf};

use crate::io::decode::{DecodeCore, Step};
use crate::io::encode::EncodeCore;
use crate::io::poll;

pub use codec::TextCodec;

poll::adapter_types! {
    read: AsyncRead,
    write: AsyncWrite,
    end: "shut down",
    /// Reads bytes in some encoding from an [`AsyncRead`] and yields them as UTF-8
    /// ([`AsyncRead`] and [`AsyncBufRead`]); [`crate::io::DecodeReader`]'s async twin.
    /// Cancellation-safe (see the [module](self) documentation).
    reader;
    /// Writes text (UTF-8 bytes) as bytes in some encoding to an [`AsyncWrite`];
    /// [`crate::io::EncodeWriter`]'s async twin. Cancellation-safe.
    ///
    /// `poll_flush` writes the buffered bytes but does not end the stream;
    /// **`poll_shutdown` ends it** (the encoder's final bytes: ISO-2022-JP returns to
    /// ASCII), writes everything and shuts the inner writer down. It reports a text that
    /// ends inside a UTF-8 sequence once (those bytes are dropped). Dropping the writer
    /// without `shutdown` loses the buffered bytes and the end state: nothing async can
    /// run in `drop`.
    ///
    /// ```
    /// use tokio::io::AsyncWriteExt;
    /// use textcodec::{tokio::EncodeWriter, EncodeErrorMode, Encoder, Encoding};
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let encoder = Encoder::new(Encoding::Iso2022Jp, EncodeErrorMode::Html).unwrap();
    /// let mut writer = EncodeWriter::new(Vec::new(), encoder);
    /// writer.write_all("日本 ☃".as_bytes()).await?;
    /// writer.shutdown().await?;
    /// assert_eq!(writer.get_ref(), b"\x1b$BF|K\\\x1b(B &#9731;");
    /// # Ok::<(), std::io::Error>(())
    /// # }).unwrap();
    /// ```
    writer;
}

impl<R: AsyncRead + Unpin> DecodeReader<R> {
    /// Reads the rest of the stream and appends its text to `buf`, decoding straight into
    /// the `String` ([`Decoder::decode_to_string`](crate::Decoder::decode_to_string)); returns the bytes appended. Being
    /// inherent, this is what `reader.read_to_string(&mut s).await` calls, rather than the
    /// extension trait's generic method (`tokio::io::AsyncReadExt::read_to_string`), which decodes through
    /// `poll_read` into zero-filled spare capacity and then checks all the text again with
    /// `str::from_utf8` (0.05–0.5× of this). As with std's `read_to_string`, the text
    /// before an error stays appended. Dropping the future loses nothing: text decoded so
    /// far is in `buf`, input not yet decoded in the reader.
    pub async fn read_to_string(&mut self, buf: &mut std::string::String) -> io::Result<usize> {
        let before = buf.len();
        self.core.take_buffered_text(buf)?;
        loop {
            let (inner, core) = (&mut self.inner, &mut self.core);
            let filled = if core.in_place_ready() {
                // UTF-8 the decoder would pass through: read straight into `buf`'s spare
                // capacity and validated there, without the input buffer's copy.
                core::future::poll_fn(|cx| poll_read_in_place(Pin::new(&mut *inner), core, buf, cx))
                    .await
            } else {
                if let Step::End = core.append_to_string(buf)? {
                    return Ok(buf.len().saturating_sub(before));
                }
                if core.in_place_ready() {
                    continue;
                }
                let most = core.next_fill_size();
                core::future::poll_fn(|cx| poll_fill(Pin::new(&mut *inner), core, most, cx)).await
            };
            match filled {
                // As `Read::read_to_end` promises: an interrupted read is retried.
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                other => other?,
            }
        }
    }
}

/// The error for an inner reader that replaced the `ReadBuf` it was handed: what it
/// reports filled is not in the memory offered, so it is not used (tokio's own `read_buf`
/// asserts the same).
fn replaced_read_buf() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        "the inner reader replaced the ReadBuf it was given",
    )
}

/// Fills the core's empty input buffer (at most `most` bytes of it) from `inner`.
fn poll_fill<R: AsyncRead>(
    inner: Pin<&mut R>,
    core: &mut DecodeCore,
    most: usize,
    cx: &mut Context<'_>,
) -> Poll<io::Result<()>> {
    let space = core.input_space();
    let offered = space.len().min(most);
    let space = space.get_mut(..offered).unwrap_or_default();
    let start = space.as_ptr();
    let mut buf = ReadBuf::new(space);
    let poll = inner.poll_read(cx, &mut buf);
    if buf.filled().as_ptr() != start {
        return Poll::Ready(Err(replaced_read_buf()));
    }
    let n = buf.filled().len();
    match poll {
        // A reader that filled bytes and still reported an error or `Pending`: the bytes
        // are kept, as on the in-place path (the error, if it persists, comes on the next
        // read).
        _ if n > 0 => Poll::Ready(core.input_filled(n)),
        Poll::Pending => Poll::Pending,
        Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
        Poll::Ready(Ok(())) => Poll::Ready(core.input_filled(0)),
    }
}

/// One read of `inner` straight into `text`'s spare capacity ([`DecodeCore::in_place_ready`]
/// must hold): the valid UTF-8 is appended, the rest goes to the core's input buffer for
/// the decoder, a read of 0 bytes ends the stream.
fn poll_read_in_place<R: AsyncRead>(
    inner: Pin<&mut R>,
    core: &mut DecodeCore,
    text: &mut std::string::String,
    cx: &mut Context<'_>,
) -> Poll<io::Result<()>> {
    let most = core.in_place_limit();
    let read = crate::sink::read_valid_utf8(
        text,
        most,
        |buf| inner.poll_read(cx, buf),
        |rest| core.stash_rest(rest),
    );
    let Ok((poll, n, valid)) = read else {
        return Poll::Ready(Err(replaced_read_buf()));
    };
    let eof = match poll {
        // Nothing read: not ready yet, an error, or the end of the stream.
        Poll::Pending if n == 0 => return Poll::Pending,
        Poll::Ready(Err(e)) if n == 0 => return Poll::Ready(Err(e)),
        Poll::Ready(Ok(())) => n == 0,
        // A reader that filled bytes and still reported an error or `Pending`: the bytes
        // are kept (the error, if it persists, comes on the next read).
        _ => false,
    };
    Poll::Ready(core.in_place_done(valid, n.saturating_sub(valid), eof))
}

impl<R: AsyncRead> AsyncRead for DecodeReader<R> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if buf.remaining() == 0 {
            return Poll::Ready(Ok(()));
        }
        let this = self.project();
        let mut inner = this.inner;
        // Initialise (zero) only what one call can write, not all the caller's spare
        // capacity: `read_to_end` offers megabytes of uninitialised space per call.
        let want = buf.remaining().min(this.core.max_read());
        let n = core::task::ready!(poll::poll_read(
            this.core,
            buf.initialize_unfilled_to(want),
            |core| poll_fill(inner.as_mut(), core, usize::MAX, cx),
        ))?;
        buf.advance(n);
        Poll::Ready(Ok(()))
    }
}

impl<R: AsyncRead> AsyncBufRead for DecodeReader<R> {
    fn poll_fill_buf(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        let this = self.project();
        let mut inner = this.inner;
        let core = this.core;
        core::task::ready!(poll::poll_fill_text(core, |core| poll_fill(
            inner.as_mut(),
            core,
            usize::MAX,
            cx
        )))?;
        Poll::Ready(Ok(core.buffered_text()))
    }

    fn consume(self: Pin<&mut Self>, amt: usize) {
        self.project().core.consume_text(amt);
    }
}

fn poll_write_out<W: AsyncWrite>(
    mut inner: Pin<&mut W>,
    core: &mut EncodeCore,
    cx: &mut Context<'_>,
) -> Poll<io::Result<()>> {
    poll::poll_write_out(core, |bytes| inner.as_mut().poll_write(cx, bytes))
}

impl<W: AsyncWrite> AsyncWrite for EncodeWriter<W> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.project();
        let mut inner = this.inner;
        poll::poll_write(this.core, buf, |core| {
            poll_write_out(inner.as_mut(), core, cx)
        })
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.project();
        let mut inner = this.inner;
        core::task::ready!(poll_write_out(inner.as_mut(), this.core, cx))?;
        inner.poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.project();
        let mut inner = this.inner;
        core::task::ready!(poll::poll_end(this.core, |core| poll_write_out(
            inner.as_mut(),
            core,
            cx
        )))?;
        // The inner writer's shutdown flushes it (as `tokio::io::BufWriter` relies on): a
        // separate flush first would be one more call to repeat after every `Pending`.
        inner.poll_shutdown(cx)
    }
}
