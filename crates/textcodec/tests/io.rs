//! The std::io adapters: any split of reads and writes gives the one-shot conversion's
//! output, for every encoding; error paths (fatal errors, failing and short inner readers
//! and writers, Interrupted, WouldBlock); BufRead.
#![cfg(feature = "std")]

mod common;

use std::io::{self, BufRead, Read, Write};

use proptest::prelude::*;
use textcodec::io::{DecodeBufReader, DecodeReader, EncodeError, EncodeWriter, TranscodeReader};
use textcodec::{
    DecodeErrorMode, Decoder, DecoderOptions, EncodeErrorMode, EncodeStatus, Encoder, Encoding,
    MalformedSequence,
};

/// Text with something for every encoding (and much that most lack: html mode writes it).
const SAMPLE: &str = "日本語のテキスト。Ελληνικά русский 한국어 中文 ¥‾\\~ café ☃ 😀 \
                      \u{80}\u{FEFF}\r\nASCII line ~ \\ [x]\n";

fn sample_text(min_len: usize) -> String {
    SAMPLE.repeat(min_len / SAMPLE.len() + 1)
}

fn encode_html(text: &str, e: Encoding) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = Encoder::new(e, EncodeErrorMode::Html)
        .or_else(|| Encoder::new(e.output_encoding(), EncodeErrorMode::Html))
        .unwrap();
    let _ = encoder.encode_from_utf8_to_vec(text, &mut out, true);
    out
}

/// The bytes of `text` in `e` (html mode), or UTF-16 for the encodings that decode it.
fn bytes_for(text: &str, e: Encoding) -> Vec<u8> {
    match e {
        Encoding::Utf16Le => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
        Encoding::Utf16Be => text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
        _ => encode_html(text, e),
    }
}

fn one_shot_decode(bytes: &[u8], make: &dyn Fn() -> Decoder) -> String {
    let mut s = String::new();
    let _ = make().decode_to_string(bytes, &mut s, true);
    s
}

/// A reader that hands out its data in pieces of the given sizes (cycled), with
/// `Interrupted` and `WouldBlock` errors before some of them.
struct Chunked<'a> {
    data: &'a [u8],
    sizes: Vec<usize>,
    turn: usize,
    hiccups: bool,
}

impl<'a> Chunked<'a> {
    fn new(data: &'a [u8], sizes: &[usize], hiccups: bool) -> Self {
        Chunked {
            data,
            sizes: sizes.iter().map(|&s| s.max(1)).collect(),
            turn: 0,
            hiccups,
        }
    }
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.turn += 1;
        if self.hiccups && self.turn.is_multiple_of(3) {
            return Err(io::ErrorKind::Interrupted.into());
        }
        if self.hiccups && self.turn.is_multiple_of(5) {
            return Err(io::ErrorKind::WouldBlock.into());
        }
        let size = self.sizes[self.turn % self.sizes.len()];
        let n = size.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// Reads everything with reads of the given sizes (cycled), retrying Interrupted and
/// WouldBlock; returns the bytes and the first other error.
fn read_all(reader: &mut impl Read, sizes: &[usize]) -> (Vec<u8>, Option<io::Error>) {
    let mut out = Vec::new();
    let mut turn = 0;
    loop {
        let size = sizes[turn % sizes.len()].max(1);
        turn += 1;
        let mut buf = vec![0u8; size];
        match reader.read(&mut buf) {
            Ok(0) => return (out, None),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock
                ) => {}
            Err(e) => return (out, Some(e)),
        }
    }
}

/// The regression of issue #15: `read_to_string`/`read_to_end` hand the reader small
/// buffers as they grow, which failed with "needs a read buffer of at least 4 bytes".
#[test]
fn read_to_string_and_read_to_end_on_multi_kb_inputs_of_every_encoding() {
    let text = sample_text(8 * 1024);
    for &e in Encoding::all() {
        let bytes = bytes_for(&text, e);
        let want = one_shot_decode(&bytes, &|| Decoder::new(e));
        for capacity in [1, 3, 64, 8192] {
            let mut reader = DecodeReader::with_capacity(capacity, &bytes[..], Decoder::new(e));
            let mut s = String::new();
            reader.read_to_string(&mut s).unwrap();
            assert_eq!(s, want, "{e:?} read_to_string, capacity {capacity}");
            let mut reader = DecodeReader::with_capacity(capacity, &bytes[..], Decoder::new(e));
            let mut v = Vec::new();
            reader.read_to_end(&mut v).unwrap();
            assert_eq!(v, want.as_bytes(), "{e:?} read_to_end, capacity {capacity}");
        }
        // Reads of every size from 1 byte.
        for size in 1..=8 {
            let mut reader = DecodeReader::new(&bytes[..], Decoder::new(e));
            let (got, err) = read_all(&mut reader, &[size]);
            assert!(err.is_none());
            assert_eq!(got, want.as_bytes(), "{e:?} reads of {size}");
        }
    }
}

/// `DecodeBufReader` decodes in the inner reader's buffer: over a slice (one buffer, the
/// whole input) and over a `BufReader` whose buffer ends anywhere (inside characters too),
/// every encoding gives the one-shot text through `read_to_string`, `read_to_end`, reads
/// of every size and `lines()`.
#[test]
fn decode_buf_reader_matches_one_shot_for_every_encoding() {
    let text = sample_text(8 * 1024);
    for &e in Encoding::all() {
        let bytes = bytes_for(&text, e);
        let want = one_shot_decode(&bytes, &|| Decoder::new(e));
        let mut s = String::new();
        DecodeBufReader::new(&bytes[..], Decoder::new(e))
            .read_to_string(&mut s)
            .unwrap();
        assert_eq!(s, want, "{e:?} read_to_string over a slice");
        for capacity in [1, 3, 64, 8192] {
            let inner =
                io::BufReader::with_capacity(capacity, Chunked::new(&bytes, &[7, 1, 300], true));
            let mut s = String::from("kept: ");
            let mut reader = DecodeBufReader::new(inner, Decoder::new(e));
            // Interrupted is retried inside; WouldBlock returns with the text so far kept.
            while let Err(err) = reader.read_to_string(&mut s) {
                assert_eq!(err.kind(), io::ErrorKind::WouldBlock);
            }
            assert_eq!(
                s.strip_prefix("kept: "),
                Some(&*want),
                "{e:?} read_to_string, capacity {capacity}"
            );
            let inner = io::BufReader::with_capacity(capacity, Chunked::new(&bytes, &[5], false));
            let mut v = Vec::new();
            DecodeBufReader::new(inner, Decoder::new(e))
                .read_to_end(&mut v)
                .unwrap();
            assert_eq!(v, want.as_bytes(), "{e:?} read_to_end, capacity {capacity}");
        }
        for size in 1..=8 {
            let inner = io::BufReader::with_capacity(size + 2, &bytes[..]);
            let mut reader = DecodeBufReader::new(inner, Decoder::new(e));
            let (got, err) = read_all(&mut reader, &[size]);
            assert!(err.is_none());
            assert_eq!(got, want.as_bytes(), "{e:?} reads of {size}");
        }
        let inner = io::BufReader::with_capacity(5, &bytes[..]);
        let lines: Vec<String> = DecodeBufReader::new(inner, Decoder::new(e))
            .lines()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(lines, want.lines().collect::<Vec<_>>(), "{e:?} lines()");
    }
}

/// Fatal errors, the BOM's encoding, the inner reader's errors and what is left in it.
#[test]
fn decode_buf_reader_errors_bom_and_inner_reader() {
    let bytes = b"ab\x82\x22cd\xFF";
    for size in [1, 2, 3, 64] {
        let inner = io::BufReader::with_capacity(size, &bytes[..]);
        let mut reader = DecodeBufReader::new(inner, fatal(Encoding::ShiftJis));
        let (got, errors) = read_past_errors(&mut reader, size);
        assert_eq!(got, b"ab\"cd", "reads of {size}");
        assert_eq!(errors, [(2, 2), (5, 6)], "reads of {size}");
    }
    let mut reader = DecodeBufReader::new(&bytes[..], fatal(Encoding::ShiftJis));
    let mut s = String::new();
    assert!(reader.read_to_string(&mut s).is_err());
    assert_eq!(s, "ab");

    let mut reader = DecodeBufReader::new(&b"\xFF\xFEa\0"[..], Decoder::new(Encoding::Windows1252));
    let mut s = String::new();
    reader.read_to_string(&mut s).unwrap();
    assert_eq!((s.as_str(), reader.encoding()), ("a", Encoding::Utf16Le));

    let inner = io::BufReader::new(Failing(3));
    let mut reader = DecodeBufReader::new(inner, Decoder::new(Encoding::Utf8));
    let mut s = String::new();
    let err = reader.read_to_string(&mut s).unwrap_err();
    assert_eq!(err.to_string(), "disk on fire");
    assert_eq!(s, "aaa");

    // Only what was decoded is consumed from the inner reader.
    let mut reader = DecodeBufReader::new(&b"abcdef"[..], Decoder::new(Encoding::Utf8));
    let mut two = [0u8; 2];
    assert_eq!(reader.read(&mut two).unwrap(), 2);
    assert_eq!(reader.get_ref(), b"cdef");
    assert_eq!(reader.into_inner(), b"cdef");
}

#[test]
fn the_issue_example() {
    let text = "日本語のテキスト。".repeat(10);
    let (bytes, _) = textcodec::encode(&text, Encoding::ShiftJis);
    let mut reader = DecodeReader::new(&bytes[..], Decoder::new(Encoding::ShiftJis));
    let mut s = String::new();
    reader.read_to_string(&mut s).unwrap();
    assert_eq!(s, text);
}

#[test]
fn buf_read_lines_over_shift_jis() {
    let text = "一行目\n二行目 with ASCII\r\n\n最後の行".repeat(300);
    let (bytes, _) = textcodec::encode(&text, Encoding::ShiftJis);
    for capacity in [1, 2, 7, 100, 16384] {
        let reader =
            DecodeReader::with_capacity(capacity, &bytes[..], Decoder::new(Encoding::ShiftJis));
        let lines: Vec<String> = reader.lines().collect::<Result<_, _>>().unwrap();
        let want: Vec<&str> = text.lines().collect();
        assert_eq!(lines, want, "capacity {capacity}");
    }
    // fill_buf/consume mixed with read: the same text.
    let mut reader = DecodeReader::with_capacity(5, &bytes[..], Decoder::new(Encoding::ShiftJis));
    let mut got = Vec::new();
    let mut small = [0u8; 2];
    loop {
        let n = reader.read(&mut small).unwrap();
        got.extend_from_slice(&small[..n]);
        let buf = reader.fill_buf().unwrap();
        if n == 0 && buf.is_empty() {
            break;
        }
        let take = buf.len().min(3);
        got.extend_from_slice(&buf[..take]);
        reader.consume(take);
    }
    assert_eq!(got, text.as_bytes());
}

/// Reads with reads of `size` bytes to the end, going on after each fatal error; returns
/// the text and, per error, the text's length before it and the error's stream offset.
fn read_past_errors(reader: &mut impl Read, size: usize) -> (Vec<u8>, Vec<(usize, u64)>) {
    let mut got = Vec::new();
    let mut errors = Vec::new();
    loop {
        let mut buf = vec![0; size];
        match reader.read(&mut buf) {
            Ok(0) => return (got, errors),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) => {
                assert_eq!(e.kind(), io::ErrorKind::InvalidData);
                let m = e.get_ref().unwrap().downcast_ref::<MalformedSequence>();
                errors.push((got.len(), m.unwrap().offset()));
            }
        }
    }
}

/// An inner reader that gives `self.0` bytes "a", one per read, then fails.
struct Failing(usize);

impl Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.0 == 0 {
            return Err(io::Error::other("disk on fire"));
        }
        self.0 -= 1;
        buf[0] = b'a';
        Ok(1)
    }
}

fn fatal(e: Encoding) -> Decoder {
    Decoder::with_options(
        e,
        DecoderOptions {
            error_mode: DecodeErrorMode::Fatal,
            ..Default::default()
        },
    )
}

#[test]
fn fatal_errors_come_after_the_text_before_them_and_reading_resumes() {
    let bytes = b"ab\x82\x22cd\xFF";
    for size in [1, 2, 3, 4, 64] {
        let mut reader = DecodeReader::new(&bytes[..], fatal(Encoding::ShiftJis));
        let (got, errors) = read_past_errors(&mut reader, size);
        // 82 is the error; 22 (") is restored and decoded.
        assert_eq!(got, b"ab\"cd", "reads of {size}");
        assert_eq!(errors, [(2, 2), (5, 6)], "reads of {size}");
    }
    // read_to_string keeps the text before the error.
    let mut reader = DecodeReader::new(&bytes[..], fatal(Encoding::ShiftJis));
    let mut s = String::new();
    assert!(reader.read_to_string(&mut s).is_err());
    assert_eq!(s, "ab");
    // lines() reports it.
    let reader = DecodeReader::new(&b"ok\n\xFF\n"[..], fatal(Encoding::Utf8));
    let lines: Vec<_> = reader.lines().collect();
    assert_eq!(lines[0].as_ref().unwrap(), "ok");
    assert_eq!(
        lines[1].as_ref().unwrap_err().kind(),
        io::ErrorKind::InvalidData
    );
}

#[test]
fn inner_reader_errors_pass_through_and_lose_nothing() {
    let mut reader = DecodeReader::new(Failing(3), Decoder::new(Encoding::Utf8));
    let mut s = String::new();
    let err = reader.read_to_string(&mut s).unwrap_err();
    assert_eq!(err.to_string(), "disk on fire");
    assert_eq!(s, "aaa");
}

#[test]
fn decode_reader_reports_the_bom_encoding() {
    let mut reader = DecodeReader::new(&b"\xFF\xFEa\0"[..], Decoder::new(Encoding::Windows1252));
    let mut s = String::new();
    reader.read_to_string(&mut s).unwrap();
    assert_eq!((s.as_str(), reader.encoding()), ("a", Encoding::Utf16Le));
    // A stream that is only a BOM.
    let mut reader = DecodeReader::new(&b"\xFE\xFF"[..], Decoder::new(Encoding::Windows1252));
    reader.read_to_string(&mut s).unwrap();
    assert_eq!(reader.encoding(), Encoding::Utf16Be);
}

fn encodings_with_encoders() -> impl Iterator<Item = Encoding> {
    Encoding::all()
        .iter()
        .copied()
        .filter(|&e| e != Encoding::Replacement)
}

/// A writer that takes at most the given sizes per call (cycled), failing some calls with
/// Interrupted and WouldBlock, and records what it got and how often it was flushed.
struct Short {
    got: Vec<u8>,
    sizes: Vec<usize>,
    turn: usize,
    hiccups: bool,
    flushes: usize,
}

impl Short {
    fn new(sizes: &[usize], hiccups: bool) -> Short {
        Short {
            got: Vec::new(),
            sizes: sizes.iter().map(|&s| s.max(1)).collect(),
            turn: 0,
            hiccups,
            flushes: 0,
        }
    }
}

impl Write for Short {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.turn += 1;
        if self.hiccups && self.turn.is_multiple_of(3) {
            return Err(io::ErrorKind::Interrupted.into());
        }
        if self.hiccups && self.turn.is_multiple_of(7) {
            return Err(io::ErrorKind::WouldBlock.into());
        }
        let n = self.sizes[self.turn % self.sizes.len()].min(buf.len());
        self.got.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.flushes += 1;
        Ok(())
    }
}

/// `write_all`, but retrying WouldBlock too (as a caller of a non-blocking writer does).
fn write_retrying(w: &mut impl Write, mut buf: &[u8]) -> io::Result<()> {
    while !buf.is_empty() {
        match w.write(buf) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => buf = &buf[n..],
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock
                ) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

fn finish_retrying<W: Write>(mut w: EncodeWriter<W>) -> W {
    loop {
        match w.try_finish() {
            Ok(()) => return w.finish().unwrap(),
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock
                ) => {}
            Err(e) => panic!("{e}"),
        }
    }
}

#[test]
fn encode_writer_matches_one_shot_for_every_encoding_and_split() {
    let text = sample_text(6 * 1024);
    for e in encodings_with_encoders() {
        let want = encode_html(&text, e);
        for split in [1, 2, 3, 5, 4096, usize::MAX] {
            for capacity in [64, 100, 16384] {
                let inner = Short::new(&[1, 7, 1000], split < 4);
                let encoder = Encoder::new(e, EncodeErrorMode::Html).unwrap();
                let mut w = EncodeWriter::with_capacity(capacity, inner, encoder);
                for piece in text.as_bytes().chunks(split.min(text.len())) {
                    write_retrying(&mut w, piece).unwrap();
                }
                let inner = finish_retrying(w);
                assert_eq!(
                    inner.got, want,
                    "{e:?} writes of {split}, capacity {capacity}"
                );
            }
        }
    }
}

#[test]
fn encode_writer_fatal_error_names_the_character_and_writes_nothing_after_it() {
    for e in [
        Encoding::Windows1252,
        Encoding::Iso2022Jp,
        Encoding::ShiftJis,
    ] {
        let encoder = Encoder::new(e, EncodeErrorMode::Fatal).unwrap();
        let mut w = EncodeWriter::new(Vec::new(), encoder);
        let text = if e == Encoding::Windows1252 {
            "abé\u{10FFFF}cd"
        } else {
            "ab日本\u{10FFFF}cd"
        };
        let err = w.write_all(text.as_bytes()).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        let inner = err
            .get_ref()
            .unwrap()
            .downcast_ref::<EncodeError>()
            .unwrap();
        let bad = '\u{10FFFF}';
        let at = text.find(bad).unwrap();
        assert_eq!(inner.unmappable().unwrap().character(), bad);
        assert_eq!(inner.offset(), at as u64);
        assert!(err.to_string().contains(&format!("at byte {at}")), "{err}");
        // The same write again fails the same way; skipping the character goes on.
        assert!(w.write(&text.as_bytes()[at..]).is_err());
        w.write_all(&text.as_bytes()[at + bad.len_utf8()..])
            .unwrap();
        let got = w.finish().unwrap();
        let mut want_text = String::from(&text[..at]);
        want_text.push_str(&text[at + bad.len_utf8()..]);
        assert_eq!(got, encode_html(&want_text, e), "{e:?}");
    }
}

#[test]
fn encode_writer_rejects_invalid_utf8_and_holds_split_characters() {
    let encoder = Encoder::new(Encoding::Utf8, EncodeErrorMode::Fatal).unwrap();
    let mut w = EncodeWriter::new(Vec::new(), encoder);
    assert_eq!(w.write(b"ok\xFFno").unwrap(), 2);
    let err = w.write(b"\xFFno").unwrap_err();
    let e = err
        .get_ref()
        .unwrap()
        .downcast_ref::<EncodeError>()
        .unwrap();
    assert!(e.is_invalid_utf8());
    assert_eq!(e.offset(), 2);
    // "é" in two writes, then a held byte followed by something that does not continue it.
    assert_eq!(w.write(b"\xC3").unwrap(), 1);
    assert_eq!(w.write(b"\xA9").unwrap(), 1);
    assert_eq!(w.write(b"\xE2\x98").unwrap(), 2);
    let err = w.write(b"x").unwrap_err();
    let e = err
        .get_ref()
        .unwrap()
        .downcast_ref::<EncodeError>()
        .unwrap();
    assert_eq!((e.is_invalid_utf8(), e.offset()), (true, 4));
    w.write_all(b"x\xE2\x98").unwrap();
    // The stream ends inside a character: finish says so.
    let err = w.try_finish().unwrap_err();
    assert!(
        err.to_string().contains("ends inside a UTF-8 sequence"),
        "{err}"
    );
    assert_eq!(w.finish().unwrap(), "okéx".as_bytes());
}

#[test]
fn encode_writer_finish_flush_and_drop() {
    let encoder = Encoder::new(Encoding::Iso2022Jp, EncodeErrorMode::Fatal).unwrap();
    let mut w = EncodeWriter::new(Short::new(&[100], false), encoder);
    // fmt::Write (`write!` would be ambiguous with both traits in scope).
    std::fmt::Write::write_fmt(&mut w, format_args!("日{}", 1)).unwrap();
    io::Write::flush(&mut w).unwrap();
    // Flushing does not end the stream: still in the jis0208 state, no ESC ( B yet.
    assert_eq!(w.get_ref().unwrap().got, b"\x1b$BF|\x1b(B1");
    w.write_all("本".as_bytes()).unwrap();
    let inner = w.finish().unwrap();
    assert_eq!(inner.got, b"\x1b$BF|\x1b(B1\x1b$BK\\\x1b(B");
    assert!(inner.flushes >= 2);
    // Dropping finishes on a best-effort basis.
    let mut out = Vec::new();
    {
        let encoder = Encoder::new(Encoding::Iso2022Jp, EncodeErrorMode::Fatal).unwrap();
        let mut w = EncodeWriter::new(&mut out, encoder);
        w.write_all("日".as_bytes()).unwrap();
        w.write_all(b"\xE2").unwrap();
    }
    assert_eq!(out, b"\x1b$BF|\x1b(B");
}

#[test]
fn encode_writer_inner_failure_keeps_the_buffer() {
    struct Broken(bool);
    impl Write for Broken {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.0 {
                Err(io::Error::other("pipe closed"))
            } else {
                Ok(buf.len())
            }
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let encoder = Encoder::new(Encoding::Utf8, EncodeErrorMode::Fatal).unwrap();
    let mut w = EncodeWriter::with_capacity(64, Broken(true), encoder);
    let text = "x".repeat(1000);
    let n = w.write(text.as_bytes()).unwrap();
    assert!(n > 0 && n < 1000, "{n}");
    assert_eq!(
        w.write(&text.as_bytes()[n..]).unwrap_err().to_string(),
        "pipe closed"
    );
    assert!(w.flush().is_err());
    w.get_mut().unwrap().0 = false;
    w.write_all(&text.as_bytes()[n..]).unwrap();
    w.try_finish().unwrap();
}

fn transcode_one_shot(bytes: &[u8], from: Encoding, to: Encoding) -> Vec<u8> {
    encode_html(&one_shot_decode(bytes, &|| Decoder::new(from)), to)
}

#[test]
fn transcode_reader_matches_one_shot() {
    let text = sample_text(5 * 1024);
    let pairs = [
        (Encoding::ShiftJis, Encoding::Utf8),
        (Encoding::Utf8, Encoding::Iso2022Jp),
        (Encoding::EucJp, Encoding::ShiftJis),
        (Encoding::Utf16Be, Encoding::Gb18030),
        (Encoding::Windows1252, Encoding::Utf16Le),
        (Encoding::Big5, Encoding::EucKr),
    ];
    for (from, to) in pairs {
        let bytes = bytes_for(&text, from);
        let want = transcode_one_shot(&bytes, from, to);
        for size in [1, 2, 3, 17, 100_000] {
            for capacity in [1, 64, 16384] {
                let encoder = Encoder::new(to, EncodeErrorMode::Html).unwrap();
                let inner = Chunked::new(&bytes, &[1, 300, 5000], true);
                let mut r =
                    TranscodeReader::with_capacity(capacity, inner, Decoder::new(from), encoder);
                let (got, err) = read_all(&mut r, &[size]);
                assert!(err.is_none());
                assert_eq!(
                    got, want,
                    "{from:?} -> {to:?}, reads of {size}, capacity {capacity}"
                );
            }
        }
    }
}

#[test]
fn transcode_reader_fatal_errors() {
    let encoder = Encoder::new(Encoding::Windows1252, EncodeErrorMode::Fatal).unwrap();
    let mut r = TranscodeReader::new(
        &b"caf\xC3\xA9 \xE2\x98\x83 ok"[..],
        Decoder::new(Encoding::Utf8),
        encoder,
    );
    let mut out = Vec::new();
    let err = r.read_to_end(&mut out).unwrap_err();
    let e = err
        .get_ref()
        .unwrap()
        .downcast_ref::<EncodeError>()
        .unwrap();
    assert_eq!((e.unmappable().unwrap().character(), e.offset()), ('☃', 6));
    assert_eq!(out, b"caf\xE9 ");
    // Reading on skips the character.
    r.read_to_end(&mut out).unwrap();
    assert_eq!(out, b"caf\xE9  ok");
}

/// To UTF-8, transcoding is decoding (the reader takes the decoder's direct path): the
/// same text and fatal errors, at the same offsets, as `DecodeReader`, for reads of any
/// size, a BOM that switches the encoding included; the stream stays ended.
#[test]
fn transcode_reader_to_utf8_reads_as_decode_reader() {
    let cases: [(&[u8], Encoding); 3] = [
        (b"ab\x82\x22cd\xFF\x88\x9F", Encoding::ShiftJis),
        (
            b"\xEF\xBB\xBFok \xC3\xA9 \xED\xA0\x80 \xE2\x98",
            Encoding::Windows1252,
        ),
        (b"\xFF\xFEa\0\x00\xD8b\0", Encoding::Utf8),
    ];
    for (bytes, e) in cases {
        for size in [1, 2, 3, 4, 5, 64] {
            let mut decode = DecodeReader::new(bytes, fatal(e));
            let want = read_past_errors(&mut decode, size);
            let utf8 = Encoder::new(Encoding::Utf8, EncodeErrorMode::Fatal).unwrap();
            let mut transcode = TranscodeReader::new(bytes, fatal(e), utf8);
            assert_eq!(
                read_past_errors(&mut transcode, size),
                want,
                "{e:?} reads of {size}"
            );
            assert!(!want.1.is_empty(), "{e:?}: the case has errors");
            assert_eq!(transcode.source_encoding(), decode.encoding());
            assert_eq!(transcode.read(&mut [0; 8]).unwrap(), 0);
        }
    }
}

/// A stream of `len` bytes of a repeated pattern, generated on the fly.
struct Pattern {
    pattern: Vec<u8>,
    at: usize,
    left: u64,
}

impl Read for Pattern {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = (buf.len() as u64).min(self.left) as usize;
        for b in &mut buf[..n] {
            *b = self.pattern[self.at];
            self.at = (self.at + 1) % self.pattern.len();
        }
        self.left -= n as u64;
        Ok(n)
    }
}

fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Bounded memory: 4 GiB of Shift_JIS transcoded to UTF-8 and encoded back through the
/// adapters, and the peak resident size stays small. Slow: `cargo test --release -p
/// textcodec --test io -- --ignored`.
#[test]
#[ignore]
fn multi_gb_streams_run_in_bounded_memory() {
    let text = "日本語のテキスト、ASCII text. ".repeat(100);
    let (pattern, _) = textcodec::encode(&text, Encoding::ShiftJis);
    let len = 4u64 << 30;
    let source = Pattern {
        pattern: pattern.into_owned(),
        at: 0,
        left: len,
    };
    let encoder = Encoder::new(Encoding::Utf8, EncodeErrorMode::Fatal).unwrap();
    let mut reader = TranscodeReader::new(source, Decoder::new(Encoding::ShiftJis), encoder);
    let back = Encoder::new(Encoding::ShiftJis, EncodeErrorMode::Fatal).unwrap();
    let mut writer = EncodeWriter::new(io::sink(), back);
    let copied = io::copy(&mut reader, &mut writer).unwrap();
    writer.finish().unwrap();
    assert!(copied > len);
    let peak = peak_rss_kib().unwrap_or(0);
    eprintln!("peak RSS {peak} KiB after {copied} bytes");
    assert!(peak < 64 * 1024, "peak RSS {peak} KiB");
}

fn utf8_with_junk() -> impl Strategy<Value = Vec<u8>> {
    common::utf8_with_junk(SAMPLE)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any split of the input (inner reads) and of the output (our reads) decodes like the
    /// one-shot conversion, errors included, for every encoding and both error modes.
    #[test]
    fn decode_reader_any_split(
        e in 0..40usize,
        take in 0..600usize,
        noise in proptest::collection::vec(any::<u8>(), 0..24),
        inner_sizes in proptest::collection::vec(1..200usize, 1..8),
        read_sizes in proptest::collection::vec(1..40usize, 1..8),
        capacity in 1..64usize,
        is_fatal in any::<bool>(),
        borrowed in any::<bool>(),
    ) {
        let e = Encoding::all()[e];
        let mut bytes = bytes_for(SAMPLE, e);
        bytes.truncate(take);
        let at = noise.len() / 2;
        bytes.splice(bytes.len() / 2..bytes.len() / 2, noise[..at].iter().copied());
        bytes.extend_from_slice(&noise[at..]);
        let make = || if is_fatal { fatal(e) } else { Decoder::new(e) };
        // Reference: the one-shot conversion, going past each fatal error.
        let mut want = String::new();
        let mut errors = 0;
        let mut d = make();
        let mut rest = &bytes[..];
        loop {
            let r = d.decode_to_string(rest, &mut want, true);
            rest = &rest[r.read..];
            match r.status {
                textcodec::DecodeStatus::Malformed(_) => errors += 1,
                _ => break,
            }
        }
        let inner = Chunked::new(&bytes, &inner_sizes, true);
        // The own-buffer reader, or the one decoding in a `BufReader`'s buffer.
        let mut reader: Box<dyn Read> = if borrowed {
            Box::new(DecodeBufReader::new(io::BufReader::with_capacity(capacity, inner), make()))
        } else {
            Box::new(DecodeReader::with_capacity(capacity, inner, make()))
        };
        let mut got = Vec::new();
        let mut got_errors = 0;
        loop {
            let (part, err) = read_all(&mut reader, &read_sizes);
            got.extend_from_slice(&part);
            match err {
                Some(err) => {
                    prop_assert_eq!(err.kind(), io::ErrorKind::InvalidData);
                    got_errors += 1;
                }
                None => break,
            }
        }
        prop_assert_eq!(String::from_utf8(got).unwrap(), want);
        prop_assert_eq!(got_errors, errors);
    }

    /// Any split of the writes (inside characters too) and short inner writes encode like
    /// the one-shot conversion, for every encoding with an encoder.
    #[test]
    fn encode_writer_any_split(
        e in 0..40usize,
        chars in proptest::collection::vec(proptest::sample::select(SAMPLE.chars().collect::<Vec<_>>()), 0..80),
        splits in proptest::collection::vec(1..12usize, 1..6),
        inner_sizes in proptest::collection::vec(1..50usize, 1..6),
        capacity in 64..200usize,
    ) {
        let e = Encoding::all()[e];
        prop_assume!(e != Encoding::Replacement);
        let text: String = chars.into_iter().collect();
        let want = encode_html(&text, e);
        let encoder = Encoder::new(e, EncodeErrorMode::Html).unwrap();
        let mut w = EncodeWriter::with_capacity(capacity, Short::new(&inner_sizes, true), encoder);
        let mut rest = text.as_bytes();
        let mut turn = 0;
        while !rest.is_empty() {
            let n = splits[turn % splits.len()].min(rest.len());
            turn += 1;
            write_retrying(&mut w, &rest[..n]).unwrap();
            rest = &rest[n..];
        }
        prop_assert_eq!(finish_retrying(w).got, want);
    }

    /// Bytes that are not all UTF-8, in any split, for every encoding: the writer encodes
    /// exactly the valid prefix (as the one-shot conversion of it) and reports the first
    /// malformed sequence at its offset; one cut by the end of the stream makes `finish`
    /// fail. (The writer validates inside the encoding loops; this is the oracle.)
    #[test]
    fn encode_writer_any_bytes(
        e in 0..40usize,
        pieces in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::sample::select(SAMPLE.chars().collect::<Vec<_>>())
                    .prop_map(|c| c.to_string().into_bytes()),
                // A lead byte and continuation bytes at the edges of Unicode's Table 3-7:
                // near misses (overlong, surrogate, past U+10FFFF, cut) and valid ones.
                (
                    proptest::sample::select(vec![
                        0x80u8, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0,
                        0xF1, 0xF4, 0xF5, 0xFF,
                    ]),
                    proptest::collection::vec(
                        proptest::sample::select(vec![0x80u8, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, b'a']),
                        0..4,
                    ),
                )
                    .prop_map(|(lead, mut rest)| {
                        rest.insert(0, lead);
                        rest
                    }),
            ],
            0..40,
        ),
        splits in proptest::collection::vec(1..12usize, 1..6),
        capacity in 64..200usize,
    ) {
        let e = Encoding::all()[e];
        prop_assume!(e != Encoding::Replacement);
        let bytes: Vec<u8> = pieces.concat();
        let (valid, cut_at_end) = match std::str::from_utf8(&bytes) {
            Ok(s) => (s, false),
            Err(err) => (
                std::str::from_utf8(&bytes[..err.valid_up_to()]).unwrap(),
                err.error_len().is_none(),
            ),
        };
        let encoder = Encoder::new(e, EncodeErrorMode::Html).unwrap();
        let mut w = EncodeWriter::with_capacity(capacity, Vec::new(), encoder);
        let mut rest = &bytes[..];
        let mut turn = 0;
        let mut error = None;
        while !rest.is_empty() {
            let n = splits[turn % splits.len()].min(rest.len());
            turn += 1;
            if let Err(err) = w.write_all(&rest[..n]) {
                error = Some(err);
                break;
            }
            rest = &rest[n..];
        }
        match error {
            Some(err) => {
                prop_assert!(!cut_at_end && valid.len() < bytes.len());
                let inner = err.get_ref().unwrap().downcast_ref::<EncodeError>().unwrap();
                prop_assert!(inner.is_invalid_utf8());
                prop_assert_eq!(inner.offset(), valid.len() as u64);
                w.try_finish().unwrap();
            }
            None => {
                prop_assert!(valid.len() == bytes.len() || cut_at_end);
                prop_assert_eq!(w.try_finish().is_err(), cut_at_end);
            }
        }
        // (After a failed `try_finish`, `finish` drops the cut character.)
        prop_assert_eq!(w.finish().unwrap(), encode_html(valid, e));
    }

    /// UTF-8 input that is not all valid (malformed and cut sequences, BOMs) transcodes
    /// like decode-then-encode, in any split: the reader passes valid input to the encoder
    /// without decoding it and the decoder takes the rest. In fatal mode (decoder and
    /// encoder), the text and the errors, with their offsets, are those of reading the
    /// decoded text through a fatal `DecodeReader` and encoding it.
    #[test]
    fn transcode_reader_from_any_utf8_bytes(
        to in 0..40usize,
        bytes in utf8_with_junk(),
        inner_sizes in proptest::collection::vec(1..100usize, 1..6),
        read_sizes in proptest::collection::vec(1..40usize, 1..6),
        capacity in 1..100usize,
        fatal_mode in proptest::bool::ANY,
    ) {
        let to = Encoding::all()[to];
        prop_assume!(to != Encoding::Replacement);
        let decoder = || if fatal_mode { fatal(Encoding::Utf8) } else { Decoder::new(Encoding::Utf8) };
        let mode = if fatal_mode { EncodeErrorMode::Fatal } else { EncodeErrorMode::Html };
        let inner = Chunked::new(&bytes, &inner_sizes, true);
        let encoder = Encoder::new(to, mode).unwrap();
        let mut r = TranscodeReader::with_capacity(capacity, inner, decoder(), encoder);
        if !fatal_mode {
            let (got, err) = read_all(&mut r, &read_sizes);
            prop_assert!(err.is_none());
            prop_assert_eq!(got, transcode_one_shot(&bytes, Encoding::Utf8, to));
            return Ok(());
        }
        // Fatal: each error's kind and offset, and the bytes between them.
        let mut want = Vec::new();
        let mut want_errors = Vec::new();
        let mut decode = DecodeReader::new(&bytes[..], decoder());
        let mut text_offset = 0u64;
        let mut encoder = Encoder::new(to, EncodeErrorMode::Fatal).unwrap();
        loop {
            let mut buf = [0u8; 4096];
            match decode.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    let mut text = std::str::from_utf8(&buf[..n]).unwrap();
                    loop {
                        let mut out = vec![0; text.len() * 12 + 8];
                        let res = encoder.encode_from_utf8(text, &mut out, false);
                        want.extend_from_slice(&out[..res.written]);
                        text_offset += res.read as u64;
                        match res.status {
                            EncodeStatus::Unmappable(u) => {
                                want_errors.push((false, text_offset - u.character().len_utf8() as u64));
                                text = &text[res.read..];
                            }
                            _ => break,
                        }
                    }
                }
                Err(e) => {
                    let m = e.get_ref().unwrap().downcast_ref::<MalformedSequence>().unwrap();
                    want_errors.push((true, m.offset()));
                }
            }
        }
        let mut end = vec![0; 16];
        let res = encoder.encode_from_utf8("", &mut end, true);
        want.extend_from_slice(&end[..res.written]);
        let mut got = Vec::new();
        let mut got_errors = Vec::new();
        let mut turn = 0;
        loop {
            let mut buf = vec![0; read_sizes[turn % read_sizes.len()]];
            turn += 1;
            match r.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
                Err(e) if matches!(e.kind(), io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock) => {}
                Err(e) => {
                    let inner = e.get_ref().unwrap();
                    if let Some(m) = inner.downcast_ref::<MalformedSequence>() {
                        got_errors.push((true, m.offset()));
                    } else {
                        got_errors.push((false, inner.downcast_ref::<EncodeError>().unwrap().offset()));
                    }
                }
            }
        }
        prop_assert_eq!(got, want);
        prop_assert_eq!(got_errors, want_errors);
    }

    /// `read_to_string`/`read_to_end` over UTF-8 that is not all valid (malformed and cut
    /// sequences, BOMs), after some small reads, from an inner reader that hands out any
    /// piece sizes and fails with `WouldBlock` (retried by calling again) and
    /// `Interrupted`: the text is the one-shot decode.
    #[test]
    fn decode_reader_read_to_string_from_any_utf8_bytes(
        bytes in utf8_with_junk(),
        inner_sizes in proptest::collection::vec(1..100usize, 1..6),
        first_reads in proptest::collection::vec(1..6usize, 0..4),
        capacity in 1..100usize,
        to_end in proptest::bool::ANY,
    ) {
        let want = one_shot_decode(&bytes, &|| Decoder::new(Encoding::Utf8));
        let inner = Chunked::new(&bytes, &inner_sizes, true);
        let mut r = DecodeReader::with_capacity(capacity, inner, Decoder::new(Encoding::Utf8));
        let mut got = Vec::new();
        for size in first_reads {
            let mut buf = vec![0; size];
            match r.read(&mut buf) {
                Ok(n) => got.extend_from_slice(&buf[..n]),
                Err(e) => prop_assert!(matches!(e.kind(), io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock)),
            }
        }
        // What the small reads left of a split character comes first in `read_to_end`;
        // `read_to_string` refuses it, as std's does for bytes that are not UTF-8.
        let split = std::str::from_utf8(&got).is_err();
        loop {
            let result = if to_end {
                r.read_to_end(&mut got)
            } else {
                let mut s = String::from_utf8(std::mem::take(&mut got)).unwrap_or_default();
                let result = r.read_to_string(&mut s);
                got = s.into_bytes();
                if split {
                    prop_assert!(result.is_err());
                    return Ok(());
                }
                result
            };
            match result {
                Ok(_) => break,
                Err(e) => prop_assert!(matches!(e.kind(), io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock), "{e}"),
            }
        }
        prop_assert_eq!(String::from_utf8(got).unwrap(), want);
        prop_assert_eq!(r.read(&mut [0; 8]).unwrap(), 0);
    }

    /// Reads of any size over UTF-8 that is not all valid, both error modes, from an
    /// inner reader that hands out any piece sizes and hiccups: the text and the fatal
    /// errors (with their offsets) are those of `DecodeBufReader` over the whole input,
    /// which decodes everything through the decoder. (`DecodeReader` reads valid UTF-8
    /// straight into the caller's buffer and validates it there.)
    #[test]
    fn decode_reader_reads_any_utf8_bytes(
        bytes in utf8_with_junk(),
        inner_sizes in proptest::collection::vec(1..100usize, 1..6),
        read_sizes in proptest::collection::vec(1..40usize, 1..6),
        capacity in 1..100usize,
        fatal_mode in proptest::bool::ANY,
    ) {
        let decoder = || if fatal_mode { fatal(Encoding::Utf8) } else { Decoder::new(Encoding::Utf8) };
        let collect = |r: &mut dyn Read| -> (Vec<u8>, Vec<(usize, u64)>) {
            let (mut got, mut errors, mut turn) = (Vec::new(), Vec::new(), 0);
            loop {
                let mut buf = vec![0; read_sizes[turn % read_sizes.len()]];
                turn += 1;
                match r.read(&mut buf) {
                    Ok(0) => return (got, errors),
                    Ok(n) => got.extend_from_slice(&buf[..n]),
                    Err(e) if matches!(e.kind(), io::ErrorKind::Interrupted | io::ErrorKind::WouldBlock) => {}
                    Err(e) => {
                        let m = e.get_ref().unwrap().downcast_ref::<MalformedSequence>().unwrap();
                        errors.push((got.len(), m.offset()));
                    }
                }
            }
        };
        let want = collect(&mut DecodeBufReader::new(&bytes[..], decoder()));
        let inner = Chunked::new(&bytes, &inner_sizes, true);
        let got = collect(&mut DecodeReader::with_capacity(capacity, inner, decoder()));
        prop_assert_eq!(got, want);
    }

    /// Transcoding with any split equals decode-then-encode.
    #[test]
    fn transcode_reader_any_split(
        from in 0..40usize,
        to in 0..40usize,
        take in 0..400usize,
        inner_sizes in proptest::collection::vec(1..100usize, 1..6),
        read_sizes in proptest::collection::vec(1..40usize, 1..6),
        capacity in 1..100usize,
    ) {
        let (from, to) = (Encoding::all()[from], Encoding::all()[to]);
        prop_assume!(to != Encoding::Replacement);
        let mut bytes = bytes_for(SAMPLE, from);
        bytes.truncate(take);
        let want = transcode_one_shot(&bytes, from, to);
        let encoder = Encoder::new(to, EncodeErrorMode::Html).unwrap();
        let inner = Chunked::new(&bytes, &inner_sizes, true);
        let mut r = TranscodeReader::with_capacity(capacity, inner, Decoder::new(from), encoder);
        let (got, err) = read_all(&mut r, &read_sizes);
        prop_assert!(err.is_none());
        prop_assert_eq!(got, want);
    }
}
