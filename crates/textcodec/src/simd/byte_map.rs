//! Bulk byte → code point mapping through a 256-entry table (the single-byte decoders and
//! x-user-defined), into UTF-16 or UTF-8, 32 input bytes per step.
//!
//! Only the AVX-512 family has a kernel here: its two-source permutes (`vpermt2w`) hold the
//! 128 non-ASCII entries of a table in four registers and look up 32 bytes at once, and
//! `vpcompressb` packs the variable-length UTF-8. At the other levels these functions do
//! nothing (they return 0) and the codec's portable loop (`codecs::fast_byte_map`, tested
//! under every kernel) does all the work; the naive oracle in the tests below is the
//! reference both are checked against.
//!
//! Contract (all levels): the bytes are taken in whole 32-byte blocks while a block and
//! its worst-case output fit; a block holding an error byte (a table entry of 0, or a
//! surrogate, which no index has) is taken up to that byte, and the call stops there.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::dispatch::{kernel, Kernel};
use super::sink::ByteMap;

/// Bytes per step.
pub(crate) const BLOCK: usize = 32;

/// Maps a prefix of `src` into `dst` as UTF-16 (see the module docs); returns its length
/// (bytes read = units written).
#[inline]
pub(crate) fn to_utf16(src: &[u8], map: &ByteMap<'_>, dst: &mut [u16]) -> usize {
    to_utf16_with(kernel(), src, map, dst)
}

/// Maps a prefix of `src` into `dst` as UTF-8 (see the module docs): whole characters, and
/// nothing written past them; returns (bytes read, bytes written).
#[inline]
pub(crate) fn to_utf8(src: &[u8], map: &ByteMap<'_>, dst: &mut [u8]) -> (usize, usize) {
    to_utf8_with(kernel(), src, map, dst)
}

pub(crate) fn to_utf16_with(k: Kernel, src: &[u8], map: &ByteMap<'_>, dst: &mut [u16]) -> usize {
    match k {
        // SAFETY: a `Kernel::Avx512` value exists only after its features were detected.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512(_) => unsafe { avx512::to_utf16(src, map.units, dst) },
        _ => 0,
    }
}

pub(crate) fn to_utf8_with(
    k: Kernel,
    src: &[u8],
    map: &ByteMap<'_>,
    dst: &mut [u8],
) -> (usize, usize) {
    match k {
        // SAFETY: a `Kernel::Avx512` value exists only after its features were detected.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512(_) => unsafe { avx512::to_utf8(src, map.units, dst) },
        _ => (0, 0),
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::BLOCK;
    use core::arch::x86_64::*;

    /// The table's 128 non-ASCII entries in four registers: entries 0x80–0xBF in the first
    /// pair, 0xC0–0xFF in the second (a two-source permute indexes 64 16-bit lanes with the
    /// low six bits of each index).
    struct HighHalf([__m512i; 4]);

    impl HighHalf {
        /// # Safety
        /// The CPU must support AVX-512 F.
        #[target_feature(enable = "avx512f")]
        // Bounds: the four 64-byte loads read `units[128..256]`.
        #[allow(clippy::arithmetic_side_effects)]
        unsafe fn load(units: &[u16; 256]) -> Self {
            let p = units.as_ptr();
            // SAFETY: entries 128 + 32k .. 128 + 32(k + 1), k < 4, are within the table.
            unsafe {
                HighHalf([
                    _mm512_loadu_si512(p.add(128).cast()),
                    _mm512_loadu_si512(p.add(160).cast()),
                    _mm512_loadu_si512(p.add(192).cast()),
                    _mm512_loadu_si512(p.add(224).cast()),
                ])
            }
        }

        /// The code points of 32 bytes, and a mask of the lanes that are errors (a
        /// non-ASCII byte whose entry is 0 or a surrogate).
        /// # Safety
        /// The CPU must support AVX2 and AVX-512 F/BW.
        #[target_feature(enable = "avx2,avx512f,avx512bw")]
        #[inline]
        unsafe fn map(&self, bytes: __m256i) -> (__m512i, u32) {
            let wide = _mm512_cvtepu8_epi16(bytes);
            let high = _mm256_movemask_epi8(bytes) as u32;
            let [t0, t1, t2, t3] = self.0;
            let low_quarter = _mm512_permutex2var_epi16(t0, wide, t1);
            let high_quarter = _mm512_permutex2var_epi16(t2, wide, t3);
            let upper = _mm512_test_epi16_mask(wide, _mm512_set1_epi16(0x40));
            let mapped = _mm512_mask_blend_epi16(upper, low_quarter, high_quarter);
            let units = _mm512_mask_blend_epi16(high, wide, mapped);
            let zero = _mm512_cmpeq_epi16_mask(mapped, _mm512_setzero_si512());
            let surrogate = _mm512_cmpeq_epi16_mask(
                _mm512_and_si512(mapped, _mm512_set1_epi16(0xF800u16 as i16)),
                _mm512_set1_epi16(0xD800u16 as i16),
            );
            (units, high & (zero | surrogate))
        }
    }

    /// # Safety
    /// The CPU must support AVX2 and AVX-512 F/BW.
    #[target_feature(enable = "avx2,avx512f,avx512bw")]
    // Hot loop. Bounds: a block runs only while `i + 32 <= n` (the shorter length), then
    // `i` advances by 32 at most, so it never passes `n`; `errors.trailing_zeros()` of a
    // nonzero `u32` is below 32.
    #[allow(clippy::arithmetic_side_effects)]
    pub(super) unsafe fn to_utf16(src: &[u8], units: &[u16; 256], dst: &mut [u16]) -> usize {
        let n = src.len().min(dst.len());
        // SAFETY: AVX-512 F is enabled here.
        let table = unsafe { HighHalf::load(units) };
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
        let mut i = 0;
        while i + BLOCK <= n {
            // SAFETY: `i + 32 <= n`: the load reads `src[i..i + 32]`.
            let bytes = unsafe { _mm256_loadu_si256(s.add(i).cast()) };
            // SAFETY: the features `map` needs are enabled here.
            let (out, errors) = unsafe { table.map(bytes) };
            if errors != 0 {
                let valid = errors.trailing_zeros();
                // SAFETY: `i + 32 <= n`: the masked store writes `dst[i..i + valid]` only.
                unsafe { _mm512_mask_storeu_epi16(d.add(i).cast(), (1u32 << valid) - 1, out) };
                return i + valid as usize;
            }
            // SAFETY: `i + 32 <= n`: the store writes `dst[i..i + 32]`.
            unsafe { _mm512_storeu_si512(d.add(i).cast(), out) };
            i += BLOCK;
        }
        i
    }

    /// Worst-case UTF-8 of a block: 32 three-byte characters.
    const MAX_OUT: usize = 3 * BLOCK;

    /// # Safety
    /// The CPU must support AVX2, BMI2, POPCNT and AVX-512 F/BW/VBMI2.
    #[target_feature(enable = "avx2,bmi2,popcnt,avx512f,avx512bw,avx512vbmi2")]
    // Hot loop. Bounds: a block runs only while `i + 32 <= src.len()` and `written + 96 <=
    // dst.len()`, then `i` advances by at most 32 and `written` by the bytes stored (at
    // most 96: a compress mask of 64 bits for the one- and two-byte path, two masks of 48
    // for the three-byte path), so neither passes its slice's length. Shifts and
    // `trailing_zeros` are of values below 64.
    #[allow(clippy::arithmetic_side_effects)]
    pub(super) unsafe fn to_utf8(src: &[u8], units: &[u16; 256], dst: &mut [u8]) -> (usize, usize) {
        // SAFETY: AVX-512 F is enabled here.
        let table = unsafe { HighHalf::load(units) };
        let (s, d) = (src.as_ptr(), dst.as_mut_ptr());
        let (mut i, mut written) = (0, 0);
        while i + BLOCK <= src.len() && written + MAX_OUT <= dst.len() {
            // SAFETY: `i + 32 <= src.len()`: the load reads `src[i..i + 32]`.
            let bytes = unsafe { _mm256_loadu_si256(s.add(i).cast()) };
            if _mm256_movemask_epi8(bytes) == 0 {
                // SAFETY: `written + 96 <= dst.len()`: the store writes 32 bytes.
                unsafe { _mm256_storeu_si256(d.add(written).cast(), bytes) };
                i += BLOCK;
                written += BLOCK;
                continue;
            }
            // SAFETY: the features `map` needs are enabled here.
            let (cps, errors) = unsafe { table.map(bytes) };
            // Lanes taken: all, or those before the first error.
            let valid = if errors == 0 {
                BLOCK as u32
            } else {
                errors.trailing_zeros()
            };
            let wide = _mm512_cmpge_epu16_mask(cps, _mm512_set1_epi16(0x800));
            if wide == 0 {
                // One or two bytes per character, in 16-bit lanes (little-endian: the lead
                // byte low): 0xC0 | c >> 6, then 0x80 | c & 0x3F.
                let lead = _mm512_or_si512(_mm512_srli_epi16::<6>(cps), _mm512_set1_epi16(0xC0));
                let trail = _mm512_ternarylogic_epi32::<0xEA>(
                    cps,
                    _mm512_set1_epi16(0x3F),
                    _mm512_set1_epi16(0x80),
                );
                let two = _mm512_or_si512(lead, _mm512_slli_epi16::<8>(trail));
                let ascii = _mm512_cmplt_epu16_mask(cps, _mm512_set1_epi16(0x80));
                let lanes = _mm512_mask_mov_epi16(two, ascii, cps);
                // Every lane's first byte; its second unless ASCII; lanes up to `valid`.
                let keep = (0x5555_5555_5555_5555u64
                    | _pdep_u64(u64::from(!ascii), 0xAAAA_AAAA_AAAA_AAAA))
                    & _bzhi_u64(u64::MAX, 2 * valid);
                let out = _mm512_maskz_compress_epi8(keep, lanes);
                let len = keep.count_ones();
                // SAFETY: `len <= 64` and `written + 96 <= dst.len()`: the masked store
                // writes `dst[written..written + len]` only.
                unsafe {
                    _mm512_mask_storeu_epi8(d.add(written).cast(), _bzhi_u64(u64::MAX, len), out)
                };
                written += len as usize;
            } else {
                // Up to three bytes per character, in 32-bit lanes, 16 characters at a time.
                for half in 0..2u32 {
                    let taken = valid.saturating_sub(16 * half).min(16);
                    let c = _mm512_cvtepu16_epi32(if half == 0 {
                        _mm512_castsi512_si256(cps)
                    } else {
                        _mm512_extracti64x4_epi64::<1>(cps)
                    });
                    let lanes = utf8_lanes(c);
                    // Every lane's first byte, and its other nonzero ones (a character's
                    // bytes after the first are continuations, never 0); lanes up to
                    // `taken`.
                    let keep = (_mm512_test_epi8_mask(lanes, lanes) | 0x1111_1111_1111_1111)
                        & _bzhi_u64(u64::MAX, 4 * taken);
                    let out = _mm512_maskz_compress_epi8(keep, lanes);
                    let len = keep.count_ones();
                    // SAFETY: `len <= 48` (three bytes per lane at most) and the bytes
                    // written so far in this block are at most 48: the masked store
                    // writes within `dst[written..written + 96]`.
                    unsafe {
                        _mm512_mask_storeu_epi8(
                            d.add(written).cast(),
                            _bzhi_u64(u64::MAX, len),
                            out,
                        )
                    };
                    written += len as usize;
                }
            }
            if errors != 0 {
                return (i + valid as usize, written);
            }
            i += BLOCK;
        }
        (i, written)
    }

    /// The UTF-8 bytes of 16 BMP code points (not surrogates), one per 32-bit lane,
    /// little-endian, zeros above.
    /// # Safety
    /// The CPU must support AVX-512 F.
    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn utf8_lanes(c: __m512i) -> __m512i {
        let x3f = _mm512_set1_epi32(0x3F);
        let x80 = _mm512_set1_epi32(0x80);
        // (x & 0x3F) | 0x80 in one instruction.
        let cont = |x: __m512i| _mm512_ternarylogic_epi32::<0xEA>(x, x3f, x80);
        let two = _mm512_or_si512(
            _mm512_or_si512(_mm512_srli_epi32::<6>(c), _mm512_set1_epi32(0xC0)),
            _mm512_slli_epi32::<8>(cont(c)),
        );
        let three = _mm512_or_si512(
            _mm512_or_si512(_mm512_srli_epi32::<12>(c), _mm512_set1_epi32(0xE0)),
            _mm512_or_si512(
                _mm512_slli_epi32::<8>(cont(_mm512_srli_epi32::<6>(c))),
                _mm512_slli_epi32::<16>(cont(c)),
            ),
        );
        let ascii = _mm512_cmplt_epu32_mask(c, x80);
        let short = _mm512_cmplt_epu32_mask(c, _mm512_set1_epi32(0x800));
        _mm512_mask_mov_epi32(_mm512_mask_mov_epi32(three, short, two), ascii, c)
    }
}

#[cfg(test)]
// Bounds: test code over small buffers it builds itself; an out-of-range index, an
// overflow or a failed unwrap would panic and fail the test, which is what a test should do.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::unwrap_used,
    clippy::panic
)]
mod tests {
    use super::super::dispatch::available_kernels;
    use super::super::sink::utf8_table;
    use super::*;
    use alloc::vec::Vec;

    /// A table exercising every path: ASCII identity, errors, two- and three-byte
    /// characters, a surrogate (never in an index, must be refused).
    fn table() -> [u16; 256] {
        let mut t = [0u16; 256];
        for (b, slot) in t.iter_mut().enumerate() {
            let b16 = b as u16;
            *slot = match b {
                0..=0x7F => b16,
                0x81 | 0x9D => 0,            // errors
                0x8F => 0xD800,              // a surrogate
                0x80..=0x9F => 0x2000 + b16, // three bytes
                0xA0..=0xDF => b16,          // two bytes (Latin-1)
                _ => 0x0400 + (b16 - 0xE0),  // two bytes (Cyrillic)
            };
        }
        t
    }

    /// Naive oracle: byte by byte, stopping at the first error.
    fn naive(src: &[u8], units: &[u16; 256]) -> (Vec<u16>, usize) {
        let mut out = Vec::new();
        for (i, &b) in src.iter().enumerate() {
            let u = units[usize::from(b)];
            if b >= 0x80 && (u == 0 || (0xD800..0xE000).contains(&u)) {
                return (out, i);
            }
            out.push(u);
        }
        (out, src.len())
    }

    #[test]
    fn every_kernel_matches_the_naive_oracle_across_lengths_errors_and_room() {
        let units = table();
        let utf8 = utf8_table(&units);
        let map = ByteMap {
            units: &units,
            utf8: &utf8,
        };
        let (max_len, err_step) = if cfg!(miri) { (70, 13) } else { (140, 1) };
        // Byte mixes: Latin-like (sparse non-ASCII), dense two-byte, three-byte.
        let mixes: [&dyn Fn(usize) -> u8; 3] = [
            &|i| {
                if i % 7 == 3 {
                    0xE9
                } else {
                    b'a' + (i % 26) as u8
                }
            },
            &|i| 0xA0 + (i % 0x5F) as u8,
            &|i| [0x80, 0x41, 0xE1, 0x9F, 0x00][i % 5],
        ];
        for k in available_kernels() {
            for mix in &mixes {
                for len in 0..max_len {
                    let clean: Vec<u8> = (0..len).map(mix).collect();
                    for bad in (0..len).step_by(err_step).chain([usize::MAX]) {
                        let mut src = clean.clone();
                        if bad != usize::MAX {
                            src[bad] = [0x81, 0x8F, 0x9D][bad % 3];
                        }
                        let (expected, valid) = naive(&src, &units);
                        for room in [0, len / 2, len, 3 * len + 100] {
                            let mut wide = alloc::vec![0xAAAAu16; room];
                            let n = to_utf16_with(k, &src, &map, &mut wide);
                            check_prefix(k, n, valid, len, room >= len);
                            assert_eq!(&wide[..n], &expected[..n], "{k:?} utf16 {len} {bad}");
                            assert!(wide[n..].iter().all(|&u| u == 0xAAAA), "{k:?} wrote past");

                            let mut narrow = alloc::vec![0xAAu8; room];
                            let (read, written) = to_utf8_with(k, &src, &map, &mut narrow);
                            check_prefix(k, read, valid, len, room >= 3 * len + 96);
                            let text = core::str::from_utf8(&narrow[..written])
                                .unwrap_or_else(|e| panic!("{k:?} invalid UTF-8 {e}"));
                            let want = String::from_utf16(&expected[..read]).unwrap();
                            assert_eq!(text, want, "{k:?} utf8 {len} {bad} {room}");
                            assert!(narrow[written..].iter().all(|&b| b == 0xAA), "{k:?} past");
                        }
                    }
                }
            }
        }
    }

    /// What a kernel may read: nothing (levels without a kernel), or whole blocks up to
    /// the first error (taken exactly when its block is whole and, with ample room,
    /// reached).
    fn check_prefix(k: Kernel, read: usize, valid: usize, len: usize, ample_room: bool) {
        assert!(read <= valid, "{k:?} read {read} past the error at {valid}");
        #[cfg(target_arch = "x86_64")]
        if matches!(k, Kernel::Avx512(_)) && ample_room {
            let whole = len - len % BLOCK;
            assert_eq!(read, valid.min(whole), "{k:?} stopped early (len {len})");
            return;
        }
        assert!(read == valid || read.is_multiple_of(BLOCK), "{k:?} {read}");
        let _ = (len, ample_room);
    }

    use alloc::string::String;
}
