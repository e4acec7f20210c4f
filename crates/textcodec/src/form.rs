//! <https://url.spec.whatwg.org/#application/x-www-form-urlencoded> and
//! <https://url.spec.whatwg.org/#percent-encoded-bytes>: percent-encoding after a legacy
//! encoding, the `application/x-www-form-urlencoded` serializer and parser, with any
//! encoding — what an HTML form in a Shift_JIS page submits, and what a server receiving it
//! needs.
//!
//! The Encoding Standard provides the hooks the URL Standard calls: *get an encoder*
//! (#get-an-encoder) and *encode or fail* (#encode-or-fail). An unencodable character
//! becomes `%26%23` + its decimal code point + `%3B` (`&#NNNN;` percent-encoded), which is
//! what the html error mode writes, percent-encoded — so, as the Encoding Standard warns
//! (#security-background), a server cannot tell "💩" typed into a windows-1252 form from
//! "&#128169;".
//!
//! ```
//! use textcodec::{form, Encoding};
//!
//! // A form in a Shift_JIS page submits its entries like this:
//! let body = form::serialize([("name", "山田 太郎"), ("q", "☃ & ≡")], Encoding::ShiftJis);
//! assert_eq!(body, "name=%8ER%93c+%91%BE%98Y&q=%26%239731%3B+%26+%81%DF");
//! // and a server decodes it with the same encoding:
//! let entries = form::parse_with_encoding(body.as_bytes(), Encoding::ShiftJis);
//! assert_eq!(entries[0], ("name".to_string(), "山田 太郎".to_string()));
//! assert_eq!(entries[1].1, "&#9731; & ≡");
//! ```
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use crate::{EncodeErrorMode, EncodeStatus, Encoder, Encoding};

/// A *percent-encode set* (URL Standard, #percent-encoded-bytes): the ASCII code points it
/// holds; every non-ASCII code point is in every set (the Standard asserts it).
///
/// ```
/// use textcodec::form::PercentEncodeSet;
/// assert!(PercentEncodeSet::QUERY.contains(b'#'));
/// assert!(!PercentEncodeSet::FRAGMENT.contains(b'#'));
/// // A set of your own, built from one of the Standard's.
/// const MINE: PercentEncodeSet = PercentEncodeSet::C0_CONTROL.add(b' ').add(b'%');
/// assert!(MINE.contains(b'%') && MINE.contains(0x80));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct PercentEncodeSet {
    /// Bit `b` set: ASCII byte `b` is in the set.
    ascii: u128,
}

impl PercentEncodeSet {
    /// <https://url.spec.whatwg.org/#c0-control-percent-encode-set>: the C0 controls and
    /// every code point above U+007E (~).
    pub const C0_CONTROL: PercentEncodeSet = PercentEncodeSet {
        ascii: 0xFFFF_FFFF | (1 << 0x7F),
    };
    /// <https://url.spec.whatwg.org/#fragment-percent-encode-set>: C0 control and space,
    /// `"`, `<`, `>`, `` ` ``.
    pub const FRAGMENT: PercentEncodeSet = Self::C0_CONTROL.add_all(b" \"<>`");
    /// <https://url.spec.whatwg.org/#query-percent-encode-set>: C0 control and space, `"`,
    /// `#`, `<`, `>`.
    pub const QUERY: PercentEncodeSet = Self::C0_CONTROL.add_all(b" \"#<>");
    /// <https://url.spec.whatwg.org/#special-query-percent-encode-set>: query and `'`.
    pub const SPECIAL_QUERY: PercentEncodeSet = Self::QUERY.add(b'\'');
    /// <https://url.spec.whatwg.org/#path-percent-encode-set>: query and `?`, `^`, `` ` ``,
    /// `{`, `}`.
    pub const PATH: PercentEncodeSet = Self::QUERY.add_all(b"?^`{}");
    /// <https://url.spec.whatwg.org/#userinfo-percent-encode-set>: path and `/`, `:`, `;`,
    /// `=`, `@`, `[` to `]`, `|`.
    pub const USERINFO: PercentEncodeSet = Self::PATH.add_all(b"/:;=@[\\]|");
    /// <https://url.spec.whatwg.org/#component-percent-encode-set>: userinfo and `$` to
    /// `&`, `+`, `,` (what JavaScript's `encodeURIComponent` leaves is its complement).
    pub const COMPONENT: PercentEncodeSet = Self::USERINFO.add_all(b"$%&+,");
    /// <https://url.spec.whatwg.org/#application-x-www-form-urlencoded-percent-encode-set>:
    /// component and `!`, `'` to `)`, `~` — everything but ASCII alphanumerics, `*`, `-`,
    /// `.` and `_`.
    pub const FORM_URLENCODED: PercentEncodeSet = Self::COMPONENT.add_all(b"!'()~");

    /// This set and the ASCII byte `byte` (a non-ASCII byte is in every set already).
    pub const fn add(self, byte: u8) -> PercentEncodeSet {
        if byte < 0x80 {
            PercentEncodeSet {
                ascii: self.ascii | (1u128 << byte),
            }
        } else {
            self
        }
    }

    const fn add_all(self, bytes: &[u8]) -> PercentEncodeSet {
        let mut set = self;
        let mut rest = bytes;
        while let [b, tail @ ..] = rest {
            set = set.add(*b);
            rest = tail;
        }
        set
    }

    /// This set without the ASCII byte `byte`.
    pub const fn remove(self, byte: u8) -> PercentEncodeSet {
        if byte < 0x80 {
            PercentEncodeSet {
                ascii: self.ascii & !(1u128 << byte),
            }
        } else {
            self
        }
    }

    /// Whether the code point whose value is `byte` (its *isomorph*) is in the set.
    pub const fn contains(&self, byte: u8) -> bool {
        byte >= 0x80 || self.ascii & (1u128 << byte) != 0
    }
}

const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `byte` percent-encoded (#percent-encode: `%` and two ASCII upper hex digits).
fn push_percent_encoded(output: &mut String, byte: u8) {
    output.push('%');
    for nibble in [byte >> 4, byte & 0x0F] {
        let digit = HEX_UPPER.get(usize::from(nibble)).copied().unwrap_or(b'0');
        output.push(char::from(digit));
    }
}

/// <https://url.spec.whatwg.org/#string-percent-encode-after-encoding>: encode `input` with
/// `encoding`'s encoder, percent-encode the bytes in `set` (space as `+` with
/// `space_as_plus`), and write each unencodable character as `%26%23` + its code point in
/// decimal + `%3B`.
///
/// `encoding` should be an output encoding (*get an encoder* asserts it is not
/// replacement or UTF-16BE/LE); others are mapped with [`Encoding::output_encoding`], as
/// the form serializer does.
///
/// ```
/// use textcodec::{form::{percent_encode_after_encoding, PercentEncodeSet}, Encoding};
/// let set = PercentEncodeSet::SPECIAL_QUERY;
/// assert_eq!(percent_encode_after_encoding(Encoding::ShiftJis, "≡‽", &set, false), "%81%DF%26%238253%3B");
/// ```
pub fn percent_encode_after_encoding(
    encoding: Encoding,
    input: &str,
    set: &PercentEncodeSet,
    space_as_plus: bool,
) -> String {
    let mut output = String::with_capacity(input.len());
    percent_encode_after_encoding_into(encoding, input, set, space_as_plus, &mut output);
    output
}

/// [`percent_encode_after_encoding`], appending to `output`.
pub fn percent_encode_after_encoding_into(
    encoding: Encoding,
    input: &str,
    set: &PercentEncodeSet,
    space_as_plus: bool,
    output: &mut String,
) {
    // Step 1: get an encoder (fatal: this is *encode or fail*'s encoder).
    let Some(mut encoder) = Encoder::new(encoding.output_encoding(), EncodeErrorMode::Fatal) else {
        return;
    };
    // Steps 2–5. The Standard runs *encode or fail* into a fresh queue until it reports no
    // error; here the encoder writes into a small buffer whose bytes are percent-encoded as
    // they come (the same bytes in the same order).
    let mut rest = input;
    let mut buf = [0u8; 256];
    loop {
        let r = encoder.encode_from_utf8(rest, &mut buf, true);
        rest = rest.get(r.read..).unwrap_or_default();
        // Step 5.3: each byte of the encoder's output.
        for &byte in buf.get(..r.written).unwrap_or_default() {
            if space_as_plus && byte == b' ' {
                output.push('+');
            } else if set.contains(byte) {
                push_percent_encoded(output, byte);
            } else {
                output.push(char::from(byte));
            }
        }
        match r.status {
            // Step 5.4: the error's code point, as a percent-encoded `&#N;`.
            EncodeStatus::Unmappable(u) => {
                output.push_str("%26%23");
                push_decimal(output, u32::from(u.code_point()));
                output.push_str("%3B");
            }
            EncodeStatus::OutputFull => {}
            EncodeStatus::InputEmpty => return,
        }
    }
}

fn push_decimal(output: &mut String, mut value: u32) {
    let mut digits = [0u8; 10];
    let mut start = digits.len();
    loop {
        start = start.saturating_sub(1);
        if let Some(d) = digits.get_mut(start) {
            *d = b'0'.saturating_add((value % 10) as u8);
        }
        value /= 10;
        if value == 0 {
            break;
        }
    }
    for &d in digits.get(start..).unwrap_or_default() {
        output.push(char::from(d));
    }
}

/// <https://url.spec.whatwg.org/#string-utf-8-percent-encode>: percent-encode after
/// encoding with UTF-8 (no character is unencodable).
///
/// ```
/// use textcodec::form::{utf8_percent_encode, PercentEncodeSet};
/// assert_eq!(utf8_percent_encode("Say what‽", &PercentEncodeSet::USERINFO), "Say%20what%E2%80%BD");
/// ```
pub fn utf8_percent_encode(input: &str, set: &PercentEncodeSet) -> String {
    percent_encode_after_encoding(Encoding::Utf8, input, set, false)
}

/// <https://url.spec.whatwg.org/#percent-decode>: `%` followed by two ASCII hex digits
/// becomes that byte; anything else is kept. Borrows when there is nothing to decode.
///
/// ```
/// use textcodec::form::percent_decode;
/// assert_eq!(&*percent_decode(b"%25%s%1G"), b"%%s%1G");
/// ```
pub fn percent_decode(input: &[u8]) -> Cow<'_, [u8]> {
    if !input.contains(&b'%') {
        return Cow::Borrowed(input);
    }
    let mut output = Vec::with_capacity(input.len());
    let mut i = 0usize;
    while let Some(&byte) = input.get(i) {
        i = i.saturating_add(1);
        // Step 2.2: a `%` not followed by two hex digits is kept as it is.
        let pair = input.get(i..i.saturating_add(2));
        let decoded = match pair {
            Some(&[h, l]) if byte == b'%' => hex_value(h).zip(hex_value(l)),
            _ => None,
        };
        match decoded {
            // Step 2.3: the byte, and skip the two digits.
            Some((h, l)) => {
                output.push((h << 4) | l);
                i = i.saturating_add(2);
            }
            None => output.push(byte),
        }
    }
    Cow::Owned(output)
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b.wrapping_sub(b'0')),
        b'A'..=b'F' => Some(b.wrapping_sub(b'A').wrapping_add(10)),
        b'a'..=b'f' => Some(b.wrapping_sub(b'a').wrapping_add(10)),
        _ => None,
    }
}

/// <https://url.spec.whatwg.org/#concept-urlencoded-serializer>: the
/// `application/x-www-form-urlencoded` serializer with an encoding — `name=value` pairs
/// joined by `&`, each percent-encoded after encoding with the form-urlencoded set and
/// space as `+`. `encoding` goes through *get an output encoding* first (step 1), so
/// UTF-16 and replacement pages submit UTF-8.
///
/// (HTML's form submission builds the entry list first: newline normalisation, `_charset_`
/// values and file names are its business, not this function's.)
///
/// ```
/// use textcodec::{form::serialize, Encoding};
/// assert_eq!(serialize([("a b", "c+d"), ("", "")], Encoding::Utf8), "a+b=c%2Bd&=");
/// assert_eq!(serialize([("q", "日本")], Encoding::EucJp), "q=%C6%FC%CB%DC");
/// ```
pub fn serialize<I, N, V>(tuples: I, encoding: Encoding) -> String
where
    I: IntoIterator<Item = (N, V)>,
    N: AsRef<str>,
    V: AsRef<str>,
{
    // Step 1: get an output encoding.
    let encoding = encoding.output_encoding();
    let set = PercentEncodeSet::FORM_URLENCODED;
    // Step 2.
    let mut output = String::new();
    // Step 3.
    for (name, value) in tuples {
        // Step 3.4: `&` between tuples.
        if !output.is_empty() {
            output.push('&');
        }
        // Steps 3.2, 3.3 and 3.5.
        percent_encode_after_encoding_into(encoding, name.as_ref(), &set, true, &mut output);
        output.push('=');
        percent_encode_after_encoding_into(encoding, value.as_ref(), &set, true, &mut output);
    }
    output
}

/// <https://url.spec.whatwg.org/#concept-urlencoded-parser>: the
/// `application/x-www-form-urlencoded` parser, exactly as the Standard has it: names and
/// values are percent-decoded, then *UTF-8 decode without BOM* (malformed bytes become
/// U+FFFD).
///
/// ```
/// use textcodec::form::parse;
/// let entries = parse(b"a=1&&b=%E2%98%83+x&c&=d&e=%zz");
/// let pairs: Vec<(&str, &str)> = entries.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
/// assert_eq!(pairs, [("a", "1"), ("b", "☃ x"), ("c", ""), ("", "d"), ("e", "%zz")]);
/// ```
pub fn parse(input: &[u8]) -> Vec<(String, String)> {
    parse_with_encoding(input, Encoding::Utf8)
}

/// The `application/x-www-form-urlencoded` parser with the name and value bytes decoded
/// with `encoding` (its decoder without BOM handling, replacement mode) instead of UTF-8:
/// what a server receiving a form from a page in that encoding needs. With UTF-8 it is
/// [`parse`]. The URL Standard warns that decoding with anything but UTF-8 "might be
/// insecure" (#percent-decode): use the encoding the form was served in, never a guess.
pub fn parse_with_encoding(input: &[u8], encoding: Encoding) -> Vec<(String, String)> {
    // Step 1: split on `&`; step 3.1: skip empty sequences.
    input
        .split(|&b| b == b'&')
        .filter(|bytes| !bytes.is_empty())
        .map(|bytes| {
            // Steps 3.2–3.3: name up to the first `=`, value after it (or empty).
            let (name, value) = match bytes.iter().position(|&b| b == b'=') {
                Some(at) => (
                    bytes.get(..at).unwrap_or_default(),
                    bytes.get(at.saturating_add(1)..).unwrap_or_default(),
                ),
                None => (bytes, &[][..]),
            };
            // Steps 3.4–3.5: `+` to space, percent-decode, decode.
            (
                decode_component(name, encoding),
                decode_component(value, encoding),
            )
        })
        .collect()
}

fn decode_component(bytes: &[u8], encoding: Encoding) -> String {
    let spaced: Cow<'_, [u8]> = if bytes.contains(&b'+') {
        Cow::Owned(
            bytes
                .iter()
                .map(|&b| if b == b'+' { b' ' } else { b })
                .collect(),
        )
    } else {
        Cow::Borrowed(bytes)
    };
    let decoded = percent_decode(&spaced);
    crate::decode_without_bom(encoding, &decoded).0.into_owned()
}
