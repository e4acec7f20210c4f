//! SSE2 (x86-64 baseline): Latin-1 ↔ UTF-16 units of `generic.rs` with 16-byte vectors.

use super::generic;
use crate::simd::vector::x86::Sse2;
use crate::simd::vector::Isa;
use crate::simd::Slots;

fn isa() -> Isa<Sse2> {
    Isa::<Sse2>::sse2()
}

pub(crate) fn to_utf16(src: &[u8], dst: &mut Slots<u16>) -> usize {
    generic::to_utf16(isa(), src, dst)
}

pub(crate) fn from_utf16(src: &[u16], dst: &mut Slots<u8>) -> usize {
    generic::from_utf16(isa(), src, dst)
}
