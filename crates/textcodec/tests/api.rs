//! The API model (#api): TextDecoder (BOM seen, ignoreBOM, do not flush, the I/O queue kept
//! across a fatal error), TextEncoder.encodeInto, and the stream transformers.

use textcodec::api::{
    ApiError, TextDecoder, TextDecoderOptions, TextDecoderStream, TextEncoder, TextEncoderStream,
};

fn td(label: &str, fatal: bool, ignore_bom: bool) -> TextDecoder {
    TextDecoder::new(label, TextDecoderOptions { fatal, ignore_bom }).unwrap()
}

#[test]
fn constructor_and_getters() {
    // #dom-textdecoder steps 1–2: failure or replacement throws a RangeError.
    assert_eq!(
        TextDecoder::new("iso-2022-kr", TextDecoderOptions::default()).unwrap_err(),
        ApiError::RangeError
    );
    assert_eq!(
        TextDecoder::new("nonsense", TextDecoderOptions::default()).unwrap_err(),
        ApiError::RangeError
    );
    let d = td(" SJIS\n", true, true);
    assert_eq!(d.encoding(), "shift_jis");
    assert!(d.fatal() && d.ignore_bom());
    assert_eq!(td("latin1", false, false).encoding(), "windows-1252");
    assert_eq!(td("utf-16", false, false).encoding(), "utf-16le");
    assert_eq!(TextEncoder::new().encoding(), "utf-8");
}

#[test]
fn bom_is_removed_once_unless_ignored() {
    // #concept-td-serialize: only for UTF-8 and UTF-16BE/LE, only the first item.
    let mut d = td("utf-8", false, false);
    assert_eq!(
        d.decode(Some(b"\xEF\xBB\xBFa\xEF\xBB\xBF"), false).unwrap(),
        "a\u{FEFF}"
    );
    // A new decode() call (do not flush false) starts afresh: BOM seen reset.
    assert_eq!(d.decode(Some(b"\xEF\xBB\xBFb"), false).unwrap(), "b");
    let mut d = td("utf-8", false, true);
    assert_eq!(
        d.decode(Some(b"\xEF\xBB\xBFa"), false).unwrap(),
        "\u{FEFF}a"
    );
    let mut d = td("utf-16be", false, false);
    assert_eq!(d.decode(Some(b"\xFE\xFF\x00a"), false).unwrap(), "a");
    let mut d = td("utf-16le", false, false);
    assert_eq!(d.decode(Some(b"\xFF\xFEa\x00"), false).unwrap(), "a");
    // No switching: a UTF-16LE BOM given to a UTF-8 decoder is two errors.
    let mut d = td("utf-8", false, false);
    assert_eq!(
        d.decode(Some(b"\xFF\xFEa"), false).unwrap(),
        "\u{FFFD}\u{FFFD}a"
    );
    // Other encodings never strip U+FEFF.
    let mut d = td("gb18030", false, false);
    let (bytes, _) = textcodec::encode("\u{FEFF}", textcodec::Encoding::Gb18030);
    let feff = d.decode(Some(&bytes), false).unwrap();
    assert_eq!(feff, "\u{FEFF}");
}

#[test]
fn bom_seen_across_stream_calls() {
    // The BOM split over calls is still removed; a U+FEFF after output is kept.
    let mut d = td("utf-8", false, false);
    assert_eq!(d.decode(Some(b"\xEF"), true).unwrap(), "");
    assert_eq!(d.decode(Some(b"\xBB"), true).unwrap(), "");
    assert_eq!(d.decode(Some(b"\xBFa"), true).unwrap(), "a");
    assert_eq!(d.decode(Some(b"\xEF\xBB\xBF"), true).unwrap(), "\u{FEFF}");
    assert_eq!(d.decode(None, false).unwrap(), "");
    // BOM seen is set by the first item of output, whatever it is: a U+FEFF second is kept.
    let mut d = td("utf-8", false, false);
    assert_eq!(d.decode(Some(b"a"), true).unwrap(), "a");
    assert_eq!(d.decode(Some(b"\xEF\xBB\xBF"), false).unwrap(), "\u{FEFF}");
    // Empty chunks do not set BOM seen.
    let mut d = td("utf-16le", false, false);
    assert_eq!(d.decode(Some(b""), true).unwrap(), "");
    assert_eq!(d.decode(Some(b"\xFF"), true).unwrap(), "");
    assert_eq!(d.decode(Some(b"\xFEa\x00"), false).unwrap(), "a");
}

#[test]
fn bom_seen_after_a_fatal_error() {
    // A call that throws outputs nothing, so BOM seen stays false: a BOM decoded after the
    // error (streaming, the queue kept) is still the first item and is removed.
    let mut d = td("utf-8", true, false);
    assert_eq!(
        d.decode(Some(b"\xFF\xEF\xBB\xBFa"), true),
        Err(ApiError::TypeError)
    );
    assert_eq!(d.decode(Some(b"b"), true).unwrap(), "ab");
    // Once output was produced, a later U+FEFF is kept even after an error.
    let mut d = td("utf-8", true, false);
    assert_eq!(d.decode(Some(b"x"), true).unwrap(), "x");
    assert_eq!(
        d.decode(Some(b"\xFF\xEF\xBB\xBF"), true),
        Err(ApiError::TypeError)
    );
    assert_eq!(d.decode(None, false).unwrap(), "\u{FEFF}");
}

#[test]
fn fatal_streaming_keeps_the_queue() {
    // #dom-textdecoder-decode: on error the rest of the I/O queue stays; with stream, the
    // decoder too. The error's bytes are gone, the rest decodes next time.
    let mut d = td("shift_jis", true, false);
    assert_eq!(
        d.decode(Some(b"a\x82\x22b\x93"), true),
        Err(ApiError::TypeError)
    );
    // 0x22 was restored (ASCII never swallowed) and 'b' and the pending lead 0x93 remain.
    assert_eq!(d.decode(Some(b"\xfa"), true).unwrap(), "\"b\u{65E5}");
    assert_eq!(d.decode(None, false).unwrap(), "");
    // Several errors in one chunk: one per call.
    let mut d = td("utf-8", true, false);
    assert_eq!(
        d.decode(Some(b"\xFFa\xFFb"), true),
        Err(ApiError::TypeError)
    );
    assert_eq!(d.decode(None, true), Err(ApiError::TypeError));
    // The 'a' was output by the call that threw, so it is lost with it.
    assert_eq!(d.decode(None, false).unwrap(), "b");
    // Not streaming: the next call starts over (do not flush was false).
    let mut d = td("utf-8", true, false);
    assert_eq!(d.decode(Some(b"\xFFa"), false), Err(ApiError::TypeError));
    assert_eq!(d.decode(Some(b"c"), false).unwrap(), "c");
    // End-of-queue error (a truncated sequence) only when flushing.
    let mut d = td("utf-8", true, false);
    assert_eq!(d.decode(Some(b"\xE6\x97"), true).unwrap(), "");
    assert_eq!(d.decode(None, false), Err(ApiError::TypeError));
    assert_eq!(d.decode(Some(b"ok"), false).unwrap(), "ok");
}

#[test]
fn do_not_flush_keeps_decoder_state() {
    let bytes = "日本語 😀".as_bytes();
    for split in 0..=bytes.len() {
        let mut d = td("utf-8", false, false);
        let mut s = d.decode(Some(&bytes[..split]), true).unwrap();
        s += &d.decode(Some(&bytes[split..]), true).unwrap();
        s += &d.decode(None, false).unwrap();
        assert_eq!(s, "日本語 😀");
    }
    // A pending sequence at the final call: one U+FFFD.
    let mut d = td("utf-8", false, false);
    assert_eq!(d.decode(Some(b"\xF0\x9F"), true).unwrap(), "");
    assert_eq!(d.decode(None, false).unwrap(), "\u{FFFD}");
    // UTF-16 output form.
    let mut d = td("utf-16le", false, false);
    assert_eq!(
        d.decode_to_utf16(Some(b"\x3D\xD8"), true).unwrap(),
        Vec::<u16>::new()
    );
    assert_eq!(
        d.decode_to_utf16(Some(b"\x00\xDE"), false).unwrap(),
        [0xD83D, 0xDE00]
    );
}

#[test]
fn encode_into_counts() {
    let e = TextEncoder::new();
    // #dom-textencoder-encodeinto: never split a character; read counts UTF-16 units.
    let src: Vec<u16> = "a€😀".encode_utf16().collect();
    for (room, read, written) in [
        (0, 0, 0),
        (1, 1, 1),
        (3, 1, 1),
        (4, 2, 4),
        (7, 2, 4),
        (8, 4, 8),
        (20, 4, 8),
    ] {
        let mut dst = vec![0u8; room];
        let r = e.encode_into(&src, &mut dst);
        assert_eq!((r.read, r.written), (read, written), "room {room}");
        assert_eq!(
            &dst[..written as usize],
            &"a€😀".as_bytes()[..written as usize]
        );
        let r = e.encode_into_str("a€😀", &mut dst);
        assert_eq!((r.read, r.written), (read, written), "str, room {room}");
    }
    // Lone surrogates become U+FFFD (three bytes) and count one unit each.
    let src = [0xD800u16, 0x61, 0xDC00];
    let mut dst = [0u8; 16];
    let r = e.encode_into(&src, &mut dst);
    assert_eq!((r.read, r.written), (3, 7));
    assert_eq!(&dst[..7], "\u{FFFD}a\u{FFFD}".as_bytes());
    let r = e.encode_into(&src, &mut dst[..3]);
    assert_eq!((r.read, r.written), (1, 3));
    // encode().
    assert_eq!(e.encode("é"), "é".as_bytes());
    assert_eq!(e.encode_utf16(&[0xD83D]), "\u{FFFD}".as_bytes());
    assert_eq!(e.encode_utf16(&[0xD83D, 0xDE00]), "😀".as_bytes());
}

#[test]
fn text_decoder_stream() {
    let mut s = TextDecoderStream::new("utf-8", TextDecoderOptions::default()).unwrap();
    let mut out = String::new();
    for chunk in [&b"\xEF\xBB"[..], b"\xBF\xE6", b"\x97\xA5", b"\xF0\x9F"] {
        out += &s.transform(chunk).unwrap();
    }
    // Flush: the truncated sequence is one U+FFFD (#textdecoderstream flush).
    out += &s.flush().unwrap();
    assert_eq!(out, "日\u{FFFD}");
    // Fatal: the error throws in transform or flush.
    let mut s = TextDecoderStream::new(
        "utf-8",
        TextDecoderOptions {
            fatal: true,
            ignore_bom: false,
        },
    )
    .unwrap();
    assert_eq!(s.transform(b"a").unwrap(), "a");
    assert_eq!(s.transform(b"\xE6").unwrap(), "");
    assert_eq!(s.flush(), Err(ApiError::TypeError));
    assert!(TextDecoderStream::new("replacement", TextDecoderOptions::default()).is_err());
}

#[test]
fn text_encoder_stream_split_surrogates() {
    // #interface-textencoderstream: a leading surrogate at the end of a chunk waits for the
    // next chunk; lone ones become U+FFFD; at flush a pending one is EF BF BD.
    let mut s = TextEncoderStream::new();
    assert_eq!(s.transform(&[0x61, 0xD83D]), b"a");
    assert_eq!(s.transform(&[0xDE00, 0x62]), "😀b".as_bytes());
    assert_eq!(s.transform(&[0xD83D]), b"");
    assert_eq!(s.transform(&[0x63]), "\u{FFFD}c".as_bytes());
    assert_eq!(s.transform(&[0xDE00]), "\u{FFFD}".as_bytes());
    assert_eq!(s.transform(&[0xD83D]), b"");
    assert_eq!(s.transform(&[0xD83D]), "\u{FFFD}".as_bytes());
    assert_eq!(s.flush(), b"\xEF\xBF\xBD");
    assert_eq!(s.flush(), b"");
    // Every split of a text with pairs gives the same bytes as one chunk.
    let units: Vec<u16> = "x😀y😀😀".encode_utf16().collect();
    for split in 0..=units.len() {
        let mut s = TextEncoderStream::new();
        let mut out = s.transform(&units[..split]);
        out.extend(s.transform(&units[split..]));
        out.extend(s.flush());
        assert_eq!(out, "x😀y😀😀".as_bytes(), "split {split}");
    }
    assert_eq!(TextEncoderStream::new().encoding(), "utf-8");
}

mod utf16_outputs {
    //! The UTF-16 forms of the API (what a JavaScript engine hands back as a string) must be
    //! exactly the UTF-8 forms re-encoded, across BOMs, streaming, fatal errors and chunking.
    use super::*;
    use proptest::prelude::*;

    const LABELS: [&str; 6] = [
        "utf-8",
        "utf-16le",
        "utf-16be",
        "shift_jis",
        "gb18030",
        "iso-2022-jp",
    ];

    fn utf16(s: &str) -> Vec<u16> {
        s.encode_utf16().collect()
    }

    proptest! {
        #[test]
        fn text_decoder_utf16_matches_utf8(
            label in 0usize..LABELS.len(),
            fatal in any::<bool>(),
            ignore_bom in any::<bool>(),
            bom in 0usize..4,
            chunks in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..12), 0..6),
        ) {
            let boms: [&[u8]; 4] = [b"", b"\xEF\xBB\xBF", b"\xFF\xFE", b"\xFE\xFF"];
            let mut a = td(LABELS[label], fatal, ignore_bom);
            let mut b = td(LABELS[label], fatal, ignore_bom);
            let mut inputs: Vec<Vec<u8>> = vec![boms[bom].to_vec()];
            inputs.extend(chunks);
            for (i, chunk) in inputs.iter().enumerate() {
                let stream = i + 1 < inputs.len();
                let s = a.decode(Some(chunk), stream);
                let u = b.decode_to_utf16(Some(chunk), stream);
                prop_assert_eq!(s.map(|s| utf16(&s)), u);
            }
        }

        #[test]
        fn text_decoder_stream_utf16_matches_utf8(
            label in 0usize..LABELS.len(),
            fatal in any::<bool>(),
            chunks in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..12), 0..6),
        ) {
            let options = TextDecoderOptions { fatal, ignore_bom: false };
            let mut a = TextDecoderStream::new(LABELS[label], options).unwrap();
            let mut b = TextDecoderStream::new(LABELS[label], options).unwrap();
            for chunk in &chunks {
                let s = a.transform(chunk);
                let u = b.transform_to_utf16(chunk);
                let failed = s.is_err();
                prop_assert_eq!(s.map(|s| utf16(&s)), u);
                if failed {
                    return Ok(()); // the stream is errored
                }
            }
            prop_assert_eq!(a.flush().map(|s| utf16(&s)), b.flush_to_utf16());
        }

        #[test]
        fn encode_into_matches_a_naive_model(
            source in proptest::collection::vec(
                prop_oneof![0u16..0x80, 0x80u16..0x800, 0x800u16..0xD800, 0xD800u16..0xE000, 0xE000u16..=0xFFFF], 0..24),
            room in 0usize..40,
        ) {
            // #dom-textencoder-encodeinto: convert to scalar values (lone surrogates → U+FFFD),
            // then take whole characters while they fit, counting code units.
            let mut expected_read = 0u64;
            let mut expected = Vec::new();
            for c in char::decode_utf16(source.iter().copied()) {
                let (c, units) = match c { Ok(c) => (c, c.len_utf16()), Err(_) => ('\u{FFFD}', 1) };
                let mut buf = [0u8; 4];
                let bytes = c.encode_utf8(&mut buf).as_bytes();
                if expected.len() + bytes.len() > room { break; }
                expected.extend_from_slice(bytes);
                expected_read += units as u64;
            }
            let mut dst = vec![0xAAu8; room];
            let r = TextEncoder::new().encode_into(&source, &mut dst);
            prop_assert_eq!(r.read, expected_read);
            prop_assert_eq!(r.written as usize, expected.len());
            prop_assert_eq!(&dst[..expected.len()], &expected[..]);
            prop_assert!(dst[expected.len()..].iter().all(|&b| b == 0xAA));
            // encode() is the unbounded case.
            let all: Vec<u8> = char::decode_utf16(source.iter().copied())
                .map(|c| c.unwrap_or('\u{FFFD}'))
                .collect::<String>()
                .into_bytes();
            prop_assert_eq!(TextEncoder::new().encode_utf16(&source), all);
        }
    }
}
