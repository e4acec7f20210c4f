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

use textcodec::Encoding;

use crate::{slice, slice_mut};

mod decoder;
mod encoder;
pub use decoder::*;
pub use encoder::*;

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
