//! The only module allowed `unsafe` code.
//!
//! It offers safe primitives to the rest of the crate:
//! - [`sink`]: the decoders' output buffers. [`sink::Utf8Sink`] only ever writes whole UTF-8
//!   sequences, which lets `String` and `&mut str` outputs skip re-validation soundly.
//! - [`ascii`]: bulk ASCII scanning, copying, widening and narrowing, the hot loops of every
//!   ASCII-compatible decoder and encoder.
//! - [`byte_map`]: single-byte table lookups of 32 bytes at once (AVX-512).
//! - [`utf8`]: UTF-8 validation (the longest valid prefix) and conversion of valid UTF-8
//!   to UTF-16.
//! - [`utf16`]: UTF-16 (units, or bytes in either order) to UTF-8 and to code units,
//!   whole characters only, stopping at lone surrogates.
//!
//! Each vector kernel does the bulk and returns how far it got; its portable scalar twin
//! finishes the tail. The tests check every kernel the machine supports against
//! deliberately naive oracles. One dispatch point ([`dispatch::kernel`]) picks the kernel
//! family on first use; `TEXTCODEC_KERNEL=scalar|sse2|avx2|avx512` forces one (std builds).
#![allow(unsafe_code)]
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

pub(crate) mod ascii;
pub(crate) mod byte_map;
pub(crate) mod dispatch;
pub(crate) mod double_byte;
pub(crate) mod sink;
pub(crate) mod utf16;
pub(crate) mod utf8;

/// The longest valid UTF-8 prefix of `src`, as a `&str`.
// Bounds: `valid_prefix_len` returns the length of a prefix of `src`, so `n <= src.len()`.
#[allow(clippy::indexing_slicing)]
pub(crate) fn valid_utf8_prefix(src: &[u8]) -> &str {
    let n = utf8::valid_prefix_len(src);
    // SAFETY: `valid_prefix_len` returns the length of a prefix that is valid UTF-8
    // (every kernel is tested against a naive transcription of the Standard's decoder,
    // whose notion of validity is `str`'s).
    unsafe { core::str::from_utf8_unchecked(&src[..n]) }
}

/// `src` as a `&str` if it is all valid UTF-8, else the length of its longest valid prefix
/// (`core::str::from_utf8`, with the vector validators).
pub(crate) fn utf8_str(src: &[u8]) -> Result<&str, usize> {
    let valid = valid_utf8_prefix(src);
    if valid.len() == src.len() {
        Ok(valid)
    } else {
        Err(valid.len())
    }
}
