//! The JavaScript API's model (#api) against simple models, for every encoding:
//! - `TextDecoder.decode` over documents split into chunks with `stream: true`, ended by
//!   `stream: false` (with or without a final chunk), as `String` or UTF-16, fatal or not,
//!   `ignoreBOM` or not; and `TextDecoderStream` transform/flush. Model: decode the whole
//!   document in replacement mode, then drop one leading U+FEFF for UTF-8/UTF-16BE/LE unless
//!   `ignoreBOM` (#concept-td-serialize). Fatal: `TypeError` exactly when the model had an
//!   error, and the text returned before it is a prefix of the model's.
//! - `TextEncoder.encode` = USVString conversion then UTF-8; `encodeInto` with random
//!   destination sizes (scalar values while their bytes fit; a pair counts two units, a
//!   lone surrogate one); repeated `encodeInto` over the rest = `encode`; `encodeInto` from
//!   `&str`; `TextEncoderStream` with chunks splitting surrogate pairs = `encode` of the
//!   whole.
#![no_main]

#[path = "common.rs"]
mod common;

use common::Rng;
use libfuzzer_sys::fuzz_target;
use textcodec::api::{
    ApiError, TextDecoder, TextDecoderOptions, TextDecoderStream, TextEncoder, TextEncoderStream,
};
use textcodec::{BomHandling, DecodeErrorMode, Decoder, DecoderOptions, Encoding};

/// The whole document in replacement mode: (text after BOM stripping, had errors).
fn model(encoding: Encoding, ignore_bom: bool, doc: &[u8]) -> (String, bool) {
    let mut d = Decoder::with_options(
        encoding,
        DecoderOptions {
            error_mode: DecodeErrorMode::Replacement,
            bom: BomHandling::Keep,
        },
    );
    let mut s = String::new();
    let _ = d.decode_to_string(doc, &mut s, true);
    let bom_encoding = matches!(
        encoding,
        Encoding::Utf8 | Encoding::Utf16Be | Encoding::Utf16Le
    );
    if bom_encoding && !ignore_bom && s.starts_with('\u{FEFF}') {
        s.drain(..3);
    }
    (s, d.replacements() > 0)
}

fn chunks<'a>(doc: &'a [u8], rng: &mut Rng, max: usize) -> Vec<&'a [u8]> {
    let mut v = Vec::new();
    let mut pos = 0;
    while pos < doc.len() || rng.upto(4) == 0 {
        let n = rng.upto(max).min(doc.len() - pos);
        v.push(&doc[pos..pos + n]);
        pos += n;
    }
    v
}

/// Checks a document's outputs (`Err` at the first TypeError) against the model.
fn check(out: Result<String, String>, want: &(String, bool), fatal: bool, what: &str) {
    match out {
        Ok(text) => {
            assert_eq!(&text, &want.0, "{what}");
            assert!(
                !(fatal && want.1),
                "{what}: no TypeError for malformed input"
            );
        }
        Err(prefix) => {
            assert!(fatal && want.1, "{what}: TypeError for well-formed input");
            assert!(
                want.0.starts_with(&prefix),
                "{what}: {prefix:?} before the error"
            );
        }
    }
}

fn text_decoder(
    encoding: Encoding,
    options: TextDecoderOptions,
    docs: &[Vec<&[u8]>],
    rng: &mut Rng,
) {
    let mut d = TextDecoder::new(encoding.name(), options).expect("a label");
    assert_eq!(d.encoding(), encoding.lowercase_name());
    for doc in docs {
        let whole: Vec<u8> = doc.concat();
        let want = model(encoding, options.ignore_bom, &whole);
        let mut text = String::new();
        let mut failed = false;
        // The last chunk goes with `stream: false`, or all go streaming and an empty
        // `decode()` ends the document.
        let end_empty = rng.upto(1) == 0;
        for (i, chunk) in doc.iter().enumerate() {
            let stream = end_empty || i + 1 < doc.len();
            let r = if rng.upto(1) == 0 {
                d.decode(Some(chunk), stream)
            } else {
                d.decode_to_utf16(Some(chunk), stream)
                    .map(|u| String::from_utf16(&u).expect("whole scalar values"))
            };
            match r {
                Ok(s) => text.push_str(&s),
                Err(e) => {
                    assert_eq!(e, ApiError::TypeError);
                    failed = true;
                    break;
                }
            }
        }
        if !failed && (end_empty || doc.is_empty()) {
            match d.decode(None, false) {
                Ok(s) => text.push_str(&s),
                Err(_) => failed = true,
            }
        }
        check(
            if failed { Err(text) } else { Ok(text) },
            &want,
            options.fatal,
            "TextDecoder",
        );
        if failed {
            d = TextDecoder::new(encoding.name(), options).expect("a label");
        }
    }
}

fn text_decoder_stream(
    encoding: Encoding,
    options: TextDecoderOptions,
    doc: &[&[u8]],
    rng: &mut Rng,
) {
    let mut s = TextDecoderStream::new(encoding.name(), options).expect("a label");
    let whole: Vec<u8> = doc.concat();
    let want = model(encoding, options.ignore_bom, &whole);
    let mut text = String::new();
    for chunk in doc {
        let r = if rng.upto(1) == 0 {
            s.transform(chunk)
        } else {
            s.transform_to_utf16(chunk)
                .map(|u| String::from_utf16(&u).expect("whole scalar values"))
        };
        match r {
            Ok(t) => text.push_str(&t),
            Err(_) => return check(Err(text), &want, options.fatal, "TextDecoderStream"),
        }
    }
    match s.flush() {
        Ok(t) => {
            text.push_str(&t);
            check(Ok(text), &want, options.fatal, "TextDecoderStream");
        }
        Err(_) => check(Err(text), &want, options.fatal, "TextDecoderStream"),
    }
}

/// `encodeInto`'s model: (units read, bytes).
fn encode_into_model(units: &[u16], room: usize) -> (usize, Vec<u8>) {
    let mut read = 0;
    let mut out = Vec::new();
    for r in char::decode_utf16(units.iter().copied()) {
        let (c, n) = match r {
            Ok(c) => (c, c.len_utf16()),
            Err(_) => ('\u{FFFD}', 1),
        };
        if out.len() + c.len_utf8() > room {
            break;
        }
        let mut buf = [0u8; 4];
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
        read += n;
    }
    (read, out)
}

fn text_encoder(units: &[u16], rng: &mut Rng) {
    let e = TextEncoder::new();
    assert_eq!(e.encoding(), "utf-8");
    let text = String::from_utf16_lossy(units);
    let all = e.encode_utf16(units);
    assert_eq!(all, text.as_bytes());
    assert_eq!(e.encode(&text), text.as_bytes());

    // One encodeInto with a random destination.
    let room = rng.upto(all.len() + 4);
    let mut dst = vec![0xAAu8; room];
    let r = e.encode_into(units, &mut dst);
    let (read, bytes) = encode_into_model(units, room);
    assert_eq!((r.read, r.written), (read as u64, bytes.len() as u64));
    assert_eq!(&dst[..bytes.len()], &bytes[..]);
    assert!(
        dst[bytes.len()..].iter().all(|&b| b == 0xAA),
        "wrote past `written`"
    );

    // Repeated encodeInto over the rest, as a JavaScript loop would.
    let mut out = Vec::new();
    let mut rest = units;
    let mut size = 0;
    while !rest.is_empty() {
        size = if size >= 4 { rng.upto(16) } else { size + 1 };
        let mut dst = vec![0u8; size];
        let r = e.encode_into(rest, &mut dst);
        out.extend_from_slice(&dst[..r.written as usize]);
        rest = &rest[r.read as usize..];
        if r.read > 0 {
            size = 0;
        }
    }
    assert_eq!(out, all);

    // From a Rust string: `read` counts UTF-16 units.
    let room = rng.upto(text.len() + 4);
    let mut dst = vec![0u8; room];
    let r = e.encode_into_str(&text, &mut dst);
    let lossless: Vec<u16> = text.encode_utf16().collect();
    let (read, bytes) = encode_into_model(&lossless, room);
    assert_eq!((r.read, r.written), (read as u64, bytes.len() as u64));
    assert_eq!(&dst[..bytes.len()], &bytes[..]);

    // TextEncoderStream: chunks split anywhere, surrogate pairs included.
    let mut s = TextEncoderStream::new();
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < units.len() {
        let n = rng.upto(7).min(units.len() - pos);
        let chunk = &units[pos..pos + n];
        pos += n;
        match String::from_utf16(chunk) {
            Ok(t) if rng.upto(1) == 0 => out.extend(s.transform_str(&t)),
            _ => out.extend(s.transform(chunk)),
        }
    }
    out.extend(s.flush());
    assert_eq!(out, all);
    assert!(s.flush().is_empty());
}

fuzz_target!(|data: &[u8]| {
    let [enc, flags, seed, rest @ ..] = data else {
        return;
    };
    let encoding = common::encoding(*enc);
    let mut rng = Rng::new(&[*enc, *flags, *seed]);
    let options = TextDecoderOptions {
        fatal: flags & 1 != 0,
        ignore_bom: flags & 2 != 0,
    };
    if flags & 4 != 0 {
        text_encoder(&common::units(rest), &mut rng);
        return;
    }
    if encoding == Encoding::Replacement {
        for label in encoding.own_labels() {
            assert_eq!(
                TextDecoder::new(label, options).err(),
                Some(ApiError::RangeError)
            );
            assert!(TextDecoderStream::new(label, options).is_err());
        }
        return;
    }
    let max_chunk = [1, 4, 16, 128][usize::from(flags >> 3) & 3];
    // Up to three documents.
    let mut docs = Vec::new();
    let mut pos = 0;
    for _ in 0..3 {
        let n = rng.upto(rest.len() - pos);
        docs.push(chunks(&rest[pos..pos + n], &mut rng, max_chunk));
        pos += n;
    }
    docs.push(chunks(&rest[pos..], &mut rng, max_chunk));
    text_decoder(encoding, options, &docs, &mut rng);
    text_decoder_stream(encoding, options, &docs[0], &mut rng);
    text_decoder_stream(encoding, options, &docs[3], &mut rng);
});
