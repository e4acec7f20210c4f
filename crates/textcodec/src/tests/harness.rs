//! Drivers for the real [`Decoder`] and [`Encoder`] used by the sweeps and properties: feed
//! input in given chunks, with output buffers of a given size, resume after every error, and
//! collect everything observable.

use std::string::String;
use std::vec::Vec;
#[allow(unused_imports)]
use std::{borrow::ToOwned, boxed::Box, format, string::ToString, vec};

use super::reference::{EncEvent, Event};
use crate::{
    BomHandling, DecodeErrorMode, DecodeStatus, Decoder, DecoderOptions, EncodeErrorMode,
    EncodeStatus, Encoder, Encoding,
};

/// What a real decode produced.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct RealDecode {
    pub(crate) text: String,
    /// (offset, bytes, position after the error) of each `Malformed` (fatal mode).
    pub(crate) errors: Vec<(usize, Vec<u8>, usize)>,
    pub(crate) replacements: u64,
}

/// Output unit: UTF-8 or UTF-16.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Out {
    Utf8,
    Utf16,
}

/// Decodes `input` with the real decoder, split at `splits` (sorted offsets; the last call
/// has `last == true`), into output buffers of `cap` units (grown when a call makes no
/// progress), resuming after every `Malformed`.
pub(crate) fn real_decode(
    encoding: Encoding,
    input: &[u8],
    fatal: bool,
    out: Out,
    splits: &[usize],
    cap: usize,
) -> RealDecode {
    let options = DecoderOptions {
        error_mode: if fatal {
            DecodeErrorMode::Fatal
        } else {
            DecodeErrorMode::Replacement
        },
        bom: BomHandling::Keep,
    };
    let mut decoder = Decoder::with_options(encoding, options);
    let mut text8: Vec<u8> = Vec::new();
    let mut text16: Vec<u16> = Vec::new();
    let mut errors = Vec::new();
    let mut bounds: Vec<usize> = splits
        .iter()
        .copied()
        .filter(|&s| s < input.len())
        .collect();
    bounds.push(input.len());
    let mut start = 0;
    // The smallest buffer that always fits one handler result (Big5's two code points).
    let min_cap = match out {
        Out::Utf8 => 4,
        Out::Utf16 => 2,
    };
    for (i, &end) in bounds.iter().enumerate() {
        let last = i + 1 == bounds.len();
        let mut src = &input[start..end];
        let mut cap = cap.max(1);
        let mut buf8 = std::vec![0u8; cap];
        let mut buf16 = std::vec![0u16; cap];
        loop {
            buf8.resize(cap, 0);
            buf16.resize(cap, 0);
            let r = match out {
                Out::Utf8 => {
                    let buf = &mut buf8[..cap];
                    let r = decoder.decode_to_utf8(src, buf, last);
                    assert!(r.written <= cap);
                    assert!(
                        core::str::from_utf8(&buf[..r.written]).is_ok(),
                        "{encoding:?}: invalid UTF-8 output"
                    );
                    text8.extend_from_slice(&buf[..r.written]);
                    r
                }
                Out::Utf16 => {
                    let buf = &mut buf16[..cap];
                    let r = decoder.decode_to_utf16(src, buf, last);
                    assert!(r.written <= cap);
                    text16.extend_from_slice(&buf[..r.written]);
                    r
                }
            };
            assert!(r.read <= src.len());
            src = &src[r.read..];
            match r.status {
                DecodeStatus::InputEmpty => {
                    assert!(src.is_empty(), "{encoding:?}: InputEmpty with input left");
                    break;
                }
                DecodeStatus::OutputFull => {
                    if r.read == 0 && r.written == 0 {
                        assert!(cap < min_cap, "{encoding:?}: no progress with {cap} units");
                        cap *= 2;
                    }
                }
                DecodeStatus::Malformed(m) => {
                    assert!(fatal, "{encoding:?}: Malformed in replacement mode");
                    errors.push((m.offset() as usize, m.bytes().to_vec(), {
                        decoder.position() as usize
                    }));
                }
            }
        }
        start = end;
    }
    let text = match out {
        Out::Utf8 => String::from_utf8(text8).expect("UTF-8 output"),
        Out::Utf16 => String::from_utf16(&text16).expect("well-formed UTF-16 output"),
    };
    RealDecode {
        text,
        errors,
        replacements: decoder.replacements(),
    }
}

/// What the reference says the real decoder must produce, in either mode.
pub(crate) fn expected_decode(events: &[Event], fatal: bool) -> RealDecode {
    let mut text = String::new();
    let mut errors = Vec::new();
    for e in events {
        match e {
            Event::Char(c) => text.push(*c),
            Event::Error {
                bytes,
                offset,
                position,
            } => {
                if fatal {
                    errors.push((*offset, bytes.clone(), *position));
                } else {
                    text.push('\u{FFFD}');
                }
            }
        }
    }
    let replacements = if fatal { 0 } else { errors_in(events) as u64 };
    RealDecode {
        text,
        errors,
        replacements,
    }
}

pub(crate) fn errors_in(events: &[Event]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, Event::Error { .. }))
        .count()
}

/// Compares a real decode with the reference. In fatal mode the malformed bytes and their
/// offsets must match exactly.
#[track_caller]
pub(crate) fn check_decode(
    encoding: Encoding,
    input: &[u8],
    events: &[Event],
    fatal: bool,
    out: Out,
    splits: &[usize],
    cap: usize,
) {
    let real = real_decode(encoding, input, fatal, out, splits, cap);
    let expected = expected_decode(events, fatal);
    if real != expected {
        panic!(
            "{encoding:?} {} {out:?} splits {splits:?} cap {cap}\ninput {input:02X?}\n real {real:?}\n want {expected:?}",
            if fatal { "fatal" } else { "replacement" }
        );
    }
}

/// What a real encode produced: the events in the reference's vocabulary.
pub(crate) fn real_encode_utf8(
    encoding: Encoding,
    text: &str,
    mode: EncodeErrorMode,
    splits: &[usize],
    cap: usize,
) -> Vec<EncEvent> {
    let mut encoder = Encoder::new(encoding, mode).expect("encoder");
    let mut events = Vec::new();
    let mut bounds: Vec<usize> = splits
        .iter()
        .copied()
        .filter(|&s| s < text.len() && text.is_char_boundary(s))
        .collect();
    bounds.push(text.len());
    let mut start = 0;
    for (i, &end) in bounds.iter().enumerate() {
        let last = i + 1 == bounds.len();
        let mut src = &text[start..end];
        let mut cap = cap.max(1);
        let mut buf = std::vec![0u8; cap];
        loop {
            buf.resize(cap, 0);
            let r = encoder.encode_from_utf8(src, &mut buf[..cap], last);
            assert!(r.read <= src.len() && r.written <= cap);
            push_bytes(&mut events, &buf[..r.written]);
            src = &src[r.read..];
            match r.status {
                EncodeStatus::InputEmpty => {
                    assert!(src.is_empty());
                    break;
                }
                EncodeStatus::OutputFull => {
                    if r.read == 0 && r.written == 0 {
                        assert!(cap < 16, "{encoding:?}: no progress with {cap} bytes");
                        cap *= 2;
                    }
                }
                EncodeStatus::Unmappable(u) => {
                    assert_eq!(mode, EncodeErrorMode::Fatal);
                    events.push(EncEvent::Error(u32::from(u.code_point())));
                }
            }
        }
        start = end;
    }
    events
}

/// As [`real_encode_utf8`], from UTF-16 split at any unit.
pub(crate) fn real_encode_utf16(
    encoding: Encoding,
    text: &[u16],
    mode: EncodeErrorMode,
    splits: &[usize],
    cap: usize,
) -> Vec<EncEvent> {
    let mut encoder = Encoder::new(encoding, mode).expect("encoder");
    let mut events = Vec::new();
    let mut bounds: Vec<usize> = splits.iter().copied().filter(|&s| s < text.len()).collect();
    bounds.push(text.len());
    let mut start = 0;
    for (i, &end) in bounds.iter().enumerate() {
        let last = i + 1 == bounds.len();
        let mut src = &text[start..end];
        let mut cap = cap.max(1);
        let mut buf = std::vec![0u8; cap];
        loop {
            buf.resize(cap, 0);
            let r = encoder.encode_from_utf16(src, &mut buf[..cap], last);
            assert!(r.read <= src.len() && r.written <= cap);
            push_bytes(&mut events, &buf[..r.written]);
            src = &src[r.read..];
            match r.status {
                EncodeStatus::InputEmpty => {
                    assert!(src.is_empty());
                    break;
                }
                EncodeStatus::OutputFull => {
                    if r.read == 0 && r.written == 0 {
                        assert!(cap < 16, "{encoding:?}: no progress with {cap} bytes");
                        cap *= 2;
                    }
                }
                EncodeStatus::Unmappable(u) => {
                    assert_eq!(mode, EncodeErrorMode::Fatal);
                    events.push(EncEvent::Error(u32::from(u.code_point())));
                }
            }
        }
        start = end;
    }
    events
}

fn push_bytes(events: &mut Vec<EncEvent>, bytes: &[u8]) {
    if bytes.is_empty() {
        return;
    }
    if let Some(EncEvent::Bytes(b)) = events.last_mut() {
        b.extend_from_slice(bytes);
    } else {
        events.push(EncEvent::Bytes(bytes.to_vec()));
    }
}

/// Merges adjacent byte events so event lists compare independently of chunking.
pub(crate) fn normalize(events: Vec<EncEvent>) -> Vec<EncEvent> {
    let mut out = Vec::new();
    for e in events {
        match e {
            EncEvent::Bytes(b) => push_bytes(&mut out, &b),
            e => out.push(e),
        }
    }
    out
}
