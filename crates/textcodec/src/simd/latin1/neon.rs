//! NEON (aarch64, little-endian): Latin-1 ↔ UTF-16 units of `generic.rs` with 16-byte vectors.

use super::generic;
use crate::simd::vector::neon::Neon;
use crate::simd::vector::Isa;
use crate::simd::Slots;

fn isa() -> Isa<Neon> {
    Isa::<Neon>::neon()
}

pub(crate) fn to_utf16(src: &[u8], dst: &mut Slots<u16>) -> usize {
    generic::to_utf16(isa(), src, dst)
}

pub(crate) fn from_utf16(src: &[u16], dst: &mut Slots<u8>) -> usize {
    generic::from_utf16(isa(), src, dst)
}
