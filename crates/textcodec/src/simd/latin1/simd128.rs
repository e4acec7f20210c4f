//! WebAssembly SIMD (`simd128`): Latin-1 ↔ UTF-16 units of `generic.rs` with 16-byte vectors.

use super::generic;
use crate::simd::vector::simd128::Simd128;
use crate::simd::vector::Isa;
use crate::simd::Slots;

fn isa() -> Isa<Simd128> {
    Isa::<Simd128>::simd128()
}

pub(crate) fn to_utf16(src: &[u8], dst: &mut Slots<u16>) -> usize {
    generic::to_utf16(isa(), src, dst)
}

pub(crate) fn from_utf16(src: &[u16], dst: &mut Slots<u8>) -> usize {
    generic::from_utf16(isa(), src, dst)
}
