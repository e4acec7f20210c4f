//! The single-byte tables derived from an index's upper half at compile time: the
//! mapping in both output forms that the single-byte and x-user-defined decoders hand to
//! the sinks and kernels ([`ByteMap`], with its [`LinearRange`]), and the encoders' hot
//! two-byte characters ([`HotPairs`]). The kernels in `simd/byte_map` read them.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

/// A byte → code point mapping in both output forms (single-byte and x-user-defined
/// decoding).
pub(crate) struct ByteMap<'a> {
    /// byte → UTF-16 code unit (BMP); 0 for an error byte (never byte 0).
    pub(crate) units: &'a [u16; 256],
    /// byte → UTF-8 bytes packed little-endian in the low 24 bits, their count in the top
    /// 8 bits; 0 for an error byte. Built by [`utf8_table`].
    pub(crate) utf8: &'a [u32; 256],
    /// Whether `units` has an error byte ([`has_error_bytes`]). Most single-byte encodings
    /// map all 256 bytes; their loops skip the per-byte error check, which costs about a
    /// third of the portable UTF-16 loop's time.
    pub(crate) has_errors: bool,
    /// The longest run of non-ASCII bytes that map to consecutive code units
    /// ([`linear_range`]): the SSE2 level decodes blocks of ASCII and such bytes to UTF-16
    /// by arithmetic, without the table.
    // Read by the SSE2 and simd128 kernels only.
    #[cfg_attr(
        not(any(
            target_arch = "x86_64",
            all(target_arch = "wasm32", target_feature = "simd128")
        )),
        allow(dead_code)
    )]
    pub(crate) linear: LinearRange,
}

/// Bytes `lo..=hi` (all ≥ 0x80) but those of the hole `hole_lo..=hole_hi` map to
/// `byte + offset` (wrapping `u16` arithmetic); the hole's bytes are errors. An empty range
/// has `lo > hi`, an empty hole `hole_lo > hole_hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LinearRange {
    pub(crate) lo: u8,
    pub(crate) hi: u8,
    pub(crate) offset: u16,
    pub(crate) hole_lo: u8,
    pub(crate) hole_hi: u8,
}

/// The range with the most bytes whose units are `byte + offset` for one `offset` (the
/// first on a tie), at compile time: one run of such bytes, or two runs with the same
/// offset and nothing but error bytes between them (the hole). The letters of most
/// single-byte encodings lie in one: windows-1252's 0xA0..=0xFF (offset 0),
/// windows-1251's 0xC0..=0xFF (Cyrillic А..я), ISO-8859-8's Hebrew; ISO-8859-7's Greek,
/// ISO-8859-6's Arabic and windows-874's Thai are two runs around unmapped bytes. A run
/// holds no error byte, no surrogate and no C1 control (U+0080..=U+009F): the ISO-8859
/// encodings map 0x80..=0x9F to those, a run longer than their letters' and never seen
/// in text.
// Bounds: `b`, `start` and `k` stay in 0x80..=0x100 and index below 256 only while
// < 256; `prev` holds a run's bytes (below 256) once set.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) const fn linear_range(units: &[u16; 256]) -> LinearRange {
    // Whether a unit can be in no run.
    const fn outside(unit: u16) -> bool {
        unit == 0 || (unit >= 0x80 && unit < 0xA0) || (unit >= 0xD800 && unit < 0xE000)
    }
    let mut best = LinearRange {
        lo: 1,
        hi: 0,
        offset: 0,
        hole_lo: 1,
        hole_hi: 0,
    };
    let mut best_len = 0;
    // The last run seen: (lo, hi, offset), empty while `lo > hi`.
    let mut prev: (usize, usize, u16) = (1, 0, 0);
    let mut start = 0x80;
    let mut b = 0x80;
    while b <= 0x100 {
        let ends = b == 0x100
            || outside(units[b])
            || (b > start
                && units[b].wrapping_sub(b as u16) != units[start].wrapping_sub(start as u16));
        if ends {
            if start < b && !outside(units[start]) {
                let (lo, hi) = (start, b - 1);
                let offset = units[start].wrapping_sub(start as u16);
                if b - start > best_len {
                    best_len = b - start;
                    best = LinearRange {
                        lo: lo as u8,
                        hi: hi as u8,
                        offset,
                        hole_lo: 1,
                        hole_hi: 0,
                    };
                }
                // With the run before, across a gap of error bytes only.
                if prev.0 <= prev.1 && prev.2 == offset && prev.1 + 1 < lo {
                    let mut gap_errors = true;
                    let mut k = prev.1 + 1;
                    while k < lo {
                        gap_errors &= units[k] == 0;
                        k += 1;
                    }
                    let len = (prev.1 + 1 - prev.0) + (b - start);
                    if gap_errors && len > best_len {
                        best_len = len;
                        best = LinearRange {
                            lo: prev.0 as u8,
                            hi: hi as u8,
                            offset,
                            hole_lo: (prev.1 + 1) as u8,
                            hole_hi: (lo - 1) as u8,
                        };
                    }
                }
                prev = (lo, hi, offset);
            }
            start = if b < 0x100 && outside(units[b]) {
                b + 1
            } else {
                b
            };
        }
        b += 1;
    }
    best
}

/// Whether a [`ByteMap::units`] table has an error byte (a 0 entry for a byte other than
/// 0) or a surrogate (no index has one; the kernels stop before it as before an error, so
/// a table without either lets them skip the check), at compile time. Fails to compile for a table holding U+FFFF, which the portable
/// UTF-16 loop's error check relies on not being there (no index has it).
// Bounds: `b < 256`, the table's length.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) const fn has_error_bytes(units: &[u16; 256]) -> bool {
    let mut errors = false;
    let mut b = 0;
    while b < 256 {
        assert!(units[b] != 0xFFFF, "U+FFFF in a single-byte table");
        errors |= (b != 0 && units[b] == 0) || (units[b] >= 0xD800 && units[b] < 0xE000);
        b += 1;
    }
    errors
}

/// The [`ByteMap::utf8`] table for a [`ByteMap::units`] table, at compile time. A unit of
/// 0 for a byte other than 0 is an error and stays 0; surrogates (never in the indexes)
/// would become U+FFFD.
// Bounds: `b < 256`, the tables' length; the arithmetic is on values below 0x10000.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
pub(crate) const fn utf8_table(units: &[u16; 256]) -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut b = 0;
    while b < 256 {
        let u = units[b];
        if u != 0 || b == 0 {
            let c = if (u & 0xF800) == 0xD800 {
                0xFFFD
            } else {
                u as u32
            };
            table[b] = if c < 0x80 {
                c | (1 << 24)
            } else if c < 0x800 {
                (0xC0 | (c >> 6)) | ((0x80 | (c & 0x3F)) << 8) | (2 << 24)
            } else {
                (0xE0 | (c >> 12))
                    | ((0x80 | ((c >> 6) & 0x3F)) << 8)
                    | ((0x80 | (c & 0x3F)) << 16)
                    | (3 << 24)
            };
        }
        b += 1;
    }
    table
}

/// Encoding side: the two-byte UTF-8 characters of up to four "hot" lead bytes (the
/// 64-code-point blocks a single-byte encoding maps most of, e.g. C2/C3 for Latin-1,
/// D0/D1 for Cyrillic) → their bytes: `bytes[k * 64 + (trail & 0x3F)]` for `leads[k]
/// trail`, 0 where the character is not encodable. Unused slots have lead 0 and all-zero
/// blocks: no lead byte is 0, but a NUL is, so a kernel must count a slot's match only
/// where the byte before a trail is a lead.
// The encode kernels that read it are x86-64 (AVX-512) and aarch64 (NEON) only.
// The compact build's encoders do not use it (its tests and fuzzing hooks do).
#[cfg_attr(
    any(
        feature = "compact",
        not(any(
            target_arch = "x86_64",
            all(target_arch = "aarch64", target_endian = "little")
        ))
    ),
    allow(dead_code)
)]
pub(crate) struct HotPairs {
    pub(crate) leads: [u8; 4],
    pub(crate) bytes: [u8; 256],
}

/// The [`HotPairs`] of a single-byte decode table (byte → code point, 0 = none), at
/// compile time: the four lead bytes whose blocks hold the most of its code points.
// Bounds: leads of two-byte UTF-8 are 0xC2..=0xDF (`cp >> 6` below 0x20 for cp < 0x800),
// so `lead & 0x1F` indexes the 32 counts; `k < 4` and `cp & 0x3F < 64` index `bytes`.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
#[cfg_attr(feature = "compact", allow(dead_code))]
pub(crate) const fn hot_pairs(decode: &[u16; 256]) -> HotPairs {
    let mut count = [0u16; 32];
    let mut b = 0x80;
    while b < 256 {
        let cp = decode[b];
        if cp >= 0x80 && cp < 0x800 {
            count[(cp >> 6) as usize] += 1;
        }
        b += 1;
    }
    let mut leads = [0u8; 4];
    let mut k = 0;
    while k < 4 {
        // The block with the most code points not taken yet (ties: the lowest).
        let (mut best, mut best_count) = (0, 0);
        let mut block = 0;
        while block < 32 {
            if count[block] > best_count {
                best = block;
                best_count = count[block];
            }
            block += 1;
        }
        if best_count > 0 {
            leads[k] = 0xC0 | best as u8;
            count[best] = 0;
        }
        k += 1;
    }
    let mut bytes = [0u8; 256];
    let mut b = 0x80;
    while b < 256 {
        let cp = decode[b];
        if cp >= 0x80 && cp < 0x800 {
            let lead = 0xC0 | (cp >> 6) as u8;
            let mut k = 0;
            while k < 4 {
                if leads[k] == lead {
                    bytes[k * 64 + (cp & 0x3F) as usize] = b as u8;
                }
                k += 1;
            }
        }
        b += 1;
    }
    HotPairs { leads, bytes }
}
