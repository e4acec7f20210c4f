//! Reading Arrow arrays that a producer exports (`__arrow_c_array__`): binary and string
//! arrays with 32-bit or 64-bit offsets, and binary and string views. Imports borrow: the
//! capsules the producer returns keep its memory alive while we read it, and their
//! destructors release it — unless the array is moved out ([`Imported::take_array`]) to be
//! re-exported as it is.

use std::borrow::Cow;
use std::ffi::CStr;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;

use super::abi::{ArrowArray, ArrowSchema, ARRAY_CAPSULE, SCHEMA_CAPSULE};

/// Row boundaries of an offsets layout, borrowed in place or, when the producer's buffer
/// is not aligned for the integer type, copied (slices of misaligned integers are invalid).
enum Offsets<'a> {
    I32(Cow<'a, [i32]>),
    I64(Cow<'a, [i64]>),
}

impl Offsets<'_> {
    fn get(&self, i: usize) -> Option<i64> {
        match self {
            Offsets::I32(o) => o.get(i).map(|&v| i64::from(v)),
            Offsets::I64(o) => o.get(i).copied(),
        }
    }

    fn is_borrowed(&self) -> bool {
        matches!(
            self,
            Offsets::I32(Cow::Borrowed(_)) | Offsets::I64(Cow::Borrowed(_))
        )
    }
}

/// The offsets or views of a binary-like column.
enum Layout<'a> {
    /// The `len + 1` offsets of the rows and the data buffer up to the last offset.
    Offsets(Offsets<'a>, &'a [u8]),
    /// 16-byte views and the variadic data buffers, each as long as its declared size.
    Views(&'a [[u8; 16]], Vec<&'a [u8]>),
}

/// A binary or string column borrowed from a producer (through [`Imported`]), validated
/// when made ([`Imported::binary`]): every non-null row's bytes lie inside its buffer.
/// Reads stay bounds-checked as well, so that memory changed behind the interface's back
/// after validation (Arrow arrays are immutable by contract, but a Python user can write
/// the `bytearray` under a `pyarrow.py_buffer`) gives an error, never a read outside the
/// buffers.
pub struct BinaryColumn<'a> {
    len: usize,
    /// Validity bitmap (covering `offset + len` bits) and the bit of the first row in it.
    validity: Option<(&'a [u8], usize)>,
    layout: Layout<'a>,
}

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
                bits.get(bit / 8)
                    .is_some_and(|byte| byte & (1 << (bit % 8)) == 0)
            }
        }
    }

    /// The bytes of all rows, from the first row's start to the last row's end, for the
    /// offset layouts; `None` for views.
    pub fn all_bytes(&self) -> Option<&[u8]> {
        let Layout::Offsets(offsets, data) = &self.layout else {
            return None;
        };
        let start = usize::try_from(offsets.get(0)?).ok()?;
        let end = usize::try_from(offsets.get(self.len)?).ok()?;
        if start == end {
            return Some(&[]);
        }
        data.get(start..end)
    }

    /// Whether the producer's buffers can be re-exported as they are (an offsets layout
    /// read in place).
    pub fn exportable_as_is(&self) -> bool {
        matches!(&self.layout, Layout::Offsets(o, _) if o.is_borrowed())
    }

    /// The bytes of row `i` (for a null row, whatever its offsets or view say if that lies
    /// in the buffers); `None` if they do not lie in the buffers.
    pub fn value(&self, i: usize) -> Option<&[u8]> {
        match &self.layout {
            Layout::Offsets(offsets, data) => {
                let start = usize::try_from(offsets.get(i)?).ok()?;
                let end = usize::try_from(offsets.get(i + 1)?).ok()?;
                if start == end {
                    return Some(&[]);
                }
                data.get(start..end)
            }
            Layout::Views(views, buffers) => match View::parse(views.get(i)?)? {
                View::Inline(bytes) => Some(bytes),
                View::InBuffer { index, start, len } => {
                    buffers.get(index)?.get(start..start.checked_add(len)?)
                }
            },
        }
    }

    /// The byte length of row `i`, if it lies in the buffers.
    pub fn value_len(&self, i: usize) -> Option<usize> {
        self.value(i).map(<[u8]>::len)
    }
}

/// A binary view (the Arrow columnar format's 16 bytes: length, then the bytes inline up
/// to 12, else a 4-byte prefix, the buffer index and the offset in it).
enum View<'a> {
    Inline(&'a [u8]),
    InBuffer {
        index: usize,
        start: usize,
        len: usize,
    },
}

impl<'a> View<'a> {
    fn field(view: &[u8; 16], at: usize) -> i32 {
        let mut b = [0u8; 4];
        b.copy_from_slice(&view[at..at + 4]);
        i32::from_le_bytes(b)
    }

    /// `None` for a negative length, index or offset.
    fn parse(view: &'a [u8; 16]) -> Option<View<'a>> {
        let len = usize::try_from(Self::field(view, 0)).ok()?;
        if len <= 12 {
            return Some(View::Inline(&view[4..4 + len]));
        }
        Some(View::InBuffer {
            index: usize::try_from(Self::field(view, 8)).ok()?,
            start: usize::try_from(Self::field(view, 12)).ok()?,
            len,
        })
    }
}

/// The Arrow type a format string names, for messages.
fn type_name(format: &str) -> &'static str {
    match format {
        "z" => "binary",
        "Z" => "large_binary",
        "u" => "string",
        "U" => "large_string",
        "vz" => "binary_view",
        "vu" => "string_view",
        _ => "?",
    }
}

/// `count` values of `T` at `ptr` (a producer's buffer holding at least that many), borrowed
/// when `ptr` is aligned for `T`, else copied.
///
/// # Safety
/// `ptr` must point to `count` readable values of `T` that stay alive and unchanged for
/// `'a`, and `count * size_of::<T>()` must not exceed `isize::MAX`.
unsafe fn integers<'a, T: Copy>(ptr: *const T, count: usize) -> Cow<'a, [T]> {
    if count == 0 {
        return Cow::Borrowed(&[]);
    }
    if ptr.is_aligned() {
        // SAFETY: the caller's guarantee; `ptr` is non-null (aligned and from a producer
        // that gave a buffer) and aligned.
        Cow::Borrowed(unsafe { std::slice::from_raw_parts(ptr, count) })
    } else {
        // SAFETY: as above; unaligned reads of each value.
        Cow::Owned(
            (0..count)
                .map(|i| unsafe { ptr.add(i).read_unaligned() })
                .collect(),
        )
    }
}

/// `len` bytes at `ptr` (empty when `len` is 0, whatever `ptr` is).
///
/// # Safety
/// If `len > 0`, `ptr` must be non-null and point to `len` readable bytes that stay alive
/// for `'a`, and `len` must not exceed `isize::MAX`.
unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        return &[];
    }
    // SAFETY: the caller's guarantee.
    unsafe { std::slice::from_raw_parts(ptr, len) }
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

    /// The array as a binary-like column, validated as Arrow's full validation does
    /// before any row is read: the offsets (from the array's offset on) start at or after
    /// 0 and never decrease; each non-null row's view is inline or lies inside the data
    /// buffer it names (with the prefix of its bytes). `ValueError` naming `what`, the row
    /// and the problem otherwise; `TypeError` for other types.
    ///
    /// The C data interface carries no buffer sizes except the views' data buffers (the
    /// last buffer of a view array): the validity bitmap, offsets and views buffers are as
    /// long as `offset + length` implies, and the data buffer of an offsets layout as its
    /// last offset. pyarrow checks these when it builds an array from buffers; a producer
    /// that exports shorter buffers breaks the interface, which nothing here can detect.
    pub fn binary(&self, what: &str) -> PyResult<BinaryColumn<'_>> {
        let format = self.format();
        let kind = type_name(&format);
        let bad = |problem: String| {
            PyValueError::new_err(format!("{what}: malformed Arrow {kind} array: {problem}"))
        };
        // SAFETY: a live array structure (checked in `new`).
        let array = unsafe { &*self.array };
        let len = usize::try_from(array.length)
            .map_err(|_| bad(format!("negative length {}", array.length)))?;
        let offset = usize::try_from(array.offset)
            .map_err(|_| bad(format!("negative offset {}", array.offset)))?;
        // Rows `offset..end` of the buffers; `end + 1` fits in usize and, as a count of
        // 16-byte views or 8-byte offsets, in isize (the buffers' byte sizes must).
        let end = offset
            .checked_add(len)
            .filter(|&e| e < isize::MAX as usize / 16)
            .ok_or_else(|| bad(format!("offset {offset} + length {len} is too large")))?;
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
            // No bitmap, or a producer saying no row is null (the interface lets a consumer
            // ignore the bitmap then).
            None
        } else {
            // SAFETY: a bitmap covers `offset + len` bits (the interface), `end.div_ceil(8)`
            // bytes (below isize::MAX, checked above).
            Some((unsafe { bytes(validity_ptr, end.div_ceil(8)) }, offset))
        };
        let is_null = |row: usize| match validity {
            None => false,
            Some((bits, first)) => {
                let bit = first + row;
                bits.get(bit / 8)
                    .is_some_and(|byte| byte & (1 << (bit % 8)) == 0)
            }
        };
        let layout = match format.as_str() {
            "z" | "u" | "Z" | "U" => {
                if n_buffers != 3 {
                    return Err(bad(format!("{n_buffers} buffers instead of 3")));
                }
                let offsets_ptr = buffer(1);
                if offsets_ptr.is_null() && len > 0 {
                    return Err(bad("the offsets buffer is null".into()));
                }
                let offsets = if len == 0 {
                    Offsets::I32(Cow::Borrowed(&[]))
                } else if format == "z" || format == "u" {
                    // SAFETY: the offsets buffer holds `offset + len + 1` i32 values (the
                    // interface); the count's byte size is below isize::MAX (checked).
                    let all = unsafe { integers(offsets_ptr.cast::<i32>().add(offset), len + 1) };
                    Offsets::I32(all)
                } else {
                    // SAFETY: as above, i64 values.
                    let all = unsafe { integers(offsets_ptr.cast::<i64>().add(offset), len + 1) };
                    Offsets::I64(all)
                };
                let data_len = check_offsets(&offsets, len).map_err(bad)?;
                let data_ptr = buffer(2);
                let data = if data_ptr.is_null() {
                    // A null buffer has size 0; the interface sizes the data buffer by the
                    // last offset, so it must be 0 (as pyarrow's importer requires).
                    if data_len > 0 {
                        return Err(bad(format!(
                            "the data buffer is null but the offsets reach byte {data_len}"
                        )));
                    }
                    &[][..]
                } else {
                    // SAFETY: the data buffer holds the bytes up to the last offset (the
                    // interface), `data_len`, which is at most isize::MAX (check_offsets).
                    unsafe { bytes(data_ptr, data_len) }
                };
                Layout::Offsets(offsets, data)
            }
            "vz" | "vu" => {
                // Validity, views, the data buffers, their sizes.
                if n_buffers < 3 {
                    return Err(bad(format!("{n_buffers} buffers instead of at least 3")));
                }
                let views_ptr = buffer(1);
                if views_ptr.is_null() && len > 0 {
                    return Err(bad("the views buffer is null".into()));
                }
                let n_data = n_buffers - 3;
                let sizes_ptr = buffer(n_buffers - 1);
                if sizes_ptr.is_null() && n_data > 0 {
                    return Err(bad("the buffer of data buffer sizes is null".into()));
                }
                // SAFETY: the last buffer holds one i64 per data buffer (the interface);
                // n_data < n_buffers is small.
                let sizes = unsafe { integers(sizes_ptr.cast::<i64>(), n_data) };
                let mut data = Vec::new();
                for (index, &size) in sizes.iter().enumerate() {
                    let size = usize::try_from(size)
                        .ok()
                        .filter(|&s| s <= isize::MAX as usize)
                        .ok_or_else(|| bad(format!("data buffer {index} has size {size}")))?;
                    let ptr = buffer(2 + index);
                    if ptr.is_null() && size > 0 {
                        return Err(bad(format!(
                            "data buffer {index} is null but has size {size}"
                        )));
                    }
                    // SAFETY: a data buffer holds its declared size (the interface); a size
                    // above 0 has a non-null pointer (checked).
                    data.push(unsafe { bytes(ptr, size) });
                }
                let views = if len == 0 {
                    &[][..]
                } else {
                    // SAFETY: the views buffer holds `offset + len` 16-byte views (the
                    // interface), below isize::MAX bytes (checked); [u8; 16] is 1-aligned.
                    unsafe {
                        std::slice::from_raw_parts(views_ptr.cast::<[u8; 16]>().add(offset), len)
                    }
                };
                check_views(views, &data, is_null).map_err(bad)?;
                Layout::Views(views, data)
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

/// Checks the `len + 1` offsets of an offsets layout: the first at or after 0, none
/// smaller than the one before (null rows included, as Arrow requires), the last at most
/// isize::MAX. Returns the last, the length of the data the rows span from the buffer's
/// start.
fn check_offsets(offsets: &Offsets<'_>, len: usize) -> Result<usize, String> {
    let Some(first) = offsets.get(0) else {
        return Ok(0);
    };
    if first < 0 {
        return Err(format!("row 0 starts at negative offset {first}"));
    }
    // The loop the compiler keeps tight: find the first decrease, then describe it.
    let decrease = match offsets {
        Offsets::I32(o) => o.windows(2).position(|w| w[1] < w[0]),
        Offsets::I64(o) => o.windows(2).position(|w| w[1] < w[0]),
    };
    if let Some(row) = decrease {
        let (start, end) = (
            offsets.get(row).unwrap_or(0),
            offsets.get(row + 1).unwrap_or(0),
        );
        return Err(format!(
            "row {row} ends at offset {end}, before its start at offset {start} (offsets \
             must not decrease)"
        ));
    }
    let last = offsets.get(len).unwrap_or(first);
    usize::try_from(last)
        .ok()
        .filter(|&l| l <= isize::MAX as usize)
        .ok_or_else(|| format!("row {} ends at offset {last}, beyond any buffer", len - 1))
}

/// Checks every non-null row's view: a length at or above 0; inline up to 12 bytes, else a
/// buffer that exists, a start at or after 0, an end inside the buffer, and the prefix of
/// the bytes there. Null rows are never read, so their views may hold anything.
fn check_views(
    views: &[[u8; 16]],
    data: &[&[u8]],
    is_null: impl Fn(usize) -> bool,
) -> Result<(), String> {
    for (row, raw) in views.iter().enumerate() {
        if is_null(row) {
            continue;
        }
        let len = View::field(raw, 0);
        if len < 0 {
            return Err(format!("row {row} has negative length {len}"));
        }
        if len <= 12 {
            continue;
        }
        let (index, start) = (View::field(raw, 8), View::field(raw, 12));
        let Some(buffer) = usize::try_from(index).ok().and_then(|i| data.get(i)) else {
            return Err(format!(
                "row {row} views data buffer {index}, but the array has {}",
                data.len()
            ));
        };
        let Ok(from) = usize::try_from(start) else {
            return Err(format!(
                "row {row} starts at negative offset {start} in data buffer {index}"
            ));
        };
        // i32 + i32 fits in usize.
        let Some(bytes) = buffer.get(from..from + len as usize) else {
            return Err(format!(
                "row {row} views bytes {from}..{} of data buffer {index}, which holds {}",
                from + len as usize,
                buffer.len()
            ));
        };
        if bytes[..4] != raw[4..8] {
            return Err(format!(
                "row {row}'s prefix does not match the first 4 bytes it views"
            ));
        }
    }
    Ok(())
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
