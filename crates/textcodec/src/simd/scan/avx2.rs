//! AVX2: the scanning and counting kernels of `generic.rs` with 32-byte vectors, but the
//! two counts of one byte class (code points of UTF-8, bytes from 0x80 on), which have
//! their own loop here.

use super::generic;
use crate::simd::vector::Isa;
use core::arch::x86_64::*;

/// Counts the bytes of the whole 32-byte vectors of `src` that `class(v)` marks (lanes
/// all ones): each mark subtracted (as -1) from a byte counter, four vectors per step in
/// four counters (four independent chains, so the loads are not serialised), added up by
/// `vpsadbw` every 255 steps, before a counter could wrap. Returns (bytes read, count).
/// The generic loop this replaces (compare and subtract in two counters, summed lane by
/// lane every 63 steps) ran at 0.54–0.93× simdutf on the Latin-1 length.
#[inline]
#[target_feature(enable = "avx2")]
// Bounds: `i` advances by 128 or 32 while that many bytes are left; the count is at most
// the bytes read.
#[allow(clippy::arithmetic_side_effects)]
fn count_class(src: &[u8], class: impl Fn(__m256i) -> __m256i) -> (usize, usize) {
    let (p, len) = (src.as_ptr(), src.len());
    let zero = _mm256_setzero_si256();
    // SAFETY (all loads below): `i + 32 * k + 32 <= len`, within `src`.
    let load = |i: usize| unsafe { _mm256_loadu_si256(p.add(i).cast()) };
    let (mut i, mut total) = (0, zero);
    while i + 128 <= len {
        let [mut a, mut b, mut c, mut d] = [zero; 4];
        let mut steps = 0;
        while steps < 255 && i + 128 <= len {
            a = _mm256_sub_epi8(a, class(load(i)));
            b = _mm256_sub_epi8(b, class(load(i + 32)));
            c = _mm256_sub_epi8(c, class(load(i + 64)));
            d = _mm256_sub_epi8(d, class(load(i + 96)));
            i += 128;
            steps += 1;
        }
        let sums = _mm256_add_epi64(
            _mm256_add_epi64(_mm256_sad_epu8(a, zero), _mm256_sad_epu8(b, zero)),
            _mm256_add_epi64(_mm256_sad_epu8(c, zero), _mm256_sad_epu8(d, zero)),
        );
        total = _mm256_add_epi64(total, sums);
    }
    let mut rest = zero;
    while i + 32 <= len {
        rest = _mm256_sub_epi8(rest, class(load(i)));
        i += 32;
    }
    total = _mm256_add_epi64(total, _mm256_sad_epu8(rest, zero));
    let pair = _mm_add_epi64(
        _mm256_castsi256_si128(total),
        _mm256_extracti128_si256::<1>(total),
    );
    let sum = _mm_add_epi64(pair, _mm_unpackhi_epi64(pair, pair));
    (i, _mm_cvtsi128_si64(sum) as usize)
}

/// (Bytes read, bytes that are not continuation bytes: above -65 as `i8`).
#[target_feature(enable = "avx2")]
pub(crate) fn utf8_char_count(src: &[u8]) -> (usize, usize) {
    let lead = _mm256_set1_epi8(-65);
    count_class(src, |v| _mm256_cmpgt_epi8(v, lead))
}

#[target_feature(enable = "avx2")]
pub(crate) fn utf8_utf16_len(src: &[u8]) -> (usize, usize) {
    generic::utf8_utf16_len(Isa::avx2(), src)
}

/// (Bytes read, bytes from 0x80 on: below 0 as `i8`).
#[target_feature(enable = "avx2")]
pub(crate) fn non_ascii_count(src: &[u8]) -> (usize, usize) {
    let zero = _mm256_setzero_si256();
    count_class(src, |v| _mm256_cmpgt_epi8(zero, v))
}

#[target_feature(enable = "avx2")]
pub(crate) fn utf16_utf8_len(src: &[u16]) -> (usize, usize) {
    generic::utf16_utf8_len(Isa::avx2(), src)
}

#[target_feature(enable = "avx2")]
pub(crate) fn utf16_valid_prefix_len(src: &[u16]) -> usize {
    generic::utf16_valid_prefix_len(Isa::avx2(), src)
}

#[target_feature(enable = "avx2")]
pub(crate) fn prefix_len_below(src: &[u8], bound: u8) -> usize {
    generic::prefix_len_below(Isa::avx2(), src, bound)
}

#[target_feature(enable = "avx2")]
pub(crate) fn utf16_prefix_len_below(src: &[u16], bound: u16) -> usize {
    generic::utf16_prefix_len_below(Isa::avx2(), src, bound)
}
