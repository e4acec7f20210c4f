//! Hooks for the fuzz targets in `fuzz/` (cargo feature `fuzzing`). **Not a public API**:
//! hidden from the docs, no stability promise, absent from normal builds.
//!
//! The SIMD kernels are crate-private (`simd/`). This module re-exports each bulk primitive
//! as a safe function taking a [`KernelChoice`], so `fuzz/fuzz_targets/simd_kernels.rs` can
//! run every kernel this CPU supports against its scalar twin on the same input. A
//! [`KernelChoice`] can only be obtained from [`kernels`], which lists kernels whose CPU
//! features were detected: that is what keeps these wrappers sound.

use alloc::vec::Vec;

use crate::simd::dispatch::available_levels;
use crate::simd::level::Level;
use crate::simd::{ascii, utf16, utf8};
use crate::slots::slots;

/// A kernel family this CPU can run (opaque; see [`kernels`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct KernelChoice(&'static Level);

impl KernelChoice {
    /// The kernel's name, as `TEXTCODEC_KERNEL` spells it (`scalar`, `sse2`, …).
    pub fn name(self) -> &'static str {
        self.0.name()
    }

    /// Whether this is the portable scalar twin.
    pub fn is_scalar(self) -> bool {
        self.0.name() == "scalar"
    }
}

/// Every kernel family this CPU supports, the scalar twin first.
pub fn kernels() -> Vec<KernelChoice> {
    available_levels().map(KernelChoice).collect()
}

/// Length of the longest all-ASCII prefix of `src`.
pub fn ascii_prefix_len(k: KernelChoice, src: &[u8]) -> usize {
    ascii::ascii_prefix_len_with(k.0, src)
}

/// Copies the longest all-ASCII prefix of `src` that fits in `dst`; returns its length.
pub fn copy_ascii(k: KernelChoice, src: &[u8], dst: &mut [u8]) -> usize {
    // SAFETY: the kernel writes the slots by the rules of `Slots`.
    ascii::copy_ascii_with(k.0, src, unsafe { slots(dst) })
}

/// Widens the longest all-ASCII prefix of `src` that fits in `dst`; returns its length.
pub fn widen_ascii(k: KernelChoice, src: &[u8], dst: &mut [u16]) -> usize {
    // SAFETY: the kernel writes the slots by the rules of `Slots`.
    ascii::widen_ascii_with(k.0, src, unsafe { slots(dst) })
}

/// Narrows the longest prefix of units below 0x80 that fits in `dst`; returns its length.
pub fn narrow_basic_latin(k: KernelChoice, src: &[u16], dst: &mut [u8]) -> usize {
    // SAFETY: the kernel writes the slots by the rules of `Slots`.
    ascii::narrow_basic_latin_with(k.0, src, unsafe { slots(dst) })
}

/// Length of the longest valid UTF-8 prefix of `src`.
pub fn utf8_valid_prefix_len(k: KernelChoice, src: &[u8]) -> usize {
    utf8::valid_prefix_len_with(k.0, src)
}

/// One-pass validate-and-convert (`simd::utf8::validate_to_utf16_with`): a valid prefix of
/// `src` (possibly short of the longest), converted. Returns (bytes read, units written).
pub fn utf8_validate_to_utf16(k: KernelChoice, src: &[u8], dst: &mut [u16]) -> (usize, usize) {
    // SAFETY: the kernel writes the slots by the rules of `Slots`.
    utf8::validate_to_utf16_with(k.0, src, unsafe { slots(dst) })
}

/// UTF-8 → UTF-16, whole characters, as far as `dst` has room: (bytes read, units written).
pub fn utf8_to_utf16(k: KernelChoice, src: &str, dst: &mut [u16]) -> (usize, usize) {
    // SAFETY: the kernel writes the slots by the rules of `Slots`.
    utf8::to_utf16_with(k.0, src, unsafe { slots(dst) })
}

/// UTF-16 bytes → UTF-8 up to a lone surrogate or room: (bytes read, bytes written).
pub fn utf16_bytes_to_utf8(
    k: KernelChoice,
    src: &[u8],
    big_endian: bool,
    dst: &mut [u8],
) -> (usize, usize) {
    // SAFETY: the kernel writes the slots by the rules of `Slots`.
    utf16::bytes_to_utf8_with(k.0, src, big_endian, unsafe { slots(dst) })
}

/// UTF-16 bytes → units up to a lone surrogate or room: (bytes read, units written).
pub fn utf16_bytes_to_units(
    k: KernelChoice,
    src: &[u8],
    big_endian: bool,
    dst: &mut [u16],
) -> (usize, usize) {
    // SAFETY: the kernel writes the slots by the rules of `Slots`.
    utf16::bytes_to_units_with(k.0, src, big_endian, unsafe { slots(dst) })
}

/// The single-byte index of `encoding` as a byte → code point table (0 = no entry), or
/// `None` if `encoding` is not a single-byte encoding: the oracle side of the byte-map
/// kernels.
pub fn single_byte_table(encoding: crate::Encoding) -> Option<&'static [u16; 256]> {
    encoding.single_byte_tables().map(|index| &index.decode)
}

/// Single-byte decode in bulk into UTF-16 (`simd::byte_map`; 0 where the kernel level has
/// no bulk path): bytes read = units written.
pub fn byte_map_to_utf16(
    k: KernelChoice,
    encoding: crate::Encoding,
    src: &[u8],
    dst: &mut [u16],
) -> usize {
    let Some(index) = encoding.single_byte_tables() else {
        return 0;
    };
    let map = index.byte_map();
    // SAFETY: the kernel writes the slots by the rules of `Slots`.
    crate::simd::byte_map::to_utf16_with(k.0, src, &map, unsafe { slots(dst) })
}

/// Single-byte decode in bulk into UTF-8: (bytes read, bytes written).
pub fn byte_map_to_utf8(
    k: KernelChoice,
    encoding: crate::Encoding,
    src: &[u8],
    dst: &mut [u8],
) -> (usize, usize) {
    let Some(index) = encoding.single_byte_tables() else {
        return (0, 0);
    };
    let map = index.byte_map();
    // SAFETY: the kernel writes the slots by the rules of `Slots`.
    crate::simd::byte_map::to_utf8_with(k.0, src, &map, unsafe { slots(dst) })
}

/// Single-byte encode in bulk (ASCII and the encoding's hot two-byte characters): (bytes
/// of `src` read, bytes written).
pub fn byte_map_encode(
    k: KernelChoice,
    encoding: crate::Encoding,
    src: &str,
    dst: &mut [u8],
) -> (usize, usize) {
    let Some(index) = encoding.single_byte_tables() else {
        return (0, 0);
    };
    let hot = crate::index::byte_map::hot_pairs(&index.decode);
    // SAFETY: the kernel writes the slots by the rules of `Slots`.
    crate::simd::byte_map::encode_hot_pairs_with(k.0, src.as_bytes(), &hot, unsafe { slots(dst) })
}

/// x-user-defined encode in bulk: (bytes of `src` read, bytes written).
pub fn x_user_defined_encode(k: KernelChoice, src: &str, dst: &mut [u8]) -> (usize, usize) {
    // SAFETY: the kernel writes the slots by the rules of `Slots`.
    crate::simd::byte_map::encode_x_user_defined_with(k.0, src.as_bytes(), unsafe { slots(dst) })
}

/// x-user-defined decode in bulk into UTF-16: bytes read = units written.
pub fn x_user_defined_to_utf16(k: KernelChoice, src: &[u8], dst: &mut [u16]) -> usize {
    // SAFETY: the kernel writes the slots by the rules of `Slots`.
    crate::simd::byte_map::x_user_defined_to_utf16_with(k.0, src, unsafe { slots(dst) })
}

/// The CJK pair tables the double-byte kernel reads: gb18030, EUC-KR, Big5, EUC-JP's JIS X
/// 0208, Shift_JIS (by `table % 5`).
fn pair_table(table: usize) -> &'static crate::index::PairTable {
    use crate::index::{big5_pairs, euc_kr_pairs, gb18030_pairs, jis0208_pairs, shift_jis_pairs};
    match table % 5 {
        0 => gb18030_pairs(),
        1 => euc_kr_pairs(),
        2 => big5_pairs(),
        3 => jis0208_pairs(),
        _ => shift_jis_pairs(),
    }
}

/// The code point of the pair `lead trail` in pair table `table` (0 = not a pair): the
/// oracle side of the double-byte kernel.
pub fn pair_code_point(table: usize, lead: u8, trail: u8) -> u16 {
    pair_table(table).get(lead, trail)
}

/// Double-byte decode in bulk into UTF-16 (`simd::double_byte`): (bytes read, units
/// written).
pub fn double_byte_to_utf16(
    k: KernelChoice,
    table: usize,
    src: &[u8],
    dst: &mut [u16],
) -> (usize, usize) {
    // SAFETY: the kernel writes the slots by the rules of `Slots`.
    crate::simd::double_byte::to_utf16_with(k.0, src, pair_table(table), unsafe { slots(dst) })
}

/// Double-byte decode in bulk into UTF-8: (bytes read, bytes written).
pub fn double_byte_to_utf8(
    k: KernelChoice,
    table: usize,
    src: &[u8],
    dst: &mut [u8],
) -> (usize, usize) {
    // SAFETY: the kernel writes the slots by the rules of `Slots`.
    crate::simd::double_byte::to_utf8_with(k.0, src, pair_table(table), unsafe { slots(dst) })
}
