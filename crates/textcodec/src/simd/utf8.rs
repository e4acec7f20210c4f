//! UTF-8 validation and UTF-8 → UTF-16 conversion.
//!
//! Validity is the Standard's (#utf-8-decoder), which is exactly `core::str`'s: the
//! scalar twins use `core::str::from_utf8` and the tests compare every kernel with a
//! byte-at-a-time transcription of the Standard's decoder. Kernels find how far the input
//! is valid; they never handle errors (the UTF-8 decoder's handler does).
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::dispatch::{kernel, Kernel};

/// Length of the longest prefix of `src` that is valid UTF-8 (whole characters only).
#[inline]
pub(crate) fn valid_prefix_len(src: &[u8]) -> usize {
    valid_prefix_len_with(kernel(), src)
}

pub(crate) fn valid_prefix_len_with(k: Kernel, src: &[u8]) -> usize {
    match k {
        // SAFETY: a `Kernel::Avx2` value exists only after AVX2 was detected.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2(_) => unsafe { avx2::valid_prefix_len(src) },
        // SAFETY: a `Kernel::Avx512` value exists only after its features were detected.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512(_) => unsafe { avx512_validation::valid_prefix_len(src) },
        _ => scalar::valid_prefix_len(src),
    }
}

/// Validates and converts a prefix of `src` to UTF-16 in one pass where the kernel has a
/// loop for it (else returns (0, 0)). Returns (bytes of `src` read, units written):
/// `src[..read]` is valid UTF-8 that ends on a character boundary and `dst[..written]` its
/// UTF-16. It may stop anywhere before the first error (at most 64 bytes or the last 64
/// bytes or units of room earlier); the caller finishes with [`valid_prefix_len`] and
/// [`to_utf16`]. `dst` past `written` may be overwritten.
#[inline]
pub(crate) fn validate_to_utf16(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    validate_to_utf16_with(kernel(), src, dst)
}

pub(crate) fn validate_to_utf16_with(k: Kernel, src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    match k {
        // SAFETY: a `Kernel::Avx512` value exists only after its features were detected.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512(_) => unsafe { avx512_fused::to_utf16::<true>(src, dst) },
        _ => (0, 0),
    }
}

/// Converts valid UTF-8 to UTF-16, whole characters only, as far as `dst` has room.
/// Returns (bytes of `src` read, units written).
#[inline]
pub(crate) fn to_utf16(src: &str, dst: &mut [u16]) -> (usize, usize) {
    to_utf16_with(kernel(), src, dst)
}

// Bounds: `read` and `written` are sums of what the kernels report (bytes of
// `src[read..]` read and units of `dst[written..]` written), so `read <= src.len()` and
// `written <= dst.len()`, and `read` is always a character boundary (the kernels stop on
// one). `end` lies in `read..=src.len()` and is a character boundary too: AVX-512 backs
// it up from `min(src.len(), read + 64)` to one, never past `read`; AVX2/SSE2 take the
// next ASCII byte or the end. So `src[read..end]` is a valid `str` slice, the scalar twin
// reads within it, and `n + r`, `r + r2` add lengths of parts of one slice.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn to_utf16_with(k: Kernel, src: &str, dst: &mut [u16]) -> (usize, usize) {
    match k {
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512(_) => {
            // SAFETY: a `Kernel::Avx512` value exists only after its features were
            // detected; `src` is a `str`, so valid UTF-8.
            let (mut read, mut written) =
                unsafe { avx512_fused::to_utf16::<false>(src.as_bytes(), dst) };
            loop {
                // SAFETY: a `Kernel::Avx512` value exists only after its features were
                // detected; `src` is a `str`, so valid UTF-8.
                let (r, w) =
                    unsafe { avx512::to_utf16(&src.as_bytes()[read..], &mut dst[written..]) };
                read += r;
                written += w;
                // The kernel stops on a character boundary (a block with a 4-byte
                // character, the tail, or room); the scalar twin takes the next stretch.
                let mut end = src.len().min(read + 64);
                while !src.is_char_boundary(end) {
                    end -= 1;
                }
                let (r2, w2) = scalar::to_utf16(&src[read..end], &mut dst[written..]);
                read += r2;
                written += w2;
                if read == src.len() || r + r2 == 0 || read < end {
                    return (read, written);
                }
            }
        }
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx2(_) | Kernel::Sse2 => {
            let mut read = 0;
            let mut written = 0;
            loop {
                let n =
                    super::ascii::widen_ascii_with(k, &src.as_bytes()[read..], &mut dst[written..]);
                read += n;
                written += n;
                // Up to the next ASCII byte (a character boundary).
                let rest = &src.as_bytes()[read..];
                let end = read + rest.iter().position(|&b| b < 0x80).unwrap_or(rest.len());
                let (r, w) = scalar::to_utf16(&src[read..end], &mut dst[written..]);
                read += r;
                written += w;
                if read < end || read == src.len() || n + r == 0 {
                    return (read, written);
                }
            }
        }
        _ => scalar::to_utf16(src, dst),
    }
}

/// The portable twins.
pub(crate) mod scalar {
    pub(crate) fn valid_prefix_len(src: &[u8]) -> usize {
        match core::str::from_utf8(src) {
            Ok(_) => src.len(),
            Err(e) => e.valid_up_to(),
        }
    }

    // Hot loop. Bounds: `written <= dst.len()` and `read <= src.len()` (they count units
    // written into `dst` and bytes of characters read from `src`), so adding a character's
    // length (at most 4) cannot overflow.
    #[allow(clippy::arithmetic_side_effects)]
    pub(crate) fn to_utf16(src: &str, dst: &mut [u16]) -> (usize, usize) {
        let mut read = 0;
        let mut written = 0;
        for c in src.chars() {
            let Some(out) = dst.get_mut(written..written + c.len_utf16()) else {
                break;
            };
            c.encode_utf16(out);
            written += out.len();
            read += c.len_utf8();
        }
        (read, written)
    }
}

/// Validation with the nibble-lookup technique (three 16-entry tables indexed by the
/// previous byte's high and low nibbles and the current byte's high nibble, whose AND
/// flags every invalid two-byte combination; plus a check that the bytes after a 3- or
/// 4-byte lead's second byte are continuations), 64 bytes per step, ASCII blocks skipped.
///
/// Every check is attributed to the position of its *current* byte, so when the blocks
/// before offset `b` pass, every character that ends before `b` is valid. On a failing
/// block (or at the tail) we back up to the start of the character that straddles `b`
/// and let the scalar twin find the exact valid prefix from there.
#[cfg(target_arch = "x86_64")]
mod lookup {

    // Error classes: one bit each, set in all three tables for the combinations that
    // produce them.
    /// A lead byte followed by a non-continuation.
    const TOO_SHORT: u8 = 1 << 0;
    /// An ASCII byte followed by a continuation.
    const TOO_LONG: u8 = 1 << 1;
    /// E0 followed by 80..9F.
    const OVERLONG_3: u8 = 1 << 2;
    /// F4 followed by 90..BF, or F5..FF followed by 90..BF.
    const TOO_LARGE: u8 = 1 << 3;
    /// ED followed by A0..BF.
    const SURROGATE: u8 = 1 << 4;
    /// C0 or C1 followed by a continuation.
    const OVERLONG_2: u8 = 1 << 5;
    /// F5..FF followed by 80..8F (shares its bit with OVERLONG_4: the low-nibble table
    /// tells them apart).
    const TOO_LARGE_1000: u8 = 1 << 6;
    /// F0 followed by 80..8F.
    const OVERLONG_4: u8 = 1 << 6;
    /// Two continuations in a row: an error unless a 3- or 4-byte lead needs them, which
    /// the separate check cancels out (XOR).
    const TWO_CONTS: u8 = 1 << 7;

    /// Indexed by the previous byte's high nibble.
    // Bounds: evaluated at compile time (`i < 12`); an out-of-bounds index would fail the
    // build, it cannot panic at run time.
    #[allow(clippy::indexing_slicing)]
    pub(super) const PREV_HIGH: [u8; 16] = {
        let mut t = [0u8; 16];
        let mut i = 0;
        while i < 8 {
            t[i] = TOO_LONG;
            i += 1;
        }
        while i < 12 {
            t[i] = TWO_CONTS;
            i += 1;
        }
        t[0xC] = TOO_SHORT | OVERLONG_2;
        t[0xD] = TOO_SHORT;
        t[0xE] = TOO_SHORT | OVERLONG_3 | SURROGATE;
        t[0xF] = TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4;
        t
    };

    /// Indexed by the previous byte's low nibble.
    // Bounds: evaluated at compile time (`i < 16`); an out-of-bounds index would fail the
    // build, it cannot panic at run time.
    #[allow(clippy::indexing_slicing)]
    pub(super) const PREV_LOW: [u8; 16] = {
        // Classes decided by the high nibbles alone pass through.
        const ANY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;
        let mut t = [ANY; 16];
        t[0x0] = ANY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4;
        t[0x1] = ANY | OVERLONG_2;
        t[0x4] = ANY | TOO_LARGE;
        let mut i = 5;
        while i < 16 {
            t[i] = ANY | TOO_LARGE | TOO_LARGE_1000;
            i += 1;
        }
        t[0xD] = ANY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE;
        t
    };

    /// Indexed by the current byte's high nibble.
    pub(super) const CUR_HIGH: [u8; 16] = {
        let mut t = [TOO_SHORT; 16];
        const CONT: u8 = TOO_LONG | OVERLONG_2 | TWO_CONTS;
        t[0x8] = CONT | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4;
        t[0x9] = CONT | OVERLONG_3 | TOO_LARGE;
        t[0xA] = CONT | SURROGATE | TOO_LARGE;
        t[0xB] = CONT | SURROGATE | TOO_LARGE;
        t
    };

    /// Per position of a 64-byte block: the largest byte that does not start a character
    /// running past the block's end (F0.. at 61, E0.. at 62, C0.. at 63). The last 32
    /// entries serve 32-byte blocks.
    pub(super) const INCOMPLETE_MAX: [u8; 64] = {
        let mut t = [0xFF; 64];
        t[61] = 0xF0 - 1;
        t[62] = 0xE0 - 1;
        t[63] = 0xC0 - 1;
        t
    };
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::lookup::{CUR_HIGH, INCOMPLETE_MAX, PREV_HIGH, PREV_LOW};
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

    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    // Hot loop. Bounds: `src.len() >= 64` before `src[..64]`; `i` only advances by 64
    // while `i + 64 <= src.len()`, so `i <= src.len()` and the sum cannot overflow.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    pub(crate) unsafe fn valid_prefix_len(src: &[u8]) -> usize {
        let t = Tables {
            prev_high: table(&PREV_HIGH),
            prev_low: table(&PREV_LOW),
            cur_high: table(&CUR_HIGH),
            nibble: _mm256_set1_epi8(0x0F),
            // SAFETY: 32 readable bytes.
            incomplete_max: unsafe { _mm256_loadu_si256(INCOMPLETE_MAX[32..].as_ptr().cast()) },
        };
        if src.len() < 64 {
            return super::scalar::valid_prefix_len(src);
        }
        // The first 64 bytes, with three NUL bytes in front (the stream's start is a
        // character boundary).
        let mut first = [0u8; 67];
        first[3..].copy_from_slice(&src[..64]);
        // SAFETY: `first[0..67]` is readable: 3 bytes before the 64 at index 3.
        let Some(mut incomplete) = (unsafe { step(&t, first.as_ptr().add(3), false) }) else {
            return super::scalar::valid_prefix_len(src);
        };
        let mut i = 64;
        while i + 64 <= src.len() {
            // SAFETY: `3 <= i` and `i + 64 <= src.len()`: `src[i - 3 .. i + 64]` is readable.
            match unsafe { step(&t, src.as_ptr().add(i), incomplete) } {
                Some(ends_inside) => incomplete = ends_inside,
                None => break,
            }
            i += 64;
        }
        super::finish(src, i)
    }
}

/// The same with 64-byte AVX-512 vectors; the table lookups are `vpermb` (its index is
/// the low six bits, and the 16-entry tables are repeated four times), which needs no
/// masking of the nibbles.
#[cfg(target_arch = "x86_64")]
mod avx512_validation {
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
    /// runs past them. `incomplete` says whether the previous 64 bytes ended so.
    ///
    /// # Safety
    /// The CPU must support AVX-512 F/BW/VBMI; `p - 3 .. p + 64` must be readable.
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
    #[inline]
    unsafe fn step(t: &Tables, p: *const u8, incomplete: bool) -> Option<bool> {
        // SAFETY: `p .. p + 64` is readable.
        let input = unsafe { _mm512_loadu_si512(p.cast()) };
        if _mm512_movepi8_mask(input) == 0 {
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
        Some(ends_inside(t, input))
    }

    /// # Safety
    /// The CPU must support AVX2 and AVX-512 F/BW/VBMI.
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
    // Hot loop. Bounds: `src.len() >= 64` before `src[..64]`; `i` only advances by 128 or
    // 64 while `i + 128` or `i + 64` is at most `src.len()`, so `i <= src.len()` and the
    // sums cannot overflow.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    pub(crate) unsafe fn valid_prefix_len(src: &[u8]) -> usize {
        let t = Tables::new();
        if src.len() < 64 {
            return super::scalar::valid_prefix_len(src);
        }
        let mut first = [0u8; 67];
        first[3..].copy_from_slice(&src[..64]);
        // SAFETY: `first[0..67]` is readable: 3 bytes before the 64 at index 3.
        let Some(mut incomplete) = (unsafe { step(&t, first.as_ptr().add(3), false) }) else {
            return super::scalar::valid_prefix_len(src);
        };
        let mut i = 64;
        while i + 64 <= src.len() {
            if !incomplete && i + 128 <= src.len() {
                // Skip ASCII two vectors at a time.
                // SAFETY: `i + 128 <= src.len()`.
                let (a, b) = unsafe {
                    (
                        _mm512_loadu_si512(src.as_ptr().add(i).cast()),
                        _mm512_loadu_si512(src.as_ptr().add(i + 64).cast()),
                    )
                };
                if _mm512_movepi8_mask(_mm512_or_si512(a, b)) == 0 {
                    i += 128;
                    continue;
                }
            }
            // SAFETY: `3 <= i` and `i + 64 <= src.len()`: `src[i - 3 .. i + 64]` is readable.
            match unsafe { step(&t, src.as_ptr().add(i), incomplete) } {
                Some(ends_inside) => incomplete = ends_inside,
                None => break,
            }
            i += 64;
        }
        super::finish(src, i)
    }
}

/// Every character ending before `i` is known valid: run the scalar twin from the first
/// byte of the character that straddles `i` (at most three bytes back).
// Bounds: the validators call this with `64 <= i <= src.len()`. `start` starts at
// `i - 1 < src.len()` and only moves down (by one) while it is above 0 and less than 4
// below `i`, so `i - start` and `start - 1` cannot underflow, `src[start]` and
// `src[start..]` are in bounds, and `start + …` is at most `src.len()` (the scalar twin
// returns a prefix length of `src[start..]`).
#[cfg(target_arch = "x86_64")]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
fn finish(src: &[u8], i: usize) -> usize {
    let mut start = i;
    if i > 0 {
        start = i - 1;
        while start > 0 && i - start < 4 && (src[start] as i8) < -0x40 {
            start -= 1;
        }
    }
    start + scalar::valid_prefix_len(&src[start..])
}

/// UTF-8 → UTF-16 for input already known to be valid, in 32-byte windows with AVX-512
/// (since [`avx512_fused`], only for the last stretch of fewer than 64 bytes it leaves).
///
/// Lane j of a window gets the code point of the character whose last byte is j: its
/// payload bits combined with those of the one or two bytes before it (loaded from j-1
/// and j-2, so characters that straddle windows need no carry). A 4-byte character gives
/// its high surrogate at its third byte and its low surrogate at its last. `vpcompressw`
/// keeps the lanes that end a character (the next byte is not a continuation) and the
/// high-surrogate lanes. Windows advance by a fixed 32 bytes, so the only loop-carried
/// work is the output count; when a 4-byte character's third byte is the window's last,
/// the next window starts at that character instead.
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use core::arch::x86_64::*;

    /// # Safety
    /// The CPU must support AVX2, BMI2, POPCNT and AVX-512 F/BW/VL/VBMI2, and `src` must be valid
    /// UTF-8.
    #[target_feature(enable = "avx2,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi2")]
    // Hot loop. Bounds: each window runs only while `i + 33 <= src.len()` and
    // `written + 32 <= dst.len()`, and then advances `i` by 32 or 29 and `written` by at
    // most 32 (a compress mask's popcount), so neither passes its slice's length and no
    // sum can overflow. `i - 1`, `i - 2`, `i - 3` are taken only when `i >= 3`; `src[i..i +
    // 32]` is within `i + 33`; `32 - leading_zeros` of a `u32` is 0..=32.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    pub(crate) unsafe fn to_utf16(src: &[u8], dst: &mut [u16]) -> (usize, usize) {
        // Payload mask by high nibble: ASCII 7 bits, continuation 6, 2-byte lead 5,
        // 3-byte lead 4, 4-byte lead 3.
        const PAYLOAD: [u8; 16] = [
            0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x3F, 0x3F, 0x3F, 0x3F, 0x1F, 0x1F,
            0x0F, 0x07,
        ];
        // SAFETY: 16 readable bytes.
        let payload_table =
            _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(PAYLOAD.as_ptr().cast()) });
        let nibble = _mm256_set1_epi8(0x0F);
        let f0 = _mm256_set1_epi8(0xF0u8 as i8);
        let below_c0 = _mm256_set1_epi8(-0x40);
        let payload = |v: __m256i| {
            let high = _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble);
            _mm512_cvtepu8_epi16(_mm256_and_si256(
                v,
                _mm256_shuffle_epi8(payload_table, high),
            ))
        };
        // Continuations are 0x80..0xBF: below -0x40 as i8.
        let cont = |v: __m256i| _mm256_movemask_epi8(_mm256_cmpgt_epi8(below_c0, v)) as u32;
        let lead4 =
            |v: __m256i| _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(v, f0), v)) as u32;
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
        let (mut i, mut read, mut written) = (0, 0, 0);
        // Bytes i-3..=i+32 are looked at (those before the start count as NUL); up to 32
        // units are stored.
        while i + 33 <= src.len() && written + 32 <= dst.len() {
            // SAFETY: `i + 33 <= src.len()`: the loads at `i` and `i + 1` are in bounds.
            let (input, next) = unsafe {
                (
                    _mm256_loadu_si256(s.add(i).cast()),
                    _mm256_loadu_si256(s.add(i + 1).cast()),
                )
            };
            if _mm256_movemask_epi8(input) == 0 {
                // All ASCII (so the window starts and ends on character boundaries).
                // SAFETY: `written + 32 <= dst.len()`.
                unsafe { _mm512_storeu_si512(d.add(written).cast(), _mm512_cvtepu8_epi16(input)) };
                i += 32;
                read = i;
                written += 32;
                continue;
            }
            let (back1, back2, back3) = if i >= 3 {
                // SAFETY: `3 <= i` and `i + 32 <= src.len()`: the loads are in bounds.
                unsafe {
                    (
                        _mm256_loadu_si256(s.add(i - 1).cast()),
                        _mm256_loadu_si256(s.add(i - 2).cast()),
                        _mm256_loadu_si256(s.add(i - 3).cast()),
                    )
                }
            } else {
                // Only the first window (i == 0): NUL before the start.
                let mut buf = [0u8; 35];
                buf[3..].copy_from_slice(&src[i..i + 32]);
                // SAFETY: each load reads 32 of the 35 bytes of `buf`.
                unsafe {
                    (
                        _mm256_loadu_si256(buf.as_ptr().add(2).cast()),
                        _mm256_loadu_si256(buf.as_ptr().add(1).cast()),
                        _mm256_loadu_si256(buf.as_ptr().cast()),
                    )
                }
            };
            let c0 = cont(input);
            let c1 = cont(back1);
            // Lane j ends a character when byte j + 1 is not a continuation.
            let ends = !cont(next);
            let (p0, p1, p2) = (payload(input), payload(back1), payload(back2));
            // A continuation takes the payload before it, shifted 6; the third byte of a
            // 3-byte character also the one before that, shifted 12.
            let mut cp = _mm512_or_si512(
                p0,
                _mm512_or_si512(
                    _mm512_maskz_slli_epi16::<6>(c0, p1),
                    _mm512_maskz_slli_epi16::<12>(c0 & c1, p2),
                ),
            );
            let mut keep = ends;
            let (third, fourth) = (lead4(back2), lead4(back3));
            if third | fourth != 0 {
                // High surrogate at the third byte: 0xD800 + (code point >> 10) - 0x40.
                let high = _mm512_add_epi16(
                    _mm512_or_si512(
                        _mm512_or_si512(_mm512_slli_epi16::<8>(p2), _mm512_slli_epi16::<2>(p1)),
                        _mm512_srli_epi16::<4>(p0),
                    ),
                    _mm512_set1_epi16(0xD7C0u16 as i16),
                );
                // Low surrogate at the fourth: 0xDC00 + the low 10 bits.
                let low = _mm512_or_si512(
                    _mm512_or_si512(
                        _mm512_slli_epi16::<6>(_mm512_and_si512(p1, _mm512_set1_epi16(0x0F))),
                        p0,
                    ),
                    _mm512_set1_epi16(0xDC00u16 as i16),
                );
                cp = _mm512_mask_mov_epi16(cp, third, high);
                cp = _mm512_mask_mov_epi16(cp, fourth, low);
                keep |= third;
                if third >> 31 != 0 {
                    // The character's last byte is in the next window: start that window
                    // at the character (its lead is byte 29) so both halves go together.
                    keep &= !(1 << 31);
                    let units = _mm512_maskz_compress_epi16(keep, cp);
                    // SAFETY: `written + 32 <= dst.len()`.
                    unsafe { _mm512_storeu_si512(d.add(written).cast(), units) };
                    written += keep.count_ones() as usize;
                    i += 29;
                    read = i;
                    continue;
                }
            }
            let units = _mm512_maskz_compress_epi16(keep, cp);
            // SAFETY: `written + 32 <= dst.len()`.
            unsafe { _mm512_storeu_si512(d.add(written).cast(), units) };
            written += keep.count_ones() as usize;
            // Characters that end in this window are done; one that straddles its end is
            // finished by the next window (or left to the caller).
            read = i + 32 - ends.leading_zeros() as usize;
            i += 32;
        }
        (read, written)
    }
}

/// The longest character boundary at or before `i`, given that every character ending
/// before `i` is valid (it looks at most three bytes back: the character that contains
/// byte `i - 1` either ends there or straddles `i`).
// Bounds: `i <= src.len()`. `k` runs over 1..=3 while `k <= i`, so `src[i - k]` is in
// bounds and `i - k` cannot underflow; a lead's length is 2..=4.
#[cfg(target_arch = "x86_64")]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
fn boundary_before(src: &[u8], i: usize) -> usize {
    for k in 1..=3.min(i) {
        let b = src[i - k];
        if b < 0x80 {
            return i;
        }
        if b >= 0xC0 {
            let len = if b >= 0xF0 {
                4
            } else if b >= 0xE0 {
                3
            } else {
                2
            };
            return if len > k { i - k } else { i };
        }
    }
    i
}

/// UTF-8 → UTF-16 in one pass with AVX-512: each 64-byte block is validated (the
/// nibble-lookup checks of [`avx512_validation`], unless the input is a `str`) and
/// converted while it is in registers.
///
/// * All-ASCII blocks are widened (two stores). (Starting the next block where the output
///   is aligned to a cache line made mixed text 2× slower.)
/// * Blocks of 1- to 3-byte characters: lane j computes the two bytes of the UTF-16 unit
///   of the character whose last byte is j, from bytes j, j - 1, j - 2 (loaded at
///   offsets -1 and -2, so characters that straddle blocks need no carry): the low byte
///   is ASCII as is, else the last byte's six payload bits and two of the byte before;
///   the high byte is four bits of the byte before and, when the byte two back is a
///   3-byte lead, its four payload bits (each piece is one `vpermb` from a 64-entry
///   table indexed by the byte it comes from, zero-masked). `vpcompressb` keeps the
///   lanes that end a character (the next byte is not a continuation) in both, and
///   `vpermt2b` interleaves them into 64 units (two stores).
/// * Blocks that end a 4-byte character (rare) go to the scalar twin.
/// * Whether a block ends inside a character (then the next must not be ASCII, and its
///   last lane does not end one) comes from its last four bytes in a general register.
///
/// Blocks advance by 64 bytes, so a character straddling a block's end is converted by the
/// next block, which sees all of its bytes through the offset loads.
#[cfg(target_arch = "x86_64")]
mod avx512_fused {
    use super::avx512_validation::{invalid, Leads, Tables};
    use core::arch::x86_64::*;

    /// `vpermt2b` indices that interleave low bytes (first operand) and high bytes
    /// (second) into units: `INTERLEAVE[0]` for units 0..32, `[1]` for 32..64.
    // Bounds: evaluated at compile time (`k < 32`, so `2 * k + 1 < 64`); an out-of-bounds
    // index or an overflow would fail the build, it cannot panic at run time.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    const INTERLEAVE: [[u8; 64]; 2] = {
        let mut t = [[0u8; 64]; 2];
        let mut k = 0;
        while k < 32 {
            t[0][2 * k] = k as u8;
            t[0][2 * k + 1] = 64 + k as u8;
            t[1][2 * k] = 32 + k as u8;
            t[1][2 * k + 1] = 96 + k as u8;
            k += 1;
        }
        t
    };

    /// `vpermb` tables indexed by the low six bits of a byte `x`: `[0]` the XOR that turns
    /// a continuation into the low byte of its unit when `x` is the byte before it (the
    /// top two bits `0b10` become `x`'s low two); `[1]` `x`'s bits 2..=5, the high byte's
    /// low nibble; `[2]` a 3-byte lead's payload, the high byte's high nibble.
    // Bounds: evaluated at compile time (`x < 64`); an out-of-bounds index or an overflow
    // would fail the build, it cannot panic at run time.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    const BY_LOW_SIX: [[u8; 64]; 3] = {
        let mut t = [[0u8; 64]; 3];
        let mut x = 0;
        while x < 64 {
            t[0][x] = (((x & 3) ^ 2) << 6) as u8;
            t[1][x] = ((x >> 2) & 0x0F) as u8;
            t[2][x] = ((x & 0x0F) << 4) as u8;
            x += 1;
        }
        t
    };

    /// Converts (and, if `VALIDATE`, validates) `src` to UTF-16 into `dst`, whole
    /// characters only. Returns (bytes of `src` read, units written): `src[..read]` is
    /// valid UTF-8 and ends on a character boundary, and `dst[..written]` is its UTF-16.
    /// It stops before the 64-byte block with the first error, when fewer than 64 bytes
    /// or 64 units of room are left, or earlier (`read` may be 0); `dst` past `written`
    /// may be overwritten.
    ///
    /// # Safety
    /// The CPU must support AVX2, BMI2, POPCNT and AVX-512 F/BW/VL/VBMI/VBMI2. Unless
    /// `VALIDATE`, `src` must be valid UTF-8.
    #[target_feature(enable = "avx2,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
    // Hot loop. Bounds: a block runs only while `i + 64 <= src.len()` and
    // `written + 64 <= dst.len()`; it advances `i` by at most 64 and `written` by at most
    // 64 (a compress mask's popcount, the units of an ASCII block, or what the scalar
    // twin wrote into `dst[written..]`), so neither passes its slice's length and no sum
    // can overflow. The offset loads at `i - 1 ..= i - 3` are taken only when `i > 0`,
    // and then `i >= 64`. `boundary_before(src, x)`
    // returns a value in `x - 3 ..= x` for `x <= src.len()`, so `start <= end`.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    pub(crate) unsafe fn to_utf16<const VALIDATE: bool>(
        src: &[u8],
        dst: &mut [u16],
    ) -> (usize, usize) {
        if src.len() < 64 {
            return (0, 0);
        }
        let t = Tables::new();
        // SAFETY: 64 readable bytes each.
        let (interleave_lo, interleave_hi) = unsafe {
            (
                _mm512_loadu_si512(INTERLEAVE[0].as_ptr().cast()),
                _mm512_loadu_si512(INTERLEAVE[1].as_ptr().cast()),
            )
        };
        let below_c0 = _mm512_set1_epi8(-0x40);
        let e0 = _mm512_set1_epi8(0xE0u8 as i8);
        let f0 = _mm512_set1_epi8(0xF0u8 as i8);
        // SAFETY: 64 readable bytes each.
        let (t_lo, t_hi, t_lead) = unsafe {
            (
                _mm512_loadu_si512(BY_LOW_SIX[0].as_ptr().cast()),
                _mm512_loadu_si512(BY_LOW_SIX[1].as_ptr().cast()),
                _mm512_loadu_si512(BY_LOW_SIX[2].as_ptr().cast()),
            )
        };
        // The first block, with three NUL bytes in front (the start is a character
        // boundary).
        let mut first = [0u8; 67];
        first[3..].copy_from_slice(&src[..64]);
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
        let (mut i, mut written) = (0, 0);
        // Whether the last block ended inside a character.
        let mut pending = false;
        while i + 64 <= src.len() && written + 64 <= dst.len() {
            // SAFETY: `first` holds `src[..64]` at 3; for `i > 0`, `i + 64 <= src.len()`.
            let p = unsafe {
                if i == 0 {
                    first.as_ptr().add(3)
                } else {
                    s.add(i)
                }
            };
            // SAFETY: `p .. p + 64` is readable (see above).
            let v = unsafe { _mm512_loadu_si512(p.cast()) };
            if _mm512_movepi8_mask(v) == 0 {
                if VALIDATE && pending {
                    break;
                }
                let lo = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v));
                let hi = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(v));
                // SAFETY: `written + 64 <= dst.len()`.
                unsafe {
                    _mm512_storeu_si512(d.add(written).cast(), lo);
                    _mm512_storeu_si512(d.add(written + 32).cast(), hi);
                }
                i += 64;
                written += 64;
                continue;
            }
            // SAFETY: `p - 3 .. p` is readable: `first` has three bytes before `p`, and
            // `i >= 64` otherwise.
            let (b1, b2, b3) = unsafe {
                (
                    _mm512_loadu_si512(p.sub(1).cast()),
                    _mm512_loadu_si512(p.sub(2).cast()),
                    _mm512_loadu_si512(p.sub(3).cast()),
                )
            };
            // Leads 2 and 3 bytes back: of the 3- and 4-byte characters that end here.
            let leads = if VALIDATE {
                let (invalid, leads) = invalid(&t, v, b1, b2, b3);
                if invalid {
                    break;
                }
                leads
            } else {
                Leads {
                    three: _mm512_cmpge_epu8_mask(b2, e0),
                    four: _mm512_cmpge_epu8_mask(b3, f0),
                }
            };
            // The block ends inside a character: a lead of 2+ bytes at 63, of 3+ at 62 or
            // of 4 at 61. Per byte, adding the lowest of the bits that must all be set
            // carries into a bit that is 0 otherwise.
            let last = u32::from_le_bytes([src[i + 60], src[i + 61], src[i + 62], src[i + 63]]);
            pending = (u64::from(last & 0xC0E0_F000) + 0x4020_1000) & 0x1_0101_0000 != 0;
            if leads.four != 0 {
                // Rare: the scalar twin converts the characters that end in this block.
                let start = super::boundary_before(src, i);
                let end = super::boundary_before(src, i + 64);
                // SAFETY: the characters that end before `i + 64` are valid (checked
                // above, or `src` is valid), and `start`, `end` are boundaries.
                let chars = unsafe { core::str::from_utf8_unchecked(&src[start..end]) };
                let (r, w) = super::scalar::to_utf16(chars, &mut dst[written..]);
                written += w;
                if r < chars.len() {
                    return (start + r, written);
                }
                i += 64;
                continue;
            }
            let cont0 = _mm512_cmplt_epi8_mask(v, below_c0);
            // Lane j ends a character when byte j + 1 is not a continuation; lane 63 when
            // the block does not end inside one.
            let ends = !((cont0 >> 1) | (u64::from(pending) << 63));
            // Low byte: ASCII as is; else the last byte's payload and the low two bits of
            // the byte before: the top two bits flipped from the continuation's 0b10.
            let lo = _mm512_xor_si512(v, _mm512_maskz_permutexvar_epi8(cont0, b1, t_lo));
            // High byte: bits 2..=5 of the byte before and, for a 3-byte character (a
            // 3-byte lead two back, in a lane that ends a character, is its own), the
            // lead's payload above them; 0 for ASCII.
            let hi = _mm512_or_si512(
                _mm512_maskz_permutexvar_epi8(cont0, b1, t_hi),
                _mm512_maskz_permutexvar_epi8(leads.three, b2, t_lead),
            );
            let lo = _mm512_maskz_compress_epi8(ends, lo);
            let hi = _mm512_maskz_compress_epi8(ends, hi);
            // SAFETY: `written + 64 <= dst.len()`.
            unsafe {
                _mm512_storeu_si512(
                    d.add(written).cast(),
                    _mm512_permutex2var_epi8(lo, interleave_lo, hi),
                );
                _mm512_storeu_si512(
                    d.add(written + 32).cast(),
                    _mm512_permutex2var_epi8(lo, interleave_hi, hi),
                );
            }
            written += ends.count_ones() as usize;
            i += 64;
        }
        (super::boundary_before(src, i), written)
    }
}

#[cfg(test)]
// Bounds: test code over small buffers it builds itself; an out-of-range index, an
// overflow or a failed unwrap would panic and fail the test, which is what a test should do.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::unwrap_used
)]
mod tests {
    use super::super::dispatch::available_kernels;
    use super::*;
    use alloc::vec::Vec;

    /// Deliberately naive oracle: the Standard's UTF-8 decoder steps, one byte at a time,
    /// returning where the first error begins (the valid prefix).
    fn naive_valid_prefix(src: &[u8]) -> usize {
        let (mut needed, mut seen, mut lower, mut upper) = (0, 0, 0x80, 0xBF);
        let mut start = 0;
        for (i, &b) in src.iter().enumerate() {
            if needed == 0 {
                start = i;
                match b {
                    0x00..=0x7F => continue,
                    0xC2..=0xDF => needed = 1,
                    0xE0..=0xEF => {
                        if b == 0xE0 {
                            lower = 0xA0;
                        }
                        if b == 0xED {
                            upper = 0x9F;
                        }
                        needed = 2;
                    }
                    0xF0..=0xF4 => {
                        if b == 0xF0 {
                            lower = 0x90;
                        }
                        if b == 0xF4 {
                            upper = 0x8F;
                        }
                        needed = 3;
                    }
                    _ => return i,
                }
                continue;
            }
            if b < lower || b > upper {
                return start;
            }
            lower = 0x80;
            upper = 0xBF;
            seen += 1;
            if seen == needed {
                needed = 0;
                seen = 0;
            }
        }
        if needed == 0 {
            src.len()
        } else {
            start
        }
    }

    /// Naive UTF-16 of valid UTF-8: the textbook bit arithmetic, one character at a time.
    fn naive_utf16(src: &[u8]) -> Vec<u16> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < src.len() {
            let b = u32::from(src[i]);
            let (len, mut cp) = match b {
                0..=0x7F => (1, b),
                0xC0..=0xDF => (2, b & 0x1F),
                0xE0..=0xEF => (3, b & 0x0F),
                _ => (4, b & 0x07),
            };
            for k in 1..len {
                cp = (cp << 6) | (u32::from(src[i + k]) & 0x3F);
            }
            if cp >= 0x10000 {
                out.push((0xD800 + ((cp - 0x10000) >> 10)) as u16);
                out.push((0xDC00 + (cp & 0x3FF)) as u16);
            } else {
                out.push(cp as u16);
            }
            i += len;
        }
        out
    }

    /// Texts of every character length, mixed so that characters straddle every
    /// position of a vector.
    fn samples() -> Vec<Vec<u8>> {
        let pieces = [
            "a",
            "é",
            "ж",
            "€",
            "日本",
            "😀",
            "\u{7FF}",
            "\u{800}",
            "\u{FFFF}",
            "\u{10FFFF}",
        ];
        // Without 4-byte characters too: the AVX-512 conversion leaves blocks with them to
        // the scalar twin.
        let bmp: Vec<&str> = pieces.iter().copied().filter(|p| p.len() < 4).collect();
        // One- and two-byte characters only (Latin, Greek, Cyrillic … text).
        let two: Vec<&str> = pieces.iter().copied().filter(|p| p.len() < 3).collect();
        let mut out = Vec::new();
        for pieces in [&pieces[..], &bmp[..], &two[..]] {
            for seed in 0..pieces.len() {
                let mut s = alloc::string::String::new();
                let mut k = seed;
                while s.len() < 220 {
                    s.push_str(pieces[k % pieces.len()]);
                    k = (k * 7 + 3) % 1009;
                }
                out.push(s.into_bytes());
            }
        }
        out.push(alloc::vec![b'x'; 220]);
        out
    }

    /// Bytes that break UTF-8 in every way the Standard distinguishes.
    const BAD: &[&[u8]] = &[
        b"\x80",
        b"\xBF",
        b"\xC0\x80",
        b"\xC1\xBF",
        b"\xC2",
        b"\xE0\x80\x80",
        b"\xE0\x9F\xBF",
        b"\xE1\x80",
        b"\xED\xA0\x80",
        b"\xED\xBF\xBF",
        b"\xEF\xBF",
        b"\xF0\x80\x80\x80",
        b"\xF0\x8F\xBF\xBF",
        b"\xF4\x90\x80\x80",
        b"\xF5\x80\x80\x80",
        b"\xFF",
        b"\xF1\x80\x80",
        b"\xF8\x88\x80\x80\x80",
        b"\xC2\xC2",
    ];

    #[test]
    fn validation_matches_the_naive_oracle() {
        let (step, lens) = if cfg!(miri) { (37, 70) } else { (1, 200) };
        for k in available_kernels() {
            for text in samples()
                .into_iter()
                .take(if cfg!(miri) { 3 } else { usize::MAX })
            {
                for len in (0..lens.min(text.len())).step_by(if cfg!(miri) { 13 } else { 1 }) {
                    let valid = &text[..len];
                    assert_eq!(
                        valid_prefix_len_with(k, valid),
                        naive_valid_prefix(valid),
                        "{k:?} {len}"
                    );
                    for bad in BAD {
                        for at in (0..=len).step_by(step) {
                            let mut buf = valid[..at].to_vec();
                            buf.extend_from_slice(bad);
                            buf.extend_from_slice(&valid[at..]);
                            assert_eq!(
                                valid_prefix_len_with(k, &buf),
                                naive_valid_prefix(&buf),
                                "{k:?} {len} {at} {bad:x?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn validation_matches_the_oracle_on_every_short_sequence() {
        if cfg!(miri) {
            return;
        }
        // Every 1- and 2-byte string and a sweep of 3-/4-byte ones, after ASCII padding
        // of every length up to two vectors so each straddles the block boundaries.
        let interesting: Vec<u8> = (0..=255u8)
            .filter(|b| b % 16 == 0 || b % 16 == 15 || matches!(b, 0xC1..=0xC2 | 0xDF..=0xE1 | 0xEC..=0xEE | 0xF3..=0xF5 | 0x8F..=0x90 | 0x9F..=0xA0))
            .collect();
        for k in available_kernels() {
            for pad in [0usize, 29, 30, 31, 32, 33, 61, 62, 63, 64, 65] {
                let mut buf = alloc::vec![b'.'; pad];
                for &a in &interesting {
                    for &b in &interesting {
                        for &c in &[0x80u8, 0xBF, b'z'] {
                            for &d in &[0x80u8, b'z'] {
                                buf.truncate(pad);
                                buf.extend_from_slice(&[a, b, c, d]);
                                buf.extend_from_slice(&[b'.'; 70]);
                                assert_eq!(
                                    valid_prefix_len_with(k, &buf),
                                    naive_valid_prefix(&buf),
                                    "{k:?} {pad} {a:x} {b:x} {c:x} {d:x}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn to_utf16_handles_characters_straddling_every_window_position() {
        let pads = if cfg!(miri) { 0..3 } else { 0..70 };
        for k in available_kernels() {
            for pad in pads.clone() {
                for piece in ["é", "€", "😀"] {
                    let mut s = alloc::string::String::from("a").repeat(pad);
                    while s.len() < pad + 100 {
                        s.push_str(piece);
                    }
                    s.push_str(&"b".repeat(40));
                    let expected = naive_utf16(s.as_bytes());
                    let mut dst = alloc::vec![0u16; expected.len() + 32];
                    let (r, w) = to_utf16_with(k, &s, &mut dst);
                    assert_eq!(
                        (r, &dst[..w]),
                        (s.len(), &expected[..]),
                        "{k:?} {pad} {piece}"
                    );
                }
            }
        }
    }

    #[test]
    fn to_utf16_matches_the_naive_oracle() {
        let step = if cfg!(miri) { 17 } else { 1 };
        for k in available_kernels() {
            for text in samples()
                .into_iter()
                .take(if cfg!(miri) { 3 } else { usize::MAX })
            {
                for start in 0..4 {
                    for end in (start..text.len()).step_by(step) {
                        let Ok(s) = core::str::from_utf8(&text[start..end]) else {
                            continue;
                        };
                        let expected = naive_utf16(s.as_bytes());
                        for room in [expected.len(), expected.len() + 40, expected.len() / 2] {
                            let mut dst = alloc::vec![0u16; room];
                            let (r, w) = to_utf16_with(k, s, &mut dst);
                            assert!(s.is_char_boundary(r));
                            assert_eq!(&dst[..w], &naive_utf16(&s.as_bytes()[..r])[..], "{k:?}");
                            // Stopped only for room: the next character would not fit.
                            if r < s.len() {
                                let c = s[r..].chars().next().unwrap();
                                assert!(w + c.len_utf16() > room, "{k:?} {r} {w} {room}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// Runs of ASCII and of one other character length, of lengths that put every kind of
    /// boundary at every position of a 64-byte block: 2-byte-only stretches, 3-byte ones,
    /// 4-byte ones, ASCII runs longer than a block (the ASCII step realigns the output).
    fn runs() -> Vec<Vec<u8>> {
        let pieces = [
            "é",
            "ж",
            "\u{7FF}",
            "€",
            "日",
            "\u{FFFF}",
            "😀",
            "\u{10FFFF}",
        ];
        let mut out = Vec::new();
        let mut seed = 7u32;
        let mut next = |m: u32| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (seed >> 16) % m
        };
        for round in 0..if cfg!(miri) { 2 } else { 24 } {
            let mut s = alloc::string::String::new();
            while s.len() < 600 {
                let ascii = next(if round % 3 == 0 { 200 } else { 40 });
                for k in 0..ascii {
                    s.push(char::from(b'a' + (k % 26) as u8));
                }
                // Mostly 1- and 2-byte characters in a third of the texts.
                let kinds = if round % 3 == 1 {
                    2
                } else {
                    pieces.len() as u32
                };
                let piece = pieces[next(kinds) as usize];
                for _ in 0..next(50) {
                    s.push_str(piece);
                }
            }
            out.push(s.into_bytes());
        }
        out
    }

    /// The fused kernel's contract (a valid prefix, converted, ending on a boundary, short
    /// of the valid prefix by at most a block and a character, or of the end by the last
    /// 64 bytes), and the whole decode that `Utf16Sink::copy_valid_utf8` makes of it:
    /// fused prefix, then validation and conversion of the rest.
    #[test]
    fn validate_to_utf16_matches_the_naive_oracle() {
        let step = if cfg!(miri) { 61 } else { 1 };
        for k in available_kernels() {
            for text in runs().into_iter().chain(samples()) {
                for start in 0..3 {
                    let text = &text[start..];
                    let bad_at = (0..text.len()).step_by(step * 7).map(Some).chain([None]);
                    for (n, at) in bad_at.enumerate() {
                        let mut buf = text.to_vec();
                        if let Some(at) = at {
                            let bad = BAD[n % BAD.len()];
                            buf.splice(at..at, bad.iter().copied());
                        }
                        let valid = naive_valid_prefix(&buf);
                        let expected = naive_utf16(&buf[..valid]);
                        for room in [expected.len() + 64, expected.len(), expected.len() / 2] {
                            let mut dst = alloc::vec![0u16; room];
                            let (r, w) = validate_to_utf16_with(k, &buf, &mut dst);
                            assert!(r <= valid, "{k:?} {at:?} {r} {valid}");
                            assert!(core::str::from_utf8(&buf[..r]).is_ok());
                            assert_eq!(&dst[..w], &naive_utf16(&buf[..r])[..], "{k:?} {at:?}");
                            if k.name() == "avx512" && room >= expected.len() + 64 {
                                // Stops only at the block with the error or at the end.
                                assert!(r + 64 + 3 >= valid.min(buf.len() - 63), "{r} {valid}");
                            }
                            // The rest as `copy_valid_utf8` does it.
                            let rest = valid_prefix_len_with(k, &buf[r..]);
                            let rest = core::str::from_utf8(&buf[r..r + rest]).unwrap();
                            let (r2, w2) = to_utf16_with(k, rest, &mut dst[w..]);
                            if room >= expected.len() {
                                assert_eq!(r + r2, valid, "{k:?} {at:?}");
                                assert_eq!(&dst[..w + w2], &expected[..], "{k:?} {at:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn to_utf16_matches_the_oracle_on_runs() {
        for k in available_kernels() {
            for text in runs() {
                for start in 0..4 {
                    let Ok(s) = core::str::from_utf8(&text[start..]) else {
                        continue;
                    };
                    let expected = naive_utf16(s.as_bytes());
                    for room in [expected.len(), expected.len() + 64, expected.len() / 3] {
                        let mut dst = alloc::vec![0u16; room];
                        let (r, w) = to_utf16_with(k, s, &mut dst);
                        assert_eq!(&dst[..w], &naive_utf16(&s.as_bytes()[..r])[..], "{k:?}");
                        if r < s.len() {
                            let c = s[r..].chars().next().unwrap();
                            assert!(w + c.len_utf16() > room, "{k:?} {r} {w} {room}");
                        }
                    }
                }
            }
        }
    }
}
