//! WebAssembly SIMD (`simd128`): the ASCII kernels of `generic.rs` with 16-byte vectors.

use super::generic;
use crate::simd::vector::simd128::Simd128;
use crate::simd::vector::Isa;
use crate::simd::Slots;

pub(crate) fn ascii_prefix_len(src: &[u8]) -> usize {
    generic::ascii_prefix_len(Isa::<Simd128>::simd128(), src)
}

pub(crate) fn copy_ascii(src: &[u8], dst: &mut Slots<u8>) -> usize {
    generic::copy_ascii(Isa::<Simd128>::simd128(), src, dst)
}

pub(crate) fn widen_ascii(src: &[u8], dst: &mut Slots<u16>) -> usize {
    generic::widen_ascii(Isa::<Simd128>::simd128(), src, dst)
}

pub(crate) fn narrow_basic_latin(src: &[u16], dst: &mut Slots<u8>) -> usize {
    generic::narrow_basic_latin(Isa::<Simd128>::simd128(), src, dst)
}
