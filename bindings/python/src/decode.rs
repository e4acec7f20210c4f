//! `textcodec.decode` (the *decode* hook, <https://encoding.spec.whatwg.org/#decode>, with
//! Python's error handlers) and the incremental `textcodec.Decoder`.

use pyo3::exceptions::{PyTypeError, PyUnicodeDecodeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyTuple};
use pyo3::{intern, PyTypeInfo};
use textcodec::{
    bom_sniff, BomHandling, DecodeErrorMode, DecodeStatus, Decoder, DecoderOptions, Encoding,
    MalformedSequence,
};

use crate::encoding::resolve;
use crate::pyext::{cpython_strict, latin1_str, utf16_str, ByteView};

/// Inputs at least this long are decoded with the GIL released if their memory cannot
/// change meanwhile (a `bytes` object's, or a copy taken anyway): below it, releasing and
/// re-taking the GIL costs more than it frees.
pub const GIL_RELEASE_THRESHOLD: usize = 32 * 1024;

/// Python's `errors` argument, for decoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeErrors {
    /// Raise `UnicodeDecodeError` at the first malformed sequence.
    Strict,
    /// U+FFFD per malformed sequence: the Standard's replacement error mode (what browsers
    /// do), done inside the decoder.
    Replace,
    /// Drop malformed sequences.
    Ignore,
    /// Any other handler registered with `codecs.register_error` (`surrogateescape`,
    /// `backslashreplace`, ...), looked up when the first error happens.
    Handler(String),
}

impl DecodeErrors {
    /// Parses the `errors` argument.
    pub fn parse(errors: &str) -> DecodeErrors {
        match errors {
            "strict" => DecodeErrors::Strict,
            "replace" => DecodeErrors::Replace,
            "ignore" => DecodeErrors::Ignore,
            other => DecodeErrors::Handler(other.to_owned()),
        }
    }

    /// The decoder's error mode: replacement is done by the decoder, everything else needs
    /// each error reported.
    pub fn mode(&self) -> DecodeErrorMode {
        match self {
            DecodeErrors::Replace => DecodeErrorMode::Replacement,
            _ => DecodeErrorMode::Fatal,
        }
    }

    /// Whether applying these errors runs Python code (a handler, or building the
    /// exception), during which other threads may run too.
    fn runs_python(&self) -> bool {
        matches!(self, DecodeErrors::Strict | DecodeErrors::Handler(_))
    }

    fn name(&self) -> &str {
        match self {
            DecodeErrors::Strict => "strict",
            DecodeErrors::Replace => "replace",
            DecodeErrors::Ignore => "ignore",
            DecodeErrors::Handler(name) => name,
        }
    }
}

/// Parses the `bom` argument.
pub fn parse_bom(bom: &str) -> PyResult<BomHandling> {
    match bom {
        "sniff" => Ok(BomHandling::Sniff),
        "remove" => Ok(BomHandling::Remove),
        "keep" => Ok(BomHandling::Keep),
        other => Err(PyValueError::new_err(format!(
            "bom must be 'sniff', 'remove' or 'keep', not {other:?}"
        ))),
    }
}

/// The BOM length of `encoding` if `data` starts with it (UTF-8, UTF-16BE/LE only).
fn own_bom_len(encoding: Encoding, data: &[u8]) -> usize {
    match bom_sniff(data) {
        Some(e) if e == encoding && e == Encoding::Utf8 => 3,
        Some(e) if e == encoding => 2,
        _ => 0,
    }
}

/// Where the bytes being decoded sit in the object an exception reports, so that a
/// `UnicodeDecodeError`'s `start`/`end` index its `object`.
pub struct ErrorSite<'a, 'py> {
    /// The object given to exceptions (the caller's input, or one `bytes` copy of it made
    /// at the first error).
    pub source: &'a Bound<'py, PyAny>,
    object: Option<Bound<'py, PyBytes>>,
    /// Index in the object of the first byte being decoded.
    pub chunk_start: usize,
    /// Whether a handler may resume anywhere (one-shot decoding: the decoder is restarted
    /// there) or only at the end of the malformed sequence (incremental decoding).
    pub restartable: bool,
}

impl<'a, 'py> ErrorSite<'a, 'py> {
    /// A site for decoding `source` (bytes-like) from index `chunk_start`.
    pub fn new(source: &'a Bound<'py, PyAny>, chunk_start: usize, restartable: bool) -> Self {
        ErrorSite {
            source,
            object: None,
            chunk_start,
            restartable,
        }
    }

    /// The exception's `object`: the input itself if it is `bytes` (UnicodeDecodeError
    /// keeps a reference), else a `bytes` copy made once.
    fn object(&mut self, data: &[u8]) -> Bound<'py, PyBytes> {
        if let Some(object) = &self.object {
            return object.clone();
        }
        let py = self.source.py();
        let object = match self.source.cast::<PyBytes>() {
            Ok(b) => b.clone(),
            Err(_) => PyBytes::new(py, data),
        };
        self.object = Some(object.clone());
        object
    }
}

fn reason(at_end: bool) -> &'static str {
    if at_end {
        "incomplete byte sequence at end of input"
    } else {
        "invalid byte sequence"
    }
}

/// A `UnicodeDecodeError(encoding, object, start, end, reason)`.
fn decode_error<'py>(
    py: Python<'py>,
    encoding: Encoding,
    object: &Bound<'py, PyBytes>,
    start: usize,
    end: usize,
    reason: &str,
) -> PyResult<Bound<'py, PyAny>> {
    PyUnicodeDecodeError::type_object(py).call1((encoding.name(), object, start, end, reason))
}

/// One call's input to [`decode_with_errors`].
pub struct DecodeInput<'a> {
    /// The bytes.
    pub src: &'a [u8],
    /// The decoder's stream offset of `src[0]` (bytes given to it before `src`).
    pub origin: u64,
    /// Whether this is the end of the stream.
    pub last: bool,
}

/// Decodes `src` with `decoder` (fatal mode unless `errors` is replace), applying `errors`
/// at each malformed sequence, and returns the text. `site` says where `src` is in the
/// object reported by exceptions. With `release_gil`, long runs are decoded with the GIL
/// released.
pub fn decode_with_errors<'py>(
    py: Python<'py>,
    decoder: &mut Decoder,
    input: DecodeInput<'_>,
    errors: &DecodeErrors,
    site: &mut ErrorSite<'_, 'py>,
    release_gil: bool,
) -> PyResult<Bound<'py, PyString>> {
    let DecodeInput { src, origin, last } = input;
    UNITS.with(|cell| {
        // A handler may decode with textcodec on this thread meanwhile: it then gets a
        // fresh buffer, as any call does when the thread's buffer is in use.
        let mut fresh = Vec::new();
        let mut borrowed = cell.try_borrow_mut().ok();
        let units = borrowed.as_deref_mut().unwrap_or(&mut fresh);
        units.clear();
        let result = decode_units(
            py,
            decoder,
            DecodeInput { src, origin, last },
            errors,
            site,
            release_gil,
            units,
        );
        if units.capacity() > KEEP_UNITS {
            *units = Vec::new();
        }
        result
    })
}

/// [`decode_with_errors`] with its UTF-16 output buffer.
fn decode_units<'py>(
    py: Python<'py>,
    decoder: &mut Decoder,
    input: DecodeInput<'_>,
    errors: &DecodeErrors,
    site: &mut ErrorSite<'_, 'py>,
    release_gil: bool,
    out: &mut Vec<u16>,
) -> PyResult<Bound<'py, PyString>> {
    let DecodeInput { src, origin, last } = input;
    let mut parts: Vec<Bound<'py, PyString>> = Vec::new();
    let mut pos = 0usize;
    // Stream offset (as the decoder counts) of `src[0]`, which moves when a handler
    // restarts the decoder elsewhere.
    let mut origin = i128::from(origin);
    let mut handler: Option<Bound<'py, PyAny>> = None;
    loop {
        let rest = src.get(pos..).unwrap_or_default();
        let r = if release_gil && rest.len() >= GIL_RELEASE_THRESHOLD {
            py.detach(|| decoder.decode_to_utf16_vec(rest, out, last))
        } else {
            decoder.decode_to_utf16_vec(rest, out, last)
        };
        pos += r.read;
        let malformed = match r.status {
            DecodeStatus::Malformed(m) => m,
            DecodeStatus::InputEmpty => break,
            DecodeStatus::OutputFull => continue,
        };
        let (start, end) = sequence_span(&malformed, origin, site.chunk_start);
        let at_end = last && pos == src.len();
        match errors {
            DecodeErrors::Replace => out.push(0xFFFD),
            DecodeErrors::Ignore => {}
            DecodeErrors::Strict => {
                // The encoding in use (a BOM may have chosen it), read before the reset.
                let encoding = decoder.encoding();
                decoder.reset();
                let (object, start, end) = exception_span(site, src, &malformed, start, end);
                let exc = decode_error(py, encoding, &object, start, end, reason(at_end))?;
                return Err(PyErr::from_value(exc));
            }
            DecodeErrors::Handler(name) => {
                let handler = match &handler {
                    Some(h) => h.clone(),
                    None => {
                        let h = py
                            .import(intern!(py, "codecs"))?
                            .call_method1(intern!(py, "lookup_error"), (name.as_str(),))?;
                        handler = Some(h.clone());
                        h
                    }
                };
                let (object, start, end) = exception_span(site, src, &malformed, start, end);
                let exc =
                    decode_error(py, decoder.encoding(), &object, start, end, reason(at_end))?;
                let result = handler.call1((exc,))?;
                let (replacement, resume) = handler_result(&result, object.as_bytes().len())?;
                if !out.is_empty() {
                    parts.push(utf16_str(py, out)?);
                    out.clear();
                }
                parts.push(replacement);
                if resume != end {
                    let resume_in_src = resume.checked_sub(site.chunk_start);
                    match resume_in_src {
                        Some(p) if site.restartable && p <= src.len() => {
                            // Resume elsewhere: a new decoder from that byte on.
                            *decoder = Decoder::with_options(
                                decoder.encoding(),
                                DecoderOptions {
                                    error_mode: errors.mode(),
                                    bom: BomHandling::Keep,
                                },
                            );
                            pos = p;
                            origin = -(p as i128);
                        }
                        _ => {
                            return Err(PyValueError::new_err(format!(
                                "error handler {:?} asked to resume at position {resume}, \
                                 but an incremental decoder can only resume at the end of \
                                 the malformed sequence ({end})",
                                errors.name()
                            )))
                        }
                    }
                }
            }
        }
    }
    if parts.is_empty() {
        return utf16_str(py, out);
    }
    if !out.is_empty() {
        parts.push(utf16_str(py, out)?);
    }
    let joined = PyString::new(py, "").call_method1(intern!(py, "join"), (parts,))?;
    Ok(joined.cast_into::<PyString>()?)
}

/// The malformed sequence's span in the exception object's coordinates (may start before
/// the object, for a sequence that began in an earlier chunk).
fn sequence_span(m: &MalformedSequence, origin: i128, chunk_start: usize) -> (i128, i128) {
    let start = i128::from(m.offset()) - origin + chunk_start as i128;
    (start, start + m.bytes().len() as i128)
}

/// The exception's object and span: the input with the sequence's exact span, or, for a
/// sequence partly in an earlier chunk, the malformed bytes alone (so handlers such as
/// `surrogateescape` see every byte of it).
fn exception_span<'py>(
    site: &mut ErrorSite<'_, 'py>,
    src: &[u8],
    m: &MalformedSequence,
    start: i128,
    end: i128,
) -> (Bound<'py, PyBytes>, usize, usize) {
    let object = site.object(src);
    let len = object.as_bytes().len() as i128;
    if start >= 0 && end <= len {
        (object, start as usize, end as usize)
    } else {
        let bytes = PyBytes::new(site.source.py(), m.bytes());
        (bytes, 0, m.bytes().len())
    }
}

/// Checks an error handler's `(str, int)` result; a negative position counts from the end.
fn handler_result<'py>(
    result: &Bound<'py, PyAny>,
    object_len: usize,
) -> PyResult<(Bound<'py, PyString>, usize)> {
    let bad = || PyTypeError::new_err("decoding error handler must return (str, int) tuple");
    let tuple = result.cast::<PyTuple>().map_err(|_| bad())?;
    if tuple.len() != 2 {
        return Err(bad());
    }
    let replacement = tuple
        .get_item(0)?
        .cast_into::<PyString>()
        .map_err(|_| bad())?;
    let position: isize = tuple.get_item(1)?.extract().map_err(|_| bad())?;
    let resolved = if position < 0 {
        object_len as isize + position
    } else {
        position
    };
    if resolved < 0 || resolved as usize > object_len {
        return Err(pyo3::exceptions::PyIndexError::new_err(format!(
            "position {position} from error handler out of bounds"
        )));
    }
    Ok((replacement, resolved as usize))
}

/// Decoded text on its way to a Python `str`.
enum Text<'a> {
    /// The input itself (ASCII, in an ASCII-compatible encoding).
    Ascii(&'a str),
    /// The input itself, read as Latin-1.
    Latin1(&'a [u8]),
    /// UTF-16 code units, native byte order, in this thread's [`UNITS`] buffer.
    Utf16,
}

/// Buffers of UTF-16 output kept by each thread up to this many code units (8 MiB): a
/// fresh allocation of a large buffer on every call costs as much in page faults (the
/// allocator maps and unmaps it each time) as decoding into it.
const KEEP_UNITS: usize = 4 << 20;

thread_local! {
    static UNITS: std::cell::RefCell<Vec<u16>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Decodes in replacement mode (no BOM handling) into the form CPython turns into a `str`
/// fastest: ASCII as it is (a copy), anything else as UTF-16 (one widening pass; building
/// a `str` from UTF-8 outside ASCII costs more than the decoding itself) in `units`.
fn decode_for_python<'a>(encoding: Encoding, body: &'a [u8], units: &mut Vec<u16>) -> Text<'a> {
    if encoding.is_ascii_compatible() {
        if let Some(ascii) = body
            .is_ascii()
            .then(|| std::str::from_utf8(body).ok())
            .flatten()
        {
            return Text::Ascii(ascii);
        }
    }
    // windows-1252 (the web's default, and what `iso-8859-1` and `latin1` name) decodes
    // ASCII and 0xA0–0xFF to the same code points: without a byte in 0x80–0x9F its text is
    // the bytes read as Latin-1, which CPython copies in one pass.
    if encoding == Encoding::Windows1252 && !has_c1_byte(body) {
        return Text::Latin1(body);
    }
    let mut decoder = Decoder::with_options(
        encoding,
        DecoderOptions {
            error_mode: DecodeErrorMode::Replacement,
            bom: BomHandling::Keep,
        },
    );
    units.clear();
    let _ = decoder.decode_to_utf16_vec(body, units, true);
    Text::Utf16
}

/// Whether `bytes` holds a byte in 0x80–0x9F (64 bytes per step, which the compiler turns
/// into vector code).
fn has_c1_byte(bytes: &[u8]) -> bool {
    let is_c1 = |b: &u8| u8::from(b.wrapping_sub(0x80) < 0x20);
    let mut blocks = bytes.chunks_exact(64);
    let found = blocks
        .by_ref()
        .any(|block| block.iter().map(is_c1).fold(0, |acc, x| acc | x) != 0);
    found || blocks.remainder().iter().any(|b| is_c1(b) != 0)
}

/// Replacement-mode decoding of `body` into a `str`, with the GIL released for the decoding
/// itself when `release`.
fn decode_replace<'py>(
    py: Python<'py>,
    encoding: Encoding,
    body: &[u8],
    release: bool,
) -> PyResult<Bound<'py, PyString>> {
    UNITS.with(|cell| {
        // A handler or another thread's work cannot re-enter here: only this thread uses
        // the buffer, and nothing in between runs Python code. Fall back to a fresh buffer
        // if it is somehow taken.
        let mut fresh = Vec::new();
        let mut borrowed = cell.try_borrow_mut().ok();
        let units = borrowed.as_deref_mut().unwrap_or(&mut fresh);
        let text = if release {
            py.detach(|| decode_for_python(encoding, body, units))
        } else {
            decode_for_python(encoding, body, units)
        };
        let result = match text {
            Text::Ascii(ascii) => Ok(PyString::new(py, ascii)),
            Text::Latin1(bytes) => latin1_str(py, bytes),
            Text::Utf16 => utf16_str(py, units),
        };
        if units.capacity() > KEEP_UNITS {
            *units = Vec::new();
        }
        result
    })
}

/// The *decode* hook with BOM handling `bom` and Python's error handler `errors`, on the
/// whole input. Returns the text and the encoding used (a BOM may have chosen it).
pub fn decode_all<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    view: &ByteView<'py>,
    encoding: Encoding,
    errors: &DecodeErrors,
    bom: BomHandling,
) -> PyResult<(Bound<'py, PyString>, Encoding)> {
    let data = view.as_slice();
    let (encoding, start) = match bom {
        BomHandling::Sniff => match bom_sniff(data) {
            Some(e) => (e, if e == Encoding::Utf8 { 3 } else { 2 }),
            None => (encoding, 0),
        },
        BomHandling::Remove => (encoding, own_bom_len(encoding, data)),
        BomHandling::Keep => (encoding, 0),
    };
    let body = data.get(start..).unwrap_or_default();
    // Valid UTF-8 and UTF-16 decode the same everywhere: CPython's strict decoders build the
    // `str` in one pass, where going through textcodec's UTF-8 output would take two (ours,
    // then CPython's to build the `str`). Malformed input falls through to textcodec.
    let cpython = match encoding {
        Encoding::Utf8 => cpython_strict(py, body, None),
        Encoding::Utf16Be => cpython_strict(py, body, Some(true)),
        Encoding::Utf16Le => cpython_strict(py, body, Some(false)),
        _ => None,
    };
    if let Some(text) = cpython {
        return Ok((text, encoding));
    }
    // Errors that run Python code need bytes no one can change meanwhile (a copy of
    // mutable memory); so does releasing the GIL, done for long input whose bytes are
    // stable anyway. Mutable memory is otherwise read in place with the GIL held: a copy
    // would cost about as much as the decoding.
    let python_runs = errors.runs_python();
    let body = view.stable(body, python_runs);
    let body = &body[..];
    let release = view.is_immutable() || python_runs;
    if *errors == DecodeErrors::Replace {
        let release = release && body.len() >= GIL_RELEASE_THRESHOLD;
        return Ok((decode_replace(py, encoding, body, release)?, encoding));
    }
    let mut decoder = Decoder::with_options(
        encoding,
        DecoderOptions {
            error_mode: errors.mode(),
            bom: BomHandling::Keep,
        },
    );
    let mut site = ErrorSite::new(source, start, true);
    let input = DecodeInput {
        src: body,
        origin: 0,
        last: true,
    };
    let text = decode_with_errors(py, &mut decoder, input, errors, &mut site, release)?;
    Ok((text, encoding))
}

/// decode(data, label="utf-8", *, errors="replace", bom="sniff") -> tuple[str, str]
///
/// The Encoding Standard's *decode*: a byte order mark picks UTF-8/UTF-16 and is removed
/// (bom="sniff"); bom="remove" removes only `label`'s own BOM; bom="keep" decodes it as
/// U+FEFF. Returns the text and the name of the encoding used.
#[pyfunction]
#[pyo3(
    signature = (data, label=None, *, errors="replace", bom="sniff"),
    text_signature = "(data, label='utf-8', *, errors='replace', bom='sniff')"
)]
pub fn decode<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    label: Option<&Bound<'py, PyAny>>,
    errors: &str,
    bom: &str,
) -> PyResult<(Bound<'py, PyString>, &'static str)> {
    let view = ByteView::new(data, "decode() argument 'data'")?;
    let encoding = match label {
        Some(label) => resolve(label)?,
        None => Encoding::Utf8,
    };
    let (text, used) = decode_all(
        py,
        data,
        &view,
        encoding,
        &DecodeErrors::parse(errors),
        parse_bom(bom)?,
    )?;
    Ok((text, used.name()))
}

/// The Rust core's decoder alone (replacement mode, BOM sniffing), without the CPython
/// fast paths: the reference the tests compare everything else with.
#[pyfunction]
pub fn _core_decode(
    data: &Bound<'_, PyAny>,
    label: &Bound<'_, PyAny>,
) -> PyResult<(String, &'static str)> {
    let view = ByteView::new(data, "data")?;
    let mut decoder = Decoder::new(resolve(label)?);
    let mut out = String::new();
    let _ = decoder.decode_to_string(view.as_slice(), &mut out, false);
    // Read before the end of the stream resets the decoder to its first encoding.
    let used = decoder.encoding();
    let _ = decoder.decode_to_string(&[], &mut out, true);
    Ok((out, used.name()))
}

/// Incremental decoder: feed chunks split anywhere with `decode(chunk)`, end with
/// `decode(last_chunk, final=True)` (which also resets it for a new stream).
#[pyclass(name = "Decoder", module = "textcodec")]
pub struct PyDecoder {
    decoder: Decoder,
    errors: DecodeErrors,
    /// Bytes given since the stream started.
    given: u64,
    /// The last bytes given (more than the decoder can hold pending).
    recent: Vec<u8>,
    /// The encoding the last finished stream used (a BOM may have chosen it); reported
    /// until the next stream starts.
    finished_encoding: Option<Encoding>,
}

/// More than any decoder holds pending: a BOM prefix (2) or the longest sequence (4).
const RECENT: usize = 16;

impl PyDecoder {
    fn remember(&mut self, chunk: &[u8]) {
        let take = chunk.len().min(RECENT);
        self.recent
            .extend_from_slice(chunk.get(chunk.len() - take..).unwrap_or_default());
        let excess = self.recent.len().saturating_sub(RECENT);
        self.recent.drain(..excess);
        self.given += chunk.len() as u64;
    }

    /// The bytes given that produced no output yet. Found by ending a copy of the decoder
    /// in fatal mode: the error it reports starts at the first pending byte. Without an
    /// error (a BOM prefix, or bytes restored for the next character), the decoder's
    /// position says where the pending bytes start.
    fn pending_bytes(&self) -> &[u8] {
        if self.decoder.is_idle() {
            return &[];
        }
        let mut probe = self.decoder.clone();
        probe.set_error_mode(DecodeErrorMode::Fatal);
        let mut sink = String::new();
        let start = match probe.decode_to_string(&[], &mut sink, true).status {
            DecodeStatus::Malformed(m) if sink.is_empty() => m.offset(),
            _ => self.decoder.position(),
        };
        let pending = (self.given.saturating_sub(start) as usize).min(self.recent.len());
        self.recent
            .get(self.recent.len() - pending..)
            .unwrap_or_default()
    }

    fn end_stream(&mut self) {
        self.given = 0;
        self.recent.clear();
    }
}

#[pymethods]
impl PyDecoder {
    #[new]
    #[pyo3(
        signature = (label=None, *, errors="replace", bom="sniff"),
        text_signature = "(label='utf-8', *, errors='replace', bom='sniff')"
    )]
    fn new(label: Option<&Bound<'_, PyAny>>, errors: &str, bom: &str) -> PyResult<Self> {
        let encoding = match label {
            Some(label) => resolve(label)?,
            None => Encoding::Utf8,
        };
        let errors = DecodeErrors::parse(errors);
        let decoder = Decoder::with_options(
            encoding,
            DecoderOptions {
                error_mode: errors.mode(),
                bom: parse_bom(bom)?,
            },
        );
        Ok(PyDecoder {
            decoder,
            errors,
            given: 0,
            recent: Vec::new(),
            finished_encoding: None,
        })
    }

    /// Decodes the next chunk; `final=True` flushes (an incomplete sequence at the end is
    /// an error) and resets the decoder for a new stream. After a strict-mode error the
    /// decoder is reset too.
    #[pyo3(signature = (data, r#final=false))]
    fn decode<'py>(
        &mut self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        r#final: bool,
    ) -> PyResult<Bound<'py, PyString>> {
        let view = ByteView::new(data, "decode() argument 'data'")?;
        // As in `decode_all`: bytes no one can change while an error runs Python code or
        // the GIL is released.
        let python_runs = self.errors.runs_python();
        let src = view.stable(view.as_slice(), python_runs);
        let src = &src[..];
        self.finished_encoding = None;
        // Offsets in errors are relative to this chunk.
        let mut site = ErrorSite::new(data, 0, false);
        let errors = self.errors.clone();
        let origin = self.given;
        self.remember(src);
        let input = DecodeInput {
            src,
            origin,
            last: false,
        };
        let release = python_runs || view.is_immutable();
        let result = decode_with_errors(py, &mut self.decoder, input, &errors, &mut site, release);
        let text = match result {
            Ok(text) if !r#final => return Ok(text),
            Ok(text) => text,
            Err(e) => {
                self.end_stream();
                return Err(e);
            }
        };
        // The end of the stream, as a call of its own, so that the encoding the stream used
        // can be read before the decoder resets itself.
        let used = self.decoder.encoding();
        let input = DecodeInput {
            src: &[],
            origin: self.given,
            last: true,
        };
        let mut site = ErrorSite::new(data, src.len(), false);
        let tail = decode_with_errors(py, &mut self.decoder, input, &errors, &mut site, false);
        self.end_stream();
        let tail = tail?;
        self.finished_encoding = Some(used);
        if tail.len()? == 0 {
            return Ok(text);
        }
        Ok(text.add(tail)?.cast_into::<PyString>()?)
    }

    /// Forgets any pending bytes and starts a new stream.
    fn reset(&mut self) {
        self.decoder.reset();
        self.end_stream();
        self.finished_encoding = None;
    }

    /// The name of the encoding in use (a BOM may have changed it); after `final=True`, the
    /// one the finished stream used.
    #[getter]
    fn encoding(&self) -> &'static str {
        self.finished_encoding
            .unwrap_or_else(|| self.decoder.encoding())
            .name()
    }

    /// The error handler's name.
    #[getter]
    fn errors(&self) -> &str {
        self.errors.name()
    }

    /// The bytes the decoder holds until more input completes them (a partial character,
    /// a BOM prefix): what `codecs.IncrementalDecoder.getstate` reports.
    #[getter]
    fn pending<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.pending_bytes())
    }
}
