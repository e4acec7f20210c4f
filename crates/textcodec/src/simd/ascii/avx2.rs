//! AVX2: the ASCII kernels of `generic.rs` with 32-byte vectors.

use super::generic;
use crate::simd::vector::Isa;
use crate::simd::Slots;

#[target_feature(enable = "avx2")]
pub(crate) fn ascii_prefix_len(src: &[u8]) -> usize {
    generic::ascii_prefix_len(Isa::avx2(), src)
}

#[target_feature(enable = "avx2")]
pub(crate) fn copy_ascii(src: &[u8], dst: &mut Slots<u8>) -> usize {
    generic::copy_ascii(Isa::avx2(), src, dst)
}

#[target_feature(enable = "avx2")]
pub(crate) fn widen_ascii(src: &[u8], dst: &mut Slots<u16>) -> usize {
    generic::widen_ascii(Isa::avx2(), src, dst)
}

#[target_feature(enable = "avx2")]
pub(crate) fn narrow_basic_latin(src: &[u16], dst: &mut Slots<u8>) -> usize {
    generic::narrow_basic_latin(Isa::avx2(), src, dst)
}

/// Whether `src` is 4 KiB or more and at most 4 of 16 blocks of 64 bytes spread evenly
/// over it hold a non-ASCII byte: `ascii::avx512::mostly_ascii` with 32-byte vectors, for
/// the kernels at this level that keep a tight loop for ASCII runs for such input only.
#[target_feature(enable = "avx2")]
// Bounds: block `k` starts at `(len - 64) * k / 16 <= len - 64`; `(len - 64) * k` cannot
// overflow for a slice's length (`len <= isize::MAX`, `k < 16`).
#[allow(clippy::arithmetic_side_effects)]
#[inline]
pub(in crate::simd) fn mostly_ascii(src: &[u8]) -> bool {
    use core::arch::x86_64::*;
    if src.len() < 4096 {
        return false;
    }
    let span = src.len() - 64;
    let non_ascii = (0..16)
        .filter(|k| {
            let at = src.as_ptr().wrapping_add(span / 16 * k);
            // SAFETY: the block `at .. at + 64` lies within `src` (see above).
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(at.cast()),
                    _mm256_loadu_si256(at.add(32).cast()),
                )
            };
            _mm256_movemask_epi8(_mm256_or_si256(a, b)) != 0
        })
        .count();
    non_ascii <= 4
}
