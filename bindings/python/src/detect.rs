//! `textcodec.detect`: the statistical detector (`textcodec::detect`) for bytes that came
//! with no label.

use pyo3::prelude::*;
use textcodec::detect::{Detector, Hints};

use crate::pyext::ByteView;

/// The detector's guess for some bytes. `encoding` is the name to decode with; `margin`
/// (the guess's score minus the runner-up's) says how sure it is.
#[pyclass(name = "DetectResult", module = "textcodec", frozen, get_all)]
pub struct PyDetectResult {
    /// The guessed encoding's name.
    encoding: &'static str,
    /// Its plausibility score (higher is better).
    score: f64,
    /// Its score minus the runner-up's (>= 0): the larger, the surer.
    margin: f64,
    /// No byte told encodings apart: the guess is the hints' default.
    ascii_only: bool,
    /// The detector had enough evidence before the end and stopped looking.
    stopped_early: bool,
    /// Every candidate, best first: `(name, score, disqualified)`; disqualified ones (their
    /// decoder finds a malformed sequence) last.
    ranking: Vec<(&'static str, f64, bool)>,
}

#[pymethods]
impl PyDetectResult {
    fn __repr__(&self) -> String {
        format!(
            "DetectResult(encoding={:?}, score={:.3}, margin={:.3}, ascii_only={}, \
             stopped_early={})",
            self.encoding,
            self.score,
            self.margin,
            if self.ascii_only { "True" } else { "False" },
            if self.stopped_early { "True" } else { "False" },
        )
    }
}

/// detect(data, *, tld=None, allow_utf8=True, locale=None) -> DetectResult
///
/// Guesses the encoding of unlabelled bytes from their content alone (no BOM, header or
/// `<meta>`: see `sniff(..., detect=True)` for the whole browser algorithm). Candidates:
/// UTF-8, the single-byte encodings, GBK, gb18030, Big5, EUC-JP, ISO-2022-JP, Shift_JIS,
/// EUC-KR. The GIL is released while the detector runs, unless `data` is memory another
/// thread could write (anything but a `bytes` object).
#[pyfunction]
#[pyo3(signature = (data, *, tld=None, allow_utf8=true, locale=None))]
pub fn detect(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    tld: Option<String>,
    allow_utf8: bool,
    locale: Option<String>,
) -> PyResult<PyDetectResult> {
    let view = ByteView::new(data, "detect() argument 'data'")?;
    // Memory that another thread could change is read with the GIL held.
    let release = view.is_immutable();
    let bytes = view.as_slice();
    let hints = Hints {
        tld: tld.as_deref().map(str::as_bytes),
        allow_utf8,
        locale: locale.as_deref(),
    };
    let run = || {
        let mut detector = Detector::new();
        detector.feed(bytes, true);
        (detector.guess(&hints), detector.ranking(&hints))
    };
    let (guess, ranking) = if release { py.detach(run) } else { run() };
    Ok(PyDetectResult {
        encoding: guess.encoding.name(),
        score: f64::from(guess.score),
        margin: f64::from(guess.margin),
        ascii_only: guess.ascii_only,
        stopped_early: guess.stopped_early,
        ranking: ranking
            .iter()
            .map(|c| (c.encoding.name(), f64::from(c.score), c.disqualified))
            .collect(),
    })
}
