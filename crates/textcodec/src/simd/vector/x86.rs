//! x86-64 vectors: [`Sse2`] (the baseline), [`Sse4`] (SSSE3 and SSE4.1: byte shuffles,
//! blends, `ptest`) and [`Avx2`].
//!
//! Every `unsafe` block below that is not a load or a store calls a register-only
//! intrinsic, which Rust makes `unsafe` outside code compiled for its features; the
//! features are proven by the value's type (module docs of [`super`]): an `Sse<F>` value
//! exists only where SSE2 runs (every x86-64 CPU) and, when `F::SSE41`, SSSE3 and SSE4.1;
//! an `Avx2` value only where AVX2 runs.

use super::{Isa, Lookup, Vector};
use core::arch::x86_64::*;
use core::marker::PhantomData;

/// Which features an [`Sse`] value proves beyond SSE2.
pub(crate) trait SseFeatures: Copy {
    /// SSSE3 and SSE4.1.
    const SSE41: bool;
}

/// SSE2 alone (the x86-64 baseline).
#[derive(Clone, Copy)]
pub(crate) enum Baseline {}

/// SSSE3 and SSE4.1 (x86-64-v2).
#[derive(Clone, Copy)]
pub(crate) enum Sse41 {}

impl SseFeatures for Baseline {
    const SSE41: bool = false;
}

impl SseFeatures for Sse41 {
    const SSE41: bool = true;
}

/// 16 bytes in an XMM register; `F` says which features its [`Isa`] proved.
#[derive(Clone, Copy)]
pub(crate) struct Sse<F>(__m128i, PhantomData<F>);

/// The SSE2 vector.
pub(crate) type Sse2 = Sse<Baseline>;

/// The SSE4 vector (SSSE3 and SSE4.1 too: [`Lookup`], blends, `ptest`).
pub(crate) type Sse4 = Sse<Sse41>;

/// 32 bytes in a YMM register.
#[derive(Clone, Copy)]
pub(crate) struct Avx2(__m256i);

impl Isa<Sse2> {
    /// SSE2 is part of every x86-64 CPU.
    #[inline(always)]
    pub(crate) fn sse2() -> Self {
        // SAFETY: x86-64's baseline.
        unsafe { Isa::proven() }
    }
}

impl Isa<Sse4> {
    /// Callable without `unsafe` only from code compiled for SSSE3 and SSE4.1.
    #[target_feature(enable = "ssse3,sse4.1")]
    #[inline]
    pub(crate) fn sse4() -> Self {
        // SAFETY: this function runs only where SSSE3 and SSE4.1 run (its features).
        unsafe { Isa::proven() }
    }
}

impl Isa<Avx2> {
    /// Callable without `unsafe` only from code compiled for AVX2.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) fn avx2() -> Self {
        // SAFETY: this function runs only where AVX2 runs (its feature).
        unsafe { Isa::proven() }
    }
}

impl<F: SseFeatures> Sse<F> {
    #[inline(always)]
    fn new(v: __m128i) -> Self {
        Sse(v, PhantomData)
    }
}

impl<F: SseFeatures> Vector for Sse<F> {
    const LANES: usize = 16;

    #[inline(always)]
    fn isa(self) -> Isa<Self> {
        // SAFETY: the value was made from an `Isa<Self>` (the type's invariant).
        unsafe { Isa::proven() }
    }

    #[inline(always)]
    fn splat(_: Isa<Self>, byte: u8) -> Self {
        // SAFETY: SSE2 (module docs).
        Self::new(unsafe { _mm_set1_epi8(byte as i8) })
    }

    #[inline(always)]
    fn splat16(_: Isa<Self>, unit: u16) -> Self {
        // SAFETY: SSE2.
        Self::new(unsafe { _mm_set1_epi16(unit as i16) })
    }

    #[inline(always)]
    unsafe fn load(_: Isa<Self>, p: *const u8) -> Self {
        // SAFETY: the caller guarantees `p .. p + 16` readable; SSE2.
        Self::new(unsafe { _mm_loadu_si128(p.cast()) })
    }

    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: the caller guarantees `p .. p + 16` writable; SSE2.
        unsafe { _mm_storeu_si128(p.cast(), self.0) }
    }

    #[inline(always)]
    fn or(self, other: Self) -> Self {
        // SAFETY: SSE2.
        Self::new(unsafe { _mm_or_si128(self.0, other.0) })
    }

    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: SSE2.
        Self::new(unsafe { _mm_and_si128(self.0, other.0) })
    }

    #[inline(always)]
    fn and_not(self, other: Self) -> Self {
        // SAFETY: SSE2.
        Self::new(unsafe { _mm_andnot_si128(other.0, self.0) })
    }

    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: SSE2.
        Self::new(unsafe { _mm_xor_si128(self.0, other.0) })
    }

    #[inline(always)]
    fn select(mask: Self, yes: Self, no: Self) -> Self {
        if F::SSE41 {
            // SAFETY: SSE4.1, proven when `F::SSE41`.
            Self::new(unsafe { _mm_blendv_epi8(no.0, yes.0, mask.0) })
        } else {
            mask.and(yes).or(no.and_not(mask))
        }
    }

    #[inline(always)]
    fn is_zero(self) -> bool {
        if F::SSE41 {
            // SAFETY: SSE4.1, proven when `F::SSE41`.
            unsafe { _mm_testz_si128(self.0, self.0) != 0 }
        } else {
            // SAFETY: SSE2.
            unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(self.0, _mm_setzero_si128())) == 0xFFFF }
        }
    }

    #[inline(always)]
    fn any_high(self) -> bool {
        self.high_bits() != 0
    }

    #[inline(always)]
    fn high_bits(self) -> u32 {
        // SAFETY: SSE2.
        unsafe { _mm_movemask_epi8(self.0) as u32 }
    }

    #[inline(always)]
    fn eq8(self, other: Self) -> Self {
        // SAFETY: SSE2.
        Self::new(unsafe { _mm_cmpeq_epi8(self.0, other.0) })
    }

    #[inline(always)]
    fn ge8(self, other: Self) -> Self {
        // SAFETY: SSE2.
        Self::new(unsafe { _mm_cmpeq_epi8(_mm_max_epu8(self.0, other.0), self.0) })
    }

    #[inline(always)]
    fn sub_sat8(self, other: Self) -> Self {
        // SAFETY: SSE2.
        Self::new(unsafe { _mm_subs_epu8(self.0, other.0) })
    }

    #[inline(always)]
    fn gt8_signed(self, other: Self) -> Self {
        // SAFETY: SSE2.
        Self::new(unsafe { _mm_cmpgt_epi8(self.0, other.0) })
    }

    #[inline(always)]
    fn sub8(self, other: Self) -> Self {
        // SAFETY: SSE2.
        Self::new(unsafe { _mm_sub_epi8(self.0, other.0) })
    }

    #[inline(always)]
    fn sub16(self, other: Self) -> Self {
        // SAFETY: SSE2.
        Self::new(unsafe { _mm_sub_epi16(self.0, other.0) })
    }

    #[inline(always)]
    fn high_nibbles(self) -> Self {
        // SAFETY: SSE2.
        let shifted = Self::new(unsafe { _mm_srli_epi16::<4>(self.0) });
        shifted.and(Self::splat(self.isa(), 0x0F))
    }

    #[inline(always)]
    fn widen(self) -> (Self, Self) {
        // SAFETY: SSE2.
        unsafe {
            let zero = _mm_setzero_si128();
            (
                Self::new(_mm_unpacklo_epi8(self.0, zero)),
                Self::new(_mm_unpackhi_epi8(self.0, zero)),
            )
        }
    }

    #[inline(always)]
    fn narrow(a: Self, b: Self) -> Self {
        // SAFETY: SSE2. Lanes below 0x100 are within `packus`'s range.
        Self::new(unsafe { _mm_packus_epi16(a.0, b.0) })
    }

    #[inline(always)]
    fn eq16(self, other: Self) -> Self {
        // SAFETY: SSE2.
        Self::new(unsafe { _mm_cmpeq_epi16(self.0, other.0) })
    }

    #[inline(always)]
    fn gt16(self, other: Self) -> Self {
        // SAFETY: SSE2.
        Self::new(unsafe { _mm_cmpgt_epi16(self.0, other.0) })
    }

    #[inline(always)]
    fn shl16<const N: i32>(self) -> Self {
        // SAFETY: SSE2.
        Self::new(unsafe { _mm_slli_epi16::<N>(self.0) })
    }

    #[inline(always)]
    fn shr16<const N: i32>(self) -> Self {
        // SAFETY: SSE2.
        Self::new(unsafe { _mm_srli_epi16::<N>(self.0) })
    }

    #[inline(always)]
    fn swap16(self) -> Self {
        self.shl16::<8>().or(self.shr16::<8>())
    }
}

impl Lookup for Sse4 {
    #[inline(always)]
    fn lookup(self, index: Self) -> Self {
        // SAFETY: SSSE3, proven by the type.
        Self::new(unsafe { _mm_shuffle_epi8(self.0, index.0) })
    }

    #[inline(always)]
    fn table(isa: Isa<Self>, t: &[u8; 16]) -> Self {
        // SAFETY: `t` is 16 readable bytes.
        unsafe { Self::load(isa, t.as_ptr()) }
    }
}

impl Vector for Avx2 {
    const LANES: usize = 32;

    #[inline(always)]
    fn isa(self) -> Isa<Self> {
        // SAFETY: the value was made from an `Isa<Self>` (the type's invariant).
        unsafe { Isa::proven() }
    }

    #[inline(always)]
    fn splat(_: Isa<Self>, byte: u8) -> Self {
        // SAFETY: AVX2, proven by the `Isa` (module docs).
        Avx2(unsafe { _mm256_set1_epi8(byte as i8) })
    }

    #[inline(always)]
    fn splat16(_: Isa<Self>, unit: u16) -> Self {
        // SAFETY: AVX2, proven by the `Isa`.
        Avx2(unsafe { _mm256_set1_epi16(unit as i16) })
    }

    #[inline(always)]
    unsafe fn load(_: Isa<Self>, p: *const u8) -> Self {
        // SAFETY: the caller guarantees `p .. p + 32` readable; AVX2, proven by the `Isa`.
        Avx2(unsafe { _mm256_loadu_si256(p.cast()) })
    }

    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: the caller guarantees `p .. p + 32` writable; AVX2, proven by the value.
        unsafe { _mm256_storeu_si256(p.cast(), self.0) }
    }

    #[inline(always)]
    fn or(self, other: Self) -> Self {
        // SAFETY: AVX2, proven by the value (module docs).
        Avx2(unsafe { _mm256_or_si256(self.0, other.0) })
    }

    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: AVX2, proven by the value.
        Avx2(unsafe { _mm256_and_si256(self.0, other.0) })
    }

    #[inline(always)]
    fn and_not(self, other: Self) -> Self {
        // SAFETY: AVX2, proven by the value.
        Avx2(unsafe { _mm256_andnot_si256(other.0, self.0) })
    }

    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: AVX2, proven by the value.
        Avx2(unsafe { _mm256_xor_si256(self.0, other.0) })
    }

    #[inline(always)]
    fn select(mask: Self, yes: Self, no: Self) -> Self {
        // SAFETY: AVX2, proven by the values.
        Avx2(unsafe { _mm256_blendv_epi8(no.0, yes.0, mask.0) })
    }

    #[inline(always)]
    fn is_zero(self) -> bool {
        // SAFETY: AVX2, proven by the value.
        unsafe { _mm256_testz_si256(self.0, self.0) != 0 }
    }

    #[inline(always)]
    fn any_high(self) -> bool {
        self.high_bits() != 0
    }

    #[inline(always)]
    fn high_bits(self) -> u32 {
        // SAFETY: AVX2, proven by the value.
        unsafe { _mm256_movemask_epi8(self.0) as u32 }
    }

    #[inline(always)]
    fn eq8(self, other: Self) -> Self {
        // SAFETY: AVX2, proven by the value.
        Avx2(unsafe { _mm256_cmpeq_epi8(self.0, other.0) })
    }

    #[inline(always)]
    fn ge8(self, other: Self) -> Self {
        // SAFETY: AVX2, proven by the value.
        Avx2(unsafe { _mm256_cmpeq_epi8(_mm256_max_epu8(self.0, other.0), self.0) })
    }

    #[inline(always)]
    fn sub_sat8(self, other: Self) -> Self {
        // SAFETY: AVX2, proven by the value.
        Avx2(unsafe { _mm256_subs_epu8(self.0, other.0) })
    }

    #[inline(always)]
    fn gt8_signed(self, other: Self) -> Self {
        // SAFETY: AVX2, proven by the value.
        Avx2(unsafe { _mm256_cmpgt_epi8(self.0, other.0) })
    }

    #[inline(always)]
    fn sub8(self, other: Self) -> Self {
        // SAFETY: AVX2, proven by the value.
        Avx2(unsafe { _mm256_sub_epi8(self.0, other.0) })
    }

    #[inline(always)]
    fn sub16(self, other: Self) -> Self {
        // SAFETY: AVX2, proven by the value.
        Avx2(unsafe { _mm256_sub_epi16(self.0, other.0) })
    }

    #[inline(always)]
    fn high_nibbles(self) -> Self {
        // SAFETY: AVX2, proven by the value.
        let shifted = Avx2(unsafe { _mm256_srli_epi16::<4>(self.0) });
        shifted.and(Self::splat(self.isa(), 0x0F))
    }

    #[inline(always)]
    fn widen(self) -> (Self, Self) {
        // SAFETY: AVX2, proven by the value.
        unsafe {
            (
                Avx2(_mm256_cvtepu8_epi16(_mm256_castsi256_si128(self.0))),
                Avx2(_mm256_cvtepu8_epi16(_mm256_extracti128_si256::<1>(self.0))),
            )
        }
    }

    #[inline(always)]
    fn narrow(a: Self, b: Self) -> Self {
        // SAFETY: AVX2, proven by the values. `packus` interleaves the 128-bit halves
        // (a.lo b.lo a.hi b.hi); the permute puts them in order.
        Avx2(unsafe { _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(a.0, b.0)) })
    }

    #[inline(always)]
    fn eq16(self, other: Self) -> Self {
        // SAFETY: AVX2, proven by the value.
        Avx2(unsafe { _mm256_cmpeq_epi16(self.0, other.0) })
    }

    #[inline(always)]
    fn gt16(self, other: Self) -> Self {
        // SAFETY: AVX2, proven by the value.
        Avx2(unsafe { _mm256_cmpgt_epi16(self.0, other.0) })
    }

    #[inline(always)]
    fn shl16<const N: i32>(self) -> Self {
        // SAFETY: AVX2, proven by the value.
        Avx2(unsafe { _mm256_slli_epi16::<N>(self.0) })
    }

    #[inline(always)]
    fn shr16<const N: i32>(self) -> Self {
        // SAFETY: AVX2, proven by the value.
        Avx2(unsafe { _mm256_srli_epi16::<N>(self.0) })
    }

    #[inline(always)]
    fn swap16(self) -> Self {
        const SWAP: [u8; 16] = [1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14];
        self.lookup(Self::table(self.isa(), &SWAP))
    }
}

impl Lookup for Avx2 {
    #[inline(always)]
    fn lookup(self, index: Self) -> Self {
        // SAFETY: AVX2, proven by the value.
        Avx2(unsafe { _mm256_shuffle_epi8(self.0, index.0) })
    }

    #[inline(always)]
    fn table(_: Isa<Self>, t: &[u8; 16]) -> Self {
        // SAFETY: `t` is 16 readable bytes; AVX2, proven by the `Isa`.
        Avx2(unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr().cast())) })
    }
}
