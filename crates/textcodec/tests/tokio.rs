//! Feature `tokio`: the async adapters give the one-shot conversion's output for any split,
//! for every encoding; inner readers and writers that are not ready (`Pending`, the async
//! WouldBlock) or fail; futures dropped between polls (cancellation) lose nothing; the codec.
#![cfg(feature = "tokio")]

mod common;

use std::future::Future;
use std::io;
use std::pin::{pin, Pin};
use std::task::{Context, Poll, Waker};

use bytes::BytesMut;
use proptest::prelude::*;
use textcodec::tokio::{DecodeReader, EncodeWriter, TextCodec};
use textcodec::{
    DecodeErrorMode, Decoder, DecoderOptions, EncodeErrorMode, Encoder, Encoding, MalformedSequence,
};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};

const SAMPLE: &str =
    "日本語のテキスト。Ελληνικά русский 한국어 中文 ¥‾\\~ café ☃ 😀 \r\nline ~ \\\n";

fn bytes_for(text: &str, e: Encoding) -> Vec<u8> {
    match e {
        Encoding::Utf16Le => text.encode_utf16().flat_map(u16::to_le_bytes).collect(),
        Encoding::Utf16Be => text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
        _ => encode_html(text, e),
    }
}

fn encode_html(text: &str, e: Encoding) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = Encoder::new(e, EncodeErrorMode::Html)
        .or_else(|| Encoder::new(e.output_encoding(), EncodeErrorMode::Html))
        .unwrap();
    let _ = encoder.encode_from_utf8_to_vec(text, &mut out, true);
    out
}

fn one_shot(bytes: &[u8], e: Encoding) -> String {
    let mut s = String::new();
    let _ = Decoder::new(e).decode_to_string(bytes, &mut s, true);
    s
}

/// An async reader that is not ready every other poll (it wakes itself, as a socket's
/// readiness would), and hands out pieces of the given sizes.
struct Trickle {
    data: Vec<u8>,
    at: usize,
    sizes: Vec<usize>,
    turn: usize,
}

impl Trickle {
    fn new(data: Vec<u8>, sizes: &[usize]) -> Self {
        Trickle {
            data,
            at: 0,
            sizes: sizes.iter().map(|&s| s.max(1)).collect(),
            turn: 0,
        }
    }
}

impl AsyncRead for Trickle {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        self.turn += 1;
        if self.turn.is_multiple_of(2) {
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        let size = self.sizes[self.turn % self.sizes.len()];
        let n = size.min(buf.remaining()).min(self.data.len() - self.at);
        let at = self.at;
        buf.put_slice(&self.data[at..at + n]);
        self.at += n;
        Poll::Ready(Ok(()))
    }
}

/// An async writer that is not ready every third poll and takes pieces of the given sizes.
struct Sink {
    got: Vec<u8>,
    sizes: Vec<usize>,
    turn: usize,
    shut_down: bool,
}

impl Sink {
    fn new(sizes: &[usize]) -> Self {
        Sink {
            got: Vec::new(),
            sizes: sizes.iter().map(|&s| s.max(1)).collect(),
            turn: 0,
            shut_down: false,
        }
    }
}

impl AsyncWrite for Sink {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.turn += 1;
        if self.turn.is_multiple_of(3) {
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        let n = self.sizes[self.turn % self.sizes.len()].min(buf.len());
        self.got.extend_from_slice(&buf[..n]);
        Poll::Ready(Ok(n))
    }
    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.shut_down = true;
        Poll::Ready(Ok(()))
    }
}

/// Polls the future `$make` builds once; if it is not ready, drops it (cancelling it) and
/// builds a new one, until one completes.
macro_rules! cancelling {
    ($make:expr) => {{
        let mut cx = Context::from_waker(Waker::noop());
        loop {
            let fut = pin!($make);
            if let Poll::Ready(v) = fut.poll(&mut cx) {
                break v;
            }
        }
    }};
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
}

#[test]
fn read_to_string_for_every_encoding() {
    let text = SAMPLE.repeat(60);
    let rt = runtime();
    for &e in Encoding::all() {
        let bytes = bytes_for(&text, e);
        let want = one_shot(&bytes, e);
        for capacity in [1, 5, 16384] {
            let mut r = DecodeReader::with_capacity(
                capacity,
                Trickle::new(bytes.clone(), &[1, 9, 4000]),
                Decoder::new(e),
            );
            let mut s = String::new();
            rt.block_on(r.read_to_string(&mut s)).unwrap();
            assert_eq!(s, want, "{e:?}, capacity {capacity}");
        }
    }
}

#[test]
fn buf_read_lines() {
    let text = "一行目\n二行目 ASCII\r\n\n最後".repeat(50);
    let (bytes, _) = textcodec::encode(&text, Encoding::ShiftJis);
    let rt = runtime();
    let r = DecodeReader::with_capacity(
        3,
        Trickle::new(bytes.into_owned(), &[2, 7]),
        Decoder::new(Encoding::ShiftJis),
    );
    let mut lines = r.lines();
    let mut got = Vec::new();
    rt.block_on(async {
        while let Some(line) = lines.next_line().await.unwrap() {
            got.push(line);
        }
    });
    assert_eq!(got, text.lines().collect::<Vec<_>>());
}

#[test]
fn fatal_errors_after_the_text_before_them() {
    let options = DecoderOptions {
        error_mode: DecodeErrorMode::Fatal,
        ..Default::default()
    };
    let mut r = DecodeReader::new(
        Trickle::new(b"ok \xFFrest".to_vec(), &[1]),
        Decoder::with_options(Encoding::Utf8, options),
    );
    let rt = runtime();
    let mut s = String::new();
    let err = rt.block_on(r.read_to_string(&mut s)).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    let m = err
        .get_ref()
        .unwrap()
        .downcast_ref::<MalformedSequence>()
        .unwrap();
    assert_eq!(m.offset(), 3);
    // The reader's own `read_to_string` keeps the text before the error (tokio's generic
    // one would keep nothing).
    assert_eq!(s, "ok ");
    let mut rest = String::new();
    rt.block_on(r.read_to_string(&mut rest)).unwrap();
    assert_eq!(rest, "rest");
}

#[test]
fn encode_writer_shutdown_ends_the_stream() {
    let rt = runtime();
    let encoder = Encoder::new(Encoding::Iso2022Jp, EncodeErrorMode::Fatal).unwrap();
    let mut w = EncodeWriter::with_capacity(64, Sink::new(&[1, 3]), encoder);
    rt.block_on(async {
        w.write_all("日本".as_bytes()).await.unwrap();
        w.flush().await.unwrap();
        assert_eq!(w.get_ref().got, b"\x1b$BF|K\\");
        let err = w.write_all("☃".as_bytes()).await.unwrap_err();
        let e = err
            .get_ref()
            .unwrap()
            .downcast_ref::<textcodec::io::EncodeError>()
            .unwrap();
        assert_eq!((e.unmappable().unwrap().character(), e.offset()), ('☃', 6));
        w.shutdown().await.unwrap();
    });
    assert_eq!(w.get_ref().got, b"\x1b$BF|K\\\x1b(B");
    assert!(w.get_ref().shut_down);
}

#[test]
fn codec_decodes_any_chunking_like_one_shot() {
    use tokio_util::codec::{Decoder as _, Encoder as _};
    let text = SAMPLE.repeat(5);
    for &e in Encoding::all() {
        let bytes = bytes_for(&text, e);
        let want = one_shot(&bytes, e);
        for chunk in [1, 2, 3, 7, 1000] {
            let mut codec = TextCodec::decoding(Decoder::new(e));
            let mut buf = BytesMut::new();
            let mut got = String::new();
            for piece in bytes.chunks(chunk) {
                buf.extend_from_slice(piece);
                while let Some(s) = codec.decode(&mut buf).unwrap() {
                    got.push_str(&s);
                }
            }
            while let Some(s) = codec.decode_eof(&mut buf).unwrap() {
                got.push_str(&s);
            }
            assert_eq!(got, want, "{e:?} chunks of {chunk}");
        }
        if e == Encoding::Replacement {
            continue;
        }
        // Encoding items one by one, split anywhere between characters.
        let mut codec = TextCodec::new(
            Decoder::new(e),
            Encoder::new(e, EncodeErrorMode::Html).unwrap(),
        );
        let mut out = BytesMut::new();
        let chars: Vec<char> = text.chars().collect();
        for piece in chars.chunks(3) {
            codec
                .encode(piece.iter().collect::<String>(), &mut out)
                .unwrap();
        }
        codec.encode_end(&mut out);
        assert_eq!(&out[..], encode_html(&text, e), "{e:?} encode");
    }
    // A rejected item leaves nothing behind.
    let mut codec = TextCodec::new(
        Decoder::new(Encoding::Iso2022Jp),
        Encoder::new(Encoding::Iso2022Jp, EncodeErrorMode::Fatal).unwrap(),
    );
    let mut out = BytesMut::new();
    codec.encode("日", &mut out).unwrap();
    assert!(codec.encode("本☃", &mut out).is_err());
    codec.encode("本", &mut out).unwrap();
    codec.encode_end(&mut out);
    assert_eq!(&out[..], b"\x1b$BF|K\\\x1b(B");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Read futures polled once and dropped when not ready (cancelled), with reads of any
    /// size over an inner reader that is not ready half the time: the one-shot output.
    #[test]
    fn cancelled_reads_lose_nothing(
        e in 0..40usize,
        take in 0..500usize,
        inner_sizes in proptest::collection::vec(1..64usize, 1..6),
        read_sizes in proptest::collection::vec(1..40usize, 1..6),
        capacity in 1..64usize,
        buffered in any::<bool>(),
    ) {
        let e = Encoding::all()[e];
        let mut bytes = bytes_for(SAMPLE, e);
        bytes.truncate(take);
        let want = one_shot(&bytes, e);
        let mut r = DecodeReader::with_capacity(capacity, Trickle::new(bytes, &inner_sizes), Decoder::new(e));
        let mut got = Vec::new();
        for turn in 0.. {
            let mut buf = vec![0u8; read_sizes[turn % read_sizes.len()]];
            let n = if buffered && turn % 2 == 1 {
                // AsyncBufRead: fill_buf + consume.
                let chunk = cancelling!(r.fill_buf()).unwrap().to_vec();
                let n = chunk.len().min(buf.len());
                got.extend_from_slice(&chunk[..n]);
                Pin::new(&mut r).consume(n);
                n
            } else {
                let n = cancelling!(r.read(&mut buf)).unwrap();
                got.extend_from_slice(&buf[..n]);
                n
            };
            if n == 0 {
                break;
            }
        }
        prop_assert_eq!(String::from_utf8(got).unwrap(), want);
    }

    /// `read_to_string` of UTF-8 with malformed and cut sequences and BOMs (the in-place
    /// path and the decoder taking turns), its future dropped whenever the inner reader is
    /// not ready: replacement mode gives the one-shot text; fatal mode the text before the
    /// first error, then `InvalidData` naming the error's offset.
    #[test]
    fn read_to_string_of_any_utf8_bytes(
        bytes in common::utf8_with_junk(SAMPLE),
        inner_sizes in proptest::collection::vec(1..100usize, 1..6),
        capacity in 1..100usize,
        fatal in any::<bool>(),
    ) {
        let options = DecoderOptions {
            error_mode: if fatal { DecodeErrorMode::Fatal } else { DecodeErrorMode::Replacement },
            ..Default::default()
        };
        let mut want = String::new();
        let one_shot = Decoder::with_options(Encoding::Utf8, options).decode_to_string(&bytes, &mut want, true);
        let mut r = DecodeReader::with_capacity(capacity, Trickle::new(bytes, &inner_sizes), Decoder::with_options(Encoding::Utf8, options));
        let mut got = String::new();
        let result = cancelling!(r.read_to_string(&mut got));
        prop_assert_eq!(&got, &want);
        match one_shot.status {
            textcodec::DecodeStatus::Malformed(m) => {
                let err = result.unwrap_err();
                prop_assert_eq!(err.kind(), io::ErrorKind::InvalidData);
                let got_m = err.get_ref().and_then(|e| e.downcast_ref::<MalformedSequence>()).copied();
                prop_assert_eq!(got_m.map(|m| m.offset()), Some(m.offset()));
            }
            // (The count is what the last, completed future appended; cancelled ones
            // appended the rest.)
            _ => prop_assert!(result.unwrap() <= want.len()),
        }
    }

    /// Write futures dropped when not ready, writes split anywhere (inside characters),
    /// an inner writer taking short pieces: the one-shot encoding.
    #[test]
    fn cancelled_writes_lose_nothing(
        e in 0..40usize,
        chars in proptest::collection::vec(proptest::sample::select(SAMPLE.chars().collect::<Vec<_>>()), 0..60),
        splits in proptest::collection::vec(1..10usize, 1..6),
        inner_sizes in proptest::collection::vec(1..40usize, 1..6),
        capacity in 64..160usize,
    ) {
        let e = Encoding::all()[e];
        prop_assume!(e != Encoding::Replacement);
        let text: String = chars.into_iter().collect();
        let want = encode_html(&text, e);
        let encoder = Encoder::new(e, EncodeErrorMode::Html).unwrap();
        let mut w = EncodeWriter::with_capacity(capacity, Sink::new(&inner_sizes), encoder);
        let mut rest = text.as_bytes();
        let mut turn = 0;
        while !rest.is_empty() {
            let n = splits[turn % splits.len()].min(rest.len());
            turn += 1;
            let written = cancelling!(w.write(&rest[..n])).unwrap();
            rest = &rest[written..];
        }
        cancelling!(w.shutdown()).unwrap();
        prop_assert_eq!(&w.get_ref().got, &want);
    }
}

/// A safe `AsyncRead` may replace the `ReadBuf` it is handed. `read_to_string`'s UTF-8
/// in-place path trusted the count of the replacement and appended the `String`'s stale
/// spare capacity (bytes of another allocation); the fill path decoded bytes of the input
/// buffer the reader never gave. Both are now `InvalidData`, and nothing the reader did
/// not write reaches the text.
#[test]
fn a_reader_that_replaces_its_read_buf_is_an_error_not_other_memory() {
    /// Swaps a buffer of its own in as the caller's `ReadBuf` and reports 40 bytes filled,
    /// three times; then the end of the stream.
    struct Swapper {
        reads: u32,
    }
    impl AsyncRead for Swapper {
        fn poll_read(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            if self.reads < 3 {
                self.reads += 1;
                // Leaked, so the replacement outlives the caller's borrow.
                let other: &'static mut [u8] = Box::leak(Box::new([b'x'; 64]));
                *buf = ReadBuf::new(other);
                buf.advance(40);
            }
            Poll::Ready(Ok(()))
        }
    }
    let rt = runtime();
    for encoding in [Encoding::Utf8, Encoding::Windows1252, Encoding::ShiftJis] {
        // Stale, valid UTF-8 in the spare capacity: exactly what must not leak.
        let mut s = String::with_capacity(1 << 16);
        s.push_str(&"stale secret ".repeat(4000));
        s.clear();
        s.push_str("kept ");
        let mut r = DecodeReader::new(Swapper { reads: 0 }, Decoder::new(encoding));
        let err = rt.block_on(r.read_to_string(&mut s)).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData, "{encoding:?}");
        assert_eq!(s, "kept ", "{encoding:?}");
        let mut r = DecodeReader::new(Swapper { reads: 0 }, Decoder::new(encoding));
        let mut buf = [0u8; 100];
        let err = rt.block_on(r.read(&mut buf)).unwrap_err();
        assert_eq!(
            err.kind(),
            io::ErrorKind::InvalidData,
            "{encoding:?} (poll_read)"
        );
    }
}
