//! The WebAssembly core of the `textcodec` npm package: a C-like ABI over linear memory,
//! for `wasm32-unknown-unknown`, driven by hand-written JavaScript (`../src/core.js`).
//!
//! Conventions (every argument and result is an `i32`/`u32`):
//!
//! - Input bytes are written by JavaScript into a buffer it got from [`tc_alloc`]; strings
//!   go in as UTF-8 (the host's `TextEncoder.encodeInto`, which turns lone surrogates into
//!   U+FFFD as USVString conversion does) or, where the host has no `TextEncoder`, as
//!   UTF-16 code units.
//! - Output goes to buffers owned by this module (one per decoder or encoder handle, plus
//!   one for the one-shot calls), reused from call to call; a call returns a status and
//!   leaves the output's address and length, and any error details, in the result slots
//!   ([`tc_result`]: eight `u32`s). JavaScript reads the output before the next call.
//! - Decoded text comes out as UTF-8 or as UTF-16 code units, as JavaScript asks (it builds
//!   strings from whichever its host makes fastest for the encoding).
//! - Encodings are numbered as in `Encoding::all()` (the Standard's table order).
//!
//! Nothing here panics on any input: lengths and handles come from `core.js`, which
//! checks every argument before calling.
#![no_std]
#![allow(unsafe_code)]
// The exports take the addresses core.js got from this module (see the conventions above);
// JavaScript cannot call an `unsafe fn` any differently, so they are not marked `unsafe`.
#![allow(clippy::not_unsafe_ptr_arg_deref)]

extern crate alloc;

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;
use core::cell::UnsafeCell;

use textcodec::detect::{Detector, Hints};
use textcodec::sniff::{sniff, Confidence, ResourceKind, SniffOptions, Source};
use textcodec::{
    BomHandling, DecodeErrorMode, DecodeStatus, Decoder, DecoderOptions, EncodeErrorMode,
    EncodeStatus, Encoder, Encoding,
};

#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOC: dlmalloc::GlobalDlmalloc = dlmalloc::GlobalDlmalloc;

#[cfg(all(target_arch = "wasm32", not(test)))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::arch::wasm32::unreachable()
}

/// Module-wide state: single-threaded (a wasm instance runs one call at a time).
struct Global<T>(UnsafeCell<T>);
// SAFETY: wasm32-unknown-unknown without threads: there is one thread, and no call
// re-enters another (nothing here calls out to JavaScript).
unsafe impl<T> Sync for Global<T> {}

impl<T> Global<T> {
    #[allow(clippy::mut_from_ref)]
    fn get(&self) -> &mut T {
        // SAFETY: see the `Sync` impl: one call at a time, and each export takes this
        // reference once and drops it before returning.
        unsafe { &mut *self.0.get() }
    }
}

/// The result slots: `[0]` output address, `[1]` output length (bytes or `u16` units),
/// `[2]` input consumed, `[3]` error offset (low 32 bits), `[4]` error offset (high 32
/// bits), `[5]` error detail (malformed bytes' length, or the unmappable code point),
/// `[6..8]` the malformed bytes (up to 8, little-endian).
static RESULT: Global<[u32; 8]> = Global(UnsafeCell::new([0; 8]));
/// The one-shot calls' output buffers.
static ONCE: Global<Output> = Global(UnsafeCell::new(Output::new()));
/// Detection results: `[encoding, confidence, score, margin, flags]` then four per
/// ranked candidate: `[encoding, confidence, score, flags]`.
static NUMBERS: Global<Vec<f64>> = Global(UnsafeCell::new(Vec::new()));

/// Reused output buffers.
struct Output {
    text: String,
    units: Vec<u16>,
    bytes: Vec<u8>,
}

impl Output {
    const fn new() -> Output {
        Output {
            text: String::new(),
            units: Vec::new(),
            bytes: Vec::new(),
        }
    }
}

fn result() -> &'static mut [u32; 8] {
    RESULT.get()
}

fn set_output(ptr: *const u8, len: usize) {
    let r = result();
    r[0] = ptr as u32;
    r[1] = len as u32;
}

/// `len` bytes of linear memory at `ptr`, written by JavaScript.
fn input<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        return &[];
    }
    // SAFETY: core.js passes a buffer it got from `tc_alloc` with at least `len` bytes,
    // and does not touch it during the call.
    unsafe { core::slice::from_raw_parts(ptr, len) }
}

fn input_units<'a>(ptr: *const u16, len: usize) -> &'a [u16] {
    if len == 0 {
        return &[];
    }
    // SAFETY: as in `input`; `tc_alloc` aligns to 8.
    unsafe { core::slice::from_raw_parts(ptr, len) }
}

fn encoding(id: u32) -> Option<Encoding> {
    Encoding::all().get(id as usize).copied()
}

fn id_of(e: Encoding) -> u32 {
    Encoding::all().iter().position(|&x| x == e).unwrap_or(0) as u32
}

// ---------------------------------------------------------------------------------------
// Memory

/// A buffer of `len` bytes (aligned to 8) for JavaScript to write input into; 0 if out of
/// memory.
#[no_mangle]
pub extern "C" fn tc_alloc(len: u32) -> *mut u8 {
    let Ok(layout) = core::alloc::Layout::from_size_align(len.max(1) as usize, 8) else {
        return core::ptr::null_mut();
    };
    // SAFETY: the layout has a non-zero size.
    unsafe { alloc::alloc::alloc(layout) }
}

/// Frees a buffer from [`tc_alloc`] (same `len`).
#[no_mangle]
pub extern "C" fn tc_free(ptr: *mut u8, len: u32) {
    if ptr.is_null() {
        return;
    }
    let Ok(layout) = core::alloc::Layout::from_size_align(len.max(1) as usize, 8) else {
        return;
    };
    // SAFETY: `ptr` came from `tc_alloc(len)` (core.js keeps the pair).
    unsafe { alloc::alloc::dealloc(ptr, layout) }
}

/// The address of the result slots.
#[no_mangle]
pub extern "C" fn tc_result() -> *const u32 {
    result().as_ptr()
}

/// The address of the detection numbers (valid until the next `tc_detect`).
#[no_mangle]
pub extern "C" fn tc_numbers() -> *const f64 {
    NUMBERS.get().as_ptr()
}

// ---------------------------------------------------------------------------------------
// Encodings and labels

/// The encoding a label names (*get an encoding*: whitespace trimmed, ASCII
/// case-insensitive), or -1.
#[no_mangle]
pub extern "C" fn tc_label(ptr: *const u8, len: u32) -> i32 {
    Encoding::for_label(input(ptr, len as usize)).map_or(-1, |e| id_of(e) as i32)
}

/// Every encoding's name, then its labels: one line each, `Name label label…`, in the
/// Standard's order; the output is in the result slots.
#[no_mangle]
pub extern "C" fn tc_names() {
    let out = &mut ONCE.get().text;
    out.clear();
    for &e in Encoding::all() {
        out.push_str(e.name());
        for label in e.own_labels() {
            out.push(' ');
            out.push_str(label);
        }
        out.push('\n');
    }
    set_output(out.as_ptr(), out.len());
}

/// The SIMD kernel level in use (`simd128` or `scalar`); the output is in the result slots.
#[no_mangle]
pub extern "C" fn tc_kernel() {
    let out = &mut ONCE.get().text;
    out.clear();
    out.push_str(textcodec::kernel_info().active);
    set_output(out.as_ptr(), out.len());
}

// ---------------------------------------------------------------------------------------
// Decoding

fn report_malformed(m: &textcodec::MalformedSequence, base: u64) {
    let r = result();
    let offset = m.offset().saturating_sub(base);
    r[3] = offset as u32;
    r[4] = (offset >> 32) as u32;
    let bytes = m.bytes();
    r[5] = bytes.len() as u32;
    let mut packed = [0u8; 8];
    for (slot, &b) in packed.iter_mut().zip(bytes) {
        *slot = b;
    }
    r[6] = u32::from_le_bytes([packed[0], packed[1], packed[2], packed[3]]);
    r[7] = u32::from_le_bytes([packed[4], packed[5], packed[6], packed[7]]);
}

fn bom_handling(bom: u32) -> BomHandling {
    match bom {
        0 => BomHandling::Sniff,
        1 => BomHandling::Remove,
        _ => BomHandling::Keep,
    }
}

fn decoder_options(fatal: u32, bom: u32) -> DecoderOptions {
    DecoderOptions {
        error_mode: if fatal != 0 {
            DecodeErrorMode::Fatal
        } else {
            DecodeErrorMode::Replacement
        },
        bom: bom_handling(bom),
    }
}

/// Runs `decoder` over `src` into `out` (cleared first) as UTF-8 or UTF-16; 0 when done,
/// 1 on a malformed sequence in fatal mode (details in the result slots; `[2]` is the
/// input consumed, the sequence included).
fn run_decoder(
    decoder: &mut Decoder,
    src: &[u8],
    last: bool,
    utf16: bool,
    out: &mut Output,
) -> u32 {
    let start = decoder.position();
    let r = if utf16 {
        out.units.clear();
        decoder.decode_to_utf16_vec(src, &mut out.units, last)
    } else {
        out.text.clear();
        decoder.decode_to_string(src, &mut out.text, last)
    };
    if utf16 {
        set_output(out.units.as_ptr().cast(), out.units.len());
    } else {
        set_output(out.text.as_ptr(), out.text.len());
    }
    result()[2] = r.read as u32;
    match r.status {
        DecodeStatus::Malformed(m) => {
            report_malformed(&m, start);
            1
        }
        _ => 0,
    }
}

/// One-shot decode of `len` bytes at `ptr` (`bom`: 0 sniff, 1 remove, 2 keep).
#[no_mangle]
pub extern "C" fn tc_decode(
    id: u32,
    fatal: u32,
    bom: u32,
    ptr: *const u8,
    len: u32,
    utf16: u32,
) -> u32 {
    let Some(e) = encoding(id) else { return 2 };
    let mut decoder = Decoder::with_options(e, decoder_options(fatal, bom));
    run_decoder(
        &mut decoder,
        input(ptr, len as usize),
        true,
        utf16 != 0,
        ONCE.get(),
    )
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
#[no_mangle]
pub extern "C" fn tc_decoder_free(h: *mut DecoderHandle) {
    if !h.is_null() {
        // SAFETY: `h` came from `tc_decoder_new` and is freed once (core.js forgets it).
        drop(unsafe { Box::from_raw(h) });
    }
}

fn handle<'a, T>(h: *mut T) -> Option<&'a mut T> {
    // SAFETY: `h` is null or a live handle from the matching `_new` (core.js keeps them).
    unsafe { h.as_mut() }
}

/// Decodes a chunk; `last` ends the stream (the decoder is then ready for a new one).
/// Error offsets count from the start of the stream.
#[no_mangle]
pub extern "C" fn tc_decoder_decode(
    h: *mut DecoderHandle,
    ptr: *const u8,
    len: u32,
    last: u32,
    utf16: u32,
) -> u32 {
    let Some(h) = handle(h) else { return 2 };
    let src = input(ptr, len as usize);
    let start = h.decoder.position();
    let status = run_decoder(&mut h.decoder, src, last != 0, utf16 != 0, &mut h.out);
    if status == 1 {
        // Offsets from the stream's start, not the chunk's.
        let r = result();
        let offset = ((u64::from(r[4]) << 32) | u64::from(r[3])) + start;
        r[3] = offset as u32;
        r[4] = (offset >> 32) as u32;
    }
    status
}

/// Starts the decoder afresh (after an error, or to reuse it).
#[no_mangle]
pub extern "C" fn tc_decoder_reset(h: *mut DecoderHandle) {
    if let Some(h) = handle(h) {
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
#[no_mangle]
pub extern "C" fn tc_td_free(h: *mut TextDecoderHandle) {
    if !h.is_null() {
        // SAFETY: `h` came from `tc_td_new` and is freed once.
        drop(unsafe { Box::from_raw(h) });
    }
}

/// `decode(input, {stream})` (#dom-textdecoder-decode): 0 with the text in the result
/// slots (`[0]`, `[1]`, the BOM already skipped), 1 for the `TypeError` of fatal mode.
#[no_mangle]
pub extern "C" fn tc_td_decode(
    h: *mut TextDecoderHandle,
    ptr: *const u8,
    len: u32,
    stream: u32,
    utf16: u32,
) -> u32 {
    let Some(h) = handle(h) else { return 2 };
    // Step 1.
    if !h.do_not_flush {
        h.decoder = TextDecoderHandle::fresh_decoder(h.encoding, h.fatal);
        h.queue.clear();
        h.bom_seen = false;
    }
    // Step 2.
    h.do_not_flush = stream != 0;
    let flush = stream == 0;
    let chunk = input(ptr, len as usize);
    let mut owned;
    let bytes: &[u8] = if h.queue.is_empty() {
        chunk
    } else {
        owned = core::mem::take(&mut h.queue);
        owned.extend_from_slice(chunk);
        &owned
    };
    let utf16 = utf16 != 0;
    let r = if utf16 {
        h.out.units.clear();
        h.decoder
            .decode_to_utf16_vec(bytes, &mut h.out.units, flush)
    } else {
        h.out.text.clear();
        h.decoder.decode_to_string(bytes, &mut h.out.text, flush)
    };
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
    let (ptr, len, first) = if utf16 {
        (
            h.out.units.as_ptr().cast::<u8>(),
            h.out.units.len(),
            h.out.units.first().map(|&u| u == 0xFEFF),
        )
    } else {
        (
            h.out.text.as_ptr(),
            h.out.text.len(),
            h.out.text.chars().next().map(|c| c == '\u{FEFF}'),
        )
    };
    let mut skip = 0;
    if bom_encoding && !h.ignore_bom && !h.bom_seen {
        if let Some(is_bom) = first {
            h.bom_seen = true;
            if is_bom {
                skip = if utf16 { 1 } else { 3 };
            }
        }
    }
    let unit = if utf16 { 2 } else { 1 };
    set_output(ptr.wrapping_add(skip * unit), len - skip);
    0
}

// ---------------------------------------------------------------------------------------
// Encoding

fn encode_mode(mode: u32) -> EncodeErrorMode {
    match mode {
        0 => EncodeErrorMode::Fatal,
        1 => EncodeErrorMode::Html,
        _ => EncodeErrorMode::Replace,
    }
}

/// Runs `encoder` over UTF-8 (or UTF-16) input into `out.bytes`; 0 when done, 1 for an
/// unmappable character in fatal mode (`[2]` input consumed, the character included; `[5]`
/// its code point), 3 for input that is not UTF-8.
fn run_encoder(
    encoder: &mut Encoder,
    ptr: *const u8,
    len: u32,
    utf16: bool,
    last: bool,
    out: &mut Vec<u8>,
) -> u32 {
    out.clear();
    let r = if utf16 {
        encoder.encode_from_utf16_to_vec(input_units(ptr.cast(), len as usize), out, last)
    } else {
        // The library's SIMD validation (simd128 where built with it): `core::str::from_utf8`
        // took a fifth to a quarter of the time of an encode (bench/node.mjs profile).
        let Ok(text) = textcodec::utf8_decode_without_bom_or_fail(input(ptr, len as usize)) else {
            return 3;
        };
        encoder.encode_from_utf8_to_vec(text, out, last)
    };
    set_output(out.as_ptr(), out.len());
    result()[2] = r.read as u32;
    match r.status {
        EncodeStatus::Unmappable(u) => {
            result()[5] = u32::from(u.code_point());
            1
        }
        _ => 0,
    }
}

/// Single-byte encoders' reverse tables (code point → byte, 0 for none; ASCII is not in
/// them), built on an encoding's first use from its decoder: the Standard's single-byte
/// encoder returns *index pointer* + 0x80, the first pointer whose code point it is.
static SINGLE_BYTE_TABLES: Global<Vec<(Encoding, Box<[u8]>)>> = Global(UnsafeCell::new(Vec::new()));

fn single_byte_table(e: Encoding) -> &'static [u8] {
    let tables = SINGLE_BYTE_TABLES.get();
    if let Some(i) = tables.iter().position(|(x, _)| *x == e) {
        return &tables[i].1;
    }
    let mut table = alloc::vec![0u8; 0x10000].into_boxed_slice();
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

/// A single-byte encoding's bytes for valid UTF-8 `src`, into `out`; `false` (and `out` in
/// any state) at the first character the encoding lacks: the caller then runs the library's
/// encoder, which reports it as the error mode says. Eight ASCII bytes at a time, then one
/// table load per character.
fn single_byte_encode(table: &[u8], src: &[u8], out: &mut Vec<u8>) -> bool {
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
        let b = src[i];
        let at = |k: usize| u32::from(src.get(i + k).copied().unwrap_or(0) & 0x3F);
        let (code_point, n) = if b < 0x80 {
            (u32::from(b), 1)
        } else if b < 0xE0 {
            ((u32::from(b & 0x1F) << 6) | at(1), 2)
        } else if b < 0xF0 {
            ((u32::from(b & 0x0F) << 12) | (at(1) << 6) | at(2), 3)
        } else {
            // Astral characters: no single-byte encoding has one.
            return false;
        };
        let byte = if code_point < 0x80 {
            code_point as u8
        } else {
            match table.get(code_point as usize) {
                Some(&b) if b != 0 => b,
                _ => return false,
            }
        };
        out[o] = byte;
        i += n;
        o += 1;
    }
    out.truncate(o);
    true
}

/// [`single_byte_encode`] for UTF-16 input: one table load per code unit (a surrogate is
/// never in a table: the library's encoder then handles it).
fn single_byte_encode_utf16(table: &[u8], src: &[u16], out: &mut Vec<u8>) -> bool {
    out.clear();
    out.resize(src.len(), 0);
    for (dst, &unit) in out.iter_mut().zip(src) {
        let byte = if unit < 0x80 {
            unit as u8
        } else {
            match table.get(usize::from(unit)) {
                Some(&b) if b != 0 => b,
                _ => return false,
            }
        };
        *dst = byte;
    }
    true
}

/// The single-byte fast path of [`tc_encode`] and [`tc_encoder_encode`]: `Some(status)` when
/// it encoded the whole input (single-byte encoders keep no state between calls).
fn try_single_byte(
    e: Encoding,
    ptr: *const u8,
    len: u32,
    utf16: bool,
    out: &mut Vec<u8>,
) -> Option<u32> {
    if !e.is_single_byte() {
        return None;
    }
    let table = single_byte_table(e);
    if utf16 {
        if !single_byte_encode_utf16(table, input_units(ptr.cast(), len as usize), out) {
            return None;
        }
    } else {
        let text = textcodec::utf8_decode_without_bom_or_fail(input(ptr, len as usize)).ok()?;
        if !single_byte_encode(table, text.as_bytes(), out) {
            return None;
        }
    }
    set_output(out.as_ptr(), out.len());
    result()[2] = len;
    Some(0)
}

/// One-shot encode (`mode`: 0 fatal, 1 html, 2 replace; `utf16`: the input is `len` code
/// units, else `len` bytes of UTF-8). 2 if the encoding has no encoder.
#[no_mangle]
pub extern "C" fn tc_encode(id: u32, mode: u32, ptr: *const u8, len: u32, utf16: u32) -> u32 {
    let Some(mut encoder) = encoding(id).and_then(|e| Encoder::new(e, encode_mode(mode))) else {
        return 2;
    };
    let out = &mut ONCE.get().bytes;
    if let Some(status) = try_single_byte(encoder.encoding(), ptr, len, utf16 != 0, out) {
        return status;
    }
    run_encoder(&mut encoder, ptr, len, utf16 != 0, true, out)
}

/// An incremental encoder (the `Encoder` class: ISO-2022-JP's state kept across calls).
pub struct EncoderHandle {
    encoder: Encoder,
    out: Vec<u8>,
}

/// A new encoder, or null if the encoding has none.
#[no_mangle]
pub extern "C" fn tc_encoder_new(id: u32, mode: u32) -> *mut EncoderHandle {
    match encoding(id).and_then(|e| Encoder::new(e, encode_mode(mode))) {
        Some(encoder) => Box::into_raw(Box::new(EncoderHandle {
            encoder,
            out: Vec::new(),
        })),
        None => core::ptr::null_mut(),
    }
}

/// Frees an encoder from [`tc_encoder_new`].
#[no_mangle]
pub extern "C" fn tc_encoder_free(h: *mut EncoderHandle) {
    if !h.is_null() {
        // SAFETY: `h` came from `tc_encoder_new` and is freed once.
        drop(unsafe { Box::from_raw(h) });
    }
}

/// Encodes a chunk; `last` ends the stream (ISO-2022-JP returns to ASCII).
#[no_mangle]
pub extern "C" fn tc_encoder_encode(
    h: *mut EncoderHandle,
    ptr: *const u8,
    len: u32,
    utf16: u32,
    last: u32,
) -> u32 {
    let Some(h) = handle(h) else { return 2 };
    if let Some(status) = try_single_byte(h.encoder.encoding(), ptr, len, utf16 != 0, &mut h.out) {
        return status;
    }
    run_encoder(&mut h.encoder, ptr, len, utf16 != 0, last != 0, &mut h.out)
}

/// Starts the encoder afresh.
#[no_mangle]
pub extern "C" fn tc_encoder_reset(h: *mut EncoderHandle) {
    if let Some(h) = handle(h) {
        h.encoder.reset();
    }
}

// ---------------------------------------------------------------------------------------
// Detection and sniffing

fn str_input<'a>(ptr: *const u8, len: u32) -> Option<&'a str> {
    if ptr.is_null() {
        return None;
    }
    core::str::from_utf8(input(ptr, len as usize)).ok()
}

fn id_list(ptr: *const u8, len: u32) -> Vec<Encoding> {
    input(ptr, len as usize)
        .iter()
        .filter_map(|&i| encoding(u32::from(i)))
        .collect()
}

fn finite(x: f32) -> f64 {
    if x.is_finite() {
        f64::from(x)
    } else {
        f64::NAN
    }
}

/// `detect`: the statistical detector. Strings (`tld`, `locale`) are UTF-8, null when
/// absent; `allow` (null: any) and `deny` are lists of encoding ids, one byte each.
/// Numbers go to [`tc_numbers`]; the language code, its name and the binary format's name
/// go to the output as `code\tname\tbinary`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn tc_detect(
    ptr: *const u8,
    len: u32,
    tld: *const u8,
    tld_len: u32,
    allow_utf8: u32,
    locale: *const u8,
    locale_len: u32,
    allow: *const u8,
    allow_len: u32,
    deny: *const u8,
    deny_len: u32,
) -> u32 {
    let allow = (!allow.is_null()).then(|| id_list(allow, allow_len));
    let deny = id_list(deny, deny_len);
    let hints = Hints {
        tld: str_input(tld, tld_len).map(str::as_bytes),
        allow_utf8: allow_utf8 != 0,
        locale: str_input(locale, locale_len),
        allow: allow.as_deref(),
        deny: &deny,
    };
    let mut detector = Detector::new();
    detector.feed(input(ptr, len as usize), true);
    let guess = detector.guess(&hints);
    let numbers = NUMBERS.get();
    numbers.clear();
    let flags = u8::from(guess.ascii_only) | (u8::from(guess.stopped_early) << 1);
    numbers.extend_from_slice(&[
        f64::from(id_of(guess.encoding)),
        f64::from(guess.confidence),
        finite(guess.score),
        finite(guess.margin),
        f64::from(flags),
    ]);
    let ranking = detector.ranking(&hints);
    for c in &ranking {
        let flags = u8::from(c.disqualified) | (u8::from(c.excluded) << 1);
        numbers.extend_from_slice(&[
            f64::from(id_of(c.encoding)),
            f64::from(c.confidence),
            finite(c.score),
            f64::from(flags),
        ]);
    }
    let out = &mut ONCE.get().text;
    out.clear();
    if let Some(l) = guess.language {
        out.push_str(l.code());
        out.push('\t');
        out.push_str(l.name());
    } else {
        out.push('\t');
    }
    out.push('\t');
    if let Some(b) = guess.binary {
        out.push_str(b.name());
    }
    set_output(out.as_ptr(), out.len());
    ranking.len() as u32
}

fn kind(k: u32) -> ResourceKind {
    match k {
        1 => ResourceKind::Xml,
        2 => ResourceKind::Css,
        3 => ResourceKind::PlainText,
        4 => ResourceKind::Json,
        _ => ResourceKind::Html,
    }
}

/// `sniff`: the encoding of a web resource from its first bytes (BOM, Content-Type, the
/// `<meta>` prescan…). `kind`: 0 HTML, 1 XML, 2 CSS, 3 plain text, 4 JSON, 5 from the
/// Content-Type; `user_override`, `fallback`: encoding ids or -1. Result slots: `[2]`
/// encoding id, `[3]` BOM length, `[5]` detection's encoding id (or -1); the output holds
/// `confidence\tsource\tkind`. Numbers `[0]`: the detection's confidence if it ran.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn tc_sniff(
    ptr: *const u8,
    len: u32,
    kind_id: u32,
    content_type: *const u8,
    content_type_len: u32,
    user_override: i32,
    fallback: i32,
    locale: *const u8,
    locale_len: u32,
    detect: u32,
    tld: *const u8,
    tld_len: u32,
) -> u32 {
    let content_type =
        (!content_type.is_null()).then(|| input(content_type, content_type_len as usize));
    let kind = if kind_id == 5 {
        content_type
            .and_then(ResourceKind::from_content_type)
            .unwrap_or(ResourceKind::PlainText)
    } else {
        kind(kind_id)
    };
    let options = SniffOptions {
        kind,
        content_type,
        user_override: u32::try_from(user_override).ok().and_then(encoding),
        fallback: u32::try_from(fallback).ok().and_then(encoding),
        locale: str_input(locale, locale_len),
        detect: detect != 0,
        tld: str_input(tld, tld_len).map(str::as_bytes),
    };
    let report = sniff(input(ptr, len as usize), &options);
    let r = result();
    r[2] = id_of(report.encoding);
    r[3] = report.bom_length as u32;
    r[5] = report.detection.map_or(u32::MAX, |g| id_of(g.encoding));
    let numbers = NUMBERS.get();
    numbers.clear();
    numbers.push(
        report
            .detection
            .map_or(f64::NAN, |g| f64::from(g.confidence)),
    );
    let out = &mut ONCE.get().text;
    out.clear();
    out.push_str(match report.confidence {
        Confidence::Certain => "certain",
        Confidence::Tentative => "tentative",
        Confidence::Irrelevant => "irrelevant",
    });
    out.push('\t');
    out.push_str(match report.source {
        Source::Bom => "bom",
        Source::UserOverride => "user-override",
        Source::TransportLayer => "content-type",
        Source::MetaPrescan => "meta",
        Source::XmlDeclaration => "xml-declaration",
        Source::Utf16Pattern => "utf-16-pattern",
        Source::CssCharset => "css-charset",
        Source::Fallback => "fallback",
        Source::Detection => "detection",
        Source::LocaleDefault => "locale-default",
        Source::Default => "default",
        Source::Utf8Only => "utf-8-only",
    });
    out.push('\t');
    out.push_str(match kind {
        ResourceKind::Html => "html",
        ResourceKind::Xml => "xml",
        ResourceKind::Css => "css",
        ResourceKind::Json => "json",
        _ => "text",
    });
    set_output(out.as_ptr(), out.len());
    0
}
