//! CSS Syntax Module Level 3 §3.2 "The input byte stream": *determine the fallback
//! encoding* (steps 1–4) and *decode* with it, so a BOM wins over everything.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use crate::Encoding;

/// How many bytes `@charset` detection reads: the rule must lie within "the first 1024
/// bytes of the stream" (determine the fallback encoding, step 2).
pub const CSS_CHARSET_LIMIT: usize = 1024;

/// The `XX` bytes of step 2: 0x16–0x21 or 0x23–0x7F (any ASCII byte from 0x16 on but `"`).
fn is_label_byte(b: u8) -> bool {
    matches!(b, 0x16..=0x21 | 0x23..=0x7F)
}

/// *Determine the fallback encoding*, step 2: if the first 1024 bytes begin with
/// `40 63 68 61 72 73 65 74 20 22 XX* 22 3B` (`@charset "…";`, exactly: lowercase, one
/// space, double quotes), *get an encoding* from the `XX` bytes; UTF-16BE/LE becomes
/// UTF-8; failure is `None`.
///
/// ```
/// use textcodec::{sniff::css_charset, Encoding};
/// assert_eq!(css_charset(b"@charset \"windows-1251\"; body {}"), Some(Encoding::Windows1251));
/// assert_eq!(css_charset(b"@charset \"utf-16\";"), Some(Encoding::Utf8));
/// assert_eq!(css_charset(b"@charset 'gbk';"), None); // single quotes are not the pattern
/// assert_eq!(css_charset(b"@CHARSET \"gbk\";"), None);
/// ```
pub fn css_charset(bytes: &[u8]) -> Option<Encoding> {
    css_charset_label(bytes).and_then(|label| {
        let encoding = Encoding::for_label(label)?;
        Some(if encoding.is_utf16() {
            Encoding::Utf8
        } else {
            encoding
        })
    })
}

/// The `XX*` bytes of the `@charset "…";` pattern (see [`css_charset`]), if present.
///
/// ```
/// assert_eq!(textcodec::sniff::css_charset_label(b"@charset \"x\";"), Some(&b"x"[..]));
/// ```
pub fn css_charset_label(bytes: &[u8]) -> Option<&[u8]> {
    let bytes = bytes.get(..CSS_CHARSET_LIMIT).unwrap_or(bytes);
    let rest = bytes.strip_prefix(b"@charset \"")?;
    let length = rest.iter().position(|&b| !is_label_byte(b))?;
    let (label, after) = rest.split_at_checked(length)?;
    if after.starts_with(b"\";") {
        Some(label)
    } else {
        None
    }
}
