//! Encoding (#encoders-and-decoders, *encode or fail*, the html error mode) from the
//! caller's UTF-8 or UTF-16 into its byte buffers: the streaming encoder and one-shot
//! calls.
//!
//! C text is not known to be UTF-8, so the UTF-8 entry points validate it as they encode
//! (`Encoder::encode_from_maybe_utf8`: one pass over the bytes) and report what is not
//! UTF-8 as `TEXTCODEC_MALFORMED`. A
//! character cut by the end of a call's input (not the last) is kept in the encoder until
//! the next call completes it, so input may be split anywhere.

use textcodec::{EncodeErrorMode, EncodeResult, EncodeStatus, Encoder};

use crate::encoding::{encoding_of, id_of, TextcodecEncoding, TEXTCODEC_NO_ENCODING};
use crate::{
    buffers, free_handle, into_handle, TEXTCODEC_INPUT_EMPTY, TEXTCODEC_INVALID_ARGUMENT,
    TEXTCODEC_MALFORMED, TEXTCODEC_OUTPUT_FULL, TEXTCODEC_UNMAPPABLE,
};

/// Error mode *fatal* (*encode or fail*): stop at each unencodable character
/// (`TEXTCODEC_UNMAPPABLE`).
pub const TEXTCODEC_ENCODE_FATAL: u32 = 0;
/// Error mode *html*: write `&#N;` (decimal) for each unencodable character, as forms do.
pub const TEXTCODEC_ENCODE_HTML: u32 = 1;
/// textcodec extension: write `?` for each unencodable character.
pub const TEXTCODEC_ENCODE_REPLACE: u32 = 2;

/// A streaming encoder (opaque): `textcodec_encoder_new`, `textcodec_encoder_free`.
pub struct TextcodecEncoder {
    inner: Encoder,
    /// The first bytes of a UTF-8 character cut by the end of the previous input.
    pending: [u8; 4],
    pending_len: usize,
}

/// What an encode call did.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct TextcodecEncodeResult {
    /// `TEXTCODEC_INPUT_EMPTY`, `TEXTCODEC_OUTPUT_FULL`, `TEXTCODEC_UNMAPPABLE` (fatal
    /// mode), `TEXTCODEC_MALFORMED` (UTF-8 input that is not UTF-8) or
    /// `TEXTCODEC_INVALID_ARGUMENT`.
    pub status: u32,
    /// Input consumed: bytes of UTF-8 or `uint16_t` units. With `TEXTCODEC_UNMAPPABLE` and
    /// `TEXTCODEC_MALFORMED`, up to and including the character or bytes at fault.
    pub read: usize,
    /// Bytes written.
    pub written: usize,
    /// `TEXTCODEC_UNMAPPABLE`: the input character (U+FFFD for a lone surrogate).
    pub unmappable_character: u32,
    /// `TEXTCODEC_UNMAPPABLE`: the code point the Standard's error carries (what *encode or
    /// fail* returns and the html mode writes): the character, except U+FFFD for U+000E,
    /// U+000F and U+001B in ISO-2022-JP.
    pub unmappable_code_point: u32,
    /// `TEXTCODEC_MALFORMED`: how many bytes are not UTF-8 (they end at `read`; with a
    /// character cut in an earlier call, some came then).
    pub malformed_length: usize,
}

impl TextcodecEncodeResult {
    fn invalid() -> Self {
        TextcodecEncodeResult {
            status: TEXTCODEC_INVALID_ARGUMENT,
            read: 0,
            written: 0,
            unmappable_character: 0,
            unmappable_code_point: 0,
            malformed_length: 0,
        }
    }

    fn from_rust(r: EncodeResult) -> Self {
        let mut out = TextcodecEncodeResult {
            status: TEXTCODEC_INPUT_EMPTY,
            read: r.read,
            written: r.written,
            ..TextcodecEncodeResult::invalid()
        };
        match r.status {
            EncodeStatus::InputEmpty => {}
            EncodeStatus::OutputFull => out.status = TEXTCODEC_OUTPUT_FULL,
            EncodeStatus::Unmappable(u) => {
                out.status = TEXTCODEC_UNMAPPABLE;
                out.unmappable_character = u32::from(u.character());
                out.unmappable_code_point = u32::from(u.code_point());
            }
        }
        out
    }

    fn malformed(read: usize, written: usize, length: usize) -> Self {
        TextcodecEncodeResult {
            status: TEXTCODEC_MALFORMED,
            read,
            written,
            malformed_length: length,
            ..TextcodecEncodeResult::invalid()
        }
    }
}

fn mode(error_mode: u32) -> Option<EncodeErrorMode> {
    match error_mode {
        TEXTCODEC_ENCODE_FATAL => Some(EncodeErrorMode::Fatal),
        TEXTCODEC_ENCODE_HTML => Some(EncodeErrorMode::Html),
        TEXTCODEC_ENCODE_REPLACE => Some(EncodeErrorMode::Replace),
        _ => None,
    }
}

/// An encoder for `encoding` in an error mode (`TEXTCODEC_ENCODE_*`), allocated on the
/// heap; free it with `textcodec_encoder_free`. `NULL` for replacement (which has no
/// encoder: use `textcodec_encoding_output_encoding` first), an unknown encoding or mode.
/// UTF-16BE/LE encoders are a textcodec extension (the Standard's callers use the output
/// encoding, UTF-8).
#[no_mangle]
pub extern "C" fn textcodec_encoder_new(
    encoding: TextcodecEncoding,
    error_mode: u32,
) -> *mut TextcodecEncoder {
    let Some(inner) = encoding_of(encoding)
        .zip(mode(error_mode))
        .and_then(|(e, m)| Encoder::new(e, m))
    else {
        return core::ptr::null_mut();
    };
    into_handle(TextcodecEncoder {
        inner,
        pending: [0; 4],
        pending_len: 0,
    })
}

/// Frees an encoder; `NULL` is ignored.
///
/// # Safety
/// `encoder` is `NULL` or an encoder from `textcodec_encoder_new` not yet freed.
#[no_mangle]
pub unsafe extern "C" fn textcodec_encoder_free(encoder: *mut TextcodecEncoder) {
    // SAFETY: the documented contract.
    unsafe { free_handle(encoder) }
}

/// # Safety
/// `encoder` is `NULL` or a live encoder not used elsewhere during the borrow.
unsafe fn encoder_ref<'a>(encoder: *const TextcodecEncoder) -> Option<&'a TextcodecEncoder> {
    // SAFETY: the caller's contract.
    unsafe { encoder.as_ref() }
}

/// # Safety
/// As [`encoder_ref`], exclusively.
unsafe fn encoder_mut<'a>(encoder: *mut TextcodecEncoder) -> Option<&'a mut TextcodecEncoder> {
    // SAFETY: the caller's contract.
    unsafe { encoder.as_mut() }
}

/// Starts a new stream (ISO-2022-JP back in ASCII, nothing pending).
///
/// # Safety
/// `encoder` is `NULL` (ignored) or a live encoder.
#[no_mangle]
pub unsafe extern "C" fn textcodec_encoder_reset(encoder: *mut TextcodecEncoder) {
    // SAFETY: the documented contract.
    if let Some(e) = unsafe { encoder_mut(encoder) } {
        e.inner.reset();
        e.pending_len = 0;
    }
}

/// The encoding this encoder writes (`TEXTCODEC_NO_ENCODING` for `NULL`).
///
/// # Safety
/// `encoder` is `NULL` or a live encoder.
#[no_mangle]
pub unsafe extern "C" fn textcodec_encoder_encoding(
    encoder: *const TextcodecEncoder,
) -> TextcodecEncoding {
    // SAFETY: the documented contract.
    unsafe { encoder_ref(encoder) }.map_or(TEXTCODEC_NO_ENCODING, |e| id_of(e.inner.encoding()))
}

/// Changes the error mode from the next call on, keeping the stream's state. `false`
/// (nothing changed) for `NULL` or an unknown mode.
///
/// # Safety
/// `encoder` is `NULL` or a live encoder.
#[no_mangle]
pub unsafe extern "C" fn textcodec_encoder_set_error_mode(
    encoder: *mut TextcodecEncoder,
    error_mode: u32,
) -> bool {
    // SAFETY: the documented contract.
    let (Some(e), Some(m)) = (unsafe { encoder_mut(encoder) }, mode(error_mode)) else {
        return false;
    };
    e.inner.set_error_mode(m);
    true
}

/// How many unencodable characters this encoder met over its life, in any mode (0 for
/// `NULL`).
///
/// # Safety
/// `encoder` is `NULL` or a live encoder.
#[no_mangle]
pub unsafe extern "C" fn textcodec_encoder_unmappables(encoder: *const TextcodecEncoder) -> u64 {
    // SAFETY: the documented contract.
    unsafe { encoder_ref(encoder) }.map_or(0, |e| e.inner.unmappables())
}

/// The most bytes encoding `byte_length` more bytes of UTF-8 with `last` set can write
/// in the encoder's current mode (so a buffer this long never sees
/// `TEXTCODEC_OUTPUT_FULL`); `SIZE_MAX` on overflow or for `NULL`.
///
/// # Safety
/// `encoder` is `NULL` or a live encoder.
#[no_mangle]
pub unsafe extern "C" fn textcodec_encoder_max_buffer_length_from_utf8(
    encoder: *const TextcodecEncoder,
    byte_length: usize,
) -> usize {
    // SAFETY: the documented contract.
    unsafe { encoder_ref(encoder) }
        .and_then(|e| {
            // Bytes held from a cut character come back as part of the next one.
            let n = byte_length.checked_add(e.pending_len)?;
            e.inner.max_buffer_length_from_utf8(n)
        })
        .unwrap_or(usize::MAX)
}

/// The most bytes encoding `unit_length` more UTF-16 units with `last` set can write;
/// see `textcodec_encoder_max_buffer_length_from_utf8`.
///
/// # Safety
/// `encoder` is `NULL` or a live encoder.
#[no_mangle]
pub unsafe extern "C" fn textcodec_encoder_max_buffer_length_from_utf16(
    encoder: *const TextcodecEncoder,
    unit_length: usize,
) -> usize {
    // SAFETY: the documented contract.
    unsafe { encoder_ref(encoder) }
        .and_then(|e| e.inner.max_buffer_length_from_utf16(unit_length))
        .unwrap_or(usize::MAX)
}

/// The length of the UTF-8 sequence a lead byte starts (2–4), for a byte that begins a
/// valid prefix.
fn sequence_length(lead: u8) -> usize {
    match lead {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        _ => 2,
    }
}

impl TextcodecEncoder {
    fn encode_utf8(&mut self, src: &[u8], dst: &mut [u8], last: bool) -> TextcodecEncodeResult {
        let mut read = 0usize;
        let mut written = 0usize;
        if self.pending_len > 0 {
            match self.finish_pending(src, dst, last) {
                Ok((r, w)) => {
                    read = r;
                    written = w;
                }
                Err(result) => return result,
            }
        }
        let rest = src.get(read..).unwrap_or_default();
        let out = dst.get_mut(written..).unwrap_or_default();
        // One pass: the encoder validates as it encodes and stops before the first
        // sequence that is not UTF-8 (or is cut by the end of `rest`).
        let r = self.inner.encode_from_maybe_utf8(rest, out);
        let taken = r.read;
        let mut result = TextcodecEncodeResult::from_rust(r);
        result.read = result.read.saturating_add(read);
        result.written = result.written.saturating_add(written);
        if result.status != TEXTCODEC_INPUT_EMPTY {
            return result;
        }
        let tail = rest.get(taken..).unwrap_or_default();
        if tail.is_empty() {
            if last {
                // End of the stream (ISO-2022-JP's return to ASCII), if it fits.
                let out = dst.get_mut(result.written..).unwrap_or_default();
                let f = self.inner.encode_from_utf8("", out, true);
                result.written = result.written.saturating_add(f.written);
                if f.status == EncodeStatus::OutputFull {
                    result.status = TEXTCODEC_OUTPUT_FULL;
                }
            }
            return result;
        }
        let head = tail.get(..tail.len().min(4)).unwrap_or(tail);
        let bad = match core::str::from_utf8(head) {
            // Cut by the end of the input.
            Err(e)
                if e.valid_up_to() == 0 && e.error_len().is_none() && head.len() == tail.len() =>
            {
                None
            }
            Err(e) if e.valid_up_to() == 0 => e.error_len(),
            // The encoder stopped before text `core::str` takes: not expected; report one
            // byte, so the caller can go on.
            _ => Some(1),
        };
        match bad {
            None if !last => {
                // A character cut by the end of the input: keep it for the next call.
                let n = tail.len().min(3);
                if let (Some(d), Some(s)) = (self.pending.get_mut(..n), tail.get(..n)) {
                    d.copy_from_slice(s);
                }
                self.pending_len = n;
                result.read = src.len();
                result
            }
            _ => {
                let len = bad.unwrap_or(tail.len());
                TextcodecEncodeResult::malformed(
                    result.read.saturating_add(len),
                    result.written,
                    len,
                )
            }
        }
    }

    /// Completes the character whose first bytes are pending with the first bytes of `src`
    /// and encodes it: `Ok((read, written))` to go on, `Err` to return that result.
    fn finish_pending(
        &mut self,
        src: &[u8],
        dst: &mut [u8],
        last: bool,
    ) -> Result<(usize, usize), TextcodecEncodeResult> {
        let have = self.pending_len;
        let need = sequence_length(self.pending.first().copied().unwrap_or(0));
        let mut bytes = self.pending;
        let mut taken = 0usize;
        while have + taken < need {
            match src.get(taken) {
                Some(&b) if (0x80..=0xBF).contains(&b) => {
                    if let Some(slot) = bytes.get_mut(have + taken) {
                        *slot = b;
                    }
                    taken += 1;
                }
                // Not a continuation byte: the pending bytes are malformed.
                Some(_) => {
                    self.pending_len = 0;
                    return Err(TextcodecEncodeResult::malformed(taken, 0, have + taken));
                }
                None if last => {
                    self.pending_len = 0;
                    return Err(TextcodecEncodeResult::malformed(taken, 0, have + taken));
                }
                None => {
                    // Still cut: keep what came.
                    self.pending = bytes;
                    self.pending_len = have + taken;
                    return Err(TextcodecEncodeResult {
                        status: TEXTCODEC_INPUT_EMPTY,
                        read: src.len(),
                        ..TextcodecEncodeResult::invalid()
                    });
                }
            }
        }
        let Some(Ok(c)) = bytes.get(..need).map(core::str::from_utf8) else {
            // Continuation bytes that make no character (an overlong form, a surrogate, a
            // value past U+10FFFF): the malformed sequence is the pending lead and the
            // bytes the Standard's decoder would have taken with it.
            self.pending_len = 0;
            return Err(TextcodecEncodeResult::malformed(taken, 0, have + taken));
        };
        let more = src.len() > taken;
        let r = self.inner.encode_from_utf8(c, dst, last && !more);
        match r.status {
            EncodeStatus::OutputFull => Err(TextcodecEncodeResult::from_rust(EncodeResult {
                read: 0,
                ..r
            })),
            EncodeStatus::Unmappable(_) => {
                self.pending_len = 0;
                Err(TextcodecEncodeResult::from_rust(EncodeResult {
                    read: taken,
                    ..r
                }))
            }
            EncodeStatus::InputEmpty => {
                self.pending_len = 0;
                Ok((taken, r.written))
            }
        }
    }
}

/// Encodes UTF-8 from `src` into `dst`. Give the text in pieces split anywhere (even
/// inside a character) with `last` false, then end the stream with `last` true (an empty
/// `src` is fine: ISO-2022-JP then writes its return to ASCII); after a `last` call that
/// returns `TEXTCODEC_INPUT_EMPTY` the encoder starts a new stream. Bytes that are not
/// UTF-8 stop the call with `TEXTCODEC_MALFORMED` once the text before them is encoded;
/// call again after them (`read`) to go on.
///
/// # Safety
/// `encoder` is a live encoder (`NULL` gives `TEXTCODEC_INVALID_ARGUMENT`); `src`
/// designates `src_len` readable bytes and `dst` `dst_len` writable bytes
/// (`NULL` only with length 0). Buffers that overlap are refused
/// (`TEXTCODEC_INVALID_ARGUMENT`).
#[no_mangle]
pub unsafe extern "C" fn textcodec_encoder_encode_from_utf8(
    encoder: *mut TextcodecEncoder,
    src: *const u8,
    src_len: usize,
    dst: *mut u8,
    dst_len: usize,
    last: bool,
) -> TextcodecEncodeResult {
    // SAFETY: the documented contract.
    let (Some(e), Some((src, dst))) = (unsafe { encoder_mut(encoder) }, unsafe {
        buffers(src, src_len, dst, dst_len)
    }) else {
        return TextcodecEncodeResult::invalid();
    };
    e.encode_utf8(src, dst, last)
}

/// Encodes UTF-16 (native byte order) from `src` into `dst`. Lone surrogates become
/// U+FFFD (then encoded, or an error if the encoding lacks it); a pair split between two
/// calls is joined. Otherwise as `textcodec_encoder_encode_from_utf8`.
///
/// # Safety
/// As `textcodec_encoder_encode_from_utf8`, with `src` designating `src_len` readable,
/// 2-byte-aligned `uint16_t`.
#[no_mangle]
pub unsafe extern "C" fn textcodec_encoder_encode_from_utf16(
    encoder: *mut TextcodecEncoder,
    src: *const u16,
    src_len: usize,
    dst: *mut u8,
    dst_len: usize,
    last: bool,
) -> TextcodecEncodeResult {
    // SAFETY: the documented contract.
    let (Some(e), Some((src, dst))) = (unsafe { encoder_mut(encoder) }, unsafe {
        buffers(src, src_len, dst, dst_len)
    }) else {
        return TextcodecEncodeResult::invalid();
    };
    TextcodecEncodeResult::from_rust(e.inner.encode_from_utf16(src, dst, last))
}

/// The output length that always suffices for `textcodec_encode_from_utf8` of
/// `byte_length` bytes to `encoding` in `error_mode`; `SIZE_MAX` on overflow, for
/// replacement or an unknown encoding or mode.
#[no_mangle]
pub extern "C" fn textcodec_encode_max_length_from_utf8(
    encoding: TextcodecEncoding,
    error_mode: u32,
    byte_length: usize,
) -> usize {
    encoding_of(encoding)
        .zip(mode(error_mode))
        .and_then(|(e, m)| Encoder::new(e, m))
        .and_then(|e| e.max_buffer_length_from_utf8(byte_length))
        .unwrap_or(usize::MAX)
}

/// The output length that always suffices for `textcodec_encode_from_utf16` of
/// `unit_length` units; see `textcodec_encode_max_length_from_utf8`.
#[no_mangle]
pub extern "C" fn textcodec_encode_max_length_from_utf16(
    encoding: TextcodecEncoding,
    error_mode: u32,
    unit_length: usize,
) -> usize {
    encoding_of(encoding)
        .zip(mode(error_mode))
        .and_then(|(e, m)| Encoder::new(e, m))
        .and_then(|e| e.max_buffer_length_from_utf16(unit_length))
        .unwrap_or(usize::MAX)
}

/// Encodes a whole UTF-8 text in one call (an encoder on the stack, `last` set).
/// `TEXTCODEC_INVALID_ARGUMENT` for replacement (use its output encoding). With a buffer
/// of `textcodec_encode_max_length_from_utf8` bytes the status is `TEXTCODEC_INPUT_EMPTY`,
/// or in fatal mode `TEXTCODEC_UNMAPPABLE` at the first unencodable character (the text
/// before it written), or `TEXTCODEC_MALFORMED` where `src` is not UTF-8.
///
/// # Safety
/// `src` designates `src_len` readable bytes and `dst` `dst_len` writable bytes
/// (`NULL` only with length 0). Buffers that overlap are refused
/// (`TEXTCODEC_INVALID_ARGUMENT`).
#[no_mangle]
pub unsafe extern "C" fn textcodec_encode_from_utf8(
    encoding: TextcodecEncoding,
    error_mode: u32,
    src: *const u8,
    src_len: usize,
    dst: *mut u8,
    dst_len: usize,
) -> TextcodecEncodeResult {
    let Some(inner) = encoding_of(encoding)
        .zip(mode(error_mode))
        .and_then(|(e, m)| Encoder::new(e, m))
    else {
        return TextcodecEncodeResult::invalid();
    };
    // SAFETY: the documented contract.
    let Some((src, dst)) = (unsafe { buffers(src, src_len, dst, dst_len) }) else {
        return TextcodecEncodeResult::invalid();
    };
    let mut e = TextcodecEncoder {
        inner,
        pending: [0; 4],
        pending_len: 0,
    };
    e.encode_utf8(src, dst, true)
}

/// [`textcodec_encode_from_utf8`] from UTF-16 (native byte order; lone surrogates become
/// U+FFFD).
///
/// # Safety
/// As `textcodec_encode_from_utf8`, with `src` designating `src_len` readable,
/// 2-byte-aligned `uint16_t`.
#[no_mangle]
pub unsafe extern "C" fn textcodec_encode_from_utf16(
    encoding: TextcodecEncoding,
    error_mode: u32,
    src: *const u16,
    src_len: usize,
    dst: *mut u8,
    dst_len: usize,
) -> TextcodecEncodeResult {
    let Some(mut e) = encoding_of(encoding)
        .zip(mode(error_mode))
        .and_then(|(e, m)| Encoder::new(e, m))
    else {
        return TextcodecEncodeResult::invalid();
    };
    // SAFETY: the documented contract.
    let Some((src, dst)) = (unsafe { buffers(src, src_len, dst, dst_len) }) else {
        return TextcodecEncodeResult::invalid();
    };
    TextcodecEncodeResult::from_rust(e.encode_from_utf16(src, dst, true))
}
