//! Conversions and checks between UTF-8, UTF-16 and Latin-1 in memory, on slices: the
//! bulk kernels of the decoders and encoders, public.
//!
//! Terms are the Standard's and Infra's: a **code point** is U+0000–U+10FFFF, a **scalar
//! value** a code point that is not a surrogate; **well-formed** UTF-16 has no lone
//! (unpaired) surrogate; **Latin-1** here means bytes read as U+0000–U+00FF (ISO-8859-1
//! literally, as JavaScript's one-byte strings and Node's `latin1` do), *not* the
//! Standard's `windows-1252`, which its labels `latin1` and `iso-8859-1` name.
//!
//! # Three ways to meet bad input
//! - **Valid input** (`&str`): the fast path, nothing to check.
//! - **Lossy** (`*_lossy`): errors become U+FFFD REPLACEMENT CHARACTER exactly as the
//!   Standard's [UTF-8 decoder](https://encoding.spec.whatwg.org/#utf-8-decoder) does
//!   (one U+FFFD per maximal subpart of an ill-formed sequence, the output of
//!   [`crate::utf8_decode_without_bom`]) and as WebIDL's
//!   [USVString conversion](https://webidl.spec.whatwg.org/#idl-USVString) does for
//!   UTF-16 (one U+FFFD per lone surrogate).
//! - **Checked** (`*_checked`, `*_valid_up_to`): the offset of the first error.
//!
//! # Output buffers
//! Every conversion writes into a caller's buffer and never panics, whatever the
//! lengths. Lossy and valid-input conversions return `(read, written)`: they convert
//! whole characters as far as the input goes and the output has room, so `read <
//! src.len()` means the output was full, and the rest converts by calling again with
//! `&src[read..]`. Checked conversions return `Ok(written)` when the whole input was
//! converted, else [`ConvertError`]. An output of the length given by the function's
//! `*_max_len` helper (the worst case, derived in its docs) always holds the whole
//! conversion; the exact length comes from the length functions below. What `dst`
//! holds past `written` is unspecified: the vector loops may store ahead and leave
//! values there (never past the end of `dst`).
//!
//! # Kernels
//! Every function runs at the kernel level chosen once per process (see
//! [`crate::kernel_info`]; `TEXTCODEC_KERNEL` caps it), in `no_std` too. Only the
//! functions that return a `Vec` or `String` allocate.
//!
//! ```
//! use textcodec::mem;
//! // UTF-8 → UTF-16 into a buffer sized by the bound, then cut to what was written.
//! let src = "naïve café";
//! let mut units = vec![0u16; mem::utf16_max_len_from_utf8(src.len())];
//! let (read, written) = mem::str_to_utf16(src, &mut units);
//! assert_eq!((read, &units[..written]), (src.len(), &src.encode_utf16().collect::<Vec<_>>()[..]));
//! ```
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use crate::simd::{ascii, scan, slices, utf8};
use alloc::string::String;
use alloc::vec::Vec;

/// How a checked conversion stopped before the end of its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConvertError {
    /// The input is not what the function converts from `valid_up_to` on: ill-formed
    /// UTF-8 or UTF-16, or (into Latin-1) a character above U+00FF. `src[..valid_up_to]`
    /// was converted into the output's first `written` elements.
    Invalid {
        /// Offset of the first error in the input (bytes or units).
        valid_up_to: usize,
        /// Output written for `src[..valid_up_to]`.
        written: usize,
    },
    /// The output had no room for the next character: `src[..read]` was converted into
    /// the output's first `written` elements, and `src[read..]` is left.
    OutputFull {
        /// Input converted.
        read: usize,
        /// Output written.
        written: usize,
    },
}

impl core::fmt::Display for ConvertError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ConvertError::Invalid { valid_up_to, .. } => {
                write!(f, "invalid input at offset {valid_up_to}")
            }
            ConvertError::OutputFull { read, .. } => {
                write!(f, "output full after {read} input elements")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ConvertError {}

// ---------------------------------------------------------------------------------------
// Bounds
// ---------------------------------------------------------------------------------------

/// The most UTF-16 units that `utf8_len` bytes of UTF-8 convert to, valid or lossy:
/// `utf8_len`. A character of n bytes gives one unit, or two for n = 4; each U+FFFD
/// replaces at least one byte.
pub const fn utf16_max_len_from_utf8(utf8_len: usize) -> usize {
    utf8_len
}

/// The most UTF-8 bytes that `utf16_len` units of UTF-16 convert to, well-formed or
/// lossy: `3 * utf16_len` (saturating). A unit below U+0800 gives at most two bytes,
/// any other unit three, a surrogate pair four for its two units, a lone surrogate's
/// U+FFFD three.
pub const fn utf8_max_len_from_utf16(utf16_len: usize) -> usize {
    utf16_len.saturating_mul(3)
}

/// The most UTF-8 bytes that `latin1_len` bytes of Latin-1 convert to: `2 *
/// latin1_len` (saturating; U+0080–U+00FF take two bytes).
pub const fn utf8_max_len_from_latin1(latin1_len: usize) -> usize {
    latin1_len.saturating_mul(2)
}

// ---------------------------------------------------------------------------------------
// UTF-8 → UTF-16
// ---------------------------------------------------------------------------------------

/// Converts `src` to UTF-16, whole characters as far as `dst` has room; returns (bytes
/// read, units written). The fast path: `&str` needs no check. `dst` of
/// [`utf16_max_len_from_utf8`]`(src.len())` units holds it all.
///
/// ```
/// let mut dst = [0u16; 4];
/// assert_eq!(textcodec::mem::str_to_utf16("a😀b", &mut dst), (6, 4));
/// assert_eq!(dst, [0x61, 0xD83D, 0xDE00, 0x62]);
/// // Too little room: whole characters only; go on from `read`.
/// assert_eq!(textcodec::mem::str_to_utf16("a😀b", &mut dst[..2]), (1, 1));
/// ```
pub fn str_to_utf16(src: &str, dst: &mut [u16]) -> (usize, usize) {
    slices::str_to_utf16(src, dst)
}

/// The Standard's UTF-8 decoder (#utf-8-decoder, error mode replacement) into UTF-16:
/// each maximal subpart of an ill-formed sequence becomes one U+FFFD, and so does an
/// incomplete sequence at the end of `src`. Whole characters as far as `dst` has room;
/// returns (bytes read, units written); calling again with `&src[read..]` goes on
/// exactly (the decoder is back in its first state after each character or error). `dst`
/// of [`utf16_max_len_from_utf8`]`(src.len())` units holds it all.
///
/// ```
/// let mut dst = [0u16; 8];
/// // F0 9F 98 is the start of a four-byte sequence: one U+FFFD for the three.
/// let (read, written) = textcodec::mem::utf8_to_utf16_lossy(b"a\xF0\x9F\x98b\xFF", &mut dst);
/// assert_eq!((read, &dst[..written]), (6, &[0x61, 0xFFFD, 0x62, 0xFFFD][..]));
/// ```
// Bounds: `read` and `written` are sums of what the conversion reports and of an error's
// length (a prefix of `src[read..]`) and one unit (checked to fit).
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub fn utf8_to_utf16_lossy(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    loop {
        let (r, w) = slices::utf8_to_utf16_valid_prefix(&src[read..], &mut dst[written..]);
        read += r;
        written += w;
        let Some(error) = utf8_error_len(&src[read..]) else {
            return (read, written);
        };
        let Some(slot) = dst.get_mut(written) else {
            return (read, written);
        };
        *slot = 0xFFFD;
        read += error;
        written += 1;
    }
}

/// Converts `src`, which must be valid UTF-8, to UTF-16: `Ok(units written)`, or where
/// it stopped (see [`ConvertError`]).
///
/// ```
/// use textcodec::mem::{utf8_to_utf16_checked, ConvertError};
/// let mut dst = [0u16; 8];
/// assert_eq!(utf8_to_utf16_checked("é".as_bytes(), &mut dst), Ok(1));
/// assert_eq!(
///     utf8_to_utf16_checked(b"ab\xC3", &mut dst),
///     Err(ConvertError::Invalid { valid_up_to: 2, written: 2 })
/// );
/// ```
// Bounds: `read <= src.len()` (a prefix length).
#[allow(clippy::indexing_slicing)]
pub fn utf8_to_utf16_checked(src: &[u8], dst: &mut [u16]) -> Result<usize, ConvertError> {
    let (read, written) = slices::utf8_to_utf16_valid_prefix(src, dst);
    if read == src.len() {
        Ok(written)
    } else if utf8_error_len(&src[read..]).is_some() {
        Err(ConvertError::Invalid {
            valid_up_to: read,
            written,
        })
    } else {
        Err(ConvertError::OutputFull { read, written })
    }
}

/// `src` in UTF-16, in a new vector.
pub fn str_to_utf16_vec(src: &str) -> Vec<u16> {
    let mut out = alloc::vec![0; utf16_len_from_str(src)];
    str_to_utf16(src, &mut out);
    out
}

/// [`utf8_to_utf16_lossy`] into a new vector.
// Bounds: `written <= out.len()`.
#[allow(clippy::indexing_slicing)]
pub fn utf8_to_utf16_lossy_vec(src: &[u8]) -> Vec<u16> {
    let mut out = alloc::vec![0; utf16_max_len_from_utf8(src.len())];
    let (_, written) = utf8_to_utf16_lossy(src, &mut out);
    out.truncate(written);
    out
}

/// `None` if `src` starts with a valid character (or is empty); else the length of the
/// error at its start: the maximal subpart of an ill-formed sequence (#utf-8-decoder
/// step 4 "restore byte" leaves the byte that broke it for the next character), or the
/// whole of an incomplete sequence that ends the input (end-of-queue, step 2).
fn utf8_error_len(src: &[u8]) -> Option<usize> {
    let head = src.get(..4).unwrap_or(src);
    match core::str::from_utf8(head) {
        Ok(_) => None,
        Err(e) if e.valid_up_to() > 0 => None,
        // `error_len` is the maximal subpart (core's docs: "the length of the invalid
        // byte sequence"), which the tests check against the Standard's decoder.
        Err(e) => Some(e.error_len().unwrap_or(head.len())),
    }
}

// ---------------------------------------------------------------------------------------
// UTF-16 → UTF-8
// ---------------------------------------------------------------------------------------

/// Converts `src` to UTF-8 with each lone surrogate as U+FFFD (WebIDL's USVString
/// conversion, then UTF-8 encode), whole characters as far as `dst` has room; returns
/// (units read, bytes written). For well-formed input this is the fast path (there is
/// no faster "valid" variant: the kernels stop only at a lone surrogate). `dst` of
/// [`utf8_max_len_from_utf16`]`(src.len())` bytes holds it all; the exact length is
/// [`utf8_len_from_utf16_lossy`].
///
/// ```
/// let mut dst = [0u8; 16];
/// let (read, written) = textcodec::mem::utf16_to_utf8_lossy(&[0x61, 0xD800, 0xE9], &mut dst);
/// assert_eq!((read, &dst[..written]), (3, "a\u{FFFD}é".as_bytes()));
/// ```
pub fn utf16_to_utf8_lossy(src: &[u16], dst: &mut [u8]) -> (usize, usize) {
    slices::utf16_to_utf8_lossy(src, dst)
}

/// Converts `src`, which must be well-formed UTF-16, to UTF-8: `Ok(bytes written)`, or
/// where it stopped (see [`ConvertError`]; `Invalid` at the first lone surrogate).
///
/// ```
/// use textcodec::mem::{utf16_to_utf8_checked, ConvertError};
/// let mut dst = [0u8; 16];
/// assert_eq!(utf16_to_utf8_checked(&[0xD83D, 0xDE00], &mut dst), Ok(4));
/// assert_eq!(
///     utf16_to_utf8_checked(&[0x61, 0xDE00], &mut dst),
///     Err(ConvertError::Invalid { valid_up_to: 1, written: 1 })
/// );
/// ```
pub fn utf16_to_utf8_checked(src: &[u16], dst: &mut [u8]) -> Result<usize, ConvertError> {
    let (read, written) = slices::utf16_to_utf8(src, dst);
    if read == src.len() {
        Ok(written)
    } else if lone_surrogate_at(src, read) {
        Err(ConvertError::Invalid {
            valid_up_to: read,
            written,
        })
    } else {
        Err(ConvertError::OutputFull { read, written })
    }
}

/// [`utf16_to_utf8_lossy`] into a new `String`.
///
/// ```
/// assert_eq!(textcodec::mem::utf16_to_string_lossy(&[0xDC00, 0x41]), "\u{FFFD}A");
/// ```
pub fn utf16_to_string_lossy(src: &[u16]) -> String {
    slices::utf16_to_string_lossy(src)
}

/// Whether `src[i]` is a lone surrogate.
// Bounds: `i + 1` only where `src[i]` exists.
#[allow(clippy::arithmetic_side_effects)]
fn lone_surrogate_at(src: &[u16], i: usize) -> bool {
    match src.get(i) {
        Some(0xD800..=0xDBFF) => !src
            .get(i + 1)
            .is_some_and(|t| (0xDC00..=0xDFFF).contains(t)),
        Some(0xDC00..=0xDFFF) => true,
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------
// Latin-1
// ---------------------------------------------------------------------------------------

/// Latin-1 to UTF-8, whole characters as far as `dst` has room; returns (bytes read,
/// bytes written). `dst` of [`utf8_max_len_from_latin1`]`(src.len())` bytes holds it
/// all; the exact length is [`utf8_len_from_latin1`].
///
/// ```
/// let mut dst = [0u8; 8];
/// let (read, written) = textcodec::mem::latin1_to_utf8(b"caf\xE9", &mut dst);
/// assert_eq!((read, &dst[..written]), (4, "café".as_bytes()));
/// ```
pub fn latin1_to_utf8(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    slices::latin1_to_utf8(src, dst)
}

/// Latin-1 into a new `String`.
///
/// ```
/// assert_eq!(textcodec::mem::latin1_to_string(b"\xA9 2026"), "© 2026");
/// ```
pub fn latin1_to_string(src: &[u8]) -> String {
    slices::latin1_to_string(src)
}

/// Latin-1 to UTF-16 (each byte one unit), as many bytes as `dst` has room for; returns
/// their number (read = written).
///
/// ```
/// let mut dst = [0u16; 4];
/// assert_eq!(textcodec::mem::latin1_to_utf16(b"\xFFa", &mut dst), 2);
/// assert_eq!(dst[..2], [0xFF, 0x61]);
/// ```
pub fn latin1_to_utf16(src: &[u8], dst: &mut [u16]) -> usize {
    slices::latin1_to_utf16(src, dst)
}

/// UTF-16 to Latin-1: `Ok(bytes written)` (one per unit), or `Invalid` at the first unit
/// from U+0100 on, or `OutputFull`.
///
/// ```
/// use textcodec::mem::{utf16_to_latin1, ConvertError};
/// let mut dst = [0u8; 4];
/// assert_eq!(utf16_to_latin1(&[0xE9, 0x41], &mut dst), Ok(2));
/// assert_eq!(
///     utf16_to_latin1(&[0xE9, 0x20AC], &mut dst),
///     Err(ConvertError::Invalid { valid_up_to: 1, written: 1 })
/// );
/// ```
pub fn utf16_to_latin1(src: &[u16], dst: &mut [u8]) -> Result<usize, ConvertError> {
    let n = slices::utf16_to_latin1(src, dst);
    if n == src.len() {
        Ok(n)
    } else if src.get(n).is_some_and(|&u| u > 0xFF) {
        Err(ConvertError::Invalid {
            valid_up_to: n,
            written: n,
        })
    } else {
        Err(ConvertError::OutputFull {
            read: n,
            written: n,
        })
    }
}

/// UTF-8 to Latin-1: `Ok(bytes written)`, or `Invalid` at the first byte that does not
/// start a valid character up to U+00FF (ill-formed UTF-8 or a character above U+00FF),
/// or `OutputFull`. `dst` of `src.len()` bytes holds it all.
///
/// ```
/// use textcodec::mem::{utf8_to_latin1, ConvertError};
/// let mut dst = [0u8; 8];
/// assert_eq!(utf8_to_latin1("café".as_bytes(), &mut dst), Ok(4));
/// assert_eq!(&dst[..4], b"caf\xE9");
/// assert_eq!(
///     utf8_to_latin1("a€".as_bytes(), &mut dst),
///     Err(ConvertError::Invalid { valid_up_to: 1, written: 1 })
/// );
/// ```
// Bounds: `read` and `written` are sums of the ASCII copy's length (a prefix of both
// rest slices) and of a two-byte character's 2 and 1 (checked to be there and fit).
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub fn utf8_to_latin1(src: &[u8], dst: &mut [u8]) -> Result<usize, ConvertError> {
    let (mut read, mut written) = (0, 0);
    loop {
        let n = slices::copy_ascii(&src[read..], &mut dst[written..]);
        read += n;
        written += n;
        let Some(&lead) = src.get(read) else {
            return Ok(written);
        };
        // U+0080–U+00FF are C2 or C3 and one continuation byte.
        let trail = src.get(read + 1).copied().filter(|b| b & 0xC0 == 0x80);
        let Some(trail) = trail.filter(|_| lead == 0xC2 || lead == 0xC3) else {
            if lead < 0x80 {
                return Err(ConvertError::OutputFull { read, written });
            }
            return Err(ConvertError::Invalid {
                valid_up_to: read,
                written,
            });
        };
        let Some(slot) = dst.get_mut(written) else {
            return Err(ConvertError::OutputFull { read, written });
        };
        *slot = (lead << 6) | (trail & 0x3F);
        read += 2;
        written += 1;
    }
}

/// Whether every character of `src` is in Latin-1 (U+0000–U+00FF): no byte from 0xC4 on
/// (the lead bytes of U+0100 and above).
///
/// ```
/// assert!(textcodec::mem::is_latin1_str("façade"));
/// assert!(!textcodec::mem::is_latin1_str("€"));
/// ```
pub fn is_latin1_str(src: &str) -> bool {
    scan::prefix_len_below(src.as_bytes(), 0xC4) == src.len()
}

/// Whether `src` is valid UTF-8 whose characters are all in Latin-1.
///
/// ```
/// assert!(textcodec::mem::is_latin1_utf8(b"\xC3\xA9"));
/// assert!(!textcodec::mem::is_latin1_utf8(b"\xC3")); // ill-formed
/// ```
pub fn is_latin1_utf8(src: &[u8]) -> bool {
    scan::prefix_len_below(src, 0xC4) == src.len() && utf8_valid_up_to(src) == src.len()
}

/// Whether every unit of `src` is below U+0100 (so `src` is Latin-1, and well-formed).
///
/// ```
/// assert!(textcodec::mem::is_latin1_utf16(&[0xFF, 0x41]));
/// assert!(!textcodec::mem::is_latin1_utf16(&[0x100]));
/// ```
pub fn is_latin1_utf16(src: &[u16]) -> bool {
    scan::utf16_prefix_len_below(src, 0x100) == src.len()
}

/// UTF-8 length of Latin-1 `src`: one byte each, two from 0x80 on.
///
/// ```
/// assert_eq!(textcodec::mem::utf8_len_from_latin1(b"caf\xE9"), 5);
/// ```
// Bounds: at most `2 * src.len()`, which fits a `usize`.
#[allow(clippy::arithmetic_side_effects)]
pub fn utf8_len_from_latin1(src: &[u8]) -> usize {
    src.len() + scan::non_ascii_count(src)
}

// ---------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------

/// Offset of the first error in `src` as UTF-8 (the length of its longest valid prefix,
/// where the Standard's decoder first errs, or would at the end); `src.len()` when it is
/// valid.
///
/// ```
/// assert_eq!(textcodec::mem::utf8_valid_up_to(b"ok \xE2\x82"), 3);
/// assert_eq!(textcodec::mem::utf8_valid_up_to("€".as_bytes()), 3);
/// ```
pub fn utf8_valid_up_to(src: &[u8]) -> usize {
    utf8::valid_prefix_len(src)
}

/// Offset of the first lone surrogate in `src`; `src.len()` when it is well-formed.
///
/// ```
/// assert_eq!(textcodec::mem::utf16_valid_up_to(&[0x41, 0xD83D, 0xDE00, 0xDE00]), 3);
/// ```
pub fn utf16_valid_up_to(src: &[u16]) -> usize {
    scan::utf16_valid_prefix_len(src)
}

/// Replaces every lone surrogate in `src` with U+FFFD, in place (WebIDL's USVString
/// conversion; JavaScript's `String.prototype.toWellFormed`). Returns how many it
/// replaced.
///
/// ```
/// let mut s = [0xD800, 0x41, 0xD83D, 0xDE00, 0xDBFF];
/// assert_eq!(textcodec::mem::utf16_make_well_formed(&mut s), 2);
/// assert_eq!(s, [0xFFFD, 0x41, 0xD83D, 0xDE00, 0xFFFD]);
/// ```
// Bounds: `i` is a prefix length of `src` plus one, while below `src.len()`.
#[allow(clippy::arithmetic_side_effects)]
pub fn utf16_make_well_formed(src: &mut [u16]) -> usize {
    let (mut i, mut replaced) = (0, 0);
    loop {
        i += utf16_valid_up_to(src.get(i..).unwrap_or_default());
        let Some(unit) = src.get_mut(i) else {
            return replaced;
        };
        *unit = 0xFFFD;
        replaced += 1;
        i += 1;
    }
}

// ---------------------------------------------------------------------------------------
// Lengths and counts
// ---------------------------------------------------------------------------------------

/// UTF-16 length of `src`: the units [`str_to_utf16`] writes.
///
/// ```
/// assert_eq!(textcodec::mem::utf16_len_from_str("a€😀"), 4);
/// ```
pub fn utf16_len_from_str(src: &str) -> usize {
    scan::utf8_utf16_len(src.as_bytes())
}

/// UTF-16 length of `src` decoded lossily: the units [`utf8_to_utf16_lossy`] writes.
///
/// ```
/// assert_eq!(textcodec::mem::utf16_len_from_utf8_lossy(b"\xF0\x9F\x98a\xFF"), 3);
/// ```
// Bounds: `read` is a sum of valid prefix lengths and error lengths of `src[read..]`;
// the length is at most `src.len()`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub fn utf16_len_from_utf8_lossy(src: &[u8]) -> usize {
    let (mut read, mut len) = (0, 0);
    loop {
        let valid = utf8_valid_up_to(&src[read..]);
        len += scan::utf8_utf16_len(&src[read..read + valid]);
        read += valid;
        let Some(error) = utf8_error_len(&src[read..]) else {
            return len;
        };
        read += error;
        len += 1;
    }
}

/// UTF-8 length of `src` when it is well-formed: the bytes [`utf16_to_utf8_checked`]
/// writes. Each lone surrogate counts two bytes here, one less than its U+FFFD (see
/// [`utf8_len_from_utf16_lossy`]); one pass, no check.
///
/// ```
/// assert_eq!(textcodec::mem::utf8_len_from_utf16(&[0x41, 0xE9, 0x20AC, 0xD83D, 0xDE00]), 10);
/// ```
pub fn utf8_len_from_utf16(src: &[u16]) -> usize {
    scan::utf16_utf8_len(src)
}

/// UTF-8 length of `src` converted lossily: the bytes [`utf16_to_utf8_lossy`] writes.
///
/// ```
/// assert_eq!(textcodec::mem::utf8_len_from_utf16_lossy(&[0xD800, 0x41]), 4);
/// ```
// Bounds: `i` is a prefix length of `src` plus one, while below `src.len()`; the length
// is at most `3 * src.len()`.
#[allow(clippy::arithmetic_side_effects)]
pub fn utf8_len_from_utf16_lossy(src: &[u16]) -> usize {
    let mut len = utf8_len_from_utf16(src);
    let mut i = 0;
    loop {
        i += utf16_valid_up_to(src.get(i..).unwrap_or_default());
        if i >= src.len() {
            return len;
        }
        // A lone surrogate: three bytes, where two were counted.
        len += 1;
        i += 1;
    }
}

/// Code points of `src` (`src.chars().count()`).
///
/// ```
/// assert_eq!(textcodec::mem::char_count_str("a€😀"), 3);
/// ```
pub fn char_count_str(src: &str) -> usize {
    scan::utf8_char_count(src.as_bytes())
}

/// Code points of `src` read as UTF-16: a surrogate pair counts one, a lone surrogate
/// one (its U+FFFD).
///
/// ```
/// assert_eq!(textcodec::mem::char_count_utf16(&[0x41, 0xD83D, 0xDE00, 0xD800]), 3);
/// ```
// Bounds: the trailing surrogates are at most all the units.
#[allow(clippy::arithmetic_side_effects)]
pub fn char_count_utf16(src: &[u16]) -> usize {
    if utf16_valid_up_to(src) == src.len() {
        // Well-formed: every trailing surrogate ends a pair (one pass the compiler
        // vectorizes).
        return src.len()
            - src
                .iter()
                .filter(|&&u| (0xDC00..0xE000).contains(&u))
                .count();
    }
    char::decode_utf16(src.iter().copied()).count()
}

// ---------------------------------------------------------------------------------------
// ASCII
// ---------------------------------------------------------------------------------------

/// Whether every byte of `src` is ASCII (below 0x80).
///
/// ```
/// assert!(textcodec::mem::is_ascii(b"plain"));
/// assert!(!textcodec::mem::is_ascii("é".as_bytes()));
/// ```
pub fn is_ascii(src: &[u8]) -> bool {
    ascii_prefix_len(src) == src.len()
}

/// Length of the longest ASCII prefix of `src`.
///
/// ```
/// assert_eq!(textcodec::mem::ascii_prefix_len("abé".as_bytes()), 2);
/// ```
pub fn ascii_prefix_len(src: &[u8]) -> usize {
    ascii::ascii_prefix_len(src)
}

/// Whether every unit of `src` is ASCII (below U+0080).
///
/// ```
/// assert!(textcodec::mem::is_ascii_utf16(&[0x41, 0x7F]));
/// ```
pub fn is_ascii_utf16(src: &[u16]) -> bool {
    ascii_prefix_len_utf16(src) == src.len()
}

/// Length of the longest ASCII prefix of `src` (units below U+0080).
///
/// ```
/// assert_eq!(textcodec::mem::ascii_prefix_len_utf16(&[0x41, 0xE9]), 1);
/// ```
pub fn ascii_prefix_len_utf16(src: &[u16]) -> usize {
    scan::utf16_prefix_len_below(src, 0x80)
}

#[cfg(test)]
// Test code: a failed unwrap, index or overflow fails the test, as it should.
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]
mod tests;
