//! Decoding (#concept-encoding-run with error modes and BOM handling) into the caller's
//! UTF-8 or UTF-16 buffers: the streaming decoder and one-shot calls.

use textcodec::{
    BomHandling, DecodeErrorMode, DecodeResult, DecodeStatus, Decoder, DecoderOptions,
};

use crate::encoding::{encoding_of, id_of, TextcodecEncoding, TEXTCODEC_NO_ENCODING};
use crate::{
    buffers, free_handle, into_handle, TEXTCODEC_INPUT_EMPTY, TEXTCODEC_INVALID_ARGUMENT,
    TEXTCODEC_MALFORMED, TEXTCODEC_OUTPUT_FULL,
};

/// Error mode *replacement*: each error becomes U+FFFD (what browsers do).
pub const TEXTCODEC_DECODE_REPLACEMENT: u32 = 0;
/// Error mode *fatal*: stop at each malformed sequence (`TEXTCODEC_MALFORMED`).
pub const TEXTCODEC_DECODE_FATAL: u32 = 1;

/// BOM handling of *decode*: a UTF-8, UTF-16BE or UTF-16LE BOM overrides the encoding and
/// is removed.
pub const TEXTCODEC_BOM_SNIFF: u32 = 0;
/// Remove the BOM of the decoder's own encoding (UTF-8, UTF-16BE/LE), never switch
/// (*UTF-8 decode*; `TextDecoder` without `ignoreBOM`).
pub const TEXTCODEC_BOM_REMOVE: u32 = 1;
/// No BOM handling: a BOM decodes as U+FEFF (*UTF-8 decode without BOM*).
pub const TEXTCODEC_BOM_KEEP: u32 = 2;

/// A streaming decoder (opaque): `textcodec_decoder_new`, `textcodec_decoder_free`.
pub struct TextcodecDecoder {
    inner: Decoder,
}

/// What a decode call did.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct TextcodecDecodeResult {
    /// `TEXTCODEC_INPUT_EMPTY`, `TEXTCODEC_OUTPUT_FULL`, `TEXTCODEC_MALFORMED` (fatal mode)
    /// or `TEXTCODEC_INVALID_ARGUMENT`.
    pub status: u32,
    /// The encoding in use after the call (a BOM may have switched it).
    pub encoding: TextcodecEncoding,
    /// Bytes of input consumed (with `TEXTCODEC_MALFORMED`, up to and including the
    /// malformed sequence's last byte; bytes the Standard restores are consumed and decoded
    /// later from the decoder's own queue).
    pub read: usize,
    /// Code units written: bytes for UTF-8, `uint16_t` for UTF-16. Only the first
    /// `written` units of the output are meaningful (the bulk paths may have used the rest
    /// as scratch).
    pub written: usize,
    /// Errors replaced with U+FFFD by this call (replacement mode).
    pub replacements: u64,
    /// `TEXTCODEC_MALFORMED`: the stream offset of the malformed sequence's first byte,
    /// counting every byte given to the decoder since it was created or reset (a BOM
    /// included). At the end of the stream with a sequence cut short, where it began.
    pub malformed_offset: u64,
    /// `TEXTCODEC_MALFORMED`: how many bytes of `malformed_bytes` are the sequence (0 to 8;
    /// 0 for an error at the end of the stream with nothing left).
    pub malformed_length: u32,
    /// `TEXTCODEC_MALFORMED`: the malformed bytes (they may have come in earlier calls).
    pub malformed_bytes: [u8; 8],
}

impl TextcodecDecodeResult {
    pub(crate) fn invalid() -> Self {
        TextcodecDecodeResult {
            status: TEXTCODEC_INVALID_ARGUMENT,
            encoding: TEXTCODEC_NO_ENCODING,
            read: 0,
            written: 0,
            replacements: 0,
            malformed_offset: 0,
            malformed_length: 0,
            malformed_bytes: [0; 8],
        }
    }

    fn from_rust(r: DecodeResult, decoder: &Decoder, replacements_before: u64) -> Self {
        let mut out = TextcodecDecodeResult {
            status: TEXTCODEC_INPUT_EMPTY,
            encoding: id_of(decoder.encoding()),
            read: r.read,
            written: r.written,
            replacements: decoder.replacements().saturating_sub(replacements_before),
            ..TextcodecDecodeResult::invalid()
        };
        match r.status {
            DecodeStatus::InputEmpty => {}
            DecodeStatus::OutputFull => out.status = TEXTCODEC_OUTPUT_FULL,
            DecodeStatus::Malformed(m) => {
                out.status = TEXTCODEC_MALFORMED;
                out.malformed_offset = m.offset();
                let bytes = m.bytes();
                let n = bytes.len().min(8);
                if let (Some(d), Some(s)) = (out.malformed_bytes.get_mut(..n), bytes.get(..n)) {
                    d.copy_from_slice(s);
                }
                out.malformed_length = n as u32;
            }
        }
        out
    }
}

fn options(error_mode: u32, bom: u32) -> Option<DecoderOptions> {
    let error_mode = match error_mode {
        TEXTCODEC_DECODE_REPLACEMENT => DecodeErrorMode::Replacement,
        TEXTCODEC_DECODE_FATAL => DecodeErrorMode::Fatal,
        _ => return None,
    };
    let bom = match bom {
        TEXTCODEC_BOM_SNIFF => BomHandling::Sniff,
        TEXTCODEC_BOM_REMOVE => BomHandling::Remove,
        TEXTCODEC_BOM_KEEP => BomHandling::Keep,
        _ => return None,
    };
    Some(DecoderOptions { error_mode, bom })
}

/// A decoder for `encoding` with an error mode (`TEXTCODEC_DECODE_*`) and BOM handling
/// (`TEXTCODEC_BOM_*`), allocated on the heap; free it with `textcodec_decoder_free`.
/// `NULL` for an unknown encoding or mode (or if the allocation fails: Rust aborts then).
/// `TEXTCODEC_DECODE_REPLACEMENT` with `TEXTCODEC_BOM_SNIFF` is the Standard's *decode*.
#[no_mangle]
pub extern "C" fn textcodec_decoder_new(
    encoding: TextcodecEncoding,
    error_mode: u32,
    bom_handling: u32,
) -> *mut TextcodecDecoder {
    match (encoding_of(encoding), options(error_mode, bom_handling)) {
        (Some(encoding), Some(options)) => into_handle(TextcodecDecoder {
            inner: Decoder::with_options(encoding, options),
        }),
        _ => core::ptr::null_mut(),
    }
}

/// Frees a decoder; `NULL` is ignored.
///
/// # Safety
/// `decoder` is `NULL` or a decoder from `textcodec_decoder_new` not yet freed.
#[no_mangle]
pub unsafe extern "C" fn textcodec_decoder_free(decoder: *mut TextcodecDecoder) {
    // SAFETY: the documented contract.
    unsafe { free_handle(decoder) }
}

/// # Safety
/// `decoder` is `NULL` or a live decoder not used elsewhere during the borrow.
unsafe fn decoder_ref<'a>(decoder: *const TextcodecDecoder) -> Option<&'a TextcodecDecoder> {
    // SAFETY: the caller's contract.
    unsafe { decoder.as_ref() }
}

/// # Safety
/// As [`decoder_ref`], exclusively.
unsafe fn decoder_mut<'a>(decoder: *mut TextcodecDecoder) -> Option<&'a mut TextcodecDecoder> {
    // SAFETY: the caller's contract.
    unsafe { decoder.as_mut() }
}

/// Starts a new stream: forgets all state, back to the encoding it was created with.
///
/// # Safety
/// `decoder` is `NULL` (ignored) or a live decoder.
#[no_mangle]
pub unsafe extern "C" fn textcodec_decoder_reset(decoder: *mut TextcodecDecoder) {
    // SAFETY: the documented contract.
    if let Some(d) = unsafe { decoder_mut(decoder) } {
        d.inner.reset();
    }
}

/// The encoding in use: the one given at creation, or the one a BOM chose
/// (`TEXTCODEC_NO_ENCODING` for `NULL`).
///
/// # Safety
/// `decoder` is `NULL` or a live decoder.
#[no_mangle]
pub unsafe extern "C" fn textcodec_decoder_encoding(
    decoder: *const TextcodecDecoder,
) -> TextcodecEncoding {
    // SAFETY: the documented contract.
    unsafe { decoder_ref(decoder) }.map_or(TEXTCODEC_NO_ENCODING, |d| id_of(d.inner.encoding()))
}

/// Changes the error mode from the next call on, keeping the stream's state: decode in
/// fatal mode until the first error, then switch to replacement to get its offset and
/// U+FFFD for the rest. `false` (nothing changed) for `NULL` or an unknown mode.
///
/// # Safety
/// `decoder` is `NULL` or a live decoder.
#[no_mangle]
pub unsafe extern "C" fn textcodec_decoder_set_error_mode(
    decoder: *mut TextcodecDecoder,
    error_mode: u32,
) -> bool {
    // SAFETY: the documented contract.
    let (Some(d), Some(o)) = (unsafe { decoder_mut(decoder) }, options(error_mode, 0)) else {
        return false;
    };
    d.inner.set_error_mode(o.error_mode);
    true
}

/// How many errors this decoder replaced with U+FFFD over its life (0 for `NULL`).
///
/// # Safety
/// `decoder` is `NULL` or a live decoder.
#[no_mangle]
pub unsafe extern "C" fn textcodec_decoder_replacements(decoder: *const TextcodecDecoder) -> u64 {
    // SAFETY: the documented contract.
    unsafe { decoder_ref(decoder) }.map_or(0, |d| d.inner.replacements())
}

/// The worst-case UTF-8 output, in bytes, of decoding `byte_length` more bytes with
/// `last` set (so a buffer this long never sees `TEXTCODEC_OUTPUT_FULL`), counting bytes
/// pending in the decoder; `SIZE_MAX` on overflow or for `NULL`.
///
/// # Safety
/// `decoder` is `NULL` or a live decoder.
#[no_mangle]
pub unsafe extern "C" fn textcodec_decoder_max_utf8_buffer_length(
    decoder: *const TextcodecDecoder,
    byte_length: usize,
) -> usize {
    // SAFETY: the documented contract.
    unsafe { decoder_ref(decoder) }
        .and_then(|d| d.inner.max_utf8_buffer_length(byte_length))
        .unwrap_or(usize::MAX)
}

/// The worst-case UTF-16 output, in code units; see
/// `textcodec_decoder_max_utf8_buffer_length`.
///
/// # Safety
/// `decoder` is `NULL` or a live decoder.
#[no_mangle]
pub unsafe extern "C" fn textcodec_decoder_max_utf16_buffer_length(
    decoder: *const TextcodecDecoder,
    byte_length: usize,
) -> usize {
    // SAFETY: the documented contract.
    unsafe { decoder_ref(decoder) }
        .and_then(|d| d.inner.max_utf16_buffer_length(byte_length))
        .unwrap_or(usize::MAX)
}

/// Decodes `src` into `dst` as UTF-8. Give the input in pieces split anywhere with
/// `last` false, then end the stream with `last` true (an empty `src` is fine); after a
/// `last` call that returns `TEXTCODEC_INPUT_EMPTY` the decoder starts a new stream.
/// `dst[0..written]` is whole characters of UTF-8; never NUL-terminated.
///
/// # Safety
/// `decoder` is a live decoder (`NULL` gives `TEXTCODEC_INVALID_ARGUMENT`); `src`
/// designates `src_len` readable bytes and `dst` `dst_len` writable bytes
/// (either may be `NULL` when its length is 0). Buffers that overlap are refused
/// (`TEXTCODEC_INVALID_ARGUMENT`).
#[no_mangle]
pub unsafe extern "C" fn textcodec_decoder_decode_to_utf8(
    decoder: *mut TextcodecDecoder,
    src: *const u8,
    src_len: usize,
    dst: *mut u8,
    dst_len: usize,
    last: bool,
) -> TextcodecDecodeResult {
    // SAFETY: the documented contract.
    let (Some(d), Some((src, dst))) = (unsafe { decoder_mut(decoder) }, unsafe {
        buffers(src, src_len, dst, dst_len)
    }) else {
        return TextcodecDecodeResult::invalid();
    };
    let before = d.inner.replacements();
    let r = d.inner.decode_to_utf8(src, dst, last);
    TextcodecDecodeResult::from_rust(r, &d.inner, before)
}

/// Decodes `src` into `dst` as UTF-16 (native byte order); otherwise as
/// `textcodec_decoder_decode_to_utf8`.
///
/// # Safety
/// As `textcodec_decoder_decode_to_utf8`, with `dst` designating `dst_len` writable,
/// 2-byte-aligned `uint16_t`.
#[no_mangle]
pub unsafe extern "C" fn textcodec_decoder_decode_to_utf16(
    decoder: *mut TextcodecDecoder,
    src: *const u8,
    src_len: usize,
    dst: *mut u16,
    dst_len: usize,
    last: bool,
) -> TextcodecDecodeResult {
    // SAFETY: the documented contract.
    let (Some(d), Some((src, dst))) = (unsafe { decoder_mut(decoder) }, unsafe {
        buffers(src, src_len, dst, dst_len)
    }) else {
        return TextcodecDecodeResult::invalid();
    };
    let before = d.inner.replacements();
    let r = d.inner.decode_to_utf16(src, dst, last);
    TextcodecDecodeResult::from_rust(r, &d.inner, before)
}

/// The UTF-8 buffer length that always suffices for `textcodec_decode_to_utf8` of
/// `byte_length` bytes (3 bytes per input byte); `SIZE_MAX` on overflow.
#[no_mangle]
pub extern "C" fn textcodec_decode_max_utf8_length(byte_length: usize) -> usize {
    byte_length.saturating_mul(3)
}

/// The UTF-16 buffer length that always suffices for `textcodec_decode_to_utf16` of
/// `byte_length` bytes (one unit per input byte).
#[no_mangle]
pub extern "C" fn textcodec_decode_max_utf16_length(byte_length: usize) -> usize {
    byte_length
}

/// Decodes a whole input in one call (a decoder on the stack, `last` set): `encoding`,
/// error mode `TEXTCODEC_DECODE_*`, BOM handling `TEXTCODEC_BOM_*`. With a buffer of
/// `textcodec_decode_max_utf8_length(src_len)` bytes the status is `TEXTCODEC_INPUT_EMPTY`
/// (or, in fatal mode, `TEXTCODEC_MALFORMED` at the first error, with the text before it
/// written). `encoding` in the result is the one used (a BOM may choose it).
///
/// # Safety
/// `src` designates `src_len` readable bytes and `dst` `dst_len` writable bytes
/// (`NULL` only with length 0). Buffers that overlap are refused
/// (`TEXTCODEC_INVALID_ARGUMENT`).
#[no_mangle]
pub unsafe extern "C" fn textcodec_decode_to_utf8(
    encoding: TextcodecEncoding,
    error_mode: u32,
    bom_handling: u32,
    src: *const u8,
    src_len: usize,
    dst: *mut u8,
    dst_len: usize,
) -> TextcodecDecodeResult {
    let (Some(e), Some(o)) = (encoding_of(encoding), options(error_mode, bom_handling)) else {
        return TextcodecDecodeResult::invalid();
    };
    // SAFETY: the documented contract.
    let Some((src, dst)) = (unsafe { buffers(src, src_len, dst, dst_len) }) else {
        return TextcodecDecodeResult::invalid();
    };
    let mut d = Decoder::with_options(e, o);
    let r = d.decode_to_utf8(src, dst, true);
    // Report the encoding used: the decoder resets to `e` once it finished the stream,
    // so take it from the BOM when one decided.
    let mut out = TextcodecDecodeResult::from_rust(r, &d, 0);
    out.encoding = id_of(used_encoding(e, o.bom, src));
    out
}

/// [`textcodec_decode_to_utf8`] into UTF-16.
///
/// # Safety
/// As `textcodec_decode_to_utf8`, with `dst` designating `dst_len` writable, 2-byte-aligned
/// `uint16_t`.
#[no_mangle]
pub unsafe extern "C" fn textcodec_decode_to_utf16(
    encoding: TextcodecEncoding,
    error_mode: u32,
    bom_handling: u32,
    src: *const u8,
    src_len: usize,
    dst: *mut u16,
    dst_len: usize,
) -> TextcodecDecodeResult {
    let (Some(e), Some(o)) = (encoding_of(encoding), options(error_mode, bom_handling)) else {
        return TextcodecDecodeResult::invalid();
    };
    // SAFETY: the documented contract.
    let Some((src, dst)) = (unsafe { buffers(src, src_len, dst, dst_len) }) else {
        return TextcodecDecodeResult::invalid();
    };
    let mut d = Decoder::with_options(e, o);
    let r = d.decode_to_utf16(src, dst, true);
    let mut out = TextcodecDecodeResult::from_rust(r, &d, 0);
    out.encoding = id_of(used_encoding(e, o.bom, src));
    out
}

/// The encoding a one-shot decode used: the BOM's with [`BomHandling::Sniff`].
fn used_encoding(
    encoding: textcodec::Encoding,
    bom: BomHandling,
    src: &[u8],
) -> textcodec::Encoding {
    match bom {
        BomHandling::Sniff => textcodec::bom_sniff(src).unwrap_or(encoding),
        _ => encoding,
    }
}
