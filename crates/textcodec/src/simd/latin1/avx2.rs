//! AVX2: Latin-1 ↔ UTF-16 units of `generic.rs` with 32-byte vectors.

use super::generic;
use crate::simd::vector::Isa;
use crate::simd::Slots;

#[target_feature(enable = "avx2")]
pub(crate) fn to_utf16(src: &[u8], dst: &mut Slots<u16>) -> usize {
    generic::to_utf16(Isa::avx2(), src, dst)
}

#[target_feature(enable = "avx2")]
pub(crate) fn from_utf16(src: &[u16], dst: &mut Slots<u8>) -> usize {
    generic::from_utf16(Isa::avx2(), src, dst)
}
