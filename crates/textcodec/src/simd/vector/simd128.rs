//! The WebAssembly SIMD vector (`simd128`): 16 bytes in a `v128`.
//!
//! WebAssembly has no run-time feature detection: a module that uses these instructions
//! does not validate on an engine without them, so this exists only in builds compiled
//! with `simd128` (`-C target-feature=+simd128`), and its intrinsics are safe to call;
//! only the loads and stores are `unsafe`.

use super::{Isa, Lookup, Vector};
use core::arch::wasm32::*;

/// 16 bytes in a `v128`.
#[derive(Clone, Copy)]
pub(crate) struct Simd128(v128);

impl Isa<Simd128> {
    /// This build is compiled for `simd128` (the module's `cfg`).
    #[inline(always)]
    pub(crate) fn simd128() -> Self {
        // SAFETY: a module built with simd128 instructions runs only on an engine that
        // has them.
        unsafe { Isa::proven() }
    }
}

impl Vector for Simd128 {
    const LANES: usize = 16;

    #[inline(always)]
    fn isa(self) -> Isa<Self> {
        Isa::simd128()
    }

    #[inline(always)]
    fn splat(_: Isa<Self>, byte: u8) -> Self {
        Simd128(u8x16_splat(byte))
    }

    #[inline(always)]
    fn splat16(_: Isa<Self>, unit: u16) -> Self {
        Simd128(u16x8_splat(unit))
    }

    #[inline(always)]
    unsafe fn load(_: Isa<Self>, p: *const u8) -> Self {
        // SAFETY: the caller guarantees `p .. p + 16` readable (`v128_load` takes any
        // alignment).
        Simd128(unsafe { v128_load(p.cast()) })
    }

    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: the caller guarantees `p .. p + 16` writable (any alignment).
        unsafe { v128_store(p.cast(), self.0) }
    }

    #[inline(always)]
    fn or(self, other: Self) -> Self {
        Simd128(v128_or(self.0, other.0))
    }

    #[inline(always)]
    fn and(self, other: Self) -> Self {
        Simd128(v128_and(self.0, other.0))
    }

    #[inline(always)]
    fn and_not(self, other: Self) -> Self {
        Simd128(v128_andnot(self.0, other.0))
    }

    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        Simd128(v128_xor(self.0, other.0))
    }

    #[inline(always)]
    fn select(mask: Self, yes: Self, no: Self) -> Self {
        Simd128(v128_bitselect(yes.0, no.0, mask.0))
    }

    #[inline(always)]
    fn is_zero(self) -> bool {
        !v128_any_true(self.0)
    }

    #[inline(always)]
    fn any_high(self) -> bool {
        u8x16_bitmask(self.0) != 0
    }

    #[inline(always)]
    fn high_bits(self) -> u32 {
        u32::from(u8x16_bitmask(self.0))
    }

    #[inline(always)]
    fn eq8(self, other: Self) -> Self {
        Simd128(u8x16_eq(self.0, other.0))
    }

    #[inline(always)]
    fn ge8(self, other: Self) -> Self {
        Simd128(u8x16_ge(self.0, other.0))
    }

    #[inline(always)]
    fn sub_sat8(self, other: Self) -> Self {
        Simd128(u8x16_sub_sat(self.0, other.0))
    }

    #[inline(always)]
    fn gt8_signed(self, other: Self) -> Self {
        Simd128(i8x16_gt(self.0, other.0))
    }

    #[inline(always)]
    fn sub8(self, other: Self) -> Self {
        Simd128(u8x16_sub(self.0, other.0))
    }

    #[inline(always)]
    fn sub16(self, other: Self) -> Self {
        Simd128(i16x8_sub(self.0, other.0))
    }

    #[inline(always)]
    fn high_nibbles(self) -> Self {
        // A `u16` shift and a mask (a register after the first use): V8 lowers
        // `i8x16.shr_u` to the same shift and a mask it rebuilds at every use.
        Simd128(v128_and(u16x8_shr(self.0, 4), u8x16_splat(0x0F)))
    }

    #[inline(always)]
    fn widen(self) -> (Self, Self) {
        (
            Simd128(u16x8_extend_low_u8x16(self.0)),
            Simd128(u16x8_extend_high_u8x16(self.0)),
        )
    }

    #[inline(always)]
    fn narrow(a: Self, b: Self) -> Self {
        // Lanes below 0x100 are within the saturation's range.
        Simd128(u8x16_narrow_i16x8(a.0, b.0))
    }

    #[inline(always)]
    fn eq16(self, other: Self) -> Self {
        Simd128(u16x8_eq(self.0, other.0))
    }

    #[inline(always)]
    fn gt16(self, other: Self) -> Self {
        Simd128(i16x8_gt(self.0, other.0))
    }

    #[inline(always)]
    // Bounds: `N` is below 16 (the trait's contract).
    #[allow(clippy::cast_sign_loss)]
    fn shl16<const N: i32>(self) -> Self {
        Simd128(u16x8_shl(self.0, N as u32))
    }

    #[inline(always)]
    #[allow(clippy::cast_sign_loss)]
    fn shr16<const N: i32>(self) -> Self {
        Simd128(u16x8_shr(self.0, N as u32))
    }

    #[inline(always)]
    fn swap16(self) -> Self {
        Simd128(i8x16_shuffle::<
            1,
            0,
            3,
            2,
            5,
            4,
            7,
            6,
            9,
            8,
            11,
            10,
            13,
            12,
            15,
            14,
        >(self.0, self.0))
    }
}

impl Lookup for Simd128 {
    #[inline(always)]
    fn lookup(self, index: Self) -> Self {
        // `swizzle` gives 0 for an index of 16 or more.
        Simd128(i8x16_swizzle(self.0, index.0))
    }

    #[inline(always)]
    fn table(isa: Isa<Self>, t: &[u8; 16]) -> Self {
        // SAFETY: `t` is 16 readable bytes.
        unsafe { Self::load(isa, t.as_ptr()) }
    }
}
