//! SSE2 (x86-64 baseline): the ASCII kernels of `generic.rs` with 16-byte vectors.

use super::generic;
use crate::simd::vector::x86::Sse2;
use crate::simd::vector::Isa;
use crate::simd::Slots;

pub(crate) fn ascii_prefix_len(src: &[u8]) -> usize {
    generic::ascii_prefix_len(Isa::<Sse2>::sse2(), src)
}

pub(crate) fn copy_ascii(src: &[u8], dst: &mut Slots<u8>) -> usize {
    generic::copy_ascii(Isa::<Sse2>::sse2(), src, dst)
}

pub(crate) fn widen_ascii(src: &[u8], dst: &mut Slots<u16>) -> usize {
    generic::widen_ascii(Isa::<Sse2>::sse2(), src, dst)
}
