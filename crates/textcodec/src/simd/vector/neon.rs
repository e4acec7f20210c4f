//! The NEON vector (aarch64): 16 bytes in a Q register. Its `u16` lanes are
//! little-endian only on little-endian targets: big-endian aarch64 uses the byte
//! operations alone (the ASCII scan and copy).
//!
//! Every `unsafe` block below that is not a load or a store calls a register-only
//! intrinsic, which Rust makes `unsafe` outside code compiled for NEON although every
//! aarch64 target Rust supports has it (as the [`Isa`] says, module docs of [`super`]).

use super::{Isa, Lookup, Vector};
use core::arch::aarch64::*;

/// 16 bytes in a NEON register.
#[derive(Clone, Copy)]
pub(crate) struct Neon(uint8x16_t);

impl Isa<Neon> {
    /// NEON is part of every aarch64 target Rust supports.
    #[inline(always)]
    pub(crate) fn neon() -> Self {
        // SAFETY: the aarch64 baseline.
        unsafe { Isa::proven() }
    }
}

/// Bit i of each 8-byte half in its byte i.
const HALF_BITS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];

impl Neon {
    #[inline(always)]
    fn u16(self) -> uint16x8_t {
        // SAFETY: NEON (module docs).
        unsafe { vreinterpretq_u16_u8(self.0) }
    }

    #[inline(always)]
    fn from_u16(v: uint16x8_t) -> Self {
        // SAFETY: NEON.
        Neon(unsafe { vreinterpretq_u8_u16(v) })
    }
}

impl Vector for Neon {
    const LANES: usize = 16;

    #[inline(always)]
    fn isa(self) -> Isa<Self> {
        Isa::neon()
    }

    #[inline(always)]
    fn splat(_: Isa<Self>, byte: u8) -> Self {
        // SAFETY: NEON.
        Neon(unsafe { vdupq_n_u8(byte) })
    }

    #[inline(always)]
    fn splat16(_: Isa<Self>, unit: u16) -> Self {
        // SAFETY: NEON.
        Self::from_u16(unsafe { vdupq_n_u16(unit) })
    }

    #[inline(always)]
    unsafe fn load(_: Isa<Self>, p: *const u8) -> Self {
        // SAFETY: the caller guarantees `p .. p + 16` readable; NEON.
        Neon(unsafe { vld1q_u8(p) })
    }

    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: the caller guarantees `p .. p + 16` writable; NEON.
        unsafe { vst1q_u8(p, self.0) }
    }

    #[inline(always)]
    fn or(self, other: Self) -> Self {
        // SAFETY: NEON.
        Neon(unsafe { vorrq_u8(self.0, other.0) })
    }

    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: NEON.
        Neon(unsafe { vandq_u8(self.0, other.0) })
    }

    #[inline(always)]
    fn and_not(self, other: Self) -> Self {
        // SAFETY: NEON.
        Neon(unsafe { vbicq_u8(self.0, other.0) })
    }

    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: NEON.
        Neon(unsafe { veorq_u8(self.0, other.0) })
    }

    #[inline(always)]
    fn select(mask: Self, yes: Self, no: Self) -> Self {
        // SAFETY: NEON.
        Neon(unsafe { vbslq_u8(mask.0, yes.0, no.0) })
    }

    #[inline(always)]
    fn is_zero(self) -> bool {
        // SAFETY: NEON.
        unsafe { vmaxvq_u32(vreinterpretq_u32_u8(self.0)) == 0 }
    }

    #[inline(always)]
    fn any_high(self) -> bool {
        // SAFETY: NEON.
        unsafe { vmaxvq_u8(self.0) >= 0x80 }
    }

    /// NEON has no `movemask`: the bytes' top bits spread to lane masks, ANDed with their
    /// bit weights, and each half summed (the weights are distinct bits: the sum is an OR).
    #[inline(always)]
    fn high_bits(self) -> u32 {
        // SAFETY: NEON; the load reads the 16-byte constant.
        unsafe {
            let lanes = vreinterpretq_u8_s8(vshrq_n_s8::<7>(vreinterpretq_s8_u8(self.0)));
            let bits = vandq_u8(lanes, vld1q_u8(HALF_BITS.as_ptr()));
            u32::from(vaddv_u8(vget_low_u8(bits))) | (u32::from(vaddv_u8(vget_high_u8(bits))) << 8)
        }
    }

    #[inline(always)]
    fn eq8(self, other: Self) -> Self {
        // SAFETY: NEON.
        Neon(unsafe { vceqq_u8(self.0, other.0) })
    }

    #[inline(always)]
    fn ge8(self, other: Self) -> Self {
        // SAFETY: NEON.
        Neon(unsafe { vcgeq_u8(self.0, other.0) })
    }

    #[inline(always)]
    fn sub_sat8(self, other: Self) -> Self {
        // SAFETY: NEON.
        Neon(unsafe { vqsubq_u8(self.0, other.0) })
    }

    #[inline(always)]
    fn gt8_signed(self, other: Self) -> Self {
        // SAFETY: NEON.
        Neon(unsafe { vcgtq_s8(vreinterpretq_s8_u8(self.0), vreinterpretq_s8_u8(other.0)) })
    }

    #[inline(always)]
    fn sub8(self, other: Self) -> Self {
        // SAFETY: NEON.
        Neon(unsafe { vsubq_u8(self.0, other.0) })
    }

    #[inline(always)]
    fn sub16(self, other: Self) -> Self {
        // SAFETY: NEON.
        Neon(unsafe {
            vreinterpretq_u8_u16(vsubq_u16(
                vreinterpretq_u16_u8(self.0),
                vreinterpretq_u16_u8(other.0),
            ))
        })
    }

    #[inline(always)]
    fn high_nibbles(self) -> Self {
        // SAFETY: NEON.
        Neon(unsafe { vshrq_n_u8::<4>(self.0) })
    }

    #[inline(always)]
    fn widen(self) -> (Self, Self) {
        // SAFETY: NEON.
        unsafe {
            (
                Self::from_u16(vmovl_u8(vget_low_u8(self.0))),
                Self::from_u16(vmovl_high_u8(self.0)),
            )
        }
    }

    #[inline(always)]
    fn narrow(a: Self, b: Self) -> Self {
        // SAFETY: NEON. The even bytes are the lanes' low bytes (little-endian).
        Neon(unsafe { vuzp1q_u8(a.0, b.0) })
    }

    #[inline(always)]
    fn eq16(self, other: Self) -> Self {
        // SAFETY: NEON.
        Self::from_u16(unsafe { vceqq_u16(self.u16(), other.u16()) })
    }

    #[inline(always)]
    fn gt16(self, other: Self) -> Self {
        // SAFETY: NEON.
        Self::from_u16(unsafe {
            vcgtq_s16(vreinterpretq_s16_u8(self.0), vreinterpretq_s16_u8(other.0))
        })
    }

    #[inline(always)]
    fn shl16<const N: i32>(self) -> Self {
        // SAFETY: NEON.
        Self::from_u16(unsafe { vshlq_n_u16::<N>(self.u16()) })
    }

    #[inline(always)]
    fn shr16<const N: i32>(self) -> Self {
        // SAFETY: NEON.
        Self::from_u16(unsafe { vshrq_n_u16::<N>(self.u16()) })
    }

    #[inline(always)]
    fn swap16(self) -> Self {
        // SAFETY: NEON.
        Neon(unsafe { vrev16q_u8(self.0) })
    }
}

impl Lookup for Neon {
    #[inline(always)]
    fn lookup(self, index: Self) -> Self {
        // SAFETY: NEON. `tbl` gives 0 for an index of 16 or more.
        Neon(unsafe { vqtbl1q_u8(self.0, index.0) })
    }

    #[inline(always)]
    fn table(isa: Isa<Self>, t: &[u8; 16]) -> Self {
        // SAFETY: `t` is 16 readable bytes.
        unsafe { Self::load(isa, t.as_ptr()) }
    }
}
