//! Encoding: one-shot ([`tc_encode`]) and incremental ([`tc_encoder_new`] …), with a fast
//! path for the single-byte encoders (a code point → byte table per encoding).

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::cell::UnsafeCell;

use textcodec::{Decoder, EncodeErrorMode, EncodeStatus, Encoder, Encoding};

use crate::decode::{decoder_options, handle};
use crate::{encoding, input, input_units, set_output, set_slot, Global, ONCE};

/// `bytes` as text if they are valid UTF-8 (what *UTF-8 decode without BOM or fail* accepts),
/// by the library's SIMD validation (simd128 where built with it): `core::str::from_utf8`
/// took a fifth to a quarter of the time of an encode (bench/node.mjs profile). Not
/// `utf8_decode_without_bom_or_fail`, whose error report (unused here) runs the general
/// decoder and linked every encoding's loop once more (25 KB of the module V8 validates
/// at load).
fn utf8_text(bytes: &[u8]) -> Option<&str> {
    if textcodec::mem::utf8_valid_up_to(bytes) != bytes.len() {
        return None;
    }
    // SAFETY: valid UTF-8 as the Standard defines it, which is what `str` requires.
    Some(unsafe { core::str::from_utf8_unchecked(bytes) })
}

fn encode_mode(mode: u32) -> EncodeErrorMode {
    match mode {
        0 => EncodeErrorMode::Fatal,
        1 => EncodeErrorMode::Html,
        _ => EncodeErrorMode::Replace,
    }
}

/// An encoder's input: UTF-8 bytes or UTF-16 code units.
#[derive(Clone, Copy)]
enum Text<'a> {
    Utf8(&'a [u8]),
    Utf16(&'a [u16]),
}

impl Text<'_> {
    /// The `len` bytes (or, with `utf16`, code units) at `ptr`.
    ///
    /// # Safety
    /// As [`input`] (and [`input_units`] with `utf16`).
    unsafe fn at<'a>(ptr: *const u8, len: u32, utf16: bool) -> Text<'a> {
        // SAFETY: the caller's contract.
        unsafe {
            if utf16 {
                Text::Utf16(input_units(ptr.cast(), len as usize))
            } else {
                Text::Utf8(input(ptr, len as usize))
            }
        }
    }
}

/// Runs `encoder` over UTF-8 (or UTF-16) input into `out.bytes`; 0 when done, 1 for an
/// unmappable character in fatal mode (`[2]` input consumed, the character included; `[5]`
/// its code point), 3 for input that is not UTF-8.
fn run_encoder(encoder: &mut Encoder, text: Text<'_>, last: bool, out: &mut Vec<u8>) -> u32 {
    out.clear();
    let r = match text {
        Text::Utf16(units) => encoder.encode_from_utf16_to_vec(units, out, last),
        Text::Utf8(bytes) => {
            let Some(text) = utf8_text(bytes) else {
                return 3;
            };
            encoder.encode_from_utf8_to_vec(text, out, last)
        }
    };
    set_output(out.as_ptr(), out.len());
    set_slot(2, r.read as u32);
    match r.status {
        EncodeStatus::Unmappable(u) => {
            set_slot(5, u32::from(u.code_point()));
            1
        }
        _ => 0,
    }
}

/// Encodes the one character at `src[i..i + n]` (a surrogate pair whole, for UTF-16; the
/// character's bytes, for UTF-8) with `encoder` into `out` at `o`, for a fast path that
/// meets a character its table lacks and goes on after it; `at` is `(i, o)`. `out` is kept
/// at least `per_unit` bytes per input unit after the character longer than the bytes
/// written (the fast path's bound), and grows only by what the character adds: at most
/// ten bytes (`&#1114111;`), through a small buffer. `Ok` with the positions after it, or
/// `Err` with what the fast path returns: `Some(1)` for an unmappable character in fatal
/// mode (its output and offsets set, as `run_encoder` sets them), `None` if the library
/// does not take it all (not reached: the caller hands the chunk to the library's loop).
pub(crate) fn through_library<T>(
    encoder: &mut Encoder,
    src: &[T],
    (i, o): (usize, usize),
    n: usize,
    per_unit: usize,
    out: &mut Vec<u8>,
    run: impl FnOnce(&mut Encoder, &[T], &mut [u8]) -> textcodec::EncodeResult,
) -> Result<(usize, usize), Option<u32>> {
    let mut spare = [0u8; 16];
    let r = run(encoder, src.get(i..i + n).ok_or(None)?, &mut spare);
    if r.read != n {
        return Err(None);
    }
    let bytes = spare.get(..r.written).ok_or(None)?;
    let i = i + n;
    let room = o + bytes.len() + src.len().saturating_sub(i) * per_unit;
    if room > out.len() {
        out.resize(room, 0);
    }
    out.get_mut(o..o + bytes.len())
        .ok_or(None)?
        .copy_from_slice(bytes);
    let o = o + bytes.len();
    if let EncodeStatus::Unmappable(u) = r.status {
        set_output(out.as_ptr(), o);
        set_slot(2, u32::try_from(i).map_err(|_| None)?);
        set_slot(5, u32::from(u.code_point()));
        return Err(Some(1));
    }
    Ok((i, o))
}

/// The UTF-16 length of the character at `src[i]`: 2 for a surrogate pair.
pub(crate) fn units_of_char(src: &[u16], i: usize) -> usize {
    let lead = src.get(i).is_some_and(|u| (0xD800..0xDC00).contains(u));
    let trail = src.get(i + 1).is_some_and(|t| (0xDC00..0xE000).contains(t));
    if lead && trail {
        2
    } else {
        1
    }
}

/// Ends a one-shot fast path: the output is `out[..o]`, all `len` input units read.
pub(crate) fn finish(out: &mut Vec<u8>, o: usize, len: usize) -> Option<u32> {
    out.truncate(o);
    set_output(out.as_ptr(), out.len());
    set_slot(2, u32::try_from(len).ok()?);
    Some(0)
}

/// Single-byte encoders' reverse tables (BMP code point → byte, 0 for none; ASCII maps to
/// itself, U+0000 to 0), built on an encoding's first use from its decoder: the Standard's single-byte
/// encoder returns *index pointer* + 0x80, the first pointer whose code point it is.
static SINGLE_BYTE_TABLES: Global<Vec<(Encoding, Box<[u8; 0x10000]>)>> =
    Global(UnsafeCell::new(Vec::new()));

fn single_byte_table(e: Encoding) -> &'static [u8; 0x10000] {
    // SAFETY: the only reference in this call: the callers hold none across it.
    let tables = unsafe { SINGLE_BYTE_TABLES.get() };
    if let Some(i) = tables.iter().position(|(x, _)| *x == e) {
        return &tables[i].1;
    }
    let mut table = Box::new([0u8; 0x10000]);
    for (slot, ascii) in table.iter_mut().zip(0..0x80u8) {
        *slot = ascii;
    }
    let options = decoder_options(0, 2);
    for byte in 0x80u8..=0xFF {
        let mut decoder = Decoder::with_options(e, options);
        let mut units = Vec::new();
        let _ = decoder.decode_to_utf16_vec(&[byte], &mut units, true);
        if let [unit] = units[..] {
            // No index maps a pointer to U+FFFD: it is the decoder's error.
            if unit != 0xFFFD && table[usize::from(unit)] == 0 {
                table[usize::from(unit)] = byte;
            }
        }
    }
    tables.push((e, table));
    &tables[tables.len() - 1].1
}

/// A single-byte encoding's bytes for valid UTF-8 `text`, into `out`: eight ASCII bytes at
/// a time, then one table load per character; a character the encoding lacks (and any
/// astral one: no single-byte encoding has one) goes through the library's `encoder`,
/// which writes what the error mode says, and the loop goes on after it.
fn single_byte_encode(
    table: &[u8; 0x10000],
    encoder: &mut Encoder,
    text: &str,
    out: &mut Vec<u8>,
) -> Option<u32> {
    let src = text.as_bytes();
    out.clear();
    out.resize(src.len(), 0);
    let (mut i, mut o) = (0, 0);
    while i < src.len() {
        if let (Some(word), Some(dst)) = (src.get(i..i + 8), out.get_mut(o..o + 8)) {
            let bits = u64::from_le_bytes(word.try_into().unwrap_or([0x80; 8]));
            if bits & 0x8080_8080_8080_8080 == 0 {
                dst.copy_from_slice(word);
                i += 8;
                o += 8;
                continue;
            }
        }
        let b = *src.get(i)?;
        let at = |k: usize| u32::from(src.get(i + k).copied().unwrap_or(0) & 0x3F);
        let (code_point, n) = if b < 0x80 {
            (u32::from(b), 1)
        } else if b < 0xE0 {
            ((u32::from(b & 0x1F) << 6) | at(1), 2)
        } else if b < 0xF0 {
            ((u32::from(b & 0x0F) << 12) | (at(1) << 6) | at(2), 3)
        } else {
            (0x10000, 4)
        };
        let byte = match table.get(code_point as usize) {
            Some(&byte) if byte != 0 || code_point == 0 => byte,
            _ => {
                let run = |e: &mut Encoder, bytes: &[u8], dst: &mut [u8]| {
                    // `text` is valid UTF-8 and `i..i + n` one character of it.
                    let c = core::str::from_utf8(bytes).unwrap_or_default();
                    e.encode_from_utf8(c, dst, true)
                };
                match through_library(encoder, src, (i, o), n, 1, out, run) {
                    Ok(next) => (i, o) = next,
                    Err(status) => return status,
                }
                continue;
            }
        };
        *out.get_mut(o)? = byte;
        i += n;
        o += 1;
    }
    finish(out, o, src.len())
}

/// Maps whole 16-unit blocks of `src` into `dst` (at least as long) while no unit of a
/// block is lacking from `table`: one table load per code unit, ASCII included, and one
/// branch per block. Returns the units done: all of them, or up to the block with one.
fn map_blocks(table: &[u8; 0x10000], src: &[u16], dst: &mut [u8]) -> usize {
    let mut done = 0;
    for (dst, units) in dst.chunks_mut(16).zip(src.chunks(16)) {
        let mut lacking = false;
        for (d, &unit) in dst.iter_mut().zip(units) {
            let byte = table[usize::from(unit)];
            *d = byte;
            lacking |= byte == 0 && unit != 0;
        }
        if lacking {
            break;
        }
        done += units.len();
    }
    done
}

/// [`single_byte_encode`] for UTF-16 input: blocks by [`map_blocks`]; a block with a
/// lacking unit is done again unit by unit, its lacking characters (surrogates included:
/// never in a table) through the library.
fn single_byte_encode_utf16(
    table: &[u8; 0x10000],
    encoder: &mut Encoder,
    src: &[u16],
    last: bool,
    out: &mut Vec<u8>,
) -> Option<u32> {
    out.clear();
    out.resize(src.len(), 0);
    let (mut i, mut o) = (0, 0);
    loop {
        // `out` holds at least a byte for each unit left.
        let n = map_blocks(table, src.get(i..)?, out.get_mut(o..)?);
        i += n;
        o += n;
        if i == src.len() {
            break;
        }
        let end = (i + 16).min(src.len());
        while i < end {
            let unit = *src.get(i)?;
            let byte = table[usize::from(unit)];
            if byte != 0 || unit == 0 {
                *out.get_mut(o)? = byte;
                i += 1;
                o += 1;
                continue;
            }
            let n = units_of_char(src, i);
            if !last && n == 1 && i + 1 == src.len() && (0xD800..0xDC00).contains(&unit) {
                return None; // a lead surrogate a later chunk may complete
            }
            let run = |e: &mut Encoder, units: &[u16], dst: &mut [u8]| {
                e.encode_from_utf16(units, dst, true)
            };
            match through_library(encoder, src, (i, o), n, 1, out, run) {
                Ok(next) => (i, o) = next,
                Err(status) => return status,
            }
        }
        if i == src.len() {
            break;
        }
    }
    finish(out, o, src.len())
}

/// The single-byte fast path of [`tc_encode`] and [`tc_encoder_encode`]: `Some(status)`
/// when it encoded the chunk (single-byte encoders keep no state between characters).
/// `None` for other encodings, UTF-8 input that is not UTF-8, and a lead surrogate ending
/// a chunk that is not the last, which the library's loop keeps for the next chunk.
fn try_single_byte(
    encoder: &mut Encoder,
    text: Text<'_>,
    last: bool,
    out: &mut Vec<u8>,
) -> Option<u32> {
    let e = encoder.encoding();
    if !e.is_single_byte() {
        return None;
    }
    let table = single_byte_table(e);
    match text {
        Text::Utf16(units) => single_byte_encode_utf16(table, encoder, units, last, out),
        Text::Utf8(bytes) => single_byte_encode(table, encoder, utf8_text(bytes)?, out),
    }
}

/// One-shot encode (`mode`: 0 fatal, 1 html, 2 replace; `utf16`: the input is `len` code
/// units, else `len` bytes of UTF-8). 2 if the encoding has no encoder.
///
/// # Safety
/// `ptr` and `len` as for [`input`] (bytes) or [`input_units`] (with `utf16`).
#[no_mangle]
pub unsafe extern "C" fn tc_encode(
    id: u32,
    mode: u32,
    ptr: *const u8,
    len: u32,
    utf16: u32,
) -> u32 {
    let Some(mut encoder) = encoding(id).and_then(|e| Encoder::new(e, encode_mode(mode))) else {
        return 2;
    };
    // SAFETY: the caller's contract.
    let text = unsafe { Text::at(ptr, len, utf16 != 0) };
    // SAFETY: the only reference in this call.
    let out = &mut unsafe { ONCE.get() }.bytes;
    if let Some(status) = try_single_byte(&mut encoder, text, true, out) {
        return status;
    }
    if let Text::Utf16(units) = text {
        if let Some(status) = crate::cjk::try_encode(&mut encoder, units, out) {
            return status;
        }
    }
    run_encoder(&mut encoder, text, true, out)
}

/// An incremental encoder (the `Encoder` class: ISO-2022-JP's state kept across calls).
pub struct EncoderHandle {
    encoder: Encoder,
    out: Vec<u8>,
    /// The library's encoder holds a lead surrogate from the end of the last chunk: the
    /// next chunk goes to it whole, not to a fast path, which would write past it.
    pending_lead: bool,
}

/// A new encoder, or null if the encoding has none.
#[no_mangle]
pub extern "C" fn tc_encoder_new(id: u32, mode: u32) -> *mut EncoderHandle {
    match encoding(id).and_then(|e| Encoder::new(e, encode_mode(mode))) {
        Some(encoder) => Box::into_raw(Box::new(EncoderHandle {
            encoder,
            out: Vec::new(),
            pending_lead: false,
        })),
        None => core::ptr::null_mut(),
    }
}

/// Frees an encoder from [`tc_encoder_new`].
///
/// # Safety
/// `h` is null or a live encoder from [`tc_encoder_new`], not used again.
#[no_mangle]
pub unsafe extern "C" fn tc_encoder_free(h: *mut EncoderHandle) {
    if !h.is_null() {
        // SAFETY: `h` came from `tc_encoder_new` and is freed once.
        drop(unsafe { Box::from_raw(h) });
    }
}

/// Encodes a chunk; `last` ends the stream (ISO-2022-JP returns to ASCII).
///
/// # Safety
/// `h` as for [`handle`]; `ptr` and `len` as for [`tc_encode`].
#[no_mangle]
pub unsafe extern "C" fn tc_encoder_encode(
    h: *mut EncoderHandle,
    ptr: *const u8,
    len: u32,
    utf16: u32,
    last: u32,
) -> u32 {
    // SAFETY: the caller's contract.
    let Some(h) = (unsafe { handle(h) }) else {
        return 2;
    };
    let last = last != 0;
    // SAFETY: the caller's contract.
    let text = unsafe { Text::at(ptr, len, utf16 != 0) };
    if !h.pending_lead {
        if let Some(status) = try_single_byte(&mut h.encoder, text, last, &mut h.out) {
            return status;
        }
    }
    let status = run_encoder(&mut h.encoder, text, last, &mut h.out);
    h.pending_lead = status == 0
        && !last
        && matches!(text, Text::Utf16(units)
            if units.last().is_some_and(|u| (0xD800..0xDC00).contains(u)));
    status
}

/// Starts the encoder afresh.
///
/// # Safety
/// `h` as for [`handle`].
#[no_mangle]
pub unsafe extern "C" fn tc_encoder_reset(h: *mut EncoderHandle) {
    // SAFETY: the caller's contract.
    if let Some(h) = unsafe { handle(h) } {
        h.encoder.reset();
        h.pending_lead = false;
    }
}
