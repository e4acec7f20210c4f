//! Bulk decoding of the CJK double-byte encodings' common case (gb18030's two-byte form,
//! Big5, EUC-JP's JIS X 0208, Shift_JIS, EUC-KR): 64-byte blocks of ASCII and valid pairs,
//! into UTF-16 or UTF-8.
//!
//! Which bytes of a block are leads is found without walking it byte by byte. A byte whose
//! row of the [`PairTable`] has a pair ("lead-capable") is a lead wherever a character
//! starts, and any other byte is never a lead. So in a run of lead-capable bytes the
//! first one is a lead (the byte before the run is not, or the run starts the block,
//! which starts on a character boundary), and roles alternate from there: lead, trail,
//! lead … A byte after the last lead of a run is its trail whatever its value (ASCII
//! trails are common: `81 40`). The run parities come from one addition (the carry of a
//! run's start bit clears the run). If anything else is in the block (a non-ASCII byte
//! that is neither lead nor trail, such as a Shift_JIS kana or gb18030's 0x80, or a pair
//! the table maps to 0: an error, a four-byte form, a plane-2 Big5 character), the block
//! is left to the codec's scalar path.
//!
//! The pairs are then looked up with `vpgatherdd`: each lead's table index ((lead & 0x7F)
//! << 8 | trail) in a 16-bit lane, the leads' indexes packed with `vpcompressw` (at most
//! 16 in 32 positions, since leads are never adjacent: one gather per half block), the
//! code points put back at the leads' positions with `vpexpandw` over the widened ASCII.
//! (A scalar loop storing the pairs into a buffer that is then loaded as vectors ran
//! CJK text at 0.7–0.8× the gathers' speed: the reload waits for the stores.) Finally
//! the units at character starts are packed with `vpcompressw` (UTF-16) or converted by
//! [`super::utf16`]'s BMP → UTF-8 step (UTF-8).
//!
//! Only the AVX-512 family has a kernel; at the other levels these functions return
//! (0, 0) and the codec's pair loop does all the work. The tests check the kernel against
//! a naive decoder of the same pairs.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::dispatch::{kernel, Kernel};
use crate::index::PairTable;

/// Decodes a prefix of `src` into `dst` as UTF-16: whole blocks of 64 bytes (63 when the
/// last byte is a lead: its pair is left for the next call) while they hold only ASCII and
/// pairs of `table`, and 64 units of room are left. Returns (bytes read, units written).
#[inline]
pub(crate) fn to_utf16(src: &[u8], table: &PairTable, dst: &mut [u16]) -> (usize, usize) {
    to_utf16_with(kernel(), src, table, dst)
}

/// As [`to_utf16`], into UTF-8, while 96 bytes of room are left; nothing is written past
/// what it returns. Returns (bytes read, bytes written).
#[inline]
pub(crate) fn to_utf8(src: &[u8], table: &PairTable, dst: &mut [u8]) -> (usize, usize) {
    to_utf8_with(kernel(), src, table, dst)
}

pub(crate) fn to_utf16_with(
    k: Kernel,
    src: &[u8],
    table: &PairTable,
    dst: &mut [u16],
) -> (usize, usize) {
    match k {
        // SAFETY: a `Kernel::Avx512` value exists only after its features were detected.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512(_) => unsafe {
            avx512::decode::<false>(src, table, dst.as_mut_ptr().cast(), dst.len())
        },
        _ => (0, 0),
    }
}

pub(crate) fn to_utf8_with(
    k: Kernel,
    src: &[u8],
    table: &PairTable,
    dst: &mut [u8],
) -> (usize, usize) {
    match k {
        // SAFETY: a `Kernel::Avx512` value exists only after its features were detected.
        #[cfg(target_arch = "x86_64")]
        Kernel::Avx512(_) => unsafe {
            avx512::decode::<true>(src, table, dst.as_mut_ptr(), dst.len())
        },
        _ => (0, 0),
    }
}

/// The leads of a 64-byte block whose lead-capable bytes are `capable` (see the module
/// docs): in each run of set bits, the first, third, fifth … bit. A pure function of the
/// mask, tested against a byte-by-byte walk.
// Bounds: `wrapping_add` is the point (the carry out of bit 63 is dropped: a run that
// reaches the end has no bit after it).
#[inline(always)]
pub(crate) fn leads_of(capable: u64) -> u64 {
    const EVEN: u64 = 0x5555_5555_5555_5555;
    let run_starts = capable & !(capable << 1);
    // Adding a run's start bit carries through the run: the runs that start at an even
    // position vanish from the sum, those that start at an odd one stay.
    let odd_runs = capable.wrapping_add(run_starts & EVEN) & capable;
    let even_runs = capable & !odd_runs;
    (even_runs & EVEN) | (odd_runs & !EVEN)
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::super::utf16::avx512::bmp_to_utf8_32;
    use super::leads_of;
    use crate::index::PairTable;
    use core::arch::x86_64::*;

    /// The kernel for both outputs: `UTF8` writes bytes to `d` (room `room` bytes, 96 per
    /// block), else UTF-16 units (room `room` units, 64 per block).
    ///
    /// # Safety
    /// The CPU must support AVX2, BMI1, BMI2, POPCNT and AVX-512 F/BW/VL/VBMI/VBMI2;
    /// `d .. d + room` (bytes, or units for UTF-16) must be writable.
    #[target_feature(
        enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
    )]
    // Hot loop. Bounds: a block runs only while `i + 64 <= src.len()` and `written` plus
    // the block's worst-case output (64 units, 96 bytes) is at most `room`; `i` advances by
    // 63 or 64 and `written` by what was stored, so neither passes its limit and no sum
    // overflows. Indexes into `block`, `buf` (64) and `pairs` (0x8000) are masked.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    pub(super) unsafe fn decode<const UTF8: bool>(
        src: &[u8],
        table: &PairTable,
        d: *mut u8,
        room: usize,
    ) -> (usize, usize) {
        let block_room = if UTF8 { 96 } else { 64 };
        // Row `lead - 0x80`, column `trail`: 128 × 256 units.
        let pairs = table.rows().as_flattened();
        // SAFETY: `lead_map` is 128 readable bytes.
        let (map_lo, map_hi) = unsafe {
            let p = table.lead_map().as_ptr();
            (
                _mm512_loadu_si512(p.cast()),
                _mm512_loadu_si512(p.add(64).cast()),
            )
        };
        // Byte k + 1 into position k.
        let next_index = _mm512_add_epi8(
            _mm512_set_epi8(
                63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43,
                42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22,
                21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
            ),
            _mm512_set1_epi8(1),
        );
        let (mut i, mut written) = (0, 0);
        while i + 64 <= src.len() && written + block_room <= room {
            // SAFETY: `i + 64 <= src.len()`.
            let v = unsafe { _mm512_loadu_si512(src.as_ptr().add(i).cast()) };
            let non_ascii = _mm512_movepi8_mask(v);
            let lo = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v));
            let hi = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64::<1>(v));
            if non_ascii == 0 {
                // All ASCII (the markup between translations): stored as it is.
                // SAFETY: room for the block's output (checked above): 64 bytes, or 64
                // units.
                unsafe {
                    if UTF8 {
                        _mm512_storeu_si512(d.add(written).cast(), v);
                    } else {
                        let d = d.cast::<u16>().add(written);
                        _mm512_storeu_si512(d.cast(), lo);
                        _mm512_storeu_si512(d.add(32).cast(), hi);
                    }
                }
                written += 64;
                i += 64;
                continue;
            }
            // The map is indexed by the low seven bits; only non-ASCII bytes count.
            let capable =
                _mm512_movepi8_mask(_mm512_permutex2var_epi8(map_lo, v, map_hi)) & non_ascii;
            let mut leads = leads_of(capable);
            // A lead in the last position: its trail is in the next block.
            let (len, in_block) = if leads >> 63 != 0 {
                leads &= !(1 << 63);
                (63, u64::MAX >> 1)
            } else {
                (64, u64::MAX)
            };
            let trails = leads << 1;
            if non_ascii & !(leads | trails) & in_block != 0 {
                break;
            }
            // Each byte's pair index (itself & 0x7F, then the next byte) in a 16-bit lane.
            let next = _mm512_permutexvar_epi8(next_index, v);
            let index = |lead: __m256i, trail: __m256i| {
                _mm512_or_si512(
                    _mm512_slli_epi16::<8>(_mm512_and_si512(
                        _mm512_cvtepu8_epi16(lead),
                        _mm512_set1_epi16(0x7F),
                    )),
                    _mm512_cvtepu8_epi16(trail),
                )
            };
            let idx_lo = index(_mm512_castsi512_si256(v), _mm512_castsi512_si256(next));
            let idx_hi = index(
                _mm512_extracti64x4_epi64::<1>(v),
                _mm512_extracti64x4_epi64::<1>(next),
            );
            // At most 16 leads in 32 positions (they are never adjacent): one gather each.
            let lookup = |idx: __m512i, leads: u32, widened: __m512i| {
                let n = leads.count_ones();
                let packed = _mm512_maskz_compress_epi16(leads, idx);
                let idx32 = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(packed));
                let active = _bzhi_u32(u32::MAX, n) as u16;
                // SAFETY: every index is below 0x7F00 (leads are at most 0xFE), so the four
                // bytes read at `2 * index` are within the 65 536-byte table.
                let got = unsafe {
                    _mm512_mask_i32gather_epi32::<2>(
                        _mm512_setzero_si512(),
                        active,
                        idx32,
                        pairs.as_ptr().cast(),
                    )
                };
                let values = _mm512_cvtepi32_epi16(got);
                let unmapped = _mm256_cmpeq_epi16_mask(values, _mm256_setzero_si256()) & active;
                (
                    _mm512_mask_expand_epi16(widened, leads, _mm512_castsi256_si512(values)),
                    unmapped,
                )
            };
            // A half without leads (ASCII, or trails only) needs no gather: the gathers'
            // latency is most of a block's time.
            let (lo, bad_lo) = match leads as u32 {
                0 => (lo, 0),
                half => lookup(idx_lo, half, lo),
            };
            let (hi, bad_hi) = match (leads >> 32) as u32 {
                0 => (hi, 0),
                half => lookup(idx_hi, half, hi),
            };
            if bad_lo | bad_hi != 0 {
                break;
            }
            // SAFETY: room for the block's output (checked above).
            written += unsafe { store(d, written, lo, hi, !trails & in_block, UTF8) };
            i += len;
        }
        (i, written)
    }

    /// Writes the units of `lo` (positions 0..32) and `hi` (32..64) whose bit in `starts`
    /// is set to `d` at `written` (units, or bytes for UTF-8); returns how many.
    ///
    /// # Safety
    /// As [`decode`], with 64 units or 96 bytes of room at `written`; the units are not
    /// surrogates.
    #[target_feature(
        enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
    )]
    #[inline]
    // Bounds: `n0 <= 32` units or 48 bytes, within the room the caller checked.
    #[allow(clippy::arithmetic_side_effects)]
    unsafe fn store(
        d: *mut u8,
        written: usize,
        lo: __m512i,
        hi: __m512i,
        starts: u64,
        utf8: bool,
    ) -> usize {
        let (s0, s1) = (starts as u32, (starts >> 32) as u32);
        if utf8 {
            // SAFETY: 96 bytes of room at `written`, and `n0 <= 48` of them used first.
            unsafe {
                let n0 = bmp_to_utf8_32(lo, s0, d.add(written));
                n0 + bmp_to_utf8_32(hi, s1, d.add(written + n0))
            }
        } else {
            let d = d.cast::<u16>();
            let (n0, n1) = (s0.count_ones(), s1.count_ones());
            // SAFETY: 64 units of room at `written`; the masked stores write `n0 + n1`.
            unsafe {
                _mm512_mask_storeu_epi16(
                    d.add(written).cast(),
                    _bzhi_u32(u32::MAX, n0),
                    _mm512_maskz_compress_epi16(s0, lo),
                );
                _mm512_mask_storeu_epi16(
                    d.add(written + n0 as usize).cast(),
                    _bzhi_u32(u32::MAX, n1),
                    _mm512_maskz_compress_epi16(s1, hi),
                );
            }
            (n0 + n1) as usize
        }
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
    use crate::index::{BIG5_PAIRS, EUC_KR_PAIRS, GB18030_PAIRS, JIS0208_PAIRS, SHIFT_JIS_PAIRS};
    use alloc::string::String;
    use alloc::vec::Vec;

    /// Whether `k` has a kernel here (the others take nothing).
    fn has_kernel(k: Kernel) -> bool {
        #[cfg(target_arch = "x86_64")]
        if let Kernel::Avx512(_) = k {
            return true;
        }
        let _ = k;
        false
    }

    /// Byte-by-byte: bit j set where byte j is lead-capable and starts a character.
    fn naive_leads(capable: u64) -> u64 {
        let (mut leads, mut j) = (0, 0);
        while j < 64 {
            if capable >> j & 1 == 1 {
                leads |= 1 << j;
                j += 2;
            } else {
                j += 1;
            }
        }
        leads
    }

    #[test]
    fn leads_of_matches_a_walk() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Sparse, dense and mixed masks.
            for capable in [x, x & x.rotate_left(7), x | x.rotate_left(3), !x & (x >> 1)] {
                assert_eq!(leads_of(capable), naive_leads(capable), "{capable:064b}");
            }
        }
        for capable in [0, u64::MAX, 1, 1 << 63, 0x8000_0000_0000_0001] {
            assert_eq!(leads_of(capable), naive_leads(capable));
        }
    }

    /// Naive decoding of the prefix the kernel may take: whole blocks (63 bytes when the
    /// last one is a lead) of ASCII and pairs of `table`, each while `need` more units
    /// (UTF-16) or bytes (UTF-8) fit in `room`; stops before the first block with
    /// anything else. Returns (bytes, the UTF-16).
    fn naive(src: &[u8], table: &PairTable, room: usize, utf8: bool) -> (usize, Vec<u16>) {
        let need = if utf8 { 96 } else { 64 };
        let (mut i, mut out) = (0, Vec::new());
        'blocks: while i + 64 <= src.len() {
            let written = if utf8 {
                String::from_utf16(&out).unwrap().len()
            } else {
                out.len()
            };
            if written + need > room {
                break;
            }
            let (mut j, mut units) = (i, Vec::new());
            while j < i + 64 {
                let b = src[j];
                if b < 0x80 {
                    units.push(u16::from(b));
                    j += 1;
                } else if table.lead_map()[usize::from(b - 0x80)] != 0 {
                    if j + 1 == i + 64 {
                        break; // the lead's pair is in the next block
                    }
                    let c = table.get(b, src[j + 1]);
                    if c == 0 {
                        break 'blocks;
                    }
                    units.push(c);
                    j += 2;
                } else {
                    break 'blocks;
                }
            }
            out.extend(units);
            i = j;
        }
        (i, out)
    }

    /// Text from pairs of `table` (every valid pair in turn, and some of the most common),
    /// ASCII runs of many lengths, and a few bytes that stop a block: an invalid pair, a
    /// non-lead non-ASCII byte, a lone lead at the end.
    fn samples(table: &PairTable, seed: u64) -> Vec<Vec<u8>> {
        let mut pairs = Vec::new();
        for lead in 0x80..=0xFFu8 {
            for trail in 0..=0xFFu8 {
                if table.get(lead, trail) != 0 {
                    pairs.push([lead, trail]);
                }
            }
        }
        let mut x = seed | 1;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut out = Vec::new();
        for stopper in [
            None,
            Some(&[0xFFu8][..]),
            Some(&[0x80][..]),
            Some(&[0xA5][..]),
        ] {
            for ascii_share in [0, 3, 10] {
                let mut text = Vec::new();
                let mut k = next() as usize;
                while text.len() < 700 {
                    if (next() % 16) < ascii_share {
                        let n = (next() % 20) as usize;
                        text.extend((0..n).map(|m| b' ' + (m % 90) as u8));
                    } else {
                        k = (k + (next() % 97) as usize) % pairs.len();
                        text.extend_from_slice(&pairs[k]);
                    }
                    if let Some(s) = stopper {
                        if next() % 300 == 0 {
                            text.extend_from_slice(s);
                        }
                    }
                }
                out.push(text);
            }
        }
        out
    }

    fn tables() -> [(&'static str, &'static PairTable); 5] {
        [
            ("gb18030", &GB18030_PAIRS),
            ("EUC-KR", &EUC_KR_PAIRS),
            ("Big5", &BIG5_PAIRS),
            ("EUC-JP", &JIS0208_PAIRS),
            ("Shift_JIS", &SHIFT_JIS_PAIRS),
        ]
    }

    #[test]
    fn every_kernel_matches_the_naive_decoder() {
        // What the samples made the kernel do: bytes read, calls that ended on a block cut
        // at 63, calls that stopped before a block with something else.
        let (mut taken, mut odd_blocks, mut stopped) = (0, 0, 0);
        for k in available_kernels() {
            for (name, table) in tables() {
                for (n, text) in samples(table, 7 + name.len() as u64).iter().enumerate() {
                    for start in [0, 1, 2, 5, 63] {
                        let src = &text[start..];
                        for room in [0, 63, 64, 95, 96, 150, 200, 1000, 1500] {
                            let mut dst = alloc::vec![0xAAAAu16; room];
                            let got = to_utf16_with(k, src, table, &mut dst);
                            let (want_read, want) = naive(src, table, room, false);
                            if has_kernel(k) {
                                let (r, w) = got;
                                taken += r;
                                odd_blocks += usize::from(r % 64 != 0);
                                stopped += usize::from(r + 64 <= src.len() && room == 1500);
                                assert_eq!(
                                    (r, &dst[..w]),
                                    (want_read, &want[..]),
                                    "{k:?} {name} {n} {start} {room}"
                                );
                                assert!(
                                    dst[w..].iter().all(|&u| u == 0xAAAA),
                                    "{k:?} {name}: wrote past"
                                );
                            } else {
                                assert_eq!(got, (0, 0));
                            }
                            let mut dst = alloc::vec![0xAAu8; room];
                            let got = to_utf8_with(k, src, table, &mut dst);
                            let (want_read, want) = naive(src, table, room, true);
                            let want = String::from_utf16(&want).unwrap();
                            if has_kernel(k) {
                                let (r, w) = got;
                                assert_eq!(
                                    (r, &dst[..w]),
                                    (want_read, want.as_bytes()),
                                    "{k:?} {name} {n} {start} {room} UTF-8"
                                );
                                assert!(
                                    dst[w..].iter().all(|&u| u == 0xAA),
                                    "{k:?} {name}: wrote past"
                                );
                            } else {
                                assert_eq!(got, (0, 0));
                            }
                        }
                    }
                }
            }
        }
        if available_kernels().any(has_kernel) {
            assert!(
                taken > 100_000 && odd_blocks > 100 && stopped > 50,
                "{taken} {odd_blocks} {stopped}"
            );
        }
    }
}
