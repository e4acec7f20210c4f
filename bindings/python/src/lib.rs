//! `textcodec._native`: the extension module behind the `textcodec` Python package.
//!
//! Thin wrappers over the textcodec crate; the Python package (`python/textcodec/`) adds
//! the pure-Python parts (`TextDecoder`/`TextEncoder`, codecs registration, the Arrow
//! front end). No Rust panic reaches Python: bad input becomes a Python exception, and the
//! crate's own code paths are panic-free by construction (`textcodec` denies the lints
//! that could panic); pyo3 turns any panic that remained into `PanicException`.

mod arrow;
mod decode;
mod detect;
mod encode;
mod encoding;
mod pyext;
mod sniff;

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The SIMD kernel level textcodec runs at and how it was chosen (`textcodec::kernel_info`):
/// a dict with `active`, `request` ("unset", "honoured", "capped" to a level below one this
/// CPU lacks, "unknown": not a level name, ignored), `requested` (the `TEXTCODEC_KERNEL`
/// value, or None), `levels` and `supported`. For tests run at a forced level.
#[pyfunction]
fn _kernel_info(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    use textcodec::KernelRequest;
    let info = textcodec::kernel_info();
    let (request, requested) = match info.request {
        KernelRequest::Unset => ("unset", None),
        KernelRequest::Honoured(name) => ("honoured", Some(name.to_string())),
        KernelRequest::Capped(name) => ("capped", Some(name.to_string())),
        KernelRequest::Unknown(value) => ("unknown", Some(value)),
        // A kind of request added later: reported, not guessed at.
        _ => ("other", None),
    };
    let dict = PyDict::new(py);
    dict.set_item("active", info.active)?;
    dict.set_item("request", request)?;
    dict.set_item("requested", requested)?;
    dict.set_item("levels", info.levels.to_vec())?;
    dict.set_item("supported", info.supported.to_vec())?;
    Ok(dict)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<encoding::PyEncoding>()?;
    m.add_function(wrap_pyfunction!(encoding::lookup, m)?)?;
    m.add_function(wrap_pyfunction!(encoding::encodings, m)?)?;
    m.add_function(wrap_pyfunction!(decode::decode, m)?)?;
    m.add_function(wrap_pyfunction!(decode::_core_decode, m)?)?;
    m.add_function(wrap_pyfunction!(pyext::_buffer_is_immutable, m)?)?;
    m.add_function(wrap_pyfunction!(_kernel_info, m)?)?;
    m.add_class::<decode::PyDecoder>()?;
    m.add_function(wrap_pyfunction!(encode::encode, m)?)?;
    m.add_function(wrap_pyfunction!(encode::_encode_into, m)?)?;
    m.add_class::<encode::PyEncoder>()?;
    m.add_class::<detect::PyDetectResult>()?;
    m.add_class::<detect::PyDetector>()?;
    m.add_function(wrap_pyfunction!(detect::detect, m)?)?;
    m.add_class::<sniff::PySniffReport>()?;
    m.add_function(wrap_pyfunction!(sniff::sniff, m)?)?;
    m.add_function(wrap_pyfunction!(sniff::decode_html, m)?)?;
    m.add_class::<arrow::PyArrowArray>()?;
    m.add_function(wrap_pyfunction!(arrow::_arrow_decode, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::_arrow_decode_html, m)?)?;
    Ok(())
}
