//! The only module allowed `unsafe` code.
//!
//! It offers safe primitives to the rest of the crate:
//! - [`sink`]: the decoders' output buffers. [`sink::Utf8Sink`] only ever writes whole UTF-8
//!   sequences, which lets `String` and `&mut str` outputs skip re-validation soundly.
//! - [`ascii`]: bulk ASCII scanning, copying and widening, the hot loops of every
//!   ASCII-compatible decoder. Each kernel has a portable scalar twin that also finishes the
//!   tails, and the tests check every kernel against a deliberately naive oracle.
//!
//! One dispatch point ([`ascii::kernel`]) picks the implementation; the environment variable
//! `TEXTCODEC_KERNEL=scalar` forces the portable one (std builds only).
#![allow(unsafe_code)]

pub(crate) mod ascii;
pub(crate) mod sink;

/// The longest valid UTF-8 prefix of `src`, as a `&str` (validation by `core::str`).
pub(crate) fn valid_utf8_prefix(src: &[u8]) -> &str {
    match core::str::from_utf8(src) {
        Ok(s) => s,
        Err(e) => {
            let valid = &src[..e.valid_up_to()];
            // SAFETY: `Utf8Error::valid_up_to` is the length of the prefix that
            // `from_utf8` has just verified to be valid UTF-8.
            unsafe { core::str::from_utf8_unchecked(valid) }
        }
    }
}
