//! The AVX-512 level's UTF-8 kernels, one file per primitive.
//!
//! `validate.rs`:
//! The nibble-lookup validator (`super::lookup`) with 64-byte vectors; the table lookups are `vpermb` (its index is
//! the low six bits, and the 16-entry tables are repeated four times), which needs no
//! masking of the nibbles.
//!
//! `transcode.rs`:
//! UTF-8 → UTF-16 for input already known to be valid, in 32-byte windows with AVX-512
//! (since `fused.rs`, only for the last stretch of fewer than 64 bytes it leaves).
//!
//! Lane j of a window gets the code point of the character whose last byte is j: its
//! payload bits combined with those of the one or two bytes before it (loaded from j-1
//! and j-2, so characters that straddle windows need no carry). A 4-byte character gives
//! its high surrogate at its third byte and its low surrogate at its last. `vpcompressw`
//! keeps the lanes that end a character (the next byte is not a continuation) and the
//! high-surrogate lanes. Windows advance by a fixed 32 bytes, so the only loop-carried
//! work is the output count; when a 4-byte character's third byte is the window's last,
//! the next window starts at that character instead.
//!
//! `fused.rs`:
//! UTF-8 → UTF-16 in one pass with AVX-512: each 64-byte block is validated (the
//! nibble-lookup checks of `validate.rs`, unless the input is a `str`) and
//! converted while it is in registers.
//!
//! * All-ASCII blocks are widened (two stores). (Starting the next block where the output
//!   is aligned to a cache line made mixed text 2× slower.)
//! * Blocks of 1- to 3-byte characters: lane j computes the two bytes of the UTF-16 unit
//!   of the character whose last byte is j, from bytes j, j - 1, j - 2 (loaded at
//!   offsets -1 and -2, so characters that straddle blocks need no carry): the low byte
//!   is ASCII as is, else the last byte's six payload bits and two of the byte before;
//!   the high byte is four bits of the byte before and, when the byte two back is a
//!   3-byte lead, its four payload bits (each piece is one `vpermb` from a 64-entry
//!   table indexed by the byte it comes from, zero-masked). `vpcompressb` keeps the
//!   lanes that end a character (the next byte is not a continuation) in both, and
//!   `vpermt2b` interleaves them into 64 units (two stores).
//! * Blocks that end a 4-byte character (rare) go to the scalar twin.
//! * Whether a block ends inside a character (then the next must not be ASCII, and its
//!   last lane does not end one) comes from its last four bytes in a general register.
//!
//! Blocks advance by 64 bytes, so a character straddling a block's end is converted by the
//! next block, which sees all of its bytes through the offset loads.

// The family's shared pieces, for the three files below.
use super::{boundary_before, finish, lookup, scalar};

mod fused;
mod transcode;
mod validate;

pub(crate) use fused::{valid_to_utf16, validate_to_utf16};
pub(crate) use transcode::to_utf16;
pub(crate) use validate::valid_prefix_len;
