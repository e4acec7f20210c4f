use core::arch::x86_64::*;

/// Counts over 64-byte vectors: `count_of(v)` gives a vector's count (popcounts of its
/// masks, at most 128). Two vectors per step (two independent sums). Returns (bytes
/// read, count).
///
/// # Safety
/// `p .. p + len` must be readable.
// Bounds: `i` advances by 64 or 128 while that many bytes are left; a count is at most
// the bits set, each once.
#[allow(clippy::arithmetic_side_effects)]
#[inline(always)]
unsafe fn count(p: *const u8, len: usize, count_of: impl Fn(__m512i) -> u32) -> (usize, usize) {
    let (mut i, mut a, mut b) = (0, 0u64, 0u64);
    while i + 128 <= len {
        // SAFETY: `i + 128 <= len`.
        unsafe {
            a += u64::from(count_of(_mm512_loadu_si512(p.add(i).cast())));
            b += u64::from(count_of(_mm512_loadu_si512(p.add(i + 64).cast())));
        }
        i += 128;
    }
    if i + 64 <= len {
        // SAFETY: `i + 64 <= len`.
        a += u64::from(count_of(unsafe { _mm512_loadu_si512(p.add(i).cast()) }));
        i += 64;
    }
    (i, (a + b) as usize)
}

/// # Safety
/// The CPU must support AVX-512 F/BW and POPCNT.
#[target_feature(enable = "popcnt,avx512f,avx512bw")]
pub(crate) unsafe fn utf8_char_count(src: &[u8]) -> (usize, usize) {
    let lead = _mm512_set1_epi8(-65);
    // SAFETY: `src` is readable.
    unsafe {
        count(src.as_ptr(), src.len(), |v| {
            _mm512_cmpgt_epi8_mask(v, lead).count_ones()
        })
    }
}

/// # Safety
/// The CPU must support AVX-512 F/BW and POPCNT.
#[target_feature(enable = "popcnt,avx512f,avx512bw")]
// Bounds: a sum of two counts of `src`'s bytes.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) unsafe fn utf8_utf16_len(src: &[u8]) -> (usize, usize) {
    let (lead, four) = (_mm512_set1_epi8(-65), _mm512_set1_epi8(0xF0u8 as i8));
    // SAFETY: `src` is readable.
    unsafe {
        count(src.as_ptr(), src.len(), |v| {
            _mm512_cmpgt_epi8_mask(v, lead).count_ones()
                + _mm512_cmpge_epu8_mask(v, four).count_ones()
        })
    }
}

/// # Safety
/// The CPU must support AVX-512 F/BW and POPCNT.
#[target_feature(enable = "popcnt,avx512f,avx512bw")]
pub(crate) unsafe fn non_ascii_count(src: &[u8]) -> (usize, usize) {
    // SAFETY: `src` is readable.
    unsafe {
        count(src.as_ptr(), src.len(), |v| {
            _mm512_movepi8_mask(v).count_ones()
        })
    }
}

/// UTF-8 length with every surrogate as two bytes: 32 units per vector, one byte each,
/// one more from U+0080 on, one more from U+0800 on unless a surrogate.
///
/// # Safety
/// The CPU must support AVX-512 F/BW and POPCNT.
#[target_feature(enable = "popcnt,avx512f,avx512bw")]
// Bounds: `read` is even (whole units); the count is at most three per unit.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) unsafe fn utf16_utf8_len(src: &[u16]) -> (usize, usize) {
    let (x80, x800) = (_mm512_set1_epi16(0x80), _mm512_set1_epi16(0x800));
    let (top5, surrogate) = (
        _mm512_set1_epi16(0xF800u16 as i16),
        _mm512_set1_epi16(0xD800u16 as i16),
    );
    let mask = |v: __m512i| {
        let two = _mm512_cmpge_epu16_mask(v, x80);
        let three = _mm512_cmpge_epu16_mask(v, x800)
            & !_mm512_cmpeq_epi16_mask(_mm512_and_si512(v, top5), surrogate);
        two.count_ones() + three.count_ones()
    };
    // SAFETY: `src` is readable, `2 * src.len()` bytes.
    let (read, extra) = unsafe { count(src.as_ptr().cast(), 2 * src.len(), mask) };
    (read / 2, read / 2 + extra)
}

/// Units of the whole 32-unit vectors before the first that holds a surrogate.
///
/// # Safety
/// The CPU must support AVX-512 F/BW.
#[target_feature(enable = "avx512f,avx512bw")]
// Bounds: `i` advances by 64 or 32 units while that many are left.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) unsafe fn utf16_valid_prefix_len(src: &[u16]) -> usize {
    let (top5, surrogate) = (
        _mm512_set1_epi16(0xF800u16 as i16),
        _mm512_set1_epi16(0xD800u16 as i16),
    );
    let p = src.as_ptr();
    let lanes = |v: __m512i| _mm512_cmpeq_epi16_mask(_mm512_and_si512(v, top5), surrogate);
    let mut i = 0;
    while i + 64 <= src.len() {
        // SAFETY: `i + 64 <= src.len()`: both vectors are within `src`.
        let (a, b) = unsafe {
            (
                _mm512_loadu_si512(p.add(i).cast()),
                _mm512_loadu_si512(p.add(i + 32).cast()),
            )
        };
        if lanes(a) | lanes(b) != 0 {
            break;
        }
        i += 64;
    }
    while i + 32 <= src.len() {
        // SAFETY: `i + 32 <= src.len()`.
        if lanes(unsafe { _mm512_loadu_si512(p.add(i).cast()) }) != 0 {
            break;
        }
        i += 32;
    }
    i
}
