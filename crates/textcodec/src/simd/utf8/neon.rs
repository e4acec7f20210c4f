//! NEON (aarch64, little-endian): the kernels of `generic.rs` with 16-byte vectors: the
//! nibble-lookup validator (`vqtbl1q_u8` is `pshufb` for nibble indexes) and valid UTF-8
//! → UTF-16 (`tbl` packing with the same table: its 0x80 entries are out of `tbl`'s
//! range, which writes 0 as `pshufb` does).

use super::generic;
use crate::simd::vector::neon::Neon;
use crate::simd::vector::Isa;
use crate::simd::Slots;

pub(crate) fn valid_prefix_len(src: &[u8]) -> usize {
    generic::valid_prefix_len(Isa::<Neon>::neon(), src)
}

/// `src` must be valid UTF-8 (otherwise the output is unspecified, though memory safe).
pub(crate) fn to_utf16(src: &str, dst: &mut Slots<u16>) -> (usize, usize) {
    generic::to_utf16(Isa::<Neon>::neon(), src, dst)
}
