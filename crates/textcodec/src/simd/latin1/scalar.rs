//! The portable twins: one byte or unit at a time, no `unsafe`.

use crate::simd::{write_utf8, Slots};

/// `dst` and `src` have the same length (the family function cuts them).
pub(crate) fn to_utf16(src: &[u8], dst: &mut Slots<u16>) -> usize {
    for (d, &b) in dst.iter_mut().zip(src) {
        d.write(u16::from(b));
    }
    src.len().min(dst.len())
}

/// `dst` and `src` have the same length (the family function cuts them).
pub(crate) fn from_utf16(src: &[u16], dst: &mut Slots<u8>) -> usize {
    let n = src.iter().position(|&u| u > 0xFF).unwrap_or(src.len());
    for (d, &u) in dst.iter_mut().zip(src.get(..n).unwrap_or_default()) {
        d.write(u as u8);
    }
    n.min(dst.len())
}

// Bounds: `read <= src.len()` and `written <= dst.len()` (bytes read and written), so
// adding 1 or 2 cannot overflow.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) fn to_utf8(src: &[u8], dst: &mut Slots<u8>) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    for &b in src {
        let c = char::from(b);
        let Some(out) = dst.get_mut(written..written + c.len_utf8()) else {
            break;
        };
        write_utf8(out, c);
        written += out.len();
        read += 1;
    }
    (read, written)
}
