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

/// Counts over 64-byte vectors in byte counters: `masks(v)` gives the vector's two lane
/// masks (a lane counts once per mask it is in), each subtracted as -1 from its own 64
/// byte counters (two vectors per step: four counters, four independent chains), added
/// up by `vpsadbw` every 255 steps, before a counter could wrap. Returns (bytes read,
/// count).
///
/// # Safety
/// `p .. p + len` must be readable; the CPU must support AVX-512 F/BW.
// Bounds: `i` advances by 128 or 64 while that many bytes are left; a count is at most
// twice the bytes read.
#[allow(clippy::arithmetic_side_effects)]
#[inline(always)]
unsafe fn count_bytes(
    p: *const u8,
    len: usize,
    masks: impl Fn(__m512i) -> (u64, u64),
) -> (usize, usize) {
    let ones = _mm512_set1_epi8(-1);
    let zero = _mm512_setzero_si512();
    let sum = |acc: __m512i| _mm512_sad_epu8(acc, zero);
    let (mut i, mut total) = (0, zero);
    while i + 128 <= len {
        let [mut a0, mut b0, mut a1, mut b1] = [zero; 4];
        let mut steps = 0;
        while steps < 255 && i + 128 <= len {
            // SAFETY: `i + 128 <= len`.
            let (v0, v1) = unsafe {
                (
                    _mm512_loadu_si512(p.add(i).cast()),
                    _mm512_loadu_si512(p.add(i + 64).cast()),
                )
            };
            let ((ma0, mb0), (ma1, mb1)) = (masks(v0), masks(v1));
            a0 = _mm512_mask_sub_epi8(a0, ma0, a0, ones);
            b0 = _mm512_mask_sub_epi8(b0, mb0, b0, ones);
            a1 = _mm512_mask_sub_epi8(a1, ma1, a1, ones);
            b1 = _mm512_mask_sub_epi8(b1, mb1, b1, ones);
            i += 128;
            steps += 1;
        }
        let step = _mm512_add_epi64(
            _mm512_add_epi64(sum(a0), sum(b0)),
            _mm512_add_epi64(sum(a1), sum(b1)),
        );
        total = _mm512_add_epi64(total, step);
    }
    let mut rest = 0;
    if i + 64 <= len {
        // SAFETY: `i + 64 <= len`.
        let (ma, mb) = masks(unsafe { _mm512_loadu_si512(p.add(i).cast()) });
        rest = ma.count_ones() + mb.count_ones();
        i += 64;
    }
    (i, _mm512_reduce_add_epi64(total) as usize + rest as usize)
}

/// # Safety
/// The CPU must support AVX-512 F/BW and POPCNT.
#[target_feature(enable = "popcnt,avx512f,avx512bw")]
pub(crate) unsafe fn utf8_char_count(src: &[u8]) -> (usize, usize) {
    let lead = _mm512_set1_epi8(-65);
    // SAFETY: `src` is readable.
    unsafe {
        count_bytes(src.as_ptr(), src.len(), |v| {
            (_mm512_cmpgt_epi8_mask(v, lead), 0)
        })
    }
}

/// UTF-16 units per byte by its top six bits (`vpermb` index): ASCII and lead bytes
/// of two or three bytes 1, continuation bytes 0, leads of four bytes (F0 on) 2.
// Bounds: indexes below 64 (evaluated at compile time).
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const UNITS_BY_TOP6: [u8; 64] = {
    let mut t = [1u8; 64];
    let mut i = 0x20;
    while i < 0x30 {
        t[i] = 0;
        i += 1;
    }
    t[0x3C] = 2;
    t[0x3D] = 2;
    t[0x3E] = 2;
    t[0x3F] = 2;
    t
};

/// UTF-16 length of UTF-8: each byte's units from [`UNITS_BY_TOP6`] (`vpsrlw` by 2
/// puts a byte's top six bits where `vpermb` reads its index), added in byte counters
/// (two vectors per step, two counters) and summed by `vpsadbw` every 127 steps.
///
/// # Safety
/// The CPU must support AVX-512 F/BW/VBMI.
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
// Bounds: `i` advances by 128 or 64 while that many bytes are left; the count is at
// most twice the bytes read.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) unsafe fn utf8_utf16_len(src: &[u8]) -> (usize, usize) {
    let p = src.as_ptr();
    // SAFETY: the table is 64 bytes.
    let table = unsafe { _mm512_loadu_si512(UNITS_BY_TOP6.as_ptr().cast()) };
    let units = |v: __m512i| _mm512_permutexvar_epi8(_mm512_srli_epi16::<2>(v), table);
    let zero = _mm512_setzero_si512();
    let (mut i, mut total) = (0, zero);
    while i + 128 <= src.len() {
        let (mut a, mut b) = (zero, zero);
        let mut steps = 0;
        while steps < 127 && i + 128 <= src.len() {
            // SAFETY: `i + 128 <= src.len()`.
            unsafe {
                a = _mm512_add_epi8(a, units(_mm512_loadu_si512(p.add(i).cast())));
                b = _mm512_add_epi8(b, units(_mm512_loadu_si512(p.add(i + 64).cast())));
            }
            i += 128;
            steps += 1;
        }
        let sums = _mm512_add_epi64(_mm512_sad_epu8(a, zero), _mm512_sad_epu8(b, zero));
        total = _mm512_add_epi64(total, sums);
    }
    (i, _mm512_reduce_add_epi64(total) as usize)
}

/// Bytes from 0x80 on: each byte's top bit (`vpandq`) summed by `vpsadbw` into 64-bit
/// lanes (128 per such byte), two vectors per step, no mask registers. The byte counters
/// of [`count_bytes`] (`vpmovb2m`, a masked subtract) ran at 1.01–1.03× simdutf in the
/// same runs as this at 1.03–1.04× (six alternated rounds, Zen 4, both near 110 GB/s); the
/// popcounts of the masks, [`count`], at 0.93–0.97×.
///
/// # Safety
/// The CPU must support AVX-512 F/BW and POPCNT.
#[target_feature(enable = "popcnt,avx512f,avx512bw")]
// Bounds: `i` advances by 128 or 64 while that many bytes are left; a lane's sum is at
// most 8 × 128 per step, and at most `len` × 128 in all, which fits a u64 (`len` is
// below 2^57 on every 64-bit target).
#[allow(clippy::arithmetic_side_effects)]
pub(crate) unsafe fn non_ascii_count(src: &[u8]) -> (usize, usize) {
    let (p, len) = (src.as_ptr(), src.len());
    let top = _mm512_set1_epi8(0x80u8 as i8);
    let zero = _mm512_setzero_si512();
    let high_sum = |v: __m512i| _mm512_sad_epu8(_mm512_and_si512(v, top), zero);
    let (mut i, mut a, mut b) = (0, zero, zero);
    while i + 128 <= len {
        // SAFETY: `i + 128 <= len`.
        let (v0, v1) = unsafe {
            (
                _mm512_loadu_si512(p.add(i).cast()),
                _mm512_loadu_si512(p.add(i + 64).cast()),
            )
        };
        a = _mm512_add_epi64(a, high_sum(v0));
        b = _mm512_add_epi64(b, high_sum(v1));
        i += 128;
    }
    let mut n = _mm512_reduce_add_epi64(_mm512_add_epi64(a, b)) as u64 as usize / 128;
    if i + 64 <= len {
        // SAFETY: `i + 64 <= len`.
        let v = unsafe { _mm512_loadu_si512(p.add(i).cast()) };
        n += _mm512_movepi8_mask(v).count_ones() as usize;
        i += 64;
    }
    (i, n)
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

/// Units of the whole 32-unit vectors before the first that holds a surrogate. Four
/// vectors per step: each unit minus 0xD800, and a surrogate is a difference below 0x800,
/// so one compare of the four vectors' minimum tests them all (against a compare into a
/// mask register per vector, two vectors per step: 0.92–0.96× simdutf icelake → 1.03–1.04×
/// in three alternated rounds, Zen 4; two vectors per step with the minimum, 0.98–1.00×).
///
/// # Safety
/// The CPU must support AVX-512 F/BW.
#[target_feature(enable = "avx512f,avx512bw")]
// Bounds: `i` advances by 128 or 32 units while that many are left.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) unsafe fn utf16_valid_prefix_len(src: &[u16]) -> usize {
    let (surrogate, span) = (
        _mm512_set1_epi16(0xD800u16 as i16),
        _mm512_set1_epi16(0x800),
    );
    let p = src.as_ptr();
    // Each unit's distance above 0xD800 (wrapping): below 0x800 for a surrogate.
    let distance = |v: __m512i| _mm512_sub_epi16(v, surrogate);
    let mut i = 0;
    while i + 128 <= src.len() {
        // SAFETY: `i + 128 <= src.len()`: the four vectors are within `src`.
        let [a, b, c, d] =
            [0, 32, 64, 96].map(|at| unsafe { _mm512_loadu_si512(p.add(i + at).cast()) });
        let m = _mm512_min_epu16(
            _mm512_min_epu16(distance(a), distance(b)),
            _mm512_min_epu16(distance(c), distance(d)),
        );
        if _mm512_cmplt_epu16_mask(m, span) != 0 {
            break;
        }
        i += 128;
    }
    while i + 32 <= src.len() {
        // SAFETY: `i + 32 <= src.len()`.
        let v = unsafe { _mm512_loadu_si512(p.add(i).cast()) };
        if _mm512_cmplt_epu16_mask(distance(v), span) != 0 {
            break;
        }
        i += 32;
    }
    i
}
