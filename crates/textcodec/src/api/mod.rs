//! <https://encoding.spec.whatwg.org/#api>: the JavaScript API's model in Rust, as an engine
//! implementing the Web IDL interfaces would call it. JavaScript strings are UTF-16, so each
//! interface takes and returns `u16` slices as well as Rust strings.
//!
//! - [`TextDecoder`] (#interface-textdecoder), with *do not flush*, *BOM seen* and the
//!   I/O queue kept across `stream` calls exactly as the Standard describes;
//! - [`TextEncoder`] (#interface-textencoder), including `encodeInto`;
//! - [`TextDecoderStream`] and [`TextEncoderStream`] (#interface-textdecoderstream,
//!   #interface-textencoderstream) as push-based transformers: chunk in, chunk out, flush.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

mod streams;
mod text_decoder;
mod text_encoder;

pub use streams::{TextDecoderStream, TextEncoderStream};
pub use text_decoder::{TextDecoder, TextDecoderOptions};
pub use text_encoder::{EncodeIntoResult, TextEncoder};

/// The exceptions the API can throw, as Web IDL names them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ApiError {
    /// `RangeError`: the label is not a label, or is a label of replacement.
    RangeError,
    /// `TypeError`: fatal error mode and the decoder returned *error*.
    TypeError,
}

impl core::fmt::Display for ApiError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ApiError::RangeError => f.write_str("RangeError: unsupported encoding label"),
            ApiError::TypeError => f.write_str("TypeError: the encoded data was not valid"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ApiError {}
