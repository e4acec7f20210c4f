//! The portable twins: one element at a time, no `unsafe`.

/// Whether `b` is a UTF-8 continuation byte (0x80–0xBF).
#[inline(always)]
fn is_continuation(b: u8) -> bool {
    (b as i8) < -0x40
}

pub(crate) fn utf8_char_count(src: &[u8]) -> usize {
    src.iter().filter(|&&b| !is_continuation(b)).count()
}

// Bounds: each byte adds at most 2, and a slice has fewer than `usize::MAX / 2` bytes.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) fn utf8_utf16_len(src: &[u8]) -> usize {
    src.iter()
        .map(|&b| usize::from(!is_continuation(b)) + usize::from(b >= 0xF0))
        .sum()
}

// Bounds: each unit adds at most 3, and a `u16` slice has fewer than `usize::MAX / 6`
// units.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) fn utf16_utf8_len(src: &[u16]) -> usize {
    src.iter()
        .map(|&u| match u {
            0..=0x7F => 1,
            0x80..=0x7FF | 0xD800..=0xDFFF => 2,
            _ => 3,
        })
        .sum()
}

// Bounds: `i + 1 < src.len()` is checked before `src[i + 1]`; `i` advances by 1 or 2
// while below `src.len()`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn utf16_valid_prefix_len(src: &[u16]) -> usize {
    let mut i = 0;
    while i < src.len() {
        match src[i] {
            0xD800..=0xDBFF if i + 1 < src.len() && (0xDC00..=0xDFFF).contains(&src[i + 1]) => {
                i += 2;
            }
            0xD800..=0xDFFF => return i,
            _ => i += 1,
        }
    }
    i
}

pub(crate) fn prefix_len_below(src: &[u8], bound: u8) -> usize {
    src.iter().position(|&b| b >= bound).unwrap_or(src.len())
}

pub(crate) fn utf16_prefix_len_below(src: &[u16], bound: u16) -> usize {
    src.iter().position(|&u| u >= bound).unwrap_or(src.len())
}

pub(crate) fn non_ascii_count(src: &[u8]) -> usize {
    src.iter().filter(|&&b| b >= 0x80).count()
}
