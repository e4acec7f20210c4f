//! The only module allowed `unsafe` code.
//!
//! It offers safe primitives to the rest of the crate:
//! - [`sink`]: the decoders' output buffers. [`sink::Utf8Sink`] only ever writes whole UTF-8
//!   sequences, which lets `String` and `&mut str` outputs skip re-validation soundly.
//! - [`ascii`]: bulk ASCII scanning, copying, widening and narrowing, the hot loops of every
//!   ASCII-compatible decoder and encoder.
//! - [`byte_map`]: single-byte and x-user-defined decoding by table lookups, 16 to 32 bytes
//!   at once, and their encoders' ASCII-and-hot-pairs kernels.
//! - [`utf8`]: UTF-8 validation (the longest valid prefix) and conversion of valid UTF-8
//!   to UTF-16.
//! - [`utf16`]: UTF-16 (units, or bytes in either order) to UTF-8 and to code units,
//!   whole characters only, stopping at lone surrogates.
//! - `once` (`compact` build): tables built on first use and kept, behind an atomic
//!   pointer.
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
pub(crate) mod level;
#[cfg(feature = "compact")]
pub(crate) mod once;
pub(crate) mod sink;
pub(crate) mod utf16;
pub(crate) mod utf8;

use core::mem::MaybeUninit;

/// An output buffer as the kernels see it: slots that may or may not be initialised. The
/// growing APIs hand the kernels a `Vec`'s or `String`'s spare capacity as it is, without
/// zero-filling it first (issue #16: that pass cost 3–40 % of a conversion). The rules
/// every writer of a `Slots` keeps, which make [`slots`] and the growing APIs' `set_len`
/// sound:
/// - it only stores initialised values (never `MaybeUninit::uninit()`), and
/// - it reads back only what it stored itself, or copies a slot as a `MaybeUninit`
///   without looking at its value (to put back a byte a wide store overwrote);
/// - what it reports as written, `dst[..written]`, is all initialised.
pub(crate) type Slots<T> = [MaybeUninit<T>];

/// An initialised buffer seen as [`Slots`].
///
/// # Safety
/// Whatever the slots are handed to must keep the rules of [`Slots`] (above all: store
/// only initialised values), or `dst` ends up holding uninitialised memory behind a
/// `&mut [T]`. Every writer of `Slots` in the crate keeps them; the caller names the one
/// it hands them to.
#[inline(always)]
pub(crate) unsafe fn slots<T: Copy>(dst: &mut [T]) -> &mut Slots<T> {
    // SAFETY: `MaybeUninit<T>` has the layout of `T`; what may be stored is the caller's
    // obligation (above).
    unsafe { &mut *(core::ptr::from_mut::<[T]>(dst) as *mut [MaybeUninit<T>]) }
}

/// [`slots`] for the kernels' tests, which hand them only to the kernel under test.
#[cfg(test)]
pub(crate) fn test_slots<T: Copy>(dst: &mut [T]) -> &mut Slots<T> {
    // SAFETY: test code passes these only to the crate's kernels and sinks, writers of
    // `Slots` that keep its rules (which the same tests check against oracles).
    unsafe { slots(dst) }
}

/// Writes `c` as UTF-8 into `dst`, which is `c.len_utf8()` slots long (as
/// `char::encode_utf8`; a shorter `dst` gets nothing).
#[inline(always)]
pub(crate) fn write_utf8(dst: &mut Slots<u8>, c: char) {
    let mut bytes = [0; 4];
    let bytes = c.encode_utf8(&mut bytes).as_bytes();
    if dst.len() >= bytes.len() {
        write_slots(dst, bytes);
    }
}

/// Writes `c` as UTF-16 into `dst`, which is `c.len_utf16()` slots long (as
/// `char::encode_utf16`; a shorter `dst` gets nothing).
#[inline(always)]
pub(crate) fn write_utf16(dst: &mut Slots<u16>, c: char) {
    let mut units = [0; 2];
    let units = c.encode_utf16(&mut units);
    if dst.len() >= units.len() {
        write_slots(dst, units);
    }
}

/// The first slot of `dst` as a pointer to `T`, for the vector stores.
#[inline(always)]
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
pub(crate) fn out_ptr<T>(dst: &mut Slots<T>) -> *mut T {
    dst.as_mut_ptr().cast()
}

/// Copies `src` into `dst`, which has the same length (as `copy_from_slice`; a shorter
/// `dst` takes what fits, never more).
#[inline(always)]
pub(crate) fn write_slots<T: Copy>(dst: &mut Slots<T>, src: &[T]) {
    debug_assert_eq!(dst.len(), src.len());
    // The count is `src.len()`, so that a copy of an array (an encoder's two, three or five
    // bytes) is stores of constant size, not a `memcpy` call as with `min(dst.len(),
    // src.len())` (one call per character in the ISO-2022-JP encoder). A shorter `dst`
    // (never, by the callers' contract) goes the cold way.
    match dst.get_mut(..src.len()) {
        // SAFETY: both ranges hold `src.len()` elements, and a `&mut` and a `&` never
        // overlap.
        Some(d) => unsafe {
            core::ptr::copy_nonoverlapping(src.as_ptr(), d.as_mut_ptr().cast::<T>(), src.len())
        },
        None => write_slots_short(dst, src),
    }
}

/// [`write_slots`] into a `dst` shorter than `src`: what fits.
#[cold]
#[inline(never)]
fn write_slots_short<T: Copy>(dst: &mut Slots<T>, src: &[T]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        d.write(s);
    }
}

/// Writes `src` at `dst[at..at + W]` (if it fits): a store of constant size.
#[inline(always)]
fn write_array<const W: usize>(dst: &mut Slots<u8>, at: usize, src: &[u8; W]) {
    if let Some(d) = dst.get_mut(at..).and_then(|d| d.first_chunk_mut::<W>()) {
        for (d, &s) in d.iter_mut().zip(src) {
            d.write(s);
        }
    }
}

/// Copies `src[at..at + W]` to `dst[at..at + W]` (if both have it).
#[inline(always)]
fn copy_array<const W: usize>(dst: &mut Slots<u8>, src: &[u8], at: usize) {
    if let Some(s) = src.get(at..).and_then(|s| s.first_chunk::<W>()) {
        write_array(dst, at, s);
    }
}

/// Copies `src` into `dst`, which has the same length, at most 32 bytes (the end of an
/// ASCII run, an encoder's escape): stores of constant size, the first and last `W` bytes
/// overlapping, where [`write_slots`] of a variable length calls `memcpy`, which costs
/// more than the copy at these lengths.
// Bounds: `n ≤ 32` in the arms that subtract, and each `n - W ≥ 0`.
#[allow(clippy::arithmetic_side_effects)]
#[inline(always)]
pub(crate) fn write_short(dst: &mut Slots<u8>, src: &[u8]) {
    let n = src.len();
    if n != dst.len() {
        write_slots(dst, src);
        return;
    }
    match n {
        0 => {}
        1..=3 => {
            // First, middle and last byte.
            copy_array::<1>(dst, src, 0);
            copy_array::<1>(dst, src, n / 2);
            copy_array::<1>(dst, src, n - 1);
        }
        4..=7 => {
            copy_array::<4>(dst, src, 0);
            copy_array::<4>(dst, src, n - 4);
        }
        8..=15 => {
            copy_array::<8>(dst, src, 0);
            copy_array::<8>(dst, src, n - 8);
        }
        16..=32 => {
            copy_array::<16>(dst, src, 0);
            copy_array::<16>(dst, src, n - 16);
        }
        _ => write_slots(dst, src),
    }
}

/// Writes the first `dst.len()` (at most 16) bytes of `bytes`, packed little-endian, into
/// `dst`: an encoder's escape or html reference, stored from the register (built in
/// memory byte by byte and copied, it stalled on store forwarding).
// Bounds: `n ≤ 16` in the arms that subtract; shifts are below 128.
#[allow(clippy::arithmetic_side_effects, clippy::cast_possible_truncation)]
#[inline(always)]
pub(crate) fn write_packed(dst: &mut Slots<u8>, bytes: u128) {
    let n = dst.len();
    let at = |k: usize| bytes.checked_shr(8 * k as u32).unwrap_or(0);
    match n {
        0 => {}
        1..=3 => {
            for k in [0, n / 2, n - 1] {
                write_array(dst, k, &[at(k) as u8]);
            }
        }
        4..=7 => {
            write_array(dst, 0, &(at(0) as u32).to_le_bytes());
            write_array(dst, n - 4, &(at(n - 4) as u32).to_le_bytes());
        }
        8..=16 => {
            write_array(dst, 0, &(at(0) as u64).to_le_bytes());
            write_array(dst, n - 8, &(at(n - 8) as u64).to_le_bytes());
        }
        _ => write_array(dst, 0, &bytes.to_le_bytes()),
    }
}

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
    /// `write_short` and `write_packed` write exactly their bytes, at every length and
    /// offset, and nothing around them.
    #[test]
    fn short_writes_touch_only_their_bytes() {
        let src: alloc::vec::Vec<u8> = (1..=40u8).collect();
        for len in 0..=34 {
            for at in 0..4 {
                let mut dst = [0xA5u8; 48];
                super::write_short(super::test_slots(&mut dst[at..at + len]), &src[..len]);
                assert_eq!(&dst[at..at + len], &src[..len], "len {len} at {at}");
                assert!(dst[..at].iter().chain(&dst[at + len..]).all(|&b| b == 0xA5));
                if len <= 16 {
                    let packed = u128::from_le_bytes(src[..16].try_into().unwrap_or_default());
                    let mut dst = [0xA5u8; 48];
                    super::write_packed(super::test_slots(&mut dst[at..at + len]), packed);
                    assert_eq!(&dst[at..at + len], &src[..len], "packed len {len} at {at}");
                    assert!(dst[..at].iter().chain(&dst[at + len..]).all(|&b| b == 0xA5));
                }
            }
        }
    }

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
                super::copy_bytes(super::test_slots(&mut dst[start..start + len]), s);
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
