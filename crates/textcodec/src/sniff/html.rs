//! HTML Standard §13.2.3 "The input byte stream": §13.2.3.2 "Determining the character
//! encoding" (*prescan a byte stream to determine its encoding*, *get an attribute*, *get
//! an XML encoding*), the *algorithm for extracting a character encoding from a meta
//! element* (§2.5, "Fetching resources", "Extracting character encodings from meta
//! elements"), and §13.2.3.4 "Changing the encoding while parsing".
//!
//! The *encoding sniffing algorithm* itself (BOM, user override, transport layer, prescan,
//! parent, default) is [`crate::sniff::sniff`] with [`crate::sniff::ResourceKind::Html`].
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use crate::label::is_ascii_whitespace;
use crate::{BomHandling, DecodeErrorMode, Decoder, DecoderOptions, Encoding};

use super::Confidence;

/// How many bytes the prescan looks at: the HTML Standard encourages user agents "to only
/// prescan the first 1024 bytes" (encoding sniffing algorithm, step 5). This is the
/// prescan's *end condition*: a byte at index 1024 or later is never read.
pub const PRESCAN_LIMIT: usize = 1024;

/// Where a [`Prescan`] result came from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PrescanSource {
    /// Step 2, "prescan for UTF-16 XML declarations": the stream starts with `<?x` in
    /// UTF-16LE (`3C 00 3F 00 78 00`) or UTF-16BE (`00 3C 00 3F 00 78`).
    Utf16XmlDeclaration,
    /// A `<meta charset>` attribute (step 3, the `<meta` branch, substep 9).
    MetaCharset,
    /// A `<meta http-equiv="content-type" content="…charset=…">` pragma.
    MetaHttpEquiv,
    /// *Get an XML encoding*: the prescan ran out of bytes or reached its end condition, and
    /// the stream starts with an XML declaration naming an encoding.
    XmlDeclaration,
}

/// A successful prescan: the encoding, the byte offset of the construct that named it (the
/// `<` of `<meta` or of `<?xml`, or 0 for the UTF-16 patterns) and which construct it was.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Prescan {
    /// The encoding, after the `<meta>` rules (UTF-16BE/LE → UTF-8, x-user-defined →
    /// windows-1252) or *get an XML encoding*'s rule (UTF-16BE/LE → UTF-8).
    pub encoding: Encoding,
    /// Offset of the `<` that starts the construct.
    pub offset: usize,
    /// Which construct named the encoding.
    pub source: PrescanSource,
}

/// The prescan aborts (ran out of bytes or reached the end condition).
struct Abort;

/// The input seen through the end condition: reading at or past `bytes.len()` aborts.
struct Stream<'a> {
    bytes: &'a [u8],
}

impl<'a> Stream<'a> {
    #[inline]
    fn at(&self, position: usize) -> Result<u8, Abort> {
        self.bytes.get(position).copied().ok_or(Abort)
    }

    fn starts_with_at(&self, position: usize, pattern: &[u8]) -> bool {
        self.bytes
            .get(position..)
            .is_some_and(|rest| rest.starts_with(pattern))
    }

    /// Whether the bytes up to and including the one at `position` end with `pattern`;
    /// aborts, as [`Stream::at`] does, if there is no byte at `position`.
    fn ends_with_at(&self, position: usize, pattern: &[u8]) -> Result<bool, Abort> {
        let through = self.bytes.get(..=position).ok_or(Abort)?;
        Ok(through.ends_with(pattern))
    }

    /// The bytes from `start` up to (not including) `end`. Callers pass only ranges of
    /// bytes they have already read (`start <= end <= position` of a byte read), so this
    /// is always `Ok`; a range outside the stream would count as reading past its end.
    fn range(&self, start: usize, end: usize) -> Result<&'a [u8], Abort> {
        self.bytes.get(start..end).ok_or(Abort)
    }
}

/// Moves `position` on by `n` bytes. Positions stay within the 1024-byte window plus a
/// few bytes (every advance follows a successful read), so this never saturates; if it
/// did, `usize::MAX` is past the end and the next read aborts.
#[inline]
fn advance(position: &mut usize, n: usize) {
    *position = position.saturating_add(n);
}

/// An attribute from *get an attribute*: name and value as bytes of the stream, to be
/// read with ASCII uppercase letters lowered (the algorithm lowercases as it appends, and
/// both are contiguous in the input).
#[derive(Clone, Copy)]
struct Attribute<'a> {
    name: &'a [u8],
    value: &'a [u8],
}

fn is_space(b: u8) -> bool {
    matches!(b, 0x09 | 0x0A | 0x0C | 0x0D | 0x20)
}

/// HTML Standard, *get an attribute* (steps 1–12). `Ok(None)` is "there isn't one".
fn get_an_attribute<'a>(
    stream: &Stream<'a>,
    position: &mut usize,
) -> Result<Option<Attribute<'a>>, Abort> {
    // 1. Skip 0x09, 0x0A, 0x0C, 0x0D, 0x20 and 0x2F (/).
    while matches!(
        stream.at(*position)?,
        0x09 | 0x0A | 0x0C | 0x0D | 0x20 | 0x2F
    ) {
        advance(position, 1);
    }
    // 2. If the byte at position is 0x3E (>), there isn't one.
    if stream.at(*position)? == b'>' {
        return Ok(None);
    }
    // 3. The byte at position starts the attribute name; name and value are empty.
    let name_start = *position;
    let empty_value: &[u8] = &[];
    // 4–5. Attribute name.
    loop {
        let b = stream.at(*position)?;
        match b {
            // "=" with a non-empty name: advance and go to "value".
            b'=' if *position > name_start => {
                let name = stream.range(name_start, *position)?;
                advance(position, 1);
                return attribute_value(stream, position, name);
            }
            // Space: go to "spaces".
            _ if is_space(b) => break,
            // "/" or ">": the attribute has an empty value.
            b'/' | b'>' => {
                return Ok(Some(Attribute {
                    name: stream.range(name_start, *position)?,
                    value: empty_value,
                }))
            }
            // A–Z are lowered when read; anything else is appended as is.
            _ => advance(position, 1),
        }
    }
    let name = stream.range(name_start, *position)?;
    // 6. Spaces: skip ASCII whitespace.
    while is_space(stream.at(*position)?) {
        advance(position, 1);
    }
    // 7. Not "=": the attribute has an empty value (position stays on that byte).
    if stream.at(*position)? != b'=' {
        return Ok(Some(Attribute {
            name,
            value: empty_value,
        }));
    }
    // 8. Advance position past the "=".
    advance(position, 1);
    attribute_value(stream, position, name)
}

/// *Get an attribute*, steps 9–12 ("value").
fn attribute_value<'a>(
    stream: &Stream<'a>,
    position: &mut usize,
    name: &'a [u8],
) -> Result<Option<Attribute<'a>>, Abort> {
    // 9. Skip ASCII whitespace.
    while is_space(stream.at(*position)?) {
        advance(position, 1);
    }
    // 10.
    let b = stream.at(*position)?;
    match b {
        b'"' | b'\'' => {
            // Quote loop: up to the matching quote; the value is what lies between.
            advance(position, 1);
            let start = *position;
            loop {
                if stream.at(*position)? == b {
                    let value = stream.range(start, *position)?;
                    advance(position, 1);
                    return Ok(Some(Attribute { name, value }));
                }
                advance(position, 1);
            }
        }
        // ">": empty value, position stays on ">".
        b'>' => return Ok(Some(Attribute { name, value: &[] })),
        _ => {}
    }
    // The byte at position starts the unquoted value.
    let start = *position;
    advance(position, 1);
    // 11–12. Unquoted value up to a space or ">" (position stays on it).
    loop {
        let b = stream.at(*position)?;
        if is_space(b) || b == b'>' {
            return Ok(Some(Attribute {
                name,
                value: stream.range(start, *position)?,
            }));
        }
        advance(position, 1);
    }
}

/// The *charset* variable of the prescan: null, failure, or an encoding.
#[derive(Clone, Copy, PartialEq)]
enum Charset {
    Null,
    Failure,
    Encoding(Encoding),
}

/// HTML Standard, *prescan a byte stream to determine its encoding*, with the end condition
/// "1024 bytes": only `bytes[..1024]` is ever read, so passing a longer slice (the whole
/// document) gives the same result as passing its first 1024 bytes. Passing fewer bytes of
/// a longer document is "running out of bytes", which aborts the prescan at the first
/// missing byte, as a browser that decided not to wait would.
///
/// Returns the encoding with confidence *tentative* in the sniffing algorithm, or `None`
/// for failure. See [`html_prescan_detailed`] for where the encoding was found.
///
/// ```
/// use textcodec::{sniff::html_prescan, Encoding};
/// assert_eq!(html_prescan(b"<!doctype html><meta charset=\"shift_jis\">"), Some(Encoding::ShiftJis));
/// assert_eq!(
///     html_prescan(b"<META HTTP-EQUIV=Content-Type CONTENT='text/html; charset=koi8-r'>"),
///     Some(Encoding::Koi8R),
/// );
/// // <meta> never yields UTF-16: it becomes UTF-8.
/// assert_eq!(html_prescan(b"<meta charset=utf-16le>"), Some(Encoding::Utf8));
/// assert_eq!(html_prescan(b"<!-- <meta charset=gbk> -->"), None);
/// ```
pub fn html_prescan(bytes: &[u8]) -> Option<Encoding> {
    html_prescan_detailed(bytes).map(|p| p.encoding)
}

/// [`html_prescan`] with the offset and kind of the construct that named the encoding.
///
/// ```
/// use textcodec::{sniff::{html_prescan_detailed, PrescanSource}, Encoding};
/// let p = html_prescan_detailed(b"<html><head><meta charset=euc-kr>").unwrap();
/// assert_eq!((p.encoding, p.offset, p.source), (Encoding::EucKr, 12, PrescanSource::MetaCharset));
/// ```
pub fn html_prescan_detailed(bytes: &[u8]) -> Option<Prescan> {
    let window = bytes.get(..PRESCAN_LIMIT).unwrap_or(bytes);
    let stream = Stream { bytes: window };
    match prescan_steps(&stream) {
        Ok(result) => Some(result),
        // "If at any point … the user agent either runs out of bytes … or reaches its end
        // condition, then abort … and return the result of get an XML encoding applied to
        // the byte stream."
        Err(Abort) => get_an_xml_encoding(window).map(|encoding| Prescan {
            encoding,
            offset: 0,
            source: PrescanSource::XmlDeclaration,
        }),
    }
}

/// The numbered steps of the prescan. `Err(Abort)` when it runs out of bytes.
fn prescan_steps(stream: &Stream<'_>) -> Result<Prescan, Abort> {
    // 1. Let position be a pointer to the first byte.
    let mut position = 0usize;
    // 2. Prescan for UTF-16 XML declarations.
    if stream.starts_with_at(0, b"\x3C\x00\x3F\x00\x78\x00") {
        return Ok(Prescan {
            encoding: Encoding::Utf16Le,
            offset: 0,
            source: PrescanSource::Utf16XmlDeclaration,
        });
    }
    if stream.starts_with_at(0, b"\x00\x3C\x00\x3F\x00\x78") {
        return Ok(Prescan {
            encoding: Encoding::Utf16Be,
            offset: 0,
            source: PrescanSource::Utf16XmlDeclaration,
        });
    }
    // 3. Loop.
    loop {
        let here = position;
        let b = stream.at(position)?;
        // The byte `i` after position, if there is one.
        let next = |i: usize| {
            position
                .checked_add(i)
                .and_then(|p| stream.bytes.get(p))
                .copied()
        };
        if stream.starts_with_at(position, b"<!--") {
            // Comment: to the first ">" preceded by "--", after the "<" (the "--" may be
            // those of "<!--", so the earliest end is "<!-->").
            advance(&mut position, 4);
            while !stream.ends_with_at(position, b"-->")? {
                advance(&mut position, 1);
            }
        } else if b == b'<'
            && next(1).is_some_and(|c| c.eq_ignore_ascii_case(&b'm'))
            && next(2).is_some_and(|c| c.eq_ignore_ascii_case(&b'e'))
            && next(3).is_some_and(|c| c.eq_ignore_ascii_case(&b't'))
            && next(4).is_some_and(|c| c.eq_ignore_ascii_case(&b'a'))
            && next(5).is_some_and(|c| is_space(c) || c == b'/')
        {
            // "<meta" followed by a space or "/".
            if let Some(encoding) = prescan_meta(stream, &mut position)? {
                return Ok(Prescan {
                    encoding: encoding.0,
                    offset: here,
                    source: encoding.1,
                });
            }
        } else if b == b'<'
            && (next(1).is_some_and(|c| c.is_ascii_alphabetic())
                || (next(1) == Some(b'/') && next(2).is_some_and(|c| c.is_ascii_alphabetic())))
        {
            // A start or end tag: skip to the next space or ">", then skip its attributes.
            while !matches!(
                stream.at(position)?,
                0x09 | 0x0A | 0x0C | 0x0D | 0x20 | 0x3E
            ) {
                advance(&mut position, 1);
            }
            while get_an_attribute(stream, &mut position)?.is_some() {}
        } else if b == b'<' && matches!(next(1), Some(b'!' | b'/' | b'?')) {
            // "<!", "</", "<?": to the first ">" after the "<".
            advance(&mut position, 1);
            while stream.at(position)? != b'>' {
                advance(&mut position, 1);
            }
        }
        // Any other byte: do nothing with it.
        // 4. Next byte.
        advance(&mut position, 1);
    }
}

/// The `<meta` branch of the prescan's step 3 (substeps 1–16). `Ok(None)` means "jump to
/// next byte" (with `position` where the attributes ended).
fn prescan_meta(
    stream: &Stream<'_>,
    position: &mut usize,
) -> Result<Option<(Encoding, PrescanSource)>, Abort> {
    // 1. Advance to the space or "/" after "<meta".
    advance(position, 5);
    // 2. attribute list (only the three names that matter need remembering: a repeated
    // name of any other attribute changes nothing).
    let (mut seen_http_equiv, mut seen_content, mut seen_charset) = (false, false, false);
    // 3–5.
    let mut got_pragma = false;
    let mut need_pragma: Option<bool> = None;
    let mut charset = Charset::Null;
    // 6. Attributes.
    while let Some(attribute) = get_an_attribute(stream, position)? {
        let name = attribute.name;
        // 7–8. Duplicate names are ignored.
        let seen = if name.eq_ignore_ascii_case(b"http-equiv") {
            &mut seen_http_equiv
        } else if name.eq_ignore_ascii_case(b"content") {
            &mut seen_content
        } else if name.eq_ignore_ascii_case(b"charset") {
            &mut seen_charset
        } else {
            continue;
        };
        if core::mem::replace(seen, true) {
            continue;
        }
        let value = attribute.value;
        // 9.
        if name.eq_ignore_ascii_case(b"http-equiv") {
            if value.eq_ignore_ascii_case(b"content-type") {
                got_pragma = true;
            }
        } else if name.eq_ignore_ascii_case(b"content") {
            if let Some(encoding) = extract_encoding_from_meta(value) {
                if charset == Charset::Null {
                    charset = Charset::Encoding(encoding);
                    need_pragma = Some(true);
                }
            }
        } else {
            charset = match Encoding::for_label(value) {
                Some(encoding) => Charset::Encoding(encoding),
                None => Charset::Failure,
            };
            need_pragma = Some(false);
        }
        // 10. Return to "attributes".
    }
    // 11. Processing: need pragma null → next byte.
    let Some(need_pragma) = need_pragma else {
        return Ok(None);
    };
    // 12. need pragma true but got pragma false → next byte.
    if need_pragma && !got_pragma {
        return Ok(None);
    }
    // 13. charset failure → next byte.
    let Charset::Encoding(mut encoding) = charset else {
        return Ok(None);
    };
    // 14. UTF-16BE/LE → UTF-8.
    if encoding.is_utf16() {
        encoding = Encoding::Utf8;
    }
    // 15. x-user-defined → windows-1252.
    if encoding == Encoding::XUserDefined {
        encoding = Encoding::Windows1252;
    }
    // 16. Return charset.
    let source = if need_pragma {
        PrescanSource::MetaHttpEquiv
    } else {
        PrescanSource::MetaCharset
    };
    Ok(Some((encoding, source)))
}

/// HTML Standard, *get an XML encoding* (steps 1–18), which the prescan returns when it
/// aborts: the encoding an XML declaration at the very start of `bytes` names, with
/// UTF-16BE/LE turned into UTF-8. Reads only the first 1024 bytes, as the prescan does.
///
/// Interpretation: the searches for `encoding`, the whitespace and the quotes stop at the
/// declaration's first `>` (*xmlDeclarationEnd*); nothing after it is read.
///
/// ```
/// use textcodec::{sniff::get_an_xml_encoding, Encoding};
/// assert_eq!(get_an_xml_encoding(b"<?xml version='1.0' encoding='windows-1251'?>"), Some(Encoding::Windows1251));
/// assert_eq!(get_an_xml_encoding(b"<?xml version='1.0' encoding='utf-16'?>"), Some(Encoding::Utf8));
/// assert_eq!(get_an_xml_encoding(b" <?xml version='1.0' encoding='gbk'?>"), None);
/// ```
pub fn get_an_xml_encoding(bytes: &[u8]) -> Option<Encoding> {
    let bytes = bytes.get(..PRESCAN_LIMIT).unwrap_or(bytes);
    // 1–2. The stream must start with "<?xml".
    if !bytes.starts_with(b"<?xml") {
        return None;
    }
    // 3. xmlDeclarationEnd: the first ">".
    let end = bytes.iter().position(|&b| b == b'>')?;
    // (Always `Some`: `end` is an index of `bytes`.)
    let (declaration, _) = bytes.split_at_checked(end)?;
    // 4. The first "encoding" (at or after the start). `rest` is what follows position.
    let found = declaration.windows(8).position(|w| w == b"encoding")?;
    // 5. Skip it (it is there: `strip_prefix` always succeeds).
    let rest = declaration.get(found..)?.strip_prefix(b"encoding")?;
    // 6. Skip bytes <= 0x20.
    let rest = skip_while(rest, |b| b <= 0x20);
    // 7–8. "=" (nothing left: failure too).
    let rest = rest.strip_prefix(b"=")?;
    // 9. Skip bytes <= 0x20.
    let rest = skip_while(rest, |b| b <= 0x20);
    // 10–12. The quote mark.
    let (&quote, rest) = rest.split_first()?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    // 13. The closing quote.
    let length = rest.iter().position(|&b| b == quote)?;
    // 14. potentialEncoding.
    let (potential, _) = rest.split_at_checked(length)?;
    // 15. Bytes <= 0x20 inside: failure.
    if potential.iter().any(|&b| b <= 0x20) {
        return None;
    }
    // 16. Get an encoding.
    let encoding = Encoding::for_label(potential)?;
    // 17. UTF-16BE/LE → UTF-8. 18. Return.
    Some(if encoding.is_utf16() {
        Encoding::Utf8
    } else {
        encoding
    })
}

/// HTML Standard ("Extracting character encodings from meta elements"), the *algorithm
/// for extracting a character encoding from a meta element* (steps 1–6), over the value
/// of a `content` attribute. ASCII case-insensitive, so the prescan's lowered value and the raw attribute
/// value give the same result.
///
/// ```
/// use textcodec::{sniff::extract_encoding_from_meta, Encoding};
/// assert_eq!(extract_encoding_from_meta(b"text/html; charset=ISO-8859-2"), Some(Encoding::Iso8859_2));
/// assert_eq!(extract_encoding_from_meta(b"text/html;CHARSET = 'big5' "), Some(Encoding::Big5));
/// assert_eq!(extract_encoding_from_meta(b"charset=\"gbk"), None); // unmatched quote
/// assert_eq!(extract_encoding_from_meta(b"charsetcharset=utf-8"), Some(Encoding::Utf8));
/// ```
pub fn extract_encoding_from_meta(s: &[u8]) -> Option<Encoding> {
    // 1. position at the start (`rest` is what follows position).
    let mut rest = s;
    loop {
        // 2. Loop: the first "charset" (ASCII case-insensitive) after position.
        let found = rest
            .windows(7)
            .position(|w| w.eq_ignore_ascii_case(b"charset"))?;
        // Position just after it (`found + 7 <= rest.len()`: always `Some`).
        rest = rest.get(found..)?.get(7..)?;
        // 3. Skip ASCII whitespace.
        rest = skip_while(rest, is_ascii_whitespace);
        // 4. Not "=": position just before that character, back to "loop".
        if let Some(after) = rest.strip_prefix(b"=") {
            rest = after;
            break;
        }
    }
    // 5. Skip ASCII whitespace.
    let rest = skip_while(rest, is_ascii_whitespace);
    // 6.
    let (&c, after) = rest.split_first()?; // no next character: nothing
    match c {
        b'"' | b'\'' => {
            // Matched quote: the substring between; unmatched: nothing.
            let end = after.iter().position(|&b| b == c)?;
            let (value, _) = after.split_at_checked(end)?;
            Encoding::for_label(value)
        }
        _ => {
            // Up to the first ASCII whitespace or ";", or the end (`split` always yields
            // a first part).
            let value = rest
                .split(|&b| is_ascii_whitespace(b) || b == b';')
                .next()?;
            Encoding::for_label(value)
        }
    }
}

/// `bytes` without the leading bytes that satisfy `skip`.
fn skip_while(bytes: &[u8], skip: impl Fn(u8) -> bool) -> &[u8] {
    let mut rest = bytes;
    while let [first, tail @ ..] = rest {
        if !skip(*first) {
            break;
        }
        rest = tail;
    }
    rest
}

/// What a streaming HTML parser should do when a `<meta>` names an encoding
/// ([`should_change_encoding`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EncodingChange {
    /// Do nothing: the confidence is not *tentative* (the tree builder only changes the
    /// encoding while it is tentative).
    Ignore,
    /// Keep the current encoding and set the confidence to *certain* (step 1: the current
    /// encoding is UTF-16BE/LE; step 4: the new encoding is the current one).
    MarkCertain,
    /// Step 5: the bytes decoded so far mean the same in the new encoding. Switch the
    /// decoder to this encoding for the rest of the stream, without re-parsing, and set the
    /// confidence to *certain*.
    SwitchWithoutReload(Encoding),
    /// Step 6: restart (navigate with history handling "replace", re-parsing the bytes from
    /// memory) with this encoding and confidence *certain*, skipping the sniffing algorithm.
    Reload(Encoding),
}

/// HTML Standard §13.2.3.4 "Changing the encoding while parsing", for a parser whose
/// current encoding is `current` with `confidence`, when a `<meta>` in the tree builder
/// names `new` ("a start tag whose tag name is meta", which changes the encoding only while
/// the confidence is tentative). `bytes_so_far` are the bytes the current decoder has
/// converted (from the start of the stream, BOM excluded).
///
/// Steps: (0) not tentative → [`EncodingChange::Ignore`]; 1. current UTF-16BE/LE →
/// certain; 2. new UTF-16BE/LE → UTF-8; 3. new x-user-defined → windows-1252; 4. same
/// encoding → certain; 5. if every byte so far decodes identically in both encodings →
/// switch in place; 6. otherwise reload.
///
/// Step 5 is checked by decoding `bytes_so_far` with both decoders (replacement mode, as a
/// stream that has not ended) and comparing the output; both decoders must also have
/// nothing pending, so the new one can take over at the next byte.
///
/// ```
/// use textcodec::{sniff::{should_change_encoding, Confidence, EncodingChange}, Encoding};
/// let so_far = b"<html><head><meta charset=shift_jis>";
/// assert_eq!(
///     should_change_encoding(Encoding::Windows1252, Confidence::Tentative, Encoding::ShiftJis, so_far),
///     EncodingChange::SwitchWithoutReload(Encoding::ShiftJis),
/// );
/// assert_eq!(
///     should_change_encoding(Encoding::Windows1252, Confidence::Tentative, Encoding::Utf8, b"caf\xE9"),
///     EncodingChange::Reload(Encoding::Utf8),
/// );
/// assert_eq!(
///     should_change_encoding(Encoding::Utf8, Confidence::Tentative, Encoding::Utf16Le, b""),
///     EncodingChange::MarkCertain,
/// );
/// ```
pub fn should_change_encoding(
    current: Encoding,
    confidence: Confidence,
    new: Encoding,
    bytes_so_far: &[u8],
) -> EncodingChange {
    if confidence != Confidence::Tentative {
        return EncodingChange::Ignore;
    }
    // 1.
    if current.is_utf16() {
        return EncodingChange::MarkCertain;
    }
    // 2.
    let mut new = new;
    if new.is_utf16() {
        new = Encoding::Utf8;
    }
    // 3.
    if new == Encoding::XUserDefined {
        new = Encoding::Windows1252;
    }
    // 4. "Identical or equivalent": the same encoding (GBK and gb18030 share a decoder but
    // are different encodings, so they are not treated as equivalent here).
    if new == current {
        return EncodingChange::MarkCertain;
    }
    // 5.
    if decode_identically(current, new, bytes_so_far) {
        return EncodingChange::SwitchWithoutReload(new);
    }
    // 6.
    EncodingChange::Reload(new)
}

/// Whether `bytes` decode to the same text with `a` and `b` (as an unfinished stream), with
/// nothing left pending in either decoder. Compares chunk by chunk in bounded memory.
fn decode_identically(a: Encoding, b: Encoding, bytes: &[u8]) -> bool {
    let options = DecoderOptions {
        error_mode: DecodeErrorMode::Replacement,
        bom: BomHandling::Keep,
    };
    let mut da = Decoder::with_options(a, options);
    let mut db = Decoder::with_options(b, options);
    let (mut ta, mut tb) = (alloc::string::String::new(), alloc::string::String::new());
    for chunk in bytes.chunks(4096) {
        let _ = da.decode_to_string(chunk, &mut ta, false);
        let _ = db.decode_to_string(chunk, &mut tb, false);
        let common = ta.len().min(tb.len());
        // The shorter output must be a prefix of the longer.
        let (shorter, longer) = if ta.len() == common {
            (&ta, &tb)
        } else {
            (&tb, &ta)
        };
        if !longer.as_bytes().starts_with(shorter.as_bytes()) {
            return false;
        }
        // Keep only the unmatched tail (always on a char boundary: the common prefix is
        // equal bytes of two valid strings, and one of them ends there).
        if ta.len() == common {
            tb.drain(..common);
            ta.clear();
        } else {
            ta.drain(..common);
            tb.clear();
        }
    }
    ta.is_empty() && tb.is_empty() && da.is_idle() && db.is_idle()
}
