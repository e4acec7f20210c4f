//! Feature `futures`: the futures-io adapters give the one-shot conversion's output for any
//! split, with inner readers and writers that are not ready half the time, and futures
//! dropped between polls (cancellation) lose nothing.
#![cfg(feature = "futures")]

use std::future::Future;
use std::io;
use std::pin::{pin, Pin};
use std::task::{Context, Poll, Waker};

use futures::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, Cursor};
use futures_io::{AsyncRead, AsyncWrite};
use proptest::prelude::*;
use textcodec::futures::{DecodeReader, EncodeWriter};
use textcodec::{Decoder, EncodeErrorMode, Encoder, Encoding};

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

/// Not ready every other poll; pieces of the given sizes.
struct Trickle {
    data: Vec<u8>,
    at: usize,
    sizes: Vec<usize>,
    turn: usize,
}

impl AsyncRead for Trickle {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut [u8],
    ) -> Poll<io::Result<usize>> {
        self.turn += 1;
        if self.turn.is_multiple_of(2) {
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        let size = self.sizes[self.turn % self.sizes.len()].max(1);
        let n = size.min(buf.len()).min(self.data.len() - self.at);
        buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
        self.at += n;
        Poll::Ready(Ok(n))
    }
}

/// Not ready every third poll; takes pieces of the given sizes.
struct Sink {
    got: Vec<u8>,
    sizes: Vec<usize>,
    turn: usize,
    closed: bool,
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
        let n = self.sizes[self.turn % self.sizes.len()]
            .max(1)
            .min(buf.len());
        self.got.extend_from_slice(&buf[..n]);
        Poll::Ready(Ok(n))
    }
    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
    fn poll_close(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.closed = true;
        Poll::Ready(Ok(()))
    }
}

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

#[test]
fn every_encoding_reads_and_writes_like_one_shot() {
    let text = SAMPLE.repeat(40);
    for &e in Encoding::all() {
        let bytes = bytes_for(&text, e);
        let want = one_shot(&bytes, e);
        let mut r = DecodeReader::with_capacity(7, Cursor::new(bytes), Decoder::new(e));
        let mut s = String::new();
        futures::executor::block_on(r.read_to_string(&mut s)).unwrap();
        assert_eq!(s, want, "{e:?}");
        if e == Encoding::Replacement {
            continue;
        }
        let encoder = Encoder::new(e, EncodeErrorMode::Html).unwrap();
        let mut w = EncodeWriter::with_capacity(64, Cursor::new(Vec::new()), encoder);
        futures::executor::block_on(async {
            for piece in text.as_bytes().chunks(5) {
                w.write_all(piece).await.unwrap();
            }
            w.close().await.unwrap();
        });
        assert_eq!(w.into_inner().into_inner(), encode_html(&text, e), "{e:?}");
    }
}

#[test]
fn lines_over_shift_jis() {
    let text = "一行目\n二行目\r\n最後".repeat(30);
    let (bytes, _) = textcodec::encode(&text, Encoding::ShiftJis);
    let r = DecodeReader::with_capacity(
        2,
        Cursor::new(bytes.into_owned()),
        Decoder::new(Encoding::ShiftJis),
    );
    let mut lines = r.lines();
    let got: Vec<String> = futures::executor::block_on(async {
        use futures::StreamExt;
        let mut v = Vec::new();
        while let Some(line) = lines.next().await {
            v.push(line.unwrap());
        }
        v
    });
    assert_eq!(got, text.lines().collect::<Vec<_>>());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn cancelled_reads_and_writes_lose_nothing(
        e in 0..40usize,
        take in 0..500usize,
        sizes in proptest::collection::vec(1..50usize, 1..6),
        capacity in 1..100usize,
    ) {
        let e = Encoding::all()[e];
        let mut bytes = bytes_for(SAMPLE, e);
        bytes.truncate(take);
        let want = one_shot(&bytes, e);
        let inner = Trickle { data: bytes, at: 0, sizes: sizes.clone(), turn: 0 };
        let mut r = DecodeReader::with_capacity(capacity, inner, Decoder::new(e));
        let mut got = Vec::new();
        for turn in 0.. {
            let mut buf = vec![0u8; sizes[turn % sizes.len()]];
            let n = cancelling!(r.read(&mut buf)).unwrap();
            if n == 0 {
                break;
            }
            got.extend_from_slice(&buf[..n]);
        }
        let got = String::from_utf8(got).unwrap();
        prop_assert_eq!(&got, &want);
        prop_assume!(e != Encoding::Replacement);
        let encoder = Encoder::new(e, EncodeErrorMode::Html).unwrap();
        let sink = Sink { got: Vec::new(), sizes: sizes.clone(), turn: 0, closed: false };
        let mut w = EncodeWriter::with_capacity(capacity + 64, sink, encoder);
        let mut rest = got.as_bytes();
        let mut turn = 0;
        while !rest.is_empty() {
            let n = sizes[turn % sizes.len()].min(rest.len());
            turn += 1;
            rest = &rest[cancelling!(w.write(&rest[..n])).unwrap()..];
        }
        cancelling!(w.close()).unwrap();
        prop_assert!(w.get_ref().closed);
        prop_assert_eq!(&w.get_ref().got, &encode_html(&got, e));
    }
}
