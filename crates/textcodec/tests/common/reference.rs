//! The one-shot references the streaming adapters are held to (issue #27): shared by
//! `tests/arbitrary_bytes.rs` and the `adapters` fuzz target (`fuzz/fuzz_targets`), which
//! include this file by path.
#![allow(dead_code)]

use textcodec::{
    DecodeStatus, Decoder, DecoderOptions, EncodeErrorMode, EncodeStatus, Encoder, Encoding,
};

/// What a decoding reader yields: the text, with the stream offset of each fatal error
/// at the point in the text where it came.
#[derive(Debug, PartialEq, Default)]
pub struct Decoded {
    pub text: Vec<u8>,
    pub errors: Vec<(usize, u64)>,
}

/// The reference: the decoder over the whole input, resuming after each error.
pub fn reference_decode(bytes: &[u8], e: Encoding, options: DecoderOptions) -> Decoded {
    let mut decoder = Decoder::with_options(e, options);
    let mut text = String::new();
    let mut errors = Vec::new();
    let mut rest = bytes;
    loop {
        let r = decoder.decode_to_string(rest, &mut text, true);
        rest = &rest[r.read..];
        match r.status {
            DecodeStatus::Malformed(m) => errors.push((text.len(), m.offset())),
            DecodeStatus::InputEmpty => break,
            DecodeStatus::OutputFull => unreachable!("decode_to_string grows"),
        }
    }
    Decoded {
        text: text.into_bytes(),
        errors,
    }
}

/// What a writer test saw: the bytes the inner writer got and the adapter's error (the
/// first malformed UTF-8 or, in fatal mode, unmappable character: its offset).
#[derive(Debug, PartialEq)]
pub struct Written {
    pub bytes: Vec<u8>,
    pub error: Option<(bool, u64)>,
}

/// The reference of an encoding writer: the Standard's UTF-8 decode up to its first
/// error (`str::from_utf8` finds the same offset), then the encoder over that text in
/// one call; in fatal mode it stops at the first unmappable character.
pub fn reference_encode(bytes: &[u8], e: Encoding, mode: EncodeErrorMode) -> Written {
    let (valid, mut error) = match std::str::from_utf8(bytes) {
        Ok(s) => (s, None),
        Err(err) => (
            std::str::from_utf8(&bytes[..err.valid_up_to()]).unwrap(),
            Some((true, err.valid_up_to() as u64)),
        ),
    };
    let mut encoder = Encoder::new(e, mode).unwrap();
    let mut out = Vec::new();
    let r = encoder.encode_from_utf8_to_vec(valid, &mut out, true);
    if let EncodeStatus::Unmappable(u) = r.status {
        let at = r.read - u.character().len_utf8();
        error = Some((false, at as u64));
        // The end of the stream after the text before it (ISO-2022-JP's return to ASCII
        // is already written by the unmappable's handling if it was needed).
        let _ = encoder.encode_from_utf8_to_vec("", &mut out, true);
    }
    Written { bytes: out, error }
}
