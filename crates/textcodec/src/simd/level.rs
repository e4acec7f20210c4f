//! Every kernel level, each described in one place: the [`Level`] value that names its
//! primitive for every family.
//!
//! A level is a table of kernels (function pointers) built at compile time. The portable
//! level, [`SCALAR`], lists every primitive; each other level is a struct update of the
//! level below it, so what it reuses is inherited visibly (`..SSE4`) and what it adds or
//! drops is written next to its name. An optional primitive (`Option`) that a level lacks
//! is `None`: the family then runs its portable loop, which is what the primitive's docs
//! say "no kernel" means. A new level is one more value here, its kernel files, and one
//! line in [`LEVELS`]; a new primitive is one line in the `primitives!` list and one entry
//! in [`SCALAR`] (the compiler asks for it).
//!
//! Soundness: most kernels are `#[target_feature]` functions, which may run only on a CPU
//! with those features. The fields are private to this module and the level values are
//! handed out only by [`detected`], after the CPU was asked (or, in no_std builds, when the
//! compilation target guarantees the features). So a `&Level` outside this module is proof
//! that its kernels may run, and the safe methods call them on that proof. Every kernel
//! here has no other precondition: its arguments are slices and tables, bounds checked by
//! the kernel itself.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
use super::double_byte;
use super::Slots;
use super::{ascii, utf8};
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
use super::{latin1, scan, utf16};
// The levels with byte-map kernels (not the portable one).
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "aarch64", target_endian = "little"),
    all(target_arch = "wasm32", target_feature = "simd128")
))]
use super::byte_map;
use crate::index::byte_map::{ByteMap, HotPairs};
use crate::index::PairTable;

/// One kernel of a level: the function, and the module that implements it (for the level
/// × primitive matrix).
#[derive(Clone, Copy)]
struct Kernel<F> {
    run: F,
    /// Read by the matrix test only; not in other builds, where it would be a string per
    /// kernel in every level table.
    #[cfg(test)]
    from: &'static str,
}

/// `k!(module::path, function)`: the kernel `module::path::function`.
macro_rules! k {
    ($($module:ident)::+, $function:ident) => {
        Kernel {
            run: $($module)::+::$function,
            #[cfg(test)]
            from: stringify!($($module)::+),
        }
    };
}

/// `Some(k!(…))`.
#[cfg_attr(
    not(any(
        target_arch = "x86_64",
        all(target_arch = "aarch64", target_endian = "little"),
        all(target_arch = "wasm32", target_feature = "simd128")
    )),
    allow(unused_macros)
)]
macro_rules! some {
    ($($t:tt)*) => { Some(k!($($t)*)) };
}

/// Declares [`Level`]: a field per primitive and a safe method that calls it. A required
/// primitive exists at every level; an optional one returns `None` where the level has no
/// kernel for it.
macro_rules! primitives {
    (
        $(#[$sdoc:meta])*
        struct $level:ident;
        required { $( $(#[$rdoc:meta])* fn $r:ident($($ra:ident: $rt:ty),*) -> $rr:ty; )* }
        optional { $( $(#[$odoc:meta])* fn $o:ident($($oa:ident: $ot:ty),*) -> $or:ty, $has:ident; )* }
    ) => {
        $(#[$sdoc])*
        #[derive(Clone, Copy)]
        pub(crate) struct $level {
            name: &'static str,
            $( $r: Kernel<unsafe fn($($rt),*) -> $rr>, )*
            $( $o: Option<Kernel<unsafe fn($($ot),*) -> $or>>, )*
        }

        impl $level {
            /// The level's name, as `TEXTCODEC_KERNEL` spells it.
            #[allow(dead_code)]
            pub(crate) fn name(&self) -> &'static str {
                self.name
            }

            $(
                $(#[$rdoc])*
                #[inline(always)]
                pub(crate) fn $r(&self, $($ra: $rt),*) -> $rr {
                    // SAFETY: a `Level` outside this module was handed out by `detected`
                    // (module docs); its kernels need nothing but the CPU features.
                    unsafe { (self.$r.run)($($ra),*) }
                }
            )*

            $(
                $(#[$odoc])*
                #[inline(always)]
                pub(crate) fn $o(&self, $($oa: $ot),*) -> Option<$or> {
                    match self.$o {
                        // SAFETY: as for the required primitives.
                        Some(k) => Some(unsafe { (k.run)($($oa),*) }),
                        None => None,
                    }
                }

                #[doc = concat!("Whether the level has a kernel for [`Level::", stringify!($o), "`].")]
                #[allow(dead_code)]
                #[inline(always)]
                pub(crate) fn $has(&self) -> bool {
                    self.$o.is_some()
                }
            )*

            /// Every primitive's name and the module of this level's kernel (`None`: no
            /// kernel, the family's portable loop).
            #[cfg(test)]
            pub(crate) fn primitives(&self) -> alloc::vec::Vec<(&'static str, Option<&'static str>)> {
                alloc::vec![
                    $( (stringify!($r), Some(self.$r.from)), )*
                    $( (stringify!($o), self.$o.map(|k| k.from)), )*
                ]
            }
        }
    };
}

primitives! {
    /// A kernel level: its name (as `TEXTCODEC_KERNEL` spells it) and its kernel for
    /// every primitive. See the module docs for why holding one proves its kernels may
    /// run.
    struct Level;
    required {
        /// Length of the longest all-ASCII prefix of `src`.
        fn ascii_prefix_len(src: &[u8]) -> usize;
        /// Copies the longest all-ASCII prefix of `src` that fits; returns its length.
        fn copy_ascii(src: &[u8], dst: &mut Slots<u8>) -> usize;
        /// Widens the longest all-ASCII prefix of `src` that fits; returns its length.
        fn widen_ascii(src: &[u8], dst: &mut Slots<u16>) -> usize;
        /// Narrows the longest prefix of units below 0x80 that fits; returns its length.
        fn narrow_basic_latin(src: &[u16], dst: &mut Slots<u8>) -> usize;
        /// Length of the longest valid UTF-8 prefix of `src` (whole characters).
        fn utf8_valid_prefix_len(src: &[u8]) -> usize;
    }
    optional {
        /// Validates and copies the longest valid UTF-8 prefix of `src[..dst.len()]` in one
        /// pass; returns its length (see `utf8::copy_valid_prefix`).
        fn utf8_copy_valid_prefix(src: &[u8], dst: &mut Slots<u8>) -> usize, has_utf8_copy_valid_prefix;
        /// One-pass validation and conversion of a UTF-8 prefix to UTF-16 (see
        /// `utf8::validate_to_utf16`): (bytes read, units written).
        fn utf8_validate_to_utf16(src: &[u8], dst: &mut Slots<u16>) -> (usize, usize), has_utf8_validate_to_utf16;
        /// Valid UTF-8 to UTF-16 in whole blocks, run before [`Level::utf8_to_utf16`]
        /// (AVX-512's block loop): (bytes read, units written).
        fn utf8_to_utf16_blocks(src: &str, dst: &mut Slots<u16>) -> (usize, usize), has_utf8_to_utf16_blocks;
        /// Valid UTF-8 to UTF-16, stopping where the scalar twin must take a stretch (see
        /// `utf8::to_utf16`): (bytes read, units written).
        fn utf8_to_utf16(src: &str, dst: &mut Slots<u16>) -> (usize, usize), has_utf8_to_utf16;
        /// UTF-16 (bytes, either order) to UTF-8, stopping at a lone surrogate: (bytes
        /// read, bytes written).
        fn utf16_bytes_to_utf8(src: &[u8], big_endian: bool, dst: &mut Slots<u8>) -> (usize, usize), has_utf16_bytes_to_utf8;
        /// UTF-16 (bytes, either order) to code units, stopping at a lone surrogate:
        /// (bytes read, units written).
        fn utf16_bytes_to_units(src: &[u8], big_endian: bool, dst: &mut Slots<u16>) -> (usize, usize), has_utf16_bytes_to_units;
        /// Single-byte decode through a table into UTF-16 (with its linear range, for
        /// kernels that map it by arithmetic): bytes read (= units written).
        fn byte_map_to_utf16(src: &[u8], map: &ByteMap<'_>, dst: &mut Slots<u16>) -> usize, has_byte_map_to_utf16;
        /// Single-byte decode through a table into UTF-8: (bytes read, bytes written).
        fn byte_map_to_utf8(src: &[u8], map: &ByteMap<'_>, dst: &mut Slots<u8>) -> (usize, usize), has_byte_map_to_utf8;
        /// x-user-defined decode into UTF-16: bytes read (= units written).
        fn x_user_defined_to_utf16(src: &[u8], dst: &mut Slots<u16>) -> usize, has_x_user_defined_to_utf16;
        /// Single-byte encode of ASCII and hot two-byte characters: (bytes read, written).
        fn encode_hot_pairs(src: &[u8], hot: &HotPairs, dst: &mut Slots<u8>) -> (usize, usize), has_encode_hot_pairs;
        /// x-user-defined encode: (bytes read, bytes written).
        fn encode_x_user_defined(src: &[u8], dst: &mut Slots<u8>) -> (usize, usize), has_encode_x_user_defined;
        /// Double-byte decode of blocks of ASCII and pairs into UTF-16: (bytes read, units
        /// written).
        fn pairs_to_utf16(src: &[u8], table: &PairTable, dst: &mut Slots<u16>) -> (usize, usize), has_pairs_to_utf16;
        /// The same into UTF-8: (bytes read, bytes written).
        fn pairs_to_utf8(src: &[u8], table: &PairTable, dst: &mut Slots<u8>) -> (usize, usize), has_pairs_to_utf8;
    }
}

primitives! {
    /// A level's kernels for the `mem` conversions and counts only (`scan`, `latin1`):
    /// described beside each level, as `<LEVEL>_MEM`, and reached through [`Level::mem`],
    /// so that a program that calls no `mem` function links none of them (LTO drops a
    /// table nothing reads; one table of every kernel kept them all, 12 KB).
    struct MemKernels;
    required {}
    optional {
        /// Code points of UTF-8 in whole vectors (bytes that are not continuation bytes):
        /// (bytes read, count); see `scan::utf8_char_count`.
        fn utf8_char_count(src: &[u8]) -> (usize, usize), has_utf8_char_count;
        /// UTF-16 length of UTF-8 in whole vectors: (bytes read, units).
        fn utf8_utf16_len(src: &[u8]) -> (usize, usize), has_utf8_utf16_len;
        /// Bytes from 0x80 on in whole vectors: (bytes read, count).
        fn non_ascii_count(src: &[u8]) -> (usize, usize), has_non_ascii_count;
        /// UTF-8 length of UTF-16 in whole vectors, surrogates as two bytes each: (units
        /// read, bytes).
        fn utf16_utf8_len(src: &[u16]) -> (usize, usize), has_utf16_utf8_len;
        /// Units of the whole vectors before the first that holds a surrogate.
        fn utf16_valid_prefix_len(src: &[u16]) -> usize, has_utf16_valid_prefix_len;
        /// Length of the prefix of bytes below `bound`, in whole vectors and up to the
        /// first byte at or above it.
        fn prefix_len_below(src: &[u8], bound: u8) -> usize, has_prefix_len_below;
        /// [`Level::prefix_len_below`] for `u16` units.
        fn utf16_prefix_len_below(src: &[u16], bound: u16) -> usize, has_utf16_prefix_len_below;
        /// Latin-1 bytes widened to UTF-16 in whole vectors: bytes done.
        fn latin1_to_utf16(src: &[u8], dst: &mut Slots<u16>) -> usize, has_latin1_to_utf16;
        /// UTF-16 units below U+0100 narrowed to bytes in whole vectors: units done.
        fn utf16_to_latin1(src: &[u16], dst: &mut Slots<u8>) -> usize, has_utf16_to_latin1;
        /// Latin-1 to UTF-8 (its own loop; without it the family composes ASCII copying
        /// and UTF-16 → UTF-8): (bytes read, bytes written); `dst` past the bytes
        /// written may hold scratch bytes.
        fn latin1_to_utf8(src: &[u8], dst: &mut Slots<u8>) -> (usize, usize), has_latin1_to_utf8;
        /// UTF-16 units (native order) to UTF-8, stopping at a lone surrogate: (units
        /// read, bytes written); `dst` past the bytes written may hold scratch bytes.
        /// Without it, `mem` runs [`Level::utf16_bytes_to_utf8`], which writes nothing
        /// past its output.
        fn utf16_to_utf8(src: &[u16], dst: &mut Slots<u8>) -> (usize, usize), has_utf16_to_utf8;
    }
}

/// Portable code, no `unsafe`: every primitive, the base of every other level.
const SCALAR: Level = Level {
    name: "scalar",
    ascii_prefix_len: k!(ascii::scalar, ascii_prefix_len),
    copy_ascii: k!(ascii::scalar, copy_ascii),
    widen_ascii: k!(ascii::scalar, widen_ascii),
    narrow_basic_latin: k!(ascii::scalar, narrow_basic_latin),
    utf8_valid_prefix_len: k!(utf8::scalar, valid_prefix_len),
    utf8_copy_valid_prefix: None,
    utf8_validate_to_utf16: None,
    utf8_to_utf16_blocks: None,
    utf8_to_utf16: None,
    utf16_bytes_to_utf8: None,
    utf16_bytes_to_units: None,
    byte_map_to_utf16: None,
    byte_map_to_utf8: None,
    x_user_defined_to_utf16: None,
    encode_hot_pairs: None,
    encode_x_user_defined: None,
    pairs_to_utf16: None,
    pairs_to_utf8: None,
};
const SCALAR_MEM: MemKernels = MemKernels {
    name: "scalar",
    utf8_char_count: None,
    utf8_utf16_len: None,
    non_ascii_count: None,
    utf16_utf8_len: None,
    utf16_valid_prefix_len: None,
    prefix_len_below: None,
    utf16_prefix_len_below: None,
    latin1_to_utf16: None,
    utf16_to_latin1: None,
    latin1_to_utf8: None,
    utf16_to_utf8: None,
};

/// SSE2 (x86-64-v1, the baseline): no byte shuffle, so table lookups are scalar and
/// UTF-8 → UTF-16 is one pass of vector ASCII steps and a scalar loop between them.
#[cfg(target_arch = "x86_64")]
const SSE2: Level = Level {
    name: "sse2",
    ascii_prefix_len: k!(ascii::sse2, ascii_prefix_len),
    copy_ascii: k!(ascii::sse2, copy_ascii),
    widen_ascii: k!(ascii::sse2, widen_ascii),
    utf8_validate_to_utf16: some!(utf8::sse2, validate_to_utf16),
    utf16_bytes_to_utf8: some!(utf16::sse2, bytes_to_utf8),
    utf16_bytes_to_units: some!(utf16::sse2, bytes_to_units),
    byte_map_to_utf16: some!(byte_map::sse2, to_utf16),
    x_user_defined_to_utf16: some!(byte_map::sse2, x_user_defined_to_utf16),
    ..SCALAR
};
#[cfg(target_arch = "x86_64")]
const SSE2_MEM: MemKernels = MemKernels {
    name: "sse2",
    utf8_char_count: some!(scan::sse2, utf8_char_count),
    utf8_utf16_len: some!(scan::sse2, utf8_utf16_len),
    non_ascii_count: some!(scan::sse2, non_ascii_count),
    utf16_utf8_len: some!(scan::sse2, utf16_utf8_len),
    utf16_valid_prefix_len: some!(scan::sse2, utf16_valid_prefix_len),
    prefix_len_below: some!(scan::sse2, prefix_len_below),
    utf16_prefix_len_below: some!(scan::sse2, utf16_prefix_len_below),
    latin1_to_utf16: some!(latin1::sse2, to_utf16),
    utf16_to_latin1: some!(latin1::sse2, from_utf16),
    ..SCALAR_MEM
};

/// SSSE3, SSE4.1, SSE4.2 and POPCNT (x86-64-v2): `pshufb` table lookups.
#[cfg(target_arch = "x86_64")]
const SSE4: Level = Level {
    name: "sse4",
    utf8_valid_prefix_len: k!(utf8::sse4, valid_prefix_len),
    // Validate, then copy: the one-pass loop at 16 bytes measured 2 % slower over the
    // corpus's UTF-8 rows and took 2.9 KB.
    utf8_copy_valid_prefix: None,
    utf8_to_utf16: some!(utf8::sse4, to_utf16),
    utf16_bytes_to_utf8: some!(utf16::sse4, bytes_to_utf8),
    byte_map_to_utf16: some!(byte_map::sse4, to_utf16),
    byte_map_to_utf8: some!(byte_map::sse4, to_utf8),
    // Validates first (the nibble lookups), then converts (`pshufb` packing): 1.72× against
    // 1.32× encoding_rs for SSE2's one-pass loop (decode to UTF-16 geomean, Zen 4 VM).
    utf8_validate_to_utf16: None,
    // The table kernels map every byte.
    ..SSE2
};
#[cfg(target_arch = "x86_64")]
const SSE4_MEM: MemKernels = MemKernels {
    name: "sse4",
    ..SSE2_MEM
};

/// AVX2, BMI1/BMI2, LZCNT and POPCNT plus everything of SSE4 (x86-64-v3).
#[cfg(target_arch = "x86_64")]
const AVX2: Level = Level {
    name: "avx2",
    ascii_prefix_len: k!(ascii::avx2, ascii_prefix_len),
    copy_ascii: k!(ascii::avx2, copy_ascii),
    widen_ascii: k!(ascii::avx2, widen_ascii),
    narrow_basic_latin: k!(ascii::avx2, narrow_basic_latin),
    utf8_valid_prefix_len: k!(utf8::avx2, valid_prefix_len),
    utf8_copy_valid_prefix: some!(utf8::avx2, copy_valid_prefix),
    utf8_to_utf16: some!(utf8::avx2, to_utf16),
    utf16_bytes_to_utf8: some!(utf16::avx2, bytes_to_utf8),
    utf16_bytes_to_units: some!(utf16::avx2, bytes_to_units),
    byte_map_to_utf16: some!(byte_map::avx2, to_utf16),
    byte_map_to_utf8: some!(byte_map::avx2, to_utf8),
    x_user_defined_to_utf16: some!(byte_map::avx2, x_user_defined_to_utf16),
    encode_x_user_defined: some!(byte_map::avx2, encode_x_user_defined),
    pairs_to_utf16: some!(double_byte::avx2, to_utf16),
    pairs_to_utf8: some!(double_byte::avx2, to_utf8),
    ..SSE4
};
#[cfg(target_arch = "x86_64")]
const AVX2_MEM: MemKernels = MemKernels {
    name: "avx2",
    utf8_char_count: some!(scan::avx2, utf8_char_count),
    utf8_utf16_len: some!(scan::avx2, utf8_utf16_len),
    non_ascii_count: some!(scan::avx2, non_ascii_count),
    utf16_utf8_len: some!(scan::avx2, utf16_utf8_len),
    utf16_valid_prefix_len: some!(scan::avx2, utf16_valid_prefix_len),
    prefix_len_below: some!(scan::avx2, prefix_len_below),
    utf16_prefix_len_below: some!(scan::avx2, utf16_prefix_len_below),
    latin1_to_utf16: some!(latin1::avx2, to_utf16),
    utf16_to_latin1: some!(latin1::avx2, from_utf16),
    latin1_to_utf8: some!(latin1::avx2, to_utf8),
    utf16_to_utf8: some!(utf16::avx2, units_to_utf8_scratch),
};

/// AVX2 plus AVX-512 F/BW/VL/VBMI/VBMI2 (compress-based transcoding). ASCII scanning and
/// narrowing, and UTF-16 byte swapping, stay AVX2's: memory bandwidth is the limit there.
#[cfg(target_arch = "x86_64")]
const AVX512: Level = Level {
    name: "avx512",
    copy_ascii: k!(ascii::avx512, copy_ascii),
    widen_ascii: k!(ascii::avx512, widen_ascii),
    utf8_valid_prefix_len: k!(utf8::avx512, valid_prefix_len),
    // Validates 128 bytes per step in its own loop: validate, then copy.
    utf8_copy_valid_prefix: None,
    utf8_validate_to_utf16: some!(utf8::avx512, validate_to_utf16),
    utf8_to_utf16_blocks: some!(utf8::avx512, valid_to_utf16),
    utf8_to_utf16: some!(utf8::avx512, to_utf16),
    utf16_bytes_to_utf8: some!(utf16::avx512, bytes_to_utf8),
    byte_map_to_utf16: some!(byte_map::avx512, to_utf16),
    byte_map_to_utf8: some!(byte_map::avx512, to_utf8),
    x_user_defined_to_utf16: some!(byte_map::avx512, x_user_defined_to_utf16),
    encode_hot_pairs: some!(byte_map::avx512, encode_hot_pairs),
    encode_x_user_defined: some!(byte_map::avx512, encode_x_user_defined),
    pairs_to_utf16: some!(double_byte::avx512, to_utf16),
    pairs_to_utf8: some!(double_byte::avx512, to_utf8),
    ..AVX2
};
#[cfg(target_arch = "x86_64")]
const AVX512_MEM: MemKernels = MemKernels {
    name: "avx512",
    latin1_to_utf8: some!(latin1::avx512, to_utf8),
    // The level's kernel: masked stores write nothing past the output at no cost.
    utf16_to_utf8: None,
    latin1_to_utf16: some!(latin1::avx512, to_utf16),
    utf8_char_count: some!(scan::avx512, utf8_char_count),
    utf8_utf16_len: some!(scan::avx512, utf8_utf16_len),
    non_ascii_count: some!(scan::avx512, non_ascii_count),
    utf16_utf8_len: some!(scan::avx512, utf16_utf8_len),
    utf16_valid_prefix_len: some!(scan::avx512, utf16_valid_prefix_len),
    ..AVX2_MEM
};

/// Advanced SIMD (NEON), which every aarch64 CPU has. The kernels beyond ASCII assume
/// little-endian lanes; big-endian aarch64 keeps the scalar twins for them.
#[cfg(target_arch = "aarch64")]
const NEON: Level = Level {
    name: "neon",
    ascii_prefix_len: k!(ascii::neon, ascii_prefix_len),
    copy_ascii: k!(ascii::neon, copy_ascii),
    #[cfg(target_endian = "little")]
    widen_ascii: k!(ascii::neon, widen_ascii),
    #[cfg(target_endian = "little")]
    narrow_basic_latin: k!(ascii::neon, narrow_basic_latin),
    #[cfg(target_endian = "little")]
    utf8_valid_prefix_len: k!(utf8::neon, valid_prefix_len),
    #[cfg(target_endian = "little")]
    utf8_to_utf16: some!(utf8::neon, to_utf16),
    #[cfg(target_endian = "little")]
    utf16_bytes_to_utf8: some!(utf16::neon, bytes_to_utf8),
    #[cfg(target_endian = "little")]
    utf16_bytes_to_units: some!(utf16::neon, bytes_to_units),
    #[cfg(target_endian = "little")]
    byte_map_to_utf16: some!(byte_map::neon, to_utf16),
    #[cfg(target_endian = "little")]
    byte_map_to_utf8: some!(byte_map::neon, to_utf8),
    #[cfg(target_endian = "little")]
    x_user_defined_to_utf16: some!(byte_map::neon, x_user_defined_to_utf16),
    #[cfg(target_endian = "little")]
    encode_hot_pairs: some!(byte_map::neon, encode_hot_pairs),
    #[cfg(target_endian = "little")]
    encode_x_user_defined: some!(byte_map::neon, encode_x_user_defined),
    #[cfg(target_endian = "little")]
    pairs_to_utf16: some!(double_byte::neon, to_utf16),
    #[cfg(target_endian = "little")]
    pairs_to_utf8: some!(double_byte::neon, to_utf8),
    ..SCALAR
};
#[cfg(target_arch = "aarch64")]
const NEON_MEM: MemKernels = MemKernels {
    name: "neon",
    #[cfg(target_endian = "little")]
    utf8_char_count: some!(scan::neon, utf8_char_count),
    #[cfg(target_endian = "little")]
    utf8_utf16_len: some!(scan::neon, utf8_utf16_len),
    #[cfg(target_endian = "little")]
    non_ascii_count: some!(scan::neon, non_ascii_count),
    #[cfg(target_endian = "little")]
    utf16_utf8_len: some!(scan::neon, utf16_utf8_len),
    #[cfg(target_endian = "little")]
    utf16_valid_prefix_len: some!(scan::neon, utf16_valid_prefix_len),
    #[cfg(target_endian = "little")]
    prefix_len_below: some!(scan::neon, prefix_len_below),
    #[cfg(target_endian = "little")]
    utf16_prefix_len_below: some!(scan::neon, utf16_prefix_len_below),
    #[cfg(target_endian = "little")]
    latin1_to_utf16: some!(latin1::neon, to_utf16),
    #[cfg(target_endian = "little")]
    utf16_to_latin1: some!(latin1::neon, from_utf16),
    ..SCALAR_MEM
};

/// WebAssembly SIMD: chosen when the build enables `simd128` (`-C
/// target-feature=+simd128`), which is the only test there is (a module with these
/// instructions does not load on an engine without them). `i8x16.swizzle` is the table
/// lookup (an index of 16 or more gives 0).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
const SIMD128: Level = Level {
    name: "simd128",
    ascii_prefix_len: k!(ascii::simd128, ascii_prefix_len),
    copy_ascii: k!(ascii::simd128, copy_ascii),
    widen_ascii: k!(ascii::simd128, widen_ascii),
    narrow_basic_latin: k!(ascii::simd128, narrow_basic_latin),
    utf8_valid_prefix_len: k!(utf8::simd128, valid_prefix_len),
    utf8_copy_valid_prefix: some!(utf8::simd128, copy_valid_prefix),
    utf8_to_utf16: some!(utf8::simd128, to_utf16),
    utf16_bytes_to_utf8: some!(utf16::simd128, bytes_to_utf8),
    utf16_bytes_to_units: some!(utf16::simd128, bytes_to_units),
    byte_map_to_utf16: some!(byte_map::simd128, to_utf16),
    byte_map_to_utf8: some!(byte_map::simd128, to_utf8),
    x_user_defined_to_utf16: some!(byte_map::simd128, x_user_defined_to_utf16),
    pairs_to_utf16: some!(double_byte::simd128, to_utf16),
    ..SCALAR
};
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
const SIMD128_MEM: MemKernels = MemKernels {
    name: "simd128",
    utf8_char_count: some!(scan::simd128, utf8_char_count),
    utf8_utf16_len: some!(scan::simd128, utf8_utf16_len),
    non_ascii_count: some!(scan::simd128, non_ascii_count),
    utf16_utf8_len: some!(scan::simd128, utf16_utf8_len),
    utf16_valid_prefix_len: some!(scan::simd128, utf16_valid_prefix_len),
    prefix_len_below: some!(scan::simd128, prefix_len_below),
    utf16_prefix_len_below: some!(scan::simd128, utf16_prefix_len_below),
    latin1_to_utf16: some!(latin1::simd128, to_utf16),
    utf16_to_latin1: some!(latin1::simd128, from_utf16),
    ..SCALAR_MEM
};

/// Whether this CPU can run a level.
type Detect = fn() -> bool;

/// Every level of this target, from the most portable to the most demanding, with the
/// question that tells whether this CPU can run it (each level needs the features of
/// those before it). The names are what `TEXTCODEC_KERNEL` accepts.
const LEVELS: &[(Level, Detect)] = &[
    (SCALAR, || true),
    #[cfg(target_arch = "x86_64")]
    (SSE2, || true),
    #[cfg(target_arch = "x86_64")]
    (SSE4, x86::sse4_detected),
    #[cfg(target_arch = "x86_64")]
    (AVX2, x86::avx2_detected),
    #[cfg(target_arch = "x86_64")]
    (AVX512, x86::avx512_detected),
    #[cfg(target_arch = "aarch64")]
    (NEON, neon_detected),
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    (SIMD128, || true),
];

/// Every level's [`MemKernels`], in the order of [`LEVELS`] (a test checks it).
const MEM_LEVELS: &[MemKernels] = &[
    SCALAR_MEM,
    #[cfg(target_arch = "x86_64")]
    SSE2_MEM,
    #[cfg(target_arch = "x86_64")]
    SSE4_MEM,
    #[cfg(target_arch = "x86_64")]
    AVX2_MEM,
    #[cfg(target_arch = "x86_64")]
    AVX512_MEM,
    #[cfg(target_arch = "aarch64")]
    NEON_MEM,
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    SIMD128_MEM,
];

impl Level {
    /// The level's kernels for the `mem` functions. Holding the `&Level` is the proof that
    /// they may run, as for its own.
    #[inline]
    pub(crate) fn mem(&self) -> &'static MemKernels {
        MEM_LEVELS
            .iter()
            .find(|m| m.name.len() == self.name.len() && m.name == self.name)
            .unwrap_or(&SCALAR_MEM)
    }

    /// Every primitive's name and the module of this level's kernel, its own and its
    /// `mem` ones.
    #[cfg(test)]
    fn all_primitives(&self) -> alloc::vec::Vec<(&'static str, Option<&'static str>)> {
        let mut all = self.primitives();
        all.extend(self.mem().primitives());
        all
    }
}

/// The number of levels of this target.
pub(crate) const COUNT: usize = LEVELS.len();

/// The levels' names, in order (what `TEXTCODEC_KERNEL` accepts).
pub(crate) const NAMES: [&str; COUNT] = {
    let mut names = [""; COUNT];
    let mut i = 0;
    // Bounds: `i < COUNT`, the length of both arrays (evaluated at compile time).
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    while i < COUNT {
        names[i] = LEVELS[i].0.name;
        i += 1;
    }
    names
};

/// Level number `n` (an index into [`NAMES`]) if this CPU can run it. The only way to a
/// `&Level` outside this module.
pub(crate) fn detected(n: usize) -> Option<&'static Level> {
    let (level, available) = LEVELS.get(n)?;
    available().then_some(level)
}

/// The portable level, which every CPU runs.
pub(crate) fn scalar() -> &'static Level {
    &SCALAR
}

impl PartialEq for Level {
    /// Levels are equal when they are the same level (names are unique).
    fn eq(&self, other: &Level) -> bool {
        self.name == other.name
    }
}

impl Eq for Level {}

impl core::fmt::Debug for Level {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name)
    }
}

/// x86-64 feature detection: at run time in std builds, from the compilation target's
/// features (`cfg(target_feature)`) in no_std builds.
#[cfg(target_arch = "x86_64")]
mod x86 {
    #[cfg(feature = "std")]
    macro_rules! has {
        ($($feature:tt),+) => { $(std::is_x86_feature_detected!($feature))&&+ };
    }
    #[cfg(not(feature = "std"))]
    macro_rules! has {
        ($($feature:tt),+) => { cfg!(all($(target_feature = $feature),+)) };
    }

    /// x86-64-v2.
    pub(super) fn sse4_detected() -> bool {
        has!("ssse3", "sse4.1", "sse4.2", "popcnt")
    }

    /// x86-64-v3 (FMA and MOVBE are part of v3 but no kernel uses them).
    pub(super) fn avx2_detected() -> bool {
        sse4_detected() && has!("avx2", "bmi1", "bmi2", "lzcnt")
    }

    /// The AVX-512 subsets the kernels use.
    pub(super) fn avx512_detected() -> bool {
        avx2_detected()
            && has!(
                "avx512f",
                "avx512bw",
                "avx512vl",
                "avx512vbmi",
                "avx512vbmi2"
            )
    }
}

/// NEON is part of every aarch64 target Rust supports; still asked, as the other levels are.
#[cfg(all(target_arch = "aarch64", feature = "std"))]
fn neon_detected() -> bool {
    std::arch::is_aarch64_feature_detected!("neon")
}

#[cfg(all(target_arch = "aarch64", not(feature = "std")))]
fn neon_detected() -> bool {
    cfg!(target_feature = "neon")
}

/// The level × primitive matrix of this target, as a Markdown table: a row per primitive,
/// a column per level, each cell the module of the level's kernel (`—`: none, the
/// family's portable loop runs).
#[cfg(test)]
pub(crate) fn matrix() -> alloc::string::String {
    use core::fmt::Write as _;
    let mut out = alloc::string::String::from("| primitive |");
    for (level, _) in LEVELS {
        let _ = write!(out, " {} |", level.name);
    }
    out.push_str("\n|---|");
    for _ in LEVELS {
        out.push_str("---|");
    }
    out.push('\n');
    let columns: alloc::vec::Vec<_> = LEVELS.iter().map(|(l, _)| l.all_primitives()).collect();
    for (row, (primitive, _)) in SCALAR.all_primitives().iter().enumerate() {
        let _ = write!(out, "| `{primitive}` |");
        for column in &columns {
            match column.get(row).and_then(|(_, from)| *from) {
                Some(from) => {
                    let _ = write!(out, " {} |", from.replace(' ', ""));
                }
                None => out.push_str(" — |"),
            }
        }
        out.push('\n');
    }
    out
}

/// This build's key in ARCHITECTURE.md's level matrices: the architecture, and the
/// target features that change which levels exist.
#[cfg(test)]
fn target_key() -> alloc::string::String {
    let mut key = alloc::string::String::from(std::env::consts::ARCH);
    if cfg!(target_endian = "big") && key == "aarch64" {
        key.push_str("_be");
    }
    if cfg!(target_feature = "simd128") {
        key.push_str("+simd128");
    }
    key
}

#[cfg(test)]
// Test code: a failed unwrap, index or overflow fails the test, as it should.
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]
mod tests {
    use super::*;

    /// Prints the level × primitive matrix of this target and checks ARCHITECTURE.md's copy
    /// of it (between `<!-- level-matrix KEY -->` and `<!-- /level-matrix -->`);
    /// `TEXTCODEC_BLESS=1` rewrites that copy instead.
    #[test]
    fn the_level_matrix_matches_architecture_md() {
        let matrix = matrix();
        std::println!("{matrix}");
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../ARCHITECTURE.md");
        let doc = std::fs::read_to_string(path).expect("ARCHITECTURE.md is readable");
        let open = alloc::format!("<!-- level-matrix {} -->\n", target_key());
        let close = "<!-- /level-matrix -->";
        let start = doc
            .find(&open)
            .unwrap_or_else(|| panic!("ARCHITECTURE.md has no `{}`", open.trim_end()))
            + open.len();
        let end = start + doc[start..].find(close).expect("the block is closed");
        if std::env::var_os("TEXTCODEC_BLESS").is_some() {
            let updated = alloc::format!("{}{matrix}{}", &doc[..start], &doc[end..]);
            std::fs::write(path, updated).expect("ARCHITECTURE.md is writable");
            return;
        }
        assert_eq!(
            &doc[start..end],
            matrix,
            "ARCHITECTURE.md's level matrix for {} is stale: run the test with \
             TEXTCODEC_BLESS=1",
            target_key()
        );
    }

    #[test]
    fn names_are_unique_and_scalar_comes_first() {
        assert_eq!(NAMES.first(), Some(&"scalar"));
        for (i, a) in NAMES.iter().enumerate() {
            assert!(!NAMES[..i].contains(a), "{a} twice");
        }
        assert_eq!(detected(0), Some(scalar()));
        assert_eq!(detected(COUNT), None);
    }

    /// Each level's `mem` kernels are found by its name, in the same order.
    #[test]
    fn every_level_has_its_mem_kernels() {
        assert_eq!(MEM_LEVELS.len(), LEVELS.len());
        for ((level, _), mem) in LEVELS.iter().zip(MEM_LEVELS) {
            assert_eq!(level.name, mem.name);
            assert!(core::ptr::eq(level.mem(), mem), "{}", level.name);
        }
    }

    /// Each level keeps every kernel of the level below it or replaces it, except where
    /// it says so by name (AVX-512's validation loop replaces the one-pass copy; SSE4's
    /// vector validation and transcoder replace SSE2's one-pass UTF-8 → UTF-16; AVX-512's
    /// UTF-16 → UTF-8 kernel, exact at no cost, replaces AVX2's `mem` one).
    #[test]
    fn a_level_drops_a_kernel_of_the_level_below_only_where_it_says_so() {
        let dropped_on_purpose = [
            "utf8_copy_valid_prefix",
            "utf8_validate_to_utf16",
            "utf16_to_utf8",
        ];
        for pair in LEVELS.windows(2) {
            let (below, above) = (&pair[0].0, &pair[1].0);
            for ((name, from_below), (_, from_above)) in below
                .all_primitives()
                .into_iter()
                .zip(above.all_primitives())
            {
                if from_below.is_some() && from_above.is_none() {
                    assert!(
                        dropped_on_purpose.contains(&name),
                        "{} drops {}'s `{name}`",
                        above.name,
                        below.name
                    );
                }
            }
        }
    }
}
