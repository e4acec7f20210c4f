use super::lookup::{CUR_HIGH, INCOMPLETE_MAX, PREV_HIGH, PREV_LOW};
use crate::simd::Slots;
use core::arch::x86_64::*;

struct Tables {
    prev_high: __m256i,
    prev_low: __m256i,
    cur_high: __m256i,
    nibble: __m256i,
    /// Per position of a block: the largest byte that does not start a character
    /// running past the block's end (F0.. at 29, E0.. at 30, C0.. at 31).
    incomplete_max: __m256i,
}

#[target_feature(enable = "avx2")]
fn table(t: &[u8; 16]) -> __m256i {
    // SAFETY: `t` is 16 readable bytes.
    _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(t.as_ptr().cast()) })
}

/// Nonzero bytes where the 32 bytes at `p` are invalid, given the bytes before them.
///
/// # Safety
/// The CPU must support AVX2; `p - 3 .. p + 32` must be readable.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn block_errors(t: &Tables, p: *const u8) -> __m256i {
    // SAFETY: the caller guarantees `p - 3 .. p + 32` is readable.
    let (input, back1, back2, back3) = unsafe {
        (
            _mm256_loadu_si256(p.cast()),
            _mm256_loadu_si256(p.sub(1).cast()),
            _mm256_loadu_si256(p.sub(2).cast()),
            _mm256_loadu_si256(p.sub(3).cast()),
        )
    };
    let high = |v: __m256i| _mm256_and_si256(_mm256_srli_epi16::<4>(v), t.nibble);
    let a = _mm256_shuffle_epi8(t.prev_high, high(back1));
    let b = _mm256_shuffle_epi8(t.prev_low, _mm256_and_si256(back1, t.nibble));
    let c = _mm256_shuffle_epi8(t.cur_high, high(input));
    let special = _mm256_and_si256(_mm256_and_si256(a, b), c);
    // Third byte of a 3- or 4-byte sequence, or fourth of a 4-byte one: must be a
    // continuation (0x80 in the byte) — exactly where TWO_CONTS is expected.
    let third = _mm256_subs_epu8(back2, _mm256_set1_epi8((0xE0 - 0x80) as i8));
    let fourth = _mm256_subs_epu8(back3, _mm256_set1_epi8((0xF0 - 0x80) as i8));
    let must_be_cont = _mm256_and_si256(
        _mm256_or_si256(third, fourth),
        _mm256_set1_epi8(0x80u8 as i8),
    );
    _mm256_xor_si256(must_be_cont, special)
}

/// Checks the 64 bytes at `p`: `None` if invalid, else whether the last character
/// runs past them. `incomplete` says whether the previous 64 bytes ended so.
///
/// # Safety
/// The CPU must support AVX2; `p - 3 .. p + 64` must be readable.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn step(t: &Tables, p: *const u8, incomplete: bool) -> Option<bool> {
    // SAFETY: `p .. p + 64` is readable.
    let (a, b) = unsafe {
        (
            _mm256_loadu_si256(p.cast()),
            _mm256_loadu_si256(p.add(32).cast()),
        )
    };
    if _mm256_movemask_epi8(_mm256_or_si256(a, b)) == 0 {
        // ASCII: valid unless the previous bytes ended inside a character.
        return (!incomplete).then_some(false);
    }
    // SAFETY: `p - 3 .. p + 64` is readable.
    let errors = unsafe { _mm256_or_si256(block_errors(t, p), block_errors(t, p.add(32))) };
    if _mm256_testz_si256(errors, errors) == 0 {
        return None;
    }
    let tail = _mm256_subs_epu8(b, t.incomplete_max);
    Some(_mm256_testz_si256(tail, tail) == 0)
}

#[target_feature(enable = "avx2")]
fn tables() -> Tables {
    Tables {
        prev_high: table(&PREV_HIGH),
        prev_low: table(&PREV_LOW),
        cur_high: table(&CUR_HIGH),
        nibble: _mm256_set1_epi8(0x0F),
        // SAFETY: 32 readable bytes.
        incomplete_max: unsafe { _mm256_loadu_si256(INCOMPLETE_MAX[32..].as_ptr().cast()) },
    }
}

/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
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
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
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
