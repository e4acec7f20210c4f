//! The Standard's examples and edge cases, through the public API. Every expectation is
//! derived from the cited algorithm step.

use textcodec::{
    bom_sniff, decode, encode, encode_or_fail, get_an_encoder, utf8_decode,
    utf8_decode_without_bom, utf8_decode_without_bom_or_fail, BomHandling, DecodeErrorMode,
    DecodeStatus, Decoder, DecoderOptions, EncodeErrorMode, EncodeStatus, Encoder, Encoding,
};

fn options(fatal: bool, bom: BomHandling) -> DecoderOptions {
    DecoderOptions {
        error_mode: if fatal {
            DecodeErrorMode::Fatal
        } else {
            DecodeErrorMode::Replacement
        },
        bom,
    }
}

/// Replacement-mode decode without BOM handling.
fn dec(encoding: Encoding, bytes: &[u8]) -> String {
    let mut d = Decoder::with_options(encoding, options(false, BomHandling::Keep));
    let mut s = String::new();
    let r = d.decode_to_string(bytes, &mut s, true);
    assert_eq!(r.status, DecodeStatus::InputEmpty);
    s
}

/// Fatal-mode decode, resuming after each error: (text, [(offset, bytes)]).
fn dec_fatal(encoding: Encoding, bytes: &[u8]) -> (String, Vec<(u64, Vec<u8>)>) {
    let mut d = Decoder::with_options(encoding, options(true, BomHandling::Keep));
    let mut s = String::new();
    let mut errors = Vec::new();
    let mut src = bytes;
    loop {
        let r = d.decode_to_string(src, &mut s, true);
        src = &src[r.read..];
        match r.status {
            DecodeStatus::InputEmpty => return (s, errors),
            DecodeStatus::Malformed(m) => errors.push((m.offset(), m.bytes().to_vec())),
            DecodeStatus::OutputFull => unreachable!(),
        }
    }
}

fn enc(encoding: Encoding, text: &str, mode: EncodeErrorMode) -> Vec<u8> {
    let mut e = Encoder::new(encoding, mode).unwrap();
    let mut out = Vec::new();
    let r = e.encode_from_utf8_to_vec(text, &mut out, true);
    assert_eq!(r.status, EncodeStatus::InputEmpty);
    out
}

// ---------------------------------------------------------------------------------------
// ASCII is never swallowed by a multi-byte decoder (a lead byte followed by an ASCII byte
// that is not a valid trail: error, and the ASCII byte is restored).
// ---------------------------------------------------------------------------------------

#[test]
fn ascii_byte_after_lead_is_restored() {
    // #shift_jis-decoder step 3.9 (0x22 is outside the trail ranges 0x40–0x7E, 0x80–0xFC).
    assert_eq!(dec(Encoding::ShiftJis, b"\x82\x22"), "\u{FFFD}\"");
    // #euc-kr-decoder step 3 (trail 0x41–0xFE).
    assert_eq!(dec(Encoding::EucKr, b"\x81\x22"), "\u{FFFD}\"");
    // #big5-decoder (trail 0x40–0x7E, 0xA1–0xFE).
    assert_eq!(dec(Encoding::Big5, b"\x81\x22"), "\u{FFFD}\"");
    // #euc-jp-decoder step 5.
    assert_eq!(dec(Encoding::EucJp, b"\xA1\x22"), "\u{FFFD}\"");
    assert_eq!(dec(Encoding::EucJp, b"\x8E\x22"), "\u{FFFD}\"");
    assert_eq!(dec(Encoding::EucJp, b"\x8F\xA1\x22"), "\u{FFFD}\"");
    // #gb18030-decoder step 5 (0x22 is neither a trail nor 0x30–0x39).
    assert_eq!(dec(Encoding::Gb18030, b"\x81\x22"), "\u{FFFD}\"");
    assert_eq!(dec(Encoding::Gbk, b"\x81\x22"), "\u{FFFD}\"");
    // #utf-8-decoder step 4: the byte out of range is restored.
    assert_eq!(dec(Encoding::Utf8, b"\xE3\x22"), "\u{FFFD}\"");
    assert_eq!(dec(Encoding::Utf8, b"\xF0\x9F\x22"), "\u{FFFD}\"");
    // In fatal mode the malformed sequence is the lead byte alone.
    for (encoding, input) in [
        (Encoding::ShiftJis, &b"\x82\x22"[..]),
        (Encoding::EucKr, b"\x81\x22"),
        (Encoding::Big5, b"\x81\x22"),
        (Encoding::Gb18030, b"\x81\x22"),
        (Encoding::EucJp, b"\xA1\x22"),
    ] {
        let (text, errors) = dec_fatal(encoding, input);
        assert_eq!(text, "\"", "{encoding:?}");
        assert_eq!(errors, [(0, vec![input[0]])], "{encoding:?}");
    }
    // A non-ASCII non-trail is consumed with the lead (no restore): one U+FFFD.
    assert_eq!(dec(Encoding::ShiftJis, b"\x82\xFD"), "\u{FFFD}");
    assert_eq!(dec(Encoding::EucKr, b"\x81\xFF"), "\u{FFFD}");
}

// ---------------------------------------------------------------------------------------
// gb18030 (#gb18030-decoder)
// ---------------------------------------------------------------------------------------

#[test]
fn gb18030_end_of_queue_with_pending_bytes_is_one_error() {
    // Steps 1–2: whatever is pending, end-of-queue gives a single error.
    for input in [&b"\x81"[..], b"\x81\x30", b"\x81\x30\x81"] {
        for encoding in [Encoding::Gb18030, Encoding::Gbk] {
            assert_eq!(dec(encoding, input), "\u{FFFD}", "{input:02X?}");
            let (text, errors) = dec_fatal(encoding, input);
            assert_eq!(text, "");
            assert_eq!(errors.len(), 1);
        }
    }
    // With ASCII before: the ASCII is output, then one error.
    assert_eq!(dec(Encoding::Gb18030, b"ab\x81\x30\x81"), "ab\u{FFFD}");
}

#[test]
fn gb18030_restores() {
    // Step 3.1: third set, byte not 0x30–0x39: restore « second, third, byte »; first is
    // the error. 0x30 then decodes as "0", 0x81 0x41 as a two-byte character.
    let two_byte = dec(Encoding::Gb18030, b"\x81\x41");
    assert_eq!(two_byte.chars().count(), 1);
    assert_eq!(
        dec(Encoding::Gb18030, b"\x81\x30\x81\x41"),
        format!("\u{FFFD}0{two_byte}")
    );
    // Step 4.2: second set, byte not 0x81–0xFE: restore « second, byte ».
    assert_eq!(dec(Encoding::Gb18030, b"\x81\x30\x41"), "\u{FFFD}0A");
    // Step 3.4: an out-of-range four-byte pointer is one error for the four bytes.
    assert_eq!(dec(Encoding::Gb18030, b"\x84\x31\xA5\x30"), "\u{FFFD}");
    assert_eq!(dec(Encoding::Gb18030, b"\xE3\x32\x9A\x36"), "\u{FFFD}");
    // The last valid four-byte pointers: 39419 and 1237575 (step 1 of the ranges algorithm).
    assert_eq!(dec(Encoding::Gb18030, b"\x84\x31\xA4\x39"), "\u{FFFF}");
    assert_eq!(dec(Encoding::Gb18030, b"\xE3\x32\x9A\x35"), "\u{10FFFF}");
    assert_eq!(dec(Encoding::Gb18030, b"\x90\x30\x81\x30"), "\u{10000}");
    // Pointer 7457 (#index-gb18030-ranges-code-point step 2).
    assert_eq!(dec(Encoding::Gb18030, b"\x81\x35\xF4\x37"), "\u{E7C7}");
    assert_eq!(
        enc(Encoding::Gb18030, "\u{E7C7}", EncodeErrorMode::Fatal),
        b"\x81\x35\xF4\x37"
    );
    // Fatal: the malformed sequence of step 3.1 is the first byte only.
    let (text, errors) = dec_fatal(Encoding::Gb18030, b"\x81\x30\x81\x41");
    assert_eq!(text, format!("0{two_byte}"));
    assert_eq!(errors, [(0, vec![0x81])]);
}

#[test]
fn gb18030_encoder_special_cases() {
    // Step 3: U+E5E5 is an error in both.
    for encoding in [Encoding::Gb18030, Encoding::Gbk] {
        assert_eq!(
            enc(encoding, "\u{E5E5}", EncodeErrorMode::Html),
            b"&#58853;"
        );
    }
    // 0xA3 0xA0 decodes to U+3000 (the index note).
    assert_eq!(dec(Encoding::Gb18030, b"\xA3\xA0"), "\u{3000}");
    // Step 4: GBK encodes U+20AC as 0x80; gb18030 as its two-byte index pointer.
    assert_eq!(
        enc(Encoding::Gbk, "\u{20AC}", EncodeErrorMode::Fatal),
        b"\x80"
    );
    let euro = enc(Encoding::Gb18030, "\u{20AC}", EncodeErrorMode::Fatal);
    assert_eq!(euro.len(), 2);
    assert_eq!(dec(Encoding::Gb18030, &euro), "\u{20AC}");
    assert_eq!(dec(Encoding::Gbk, b"\x80"), "\u{20AC}");
    // Step 8: GBK has no four-byte forms.
    assert_eq!(
        enc(Encoding::Gbk, "\u{10000}", EncodeErrorMode::Html),
        b"&#65536;"
    );
    assert_eq!(
        enc(Encoding::Gbk, "\u{80}", EncodeErrorMode::Html),
        b"&#128;"
    );
    assert_eq!(
        enc(Encoding::Gb18030, "\u{80}", EncodeErrorMode::Fatal),
        b"\x81\x30\x81\x30"
    );
    // Step 5: the side table (first and last rows).
    assert_eq!(
        enc(Encoding::Gb18030, "\u{E78D}", EncodeErrorMode::Fatal),
        b"\xA6\xD9"
    );
    assert_eq!(
        enc(Encoding::Gbk, "\u{E864}", EncodeErrorMode::Fatal),
        b"\xFE\xA0"
    );
}

// ---------------------------------------------------------------------------------------
// ISO-2022-JP (#iso-2022-jp-decoder, #iso-2022-jp-encoder)
// ---------------------------------------------------------------------------------------

#[test]
fn iso_2022_jp_encoder_oddity_example() {
    // #example-iso-2022-jp-encoder-oddity.
    let once = enc(Encoding::Iso2022Jp, "\u{A5}", EncodeErrorMode::Fatal);
    assert_eq!(once, b"\x1B\x28\x4A\x5C\x1B\x28\x42");
    let twice = [once.clone(), once].concat();
    assert_eq!(dec(Encoding::Iso2022Jp, &twice), "\u{A5}\u{FFFD}\u{A5}");
    // In fatal mode the error is the redundant escape sequence (ESC ( B then ESC ( J with
    // nothing between: the output flag is still true).
    let (text, errors) = dec_fatal(Encoding::Iso2022Jp, &twice);
    assert_eq!(text, "\u{A5}\u{A5}");
    assert_eq!(errors, [(7, b"\x1B\x28\x4A".to_vec())]);
}

#[test]
fn iso_2022_jp_decoder_escapes_and_output_flag() {
    // An escape sequence at the very start: the output flag is false, so no error.
    assert_eq!(dec(Encoding::Iso2022Jp, b"\x1B(BA"), "A");
    // Two escape sequences in a row: error (escape step 7.4).
    assert_eq!(dec(Encoding::Iso2022Jp, b"\x1B(J\x1B(BA"), "\u{FFFD}A");
    // Escape then end-of-queue: nothing output, but the flag is irrelevant: no error.
    assert_eq!(dec(Encoding::Iso2022Jp, b"A\x1B(B"), "A");
    // Roman: 0x5C is U+00A5, 0x7E is U+203E.
    assert_eq!(
        dec(Encoding::Iso2022Jp, b"\x1B(J\x5C\x7E"),
        "\u{A5}\u{203E}"
    );
    // Katakana: 0x21–0x5F.
    assert_eq!(
        dec(Encoding::Iso2022Jp, b"\x1B(I\x21\x5F"),
        "\u{FF61}\u{FF9F}"
    );
    assert_eq!(dec(Encoding::Iso2022Jp, b"\x1B(I\x60"), "\u{FFFD}");
    // Escape start, byte not $ or (: restore it, error (escape start steps 2–3).
    assert_eq!(dec(Encoding::Iso2022Jp, b"\x1BA"), "\u{FFFD}A");
    assert_eq!(dec(Encoding::Iso2022Jp, b"\x1B"), "\u{FFFD}");
    // Escape, unknown final byte: restore « leading, byte » (escape steps 8–9).
    assert_eq!(dec(Encoding::Iso2022Jp, b"\x1B(A"), "\u{FFFD}(A");
    assert_eq!(dec(Encoding::Iso2022Jp, b"\x1B("), "\u{FFFD}(");
    let (text, errors) = dec_fatal(Encoding::Iso2022Jp, b"\x1B(A");
    assert_eq!((text.as_str(), errors), ("(A", vec![(0, vec![0x1B])]));
    // SO, SI and non-ASCII are errors in the ASCII state.
    assert_eq!(
        dec(Encoding::Iso2022Jp, b"\x0E\x0F\x80"),
        "\u{FFFD}\u{FFFD}\u{FFFD}"
    );
    // Trailing byte state: ESC is an error, and begins an escape sequence.
    let kanji = dec(Encoding::Iso2022Jp, b"\x1B$B\x30\x21");
    assert_eq!(kanji.chars().count(), 1);
    assert_eq!(dec(Encoding::Iso2022Jp, b"\x1B$B\x30\x1B(BA"), "\u{FFFD}A");
    // Trailing byte state, other byte (even ASCII, e.g. LF): consumed with the error.
    assert_eq!(
        dec(Encoding::Iso2022Jp, b"\x1B$B\x30\x0A\x30\x21"),
        format!("\u{FFFD}{kanji}")
    );
    // Trailing byte at end-of-queue: error.
    assert_eq!(dec(Encoding::Iso2022Jp, b"\x1B$B\x30"), "\u{FFFD}");
    // Leading byte state: newline is an error (not 0x21–0x7E).
    assert_eq!(dec(Encoding::Iso2022Jp, b"\x1B$B\x0A"), "\u{FFFD}");
}

#[test]
fn iso_2022_jp_encoder_errors_and_escapes() {
    // Step 3: U+000E, U+000F, U+001B are errors with U+FFFD in ASCII and Roman states.
    for c in ['\u{E}', '\u{F}', '\u{1B}'] {
        let mut e = Encoder::new(Encoding::Iso2022Jp, EncodeErrorMode::Fatal).unwrap();
        let mut buf = [0u8; 32];
        let r = e.encode_from_utf8(&c.to_string(), &mut buf, true);
        match r.status {
            EncodeStatus::Unmappable(u) => {
                assert_eq!(u.code_point(), '\u{FFFD}');
                assert_eq!(u.character(), c);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(r.written, 0);
        assert_eq!(
            enc(Encoding::Iso2022Jp, &format!("a{c}"), EncodeErrorMode::Html),
            b"a&#65533;"
        );
        // In Roman: still an error with U+FFFD, no escape first.
        assert_eq!(
            enc(
                Encoding::Iso2022Jp,
                &format!("\u{A5}{c}"),
                EncodeErrorMode::Html
            ),
            b"\x1B(J\x5C&#65533;\x1B(B"
        );
        // In jis0208: ESC ( B first (step 11.1), then the error (step 3).
        let kanji = enc(Encoding::Iso2022Jp, "\u{4E9C}", EncodeErrorMode::Fatal);
        let mut want = kanji[..5].to_vec();
        want.extend_from_slice(b"\x1B(B&#65533;");
        assert_eq!(
            enc(
                Encoding::Iso2022Jp,
                &format!("\u{4E9C}{c}"),
                EncodeErrorMode::Html
            ),
            want
        );
    }
    // An unencodable code point in jis0208 state: the return to ASCII is written before the
    // error is reported (step 11.1 then 11.2).
    let mut e = Encoder::new(Encoding::Iso2022Jp, EncodeErrorMode::Fatal).unwrap();
    let mut buf = [0u8; 32];
    let r = e.encode_from_utf8("\u{4E9C}\u{1F600}", &mut buf, true);
    assert!(matches!(r.status, EncodeStatus::Unmappable(u) if u.code_point() == '\u{1F600}'));
    assert_eq!(&buf[..3], b"\x1B$B");
    assert_eq!(&buf[5..r.written], b"\x1B(B");
    // U+2212 is encoded as U+FF0D (step 8); U+00A5 then ASCII returns to ASCII first.
    assert_eq!(
        enc(Encoding::Iso2022Jp, "\u{2212}", EncodeErrorMode::Fatal),
        enc(Encoding::Iso2022Jp, "\u{FF0D}", EncodeErrorMode::Fatal)
    );
    assert_eq!(
        enc(Encoding::Iso2022Jp, "\u{A5}\\", EncodeErrorMode::Fatal),
        b"\x1B(J\x5C\x1B(B\\"
    );
    assert_eq!(
        enc(
            Encoding::Iso2022Jp,
            "\u{A5}a\u{203E}",
            EncodeErrorMode::Fatal
        ),
        b"\x1B(J\x5Ca\x7E\x1B(B"
    );
}

// ---------------------------------------------------------------------------------------
// UTF-16 (#shared-utf-16-decoder)
// ---------------------------------------------------------------------------------------

#[test]
fn utf16_edge_cases() {
    // Odd trailing byte: end-of-queue with a leading byte is an error (step 1).
    assert_eq!(dec(Encoding::Utf16Le, b"A\x00B"), "A\u{FFFD}");
    assert_eq!(dec(Encoding::Utf16Be, b"\x00AB"), "A\u{FFFD}");
    // Lone trailing surrogate: error (step 8).
    assert_eq!(dec(Encoding::Utf16Le, b"\x00\xDCA\x00"), "\u{FFFD}A");
    // Leading surrogate followed by a non-trail: restore its two bytes (step 6).
    assert_eq!(dec(Encoding::Utf16Le, b"\x00\xD8A\x00"), "\u{FFFD}A");
    assert_eq!(dec(Encoding::Utf16Be, b"\xD8\x00\x00A"), "\u{FFFD}A");
    // ... including another leading surrogate, which then pairs.
    assert_eq!(
        dec(Encoding::Utf16Be, b"\xD8\x00\xD8\x3D\xDE\x00"),
        "\u{FFFD}\u{1F600}"
    );
    // Fatal: the lead surrogate's two bytes are the malformed sequence; the restored unit
    // decodes next.
    let (text, errors) = dec_fatal(Encoding::Utf16Be, b"\xD8\x00\x00A");
    assert_eq!(text, "A");
    assert_eq!(errors, [(0, vec![0xD8, 0x00])]);
    // Leading surrogate then end-of-queue, and then with an odd byte.
    assert_eq!(dec(Encoding::Utf16Le, b"\x3D\xD8"), "\u{FFFD}");
    assert_eq!(dec(Encoding::Utf16Le, b"\x3D\xD8\x00"), "\u{FFFD}");
    let (_, errors) = dec_fatal(Encoding::Utf16Le, b"\x3D\xD8\x00");
    assert_eq!(errors, [(0, vec![0x3D, 0xD8, 0x00])]);
}

// ---------------------------------------------------------------------------------------
// replacement (#replacement-decoder)
// ---------------------------------------------------------------------------------------

#[test]
fn replacement_decoder() {
    assert_eq!(dec(Encoding::Replacement, b""), "");
    assert_eq!(dec(Encoding::Replacement, b"a"), "\u{FFFD}");
    assert_eq!(
        dec(Encoding::Replacement, b"anything at all \xFF"),
        "\u{FFFD}"
    );
    // Streamed: still one U+FFFD, and none for an empty stream.
    let mut d = Decoder::with_options(Encoding::Replacement, options(false, BomHandling::Keep));
    let mut s = String::new();
    for chunk in [&b""[..], b"ab", b"", b"cd"] {
        let _ = d.decode_to_string(chunk, &mut s, false);
    }
    let _ = d.decode_to_string(b"", &mut s, true);
    assert_eq!(s, "\u{FFFD}");
    let (text, errors) = dec_fatal(Encoding::Replacement, b"xyz");
    assert_eq!(text, "");
    assert_eq!(errors.len(), 1);
    // Its labels decode with it; it has no encoder, its output encoding is UTF-8.
    assert_eq!(
        Encoding::for_label(b"iso-2022-kr"),
        Some(Encoding::Replacement)
    );
    assert!(Encoder::new(Encoding::Replacement, EncodeErrorMode::Fatal).is_none());
    assert!(get_an_encoder(Encoding::Replacement).is_none());
    assert_eq!(encode("é", Encoding::Replacement).1, Encoding::Utf8);
}

// ---------------------------------------------------------------------------------------
// Hooks (#specification-hooks, #legacy-hooks): BOM handling
// ---------------------------------------------------------------------------------------

#[test]
fn decode_hook_sniffs_and_switches() {
    // #decode: the BOM wins over the fallback encoding and is removed.
    let (text, used) = decode(b"\xEF\xBB\xBFA\xC3\xA9", Encoding::Windows1252);
    assert_eq!((text.as_ref(), used), ("Aé", Encoding::Utf8));
    let (text, used) = decode(b"\xFE\xFF\x00A", Encoding::Utf8);
    assert_eq!((text.as_ref(), used), ("A", Encoding::Utf16Be));
    let (text, used) = decode(b"\xFF\xFEA\x00", Encoding::ShiftJis);
    assert_eq!((text.as_ref(), used), ("A", Encoding::Utf16Le));
    // No BOM: the fallback; a second BOM is a U+FEFF.
    let (text, used) = decode(b"\xEF\xBB", Encoding::Windows1252);
    assert_eq!((text.as_ref(), used), ("ï»", Encoding::Windows1252));
    let (text, _) = decode(b"\xEF\xBB\xBF\xEF\xBB\xBF", Encoding::Utf8);
    assert_eq!(text, "\u{FEFF}");
    // #bom-sniff.
    assert_eq!(bom_sniff(b"\xEF\xBB\xBF"), Some(Encoding::Utf8));
    assert_eq!(bom_sniff(b"\xFE\xFF"), Some(Encoding::Utf16Be));
    assert_eq!(bom_sniff(b"\xFF\xFE\x00"), Some(Encoding::Utf16Le));
    assert_eq!(bom_sniff(b"\xEF\xBB"), None);
    assert_eq!(bom_sniff(b""), None);
    // The streaming decoder with BomHandling::Sniff does the same, split anywhere.
    for input in [
        &b"\xEF\xBB\xBFA\xC3\xA9"[..],
        b"\xFE\xFF\x00A",
        b"\xFF\xFEA\x00",
        b"\xEF\xBB",
        b"\xFF",
        b"",
    ] {
        let (want, want_enc) = decode(input, Encoding::Windows1252);
        for split in 0..=input.len() {
            let mut d =
                Decoder::with_options(Encoding::Windows1252, options(false, BomHandling::Sniff));
            let mut s = String::new();
            let _ = d.decode_to_string(&input[..split], &mut s, false);
            let enc_after = d.encoding();
            let _ = d.decode_to_string(&input[split..], &mut s, true);
            assert_eq!(s, want, "{input:02X?} split {split}");
            if split >= 3 || (split >= 2 && want_enc.is_utf16()) {
                assert_eq!(enc_after, want_enc);
            }
        }
    }
}

#[test]
fn utf8_decode_hooks_and_bom() {
    // #utf-8-decode strips only a UTF-8 BOM.
    assert_eq!(utf8_decode(b"\xEF\xBB\xBFa"), "a");
    assert_eq!(utf8_decode(b"\xEF\xBB\xBF\xEF\xBB\xBFa"), "\u{FEFF}a");
    assert_eq!(utf8_decode(b"\xFF\xFEa\x00"), "\u{FFFD}\u{FFFD}a\u{0}");
    assert_eq!(utf8_decode(b"\xEF\xBB"), "\u{FFFD}");
    // #utf-8-decode-without-bom keeps it.
    assert_eq!(utf8_decode_without_bom(b"\xEF\xBB\xBFa"), "\u{FEFF}a");
    // ... or fail.
    assert_eq!(
        utf8_decode_without_bom_or_fail(b"\xEF\xBB\xBFa"),
        Ok("\u{FEFF}a")
    );
    let err = utf8_decode_without_bom_or_fail(b"ab\xE3\x81").unwrap_err();
    assert_eq!(err.offset(), 2);
    assert_eq!(err.bytes(), b"\xE3\x81");
    let err = utf8_decode_without_bom_or_fail(b"ab\xE3\x81A").unwrap_err();
    assert_eq!((err.offset(), err.bytes()), (2, &b"\xE3\x81"[..]));
    // BomHandling::Remove on the decoder: UTF-8's own BOM only, no switching.
    let mut d = Decoder::with_options(Encoding::Utf8, options(false, BomHandling::Remove));
    let mut s = String::new();
    let _ = d.decode_to_string(b"\xFF\xFEa", &mut s, true);
    assert_eq!(s, "\u{FFFD}\u{FFFD}a");
    let mut d = Decoder::with_options(Encoding::Utf16Le, options(false, BomHandling::Remove));
    let mut s = String::new();
    let _ = d.decode_to_string(b"\xFF\xFEa\x00\xFF\xFE", &mut s, true);
    assert_eq!(s, "a\u{FEFF}");
    let mut d = Decoder::with_options(Encoding::Utf16Le, options(false, BomHandling::Remove));
    let mut s = String::new();
    let _ = d.decode_to_string(b"\xFE\xFF", &mut s, true);
    assert_eq!(s, "\u{FFFE}");
}

#[test]
fn encode_hooks() {
    // #encode uses html mode and the output encoding.
    let (bytes, used) = encode("a€☃", Encoding::Windows1252);
    assert_eq!(
        (bytes.as_ref(), used),
        (&b"a\x80&#9731;"[..], Encoding::Windows1252)
    );
    let (bytes, used) = encode("é", Encoding::Utf16Le);
    assert_eq!((bytes.as_ref(), used), ("é".as_bytes(), Encoding::Utf8));
    // #encode-or-fail returns the error's code point; the encoder can be resumed.
    let mut e = get_an_encoder(Encoding::Iso2022Jp).unwrap();
    let mut out = Vec::new();
    let err = encode_or_fail(&mut e, "\u{4E9C}\u{1B}x", &mut out).unwrap_err();
    assert_eq!(err.unmappable.code_point(), '\u{FFFD}');
    // The encoder switched back to ASCII before the error.
    assert!(out.ends_with(b"\x1B(B"));
    let mut out2 = Vec::new();
    encode_or_fail(&mut e, &"\u{4E9C}\u{1B}x"[err.read..], &mut out2).unwrap();
    assert_eq!(out2, b"x");
    assert!(get_an_encoder(Encoding::Utf16Be).is_none());
    assert!(get_an_encoder(Encoding::Utf8).is_some());
}

#[test]
fn big5_two_code_point_pointers() {
    // #big5-decoder step 3.6: pointers 1133, 1135, 1164, 1166.
    for (pointer, want) in [
        (1133, "\u{CA}\u{304}"),
        (1135, "\u{CA}\u{30C}"),
        (1164, "\u{EA}\u{304}"),
        (1166, "\u{EA}\u{30C}"),
    ] {
        let lead = (pointer / 157) as u8 + 0x81;
        let trail = (pointer % 157) as u8;
        let trail = trail + if trail < 0x3F { 0x40 } else { 0x62 };
        assert_eq!(dec(Encoding::Big5, &[lead, trail]), want);
        // Into a UTF-16 buffer of exactly two units, and one unit (no room: OutputFull).
        let mut d = Decoder::new(Encoding::Big5);
        let mut buf = [0u16; 1];
        let r = d.decode_to_utf16(&[lead, trail], &mut buf, true);
        assert_eq!(r.status, DecodeStatus::OutputFull);
        assert_eq!(r.written, 0);
    }
}

#[test]
fn shift_jis_specifics() {
    // 0x80 decodes to U+0080 and encodes back (#shift_jis-decoder step 5, encoder step 2).
    assert_eq!(dec(Encoding::ShiftJis, b"\x80"), "\u{80}");
    assert_eq!(
        enc(Encoding::ShiftJis, "\u{80}", EncodeErrorMode::Fatal),
        b"\x80"
    );
    // Halfwidth katakana are single bytes 0xA1–0xDF.
    assert_eq!(dec(Encoding::ShiftJis, b"\xA1\xDF"), "\u{FF61}\u{FF9F}");
    // EUDC: pointer 8836 (0xF0 0x40) is U+E000 and is not encodable.
    assert_eq!(dec(Encoding::ShiftJis, b"\xF0\x40"), "\u{E000}");
    assert_eq!(
        enc(Encoding::ShiftJis, "\u{E000}", EncodeErrorMode::Html),
        b"&#57344;"
    );
    // U+00A5 → 0x5C, U+203E → 0x7E (encoder steps 3–4), which decode as ASCII.
    assert_eq!(
        enc(Encoding::ShiftJis, "\u{A5}\u{203E}", EncodeErrorMode::Fatal),
        b"\x5C\x7E"
    );
    assert_eq!(
        enc(Encoding::EucJp, "\u{A5}\u{203E}", EncodeErrorMode::Fatal),
        b"\x5C\x7E"
    );
}
