//! encoding_c's `Encoder` functions.

use textcodec::{EncodeErrorMode, EncodeStatus, Encoder};

use super::{from_ptr, to_ptr, CompatEncoding, INPUT_EMPTY, OUTPUT_FULL};
use crate::{buffers, free_handle, into_handle};

/// encoding_c's `Encoder`.
pub struct CompatEncoder {
    inner: Encoder,
}

fn new_encoder(encoding: *const CompatEncoding) -> Option<CompatEncoder> {
    // SAFETY: `encoding` is `NULL` or one of the statics (the public functions' contract).
    let e = unsafe { from_ptr(encoding) }?.output_encoding();
    Some(CompatEncoder {
        inner: Encoder::new(e, EncodeErrorMode::Html)?,
    })
}

/// `encoding_new_encoder` (for the output encoding: UTF-8 for UTF-16 and replacement).
///
/// # Safety
/// `encoding` is one of the statics.
#[no_mangle]
pub unsafe extern "C" fn encoding_new_encoder(
    encoding: *const CompatEncoding,
) -> *mut CompatEncoder {
    new_encoder(encoding).map_or(core::ptr::null_mut(), into_handle)
}

/// `encoding_new_encoder_into`.
///
/// # Safety
/// `encoding` is one of the statics; `encoder` came from `encoding_new_encoder` and was
/// not freed.
#[no_mangle]
pub unsafe extern "C" fn encoding_new_encoder_into(
    encoding: *const CompatEncoding,
    encoder: *mut CompatEncoder,
) {
    // SAFETY: the documented contract.
    if let (Some(slot), Some(e)) = (unsafe { encoder.as_mut() }, new_encoder(encoding)) {
        *slot = e;
    }
}

/// `encoder_free`.
///
/// # Safety
/// `encoder` is `NULL` or a live encoder from this module.
#[no_mangle]
pub unsafe extern "C" fn encoder_free(encoder: *mut CompatEncoder) {
    // SAFETY: the documented contract.
    unsafe { free_handle(encoder) }
}

/// `encoder_encoding`.
///
/// # Safety
/// `encoder` is a live encoder from this module.
#[no_mangle]
pub unsafe extern "C" fn encoder_encoding(encoder: *const CompatEncoder) -> *const CompatEncoding {
    // SAFETY: the documented contract.
    to_ptr(unsafe { encoder.as_ref() }.map(|e| e.inner.encoding()))
}

/// `encoder_has_pending_state`: an ISO-2022-JP encoder not in its ASCII state (whose end
/// of stream would write bytes).
///
/// # Safety
/// `encoder` is a live encoder from this module.
#[no_mangle]
pub unsafe extern "C" fn encoder_has_pending_state(encoder: *const CompatEncoder) -> bool {
    // SAFETY: the documented contract.
    unsafe { encoder.as_ref() }.is_some_and(|e| {
        let mut probe = e.inner.clone();
        let mut out = [0u8; 8];
        probe.encode_from_utf8("", &mut out, true).written > 0
    })
}

fn max_len(encoder: *const CompatEncoder, n: usize, utf16: bool, mode: EncodeErrorMode) -> usize {
    // SAFETY: `encoder` is `NULL` or live (the public functions' contract).
    unsafe { encoder.as_ref() }
        .and_then(|e| {
            let mut probe = e.inner.clone();
            probe.set_error_mode(mode);
            if utf16 {
                probe.max_buffer_length_from_utf16(n)
            } else {
                probe.max_buffer_length_from_utf8(n)
            }
        })
        .unwrap_or(usize::MAX)
}

/// `encoder_max_buffer_length_from_utf8_if_no_unmappables`.
///
/// # Safety
/// `encoder` is a live encoder from this module.
#[no_mangle]
pub unsafe extern "C" fn encoder_max_buffer_length_from_utf8_if_no_unmappables(
    encoder: *const CompatEncoder,
    byte_length: usize,
) -> usize {
    max_len(encoder, byte_length, false, EncodeErrorMode::Fatal)
}

/// `encoder_max_buffer_length_from_utf8_without_replacement`.
///
/// # Safety
/// `encoder` is a live encoder from this module.
#[no_mangle]
pub unsafe extern "C" fn encoder_max_buffer_length_from_utf8_without_replacement(
    encoder: *const CompatEncoder,
    byte_length: usize,
) -> usize {
    max_len(encoder, byte_length, false, EncodeErrorMode::Fatal)
}

/// `encoder_max_buffer_length_from_utf16_if_no_unmappables`.
///
/// # Safety
/// `encoder` is a live encoder from this module.
#[no_mangle]
pub unsafe extern "C" fn encoder_max_buffer_length_from_utf16_if_no_unmappables(
    encoder: *const CompatEncoder,
    u16_length: usize,
) -> usize {
    max_len(encoder, u16_length, true, EncodeErrorMode::Fatal)
}

/// `encoder_max_buffer_length_from_utf16_without_replacement`.
///
/// # Safety
/// `encoder` is a live encoder from this module.
#[no_mangle]
pub unsafe extern "C" fn encoder_max_buffer_length_from_utf16_without_replacement(
    encoder: *const CompatEncoder,
    u16_length: usize,
) -> usize {
    max_len(encoder, u16_length, true, EncodeErrorMode::Fatal)
}

/// Input of an encode call.
enum In<'a> {
    Utf8(&'a [u8]),
    Utf16(&'a [u16]),
}

/// One encode call: `(status, read, written, replaced)`.
fn encode(
    e: &mut CompatEncoder,
    src: In<'_>,
    dst: &mut [u8],
    last: bool,
    html: bool,
) -> (u32, usize, usize, bool) {
    e.inner.set_error_mode(if html {
        EncodeErrorMode::Html
    } else {
        EncodeErrorMode::Fatal
    });
    let before = e.inner.unmappables();
    let r = match src {
        In::Utf16(src) => e.inner.encode_from_utf16(src, dst, last),
        In::Utf8(src) => match core::str::from_utf8(src) {
            Ok(text) => e.inner.encode_from_utf8(text, dst, last),
            Err(err) => {
                // encoding_c requires UTF-8 here (undefined behaviour otherwise). textcodec
                // checks: encode the valid prefix, then treat the bad bytes as U+FFFD.
                let (good, bad) = src.split_at(err.valid_up_to());
                let text = core::str::from_utf8(good).unwrap_or_default();
                let r = e.inner.encode_from_utf8(text, dst, false);
                if r.status != EncodeStatus::InputEmpty {
                    return finish(r, before, e);
                }
                let skip = err.error_len().unwrap_or(bad.len());
                let rest = dst.get_mut(r.written..).unwrap_or_default();
                let r2 = e
                    .inner
                    .encode_from_utf8("\u{FFFD}", rest, last && skip == bad.len());
                let read = if r2.status == EncodeStatus::OutputFull {
                    r.read
                } else {
                    r.read + skip
                };
                return finish(
                    textcodec::EncodeResult {
                        status: r2.status,
                        read,
                        written: r.written + r2.written,
                    },
                    before,
                    e,
                );
            }
        },
    };
    finish(r, before, e)
}

fn finish(r: textcodec::EncodeResult, before: u64, e: &CompatEncoder) -> (u32, usize, usize, bool) {
    let status = match r.status {
        EncodeStatus::InputEmpty => INPUT_EMPTY,
        EncodeStatus::OutputFull => OUTPUT_FULL,
        EncodeStatus::Unmappable(u) => u32::from(u.character()),
    };
    (status, r.read, r.written, e.inner.unmappables() > before)
}

/// The common body of the `encoder_encode_*` functions.
///
/// # Safety
/// The functions' documented contract.
#[allow(clippy::too_many_arguments)]
unsafe fn encode_c<T>(
    encoder: *mut CompatEncoder,
    src: *const T,
    src_len: *mut usize,
    dst: *mut u8,
    dst_len: *mut usize,
    last: bool,
    had_replacements: *mut bool,
    html: bool,
    wrap: for<'a> fn(&'a [T]) -> In<'a>,
) -> u32 {
    // SAFETY: the documented contract, for each pointer.
    let (Some(e), Some(src_len), Some(dst_len)) = (
        unsafe { encoder.as_mut() },
        unsafe { src_len.as_mut() },
        unsafe { dst_len.as_mut() },
    ) else {
        return INPUT_EMPTY;
    };
    // SAFETY: the documented contract.
    let Some((src_slice, dst_slice)) = (unsafe { buffers(src, *src_len, dst, *dst_len) }) else {
        *src_len = 0;
        *dst_len = 0;
        return INPUT_EMPTY;
    };
    let (status, read, written, replaced) = encode(e, wrap(src_slice), dst_slice, last, html);
    *src_len = read;
    *dst_len = written;
    // SAFETY: the documented contract: `NULL` or a writable `bool`.
    if let Some(h) = unsafe { had_replacements.as_mut() } {
        *h = replaced;
    }
    status
}

/// `encoder_encode_from_utf8` (unmappable characters become `&#N;`).
///
/// # Safety
/// encoding_c's contract: a live encoder; `src` and `*src_len`, `dst` and `*dst_len`
/// designate valid memory; `had_replacements` is writable.
#[no_mangle]
pub unsafe extern "C" fn encoder_encode_from_utf8(
    encoder: *mut CompatEncoder,
    src: *const u8,
    src_len: *mut usize,
    dst: *mut u8,
    dst_len: *mut usize,
    last: bool,
    had_replacements: *mut bool,
) -> u32 {
    // SAFETY: the documented contract.
    unsafe {
        encode_c(
            encoder,
            src,
            src_len,
            dst,
            dst_len,
            last,
            had_replacements,
            true,
            |x| In::Utf8(x),
        )
    }
}

/// `encoder_encode_from_utf8_without_replacement` (returns the unmappable scalar value).
///
/// # Safety
/// As `encoder_encode_from_utf8`.
#[no_mangle]
pub unsafe extern "C" fn encoder_encode_from_utf8_without_replacement(
    encoder: *mut CompatEncoder,
    src: *const u8,
    src_len: *mut usize,
    dst: *mut u8,
    dst_len: *mut usize,
    last: bool,
) -> u32 {
    let null = core::ptr::null_mut();
    // SAFETY: the documented contract.
    unsafe {
        encode_c(
            encoder,
            src,
            src_len,
            dst,
            dst_len,
            last,
            null,
            false,
            |x| In::Utf8(x),
        )
    }
}

/// `encoder_encode_from_utf16`.
///
/// # Safety
/// As `encoder_encode_from_utf8`, `src` 2-byte aligned.
#[no_mangle]
pub unsafe extern "C" fn encoder_encode_from_utf16(
    encoder: *mut CompatEncoder,
    src: *const u16,
    src_len: *mut usize,
    dst: *mut u8,
    dst_len: *mut usize,
    last: bool,
    had_replacements: *mut bool,
) -> u32 {
    // SAFETY: the documented contract.
    unsafe {
        encode_c(
            encoder,
            src,
            src_len,
            dst,
            dst_len,
            last,
            had_replacements,
            true,
            |x| In::Utf16(x),
        )
    }
}

/// `encoder_encode_from_utf16_without_replacement`.
///
/// # Safety
/// As `encoder_encode_from_utf16`.
#[no_mangle]
pub unsafe extern "C" fn encoder_encode_from_utf16_without_replacement(
    encoder: *mut CompatEncoder,
    src: *const u16,
    src_len: *mut usize,
    dst: *mut u8,
    dst_len: *mut usize,
    last: bool,
) -> u32 {
    let null = core::ptr::null_mut();
    // SAFETY: the documented contract.
    unsafe {
        encode_c(
            encoder,
            src,
            src_len,
            dst,
            dst_len,
            last,
            null,
            false,
            |x| In::Utf16(x),
        )
    }
}
