//! Decode web resources like a browser: pick the encoding from the bytes, the
//! `Content-Type` header and the context, with the algorithms the web platform specifies.
//!
//! | Resource | Standard | here |
//! | --- | --- | --- |
//! | `Content-Type` | MIME Sniffing §4.4 *parse a MIME type*; Fetch *extract a MIME type*, *legacy extract an encoding* | [`charset_from_content_type`], [`MimeType`] (`mime.rs`) |
//! | HTML | HTML §13.2.3.2 *encoding sniffing algorithm*, *prescan a byte stream to determine its encoding*, *get an attribute*, *get an XML encoding*; §2 *extracting a character encoding from a meta element* | [`sniff`] with [`ResourceKind::Html`], [`html_prescan`], [`extract_encoding_from_meta`] (`html.rs`) |
//! | HTML, later `<meta>` | HTML §13.2.3.4 *changing the encoding while parsing* | [`should_change_encoding`] |
//! | HTML default | HTML §13.2.3.2, the table of locale defaults | [`default_for_locale`] (`locale.rs`) |
//! | XML | XML 1.0 §4.3.3, Appendix F; Encoding Standard (XML uses error mode fatal) | [`sniff`] with [`ResourceKind::Xml`], [`xml_declared_encoding`] (`xml.rs`) |
//! | CSS | CSS Syntax 3 §3.2 *determine the fallback encoding* | [`sniff`] with [`ResourceKind::Css`], [`css_charset`] (`css.rs`) |
//! | JSON and other UTF-8-only formats | Encoding *UTF-8 decode* | [`ResourceKind::Json`] |
//!
//! ```
//! use textcodec::sniff::{decode_resource, Confidence, ResourceKind, SniffOptions, Source};
//! use textcodec::Encoding;
//!
//! let page = b"<!doctype html><meta charset=shift_jis><p>\x93\xfa\x96\x7b";
//! let options = SniffOptions { content_type: Some(b"text/html"), ..SniffOptions::new(ResourceKind::Html) };
//! let (text, report) = decode_resource(page, &options);
//! assert!(text.ends_with("<p>日本"));
//! assert_eq!((report.encoding, report.confidence, report.source),
//!            (Encoding::ShiftJis, Confidence::Tentative, Source::MetaPrescan));
//! assert_eq!(report.to_string(), "Shift_JIS (tentative): <meta charset> at byte 15");
//! ```
//!
//! ## Deciding from a prefix, then streaming
//!
//! [`sniff`] looks at most at the first [`SNIFF_PREFIX_LEN`] (1024) bytes for every kind:
//! the HTML prescan's limit, the CSS `@charset` limit, and the limit chosen here for the
//! XML declaration. Give it the first 1024 bytes (or the whole resource if it is shorter):
//! more bytes change nothing, fewer may (the prescan then "runs out of bytes"). Then create
//! the decoder the report describes ([`SniffReport::decoder`]: the encoding, BOM handling,
//! and error mode — fatal for XML) and feed it the whole stream from its first byte, in
//! chunks. [`ResourceDecoder`] does both steps for you.
//!
//! ```
//! use textcodec::sniff::{sniff, ResourceKind, SniffOptions};
//! let stream: &[u8] = b"\xEF\xBB\xBF<?xml version='1.0'?><r>\xC3\xA9</r>";
//! let report = sniff(&stream[..stream.len().min(1024)], &SniffOptions::new(ResourceKind::Xml));
//! let mut decoder = report.decoder();
//! let mut text = String::new();
//! for chunk in stream.chunks(5) {
//!     let _ = decoder.decode_to_string(chunk, &mut text, false);
//! }
//! let _ = decoder.decode_to_string(b"", &mut text, true);
//! assert_eq!(text, "<?xml version='1.0'?><r>é</r>");
//! ```
//!
//! ## Interpretations
//!
//! Where the standards leave room or where this crate had to choose, it does this:
//!
//! 1. **HTML Standard version.** The prescan follows the current HTML Living Standard text
//!    (since 2020): step 2 "prescan for UTF-16 XML declarations" (`3C 00 3F 00 78 00` →
//!    UTF-16LE, `00 3C 00 3F 00 78` → UTF-16BE, returned as is, not turned into UTF-8), and
//!    when the prescan runs out of bytes or reaches its end condition it returns *get an
//!    XML encoding* of the stream instead of failure.
//! 2. **End condition.** The prescan's end condition is "1024 bytes": bytes at index 1024
//!    and later do not exist for it (a `<meta` straddling byte 1024 is not seen), and
//!    *get an XML encoding* uses the same 1024-byte window.
//! 3. **Get an XML encoding** searches for `encoding`, whitespace, `=` and the quotes only
//!    before the declaration's first `>` (*xmlDeclarationEnd*).
//! 4. **Confidence** is an HTML notion. HTML and plain text report *certain* or
//!    *tentative* as the encoding sniffing algorithm does; XML, CSS and JSON report
//!    [`Confidence::Irrelevant`]: their encoding never changes once decided.
//! 5. **User override** applies to HTML, plain text and XML (browsers let users override
//!    those), after the BOM; CSS and JSON ignore it.
//! 6. **Fallback** ([`SniffOptions::fallback`]) is the parent document's encoding for
//!    HTML and plain text (step 6: skipped when it is UTF-16BE/LE; the caller vouches for
//!    "same origin"), and the referring document's *environment encoding* for CSS; XML
//!    and JSON ignore it. After it, HTML and plain text use the locale table
//!    ([`SniffOptions::locale`], [`default_for_locale`]) or windows-1252; XML and CSS use
//!    UTF-8. Step 7 (previous visit) is not implemented; step 8 (frequency analysis) is
//!    the opt-in [`SniffOptions::detect`] ([`crate::detect`]), run before step 6 so a
//!    detected encoding wins over the parent document's.
//! 7. **Plain text** (`text/plain` navigations) uses the HTML algorithm without the
//!    `<meta>` prescan: BOM, override, transport, fallback, default.
//! 8. **XML**: BOM, user override, `Content-Type` charset, UTF-16 without BOM
//!    (`00 3C 00 3F` / `3C 00 3F 00`, Appendix F.1), the encoding declaration (parsed
//!    exactly by the XMLDecl grammar, ending within 1024 bytes), UTF-8. A declared
//!    UTF-16 in an ASCII-compatible declaration becomes UTF-8; a malformed declaration or
//!    an unknown label is ignored (UTF-8; the processor reports the error). UCS-4 and EBCDIC
//!    (Appendix F rows without an Encoding Standard encoding) are not detected.
//! 9. **CSS** `@charset` bytes `XX` are 0x16–0x21 or 0x23–0x7F, as CSS Syntax writes them.
//!    A UTF-16 label from HTTP or the referrer is kept (only `@charset` maps it to UTF-8).
//! 10. **Content-Type** with several comma-separated values (combined headers) follows
//!     Fetch's *extract a MIME type*: the last valid MIME type wins, inheriting an earlier
//!     `charset` of the same essence.
//! 11. **Changing the encoding**: "identical or equivalent" means the same encoding;
//!     "the same Unicode interpretations" is checked by decoding the bytes so far with both
//!     decoders and requiring equal output and no pending bytes.
//! 12. **Locale defaults**: `zh` with `Hant`, `TW`, `HK` or `MO` → Big5, other `zh` →
//!     GB18030; POSIX names (`ja_JP.UTF-8`) are accepted.
#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

mod css;
mod html;
mod locale;
mod mime;
mod xml;

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

pub use css::{css_charset, css_charset_label, CSS_CHARSET_LIMIT};
pub use html::{
    extract_encoding_from_meta, get_an_xml_encoding, html_prescan, html_prescan_detailed,
    should_change_encoding, EncodingChange, Prescan, PrescanSource, PRESCAN_LIMIT,
};
pub use locale::default_for_locale;
pub use mime::{charset_from_content_type, MimeType};
pub use xml::{
    xml_declaration_label, xml_declared_encoding, xml_utf16_without_bom, XML_DECLARATION_LIMIT,
};

use crate::{
    bom_sniff, BomHandling, DecodeErrorMode, DecodeStatus, Decoder, DecoderOptions, Encoding,
    MalformedSequence,
};

/// How many leading bytes [`sniff`] may read, for every [`ResourceKind`].
pub const SNIFF_PREFIX_LEN: usize = 1024;

/// The kind of resource, which selects the sniffing rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum ResourceKind {
    /// An HTML document: the HTML Standard's encoding sniffing algorithm.
    #[default]
    Html,
    /// An XML document (XML 1.0 Appendix F).
    Xml,
    /// A CSS style sheet (CSS Syntax *determine the fallback encoding*).
    Css,
    /// A plain text document: the HTML algorithm without the `<meta>` prescan.
    PlainText,
    /// JSON and other UTF-8-only formats: *UTF-8 decode* (a UTF-8 BOM is removed; the
    /// `charset` parameter and other BOMs are ignored).
    Json,
}

impl ResourceKind {
    /// The kind for a MIME type essence: `text/html` → HTML; `text/xml`, `application/xml`
    /// and `*/*+xml` → XML; `text/css` → CSS; `application/json`, `text/json` and `*/*+json`
    /// → JSON; anything else → plain text.
    ///
    /// ```
    /// use textcodec::sniff::ResourceKind;
    /// assert_eq!(ResourceKind::from_essence("image/svg+xml"), ResourceKind::Xml);
    /// assert_eq!(ResourceKind::from_essence("application/ld+json"), ResourceKind::Json);
    /// ```
    pub fn from_essence(essence: &str) -> ResourceKind {
        match essence {
            "text/html" => ResourceKind::Html,
            "text/xml" | "application/xml" => ResourceKind::Xml,
            "text/css" => ResourceKind::Css,
            "application/json" | "text/json" => ResourceKind::Json,
            e if e.ends_with("+xml") => ResourceKind::Xml,
            e if e.ends_with("+json") => ResourceKind::Json,
            _ => ResourceKind::PlainText,
        }
    }

    /// The kind a `Content-Type` header value names ([`MimeType::extract`], then
    /// [`ResourceKind::from_essence`]); `None` if it does not parse.
    ///
    /// ```
    /// use textcodec::sniff::ResourceKind;
    /// assert_eq!(ResourceKind::from_content_type(b"Text/CSS; charset=utf-8"), Some(ResourceKind::Css));
    /// ```
    pub fn from_content_type(content_type: &[u8]) -> Option<ResourceKind> {
        MimeType::extract(content_type).map(|m| ResourceKind::from_essence(&m.essence()))
    }
}

impl fmt::Display for ResourceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ResourceKind::Html => "HTML",
            ResourceKind::Xml => "XML",
            ResourceKind::Css => "CSS",
            ResourceKind::PlainText => "plain text",
            ResourceKind::Json => "JSON",
        })
    }
}

/// The HTML parser's *confidence* in its encoding (HTML §13.2.3, "The input byte stream").
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Confidence {
    /// The encoding will not change (BOM, user override, transport layer).
    Certain,
    /// The encoding was guessed and a later `<meta>` may change it
    /// ([`should_change_encoding`]).
    Tentative,
    /// The encoding is not subject to change by the HTML rules (XML, CSS, JSON).
    Irrelevant,
}

impl fmt::Display for Confidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Confidence::Certain => "certain",
            Confidence::Tentative => "tentative",
            Confidence::Irrelevant => "irrelevant",
        })
    }
}

/// What decided the encoding.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Source {
    /// A byte order mark (*BOM sniff*).
    Bom,
    /// [`SniffOptions::user_override`].
    UserOverride,
    /// The `charset` parameter of [`SniffOptions::content_type`].
    TransportLayer,
    /// HTML: a `<meta>` found by the prescan.
    MetaPrescan,
    /// An XML declaration: the XML encoding declaration, or the HTML prescan's *get an XML
    /// encoding*.
    XmlDeclaration,
    /// UTF-16 recognised from the first bytes without a BOM: the HTML prescan's UTF-16 XML
    /// declaration patterns, or XML Appendix F's `00 3C 00 3F` / `3C 00 3F 00`.
    Utf16Pattern,
    /// CSS: the `@charset "…";` rule.
    CssCharset,
    /// [`SniffOptions::fallback`]: the parent document's (HTML) or the referring
    /// document's (CSS) encoding.
    Fallback,
    /// HTML and plain text with [`SniffOptions::detect`]: the encoding detector
    /// ([`crate::detect`]; the HTML Standard's step 8, "frequency analysis"), tentative.
    Detection,
    /// The HTML Standard's default for [`SniffOptions::locale`].
    LocaleDefault,
    /// The kind's default: windows-1252 for HTML and plain text, UTF-8 for XML and CSS.
    Default,
    /// The format is UTF-8 only (JSON).
    Utf8Only,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Source::Bom => "byte order mark",
            Source::UserOverride => "user override",
            Source::TransportLayer => "Content-Type charset",
            Source::MetaPrescan => "<meta> prescan",
            Source::XmlDeclaration => "XML declaration",
            Source::Utf16Pattern => "UTF-16 pattern in the first bytes",
            Source::CssCharset => "@charset rule",
            Source::Fallback => "fallback encoding",
            Source::Detection => "detection",
            Source::LocaleDefault => "locale default",
            Source::Default => "default",
            Source::Utf8Only => "UTF-8-only format",
        })
    }
}

/// Inputs to [`sniff`] besides the bytes. Build with [`SniffOptions::new`] or
/// `Default` (HTML, nothing else known) and struct update syntax.
///
/// ```
/// use textcodec::sniff::{ResourceKind, SniffOptions};
/// use textcodec::Encoding;
/// let options = SniffOptions {
///     content_type: Some(b"text/css"),
///     fallback: Some(Encoding::Windows1251), // the referring document's encoding
///     ..SniffOptions::new(ResourceKind::Css)
/// };
/// assert_eq!(options.kind, ResourceKind::Css);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct SniffOptions<'a> {
    /// Which rules to apply.
    pub kind: ResourceKind,
    /// The `Content-Type` header value (transport layer), whose `charset` is used.
    pub content_type: Option<&'a [u8]>,
    /// An encoding the user chose (HTML, plain text, XML): wins over everything but a BOM.
    pub user_override: Option<Encoding>,
    /// The caller's fallback: the parent document's encoding (HTML, plain text; ignored
    /// when UTF-16BE/LE) or the referring document's (CSS). Ignored for XML and JSON.
    pub fallback: Option<Encoding>,
    /// The user's locale as a language tag, for the HTML default table
    /// ([`default_for_locale`]); without it, HTML and plain text default to windows-1252.
    /// Also the detector's locale hint.
    pub locale: Option<&'a str>,
    /// HTML and plain text: run the encoding detector ([`crate::detect`]) when the BOM,
    /// the override, the transport layer and the prescan decided nothing, before the
    /// fallback and the locale default ([`Source::Detection`], tentative). Off by
    /// default. The detector examines every byte given to [`sniff`] (not only the first
    /// 1024: more bytes, better guesses), treating them as a prefix (a sequence cut at
    /// the end is not an error); UTF-8 is an allowed answer. ASCII-only bytes give it no
    /// evidence: the later steps decide (the report still carries the detector's
    /// [`SniffReport::detection`]).
    pub detect: bool,
    /// The detector's top-level-domain hint ([`crate::detect::Hints::tld`]), e.g. `b"jp"`.
    pub tld: Option<&'a [u8]>,
}

impl SniffOptions<'_> {
    /// Options for `kind` with nothing else known.
    pub fn new(kind: ResourceKind) -> Self {
        SniffOptions {
            kind,
            ..SniffOptions::default()
        }
    }

    fn resolve(&self) -> Resolved {
        Resolved {
            kind: self.kind,
            transport: self.content_type.and_then(charset_from_content_type),
            user_override: self.user_override,
            fallback: self.fallback,
            locale_default: self.locale.map(default_for_locale),
            detect: if self.detect {
                Some(DetectHints::new(self.tld, self.locale))
            } else {
                None
            },
        }
    }
}

/// The detector's hints, owned (a [`ResourceDecoder`] keeps them): longer TLDs and locale
/// tags than the buffers hold are dropped.
#[derive(Clone, Copy, Debug)]
struct DetectHints {
    tld: [u8; 16],
    tld_len: Option<usize>,
    locale: [u8; 32],
    locale_len: Option<usize>,
}

impl DetectHints {
    fn new(tld: Option<&[u8]>, locale: Option<&str>) -> Self {
        let mut h = DetectHints {
            tld: [0; 16],
            tld_len: None,
            locale: [0; 32],
            locale_len: None,
        };
        if let Some(t) = tld {
            if let Some(d) = h.tld.get_mut(..t.len()) {
                d.copy_from_slice(t);
                h.tld_len = Some(t.len());
            }
        }
        if let Some(l) = locale {
            if let Some(d) = h.locale.get_mut(..l.len()) {
                d.copy_from_slice(l.as_bytes());
                h.locale_len = Some(l.len());
            }
        }
        h
    }

    fn guess(&self, bytes: &[u8]) -> crate::detect::Guess {
        let tld = self.tld_len.and_then(|n| self.tld.get(..n));
        let locale = self
            .locale_len
            .and_then(|n| self.locale.get(..n))
            .and_then(|l| core::str::from_utf8(l).ok());
        let hints = crate::detect::Hints {
            tld,
            locale,
            ..crate::detect::Hints::new()
        };
        let mut detector = crate::detect::Detector::new();
        detector.feed(bytes, false);
        detector.guess(&hints)
    }
}

/// [`SniffOptions`] with the header parsed and the locale looked up.
#[derive(Clone, Copy, Debug)]
struct Resolved {
    kind: ResourceKind,
    transport: Option<Encoding>,
    user_override: Option<Encoding>,
    fallback: Option<Encoding>,
    locale_default: Option<Encoding>,
    detect: Option<DetectHints>,
}

/// The decision: encoding, confidence, and why. `Display` gives one human line, e.g.
/// `Shift_JIS (tentative): <meta charset> at byte 57`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct SniffReport {
    /// The kind of resource the rules were for.
    pub kind: ResourceKind,
    /// The encoding to decode with.
    pub encoding: Encoding,
    /// The HTML confidence ([`Confidence::Irrelevant`] for XML, CSS, JSON).
    pub confidence: Confidence,
    /// What decided.
    pub source: Source,
    /// Length of the byte order mark at the start (0, 2 or 3), whatever decided.
    pub bom_length: usize,
    /// Byte offset of the in-band declaration that decided (`<meta`, `<?xml`, `@charset`,
    /// the UTF-16 pattern).
    pub offset: Option<usize>,
    /// For [`Source::MetaPrescan`], [`Source::XmlDeclaration`] and [`Source::Utf16Pattern`]
    /// from the HTML prescan: which construct it was.
    pub prescan: Option<PrescanSource>,
    /// The error mode to decode with: fatal for XML, replacement otherwise.
    pub error_mode: DecodeErrorMode,
    /// The encoding detector's guess (score, margin), when it ran
    /// ([`SniffOptions::detect`], and nothing before it decided).
    pub detection: Option<crate::detect::Guess>,
}

impl SniffReport {
    fn new(kind: ResourceKind, encoding: Encoding, confidence: Confidence, source: Source) -> Self {
        SniffReport {
            kind,
            encoding,
            confidence,
            source,
            bom_length: 0,
            offset: None,
            prescan: None,
            detection: None,
            error_mode: if kind == ResourceKind::Xml {
                DecodeErrorMode::Fatal
            } else {
                DecodeErrorMode::Replacement
            },
        }
    }

    /// The options for a [`Decoder`] over the whole stream (BOM included): this report's
    /// error mode, and BOM handling [`BomHandling::Sniff`] (*decode*: the BOM, which already
    /// decided the encoding, is removed) — or [`BomHandling::Remove`] for JSON (*UTF-8
    /// decode*: only a UTF-8 BOM is removed).
    pub fn decoder_options(&self) -> DecoderOptions {
        DecoderOptions {
            error_mode: self.error_mode,
            bom: if self.kind == ResourceKind::Json {
                BomHandling::Remove
            } else {
                BomHandling::Sniff
            },
        }
    }

    /// A decoder for the whole stream, from its first byte: `Decoder::with_options(
    /// report.encoding, report.decoder_options())`.
    ///
    /// ```
    /// use textcodec::sniff::{sniff, SniffOptions};
    /// let report = sniff(b"\xFF\xFEh\0i\0", &SniffOptions::default());
    /// let mut text = String::new();
    /// let _ = report.decoder().decode_to_string(b"\xFF\xFEh\0i\0", &mut text, true);
    /// assert_eq!(text, "hi");
    /// ```
    pub fn decoder(&self) -> Decoder {
        Decoder::with_options(self.encoding, self.decoder_options())
    }
}

impl fmt::Display for SniffReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.encoding)?;
        if self.confidence != Confidence::Irrelevant {
            write!(f, " ({})", self.confidence)?;
        }
        f.write_str(": ")?;
        match self.prescan {
            Some(PrescanSource::MetaCharset) => f.write_str("<meta charset>")?,
            Some(PrescanSource::MetaHttpEquiv) => f.write_str("<meta http-equiv>")?,
            _ => write!(f, "{}", self.source)?,
        }
        if let Some(offset) = self.offset {
            write!(f, " at byte {offset}")?;
        }
        if let (Source::Detection, Some(g)) = (self.source, self.detection) {
            write!(
                f,
                " (confidence {:.3}, score {:.1}, margin {:.1}",
                g.confidence, g.score, g.margin
            )?;
            if let Some(binary) = g.binary {
                write!(f, "; binary data: {binary}")?;
            }
            f.write_str(")")?;
        }
        if self.source == Source::Bom {
            write!(f, " ({} bytes)", self.bom_length)?;
        }
        Ok(())
    }
}

/// The BOM length `bom_sniff` implies.
fn bom_len(encoding: Encoding) -> usize {
    if encoding == Encoding::Utf8 {
        3
    } else {
        2
    }
}

/// Decides the encoding of a resource from its first bytes (at most [`SNIFF_PREFIX_LEN`]
/// are read; give at least that many, or the whole resource if shorter) and the options.
///
/// * **HTML** — the HTML Standard's *encoding sniffing algorithm* (§13.2.3.2): 1. BOM
///   (certain); 2. user override (certain); 4. transport-layer charset (certain); 5. the
///   prescan of the first 1024 bytes ([`html_prescan_detailed`], tentative); 6. the parent
///   document's encoding unless UTF-16BE/LE (tentative); 9. the locale default or
///   windows-1252 (tentative).
///   With [`SniffOptions::detect`], step 8 (the detector, tentative) runs after step 5.
/// * **Plain text** — the same without step 5.
/// * **XML** — BOM, user override, transport charset, UTF-16 without BOM
///   ([`xml_utf16_without_bom`]), the encoding declaration ([`xml_declared_encoding`]),
///   UTF-8; error mode fatal.
/// * **CSS** — CSS Syntax *determine the fallback encoding*, under *decode*: BOM; 1. HTTP
///   charset; 2. `@charset` ([`css_charset`]); 3. the referring document's encoding
///   ([`SniffOptions::fallback`]); 4. UTF-8.
/// * **JSON** — UTF-8.
///
/// ```
/// use textcodec::sniff::{sniff, Confidence, ResourceKind, SniffOptions, Source};
/// use textcodec::Encoding;
/// let options = SniffOptions { content_type: Some(b"text/html; charset=euc-kr"), ..Default::default() };
/// let report = sniff(b"<meta charset=utf-8>", &options);
/// assert_eq!((report.encoding, report.confidence, report.source),
///            (Encoding::EucKr, Confidence::Certain, Source::TransportLayer));
///
/// let options = SniffOptions { locale: Some("ja-JP"), ..Default::default() };
/// assert_eq!(sniff(b"<p>no declaration", &options).to_string(), "Shift_JIS (tentative): locale default");
///
/// let report = sniff(b"@charset \"iso-8859-5\";", &SniffOptions::new(ResourceKind::Css));
/// assert_eq!(report.encoding, Encoding::Iso8859_5);
/// ```
pub fn sniff(prefix: &[u8], options: &SniffOptions<'_>) -> SniffReport {
    sniff_resolved(prefix, &options.resolve())
}

fn sniff_resolved(given: &[u8], options: &Resolved) -> SniffReport {
    let prefix = given.get(..SNIFF_PREFIX_LEN).unwrap_or(given);
    let kind = options.kind;
    let report =
        |encoding, confidence, source| SniffReport::new(kind, encoding, confidence, source);
    let bom = bom_sniff(prefix);
    let bom_length = bom.map_or(0, bom_len);

    if kind == ResourceKind::Json {
        let mut r = report(Encoding::Utf8, Confidence::Irrelevant, Source::Utf8Only);
        r.bom_length = if bom == Some(Encoding::Utf8) { 3 } else { 0 };
        return r;
    }
    let sniffing = matches!(kind, ResourceKind::Html | ResourceKind::PlainText);
    let (certain, tentative) = if sniffing {
        (Confidence::Certain, Confidence::Tentative)
    } else {
        (Confidence::Irrelevant, Confidence::Irrelevant)
    };
    // BOM (HTML step 1; *decode* for CSS; XML Appendix F).
    if let Some(encoding) = bom {
        let mut r = report(encoding, certain, Source::Bom);
        r.bom_length = bom_length;
        return r;
    }
    // User override (HTML step 2).
    if let (Some(encoding), false) = (options.user_override, kind == ResourceKind::Css) {
        return report(encoding, certain, Source::UserOverride);
    }
    // Transport layer (HTML step 4, CSS step 1).
    if let Some(encoding) = options.transport {
        return report(encoding, certain, Source::TransportLayer);
    }
    match kind {
        ResourceKind::Html => {
            // Step 5: the prescan.
            if let Some(p) = html_prescan_detailed(prefix) {
                let source = match p.source {
                    PrescanSource::MetaCharset | PrescanSource::MetaHttpEquiv => {
                        Source::MetaPrescan
                    }
                    PrescanSource::XmlDeclaration => Source::XmlDeclaration,
                    PrescanSource::Utf16XmlDeclaration => Source::Utf16Pattern,
                };
                let mut r = report(p.encoding, tentative, source);
                r.offset = Some(p.offset);
                r.prescan = Some(p.source);
                return r;
            }
        }
        ResourceKind::Xml => {
            if let Some(encoding) = xml_utf16_without_bom(prefix) {
                let mut r = report(encoding, certain, Source::Utf16Pattern);
                r.offset = Some(0);
                return r;
            }
            if let Some(encoding) = xml_declared_encoding(prefix) {
                let mut r = report(encoding, certain, Source::XmlDeclaration);
                r.offset = Some(0);
                return r;
            }
            return report(Encoding::Utf8, certain, Source::Default);
        }
        ResourceKind::Css => {
            // Step 2: @charset.
            if let Some(encoding) = css_charset(prefix) {
                let mut r = report(encoding, certain, Source::CssCharset);
                r.offset = Some(0);
                return r;
            }
            // Steps 3–4.
            return match options.fallback {
                Some(encoding) => report(encoding, certain, Source::Fallback),
                None => report(Encoding::Utf8, certain, Source::Default),
            };
        }
        ResourceKind::PlainText | ResourceKind::Json => {}
    }
    // Step 8 (autodetection), run here before step 6 when asked for.
    let detection = options.detect.map(|hints| hints.guess(given));
    let with_detection = |mut r: SniffReport| {
        r.detection = detection;
        r
    };
    if let Some(guess) = detection {
        let iso_2022_jp = guess.encoding == Encoding::Iso2022Jp;
        if !guess.ascii_only || iso_2022_jp {
            return with_detection(report(guess.encoding, tentative, Source::Detection));
        }
    }
    // HTML step 6: the parent document's encoding, unless UTF-16BE/LE.
    if let Some(encoding) = options.fallback.filter(|e| !e.is_utf16()) {
        return with_detection(report(encoding, tentative, Source::Fallback));
    }
    // Step 9: the default.
    with_detection(match options.locale_default {
        Some(encoding) => report(encoding, tentative, Source::LocaleDefault),
        None => report(Encoding::Windows1252, tentative, Source::Default),
    })
}

/// Sniffs ([`sniff`] on the first 1024 bytes) and decodes the whole resource in
/// replacement mode, as a browser displays it (the BOM removed). Borrows `bytes` when they
/// are already the text. For XML's fatal error mode use [`try_decode_resource`].
///
/// ```
/// use textcodec::sniff::{decode_resource, ResourceKind, SniffOptions};
/// let (text, report) = decode_resource(b"\xEF\xBB\xBF{\"a\": 1}", &SniffOptions::new(ResourceKind::Json));
/// assert_eq!(text, "{\"a\": 1}");
/// assert_eq!(report.to_string(), "UTF-8: UTF-8-only format");
/// ```
pub fn decode_resource<'b>(
    bytes: &'b [u8],
    options: &SniffOptions<'_>,
) -> (Cow<'b, str>, SniffReport) {
    let report = sniff(bytes, options);
    let text = if report.kind == ResourceKind::Json {
        crate::utf8_decode(bytes)
    } else {
        // *decode*: the BOM sniffed again here is the one that decided, if any.
        crate::decode(bytes, report.encoding).0
    };
    (text, report)
}

/// The error [`try_decode_resource`] returns: the decision and the first malformed
/// sequence (offset counted from the first byte of the resource, BOM included).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct DecodeResourceError {
    /// The decision that was made.
    pub report: SniffReport,
    /// The first malformed sequence.
    pub malformed: MalformedSequence,
}

impl fmt::Display for DecodeResourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.malformed, self.report)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for DecodeResourceError {}

/// [`decode_resource`] in the report's error mode: for XML, fatal ("an XML processor would
/// set error mode to fatal"), so malformed input is an error; other kinds never fail.
///
/// ```
/// use textcodec::sniff::{try_decode_resource, ResourceKind, SniffOptions};
/// let xml = SniffOptions::new(ResourceKind::Xml);
/// assert_eq!(try_decode_resource(b"<a>\xC3\xA9</a>", &xml).unwrap().0, "<a>é</a>");
/// let error = try_decode_resource(b"<a>\xE9</a>", &xml).unwrap_err();
/// assert_eq!(error.malformed.offset(), 3);
/// ```
pub fn try_decode_resource<'b>(
    bytes: &'b [u8],
    options: &SniffOptions<'_>,
) -> Result<(Cow<'b, str>, SniffReport), DecodeResourceError> {
    let report = sniff(bytes, options);
    if report.error_mode == DecodeErrorMode::Replacement {
        return Ok(decode_resource(bytes, options));
    }
    let start = report.bom_length;
    // The BOM was found in `bytes`, so `start <= bytes.len()`.
    let body = bytes.get(start..).unwrap_or_default();
    let error = |malformed: MalformedSequence| DecodeResourceError {
        report,
        malformed: malformed.shifted(start as u64),
    };
    if report.encoding == Encoding::Utf8 {
        return match crate::utf8_decode_without_bom_or_fail(body) {
            Ok(text) => Ok((Cow::Borrowed(text), report)),
            Err(malformed) => Err(error(malformed)),
        };
    }
    if let Some(text) = crate::decoder::borrowable(report.encoding, body) {
        return Ok((Cow::Borrowed(text), report));
    }
    let mut decoder = Decoder::with_options(
        report.encoding,
        DecoderOptions {
            error_mode: DecodeErrorMode::Fatal,
            bom: BomHandling::Keep,
        },
    );
    let mut text = String::with_capacity(body.len());
    match decoder.decode_to_string(body, &mut text, true).status {
        DecodeStatus::Malformed(malformed) => Err(error(malformed)),
        _ => Ok((Cow::Owned(text), report)),
    }
}

/// A streaming decoder for a resource: buffers the first [`SNIFF_PREFIX_LEN`] bytes (or
/// the whole resource, if shorter), sniffs, then decodes everything, chunk by chunk, with
/// the decoder the [`SniffReport`] describes.
///
/// ```
/// use textcodec::sniff::{ResourceDecoder, ResourceKind, SniffOptions};
/// let page = b"<meta http-equiv=content-type content='text/html;charset=koi8-r'>\xF0\xD2\xC9\xD7\xC5\xD4";
/// let mut decoder = ResourceDecoder::new(&SniffOptions::new(ResourceKind::Html));
/// let mut text = String::new();
/// for chunk in page.chunks(7) {
///     decoder.decode_to_string(chunk, &mut text, false).unwrap();
/// }
/// decoder.decode_to_string(b"", &mut text, true).unwrap();
/// assert!(text.ends_with(">Привет"));
/// assert_eq!(decoder.report().unwrap().encoding, textcodec::Encoding::Koi8R);
/// ```
#[derive(Clone, Debug)]
pub struct ResourceDecoder {
    options: Resolved,
    prefix: Vec<u8>,
    state: Option<(SniffReport, Decoder)>,
    failed: Option<MalformedSequence>,
}

impl ResourceDecoder {
    /// A decoder that will sniff with `options`.
    pub fn new(options: &SniffOptions<'_>) -> ResourceDecoder {
        ResourceDecoder {
            options: options.resolve(),
            prefix: Vec::new(),
            state: None,
            failed: None,
        }
    }

    /// The decision, once made (after 1024 bytes or the last chunk).
    pub fn report(&self) -> Option<SniffReport> {
        self.state.as_ref().map(|(report, _)| *report)
    }

    /// Decodes `chunk` (appending to `out`); `last` marks the end of the resource. Until the
    /// decision is made, bytes are buffered and nothing is written. In fatal mode (XML) the
    /// first malformed sequence is returned as an error, and every later call returns it
    /// again without decoding more (an XML processor stops at a fatal error).
    pub fn decode_to_string(
        &mut self,
        chunk: &[u8],
        out: &mut String,
        last: bool,
    ) -> Result<(), MalformedSequence> {
        if let Some(malformed) = self.failed {
            return Err(malformed);
        }
        let mut chunk = chunk;
        if self.state.is_none() {
            let take = SNIFF_PREFIX_LEN
                .saturating_sub(self.prefix.len())
                .min(chunk.len());
            let (head, rest) = chunk.split_at_checked(take).unwrap_or((chunk, &[]));
            self.prefix.extend_from_slice(head);
            chunk = rest;
            if self.prefix.len() < SNIFF_PREFIX_LEN && !last {
                return Ok(());
            }
            let report = sniff_resolved(&self.prefix, &self.options);
            let mut decoder = report.decoder();
            let prefix = core::mem::take(&mut self.prefix);
            let status = decoder
                .decode_to_string(&prefix, out, last && chunk.is_empty())
                .status;
            self.state = Some((report, decoder));
            if let DecodeStatus::Malformed(malformed) = status {
                self.failed = Some(malformed);
                return Err(malformed);
            }
            if chunk.is_empty() {
                return Ok(());
            }
        }
        if let Some((_, decoder)) = &mut self.state {
            if let DecodeStatus::Malformed(malformed) =
                decoder.decode_to_string(chunk, out, last).status
            {
                self.failed = Some(malformed);
                return Err(malformed);
            }
        }
        Ok(())
    }
}
