//! Shared helpers for the codec fuzz targets (included with `#[path]`; not a target).
#![allow(dead_code)]

use textcodec::Encoding;

/// The encoding a byte selects: every one of the 40 is reachable.
pub fn encoding(b: u8) -> Encoding {
    let all = Encoding::all();
    all[usize::from(b) % all.len()]
}

/// A small deterministic generator (xorshift64*) seeded from the input, for chunk and
/// buffer sizes.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: &[u8]) -> Rng {
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        for &b in seed {
            s = (s ^ u64::from(b)).wrapping_mul(0x100_0000_01B3);
        }
        Rng(s | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `0..=max`.
    pub fn upto(&mut self, max: usize) -> usize {
        (self.next() % (max as u64 + 1)) as usize
    }
}

/// Turns fuzz bytes into text that exercises every UTF-8 length: bytes below 0x80 are
/// themselves, others pick two-, three- and four-byte characters (with surrogate-adjacent
/// and boundary values).
pub fn text(data: &[u8]) -> String {
    let mut s = String::with_capacity(data.len() * 2);
    let mut it = data.iter();
    while let Some(&b) = it.next() {
        let c = match b {
            0x00..=0x7F => u32::from(b),
            0x80..=0xBF => 0x80 + u32::from(b & 0x3F) * 29,
            0xC0..=0xDF => {
                let lo = it.next().copied().unwrap_or(0);
                0x800 + (u32::from(b & 0x1F) << 11 | u32::from(lo) << 3) % 0xF800
            }
            0xE0..=0xEF => {
                let lo = it.next().copied().unwrap_or(0);
                0x10000 + (u32::from(b & 0x0F) << 16 | u32::from(lo) << 8)
            }
            0xF0..=0xF7 => [
                0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10FFFF, 0xFEFF, 0xA5, 0x203E,
            ][usize::from(b & 7)],
            _ => [0x20AC, 0x2212, 0xE5E5, 0xFF61, 0x0E, 0x0F, 0x1B, 0x5C][usize::from(b & 7)],
        };
        s.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
    }
    s
}

/// UTF-16 code units from fuzz bytes, little-endian pairs (lone surrogates included).
pub fn units(data: &[u8]) -> Vec<u16> {
    data.chunks_exact(2)
        .map(|p| u16::from_le_bytes([p[0], p[1]]))
        .collect()
}
