//! Decoding: one-shot ([`tc_decode`]), incremental ([`tc_decoder_new`] …) and the
//! Standard's `TextDecoder` ([`tc_td_new`] …).

use alloc::boxed::Box;
use alloc::vec::Vec;

use textcodec::{BomHandling, DecodeErrorMode, DecodeStatus, Decoder, DecoderOptions, Encoding};

use crate::{encoding, input, set_output, set_slot, slot, Output, ONCE};

fn report_malformed(m: &textcodec::MalformedSequence, base: u64) {
    let offset = m.offset().saturating_sub(base);
    set_slot(3, offset as u32);
    set_slot(4, (offset >> 32) as u32);
    let bytes = m.bytes();
    set_slot(5, bytes.len() as u32);
    let mut packed = [0u8; 8];
    for (cell, &b) in packed.iter_mut().zip(bytes) {
        *cell = b;
    }
    set_slot(
        6,
        u32::from_le_bytes([packed[0], packed[1], packed[2], packed[3]]),
    );
    set_slot(
        7,
        u32::from_le_bytes([packed[4], packed[5], packed[6], packed[7]]),
    );
}

fn bom_handling(bom: u32) -> BomHandling {
    match bom {
        0 => BomHandling::Sniff,
        1 => BomHandling::Remove,
        _ => BomHandling::Keep,
    }
}

pub(crate) fn decoder_options(fatal: u32, bom: u32) -> DecoderOptions {
    DecoderOptions {
        error_mode: if fatal != 0 {
            DecodeErrorMode::Fatal
        } else {
            DecodeErrorMode::Replacement
        },
        bom: bom_handling(bom),
    }
}

/// Runs `decoder` over `src` into `out.units` (cleared first); 0 when done, 1 on a
/// malformed sequence in fatal mode (details in the result slots; `[2]` is the input
/// consumed, the sequence included). Text leaves as UTF-16 only: JavaScript builds strings
/// from it fastest in every host measured, and one decoder loop instead of two (UTF-8 and
/// UTF-16 output) keeps the module smaller and its first call's compilation shorter.
fn run_decoder(decoder: &mut Decoder, src: &[u8], last: bool, out: &mut Output) -> u32 {
    let start = decoder.position();
    out.units.clear();
    let r = decoder.decode_to_utf16_vec(src, &mut out.units, last);
    set_output(out.units.as_ptr().cast(), out.units.len());
    set_slot(2, r.read as u32);
    match r.status {
        DecodeStatus::Malformed(m) => {
            report_malformed(&m, start);
            1
        }
        _ => 0,
    }
}

/// One-shot decode of `len` bytes at `ptr` (`bom`: 0 sniff, 1 remove, 2 keep).
///
/// # Safety
/// `ptr` and `len` as for [`input`].
#[no_mangle]
pub unsafe extern "C" fn tc_decode(id: u32, fatal: u32, bom: u32, ptr: *const u8, len: u32) -> u32 {
    let Some(e) = encoding(id) else { return 2 };
    let mut decoder = Decoder::with_options(e, decoder_options(fatal, bom));
    // SAFETY: the caller's contract.
    let src = unsafe { input(ptr, len as usize) };
    // SAFETY: the only reference in this call.
    run_decoder(&mut decoder, src, true, unsafe { ONCE.get() })
}

/// An incremental decoder (the `Decoder` class).
pub struct DecoderHandle {
    decoder: Decoder,
    out: Output,
}

/// A new incremental decoder, or null for an unknown encoding id.
#[no_mangle]
pub extern "C" fn tc_decoder_new(id: u32, fatal: u32, bom: u32) -> *mut DecoderHandle {
    let Some(e) = encoding(id) else {
        return core::ptr::null_mut();
    };
    Box::into_raw(Box::new(DecoderHandle {
        decoder: Decoder::with_options(e, decoder_options(fatal, bom)),
        out: Output::new(),
    }))
}

/// Frees a decoder from [`tc_decoder_new`].
///
/// # Safety
/// `h` is null or a live decoder from [`tc_decoder_new`], not used again.
#[no_mangle]
pub unsafe extern "C" fn tc_decoder_free(h: *mut DecoderHandle) {
    if !h.is_null() {
        // SAFETY: `h` came from `tc_decoder_new` and is freed once (core.js forgets it).
        drop(unsafe { Box::from_raw(h) });
    }
}

/// The object behind a handle, `None` for null.
///
/// # Safety
/// `h` is null or a live handle from the matching `_new` (core.js keeps them), used by
/// nothing else for `'a`.
pub(crate) unsafe fn handle<'a, T>(h: *mut T) -> Option<&'a mut T> {
    // SAFETY: the caller's contract.
    unsafe { h.as_mut() }
}

/// Decodes a chunk; `last` ends the stream (the decoder is then ready for a new one).
/// Error offsets count from the start of the stream.
///
/// # Safety
/// `h` as for [`handle`]; `ptr` and `len` as for [`input`].
#[no_mangle]
pub unsafe extern "C" fn tc_decoder_decode(
    h: *mut DecoderHandle,
    ptr: *const u8,
    len: u32,
    last: u32,
) -> u32 {
    // SAFETY: the caller's contract.
    let (Some(h), src) = (unsafe { handle(h) }, unsafe { input(ptr, len as usize) }) else {
        return 2;
    };
    let start = h.decoder.position();
    let status = run_decoder(&mut h.decoder, src, last != 0, &mut h.out);
    if status == 1 {
        // Offsets from the stream's start, not the chunk's.
        let offset = ((u64::from(slot(4)) << 32) | u64::from(slot(3))) + start;
        set_slot(3, offset as u32);
        set_slot(4, (offset >> 32) as u32);
    }
    status
}

/// Starts the decoder afresh (after an error, or to reuse it).
///
/// # Safety
/// `h` as for [`handle`].
#[no_mangle]
pub unsafe extern "C" fn tc_decoder_reset(h: *mut DecoderHandle) {
    // SAFETY: the caller's contract.
    if let Some(h) = unsafe { handle(h) } {
        h.decoder.reset();
    }
}

// ---------------------------------------------------------------------------------------
// TextDecoder (#interface-textdecoder): the same steps as `textcodec::api::TextDecoder`,
// with output buffers reused across calls.

/// A `TextDecoder`'s state.
pub struct TextDecoderHandle {
    encoding: Encoding,
    fatal: bool,
    ignore_bom: bool,
    decoder: Decoder,
    bom_seen: bool,
    do_not_flush: bool,
    /// Bytes left in the I/O queue after a fatal error.
    queue: Vec<u8>,
    out: Output,
}

impl TextDecoderHandle {
    fn fresh_decoder(encoding: Encoding, fatal: bool) -> Decoder {
        // BOM handling is on the output (#concept-td-serialize), so *BOM seen* is exact
        // across errors and chunks.
        Decoder::with_options(encoding, decoder_options(u32::from(fatal), 2))
    }
}

/// A new `TextDecoder` for an encoding (not replacement: core.js checks), or null.
#[no_mangle]
pub extern "C" fn tc_td_new(id: u32, fatal: u32, ignore_bom: u32) -> *mut TextDecoderHandle {
    let Some(e) = encoding(id) else {
        return core::ptr::null_mut();
    };
    Box::into_raw(Box::new(TextDecoderHandle {
        encoding: e,
        fatal: fatal != 0,
        ignore_bom: ignore_bom != 0,
        decoder: TextDecoderHandle::fresh_decoder(e, fatal != 0),
        bom_seen: false,
        do_not_flush: false,
        queue: Vec::new(),
        out: Output::new(),
    }))
}

/// Frees a `TextDecoder` state.
///
/// # Safety
/// `h` is null or a live state from [`tc_td_new`], not used again.
#[no_mangle]
pub unsafe extern "C" fn tc_td_free(h: *mut TextDecoderHandle) {
    if !h.is_null() {
        // SAFETY: `h` came from `tc_td_new` and is freed once.
        drop(unsafe { Box::from_raw(h) });
    }
}

/// `decode(input, {stream})` (#dom-textdecoder-decode): 0 with the text in the result
/// slots (`[0]`, `[1]`, the BOM already skipped), 1 for the `TypeError` of fatal mode.
///
/// # Safety
/// `h` as for [`handle`]; `ptr` and `len` as for [`input`].
#[no_mangle]
pub unsafe extern "C" fn tc_td_decode(
    h: *mut TextDecoderHandle,
    ptr: *const u8,
    len: u32,
    stream: u32,
) -> u32 {
    // SAFETY: the caller's contract.
    let Some(h) = (unsafe { handle(h) }) else {
        return 2;
    };
    // Step 1.
    if !h.do_not_flush {
        h.decoder = TextDecoderHandle::fresh_decoder(h.encoding, h.fatal);
        h.queue.clear();
        h.bom_seen = false;
    }
    // Step 2.
    h.do_not_flush = stream != 0;
    let flush = stream == 0;
    // SAFETY: the caller's contract.
    let chunk = unsafe { input(ptr, len as usize) };
    let mut owned;
    let bytes: &[u8] = if h.queue.is_empty() {
        chunk
    } else {
        owned = core::mem::take(&mut h.queue);
        owned.extend_from_slice(chunk);
        &owned
    };
    h.out.units.clear();
    let r = h
        .decoder
        .decode_to_utf16_vec(bytes, &mut h.out.units, flush);
    if let DecodeStatus::Malformed(_) = r.status {
        h.queue = bytes.get(r.read..).unwrap_or_default().to_vec();
        set_output(core::ptr::null(), 0);
        return 1;
    }
    // Serialize I/O queue: drop a leading BOM once.
    let bom_encoding = matches!(
        h.encoding,
        Encoding::Utf8 | Encoding::Utf16Be | Encoding::Utf16Le
    );
    let units = &h.out.units;
    let first = units.first().map(|&u| u == 0xFEFF);
    let mut skip = 0;
    if bom_encoding && !h.ignore_bom && !h.bom_seen {
        if let Some(is_bom) = first {
            h.bom_seen = true;
            if is_bom {
                skip = 1;
            }
        }
    }
    let rest = units.get(skip..).unwrap_or_default();
    set_output(rest.as_ptr().cast(), rest.len());
    0
}
