//! The SIMD kernels and the kernel levels: the only module with vector code, and the only
//! one where `unsafe` is loads and stores (the buffers' own `unsafe` lives in `slots`,
//! `sink` and `once`, outside).
//!
//! Its kernels are pure functions over slices and [`Slots`], one module per family:
//! - [`ascii`]: bulk ASCII scanning, copying, widening and narrowing, the hot loops of every
//!   ASCII-compatible decoder and encoder.
//! - [`byte_map`]: single-byte and x-user-defined decoding by table lookups, 16 to 32 bytes
//!   at once, and their encoders' ASCII-and-hot-pairs kernels.
//! - [`utf8`]: UTF-8 validation (the longest valid prefix) and conversion of valid UTF-8
//!   to UTF-16.
//! - [`utf16`]: UTF-16 (units, or bytes in either order) to UTF-8 and to code units,
//!   whole characters only, stopping at lone surrogates.
//! - [`double_byte`]: the CJK decoders' pair loop (lead, trail → code point through the
//!   index's `PairTable`): blocks of ASCII and valid pairs into UTF-16 or UTF-8.
//! - [`scan`]: counting and scanning without output (code points, UTF-16 length of
//!   UTF-8 and UTF-8 length of UTF-16, lone surrogates, bytes or units below a bound).
//! - [`latin1`]: Latin-1 (bytes as U+0000–U+00FF) to UTF-16 and UTF-8, and back from
//!   UTF-16.
//! - `vector`: the vector types of every SIMD level behind one trait, over which the
//!   kernels that differ only in width are written once.
//!
//! Each vector kernel does the bulk and returns how far it got; its portable scalar twin
//! finishes the tail. The tests check every kernel the machine supports against
//! deliberately naive oracles. Each kernel level is one value in [`level`], naming its
//! kernel for every primitive; [`dispatch::level`] picks one on first use, and
//! `TEXTCODEC_KERNEL` caps it (std builds).
#![allow(unsafe_code)]
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

pub(crate) mod ascii;
pub(crate) mod byte_map;
pub(crate) mod dispatch;
pub(crate) mod double_byte;
pub(crate) mod latin1;
pub(crate) mod level;
pub(crate) mod scan;
pub(crate) mod slices;
pub(crate) mod utf16;
pub(crate) mod utf8;
#[cfg(any(
    target_arch = "x86_64",
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
pub(crate) mod vector;

// The kernels' view of the output buffers (kept here so that kernel files name one
// module for what they use).
#[cfg(test)]
pub(crate) use crate::slots::test_slots;
#[allow(unused_imports)]
pub(crate) use crate::slots::{
    out_ptr, slots, write_packed, write_short, write_slots, write_utf16, write_utf8, Slots,
};

/// Whether output at `dst` starts 1–63 bytes after input at `src` modulo 4096: a forward
/// copy then loads, right after each store, bytes whose address agrees with the stored
/// ones in its low 12 bits (4K aliasing, see [`copy_bytes`]).
#[inline(always)]
pub(crate) fn stores_alias_next_loads(src: *const u8, dst: *const u8) -> bool {
    (1..64).contains(&((dst as usize).wrapping_sub(src as usize) % 4096))
}

/// Copies `src` into `dst`, which has the same length, as [`write_slots`] does, but so that
/// no load waits behind a store when `dst` starts a few bytes after `src` modulo 4 KiB. A
/// forward copy then loads, right after each store, bytes whose address agrees with the
/// stored ones in its low 12 bits, and the CPU holds every such load back until it knows
/// the store is elsewhere ("4K aliasing"): `memcpy` ran at 2.7 GB/s instead of 30 on the
/// AMD EPYC of BENCHMARKS.md with `dst` 8–24 bytes after `src` (mod 4096). On x86-64
/// each 64-byte block is loaded before the previous one is stored; elsewhere the copy
/// goes in 256-byte pieces from the last to the first, each piece's loads before the
/// stores they alias.
// Bounds: `done <= n` (the copied prefix); `start <= end <= src.len()` (`end` only
// decreases, by at most `PIECE`, to 0).
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) fn copy_bytes(dst: &mut Slots<u8>, src: &[u8]) {
    const PIECE: usize = 256;
    if src.len() < 2 * PIECE
        || !stores_alias_next_loads(src.as_ptr(), dst.as_ptr().cast())
        || dst.len() != src.len()
    {
        write_slots(dst, src);
        return;
    }
    #[cfg(target_arch = "x86_64")]
    {
        let done = copy_loading_ahead(dst, src);
        write_slots(&mut dst[done..], &src[done..]);
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut end = src.len();
        while end > 0 {
            let start = end.saturating_sub(PIECE);
            write_slots(&mut dst[start..end], &src[start..end]);
            end = start;
        }
    }
}

/// [`copy_bytes`]'s x86-64 path: 64-byte blocks, each loaded before the one before it is
/// stored, so no load waits behind a store it 4K-aliases (the output 1–63 bytes after the
/// input modulo 4 KiB); SSE2, which every x86-64 CPU has. Returns the bytes copied (a
/// multiple of 64, all of them but fewer than 64); the backwards 256-byte pieces it
/// replaced ran at 21 GB/s where `memcpy` runs at 30.
#[cfg(target_arch = "x86_64")]
// Bounds: blocks are loaded from `0..n` (the first while `64 <= n`, each next one while
// `i + 128 <= n`) and stored where they were loaded from.
#[allow(clippy::arithmetic_side_effects)]
fn copy_loading_ahead(dst: &mut Slots<u8>, src: &[u8]) -> usize {
    use core::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_storeu_si128};
    const BLOCK: usize = 64;
    let n = src.len().min(dst.len());
    if n < BLOCK {
        return 0;
    }
    let (s, d) = (src.as_ptr(), out_ptr(dst));
    // SAFETY: SSE2 is part of the x86-64 baseline; `s + at .. s + at + 64` is within `src`
    // for every `at` passed (see Bounds).
    let load = |at: usize| -> [__m128i; 4] {
        unsafe {
            [
                _mm_loadu_si128(s.add(at).cast()),
                _mm_loadu_si128(s.add(at + 16).cast()),
                _mm_loadu_si128(s.add(at + 32).cast()),
                _mm_loadu_si128(s.add(at + 48).cast()),
            ]
        }
    };
    let mut block = load(0);
    let mut i = 0;
    loop {
        let more = i + 2 * BLOCK <= n;
        let next = if more { load(i + BLOCK) } else { block };
        // SAFETY: `d + i .. d + i + 64` is within `dst` (`i + 64 <= n`).
        unsafe {
            for (k, v) in block.iter().enumerate() {
                _mm_storeu_si128(d.add(i + 16 * k).cast(), *v);
            }
        }
        i += BLOCK;
        if !more {
            return i;
        }
        block = next;
    }
}

/// The longest valid UTF-8 prefix of `src`, as a `&str`.
// Bounds: `valid_prefix_len` returns the length of a prefix of `src`, so `n <= src.len()`.
#[allow(clippy::indexing_slicing)]
pub(crate) fn valid_utf8_prefix(src: &[u8]) -> &str {
    let n = utf8::valid_prefix_len(src);
    // SAFETY: `valid_prefix_len` returns the length of a prefix that is valid UTF-8
    // (every kernel is tested against a naive transcription of the Standard's decoder,
    // whose notion of validity is `str`'s).
    unsafe { core::str::from_utf8_unchecked(&src[..n]) }
}

/// `src` as a `&str` if it is all valid UTF-8, else the length of its longest valid prefix
/// (`core::str::from_utf8`, with the vector validators).
pub(crate) fn utf8_str(src: &[u8]) -> Result<&str, usize> {
    let valid = valid_utf8_prefix(src);
    if valid.len() == src.len() {
        Ok(valid)
    } else {
        Err(valid.len())
    }
}

#[cfg(test)]
// Bounds: test code over buffers it sizes itself.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod tests {
    /// `copy_bytes` copies exactly, whichever way it goes (the gap modulo 4 KiB picks it).
    #[test]
    fn copy_bytes_copies_at_every_gap() {
        let src: alloc::vec::Vec<u8> = (0..6000u32).map(|i| (i * 7 + i / 251) as u8).collect();
        let mut backwards = 0;
        for gap in [0, 1, 8, 16, 24, 32, 63, 64, 100, 4095] {
            for len in [0, 1, 255, 256, 511, 512, 513, 1000, 4096, 5999] {
                let s = &src[1..1 + len];
                let mut dst = alloc::vec![0xA5u8; len + 4096 + 8];
                let base = (dst.as_ptr() as usize).wrapping_sub(s.as_ptr() as usize);
                let start = (gap + 4096 - base % 4096) % 4096;
                backwards += usize::from(len >= 512 && (1..64).contains(&gap));
                super::copy_bytes(crate::slots::test_slots(&mut dst[start..start + len]), s);
                assert_eq!(&dst[start..start + len], s, "gap {gap} len {len}");
                assert!(
                    dst[..start].iter().all(|&b| b == 0xA5),
                    "gap {gap} len {len}"
                );
                assert!(
                    dst[start + len..].iter().all(|&b| b == 0xA5),
                    "gap {gap} len {len}"
                );
            }
        }
        assert!(backwards > 20, "{backwards}");
    }
}
