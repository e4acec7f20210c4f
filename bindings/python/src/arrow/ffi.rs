//! The Arrow C data interface (<https://arrow.apache.org/docs/format/CDataInterface.html>)
//! and its PyCapsule protocol (`__arrow_c_array__`), for the few layouts textcodec reads
//! and writes: binary and string arrays with 32-bit or 64-bit offsets, binary and string
//! views (read only), and a struct of two string arrays (written).
//!
//! Imports borrow: the capsules a producer returns keep its memory alive while we read it,
//! and their destructors release it. Exports hand out structures whose `release` callbacks
//! drop an `Arc` of our buffers, so several consumers may import the same result.

use std::ffi::{c_char, c_void, CStr, CString};
use std::sync::Arc;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;

/// `struct ArrowSchema`.
#[repr(C)]
pub struct ArrowSchema {
    format: *const c_char,
    name: *const c_char,
    metadata: *const c_char,
    flags: i64,
    n_children: i64,
    children: *mut *mut ArrowSchema,
    dictionary: *mut ArrowSchema,
    release: Option<unsafe extern "C" fn(*mut ArrowSchema)>,
    private_data: *mut c_void,
}

/// `struct ArrowArray`.
#[repr(C)]
pub struct ArrowArray {
    length: i64,
    null_count: i64,
    offset: i64,
    n_buffers: i64,
    n_children: i64,
    buffers: *mut *const c_void,
    children: *mut *mut ArrowArray,
    dictionary: *mut ArrowArray,
    release: Option<unsafe extern "C" fn(*mut ArrowArray)>,
    private_data: *mut c_void,
}

const FLAG_NULLABLE: i64 = 2;
const SCHEMA_CAPSULE: &CStr = c"arrow_schema";
const ARRAY_CAPSULE: &CStr = c"arrow_array";

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

/// A UTF-8 string column being built: offsets (64-bit while building), data, validity.
pub struct StringBuilder {
    offsets: Vec<i64>,
    /// The text of the rows so far, `data[..len]`; the rest is room to decode into
    /// (allocated zeroed, so the pages are only touched when written).
    data: Vec<u8>,
    len: usize,
    validity: Bitmap,
}

impl StringBuilder {
    /// A builder for about `rows` rows and `bytes` bytes of text.
    pub fn with_capacity(rows: usize, bytes: usize) -> StringBuilder {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        let data = vec![0; bytes];
        advise_huge_pages(&data);
        StringBuilder {
            offsets,
            data,
            len: 0,
            validity: Bitmap::default(),
        }
    }

    /// `n` bytes of room after the text, to decode into; `commit` then says how
    /// many were written (valid UTF-8, whole characters).
    pub fn room(&mut self, n: usize) -> &mut [u8] {
        let need = self.len.saturating_add(n);
        if self.data.len() < need {
            self.data
                .resize(need.max(self.data.len().saturating_mul(2)), 0);
        }
        // Exactly `n` bytes: the decoder's sink works over the slice it is given.
        self.data.get_mut(self.len..need).unwrap_or_default()
    }

    /// Adds `written` bytes that a decoder wrote at the start of [`StringBuilder::room`]
    /// to the current row. The caller guarantees they are valid UTF-8.
    pub fn commit(&mut self, written: usize) {
        self.len = self.len.saturating_add(written).min(self.data.len());
    }

    /// Ends a row whose text was committed since the previous row ended.
    pub fn end_row(&mut self) {
        self.validity.push(true);
        self.offsets.push(self.len as i64);
    }

    /// Appends a null row (anything committed for it is discarded).
    pub fn push_null(&mut self) {
        let start = self.offsets.last().copied().unwrap_or(0) as usize;
        self.len = start;
        self.validity.push(false);
        self.offsets.push(start as i64);
    }

    /// Appends a row.
    pub fn push_str(&mut self, s: &str) {
        let room = self.room(s.len());
        if let Some(dst) = room.get_mut(..s.len()) {
            dst.copy_from_slice(s.as_bytes());
        }
        self.commit(s.len());
        self.end_row();
    }

    /// Freezes the column: `string` (32-bit offsets) when they fit, else `large_string`;
    /// `large_string` always with `large`.
    pub fn finish(mut self, large: bool) -> StringColumn {
        let large = large || self.len > i32::MAX as usize;
        let offsets = if large {
            Offsets::Large(self.offsets)
        } else {
            // Every offset is at most `len`, which fits.
            Offsets::Small(self.offsets.iter().map(|&o| o as i32).collect())
        };
        let (len, validity, null_count) = self.validity.finish();
        self.data.truncate(self.len);
        self.data.shrink_to_fit();
        StringColumn {
            len,
            offsets,
            data: self.data,
            validity,
            null_count,
        }
    }
}

/// Asks Linux to back a large, still untouched buffer with transparent huge pages: the
/// output of a big column is fresh memory, and faulting it in 4 KiB pages costs more than
/// decoding into it (measured: over half the time of a 100 MB windows-1251 column). No
/// effect where THP is off, or for small buffers.
fn advise_huge_pages(buffer: &[u8]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        if buffer.len() < 4 * HUGE {
            return;
        }
        let start = buffer.as_ptr() as usize;
        let aligned = start.next_multiple_of(HUGE);
        let end = (start + buffer.len()) / HUGE * HUGE;
        if end > aligned {
            // SAFETY: madvise only changes how the kernel backs these pages (inside our own
            // allocation, 2 MiB aligned); it neither moves nor changes their contents.
            unsafe {
                libc::madvise(
                    aligned as *mut libc::c_void,
                    end - aligned,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buffer;
}

enum Offsets {
    Small(Vec<i32>),
    Large(Vec<i64>),
}

/// A finished UTF-8 column.
pub struct StringColumn {
    len: usize,
    offsets: Offsets,
    data: Vec<u8>,
    validity: Option<Vec<u8>>,
    null_count: usize,
}

impl StringColumn {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether it has 64-bit offsets (`large_string`).
    pub fn is_large(&self) -> bool {
        matches!(self.offsets, Offsets::Large(_))
    }
}

/// An input array moved out of its capsule: we call its `release` when done.
pub struct OwnedArray(Box<ArrowArray>);

// SAFETY: Arrow arrays are immutable once exported, and the C data interface lets a
// consumer call `release` from any thread.
unsafe impl Send for OwnedArray {}
// SAFETY: as above; we only read through shared references.
unsafe impl Sync for OwnedArray {}

impl Drop for OwnedArray {
    fn drop(&mut self) {
        if let Some(release) = self.0.release {
            // SAFETY: we own this structure (moved out of the producer's capsule) and release
            // it once.
            unsafe { release(&mut *self.0) };
        }
    }
}

/// What an exported array holds.
pub enum Column {
    /// A binary array whose rows are all valid UTF-8, re-exported as a string array over
    /// the producer's own buffers (`large`: 64-bit offsets).
    Reused { array: OwnedArray, large: bool },
    /// A string (or large_string) array.
    Strings(StringColumn),
    /// A struct array `{text: string, encoding: string}` with its own validity.
    TextAndEncoding {
        len: usize,
        validity: Option<Vec<u8>>,
        null_count: usize,
        text: StringColumn,
        encoding: StringColumn,
    },
}

impl Column {
    /// Number of rows.
    pub fn len(&self) -> usize {
        match self {
            Column::Strings(c) => c.len(),
            Column::Reused { array, .. } => usize::try_from(array.0.length).unwrap_or(0),
            Column::TextAndEncoding { len, .. } => *len,
        }
    }

    /// The Arrow type's name.
    pub fn type_name(&self) -> &'static str {
        match self {
            Column::Strings(c) if c.is_large() => "large_string",
            Column::Reused { large: true, .. } => "large_string",
            Column::Strings(_) | Column::Reused { .. } => "string",
            Column::TextAndEncoding { .. } => "struct<text, encoding>",
        }
    }
}

/// Private data of an exported schema: the strings and child pointers it points to.
struct SchemaData {
    _format: CString,
    _name: CString,
    children: Vec<*mut ArrowSchema>,
}

/// Private data of an exported array: the buffer and child pointer arrays, and the data.
struct ArrayData {
    buffers: Vec<*const c_void>,
    children: Vec<*mut ArrowArray>,
    _column: Arc<Column>,
}

unsafe extern "C" fn release_schema(schema: *mut ArrowSchema) {
    if schema.is_null() {
        return;
    }
    // SAFETY: called by the consumer once on a schema we exported; private_data is the
    // `Box<SchemaData>` we leaked in `export_schema`.
    unsafe {
        let data = Box::from_raw((*schema).private_data.cast::<SchemaData>());
        for &child in &data.children {
            if let Some(release) = (*child).release {
                release(child);
            }
            drop(Box::from_raw(child));
        }
        (*schema).release = None;
    }
}

unsafe extern "C" fn release_array(array: *mut ArrowArray) {
    if array.is_null() {
        return;
    }
    // SAFETY: as `release_schema`, for `ArrayData` leaked in `export_array`.
    unsafe {
        let data = Box::from_raw((*array).private_data.cast::<ArrayData>());
        for &child in &data.children {
            if let Some(release) = (*child).release {
                release(child);
            }
            drop(Box::from_raw(child));
        }
        (*array).release = None;
    }
}

fn export_schema(
    format: &str,
    name: &str,
    nullable: bool,
    children: Vec<ArrowSchema>,
) -> ArrowSchema {
    let format = CString::new(format).unwrap_or_default();
    let name = CString::new(name).unwrap_or_default();
    let children: Vec<*mut ArrowSchema> = children
        .into_iter()
        .map(|c| Box::into_raw(Box::new(c)))
        .collect();
    let mut data = Box::new(SchemaData {
        _format: format,
        _name: name,
        children,
    });
    let schema = ArrowSchema {
        format: data._format.as_ptr(),
        name: data._name.as_ptr(),
        metadata: std::ptr::null(),
        flags: if nullable { FLAG_NULLABLE } else { 0 },
        n_children: data.children.len() as i64,
        children: if data.children.is_empty() {
            std::ptr::null_mut()
        } else {
            data.children.as_mut_ptr()
        },
        dictionary: std::ptr::null_mut(),
        release: Some(release_schema),
        private_data: std::ptr::null_mut(),
    };
    let mut schema = schema;
    schema.private_data = Box::into_raw(data).cast();
    schema
}

fn string_schema(column: &StringColumn, name: &str) -> ArrowSchema {
    export_schema(
        if column.is_large() { "U" } else { "u" },
        name,
        true,
        Vec::new(),
    )
}

fn export_array(
    len: usize,
    null_count: usize,
    buffers: Vec<*const c_void>,
    children: Vec<ArrowArray>,
    column: &Arc<Column>,
) -> ArrowArray {
    let children: Vec<*mut ArrowArray> = children
        .into_iter()
        .map(|c| Box::into_raw(Box::new(c)))
        .collect();
    let mut data = Box::new(ArrayData {
        buffers,
        children,
        _column: Arc::clone(column),
    });
    let array = ArrowArray {
        length: len as i64,
        null_count: null_count as i64,
        offset: 0,
        n_buffers: data.buffers.len() as i64,
        n_children: data.children.len() as i64,
        buffers: data.buffers.as_mut_ptr(),
        children: if data.children.is_empty() {
            std::ptr::null_mut()
        } else {
            data.children.as_mut_ptr()
        },
        dictionary: std::ptr::null_mut(),
        release: Some(release_array),
        private_data: std::ptr::null_mut(),
    };
    let mut array = array;
    array.private_data = Box::into_raw(data).cast();
    array
}

fn string_buffers(column: &StringColumn) -> Vec<*const c_void> {
    let validity = column
        .validity
        .as_ref()
        .map_or(std::ptr::null(), |v| v.as_ptr().cast());
    let offsets = match &column.offsets {
        Offsets::Small(v) => v.as_ptr().cast(),
        Offsets::Large(v) => v.as_ptr().cast(),
    };
    // A zero-length data buffer still needs a non-null pointer for some consumers.
    let data: *const c_void = if column.data.is_empty() {
        std::ptr::NonNull::<u8>::dangling().as_ptr().cast()
    } else {
        column.data.as_ptr().cast()
    };
    vec![validity, offsets, data]
}

fn string_array(column: &StringColumn, owner: &Arc<Column>) -> ArrowArray {
    export_array(
        column.len,
        column.null_count,
        string_buffers(column),
        Vec::new(),
        owner,
    )
}

/// The schema and array structures for `column`.
fn export(column: &Arc<Column>) -> (ArrowSchema, ArrowArray) {
    match &**column {
        Column::Strings(c) => (string_schema(c, ""), string_array(c, column)),
        Column::Reused { array, large } => {
            let schema = export_schema(if *large { "U" } else { "u" }, "", true, Vec::new());
            let source = &array.0;
            let buffers = (0..3)
                .map(|i| {
                    // SAFETY: a binary array has 3 buffers (checked before reuse).
                    unsafe { *source.buffers.add(i) }
                })
                .collect();
            let mut exported = export_array(
                source.length as usize,
                source.null_count.max(0) as usize,
                buffers,
                Vec::new(),
                column,
            );
            exported.offset = source.offset;
            exported.null_count = source.null_count;
            (schema, exported)
        }
        Column::TextAndEncoding {
            len,
            validity,
            null_count,
            text,
            encoding,
        } => {
            let schema = export_schema(
                "+s",
                "",
                true,
                vec![
                    string_schema(text, "text"),
                    string_schema(encoding, "encoding"),
                ],
            );
            let validity = validity
                .as_ref()
                .map_or(std::ptr::null(), |v| v.as_ptr().cast());
            let array = export_array(
                *len,
                *null_count,
                vec![validity],
                vec![string_array(text, column), string_array(encoding, column)],
                column,
            );
            (schema, array)
        }
    }
}

unsafe extern "C" fn schema_capsule_destructor(capsule: *mut ffi::PyObject) {
    // SAFETY: called by CPython with our capsule; its pointer is the Box we leaked. A
    // consumer that moved the structure out set `release` to NULL.
    unsafe {
        let ptr = ffi::PyCapsule_GetPointer(capsule, SCHEMA_CAPSULE.as_ptr()).cast::<ArrowSchema>();
        if ptr.is_null() {
            ffi::PyErr_Clear();
            return;
        }
        if let Some(release) = (*ptr).release {
            release(ptr);
        }
        drop(Box::from_raw(ptr));
    }
}

unsafe extern "C" fn array_capsule_destructor(capsule: *mut ffi::PyObject) {
    // SAFETY: as `schema_capsule_destructor`.
    unsafe {
        let ptr = ffi::PyCapsule_GetPointer(capsule, ARRAY_CAPSULE.as_ptr()).cast::<ArrowArray>();
        if ptr.is_null() {
            ffi::PyErr_Clear();
            return;
        }
        if let Some(release) = (*ptr).release {
            release(ptr);
        }
        drop(Box::from_raw(ptr));
    }
}

/// `(schema capsule, array capsule)` for `column`, as `__arrow_c_array__` returns them.
pub fn capsules<'py>(
    py: Python<'py>,
    column: &Arc<Column>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let (schema, array) = export(column);
    let schema = Box::into_raw(Box::new(schema));
    let array = Box::into_raw(Box::new(array));
    // SAFETY: PyCapsule_New takes ownership of our pointers (freed by the destructors) and
    // returns a new reference or NULL with an exception (then we free them ourselves).
    unsafe {
        let s = ffi::PyCapsule_New(
            schema.cast(),
            SCHEMA_CAPSULE.as_ptr(),
            Some(schema_capsule_destructor),
        );
        if s.is_null() {
            release_schema(schema);
            drop(Box::from_raw(schema));
            release_array(array);
            drop(Box::from_raw(array));
            return Err(PyErr::fetch(py));
        }
        let s = Bound::from_owned_ptr(py, s);
        let a = ffi::PyCapsule_New(
            array.cast(),
            ARRAY_CAPSULE.as_ptr(),
            Some(array_capsule_destructor),
        );
        if a.is_null() {
            release_array(array);
            drop(Box::from_raw(array));
            return Err(PyErr::fetch(py));
        }
        Ok((s, Bound::from_owned_ptr(py, a)))
    }
}

/// A struct validity bitmap builder.
#[derive(Default)]
pub struct Bitmap {
    bits: Vec<u8>,
    len: usize,
    nulls: usize,
}

impl Bitmap {
    /// Appends one bit.
    pub fn push(&mut self, valid: bool) {
        if self.len.is_multiple_of(8) {
            self.bits.push(0);
        }
        if valid {
            if let Some(last) = self.bits.last_mut() {
                *last |= 1 << (self.len % 8);
            }
        } else {
            self.nulls += 1;
        }
        self.len += 1;
    }

    /// `(length, bitmap if any null, null count)`.
    pub fn finish(self) -> (usize, Option<Vec<u8>>, usize) {
        let bits = if self.nulls > 0 {
            Some(self.bits)
        } else {
            None
        };
        (self.len, bits, self.nulls)
    }
}
