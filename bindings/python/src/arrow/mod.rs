//! `textcodec.arrow`: decode Arrow binary columns row by row, zero-copy in (the producer's
//! buffers are read in place through the C data interface) and out (the result's buffers
//! are handed to the consumer), with the GIL released while decoding. Every input array is
//! validated before a row is read ([`import::Imported::binary`]); decoding relies on Arrow
//! arrays being immutable once exported (the interface's contract) for releasing the GIL,
//! and reads stay bounds-checked should a producer break it.

mod abi;
mod export;
mod import;

use std::sync::Arc;

use pyo3::exceptions::{PyLookupError, PyMemoryError, PyUnicodeDecodeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use pyo3::PyTypeInfo;
use textcodec::sniff::{sniff, ResourceKind, SniffOptions};
use textcodec::{BomHandling, DecodeErrorMode, DecodeStatus, Decoder, DecoderOptions, Encoding};

use self::export::{capsules, Bitmap, Column, OutOfMemory, StringBuilder};
use self::import::{BinaryColumn, Imported};
use crate::decode::parse_bom;
use crate::encoding::resolve;
use crate::sniff::header_bytes;

/// A decoded Arrow array: pass it to `pyarrow.array()`, `polars.from_arrow()` or anything
/// that accepts the Arrow PyCapsule interface (`__arrow_c_array__`).
#[pyclass(name = "ArrowArray", module = "textcodec.arrow", frozen)]
pub struct PyArrowArray {
    column: Arc<Column>,
}

#[pymethods]
impl PyArrowArray {
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        // The only schema offered is our own; a consumer asking for another one casts.
        let _ = requested_schema;
        capsules(py, &self.column)
    }

    fn __len__(&self) -> usize {
        self.column.len()
    }

    /// The Arrow type: "string", "large_string" or "struct<text, encoding>".
    #[getter]
    fn r#type(&self) -> &'static str {
        self.column.type_name()
    }
}

/// Why a row could not be decoded.
enum RowError {
    UnknownLabel(usize, Vec<u8>),
    Malformed {
        row: usize,
        bytes: Vec<u8>,
        start: usize,
        end: usize,
        encoding: Encoding,
    },
    /// A row outside its buffers when read, though validated: the producer changed the
    /// array's memory meanwhile.
    Changed(usize),
    OutOfMemory,
}

impl From<OutOfMemory> for RowError {
    fn from(_: OutOfMemory) -> RowError {
        RowError::OutOfMemory
    }
}

impl RowError {
    fn into_py(self, py: Python<'_>) -> PyErr {
        match self {
            RowError::UnknownLabel(row, label) => PyLookupError::new_err(format!(
                "unknown encoding label {:?} in row {row}",
                String::from_utf8_lossy(&label)
            )),
            RowError::Changed(row) => PyValueError::new_err(format!(
                "malformed Arrow array: row {row} lies outside its buffers (the array's \
                 memory changed while it was decoded)"
            )),
            RowError::OutOfMemory => {
                PyMemoryError::new_err("not enough memory for the decoded Arrow array")
            }
            RowError::Malformed {
                row,
                bytes,
                start,
                end,
                encoding,
            } => {
                let reason = format!("invalid byte sequence in row {row}");
                match PyUnicodeDecodeError::type_object(py).call1((
                    encoding.name(),
                    PyBytes::new(py, &bytes),
                    start,
                    end,
                    reason,
                )) {
                    Ok(exc) => PyErr::from_value(exc),
                    Err(e) => e,
                }
            }
        }
    }
}

/// What to do with a malformed row.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RowErrors {
    Replace,
    Strict,
    Null,
}

/// The per-row encoding: one for all, or a label column.
enum Labels<'a> {
    One(Encoding),
    PerRow(BinaryColumn<'a>),
}

/// The bytes of the non-null rows (null rows' offsets or views may span anything).
fn input_bytes(column: &BinaryColumn<'_>) -> usize {
    (0..column.len())
        .filter(|&i| !column.is_null(i))
        .filter_map(|i| column.value_len(i))
        .fold(0usize, usize::saturating_add)
}

fn decode_rows(
    column: &BinaryColumn<'_>,
    labels: &Labels<'_>,
    errors: RowErrors,
    bom: BomHandling,
) -> Result<StringBuilder, RowError> {
    let mut out = StringBuilder::for_decoding(column.len(), input_bytes(column))?;
    let options = DecoderOptions {
        error_mode: if errors == RowErrors::Replace {
            DecodeErrorMode::Replacement
        } else {
            DecodeErrorMode::Fatal
        },
        bom,
    };
    let mut current: Option<Decoder> = None;
    for row in 0..column.len() {
        if column.is_null(row) {
            out.push_null();
            continue;
        }
        let value = column.value(row).ok_or(RowError::Changed(row))?;
        let encoding = match labels {
            Labels::One(e) => *e,
            // A null label: UTF-8, the Standard's default.
            Labels::PerRow(l) if l.is_null(row) => Encoding::Utf8,
            Labels::PerRow(l) => {
                let label = l.value(row).ok_or(RowError::Changed(row))?;
                Encoding::for_label(label)
                    .ok_or_else(|| RowError::UnknownLabel(row, label.to_vec()))?
            }
        };
        // One decoder per run of rows with the same encoding: ending a stream (`last`)
        // resets it for the next row.
        let decoder = match &mut current {
            Some(d) if d.encoding() == encoding && d.is_idle() => d,
            slot => slot.insert(Decoder::with_options(encoding, options)),
        };
        // Room for the worst case, so the decoder never stops for space.
        let room = decoder
            .max_utf8_buffer_length(value.len())
            .ok_or(RowError::OutOfMemory)?;
        let r = decoder.decode_to_utf8(value, out.room(room)?, true);
        out.commit(r.written);
        match r.status {
            DecodeStatus::Malformed(m) => match errors {
                RowErrors::Null => {
                    out.push_null();
                    current = None;
                }
                _ => {
                    let start = usize::try_from(m.offset()).unwrap_or(0);
                    return Err(RowError::Malformed {
                        row,
                        bytes: value.to_vec(),
                        start,
                        end: start + m.bytes().len(),
                        encoding: decoder.encoding(),
                    });
                }
            },
            _ => out.end_row(),
        }
    }
    Ok(out)
}

/// Whether decoding every row as UTF-8 gives its own bytes: the rows' bytes, together, are
/// valid UTF-8, no row starts inside a character (so each row is valid by itself), and no
/// row starts with a BOM that `bom` would remove.
fn reusable_as_utf8(column: &BinaryColumn<'_>, bom: BomHandling) -> bool {
    if !column.exportable_as_is() {
        return false;
    }
    let Some(all) = column.all_bytes() else {
        return false;
    };
    if textcodec::utf8_decode_without_bom_or_fail(all).is_err() {
        return false;
    }
    (0..column.len()).all(|row| match column.value(row) {
        None => false,
        Some(v) => {
            let starts_inside = v.first().is_some_and(|&b| (0x80..0xC0).contains(&b));
            let bom_removed = bom != BomHandling::Keep && v.starts_with(b"\xEF\xBB\xBF");
            !starts_inside && !bom_removed
        }
    })
}

/// decode(array, encoding, *, errors, bom) for one Arrow array (see `textcodec.arrow`).
#[pyfunction]
#[pyo3(signature = (array, encoding, *, errors="replace", bom="sniff"))]
pub fn _arrow_decode(
    py: Python<'_>,
    array: &Bound<'_, PyAny>,
    encoding: &Bound<'_, PyAny>,
    errors: &str,
    bom: &str,
) -> PyResult<PyArrowArray> {
    let errors = match errors {
        "replace" => RowErrors::Replace,
        "strict" => RowErrors::Strict,
        "null" => RowErrors::Null,
        other => {
            return Err(PyValueError::new_err(format!(
                "errors must be 'replace', 'strict' or 'null' for Arrow arrays, not {other:?}"
            )))
        }
    };
    let bom = parse_bom(bom)?;
    let imported = Imported::new(array, "array")?;
    let column = imported.binary("array")?;
    let large = matches!(imported.format().as_str(), "Z" | "U");
    let label_import;
    let labels = if encoding.hasattr(pyo3::intern!(py, "__arrow_c_array__"))? {
        label_import = Imported::new(encoding, "encoding")?;
        let labels = label_import.binary("encoding")?;
        if labels.len() != column.len() {
            return Err(PyValueError::new_err(format!(
                "encoding has {} labels for {} rows",
                labels.len(),
                column.len()
            )));
        }
        Labels::PerRow(labels)
    } else {
        Labels::One(resolve(encoding)?)
    };
    if let Labels::One(Encoding::Utf8) = labels {
        if py.detach(|| reusable_as_utf8(&column, bom)) {
            // Every row is already its own text: re-export the input's buffers as a string
            // array (the producer's memory, no copy).
            drop(column);
            return Ok(PyArrowArray {
                column: Arc::new(Column::Reused {
                    array: imported.take_array(),
                    large,
                }),
            });
        }
    }
    let result = py.detach(|| decode_rows(&column, &labels, errors, bom));
    let builder = result.map_err(|e| e.into_py(py))?;
    Ok(PyArrowArray {
        column: Arc::new(Column::Strings(builder.finish(large))),
    })
}

/// The per-row Content-Type: none, one for all, or a column.
enum ContentTypes<'a> {
    One(Option<Vec<u8>>),
    PerRow(BinaryColumn<'a>),
}

fn decode_html_rows(
    column: &BinaryColumn<'_>,
    content_types: &ContentTypes<'_>,
) -> Result<(Bitmap, StringBuilder, StringBuilder), RowError> {
    let mut valid = Bitmap::default();
    let mut text = StringBuilder::for_decoding(column.len(), input_bytes(column))?;
    // Encoding names are at most 14 bytes; most are shorter.
    let mut names = StringBuilder::with_capacity(column.len(), column.len().saturating_mul(12))?;
    for row in 0..column.len() {
        if column.is_null(row) {
            valid.push(false);
            text.push_null();
            names.push_null();
            continue;
        }
        let value = column.value(row).ok_or(RowError::Changed(row))?;
        let content_type = match content_types {
            ContentTypes::One(c) => c.as_deref(),
            ContentTypes::PerRow(c) if c.is_null(row) => None,
            ContentTypes::PerRow(c) => Some(c.value(row).ok_or(RowError::Changed(row))?),
        };
        let options = SniffOptions {
            content_type,
            ..SniffOptions::new(ResourceKind::Html)
        };
        let report = sniff(value, &options);
        // HTML decodes in replacement mode with the *decode* hook's BOM handling.
        let mut decoder = report.decoder();
        let room = decoder
            .max_utf8_buffer_length(value.len())
            .ok_or(RowError::OutOfMemory)?;
        let r = decoder.decode_to_utf8(value, text.room(room)?, true);
        text.commit(r.written);
        text.end_row();
        names.push_str(report.encoding.name())?;
        valid.push(true);
    }
    Ok((valid, text, names))
}

/// decode_html(bodies, content_types) for one Arrow array (see `textcodec.arrow`).
#[pyfunction]
#[pyo3(signature = (bodies, content_types=None))]
pub fn _arrow_decode_html(
    py: Python<'_>,
    bodies: &Bound<'_, PyAny>,
    content_types: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyArrowArray> {
    let imported = Imported::new(bodies, "bodies")?;
    let column = imported.binary("bodies")?;
    let large = matches!(imported.format().as_str(), "Z" | "U");
    let ct_import;
    let content_types = match content_types {
        Some(c) if c.hasattr(pyo3::intern!(py, "__arrow_c_array__"))? => {
            ct_import = Imported::new(c, "content_types")?;
            let c = ct_import.binary("content_types")?;
            if c.len() != column.len() {
                return Err(PyValueError::new_err(format!(
                    "content_types has {} rows, bodies {}",
                    c.len(),
                    column.len()
                )));
            }
            ContentTypes::PerRow(c)
        }
        other => ContentTypes::One(header_bytes(other)?),
    };
    let (valid, text, names) = py
        .detach(|| decode_html_rows(&column, &content_types))
        .map_err(|e| e.into_py(py))?;
    let (len, validity, null_count) = valid.finish();
    Ok(PyArrowArray {
        column: Arc::new(Column::TextAndEncoding {
            len,
            validity,
            null_count,
            text: text.finish(large),
            encoding: names.finish(false),
        }),
    })
}
