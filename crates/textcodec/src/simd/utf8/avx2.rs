//! AVX2: the nibble-lookup validator of `generic.rs` with 32-byte vectors (the tables
//! repeated in both 128-bit halves, as `vpshufb` looks up within each), and its one-pass
//! copy. UTF-8 → UTF-16 is `transcode_avx2.rs`.

use super::generic;
use crate::simd::vector::Isa;
use crate::simd::Slots;

#[target_feature(enable = "avx2")]
pub(crate) fn valid_prefix_len(src: &[u8]) -> usize {
    generic::valid_prefix_len(Isa::avx2(), src)
}

#[target_feature(enable = "avx2")]
pub(crate) fn copy_valid_prefix(src: &[u8], dst: &mut Slots<u8>) -> usize {
    generic::copy_valid_prefix(Isa::avx2(), src, dst)
}
