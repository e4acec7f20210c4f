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
//! deliberately naive oracles. One dispatch point ([`dispatch::kernel`]) picks the kernel
//! family on first use; `TEXTCODEC_KERNEL=scalar|sse2|avx2|avx512` forces one (std builds).
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

/// An initialised buffer seen as [`Slots`] (it stays initialised: see the rules there).
#[inline(always)]
pub(crate) fn slots<T: Copy>(dst: &mut [T]) -> &mut Slots<T> {
    // SAFETY: `MaybeUninit<T>` has the layout of `T`. The one way this could go wrong,
    // storing an uninitialised value into the caller's initialised buffer, is what
    // writers of `Slots` never do (see `Slots`).
    unsafe { &mut *(core::ptr::from_mut::<[T]>(dst) as *mut [MaybeUninit<T>]) }
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
    let n = dst.len().min(src.len());
    // SAFETY: both ranges hold `n` elements, and a `&mut` and a `&` never overlap.
    unsafe { core::ptr::copy_nonoverlapping(src.as_ptr(), dst.as_mut_ptr().cast::<T>(), n) }
}

/// Whether output at `dst` starts 1–63 bytes after input at `src` modulo 4096: a forward
/// copy then loads, right after each store, bytes whose address agrees with the stored
/// ones in its low 12 bits (4K aliasing, see [`copy_bytes`]).
#[inline(always)]
pub(crate) fn stores_alias_next_loads(src: *const u8, dst: *const u8) -> bool {
    (1..64).contains(&((dst as usize).wrapping_sub(src as usize) % 4096))
}

/// Copies `src` into `dst`, which has the same length, as [`write_slots`] does, but in
/// 256-byte pieces from the last to the first when `dst` starts a few bytes after `src`
/// modulo 4 KiB. A forward copy then loads, right after each store, bytes whose address
/// agrees with the stored ones in its low 12 bits, and the CPU holds every such load back
/// until it knows the store is elsewhere ("4K aliasing"): `memcpy` ran at 2.7 GB/s
/// instead of 30 on the AMD EPYC of BENCHMARKS.md with `dst` 8–24 bytes after `src`
/// (mod 4096). Backwards, each piece's loads come before the stores they alias.
// Bounds: `start <= end <= src.len()` (`end` only decreases, by at most `PIECE`, to 0).
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
    let mut end = src.len();
    while end > 0 {
        let start = end.saturating_sub(PIECE);
        write_slots(&mut dst[start..end], &src[start..end]);
        end = start;
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
                super::copy_bytes(super::slots(&mut dst[start..start + len]), s);
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
