//! Feature `futures`: the decoding and encoding adapters over the `futures-io` traits
//! (`AsyncRead`, `AsyncBufRead`, `AsyncWrite`), for async-std, smol and other runtimes that
//! use them. They are the `tokio` module's adapters with those traits' shapes: the same
//! buffering core, the same errors, cancellation-safe; `poll_close` ends the stream (the
//! encoder's final bytes), then closes the inner writer.
//!
//! (Byte-level adapters rather than a `Stream`/`Sink` of text chunks: they compose with
//! every futures-io reader and writer, and a `Stream` of lines or chunks is one
//! `futures::io::AsyncBufReadExt` call away.)
//!
//! ```
//! use futures::io::{AsyncBufReadExt, Cursor};
//! use futures::stream::TryStreamExt;
//! use textcodec::{futures::DecodeReader, Decoder, Encoding};
//!
//! // Any futures-io reader: a socket, a file, a decompressor.
//! let source = Cursor::new(b"\x93\xfa\x96\x7b\n\x8c\xea\n".to_vec()); // "日本\n語\n" in Shift_JIS
//! let reader = DecodeReader::new(source, Decoder::new(Encoding::ShiftJis));
//! let lines: Vec<String> = futures::executor::block_on(reader.lines().try_collect())?;
//! assert_eq!(lines, ["日本", "語"]);
//! # Ok::<(), std::io::Error>(())
//! ```
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use core::pin::Pin;
use core::task::{ready, Context, Poll};
use std::io;

use futures_io::{AsyncBufRead, AsyncRead, AsyncWrite};

use crate::io::decode::{DecodeCore, Step};
use crate::io::encode::EncodeCore;
use crate::io::poll;

poll::adapter_types! {
    read: AsyncRead,
    write: AsyncWrite,
    end: "close",
    /// Reads bytes in some encoding from a futures-io [`AsyncRead`] and yields them as
    /// UTF-8 ([`AsyncRead`], [`AsyncBufRead`]). See [`crate::io::DecodeReader`].
    reader;
    /// Writes text (UTF-8 bytes) as bytes in some encoding to a futures-io
    /// [`AsyncWrite`]. `poll_flush` does not end the stream; `poll_close` does (the
    /// encoder's final bytes), then closes the inner writer. Dropping without closing
    /// loses the buffered bytes and the end state. See [`crate::io::EncodeWriter`].
    writer;
}

impl<R: AsyncRead + Unpin> DecodeReader<R> {
    /// Reads the rest of the stream and appends its text to `buf`, decoding straight into
    /// the `String` ([`Decoder::decode_to_string`](crate::Decoder::decode_to_string)); returns the bytes appended. Being
    /// inherent, this is what `reader.read_to_string(&mut s).await` calls, rather than the
    /// extension trait's generic method (`futures::io::AsyncReadExt::read_to_string`),
    /// which decodes through `poll_read` and then checks all the text again with
    /// `str::from_utf8`. As with std's `read_to_string`, the text before an error stays
    /// appended. Dropping the future loses nothing: text decoded so far is in `buf`, input
    /// not yet decoded in the reader.
    pub async fn read_to_string(&mut self, buf: &mut std::string::String) -> io::Result<usize> {
        let before = buf.len();
        self.core.take_buffered_text(buf)?;
        loop {
            if let Step::End = self.core.append_to_string(buf)? {
                return Ok(buf.len().saturating_sub(before));
            }
            let (inner, core) = (&mut self.inner, &mut self.core);
            match core::future::poll_fn(|cx| poll_fill(Pin::new(&mut *inner), core, cx)).await {
                // As `Read::read_to_end` promises: an interrupted read is retried.
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                other => other?,
            }
        }
    }
}

/// Fills the core's empty input buffer from `inner`.
fn poll_fill<R: AsyncRead>(
    inner: Pin<&mut R>,
    core: &mut DecodeCore,
    cx: &mut Context<'_>,
) -> Poll<io::Result<()>> {
    let n = ready!(inner.poll_read(cx, core.input_space()))?;
    Poll::Ready(core.input_filled(n))
}

impl<R: AsyncRead> AsyncRead for DecodeReader<R> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut [u8],
    ) -> Poll<io::Result<usize>> {
        if buf.is_empty() {
            return Poll::Ready(Ok(0));
        }
        let this = self.project();
        let mut inner = this.inner;
        poll::poll_read(this.core, buf, |core| poll_fill(inner.as_mut(), core, cx))
    }
}

impl<R: AsyncRead> AsyncBufRead for DecodeReader<R> {
    fn poll_fill_buf(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<&[u8]>> {
        let this = self.project();
        let mut inner = this.inner;
        let core = this.core;
        ready!(poll::poll_fill_text(core, |core| poll_fill(
            inner.as_mut(),
            core,
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
        ready!(poll_write_out(inner.as_mut(), this.core, cx))?;
        inner.poll_flush(cx)
    }

    fn poll_close(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.project();
        let mut inner = this.inner;
        ready!(poll::poll_end(this.core, |core| poll_write_out(
            inner.as_mut(),
            core,
            cx
        )))?;
        // The inner writer's close flushes it (as `futures::io::BufWriter` relies on): a
        // separate flush first would be one more call to repeat after every `Pending`.
        inner.poll_close(cx)
    }
}
