use core::mem::MaybeUninit;

use crate::simd::vector::Isa;
use crate::simd::{out_ptr, Slots};
use core::arch::x86_64::*;

/// Swaps the bytes of every `u16` when `big_endian`.
#[target_feature(enable = "avx2")]
#[inline]
fn order(v: __m256i, big_endian: bool) -> __m256i {
    if big_endian {
        let swap = _mm256_setr_epi8(
            1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11,
            10, 13, 12, 15, 14,
        );
        _mm256_shuffle_epi8(v, swap)
    } else {
        v
    }
}

/// Loads 32 bytes of UTF-16 at `p`, in the byte order `big_endian` says, as units.
/// `LITTLE_ENDIAN` says the order at compile time and `big_endian` is then ignored: the
/// loop that reads native units has no per-load test (`mem`'s row 7 % faster on Zen 3),
/// and the one that reads either order stays one copy of the code.
///
/// # Safety
/// The CPU must support AVX2; `p .. p + 32` must be readable.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn load<const LITTLE_ENDIAN: bool>(p: *const u8, big_endian: bool) -> __m256i {
    // SAFETY: the caller guarantees the 32 bytes.
    order(
        unsafe { _mm256_loadu_si256(p.cast()) },
        !LITTLE_ENDIAN && big_endian,
    )
}

/// UTF-16 → UTF-8, 16 units per step, for blocks without surrogates (a block with one
/// stops the loop: the scalar twin takes it). Paths by the block's units:
/// - this block and the next all below U+0080: an ASCII run, packed to bytes 32 units
///   per step while it lasts;
/// - all below U+0080, the next not: packed to bytes;
/// - all below U+0800: each unit's one or two UTF-8 bytes built in its 16-bit lane, then
///   packed by `pshufb` with the table entry for the 8-bit mask of one-byte lanes;
/// - all from U+0800 on (CJK text): three bytes each, placed by fixed shuffles
///   ([`three_byte_16`]);
/// - otherwise: 8 units at a time widened to 32-bit lanes holding one to three UTF-8
///   bytes, packed 4 lanes at a time with the entry for their lengths ([`bmp_16`]).
///
/// Each packed half is stored as 16 bytes at the current end of the output, so up to 16
/// bytes past a step's output are written too (a step asks for 64 bytes of room: at most
/// 48 bytes of output plus those 16). With `EXACT` those 16 bytes are saved before the
/// step's stores and put back after them, so nothing past what the kernel reports is
/// changed (the decoders' and encoders' contract); without it they are left as scratch
/// (`mem`'s output buffers allow it). The save and restore cost 5 % on the .po catalogs
/// on Zen 3: the load waits for the stores before it. The byte order is `big_endian`,
/// or little-endian with `LITTLE_ENDIAN` (see [`load`]).
///
/// # Safety
/// The CPU must support AVX2, BMI2 and POPCNT.
#[target_feature(enable = "avx2,bmi2,popcnt")]
// Hot loop. Bounds: `read` advances by 32 while `read + 32 <= src.len()` (by 64 while
// `read + 64 <= src.len()`); `written` advances by the lengths of the packed output (at
// most 48 per step) while `written + 64 <= dst.len()` (by 32 while `written + 32 <=
// dst.len()`); so neither passes its slice's length and the sums cannot overflow.
#[allow(clippy::arithmetic_side_effects)]
unsafe fn convert<const EXACT: bool, const LITTLE_ENDIAN: bool>(
    src: &[u8],
    big_endian: bool,
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    let above_ascii = _mm256_set1_epi16(0xFF80u16 as i16);
    let top5 = _mm256_set1_epi16(0xF800u16 as i16);
    let surrogate = _mm256_set1_epi16(0xD800u16 as i16);
    let s = src.as_ptr();
    let (mut read, mut written) = (0, 0);
    while read + 32 <= src.len() && written + 64 <= dst.len() {
        // SAFETY: `read + 32 <= src.len()`.
        let v = unsafe { load::<LITTLE_ENDIAN>(s.add(read), big_endian) };
        // The next block, or (at the end of the input) a value that is not ASCII.
        let next = if read + 64 <= src.len() {
            // SAFETY: `read + 64 <= src.len()`.
            unsafe { load::<LITTLE_ENDIAN>(s.add(read + 32), big_endian) }
        } else {
            above_ascii
        };
        // SAFETY (all stores below): `written + 64 <= dst.len()`, and a step writes at
        // most 48 bytes of output plus 16 of slack from `written` on.
        let d = out_ptr(dst);
        if _mm256_testz_si256(_mm256_or_si256(v, next), above_ascii) != 0 {
            // An ASCII run: 32 units per step while it lasts, one 32-byte store each
            // (`a` and `b` are the step's two blocks).
            let (mut a, mut b) = (v, next);
            loop {
                // Per lane: a's 8 bytes, b's 8 bytes; reordered to a0 a1 b0 b1.
                let packed = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(a, b));
                // SAFETY: `written + 32 <= dst.len()` (checked before each step).
                unsafe { _mm256_storeu_si256(d.add(written).cast(), packed) };
                read += 64;
                written += 32;
                if read + 64 > src.len() || written + 32 > dst.len() {
                    break;
                }
                // SAFETY: `read + 64 <= src.len()`.
                (a, b) = unsafe {
                    (
                        load::<LITTLE_ENDIAN>(s.add(read), big_endian),
                        load::<LITTLE_ENDIAN>(s.add(read + 32), big_endian),
                    )
                };
                if _mm256_testz_si256(_mm256_or_si256(a, b), above_ascii) == 0 {
                    break;
                }
            }
            continue;
        }
        if _mm256_testz_si256(v, above_ascii) != 0 {
            let packed = _mm256_permute4x64_epi64::<0b00_00_10_00>(_mm256_packus_epi16(v, v));
            unsafe { _mm_storeu_si128(d.add(written).cast(), _mm256_castsi256_si128(packed)) };
            read += 32;
            written += 16;
            continue;
        }
        if _mm256_testz_si256(v, top5) != 0 {
            written = unsafe { store_packed::<EXACT>(d, written, &[below_0800(v)]) };
            read += 32;
            continue;
        }
        let sur = _mm256_cmpeq_epi16(_mm256_and_si256(v, top5), surrogate);
        if _mm256_testz_si256(sur, sur) == 0 {
            break;
        }
        let below_0800_lanes =
            _mm256_cmpeq_epi16(_mm256_and_si256(v, top5), _mm256_setzero_si256());
        written = if _mm256_testz_si256(below_0800_lanes, below_0800_lanes) != 0 {
            // All three bytes long (CJK text): a fixed layout, stored exactly.
            unsafe { three_byte_16(d.add(written), v) };
            written + 48
        } else {
            unsafe { bmp_16::<EXACT>(d, written, v, below_0800_lanes) }
        };
        read += 32;
    }
    (read, written)
}

/// [`convert`] with nothing written past the output: the level's UTF-16 (bytes) → UTF-8
/// kernel. Returns (bytes read, bytes written).
///
/// # Safety
/// The CPU must support AVX2, BMI2 and POPCNT.
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(crate) unsafe fn bytes_to_utf8(
    src: &[u8],
    big_endian: bool,
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    // SAFETY: the same CPU features.
    unsafe { convert::<true, false>(src, big_endian, dst) }
}

/// Writes the UTF-8 of 16 units from U+0800 on that are not surrogates, 48 bytes, at `d`:
/// each unit's three bytes in a fixed place, so no table and no length.
///
/// # Safety
/// The CPU must support AVX2; `d .. d + 48` must be writable.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn three_byte_16(d: *mut u8, v: __m256i) {
    let six = _mm256_set1_epi16(0x3F);
    let cont = _mm256_set1_epi16(0x80);
    // Per 16-bit lane: 1110xxxx 10xxxxxx in bytes 0 and 1, and 10xxxxxx in byte 0.
    let first = _mm256_or_si256(_mm256_srli_epi16::<12>(v), _mm256_set1_epi16(0xE0));
    let second = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16::<6>(v), six), cont);
    let two = _mm256_or_si256(first, _mm256_slli_epi16::<8>(second));
    let third = _mm256_or_si256(_mm256_and_si256(v, six), cont);
    // Per 128-bit lane (8 units, 24 bytes): bytes 0-15 and 16-23, each from the first two
    // bytes of a unit (`two`) and its third (`third`); -1 selects nothing.
    let head_two = _mm256_setr_epi8(
        0, 1, -1, 2, 3, -1, 4, 5, -1, 6, 7, -1, 8, 9, -1, 10, 0, 1, -1, 2, 3, -1, 4, 5, -1, 6, 7,
        -1, 8, 9, -1, 10,
    );
    let head_third = _mm256_setr_epi8(
        -1, -1, 0, -1, -1, 2, -1, -1, 4, -1, -1, 6, -1, -1, 8, -1, -1, -1, 0, -1, -1, 2, -1, -1, 4,
        -1, -1, 6, -1, -1, 8, -1,
    );
    let tail_two = _mm256_setr_epi8(
        11, -1, 12, 13, -1, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, 11, -1, 12, 13, -1, 14, 15,
        -1, -1, -1, -1, -1, -1, -1, -1, -1,
    );
    let tail_third = _mm256_setr_epi8(
        -1, 10, -1, -1, 12, -1, -1, 14, -1, -1, -1, -1, -1, -1, -1, -1, -1, 10, -1, -1, 12, -1, -1,
        14, -1, -1, -1, -1, -1, -1, -1, -1,
    );
    let head = _mm256_or_si256(
        _mm256_shuffle_epi8(two, head_two),
        _mm256_shuffle_epi8(third, head_third),
    );
    let tail = _mm256_or_si256(
        _mm256_shuffle_epi8(two, tail_two),
        _mm256_shuffle_epi8(third, tail_third),
    );
    // SAFETY: the caller guarantees `d .. d + 48`: stores at 0-15, 16-23, 24-39, 40-47.
    unsafe {
        _mm_storeu_si128(d.cast(), _mm256_castsi256_si128(head));
        _mm_storel_epi64(d.add(16).cast(), _mm256_castsi256_si128(tail));
        _mm_storeu_si128(d.add(24).cast(), _mm256_extracti128_si256::<1>(head));
        _mm_storel_epi64(d.add(40).cast(), _mm256_extracti128_si256::<1>(tail));
    }
}

/// UTF-8 bytes packed in the two halves of a register, and how many of each half count.
pub(in crate::simd) type Packed = (__m256i, usize, usize);

/// Stores `parts` one after the other from `d + at`, each half as a 16-byte store, and
/// puts back the 16 bytes that follow the last one (saved first), so only the output's
/// bytes change. Returns the new end (`at` plus the parts' lengths).
///
/// # Safety
/// The CPU must support AVX2; `d + at .. d + end + 16` must be valid for reads and writes,
/// where `end` is the returned end.
#[target_feature(enable = "avx2")]
#[inline]
pub(in crate::simd) unsafe fn store_exact(d: *mut u8, at: usize, parts: &[Packed]) -> usize {
    // SAFETY: the caller's guarantees.
    unsafe { store_packed::<true>(d, at, parts) }
}

/// [`store_exact`], or with `EXACT` false the same stores without the save and restore:
/// up to 16 bytes after the returned end hold scratch.
///
/// # Safety
/// As [`store_exact`].
#[target_feature(enable = "avx2")]
#[inline]
// Bounds: the lengths are at most 16 each and few; `at` is within a slice.
#[allow(clippy::arithmetic_side_effects)]
unsafe fn store_packed<const EXACT: bool>(d: *mut u8, at: usize, parts: &[Packed]) -> usize {
    let end = at + parts.iter().map(|&(_, n0, n1)| n0 + n1).sum::<usize>();
    // SAFETY: the caller guarantees `d + at .. d + end + 16`; each half's 16-byte store
    // starts at most at the last part's start plus its first length, and ends before
    // `end + 16`.
    unsafe {
        // Copied as `MaybeUninit` (the bytes may be uninitialised: see `Slots`).
        let after = EXACT.then(|| d.add(end).cast::<MaybeUninit<[u8; 16]>>().read_unaligned());
        let mut p = d.add(at);
        for &(packed, n0, n1) in parts {
            _mm_storeu_si128(p.cast(), _mm256_castsi256_si128(packed));
            _mm_storeu_si128(p.add(n0).cast(), _mm256_extracti128_si256::<1>(packed));
            p = p.add(n0 + n1);
        }
        if let Some(after) = after {
            d.add(end)
                .cast::<MaybeUninit<[u8; 16]>>()
                .write_unaligned(after);
        }
    }
    end
}

/// The UTF-8 of 16 units below U+0800: the packed bytes of units 0-7 and 8-15 in the two
/// halves, and their lengths.
///
/// # Safety
/// The CPU must support AVX2, BMI2 and POPCNT.
#[target_feature(enable = "avx2,bmi2,popcnt")]
#[inline]
pub(in crate::simd) unsafe fn below_0800(v: __m256i) -> Packed {
    let ascii = _mm256_cmpeq_epi16(
        _mm256_and_si256(v, _mm256_set1_epi16(0xFF80u16 as i16)),
        _mm256_setzero_si256(),
    );
    // Two-byte form in the lane's bytes 0 and 1: 110xxxxx (U+0080..U+07FF: u >> 6 is
    // at most 0x1F), 10xxxxxx.
    let lead = _mm256_or_si256(_mm256_srli_epi16::<6>(v), _mm256_set1_epi16(0xC0));
    let trail = _mm256_or_si256(
        _mm256_and_si256(v, _mm256_set1_epi16(0x3F)),
        _mm256_set1_epi16(0x80),
    );
    let two = _mm256_or_si256(lead, _mm256_slli_epi16::<8>(trail));
    let lanes = _mm256_blendv_epi8(two, v, ascii);
    // One bit per lane: bit i set if lane i is one byte long.
    let mask = _pext_u32(_mm256_movemask_epi8(ascii) as u32, 0x5555_5555);
    let (m0, m1) = (mask & 0xFF, mask >> 8);
    let shuffle = unsafe { pair_of_entries(&super::pack::TWO_BYTE_LANES, m0, m1) };
    let packed = _mm256_shuffle_epi8(lanes, shuffle);
    (
        packed,
        super::pack::two_byte_len(m0),
        super::pack::two_byte_len(m1),
    )
}

/// Writes the UTF-8 of 16 units that are not surrogates at `d + at`; returns the new end.
/// `below_0800` is 0xFFFF in the lanes below U+0800. Each unit's one to three bytes are
/// built in 16-bit lanes (its first two, and its third), interleaved in place into 32-bit
/// lanes (units 0-3 and 8-11 in one register, 4-7 and 12-15 in the other), and each 4
/// lanes packed by the table entry for their lengths; with `EXACT` the 16 bytes after
/// the output are saved and put back, as in [`store_packed`].
///
/// # Safety
/// The CPU must support AVX2, BMI2 and POPCNT; `d + at .. d + at + 64` must be valid for
/// reads and writes.
#[target_feature(enable = "avx2,bmi2,popcnt")]
#[inline]
// Bounds: table indexes are 8-bit; the output is at most 48 bytes from `at`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
unsafe fn bmp_16<const EXACT: bool>(
    d: *mut u8,
    at: usize,
    v: __m256i,
    below_0800: __m256i,
) -> usize {
    let six = _mm256_set1_epi16(0x3F);
    let cont = _mm256_set1_epi16(0x80);
    let ascii = _mm256_cmpeq_epi16(
        _mm256_and_si256(v, _mm256_set1_epi16(0xFF80u16 as i16)),
        _mm256_setzero_si256(),
    );
    let low6 = _mm256_or_si256(_mm256_and_si256(v, six), cont);
    // First two bytes: 110xxxxx 10xxxxxx, or 1110xxxx 10xxxxxx (first byte lowest).
    let two = _mm256_or_si256(
        _mm256_or_si256(_mm256_srli_epi16::<6>(v), _mm256_set1_epi16(0xC0)),
        _mm256_slli_epi16::<8>(low6),
    );
    let mid6 = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16::<6>(v), six), cont);
    let three = _mm256_or_si256(
        _mm256_or_si256(_mm256_srli_epi16::<12>(v), _mm256_set1_epi16(0xE0)),
        _mm256_slli_epi16::<8>(mid6),
    );
    let first = _mm256_blendv_epi8(_mm256_blendv_epi8(three, two, below_0800), v, ascii);
    // The third byte is `low6`: in 32-bit lanes, (first two) | third << 16.
    let a = _mm256_unpacklo_epi16(first, low6);
    let b = _mm256_unpackhi_epi16(first, low6);
    // The table index of each group of 4 units (bits 0-3: unit at least two bytes long,
    // bits 4-7: at least three) as byte g of one movemask: per 128-bit lane, the
    // one-byte and below-U+0800 flags of units 0-7 packed to bytes, then reordered to
    // units 0-3's flags of each kind, units 4-7's.
    let flags = _mm256_shuffle_epi8(
        _mm256_packs_epi16(ascii, below_0800),
        _mm256_setr_epi8(
            0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15, 0, 1, 2, 3, 8, 9, 10, 11, 4, 5,
            6, 7, 12, 13, 14, 15,
        ),
    );
    let indexes = !(_mm256_movemask_epi8(flags) as u32);
    let (i0, i1, i2, i3) = (
        indexes & 0xFF,
        (indexes >> 8) & 0xFF,
        (indexes >> 16) & 0xFF,
        indexes >> 24,
    );
    // SAFETY: the indexes are below 256.
    let (pa, pb) = unsafe {
        (
            _mm256_shuffle_epi8(a, pair_of_entries(&super::pack::THREE_BYTE_LANES, i0, i2)),
            _mm256_shuffle_epi8(b, pair_of_entries(&super::pack::THREE_BYTE_LANES, i1, i3)),
        )
    };
    // Each group's length is 4 plus its index's set bits, so the first `g` groups'
    // length is one popcount.
    let len_of_groups =
        |g: u32| 4 * g as usize + (u64::from(indexes) & ((1 << (8 * g)) - 1)).count_ones() as usize;
    let (n0, n01, n012) = (len_of_groups(1), len_of_groups(2), len_of_groups(3));
    let end = at + len_of_groups(4);
    // SAFETY: the caller guarantees `d + at .. d + at + 64`; the output ends at most 48
    // bytes after `at`, and each 16-byte store starts before its end.
    unsafe {
        let after = EXACT.then(|| d.add(end).cast::<MaybeUninit<[u8; 16]>>().read_unaligned());
        let p = d.add(at);
        _mm_storeu_si128(p.cast(), _mm256_castsi256_si128(pa));
        _mm_storeu_si128(p.add(n0).cast(), _mm256_castsi256_si128(pb));
        _mm_storeu_si128(p.add(n01).cast(), _mm256_extracti128_si256::<1>(pa));
        _mm_storeu_si128(p.add(n012).cast(), _mm256_extracti128_si256::<1>(pb));
        if let Some(after) = after {
            d.add(end)
                .cast::<MaybeUninit<[u8; 16]>>()
                .write_unaligned(after);
        }
    }
    end
}

/// The UTF-8 of 8 BMP code points that are not surrogates, in 32-bit lanes: the packed
/// bytes of lanes 0-3 and 4-7 in the two halves, and their lengths (at most 12 each).
///
/// # Safety
/// The CPU must support AVX2, BMI2 and POPCNT.
#[target_feature(enable = "avx2,bmi2,popcnt")]
#[inline]
pub(in crate::simd) unsafe fn bmp_8(x: __m256i) -> Packed {
    let six = _mm256_set1_epi32(0x3F);
    let cont = _mm256_set1_epi32(0x80);
    let at_least_2 = _mm256_cmpgt_epi32(x, _mm256_set1_epi32(0x7F));
    let at_least_3 = _mm256_cmpgt_epi32(x, _mm256_set1_epi32(0x7FF));
    let low6 = _mm256_or_si256(_mm256_and_si256(x, six), cont);
    let mid6 = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi32::<6>(x), six), cont);
    // 110xxxxx 10xxxxxx and 1110xxxx 10xxxxxx 10xxxxxx, first byte lowest.
    let two = _mm256_or_si256(
        _mm256_or_si256(_mm256_srli_epi32::<6>(x), _mm256_set1_epi32(0xC0)),
        _mm256_slli_epi32::<8>(low6),
    );
    let three = _mm256_or_si256(
        _mm256_or_si256(_mm256_srli_epi32::<12>(x), _mm256_set1_epi32(0xE0)),
        _mm256_or_si256(_mm256_slli_epi32::<8>(mid6), _mm256_slli_epi32::<16>(low6)),
    );
    let lanes = _mm256_blendv_epi8(_mm256_blendv_epi8(x, two, at_least_2), three, at_least_3);
    let m2 = _mm256_movemask_ps(_mm256_castsi256_ps(at_least_2)) as u32;
    let m3 = _mm256_movemask_ps(_mm256_castsi256_ps(at_least_3)) as u32;
    let i0 = (m2 & 0xF) | ((m3 & 0xF) << 4);
    let i1 = (m2 >> 4) | ((m3 >> 4) << 4);
    let shuffle = unsafe { pair_of_entries(&super::pack::THREE_BYTE_LANES, i0, i1) };
    let packed = _mm256_shuffle_epi8(lanes, shuffle);
    (
        packed,
        super::pack::three_byte_len(i0),
        super::pack::three_byte_len(i1),
    )
}

/// Entries `low` and `high` of a 256-entry table in the two halves of a register.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
#[inline]
// Bounds: `low` and `high` are masks below 256 (8-bit masks), the table's length.
#[allow(clippy::indexing_slicing)]
unsafe fn pair_of_entries(table: &[[u8; 16]; 256], low: u32, high: u32) -> __m256i {
    let (low, high) = ((low & 0xFF) as usize, (high & 0xFF) as usize);
    // SAFETY: each entry is 16 readable bytes.
    unsafe {
        _mm256_set_m128i(
            _mm_loadu_si128(table[high].as_ptr().cast()),
            _mm_loadu_si128(table[low].as_ptr().cast()),
        )
    }
}

/// Blocks of 16 units without surrogates, copied (byte-swapped for big-endian): the
/// kernel of `generic.rs`.
#[target_feature(enable = "avx2")]
pub(crate) fn bytes_to_units(src: &[u8], big_endian: bool, dst: &mut Slots<u16>) -> (usize, usize) {
    super::generic::bytes_to_units(Isa::avx2(), src, big_endian, dst)
}

/// UTF-16 units (native order) → UTF-8 with this level's kernel, for the other families'
/// kernels at this level: as `super::units_to_utf8` at AVX2. Returns (units read, bytes
/// written).
///
/// # Safety
/// The CPU must support AVX2, BMI2 and POPCNT.
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(in crate::simd) unsafe fn units_to_utf8(src: &[u16], dst: &mut Slots<u8>) -> (usize, usize) {
    // SAFETY: the same CPU features.
    unsafe { units_to_utf8_with::<true>(src, dst) }
}

/// [`units_to_utf8`] that may leave scratch bytes in `dst` past the bytes written: the
/// `mem` conversions' kernel at this level.
///
/// # Safety
/// The CPU must support AVX2, BMI2 and POPCNT.
#[target_feature(enable = "avx2,bmi2,popcnt")]
pub(crate) unsafe fn units_to_utf8_scratch(src: &[u16], dst: &mut Slots<u8>) -> (usize, usize) {
    // SAFETY: the same CPU features.
    unsafe { units_to_utf8_with::<false>(src, dst) }
}

/// The kernel, then the scalar twin over a stretch it stopped at, and so on.
///
/// # Safety
/// The CPU must support AVX2, BMI2 and POPCNT.
#[target_feature(enable = "avx2,bmi2,popcnt")]
#[inline]
unsafe fn units_to_utf8_with<const EXACT: bool>(
    src: &[u16],
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    let src = super::as_bytes(src);
    // SAFETY (both calls): the same CPU features.
    // The exact loop is the decoders' copy (either byte order); the scratch one reads
    // native units only.
    let vector = |s: &[u8], d: &mut Slots<u8>| unsafe {
        if EXACT {
            convert::<true, false>(s, false, d)
        } else {
            convert::<false, true>(s, false, d)
        }
    };
    let first = vector(src, dst);
    let scalar = |s: &[u8], d: &mut Slots<u8>| super::scalar::bytes_to_utf8(s, false, d);
    let (read, written) = super::alternate(src, dst, first, vector, scalar);
    (read / 2, written)
}
