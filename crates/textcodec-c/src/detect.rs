//! Statistical detection of unlabelled bytes (`textcodec::detect`): the encoding, a
//! calibrated confidence, the language, binary data.

use core::ffi::c_char;
use std::ffi::CString;
use std::sync::OnceLock;

use textcodec::detect::{Binary, Detector, Guess, Hints, Language};
use textcodec::Encoding;

use crate::encoding::{encoding_of, id_of, TextcodecEncoding, TEXTCODEC_NO_ENCODING};
use crate::{free_handle, into_handle, slice, str_arg};

/// The detector's answer.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct TextcodecGuess {
    /// The guessed encoding.
    pub encoding: TextcodecEncoding,
    /// The probability that decoding with `encoding` gives the text the bytes were
    /// written as, calibrated on held-out text; 1 for ASCII-only input, 0 for binary data.
    pub confidence: f32,
    /// The winner's plausibility score (higher is better).
    pub score: f32,
    /// The winner's score minus the runner-up's (large means sure).
    pub margin: f32,
    /// The language of the text (`textcodec_language_code`), or -1 where the model does
    /// not tell it (UTF-8, UTF-16, ASCII-only, binary, no clear lead).
    pub language: i32,
    /// Why the input is binary data, not text (`textcodec_binary_name`), or -1 for text.
    pub binary: i32,
    /// No non-ASCII byte was seen: the guess is the hints' default.
    pub ascii_only: bool,
    /// The detector saturated before the end of the input.
    pub stopped_early: bool,
}

impl TextcodecGuess {
    pub(crate) fn none() -> Self {
        TextcodecGuess {
            encoding: TEXTCODEC_NO_ENCODING,
            confidence: 0.0,
            score: 0.0,
            margin: 0.0,
            language: -1,
            binary: -1,
            ascii_only: false,
            stopped_early: false,
        }
    }
}

/// Every binary format the detector names, by number (`Binary` is non-exhaustive: a
/// later one the list lacks gets the number past its end, "binary data").
const BINARY: [Binary; 24] = [
    Binary::Png,
    Binary::Gif,
    Binary::Jpeg,
    Binary::Webp,
    Binary::Tiff,
    Binary::Pdf,
    Binary::Zip,
    Binary::Gzip,
    Binary::Bzip2,
    Binary::Xz,
    Binary::Zstd,
    Binary::SevenZip,
    Binary::Rar,
    Binary::Elf,
    Binary::MachO,
    Binary::Wasm,
    Binary::Ogg,
    Binary::Flac,
    Binary::Mp3,
    Binary::Mp4,
    Binary::Matroska,
    Binary::Riff,
    Binary::Sqlite,
    Binary::ControlBytes,
];

pub(crate) fn guess_to_c(g: Guess) -> TextcodecGuess {
    TextcodecGuess {
        encoding: id_of(g.encoding),
        confidence: g.confidence,
        score: g.score,
        margin: g.margin,
        language: g
            .language
            .and_then(|l| Language::all().position(|x| x == l))
            .map_or(-1, |i| i as i32),
        binary: g.binary.map_or(-1, |b| {
            BINARY.iter().position(|&x| x == b).unwrap_or(BINARY.len()) as i32
        }),
        ascii_only: g.ascii_only,
        stopped_early: g.stopped_early,
    }
}

/// Hints about the input's origin. Start from `textcodec_detect_hints_default()`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct TextcodecDetectHints {
    /// The top-level domain the bytes came from (`"jp"`), or `NULL`.
    pub tld: *const u8,
    /// Length of `tld` in bytes.
    pub tld_len: usize,
    /// The user's locale as a UTF-8 language tag (`"ru"`, `"zh-Hant"`), or `NULL`.
    pub locale: *const c_char,
    /// Length of `locale` in bytes.
    pub locale_len: usize,
    /// Whether UTF-8 is an allowed answer (the default hints: yes).
    pub allow_utf8: bool,
    /// Only these encodings may be the answer, or `NULL` for every candidate.
    pub allow: *const TextcodecEncoding,
    /// Length of `allow` (ignored when `allow` is `NULL`).
    pub allow_len: usize,
    /// These encodings may not be the answer (`NULL`: none denied).
    pub deny: *const TextcodecEncoding,
    /// Length of `deny`.
    pub deny_len: usize,
}

/// No TLD, no locale, every candidate allowed (UTF-8 included).
#[no_mangle]
pub extern "C" fn textcodec_detect_hints_default() -> TextcodecDetectHints {
    TextcodecDetectHints {
        tld: core::ptr::null(),
        tld_len: 0,
        locale: core::ptr::null(),
        locale_len: 0,
        allow_utf8: true,
        allow: core::ptr::null(),
        allow_len: 0,
        deny: core::ptr::null(),
        deny_len: 0,
    }
}

/// Encodings from C numbers into a fixed array (a list longer than the 40 encodings
/// repeats some; they are dropped): `None` if one is not an encoding.
fn encodings(ids: &[TextcodecEncoding], out: &mut [Encoding; 40]) -> Option<usize> {
    let mut n = 0;
    for &id in ids {
        let e = encoding_of(id)?;
        let seen = out.get(..n).unwrap_or_default();
        if !seen.contains(&e) {
            if let Some(slot) = out.get_mut(n) {
                *slot = e;
                n += 1;
            }
        }
    }
    Some(n)
}

/// Runs `f` with the Rust hints for `hints` (`NULL`: the defaults); `None` for invalid
/// hints.
///
/// # Safety
/// `hints` is `NULL` or points to readable hints whose pointers designate their lengths'
/// worth of readable elements.
unsafe fn with_hints<R>(
    hints: *const TextcodecDetectHints,
    f: impl FnOnce(&Hints<'_>) -> R,
) -> Option<R> {
    // SAFETY: the documented contract.
    let h = unsafe { hints.as_ref() }
        .copied()
        .unwrap_or_else(|| textcodec_detect_hints_default());
    // SAFETY: the documented contract, for each pointer.
    let tld = unsafe { slice(h.tld, h.tld_len) }?;
    let locale = if h.locale.is_null() {
        None
    } else {
        // SAFETY: the documented contract.
        Some(unsafe { str_arg(h.locale, h.locale_len) }?)
    };
    let mut allow = [Encoding::Utf8; 40];
    let mut deny = [Encoding::Utf8; 40];
    let allow_len = if h.allow.is_null() {
        None
    } else {
        // SAFETY: the documented contract.
        Some(encodings(
            unsafe { slice(h.allow, h.allow_len) }?,
            &mut allow,
        )?)
    };
    // SAFETY: the documented contract.
    let deny_len = encodings(unsafe { slice(h.deny, h.deny_len) }?, &mut deny)?;
    let rust = Hints {
        tld: (!h.tld.is_null()).then_some(tld),
        allow_utf8: h.allow_utf8,
        locale,
        allow: allow_len.and_then(|n| allow.get(..n)),
        deny: deny.get(..deny_len).unwrap_or_default(),
    };
    Some(f(&rust))
}

/// Detects the encoding of a whole input in one call and writes the guess to
/// `*guess_out`. `hints` may be `NULL` (the defaults). Returns `false` (and writes
/// nothing) for invalid arguments: a `NULL` guess, a `NULL` pointer with a length, an
/// encoding number that is not one, a locale that is not UTF-8.
///
/// # Safety
/// `bytes` designates `len` readable bytes; `hints` is `NULL` or points to readable
/// hints whose pointers designate their lengths' worth of readable elements; `guess_out`
/// points to a writable `TextcodecGuess`.
#[no_mangle]
pub unsafe extern "C" fn textcodec_detect(
    bytes: *const u8,
    len: usize,
    hints: *const TextcodecDetectHints,
    guess_out: *mut TextcodecGuess,
) -> bool {
    if guess_out.is_null() {
        return false;
    }
    // SAFETY: the documented contract.
    let Some(bytes) = (unsafe { slice(bytes, len) }) else {
        return false;
    };
    // SAFETY: the documented contract.
    let Some(guess) = (unsafe { with_hints(hints, |h| textcodec::detect::detect(bytes, h)) })
    else {
        return false;
    };
    // SAFETY: the documented contract: a writable guess.
    unsafe { guess_out.write(guess_to_c(guess)) };
    true
}

/// A streaming detector (opaque): `textcodec_detector_new`, `textcodec_detector_free`.
pub struct TextcodecDetector {
    inner: Detector,
}

/// A detector that has seen nothing, allocated on the heap (about 10 KiB); free it with
/// `textcodec_detector_free`.
#[no_mangle]
pub extern "C" fn textcodec_detector_new() -> *mut TextcodecDetector {
    into_handle(TextcodecDetector {
        inner: Detector::new(),
    })
}

/// Frees a detector; `NULL` is ignored.
///
/// # Safety
/// `detector` is `NULL` or a detector from `textcodec_detector_new` not yet freed.
#[no_mangle]
pub unsafe extern "C" fn textcodec_detector_free(detector: *mut TextcodecDetector) {
    // SAFETY: the documented contract.
    unsafe { free_handle(detector) }
}

/// Feeds the next chunk (split anywhere); `last` marks the end of the input. Returns
/// `true` once the detector has stopped looking (it saturated, or `last` was seen; later
/// calls are ignored), and `true` for invalid arguments too (nothing more to feed).
///
/// # Safety
/// `detector` is a live detector (or `NULL`); `bytes` designates `len` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn textcodec_detector_feed(
    detector: *mut TextcodecDetector,
    bytes: *const u8,
    len: usize,
    last: bool,
) -> bool {
    // SAFETY: the documented contract.
    match (unsafe { detector.as_mut() }, unsafe { slice(bytes, len) }) {
        (Some(d), Some(bytes)) => d.inner.feed(bytes, last),
        _ => true,
    }
}

/// The guess for the input fed so far, written to `*guess_out`; see `textcodec_detect`
/// for the hints and the return value (`false` also for a `NULL` detector).
///
/// # Safety
/// `detector` is a live detector (or `NULL`); `hints` and `guess_out` as in
/// `textcodec_detect`.
#[no_mangle]
pub unsafe extern "C" fn textcodec_detector_guess(
    detector: *const TextcodecDetector,
    hints: *const TextcodecDetectHints,
    guess_out: *mut TextcodecGuess,
) -> bool {
    // SAFETY: the documented contract.
    let Some(d) = (unsafe { detector.as_ref() }) else {
        return false;
    };
    if guess_out.is_null() {
        return false;
    }
    // SAFETY: the documented contract.
    let Some(guess) = (unsafe { with_hints(hints, |h| d.inner.guess(h)) }) else {
        return false;
    };
    // SAFETY: the documented contract: a writable guess.
    unsafe { guess_out.write(guess_to_c(guess)) };
    true
}

/// How many bytes the detector examined (0 for `NULL`).
///
/// # Safety
/// `detector` is `NULL` or a live detector.
#[no_mangle]
pub unsafe extern "C" fn textcodec_detector_bytes_examined(
    detector: *const TextcodecDetector,
) -> u64 {
    // SAFETY: the documented contract.
    unsafe { detector.as_ref() }.map_or(0, |d| d.inner.bytes_examined())
}

fn languages() -> &'static [(CString, CString)] {
    static LANGUAGES: OnceLock<Vec<(CString, CString)>> = OnceLock::new();
    LANGUAGES.get_or_init(|| {
        Language::all()
            .filter_map(|l| Some((CString::new(l.code()).ok()?, CString::new(l.name()).ok()?)))
            .collect()
    })
}

/// How many languages the detector can name; they are numbered from 0.
#[no_mangle]
pub extern "C" fn textcodec_language_count() -> usize {
    Language::all().count()
}

fn language(id: i32) -> Option<&'static (CString, CString)> {
    languages().get(usize::try_from(id).ok()?)
}

/// A language's BCP 47 code (`"ru"`, `"zh"`): a static NUL-terminated string, or `NULL`
/// for a number that is not a language (-1 included). The first call of this or
/// `textcodec_language_name` copies the names into a table once (a few kilobytes, kept
/// for the life of the process); so does `textcodec_binary_name` for its names.
#[no_mangle]
pub extern "C" fn textcodec_language_code(language_id: i32) -> *const c_char {
    language(language_id).map_or(core::ptr::null(), |l| l.0.as_ptr())
}

/// A language's English name (`"Russian"`); see `textcodec_language_code`.
#[no_mangle]
pub extern "C" fn textcodec_language_name(language_id: i32) -> *const c_char {
    language(language_id).map_or(core::ptr::null(), |l| l.1.as_ptr())
}

/// The number of the language with this code (ASCII case-insensitive), or -1.
///
/// # Safety
/// `code` designates `code_len` readable bytes (`NULL` only if `code_len` is 0).
#[no_mangle]
pub unsafe extern "C" fn textcodec_language_for_code(code: *const c_char, code_len: usize) -> i32 {
    // SAFETY: the documented contract.
    let Some(code) = (unsafe { str_arg(code, code_len) }) else {
        return -1;
    };
    Language::from_code(code)
        .and_then(|l| Language::all().position(|x| x == l))
        .map_or(-1, |i| i as i32)
}

/// A binary format's short name (`"PNG"`, `"gzip"`, `"control bytes"`) for
/// `TextcodecGuess.binary`: a static NUL-terminated string, or `NULL` for -1 and numbers
/// past the list.
#[no_mangle]
pub extern "C" fn textcodec_binary_name(binary_id: i32) -> *const c_char {
    static NAMES: OnceLock<Vec<CString>> = OnceLock::new();
    let names = NAMES.get_or_init(|| {
        BINARY
            .iter()
            .filter_map(|b| CString::new(b.name()).ok())
            .chain(CString::new("binary data").ok())
            .collect()
    });
    usize::try_from(binary_id)
        .ok()
        .and_then(|i| names.get(i))
        .map_or(core::ptr::null(), |n| n.as_ptr())
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::ffi::CStr;

    #[test]
    fn binary_names_follow_the_list() {
        for (i, b) in BINARY.iter().enumerate() {
            let name = unsafe { CStr::from_ptr(textcodec_binary_name(i as i32)) };
            assert_eq!(name.to_str().unwrap(), b.name());
        }
        assert!(textcodec_binary_name(-1).is_null());
    }
}
