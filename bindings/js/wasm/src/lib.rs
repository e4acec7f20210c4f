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
//! - Decoded text comes out as UTF-16 code units (JavaScript builds strings from them fastest
//!   in every host measured: `Buffer#ucs2Slice`, a UTF-16LE `TextDecoder`).
//! - Encodings are numbered as in `Encoding::all()` (the Standard's table order).
//!
//! Nothing here panics on any input: lengths and handles come from `core.js`, which
//! checks every argument before calling.
#![no_std]
#![allow(unsafe_code)]
// The exports that take addresses are `unsafe fn`s with the contract core.js keeps (see
// the conventions above): JavaScript calls them as any other, and no Rust code can reach
// them with a bad pointer without `unsafe`.
#![deny(unsafe_op_in_unsafe_fn)]

extern crate alloc;

use alloc::string::String;
use alloc::vec::Vec;
use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicU32, Ordering};

use textcodec::Encoding;

// Two modules are built from this crate: the codecs (the default: labels, decoding,
// encoding) and, with the `detect` feature, detection and sniffing, which JavaScript loads
// on the first `detect()` or `sniff()` call (src/detect.js). Each links only the library
// code its exports reach: the detector's models stay out of the codecs' module.
#[cfg(not(feature = "detect"))]
mod cjk;
#[cfg(not(feature = "detect"))]
mod decode;
#[cfg(feature = "detect")]
mod detect;
#[cfg(not(feature = "detect"))]
mod encode;

#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOC: dlmalloc::GlobalDlmalloc = dlmalloc::GlobalDlmalloc;

#[cfg(all(target_arch = "wasm32", not(test)))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::arch::wasm32::unreachable()
}

/// Module-wide state: single-threaded (a wasm instance runs one call at a time).
/// [`Global::get`] hands out a mutable reference, so it is an `unsafe fn`: each caller
/// vouches that no other reference from the same global is in use meanwhile.
pub(crate) struct Global<T>(UnsafeCell<T>);
// SAFETY: wasm32-unknown-unknown without threads: there is one thread, and no call
// re-enters another (nothing here calls out to JavaScript).
unsafe impl<T> Sync for Global<T> {}

impl<T> Global<T> {
    /// The state, for writing.
    ///
    /// # Safety
    /// No other reference from this global is used while the returned one is: take it
    /// once in a call and drop it before anything else takes it (see the `Sync` impl: no
    /// call re-enters another).
    #[allow(clippy::mut_from_ref)]
    pub(crate) unsafe fn get(&self) -> &mut T {
        // SAFETY: the caller's contract.
        unsafe { &mut *self.0.get() }
    }
}

/// The result slots: `[0]` output address, `[1]` output length (bytes or `u16` units),
/// `[2]` input consumed, `[3]` error offset (low 32 bits), `[4]` error offset (high 32
/// bits), `[5]` error detail (malformed bytes' length, or the unmappable code point),
/// `[6..8]` the malformed bytes (up to 8, little-endian).
/// Atomics, so that they are written through shared references (wasm32 without threads
/// compiles them to plain loads and stores; the layout is `u32`'s).
pub(crate) static RESULT: [AtomicU32; 8] = [const { AtomicU32::new(0) }; 8];
/// The one-shot calls' output buffers.
pub(crate) static ONCE: Global<Output> = Global(UnsafeCell::new(Output::new()));
/// Detection results: `[encoding, confidence, score, margin, flags]` then four per
/// ranked candidate: `[encoding, confidence, score, flags]`.
pub(crate) static NUMBERS: Global<Vec<f64>> = Global(UnsafeCell::new(Vec::new()));

/// Reused output buffers.
pub(crate) struct Output {
    pub(crate) text: String,
    #[cfg(not(feature = "detect"))]
    pub(crate) units: Vec<u16>,
    #[cfg(not(feature = "detect"))]
    pub(crate) bytes: Vec<u8>,
}

impl Output {
    pub(crate) const fn new() -> Output {
        Output {
            text: String::new(),
            #[cfg(not(feature = "detect"))]
            units: Vec::new(),
            #[cfg(not(feature = "detect"))]
            bytes: Vec::new(),
        }
    }
}

/// Sets result slot `i` (0..8).
pub(crate) fn set_slot(i: usize, value: u32) {
    if let Some(slot) = RESULT.get(i) {
        slot.store(value, Ordering::Relaxed);
    }
}

/// Result slot `i` (0..8).
#[cfg(not(feature = "detect"))]
pub(crate) fn slot(i: usize) -> u32 {
    RESULT.get(i).map_or(0, |s| s.load(Ordering::Relaxed))
}

pub(crate) fn set_output(ptr: *const u8, len: usize) {
    set_slot(0, ptr as u32);
    set_slot(1, len as u32);
}

/// `len` bytes of linear memory at `ptr`, written by JavaScript.
///
/// # Safety
/// Unless `len` is 0, `ptr` is a buffer from [`tc_alloc`] of at least `len` bytes that
/// nothing writes for `'a` (core.js does not touch it during the call); it is none of this
/// module's own buffers.
pub(crate) unsafe fn input<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        return &[];
    }
    // SAFETY: the caller's contract.
    unsafe { core::slice::from_raw_parts(ptr, len) }
}

#[cfg(not(feature = "detect"))]
///
/// # Safety
/// As [`input`], for `2 * len` bytes (`tc_alloc` aligns to 8).
pub(crate) unsafe fn input_units<'a>(ptr: *const u16, len: usize) -> &'a [u16] {
    if len == 0 {
        return &[];
    }
    // SAFETY: the caller's contract.
    unsafe { core::slice::from_raw_parts(ptr, len) }
}

pub(crate) fn encoding(id: u32) -> Option<Encoding> {
    Encoding::all().get(id as usize).copied()
}

pub(crate) fn id_of(e: Encoding) -> u32 {
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
///
/// # Safety
/// `ptr` is null or came from `tc_alloc(len)` and is not used again.
#[no_mangle]
pub unsafe extern "C" fn tc_free(ptr: *mut u8, len: u32) {
    if ptr.is_null() {
        return;
    }
    let Ok(layout) = core::alloc::Layout::from_size_align(len.max(1) as usize, 8) else {
        return;
    };
    // SAFETY: the caller's contract: `ptr` came from `tc_alloc(len)`, this layout.
    unsafe { alloc::alloc::dealloc(ptr, layout) }
}

/// The address of the result slots.
#[no_mangle]
pub extern "C" fn tc_result() -> *const u32 {
    RESULT.as_ptr().cast()
}

/// The address of the detection numbers (valid until the next `tc_detect`).
#[no_mangle]
pub extern "C" fn tc_numbers() -> *const f64 {
    // SAFETY: the only reference in this call.
    unsafe { NUMBERS.get() }.as_ptr()
}
// ---------------------------------------------------------------------------------------
// Encodings and labels

/// The encoding a label names (*get an encoding*: whitespace trimmed, ASCII
/// case-insensitive), or -1.
#[cfg(not(feature = "detect"))]
///
/// # Safety
/// `ptr` and `len` as for [`input`].
#[no_mangle]
pub unsafe extern "C" fn tc_label(ptr: *const u8, len: u32) -> i32 {
    // SAFETY: the caller's contract.
    let label = unsafe { input(ptr, len as usize) };
    Encoding::for_label(label).map_or(-1, |e| id_of(e) as i32)
}

/// Every encoding's name, then its labels: one line each, `Name label label…`, in the
/// Standard's order; the output is in the result slots.
#[cfg(not(feature = "detect"))]
#[no_mangle]
pub extern "C" fn tc_names() {
    // SAFETY: the only reference in this call.
    let out = &mut unsafe { ONCE.get() }.text;
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
#[cfg(not(feature = "detect"))]
#[no_mangle]
pub extern "C" fn tc_kernel() {
    // SAFETY: the only reference in this call.
    let out = &mut unsafe { ONCE.get() }.text;
    out.clear();
    out.push_str(textcodec::kernel_info().active);
    set_output(out.as_ptr(), out.len());
}
