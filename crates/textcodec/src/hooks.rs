//! <https://encoding.spec.whatwg.org/#specification-hooks> and
//! <https://encoding.spec.whatwg.org/#legacy-hooks>: the algorithms other standards call,
//! over whole inputs. For streaming, use [`Decoder`] and [`Encoder`] with the matching
//! options (each function says which).
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use alloc::borrow::Cow;
use alloc::vec::Vec;

use crate::decoder::{
    decode_whole, BomHandling, DecodeErrorMode, DecodeStatus, Decoder, DecoderOptions,
    MalformedSequence,
};
use crate::encoder::{EncodeErrorMode, EncodeStatus, Encoder, Unmappable};
use crate::Encoding;

/// <https://encoding.spec.whatwg.org/#utf-8-decode>: remove a UTF-8 BOM, decode UTF-8 with
/// replacement. Borrows when the input (after the BOM) is valid UTF-8.
///
/// ```
/// assert_eq!(textcodec::utf8_decode(b"\xEF\xBB\xBFhi\xFF"), "hi\u{FFFD}");
/// ```
pub fn utf8_decode(bytes: &[u8]) -> Cow<'_, str> {
    utf8_decode_without_bom(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes))
}

/// <https://encoding.spec.whatwg.org/#utf-8-decode-without-bom>: UTF-8 with replacement; a
/// BOM decodes to U+FEFF. Borrows valid input.
///
/// ```
/// assert_eq!(textcodec::utf8_decode_without_bom(b"\xEF\xBB\xBFhi"), "\u{FEFF}hi");
/// ```
pub fn utf8_decode_without_bom(bytes: &[u8]) -> Cow<'_, str> {
    decode_whole(Encoding::Utf8, bytes, BomHandling::Keep).0
}

/// <https://encoding.spec.whatwg.org/#utf-8-decode-without-bom-or-fail>: the input as UTF-8,
/// or the first malformed sequence. Never allocates.
///
/// ```
/// assert_eq!(textcodec::utf8_decode_without_bom_or_fail(b"ok"), Ok("ok"));
/// let e = textcodec::utf8_decode_without_bom_or_fail(b"ab\xE2\x82").unwrap_err();
/// assert_eq!((e.offset(), e.bytes()), (2, &[0xE2, 0x82][..]));
/// ```
pub fn utf8_decode_without_bom_or_fail(bytes: &[u8]) -> Result<&str, MalformedSequence> {
    match crate::simd::utf8_str(bytes) {
        Ok(s) => Ok(s),
        Err(valid_up_to) => {
            // Find the Standard's view of the error (offset and bytes) with a fatal decoder
            // over the rest; the prefix is known valid. No output is needed: use a small
            // buffer and loop.
            let start = valid_up_to;
            let mut decoder = Decoder::with_options(
                Encoding::Utf8,
                DecoderOptions {
                    error_mode: DecodeErrorMode::Fatal,
                    bom: BomHandling::Keep,
                },
            );
            let mut scratch = [0u8; 64];
            // `start` is the valid prefix's length: within `bytes`.
            let mut rest = bytes.get(start..).unwrap_or_default();
            loop {
                let r = decoder.decode_to_utf8(rest, &mut scratch, true);
                rest = rest.get(r.read..).unwrap_or_default();
                match r.status {
                    DecodeStatus::Malformed(m) => return Err(m.shifted(start as u64)),
                    DecodeStatus::OutputFull => continue,
                    // Unreachable: validation found an error.
                    DecodeStatus::InputEmpty => return Ok(""),
                }
            }
        }
    }
}

/// <https://encoding.spec.whatwg.org/#utf-8-encode>: a string's UTF-8 bytes. (A Rust `str`
/// is already a scalar value string in UTF-8, so this borrows.)
pub fn utf8_encode(text: &str) -> &[u8] {
    text.as_bytes()
}

/// <https://encoding.spec.whatwg.org/#bom-sniff>: the encoding a byte order mark at the start
/// of `bytes` names, if any.
///
/// ```
/// use textcodec::{bom_sniff, Encoding};
/// assert_eq!(bom_sniff(b"\xFF\xFEa\0"), Some(Encoding::Utf16Le));
/// assert_eq!(bom_sniff(b"\xEF\xBB"), None);
/// ```
pub fn bom_sniff(bytes: &[u8]) -> Option<Encoding> {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        Some(Encoding::Utf8)
    } else if bytes.starts_with(b"\xFE\xFF") {
        Some(Encoding::Utf16Be)
    } else if bytes.starts_with(b"\xFF\xFE") {
        Some(Encoding::Utf16Le)
    } else {
        None
    }
}

/// <https://encoding.spec.whatwg.org/#decode>: BOM sniffing (the BOM wins over `fallback`
/// and is removed), then `fallback`'s decoder with replacement. Returns the text and the
/// encoding actually used. Borrows when the bytes are already the output.
///
/// ```
/// use textcodec::{decode, Encoding};
/// assert_eq!(decode(b"caf\xE9", Encoding::Windows1252), ("café".into(), Encoding::Windows1252));
/// assert_eq!(decode(b"\xFE\xFF\0A", Encoding::Windows1252), ("A".into(), Encoding::Utf16Be));
/// ```
pub fn decode(bytes: &[u8], fallback: Encoding) -> (Cow<'_, str>, Encoding) {
    match bom_sniff(bytes) {
        Some(encoding) => {
            let bom_len = if encoding == Encoding::Utf8 { 3 } else { 2 };
            (
                // The BOM was found at the start of `bytes`.
                decode_whole(
                    encoding,
                    bytes.get(bom_len..).unwrap_or_default(),
                    BomHandling::Keep,
                )
                .0,
                encoding,
            )
        }
        None => (decode_whole(fallback, bytes, BomHandling::Keep).0, fallback),
    }
}

/// <https://encoding.spec.whatwg.org/#encode>: encode with `encoding`'s encoder in the html
/// error mode (unencodable characters become `&#NNNN;`), as HTML forms do. The Standard's
/// callers pass an output encoding; for safety this function applies
/// [`Encoding::output_encoding`] itself and returns the encoding used. Borrows when the
/// text is ASCII and the encoding ASCII-compatible, or the encoding is UTF-8.
///
/// ```
/// use textcodec::{encode, Encoding};
/// let (bytes, used) = encode("a☃", Encoding::Windows1252);
/// assert_eq!((&*bytes, used), (&b"a&#9731;"[..], Encoding::Windows1252));
/// ```
pub fn encode(text: &str, encoding: Encoding) -> (Cow<'_, [u8]>, Encoding) {
    let encoding = encoding.output_encoding();
    let ascii_identity = encoding.is_ascii_compatible()
        && crate::simd::ascii::ascii_prefix_len(text.as_bytes()) == text.len();
    if encoding == Encoding::Utf8 || ascii_identity {
        return (Cow::Borrowed(text.as_bytes()), encoding);
    }
    let mut out = Vec::with_capacity(text.len().saturating_add(8));
    if let Some(mut encoder) = Encoder::new(encoding, EncodeErrorMode::Html) {
        let _ = encoder.encode_from_utf8_to_vec(text, &mut out, true);
    }
    (Cow::Owned(out), encoding)
}

/// <https://encoding.spec.whatwg.org/#get-an-encoder>: an encoder instance in fatal mode for
/// *encode or fail*. `None` for replacement and UTF-16BE/LE, which the Standard asserts
/// against (use [`Encoding::output_encoding`] first).
pub fn get_an_encoder(encoding: Encoding) -> Option<Encoder> {
    if !encoding.has_encoder() {
        return None;
    }
    Encoder::new(encoding, EncodeErrorMode::Fatal)
}

/// An error from [`encode_or_fail`]: the code point the encoder rejected and how far the
/// input was consumed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct EncodeOrFailError {
    /// The rejected character and the code point the Standard reports for it.
    pub unmappable: Unmappable,
    /// Bytes of the input consumed, including the rejected character.
    pub read: usize,
}

/// <https://encoding.spec.whatwg.org/#encode-or-fail>: encode `text` with `encoder` (which the
/// caller keeps: ISO-2022-JP's state matters), appending to `output`, and stop at the first
/// unencodable character. On error, write the replacement you need (ASCII other than 0x0E,
/// 0x0F, 0x1B, 0x5C and 0x7E is safe in every ISO-2022-JP state) and call again with the
/// rest of `text`, as URL percent-encoding does.
///
/// ```
/// use textcodec::{encode_or_fail, get_an_encoder, Encoding};
/// let mut encoder = get_an_encoder(Encoding::Iso2022Jp).unwrap();
/// let mut out = Vec::new();
/// let text = "日☃";
/// let e = encode_or_fail(&mut encoder, text, &mut out).unwrap_err();
/// assert_eq!(u32::from(e.unmappable.code_point()), 0x2603);
/// out.extend_from_slice(b"%26%239731%3B");
/// encode_or_fail(&mut encoder, &text[e.read..], &mut out).unwrap();
/// assert_eq!(out, b"\x1b$BF|\x1b(B%26%239731%3B");
/// ```
pub fn encode_or_fail(
    encoder: &mut Encoder,
    text: &str,
    output: &mut Vec<u8>,
) -> Result<(), EncodeOrFailError> {
    let r = encoder.encode_from_utf8_to_vec(text, output, true);
    match r.status {
        EncodeStatus::Unmappable(unmappable) => Err(EncodeOrFailError {
            unmappable,
            read: r.read,
        }),
        _ => Ok(()),
    }
}
