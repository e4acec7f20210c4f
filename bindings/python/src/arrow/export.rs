//! Exporting results through the Arrow C data interface: string (or large_string) arrays
//! and a struct of two string arrays, built here. Exported structures' `release` callbacks
//! drop an `Arc` of our buffers, so several consumers may import the same result.

use std::ffi::{c_void, CString};
use std::sync::Arc;

use pyo3::ffi;
use pyo3::prelude::*;

use super::abi::{ArrowArray, ArrowSchema, ARRAY_CAPSULE, FLAG_NULLABLE, SCHEMA_CAPSULE};
use super::import::OwnedArray;

/// A UTF-8 string column being built: offsets (64-bit while building), data, validity.
pub struct StringBuilder {
    offsets: Vec<i64>,
    /// The text of the rows so far, `data[..len]`; the rest is room to decode into
    /// (allocated zeroed, so the pages are only touched when written).
    data: Vec<u8>,
    len: usize,
    validity: Bitmap,
}

/// An allocation failed: raised as `MemoryError` (Rust's infallible allocations would
/// abort the interpreter).
#[derive(Debug)]
pub struct OutOfMemory;

/// `n` zeroed bytes, or `None` if they cannot be allocated. Zeroed memory comes from the
/// allocator as untouched pages (calloc), so a large buffer costs only the pages written.
fn try_zeroed(n: usize) -> Option<Vec<u8>> {
    if n == 0 {
        return Some(Vec::new());
    }
    let layout = std::alloc::Layout::array::<u8>(n).ok()?;
    // SAFETY: `layout` has a non-zero size.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` comes from the global allocator with the layout of `n` bytes (align 1),
    // all `n` of them initialised (zeroed): a Vec of length and capacity `n` owns it.
    Some(unsafe { Vec::from_raw_parts(ptr, n, n) })
}

impl StringBuilder {
    /// A builder for `rows` rows and `bytes` bytes of text.
    pub fn with_capacity(rows: usize, bytes: usize) -> Result<StringBuilder, OutOfMemory> {
        let data = try_zeroed(bytes).ok_or(OutOfMemory)?;
        StringBuilder::over(rows, data)
    }

    /// A builder for decoding `rows` rows of `input` bytes: room for the most UTF-8 they
    /// can decode to, three bytes per input byte (every decoder's bound), so no row waits
    /// for the buffer to grow. If that much address space is not to be had, room for
    /// `input` bytes, grown as needed.
    pub fn for_decoding(rows: usize, input: usize) -> Result<StringBuilder, OutOfMemory> {
        let data = try_zeroed(input.saturating_mul(3))
            .or_else(|| try_zeroed(input))
            .ok_or(OutOfMemory)?;
        StringBuilder::over(rows, data)
    }

    fn over(rows: usize, data: Vec<u8>) -> Result<StringBuilder, OutOfMemory> {
        let mut offsets = Vec::new();
        offsets
            .try_reserve_exact(rows.saturating_add(1))
            .map_err(|_| OutOfMemory)?;
        offsets.push(0);
        advise_huge_pages(&data);
        Ok(StringBuilder {
            offsets,
            data,
            len: 0,
            validity: Bitmap::default(),
        })
    }

    /// `n` bytes of room after the text, to decode into; `commit` then says how
    /// many were written (valid UTF-8, whole characters).
    pub fn room(&mut self, n: usize) -> Result<&mut [u8], OutOfMemory> {
        let need = self.len.checked_add(n).ok_or(OutOfMemory)?;
        if self.data.len() < need {
            // Doubling, or just what is needed if doubling cannot be had.
            let doubled = need.max(self.data.len().saturating_mul(2));
            let grow_to = if self
                .data
                .try_reserve_exact(doubled - self.data.len())
                .is_ok()
            {
                doubled
            } else {
                self.data
                    .try_reserve_exact(need - self.data.len())
                    .map_err(|_| OutOfMemory)?;
                need
            };
            self.data.resize(grow_to, 0);
        }
        // Exactly `n` bytes: the decoder's sink works over the slice it is given.
        Ok(self.data.get_mut(self.len..need).unwrap_or_default())
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
    pub fn push_str(&mut self, s: &str) -> Result<(), OutOfMemory> {
        let room = self.room(s.len())?;
        if let Some(dst) = room.get_mut(..s.len()) {
            dst.copy_from_slice(s.as_bytes());
        }
        self.commit(s.len());
        self.end_row();
        Ok(())
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
            Column::Reused { array, .. } => usize::try_from(array.array().length).unwrap_or(0),
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
            let source = array.array();
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
