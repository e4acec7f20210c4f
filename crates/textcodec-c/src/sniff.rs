//! Browser-style encoding determination of web resources (`textcodec::sniff`): the HTML
//! encoding sniffing algorithm, XML, CSS, JSON and plain text, from the first bytes and
//! the `Content-Type`.

use core::ffi::c_char;

use textcodec::sniff::{sniff, Confidence, ResourceKind, SniffOptions, Source};
use textcodec::DecodeErrorMode;

use crate::decode::{TEXTCODEC_DECODE_FATAL, TEXTCODEC_DECODE_REPLACEMENT};
use crate::detect::{guess_to_c, TextcodecGuess};
use crate::encoding::{encoding_of, id_of, TextcodecEncoding, TEXTCODEC_NO_ENCODING};
use crate::{slice, str_arg};

/// An HTML document: the HTML Standard's encoding sniffing algorithm.
pub const TEXTCODEC_RESOURCE_HTML: u32 = 0;
/// An XML document (XML 1.0 Appendix F).
pub const TEXTCODEC_RESOURCE_XML: u32 = 1;
/// A CSS style sheet.
pub const TEXTCODEC_RESOURCE_CSS: u32 = 2;
/// A plain text document: the HTML algorithm without the `<meta>` prescan.
pub const TEXTCODEC_RESOURCE_PLAIN_TEXT: u32 = 3;
/// JSON and other UTF-8-only formats.
pub const TEXTCODEC_RESOURCE_JSON: u32 = 4;

/// How many leading bytes `textcodec_sniff` reads (1024): give it that many, or the
/// whole resource if shorter (more only help the detector, when `detect` is set).
pub const TEXTCODEC_SNIFF_PREFIX_LEN: usize = 1024;

/// The encoding will not change (BOM, user override, transport layer).
pub const TEXTCODEC_CONFIDENCE_CERTAIN: u32 = 0;
/// The encoding was guessed; a later `<meta>` may change it.
pub const TEXTCODEC_CONFIDENCE_TENTATIVE: u32 = 1;
/// Not subject to the HTML rules (XML, CSS, JSON).
pub const TEXTCODEC_CONFIDENCE_IRRELEVANT: u32 = 2;

/// Decided by a byte order mark.
pub const TEXTCODEC_SOURCE_BOM: u32 = 0;
/// Decided by the user override.
pub const TEXTCODEC_SOURCE_USER_OVERRIDE: u32 = 1;
/// Decided by the `Content-Type` charset.
pub const TEXTCODEC_SOURCE_TRANSPORT_LAYER: u32 = 2;
/// Decided by a `<meta>` found by the HTML prescan.
pub const TEXTCODEC_SOURCE_META_PRESCAN: u32 = 3;
/// Decided by an XML declaration.
pub const TEXTCODEC_SOURCE_XML_DECLARATION: u32 = 4;
/// UTF-16 recognised from the first bytes without a BOM.
pub const TEXTCODEC_SOURCE_UTF16_PATTERN: u32 = 5;
/// Decided by a CSS `@charset` rule.
pub const TEXTCODEC_SOURCE_CSS_CHARSET: u32 = 6;
/// The caller's fallback (parent or referring document).
pub const TEXTCODEC_SOURCE_FALLBACK: u32 = 7;
/// The encoding detector (HTML step 8, "frequency analysis").
pub const TEXTCODEC_SOURCE_DETECTION: u32 = 8;
/// The HTML default for the locale.
pub const TEXTCODEC_SOURCE_LOCALE_DEFAULT: u32 = 9;
/// The kind's default (windows-1252 for HTML and plain text, UTF-8 for XML and CSS).
pub const TEXTCODEC_SOURCE_DEFAULT: u32 = 10;
/// The format is UTF-8 only (JSON).
pub const TEXTCODEC_SOURCE_UTF8_ONLY: u32 = 11;

/// Inputs to `textcodec_sniff` besides the bytes. Start from
/// `textcodec_sniff_options_default(kind)`: its encodings are `TEXTCODEC_NO_ENCODING` and
/// its pointers `NULL` ("not given").
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct TextcodecSniffOptions {
    /// `TEXTCODEC_RESOURCE_*`.
    pub kind: u32,
    /// The `Content-Type` header value (its `charset` is used), or `NULL`.
    pub content_type: *const u8,
    /// Length of `content_type` in bytes.
    pub content_type_len: usize,
    /// An encoding the user chose (wins over all but a BOM), or `TEXTCODEC_NO_ENCODING`.
    pub user_override: TextcodecEncoding,
    /// The parent (HTML) or referring (CSS) document's encoding, or
    /// `TEXTCODEC_NO_ENCODING`.
    pub fallback: TextcodecEncoding,
    /// The user's locale as a UTF-8 language tag (`"ja-JP"`), or `NULL`: the HTML
    /// default table's key and the detector's hint.
    pub locale: *const c_char,
    /// Length of `locale` in bytes.
    pub locale_len: usize,
    /// HTML and plain text: run the encoding detector when nothing in the bytes or the
    /// options decided (before the fallback and the locale default).
    pub detect: bool,
    /// The detector's top-level-domain hint (`"jp"`), or `NULL`.
    pub tld: *const u8,
    /// Length of `tld` in bytes.
    pub tld_len: usize,
}

/// What `textcodec_sniff` decided.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct TextcodecSniffReport {
    /// The encoding to decode with.
    pub encoding: TextcodecEncoding,
    /// `TEXTCODEC_CONFIDENCE_*`.
    pub confidence: u32,
    /// What decided: `TEXTCODEC_SOURCE_*`.
    pub source: u32,
    /// The error mode to decode with: `TEXTCODEC_DECODE_FATAL` for XML, else
    /// `TEXTCODEC_DECODE_REPLACEMENT`.
    pub error_mode: u32,
    /// Length of the byte order mark at the start (0, 2 or 3).
    pub bom_length: usize,
    /// Byte offset of the in-band declaration that decided (`<meta`, `<?xml`,
    /// `@charset`), or `SIZE_MAX`.
    pub offset: usize,
    /// Whether the detector ran (`detection` is then its guess).
    pub has_detection: bool,
    /// The detector's guess, when `has_detection`.
    pub detection: TextcodecGuess,
}

/// Options for `kind` (`TEXTCODEC_RESOURCE_*`) with nothing else known.
#[no_mangle]
pub extern "C" fn textcodec_sniff_options_default(kind: u32) -> TextcodecSniffOptions {
    TextcodecSniffOptions {
        kind,
        content_type: core::ptr::null(),
        content_type_len: 0,
        user_override: TEXTCODEC_NO_ENCODING,
        fallback: TEXTCODEC_NO_ENCODING,
        locale: core::ptr::null(),
        locale_len: 0,
        detect: false,
        tld: core::ptr::null(),
        tld_len: 0,
    }
}

fn kind_of(kind: u32) -> Option<ResourceKind> {
    Some(match kind {
        TEXTCODEC_RESOURCE_HTML => ResourceKind::Html,
        TEXTCODEC_RESOURCE_XML => ResourceKind::Xml,
        TEXTCODEC_RESOURCE_CSS => ResourceKind::Css,
        TEXTCODEC_RESOURCE_PLAIN_TEXT => ResourceKind::PlainText,
        TEXTCODEC_RESOURCE_JSON => ResourceKind::Json,
        _ => return None,
    })
}

fn source_id(source: Source) -> u32 {
    match source {
        Source::Bom => TEXTCODEC_SOURCE_BOM,
        Source::UserOverride => TEXTCODEC_SOURCE_USER_OVERRIDE,
        Source::TransportLayer => TEXTCODEC_SOURCE_TRANSPORT_LAYER,
        Source::MetaPrescan => TEXTCODEC_SOURCE_META_PRESCAN,
        Source::XmlDeclaration => TEXTCODEC_SOURCE_XML_DECLARATION,
        Source::Utf16Pattern => TEXTCODEC_SOURCE_UTF16_PATTERN,
        Source::CssCharset => TEXTCODEC_SOURCE_CSS_CHARSET,
        Source::Fallback => TEXTCODEC_SOURCE_FALLBACK,
        Source::Detection => TEXTCODEC_SOURCE_DETECTION,
        Source::LocaleDefault => TEXTCODEC_SOURCE_LOCALE_DEFAULT,
        Source::Default => TEXTCODEC_SOURCE_DEFAULT,
        Source::Utf8Only => TEXTCODEC_SOURCE_UTF8_ONLY,
    }
}

/// An optional encoding option: `Ok(None)` for `TEXTCODEC_NO_ENCODING`, `Err` for a number
/// that is not an encoding.
fn optional_encoding(id: TextcodecEncoding) -> Result<Option<textcodec::Encoding>, ()> {
    if id == TEXTCODEC_NO_ENCODING {
        Ok(None)
    } else {
        encoding_of(id).map(Some).ok_or(())
    }
}

/// Decides the encoding of a resource from its first bytes (give
/// `TEXTCODEC_SNIFF_PREFIX_LEN` of them, or the whole resource if shorter) and the
/// options (`NULL`: HTML, nothing else known), as a browser would, and writes the decision
/// to `*report_out`. Returns `false` (and writes nothing) for invalid arguments: a `NULL`
/// report, an unknown kind or encoding, a `NULL` pointer with a length, a locale that is
/// not UTF-8. Decode the whole resource with `textcodec_decoder_new(report.encoding,
/// report.error_mode, TEXTCODEC_BOM_SNIFF)` (`TEXTCODEC_BOM_REMOVE` for JSON).
///
/// # Safety
/// `prefix` designates `prefix_len` readable bytes; `options` is `NULL` or points to a
/// readable `TextcodecSniffOptions` whose pointers designate their lengths' worth of
/// readable bytes; `report_out` points to a writable `TextcodecSniffReport`.
#[no_mangle]
pub unsafe extern "C" fn textcodec_sniff(
    prefix: *const u8,
    prefix_len: usize,
    options: *const TextcodecSniffOptions,
    report_out: *mut TextcodecSniffReport,
) -> bool {
    if report_out.is_null() {
        return false;
    }
    // SAFETY: the documented contract.
    let options = unsafe { options.as_ref() }
        .copied()
        .unwrap_or_else(|| textcodec_sniff_options_default(TEXTCODEC_RESOURCE_HTML));
    // SAFETY: the documented contract, for each pointer.
    let (Some(prefix), Some(content_type), Some(tld)) = (
        unsafe { slice(prefix, prefix_len) },
        unsafe { slice(options.content_type, options.content_type_len) },
        unsafe { slice(options.tld, options.tld_len) },
    ) else {
        return false;
    };
    let locale = if options.locale.is_null() {
        None
    } else {
        // SAFETY: the documented contract.
        match unsafe { str_arg(options.locale, options.locale_len) } {
            Some(l) => Some(l),
            None => return false,
        }
    };
    let (Some(kind), Ok(user_override), Ok(fallback)) = (
        kind_of(options.kind),
        optional_encoding(options.user_override),
        optional_encoding(options.fallback),
    ) else {
        return false;
    };
    let rust_options = SniffOptions {
        kind,
        content_type: (!options.content_type.is_null()).then_some(content_type),
        user_override,
        fallback,
        locale,
        detect: options.detect,
        tld: (!options.tld.is_null()).then_some(tld),
    };
    let r = sniff(prefix, &rust_options);
    let report = TextcodecSniffReport {
        encoding: id_of(r.encoding),
        confidence: match r.confidence {
            Confidence::Certain => TEXTCODEC_CONFIDENCE_CERTAIN,
            Confidence::Tentative => TEXTCODEC_CONFIDENCE_TENTATIVE,
            Confidence::Irrelevant => TEXTCODEC_CONFIDENCE_IRRELEVANT,
        },
        source: source_id(r.source),
        error_mode: match r.error_mode {
            DecodeErrorMode::Fatal => TEXTCODEC_DECODE_FATAL,
            DecodeErrorMode::Replacement => TEXTCODEC_DECODE_REPLACEMENT,
        },
        bom_length: r.bom_length,
        offset: r.offset.unwrap_or(usize::MAX),
        has_detection: r.detection.is_some(),
        detection: r
            .detection
            .map(guess_to_c)
            .unwrap_or_else(TextcodecGuess::none),
    };
    // SAFETY: the documented contract: a writable report.
    unsafe { report_out.write(report) };
    true
}
