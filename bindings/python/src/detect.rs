//! `textcodec.detect` and `textcodec.Detector`: the statistical detector
//! (`textcodec::detect`) for bytes that came with no label, in one call or streamed.

use pyo3::prelude::*;
use textcodec::detect::{Candidate, Detector, Guess, Hints};
use textcodec::Encoding;

use crate::encoding::resolve;
use crate::pyext::ByteView;

/// The detector's guess for some bytes. `encoding` is the name to decode with,
/// `confidence` the probability that it gives the right text (calibrated), `language` the
/// text's language where the model knows it.
#[pyclass(name = "DetectResult", module = "textcodec", frozen, get_all)]
pub struct PyDetectResult {
    /// The guessed encoding's name.
    encoding: &'static str,
    /// The probability that decoding with `encoding` gives the text (0 to 1; 1 for ASCII
    /// only, 0 for binary data).
    confidence: f64,
    /// The language's code (`"ru"`, `"ja"`), or None.
    language: Option<&'static str>,
    /// The language's English name (`"Russian"`), or None.
    language_name: Option<&'static str>,
    /// Not text: the binary format (`"PNG"`, `"gzip"`, `"control bytes"`), or None.
    binary: Option<&'static str>,
    /// Its plausibility score (higher is better).
    score: f64,
    /// Its score minus the runner-up's (>= 0): the larger, the surer.
    margin: f64,
    /// No byte told encodings apart: the guess is the hints' default.
    ascii_only: bool,
    /// The detector had enough evidence before the end and stopped looking.
    stopped_early: bool,
    /// Every candidate, best first: `(name, score, disqualified)`; disqualified ones (their
    /// decoder finds a malformed sequence, or the hints rule them out) last.
    ranking: Vec<(&'static str, f64, bool)>,
    /// The same candidates in the same order: `(name, confidence)`.
    confidences: Vec<(&'static str, f64)>,
}

#[pymethods]
impl PyDetectResult {
    fn __repr__(&self) -> String {
        let py_str = |s: Option<&str>| s.map_or("None".to_string(), |s| format!("{s:?}"));
        format!(
            "DetectResult(encoding={:?}, confidence={:.4}, language={}, binary={}, \
             score={:.3}, margin={:.3}, ascii_only={}, stopped_early={})",
            self.encoding,
            self.confidence,
            py_str(self.language),
            py_str(self.binary),
            self.score,
            self.margin,
            if self.ascii_only { "True" } else { "False" },
            if self.stopped_early { "True" } else { "False" },
        )
    }
}

fn result(guess: &Guess, ranking: &[Candidate]) -> PyDetectResult {
    PyDetectResult {
        encoding: guess.encoding.name(),
        confidence: f64::from(guess.confidence),
        language: guess.language.map(|l| l.code()),
        language_name: guess.language.map(|l| l.name()),
        binary: guess.binary.map(|b| b.name()),
        score: f64::from(guess.score),
        margin: f64::from(guess.margin),
        ascii_only: guess.ascii_only,
        stopped_early: guess.stopped_early,
        ranking: ranking
            .iter()
            .map(|c| (c.encoding.name(), f64::from(c.score), c.disqualified))
            .collect(),
        confidences: ranking
            .iter()
            .map(|c| (c.encoding.name(), f64::from(c.confidence)))
            .collect(),
    }
}

/// Labels (str, bytes or Encoding) to encodings; None stays None.
fn encodings(labels: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<Encoding>>> {
    labels
        .map(|l| l.try_iter()?.map(|item| resolve(&item?)).collect())
        .transpose()
}

/// The hints of `detect` and `Detector.guess`, owned.
struct OwnedHints {
    tld: Option<String>,
    allow_utf8: bool,
    locale: Option<String>,
    allow: Option<Vec<Encoding>>,
    deny: Vec<Encoding>,
}

impl OwnedHints {
    fn new(
        tld: Option<String>,
        allow_utf8: bool,
        locale: Option<String>,
        allow: Option<&Bound<'_, PyAny>>,
        deny: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        Ok(OwnedHints {
            tld,
            allow_utf8,
            locale,
            allow: encodings(allow)?,
            deny: encodings(deny)?.unwrap_or_default(),
        })
    }

    fn hints(&self) -> Hints<'_> {
        Hints {
            tld: self.tld.as_deref().map(str::as_bytes),
            allow_utf8: self.allow_utf8,
            locale: self.locale.as_deref(),
            allow: self.allow.as_deref(),
            deny: &self.deny,
        }
    }
}

/// detect(data, *, tld=None, allow_utf8=True, locale=None, allow=None, deny=None) -> DetectResult
///
/// Guesses the encoding of unlabelled bytes from their content alone (no BOM, header or
/// `<meta>`: see `sniff(..., detect=True)` for the whole browser algorithm). Candidates:
/// UTF-8, the single-byte encodings, GBK, gb18030, Big5, EUC-JP, ISO-2022-JP, Shift_JIS,
/// EUC-KR, and UTF-16LE/BE without a byte order mark; `allow` and `deny` (iterables of
/// labels) restrict them. Binary data (a known format's signature, or control bytes no
/// text has) is reported in `binary`. The GIL is released while the detector runs,
/// unless `data` is memory another thread could write (anything but a `bytes` object).
#[pyfunction]
#[pyo3(signature = (data, *, tld=None, allow_utf8=true, locale=None, allow=None, deny=None))]
pub fn detect(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    tld: Option<String>,
    allow_utf8: bool,
    locale: Option<String>,
    allow: Option<&Bound<'_, PyAny>>,
    deny: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyDetectResult> {
    let view = ByteView::new(data, "detect() argument 'data'")?;
    let owned = OwnedHints::new(tld, allow_utf8, locale, allow, deny)?;
    // Memory that another thread could change is read with the GIL held.
    let release = view.is_immutable();
    let bytes = view.as_slice();
    let hints = owned.hints();
    let run = || {
        let mut detector = Detector::new();
        detector.feed(bytes, true);
        (detector.guess(&hints), detector.ranking(&hints))
    };
    let (guess, ranking) = if release { py.detach(run) } else { run() };
    Ok(result(&guess, &ranking))
}

/// Detector() — the streaming detector: `feed` chunks split anywhere (memory stays
/// bounded), then `guess`. The same answer as `detect` on the whole input.
#[pyclass(name = "Detector", module = "textcodec")]
pub struct PyDetector {
    inner: Detector,
}

#[pymethods]
impl PyDetector {
    #[new]
    fn new() -> Self {
        PyDetector {
            inner: Detector::new(),
        }
    }

    /// feed(data, last=False) -> bool
    ///
    /// Examines the next chunk; `last=True` marks the end of the input. Returns whether
    /// the detector has stopped looking (it saw enough, or the end): later chunks are
    /// then ignored.
    #[pyo3(signature = (data, last=false))]
    fn feed(&mut self, data: &Bound<'_, PyAny>, last: bool) -> PyResult<bool> {
        let view = ByteView::new(data, "feed() argument 'data'")?;
        Ok(self.inner.feed(view.as_slice(), last))
    }

    /// Whether the detector has stopped looking.
    #[getter]
    fn done(&self) -> bool {
        self.inner.is_done()
    }

    /// How many bytes were examined.
    #[getter]
    fn bytes_examined(&self) -> u64 {
        self.inner.bytes_examined()
    }

    /// guess(*, tld=None, allow_utf8=True, locale=None, allow=None, deny=None) -> DetectResult
    ///
    /// The guess for the input fed so far (as `detect`).
    #[pyo3(signature = (*, tld=None, allow_utf8=true, locale=None, allow=None, deny=None))]
    fn guess(
        &self,
        tld: Option<String>,
        allow_utf8: bool,
        locale: Option<String>,
        allow: Option<&Bound<'_, PyAny>>,
        deny: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyDetectResult> {
        let owned = OwnedHints::new(tld, allow_utf8, locale, allow, deny)?;
        let hints = owned.hints();
        Ok(result(
            &self.inner.guess(&hints),
            &self.inner.ranking(&hints),
        ))
    }

    fn __repr__(&self) -> String {
        format!(
            "Detector(bytes_examined={}, done={})",
            self.inner.bytes_examined(),
            if self.inner.is_done() {
                "True"
            } else {
                "False"
            }
        )
    }
}
