use crate::simd::{write_utf16, write_utf8, Slots};

// Hot loop. Bounds: only `next_char` calls this, after checking `i + 2 <= src.len()`
// (or `i + 4` for the unit at `i + 2`), so `src[i]` and `src[i + 1]` are in bounds.
#[inline(always)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
fn unit(src: &[u8], i: usize, big_endian: bool) -> u16 {
    let b = [src[i], src[i + 1]];
    if big_endian {
        u16::from_be_bytes(b)
    } else {
        u16::from_le_bytes(b)
    }
}

/// The character at `src[i..]`: a non-surrogate unit or a surrogate pair, with the
/// bytes it takes; `None` at a lone surrogate or an incomplete unit or pair.
// Hot loop. Bounds: `i` is a position in `src` (at most its length), so `i + 2` and
// `i + 4` cannot overflow. A pair has `u` in 0xD800..=0xDBFF and `t` in 0xDC00..=0xDFFF
// (checked just before), so the subtractions cannot underflow and `c <= 0x10FFFF`.
#[inline(always)]
#[allow(clippy::arithmetic_side_effects)]
fn next_char(src: &[u8], i: usize, big_endian: bool) -> Option<(char, usize)> {
    if i + 2 > src.len() {
        return None;
    }
    let u = unit(src, i, big_endian);
    if !(0xD800..=0xDFFF).contains(&u) {
        return Some((char::from_u32(u32::from(u))?, 2));
    }
    if u >= 0xDC00 || i + 4 > src.len() {
        return None;
    }
    let t = unit(src, i + 2, big_endian);
    if !(0xDC00..=0xDFFF).contains(&t) {
        return None;
    }
    let c = 0x10000 + ((u32::from(u) - 0xD800) << 10) + (u32::from(t) - 0xDC00);
    Some((char::from_u32(c)?, 4))
}

// Hot loop. Bounds: `read <= src.len()` and `written <= dst.len()` (they count bytes of
// whole characters read and bytes written into `dst`), so adding a character's length
// (at most 4) cannot overflow.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) fn bytes_to_utf8(src: &[u8], big_endian: bool, dst: &mut Slots<u8>) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while let Some((c, len)) = next_char(src, read, big_endian) {
        let Some(out) = dst.get_mut(written..written + c.len_utf8()) else {
            break;
        };
        write_utf8(out, c);
        written += out.len();
        read += len;
    }
    (read, written)
}

// Hot loop. Bounds: `read <= src.len()` and `written <= dst.len()` (they count bytes of
// whole characters read and units written into `dst`), so adding a character's length
// (at most 4) cannot overflow.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) fn bytes_to_units(src: &[u8], big_endian: bool, dst: &mut Slots<u16>) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while let Some((c, len)) = next_char(src, read, big_endian) {
        let Some(out) = dst.get_mut(written..written + c.len_utf16()) else {
            break;
        };
        write_utf16(out, c);
        written += out.len();
        read += len;
    }
    (read, written)
}
