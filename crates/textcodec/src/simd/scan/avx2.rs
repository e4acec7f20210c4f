//! AVX2: the scanning and counting kernels of `generic.rs` with 32-byte vectors.

use super::generic;
use crate::simd::vector::Isa;

#[target_feature(enable = "avx2")]
pub(crate) fn utf8_char_count(src: &[u8]) -> (usize, usize) {
    generic::utf8_char_count(Isa::avx2(), src)
}

#[target_feature(enable = "avx2")]
pub(crate) fn utf8_utf16_len(src: &[u8]) -> (usize, usize) {
    generic::utf8_utf16_len(Isa::avx2(), src)
}

#[target_feature(enable = "avx2")]
pub(crate) fn non_ascii_count(src: &[u8]) -> (usize, usize) {
    generic::non_ascii_count(Isa::avx2(), src)
}

#[target_feature(enable = "avx2")]
pub(crate) fn utf16_utf8_len(src: &[u16]) -> (usize, usize) {
    generic::utf16_utf8_len(Isa::avx2(), src)
}

#[target_feature(enable = "avx2")]
pub(crate) fn utf16_valid_prefix_len(src: &[u16]) -> usize {
    generic::utf16_valid_prefix_len(Isa::avx2(), src)
}

#[target_feature(enable = "avx2")]
pub(crate) fn prefix_len_below(src: &[u8], bound: u8) -> usize {
    generic::prefix_len_below(Isa::avx2(), src, bound)
}

#[target_feature(enable = "avx2")]
pub(crate) fn utf16_prefix_len_below(src: &[u16], bound: u16) -> usize {
    generic::utf16_prefix_len_below(Isa::avx2(), src, bound)
}
