//! AVX2: 32-byte blocks of ASCII and pairs into UTF-16 (see the module docs of
//! [`super`]). Without `vpcompressw`, the pairs are gathered where they are: leads are never
//! adjacent, so each 16-bit lane (bytes 2k, 2k + 1) holds at most one lead, and one
//! `vpgatherdd` per 8 lanes looks up the lane's pair (its lead at 2k or 2k + 1). The code
//! units then go back to their byte positions, and the units at character starts are packed
//! eight positions at a time by a `pshufb` table.

use super::{roles, Roles};
use crate::index::PairTable;
use crate::simd::utf8::pack::KEPT_UNITS;
use crate::simd::Slots;
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

/// Bytes per block.
const BLOCK: usize = 32;
/// Room a block needs: its 32 units, plus the 8 that the last packed store may overwrite
/// (saved and put back).
const BLOCK_ROOM: usize = BLOCK + 8;

/// The lead-capable bytes as a bitmap `pshufb` can read: entry `lo` has bit `h` set when
/// byte `0x80 + 16h + lo` is lead-capable.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
// Bounds: `h < 8`, so each load reads `lead_map[16h .. 16h + 16]` of its 128 bytes.
#[allow(clippy::arithmetic_side_effects)]
unsafe fn capable_bitmap(lead_map: &[u8; 128]) -> __m256i {
    let mut bitmap = _mm_setzero_si128();
    for h in 0..8 {
        // SAFETY: see above.
        let row = unsafe { _mm_loadu_si128(lead_map.as_ptr().add(16 * h).cast()) };
        bitmap = _mm_or_si128(bitmap, _mm_and_si128(row, _mm_set1_epi8(1 << h as i8)));
    }
    _mm256_broadcastsi128_si256(bitmap)
}

/// Whether every 32-byte block of `src` (a multiple of 32 bytes long) has at least
/// `min_non_ascii` non-ASCII bytes.
///
/// # Safety
/// The CPU must support AVX2 and POPCNT.
#[target_feature(enable = "avx2,popcnt")]
unsafe fn dense(src: &[u8], min_non_ascii: u32) -> bool {
    src.chunks_exact(BLOCK).all(|block| {
        // SAFETY: `block` is 32 bytes long.
        let v = unsafe { _mm256_loadu_si256(block.as_ptr().cast()) };
        (_mm256_movemask_epi8(v) as u32).count_ones() >= min_non_ascii
    })
}

/// Decodes whole 32-byte blocks (31 when the last byte is a lead) of ASCII and pairs of
/// `table` to UTF-16 at `d` while 40 units of room are left; stops before a block with
/// anything else, and before a block with fewer than `MIN_NON_ASCII` non-ASCII bytes (the
/// UTF-8 path leaves those to the codec's pair loop, where ASCII is one store a byte).
/// Nothing past the returned units is changed. Returns (bytes read, units written).
///
/// # Safety
/// The CPU must support AVX2, BMI1, BMI2 and POPCNT; `d .. d + room` must be writable.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
// Hot loop. Bounds: a block runs only while `i + 32 <= src.len()` and `written + 40 <=
// room`; `i` advances by 31 or 32 and `written` by the units stored (at most 32), so
// neither passes its limit. Table indexes are masked to 8 bits.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(super) unsafe fn decode<const MIN_NON_ASCII: u32>(
    src: &[u8],
    table: &PairTable,
    d: *mut u16,
    room: usize,
) -> (usize, usize) {
    // The gathers read 4 bytes at `2 * index`, index = (lead & 0x7F) << 8 | trail: inside
    // the 64 KiB table as long as 0xFF is never a lead (true of every table; checked).
    if table.lead_map()[127] != 0 {
        return (0, 0);
    }
    let pairs = table.rows().as_flattened().as_ptr().cast::<i32>();
    // SAFETY: AVX2 is enabled for this function.
    let bitmap = unsafe { capable_bitmap(table.lead_map()) };
    let bits = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
    // Byte j of a broadcast 32-bit mask into byte j (with `bits`: bit j of the mask).
    let spread = _mm256_setr_epi8(
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3,
        3, 3,
    );
    let (mut i, mut written) = (0, 0);
    while i + BLOCK <= src.len() && written + BLOCK_ROOM <= room {
        // SAFETY: `i + 32 <= src.len()`.
        let v = unsafe { _mm256_loadu_si256(src.as_ptr().add(i).cast()) };
        let non_ascii = _mm256_movemask_epi8(v) as u32;
        if non_ascii.count_ones() < MIN_NON_ASCII {
            break;
        }
        if non_ascii == 0 {
            // SAFETY: `written + 32 <= room`.
            unsafe {
                let out = d.add(written);
                _mm256_storeu_si256(out.cast(), _mm256_cvtepu8_epi16(_mm256_castsi256_si128(v)));
                _mm256_storeu_si256(
                    out.add(16).cast(),
                    _mm256_cvtepu8_epi16(_mm256_extracti128_si256::<1>(v)),
                );
            }
            written += BLOCK;
            i += BLOCK;
            continue;
        }
        // Lead-capable: the bitmap's entry for the low nibble has the bit of the high one.
        let entry = _mm256_shuffle_epi8(bitmap, _mm256_and_si256(v, _mm256_set1_epi8(0x0F)));
        let bit = _mm256_shuffle_epi8(
            bits,
            _mm256_and_si256(_mm256_srli_epi16::<4>(v), _mm256_set1_epi8(0x07)),
        );
        let capable = _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(entry, bit), bit))
            as u32
            & non_ascii;
        let Some(Roles {
            leads,
            trails,
            len,
            in_block,
        }) = roles(capable, non_ascii)
        else {
            break;
        };
        // 0xFF in the bytes that are leads; per 16-bit lane, whether its lead is the even
        // (low) or the odd (high) byte.
        let lead_bytes = {
            let spread = _mm256_shuffle_epi8(_mm256_set1_epi32(leads as i32), spread);
            _mm256_cmpeq_epi8(_mm256_and_si256(spread, bits), bits)
        };
        let odd = _mm256_srai_epi16::<8>(lead_bytes);
        let even = _mm256_srai_epi16::<8>(_mm256_slli_epi16::<8>(lead_bytes));
        // Each lane's pair index, from its own bytes (lead even) or the next two (odd).
        let next = _mm256_alignr_epi8::<1>(_mm256_permute2x128_si256::<0x81>(v, v), v);
        let index = |x: __m256i| {
            _mm256_or_si256(
                _mm256_slli_epi16::<8>(_mm256_and_si256(x, _mm256_set1_epi16(0x7F))),
                _mm256_srli_epi16::<8>(x),
            )
        };
        let idx = _mm256_blendv_epi8(index(v), index(next), odd);
        let has = _mm256_or_si256(even, odd);
        // SAFETY: AVX2 is enabled; the gathers read inside the table (see above) and only
        // in lanes with a lead.
        let gather = |idx: __m128i, has: __m128i| unsafe {
            _mm256_mask_i32gather_epi32::<2>(
                _mm256_setzero_si256(),
                pairs,
                _mm256_cvtepu16_epi32(idx),
                _mm256_cvtepi16_epi32(has),
            )
        };
        let low = gather(_mm256_castsi256_si128(idx), _mm256_castsi256_si128(has));
        let high = gather(
            _mm256_extracti128_si256::<1>(idx),
            _mm256_extracti128_si256::<1>(has),
        );
        let mask16 = _mm256_set1_epi32(0xFFFF);
        let values = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi32(
            _mm256_and_si256(low, mask16),
            _mm256_and_si256(high, mask16),
        ));
        let unmapped = _mm256_and_si256(_mm256_cmpeq_epi16(values, _mm256_setzero_si256()), has);
        if _mm256_movemask_epi8(unmapped) != 0 {
            break;
        }
        // The unit at each byte position: its pair's code point at a lead, the byte
        // itself elsewhere (trails are dropped below).
        let even_units =
            _mm256_blendv_epi8(_mm256_and_si256(v, _mm256_set1_epi16(0xFF)), values, even);
        let odd_units = _mm256_blendv_epi8(_mm256_srli_epi16::<8>(v), values, odd);
        let (a, b) = (
            _mm256_unpacklo_epi16(even_units, odd_units),
            _mm256_unpackhi_epi16(even_units, odd_units),
        );
        // Positions 0-7, 8-15, 16-23, 24-31.
        let groups = [
            _mm256_castsi256_si128(a),
            _mm256_castsi256_si128(b),
            _mm256_extracti128_si256::<1>(a),
            _mm256_extracti128_si256::<1>(b),
        ];
        let starts = !trails & in_block;
        let n = starts.count_ones() as usize;
        // SAFETY: `written + 40 <= room`: each 16-byte store starts at most 24 units past
        // `written`, and the 8 units after the block's `n <= 32` are saved first and put
        // back (copied as `MaybeUninit`: they may be uninitialised).
        unsafe {
            let after = d
                .add(written + n)
                .cast::<MaybeUninit<[u16; 8]>>()
                .read_unaligned();
            let mut out = d.add(written);
            for (g, group) in groups.into_iter().enumerate() {
                let keep = (starts >> (8 * g)) & 0xFF;
                let control = _mm_loadu_si128(KEPT_UNITS[keep as usize].as_ptr().cast());
                _mm_storeu_si128(out.cast(), _mm_shuffle_epi8(group, control));
                out = out.add(keep.count_ones() as usize);
            }
            d.add(written + n)
                .cast::<MaybeUninit<[u16; 8]>>()
                .write_unaligned(after);
        }
        written += n;
        i += len;
    }
    (i, written)
}

/// [`decode`] into `dst`: every block with ASCII and pairs only.
///
/// # Safety
/// The CPU must support AVX2, BMI1, BMI2 and POPCNT.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
pub(in crate::simd) unsafe fn to_utf16(
    src: &[u8],
    table: &PairTable,
    dst: &mut Slots<u16>,
) -> (usize, usize) {
    // SAFETY: the same CPU features; `dst` has `dst.len()` writable slots.
    unsafe { decode::<0>(src, table, crate::simd::out_ptr(dst), dst.len()) }
}

/// Room in bytes of UTF-8 that one 32-byte block of the UTF-8 path needs: 16 pairs of three
/// bytes each at most (an ASCII byte gives one).
const UTF8_BLOCK_ROOM: usize = 48;

/// The UTF-8 path stops before a block with fewer non-ASCII bytes than this: markup and
/// Latin text between CJK characters are cheaper in the codec's pair loop (one store per
/// ASCII byte) than widened and narrowed again. Low, because CJK prose leaves the pair loop
/// as often as it can: Chinese and Korean text breaks into runs of 3–6 characters
/// (spaces, digits, Latin words between them), whose blocks hold 8–20 non-ASCII bytes, and
/// each run boundary the pair loop meets costs it a mispredicted branch. (A/B over the
/// corpus, `.text` rows against encoding_rs: 16 and 128 bytes ahead 1.27–1.42×; 8 and 64
/// 1.30–1.60×; 4 and 32 1.37–1.63×; the `.po` rows, mostly ASCII, 1.10–1.15× in each.)
pub(crate) const UTF8_MIN_NON_ASCII: u32 = 4;

/// ... and starts only where the next this many bytes are such blocks.
pub(crate) const UTF8_DENSE_AHEAD: usize = 32;

/// The probe [`to_utf8`] makes before anything else: a non-ASCII byte this far on, so the
/// run goes on past the first block (catalogs and markup, whose CJK runs are short and
/// far apart, mostly end here).
const UTF8_PROBE_AT: usize = 64;

/// Into UTF-8 in two passes over up to 16 blocks at a time: [`decode`] into a buffer on
/// the stack (1 KiB, stays in L1), then the UTF-16 → UTF-8 kernel into `dst`; it stops
/// before a block of mostly ASCII ([`UTF8_MIN_NON_ASCII`]). (Building UTF-8 straight from
/// each block's gathered lanes wastes most lanes on trails: see the module docs.) A block
/// runs only while [`UTF8_BLOCK_ROOM`] bytes of room are left, so the second pass always
/// has room for every unit of the first; block boundaries are the UTF-16 kernel's over the
/// whole input (a chunk that ends inside a block leaves that block to the next chunk).
///
/// # Safety
/// The CPU must support AVX2, BMI1, BMI2 and POPCNT.
// Bounds: `read <= src.len()` and `written <= dst.len()` (sums of what the kernels report
// over `src[read..]` and `dst[written..]`); `take <= src.len() - read`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
pub(in crate::simd) unsafe fn to_utf8(
    src: &[u8],
    table: &PairTable,
    dst: &mut Slots<u8>,
) -> (usize, usize) {
    // A probe first: text that mixes short CJK runs with ASCII (markup, catalogs) calls
    // here at every run, and most calls end here.
    if !(src.get(UTF8_PROBE_AT).is_some_and(|&b| b >= 0x80)
        && src.get(UTF8_DENSE_AHEAD - 1).is_some_and(|&b| b >= 0x80))
    {
        return (0, 0);
    }
    to_utf8_dense(src, table, dst)
}

/// [`to_utf8`] after its probe. Out of line: inlined, it would crowd the probe's path.
///
/// # Safety
/// As [`to_utf8`].
// Bounds: as [`to_utf8`].
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
#[inline(never)]
unsafe fn to_utf8_dense(src: &[u8], table: &PairTable, dst: &mut Slots<u8>) -> (usize, usize) {
    const BLOCKS: usize = 16;
    // Two passes pay off over long CJK runs only (see the probe).
    // SAFETY: the same CPU features.
    if !src
        .get(..UTF8_DENSE_AHEAD)
        .is_some_and(|ahead| unsafe { dense(ahead, UTF8_MIN_NON_ASCII) })
    {
        return (0, 0);
    }
    // The UTF-16 kernel runs a block while 40 units of room are left (32 and the 8 its
    // last packed store may cover): 15 blocks of at most 32 units, then 40.
    let mut units = [MaybeUninit::<u16>::uninit(); BLOCKS * 32 + 8];
    let (mut read, mut written) = (0, 0);
    loop {
        let blocks = ((dst.len() - written) / UTF8_BLOCK_ROOM).min(BLOCKS);
        let take = (src.len() - read).min(blocks * 32);
        if take < 32 {
            break;
        }
        // SAFETY: the same CPU features; `units` has `units.len()` writable slots.
        let (r, u) = unsafe {
            decode::<UTF8_MIN_NON_ASCII>(
                &src[read..read + take],
                table,
                crate::simd::out_ptr(&mut units),
                units.len(),
            )
        };
        if r == 0 {
            break;
        }
        // SAFETY: the kernel stored (initialised) its first `u` units.
        let units = unsafe { core::slice::from_raw_parts(units.as_ptr().cast::<u16>(), u) };
        // Table entries and ASCII: no surrogates, and room for all (see above).
        // SAFETY: the same CPU features (AVX2, BMI2, POPCNT).
        let (units_read, w) =
            unsafe { crate::simd::utf16::avx2::units_to_utf8(units, &mut dst[written..]) };
        debug_assert_eq!(units_read, u);
        if units_read != u {
            // Cannot happen (see above); what was written past `written` is not reported.
            break;
        }
        read += r;
        written += w;
        if r + 32 <= take {
            break; // stopped before a block with something else
        }
    }
    (read, written)
}
