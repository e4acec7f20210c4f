//! `textcodec.encode` (the *encode* hook, <https://encoding.spec.whatwg.org/#encode>, with
//! Python's error handlers), the incremental `textcodec.Encoder`, and `encode_into`.

use pyo3::exceptions::{PyLookupError, PyTypeError, PyUnicodeEncodeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyTuple};
use pyo3::{intern, PyTypeInfo};
use textcodec::{EncodeErrorMode, EncodeStatus, Encoder, Encoding};

use crate::decode::GIL_RELEASE_THRESHOLD;
use crate::encoding::resolve;
use crate::pyext::{str_utf8, WritableView};

/// Python's `errors` argument, for encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EncodeErrors {
    /// Raise `UnicodeEncodeError` at the first character the encoding lacks.
    Strict,
    /// `&#N;` (decimal code point): the Standard's html error mode, as HTML forms do.
    /// `"xmlcharrefreplace"` is the same.
    Html,
    /// `?`, textcodec's extension (Python's `"replace"` for encoding).
    Replace,
    /// Drop the character.
    Ignore,
    /// Any other registered handler (`backslashreplace`, `namereplace`,
    /// `surrogateescape`, ...), looked up at the first error.
    Handler(String),
}

impl EncodeErrors {
    /// Parses the `errors` argument.
    pub fn parse(errors: &str) -> EncodeErrors {
        match errors {
            "strict" => EncodeErrors::Strict,
            "html" | "xmlcharrefreplace" => EncodeErrors::Html,
            "replace" => EncodeErrors::Replace,
            "ignore" => EncodeErrors::Ignore,
            other => EncodeErrors::Handler(other.to_owned()),
        }
    }

    fn mode(&self) -> EncodeErrorMode {
        match self {
            EncodeErrors::Html => EncodeErrorMode::Html,
            EncodeErrors::Replace => EncodeErrorMode::Replace,
            _ => EncodeErrorMode::Fatal,
        }
    }

    fn name(&self) -> &str {
        match self {
            EncodeErrors::Strict => "strict",
            EncodeErrors::Html => "html",
            EncodeErrors::Replace => "replace",
            EncodeErrors::Ignore => "ignore",
            EncodeErrors::Handler(name) => name,
        }
    }
}

/// The encoder for `encoding`: with `output_encoding`, the Standard's *get an output
/// encoding* first (replacement and UTF-16BE/LE encode as UTF-8, as *encode* does);
/// without it, textcodec's UTF-16BE/LE encoders are used for those labels.
pub fn encoder_for(
    encoding: Encoding,
    errors: &EncodeErrors,
    output_encoding: bool,
) -> PyResult<Encoder> {
    let encoding = if output_encoding || encoding == Encoding::Replacement {
        encoding.output_encoding()
    } else {
        encoding
    };
    Encoder::new(encoding, errors.mode())
        .ok_or_else(|| PyLookupError::new_err(format!("{} has no encoder", encoding.name())))
}

/// A piece of a Python string: a run of scalar values, or one lone surrogate (which Python
/// strings may hold and Rust strings cannot).
enum Piece<'a> {
    Run(&'a str),
    Surrogate,
}

/// Splits WTF-8 (UTF-8 with surrogates encoded as `ED A0..BF xx`, what
/// `str.encode("utf-8", "surrogatepass")` gives) into runs and surrogates.
fn pieces(wtf8: &[u8]) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < wtf8.len() {
        match wtf8.get(i..i + 3) {
            Some(&[0xED, 0xA0..=0xBF, _]) => {
                if let Ok(run) = std::str::from_utf8(wtf8.get(start..i).unwrap_or_default()) {
                    if !run.is_empty() {
                        out.push(Piece::Run(run));
                    }
                }
                out.push(Piece::Surrogate);
                i += 3;
                start = i;
            }
            _ => i += 1,
        }
    }
    if let Ok(run) = std::str::from_utf8(wtf8.get(start..).unwrap_or_default()) {
        if !run.is_empty() {
            out.push(Piece::Run(run));
        }
    }
    out
}

/// Encodes the `str` `text` with `encoder`, appending to `out`, applying `errors` at each
/// character the encoding lacks (and to lone surrogates). `last` flushes the encoder
/// (ISO-2022-JP's return to ASCII) and resets it.
pub fn encode_with_errors<'py>(
    py: Python<'py>,
    encoder: &mut Encoder,
    text: &Bound<'py, PyString>,
    last: bool,
    errors: &EncodeErrors,
    out: &mut Vec<u8>,
) -> PyResult<()> {
    let wtf8;
    let list = match str_utf8(text) {
        Some(utf8) => vec![Piece::Run(utf8)],
        None => {
            let bytes = text.call_method1(
                intern!(py, "encode"),
                (intern!(py, "utf-8"), intern!(py, "surrogatepass")),
            )?;
            wtf8 = bytes.cast_into::<PyBytes>()?;
            pieces(wtf8.as_bytes())
        }
    };
    let mut handler: Option<Bound<'py, PyAny>> = None;
    // Index (in characters) of the start of the current piece.
    let mut chars_before = 0usize;
    for piece in list {
        match piece {
            Piece::Run(run) => {
                let mut pos = 0usize;
                // Characters of `run[..counted]` are counted in `chars_in_run`.
                let (mut counted, mut chars_in_run) = (0usize, 0usize);
                loop {
                    let rest = run.get(pos..).unwrap_or_default();
                    let r = if rest.len() >= GIL_RELEASE_THRESHOLD {
                        py.detach(|| encoder.encode_from_utf8_to_vec(rest, out, false))
                    } else {
                        encoder.encode_from_utf8_to_vec(rest, out, false)
                    };
                    pos += r.read;
                    let u = match r.status {
                        EncodeStatus::Unmappable(u) => u,
                        EncodeStatus::InputEmpty => break,
                        EncodeStatus::OutputFull => continue,
                    };
                    let char_start_byte = pos - u.character().len_utf8();
                    chars_in_run += run
                        .get(counted..char_start_byte)
                        .map_or(0, |s| s.chars().count());
                    counted = pos;
                    let index = chars_before + chars_in_run;
                    chars_in_run += 1;
                    apply_handler(
                        py,
                        encoder,
                        text,
                        (index, "character cannot be encoded"),
                        errors,
                        &mut handler,
                        out,
                    )?;
                }
                chars_before += chars_in_run + run.get(counted..).map_or(0, |s| s.chars().count());
            }
            Piece::Surrogate => {
                match errors {
                    // The Standard's strings are scalar value strings: as USVString
                    // conversion does, a lone surrogate becomes U+FFFD, which the encoder
                    // then writes or replaces in its mode.
                    EncodeErrors::Html | EncodeErrors::Replace => {
                        let _ = encoder.encode_from_utf8_to_vec("\u{FFFD}", out, false);
                    }
                    _ => apply_handler(
                        py,
                        encoder,
                        text,
                        (chars_before, "surrogates not allowed"),
                        errors,
                        &mut handler,
                        out,
                    )?,
                }
                chars_before += 1;
            }
        }
    }
    if last {
        let _ = encoder.encode_from_utf8_to_vec("", out, true);
    }
    Ok(())
}

/// Applies a strict, ignore or custom handler to the character at `index` of `text`.
fn apply_handler<'py>(
    py: Python<'py>,
    encoder: &mut Encoder,
    text: &Bound<'py, PyString>,
    (index, reason): (usize, &str),
    errors: &EncodeErrors,
    handler: &mut Option<Bound<'py, PyAny>>,
    out: &mut Vec<u8>,
) -> PyResult<()> {
    let exception = || {
        PyUnicodeEncodeError::type_object(py).call1((
            encoder.encoding().name(),
            text,
            index,
            index + 1,
            reason,
        ))
    };
    match errors {
        EncodeErrors::Ignore => Ok(()),
        EncodeErrors::Handler(name) => {
            let h = match handler {
                Some(h) => h.clone(),
                None => {
                    let h = py
                        .import(intern!(py, "codecs"))?
                        .call_method1(intern!(py, "lookup_error"), (name.as_str(),))?;
                    *handler = Some(h.clone());
                    h
                }
            };
            let exc = exception()?;
            let result = h.call1((exc.clone(),))?;
            let bad = || {
                PyTypeError::new_err("encoding error handler must return (str/bytes, int) tuple")
            };
            let tuple = result.cast::<PyTuple>().map_err(|_| bad())?;
            if tuple.len() != 2 {
                return Err(bad());
            }
            let resume: isize = tuple.get_item(1)?.extract().map_err(|_| bad())?;
            let length = text.len()? as isize;
            let resume = if resume < 0 { length + resume } else { resume };
            if resume != index as isize + 1 {
                return Err(PyValueError::new_err(format!(
                    "error handler {name:?} asked to resume at position {resume}; textcodec \
                     resumes only after the unencodable character ({})",
                    index + 1
                )));
            }
            let replacement = tuple.get_item(0)?;
            if let Ok(bytes) = replacement.cast::<PyBytes>() {
                out.extend_from_slice(bytes.as_bytes());
                return Ok(());
            }
            let replacement = replacement.cast_into::<PyString>().map_err(|_| bad())?;
            // A `str` replacement is encoded too; if the encoding lacks it as well, the
            // original error is raised (as Python's codecs do).
            let utf8 = replacement.to_cow()?;
            let r = encoder.encode_from_utf8_to_vec(&utf8, out, false);
            if let EncodeStatus::Unmappable(_) = r.status {
                return Err(PyErr::from_value(exc));
            }
            Ok(())
        }
        // Strict (html and replace never stop).
        _ => Err(PyErr::from_value(exception()?)),
    }
}

/// encode(text, label, *, errors="strict", output_encoding=True) -> bytes
///
/// The Encoding Standard's *encode*. With output_encoding=True (the default) the label's
/// *output encoding* is used: replacement, UTF-16BE and UTF-16LE encode as UTF-8, as forms
/// and URLs do; output_encoding=False uses textcodec's UTF-16BE/LE encoders for those.
#[pyfunction]
#[pyo3(
    signature = (text, label=None, *, errors="strict", output_encoding=true),
    text_signature = "(text, label='utf-8', *, errors='strict', output_encoding=True)"
)]
pub fn encode<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyAny>,
    label: Option<&Bound<'py, PyAny>>,
    errors: &str,
    output_encoding: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let text = text.cast::<PyString>().map_err(|_| {
        let name = text
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        PyTypeError::new_err(format!(
            "encode() argument 'text' must be str, not '{name}'"
        ))
    })?;
    let encoding = match label {
        Some(label) => resolve(label)?,
        None => Encoding::Utf8,
    };
    let errors = EncodeErrors::parse(errors);
    let mut encoder = encoder_for(encoding, &errors, output_encoding)?;
    // UTF-8 output is the string's own UTF-8 (cached by CPython).
    if encoder.encoding() == Encoding::Utf8 {
        if let Some(utf8) = str_utf8(text) {
            return Ok(PyBytes::new(py, utf8.as_bytes()));
        }
    }
    let mut out = Vec::new();
    encode_with_errors(py, &mut encoder, text, true, &errors, &mut out)?;
    Ok(PyBytes::new(py, &out))
}

/// Incremental encoder: `encode(text)` per piece, `encode(text, final=True)` at the end
/// (ISO-2022-JP then returns to ASCII); the encoder is then ready for a new stream.
#[pyclass(name = "Encoder", module = "textcodec")]
pub struct PyEncoder {
    encoder: Encoder,
    errors: EncodeErrors,
}

#[pymethods]
impl PyEncoder {
    #[new]
    #[pyo3(
        signature = (label=None, *, errors="strict", output_encoding=true),
        text_signature = "(label='utf-8', *, errors='strict', output_encoding=True)"
    )]
    fn new(
        label: Option<&Bound<'_, PyAny>>,
        errors: &str,
        output_encoding: bool,
    ) -> PyResult<Self> {
        let encoding = match label {
            Some(label) => resolve(label)?,
            None => Encoding::Utf8,
        };
        let errors = EncodeErrors::parse(errors);
        let encoder = encoder_for(encoding, &errors, output_encoding)?;
        Ok(PyEncoder { encoder, errors })
    }

    /// Encodes the next piece of text; `final=True` writes the encoder's closing bytes.
    #[pyo3(signature = (text, r#final=false))]
    fn encode<'py>(
        &mut self,
        py: Python<'py>,
        text: &Bound<'py, PyAny>,
        r#final: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let text = text
            .cast::<PyString>()
            .map_err(|_| PyTypeError::new_err("Encoder.encode() argument 'text' must be str"))?;
        let mut out = Vec::new();
        let errors = self.errors.clone();
        let result = encode_with_errors(py, &mut self.encoder, text, r#final, &errors, &mut out);
        if result.is_err() {
            self.encoder.reset();
        }
        result?;
        Ok(PyBytes::new(py, &out))
    }

    /// Starts a new stream (ISO-2022-JP forgets its state without writing anything).
    fn reset(&mut self) {
        self.encoder.reset();
    }

    /// The name of the encoding written.
    #[getter]
    fn encoding(&self) -> &'static str {
        self.encoder.encoding().name()
    }

    /// The error handler's name.
    #[getter]
    fn errors(&self) -> &str {
        self.errors.name()
    }
}

/// `TextEncoder.encodeInto` for Python: writes the UTF-8 of `source` (lone surrogates as
/// U+FFFD) into `destination` up to the last whole character that fits. Returns
/// `(read, written)`: characters of `source` consumed, bytes written.
#[pyfunction]
pub fn _encode_into(
    source: &Bound<'_, PyAny>,
    destination: &Bound<'_, PyAny>,
) -> PyResult<(usize, usize)> {
    let source = source
        .cast::<PyString>()
        .map_err(|_| PyTypeError::new_err("encode_into() argument 'source' must be str"))?;
    let mut view = WritableView::new(destination, "encode_into() argument 'destination'")?;
    let utf8 = match str_utf8(source) {
        Some(s) => std::borrow::Cow::Borrowed(s),
        // Lone surrogates: USVString conversion (U+FFFD, one character for one).
        None => source.to_string_lossy(),
    };
    let dst = view.as_mut_slice();
    let mut n = utf8.len().min(dst.len());
    while !utf8.is_char_boundary(n) {
        n -= 1;
    }
    let head = utf8.get(..n).unwrap_or_default();
    if let Some(target) = dst.get_mut(..n) {
        target.copy_from_slice(head.as_bytes());
    }
    Ok((head.chars().count(), n))
}
