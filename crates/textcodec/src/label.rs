//! <https://encoding.spec.whatwg.org/#concept-encoding-get>
//!
//! *get an encoding*: trim ASCII whitespace, compare ASCII case-insensitively against the
//! 228 labels. The lookup lowercases into a stack buffer while hashing and then probes a
//! generated open-addressing table, so it never allocates and compares against at most
//! `LABEL_MAX_PROBES` candidates.
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

pub(crate) fn get_an_encoding(label: &[u8]) -> Option<Encoding> {
    // Step 1: remove any leading and trailing ASCII whitespace.
    let label = trim_ascii_whitespace(label);
    if label.is_empty() || label.len() > MAX_LABEL_LEN {
        return None;
    }
    // Step 2: ASCII case-insensitive match. Lowercase and hash in one pass (the hash must
    // match the generator's `label_hash`).
    let mut lower = [0u8; MAX_LABEL_LEN];
    let mut h = LABEL_HASH_SEED;
    for (dst, &b) in lower.iter_mut().zip(label) {
        let b = b.to_ascii_lowercase();
        *dst = b;
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    h ^= h >> 15;
    let lower = lower.get(..label.len())?;
    let mut slot = (h as usize).checked_rem(LABEL_SLOTS.len())?;
    for _ in 0..LABEL_MAX_PROBES {
        let entry = *LABEL_SLOTS.get(slot)?;
        // 0 marks an empty slot; others are 1 + an index into LABELS.
        let &(candidate, encoding) = LABELS.get(usize::from(entry).checked_sub(1)?)?;
        if candidate.as_bytes() == lower {
            return Some(encoding);
        }
        slot = slot.wrapping_add(1).checked_rem(LABEL_SLOTS.len())?;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::String;

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
