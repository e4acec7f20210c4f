//! The C API of textcodec: `libtextcodec` and `include/textcodec.h` (generated from this
//! crate by `cargo xtask cheader`): encodings and labels, decoders and encoders, sniffing,
//! detection and `textcodec::mem` ([`mem`]), with the C++ header `include/textcodec.hpp` over it
//! and, with the default feature `encoding-c`, encoding_c's names
//! (`include/encoding_c/encoding_rs.h`, module [`compat`]).
//!
//! # Conventions
//!
//! * **Encodings** are small integers ([`TextcodecEncoding`]): `0..TEXTCODEC_ENCODING_COUNT`
//!   in the Standard's order (`TEXTCODEC_UTF_8` … `TEXTCODEC_X_USER_DEFINED`);
//!   [`TEXTCODEC_NO_ENCODING`] is "none" (an unknown label, no BOM).
//! * **Buffers** are a pointer and a length in units of the element type (bytes for
//!   `uint8_t`, code units for `uint16_t`). A pointer may be `NULL` only when its length is
//!   0; a `uint16_t` pointer must be 2-byte aligned. A function given a `NULL` pointer with
//!   a length, a misaligned pointer, an unknown encoding or an unknown mode value does
//!   nothing and reports it ([`TEXTCODEC_INVALID_ARGUMENT`], `NULL`, `false`,
//!   [`TEXTCODEC_NO_ENCODING`] or `SIZE_MAX`, as each function says). An input and an
//!   output buffer of one call that overlap are refused the same way
//!   ([`TEXTCODEC_INVALID_ARGUMENT`]): no conversion works in place. What the library
//!   cannot check is the caller's part of the contract: that a pointer with a length
//!   designates that many valid elements, and that object pointers came from this
//!   library's `_new` functions and were not freed.
//! * **Streaming** is the Rust API's status model: a call returns why it stopped
//!   (`TEXTCODEC_INPUT_EMPTY`, `TEXTCODEC_OUTPUT_FULL`, `TEXTCODEC_MALFORMED` with the
//!   stream offset and bytes, `TEXTCODEC_UNMAPPABLE` with the character), how much it read
//!   and how much it wrote.
//! * **Memory**: only `textcodec_decoder_new`, `textcodec_encoder_new` and
//!   `textcodec_detector_new` allocate (each object is freed by its `_free` function, which
//!   accepts `NULL`); everything else writes into the caller's buffers. Names and labels
//!   are static NUL-terminated strings.
//! * **Panics**: the library is written to have none reachable (the same `clippy` denials
//!   as the Rust library), and a panic cannot unwind into C: Rust aborts the process when
//!   one would leave an `extern "C"` function.
//! * **Threads**: an object may move between threads but not be used by two at once; the
//!   free functions are thread-safe.
// An FFI crate has to take raw pointers from C and turn them into slices and objects:
// `unsafe` is allowed in this crate only (the workspace denies it elsewhere). Every such
// step goes through the checked helpers below, each with its SAFETY argument, and every
// `extern "C"` function documents the pointer contract the caller must keep.
#![allow(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing
    )
)]

pub mod decode;
pub mod detect;
pub mod encode;
pub mod encoding;
pub mod mem;
pub mod sniff;

/// encoding_c's names (`include/encoding_c/encoding_rs.h`, hand-written: not in textcodec.h).
///
/// cbindgen:ignore
#[cfg(feature = "encoding-c")]
pub mod compat;

pub use decode::*;
pub use detect::*;
pub use encode::*;
pub use encoding::*;
pub use mem::*;
pub use sniff::*;

/// The call consumed all its input (and with `last`, finished the stream).
pub const TEXTCODEC_INPUT_EMPTY: u32 = 0;
/// The output buffer cannot take the next character: call again with more room and the
/// unread input (from `read` on).
pub const TEXTCODEC_OUTPUT_FULL: u32 = 1;
/// Fatal mode: a malformed byte sequence (decoding), or input that is not UTF-8
/// (encoding from UTF-8). `read` includes it; the result says where it is. Call again
/// with the rest of the input to go on.
pub const TEXTCODEC_MALFORMED: u32 = 2;
/// Fatal mode: a character the encoding cannot represent. `read` includes it. Call again
/// with the rest of the input to go on.
pub const TEXTCODEC_UNMAPPABLE: u32 = 3;
/// A `NULL` pointer with a nonzero length, a misaligned `uint16_t` pointer, a `NULL`
/// object, or an unknown encoding or mode: nothing was read or written.
pub const TEXTCODEC_INVALID_ARGUMENT: u32 = 4;

/// The library's version, `"MAJOR.MINOR.PATCH"` (static, NUL-terminated). The soname's
/// number is the major version.
#[no_mangle]
pub extern "C" fn textcodec_version() -> *const core::ffi::c_char {
    const VERSION: &core::ffi::CStr = match core::ffi::CStr::from_bytes_with_nul(
        concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes(),
    ) {
        Ok(v) => v,
        Err(_) => c"",
    };
    VERSION.as_ptr()
}

/// A slice from a C pointer and a length in elements: `None` for `NULL` with a nonzero
/// length, a misaligned pointer, or a length no allocation can have.
///
/// # Safety
/// If `ptr` is not `NULL` and `len > 0`, `ptr` must designate `len` initialised elements
/// that stay valid and are not written by anyone else for `'a`.
pub(crate) unsafe fn slice<'a, T>(ptr: *const T, len: usize) -> Option<&'a [T]> {
    if len == 0 {
        return Some(&[]);
    }
    if ptr.is_null()
        || !(ptr as usize).is_multiple_of(core::mem::align_of::<T>())
        || len > isize::MAX as usize / core::mem::size_of::<T>().max(1)
    {
        return None;
    }
    // SAFETY: non-null, aligned, the size fits `isize`; the caller vouches for the rest.
    Some(unsafe { core::slice::from_raw_parts(ptr, len) })
}

/// [`slice`] for an output buffer.
///
/// # Safety
/// As [`slice`], and nothing else may read or write the elements for `'a`.
pub(crate) unsafe fn slice_mut<'a, T>(ptr: *mut T, len: usize) -> Option<&'a mut [T]> {
    if len == 0 {
        return Some(&mut []);
    }
    if ptr.is_null()
        || !(ptr as usize).is_multiple_of(core::mem::align_of::<T>())
        || len > isize::MAX as usize / core::mem::size_of::<T>().max(1)
    {
        return None;
    }
    // SAFETY: non-null, aligned, the size fits `isize`; the caller vouches for the rest.
    Some(unsafe { core::slice::from_raw_parts_mut(ptr, len) })
}

/// A call's input and output buffers as slices: `None` when either is not a buffer (see
/// [`slice`]) or when they share a byte (no conversion works in place, and a shared and a
/// mutable slice over one byte would break Rust's aliasing rules).
///
/// # Safety
/// As [`slice`] for `src` and [`slice_mut`] for `dst`, for `'a`.
pub(crate) unsafe fn buffers<'a, S, D>(
    src: *const S,
    src_len: usize,
    dst: *mut D,
    dst_len: usize,
) -> Option<(&'a [S], &'a mut [D])> {
    let bytes = |len: usize, size: usize| len.saturating_mul(size);
    let (s, d) = (src as usize, dst as usize);
    let (s_len, d_len) = (
        bytes(src_len, core::mem::size_of::<S>()),
        bytes(dst_len, core::mem::size_of::<D>()),
    );
    if s_len != 0 && d_len != 0 && s < d.saturating_add(d_len) && d < s.saturating_add(s_len) {
        return None;
    }
    // SAFETY: the caller's contract; the two ranges are disjoint.
    Some((unsafe { slice(src, src_len) }?, unsafe {
        slice_mut(dst, dst_len)
    }?))
}

/// Text given as pointer + length that must be UTF-8 (a locale tag); `None` if not.
///
/// # Safety
/// As [`slice`].
pub(crate) unsafe fn str_arg<'a>(ptr: *const core::ffi::c_char, len: usize) -> Option<&'a str> {
    // SAFETY: forwarded contract.
    let bytes = unsafe { slice(ptr.cast::<u8>(), len) }?;
    core::str::from_utf8(bytes).ok()
}

/// A Rust-owned object handed to C as a pointer (`Box::into_raw`).
pub(crate) fn into_handle<T>(value: T) -> *mut T {
    Box::into_raw(Box::new(value))
}

/// Frees an object [`into_handle`] made; `NULL` is ignored.
///
/// # Safety
/// `ptr` is `NULL` or came from [`into_handle`] for the same `T` and was not freed.
pub(crate) unsafe fn free_handle<T>(ptr: *mut T) {
    if !ptr.is_null() {
        // SAFETY: the caller's contract: a live pointer from `Box::into_raw`.
        drop(unsafe { Box::from_raw(ptr) });
    }
}
