//! A vector of bytes (or of `u16` lanes), the same operations at every width: the
//! algorithms whose SSE2, SSE4, AVX2, NEON and simd128 versions differ only in the width
//! and the spelling of each instruction are written once over [`Vector`] (the ASCII
//! kernels, the nibble-lookup UTF-8 validator, the 16-byte UTF-8 → UTF-16 transcoder,
//! UTF-16 byte swapping); each level's kernel file instantiates them. Where the instruction
//! set changes the algorithm (AVX-512's compress and two-source permutes, `pshufb` chains
//! against `tbl`/`swizzle` lookups of other sizes) the kernels stay hand-written.
//!
//! Soundness: the operations are safe methods, yet most are instructions that only some
//! CPUs run. A vector type's values are made only from an [`Isa`] of that type (by
//! [`Vector::splat`], [`Vector::load`] and the like) or from other values of it, and an
//! `Isa<V>` is made only by a function that is itself compiled for `V`'s features: a safe
//! `#[target_feature]` function, which safe code can call only from code compiled for
//! those features (a kernel), or, for a baseline of the target (SSE2 on x86-64, NEON on
//! aarch64, simd128 when the build enables it), a plain one. So holding a value proves
//! its instructions run here, and each implementation's `unsafe` blocks rest on that.
//! What stays `unsafe` for the kernels is the memory: [`Vector::load`] and
//! [`Vector::store`], whose callers state the bounds.
//!
//! Every method is `#[inline(always)]`: the generic algorithms are too, and a kernel
//! instantiates them inside its `#[target_feature]` function, where the intrinsics then
//! inline (an intrinsic does not inline into code compiled without its features, so a
//! method left out of line would cost a call per instruction).
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use core::marker::PhantomData;

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

#[cfg(target_arch = "aarch64")]
pub(crate) mod neon;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) mod simd128;

/// Proof that this CPU runs the instructions of vector type `V` (zero-sized). Each vector
/// type's module makes it, from a function compiled for the type's features (see the
/// module docs); nothing else can.
pub(crate) struct Isa<V>(PhantomData<V>);

impl<V> Clone for Isa<V> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<V> Copy for Isa<V> {}

impl<V> Isa<V> {
    /// # Safety
    /// The CPU must run `V`'s instructions. Only the vector types' modules call this, each
    /// from a function compiled for (or a target with) those features.
    #[inline(always)]
    const unsafe fn proven() -> Self {
        Isa(PhantomData)
    }
}

/// A vector register of bytes: `LANES` bytes, or `LANES / 2` `u16` lanes (little-endian
/// lanes on every target that implements it). Comparisons give lane masks: every bit of a
/// lane set where it holds, clear where not.
///
/// The methods that see 128-bit halves (the `u16` widening, [`Lookup::lookup`]) say so;
/// for the 16-byte types a half is the whole vector.
pub(crate) trait Vector: Copy {
    /// Bytes per vector (16 or 32).
    const LANES: usize;

    /// The proof that made this value (see the module docs).
    fn isa(self) -> Isa<Self>;

    /// `byte` in every byte lane.
    fn splat(isa: Isa<Self>, byte: u8) -> Self;

    /// `unit` in every `u16` lane.
    fn splat16(isa: Isa<Self>, unit: u16) -> Self;

    /// The `LANES` bytes at `p` (no alignment needed).
    ///
    /// # Safety
    /// `p .. p + LANES` must be readable.
    unsafe fn load(isa: Isa<Self>, p: *const u8) -> Self;

    /// Stores the vector's `LANES` bytes at `p` (no alignment needed).
    ///
    /// # Safety
    /// `p .. p + LANES` must be writable.
    unsafe fn store(self, p: *mut u8);

    /// Bitwise OR.
    fn or(self, other: Self) -> Self;

    /// Bitwise AND.
    fn and(self, other: Self) -> Self;

    /// `self & !other`.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fn and_not(self, other: Self) -> Self;

    /// Bitwise XOR.
    fn xor(self, other: Self) -> Self;

    /// `yes` where `mask` (a lane mask) is set, else `no`, lane by lane.
    fn select(mask: Self, yes: Self, no: Self) -> Self;

    /// Whether every bit is 0.
    fn is_zero(self) -> bool;

    /// Whether any byte has its top bit set: a byte at or above 0x80, or a lane mask
    /// with any lane set.
    fn any_high(self) -> bool;

    /// Bit `i` set where byte `i` has its top bit set (`LANES` bits).
    fn high_bits(self) -> u32;

    /// Lane mask of the bytes equal to `other`'s.
    fn eq8(self, other: Self) -> Self;

    /// Lane mask of the bytes at or above `other`'s (unsigned).
    fn ge8(self, other: Self) -> Self;

    /// Byte-wise `self - other`, 0 where it would be negative (unsigned saturation).
    fn sub_sat8(self, other: Self) -> Self;

    /// Lane mask of the bytes above `other`'s, compared as `i8`.
    fn gt8_signed(self, other: Self) -> Self;

    /// Byte-wise `self - other`, wrapping (a lane mask subtracted counts one per set lane).
    fn sub8(self, other: Self) -> Self;

    /// `u16`-lane-wise `self - other`, wrapping.
    fn sub16(self, other: Self) -> Self;

    /// Every byte shifted right by four: its high nibble.
    fn high_nibbles(self) -> Self;

    /// The bytes zero-extended to `u16` lanes: the first `LANES / 2` bytes, then the
    /// rest.
    fn widen(self) -> (Self, Self);

    /// The `u16` lanes of `a`, then those of `b`, narrowed to bytes; each lane must be
    /// below 0x100.
    fn narrow(a: Self, b: Self) -> Self;

    /// Lane mask of the `u16` lanes equal to `other`'s.
    fn eq16(self, other: Self) -> Self;

    /// Lane mask of the `u16` lanes above `other`'s, compared as `i16`.
    fn gt16(self, other: Self) -> Self;

    /// Every `u16` lane shifted left by `N` (below 16).
    fn shl16<const N: i32>(self) -> Self;

    /// Every `u16` lane shifted right by `N` (below 16), zeros shifted in.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fn shr16<const N: i32>(self) -> Self;

    /// The two bytes of every `u16` lane swapped.
    fn swap16(self) -> Self;
}

/// A vector type with a byte table lookup (`pshufb`, `tbl`, `i8x16.swizzle`).
pub(crate) trait Lookup: Vector {
    /// Lane `i` is `self[index[i]]`, looked up within each 128-bit half (the 16-byte
    /// table repeated in every half, as [`Lookup::table`] makes it), for indexes below
    /// 16; an index of 0x80 or above gives 0; indexes 16..=0x7F give either.
    fn lookup(self, index: Self) -> Self;

    /// The 16 bytes of `t` in every 128-bit half.
    fn table(isa: Isa<Self>, t: &[u8; 16]) -> Self;
}

/// Bytes per [`Block`].
pub(crate) const BLOCK: usize = 64;

/// 64 bytes in vectors: the first `64 / V::LANES` of the array (2 or 4; any others are
/// the first vector again, unused).
#[derive(Clone, Copy)]
pub(crate) struct Block<V>([V; 4]);

impl<V: Vector> Block<V> {
    /// Vectors in a block.
    // Bounds: `LANES` is 16 or 32, so this is 4 or 2 (evaluated at compile time).
    #[allow(clippy::arithmetic_side_effects)]
    pub(crate) const VECTORS: usize = BLOCK / V::LANES;

    /// The 64 bytes at `p`.
    ///
    /// # Safety
    /// `p .. p + 64` must be readable.
    #[inline(always)]
    // Bounds: the offsets are below 64 (`3 * LANES` only where `LANES` is 16).
    #[allow(clippy::arithmetic_side_effects)]
    pub(crate) unsafe fn load(isa: Isa<V>, p: *const u8) -> Self {
        // SAFETY (every load): within `p .. p + 64` (see Bounds).
        unsafe {
            let (a, b) = (V::load(isa, p), V::load(isa, p.add(V::LANES)));
            if Self::VECTORS == 2 {
                Block([a, b, a, b])
            } else {
                let (c, d) = (
                    V::load(isa, p.add(2 * V::LANES)),
                    V::load(isa, p.add(3 * V::LANES)),
                );
                Block([a, b, c, d])
            }
        }
    }

    /// Stores the 64 bytes at `p`.
    ///
    /// # Safety
    /// `p .. p + 64` must be writable.
    #[inline(always)]
    // Bounds: as for `load`.
    #[allow(clippy::arithmetic_side_effects)]
    pub(crate) unsafe fn store(self, p: *mut u8) {
        let [a, b, c, d] = self.0;
        // SAFETY (every store): within `p .. p + 64` (see Bounds).
        unsafe {
            a.store(p);
            b.store(p.add(V::LANES));
            if Self::VECTORS == 4 {
                c.store(p.add(2 * V::LANES));
                d.store(p.add(3 * V::LANES));
            }
        }
    }

    /// The block's vectors ORed together.
    #[inline(always)]
    pub(crate) fn or_all(self) -> V {
        let [a, b, c, d] = self.0;
        if Self::VECTORS == 2 {
            a.or(b)
        } else {
            a.or(b).or(c.or(d))
        }
    }

    /// The block's last vector (bytes `64 - LANES .. 64`).
    #[inline(always)]
    pub(crate) fn last(self) -> V {
        let [_, b, _, d] = self.0;
        if Self::VECTORS == 2 {
            b
        } else {
            d
        }
    }
}
