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

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<encoding::PyEncoding>()?;
    m.add_function(wrap_pyfunction!(encoding::lookup, m)?)?;
    m.add_function(wrap_pyfunction!(encoding::encodings, m)?)?;
    m.add_function(wrap_pyfunction!(decode::decode, m)?)?;
    m.add_function(wrap_pyfunction!(decode::_core_decode, m)?)?;
    m.add_function(wrap_pyfunction!(pyext::_buffer_is_immutable, m)?)?;
    m.add_class::<decode::PyDecoder>()?;
    m.add_function(wrap_pyfunction!(encode::encode, m)?)?;
    m.add_function(wrap_pyfunction!(encode::_encode_into, m)?)?;
    m.add_class::<encode::PyEncoder>()?;
    m.add_class::<detect::PyDetectResult>()?;
    m.add_function(wrap_pyfunction!(detect::detect, m)?)?;
    m.add_class::<sniff::PySniffReport>()?;
    m.add_function(wrap_pyfunction!(sniff::sniff, m)?)?;
    m.add_function(wrap_pyfunction!(sniff::decode_html, m)?)?;
    m.add_class::<arrow::PyArrowArray>()?;
    m.add_function(wrap_pyfunction!(arrow::_arrow_decode, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::_arrow_decode_html, m)?)?;
    Ok(())
}
