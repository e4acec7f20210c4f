//! MIME types and the `charset` parameter of a `Content-Type` header.
//!
//! * MIME Sniffing Standard §4.1 "MIME type representation" and §4.4 "Parsing a MIME type"
//!   (<https://mimesniff.spec.whatwg.org/#parse-a-mime-type>, *parse a MIME type from
//!   bytes*) and §4.5 "Serializing a MIME type".
//! * Fetch Standard: *collect an HTTP quoted string*, *get, decode, and split* and
//!   *extract a MIME type* (<https://fetch.spec.whatwg.org/#concept-header-extract-mime-type>),
//!   and *legacy extract an encoding* (<https://fetch.spec.whatwg.org/#legacy-extract-an-encoding>).
//!
//! Bytes are *isomorphic decoded*: byte `b` becomes the code point `U+00bb`, so nothing
//! here can fail on arbitrary input.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::Encoding;

/// *HTTP whitespace*: U+000A LF, U+000D CR, U+0009 TAB, U+0020 SPACE (Fetch).
fn is_http_whitespace(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\t' | ' ')
}

/// *HTTP tab or space* (Fetch).
fn is_http_tab_or_space(c: char) -> bool {
    matches!(c, '\t' | ' ')
}

/// *HTTP token code points* (MIME Sniffing §2): `!#$%&'*+-.^_`|~` and ASCII alphanumerics.
fn is_http_token(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(
            c,
            '!' | '#'
                | '$'
                | '%'
                | '&'
                | '\''
                | '*'
                | '+'
                | '-'
                | '.'
                | '^'
                | '_'
                | '`'
                | '|'
                | '~'
        )
}

/// *HTTP quoted-string token code points* (MIME Sniffing §2): TAB, U+0020–U+007E and
/// U+0080–U+00FF.
fn is_http_quoted_string_token(c: char) -> bool {
    matches!(c, '\t' | ' '..='~' | '\u{80}'..='\u{FF}')
}

/// *Isomorphic decode* (Infra): each byte becomes the code point of the same value.
fn isomorphic_decode(bytes: &[u8]) -> Vec<char> {
    bytes.iter().map(|&b| char::from(b)).collect()
}

/// Moves `position` on by `n` code points. Positions never pass `input.len()` (every
/// advance is over code points that are there), so this never saturates.
#[inline]
fn advance(position: &mut usize, n: usize) {
    *position = position.saturating_add(n);
}

/// Infra, *collect a sequence of code points* that satisfy `pred`, from `position` on.
fn collect<'s>(input: &'s [char], position: &mut usize, pred: impl Fn(char) -> bool) -> &'s [char] {
    // Past the end there is nothing to collect.
    let rest = input.get(*position..).unwrap_or_default();
    // The part before the first code point that fails `pred` (`split` always yields one).
    let collected = rest.split(|&c| !pred(c)).next().unwrap_or_default();
    advance(position, collected.len());
    collected
}

fn trim_end(mut s: &[char], pred: impl Fn(char) -> bool) -> &[char] {
    while let [rest @ .., last] = s {
        if !pred(*last) {
            break;
        }
        s = rest;
    }
    s
}

fn trim_start(mut s: &[char], pred: impl Fn(char) -> bool) -> &[char] {
    while let [first, rest @ ..] = s {
        if !pred(*first) {
            break;
        }
        s = rest;
    }
    s
}

/// Fetch, *collect an HTTP quoted string* with the *extract-value* flag as given. `position`
/// points at a U+0022 (").
fn collect_http_quoted_string(input: &[char], position: &mut usize, extract_value: bool) -> String {
    // 1. Let positionStart be position.
    let position_start = *position;
    // 2. Let value be the empty string.
    let mut value = String::new();
    // 3. Assert: the code point at position is U+0022 ("). 4. Advance position by 1.
    advance(position, 1);
    // 5. While true:
    loop {
        // 5.1 Append code points that are not " or \.
        value.extend(collect(input, position, |c| c != '"' && c != '\\'));
        // 5.2 If position is past the end of input, then break.
        let Some(&quote_or_backslash) = input.get(*position) else {
            break;
        };
        // 5.3–5.4
        advance(position, 1);
        if quote_or_backslash == '\\' {
            // 5.5.1 If position is past the end of input, append U+005C (\) and break.
            let Some(&escaped) = input.get(*position) else {
                value.push('\\');
                break;
            };
            // 5.5.2–5.5.3
            value.push(escaped);
            advance(position, 1);
        } else {
            // 5.6 It is U+0022 ("): break.
            break;
        }
    }
    if extract_value {
        // 6. Return value.
        value
    } else {
        // 7. The code points from positionStart to position (the closing quote included,
        // which position has already passed). positionStart is the opening quote's
        // position, so the range is always within `input`.
        input
            .get(position_start..(*position).min(input.len()))
            .unwrap_or_default()
            .iter()
            .collect()
    }
}

/// A MIME type record (MIME Sniffing §4.1): lowercase `type` and `subtype`, and ordered
/// parameters with lowercase names and case-preserved values. Values are strings of code
/// points U+0000–U+00FF (the header bytes, isomorphic decoded).
///
/// ```
/// use textcodec::sniff::MimeType;
/// let mime = MimeType::parse(b"Text/HTML; Charset=\"Shift_JIS\"; charset=utf-8").unwrap();
/// assert_eq!(mime.essence(), "text/html");
/// assert_eq!(mime.parameter("charset"), Some("Shift_JIS")); // the first one wins
/// assert_eq!(mime.to_string(), "text/html;charset=Shift_JIS");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MimeType {
    type_: String,
    subtype: String,
    parameters: Vec<(String, String)>,
}

impl MimeType {
    /// MIME Sniffing §4.4 *parse a MIME type from bytes*: isomorphic decode, then *parse a
    /// MIME type* (steps 1–12). `None` is the Standard's failure.
    ///
    /// ```
    /// use textcodec::sniff::MimeType;
    /// assert!(MimeType::parse(b"text/html;").is_some());
    /// assert!(MimeType::parse(b"text /html").is_none()); // not a token
    /// assert!(MimeType::parse(b"text").is_none());
    /// ```
    pub fn parse(input: &[u8]) -> Option<MimeType> {
        Self::parse_code_points(&isomorphic_decode(input))
    }

    fn parse_code_points(input: &[char]) -> Option<MimeType> {
        // 1. Remove leading and trailing HTTP whitespace.
        let input = trim_end(trim_start(input, is_http_whitespace), is_http_whitespace);
        // 2. Let position be a position variable for input.
        let mut position = 0;
        // 3. Collect a sequence of code points that are not U+002F (/).
        let type_ = collect(input, &mut position, |c| c != '/');
        // 4. Empty or not solely HTTP token code points: failure.
        if type_.is_empty() || !type_.iter().all(|&c| is_http_token(c)) {
            return None;
        }
        // 5. If position is past the end of input, then return failure.
        if position >= input.len() {
            return None;
        }
        // 6. Advance position by 1 (past "/").
        advance(&mut position, 1);
        // 7. Collect code points that are not U+003B (;).
        let subtype = collect(input, &mut position, |c| c != ';');
        // 8. Remove any trailing HTTP whitespace from subtype.
        let subtype = trim_end(subtype, is_http_whitespace);
        // 9. Empty or not solely HTTP token code points: failure.
        if subtype.is_empty() || !subtype.iter().all(|&c| is_http_token(c)) {
            return None;
        }
        // 10. type and subtype in ASCII lowercase.
        let mut mime = MimeType {
            type_: type_.iter().map(char::to_ascii_lowercase).collect(),
            subtype: subtype.iter().map(char::to_ascii_lowercase).collect(),
            parameters: Vec::new(),
        };
        // 11. While position is not past the end of input:
        while position < input.len() {
            // 11.1 Advance position by 1 (past ";").
            advance(&mut position, 1);
            // 11.2 Collect HTTP whitespace.
            collect(input, &mut position, is_http_whitespace);
            // 11.3–11.4 parameterName: not ";" or "=", ASCII lowercased.
            let name: String = collect(input, &mut position, |c| c != ';' && c != '=')
                .iter()
                .map(char::to_ascii_lowercase)
                .collect();
            // 11.5 If position is not past the end of input:
            match input.get(position) {
                // 11.5.1 If the code point at position is ";", continue.
                Some(';') => continue,
                // 11.5.2 Advance position by 1 (past "=").
                Some(_) => advance(&mut position, 1),
                None => {}
            }
            // 11.6 If position is past the end of input, then break.
            let Some(&first) = input.get(position) else {
                break;
            };
            // 11.7–11.9
            let value: String = if first == '"' {
                // 11.8.1 Collect an HTTP quoted string with extract-value true.
                let value = collect_http_quoted_string(input, &mut position, true);
                // 11.8.2 Collect code points that are not ";".
                collect(input, &mut position, |c| c != ';');
                value
            } else {
                // 11.9.1–11.9.2
                let value = collect(input, &mut position, |c| c != ';');
                let value = trim_end(value, is_http_whitespace);
                // 11.9.3 If parameterValue is the empty string, then continue.
                if value.is_empty() {
                    continue;
                }
                value.iter().collect()
            };
            // 11.10 Name non-empty, token; value quoted-string tokens; name not yet present
            // (so the first of duplicate parameters wins).
            if !name.is_empty()
                && name.chars().all(is_http_token)
                && value.chars().all(is_http_quoted_string_token)
                && mime.parameter(&name).is_none()
            {
                mime.parameters.push((name, value));
            }
        }
        // 12. Return mimeType.
        Some(mime)
    }

    /// Fetch *extract a MIME type* over one header value that may hold several
    /// comma-separated MIME types (as when a `Content-Type` header is repeated and the
    /// values are combined): *get, decode, and split* the value, parse each part, skip
    /// failures and `*/*`, keep the last, and carry a `charset` over from an earlier part
    /// with the same essence when the last part has none.
    ///
    /// ```
    /// use textcodec::sniff::MimeType;
    /// let mime = MimeType::extract(b"text/html;charset=gbk, text/html").unwrap();
    /// assert_eq!(mime.parameter("charset"), Some("gbk"));
    /// let mime = MimeType::extract(b"text/html;charset=gbk, text/plain").unwrap();
    /// assert_eq!(mime.parameter("charset"), None);
    /// assert_eq!(MimeType::extract(b"text/html, */*").unwrap().essence(), "text/html");
    /// ```
    pub fn extract(header_value: &[u8]) -> Option<MimeType> {
        // 1–3. charset, essence and mimeType are null.
        let mut charset: Option<String> = None;
        let mut essence: Option<String> = None;
        let mut mime_type: Option<MimeType> = None;
        // 4. values: get, decode, and split.
        let input = isomorphic_decode(header_value);
        // 6. For each value of values:
        for value in get_decode_split(&input) {
            // 6.1–6.2 Parse; skip failure and "*/*".
            let Some(mut temporary) = Self::parse_code_points(&value) else {
                continue;
            };
            if temporary.essence() == "*/*" {
                continue;
            }
            let temporary_essence = temporary.essence();
            if essence.as_deref() != Some(temporary_essence.as_str()) {
                // 6.4.1–6.4.3
                charset = temporary.parameter("charset").map(String::from);
                essence = Some(temporary_essence);
            } else if temporary.parameter("charset").is_none() {
                // 6.5 Same essence, no charset: carry the earlier one over.
                if let Some(charset) = &charset {
                    temporary
                        .parameters
                        .push((String::from("charset"), charset.clone()));
                }
            }
            // 6.3 Set mimeType to temporaryMimeType.
            mime_type = Some(temporary);
        }
        // 7–8.
        mime_type
    }

    /// The type, ASCII lowercase (e.g. `"text"`).
    pub fn type_(&self) -> &str {
        &self.type_
    }

    /// The subtype, ASCII lowercase (e.g. `"html"`).
    pub fn subtype(&self) -> &str {
        &self.subtype
    }

    /// The *essence*: `type/subtype`.
    pub fn essence(&self) -> String {
        [self.type_.as_str(), "/", self.subtype.as_str()].concat()
    }

    /// The parameters in order, names lowercase.
    pub fn parameters(&self) -> &[(String, String)] {
        &self.parameters
    }

    /// The value of the parameter `name` (give it in lowercase).
    pub fn parameter(&self, name: &str) -> Option<&str> {
        self.parameters
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Fetch *legacy extract an encoding* without a fallback: *get an encoding* from the
    /// `charset` parameter.
    pub fn charset(&self) -> Option<Encoding> {
        self.parameter("charset")
            .and_then(|label| Encoding::for_label(label.as_bytes()))
    }
}

/// Fetch *get, decode, and split* over an already isomorphic-decoded value: split on
/// commas outside quoted strings, strip HTTP tabs and spaces from each part.
fn get_decode_split(input: &[char]) -> Vec<Vec<char>> {
    let mut position = 0;
    let mut values = Vec::new();
    let mut temporary: Vec<char> = Vec::new();
    loop {
        // 5.1 Collect code points that are not " or ,.
        temporary.extend_from_slice(collect(input, &mut position, |c| c != '"' && c != ','));
        // 5.2 A quoted string is appended verbatim (extract-value false).
        if input.get(position) == Some(&'"') {
            temporary.extend(collect_http_quoted_string(input, &mut position, false).chars());
            if position < input.len() {
                continue;
            }
        }
        // 5.3–5.5
        let trimmed = trim_end(
            trim_start(&temporary, is_http_tab_or_space),
            is_http_tab_or_space,
        );
        values.push(trimmed.to_vec());
        temporary.clear();
        // 5.6 If position is past the end of input, then return values.
        if position >= input.len() {
            return values;
        }
        // 5.7–5.8 Skip the ",".
        advance(&mut position, 1);
    }
}

/// MIME Sniffing §4.5 *serialize a MIME type*: `type/subtype`, then `;name=value` for each
/// parameter, quoting (and escaping `"` and `\` in) values that are empty or not solely
/// HTTP token code points.
impl fmt::Display for MimeType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.type_, self.subtype)?;
        for (name, value) in &self.parameters {
            write!(f, ";{name}=")?;
            if !value.is_empty() && value.chars().all(is_http_token) {
                f.write_str(value)?;
            } else {
                f.write_str("\"")?;
                for c in value.chars() {
                    if c == '"' || c == '\\' {
                        f.write_str("\\")?;
                    }
                    write!(f, "{c}")?;
                }
                f.write_str("\"")?;
            }
        }
        Ok(())
    }
}

/// The encoding a `Content-Type` header value names: Fetch *extract a MIME type* (which is
/// MIME Sniffing's *parse a MIME type* for a single value), then *get an encoding* from its
/// `charset` parameter (*legacy extract an encoding*). `None` if the value does not parse,
/// has no `charset`, or the label is unknown.
///
/// ```
/// use textcodec::{sniff::charset_from_content_type, Encoding};
/// assert_eq!(charset_from_content_type(b"text/html; charset=\"EUC-JP\""), Some(Encoding::EucJp));
/// assert_eq!(charset_from_content_type(b"text/html; charset=utf-8; charset=gbk"), Some(Encoding::Utf8));
/// assert_eq!(charset_from_content_type(b"text/html; charset=\"utf-8"), Some(Encoding::Utf8));
/// assert_eq!(charset_from_content_type(b"charset=utf-8"), None); // no type/subtype
/// assert_eq!(charset_from_content_type(b"text/html; charset=klingon"), None);
/// ```
pub fn charset_from_content_type(content_type: &[u8]) -> Option<Encoding> {
    MimeType::extract(content_type)?.charset()
}
