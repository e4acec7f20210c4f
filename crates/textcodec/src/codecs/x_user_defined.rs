//! <https://encoding.spec.whatwg.org/#x-user-defined-decoder> and
//! <https://encoding.spec.whatwg.org/#x-user-defined-encoder>
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::{DecodeKernel, EncodeKernel, Encoded, Step};
use crate::sink::{ByteMap, Sink};
use crate::slots::Slots;

/// x-user-defined's decoder (stateless).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct XUserDefinedDecoder;

#[inline(always)]
// Bounds: the else branch has byte ≥ 0x80, so 0xF780 + byte − 0x80 ≤ 0xF7FF.
#[allow(clippy::arithmetic_side_effects)]
const fn decode_byte(byte: u8) -> u16 {
    if byte < 0x80 {
        byte as u16
    } else {
        // Step 3: 0xF780 + byte − 0x80.
        0xF780 + byte as u16 - 0x80
    }
}

impl DecodeKernel for XUserDefinedDecoder {
    fn handle(&mut self, byte: Option<u8>) -> Step {
        match byte {
            None => Step::Finished,
            Some(b) => Step::Emit(super::scalar(u32::from(decode_byte(b)))),
        }
    }

    #[inline(always)]
    fn is_ground(&self) -> bool {
        true
    }

    #[inline]
    fn fast<S: Sink>(&mut self, src: &[u8], dst: &mut S) -> usize {
        if S::IS_UTF16 {
            // Every byte is valid, and the mapping is arithmetic: the bulk kernel where the
            // CPU has one, then one pass over what fits, in a loop the compiler vectorises.
            let bulk = if src.len() >= crate::simd::byte_map::BLOCK {
                dst.decode_bulk(&crate::sink::XUserDefined, src)
            } else {
                0
            };
            bulk.saturating_add(dst.push_bmp_run(src.get(bulk..).unwrap_or_default(), decode_byte))
        } else {
            let (units, utf8) = tables();
            let map = ByteMap {
                units,
                utf8,
                has_errors: false,
                linear: LINEAR,
            };
            super::fast_byte_map(src, dst, &map)
        }
    }
}

/// `decode_byte` for every byte (never 0: every byte is valid).
// Bounds: `b < 256`, the table's length (evaluated at compile time).
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const UNITS: [u16; 256] = {
    let mut table = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = decode_byte(b as u8);
        b += 1;
    }
    table
};

/// The byte map's tables: `UNITS`, and the same as UTF-8 bytes. Static by default; the
/// `compact` layout builds them on first use (1.5 KB of its footprint budget).
fn tables() -> (&'static [u16; 256], &'static [u32; 256]) {
    #[cfg(not(feature = "compact"))]
    {
        static DECODE_UNITS: [u16; 256] = UNITS;
        static DECODE_UTF8: [u32; 256] = crate::index::byte_map::utf8_table(&UNITS);
        (&DECODE_UNITS, &DECODE_UTF8)
    }
    #[cfg(feature = "compact")]
    {
        type Tables = ([u16; 256], [u32; 256]);
        static TABLES: crate::once::Once<Tables> = crate::once::Once::new();
        let built = TABLES.get_or_init(|| {
            let mut units = [0u16; 256];
            for (b, unit) in (0..=255u8).zip(units.iter_mut()) {
                *unit = decode_byte(b);
            }
            let utf8 = crate::index::byte_map::utf8_table(&units);
            alloc::boxed::Box::new((units, utf8))
        });
        (&built.0, &built.1)
    }
}

static LINEAR: crate::index::byte_map::LinearRange = crate::index::byte_map::linear_range(&UNITS);

/// x-user-defined's encoder.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct XUserDefinedEncoder;

impl EncodeKernel for XUserDefinedEncoder {
    // Bounds: in the U+F780..=U+F7FF arm `cp - 0xF780 + 0x80` ≤ 0xFF.
    #[allow(clippy::arithmetic_side_effects)]
    #[inline(always)]
    fn encode_char(&mut self, c: char) -> Encoded {
        let cp = u32::from(c);
        match cp {
            0..=0x7F => Encoded::one(cp as u8),
            0xF780..=0xF7FF => Encoded::one((cp - 0xF780 + 0x80) as u8),
            _ => Encoded::unmappable(c),
        }
    }

    /// Its own loop after validating (see [`EncodeKernel::fast_bytes`]).
    #[cfg(feature = "std")]
    #[inline]
    fn fast_bytes(&mut self, src: &[u8], dst: &mut Slots<u8>) -> (usize, usize) {
        super::validated_fast(self, src, dst)
    }

    /// Step 3 straight from the UTF-8 bytes: U+F780..=U+F7FF is EF 9E 80..=EF 9F BF, and
    /// its byte is 0x80 + the low 7 bits of the code point.
    #[inline]
    // Hot loop. Bounds: `read < bytes.len()` and `written < dst.len()` at every index (the
    // loop condition and `get`s), and `copy_ascii` returns at most both remaining lengths.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    fn fast(&mut self, src: &str, dst: &mut Slots<u8>) -> (usize, usize) {
        let bytes = src.as_bytes();
        // The AVX-512, AVX2 or NEON kernel where the CPU has one (ASCII and
        // U+F780..=U+F7FF, 64, 32 or 16 bytes at a time), then the loop below from where it
        // stopped.
        let (mut read, mut written) = crate::simd::byte_map::encode_x_user_defined(bytes, dst);
        while written < dst.len() {
            match *bytes.get(read..).unwrap_or_default() {
                [a, b, ..] if a < 0x80 && b < 0x80 => {
                    let n = crate::simd::ascii::copy_ascii(&bytes[read..], &mut dst[written..]);
                    read += n;
                    written += n;
                }
                [a, ..] if a < 0x80 => {
                    dst[written].write(a);
                    read += 1;
                    written += 1;
                }
                [0xEF, b @ (0x9E | 0x9F), t, ..] => {
                    dst[written].write(0x80 | ((b & 1) << 6) | (t & 0x3F));
                    read += 3;
                    written += 1;
                }
                _ => break, // the end, or unmappable
            }
        }
        (read, written)
    }
}
