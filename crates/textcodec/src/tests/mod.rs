//! In-crate tests that need the private tables (exhaustive index checks, naive reference
//! decoders). Integration tests live in `crates/textcodec/tests/`.
//!
//! - [`reference`]: naive decoders and encoders written straight from the Standard, with a
//!   real I/O queue; never used in production.
//! - `exhaustive`: every pointer of every index through the real decoders, every code point
//!   through the real encoders, against the Standard's pointer rules.
//! - `sweep`: every byte and every two-byte sequence (and structured longer ones) of every
//!   decoder against the reference, in both error modes, to UTF-8 and UTF-16, with ASCII
//!   padding 0..=64 bytes.
//! - `props`: proptest properties over all 40 encodings (chunking, output space, error
//!   modes, round trips, buffer bounds) against the reference.
//! - `harness`: shared drivers for the real `Decoder` and `Encoder`.

#![cfg(feature = "std")]

mod exhaustive;
mod harness;
mod props;
pub(crate) mod reference;
mod sweep;
