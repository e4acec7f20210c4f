//! `textcodec.sniff` and `textcodec.decode_html`: browser-style encoding detection of a web
//! resource (`textcodec::sniff`: HTML's encoding sniffing algorithm, XML, CSS, JSON).

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use textcodec::sniff::{
    self as core, Confidence, PrescanSource, ResourceKind, SniffOptions, Source,
};
use textcodec::{BomHandling, Encoding};

use crate::decode::{decode_all, DecodeErrors};
use crate::encoding::resolve;
use crate::pyext::ByteView;

/// Why the encoding was chosen, and how sure the browser is. `str(report)` gives one line,
/// e.g. `Shift_JIS (tentative): <meta charset> at byte 40`.
#[pyclass(name = "SniffReport", module = "textcodec", frozen)]
pub struct PySniffReport {
    report: core::SniffReport,
}

fn source_name(source: Source) -> &'static str {
    match source {
        Source::Bom => "bom",
        Source::UserOverride => "user-override",
        Source::TransportLayer => "content-type",
        Source::MetaPrescan => "meta",
        Source::XmlDeclaration => "xml-declaration",
        Source::Utf16Pattern => "utf-16-pattern",
        Source::CssCharset => "css-charset",
        Source::Detection => "detection",
        Source::Fallback => "fallback",
        Source::LocaleDefault => "locale-default",
        Source::Default => "default",
        Source::Utf8Only => "utf-8-only",
    }
}

fn kind_name(kind: ResourceKind) -> &'static str {
    match kind {
        ResourceKind::Html => "html",
        ResourceKind::Xml => "xml",
        ResourceKind::Css => "css",
        ResourceKind::PlainText => "text",
        ResourceKind::Json => "json",
    }
}

#[pymethods]
impl PySniffReport {
    /// The name of the encoding to decode with.
    #[getter]
    fn encoding(&self) -> &'static str {
        self.report.encoding.name()
    }

    /// What decided: "bom", "user-override", "content-type", "meta", "xml-declaration",
    /// "utf-16-pattern", "css-charset", "detection", "fallback", "locale-default",
    /// "default" or "utf-8-only".
    #[getter]
    fn source(&self) -> &'static str {
        source_name(self.report.source)
    }

    /// HTML's confidence: "certain" or "tentative" (a later `<meta>` may change it);
    /// "irrelevant" for XML, CSS and JSON.
    #[getter]
    fn confidence(&self) -> &'static str {
        match self.report.confidence {
            Confidence::Certain => "certain",
            Confidence::Tentative => "tentative",
            Confidence::Irrelevant => "irrelevant",
        }
    }

    /// Byte offset of the in-band declaration that decided (`<meta`, `<?xml`, `@charset`),
    /// or None.
    #[getter]
    fn offset(&self) -> Option<usize> {
        self.report.offset
    }

    /// Length of the byte order mark at the start (0, 2 or 3).
    #[getter]
    fn bom_length(&self) -> usize {
        self.report.bom_length
    }

    /// The kind of resource the rules were for: "html", "xml", "css", "text" or "json".
    #[getter]
    fn kind(&self) -> &'static str {
        kind_name(self.report.kind)
    }

    /// For a `<meta>` decision: "meta charset" or "meta http-equiv"; None otherwise.
    #[getter]
    fn meta(&self) -> Option<&'static str> {
        match self.report.prescan {
            Some(PrescanSource::MetaCharset) => Some("meta charset"),
            Some(PrescanSource::MetaHttpEquiv) => Some("meta http-equiv"),
            _ => None,
        }
    }

    /// With `detect=True` and the detector consulted: its score for the guess; else None.
    #[getter]
    fn detection_score(&self) -> Option<f64> {
        self.report.detection.map(|g| f64::from(g.score))
    }

    /// With `detect=True` and the detector consulted: the guess's score minus the
    /// runner-up's (the larger, the surer); else None.
    #[getter]
    fn detection_margin(&self) -> Option<f64> {
        self.report.detection.map(|g| f64::from(g.margin))
    }

    fn __str__(&self) -> String {
        self.report.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "SniffReport(encoding={:?}, source={:?}, confidence={:?}, offset={})",
            self.report.encoding.name(),
            source_name(self.report.source),
            self.confidence(),
            self.report
                .offset
                .map_or_else(|| "None".to_owned(), |o| o.to_string())
        )
    }
}

fn parse_kind(kind: &str, content_type: Option<&[u8]>) -> PyResult<ResourceKind> {
    Ok(match kind {
        "html" => ResourceKind::Html,
        "xml" => ResourceKind::Xml,
        "css" => ResourceKind::Css,
        "text" => ResourceKind::PlainText,
        "json" => ResourceKind::Json,
        "auto" => content_type
            .and_then(ResourceKind::from_content_type)
            .unwrap_or(ResourceKind::Html),
        other => {
            return Err(PyValueError::new_err(format!(
                "kind must be 'html', 'xml', 'css', 'text', 'json' or 'auto', not {other:?}"
            )))
        }
    })
}

/// A `str` or `bytes` header value.
pub fn header_bytes(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<u8>>> {
    match value {
        None => Ok(None),
        Some(v) if v.is_none() => Ok(None),
        Some(v) => {
            if let Ok(s) = v.cast::<PyString>() {
                // Header values are bytes; a str holding non-Latin-1 characters cannot be one.
                Ok(Some(s.to_cow()?.as_bytes().to_vec()))
            } else if let Ok(b) = v.cast::<PyBytes>() {
                Ok(Some(b.as_bytes().to_vec()))
            } else {
                Err(PyTypeError::new_err(
                    "content_type must be str, bytes or None",
                ))
            }
        }
    }
}

fn optional_encoding(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Encoding>> {
    match value {
        Some(v) if !v.is_none() => Ok(Some(resolve(v)?)),
        _ => Ok(None),
    }
}

/// Options shared by `sniff` and `decode_html`.
struct Options {
    content_type: Option<Vec<u8>>,
    locale: Option<String>,
    fallback: Option<Encoding>,
    user_override: Option<Encoding>,
    detect: bool,
    tld: Option<String>,
}

impl Options {
    fn new(
        content_type: Option<&Bound<'_, PyAny>>,
        locale: Option<String>,
        fallback: Option<&Bound<'_, PyAny>>,
        user_override: Option<&Bound<'_, PyAny>>,
        detect: bool,
        tld: Option<String>,
    ) -> PyResult<Options> {
        Ok(Options {
            content_type: header_bytes(content_type)?,
            locale,
            fallback: optional_encoding(fallback)?,
            user_override: optional_encoding(user_override)?,
            detect,
            tld,
        })
    }

    fn core(&self, kind: ResourceKind) -> SniffOptions<'_> {
        SniffOptions {
            kind,
            content_type: self.content_type.as_deref(),
            user_override: self.user_override,
            fallback: self.fallback,
            locale: self.locale.as_deref(),
            detect: self.detect,
            tld: self.tld.as_deref().map(str::as_bytes),
        }
    }
}

/// sniff(data, content_type=None, *, kind="html", locale=None, fallback=None,
///       user_override=None, detect=False, tld=None) -> SniffReport
///
/// Which encoding a browser would decode `data` with. The BOM, `<meta>` prescan and
/// declarations look at the first 1024 bytes; with `detect=True` (HTML and text), bytes
/// that nothing labelled go to the statistical detector (all of `data`; `tld` is its hint)
/// before the fallback and locale default, as the HTML Standard allows.
#[pyfunction]
#[pyo3(signature = (data, content_type=None, *, kind="html", locale=None, fallback=None, user_override=None, detect=false, tld=None))]
pub fn sniff(
    data: &Bound<'_, PyAny>,
    content_type: Option<&Bound<'_, PyAny>>,
    kind: &str,
    locale: Option<String>,
    fallback: Option<&Bound<'_, PyAny>>,
    user_override: Option<&Bound<'_, PyAny>>,
    detect: bool,
    tld: Option<String>,
) -> PyResult<PySniffReport> {
    let view = ByteView::new(data, "sniff() argument 'data'")?;
    let options = Options::new(content_type, locale, fallback, user_override, detect, tld)?;
    let kind = parse_kind(kind, options.content_type.as_deref())?;
    Ok(PySniffReport {
        report: core::sniff(view.as_slice(), &options.core(kind)),
    })
}

/// Sniffs (HTML rules) and decodes, as a browser displays the page: returns the text and
/// the name of the encoding.
pub fn decode_html_bytes<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    view: &ByteView<'py>,
    options: &SniffOptions<'_>,
) -> PyResult<(Bound<'py, PyString>, Encoding)> {
    let report = core::sniff(view.as_slice(), options);
    // `decode_resource` for HTML: the *decode* hook with the sniffed encoding as fallback
    // (the BOM, if any, is what decided).
    decode_all(
        py,
        source,
        view,
        report.encoding,
        &DecodeErrors::Replace,
        BomHandling::Sniff,
    )
}

/// decode_html(body, content_type=None, *, locale=None, fallback=None, user_override=None,
///             detect=False, tld=None) -> tuple[str, str]
///
/// Decodes an HTML page as a browser does: BOM, then the Content-Type charset, then a
/// `<meta>` in the first 1024 bytes, then (with `detect=True`) the statistical detector,
/// then the fallback or the locale's default (windows-1252 without one). Returns the text
/// and the encoding's name.
#[pyfunction]
#[pyo3(signature = (body, content_type=None, *, locale=None, fallback=None, user_override=None, detect=false, tld=None))]
pub fn decode_html<'py>(
    py: Python<'py>,
    body: &Bound<'py, PyAny>,
    content_type: Option<&Bound<'py, PyAny>>,
    locale: Option<String>,
    fallback: Option<&Bound<'py, PyAny>>,
    user_override: Option<&Bound<'py, PyAny>>,
    detect: bool,
    tld: Option<String>,
) -> PyResult<(Bound<'py, PyString>, &'static str)> {
    let view = ByteView::new(body, "decode_html() argument 'body'")?;
    let options = Options::new(content_type, locale, fallback, user_override, detect, tld)?;
    let (text, encoding) = decode_html_bytes(py, body, &view, &options.core(ResourceKind::Html))?;
    Ok((text, encoding.name()))
}
