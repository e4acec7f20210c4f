//! Output buffers as the kernels and sinks see them: [`Slots`], and the small writers
//! that store into them without reading them back.
#![allow(unsafe_code)]
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

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
    not(any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        all(target_arch = "wasm32", target_feature = "simd128")
    )),
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
}
