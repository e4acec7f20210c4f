//! <https://encoding.spec.whatwg.org/#gb18030-decoder> and
//! <https://encoding.spec.whatwg.org/#gb18030-encoder>; GBK (#gbk-decoder, #gbk-encoder) is
//! the same decoder and the same encoder with *is GBK* set.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use super::{fast_multi_byte, scalar, DecodeKernel, EncodeKernel, Encoded, Restore, Step};
use crate::index;
use crate::sink::Sink;

/// gb18030's decoder state.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Gb18030Decoder {
    /// gb18030 first
    first: u8,
    /// gb18030 second
    second: u8,
    /// gb18030 third
    third: u8,
}

/// The two-byte pointer: (leading − 0x81) × 190 + (byte − offset), or `None` for a
/// trailing byte outside 0x40–0x7E and 0x80–0xFE.
#[inline(always)]
// Bounds: called with a gb18030 first byte (0x81..=0xFE) and the match checks the
// trail byte, so the subtractions cannot wrap; the pointer is below 126 × 190.
#[allow(clippy::arithmetic_side_effects)]
fn two_byte_pointer(leading: u8, byte: u8) -> Option<usize> {
    let offset = if byte < 0x7F { 0x40 } else { 0x41 };
    match byte {
        0x40..=0x7E | 0x80..=0xFE => {
            Some(usize::from(leading - 0x81) * 190 + usize::from(byte - offset))
        }
        _ => None,
    }
}

/// The four-byte pointer (#gb18030-decoder step 3.2).
#[inline(always)]
// Bounds: the caller checked the four bytes' ranges (0x81..=0xFE, 0x30..=0x39,
// 0x81..=0xFE, 0x30..=0x39), so no subtraction wraps and the pointer is below
// 126 × 10 × 126 × 10 (fits u32).
#[allow(clippy::arithmetic_side_effects)]
fn four_byte_pointer(first: u8, second: u8, third: u8, byte: u8) -> u32 {
    (u32::from(first) - 0x81) * (10 * 126 * 10)
        + (u32::from(second) - 0x30) * (10 * 126)
        + (u32::from(third) - 0x81) * 10
        + u32::from(byte)
        - 0x30
}

impl DecodeKernel for Gb18030Decoder {
    fn handle(&mut self, byte: Option<u8>) -> Step {
        let Some(byte) = byte else {
            // Steps 1–2: one error for whatever is pending (the "end-of-queue" case emits a
            // single U+FFFD even for three pending bytes).
            if self.first == 0 && self.second == 0 && self.third == 0 {
                return Step::Finished;
            }
            *self = Gb18030Decoder::default();
            return Step::ERROR;
        };
        // Step 3.
        if self.third != 0 {
            if !(0x30..=0x39).contains(&byte) {
                // Restore « second, third, byte ».
                *self = Gb18030Decoder::default();
                return Step::Error(Restore {
                    unread: true,
                    prior: 2,
                    held: 0,
                });
            }
            let pointer = four_byte_pointer(self.first, self.second, self.third, byte);
            let code_point = index::gb18030_ranges_code_point(pointer);
            *self = Gb18030Decoder::default();
            return match code_point {
                None => Step::ERROR,
                Some(cp) => Step::Emit(scalar(cp)),
            };
        }
        // Step 4.
        if self.second != 0 {
            if (0x81..=0xFE).contains(&byte) {
                self.third = byte;
                return Step::Continue;
            }
            // Restore « second, byte ».
            *self = Gb18030Decoder::default();
            return Step::Error(Restore {
                unread: true,
                prior: 1,
                held: 0,
            });
        }
        // Step 5.
        if self.first != 0 {
            if (0x30..=0x39).contains(&byte) {
                self.second = byte;
                return Step::Continue;
            }
            let leading = self.first;
            self.first = 0;
            let code_point = two_byte_pointer(leading, byte).and_then(index::gb18030_code_point);
            if let Some(cp) = code_point {
                return Step::Emit(scalar(u32::from(cp)));
            }
            return if byte < 0x80 {
                Step::ERROR_UNREAD
            } else {
                Step::ERROR
            };
        }
        // Steps 6–9.
        match byte {
            0x00..=0x7F => Step::ascii(byte),
            0x80 => Step::Emit('\u{20AC}'),
            0x81..=0xFE => {
                self.first = byte;
                Step::Continue
            }
            0xFF => Step::ERROR,
        }
    }

    #[inline(always)]
    fn is_ground(&self) -> bool {
        self.first == 0
    }

    #[inline]
    fn fast<S: Sink>(&mut self, src: &[u8], dst: &mut S) -> usize {
        // The four-byte form's 0x30..=0x39 second byte has no pair entry.
        fast_multi_byte(src, dst, index::gb18030_pairs, |s| match *s {
            [0x80, ..] => Some((0x20AC, 1)),
            [lead @ 0x81..=0xFE, second @ 0x30..=0x39, third @ 0x81..=0xFE, fourth @ 0x30..=0x39, ..] =>
            {
                let cp = index::gb18030_ranges_code_point(four_byte_pointer(
                    lead, second, third, fourth,
                ))?;
                Some((cp, 4))
            }
            [lead @ 0x81..=0xFE, trail, ..] => {
                let cp = index::gb18030_code_point(two_byte_pointer(lead, trail)?)?;
                Some((u32::from(cp), 2))
            }
            _ => None,
        })
    }
}

/// The GB18030-2022 compatibility side table of the gb18030 encoder (step 5): Private Use
/// code points that index gb18030 no longer maps, encoded as before.
const ENCODER_SIDE_TABLE: [(u32, [u8; 2]); 18] = [
    (0xE78D, [0xA6, 0xD9]),
    (0xE78E, [0xA6, 0xDA]),
    (0xE78F, [0xA6, 0xDB]),
    (0xE790, [0xA6, 0xDC]),
    (0xE791, [0xA6, 0xDD]),
    (0xE792, [0xA6, 0xDE]),
    (0xE793, [0xA6, 0xDF]),
    (0xE794, [0xA6, 0xEC]),
    (0xE795, [0xA6, 0xED]),
    (0xE796, [0xA6, 0xF3]),
    (0xE81E, [0xFE, 0x59]),
    (0xE826, [0xFE, 0x61]),
    (0xE82B, [0xFE, 0x66]),
    (0xE82C, [0xFE, 0x67]),
    (0xE832, [0xFE, 0x6D]),
    (0xE843, [0xFE, 0x7E]),
    (0xE854, [0xFE, 0x90]),
    (0xE864, [0xFE, 0xA0]),
];

/// gb18030's encoder; GBK's when `is_gbk`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Gb18030Encoder {
    /// is GBK
    pub(crate) is_gbk: bool,
}

impl EncodeKernel for Gb18030Encoder {
    // Bounds: index gb18030 pointers are below 126 × 190 and index gb18030 ranges pointers
    // below 126 × 10 × 126 × 10, so every byte computed fits; `cp < 0x110000`.
    #[allow(clippy::arithmetic_side_effects)]
    #[inline(always)]
    fn encode_char(&mut self, c: char) -> Encoded {
        let cp = u32::from(c);
        // Step 2.
        if cp < 0x80 {
            return Encoded::one(cp as u8);
        }
        // Step 3: 0xA3 0xA0 decodes to U+3000, so U+E5E5 cannot round-trip.
        if cp == 0xE5E5 {
            return Encoded::unmappable(c);
        }
        // Step 4.
        if self.is_gbk && cp == 0x20AC {
            return Encoded::one(0x80);
        }
        // Step 5.
        if (0xE78D..=0xE864).contains(&cp) {
            if let Some((_, [a, b])) = ENCODER_SIDE_TABLE.iter().find(|e| e.0 == cp) {
                return Encoded::two(*a, *b);
            }
        }
        // Steps 6–7.
        if let Some(pointer) = index::gb18030_pointer(cp) {
            let leading = (pointer / 190) as u8 + 0x81;
            let trailing = (pointer % 190) as u8;
            let offset = if trailing < 0x3F { 0x40 } else { 0x41 };
            return Encoded::two(leading, trailing + offset);
        }
        // Step 8.
        if self.is_gbk {
            return Encoded::unmappable(c);
        }
        four_byte(cp)
    }
}

/// Steps 9–16: a four-byte sequence from index gb18030 ranges. Kept out of line: the
/// encoder's hot path (inlined into the bulk loop) is the two-byte table lookup.
#[inline(never)]
// Bounds: index gb18030 ranges pointers are below 126 × 10 × 126 × 10, so every byte fits.
#[allow(clippy::arithmetic_side_effects)]
fn four_byte(cp: u32) -> Encoded {
    let mut pointer = index::gb18030_ranges_pointer(cp);
    let byte1 = pointer / (10 * 126 * 10);
    pointer %= 10 * 126 * 10;
    let byte2 = pointer / (10 * 126);
    pointer %= 10 * 126;
    let byte3 = pointer / 10;
    let byte4 = pointer % 10;
    Encoded::four(
        (byte1 + 0x81) as u8,
        (byte2 + 0x30) as u8,
        (byte3 + 0x81) as u8,
        (byte4 + 0x30) as u8,
    )
}
