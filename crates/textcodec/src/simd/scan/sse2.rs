//! SSE2 (x86-64 baseline): the scanning and counting kernels of `generic.rs` with 16-byte
//! vectors.

use super::generic;
use crate::simd::vector::x86::Sse2;
use crate::simd::vector::Isa;

fn isa() -> Isa<Sse2> {
    Isa::<Sse2>::sse2()
}

pub(crate) fn utf8_char_count(src: &[u8]) -> (usize, usize) {
    generic::utf8_char_count(isa(), src)
}

pub(crate) fn utf8_utf16_len(src: &[u8]) -> (usize, usize) {
    generic::utf8_utf16_len(isa(), src)
}

pub(crate) fn non_ascii_count(src: &[u8]) -> (usize, usize) {
    generic::non_ascii_count(isa(), src)
}

pub(crate) fn utf16_utf8_len(src: &[u16]) -> (usize, usize) {
    generic::utf16_utf8_len(isa(), src)
}

pub(crate) fn utf16_valid_prefix_len(src: &[u16]) -> usize {
    generic::utf16_valid_prefix_len(isa(), src)
}

pub(crate) fn prefix_len_below(src: &[u8], bound: u8) -> usize {
    generic::prefix_len_below(isa(), src, bound)
}

pub(crate) fn utf16_prefix_len_below(src: &[u16], bound: u16) -> usize {
    generic::utf16_prefix_len_below(isa(), src, bound)
}
