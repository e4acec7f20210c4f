//! One test per library bug the test suite caught, named after what it caught.

use textcodec::{EncodeErrorMode, EncodeStatus, Encoder, Encoding};

/// The UTF-16 encoders (textcodec's extension) copied ASCII from UTF-8 input as single
/// bytes through the bulk ASCII path meant for ASCII-compatible encoders.
#[test]
fn utf16_encoder_from_utf8_ascii_is_two_bytes() {
    for (encoding, want) in [
        (Encoding::Utf16Le, &b"a\x00b\x00\xE9\x00"[..]),
        (Encoding::Utf16Be, b"\x00a\x00b\x00\xE9"),
    ] {
        let mut e = Encoder::new(encoding, EncodeErrorMode::Fatal).unwrap();
        let mut out = Vec::new();
        let r = e.encode_from_utf8_to_vec("abé", &mut out, true);
        assert_eq!(r.status, EncodeStatus::InputEmpty);
        assert_eq!(out, want, "{encoding:?}");
        // And the same from UTF-16 input.
        let mut e = Encoder::new(encoding, EncodeErrorMode::Fatal).unwrap();
        let mut out = Vec::new();
        let units: Vec<u16> = "abé".encode_utf16().collect();
        let _ = e.encode_from_utf16_to_vec(&units, &mut out, true);
        assert_eq!(out, want, "{encoding:?} from UTF-16");
    }
}

/// Found while denying `clippy::indexing_slicing` in io.rs: a `Read` implementation that
/// returns more bytes than the buffer it was given (a contract violation, but the reader
/// may be foreign code) made `DecodeReader` slice past its buffer and panic. It is now an
/// `InvalidData` error.
#[test]
fn decode_reader_rejects_an_inner_reader_that_overreports() {
    use std::io::Read;
    struct Liar;
    impl Read for Liar {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            buf.fill(b'a');
            Ok(buf.len() + 1)
        }
    }
    let mut reader = textcodec::io::DecodeReader::with_capacity(
        16,
        Liar,
        textcodec::Decoder::new(Encoding::Utf8),
    );
    let mut out = [0u8; 64];
    let err = reader.read(&mut out).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);

    // The same once UTF-8 is read straight into the caller's buffer (`bb7e738`): an
    // honest first read settles the decoder, then the reader over-reports.
    struct LiarLater(usize);
    impl Read for LiarLater {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.0 += 1;
            buf.fill(b'a');
            Ok(if self.0 == 1 {
                buf.len()
            } else {
                buf.len() + 1
            })
        }
    }
    for to_string in [false, true] {
        let mut reader =
            textcodec::io::DecodeReader::new(LiarLater(0), textcodec::Decoder::new(Encoding::Utf8));
        let err = if to_string {
            reader.read_to_string(&mut String::new()).unwrap_err()
        } else {
            assert!(reader.read(&mut out).unwrap() > 0);
            reader.read(&mut out).unwrap_err()
        };
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidData, "{err}");
    }
}

/// A review found that at the AVX-512 level the hot-pair encoder took `00 80` (a NUL, then
/// a lone continuation byte) as a character in the encodings with fewer than four hot
/// lead bytes: their unused slots hold lead 0, which the NUL matched. `EncodeWriter`
/// (fatal) accepted the bytes and wrote `00 00`; `TranscodeReader` from UTF-8 wrote `00 00`
/// where the UTF-8 decoder's U+FFFD gives `00 &#65533;`. Every single-byte encoding, the
/// pair at every offset of a 64-byte step.
#[test]
fn encode_writer_refuses_a_lone_trail_after_nul_in_every_single_byte_encoding() {
    use std::io::{Read, Write};
    use textcodec::io::{EncodeWriter, TranscodeReader};
    use textcodec::Decoder;
    for &encoding in Encoding::all() {
        if !encoding.is_single_byte() {
            continue;
        }
        {
            for at in 0..70 {
                let mut input = vec![b'a'; at];
                input.extend(b"\x00\x80");
                input.resize(at + 200, b'z');
                let encoder = Encoder::new(encoding, EncodeErrorMode::Fatal).unwrap();
                let mut writer = EncodeWriter::new(Vec::new(), encoder);
                let err = writer
                    .write_all(&input)
                    .expect_err("a lone trail is not UTF-8");
                assert_eq!(
                    err.kind(),
                    std::io::ErrorKind::InvalidData,
                    "{encoding:?} at {at}"
                );
                let _ = writer.try_finish();
                let written = writer.get_ref().unwrap();
                assert_eq!(written, &input[..at + 1], "{encoding:?} at {at}");

                let decoder = Decoder::new(Encoding::Utf8);
                let encoder = Encoder::new(encoding, EncodeErrorMode::Html).unwrap();
                let mut out = Vec::new();
                TranscodeReader::new(&input[..], decoder, encoder)
                    .read_to_end(&mut out)
                    .unwrap();
                let mut want = input[..at + 1].to_vec();
                want.extend(b"&#65533;");
                want.extend(&input[at + 2..]);
                assert_eq!(out, want, "{encoding:?} at {at}");
            }
        }
    }
}

/// `EncodeWriter::finish` (and `flush`) returned the inner writer's
/// `ErrorKind::Interrupted` instead of retrying it; `finish` consumes the adapter, so an
/// interrupted system call during the final write or flush lost the writer.
#[test]
fn encode_writer_retries_interrupted_writes_and_flushes() {
    use std::io::{self, Write};
    use textcodec::io::EncodeWriter;
    /// Every other call of either kind is interrupted.
    #[derive(Default)]
    struct Interrupting {
        data: Vec<u8>,
        calls: u32,
        flushes: u32,
    }
    impl Interrupting {
        fn interrupt(&mut self) -> bool {
            self.calls += 1;
            self.calls % 2 == 1
        }
    }
    impl Write for Interrupting {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.interrupt() {
                return Err(io::ErrorKind::Interrupted.into());
            }
            let n = buf.len().min(3);
            self.data.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> io::Result<()> {
            if self.interrupt() {
                return Err(io::ErrorKind::Interrupted.into());
            }
            self.flushes += 1;
            Ok(())
        }
    }
    let text = "日本 text; 語";
    let encoder = Encoder::new(Encoding::Iso2022Jp, EncodeErrorMode::Fatal).unwrap();
    let mut writer = EncodeWriter::new(Interrupting::default(), encoder);
    writer.write_all(text.as_bytes()).unwrap();
    writer.flush().unwrap();
    assert_eq!(writer.get_ref().unwrap().flushes, 1);
    let inner = writer.finish().expect("Interrupted is retried");
    let (want, _) = textcodec::encode(text, Encoding::Iso2022Jp);
    assert_eq!(inner.data, &want[..]);
    assert_eq!(inner.flushes, 2);
}

/// Found by tests/arbitrary_bytes.rs: in fatal mode, a character the encoding lacks
/// whose first bytes came with an earlier write was reported as unmappable, but its held
/// bytes stayed, so finishing reported them again as a sequence cut by the end of the
/// text. The result depended on where the writes split; now it is the same as one write.
#[test]
fn encode_writer_unmappable_split_across_writes_is_reported_once() {
    use std::io::Write;
    use textcodec::io::{EncodeError, EncodeWriter};
    for split in 0..=4 {
        let text = "a\u{180}b".as_bytes(); // U+0180 is not in ISO-8859-2
        let encoder = Encoder::new(Encoding::Iso8859_2, EncodeErrorMode::Fatal).unwrap();
        let mut w = EncodeWriter::new(Vec::new(), encoder);
        let error = w
            .write_all(&text[..split])
            .and_then(|()| w.write_all(&text[split..]))
            .expect_err("U+0180 is unmappable");
        let inner = error
            .get_ref()
            .unwrap()
            .downcast_ref::<EncodeError>()
            .unwrap();
        assert_eq!(
            inner.unmappable().map(|u| u.character()),
            Some('\u{180}'),
            "split {split}"
        );
        assert_eq!(inner.offset(), 1, "split {split}");
        w.try_finish()
            .unwrap_or_else(|e| panic!("split {split}: {e}"));
        assert_eq!(w.finish().unwrap(), b"a", "split {split}");
    }
}

/// Found by tests/arbitrary_bytes.rs: in fatal mode, when one call of the writer's core
/// encoded a window of text and then met an unmappable character at the start of the
/// next window, it returned the error as if nothing of the call's input had been taken;
/// the writer offered that text again and wrote it twice (and reported the character at
/// an offset too far by its length).
#[test]
fn encode_writer_does_not_repeat_text_before_an_unmappable_character() {
    use std::io::Write;
    use textcodec::io::{EncodeError, EncodeWriter};
    for capacity in [64, 100, 205, 300] {
        for n in 0..200 {
            let text = format!("{}\u{E0B0}z", "日".repeat(n)); // a private-use character
            let kanji = "日".repeat(n);
            let (want, _) = textcodec::encode(&kanji, Encoding::ShiftJis);
            let encoder = Encoder::new(Encoding::ShiftJis, EncodeErrorMode::Fatal).unwrap();
            let mut w = EncodeWriter::with_capacity(capacity, Vec::new(), encoder);
            let error = w
                .write_all(text.as_bytes())
                .expect_err("U+E0B0 is unmappable");
            let inner = error
                .get_ref()
                .unwrap()
                .downcast_ref::<EncodeError>()
                .unwrap();
            assert_eq!(
                inner.offset(),
                3 * n as u64,
                "capacity {capacity}, {n} kanji"
            );
            assert_eq!(
                w.finish().unwrap(),
                &want[..],
                "capacity {capacity}, {n} kanji"
            );
        }
    }
}

/// Found by the `adapters` fuzz target: `EncodeWriter` ends each window it encodes on a
/// character boundary by backing over continuation bytes; over a run of lone continuation
/// bytes it backed past valid text to the window's start and reported that text (an
/// ASCII byte) as the malformed sequence, one byte early, and did not write it.
#[test]
fn encode_writer_reports_a_run_of_lone_trails_where_it_starts() {
    use std::io::Write;
    use textcodec::io::{EncodeError, EncodeWriter};
    for capacity in [64, 100, 200] {
        for before in 0..300 {
            let mut input = vec![b'a'; before];
            input.push(b'\x03');
            input.extend([0xB3; 40]);
            let encoder = Encoder::new(Encoding::Iso8859_3, EncodeErrorMode::Html).unwrap();
            let mut w = EncodeWriter::with_capacity(capacity, Vec::new(), encoder);
            let error = w.write_all(&input).expect_err("B3 is a lone trail");
            let inner = error
                .get_ref()
                .unwrap()
                .downcast_ref::<EncodeError>()
                .unwrap();
            let what = format!("capacity {capacity}, {before} bytes before");
            assert!(inner.is_invalid_utf8(), "{what}");
            assert_eq!(inner.offset(), before as u64 + 1, "{what}");
            assert_eq!(w.finish().unwrap(), &input[..before + 1], "{what}");
        }
    }
}
