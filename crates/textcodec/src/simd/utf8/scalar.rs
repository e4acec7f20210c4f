use crate::simd::{write_utf16, Slots};

pub(crate) fn valid_prefix_len(src: &[u8]) -> usize {
    match core::str::from_utf8(src) {
        Ok(_) => src.len(),
        Err(e) => e.valid_up_to(),
    }
}

// Hot loop. Bounds: `written <= dst.len()` and `read <= src.len()` (they count units
// written into `dst` and bytes of characters read from `src`), so adding a character's
// length (at most 4) cannot overflow.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) fn to_utf16(src: &str, dst: &mut Slots<u16>) -> (usize, usize) {
    let mut read = 0;
    let mut written = 0;
    for c in src.chars() {
        let Some(out) = dst.get_mut(written..written + c.len_utf16()) else {
            break;
        };
        write_utf16(out, c);
        written += out.len();
        read += c.len_utf8();
    }
    (read, written)
}

/// Validates and converts in one pass (#utf-8-decoder's byte ranges): the longest prefix
/// of `src` that is valid UTF-8, as far as `dst` has room, whole characters only. Returns
/// (bytes read, units written). It also returns early, after at least one character,
/// where 16 ASCII bytes begin, so that a caller with a vector ASCII loop can take them.
// Hot loop. Bounds: `read < src.len()` is checked before `src[read]`, and a sequence's
// other bytes are read through `get`; `written < dst.len()` (or `+ 1` for a pair) is
// checked before each store; so no index passes its slice and the sums (of lengths of
// parts of the slices) cannot overflow. A sequence's bits fit its code point: at most
// 21 bits, below 0x110000 by the lead and second-byte ranges, so `c - 0x10000` of a
// four-byte sequence (at least 0x10000 by those ranges) fits 20 bits.
#[allow(
    clippy::arithmetic_side_effects,
    clippy::indexing_slicing,
    clippy::cast_possible_truncation
)]
pub(crate) fn validate_to_utf16(src: &[u8], dst: &mut Slots<u16>) -> (usize, usize) {
    let cont = |i: usize| src.get(i).copied().filter(|b| b & 0xC0 == 0x80);
    let (mut read, mut written) = (0, 0);
    while read < src.len() && written < dst.len() {
        let lead = src[read];
        if lead < 0x80 {
            // A lone ASCII byte (a space between words) needs no look-ahead.
            if read > 0
                && src.get(read + 1).is_some_and(|&b| b < 0x80)
                && ascii_16(src.get(read..read + 16))
            {
                break;
            }
            dst[written].write(u16::from(lead));
            read += 1;
            written += 1;
            continue;
        }
        // Two- and three-byte sequences from one little-endian word: the bit patterns
        // (lead, continuations) by one mask each, and the Standard's second-byte ranges as
        // what they exclude: overlong forms (below U+0080, U+0800) and surrogates. With
        // eight bytes left, a run of four two-byte characters (Cyrillic, Greek, Hebrew,
        // Arabic) is taken at once from the same word. Anything else (errors included)
        // takes the general path below, which decides.
        let word = match src.get(read..).and_then(|s| s.first_chunk::<8>()) {
            Some(&w) => Some(u64::from_le_bytes(w)),
            None => src
                .get(read..)
                .and_then(|s| s.first_chunk::<4>())
                .map(|&w| u64::from(u32::from_le_bytes(w))),
        };
        if let Some(w) = word {
            if w & 0xC0E0 == 0x80C0 {
                if w & 0xC0E0_C0E0_C0E0_C0E0 == 0x80C0_80C0_80C0_80C0
                    && (w & 0x001E_001E_001E_001E).wrapping_add(0x7FFF_7FFF_7FFF_7FFF)
                        & 0x8000_8000_8000_8000
                        == 0x8000_8000_8000_8000
                {
                    if let Some(out) = dst.get_mut(written..written + 4) {
                        for (k, slot) in out.iter_mut().enumerate() {
                            let lane = (w >> (16 * k)) as u32;
                            slot.write((((lane & 0x1F) << 6) | ((lane >> 8) & 0x3F)) as u16);
                        }
                        read += 8;
                        written += 4;
                        continue;
                    }
                }
                let c = ((w & 0x1F) << 6) | ((w >> 8) & 0x3F);
                if c >= 0x80 {
                    dst[written].write(c as u16);
                    read += 2;
                    written += 1;
                    continue;
                }
            } else if w & 0x00C0_C0F0 == 0x0080_80E0 {
                let c = ((w & 0x0F) << 12) | ((w >> 2) & 0xFC0) | ((w >> 16) & 0x3F);
                if c >= 0x800 && c & 0xF800 != 0xD800 {
                    dst[written].write(c as u16);
                    read += 3;
                    written += 1;
                    continue;
                }
            }
        }
        // The second byte's range depends on the lead (#utf-8-decoder steps 4.2 and 4.3).
        let (len, second) = match lead {
            0xC2..=0xDF => (2, 0x80..=0xBF),
            0xE0 => (3, 0xA0..=0xBF),
            0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80..=0xBF),
            0xED => (3, 0x80..=0x9F),
            0xF0 => (4, 0x90..=0xBF),
            0xF1..=0xF3 => (4, 0x80..=0xBF),
            0xF4 => (4, 0x80..=0x8F),
            _ => break,
        };
        let Some(b1) = src.get(read + 1).copied().filter(|b| second.contains(b)) else {
            break;
        };
        let low = u32::from(b1 & 0x3F);
        let c = match len {
            2 => (u32::from(lead & 0x1F) << 6) | low,
            3 => {
                let Some(b2) = cont(read + 2) else { break };
                (u32::from(lead & 0x0F) << 12) | (low << 6) | u32::from(b2 & 0x3F)
            }
            _ => {
                let (Some(b2), Some(b3)) = (cont(read + 2), cont(read + 3)) else {
                    break;
                };
                (u32::from(lead & 0x07) << 18)
                    | (low << 12)
                    | (u32::from(b2 & 0x3F) << 6)
                    | u32::from(b3 & 0x3F)
            }
        };
        if c < 0x10000 {
            dst[written].write(c as u16);
            written += 1;
        } else {
            if written + 2 > dst.len() {
                break;
            }
            let c = c - 0x10000;
            dst[written].write(0xD800 | (c >> 10) as u16);
            dst[written + 1].write(0xDC00 | (c & 0x3FF) as u16);
            written += 2;
        }
        read += len;
    }
    (read, written)
}

/// Whether `block` is 16 ASCII bytes (`None`: fewer were left).
#[inline(always)]
fn ascii_16(block: Option<&[u8]>) -> bool {
    match block.and_then(|b| <[u8; 16]>::try_from(b).ok()) {
        Some(b) => u128::from_ne_bytes(b) & 0x8080_8080_8080_8080_8080_8080_8080_8080 == 0,
        None => false,
    }
}
