use super::lookup::{CUR_HIGH, INCOMPLETE_MAX, PREV_HIGH, PREV_LOW};
use core::arch::x86_64::*;

pub(super) struct Tables {
    prev_high: __m512i,
    prev_low: __m512i,
    cur_high: __m512i,
    incomplete_max: __m512i,
}

impl Tables {
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
    pub(super) fn new() -> Tables {
        Tables {
            prev_high: table(&PREV_HIGH),
            prev_low: table(&PREV_LOW),
            cur_high: table(&CUR_HIGH),
            // SAFETY: 64 readable bytes.
            incomplete_max: unsafe { _mm512_loadu_si512(INCOMPLETE_MAX.as_ptr().cast()) },
        }
    }
}

#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
fn table(t: &[u8; 16]) -> __m512i {
    // SAFETY: `t` is 16 readable bytes.
    _mm512_broadcast_i32x4(unsafe { _mm_loadu_si128(t.as_ptr().cast()) })
}

/// What [`invalid`] finds besides errors: lanes whose byte 2 or 3 back is a lead of a
/// 3-byte (or longer) or a 4-byte character.
pub(super) struct Leads {
    pub(super) three: __mmask64,
    pub(super) four: __mmask64,
}

/// Whether the 64 bytes `input` hold an error, given the same bytes loaded 1, 2 and 3
/// positions earlier (`back1` …).
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
#[inline]
pub(super) fn invalid(
    t: &Tables,
    input: __m512i,
    back1: __m512i,
    back2: __m512i,
    back3: __m512i,
) -> (bool, Leads) {
    // The high nibble in the low four bits; bits 4 and 5 (from the next byte of a
    // 16-bit lane) only select one of the table's copies.
    let a = _mm512_permutexvar_epi8(_mm512_srli_epi16::<4>(back1), t.prev_high);
    let b = _mm512_permutexvar_epi8(back1, t.prev_low);
    let c = _mm512_permutexvar_epi8(_mm512_srli_epi16::<4>(input), t.cur_high);
    let third = _mm512_subs_epu8(back2, _mm512_set1_epi8((0xE0 - 0x80) as i8));
    let fourth = _mm512_subs_epu8(back3, _mm512_set1_epi8((0xF0 - 0x80) as i8));
    // (third OR fourth) AND 0x80, and (a AND b AND c) XOR that, in one ternary-logic
    // instruction each.
    let must_be_cont =
        _mm512_ternarylogic_epi32::<0xE0>(_mm512_set1_epi8(0x80u8 as i8), third, fourth);
    let special = _mm512_ternarylogic_epi32::<0x80>(a, b, c);
    let errors = _mm512_xor_si512(special, must_be_cont);
    (
        _mm512_test_epi8_mask(errors, errors) != 0,
        Leads {
            three: _mm512_movepi8_mask(third),
            four: _mm512_movepi8_mask(fourth),
        },
    )
}

/// Whether the last character of the 64 bytes `input` runs past them.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
#[inline]
pub(super) fn ends_inside(t: &Tables, input: __m512i) -> bool {
    _mm512_test_epi8_mask(
        _mm512_subs_epu8(input, t.incomplete_max),
        _mm512_set1_epi8(-1),
    ) != 0
}

/// Checks the 64 bytes at `p`: `None` if invalid, else whether the last character
/// runs past them. `incomplete` says whether the previous 64 bytes ended so. With
/// `dense` (text of nearly all non-ASCII blocks) the block is checked in full, with no
/// ASCII test, and the answer is always `false`: the next block's check sees a cut
/// character in the bytes 1–3 back.
///
/// # Safety
/// The CPU must support AVX-512 F/BW/VBMI; `p - 3 .. p + 64` must be readable.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
#[inline]
unsafe fn step(t: &Tables, p: *const u8, incomplete: bool, dense: bool) -> Option<bool> {
    // SAFETY: `p .. p + 64` is readable.
    let input = unsafe { _mm512_loadu_si512(p.cast()) };
    if !dense && _mm512_movepi8_mask(input) == 0 {
        return (!incomplete).then_some(false);
    }
    // SAFETY: `p - 3 .. p + 64` is readable.
    let (back1, back2, back3) = unsafe {
        (
            _mm512_loadu_si512(p.sub(1).cast()),
            _mm512_loadu_si512(p.sub(2).cast()),
            _mm512_loadu_si512(p.sub(3).cast()),
        )
    };
    if invalid(t, input, back1, back2, back3).0 {
        return None;
    }
    Some(!dense && ends_inside(t, input))
}

/// # Safety
/// The CPU must support AVX2 and AVX-512 F/BW/VBMI.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
// Bounds: `src.len() >= 64` before `src[..64]`; `blocks` returns at most `src.len()`.
#[allow(clippy::indexing_slicing)]
pub(crate) unsafe fn valid_prefix_len(src: &[u8]) -> usize {
    let t = Tables::new();
    if src.len() < 64 {
        return super::scalar::valid_prefix_len(src);
    }
    let mut first = [0u8; 67];
    first[3..].copy_from_slice(&src[..64]);
    // SAFETY: `first[0..67]` is readable: 3 bytes before the 64 at index 3.
    let Some(incomplete) = (unsafe { step(&t, first.as_ptr().add(3), false, false) }) else {
        return super::scalar::valid_prefix_len(src);
    };
    // SAFETY: the same CPU features; `src` holds 64 bytes or more.
    let i = unsafe {
        if crate::simd::ascii::avx512::mostly_ascii(src) {
            blocks::<true>(&t, src, incomplete, false)
        } else {
            let dense = crate::simd::ascii::avx512::mostly_non_ascii(src);
            blocks::<false>(&t, src, incomplete, dense)
        }
    };
    super::finish(src, i)
}

/// Checks `src` from byte 64 on, 64 bytes per step, until an error or fewer than 64
/// bytes are left; `incomplete` says whether the first 64 bytes ended inside a character.
/// Returns where it stopped. With `ASCII_RUNS`, each block that ends on a boundary is
/// followed by a tight loop over the ASCII blocks after it: near-ASCII text runs 1.15×
/// faster so, other text 10 % slower (the extra load and branch after every block), hence
/// the two loops, chosen by `ascii::avx512::mostly_ascii`. (Skipping 128 ASCII bytes at a time before
/// each block, as this loop did, cost mixed text two data-dependent branches per block:
/// catalogs with CJK or Cyrillic 0.91–0.95× simdutf, 1.07–1.12× without.) With `dense`
/// (`ascii::avx512::mostly_non_ascii`: at least 70 % of the blocks hold a non-ASCII
/// byte), `step` checks every block in full: against the ASCII test and the note of where
/// the last character ends, 1.1–1.7× there (ja.text 1.27–1.41× → 1.77–1.86× simdutf8,
/// two builds of differing code placement), and 0.67–0.95× on text with 25–50 %
/// non-ASCII blocks.
///
/// # Safety
/// The CPU must support AVX2 and AVX-512 F/BW/VBMI; `src.len() >= 64`.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
// Hot loop. Bounds: `i` only advances by 64 while `i + 64 <= src.len()`, so `i <=
// src.len()` and the sums cannot overflow; `i >= 64`, so `src[i - 3 ..]` is in bounds.
#[allow(clippy::arithmetic_side_effects)]
#[inline]
unsafe fn blocks<const ASCII_RUNS: bool>(
    t: &Tables,
    src: &[u8],
    mut incomplete: bool,
    dense: bool,
) -> usize {
    let mut i = 64;
    while i + 64 <= src.len() {
        // SAFETY: `3 <= i` and `i + 64 <= src.len()`: `src[i - 3 .. i + 64]` is readable.
        match unsafe { step(t, src.as_ptr().add(i), incomplete, dense) } {
            Some(ends_inside) => incomplete = ends_inside,
            None => break,
        }
        i += 64;
        if ASCII_RUNS && !incomplete {
            // Two blocks per test: one block per loop ran at 0.6× or 1.1× simdutf by the
            // loop's placement in the binary.
            // SAFETY: `i + 128 <= src.len()` for the loads.
            while i + 128 <= src.len()
                && _mm512_movepi8_mask(unsafe {
                    _mm512_or_si512(
                        _mm512_loadu_si512(src.as_ptr().add(i).cast()),
                        _mm512_loadu_si512(src.as_ptr().add(i + 64).cast()),
                    )
                }) == 0
            {
                i += 128;
            }
        }
    }
    i
}
