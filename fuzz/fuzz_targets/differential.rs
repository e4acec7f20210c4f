//! Differential fuzzing against encoding_rs 0.8.44 (which has the GB18030-2022 index and
//! encoder side table), for every encoding:
//! - decoding without BOM handling, to UTF-8 (with the had-errors flag) and to UTF-16, of
//!   the raw input and of text encoded in the encoding (long valid runs, for the bulk
//!   paths);
//! - decoding with BOM sniffing (the *decode* hook, #decode; encoding_rs `Encoding::decode`),
//!   including which encoding was used;
//! - encoding in html mode (#encode, the *encode* hook) from `&str` and from `&[u16]` with
//!   lone surrogates (both convert them to U+FFFD first).
//!
//! Allowed differences (each one a place where the current Standard and encoding_rs
//! deliberately differ; none other has been found):
//! 1. #encoders-and-decoders: "The replacement and UTF-16BE/LE encodings have no encoder."
//!    encoding_rs's `new_encoder()` silently hands out UTF-8's encoder for them (their
//!    output encoding, #get-an-output-encoding); textcodec has no replacement encoder and
//!    offers UTF-16BE/LE encoders as a documented extension. For these three we compare
//!    the output encoding's encoder instead (what the Standard's callers use), and check
//!    that the output encodings agree.
#![no_main]

#[path = "common.rs"]
mod common;

use libfuzzer_sys::fuzz_target;
use textcodec::{
    BomHandling, DecodeErrorMode, Decoder, DecoderOptions, EncodeErrorMode, Encoder, Encoding,
};

fn rs(encoding: Encoding) -> &'static encoding_rs::Encoding {
    let rs = encoding_rs::Encoding::for_label(encoding.name().as_bytes()).expect("known name");
    assert_eq!(rs.name(), encoding.name());
    rs
}

/// Allowed difference 1: the encoder the comparison uses.
fn encoder_to_compare(encoding: Encoding) -> Encoding {
    match encoding {
        Encoding::Replacement | Encoding::Utf16Be | Encoding::Utf16Le => encoding.output_encoding(),
        e => e,
    }
}

fn decode_ours(encoding: Encoding, input: &[u8]) -> (String, bool, Vec<u16>) {
    let options = DecoderOptions {
        error_mode: DecodeErrorMode::Replacement,
        bom: BomHandling::Keep,
    };
    let mut d = Decoder::with_options(encoding, options);
    let mut s = String::new();
    let _ = d.decode_to_string(input, &mut s, true);
    let had_errors = d.replacements() > 0;
    let mut d = Decoder::with_options(encoding, options);
    let mut v = Vec::new();
    let _ = d.decode_to_utf16_vec(input, &mut v, true);
    (s, had_errors, v)
}

fn decode_theirs(encoding: Encoding, input: &[u8]) -> (String, bool, Vec<u16>) {
    let (text, had_errors) = rs(encoding).decode_without_bom_handling(input);
    let mut d = rs(encoding).new_decoder_without_bom_handling();
    let mut v = vec![0u16; d.max_utf16_buffer_length(input.len()).expect("small")];
    let (result, read, written, _) = d.decode_to_utf16(input, &mut v, true);
    assert_eq!(result, encoding_rs::CoderResult::InputEmpty);
    assert_eq!(read, input.len());
    v.truncate(written);
    (text.into_owned(), had_errors, v)
}

fn encode_theirs_utf16(encoding: Encoding, units: &[u16]) -> Vec<u8> {
    let mut e = rs(encoding).new_encoder();
    let mut out = Vec::new();
    let mut buf = [0u8; 256];
    let mut src = units;
    loop {
        let (result, read, written, _) = e.encode_from_utf16(src, &mut buf, true);
        out.extend_from_slice(&buf[..written]);
        src = &src[read..];
        if result == encoding_rs::CoderResult::InputEmpty {
            return out;
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let [enc, flags, input @ ..] = data else {
        return;
    };
    let encoding = common::encoding(*enc);
    assert_eq!(
        encoding.output_encoding().name(),
        rs(encoding).output_encoding().name()
    );

    // Decoding.
    let ours = decode_ours(encoding, input);
    let theirs = decode_theirs(encoding, input);
    assert!(
        ours == theirs,
        "{encoding:?} decode {input:02X?}: ours {ours:?}, encoding_rs {theirs:?}"
    );
    let (text, used) = textcodec::decode(input, encoding);
    let (text_rs, used_rs, _) = rs(encoding).decode(input);
    assert_eq!(used.name(), used_rs.name());
    assert_eq!(text, text_rs, "{encoding:?} decode hook");

    // Decoding text made of the encoding's own characters (what real input mostly is):
    // long runs of valid sequences reach the bulk paths (the CJK decoders' vector kernel
    // wants 64-byte blocks of ASCII and pairs), with a byte of the raw input spliced in
    // now and then to end a run in an error.
    // Repeated to a few hundred characters: fuzz inputs are short, the blocks are not.
    let text = common::text(input).repeat(1 + 300 / (input.len() + 1));
    let mut valid = rs(encoding.output_encoding()).encode(&text).0.into_owned();
    if flags & 2 != 0 && !valid.is_empty() {
        let at = usize::from(flags >> 2) * 37 % valid.len();
        valid.insert(at, input.first().copied().unwrap_or(0xFF));
    }
    let ours = decode_ours(encoding, &valid);
    let theirs = decode_theirs(encoding, &valid);
    assert!(
        ours == theirs,
        "{encoding:?} decode of encoded text {valid:02X?}: ours {ours:?}, encoding_rs {theirs:?}"
    );

    // Encoding.
    let target = encoder_to_compare(encoding);
    let mut e = Encoder::new(target, EncodeErrorMode::Html).expect("has an encoder");
    let (text, units) = if flags & 1 == 0 {
        let text = common::text(input);
        let units: Vec<u16> = text.encode_utf16().collect();
        (text, units)
    } else {
        let units = common::units(input);
        (String::from_utf16_lossy(&units), units)
    };
    let mut ours = Vec::new();
    let _ = e.encode_from_utf8_to_vec(&text, &mut ours, true);
    let (theirs, used, _) = rs(encoding).encode(&text);
    assert_eq!(used.name(), target.name());
    if ours != *theirs {
        let at = ours
            .iter()
            .zip(theirs.iter())
            .take_while(|(a, b)| a == b)
            .count();
        panic!(
            "{encoding:?} encode: differ at byte {at}: ours {:02X?}, encoding_rs {:02X?}",
            &ours[at..(at + 16).min(ours.len())],
            &theirs[at..(at + 16).min(theirs.len())]
        );
    }
    let mut e = Encoder::new(target, EncodeErrorMode::Html).expect("has an encoder");
    let mut ours16 = Vec::new();
    let _ = e.encode_from_utf16_to_vec(&units, &mut ours16, true);
    assert_eq!(
        ours16,
        encode_theirs_utf16(encoding, &units),
        "{encoding:?} from UTF-16"
    );
});
