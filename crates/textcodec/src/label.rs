//! <https://encoding.spec.whatwg.org/#concept-encoding-get>
//!
//! *get an encoding*: trim ASCII whitespace, compare ASCII case-insensitively against the
//! 228 labels. The lookup reads the label as three 8-byte words, lowercases them eight
//! bytes at a time, hashes the words (the same cost for every length) and probes a
//! generated open-addressing table: no allocation, no per-byte loop, and at most
//! `LABEL_MAX_PROBES` candidates compared, three words each.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use crate::encoding::{
    Encoding, LABELS, LABEL_HASH_SEED, LABEL_MAX_PROBES, LABEL_SLOTS, MAX_LABEL_LEN,
};

/// ASCII whitespace as the Infra Standard defines it: TAB, LF, FF, CR, SPACE.
#[inline]
pub(crate) fn is_ascii_whitespace(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

/// Removes leading and trailing ASCII whitespace.
#[inline]
pub(crate) fn trim_ascii_whitespace(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if !is_ascii_whitespace(*first) {
            break;
        }
        s = rest;
    }
    while let [rest @ .., last] = s {
        if !is_ascii_whitespace(*last) {
            break;
        }
        s = rest;
    }
    s
}

/// A label as the lookup compares it: its ASCII-lowercase bytes, zero-padded to 24 bytes,
/// as three little-endian words. Comparing keys (and lengths, since a label could end in
/// NUL bytes) is three word comparisons instead of a byte loop.
type Key = [u64; 3];
const _: () = assert!(MAX_LABEL_LEN <= 24);
/// Probing wraps with this mask.
const SLOT_MASK: usize = LABEL_SLOTS.len().wrapping_sub(1);
const _: () = assert!(LABEL_SLOTS.len().is_power_of_two());

/// The key of a label that is already lowercase (the table's labels), at compile time.
// Bounds: `i < bytes.len() <= MAX_LABEL_LEN <= 24`, so `i / 8 < 3`; the shift is below 64.
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
const fn key_of_lowercase(bytes: &[u8]) -> Key {
    let mut key = [0u64; 3];
    let mut i = 0;
    while i < bytes.len() {
        key[i / 8] |= (bytes[i] as u64) << ((i % 8) * 8);
        i += 1;
    }
    key
}

/// Every label's key, in the order of `LABELS`.
// Bounds: `i < LABELS.len()`, the length of both arrays (evaluated at compile time).
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
static LABEL_KEYS: [Key; LABELS.len()] = {
    let mut keys = [[0u64; 3]; LABELS.len()];
    let mut i = 0;
    while i < LABELS.len() {
        keys[i] = key_of_lowercase(LABELS[i].0.as_bytes());
        i += 1;
    }
    keys
};

/// Every label's length and encoding, in the order of `LABELS`: what the lookup reads
/// besides the key. `LABELS` itself (a `&str` per label) is read at compile time only, so
/// a program that looks labels up links neither its 228 pointers nor their relocations.
// Bounds: as `LABEL_KEYS`; a label is at most 24 bytes (`MAX_LABEL_LEN`), so its length
// fits a `u8`.
#[allow(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation
)]
static LABEL_ENCODINGS: [(u8, Encoding); LABELS.len()] = {
    let mut entries = [(0u8, Encoding::Utf8); LABELS.len()];
    let mut i = 0;
    while i < LABELS.len() {
        entries[i] = (LABELS[i].0.len() as u8, LABELS[i].1);
        i += 1;
    }
    entries
};

/// ASCII-lowercases the eight bytes of `w` at once: a byte gets bit 0x20 when it is in
/// 0x41..=0x5A (bytes ≥ 0x80 are left alone, as `to_ascii_lowercase` does).
#[inline(always)]
fn ascii_lowercase_word(w: u64) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let low7 = w & LOW7;
    // Per byte, no carries between bytes (low7 ≤ 0x7F, + at most 0x3F stays < 0x100):
    // the high bit is set when the byte is ≥ 'A' …
    let at_least_a = low7.wrapping_add(0x3F3F_3F3F_3F3F_3F3F);
    // … and when it is > 'Z'.
    let above_z = low7.wrapping_add(0x2525_2525_2525_2525);
    let upper = (at_least_a ^ above_z) & !w & HIGH;
    w | (upper >> 2)
}

/// Fewer than eight bytes as a little-endian word, zero above them (0 for eight or more:
/// [`words_of`] loads those whole). Built from a few overlapping loads of the slice
/// itself: copying into a stack buffer first would make the word load wait for the byte
/// stores.
#[inline(always)]
// Bounds: the products are below 64 (`n % 4 < 4`, `n / 2 < 2`, `n - 1 < 3` in their arms).
#[allow(clippy::arithmetic_side_effects)]
fn load_short(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    let u32_at = |i: usize| {
        let mut b = [0u8; 4];
        b.copy_from_slice(bytes.get(i..i.saturating_add(4)).unwrap_or(&[0; 4]));
        u64::from(u32::from_le_bytes(b))
    };
    let byte_at = |i: usize| u64::from(bytes.get(i).copied().unwrap_or(0));
    match n {
        // Bytes 0..4 and n-4..n overlap where n < 8; the shared bytes are equal, so OR is
        // exact.
        4..=7 => u32_at(0) | (u32_at(n.saturating_sub(4)) << ((n % 4) * 8)),
        1..=3 => {
            byte_at(0)
                | (byte_at(n / 2) << ((n / 2) * 8))
                | (byte_at(n.saturating_sub(1)) << ((n.saturating_sub(1)) * 8))
        }
        _ => 0,
    }
}

/// A label of 1 to 24 bytes as three little-endian words, zero above its bytes. From eight
/// bytes on, the words come from the first eight bytes, the last eight (shifted down to
/// drop the bytes the other words hold) and, past 16, bytes 8..16: two or three loads and
/// one branch on the length, the same for every label of a length class.
#[inline(always)]
// Bounds: `n <= 24`, so the shifts `8 * (16 - n)` (8 ≤ n ≤ 16) and `8 * (24 - n)` (n > 16)
// are at most 64, and `n - 8` does not underflow where it is taken (n ≥ 8).
#[allow(clippy::arithmetic_side_effects)]
fn words_of(label: &[u8]) -> Key {
    let n = label.len();
    let word = |at: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(label.get(at..at.saturating_add(8)).unwrap_or(&[0; 8]));
        u64::from_le_bytes(b)
    };
    // `x >> s`, 0 for a shift of 64 (a word with no bytes left).
    let shr = |x: u64, s: usize| x.checked_shr(s as u32).unwrap_or(0);
    if n < 8 {
        [load_short(label), 0, 0]
    } else if n <= 16 {
        [word(0), shr(word(n - 8), 8 * (16 - n)), 0]
    } else {
        [word(0), word(8), shr(word(n - 8), 8 * (24 - n))]
    }
}

/// The hash slot of a key: the generator's `label_slot` (xtask/src/gen.rs), keep in sync.
#[inline(always)]
fn slot_of(key: &Key) -> usize {
    let h = (key[0] ^ LABEL_HASH_SEED).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ key[1].wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ key[2].wrapping_mul(0x1656_67B1_9E37_79F9);
    (h.wrapping_mul(0xFF51_AFD7_ED55_8CCD) >> 54) as usize
}

#[inline]
pub(crate) fn get_an_encoding(label: &[u8]) -> Option<Encoding> {
    // Step 1: remove any leading and trailing ASCII whitespace.
    let label = trim_ascii_whitespace(label);
    if label.is_empty() || label.len() > MAX_LABEL_LEN {
        return None;
    }
    // Step 2: ASCII case-insensitive match, on lowercased words.
    let [first, second, third] = words_of(label);
    let key: Key = [
        ascii_lowercase_word(first),
        ascii_lowercase_word(second),
        ascii_lowercase_word(third),
    ];
    let mut slot = slot_of(&key);
    for _ in 0..LABEL_MAX_PROBES {
        let entry = *LABEL_SLOTS.get(slot)?;
        // 0 marks an empty slot; others are 1 + an index into LABELS.
        let index = usize::from(entry).checked_sub(1)?;
        let (&(len, encoding), candidate_key) =
            (LABEL_ENCODINGS.get(index)?, LABEL_KEYS.get(index)?);
        // Word by word in registers: an array comparison was compiled to vector loads of
        // `key` from the stack right after its word stores, which stall (no store
        // forwarding from two stores to one load).
        let differ =
            (candidate_key[0] ^ key[0]) | (candidate_key[1] ^ key[1]) | (candidate_key[2] ^ key[2]);
        if differ == 0 && usize::from(len) == label.len() {
            return Some(encoding);
        }
        slot = slot.wrapping_add(1) & SLOT_MASK;
    }
    None
}

#[cfg(test)]
#[allow(clippy::indexing_slicing)]
mod tests {
    use super::*;
    use alloc::string::String;
    use alloc::vec::Vec;

    #[test]
    fn every_label_with_case_and_whitespace_variants() {
        assert_eq!(LABELS.len(), 228);
        for &(label, encoding) in LABELS.iter() {
            assert_eq!(get_an_encoding(label.as_bytes()), Some(encoding), "{label}");
            let upper = label.to_ascii_uppercase();
            assert_eq!(get_an_encoding(upper.as_bytes()), Some(encoding), "{upper}");
            let mixed: String = label
                .chars()
                .enumerate()
                .map(|(i, c)| {
                    if i % 2 == 0 {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    }
                })
                .collect();
            assert_eq!(get_an_encoding(mixed.as_bytes()), Some(encoding), "{mixed}");
            for ws in ["\t", "\n", "\x0C", "\r", " ", " \t\r\n\x0C "] {
                let padded = alloc::format!("{ws}{label}{ws}");
                assert_eq!(
                    get_an_encoding(padded.as_bytes()),
                    Some(encoding),
                    "{padded:?}"
                );
            }
        }
    }

    #[test]
    fn words_of_matches_zero_padded_words_for_every_length() {
        for n in 1..=24usize {
            for fill in [0x01u8, 0x80, 0xFF] {
                let bytes: Vec<u8> = (0..n).map(|i| fill.wrapping_add(i as u8 * 7)).collect();
                assert_eq!(words_of(&bytes), key_of_lowercase(&bytes), "{n} {fill:X}");
            }
        }
    }

    #[test]
    fn ascii_lowercase_word_matches_to_ascii_lowercase_for_every_byte() {
        for b in 0..=255u8 {
            for pos in 0..8 {
                let mut bytes = [b'A', 0xFF, b'z', b'@', b'[', 0x80, b'Z', 0xC1];
                bytes[pos] = b;
                let want = bytes.map(|x| x.to_ascii_lowercase());
                let got = ascii_lowercase_word(u64::from_le_bytes(bytes)).to_le_bytes();
                assert_eq!(got, want, "{bytes:?}");
            }
        }
    }

    #[test]
    fn load_short_reads_every_length_below_eight() {
        // Eight bytes and more are `words_of`'s whole-word loads (tested above).
        let bytes: [u8; 8] = [1, 2, 3, 4, 5, 6, 7, 8];
        for n in 0..8 {
            let mut want = [0u8; 8];
            want[..n].copy_from_slice(&bytes[..n]);
            assert_eq!(load_short(&bytes[..n]), u64::from_le_bytes(want), "{n}");
        }
    }

    #[test]
    fn non_labels_fail() {
        for bad in [
            "",
            " ",
            "utf-16x",
            "utf16",
            "utf-32",
            "utf-7",
            "utf 8",
            "u tf-8",
            "utf-8\u{0B}",
            "\u{0B}utf-8",
            "utf-8\u{A0}",
            "\u{A0}utf-8",
            "utf\u{0}8",
            "utf-8 utf-8",
            "x-user-defined2",
            "latin",
            "iso-8859-1x",
            "iso-8859-11 ",
            "shift_jis\u{212A}",
            "uTf-8\u{17F}",
            "iso-2022-jp-2",
            "gb2312 1",
            "csiso2022jp\0",
            "big5\t\t-hkscs",
            "utf-8\0",
            "\0utf-8",
            "koi8-r\0\0",
            "UTF-8\u{80}",
        ] {
            // "iso-8859-11 " trims to a real label: skip it in this list's expectation.
            let expected = match bad {
                "iso-8859-11 " => Some(Encoding::Windows874),
                _ => None,
            };
            assert_eq!(get_an_encoding(bad.as_bytes()), expected, "{bad:?}");
        }
        // Non-ASCII case folding must not apply: K (Kelvin sign) is not k.
        assert_eq!(get_an_encoding("\u{212A}oi8-r".as_bytes()), None);
        // A label longer than every real label.
        assert_eq!(get_an_encoding(&[b'a'; 200]), None);
    }
}
