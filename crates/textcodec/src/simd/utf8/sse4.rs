//! SSSE3/SSE4.1 (x86-64-v2): the kernels of `generic.rs` with 16-byte vectors: the
//! nibble-lookup validator (`pshufb` lookups) and valid UTF-8 → UTF-16 (`pshufb`
//! packing). (No one-pass validate-and-copy: at 16 bytes it is no faster than two passes.)

use super::generic;
use crate::simd::vector::Isa;
use crate::simd::Slots;

#[target_feature(enable = "ssse3,sse4.1")]
#[inline(never)]
pub(crate) fn valid_prefix_len(src: &[u8]) -> usize {
    generic::valid_prefix_len(Isa::sse4(), src)
}

/// `src` must be valid UTF-8 (otherwise the output is unspecified, though memory safe).
#[target_feature(enable = "ssse3,sse4.1,popcnt")]
pub(crate) fn to_utf16(src: &str, dst: &mut Slots<u16>) -> (usize, usize) {
    generic::to_utf16(Isa::sse4(), src, dst)
}
