//! AVX2: the ASCII kernels of `generic.rs` with 32-byte vectors.

use super::generic;
use crate::simd::vector::Isa;
use crate::simd::Slots;

#[target_feature(enable = "avx2")]
pub(crate) fn ascii_prefix_len(src: &[u8]) -> usize {
    generic::ascii_prefix_len(Isa::avx2(), src)
}

#[target_feature(enable = "avx2")]
pub(crate) fn copy_ascii(src: &[u8], dst: &mut Slots<u8>) -> usize {
    generic::copy_ascii(Isa::avx2(), src, dst)
}

#[target_feature(enable = "avx2")]
pub(crate) fn widen_ascii(src: &[u8], dst: &mut Slots<u16>) -> usize {
    generic::widen_ascii(Isa::avx2(), src, dst)
}

#[target_feature(enable = "avx2")]
pub(crate) fn narrow_basic_latin(src: &[u16], dst: &mut Slots<u8>) -> usize {
    generic::narrow_basic_latin(Isa::avx2(), src, dst)
}
