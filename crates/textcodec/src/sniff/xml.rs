//! XML 1.0 (Fifth Edition) §4.3.3 "Character Encoding in Entities" (the *EncodingDecl*
//! production) and Appendix F "Autodetection of Character Encodings (Non-Normative)",
//! reconciled with the Encoding Standard: a BOM is sniffed by *decode* and wins over
//! everything, only the Standard's encodings exist (no UCS-4, no EBCDIC), and "an XML
//! processor would set error mode to fatal" (#encoders-and-decoders, note).
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use crate::Encoding;

/// How many bytes the XML sniffer reads: the XML declaration must end (`?>`) within the
/// first 1024 bytes. XML itself sets no limit (the *S* production is unbounded); 1024
/// matches the HTML and CSS limits and is far more than a real declaration needs.
pub const XML_DECLARATION_LIMIT: usize = 1024;

/// XML 1.0 production \[3\] *S*: `#x20 | #x9 | #xD | #xA`.
fn is_s(b: u8) -> bool {
    matches!(b, 0x20 | 0x09 | 0x0D | 0x0A)
}

/// A cursor over the declaration bytes; running off the end is a mismatch.
struct Cursor<'a> {
    bytes: &'a [u8],
    position: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.position).copied()
    }

    fn literal(&mut self, s: &[u8]) -> Option<()> {
        if self.bytes.get(self.position..)?.starts_with(s) {
            // Within `bytes` (the literal matched there): no overflow.
            self.position = self.position.saturating_add(s.len());
            Some(())
        } else {
            None
        }
    }

    /// `S?`; returns whether at least one byte matched (so `S` is `s()?.then_some(())`).
    fn s(&mut self) -> bool {
        let start = self.position;
        while self.peek().is_some_and(is_s) {
            self.position = self.position.saturating_add(1);
        }
        self.position > start
    }

    /// \[25\] *Eq* ::= `S? '=' S?`
    fn eq(&mut self) -> Option<()> {
        self.s();
        self.literal(b"=")?;
        self.s();
        Some(())
    }

    /// A quoted value whose bytes satisfy `valid` (given the value so far and the index):
    /// returns its range.
    fn quoted(&mut self, valid: impl Fn(&[u8]) -> bool) -> Option<(usize, usize)> {
        let quote = self.peek()?;
        if quote != b'"' && quote != b'\'' {
            return None;
        }
        // All positions stay within `bytes` (the quotes were found there).
        let start = self.position.saturating_add(1);
        let value = self.bytes.get(start..)?;
        let length = value.iter().position(|&b| b == quote)?;
        let (value, _) = value.split_at_checked(length)?;
        if !valid(value) {
            return None;
        }
        let end = start.saturating_add(length);
        self.position = end.saturating_add(1);
        Some((start, end))
    }
}

/// \[26\] *VersionNum* ::= `'1.' [0-9]+`
fn is_version_num(v: &[u8]) -> bool {
    v.strip_prefix(b"1.")
        .is_some_and(|digits| !digits.is_empty() && digits.iter().all(u8::is_ascii_digit))
}

/// \[81\] *EncName* ::= `[A-Za-z] ([A-Za-z0-9._] | '-')*`
fn is_enc_name(v: &[u8]) -> bool {
    match v.split_first() {
        Some((first, rest)) => {
            first.is_ascii_alphabetic()
                && rest
                    .iter()
                    .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
        }
        None => false,
    }
}

/// The encoding name (*EncName*) of the XML declaration at the very start of `bytes`, if
/// the declaration is well-formed in an ASCII-compatible encoding:
///
/// ```text
/// [23] XMLDecl      ::= '<?xml' VersionInfo EncodingDecl? SDDecl? S? '?>'
/// [24] VersionInfo  ::= S 'version' Eq ("'" VersionNum "'" | '"' VersionNum '"')
/// [80] EncodingDecl ::= S 'encoding' Eq ('"' EncName '"' | "'" EncName "'" )
/// [32] SDDecl       ::= S 'standalone' Eq (("'" ('yes' | 'no') "'") | ('"' ('yes' | 'no') '"'))
/// ```
///
/// The whole declaration, through `?>`, must lie within the first
/// [`XML_DECLARATION_LIMIT`] bytes. A malformed declaration yields `None` (an XML processor
/// reports it as a well-formedness error).
///
/// ```
/// use textcodec::sniff::xml_declaration_label;
/// assert_eq!(xml_declaration_label(b"<?xml version=\"1.0\" encoding=\"EUC-JP\"?><a/>"), Some(&b"EUC-JP"[..]));
/// assert_eq!(xml_declaration_label(b"<?xml version='1.0' standalone='yes'?>"), None);
/// assert_eq!(xml_declaration_label(b"<?xml encoding='EUC-JP'?>"), None); // version is required
/// ```
pub fn xml_declaration_label(bytes: &[u8]) -> Option<&[u8]> {
    let bytes = bytes.get(..XML_DECLARATION_LIMIT).unwrap_or(bytes);
    let mut c = Cursor { bytes, position: 0 };
    // '<?xml' VersionInfo
    c.literal(b"<?xml")?;
    c.s().then_some(())?;
    c.literal(b"version")?;
    c.eq()?;
    c.quoted(is_version_num)?;
    // EncodingDecl?
    let mut encoding = None;
    let mut had_s = c.s();
    if had_s && c.literal(b"encoding").is_some() {
        c.eq()?;
        encoding = Some(c.quoted(is_enc_name)?);
        had_s = c.s();
    }
    // SDDecl?
    if had_s && c.literal(b"standalone").is_some() {
        c.eq()?;
        c.quoted(|v| v == b"yes" || v == b"no")?;
        c.s();
    }
    // S? '?>'
    c.literal(b"?>")?;
    encoding.and_then(|(start, end)| bytes.get(start..end))
}

/// The encoding an XML declaration at the start of `bytes` names (see
/// [`xml_declaration_label`]), by *get an encoding*. A declared UTF-16 (`"UTF-16"`,
/// `"utf-16le"`, …) in a declaration that was just read as ASCII cannot be right and
/// becomes UTF-8, as in the HTML Standard's *get an XML encoding*. An unknown label gives
/// `None`.
///
/// ```
/// use textcodec::{sniff::xml_declared_encoding, Encoding};
/// assert_eq!(xml_declared_encoding(b"<?xml version='1.0' encoding='Shift_JIS'?>"), Some(Encoding::ShiftJis));
/// assert_eq!(xml_declared_encoding(b"<?xml version='1.0' encoding='UTF-16'?>"), Some(Encoding::Utf8));
/// assert_eq!(xml_declared_encoding(b"<?xml version='1.0' encoding='x-klingon'?>"), None);
/// ```
pub fn xml_declared_encoding(bytes: &[u8]) -> Option<Encoding> {
    let encoding = Encoding::for_label(xml_declaration_label(bytes)?)?;
    Some(if encoding.is_utf16() {
        Encoding::Utf8
    } else {
        encoding
    })
}

/// XML 1.0 Appendix F.1, "Detection Without External Encoding Information", without a
/// byte order mark: `00 3C 00 3F` is UTF-16BE and `3C 00 3F 00` UTF-16LE (`<?` in UTF-16).
/// The UCS-4 and EBCDIC rows of the table name encodings the Encoding Standard does not
/// have and give `None`, as does everything else.
///
/// ```
/// use textcodec::{sniff::xml_utf16_without_bom, Encoding};
/// assert_eq!(xml_utf16_without_bom(b"<\0?\0x\0m\0l\0"), Some(Encoding::Utf16Le));
/// assert_eq!(xml_utf16_without_bom(b"<?xml"), None);
/// ```
pub fn xml_utf16_without_bom(bytes: &[u8]) -> Option<Encoding> {
    if bytes.starts_with(b"\x00\x3C\x00\x3F") {
        Some(Encoding::Utf16Be)
    } else if bytes.starts_with(b"\x3C\x00\x3F\x00") {
        Some(Encoding::Utf16Le)
    } else {
        None
    }
}
