//! Arbitrary bytes through every streaming adapter, with hostile inner readers and
//! writers, against the one-shot reference (issue #27).
//!
//! The adapters' other property tests feed chosen text with chosen junk. Here the input
//! is any byte string — every byte value, NULs, lone trails after every byte value,
//! sequences of every encoding cut anywhere, runs long enough for every kernel's steps —
//! and the inner reader or writer misbehaves as real and hostile ones do: short pieces,
//! `Interrupted`/`WouldBlock`/`Pending` on every other call, data returned together with
//! an error or `Pending`, counts larger than the buffer, a replaced `ReadBuf`, writers
//! that take one byte at a time or fail every other call. The result must be exactly the
//! reference, or (for a reader or writer that breaks its trait's contract) a clear
//! `InvalidData` error after a prefix of it: never other memory, never lost or repeated
//! data.
//!
//! References: decoding readers — [`Decoder::decode_to_string`] over the whole input,
//! resuming after each fatal error; writers — the Standard's UTF-8 decode of the bytes
//! (up to the first malformed sequence, which the writer reports) then
//! [`Encoder::encode_from_utf8_to_vec`]; the transcoder — both in turn.
//!
//! `.ci/run` runs this file once per kernel level (`TEXTCODEC_KERNEL`).
#![cfg(feature = "std")]

use std::io::{self, BufRead, Read, Write};
use std::sync::OnceLock;

use proptest::prelude::*;

// The one-shot references, shared with the `adapters` fuzz target.
#[path = "common/reference.rs"]
mod reference;
use reference::{reference_decode, reference_encode, Decoded, Written};
use textcodec::io::{DecodeBufReader, DecodeReader, EncodeError, EncodeWriter, TranscodeReader};
use textcodec::{
    BomHandling, DecodeErrorMode, Decoder, DecoderOptions, EncodeErrorMode, Encoder, Encoding,
    MalformedSequence,
};

const SAMPLE: &str = "日本語のテキスト。Ελληνικά русский 한국어 中文 ¥‾\\~ café ☃ 😀 \
                      עברית العربية ไทย Tiếng Việt ĀāŽž €ƒ„ \r\nline ~ \\\n";

/// The sample in every encoding (html errors), each repeated to be longer than a few
/// kernel steps: the source of cut and valid legacy sequences.
fn encoded_samples() -> &'static [Vec<u8>] {
    static SAMPLES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    SAMPLES.get_or_init(|| {
        Encoding::all()
            .iter()
            .map(|&e| {
                let text = SAMPLE.repeat(3);
                match e {
                    Encoding::Utf16Le => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
                    Encoding::Utf16Be => text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
                    Encoding::Replacement => text.into_bytes(),
                    _ => {
                        let mut out = Vec::new();
                        let mut enc = Encoder::new(e, EncodeErrorMode::Html).unwrap();
                        let _ = enc.encode_from_utf8_to_vec(&text, &mut out, true);
                        out
                    }
                }
            })
            .collect()
    })
}

/// NUL, ASCII's ends, trails' ends, the overlong leads, two-byte leads (hot in Latin and
/// Cyrillic), three- and four-byte leads and the bytes never in UTF-8.
const EDGES: [u8; 16] = [
    0x00, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xD0, 0xDF, 0xE0, 0xED, 0xF0, 0xF4, 0xFF,
];

/// A piece of arbitrary input: any byte, any byte before a trail byte, an ASCII run (up
/// to two AVX-512 steps), a slice of the sample in some encoding (cut anywhere), or
/// random bytes.
fn piece() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        any::<u8>().prop_map(|b| vec![b]),
        (any::<u8>(), 0x80u8..0xC0).prop_map(|(b, t)| vec![b, t]),
        // The byte values at the edges of UTF-8's and the kernels' classes, then a trail.
        (
            proptest::sample::select(EDGES.to_vec()),
            proptest::sample::select(EDGES.to_vec())
        )
            .prop_map(|(b, t)| vec![b, t]),
        (1..130usize, any::<u8>()).prop_map(|(n, seed)| {
            (0..n)
                .map(|i| b' ' + ((seed as usize + i * 7) % 95) as u8)
                .collect()
        }),
        (
            0..Encoding::all().len(),
            any::<prop::sample::Index>(),
            1..140usize
        )
            .prop_map(|(e, at, len)| {
                let sample = &encoded_samples()[e];
                let start = at.index(sample.len());
                sample[start..(start + len).min(sample.len())].to_vec()
            }),
        proptest::collection::vec(any::<u8>(), 1..12),
    ]
}

/// Text in encoding `e`'s repertoire (what its bytes 0x20..=0xFF decode to, errors left
/// out), three times: for writers, whose input is mostly such text.
fn repertoire(e: usize) -> &'static str {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    &TEXTS.get_or_init(|| {
        Encoding::all()
            .iter()
            .map(|&e| {
                let bytes: Vec<u8> = (0x20..=0xFF).collect();
                let mut text = String::new();
                let _ = Decoder::new(e).decode_to_string(&bytes, &mut text, true);
                text.retain(|c| c != '\u{FFFD}');
                // (The replacement encoding decodes to U+FFFD alone.)
                text.push_str("plain ASCII ");
                text.repeat(3)
            })
            .collect()
    })[e]
}

/// Bytes for a writer in encoding `e`: mostly text it can encode (so the kernels run
/// far), with arbitrary pieces between.
fn writer_bytes(e: usize) -> impl Strategy<Value = Vec<u8>> {
    let text = repertoire(e);
    let chars: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
    let slice = (any::<prop::sample::Index>(), 1..200usize).prop_map(move |(at, len)| {
        let start = chars[at.index(chars.len())];
        let end = chars
            .get(chars.partition_point(|&i| i < start) + len)
            .copied()
            .unwrap_or(text.len());
        text.as_bytes()[start..end].to_vec()
    });
    proptest::collection::vec(prop_oneof![6 => slice, 1 => piece()], 0..10).prop_map(|p| p.concat())
}

fn utf8_index() -> usize {
    Encoding::all()
        .iter()
        .position(|&e| e == Encoding::Utf8)
        .unwrap()
}

/// Piece sizes for reads and writes: small ones (characters cut everywhere) and ones
/// past a few kernel steps (the kernels only run over 32 or 64 bytes at a time).
fn sizes() -> impl Strategy<Value = Vec<usize>> {
    proptest::collection::vec(prop_oneof![1..90usize, 60..700usize], 1..5)
}

fn arbitrary_bytes() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(piece(), 0..12).prop_map(|p| p.concat())
}

fn decoder_options() -> impl Strategy<Value = DecoderOptions> {
    (
        prop_oneof![
            Just(DecodeErrorMode::Replacement),
            Just(DecodeErrorMode::Fatal)
        ],
        prop_oneof![
            Just(BomHandling::Sniff),
            Just(BomHandling::Remove),
            Just(BomHandling::Keep)
        ],
    )
        .prop_map(|(error_mode, bom)| DecoderOptions { error_mode, bom })
}

fn encode_mode() -> impl Strategy<Value = EncodeErrorMode> {
    prop_oneof![
        Just(EncodeErrorMode::Fatal),
        Just(EncodeErrorMode::Html),
        Just(EncodeErrorMode::Replace)
    ]
}

fn malformed_offset(e: &io::Error) -> Option<u64> {
    e.get_ref()?
        .downcast_ref::<MalformedSequence>()
        .map(MalformedSequence::offset)
}

/// How an inner reader misbehaves.
#[derive(Clone, Copy, Debug)]
enum ReaderMood {
    /// Pieces of the given sizes, nothing else.
    Polite,
    /// `Interrupted` before every other piece.
    Interrupting,
    /// `WouldBlock` before every other piece (non-blocking I/O).
    Blocking,
    /// Claims one byte more than the buffer holds, on the third call: a contract breach.
    OverReporting,
}

fn reader_mood() -> impl Strategy<Value = ReaderMood> {
    prop_oneof![
        Just(ReaderMood::Polite),
        Just(ReaderMood::Interrupting),
        Just(ReaderMood::Blocking),
        Just(ReaderMood::OverReporting)
    ]
}

struct HostileReader<'a> {
    data: &'a [u8],
    sizes: Vec<usize>,
    turn: usize,
    mood: ReaderMood,
}

impl<'a> HostileReader<'a> {
    fn new(data: &'a [u8], sizes: &[usize], mood: ReaderMood) -> Self {
        HostileReader {
            data,
            sizes: sizes.to_vec(),
            turn: 0,
            mood,
        }
    }
}

impl Read for HostileReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.turn += 1;
        match self.mood {
            ReaderMood::Interrupting if self.turn % 2 == 1 => {
                return Err(io::ErrorKind::Interrupted.into())
            }
            ReaderMood::Blocking if self.turn % 2 == 1 => {
                return Err(io::ErrorKind::WouldBlock.into())
            }
            ReaderMood::OverReporting if self.turn == 3 => {
                buf.fill(b'!');
                return Ok(buf.len() + 1);
            }
            _ => {}
        }
        let n = self.sizes[self.turn % self.sizes.len()]
            .min(buf.len())
            .min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// Reads everything through `read` in reads of the given sizes, retrying transient
/// errors and going on after fatal decode errors. Returns what came and the first other
/// error. `read` is a reader's `read`, or an async one's polled to completion.
fn drain_reads(
    sizes: &[usize],
    mut read: impl FnMut(&mut [u8]) -> io::Result<usize>,
) -> (Decoded, Option<io::Error>) {
    let mut got = Decoded::default();
    for turn in 0..1_000_000 {
        let mut buf = vec![0u8; sizes[turn % sizes.len()]];
        match read(&mut buf) {
            Ok(0) => return (got, None),
            Ok(n) => got.text.extend_from_slice(&buf[..n]),
            Err(e) if transient(&e) => {}
            Err(e) => match malformed_offset(&e) {
                Some(offset) => got.errors.push((got.text.len(), offset)),
                None => return (got, Some(e)),
            },
        }
    }
    panic!("no progress");
}

/// [`drain_reads`] for a buffered reader: `take(most)` fills its buffer and consumes (and
/// returns) at most `most` bytes of it, or `None` at the end of the stream.
fn drain_buffered(
    sizes: &[usize],
    mut take: impl FnMut(usize) -> io::Result<Option<Vec<u8>>>,
) -> (Decoded, Option<io::Error>) {
    let mut got = Decoded::default();
    for turn in 0..1_000_000 {
        match take(sizes[turn % sizes.len()]) {
            Ok(None) => return (got, None),
            Ok(Some(text)) => got.text.extend_from_slice(&text),
            Err(e) if transient(&e) => {}
            Err(e) => match malformed_offset(&e) {
                Some(offset) => got.errors.push((got.text.len(), offset)),
                None => return (got, Some(e)),
            },
        }
    }
    panic!("no progress");
}

/// The outcome of a reader: from one that breaks its contract (`breach`), a clear
/// `InvalidData` after a prefix of the reference's text; from one that keeps it, the
/// reference.
fn check_read(
    got: &Decoded,
    error: Option<io::Error>,
    want: &Decoded,
    breach: bool,
) -> Result<(), TestCaseError> {
    match error {
        None => prop_assert_eq!(got, want),
        Some(e) => {
            prop_assert!(breach, "error from a polite reader: {e}");
            prop_assert_eq!(e.kind(), io::ErrorKind::InvalidData);
            prop_assert!(want.text.starts_with(&got.text), "not a prefix");
        }
    }
    Ok(())
}

/// The outcome of a `read_to_string` that appended `text`: the reference's text up to its
/// first fatal error and that error, or for a `breach`, [`check_read`]'s clear error.
fn check_read_to_string(
    text: &[u8],
    result: io::Result<usize>,
    want: &Decoded,
    breach: bool,
) -> Result<(), TestCaseError> {
    let until_error = want.errors.first().map_or(want.text.len(), |&(at, _)| at);
    match result {
        Ok(_) => {
            prop_assert!(want.errors.is_empty());
            prop_assert_eq!(text, &want.text[..]);
        }
        Err(err) if malformed_offset(&err).is_some() => {
            prop_assert_eq!(malformed_offset(&err), want.errors.first().map(|e| e.1));
            prop_assert_eq!(text, &want.text[..until_error]);
        }
        Err(err) => {
            let got = Decoded {
                text: text.to_vec(),
                errors: Vec::new(),
            };
            let want = Decoded {
                text: want.text[..until_error].to_vec(),
                errors: Vec::new(),
            };
            check_read(&got, Some(err), &want, breach)?;
        }
    }
    Ok(())
}

/// How an inner writer misbehaves.
#[derive(Clone, Copy, Debug)]
enum WriterMood {
    /// Takes pieces of the given sizes.
    Polite,
    /// One byte per call.
    OneByte,
    /// `Interrupted` on every other call (writes and flushes).
    Interrupting,
    /// `WouldBlock` on every other call.
    Blocking,
    /// A plain error on every other call; the caller retries.
    Failing,
    /// Claims one byte more than it was given, on the second call: a contract breach.
    OverReporting,
}

fn writer_mood() -> impl Strategy<Value = WriterMood> {
    prop_oneof![
        Just(WriterMood::Polite),
        Just(WriterMood::OneByte),
        Just(WriterMood::Interrupting),
        Just(WriterMood::Blocking),
        Just(WriterMood::Failing),
        Just(WriterMood::OverReporting)
    ]
}

struct HostileWriter {
    got: Vec<u8>,
    sizes: Vec<usize>,
    turn: usize,
    mood: WriterMood,
}

impl HostileWriter {
    fn new(sizes: &[usize], mood: WriterMood) -> Self {
        HostileWriter {
            got: Vec::new(),
            sizes: sizes.to_vec(),
            turn: 0,
            mood,
        }
    }

    fn refuse(&mut self) -> Option<io::Error> {
        self.turn += 1;
        let odd = self.turn % 2 == 1;
        match self.mood {
            WriterMood::Interrupting if odd => Some(io::ErrorKind::Interrupted.into()),
            WriterMood::Blocking if odd => Some(io::ErrorKind::WouldBlock.into()),
            WriterMood::Failing if odd => Some(io::Error::other(Hiccup)),
            _ => None,
        }
    }
}

/// The transient error a `Failing` writer returns (the caller retries it).
#[derive(Debug)]
struct Hiccup;

impl std::fmt::Display for Hiccup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("hiccup")
    }
}

impl std::error::Error for Hiccup {}

impl Write for HostileWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(e) = self.refuse() {
            return Err(e);
        }
        if matches!(self.mood, WriterMood::OverReporting) && self.turn == 2 {
            self.got.extend_from_slice(buf);
            return Ok(buf.len() + 1);
        }
        let n = match self.mood {
            WriterMood::OneByte => 1,
            _ => self.sizes[self.turn % self.sizes.len()],
        }
        .min(buf.len());
        self.got.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.refuse() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// Whether the caller retries `e` (the inner writer's transient errors).
fn transient(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock
    ) || e.get_ref().is_some_and(|inner| inner.is::<Hiccup>())
}

fn encode_error(e: &io::Error) -> Option<(bool, u64)> {
    let inner = e.get_ref()?.downcast_ref::<EncodeError>()?;
    Some((inner.is_invalid_utf8(), inner.offset()))
}

/// `f` until it gives something other than a transient error.
fn retry<T>(mut f: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    loop {
        match f() {
            Err(e) if transient(&e) => {}
            other => return other,
        }
    }
}

/// One call of an encoding writer: a write, or the end of the stream.
enum WriterCall<'a> {
    Write(&'a [u8]),
    Finish,
}

/// Writes `bytes` in pieces of the given sizes through `call`, retrying transient errors,
/// then finishes. Returns the adapter's first `EncodeError` (invalid UTF-8?, offset) and
/// any other error (a breach of the inner writer's contract), after which it stops.
fn drive_writer(
    bytes: &[u8],
    splits: &[usize],
    mut call: impl FnMut(WriterCall<'_>) -> io::Result<usize>,
) -> (Option<(bool, u64)>, Option<io::Error>) {
    let mut error = None;
    let mut rest = bytes;
    let mut turn = 0;
    'writing: while !rest.is_empty() {
        let n = splits[turn % splits.len()].min(rest.len());
        turn += 1;
        let mut piece = &rest[..n];
        while !piece.is_empty() {
            match call(WriterCall::Write(piece)) {
                Ok(k) => {
                    assert!(k > 0, "write took nothing");
                    piece = &piece[k..];
                }
                Err(err) if transient(&err) => {}
                Err(err) => match encode_error(&err) {
                    Some(found) => {
                        error = Some(found);
                        break 'writing;
                    }
                    None => return (error, Some(err)),
                },
            }
        }
        rest = &rest[n..];
    }
    loop {
        match call(WriterCall::Finish) {
            Ok(_) => return (error, None),
            Err(err) if transient(&err) => {}
            Err(err) => match encode_error(&err) {
                // A sequence cut by the end of the stream: reported by finishing.
                Some(found) if error.is_none() => error = Some(found),
                _ => return (error, Some(err)),
            },
        }
    }
}

/// The outcome of a writer: from one that breaks its contract (`breach`), a clear
/// `InvalidData` after a prefix of the reference's bytes; else the reference.
fn check_written(
    got: Written,
    breach_error: Option<io::Error>,
    want: &Written,
    breach: bool,
) -> Result<(), TestCaseError> {
    match breach_error {
        None => prop_assert_eq!(&got, want),
        Some(err) => {
            prop_assert!(breach, "error from a polite writer: {err}");
            prop_assert_eq!(err.kind(), io::ErrorKind::InvalidData);
            prop_assert!(want.bytes.starts_with(&got.bytes), "not a prefix");
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        ..ProptestConfig::default()
    })]

    /// `DecodeReader` (`read` with any buffer sizes, and `read_to_string`) over any bytes
    /// in any encoding, error mode and BOM handling, from a hostile reader.
    #[test]
    fn decode_reader(
        bytes in arbitrary_bytes(),
        e in 0..40usize,
        options in decoder_options(),
        inner_sizes in sizes(),
        read_sizes in sizes(),
        capacity in 1..200usize,
        mood in reader_mood(),
    ) {
        let e = Encoding::all()[e];
        let want = reference_decode(&bytes, e, options);
        let inner = HostileReader::new(&bytes, &inner_sizes, mood);
        let mut r = DecodeReader::with_capacity(capacity, inner, Decoder::with_options(e, options));
        let (got, error) = drain_reads(&read_sizes, |buf| r.read(buf));
        let breach = matches!(mood, ReaderMood::OverReporting);
        check_read(&got, error, &want, breach)?;

        // `read_to_string` (the in-place UTF-8 path among others) stops at the first
        // fatal error, after the text before it.
        let inner = HostileReader::new(&bytes, &inner_sizes, mood);
        let mut r = DecodeReader::with_capacity(capacity, inner, Decoder::with_options(e, options));
        let mut text = String::from("kept ");
        let result = retry(|| r.read_to_string(&mut text));
        check_read_to_string(&text.as_bytes()[5..], result, &want, breach)?;
    }

    /// `DecodeBufReader` (`fill_buf`/`consume` in any amounts) over a `BufReader` of a
    /// hostile reader.
    #[test]
    fn decode_buf_reader(
        bytes in arbitrary_bytes(),
        e in 0..40usize,
        options in decoder_options(),
        inner_sizes in sizes(),
        consume_sizes in sizes(),
        buffer in 1..100usize,
        // (std's `BufReader` itself panics on an inner reader that over-reports.)
        mood in prop_oneof![Just(ReaderMood::Polite), Just(ReaderMood::Interrupting), Just(ReaderMood::Blocking)],
    ) {
        let e = Encoding::all()[e];
        let want = reference_decode(&bytes, e, options);
        let inner = io::BufReader::with_capacity(buffer, HostileReader::new(&bytes, &inner_sizes, mood));
        let mut r = DecodeBufReader::new(inner, Decoder::with_options(e, options));
        let (got, error) = drain_buffered(&consume_sizes, |most| {
            let text = r.fill_buf()?;
            let n = most.min(text.len());
            let taken = (n > 0).then(|| text[..n].to_vec());
            r.consume(n);
            Ok(taken)
        });
        check_read(&got, error, &want, false)?;
    }

    /// `EncodeWriter` over any bytes claimed to be UTF-8, in any encoding and error mode,
    /// written in any pieces to a hostile writer.
    #[test]
    fn encode_writer(
        (e, bytes) in (0..40usize).prop_flat_map(|e| (Just(e), writer_bytes(e))),
        mode in encode_mode(),
        splits in sizes(),
        inner_sizes in sizes(),
        capacity in 64..300usize,
        mood in writer_mood(),
    ) {
        let e = Encoding::all()[e];
        prop_assume!(e != Encoding::Replacement);
        let want = reference_encode(&bytes, e, mode);
        let encoder = Encoder::new(e, mode).unwrap();
        let mut w = EncodeWriter::with_capacity(capacity, HostileWriter::new(&inner_sizes, mood), encoder);
        let (error, breach_error) = drive_writer(&bytes, &splits, |call| match call {
            WriterCall::Write(piece) => w.write(piece),
            WriterCall::Finish => w.try_finish().map(|()| 0),
        });
        let got = Written { bytes: std::mem::take(&mut w.get_mut().unwrap().got), error };
        check_written(got, breach_error, &want, matches!(mood, WriterMood::OverReporting))?;
    }

    /// `TranscodeReader` over any bytes, any decoder options and encoder mode: decode (the
    /// reference's text and errors) then encode.
    #[test]
    fn transcode_reader(
        (from, to, bytes) in prop_oneof![
            (0..40usize, 0..40usize, arbitrary_bytes()),
            // UTF-8 in the target's repertoire: the reader hands valid input to the
            // encoder's kernels without decoding it.
            (0..40usize).prop_flat_map(|to| (Just(utf8_index()), Just(to), writer_bytes(to))),
        ],
        decode_mode in prop_oneof![Just(DecodeErrorMode::Replacement), Just(DecodeErrorMode::Fatal)],
        inner_sizes in sizes(),
        read_sizes in sizes(),
        mood in reader_mood(),
    ) {
        let (from, to) = (Encoding::all()[from], Encoding::all()[to]);
        prop_assume!(to != Encoding::Replacement);
        let options = DecoderOptions { error_mode: decode_mode, ..DecoderOptions::default() };
        let decoded = reference_decode(&bytes, from, options);
        let text = String::from_utf8(decoded.text).unwrap();
        let mut want = Vec::new();
        let mut encoder = Encoder::new(to, EncodeErrorMode::Html).unwrap();
        let _ = encoder.encode_from_utf8_to_vec(&text, &mut want, true);
        let inner = HostileReader::new(&bytes, &inner_sizes, mood);
        let mut r = TranscodeReader::new(
            inner,
            Decoder::with_options(from, options),
            Encoder::new(to, EncodeErrorMode::Html).unwrap(),
        );
        let (got, error) = drain_reads(&read_sizes, |buf| r.read(buf));
        // The errors' offsets are the decoder's; where they fall in the output depends on
        // the encoder, so only the count and offsets are compared.
        let offsets = |d: &[(usize, u64)]| d.iter().map(|e| e.1).collect::<Vec<_>>();
        match error {
            None => {
                prop_assert_eq!(&got.text, &want);
                prop_assert_eq!(offsets(&got.errors), offsets(&decoded.errors));
            }
            Some(err) => {
                prop_assert!(matches!(mood, ReaderMood::OverReporting), "error from a polite reader: {err}");
                prop_assert_eq!(err.kind(), io::ErrorKind::InvalidData);
                prop_assert!(want.starts_with(&got.text), "not a prefix");
            }
        }
    }
}

/// Cases per property: `PROPTEST_CASES` if set, else 10,000 (the file runs once per kernel
/// level in CI).
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

/// Every byte value before every trail byte, and every lone byte, amid runs long enough
/// for every kernel step, through the writer (fatal and html) in every encoding with an
/// encoder: exhaustive where proptest samples.
#[test]
fn encode_writer_over_every_byte_before_every_trail() {
    for &e in Encoding::all() {
        if e == Encoding::Replacement {
            continue;
        }
        let mut input = Vec::new();
        for first in 0..=255u8 {
            input.clear();
            input.extend(SAMPLE.as_bytes());
            for trail in 0x80..0xC0u8 {
                input.extend(b"abcdefgh");
                input.extend([first, trail]);
            }
            input.extend("é ж".repeat(40).as_bytes());
            for mode in [EncodeErrorMode::Fatal, EncodeErrorMode::Html] {
                let want = reference_encode(&input, e, mode);
                let mut w = EncodeWriter::new(Vec::new(), Encoder::new(e, mode).unwrap());
                let error = match w.write_all(&input) {
                    Ok(()) => None,
                    Err(err) => Some(encode_error(&err).expect("an EncodeError")),
                };
                w.try_finish().unwrap();
                let got = Written {
                    bytes: w.finish().unwrap(),
                    error,
                };
                assert_eq!(got, want, "{e:?} {mode:?} {first:02X}");
            }
        }
    }
}

/// The same pairs through the decoding readers of every encoding (both error modes):
/// the reference's text and errors.
#[test]
fn decode_reader_over_every_byte_before_every_trail() {
    let mut input = Vec::new();
    for first in 0..=255u8 {
        for trail in 0x80..0xC0u8 {
            input.extend(b"abcdefgh");
            input.extend([first, trail]);
        }
    }
    for &e in Encoding::all() {
        for error_mode in [DecodeErrorMode::Replacement, DecodeErrorMode::Fatal] {
            let options = DecoderOptions {
                error_mode,
                ..DecoderOptions::default()
            };
            let want = reference_decode(&input, e, options);
            let mut r = DecodeReader::new(&input[..], Decoder::with_options(e, options));
            let (got, error) = drain_reads(&[4096, 7, 64], |buf| r.read(buf));
            assert!(error.is_none(), "{e:?}: {error:?}");
            assert_eq!(got, want, "{e:?} {error_mode:?}");
        }
    }
}

/// Polls `f` to completion with a waker that does nothing: the hostile async readers and
/// writers below are ready again on the next poll after a `Pending`.
#[cfg(any(feature = "tokio", feature = "futures"))]
fn run<T>(f: impl std::future::Future<Output = T>) -> T {
    let mut f = std::pin::pin!(f);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    for _ in 0..10_000_000 {
        if let std::task::Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
    panic!("no progress");
}

/// How an async inner reader misbehaves.
#[cfg(any(feature = "tokio", feature = "futures"))]
#[derive(Clone, Copy, Debug)]
enum AsyncMood {
    Polite,
    /// `Pending` (after waking) on every other poll.
    Pending,
    /// Fills bytes and returns `Pending` anyway, every other poll (tokio only: futures'
    /// `poll_read` cannot return both).
    DataAndPending,
    /// Fills bytes and returns `Interrupted` with them, every other poll (tokio only).
    DataAndInterrupted,
    /// Replaces the `ReadBuf` on the third poll (tokio), or claims one byte more than the
    /// buffer holds (futures): a contract breach.
    Breach,
}

#[cfg(any(feature = "tokio", feature = "futures"))]
fn async_mood() -> impl Strategy<Value = AsyncMood> {
    prop_oneof![
        Just(AsyncMood::Polite),
        Just(AsyncMood::Pending),
        Just(AsyncMood::DataAndPending),
        Just(AsyncMood::DataAndInterrupted),
        Just(AsyncMood::Breach)
    ]
}

/// The shared state of the hostile async readers: the data left and the turn.
#[cfg(any(feature = "tokio", feature = "futures"))]
struct AsyncSource {
    data: Vec<u8>,
    at: usize,
    sizes: Vec<usize>,
    turn: usize,
    mood: AsyncMood,
}

#[cfg(any(feature = "tokio", feature = "futures"))]
impl AsyncSource {
    fn new(data: &[u8], sizes: &[usize], mood: AsyncMood) -> Self {
        AsyncSource {
            data: data.to_vec(),
            at: 0,
            sizes: sizes.to_vec(),
            turn: 0,
            mood,
        }
    }

    /// The next piece, at most `room` bytes.
    fn piece(&mut self, room: usize) -> &[u8] {
        let n = self.sizes[self.turn % self.sizes.len()]
            .min(room)
            .min(self.data.len() - self.at);
        self.at += n;
        &self.data[self.at - n..self.at]
    }
}

#[cfg(feature = "tokio")]
mod tokio_adapters {
    use super::*;
    use std::pin::Pin;
    use std::task::{Context, Poll};
    use textcodec::tokio::{DecodeReader, EncodeWriter};
    use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};

    struct Reader(AsyncSource);

    impl AsyncRead for Reader {
        fn poll_read(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            let source = &mut self.0;
            source.turn += 1;
            let odd = source.turn % 2 == 1;
            match source.mood {
                AsyncMood::Pending if odd => {
                    cx.waker().wake_by_ref();
                    return Poll::Pending;
                }
                AsyncMood::Breach if source.turn == 3 => {
                    let other: &'static mut [u8] = Box::leak(Box::new([b'!'; 32]));
                    *buf = ReadBuf::new(other);
                    buf.advance(32);
                    return Poll::Ready(Ok(()));
                }
                _ => {}
            }
            let piece = source.piece(buf.remaining());
            let n = piece.len();
            buf.put_slice(piece);
            match source.mood {
                AsyncMood::DataAndPending if odd && n > 0 => {
                    cx.waker().wake_by_ref();
                    Poll::Pending
                }
                AsyncMood::DataAndInterrupted if odd && n > 0 => {
                    Poll::Ready(Err(io::ErrorKind::Interrupted.into()))
                }
                _ => Poll::Ready(Ok(())),
            }
        }
    }

    struct Writer {
        got: Vec<u8>,
        sizes: Vec<usize>,
        turn: usize,
        mood: WriterMood,
    }

    impl Writer {
        /// `Pending` (after waking) or an error on every other call, per the mood.
        fn refuse(&mut self, cx: &mut Context<'_>) -> Option<Poll<io::Error>> {
            self.turn += 1;
            let odd = self.turn % 2 == 1;
            match self.mood {
                WriterMood::Blocking if odd => {
                    cx.waker().wake_by_ref();
                    Some(Poll::Pending)
                }
                WriterMood::Interrupting if odd => {
                    Some(Poll::Ready(io::ErrorKind::Interrupted.into()))
                }
                WriterMood::Failing if odd => Some(Poll::Ready(io::Error::other(Hiccup))),
                _ => None,
            }
        }
    }

    impl AsyncWrite for Writer {
        fn poll_write(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<io::Result<usize>> {
            if let Some(refusal) = self.refuse(cx) {
                return refusal.map(Err);
            }
            if matches!(self.mood, WriterMood::OverReporting) && self.turn == 2 {
                self.got.extend_from_slice(buf);
                return Poll::Ready(Ok(buf.len() + 1));
            }
            let n = match self.mood {
                WriterMood::OneByte => 1,
                _ => self.sizes[self.turn % self.sizes.len()],
            }
            .min(buf.len());
            self.got.extend_from_slice(&buf[..n]);
            Poll::Ready(Ok(n))
        }

        fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            match self.refuse(cx) {
                Some(refusal) => refusal.map(Err),
                None => Poll::Ready(Ok(())),
            }
        }

        fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
            self.poll_flush(cx)
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: cases(),
            ..ProptestConfig::default()
        })]

        /// `poll_read` in any sizes, `poll_fill_buf`/`consume`, and `read_to_string`.
        #[test]
        fn tokio_decode_reader(
            bytes in arbitrary_bytes(),
            e in 0..40usize,
            options in decoder_options(),
            inner_sizes in sizes(),
            read_sizes in sizes(),
            capacity in 1..200usize,
            mood in async_mood(),
        ) {
            let e = Encoding::all()[e];
            let want = reference_decode(&bytes, e, options);
            let make = || DecodeReader::with_capacity(
                capacity,
                Reader(AsyncSource::new(&bytes, &inner_sizes, mood)),
                Decoder::with_options(e, options),
            );

            let breach = matches!(mood, AsyncMood::Breach);
            let mut r = make();
            let (got, error) = drain_reads(&read_sizes, |buf| run(r.read(buf)));
            check_read(&got, error, &want, breach)?;

            let mut r = make();
            let (got, error) = drain_buffered(&read_sizes, |most| {
                let text = run(r.fill_buf())?;
                let n = most.min(text.len());
                let taken = (n > 0).then(|| text[..n].to_vec());
                r.consume(n);
                Ok(taken)
            });
            check_read(&got, error, &want, breach)?;

            // The inherent `read_to_string` (UTF-8 read in place): up to the first error.
            let mut r = make();
            let mut text = String::from("kept ");
            let result = retry(|| run(r.read_to_string(&mut text)));
            check_read_to_string(&text.as_bytes()[5..], result, &want, breach)?;
        }

        /// `poll_write` in any pieces to a hostile writer, then `shutdown`.
        #[test]
        fn tokio_encode_writer(
            (e, bytes) in (0..40usize).prop_flat_map(|e| (Just(e), writer_bytes(e))),
            mode in encode_mode(),
            splits in sizes(),
            inner_sizes in sizes(),
            capacity in 64..300usize,
            mood in writer_mood(),
        ) {
            let e = Encoding::all()[e];
            prop_assume!(e != Encoding::Replacement);
            let want = reference_encode(&bytes, e, mode);
            let inner = Writer { got: Vec::new(), sizes: inner_sizes, turn: 0, mood };
            let mut w = EncodeWriter::with_capacity(capacity, inner, Encoder::new(e, mode).unwrap());
            let (error, breach_error) = drive_writer(&bytes, &splits, |call| match call {
                WriterCall::Write(piece) => run(w.write(piece)),
                WriterCall::Finish => run(w.shutdown()).map(|()| 0),
            });
            let got = Written { bytes: std::mem::take(&mut w.get_mut().got), error };
            check_written(got, breach_error, &want, matches!(mood, WriterMood::OverReporting))?;
        }
    }
}

#[cfg(feature = "futures")]
mod futures_adapters {
    use super::*;
    use futures::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};
    use futures_io::{AsyncRead, AsyncWrite};
    use std::pin::Pin;
    use std::task::{Context, Poll};
    use textcodec::futures::{DecodeReader, EncodeWriter};

    struct Reader(AsyncSource);

    impl AsyncRead for Reader {
        fn poll_read(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &mut [u8],
        ) -> Poll<io::Result<usize>> {
            let source = &mut self.0;
            source.turn += 1;
            let odd = source.turn % 2 == 1;
            match source.mood {
                AsyncMood::Pending | AsyncMood::DataAndPending if odd => {
                    cx.waker().wake_by_ref();
                    return Poll::Pending;
                }
                AsyncMood::DataAndInterrupted if odd => {
                    return Poll::Ready(Err(io::ErrorKind::Interrupted.into()));
                }
                AsyncMood::Breach if source.turn == 3 => {
                    buf.fill(b'!');
                    return Poll::Ready(Ok(buf.len() + 1));
                }
                _ => {}
            }
            let piece = source.piece(buf.len());
            let n = piece.len();
            buf[..n].copy_from_slice(piece);
            Poll::Ready(Ok(n))
        }
    }

    struct Writer {
        got: Vec<u8>,
        sizes: Vec<usize>,
        turn: usize,
        mood: WriterMood,
    }

    impl AsyncWrite for Writer {
        fn poll_write(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &[u8],
        ) -> Poll<io::Result<usize>> {
            self.turn += 1;
            let odd = self.turn % 2 == 1;
            match self.mood {
                WriterMood::Blocking if odd => {
                    cx.waker().wake_by_ref();
                    return Poll::Pending;
                }
                WriterMood::Interrupting if odd => {
                    return Poll::Ready(Err(io::ErrorKind::Interrupted.into()))
                }
                WriterMood::Failing if odd => return Poll::Ready(Err(io::Error::other(Hiccup))),
                WriterMood::OverReporting if self.turn == 2 => {
                    self.got.extend_from_slice(buf);
                    return Poll::Ready(Ok(buf.len() + 1));
                }
                _ => {}
            }
            let n = match self.mood {
                WriterMood::OneByte => 1,
                _ => self.sizes[self.turn % self.sizes.len()],
            }
            .min(buf.len());
            self.got.extend_from_slice(&buf[..n]);
            Poll::Ready(Ok(n))
        }

        fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }

        fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
            Poll::Ready(Ok(()))
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: cases(),
            ..ProptestConfig::default()
        })]

        /// `poll_read` in any sizes, `poll_fill_buf`/`consume`, and `read_to_string`.
        #[test]
        fn futures_decode_reader(
            bytes in arbitrary_bytes(),
            e in 0..40usize,
            options in decoder_options(),
            inner_sizes in sizes(),
            read_sizes in sizes(),
            capacity in 1..200usize,
            mood in async_mood(),
        ) {
            let e = Encoding::all()[e];
            let want = reference_decode(&bytes, e, options);
            let make = || DecodeReader::with_capacity(
                capacity,
                Reader(AsyncSource::new(&bytes, &inner_sizes, mood)),
                Decoder::with_options(e, options),
            );
            let breach = matches!(mood, AsyncMood::Breach);
            let mut r = make();
            let (got, error) = drain_reads(&read_sizes, |buf| run(r.read(buf)));
            check_read(&got, error, &want, breach)?;

            let mut r = make();
            let (got, error) = drain_buffered(&read_sizes, |most| {
                let text = run(r.fill_buf())?;
                let n = most.min(text.len());
                let taken = (n > 0).then(|| text[..n].to_vec());
                r.consume_unpin(n);
                Ok(taken)
            });
            check_read(&got, error, &want, breach)?;
        }

        /// `poll_write` in any pieces to a hostile writer, then `close`.
        #[test]
        fn futures_encode_writer(
            (e, bytes) in (0..40usize).prop_flat_map(|e| (Just(e), writer_bytes(e))),
            mode in encode_mode(),
            splits in sizes(),
            inner_sizes in sizes(),
            capacity in 64..300usize,
            mood in writer_mood(),
        ) {
            let e = Encoding::all()[e];
            prop_assume!(e != Encoding::Replacement);
            let want = reference_encode(&bytes, e, mode);
            let inner = Writer { got: Vec::new(), sizes: inner_sizes, turn: 0, mood };
            let mut w = EncodeWriter::with_capacity(capacity, inner, Encoder::new(e, mode).unwrap());
            let (error, breach_error) = drive_writer(&bytes, &splits, |call| match call {
                WriterCall::Write(piece) => run(w.write(piece)),
                WriterCall::Finish => run(w.close()).map(|()| 0),
            });
            let got = Written { bytes: std::mem::take(&mut w.get_mut().got), error };
            check_written(got, breach_error, &want, matches!(mood, WriterMood::OverReporting))?;
        }
    }
}
