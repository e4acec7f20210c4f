//! WebAssembly SIMD (`simd128`): the kernels of `generic.rs` with 16-byte vectors: the
//! nibble-lookup validator (`i8x16.swizzle` lookups) and its one-pass copy, and valid
//! UTF-8 → UTF-16 (`swizzle` packing: an index of 16 or more gives 0, as `pshufb`'s 0x80).

use super::generic;
use crate::simd::vector::simd128::Simd128;
use crate::simd::vector::Isa;
use crate::simd::Slots;

#[inline(never)]
pub(crate) fn valid_prefix_len(src: &[u8]) -> usize {
    generic::valid_prefix_len(Isa::<Simd128>::simd128(), src)
}

pub(crate) fn copy_valid_prefix(src: &[u8], dst: &mut Slots<u8>) -> usize {
    generic::copy_valid_prefix(Isa::<Simd128>::simd128(), src, dst, valid_prefix_len)
}

/// `src` must be valid UTF-8 (otherwise the output is unspecified, though memory safe).
pub(crate) fn to_utf16(src: &str, dst: &mut Slots<u16>) -> (usize, usize) {
    generic::to_utf16(Isa::<Simd128>::simd128(), src, dst)
}
