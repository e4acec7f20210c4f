//! The families' conversions over initialised slices (`&mut [u16]`, `&mut [u8]`), for
//! the safe code of [`crate::mem`]: each hands its buffer to one family function as
//! [`Slots`](super::Slots), whose writers store only initialised values.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::{ascii, latin1, slots, utf16, utf8, write_slots, Slots};
use alloc::string::String;
use alloc::vec::Vec;

/// Converts the longest valid UTF-8 prefix of `src` to UTF-16, whole characters only, as
/// far as `dst` has room. Returns (bytes read, units written): `src[..read]` is valid
/// UTF-8 ending on a character boundary.
// Bounds: the kernels report lengths of prefixes of the slices they get.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn utf8_to_utf16_valid_prefix(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    // SAFETY: the UTF-8 kernels store only initialised units.
    let (read, written) = utf8::validate_to_utf16(src, unsafe { slots(dst) });
    let valid = super::valid_utf8_prefix(&src[read..]);
    let (r, w) = utf8::to_utf16_initialised(valid, &mut dst[written..]);
    (read + r, written + w)
}

/// Valid UTF-8 to UTF-16, whole characters only, as far as `dst` has room: (bytes read,
/// units written).
pub(crate) fn str_to_utf16(src: &str, dst: &mut [u16]) -> (usize, usize) {
    utf8::to_utf16_initialised(src, dst)
}

/// UTF-16 to UTF-8, whole characters only, stopping at a lone surrogate or where the
/// next character does not fit: (units read, bytes written). `dst` past the bytes
/// written may hold scratch bytes.
pub(crate) fn utf16_to_utf8(src: &[u16], dst: &mut [u8]) -> (usize, usize) {
    // SAFETY: the UTF-16 kernels store only initialised bytes.
    utf16::units_to_utf8_scratch(src, unsafe { slots(dst) })
}

/// Copies the longest ASCII prefix of `src` that fits in `dst`; returns its length.
pub(crate) fn copy_ascii(src: &[u8], dst: &mut [u8]) -> usize {
    // SAFETY: the ASCII kernels store only initialised bytes.
    ascii::copy_ascii(src, unsafe { slots(dst) })
}

/// Latin-1 to UTF-16: as many bytes as `dst` has room for; returns their number.
pub(crate) fn latin1_to_utf16(src: &[u8], dst: &mut [u16]) -> usize {
    // SAFETY: the Latin-1 kernels store only initialised units.
    latin1::to_utf16(src, unsafe { slots(dst) })
}

/// UTF-16 units below U+0100 to bytes, as far as they go and `dst` has room; returns
/// the units converted.
pub(crate) fn utf16_to_latin1(src: &[u16], dst: &mut [u8]) -> usize {
    // SAFETY: the Latin-1 kernels store only initialised bytes.
    latin1::from_utf16(src, unsafe { slots(dst) })
}

/// Latin-1 to UTF-8, whole characters only, as far as `dst` has room: (bytes read, bytes
/// written).
pub(crate) fn latin1_to_utf8(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    // SAFETY: the Latin-1, ASCII and UTF-16 kernels store only initialised bytes.
    latin1::to_utf8(src, unsafe { slots(dst) })
}

/// The USVString conversion of `src` into UTF-8: each lone surrogate becomes U+FFFD
/// (EF BF BD); whole characters only, as far as `dst` has room. Returns (units read,
/// bytes written). `dst` past the bytes written may hold scratch bytes.
pub(crate) fn utf16_to_utf8_lossy(src: &[u16], dst: &mut [u8]) -> (usize, usize) {
    // SAFETY: the UTF-16 kernels and `write_slots` store only initialised bytes.
    utf16_to_utf8_lossy_slots(src, unsafe { slots(dst) })
}

// Bounds: `read` and `written` are sums of what the kernel reports and of the lone
// surrogates' one unit and three bytes, each checked to fit before.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
fn utf16_to_utf8_lossy_slots(src: &[u16], dst: &mut Slots<u8>) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    loop {
        let (r, w) = utf16::units_to_utf8_scratch(&src[read..], &mut dst[written..]);
        read += r;
        written += w;
        let Some(&u) = src.get(read) else {
            return (read, written);
        };
        let paired = (0xD800..0xDC00).contains(&u)
            && src
                .get(read + 1)
                .is_some_and(|t| (0xDC00..0xE000).contains(t));
        // The kernel stopped for room unless the unit is a lone surrogate.
        if paired || !(0xD800..0xE000).contains(&u) || dst.len() - written < 3 {
            return (read, written);
        }
        write_slots(&mut dst[written..written + 3], "\u{FFFD}".as_bytes());
        read += 1;
        written += 3;
    }
}

/// [`utf16_to_utf8_lossy`] into a new `String`.
pub(crate) fn utf16_to_string_lossy(src: &[u16]) -> String {
    // Three bytes per unit at most (a pair takes four for two units).
    let mut out = Vec::with_capacity(src.len().saturating_mul(3));
    let (_, written) = utf16_to_utf8_lossy_slots(src, out.spare_capacity_mut());
    // SAFETY: the writers stored `written` initialised bytes, whole UTF-8 characters
    // (the kernels' tests check them against `char::encode_utf8`; U+FFFD is written
    // here), within the capacity.
    unsafe {
        out.set_len(written);
        String::from_utf8_unchecked(out)
    }
}

/// Latin-1 into a new `String`.
pub(crate) fn latin1_to_string(src: &[u8]) -> String {
    let mut out = Vec::with_capacity(src.len().saturating_mul(2));
    let (_, written) = latin1::to_utf8(src, out.spare_capacity_mut());
    // SAFETY: as in `utf16_to_string_lossy`: whole UTF-8 characters, `written` of them
    // initialised, within the capacity.
    unsafe {
        out.set_len(written);
        String::from_utf8_unchecked(out)
    }
}
