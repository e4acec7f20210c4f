//! SSE2 (x86-64 baseline): UTF-16 → UTF-16 code units and UTF-16 → UTF-8, 8 units per step.

use crate::simd::vector::x86::Sse2;
use crate::simd::vector::Isa;
use crate::simd::{out_ptr, write_slots, Slots};
use core::arch::x86_64::*;

/// Blocks of 8 units without surrogates, copied (byte-swapped for big-endian): the
/// kernel of `generic.rs`.
pub(crate) fn bytes_to_units(src: &[u8], big_endian: bool, dst: &mut Slots<u16>) -> (usize, usize) {
    super::generic::bytes_to_units(Isa::<Sse2>::sse2(), src, big_endian, dst)
}

/// What an SSE2 step found in a block of 8 units.
enum Block {
    /// All ASCII: already packed and stored.
    Ascii,
    /// All below U+0800: each unit's UTF-8 in its `u16` (lead in the low byte; an ASCII
    /// unit as it is), and each unit's length in bytes (byte i: unit i's, 1 or 2).
    Below0800([u16; 8], u64),
    /// Some unit needs three bytes: each unit's UTF-8 in a `u32` (first byte lowest), and
    /// each unit's length in bytes (byte i: unit i's, 1 to 3).
    Bmp([u32; 8], u64),
}

/// UTF-16 → UTF-8, 8 units per step, for blocks without surrogates (a block with one
/// stops the loop: the scalar twin takes it). SSE2 has no byte shuffle to pack mixed
/// lengths, so: an all-ASCII block is packed (`packuswb`); a block below U+0800 has its
/// two-byte forms built in the vector and is stored one `u16` per unit, each store
/// overlapping the next by the byte an ASCII unit does not use (no branch per unit; the
/// one byte the last store may write past the output is saved and put back); any other
/// block has its one- to three-byte forms built in 32-bit lanes and is stored the same
/// way, four bytes per unit. Each unit's place is its byte of the prefix sums of the
/// units' lengths (one multiplication), so the stores do not wait on a chain of additions.
/// Nothing past what it reports changes.
// Hot loop. Bounds: `read` advances by 16 while `read + 16 <= src.len()`; `written`
// advances by at most 24 per step while `written + 27 <= dst.len()`, and a step writes
// within `dst[written..written + 27]` (at most 24 bytes plus the three restored: a unit
// starts at most 7 × 3 = 21 bytes in); so no index passes its slice's length and the
// sums cannot overflow. Each length is 1 to 3, so each byte of the prefix sums (at most
// 24) holds its sum without a carry, and `ends - lengths` borrows from no byte.
// `u >> 6` and `u >> 12` of a `u16` fit a byte after the masks.
#[allow(
    clippy::arithmetic_side_effects,
    clippy::indexing_slicing,
    clippy::cast_possible_truncation
)]
pub(crate) fn bytes_to_utf8(src: &[u8], big_endian: bool, dst: &mut Slots<u8>) -> (usize, usize) {
    let (mut read, mut written) = (0, 0);
    while read + 16 <= src.len() && written + 27 <= dst.len() {
        // SAFETY: SSE2 is part of the x86-64 baseline; the load reads `src[read..read +
        // 16]`, in bounds; the store writes `dst[written..written + 8]` (room checked);
        // the spills write the 16 bytes of local arrays.
        let block = unsafe {
            let mut v = _mm_loadu_si128(src.as_ptr().add(read).cast());
            if big_endian {
                v = _mm_or_si128(_mm_slli_epi16::<8>(v), _mm_srli_epi16::<8>(v));
            }
            let zero = _mm_setzero_si128();
            let ascii = _mm_cmpeq_epi16(_mm_and_si128(v, _mm_set1_epi16(0xFF80u16 as i16)), zero);
            let ascii_mask = _mm_movemask_epi8(ascii) as u32;
            let top5 = _mm_and_si128(v, _mm_set1_epi16(0xF800u16 as i16));
            if ascii_mask == 0xFFFF {
                _mm_storel_epi64(out_ptr(dst).add(written).cast(), _mm_packus_epi16(v, v));
                Block::Ascii
            } else if _mm_movemask_epi8(_mm_cmpeq_epi16(top5, _mm_set1_epi16(0xD800u16 as i16)))
                != 0
            {
                break;
            } else if _mm_movemask_epi8(_mm_cmpeq_epi16(top5, zero)) == 0xFFFF {
                // 110xxxxx 10xxxxxx, lead in the low byte (`u >> 6` is at most 0x1F here).
                let lead = _mm_or_si128(_mm_srli_epi16::<6>(v), _mm_set1_epi16(0xC0));
                let trail =
                    _mm_or_si128(_mm_and_si128(v, _mm_set1_epi16(0x3F)), _mm_set1_epi16(0x80));
                let two = _mm_or_si128(lead, _mm_slli_epi16::<8>(trail));
                let words = _mm_or_si128(_mm_and_si128(ascii, v), _mm_andnot_si128(ascii, two));
                let mut spill = [0u16; 8];
                _mm_storeu_si128(spill.as_mut_ptr().cast(), words);
                // Two bytes per unit, one less per ASCII unit (its mask lane is -1).
                let lengths = _mm_add_epi16(_mm_set1_epi16(2), ascii);
                let lengths = _mm_cvtsi128_si64(_mm_packus_epi16(lengths, lengths)) as u64;
                Block::Below0800(spill, lengths)
            } else {
                let (lanes, lengths) = bmp_lanes(v);
                Block::Bmp(lanes, lengths)
            }
        };
        read += 16;
        match block {
            Block::Ascii => written += 8,
            Block::Below0800(words, lengths) => {
                // Each unit's start from the lengths' prefix sums (as for `Bmp` below).
                let ends = lengths.wrapping_mul(0x0101_0101_0101_0101);
                let starts = ends - lengths;
                let end = (ends >> 56) as usize;
                let out = &mut dst[written..written + 24];
                let after = out[end];
                for (i, word) in words.into_iter().enumerate() {
                    let n = (starts >> (8 * i)) as u8 as usize;
                    write_slots(&mut out[n..n + 2], &word.to_le_bytes());
                }
                out[end] = after;
                written += end;
            }
            Block::Bmp(lanes, lengths) => {
                // One four-byte store per unit, each overlapping the next by the bytes a
                // shorter character does not use: no branch per unit (Hangul or kana mixed
                // with spaces and punctuation defeat the branch predictor). The three bytes
                // the last store may write past the output are saved and put back.
                // Where each unit starts: the lengths' prefix sums, all at once (byte i of
                // `ends` is the sum of lengths 0..=i, at most 24), so the stores' addresses
                // do not wait on one another.
                let ends = lengths.wrapping_mul(0x0101_0101_0101_0101);
                let starts = ends - lengths;
                let end = (ends >> 56) as usize;
                let out = &mut dst[written..written + 27];
                let after = [out[end], out[end + 1], out[end + 2]];
                for (i, lane) in lanes.into_iter().enumerate() {
                    let n = (starts >> (8 * i)) as u8 as usize;
                    write_slots(&mut out[n..n + 4], &lane.to_le_bytes());
                }
                out[end..end + 3].copy_from_slice(&after);
                written += end;
            }
        }
    }
    (read, written)
}

/// The UTF-8 of 8 units (no surrogates) in 32-bit lanes, first byte lowest, and their
/// lengths in bytes (byte i: unit i's).
fn bmp_lanes(v: __m128i) -> ([u32; 8], u64) {
    let mut lanes = [0u32; 8];
    // SAFETY: SSE2 is part of the x86-64 baseline.
    let mut lengths = unsafe { [_mm_setzero_si128(); 2] };
    // SAFETY: SSE2 is part of the x86-64 baseline.
    let halves = unsafe {
        let zero = _mm_setzero_si128();
        [
            (0, _mm_unpacklo_epi16(v, zero)),
            (4, _mm_unpackhi_epi16(v, zero)),
        ]
    };
    for ((half, x), length) in halves.into_iter().zip(&mut lengths) {
        // SAFETY: SSE2 is part of the x86-64 baseline; the store writes `lanes[half..half
        // + 4]`, `half` being 0 or 4.
        unsafe {
            let six = _mm_set1_epi32(0x3F);
            let cont = _mm_set1_epi32(0x80);
            let two = _mm_cmpgt_epi32(x, _mm_set1_epi32(0x7F));
            let three = _mm_cmpgt_epi32(x, _mm_set1_epi32(0x7FF));
            let low6 = _mm_or_si128(_mm_and_si128(x, six), cont);
            let mid6 = _mm_or_si128(_mm_and_si128(_mm_srli_epi32::<6>(x), six), cont);
            // 110xxxxx 10xxxxxx and 1110xxxx 10xxxxxx 10xxxxxx.
            let two_form = _mm_or_si128(
                _mm_or_si128(_mm_srli_epi32::<6>(x), _mm_set1_epi32(0xC0)),
                _mm_slli_epi32::<8>(low6),
            );
            let three_form = _mm_or_si128(
                _mm_or_si128(_mm_srli_epi32::<12>(x), _mm_set1_epi32(0xE0)),
                _mm_or_si128(_mm_slli_epi32::<8>(mid6), _mm_slli_epi32::<16>(low6)),
            );
            let select = |mask: __m128i, yes: __m128i, no: __m128i| {
                _mm_or_si128(_mm_and_si128(mask, yes), _mm_andnot_si128(mask, no))
            };
            let lane = select(three, three_form, select(two, two_form, x));
            _mm_storeu_si128(lanes.as_mut_ptr().add(half).cast(), lane);
            // 1, less the two masks (-1 where they hold).
            *length = _mm_sub_epi32(_mm_sub_epi32(_mm_set1_epi32(1), two), three);
        }
    }
    // SAFETY: SSE2 is part of the x86-64 baseline. The lengths (1 to 3) narrow to bytes.
    let lengths = unsafe {
        let words = _mm_packs_epi32(lengths[0], lengths[1]);
        _mm_cvtsi128_si64(_mm_packus_epi16(words, words)) as u64
    };
    (lanes, lengths)
}
