//! Reading Arrow arrays that a producer exports (`__arrow_c_array__`): binary and string
//! arrays with 32-bit or 64-bit offsets, and binary and string views. Imports borrow: the
//! capsules the producer returns keep its memory alive while we read it, and their
//! destructors release it — unless the array is moved out ([`Imported::take_array`]) to be
//! re-exported as it is.

use std::ffi::CStr;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;

use super::abi::{ArrowArray, ArrowSchema, ARRAY_CAPSULE, SCHEMA_CAPSULE};

/// The offsets or views of a binary-like column.
enum Layout<'a> {
    Offsets32(&'a [i32], *const u8),
    Offsets64(&'a [i64], *const u8),
    /// 16-byte views and the variadic data buffers.
    Views(&'a [[u8; 16]], Vec<*const u8>),
}

/// A binary or string column borrowed from a producer (through [`Imported`]).
pub struct BinaryColumn<'a> {
    len: usize,
    /// Validity bitmap and the bit offset of the first row in it.
    validity: Option<(*const u8, usize)>,
    layout: Layout<'a>,
}

// SAFETY: the pointers refer to immutable Arrow buffers kept alive by the `Imported` value
// this column borrows from; Arrow arrays are immutable once exported, so reading them from
// another thread (with the GIL released) is sound.
unsafe impl Send for BinaryColumn<'_> {}
// SAFETY: as above: shared read-only access.
unsafe impl Sync for BinaryColumn<'_> {}

impl BinaryColumn<'_> {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether row `i` is null.
    pub fn is_null(&self, i: usize) -> bool {
        match self.validity {
            None => false,
            Some((bits, offset)) => {
                let bit = offset + i;
                // SAFETY: the bitmap covers `offset + len` bits (Arrow layout), i < len.
                let byte = unsafe { *bits.add(bit / 8) };
                byte & (1 << (bit % 8)) == 0
            }
        }
    }

    /// The bytes of all rows, from the first row's start to the last row's end, for the
    /// offset layouts; `None` for views (or inconsistent offsets).
    pub fn all_bytes(&self) -> Option<&[u8]> {
        let (ptr, start, end) = match &self.layout {
            Layout::Offsets32(offsets, data) => (
                *data,
                usize::try_from(*offsets.first()?).ok()?,
                usize::try_from(*offsets.last()?).ok()?,
            ),
            Layout::Offsets64(offsets, data) => (
                *data,
                usize::try_from(*offsets.first()?).ok()?,
                usize::try_from(*offsets.last()?).ok()?,
            ),
            Layout::Views(..) => return None,
        };
        if end < start {
            return None;
        }
        if end == start {
            return Some(&[]);
        }
        // SAFETY: as in `value`: the data buffer holds every byte the offsets point to.
        Some(unsafe { std::slice::from_raw_parts(ptr.add(start), end - start) })
    }

    /// The bytes of row `i` (empty for a null row of a view column); `None` if the row's
    /// offsets are inconsistent (a malformed array).
    pub fn value(&self, i: usize) -> Option<&[u8]> {
        let (ptr, start, end) = match &self.layout {
            Layout::Offsets32(offsets, data) => {
                let start = usize::try_from(*offsets.get(i)?).ok()?;
                let end = usize::try_from(*offsets.get(i + 1)?).ok()?;
                (*data, start, end)
            }
            Layout::Offsets64(offsets, data) => {
                let start = usize::try_from(*offsets.get(i)?).ok()?;
                let end = usize::try_from(*offsets.get(i + 1)?).ok()?;
                (*data, start, end)
            }
            Layout::Views(views, buffers) => {
                let view = views.get(i)?;
                let len = usize::try_from(i32::from_le_bytes(view[0..4].try_into().ok()?)).ok()?;
                if len <= 12 {
                    return view.get(4..4 + len);
                }
                let index =
                    usize::try_from(i32::from_le_bytes(view[8..12].try_into().ok()?)).ok()?;
                let offset =
                    usize::try_from(i32::from_le_bytes(view[12..16].try_into().ok()?)).ok()?;
                (*buffers.get(index)?, offset, offset.checked_add(len)?)
            }
        };
        if end < start {
            return None;
        }
        if end == start {
            return Some(&[]);
        }
        // SAFETY: Arrow's layout: the data buffer holds every byte the offsets (or views)
        // point to; the buffer lives as long as the `Imported` value borrowed by `self`.
        Some(unsafe { std::slice::from_raw_parts(ptr.add(start), end - start) })
    }
}

/// An array imported through `__arrow_c_array__`: the two capsules, alive while we read.
pub struct Imported<'py> {
    _schema_capsule: Bound<'py, PyAny>,
    _array_capsule: Bound<'py, PyAny>,
    schema: *const ArrowSchema,
    array: *const ArrowArray,
}

impl<'py> Imported<'py> {
    /// Moves the array out of its capsule (the capsule will not release it); the caller
    /// must stop using columns borrowed from `self` before dropping the result.
    pub fn take_array(&self) -> OwnedArray {
        // SAFETY: the capsule holds a live array (checked in `new`); the C data interface
        // lets a consumer move it by copying the structure and marking the source released.
        unsafe {
            let moved = std::ptr::read(self.array);
            (*self.array.cast_mut()).release = None;
            OwnedArray(Box::new(moved))
        }
    }

    /// Calls `object.__arrow_c_array__()` and checks the capsules.
    pub fn new(object: &Bound<'py, PyAny>, what: &str) -> PyResult<Imported<'py>> {
        let py = object.py();
        if !object.hasattr(pyo3::intern!(py, "__arrow_c_array__"))? {
            let name = object.get_type().name()?;
            return Err(PyTypeError::new_err(format!(
                "{what} must be an Arrow array (an object with __arrow_c_array__, e.g. a \
                 pyarrow.Array), not '{name}'"
            )));
        }
        let pair = object.call_method0(pyo3::intern!(py, "__arrow_c_array__"))?;
        let (schema_capsule, array_capsule): (Bound<'py, PyAny>, Bound<'py, PyAny>) =
            pair.extract()?;
        // SAFETY: PyCapsule_GetPointer checks the object is a capsule with this name and
        // returns its pointer, or NULL with an exception set.
        let schema =
            unsafe { ffi::PyCapsule_GetPointer(schema_capsule.as_ptr(), SCHEMA_CAPSULE.as_ptr()) };
        if schema.is_null() {
            return Err(PyErr::fetch(py));
        }
        // SAFETY: as above.
        let array =
            unsafe { ffi::PyCapsule_GetPointer(array_capsule.as_ptr(), ARRAY_CAPSULE.as_ptr()) };
        if array.is_null() {
            return Err(PyErr::fetch(py));
        }
        let imported = Imported {
            _schema_capsule: schema_capsule,
            _array_capsule: array_capsule,
            schema: schema.cast(),
            array: array.cast(),
        };
        // SAFETY: the capsules hold live structures (the producer's contract).
        let (schema_ref, array_ref) = unsafe { (&*imported.schema, &*imported.array) };
        if schema_ref.release.is_none() || array_ref.release.is_none() {
            return Err(PyValueError::new_err(
                "the Arrow array was already released",
            ));
        }
        Ok(imported)
    }

    /// The format string (`"z"`, `"Z"`, `"u"`, `"U"`, `"vz"`, `"vu"`, ...).
    pub fn format(&self) -> String {
        // SAFETY: a live schema's `format` is a NUL-terminated string (the interface
        // requires it non-null).
        unsafe {
            let format = (*self.schema).format;
            if format.is_null() {
                return String::new();
            }
            CStr::from_ptr(format).to_string_lossy().into_owned()
        }
    }

    /// The array as a binary-like column; `TypeError` for other types.
    pub fn binary(&self, what: &str) -> PyResult<BinaryColumn<'_>> {
        let format = self.format();
        // SAFETY: a live array structure (checked in `new`).
        let array = unsafe { &*self.array };
        let len = usize::try_from(array.length)
            .map_err(|_| PyValueError::new_err("negative Arrow array length"))?;
        let offset = usize::try_from(array.offset)
            .map_err(|_| PyValueError::new_err("negative Arrow array offset"))?;
        let n_buffers = usize::try_from(array.n_buffers).unwrap_or(0);
        let buffer = |i: usize| -> *const u8 {
            if i >= n_buffers || array.buffers.is_null() {
                return std::ptr::null();
            }
            // SAFETY: `buffers` has `n_buffers` entries, i < n_buffers.
            unsafe { (*array.buffers.add(i)).cast::<u8>() }
        };
        let validity_ptr = buffer(0);
        let validity = if validity_ptr.is_null() || array.null_count == 0 {
            None
        } else {
            Some((validity_ptr, offset))
        };
        let layout = match format.as_str() {
            "z" | "u" | "Z" | "U" => {
                let offsets = buffer(1);
                let data = buffer(2);
                if n_buffers != 3 || (offsets.is_null() && len > 0) {
                    return Err(PyValueError::new_err("malformed Arrow binary array"));
                }
                let data = if data.is_null() {
                    std::ptr::NonNull::dangling().as_ptr()
                } else {
                    data
                };
                if len == 0 {
                    Layout::Offsets32(&[], data)
                } else if format == "z" || format == "u" {
                    // SAFETY: the offsets buffer holds `offset + len + 1` aligned i32 values.
                    let all = unsafe {
                        std::slice::from_raw_parts(offsets.cast::<i32>().add(offset), len + 1)
                    };
                    Layout::Offsets32(all, data)
                } else {
                    // SAFETY: as above, i64 values.
                    let all = unsafe {
                        std::slice::from_raw_parts(offsets.cast::<i64>().add(offset), len + 1)
                    };
                    Layout::Offsets64(all, data)
                }
            }
            "vz" | "vu" => {
                let views = buffer(1);
                if n_buffers < 3 || (views.is_null() && len > 0) {
                    return Err(PyValueError::new_err("malformed Arrow binary view array"));
                }
                let data_buffers = (2..n_buffers - 1).map(buffer).collect();
                let views = if len == 0 {
                    &[][..]
                } else {
                    // SAFETY: the views buffer holds `offset + len` 16-byte views.
                    unsafe { std::slice::from_raw_parts(views.cast::<[u8; 16]>().add(offset), len) }
                };
                Layout::Views(views, data_buffers)
            }
            other => {
                return Err(PyTypeError::new_err(format!(
                    "{what} must be an Arrow binary, large_binary, binary_view, string or \
                     large_string array, not format {other:?}"
                )))
            }
        };
        Ok(BinaryColumn {
            len,
            validity,
            layout,
        })
    }
}

/// An input array moved out of its capsule: we call its `release` when done.
pub struct OwnedArray(Box<ArrowArray>);

// SAFETY: Arrow arrays are immutable once exported, and the C data interface lets a
// consumer call `release` from any thread.
unsafe impl Send for OwnedArray {}
// SAFETY: as above; we only read through shared references.
unsafe impl Sync for OwnedArray {}

impl OwnedArray {
    /// The array structure (for re-exporting its buffers).
    pub fn array(&self) -> &ArrowArray {
        &self.0
    }
}

impl Drop for OwnedArray {
    fn drop(&mut self) {
        if let Some(release) = self.0.release {
            // SAFETY: we own this structure (moved out of the producer's capsule) and release
            // it once.
            unsafe { release(&mut *self.0) };
        }
    }
}
