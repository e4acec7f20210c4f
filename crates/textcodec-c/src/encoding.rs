//! <https://encoding.spec.whatwg.org/#names-and-labels>: encodings as numbers, their names
//! and labels, *get an encoding*, *get an output encoding* and *BOM sniff*.

use core::ffi::{c_char, CStr};
use std::ffi::CString;
use std::sync::OnceLock;

use textcodec::Encoding;

use crate::slice;

/// An encoding: its position in the Standard's table (#names-and-labels), 0 to
/// `TEXTCODEC_ENCODING_COUNT - 1`, or `TEXTCODEC_NO_ENCODING`.
pub type TextcodecEncoding = u32;

/// No encoding: an unknown label, no BOM, "not given" in options.
pub const TEXTCODEC_NO_ENCODING: TextcodecEncoding = 0xFFFF_FFFF;

/// How many encodings there are (40); they are numbered from 0 in the Standard's order.
pub const TEXTCODEC_ENCODING_COUNT: u32 = 40;

/// UTF-8.
pub const TEXTCODEC_UTF_8: TextcodecEncoding = 0;
/// IBM866.
pub const TEXTCODEC_IBM866: TextcodecEncoding = 1;
/// ISO-8859-2.
pub const TEXTCODEC_ISO_8859_2: TextcodecEncoding = 2;
/// ISO-8859-3.
pub const TEXTCODEC_ISO_8859_3: TextcodecEncoding = 3;
/// ISO-8859-4.
pub const TEXTCODEC_ISO_8859_4: TextcodecEncoding = 4;
/// ISO-8859-5.
pub const TEXTCODEC_ISO_8859_5: TextcodecEncoding = 5;
/// ISO-8859-6.
pub const TEXTCODEC_ISO_8859_6: TextcodecEncoding = 6;
/// ISO-8859-7.
pub const TEXTCODEC_ISO_8859_7: TextcodecEncoding = 7;
/// ISO-8859-8.
pub const TEXTCODEC_ISO_8859_8: TextcodecEncoding = 8;
/// ISO-8859-8-I.
pub const TEXTCODEC_ISO_8859_8_I: TextcodecEncoding = 9;
/// ISO-8859-10.
pub const TEXTCODEC_ISO_8859_10: TextcodecEncoding = 10;
/// ISO-8859-13.
pub const TEXTCODEC_ISO_8859_13: TextcodecEncoding = 11;
/// ISO-8859-14.
pub const TEXTCODEC_ISO_8859_14: TextcodecEncoding = 12;
/// ISO-8859-15.
pub const TEXTCODEC_ISO_8859_15: TextcodecEncoding = 13;
/// ISO-8859-16.
pub const TEXTCODEC_ISO_8859_16: TextcodecEncoding = 14;
/// KOI8-R.
pub const TEXTCODEC_KOI8_R: TextcodecEncoding = 15;
/// KOI8-U.
pub const TEXTCODEC_KOI8_U: TextcodecEncoding = 16;
/// macintosh.
pub const TEXTCODEC_MACINTOSH: TextcodecEncoding = 17;
/// windows-874.
pub const TEXTCODEC_WINDOWS_874: TextcodecEncoding = 18;
/// windows-1250.
pub const TEXTCODEC_WINDOWS_1250: TextcodecEncoding = 19;
/// windows-1251.
pub const TEXTCODEC_WINDOWS_1251: TextcodecEncoding = 20;
/// windows-1252.
pub const TEXTCODEC_WINDOWS_1252: TextcodecEncoding = 21;
/// windows-1253.
pub const TEXTCODEC_WINDOWS_1253: TextcodecEncoding = 22;
/// windows-1254.
pub const TEXTCODEC_WINDOWS_1254: TextcodecEncoding = 23;
/// windows-1255.
pub const TEXTCODEC_WINDOWS_1255: TextcodecEncoding = 24;
/// windows-1256.
pub const TEXTCODEC_WINDOWS_1256: TextcodecEncoding = 25;
/// windows-1257.
pub const TEXTCODEC_WINDOWS_1257: TextcodecEncoding = 26;
/// windows-1258.
pub const TEXTCODEC_WINDOWS_1258: TextcodecEncoding = 27;
/// x-mac-cyrillic.
pub const TEXTCODEC_X_MAC_CYRILLIC: TextcodecEncoding = 28;
/// GBK.
pub const TEXTCODEC_GBK: TextcodecEncoding = 29;
/// gb18030.
pub const TEXTCODEC_GB18030: TextcodecEncoding = 30;
/// Big5.
pub const TEXTCODEC_BIG5: TextcodecEncoding = 31;
/// EUC-JP.
pub const TEXTCODEC_EUC_JP: TextcodecEncoding = 32;
/// ISO-2022-JP.
pub const TEXTCODEC_ISO_2022_JP: TextcodecEncoding = 33;
/// Shift_JIS.
pub const TEXTCODEC_SHIFT_JIS: TextcodecEncoding = 34;
/// EUC-KR.
pub const TEXTCODEC_EUC_KR: TextcodecEncoding = 35;
/// replacement.
pub const TEXTCODEC_REPLACEMENT: TextcodecEncoding = 36;
/// UTF-16BE.
pub const TEXTCODEC_UTF_16BE: TextcodecEncoding = 37;
/// UTF-16LE.
pub const TEXTCODEC_UTF_16LE: TextcodecEncoding = 38;
/// x-user-defined.
pub const TEXTCODEC_X_USER_DEFINED: TextcodecEncoding = 39;

/// The names, by encoding number (NUL-terminated for C; the tests compare them with
/// `Encoding::name`).
const NAMES: [&CStr; 40] = [
    c"UTF-8",
    c"IBM866",
    c"ISO-8859-2",
    c"ISO-8859-3",
    c"ISO-8859-4",
    c"ISO-8859-5",
    c"ISO-8859-6",
    c"ISO-8859-7",
    c"ISO-8859-8",
    c"ISO-8859-8-I",
    c"ISO-8859-10",
    c"ISO-8859-13",
    c"ISO-8859-14",
    c"ISO-8859-15",
    c"ISO-8859-16",
    c"KOI8-R",
    c"KOI8-U",
    c"macintosh",
    c"windows-874",
    c"windows-1250",
    c"windows-1251",
    c"windows-1252",
    c"windows-1253",
    c"windows-1254",
    c"windows-1255",
    c"windows-1256",
    c"windows-1257",
    c"windows-1258",
    c"x-mac-cyrillic",
    c"GBK",
    c"gb18030",
    c"Big5",
    c"EUC-JP",
    c"ISO-2022-JP",
    c"Shift_JIS",
    c"EUC-KR",
    c"replacement",
    c"UTF-16BE",
    c"UTF-16LE",
    c"x-user-defined",
];

/// The Rust encoding of a C number.
pub(crate) fn encoding_of(id: TextcodecEncoding) -> Option<Encoding> {
    Encoding::all().get(usize::try_from(id).ok()?).copied()
}

/// The C number of an encoding: its position in `Encoding::all()` (the declaration order,
/// which the tests check).
pub(crate) fn id_of(encoding: Encoding) -> TextcodecEncoding {
    encoding as u32
}

fn id_or_none(encoding: Option<Encoding>) -> TextcodecEncoding {
    encoding.map_or(TEXTCODEC_NO_ENCODING, id_of)
}

/// *Get an encoding* (#concept-encoding-get): the encoding for `label` after removing
/// leading and trailing ASCII whitespace, ASCII case-insensitively, or
/// `TEXTCODEC_NO_ENCODING`. The labels are ASCII; the bytes may come from any
/// ASCII-compatible text.
///
/// # Safety
/// `label` designates `label_len` readable bytes (`NULL` only if `label_len` is 0;
/// `NULL` with a length gives `TEXTCODEC_NO_ENCODING`).
#[no_mangle]
pub unsafe extern "C" fn textcodec_encoding_for_label(
    label: *const u8,
    label_len: usize,
) -> TextcodecEncoding {
    // SAFETY: the documented contract.
    match unsafe { slice(label, label_len) } {
        Some(label) => id_or_none(Encoding::for_label(label)),
        None => TEXTCODEC_NO_ENCODING,
    }
}

/// The encoding whose name (as `textcodec_encoding_name` gives it) is `name`, compared
/// ASCII case-insensitively without trimming, or `TEXTCODEC_NO_ENCODING`. Unlike labels,
/// this finds "replacement".
///
/// # Safety
/// `name` designates `name_len` readable bytes (`NULL` only if `name_len` is 0).
#[no_mangle]
pub unsafe extern "C" fn textcodec_encoding_for_name(
    name: *const u8,
    name_len: usize,
) -> TextcodecEncoding {
    // SAFETY: the documented contract.
    let Some(name) = (unsafe { slice(name, name_len) }) else {
        return TEXTCODEC_NO_ENCODING;
    };
    id_or_none(
        Encoding::all()
            .iter()
            .copied()
            .find(|e| e.name().as_bytes().eq_ignore_ascii_case(name)),
    )
}

/// The encoding's name as the Standard spells it (`"Shift_JIS"`, `"windows-1252"`): a
/// static NUL-terminated ASCII string, or `NULL` for a number that is not an encoding.
#[no_mangle]
pub extern "C" fn textcodec_encoding_name(encoding: TextcodecEncoding) -> *const c_char {
    usize::try_from(encoding)
        .ok()
        .and_then(|i| NAMES.get(i))
        .map_or(core::ptr::null(), |n| n.as_ptr())
}

/// *Get an output encoding* (#get-an-output-encoding): UTF-8 for replacement, UTF-16BE and
/// UTF-16LE, else the encoding itself; `TEXTCODEC_NO_ENCODING` for a number that is not
/// an encoding.
#[no_mangle]
pub extern "C" fn textcodec_encoding_output_encoding(
    encoding: TextcodecEncoding,
) -> TextcodecEncoding {
    id_or_none(encoding_of(encoding).map(Encoding::output_encoding))
}

/// Whether every ASCII byte decodes to the same ASCII code point and back (all but
/// UTF-16BE/LE, ISO-2022-JP and replacement). `false` for a number that is not an encoding.
#[no_mangle]
pub extern "C" fn textcodec_encoding_is_ascii_compatible(encoding: TextcodecEncoding) -> bool {
    encoding_of(encoding).is_some_and(Encoding::is_ascii_compatible)
}

/// Whether this is one of the 28 legacy single-byte encodings (x-user-defined is not).
#[no_mangle]
pub extern "C" fn textcodec_encoding_is_single_byte(encoding: TextcodecEncoding) -> bool {
    encoding_of(encoding).is_some_and(Encoding::is_single_byte)
}

/// Whether this is UTF-16BE or UTF-16LE.
#[no_mangle]
pub extern "C" fn textcodec_encoding_is_utf16(encoding: TextcodecEncoding) -> bool {
    encoding_of(encoding).is_some_and(Encoding::is_utf16)
}

/// Whether the Standard defines an encoder for it (all but replacement and UTF-16BE/LE;
/// `textcodec_encoder_new` also makes UTF-16 encoders, as an extension).
#[no_mangle]
pub extern "C" fn textcodec_encoding_has_encoder(encoding: TextcodecEncoding) -> bool {
    encoding_of(encoding).is_some_and(Encoding::has_encoder)
}

/// How many labels there are (228).
#[no_mangle]
pub extern "C" fn textcodec_label_count() -> usize {
    Encoding::labels().len()
}

fn label_strings() -> &'static [CString] {
    static LABELS: OnceLock<Vec<CString>> = OnceLock::new();
    LABELS.get_or_init(|| {
        Encoding::labels()
            .iter()
            .filter_map(|(label, _)| CString::new(*label).ok())
            .collect()
    })
}

/// The `index`-th label (sorted, lowercase; a static NUL-terminated string) and, if
/// `encoding_out` is not `NULL`, the encoding it names; `NULL` (and
/// `TEXTCODEC_NO_ENCODING`) past the end. The first call builds the table of
/// NUL-terminated labels once (a few kilobytes, kept for the life of the process).
///
/// # Safety
/// `encoding_out` is `NULL` or points to a writable `TextcodecEncoding`.
#[no_mangle]
pub unsafe extern "C" fn textcodec_label_at(
    index: usize,
    encoding_out: *mut TextcodecEncoding,
) -> *const c_char {
    let found = Encoding::labels()
        .get(index)
        .zip(label_strings().get(index));
    if !encoding_out.is_null() {
        // SAFETY: the caller's contract: a writable, aligned `TextcodecEncoding`.
        unsafe { *encoding_out = id_or_none(found.map(|((_, e), _)| *e)) };
    }
    found.map_or(core::ptr::null(), |(_, s)| s.as_ptr())
}

/// *BOM sniff* (#bom-sniff): UTF-8, UTF-16BE or UTF-16LE if `bytes` starts with that
/// encoding's byte order mark, else `TEXTCODEC_NO_ENCODING`. If `bom_length_out` is not
/// `NULL`, the BOM's length (3, 2 or 0) is written there.
///
/// # Safety
/// `bytes` designates `len` readable bytes (`NULL` only if `len` is 0);
/// `bom_length_out` is `NULL` or points to a writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn textcodec_bom_sniff(
    bytes: *const u8,
    len: usize,
    bom_length_out: *mut usize,
) -> TextcodecEncoding {
    // SAFETY: the documented contract.
    let found = unsafe { slice(bytes, len) }.and_then(textcodec::bom_sniff);
    if !bom_length_out.is_null() {
        let n = match found {
            Some(Encoding::Utf8) => 3,
            Some(_) => 2,
            None => 0,
        };
        // SAFETY: the caller's contract: a writable, aligned `size_t`.
        unsafe { *bom_length_out = n };
    }
    id_or_none(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_names_match_the_library() {
        assert_eq!(Encoding::all().len(), TEXTCODEC_ENCODING_COUNT as usize);
        for (i, &e) in Encoding::all().iter().enumerate() {
            assert_eq!(id_of(e) as usize, i, "{e:?}");
            assert_eq!(encoding_of(i as u32), Some(e));
            assert_eq!(NAMES[i].to_str().unwrap(), e.name());
        }
        assert_eq!(encoding_of(TEXTCODEC_ENCODING_COUNT), None);
        assert_eq!(encoding_of(TEXTCODEC_SHIFT_JIS), Some(Encoding::ShiftJis));
        assert_eq!(
            encoding_of(TEXTCODEC_X_USER_DEFINED),
            Some(Encoding::XUserDefined)
        );
        assert_eq!(label_strings().len(), Encoding::labels().len());
    }
}
