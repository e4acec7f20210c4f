//! `textcodec::mem` from C: conversions and checks between UTF-8, UTF-16 and Latin-1 in
//! the caller's buffers (Latin-1: bytes as U+0000–U+00FF, not windows-1252). Lossy
//! conversions replace errors with U+FFFD as the Standard's UTF-8 decoder and WebIDL's
//! USVString conversion do; checked ones stop at the first error.

use textcodec::mem::{self, ConvertError};

use crate::{
    buffers, slice, slice_mut, TEXTCODEC_INPUT_EMPTY, TEXTCODEC_INVALID_ARGUMENT,
    TEXTCODEC_MALFORMED, TEXTCODEC_OUTPUT_FULL,
};

/// What a `textcodec_mem_` conversion did.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct TextcodecMemResult {
    /// `TEXTCODEC_INPUT_EMPTY` (all converted), `TEXTCODEC_OUTPUT_FULL` (convert the rest,
    /// from `read`, into more room), `TEXTCODEC_MALFORMED` (checked conversions: the input
    /// is not what they convert from at `read`: ill-formed UTF-8 or UTF-16, or into
    /// Latin-1 a character above U+00FF) or `TEXTCODEC_INVALID_ARGUMENT`.
    pub status: u32,
    /// Input converted (bytes or units); with `TEXTCODEC_MALFORMED`, the offset of the
    /// error.
    pub read: usize,
    /// Output written (bytes or units); what the buffer holds past it is unspecified.
    pub written: usize,
}

fn result(status: u32, read: usize, written: usize) -> TextcodecMemResult {
    TextcodecMemResult {
        status,
        read,
        written,
    }
}

fn invalid() -> TextcodecMemResult {
    result(TEXTCODEC_INVALID_ARGUMENT, 0, 0)
}

/// A lossy or valid-input conversion's `(read, written)` as a result.
fn lossy(len: usize, (read, written): (usize, usize)) -> TextcodecMemResult {
    let status = if read < len {
        TEXTCODEC_OUTPUT_FULL
    } else {
        TEXTCODEC_INPUT_EMPTY
    };
    result(status, read, written)
}

/// A checked conversion's result.
fn checked(len: usize, r: Result<usize, ConvertError>) -> TextcodecMemResult {
    match r {
        Ok(written) => result(TEXTCODEC_INPUT_EMPTY, len, written),
        Err(ConvertError::Invalid {
            valid_up_to,
            written,
        }) => result(TEXTCODEC_MALFORMED, valid_up_to, written),
        Err(ConvertError::OutputFull { read, written }) => {
            result(TEXTCODEC_OUTPUT_FULL, read, written)
        }
    }
}

/// UTF-8 to UTF-16, each error as U+FFFD (the Standard's UTF-8 decoder, without BOM
/// handling). A buffer of `textcodec_mem_utf16_max_len_from_utf8(src_len)` units takes
/// it all.
///
/// # Safety
/// `src` designates `src_len` readable elements and `dst` `dst_len` writable ones
/// (`NULL` only with length 0; `uint16_t` pointers 2-byte aligned). Buffers that overlap
/// are refused (`TEXTCODEC_INVALID_ARGUMENT`).
#[no_mangle]
pub unsafe extern "C" fn textcodec_mem_utf8_to_utf16_lossy(
    src: *const u8,
    src_len: usize,
    dst: *mut u16,
    dst_len: usize,
) -> TextcodecMemResult {
    // SAFETY: the documented contract.
    match unsafe { buffers(src, src_len, dst, dst_len) } {
        Some((s, d)) => lossy(s.len(), mem::utf8_to_utf16_lossy(s, d)),
        None => invalid(),
    }
}

/// UTF-8 to UTF-16, stopping at the first error (`TEXTCODEC_MALFORMED`, `read` its
/// offset).
///
/// # Safety
/// `src` designates `src_len` readable elements and `dst` `dst_len` writable ones
/// (`NULL` only with length 0; `uint16_t` pointers 2-byte aligned). Buffers that overlap
/// are refused (`TEXTCODEC_INVALID_ARGUMENT`).
#[no_mangle]
pub unsafe extern "C" fn textcodec_mem_utf8_to_utf16_checked(
    src: *const u8,
    src_len: usize,
    dst: *mut u16,
    dst_len: usize,
) -> TextcodecMemResult {
    // SAFETY: the documented contract.
    match unsafe { buffers(src, src_len, dst, dst_len) } {
        Some((s, d)) => checked(s.len(), mem::utf8_to_utf16_checked(s, d)),
        None => invalid(),
    }
}

/// UTF-16 to UTF-8, each lone surrogate as U+FFFD (WebIDL's USVString conversion). A
/// buffer of `textcodec_mem_utf8_max_len_from_utf16(src_len)` bytes takes it all.
///
/// # Safety
/// `src` designates `src_len` readable elements and `dst` `dst_len` writable ones
/// (`NULL` only with length 0; `uint16_t` pointers 2-byte aligned). Buffers that overlap
/// are refused (`TEXTCODEC_INVALID_ARGUMENT`).
#[no_mangle]
pub unsafe extern "C" fn textcodec_mem_utf16_to_utf8_lossy(
    src: *const u16,
    src_len: usize,
    dst: *mut u8,
    dst_len: usize,
) -> TextcodecMemResult {
    // SAFETY: the documented contract.
    match unsafe { buffers(src, src_len, dst, dst_len) } {
        Some((s, d)) => lossy(s.len(), mem::utf16_to_utf8_lossy(s, d)),
        None => invalid(),
    }
}

/// UTF-16 to UTF-8, stopping at the first lone surrogate.
///
/// # Safety
/// `src` designates `src_len` readable elements and `dst` `dst_len` writable ones
/// (`NULL` only with length 0; `uint16_t` pointers 2-byte aligned). Buffers that overlap
/// are refused (`TEXTCODEC_INVALID_ARGUMENT`).
#[no_mangle]
pub unsafe extern "C" fn textcodec_mem_utf16_to_utf8_checked(
    src: *const u16,
    src_len: usize,
    dst: *mut u8,
    dst_len: usize,
) -> TextcodecMemResult {
    // SAFETY: the documented contract.
    match unsafe { buffers(src, src_len, dst, dst_len) } {
        Some((s, d)) => checked(s.len(), mem::utf16_to_utf8_checked(s, d)),
        None => invalid(),
    }
}

/// Latin-1 to UTF-8 (two bytes from 0x80 on).
///
/// # Safety
/// `src` designates `src_len` readable elements and `dst` `dst_len` writable ones
/// (`NULL` only with length 0; `uint16_t` pointers 2-byte aligned). Buffers that overlap
/// are refused (`TEXTCODEC_INVALID_ARGUMENT`).
#[no_mangle]
pub unsafe extern "C" fn textcodec_mem_latin1_to_utf8(
    src: *const u8,
    src_len: usize,
    dst: *mut u8,
    dst_len: usize,
) -> TextcodecMemResult {
    // SAFETY: the documented contract.
    match unsafe { buffers(src, src_len, dst, dst_len) } {
        Some((s, d)) => lossy(s.len(), mem::latin1_to_utf8(s, d)),
        None => invalid(),
    }
}

/// Latin-1 to UTF-16 (one unit per byte).
///
/// # Safety
/// `src` designates `src_len` readable elements and `dst` `dst_len` writable ones
/// (`NULL` only with length 0; `uint16_t` pointers 2-byte aligned). Buffers that overlap
/// are refused (`TEXTCODEC_INVALID_ARGUMENT`).
#[no_mangle]
pub unsafe extern "C" fn textcodec_mem_latin1_to_utf16(
    src: *const u8,
    src_len: usize,
    dst: *mut u16,
    dst_len: usize,
) -> TextcodecMemResult {
    // SAFETY: the documented contract.
    match unsafe { buffers(src, src_len, dst, dst_len) } {
        Some((s, d)) => {
            let n = mem::latin1_to_utf16(s, d);
            lossy(s.len(), (n, n))
        }
        None => invalid(),
    }
}

/// UTF-16 to Latin-1, stopping at the first unit from U+0100 on.
///
/// # Safety
/// `src` designates `src_len` readable elements and `dst` `dst_len` writable ones
/// (`NULL` only with length 0; `uint16_t` pointers 2-byte aligned). Buffers that overlap
/// are refused (`TEXTCODEC_INVALID_ARGUMENT`).
#[no_mangle]
pub unsafe extern "C" fn textcodec_mem_utf16_to_latin1(
    src: *const u16,
    src_len: usize,
    dst: *mut u8,
    dst_len: usize,
) -> TextcodecMemResult {
    // SAFETY: the documented contract.
    match unsafe { buffers(src, src_len, dst, dst_len) } {
        Some((s, d)) => checked(s.len(), mem::utf16_to_latin1(s, d)),
        None => invalid(),
    }
}

/// UTF-8 to Latin-1, stopping at ill-formed UTF-8 or the first character from U+0100
/// on.
///
/// # Safety
/// `src` designates `src_len` readable elements and `dst` `dst_len` writable ones
/// (`NULL` only with length 0; `uint16_t` pointers 2-byte aligned). Buffers that overlap
/// are refused (`TEXTCODEC_INVALID_ARGUMENT`).
#[no_mangle]
pub unsafe extern "C" fn textcodec_mem_utf8_to_latin1(
    src: *const u8,
    src_len: usize,
    dst: *mut u8,
    dst_len: usize,
) -> TextcodecMemResult {
    // SAFETY: the documented contract.
    match unsafe { buffers(src, src_len, dst, dst_len) } {
        Some((s, d)) => checked(s.len(), mem::utf8_to_latin1(s, d)),
        None => invalid(),
    }
}

/// The length of the longest valid UTF-8 prefix (`src_len` when all of it is valid;
/// 0 for `NULL` with a length).
///
/// # Safety
/// `src` designates `src_len` readable elements (`NULL` only with length 0; `uint16_t`
/// pointers 2-byte aligned).
#[no_mangle]
pub unsafe extern "C" fn textcodec_mem_utf8_valid_up_to(src: *const u8, src_len: usize) -> usize {
    // SAFETY: the documented contract.
    unsafe { slice(src, src_len) }.map_or(0, mem::utf8_valid_up_to)
}

/// The offset of the first lone surrogate (`src_len` when well-formed; 0 for `NULL`
/// with a length).
///
/// # Safety
/// `src` designates `src_len` readable elements (`NULL` only with length 0; `uint16_t`
/// pointers 2-byte aligned).
#[no_mangle]
pub unsafe extern "C" fn textcodec_mem_utf16_valid_up_to(src: *const u16, src_len: usize) -> usize {
    // SAFETY: the documented contract.
    unsafe { slice(src, src_len) }.map_or(0, mem::utf16_valid_up_to)
}

/// Whether `src` is valid UTF-8 whose characters are all below U+0100.
///
/// # Safety
/// `src` designates `src_len` readable elements (`NULL` only with length 0; `uint16_t`
/// pointers 2-byte aligned).
#[no_mangle]
pub unsafe extern "C" fn textcodec_mem_is_latin1_utf8(src: *const u8, src_len: usize) -> bool {
    // SAFETY: the documented contract.
    unsafe { slice(src, src_len) }.is_some_and(mem::is_latin1_utf8)
}

/// Whether every unit is below U+0100.
///
/// # Safety
/// `src` designates `src_len` readable elements (`NULL` only with length 0; `uint16_t`
/// pointers 2-byte aligned).
#[no_mangle]
pub unsafe extern "C" fn textcodec_mem_is_latin1_utf16(src: *const u16, src_len: usize) -> bool {
    // SAFETY: the documented contract.
    unsafe { slice(src, src_len) }.is_some_and(mem::is_latin1_utf16)
}

/// Whether every byte is ASCII.
///
/// # Safety
/// `src` designates `src_len` readable elements (`NULL` only with length 0; `uint16_t`
/// pointers 2-byte aligned).
#[no_mangle]
pub unsafe extern "C" fn textcodec_mem_is_ascii(src: *const u8, src_len: usize) -> bool {
    // SAFETY: the documented contract.
    unsafe { slice(src, src_len) }.is_some_and(mem::is_ascii)
}

/// Whether every unit is ASCII.
///
/// # Safety
/// `src` designates `src_len` readable elements (`NULL` only with length 0; `uint16_t`
/// pointers 2-byte aligned).
#[no_mangle]
pub unsafe extern "C" fn textcodec_mem_is_ascii_utf16(src: *const u16, src_len: usize) -> bool {
    // SAFETY: the documented contract.
    unsafe { slice(src, src_len) }.is_some_and(mem::is_ascii_utf16)
}

/// How many bytes at the start are ASCII.
///
/// # Safety
/// `src` designates `src_len` readable elements (`NULL` only with length 0; `uint16_t`
/// pointers 2-byte aligned).
#[no_mangle]
pub unsafe extern "C" fn textcodec_mem_ascii_prefix_len(src: *const u8, src_len: usize) -> usize {
    // SAFETY: the documented contract.
    unsafe { slice(src, src_len) }.map_or(0, mem::ascii_prefix_len)
}

/// How many units at the start are ASCII.
///
/// # Safety
/// `src` designates `src_len` readable elements (`NULL` only with length 0; `uint16_t`
/// pointers 2-byte aligned).
#[no_mangle]
pub unsafe extern "C" fn textcodec_mem_ascii_prefix_len_utf16(
    src: *const u16,
    src_len: usize,
) -> usize {
    // SAFETY: the documented contract.
    unsafe { slice(src, src_len) }.map_or(0, mem::ascii_prefix_len_utf16)
}

/// The UTF-16 length of `src` converted lossily (`SIZE_MAX` for `NULL` with a length).
///
/// # Safety
/// `src` designates `src_len` readable elements (`NULL` only with length 0; `uint16_t`
/// pointers 2-byte aligned).
#[no_mangle]
pub unsafe extern "C" fn textcodec_mem_utf16_len_from_utf8_lossy(
    src: *const u8,
    src_len: usize,
) -> usize {
    // SAFETY: the documented contract.
    unsafe { slice(src, src_len) }.map_or(usize::MAX, mem::utf16_len_from_utf8_lossy)
}

/// The UTF-8 length of well-formed `src` (a lone surrogate counts two bytes, one less
/// than its U+FFFD; `SIZE_MAX` for `NULL` with a length).
///
/// # Safety
/// `src` designates `src_len` readable elements (`NULL` only with length 0; `uint16_t`
/// pointers 2-byte aligned).
#[no_mangle]
pub unsafe extern "C" fn textcodec_mem_utf8_len_from_utf16(
    src: *const u16,
    src_len: usize,
) -> usize {
    // SAFETY: the documented contract.
    unsafe { slice(src, src_len) }.map_or(usize::MAX, mem::utf8_len_from_utf16)
}

/// The UTF-8 length of `src` converted lossily (`SIZE_MAX` for `NULL` with a length).
///
/// # Safety
/// `src` designates `src_len` readable elements (`NULL` only with length 0; `uint16_t`
/// pointers 2-byte aligned).
#[no_mangle]
pub unsafe extern "C" fn textcodec_mem_utf8_len_from_utf16_lossy(
    src: *const u16,
    src_len: usize,
) -> usize {
    // SAFETY: the documented contract.
    unsafe { slice(src, src_len) }.map_or(usize::MAX, mem::utf8_len_from_utf16_lossy)
}

/// The UTF-8 length of Latin-1 `src` (`SIZE_MAX` for `NULL` with a length).
///
/// # Safety
/// `src` designates `src_len` readable elements (`NULL` only with length 0; `uint16_t`
/// pointers 2-byte aligned).
#[no_mangle]
pub unsafe extern "C" fn textcodec_mem_utf8_len_from_latin1(
    src: *const u8,
    src_len: usize,
) -> usize {
    // SAFETY: the documented contract.
    unsafe { slice(src, src_len) }.map_or(usize::MAX, mem::utf8_len_from_latin1)
}

/// Code points of `src` read as UTF-16 (a lone surrogate counts one; `SIZE_MAX` for
/// `NULL` with a length).
///
/// # Safety
/// `src` designates `src_len` readable elements (`NULL` only with length 0; `uint16_t`
/// pointers 2-byte aligned).
#[no_mangle]
pub unsafe extern "C" fn textcodec_mem_char_count_utf16(src: *const u16, src_len: usize) -> usize {
    // SAFETY: the documented contract.
    unsafe { slice(src, src_len) }.map_or(usize::MAX, mem::char_count_utf16)
}

/// Replaces every lone surrogate with U+FFFD in place; returns how many (0 for `NULL`).
///
/// # Safety
/// `src` designates `src_len` writable, 2-byte-aligned `uint16_t` (`NULL` only with 0).
#[no_mangle]
pub unsafe extern "C" fn textcodec_mem_utf16_make_well_formed(
    src: *mut u16,
    src_len: usize,
) -> usize {
    // SAFETY: the documented contract.
    unsafe { slice_mut(src, src_len) }.map_or(0, mem::utf16_make_well_formed)
}

/// The most UTF-16 units `utf8_len` bytes convert to (`utf8_len`).
#[no_mangle]
pub extern "C" fn textcodec_mem_utf16_max_len_from_utf8(utf8_len: usize) -> usize {
    mem::utf16_max_len_from_utf8(utf8_len)
}

/// The most UTF-8 bytes `utf16_len` units convert to (`3 * utf16_len`, saturating).
#[no_mangle]
pub extern "C" fn textcodec_mem_utf8_max_len_from_utf16(utf16_len: usize) -> usize {
    mem::utf8_max_len_from_utf16(utf16_len)
}

/// The most UTF-8 bytes `latin1_len` bytes of Latin-1 convert to (`2 * latin1_len`).
#[no_mangle]
pub extern "C" fn textcodec_mem_utf8_max_len_from_latin1(latin1_len: usize) -> usize {
    mem::utf8_max_len_from_latin1(latin1_len)
}
