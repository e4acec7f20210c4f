//! NEON (aarch64): the ASCII kernels of `generic.rs` with 16-byte vectors. Widening and
//! narrowing see `u16` lanes as little-endian, so big-endian aarch64 keeps the scalar
//! twins for them.

use super::generic;
use crate::simd::vector::neon::Neon;
use crate::simd::vector::Isa;
use crate::simd::Slots;

pub(crate) fn ascii_prefix_len(src: &[u8]) -> usize {
    generic::ascii_prefix_len(Isa::<Neon>::neon(), src)
}

pub(crate) fn copy_ascii(src: &[u8], dst: &mut Slots<u8>) -> usize {
    generic::copy_ascii(Isa::<Neon>::neon(), src, dst)
}

#[cfg(target_endian = "little")]
pub(crate) fn widen_ascii(src: &[u8], dst: &mut Slots<u16>) -> usize {
    generic::widen_ascii(Isa::<Neon>::neon(), src, dst)
}

#[cfg(target_endian = "little")]
pub(crate) fn narrow_basic_latin(src: &[u16], dst: &mut Slots<u8>) -> usize {
    generic::narrow_basic_latin(Isa::<Neon>::neon(), src, dst)
}
