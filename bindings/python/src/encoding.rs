//! `textcodec.Encoding`, `lookup` and `encodings`: the Standard's names and labels
//! (<https://encoding.spec.whatwg.org/#names-and-labels>).

use pyo3::exceptions::{PyLookupError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyTuple};
use textcodec::Encoding;

/// One of the Standard's 40 encodings.
#[pyclass(name = "Encoding", module = "textcodec", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyEncoding {
    pub inner: Encoding,
}

#[pymethods]
impl PyEncoding {
    /// The Standard's name (`"Shift_JIS"`, `"windows-1252"`, `"UTF-8"`).
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    /// The name in ASCII lowercase, as `TextDecoder.encoding` reports it.
    #[getter]
    fn lowercase_name(&self) -> &'static str {
        self.inner.lowercase_name()
    }

    /// Every label of this encoding, in the Standard's order.
    #[getter]
    fn labels<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.own_labels().collect::<Vec<_>>())
    }

    /// The name under which Python's codecs machinery knows it (`"whatwg-shift_jis"`).
    #[getter]
    fn codec_name(&self) -> String {
        format!("whatwg-{}", self.inner.lowercase_name())
    }

    /// Whether ASCII bytes decode to ASCII and back (false for UTF-16BE/LE, ISO-2022-JP and
    /// replacement).
    #[getter]
    fn is_ascii_compatible(&self) -> bool {
        self.inner.is_ascii_compatible()
    }

    /// Whether it is one of the single-byte encodings (#legacy-single-byte-encodings).
    #[getter]
    fn is_single_byte(&self) -> bool {
        self.inner.is_single_byte()
    }

    /// Whether it is UTF-16BE or UTF-16LE.
    #[getter]
    fn is_utf16(&self) -> bool {
        self.inner.is_utf16()
    }

    /// Whether the Standard gives it an encoder usable by *encode* (all but replacement and
    /// UTF-16BE/LE; textcodec's own UTF-16 encoders are available with
    /// `encode(..., output_encoding=False)`).
    #[getter]
    fn has_encoder(&self) -> bool {
        self.inner.has_encoder()
    }

    /// *Get an output encoding* (#output-encodings): UTF-8 for replacement and UTF-16BE/LE,
    /// the encoding itself otherwise.
    #[getter]
    fn output_encoding(&self) -> PyEncoding {
        PyEncoding {
            inner: self.inner.output_encoding(),
        }
    }

    fn __repr__(&self) -> String {
        format!("<Encoding {}>", self.inner.name())
    }

    fn __str__(&self) -> &'static str {
        self.inner.name()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let lookup = py.import("textcodec")?.getattr("lookup")?;
        PyTuple::new(
            py,
            [lookup, PyTuple::new(py, [self.inner.name()])?.into_any()],
        )
    }
}

/// Resolves a label argument: a `str` (or `bytes`) label, matched as the Standard's *get an
/// encoding* does (ASCII case-insensitive, surrounding ASCII whitespace ignored), or an
/// [`PyEncoding`]. Unknown labels raise `LookupError` naming the label.
pub fn resolve(label: &Bound<'_, PyAny>) -> PyResult<Encoding> {
    if let Ok(encoding) = label.cast::<PyEncoding>() {
        return Ok(encoding.get().inner);
    }
    if let Ok(s) = label.cast::<PyString>() {
        let text = s.to_cow().unwrap_or_default();
        return Encoding::for_label_str(&text).ok_or_else(|| unknown_label(&label.repr()));
    }
    if let Ok(b) = label.cast::<PyBytes>() {
        return Encoding::for_label(b.as_bytes()).ok_or_else(|| unknown_label(&label.repr()));
    }
    Err(PyTypeError::new_err(format!(
        "an encoding label must be a str, bytes or textcodec.Encoding, not '{}'",
        label.get_type().name()?
    )))
}

fn unknown_label(repr: &PyResult<Bound<'_, PyString>>) -> PyErr {
    let shown = repr
        .as_ref()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".into());
    PyLookupError::new_err(format!("unknown encoding label: {shown}"))
}

/// The encoding a label names (`LookupError` if it names none).
#[pyfunction]
pub fn lookup(label: &Bound<'_, PyAny>) -> PyResult<PyEncoding> {
    Ok(PyEncoding {
        inner: resolve(label)?,
    })
}

/// All 40 encodings, in the Standard's order.
#[pyfunction]
pub fn encodings() -> Vec<PyEncoding> {
    Encoding::all()
        .iter()
        .map(|&inner| PyEncoding { inner })
        .collect()
}
