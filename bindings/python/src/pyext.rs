//! The few CPython calls this module makes that `pyo3` does not wrap for an abi3 build
//! targeting 3.9: borrowing a buffer (`PyObject_GetBuffer`, stable ABI since 3.11) and a
//! `str`'s UTF-8 (`PyUnicode_AsUTF8AndSize`, stable ABI since 3.10). Both functions, and
//! the `Py_buffer` layout, are the same in every CPython since 3.3, and an extension
//! module resolves them from the interpreter that loads it, so the one abi3 wheel uses
//! them on 3.9 and 3.10 too.
//!
//! Everything `unsafe` in the crate outside `arrow/` (the Arrow C data interface) is in this
//! file.

use std::ffi::{c_char, c_int, c_void};
use std::marker::PhantomData;

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyMemoryView, PyString};

/// `Py_buffer` (Include/pybuffer.h), identical from CPython 3.3 to today.
#[repr(C)]
struct RawBuffer {
    buf: *mut c_void,
    obj: *mut ffi::PyObject,
    len: ffi::Py_ssize_t,
    itemsize: ffi::Py_ssize_t,
    readonly: c_int,
    ndim: c_int,
    format: *mut c_char,
    shape: *mut ffi::Py_ssize_t,
    strides: *mut ffi::Py_ssize_t,
    suboffsets: *mut ffi::Py_ssize_t,
    internal: *mut c_void,
}

const PYBUF_SIMPLE: c_int = 0;
const PYBUF_WRITABLE: c_int = 0x0001;

extern "C" {
    fn PyObject_GetBuffer(obj: *mut ffi::PyObject, view: *mut RawBuffer, flags: c_int) -> c_int;
    fn PyBuffer_Release(view: *mut RawBuffer);
    fn PyUnicode_AsUTF8AndSize(
        unicode: *mut ffi::PyObject,
        size: *mut ffi::Py_ssize_t,
    ) -> *const c_char;
}

/// The bytes of a bytes-like argument, borrowed for as long as this value lives: a `bytes`
/// object's own storage, or a buffer export (which keeps the exporter from resizing or
/// freeing the memory until it is released on drop).
///
/// A buffer export keeps the memory alive, not still: unless the memory belongs to a
/// `bytes` object, other Python code may write it whenever it runs — in another thread
/// once the GIL is released, or in this one during an error handler (or any finaliser
/// an allocation's garbage collection runs). A read-only export says nothing about that
/// (`memoryview(bytearray).toreadonly()`, a NumPy array with `writeable=False`). Such bytes
/// are read in place only with the GIL held and no Python code running; decoding that
/// lets Python code run reads them from a copy ([`ByteView::stable`]).
pub struct ByteView<'py> {
    ptr: *const u8,
    len: usize,
    /// Whether the bytes lie inside a `bytes` object's storage, which nothing changes.
    immutable: bool,
    /// The buffer export to release, if any (`bytes` needs none).
    export: Option<Box<RawBuffer>>,
    _object: PhantomData<&'py PyAny>,
}

impl<'py> ByteView<'py> {
    /// Borrows `object`'s bytes: `bytes` directly, anything else through the buffer
    /// protocol (bytearray, memoryview, mmap, array, NumPy and Arrow buffers...), which must
    /// be C-contiguous. `what` names the argument in the `TypeError` for other objects.
    pub fn new(object: &Bound<'py, PyAny>, what: &str) -> PyResult<ByteView<'py>> {
        if let Ok(bytes) = object.cast::<PyBytes>() {
            let slice = bytes.as_bytes();
            return Ok(ByteView {
                ptr: slice.as_ptr(),
                len: slice.len(),
                immutable: true,
                export: None,
                _object: PhantomData,
            });
        }
        if object.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(format!(
                "{what} must be a bytes-like object, not 'str' (encode it first, or use textcodec.encode)"
            )));
        }
        let mut view = Box::new(RawBuffer {
            buf: std::ptr::null_mut(),
            obj: std::ptr::null_mut(),
            len: 0,
            itemsize: 0,
            readonly: 0,
            ndim: 0,
            format: std::ptr::null_mut(),
            shape: std::ptr::null_mut(),
            strides: std::ptr::null_mut(),
            suboffsets: std::ptr::null_mut(),
            internal: std::ptr::null_mut(),
        });
        // SAFETY: `object` is a live object (we hold a reference and the GIL); `view` points
        // to writable memory of `Py_buffer`'s layout. PYBUF_SIMPLE asks for one contiguous
        // block of `len` bytes.
        let status = unsafe { PyObject_GetBuffer(object.as_ptr(), &mut *view, PYBUF_SIMPLE) };
        if status != 0 {
            let cause = PyErr::take(object.py());
            let type_name = object
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| "?".into());
            let err = PyTypeError::new_err(format!(
                "{what} must be a bytes-like object, not '{type_name}'"
            ));
            if let Some(cause) = cause {
                // A bytes-like object that refused (e.g. not contiguous): keep its reason.
                if !cause.is_instance_of::<PyTypeError>(object.py()) {
                    return Err(cause);
                }
            }
            return Err(err);
        }
        let len = usize::try_from(view.len).unwrap_or(0);
        let ptr = if len == 0 {
            std::ptr::NonNull::<u8>::dangling().as_ptr()
        } else {
            view.buf.cast::<u8>()
        };
        // SAFETY: `obj` of a successful export is NULL or a live object the export holds a
        // reference to.
        let exporter = unsafe { Bound::from_borrowed_ptr_or_opt(object.py(), view.obj) };
        let immutable = len == 0 || exporter.is_some_and(|e| inside_bytes(&e, ptr, len));
        Ok(ByteView {
            ptr,
            len,
            immutable,
            export: Some(view),
            _object: PhantomData,
        })
    }

    /// The bytes.
    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: `ptr`/`len` describe the `bytes` object's storage or the buffer export,
        // both alive and unmoved while `self` lives (the export is released in `drop`);
        // `ptr` is non-null and aligned (dangling only when `len` is 0).
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    /// Whether the bytes are a `bytes` object's, which no code can change while we read.
    pub fn is_immutable(&self) -> bool {
        self.immutable
    }

    /// `part` (a subslice of [`ByteView::as_slice`]) as a reader may hold it while Python
    /// code runs (the GIL released, an error handler called) when `python_runs`: in place
    /// if immutable, else a copy taken now, with the GIL held, so it is one consistent
    /// state of the memory. In place without `python_runs`: the GIL is held and nothing
    /// else can write the memory.
    pub fn stable<'a>(&self, part: &'a [u8], python_runs: bool) -> Stable<'a> {
        if python_runs && !self.immutable {
            Stable::copy(part)
        } else {
            Stable::InPlace(part)
        }
    }
}

/// Bytes from [`ByteView::stable`]: in place, or a copy in a buffer kept per thread (a
/// fresh allocation of a large copy costs more in page faults than the copy itself:
/// measured 2 462 faults and 7x the decoding time of a 3.4 MB windows-1251 input).
pub enum Stable<'a> {
    InPlace(&'a [u8]),
    Copy(Vec<u8>),
}

/// The largest copy buffer kept for the next call (16 MiB).
const COPY_KEEP_BYTES: usize = 16 << 20;

thread_local! {
    static COPY_SCRATCH: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

impl Stable<'_> {
    fn copy(bytes: &[u8]) -> Stable<'static> {
        // Taken out of the cell: a handler that decodes meanwhile (re-entering on this
        // thread) finds it empty and allocates its own.
        let mut buffer = COPY_SCRATCH.with(std::cell::Cell::take);
        buffer.clear();
        buffer.extend_from_slice(bytes);
        Stable::Copy(buffer)
    }
}

impl std::ops::Deref for Stable<'_> {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Stable::InPlace(bytes) => bytes,
            Stable::Copy(buffer) => buffer,
        }
    }
}

impl Drop for Stable<'_> {
    fn drop(&mut self) {
        if let Stable::Copy(buffer) = self {
            if buffer.capacity() <= COPY_KEEP_BYTES {
                let buffer = std::mem::take(buffer);
                COPY_SCRATCH.with(|cell| cell.set(buffer));
            }
        }
    }
}

/// Whether `ptr..ptr + len` lies inside the storage of `exporter`, a `bytes` object or a
/// `memoryview` whose underlying object is one. Only the exporter counts, not the export's
/// read-only flag; and the range check keeps an exporter that names a `bytes` object but
/// hands out other memory (a `bytes` subclass with `__buffer__`, say) from passing.
fn inside_bytes(exporter: &Bound<'_, PyAny>, ptr: *const u8, len: usize) -> bool {
    let root = if exporter.is_exact_instance_of::<PyMemoryView>() {
        match exporter.getattr(pyo3::intern!(exporter.py(), "obj")) {
            Ok(obj) => obj,
            Err(_) => return false,
        }
    } else {
        exporter.clone()
    };
    let Ok(bytes) = root.cast::<PyBytes>() else {
        return false;
    };
    let storage = bytes.as_bytes().as_ptr_range();
    let (start, end) = (ptr as usize, (ptr as usize).saturating_add(len));
    storage.start as usize <= start && end <= storage.end as usize
}

/// Whether `data`'s memory counts as immutable (tests of the GIL-release rule).
#[pyfunction]
pub fn _buffer_is_immutable(data: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(ByteView::new(data, "data")?.is_immutable())
}

impl Drop for ByteView<'_> {
    fn drop(&mut self) {
        if let Some(view) = self.export.as_mut() {
            // SAFETY: the view was filled by a successful PyObject_GetBuffer and is released
            // once. Dropping happens with the GIL held (the value is tied to `'py`).
            unsafe { PyBuffer_Release(&mut **view) };
        }
    }
}

/// A writable buffer argument (`TextEncoder.encode_into`'s destination), borrowed in place.
pub struct WritableView<'py> {
    export: Box<RawBuffer>,
    _object: PhantomData<&'py PyAny>,
}

impl<'py> WritableView<'py> {
    /// Borrows `object` for writing (bytearray, writable memoryview, NumPy uint8 array...).
    pub fn new(object: &Bound<'py, PyAny>, what: &str) -> PyResult<WritableView<'py>> {
        let mut view = Box::new(RawBuffer {
            buf: std::ptr::null_mut(),
            obj: std::ptr::null_mut(),
            len: 0,
            itemsize: 0,
            readonly: 0,
            ndim: 0,
            format: std::ptr::null_mut(),
            shape: std::ptr::null_mut(),
            strides: std::ptr::null_mut(),
            suboffsets: std::ptr::null_mut(),
            internal: std::ptr::null_mut(),
        });
        // SAFETY: as in `ByteView::new`; PYBUF_WRITABLE makes read-only exporters fail.
        let status = unsafe { PyObject_GetBuffer(object.as_ptr(), &mut *view, PYBUF_WRITABLE) };
        if status != 0 {
            let _ = PyErr::take(object.py());
            let type_name = object
                .get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_else(|_| "?".into());
            return Err(PyTypeError::new_err(format!(
                "{what} must be a writable bytes-like object (bytearray, memoryview...), not '{type_name}'"
            )));
        }
        Ok(WritableView {
            export: view,
            _object: PhantomData,
        })
    }

    /// The bytes, for writing.
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        let len = usize::try_from(self.export.len).unwrap_or(0);
        if len == 0 {
            return &mut [];
        }
        // SAFETY: a successful writable export: `buf` points to `len` writable bytes that stay
        // valid until the export is released in `drop`; `&mut self` makes this the only slice.
        unsafe { std::slice::from_raw_parts_mut(self.export.buf.cast::<u8>(), len) }
    }
}

impl Drop for WritableView<'_> {
    fn drop(&mut self) {
        // SAFETY: a successful export, released once, with the GIL held.
        unsafe { PyBuffer_Release(&mut *self.export) };
    }
}

/// The UTF-8 form of a `str`, cached inside the `str` object by CPython (no copy after the
/// first call); `None` if the string holds a lone surrogate (the pending exception is
/// cleared).
pub fn str_utf8<'a>(text: &'a Bound<'_, PyString>) -> Option<&'a str> {
    let mut size: ffi::Py_ssize_t = 0;
    // SAFETY: `text` is a live `str`; CPython returns a pointer to its cached UTF-8 buffer,
    // which lives as long as the string object (borrowed for 'a), or NULL with an exception.
    let ptr = unsafe { PyUnicode_AsUTF8AndSize(text.as_ptr(), &mut size) };
    if ptr.is_null() {
        let _ = PyErr::take(text.py());
        return None;
    }
    let len = usize::try_from(size).ok()?;
    // SAFETY: `ptr` points to `len` bytes of valid UTF-8 (CPython's encoder wrote them), alive
    // as long as `text`.
    let bytes = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) };
    std::str::from_utf8(bytes).ok()
}

/// CPython's own strict decoders, used where they give exactly the Standard's result
/// (valid UTF-8, valid UTF-16): they build the `str` in one pass. `None` (the exception
/// cleared) when the input is not valid; the caller then decodes with textcodec.
pub fn cpython_strict<'py>(
    py: Python<'py>,
    data: &[u8],
    utf16: Option<bool>,
) -> Option<Bound<'py, PyString>> {
    let len = ffi::Py_ssize_t::try_from(data.len()).ok()?;
    let ptr = data.as_ptr().cast::<c_char>();
    // SAFETY: `data` is a live slice of `len` bytes; the errors string is NUL-terminated;
    // `byteorder` is a valid int pointer. Each call returns a new reference or NULL with an
    // exception set.
    let result = unsafe {
        match utf16 {
            None => ffi::PyUnicode_DecodeUTF8(ptr, len, c"strict".as_ptr()),
            Some(big_endian) => {
                let mut byteorder: c_int = if big_endian { 1 } else { -1 };
                ffi::PyUnicode_DecodeUTF16(ptr, len, c"strict".as_ptr(), &mut byteorder)
            }
        }
    };
    if result.is_null() {
        let _ = PyErr::take(py);
        return None;
    }
    // SAFETY: a new, non-null reference to a `str`.
    let object = unsafe { Bound::from_owned_ptr(py, result) };
    object.cast_into::<PyString>().ok()
}

/// A `str` from UTF-16 code units in native byte order, which must hold no lone surrogate
/// (decoders only ever write scalar values). CPython widens or narrows them into its
/// one-, two- or four-byte representation in one fast pass — much faster than building a
/// `str` from UTF-8 outside ASCII, so the legacy decoders write UTF-16 for Python.
///
/// CPython's UTF-16 decoder copies four units at a time only while all are below U+8000,
/// and one at a time otherwise: Hangul (U+AC00–U+D7A3) goes at about 60 % of its UTF-32
/// decoder's speed, kana and most CJK ideographs at twice it (measured on the bench
/// corpus, CPython 3.11: ko.text 1.1 vs 1.8 G characters/s, ja.text 3.7 vs 1.8). So text
/// with many units ≥ U+8000 is widened to UTF-32 first (a vectorised pass) and handed to
/// the UTF-32 decoder, up to [`WIDEN_MAX_UNITS`] units (the widened copy is temporary
/// memory).
pub fn utf16_str<'py>(py: Python<'py>, units: &[u16]) -> PyResult<Bound<'py, PyString>> {
    // UTF-32 wins from about a third of the units on (zh_Hant.text: 12 % high units, UTF-16
    // 2.0 vs UTF-32 1.8 G characters/s; ko.text: 50 %).
    let sample = units.get(..HIGH_SAMPLE_UNITS).unwrap_or(units);
    if units.len() <= WIDEN_MAX_UNITS
        && count_units(sample, |u| u >= 0x8000).saturating_mul(10) > sample.len().saturating_mul(3)
    {
        return WIDE_SCRATCH.with(|cell| {
            // Taken out of the cell, so a re-entrant call (none today) would only allocate.
            let mut wide = cell.take();
            wide.clear();
            if count_units(units, |u| (u & 0xF800) == 0xD800) == 0 {
                wide.extend(units.iter().map(|&u| u32::from(u)));
            } else {
                wide.extend(
                    char::decode_utf16(units.iter().copied())
                        .map(|c| u32::from(c.unwrap_or(char::REPLACEMENT_CHARACTER))),
                );
            }
            let result = utf32_str(py, &wide);
            if wide.capacity() <= SCRATCH_KEEP_UNITS {
                cell.replace(wide);
            }
            result
        });
    }
    let len = units
        .len()
        .checked_mul(2)
        .and_then(|n| ffi::Py_ssize_t::try_from(n).ok())
        .ok_or_else(|| pyo3::exceptions::PyOverflowError::new_err("string too long"))?;
    let mut byteorder = NATIVE_BYTE_ORDER;
    // SAFETY: `units` is a live slice of `len` bytes; the errors string is NUL-terminated;
    // `byteorder` is a valid int. Returns a new reference or NULL with an exception set.
    let result = unsafe {
        ffi::PyUnicode_DecodeUTF16(
            units.as_ptr().cast::<c_char>(),
            len,
            c"strict".as_ptr(),
            &mut byteorder,
        )
    };
    // SAFETY: a new reference, or NULL with an exception set.
    let object = unsafe { Bound::from_owned_ptr_or_err(py, result)? };
    Ok(object.cast_into::<PyString>()?)
}

/// How many units [`utf16_str`] looks at to choose (the text's script shows early).
const HIGH_SAMPLE_UNITS: usize = 4096;

/// The widened copy is made in a buffer kept per thread up to this size (4 MiB): a fresh
/// allocation of that size costs its page faults on every call, as much as UTF-32 saves.
const SCRATCH_KEEP_UNITS: usize = 1 << 20;

thread_local! {
    static WIDE_SCRATCH: std::cell::Cell<Vec<u32>> = const { std::cell::Cell::new(Vec::new()) };
}

/// How many of `units` satisfy `test`: a sum the compiler vectorises (per chunk, in `u32`),
/// where an early-exit search would go one unit at a time.
fn count_units(units: &[u16], test: impl Fn(u16) -> bool) -> usize {
    units
        .chunks(1 << 16)
        .map(|chunk| chunk.iter().map(|&u| u32::from(test(u))).sum::<u32>() as usize)
        .sum()
}

/// CPython's `byteorder` argument for native byte order.
const NATIVE_BYTE_ORDER: c_int = if cfg!(target_endian = "little") {
    -1
} else {
    1
};

/// The longest text [`utf16_str`] widens to UTF-32 (64 MiB of temporary memory); longer
/// text goes through CPython's UTF-16 decoder.
const WIDEN_MAX_UNITS: usize = 1 << 24;

/// A `str` from scalar values in native byte order.
fn utf32_str<'py>(py: Python<'py>, scalars: &[u32]) -> PyResult<Bound<'py, PyString>> {
    let len = scalars
        .len()
        .checked_mul(4)
        .and_then(|n| ffi::Py_ssize_t::try_from(n).ok())
        .ok_or_else(|| pyo3::exceptions::PyOverflowError::new_err("string too long"))?;
    let mut byteorder = NATIVE_BYTE_ORDER;
    // SAFETY: `scalars` is a live slice of `len` bytes; the errors string is NUL-terminated;
    // `byteorder` is a valid int. Returns a new reference or NULL with an exception set.
    let result = unsafe {
        ffi::PyUnicode_DecodeUTF32(
            scalars.as_ptr().cast::<c_char>(),
            len,
            c"strict".as_ptr(),
            &mut byteorder,
        )
    };
    // SAFETY: a new reference, or NULL with an exception set.
    let object = unsafe { Bound::from_owned_ptr_or_err(py, result)? };
    Ok(object.cast_into::<PyString>()?)
}

/// A `str` from Latin-1 bytes (each byte the code point of the same value): CPython copies
/// them into a one-byte-per-character string.
pub fn latin1_str<'py>(py: Python<'py>, latin1: &[u8]) -> PyResult<Bound<'py, PyString>> {
    let len = ffi::Py_ssize_t::try_from(latin1.len())
        .map_err(|_| pyo3::exceptions::PyOverflowError::new_err("string too long"))?;
    // SAFETY: a live slice of `len` bytes; NULL errors is "strict" (Latin-1 never fails).
    // Returns a new reference or NULL with an exception set.
    let result = unsafe {
        ffi::PyUnicode_DecodeLatin1(latin1.as_ptr().cast::<c_char>(), len, std::ptr::null())
    };
    // SAFETY: a new reference, or NULL with an exception set.
    let object = unsafe { Bound::from_owned_ptr_or_err(py, result)? };
    Ok(object.cast_into::<PyString>()?)
}
