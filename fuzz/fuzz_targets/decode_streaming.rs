//! Streaming decode with random chunk boundaries and random output-buffer sizes gives
//! exactly the one-shot result, for every encoding, to UTF-8 (`&mut [u8]` and `&mut str`
//! buffers) and UTF-16, in replacement and fatal mode (fatal: resume after each
//! `Malformed`; the errors' offsets and bytes and where they fall in the output must be
//! identical), with every BOM handling. Also: a buffer of `max_*_buffer_length` never
//! reports `OutputFull`.
#![no_main]

#[path = "common.rs"]
mod common;

use common::Rng;
use libfuzzer_sys::fuzz_target;
use textcodec::{
    BomHandling, DecodeErrorMode, DecodeStatus, Decoder, DecoderOptions, MalformedSequence,
};

/// (error, output length when it was reported) for each `Malformed`, in order.
type Errors = Vec<(MalformedSequence, usize)>;

fn one_shot_utf8(mut d: Decoder, src: &[u8]) -> (String, Errors) {
    let mut out = String::new();
    let mut errors = Vec::new();
    let mut rest = src;
    loop {
        let r = d.decode_to_string(rest, &mut out, true);
        rest = &rest[r.read..];
        match r.status {
            DecodeStatus::InputEmpty => break,
            DecodeStatus::OutputFull => panic!("decode_to_string returned OutputFull"),
            DecodeStatus::Malformed(m) => errors.push((m, out.len())),
        }
    }
    assert!(rest.is_empty());
    assert!(d.is_idle());
    (out, errors)
}

fn one_shot_utf16(mut d: Decoder, src: &[u8]) -> (Vec<u16>, Errors) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let mut rest = src;
    loop {
        let r = d.decode_to_utf16_vec(rest, &mut out, true);
        rest = &rest[r.read..];
        match r.status {
            DecodeStatus::InputEmpty => break,
            DecodeStatus::OutputFull => panic!("decode_to_utf16_vec returned OutputFull"),
            DecodeStatus::Malformed(m) => errors.push((m, out.len())),
        }
    }
    assert!(rest.is_empty());
    (out, errors)
}

/// Splits `src` at random points (empty chunks included) and decodes each chunk with
/// buffers of random sizes, growing a buffer only when a call made no progress.
/// `call(decoder, input, buffer size, last)` decodes into a scratch buffer of that size and
/// appends what it wrote to the output.
fn streamed<O: Default>(
    mut d: Decoder,
    src: &[u8],
    rng: &mut Rng,
    max_chunk: usize,
    max_buf: usize,
    mut call: impl FnMut(&mut Decoder, &[u8], usize, bool, &mut O) -> textcodec::DecodeResult,
    len: impl Fn(&O) -> usize,
) -> (O, Errors) {
    let mut out = O::default();
    let mut errors = Vec::new();
    let mut pos = 0;
    loop {
        let n = rng.upto(max_chunk).min(src.len() - pos);
        let last = pos + n == src.len() && rng.upto(3) != 0;
        let mut chunk = &src[pos..pos + n];
        pos += n;
        let mut size = rng.upto(max_buf);
        loop {
            let r = call(&mut d, chunk, size, last, &mut out);
            assert!(r.read <= chunk.len() && r.written <= size);
            chunk = &chunk[r.read..];
            match r.status {
                DecodeStatus::InputEmpty => {
                    assert!(chunk.is_empty());
                    break;
                }
                DecodeStatus::OutputFull => {
                    // No character takes more than 4 bytes or 2 units.
                    assert!(r.written + 4 > size, "OutputFull with room left");
                    size = if r.read == 0 && r.written == 0 {
                        size + 1
                    } else {
                        rng.upto(max_buf)
                    };
                }
                DecodeStatus::Malformed(m) => {
                    assert_eq!(d.options().error_mode, DecodeErrorMode::Fatal);
                    errors.push((m, len(&out)));
                    size = rng.upto(max_buf);
                }
            }
        }
        if last {
            return (out, errors);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let [enc, flags, seed, src @ ..] = data else {
        return;
    };
    let encoding = common::encoding(*enc);
    let options = DecoderOptions {
        error_mode: if flags & 1 == 0 {
            DecodeErrorMode::Replacement
        } else {
            DecodeErrorMode::Fatal
        },
        bom: [BomHandling::Sniff, BomHandling::Remove, BomHandling::Keep]
            [usize::from(flags >> 1) % 3],
    };
    let fresh = Decoder::with_options(encoding, options);
    let mut rng = Rng::new(&[*enc, *flags, *seed]);
    let max_chunk = [1, 3, 8, 64][usize::from(flags >> 3) & 3];
    let max_buf = [4, 8, 33, 300][usize::from(flags >> 5) & 3];

    let (text, errors) = one_shot_utf8(fresh.clone(), src);
    let (units, errors16) = one_shot_utf16(fresh.clone(), src);
    // The two output forms agree, and so do the errors (at the same place in the text).
    assert_eq!(units, text.encode_utf16().collect::<Vec<_>>());
    assert_eq!(errors.len(), errors16.len());
    for ((a, at), (b, at16)) in errors.iter().zip(&errors16) {
        assert_eq!(a, b);
        assert_eq!(text[..*at].encode_utf16().count(), *at16);
    }
    if options.error_mode == DecodeErrorMode::Replacement {
        assert!(errors.is_empty());
    }

    // The documented worst case is enough: no OutputFull, same output.
    if options.error_mode == DecodeErrorMode::Replacement {
        let mut d = fresh.clone();
        let max = d.max_utf8_buffer_length(src.len()).expect("small input");
        let mut buf = vec![0u8; max];
        let r = d.decode_to_utf8(src, &mut buf, true);
        assert_eq!((r.status, r.read), (DecodeStatus::InputEmpty, src.len()));
        assert_eq!(&buf[..r.written], text.as_bytes());
        let mut d = fresh.clone();
        let max = d.max_utf16_buffer_length(src.len()).expect("small input");
        let mut buf = vec![0u16; max];
        let r = d.decode_to_utf16(src, &mut buf, true);
        assert_eq!((r.status, r.read), (DecodeStatus::InputEmpty, src.len()));
        assert_eq!(buf[..r.written], units[..]);
    }

    match flags >> 7 {
        0 => {
            let mut scratch = vec![0u8; max_buf + 64];
            let (out, errs) = streamed(
                fresh.clone(),
                src,
                &mut rng,
                max_chunk,
                max_buf,
                |d, input, size, last, out: &mut Vec<u8>| {
                    if scratch.len() < size {
                        scratch.resize(size, 0);
                    }
                    let r = d.decode_to_utf8(input, &mut scratch[..size], last);
                    // Every call writes whole characters only.
                    assert!(std::str::from_utf8(&scratch[..r.written]).is_ok());
                    out.extend_from_slice(&scratch[..r.written]);
                    r
                },
                Vec::len,
            );
            assert_eq!(out, text.as_bytes());
            assert_eq!(errs, errors);
        }
        _ => {
            let mut scratch = vec![0u16; max_buf + 64];
            let (out, errs) = streamed(
                fresh.clone(),
                src,
                &mut rng,
                max_chunk,
                max_buf,
                |d, input, size, last, out: &mut Vec<u16>| {
                    if scratch.len() < size {
                        scratch.resize(size, 0);
                    }
                    let r = d.decode_to_utf16(input, &mut scratch[..size], last);
                    out.extend_from_slice(&scratch[..r.written]);
                    r
                },
                Vec::len,
            );
            assert_eq!(out, units);
            assert_eq!(errs, errors16);
        }
    }
    // `&mut str` buffers: whatever the size, the buffer stays a valid `str` and the
    // streamed text is the same.
    let (out, errs) = streamed(
        fresh,
        src,
        &mut rng,
        max_chunk,
        max_buf,
        |d, input, size, last, out: &mut String| {
            // Exactly `size` bytes, with three-byte characters a write may cut into.
            let mut buf = "\u{20AC}".repeat(size / 3) + &"a".repeat(size % 3);
            let r = d.decode_to_str(input, buf.as_mut_str(), last);
            out.push_str(&buf[..r.written]);
            r
        },
        String::len,
    );
    assert_eq!(out, text);
    assert_eq!(errs, errors);
});
