//! SSSE3 (x86-64-v2): UTF-8 validation with the lookup algorithm of the AVX2 kernel
//! (`avx2.rs`, tables in `lookup.rs`), 16 bytes per `pshufb` step, 64 bytes per loop.

use super::lookup::{CUR_HIGH, INCOMPLETE_MAX, PREV_HIGH, PREV_LOW};
use crate::simd::Slots;
use core::arch::x86_64::*;

struct Tables {
    prev_high: __m128i,
    prev_low: __m128i,
    cur_high: __m128i,
    nibble: __m128i,
    /// Per position of a 16-byte block: the largest byte that does not start a character
    /// running past the block's end.
    incomplete_max: __m128i,
}

/// Nonzero bytes where the 16 bytes at `p` are invalid, given the bytes before them.
///
/// # Safety
/// The CPU must support SSSE3; `p - 3 .. p + 16` must be readable.
#[target_feature(enable = "ssse3")]
#[inline]
unsafe fn block_errors(t: &Tables, p: *const u8) -> __m128i {
    // SAFETY: the caller guarantees `p - 3 .. p + 16` is readable.
    let (input, back1, back2, back3) = unsafe {
        (
            _mm_loadu_si128(p.cast()),
            _mm_loadu_si128(p.sub(1).cast()),
            _mm_loadu_si128(p.sub(2).cast()),
            _mm_loadu_si128(p.sub(3).cast()),
        )
    };
    let high = |v: __m128i| _mm_and_si128(_mm_srli_epi16::<4>(v), t.nibble);
    let a = _mm_shuffle_epi8(t.prev_high, high(back1));
    let b = _mm_shuffle_epi8(t.prev_low, _mm_and_si128(back1, t.nibble));
    let c = _mm_shuffle_epi8(t.cur_high, high(input));
    let special = _mm_and_si128(_mm_and_si128(a, b), c);
    // Third byte of a 3- or 4-byte sequence, or fourth of a 4-byte one: must be a
    // continuation, exactly where the tables expect two continuations in a row.
    let third = _mm_subs_epu8(back2, _mm_set1_epi8((0xE0 - 0x80) as i8));
    let fourth = _mm_subs_epu8(back3, _mm_set1_epi8((0xF0 - 0x80) as i8));
    let must_be_cont = _mm_and_si128(_mm_or_si128(third, fourth), _mm_set1_epi8(0x80u8 as i8));
    _mm_xor_si128(must_be_cont, special)
}

/// Checks the 64 bytes at `p`: `None` if invalid, else whether the last character runs
/// past them. `incomplete` says whether the previous 64 bytes ended so.
///
/// # Safety
/// The CPU must support SSSE3 and SSE4.1; `p - 3 .. p + 64` must be readable.
#[target_feature(enable = "ssse3,sse4.1")]
#[inline]
unsafe fn step(t: &Tables, p: *const u8, incomplete: bool) -> Option<bool> {
    // SAFETY: `p .. p + 64` is readable.
    let v: [__m128i; 4] = unsafe {
        [
            _mm_loadu_si128(p.cast()),
            _mm_loadu_si128(p.add(16).cast()),
            _mm_loadu_si128(p.add(32).cast()),
            _mm_loadu_si128(p.add(48).cast()),
        ]
    };
    let any = _mm_or_si128(_mm_or_si128(v[0], v[1]), _mm_or_si128(v[2], v[3]));
    if _mm_movemask_epi8(any) == 0 {
        // ASCII: valid unless the previous bytes ended inside a character.
        return (!incomplete).then_some(false);
    }
    // SAFETY: `p - 3 .. p + 64` is readable.
    let errors = unsafe {
        _mm_or_si128(
            _mm_or_si128(block_errors(t, p), block_errors(t, p.add(16))),
            _mm_or_si128(block_errors(t, p.add(32)), block_errors(t, p.add(48))),
        )
    };
    if _mm_testz_si128(errors, errors) == 0 {
        return None;
    }
    let tail = _mm_subs_epu8(v[3], t.incomplete_max);
    Some(_mm_testz_si128(tail, tail) == 0)
}

#[target_feature(enable = "ssse3,sse4.1")]
fn tables() -> Tables {
    let table = |t: &[u8; 16]| {
        // SAFETY: `t` is 16 readable bytes.
        unsafe { _mm_loadu_si128(t.as_ptr().cast()) }
    };
    Tables {
        prev_high: table(&PREV_HIGH),
        prev_low: table(&PREV_LOW),
        cur_high: table(&CUR_HIGH),
        nibble: _mm_set1_epi8(0x0F),
        // SAFETY: 16 readable bytes.
        incomplete_max: unsafe { _mm_loadu_si128(INCOMPLETE_MAX[48..].as_ptr().cast()) },
    }
}

/// # Safety
/// The CPU must support SSSE3 and SSE4.1.
#[target_feature(enable = "ssse3,sse4.1")]
pub(crate) unsafe fn valid_prefix_len(src: &[u8]) -> usize {
    let t = tables();
    // SAFETY: `step` reads `p - 3 .. p + 64`, which `blocks` guarantees readable; the
    // CPU features it needs are this function's.
    unsafe { super::blocks(src, None, |p, incomplete| step(&t, p, incomplete)) }
}

/// [`valid_prefix_len`] of `src[..dst.len()]` (all of `src` when it fits), copying the
/// valid prefix to `dst` in the same pass; nothing past it is written.
///
/// # Safety
/// The CPU must support SSSE3 and SSE4.1.
#[target_feature(enable = "ssse3,sse4.1")]
// Bounds: `n <= src.len()` by construction.
#[allow(clippy::indexing_slicing)]
pub(crate) unsafe fn copy_valid_prefix(src: &[u8], dst: &mut Slots<u8>) -> usize {
    let n = src.len().min(dst.len());
    let src = &src[..n];
    let t = tables();
    // SAFETY: as in `valid_prefix_len`; `dst` holds `src.len()` writable slots or more,
    // and a `&mut` cannot overlap the shared `src`.
    unsafe {
        super::blocks(src, Some(crate::simd::out_ptr(dst)), |p, incomplete| {
            step(&t, p, incomplete)
        })
    }
}
