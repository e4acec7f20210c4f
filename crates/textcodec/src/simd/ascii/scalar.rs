use crate::simd::{write_short, Slots};

const WORD: usize = core::mem::size_of::<usize>();
const HIGH_BITS: usize = usize::from_ne_bytes([0x80; WORD]);

// Hot loop. Bounds: `i` counts whole words already read and then single bytes while
// `i < src.len()`, so it never exceeds `src.len()` and `src[i]` is in bounds.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn ascii_prefix_len(src: &[u8]) -> usize {
    let mut i = 0;
    let mut chunks = src.chunks_exact(WORD);
    for chunk in &mut chunks {
        let mut w = [0u8; WORD];
        w.copy_from_slice(chunk);
        if usize::from_ne_bytes(w) & HIGH_BITS != 0 {
            break;
        }
        i += WORD;
    }
    while i < src.len() && src[i] < 0x80 {
        i += 1;
    }
    i
}

// Bounds: `n` is the shorter of the two lengths and `len <= n` (a prefix length of
// `src[..n]`), so all three slices are in bounds.
#[allow(clippy::indexing_slicing)]
pub(crate) fn copy_ascii(src: &[u8], dst: &mut Slots<u8>) -> usize {
    let n = src.len().min(dst.len());
    let len = ascii_prefix_len(&src[..n]);
    // Short runs (the vector kernels' tails, text with short ASCII runs) without a
    // `memcpy` call.
    write_short(&mut dst[..len], &src[..len]);
    len
}

// Hot loop. Bounds: `i < n`, the shorter of the two lengths, wherever it indexes, and
// it only counts up to `n`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn widen_ascii(src: &[u8], dst: &mut Slots<u16>) -> usize {
    let n = src.len().min(dst.len());
    let mut i = 0;
    while i < n {
        let b = src[i];
        if b >= 0x80 {
            break;
        }
        dst[i].write(u16::from(b));
        i += 1;
    }
    i
}

// Hot loop. Bounds: `i < n`, the shorter of the two lengths, wherever it indexes, and
// it only counts up to `n`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn narrow_basic_latin(src: &[u16], dst: &mut Slots<u8>) -> usize {
    let n = src.len().min(dst.len());
    let mut i = 0;
    while i < n {
        let u = src[i];
        if u >= 0x80 {
            break;
        }
        dst[i].write(u as u8);
        i += 1;
    }
    i
}
