//! The async adapters' loops, written once over a "fill the input" / "write the output"
//! callback: the `tokio` and `futures` modules differ only in their traits' shapes.
//!
//! Cancellation safety: every byte taken from the inner reader lives in the
//! [`DecodeCore`] and every byte accepted from the caller in the [`EncodeCore`] until it is
//! handed on, so a future dropped between polls loses nothing it reported.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use core::task::{ready, Poll};
use std::io;

use super::decode::{DecodeCore, Step};
use super::encode::EncodeCore;

/// `poll_read` over a non-empty `dst`: decoded bytes, 0 at the end of the stream.
pub(crate) fn poll_read(
    core: &mut DecodeCore,
    dst: &mut [u8],
    mut fill: impl FnMut(&mut DecodeCore) -> Poll<io::Result<()>>,
) -> Poll<io::Result<usize>> {
    loop {
        match core.read_into(dst)? {
            Step::Ready(n) => return Poll::Ready(Ok(n)),
            Step::End => return Poll::Ready(Ok(0)),
            Step::NeedInput => ready!(fill(core))?,
        }
    }
}

/// `poll_fill_buf`: makes the text buffer non-empty unless the stream is over.
pub(crate) fn poll_fill_text(
    core: &mut DecodeCore,
    mut fill: impl FnMut(&mut DecodeCore) -> Poll<io::Result<()>>,
) -> Poll<io::Result<()>> {
    loop {
        match core.fill_text()? {
            Step::Ready(_) | Step::End => return Poll::Ready(Ok(())),
            Step::NeedInput => ready!(fill(core))?,
        }
    }
}

/// `poll_write`: takes what it can of `buf` (all of it unless the inner writer is not
/// ready or fails, or `buf` holds an error further on); `Pending` only if nothing was taken.
pub(crate) fn poll_write(
    core: &mut EncodeCore,
    buf: &[u8],
    mut write_out: impl FnMut(&mut EncodeCore) -> Poll<io::Result<()>>,
) -> Poll<io::Result<usize>> {
    let mut taken = 0usize;
    while taken < buf.len() {
        match core.accept(buf.get(taken..).unwrap_or_default()) {
            Ok(0) => match write_out(core) {
                Poll::Ready(Ok(())) => {}
                Poll::Ready(Err(e)) if taken == 0 => return Poll::Ready(Err(e)),
                Poll::Pending if taken == 0 => return Poll::Pending,
                _ => return Poll::Ready(Ok(taken)),
            },
            Ok(n) => taken = taken.saturating_add(n),
            Err(_) if taken > 0 => break,
            Err(e) => return Poll::Ready(Err(e)),
        }
    }
    Poll::Ready(Ok(taken))
}

/// Writes everything buffered through `write_some` (the inner writer's `poll_write`).
pub(crate) fn poll_write_out(
    core: &mut EncodeCore,
    mut write_some: impl FnMut(&[u8]) -> Poll<io::Result<usize>>,
) -> Poll<io::Result<()>> {
    core.check_usable()?;
    while !core.pending_output().is_empty() {
        let n = ready!(write_some(core.pending_output()))?;
        core.output_written(n)?;
    }
    Poll::Ready(Ok(()))
}

/// The end of the stream: the encoder's final bytes, all written out (then the caller
/// flushes and shuts the inner writer down).
pub(crate) fn poll_end(
    core: &mut EncodeCore,
    mut write_out: impl FnMut(&mut EncodeCore) -> Poll<io::Result<()>>,
) -> Poll<io::Result<()>> {
    while !core.end(false)? {
        ready!(write_out(core))?;
    }
    write_out(core)
}

/// The async adapter types, with what does not depend on the I/O traits: the fields (the
/// inner reader or writer, pinned, and the core), the constructors and the accessors.
/// `tokio` and `futures` each invoke it once with their traits and documentation, then
/// implement the traits.
macro_rules! adapter_types {
    (
        read: $read:path,
        write: $write:path,
        end: $end:literal,
        $(#[$reader_doc:meta])*
        reader;
        $(#[$writer_doc:meta])*
        writer;
    ) => {
        pin_project_lite::pin_project! {
            $(#[$reader_doc])*
            #[derive(Debug)]
            pub struct DecodeReader<R> {
                #[pin]
                inner: R,
                core: $crate::io::decode::DecodeCore,
            }
        }

        impl<R: $read> DecodeReader<R> {
            /// Wraps `inner` with a 16 KiB input buffer.
            pub fn new(inner: R, decoder: $crate::Decoder) -> Self {
                Self::with_capacity($crate::io::decode::DEFAULT_CAPACITY, inner, decoder)
            }

            /// Wraps `inner` with an input buffer of `capacity` bytes (at least 1).
            pub fn with_capacity(capacity: usize, inner: R, decoder: $crate::Decoder) -> Self {
                DecodeReader {
                    inner,
                    core: $crate::io::decode::DecodeCore::new(capacity, decoder),
                }
            }

            /// The decoder (reset for a new stream at the end of this one).
            pub fn decoder(&self) -> &$crate::Decoder {
                self.core.decoder()
            }

            /// The encoding being decoded: the decoder's, or the one a byte order mark
            /// selected.
            pub fn encoding(&self) -> $crate::Encoding {
                self.core.encoding()
            }

            /// The inner reader.
            pub fn get_ref(&self) -> &R {
                &self.inner
            }

            /// The inner reader; reading from it directly skips bytes not yet decoded.
            pub fn get_mut(&mut self) -> &mut R {
                &mut self.inner
            }

            /// Unwraps the inner reader; input read from it but not yet decoded is lost.
            pub fn into_inner(self) -> R {
                self.inner
            }
        }

        pin_project_lite::pin_project! {
            $(#[$writer_doc])*
            #[derive(Debug)]
            pub struct EncodeWriter<W> {
                #[pin]
                inner: W,
                core: $crate::io::encode::EncodeCore,
            }
        }

        impl<W: $write> EncodeWriter<W> {
            /// Wraps `inner` with a 64 KiB output buffer.
            pub fn new(inner: W, encoder: $crate::Encoder) -> Self {
                Self::with_capacity($crate::io::encode::ENCODE_CAPACITY, inner, encoder)
            }

            /// Wraps `inner` with an output buffer of `capacity` bytes (at least 64).
            pub fn with_capacity(capacity: usize, inner: W, encoder: $crate::Encoder) -> Self {
                EncodeWriter {
                    inner,
                    core: $crate::io::encode::EncodeCore::new(capacity, encoder),
                }
            }

            /// The encoder.
            pub fn encoder(&self) -> &$crate::Encoder {
                self.core.encoder()
            }

            /// The inner writer.
            pub fn get_ref(&self) -> &W {
                &self.inner
            }

            /// The inner writer; writing to it directly puts bytes before those still
            /// buffered.
            pub fn get_mut(&mut self) -> &mut W {
                &mut self.inner
            }

            #[doc = concat!("Unwraps the inner writer; buffered bytes are lost (", $end, " first).")]
            pub fn into_inner(self) -> W {
                self.inner
            }
        }
    };
}
pub(crate) use adapter_types;
