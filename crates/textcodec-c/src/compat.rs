//! encoding_c's C API over textcodec, for programs written against encoding_c
//! (`include/encoding_c/encoding_rs.h`, hand-written from encoding_c's documented
//! declarations): the same function names, signatures, statics and return-value
//! conventions, so such a program compiles and links unchanged against libtextcodec.
//!
//! Where the two differ (README, "encoding_c compatibility"):
//! * `encoding_new_decoder_into` and the other `_into` functions take only a pointer from
//!   the matching `_new` function (C code cannot know the object's size);
//! * the pointer contracts are checked where they can be (`NULL` objects and buffers give
//!   `NULL`, 0 or `INPUT_EMPTY` with nothing read or written instead of undefined
//!   behaviour), and UTF-8 input to the encoders is validated, where encoding_c's is
//!   undefined behaviour when it is not UTF-8: bytes that are not UTF-8 are encoded as
//!   U+FFFD (with replacement) or reported as an unmappable U+FFFD (without).

use textcodec::{
    BomHandling, DecodeErrorMode, DecodeStatus, Decoder, DecoderOptions, EncodeErrorMode,
    EncodeStatus, Encoder, Encoding,
};

use crate::{free_handle, into_handle, slice, slice_mut};

/// `INPUT_EMPTY`: the input was consumed.
pub const INPUT_EMPTY: u32 = 0;
/// `OUTPUT_FULL`: the output buffer is full.
pub const OUTPUT_FULL: u32 = 0xFFFF_FFFF;

/// An encoding as encoding_c hands it out: a pointer to one of 40 statics.
#[derive(Debug)]
pub struct CompatEncoding {
    encoding: Encoding,
}

macro_rules! encodings {
    ($($name:ident = $variant:ident),* $(,)?) => {
        /// The 40 encodings, in the Standard's order.
        static ENCODINGS: [CompatEncoding; 40] = [$(CompatEncoding { encoding: Encoding::$variant }),*];
        $(
            #[doc = concat!("encoding_c's `", stringify!($name), "`.")]
            #[no_mangle]
            // A constant index into the 40 (a compile-time error if out of range).
            #[allow(clippy::indexing_slicing)]
            pub static $name: &CompatEncoding = &ENCODINGS[Encoding::$variant as usize];
        )*
    };
}

encodings! {
    UTF_8_ENCODING = Utf8,
    IBM866_ENCODING = Ibm866,
    ISO_8859_2_ENCODING = Iso8859_2,
    ISO_8859_3_ENCODING = Iso8859_3,
    ISO_8859_4_ENCODING = Iso8859_4,
    ISO_8859_5_ENCODING = Iso8859_5,
    ISO_8859_6_ENCODING = Iso8859_6,
    ISO_8859_7_ENCODING = Iso8859_7,
    ISO_8859_8_ENCODING = Iso8859_8,
    ISO_8859_8_I_ENCODING = Iso8859_8I,
    ISO_8859_10_ENCODING = Iso8859_10,
    ISO_8859_13_ENCODING = Iso8859_13,
    ISO_8859_14_ENCODING = Iso8859_14,
    ISO_8859_15_ENCODING = Iso8859_15,
    ISO_8859_16_ENCODING = Iso8859_16,
    KOI8_R_ENCODING = Koi8R,
    KOI8_U_ENCODING = Koi8U,
    MACINTOSH_ENCODING = Macintosh,
    WINDOWS_874_ENCODING = Windows874,
    WINDOWS_1250_ENCODING = Windows1250,
    WINDOWS_1251_ENCODING = Windows1251,
    WINDOWS_1252_ENCODING = Windows1252,
    WINDOWS_1253_ENCODING = Windows1253,
    WINDOWS_1254_ENCODING = Windows1254,
    WINDOWS_1255_ENCODING = Windows1255,
    WINDOWS_1256_ENCODING = Windows1256,
    WINDOWS_1257_ENCODING = Windows1257,
    WINDOWS_1258_ENCODING = Windows1258,
    X_MAC_CYRILLIC_ENCODING = XMacCyrillic,
    GBK_ENCODING = Gbk,
    GB18030_ENCODING = Gb18030,
    BIG5_ENCODING = Big5,
    EUC_JP_ENCODING = EucJp,
    ISO_2022_JP_ENCODING = Iso2022Jp,
    SHIFT_JIS_ENCODING = ShiftJis,
    EUC_KR_ENCODING = EucKr,
    REPLACEMENT_ENCODING = Replacement,
    UTF_16BE_ENCODING = Utf16Be,
    UTF_16LE_ENCODING = Utf16Le,
    X_USER_DEFINED_ENCODING = XUserDefined,
}

fn to_ptr(encoding: Option<Encoding>) -> *const CompatEncoding {
    encoding
        .and_then(|e| ENCODINGS.get(e as usize))
        .map_or(core::ptr::null(), |e| e as *const CompatEncoding)
}

/// # Safety
/// `encoding` is `NULL` or one of the statics.
unsafe fn from_ptr(encoding: *const CompatEncoding) -> Option<Encoding> {
    // SAFETY: the caller's contract: `NULL` or a pointer to a static.
    unsafe { encoding.as_ref() }.map(|e| e.encoding)
}

/// `encoding_for_label`.
///
/// # Safety
/// `label` designates `label_len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn encoding_for_label(
    label: *const u8,
    label_len: usize,
) -> *const CompatEncoding {
    // SAFETY: the documented contract.
    to_ptr(unsafe { slice(label, label_len) }.and_then(Encoding::for_label))
}

/// `encoding_for_label_no_replacement`.
///
/// # Safety
/// `label` designates `label_len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn encoding_for_label_no_replacement(
    label: *const u8,
    label_len: usize,
) -> *const CompatEncoding {
    // SAFETY: the documented contract.
    let e = unsafe { slice(label, label_len) }.and_then(Encoding::for_label);
    to_ptr(e.filter(|&e| e != Encoding::Replacement))
}

/// `encoding_for_bom`.
///
/// # Safety
/// `buffer` designates `*buffer_len` readable bytes; `buffer_len` is writable.
#[no_mangle]
pub unsafe extern "C" fn encoding_for_bom(
    buffer: *const u8,
    buffer_len: *mut usize,
) -> *const CompatEncoding {
    // SAFETY: the documented contract.
    let Some(len) = (unsafe { buffer_len.as_mut() }) else {
        return core::ptr::null();
    };
    // SAFETY: the documented contract.
    let found = unsafe { slice(buffer, *len) }.and_then(textcodec::bom_sniff);
    *len = match found {
        Some(Encoding::Utf8) => 3,
        Some(_) => 2,
        None => 0,
    };
    to_ptr(found)
}

/// `encoding_name`: writes the name (not NUL-terminated) and returns its length.
///
/// # Safety
/// `encoding` is one of the statics; `name_out` has room for `ENCODING_NAME_MAX_LENGTH`
/// (14) bytes.
#[no_mangle]
pub unsafe extern "C" fn encoding_name(
    encoding: *const CompatEncoding,
    name_out: *mut u8,
) -> usize {
    // SAFETY: the documented contract.
    let Some(e) = (unsafe { from_ptr(encoding) }) else {
        return 0;
    };
    let name = e.name().as_bytes();
    // SAFETY: the documented contract: 14 writable bytes, and no name is longer.
    match unsafe { slice_mut(name_out, name.len()) } {
        Some(out) => {
            out.copy_from_slice(name);
            name.len()
        }
        None => 0,
    }
}

/// `encoding_can_encode_everything`: whether the output encoding is UTF-8.
///
/// # Safety
/// `encoding` is one of the statics.
#[no_mangle]
pub unsafe extern "C" fn encoding_can_encode_everything(encoding: *const CompatEncoding) -> bool {
    // SAFETY: the documented contract.
    unsafe { from_ptr(encoding) }.is_some_and(|e| e.output_encoding() == Encoding::Utf8)
}

/// `encoding_is_ascii_compatible`.
///
/// # Safety
/// `encoding` is one of the statics.
#[no_mangle]
pub unsafe extern "C" fn encoding_is_ascii_compatible(encoding: *const CompatEncoding) -> bool {
    // SAFETY: the documented contract.
    unsafe { from_ptr(encoding) }.is_some_and(Encoding::is_ascii_compatible)
}

/// `encoding_is_single_byte`: the legacy single-byte encodings and x-user-defined.
///
/// # Safety
/// `encoding` is one of the statics.
#[no_mangle]
pub unsafe extern "C" fn encoding_is_single_byte(encoding: *const CompatEncoding) -> bool {
    // SAFETY: the documented contract.
    unsafe { from_ptr(encoding) }.is_some_and(|e| e.is_single_byte() || e == Encoding::XUserDefined)
}

/// `encoding_output_encoding`.
///
/// # Safety
/// `encoding` is one of the statics.
#[no_mangle]
pub unsafe extern "C" fn encoding_output_encoding(
    encoding: *const CompatEncoding,
) -> *const CompatEncoding {
    // SAFETY: the documented contract.
    to_ptr(unsafe { from_ptr(encoding) }.map(Encoding::output_encoding))
}

/// `encoding_utf8_valid_up_to`.
///
/// # Safety
/// `buffer` designates `buffer_len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn encoding_utf8_valid_up_to(buffer: *const u8, buffer_len: usize) -> usize {
    // SAFETY: the documented contract.
    let Some(bytes) = (unsafe { slice(buffer, buffer_len) }) else {
        return 0;
    };
    match textcodec::utf8_decode_without_bom_or_fail(bytes) {
        Ok(_) => bytes.len(),
        Err(m) => usize::try_from(m.offset()).unwrap_or(bytes.len()),
    }
}

/// `encoding_ascii_valid_up_to`.
///
/// # Safety
/// `buffer` designates `buffer_len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn encoding_ascii_valid_up_to(buffer: *const u8, buffer_len: usize) -> usize {
    // SAFETY: the documented contract.
    unsafe { slice(buffer, buffer_len) }
        .map_or(0, |b| b.iter().position(|&x| x >= 0x80).unwrap_or(b.len()))
}

/// `encoding_iso_2022_jp_ascii_valid_up_to`: ASCII but ESC, SO and SI.
///
/// # Safety
/// `buffer` designates `buffer_len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn encoding_iso_2022_jp_ascii_valid_up_to(
    buffer: *const u8,
    buffer_len: usize,
) -> usize {
    // SAFETY: the documented contract.
    unsafe { slice(buffer, buffer_len) }.map_or(0, |b| {
        b.iter()
            .position(|&x| x >= 0x80 || matches!(x, 0x0E | 0x0F | 0x1B))
            .unwrap_or(b.len())
    })
}

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
    let (Some(src_slice), Some(dst_slice)) = (unsafe { slice(src, *src_len) }, unsafe {
        slice_mut(dst, *dst_len)
    }) else {
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
    let (Some(src_slice), Some(dst_slice)) = (unsafe { slice(src, *src_len) }, unsafe {
        slice_mut(dst, *dst_len)
    }) else {
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
