//! encoding_c's `Decoder` functions.

use textcodec::{BomHandling, DecodeErrorMode, DecodeStatus, Decoder, DecoderOptions};

use super::{from_ptr, to_ptr, CompatEncoding, INPUT_EMPTY, OUTPUT_FULL};
use crate::{buffers, free_handle, into_handle, slice};

/// encoding_c's `Decoder`: textcodec's decoder, and the stream offset where the current
/// call's input begins (for the "consumed after the malformed sequence" count).
pub struct CompatDecoder {
    inner: Decoder,
    start: u64,
}

fn new_decoder(encoding: *const CompatEncoding, bom: BomHandling) -> Option<CompatDecoder> {
    // SAFETY: `encoding` is `NULL` or one of the statics (the public functions' contract).
    let e = unsafe { from_ptr(encoding) }?;
    Some(CompatDecoder {
        inner: Decoder::with_options(
            e,
            DecoderOptions {
                error_mode: DecodeErrorMode::Replacement,
                bom,
            },
        ),
        start: 0,
    })
}

fn boxed(d: Option<CompatDecoder>) -> *mut CompatDecoder {
    d.map_or(core::ptr::null_mut(), into_handle)
}

/// `encoding_new_decoder` (BOM sniffing).
///
/// # Safety
/// `encoding` is one of the statics.
#[no_mangle]
pub unsafe extern "C" fn encoding_new_decoder(
    encoding: *const CompatEncoding,
) -> *mut CompatDecoder {
    boxed(new_decoder(encoding, BomHandling::Sniff))
}

/// `encoding_new_decoder_with_bom_removal`.
///
/// # Safety
/// `encoding` is one of the statics.
#[no_mangle]
pub unsafe extern "C" fn encoding_new_decoder_with_bom_removal(
    encoding: *const CompatEncoding,
) -> *mut CompatDecoder {
    boxed(new_decoder(encoding, BomHandling::Remove))
}

/// `encoding_new_decoder_without_bom_handling`.
///
/// # Safety
/// `encoding` is one of the statics.
#[no_mangle]
pub unsafe extern "C" fn encoding_new_decoder_without_bom_handling(
    encoding: *const CompatEncoding,
) -> *mut CompatDecoder {
    boxed(new_decoder(encoding, BomHandling::Keep))
}

/// Replaces the decoder at `decoder` (from one of the `encoding_new_decoder` functions).
///
/// # Safety
/// `decoder` is `NULL` or a live decoder from this module.
unsafe fn into(decoder: *mut CompatDecoder, d: Option<CompatDecoder>) {
    // SAFETY: the caller's contract.
    if let (Some(slot), Some(d)) = (unsafe { decoder.as_mut() }, d) {
        *slot = d;
    }
}

/// `encoding_new_decoder_into`.
///
/// # Safety
/// `encoding` is one of the statics; `decoder` came from an `encoding_new_decoder*`
/// function and was not freed.
#[no_mangle]
pub unsafe extern "C" fn encoding_new_decoder_into(
    encoding: *const CompatEncoding,
    decoder: *mut CompatDecoder,
) {
    // SAFETY: the documented contract.
    unsafe { into(decoder, new_decoder(encoding, BomHandling::Sniff)) }
}

/// `encoding_new_decoder_with_bom_removal_into`.
///
/// # Safety
/// As `encoding_new_decoder_into`.
#[no_mangle]
pub unsafe extern "C" fn encoding_new_decoder_with_bom_removal_into(
    encoding: *const CompatEncoding,
    decoder: *mut CompatDecoder,
) {
    // SAFETY: the documented contract.
    unsafe { into(decoder, new_decoder(encoding, BomHandling::Remove)) }
}

/// `encoding_new_decoder_without_bom_handling_into`.
///
/// # Safety
/// As `encoding_new_decoder_into`.
#[no_mangle]
pub unsafe extern "C" fn encoding_new_decoder_without_bom_handling_into(
    encoding: *const CompatEncoding,
    decoder: *mut CompatDecoder,
) {
    // SAFETY: the documented contract.
    unsafe { into(decoder, new_decoder(encoding, BomHandling::Keep)) }
}

/// `decoder_free`.
///
/// # Safety
/// `decoder` is `NULL` or a live decoder from this module.
#[no_mangle]
pub unsafe extern "C" fn decoder_free(decoder: *mut CompatDecoder) {
    // SAFETY: the documented contract.
    unsafe { free_handle(decoder) }
}

/// `decoder_encoding`.
///
/// # Safety
/// `decoder` is a live decoder from this module.
#[no_mangle]
pub unsafe extern "C" fn decoder_encoding(decoder: *const CompatDecoder) -> *const CompatEncoding {
    // SAFETY: the documented contract.
    to_ptr(unsafe { decoder.as_ref() }.map(|d| d.inner.encoding()))
}

/// `decoder_max_utf8_buffer_length` (`SIZE_MAX` on overflow).
///
/// # Safety
/// `decoder` is a live decoder from this module.
#[no_mangle]
pub unsafe extern "C" fn decoder_max_utf8_buffer_length(
    decoder: *const CompatDecoder,
    byte_length: usize,
) -> usize {
    // SAFETY: the documented contract.
    unsafe { decoder.as_ref() }
        .and_then(|d| d.inner.max_utf8_buffer_length(byte_length))
        .unwrap_or(usize::MAX)
}

/// `decoder_max_utf8_buffer_length_without_replacement` (the same bound: textcodec's covers
/// both modes).
///
/// # Safety
/// `decoder` is a live decoder from this module.
#[no_mangle]
pub unsafe extern "C" fn decoder_max_utf8_buffer_length_without_replacement(
    decoder: *const CompatDecoder,
    byte_length: usize,
) -> usize {
    // SAFETY: the documented contract.
    unsafe { decoder_max_utf8_buffer_length(decoder, byte_length) }
}

/// `decoder_max_utf16_buffer_length`.
///
/// # Safety
/// `decoder` is a live decoder from this module.
#[no_mangle]
pub unsafe extern "C" fn decoder_max_utf16_buffer_length(
    decoder: *const CompatDecoder,
    byte_length: usize,
) -> usize {
    // SAFETY: the documented contract.
    unsafe { decoder.as_ref() }
        .and_then(|d| d.inner.max_utf16_buffer_length(byte_length))
        .unwrap_or(usize::MAX)
}

/// `decoder_latin1_byte_compatible_up_to`: how many bytes at the start of the buffer the
/// decoder would decode each to the code point of the same value, `SIZE_MAX` when it holds
/// bytes from earlier calls (`Decoder::latin1_byte_compatible_up_to`).
///
/// # Safety
/// `decoder` is a live decoder from this module; `buffer` points to `buffer_len` readable
/// bytes (`NULL` or misaligned: `SIZE_MAX`).
#[no_mangle]
pub unsafe extern "C" fn decoder_latin1_byte_compatible_up_to(
    decoder: *const CompatDecoder,
    buffer: *const u8,
    buffer_len: usize,
) -> usize {
    // SAFETY: the documented contract.
    let (Some(decoder), Some(bytes)) = (unsafe { decoder.as_ref() }, unsafe {
        slice(buffer, buffer_len)
    }) else {
        return usize::MAX;
    };
    decoder
        .inner
        .latin1_byte_compatible_up_to(bytes)
        .unwrap_or(usize::MAX)
}

/// The output side of a decode call.
enum Out<'a> {
    Utf8(&'a mut [u8]),
    Utf16(&'a mut [u16]),
}

/// One decode call in encoding_c's terms: `(status, read, written)`, the status packed
/// as encoding_c packs it.
fn decode(
    d: &mut CompatDecoder,
    src: &[u8],
    dst: Out<'_>,
    last: bool,
    fatal: bool,
) -> (u32, usize, usize, bool) {
    d.inner.set_error_mode(if fatal {
        DecodeErrorMode::Fatal
    } else {
        DecodeErrorMode::Replacement
    });
    let before = d.inner.replacements();
    let r = match dst {
        Out::Utf8(dst) => d.inner.decode_to_utf8(src, dst, last),
        Out::Utf16(dst) => d.inner.decode_to_utf16(src, dst, last),
    };
    let replaced = d.inner.replacements() > before;
    let end = d.start.saturating_add(r.read as u64);
    let status = match r.status {
        DecodeStatus::InputEmpty => {
            d.start = if last { 0 } else { end };
            INPUT_EMPTY
        }
        DecodeStatus::OutputFull => {
            d.start = end;
            OUTPUT_FULL
        }
        DecodeStatus::Malformed(m) => {
            d.start = end;
            let bad = m.bytes().len().clamp(1, 0xFF) as u32;
            // The bytes read after the malformed sequence (those the Standard restores are
            // read and decoded later from the decoder's queue).
            let after = end.saturating_sub(m.offset().saturating_add(m.bytes().len() as u64));
            // encoding_c packs the malformed sequence's length in the low 8 bits and the
            // bytes consumed after it in the next 8.
            ((after.min(0xFF) as u32) << 8) | bad
        }
    };
    (status, r.read, r.written, replaced)
}

/// The common body of the `decoder_decode_*` functions.
///
/// # Safety
/// The functions' documented contract.
#[allow(clippy::too_many_arguments)]
unsafe fn decode_c<T>(
    decoder: *mut CompatDecoder,
    src: *const u8,
    src_len: *mut usize,
    dst: *mut T,
    dst_len: *mut usize,
    last: bool,
    had_replacements: *mut bool,
    fatal: bool,
    wrap: for<'a> fn(&'a mut [T]) -> Out<'a>,
) -> u32 {
    // SAFETY: the documented contract, for each pointer.
    let (Some(d), Some(src_len), Some(dst_len)) = (
        unsafe { decoder.as_mut() },
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
    let (status, read, written, replaced) = decode(d, src_slice, wrap(dst_slice), last, fatal);
    *src_len = read;
    *dst_len = written;
    // SAFETY: the documented contract: `NULL` or a writable `bool`.
    if let Some(h) = unsafe { had_replacements.as_mut() } {
        *h = replaced;
    }
    status
}

/// `decoder_decode_to_utf8`.
///
/// # Safety
/// encoding_c's contract: a live decoder; `src` and `*src_len`, `dst` and `*dst_len`
/// designate valid memory; `had_replacements` is writable.
#[no_mangle]
pub unsafe extern "C" fn decoder_decode_to_utf8(
    decoder: *mut CompatDecoder,
    src: *const u8,
    src_len: *mut usize,
    dst: *mut u8,
    dst_len: *mut usize,
    last: bool,
    had_replacements: *mut bool,
) -> u32 {
    // SAFETY: the documented contract.
    unsafe {
        decode_c(
            decoder,
            src,
            src_len,
            dst,
            dst_len,
            last,
            had_replacements,
            false,
            |x| Out::Utf8(x),
        )
    }
}

/// `decoder_decode_to_utf8_without_replacement`.
///
/// # Safety
/// As `decoder_decode_to_utf8`.
#[no_mangle]
pub unsafe extern "C" fn decoder_decode_to_utf8_without_replacement(
    decoder: *mut CompatDecoder,
    src: *const u8,
    src_len: *mut usize,
    dst: *mut u8,
    dst_len: *mut usize,
    last: bool,
) -> u32 {
    let null = core::ptr::null_mut();
    // SAFETY: the documented contract.
    unsafe {
        decode_c(decoder, src, src_len, dst, dst_len, last, null, true, |x| {
            Out::Utf8(x)
        })
    }
}

/// `decoder_decode_to_utf16`.
///
/// # Safety
/// As `decoder_decode_to_utf8`, `dst` 2-byte aligned.
#[no_mangle]
pub unsafe extern "C" fn decoder_decode_to_utf16(
    decoder: *mut CompatDecoder,
    src: *const u8,
    src_len: *mut usize,
    dst: *mut u16,
    dst_len: *mut usize,
    last: bool,
    had_replacements: *mut bool,
) -> u32 {
    // SAFETY: the documented contract.
    unsafe {
        decode_c(
            decoder,
            src,
            src_len,
            dst,
            dst_len,
            last,
            had_replacements,
            false,
            |x| Out::Utf16(x),
        )
    }
}

/// `decoder_decode_to_utf16_without_replacement`.
///
/// # Safety
/// As `decoder_decode_to_utf16`.
#[no_mangle]
pub unsafe extern "C" fn decoder_decode_to_utf16_without_replacement(
    decoder: *mut CompatDecoder,
    src: *const u8,
    src_len: *mut usize,
    dst: *mut u16,
    dst_len: *mut usize,
    last: bool,
) -> u32 {
    let null = core::ptr::null_mut();
    // SAFETY: the documented contract.
    unsafe {
        decode_c(decoder, src, src_len, dst, dst_len, last, null, true, |x| {
            Out::Utf16(x)
        })
    }
}
