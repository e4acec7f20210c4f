//! SSE2 (the x86-64 baseline): UTF-8 → UTF-16 in one pass, validating as it goes.
//!
//! SSE2 has no byte shuffle, so characters of mixed lengths cannot be packed in a vector
//! (the 16-byte transcoder of `generic.rs` needs `pshufb`). What the vectors do here is
//! the ASCII: every step loads 16 bytes, stores them widened whole and counts the ASCII
//! prefix (`pmovmskb`), so a run of ASCII of any length up to 16 costs one step and the
//! text between two non-ASCII characters (a word of Latin text) never runs byte by byte.
//! The characters from the first non-ASCII byte on are decoded by a scalar loop that takes
//! each from one 64-bit load: four two-byte characters at once (Cyrillic, Greek, Hebrew,
//! Arabic text), two three-byte ones, or one of any length; a run of five three-byte
//! characters (CJK, Thai text) takes one vector step. The loop goes back to the vectors at
//! the next ASCII byte, and stops at the first error or the last 7 bytes (the caller's
//! scalar twins finish; the kernel calls none, so a program that never decodes to UTF-16
//! links no second scalar decoder through the level table).
//!
//! Validity is the Standard's (#utf-8-decoder): a two-byte form is valid when its lead
//! and continuation have the right bit patterns and its code point is at least U+0080
//! (leads 0xC0 and 0xC1 are overlong); a three-byte form when its code point is at least
//! U+0800 and not a surrogate (the second-byte ranges of leads 0xE0 and 0xED); a
//! four-byte form when it is U+10000 to U+10FFFF.

use crate::simd::vector::x86::Sse2;
use crate::simd::vector::{Isa, Vector};
use crate::simd::{out_ptr, Slots};
use core::arch::x86_64::*;

/// The code point of the two-byte form in the low 16 bits of `w` (lead first), if it is
/// one and valid.
// `w & 0x1F` and `(w >> 8) & 0x3F` fit 11 bits.
#[inline(always)]
#[allow(clippy::cast_possible_truncation)]
fn two_byte(w: u64) -> Option<u16> {
    let c = (((w & 0x1F) << 6) | ((w >> 8) & 0x3F)) as u16;
    (w & 0xC0E0 == 0x80C0 && c >= 0x80).then_some(c)
}

/// The code point of the three-byte form in the low 24 bits of `w`, if it is one and
/// valid.
// The masks keep 16 bits.
#[inline(always)]
#[allow(clippy::cast_possible_truncation)]
fn three_byte(w: u64) -> Option<u16> {
    let c = (((w & 0x0F) << 12) | ((w >> 2) & 0xFC0) | ((w >> 16) & 0x3F)) as u16;
    (w & 0x00C0_C0F0 == 0x0080_80E0 && c >= 0x800 && c & 0xF800 != 0xD800).then_some(c)
}

/// Whether the 8 bytes of `w` are four valid two-byte forms.
#[inline(always)]
fn four_two_byte(w: u64) -> bool {
    // Patterns, then each lead's bits 1-4 nonzero (the lead is at least 0xC2).
    w & 0xC0E0_C0E0_C0E0_C0E0 == 0x80C0_80C0_80C0_80C0
        && (w & 0x001E_001E_001E_001E).wrapping_add(0x7FFF_7FFF_7FFF_7FFF) & 0x8000_8000_8000_8000
            == 0x8000_8000_8000_8000
}

/// Five three-byte characters (CJK, Thai text) in bytes 0-14 of the 16 at `p`, in one
/// vector step: `None` unless those bytes are exactly five valid three-byte forms; else
/// their UTF-16 in units 0-4 (units 5-7 are garbage).
///
/// Each character's unit is computed at every byte position from the byte and the two
/// after it (`u16` lanes), and the lanes of positions 0, 3, 6, 9 and 12 are gathered by
/// fixed shuffles (SSE2 has no variable one).
///
/// # Safety
/// `p .. p + 16` must be readable.
#[inline(always)]
// The mask constants are bit patterns (sign reinterpretations intended).
#[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)]
unsafe fn five_three_byte(p: *const u8) -> Option<__m128i> {
    // SAFETY: SSE2 is part of the x86-64 baseline; the caller guarantees the load.
    unsafe {
        let v = _mm_loadu_si128(p.cast());
        // Leads 0xE0-0xEF: 0x00-0x0F after adding 0x20 (as i8: 0 to 15). Continuations
        // 0x80-0xBF: below 0xC0 as i8.
        let t = _mm_add_epi8(v, _mm_set1_epi8(0x20));
        let lead = !(_mm_movemask_epi8(t) as u32)
            & _mm_movemask_epi8(_mm_cmpgt_epi8(_mm_set1_epi8(0x10), t)) as u32;
        let cont = _mm_movemask_epi8(_mm_cmpgt_epi8(_mm_set1_epi8(0xC0u8 as i8), v)) as u32;
        if lead & 0x7FFF != 0b001_001_001_001_001 || cont & 0x7FFF != 0b110_110_110_110_110 {
            return None;
        }
        let zero = _mm_setzero_si128();
        let six = _mm_set1_epi16(0x3F);
        let (n1, n2) = (_mm_srli_si128::<1>(v), _mm_srli_si128::<2>(v));
        // The lead's top four bits shift out of the lane.
        let unit = |b, c1, c2| {
            _mm_or_si128(
                _mm_or_si128(
                    _mm_slli_epi16::<12>(b),
                    _mm_slli_epi16::<6>(_mm_and_si128(c1, six)),
                ),
                _mm_and_si128(c2, six),
            )
        };
        let low = unit(
            _mm_unpacklo_epi8(v, zero),
            _mm_unpacklo_epi8(n1, zero),
            _mm_unpacklo_epi8(n2, zero),
        );
        let high = unit(
            _mm_unpackhi_epi8(v, zero),
            _mm_unpackhi_epi8(n1, zero),
            _mm_unpackhi_epi8(n2, zero),
        );
        // Overlong (below U+0800: top five bits clear) or a surrogate, at a character's
        // lane: low lanes 0, 3, 6 (mask bits 0, 6, 12), high lanes 1, 4 (bits 18, 24).
        let top5 = _mm_set1_epi16(0xF800u16 as i16);
        let surrogate = _mm_set1_epi16(0xD800u16 as i16);
        let bad = |u| {
            let t = _mm_and_si128(u, top5);
            _mm_movemask_epi8(_mm_or_si128(
                _mm_cmpeq_epi16(t, zero),
                _mm_cmpeq_epi16(t, surrogate),
            )) as u32
        };
        if (bad(low) | (bad(high) << 16)) & 0x0104_1041 != 0 {
            return None;
        }
        // Units 0-2 = low lanes 0, 3, 6: lanes 0, 1 by `pshuflw`, then dwords 0 and 3.
        let a = _mm_shuffle_epi32::<0b11_11_11_00>(_mm_shufflelo_epi16::<0b11_11_11_00>(low));
        // Units 3, 4 = high lanes 1, 4: lane 3 by `pshuflw`; lane 4 stays.
        let b = _mm_shufflelo_epi16::<0b01_00_00_00>(high);
        let first_three = _mm_set_epi16(0, 0, 0, 0, 0, -1, -1, -1);
        Some(_mm_or_si128(
            _mm_and_si128(first_three, a),
            _mm_andnot_si128(first_three, b),
        ))
    }
}

/// The UTF-16 of the four-byte form in the low 32 bits of `w`, if it is one and valid
/// (#utf-8-decoder: code points U+10000 to U+10FFFF, the second-byte ranges of leads 0xF0
/// and 0xF4), as a surrogate pair in one `u32` (high surrogate in the low half).
// The masks keep 21 bits; `c - 0x10000` fits 20 bits.
#[inline(always)]
#[allow(clippy::cast_possible_truncation)]
fn four_byte(w: u64) -> Option<u32> {
    let w = w as u32;
    let c = ((w & 0x07) << 18) | ((w & 0x3F00) << 4) | ((w >> 10) & 0xFC0) | ((w >> 24) & 0x3F);
    if w & 0xC0C0_C0F8 != 0x8080_80F0 || !(0x1_0000..0x11_0000).contains(&c) {
        return None;
    }
    let c = c.wrapping_sub(0x1_0000);
    Some((0xD800 | (c >> 10)) | ((0xDC00 | (c & 0x3FF)) << 16))
}

/// Validates and converts a prefix of `src` that is valid UTF-8, as far as `dst` has
/// room, whole characters only: (bytes read, units written). It stops at the first error,
/// or earlier only within the last 7 bytes of `src` or 3 units of `dst` (the caller
/// finishes those with the scalar twins). `dst` past `written` may be overwritten (an
/// ASCII step stores 16 units).
// Hot loop. Bounds: the vector step runs only while `read + 16 <= src.len()` and
// `written + 16 <= dst.len()`, and adds at most 16 to each (or what the ASCII kernel
// reports of the rest); the scalar steps run only while `read + 8 <= src.len()` and
// `written + 4 <= dst.len()` (`+ 8` for the five-character step, which reads 16 bytes),
// and add at most 15 and 5. So `read <= src.len()` and `written <= dst.len()`
// throughout and no sum overflows.
#[allow(
    clippy::arithmetic_side_effects,
    clippy::indexing_slicing,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap
)]
pub(crate) fn validate_to_utf16(src: &[u8], dst: &mut Slots<u16>) -> (usize, usize) {
    let isa = Isa::<Sse2>::sse2();
    let (mut read, mut written) = (0, 0);
    // Whole ASCII vectors in a row.
    let mut run = 0;
    'vector: loop {
        if read + 16 <= src.len() && written + 16 <= dst.len() {
            // SAFETY: `read + 16 <= src.len()`: the load reads `src[read..read + 16]`.
            let v = unsafe { Sse2::load(isa, src.as_ptr().add(read)) };
            let (low, high) = v.widen();
            let d = out_ptr(&mut dst[written..]);
            // SAFETY: `written + 16 <= dst.len()`: the stores write 16 units.
            unsafe {
                low.store(d.cast());
                high.store(d.add(8).cast());
            }
            // The ASCII prefix (16 when the mask is empty: its bit 16 is a sentinel).
            let ascii = (v.high_bits() | 0x1_0000).trailing_zeros() as usize;
            read += ascii;
            written += ascii;
            if ascii == 16 {
                run += 1;
                if run == 4 {
                    // A long run: the level's ASCII loop (64 bytes per step).
                    let n =
                        crate::simd::ascii::sse2::widen_ascii(&src[read..], &mut dst[written..]);
                    read += n;
                    written += n;
                }
                continue;
            }
            run = 0;
        }
        // Characters until the next ASCII byte that a vector step can take.
        loop {
            let Some(&bytes) = src[read..].first_chunk::<8>() else {
                break 'vector;
            };
            if written + 4 > dst.len() {
                break 'vector;
            }
            let w = u64::from_le_bytes(bytes);
            if w & 0x80 == 0 {
                if w & 0x8000 == 0 && read + 16 <= src.len() && written + 16 <= dst.len() {
                    continue 'vector;
                }
                // One ASCII byte between non-ASCII characters (a space between words),
                // or near the end.
                dst[written].write((w & 0x7F) as u16);
                read += 1;
                written += 1;
                continue;
            }
            if let Some(c) = two_byte(w) {
                if four_two_byte(w) {
                    // SAFETY: SSE2; `written + 4 <= dst.len()`: the store writes 4 units.
                    unsafe {
                        let v = _mm_cvtsi64_si128(w as i64);
                        let lead = _mm_slli_epi16::<6>(_mm_and_si128(v, _mm_set1_epi16(0x1F)));
                        let cont = _mm_and_si128(_mm_srli_epi16::<8>(v), _mm_set1_epi16(0x3F));
                        _mm_storel_epi64(
                            out_ptr(&mut dst[written..]).cast(),
                            _mm_or_si128(lead, cont),
                        );
                    }
                    read += 8;
                    written += 4;
                } else {
                    dst[written].write(c);
                    read += 2;
                    written += 1;
                }
                continue;
            }
            if w & 0xF0 == 0xE0 && read + 16 <= src.len() && written + 8 <= dst.len() {
                // SAFETY: `read + 16 <= src.len()`.
                if let Some(units) = unsafe { five_three_byte(src.as_ptr().add(read)) } {
                    // SAFETY: `written + 8 <= dst.len()`: the store writes 8 units.
                    unsafe { _mm_storeu_si128(out_ptr(&mut dst[written..]).cast(), units) };
                    read += 15;
                    written += 5;
                    continue;
                }
            }
            if let Some(c) = three_byte(w) {
                dst[written].write(c);
                if let Some(c2) = three_byte(w >> 24) {
                    // Two in a row (Korean words are two to four syllables).
                    dst[written + 1].write(c2);
                    read += 6;
                    written += 2;
                } else {
                    read += 3;
                    written += 1;
                }
                continue;
            }
            let Some(pair) = four_byte(w) else {
                // An error.
                break 'vector;
            };
            dst[written].write(pair as u16);
            dst[written + 1].write((pair >> 16) as u16);
            read += 4;
            written += 2;
        }
    }
    (read, written)
}
