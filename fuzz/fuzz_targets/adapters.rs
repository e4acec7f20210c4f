//! Arbitrary bytes through the std streaming adapters, with hostile inner readers and
//! writers, against the one-shot reference (issue #27; `tests/arbitrary_bytes.rs` is the
//! property-test twin, which also covers the tokio and futures adapters).
//!
//! The first bytes choose the encodings, modes, piece sizes and how the inner reader or
//! writer misbehaves (`Interrupted`/`WouldBlock` every other call, one byte at a time, a
//! plain error every other call that the caller retries); the rest is the input. The
//! adapter's output must be exactly the reference: `DecodeReader`/`DecodeBufReader` as
//! the decoder over the whole input (resuming after fatal errors, at the same offsets),
//! `EncodeWriter` as the UTF-8 decode up to its first error then the encoder,
//! `TranscodeReader` as decode then encode.
#![no_main]

#[path = "common.rs"]
mod common;
#[path = "../../crates/textcodec/tests/common/reference.rs"]
mod reference;

use std::io::{self, BufRead, Read, Write};

use common::Rng;
use libfuzzer_sys::fuzz_target;
use reference::{reference_decode, reference_encode, Decoded};
use textcodec::io::{DecodeBufReader, DecodeReader, EncodeError, EncodeWriter, TranscodeReader};
use textcodec::{
    BomHandling, DecodeErrorMode, Decoder, DecoderOptions, EncodeErrorMode, Encoder, Encoding,
    MalformedSequence,
};

#[derive(Clone, Copy)]
enum Mood {
    Polite,
    Interrupting,
    Blocking,
    OneByte,
    Failing,
}

fn mood(b: u64) -> Mood {
    [
        Mood::Polite,
        Mood::Interrupting,
        Mood::Blocking,
        Mood::OneByte,
        Mood::Failing,
    ][(b % 5) as usize]
}

/// A transient error of a `Failing` writer; the caller retries it.
#[derive(Debug)]
struct Hiccup;

impl std::fmt::Display for Hiccup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("hiccup")
    }
}

impl std::error::Error for Hiccup {}

fn transient(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock
    ) || e.get_ref().is_some_and(|inner| inner.is::<Hiccup>())
}

/// Misbehaves per its mood on every other call; pieces of the sizes the `Rng` gives.
struct Hostile<'a> {
    data: &'a [u8],
    got: Vec<u8>,
    rng: Rng,
    turn: usize,
    mood: Mood,
}

impl Hostile<'_> {
    fn refuse(&mut self) -> Option<io::Error> {
        self.turn += 1;
        let odd = self.turn % 2 == 1;
        match self.mood {
            Mood::Interrupting if odd => Some(io::ErrorKind::Interrupted.into()),
            Mood::Blocking if odd => Some(io::ErrorKind::WouldBlock.into()),
            Mood::Failing if odd => Some(io::Error::other(Hiccup)),
            _ => None,
        }
    }

    fn size(&mut self, most: usize) -> usize {
        match self.mood {
            Mood::OneByte => 1,
            _ => 1 + self.rng.upto(700),
        }
        .min(most)
    }
}

impl Read for Hostile<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(e) = self.refuse() {
            return Err(e);
        }
        let n = self.size(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

impl Write for Hostile<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(e) = self.refuse() {
            return Err(e);
        }
        let n = self.size(buf.len());
        self.got.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.refuse().map_or(Ok(()), Err)
    }
}

fn malformed_offset(e: &io::Error) -> Option<u64> {
    e.get_ref()?
        .downcast_ref::<MalformedSequence>()
        .map(MalformedSequence::offset)
}

/// Everything from `reader` in reads of random sizes, going on after fatal errors.
fn read_all(reader: &mut impl Read, rng: &mut Rng) -> Decoded {
    let (mut text, mut errors) = (Vec::new(), Vec::new());
    loop {
        let mut buf = vec![0u8; 1 + rng.upto(300)];
        match reader.read(&mut buf) {
            Ok(0) => return Decoded { text, errors },
            Ok(n) => text.extend_from_slice(&buf[..n]),
            Err(e) if transient(&e) => {}
            Err(e) => {
                let offset = malformed_offset(&e).unwrap_or_else(|| panic!("read: {e}"));
                errors.push((text.len(), offset));
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 8 {
        return;
    }
    let (head, input) = data.split_at(8);
    let mut rng = Rng::new(head);
    let e = common::encoding(head[0]);
    let options = DecoderOptions {
        error_mode: if head[1] & 1 == 0 {
            DecodeErrorMode::Replacement
        } else {
            DecodeErrorMode::Fatal
        },
        bom: [BomHandling::Sniff, BomHandling::Remove, BomHandling::Keep]
            [usize::from(head[1] >> 1) % 3],
    };
    let hostile = |data, rng: &mut Rng| Hostile {
        data,
        got: Vec::new(),
        rng: Rng::new(&rng.next().to_le_bytes()),
        turn: 0,
        mood: mood(rng.next()),
    };

    // Decoding readers.
    let want = reference_decode(input, e, options);
    let capacity = 1 + rng.upto(300);
    let inner = hostile(input, &mut rng);
    let mut r = DecodeReader::with_capacity(capacity, inner, Decoder::with_options(e, options));
    assert!(read_all(&mut r, &mut rng) == want, "DecodeReader {e:?}");

    let buffer = 1 + rng.upto(200);
    let inner = io::BufReader::with_capacity(buffer, hostile(input, &mut rng));
    let mut r = DecodeBufReader::new(inner, Decoder::with_options(e, options));
    let (mut text, mut errors) = (Vec::new(), Vec::new());
    loop {
        match r.fill_buf() {
            Ok([]) => break,
            Ok(t) => {
                let n = (1 + rng.upto(300)).min(t.len());
                text.extend_from_slice(&t[..n]);
                r.consume(n);
            }
            Err(err) if transient(&err) => {}
            Err(err) => {
                let offset = malformed_offset(&err).unwrap_or_else(|| panic!("fill_buf: {err}"));
                errors.push((text.len(), offset));
            }
        }
    }
    assert!(Decoded { text, errors } == want, "DecodeBufReader {e:?}");

    // The encoding writer (the input as UTF-8) and the transcoder (into this encoding).
    let to = common::encoding(head[2]);
    if to == Encoding::Replacement {
        return;
    }
    let mode = [
        EncodeErrorMode::Fatal,
        EncodeErrorMode::Html,
        EncodeErrorMode::Replace,
    ][usize::from(head[3]) % 3];
    let want = reference_encode(input, to, mode);
    let capacity = 64 + rng.upto(300);
    let inner = hostile(&[], &mut rng);
    let mut w = EncodeWriter::with_capacity(capacity, inner, Encoder::new(to, mode).unwrap());
    let mut error = None;
    let mut rest = input;
    'writing: while !rest.is_empty() {
        let n = (1 + rng.upto(700)).min(rest.len());
        let mut piece = &rest[..n];
        while !piece.is_empty() {
            match w.write(piece) {
                Ok(k) => {
                    assert!(k > 0, "write took nothing");
                    piece = &piece[k..];
                }
                Err(err) if transient(&err) => {}
                Err(err) => {
                    let inner = err.get_ref().and_then(|i| i.downcast_ref::<EncodeError>());
                    let inner = inner.unwrap_or_else(|| panic!("write: {err}"));
                    error = Some((inner.is_invalid_utf8(), inner.offset()));
                    break 'writing;
                }
            }
        }
        rest = &rest[n..];
    }
    loop {
        match w.try_finish() {
            Ok(()) => break,
            Err(err) if transient(&err) => {}
            Err(err) => {
                let inner = err.get_ref().and_then(|i| i.downcast_ref::<EncodeError>());
                let inner = inner.unwrap_or_else(|| panic!("finish: {err}"));
                assert!(error.is_none(), "a second error: {err}");
                error = Some((inner.is_invalid_utf8(), inner.offset()));
            }
        }
    }
    let got = std::mem::take(&mut w.get_mut().unwrap().got);
    if (&got, error) != (&want.bytes, want.error) {
        let at = got
            .iter()
            .zip(&want.bytes)
            .take_while(|(a, b)| a == b)
            .count();
        panic!(
            "EncodeWriter {to:?} {mode:?}: error {error:?}, want {:?}; {} bytes, want {}, \
             first difference at {at}",
            want.error,
            got.len(),
            want.bytes.len()
        );
    }

    let text = String::from_utf8(reference_decode(input, e, options).text).unwrap();
    let mut want = Vec::new();
    let mut encoder = Encoder::new(to, EncodeErrorMode::Html).unwrap();
    let _ = encoder.encode_from_utf8_to_vec(&text, &mut want, true);
    let inner = hostile(input, &mut rng);
    let encoder = Encoder::new(to, EncodeErrorMode::Html).unwrap();
    let mut r = TranscodeReader::new(inner, Decoder::with_options(e, options), encoder);
    let got = read_all(&mut r, &mut rng).text;
    assert!(got == want, "TranscodeReader {e:?} -> {to:?}");
});
