use crate::simd::{out_ptr, Slots};
use core::arch::x86_64::*;

/// `vpermt2b` indexes that interleave the first (`[0]`) or last (`[1]`) 32 bytes of two
/// vectors `a` and `b`: `a[j]`, `b[j]`, `a[j + 1]`, …
// Bounds: `j < 32`, so `2 * j + 1 < 64` and `96 + j < 128` (evaluated at compile time).
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const INTERLEAVE: [[u8; 64]; 2] = {
    let mut t = [[0u8; 64]; 2];
    let mut j = 0;
    while j < 32 {
        t[0][2 * j] = j as u8;
        t[0][2 * j + 1] = 64 + j as u8;
        t[1][2 * j] = 32 + j as u8;
        t[1][2 * j + 1] = 96 + j as u8;
        j += 1;
    }
    t
};

/// Latin-1 → UTF-8, 64 bytes per step: stored as they are where they are ASCII; else
/// each byte's first UTF-8 byte (itself if ASCII, else C2 or C3) and second (the byte
/// with bit 6 clear) are made in two vectors, interleaved by `vpermt2b` into two
/// halves of 64, and `vpcompressb` keeps every first byte and the second bytes of the
/// non-ASCII ones, stored as 64 bytes: up to 32 scratch bytes past what it reports, which
/// the next store overwrites or, after the last, are left in `dst` (never past its end;
/// storing only the packed bytes, a masked store, measured 7–12 % slower). Stops with
/// fewer than 64 bytes left or 128 bytes of room. Returns (bytes read, bytes written).
/// Near-ASCII input (`ascii::avx512::mostly_ascii`) also runs a tight loop over 128 ASCII
/// bytes at a time after each ASCII step; other text without it (cs.text 0.65× → 0.81×
/// simdutf, cy.text 0.87× → 0.70× the other way round). Only after an ASCII step: text
/// with a letter every few dozen bytes (fr.po) no longer pays a failed 128-byte test
/// after each of its steps. Every load comes before the stores of the step before it:
/// with the output 24–64 bytes after the input modulo 4 KiB, a load after such a store
/// waits for it (4K aliasing): near-ASCII en.po ran at 38–44 GB/s there against 48–52
/// elsewhere, 47–54 everywhere now (simdutf icelake 27–39 there;
/// `scripts/alias-probe.sh`).
///
/// # Safety
/// The CPU must support AVX2, BMI2, POPCNT and AVX-512 F/BW/VL/VBMI/VBMI2.
#[target_feature(enable = "avx2,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
pub(crate) unsafe fn to_utf8(src: &[u8], dst: &mut Slots<u8>) -> (usize, usize) {
    // SAFETY: the same CPU features.
    unsafe {
        if crate::simd::ascii::avx512::mostly_ascii(src) {
            steps::<true>(src, dst)
        } else {
            steps::<false>(src, dst)
        }
    }
}

/// [`to_utf8`]'s loop, with or without the ASCII loop.
///
/// # Safety
/// As [`to_utf8`].
#[target_feature(enable = "avx2,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
#[inline]
// Hot loop. Bounds: a step runs only while `i + 64 <= src.len()` and `written + 128 <=
// dst.len()`, reads `src[i..i + 64]` and writes at most 128 bytes (64 per half) from
// `written`; a half's length `n` is 32 plus its non-ASCII bytes, so `64 - n` is 0..=32.
#[allow(clippy::arithmetic_side_effects, clippy::indexing_slicing)]
unsafe fn steps<const ASCII_RUNS: bool>(src: &[u8], dst: &mut Slots<u8>) -> (usize, usize) {
    let (s, d) = (src.as_ptr(), out_ptr(dst));
    // SAFETY: the tables are 64 bytes each.
    let (lo, hi) = unsafe {
        (
            _mm512_loadu_si512(INTERLEAVE[0].as_ptr().cast()),
            _mm512_loadu_si512(INTERLEAVE[1].as_ptr().cast()),
        )
    };
    let (c2, c3, x_bf, x_c0) = (
        _mm512_set1_epi8(0xC2u8 as i8),
        _mm512_set1_epi8(0xC3u8 as i8),
        _mm512_set1_epi8(0xBFu8 as i8),
        _mm512_set1_epi8(0xC0u8 as i8),
    );
    let (mut i, mut written) = (0, 0);
    if src.len() < 64 || dst.len() < 128 {
        return (0, 0);
    }
    // Each block is loaded before the one before it is stored: with the output a few
    // bytes after the input modulo 4 KiB, a load right after a store whose low 12 address
    // bits it shares waits for it (4K aliasing, see `simd::copy_bytes`).
    // SAFETY: `64 <= src.len()`.
    let mut v = unsafe { _mm512_loadu_si512(s.cast()) };
    loop {
        // Here `v` is `src[i..i + 64]` and `written + 128 <= dst.len()`.
        let more = i + 128 <= src.len();
        // SAFETY: `i + 128 <= src.len()` when read; else `v` again, unused.
        let mut next = if more {
            unsafe { _mm512_loadu_si512(s.add(i + 64).cast()) }
        } else {
            v
        };
        let high = _mm512_movepi8_mask(v);
        i += 64;
        if high == 0 {
            // SAFETY: `written + 64 <= dst.len()`.
            unsafe { _mm512_storeu_si512(d.add(written).cast(), v) };
            written += 64;
            // ASCII text: 128 bytes per step while they are ASCII, each step's two
            // blocks loaded before the step before it stores (`a` is `src[i..i + 64]`).
            if ASCII_RUNS && more && i + 128 <= src.len() {
                let mut a = next;
                // SAFETY: `i + 128 <= src.len()`.
                let mut b = unsafe { _mm512_loadu_si512(s.add(i + 64).cast()) };
                while i + 256 <= src.len() && written + 128 <= dst.len() {
                    if _mm512_movepi8_mask(_mm512_or_si512(a, b)) != 0 {
                        break;
                    }
                    // SAFETY: `i + 256 <= src.len()`.
                    let (na, nb) = unsafe {
                        (
                            _mm512_loadu_si512(s.add(i + 128).cast()),
                            _mm512_loadu_si512(s.add(i + 192).cast()),
                        )
                    };
                    // SAFETY: `written + 128 <= dst.len()`.
                    unsafe {
                        _mm512_storeu_si512(d.add(written).cast(), a);
                        _mm512_storeu_si512(d.add(written + 64).cast(), b);
                    }
                    i += 128;
                    written += 128;
                    (a, b) = (na, nb);
                }
                next = a;
            }
        } else {
            let leads = _mm512_mask_mov_epi8(c2, _mm512_cmpge_epu8_mask(v, x_c0), c3);
            let firsts = _mm512_mask_mov_epi8(v, high, leads);
            let seconds = _mm512_and_si512(v, x_bf);
            let halves = [_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v)];
            for ((half, idx), ascii) in [(high as u32, lo), ((high >> 32) as u32, hi)]
                .into_iter()
                .zip(halves)
            {
                if half == 0 {
                    // An ASCII half (common in text with a few non-ASCII letters): as it
                    // is.
                    // SAFETY: `written + 32` is within the 128 bytes of room.
                    unsafe { _mm256_storeu_si256(d.add(written).cast(), ascii) };
                    written += 32;
                    continue;
                }
                let bytes = _mm512_permutex2var_epi8(firsts, idx, seconds);
                let keep =
                    0x5555_5555_5555_5555u64 | _pdep_u64(u64::from(half), 0xAAAA_AAAA_AAAA_AAAA);
                let n = keep.count_ones();
                // SAFETY: the store writes `dst[written..written + 64]`, within the 128
                // bytes of room (the first half wrote at most 64).
                unsafe {
                    _mm512_storeu_si512(
                        d.add(written).cast(),
                        _mm512_maskz_compress_epi8(keep, bytes),
                    )
                };
                written += n as usize;
            }
        }
        if !more || written + 128 > dst.len() {
            break;
        }
        v = next;
    }
    (i, written)
}

/// Latin-1 → UTF-16, 32 bytes per vector (`vpmovzxbw` to one 64-byte store), two per
/// step. Returns the bytes done.
///
/// # Safety
/// The CPU must support AVX-512 F/BW.
#[target_feature(enable = "avx2,avx512f,avx512bw,avx512vl")]
// Bounds: `i` starts at the head (at most 31, at most `n`) and advances by 64 or 32 while
// that many bytes are left in both `src` and `dst` (`n`); the stores write `dst[i..i +
// 64]` or `dst[i..i + 32]` (units). `head` is 1..=31, so the shift fits.
#[allow(clippy::arithmetic_side_effects)]
pub(crate) unsafe fn to_utf16(src: &[u8], dst: &mut Slots<u16>) -> usize {
    let n = src.len().min(dst.len());
    let (s, d) = (src.as_ptr(), out_ptr(dst));
    let mut i = 0;
    // A head of up to 31 units (masked load and store) so that the 64-byte stores below
    // are aligned to the cache line: an unaligned one writes two lines.
    let misaligned = (d as usize) % 64;
    if misaligned.is_multiple_of(2) && misaligned != 0 && (64 - misaligned) / 2 <= n {
        let head = (64 - misaligned) / 2;
        let mask = (1u32 << head) - 1;
        // SAFETY: the masked load reads `src[..head]` and the masked store writes
        // `dst[..head]`, `head <= n`.
        unsafe {
            let a = _mm256_maskz_loadu_epi8(mask, s.cast());
            _mm512_mask_storeu_epi16(d.cast(), mask, _mm512_cvtepu8_epi16(a));
        }
        i = head;
    }
    while i + 64 <= n {
        // SAFETY: see Bounds.
        unsafe {
            let a = _mm256_loadu_si256(s.add(i).cast());
            let b = _mm256_loadu_si256(s.add(i + 32).cast());
            _mm512_storeu_si512(d.add(i).cast(), _mm512_cvtepu8_epi16(a));
            _mm512_storeu_si512(d.add(i + 32).cast(), _mm512_cvtepu8_epi16(b));
        }
        i += 64;
    }
    if i + 32 <= n {
        // SAFETY: see Bounds.
        unsafe {
            let a = _mm256_loadu_si256(s.add(i).cast());
            _mm512_storeu_si512(d.add(i).cast(), _mm512_cvtepu8_epi16(a));
        }
        i += 32;
    }
    i
}
