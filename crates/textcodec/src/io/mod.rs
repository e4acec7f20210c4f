//! `std::io` adapters (feature `std`): decode a byte stream as you read it, encode text as
//! you write it, and transcode one encoding into another, with bounded memory.
//!
//! | adapter | reads / writes | traits |
//! | --- | --- | --- |
//! | [`DecodeReader`] | bytes in an encoding → UTF-8 | [`Read`](std::io::Read), [`BufRead`](std::io::BufRead) |
//! | [`DecodeBufReader`] | the same from a `BufRead`, decoded in the inner reader's buffer (no copy) | [`Read`](std::io::Read), [`BufRead`](std::io::BufRead) |
//! | [`EncodeWriter`] | UTF-8 (bytes or `str`) → bytes in an encoding | [`Write`](std::io::Write), [`fmt::Write`](core::fmt::Write) |
//! | [`TranscodeReader`] | bytes in one encoding → bytes in another | [`Read`](std::io::Read) |
//!
//! Each is a thin loop around the streaming [`Decoder`](crate::Decoder) and
//! [`Encoder`](crate::Encoder) (the Standard's *run* with an I/O queue,
//! #concept-encoding-run): input may be split anywhere, reads and writes of any size work,
//! and the output is byte for byte the one-shot conversion's. The buffering logic lives in
//! `decode::DecodeCore` and `encode::EncodeCore`, which the async adapters
//! (modules `tokio` and `futures`, behind their features) share.
//!
//! Errors are [`std::io::Error`]s of kind [`InvalidData`](std::io::ErrorKind::InvalidData)
//! whose inner error says what and where: a [`MalformedSequence`](crate::MalformedSequence)
//! (fatal decoding) or an [`EncodeError`] (fatal encoding, invalid UTF-8 written to an
//! [`EncodeWriter`]). Text converted before an error is always delivered first.

pub(crate) mod decode;
pub(crate) mod encode;
#[cfg(any(feature = "tokio", feature = "futures"))]
pub(crate) mod poll;
mod transcode;

pub use decode::{DecodeBufReader, DecodeReader};
pub use encode::{EncodeError, EncodeWriter};
pub use transcode::TranscodeReader;
