//! The Standard's security considerations (#security-background, #browser-ui), one test per
//! claim SECURITY.md makes that no other test pins down.

use textcodec::api::{ApiError, TextDecoder, TextDecoderOptions};
use textcodec::{decode, encode, BomHandling, DecodeErrorMode, Decoder, DecoderOptions, Encoding};

fn dec(encoding: Encoding, bytes: &[u8]) -> String {
    let mut d = Decoder::with_options(
        encoding,
        DecoderOptions {
            error_mode: DecodeErrorMode::Replacement,
            bom: BomHandling::Keep,
        },
    );
    let mut s = String::new();
    let _ = d.decode_to_string(bytes, &mut s, true);
    s
}

/// #security-background: "in case of an illegal byte combination, a scalar value in the
/// range U+0000 to U+007F, inclusive, cannot be 'masked'". Every lead byte of every
/// ASCII-compatible multi-byte decoder, followed by every ASCII byte and more ASCII: either
/// the pair is one valid non-ASCII character, or the ASCII byte comes out as itself.
#[test]
fn no_multi_byte_decoder_masks_an_ascii_byte() {
    let multi_byte = [
        Encoding::Utf8,
        Encoding::Gbk,
        Encoding::Gb18030,
        Encoding::Big5,
        Encoding::EucJp,
        Encoding::ShiftJis,
        Encoding::EucKr,
    ];
    for encoding in multi_byte {
        for lead in 0x80..=0xFFu8 {
            for ascii in 0x00..=0x7Fu8 {
                let text = dec(encoding, &[lead, ascii, b'!', b'"']);
                let tail = format!("{}!\"", ascii as char);
                // A valid pair: one or two (Big5) non-ASCII characters, then the rest.
                let valid_pair = text.strip_suffix("!\"").is_some_and(|head| {
                    !head.is_empty() && head.chars().all(|c| !c.is_ascii() && c != '\u{FFFD}')
                });
                assert!(
                    valid_pair || text.ends_with(&tail),
                    "{encoding:?} {lead:02X} {ascii:02X}: {text:?}"
                );
            }
        }
        // Three-byte EUC-JP (0x8F) and four-byte gb18030 prefixes too.
        for ascii in 0x00..=0x7Fu8 {
            for prefix in [
                &[0x8F, 0xA1][..],
                &[0x81, 0x30],
                &[0x81, 0x30, 0x81],
                &[0xF0, 0x9F],
            ] {
                let mut input = prefix.to_vec();
                input.extend_from_slice(&[ascii, b'!']);
                let text = dec(encoding, &input);
                // After the last error, the ASCII byte is output, or is the trail byte of
                // a valid character that the restored bytes formed (gb18030 `81 30 81 40`
                // restores `81 40`, which is U+4E02).
                let after = text.rsplit('\u{FFFD}').next().unwrap_or_default();
                assert!(
                    !text.contains('\u{FFFD}')
                        || after.ends_with(&format!("{}!", ascii as char))
                        || !after.is_ascii(),
                    "{encoding:?} {input:02X?}: {text:?}"
                );
            }
        }
    }
}

/// #security-background: "the gb18030 decoder will 'mask' up to one such byte at
/// end-of-queue": 81 30 at the end is one U+FFFD, the ASCII '0' is gone. With anything
/// after it, the '0' is restored.
#[test]
fn gb18030_masks_one_ascii_byte_only_at_end_of_queue() {
    for encoding in [Encoding::Gb18030, Encoding::Gbk] {
        assert_eq!(dec(encoding, b"\x81\x30"), "\u{FFFD}");
        assert_eq!(dec(encoding, b"\x81\x30\x81"), "\u{FFFD}");
        assert_eq!(dec(encoding, b"\x81\x30!"), "\u{FFFD}0!");
        assert_eq!(dec(encoding, b"\x81\x30\x81!"), "\u{FFFD}0\u{FFFD}!");
    }
}

/// #security-background: ASCII-incompatible encodings other than ISO-2022-JP and UTF-16 are
/// not supported; the labels of ISO-2022-KR, ISO-2022-CN(-EXT) and HZ-GB-2312 map to the
/// replacement encoding, whose decoder outputs one U+FFFD for any non-empty input, and
/// which `TextDecoder` refuses (RangeError).
#[test]
fn iso_2022_kr_cn_and_hz_labels_are_replacement() {
    for label in [
        "csiso2022kr",
        "hz-gb-2312",
        "iso-2022-cn",
        "iso-2022-cn-ext",
        "iso-2022-kr",
        "replacement",
    ] {
        assert_eq!(Encoding::for_label_str(label), Some(Encoding::Replacement));
        let err = TextDecoder::new(label, TextDecoderOptions::default()).unwrap_err();
        assert_eq!(err, ApiError::RangeError);
    }
    // HZ's "~{" shift and ISO-2022-KR's SO/SI cannot smuggle markup through.
    assert_eq!(dec(Encoding::Replacement, b"~{<script>~}"), "\u{FFFD}");
    assert_eq!(
        dec(Encoding::Replacement, b"\x1b$)C\x0e!!\x0f<b>"),
        "\u{FFFD}"
    );
    let mut incompatible: Vec<_> = Encoding::all()
        .iter()
        .filter(|e| !e.is_ascii_compatible())
        .map(|e| e.name())
        .collect();
    incompatible.sort_unstable();
    assert_eq!(
        incompatible,
        ["ISO-2022-JP", "UTF-16BE", "UTF-16LE", "replacement"]
    );
}

/// #security-background: html mode loses data: "a server will not be able to distinguish
/// between an end user entering '💩' and '&#128169;'".
#[test]
fn html_mode_cannot_tell_a_character_from_its_reference() {
    let (a, _) = encode("\u{1F4A9}", Encoding::Windows1252);
    let (b, _) = encode("&#128169;", Encoding::Windows1252);
    assert_eq!(a, b);
}

/// #browser-ui and the *decode* hook: a UTF-16 BOM overrides whatever encoding the caller
/// had (that is the Standard's rule, and why ASCII content can be re-read as UTF-16 by
/// whoever controls its first two bytes); `BomHandling::Keep` opts out.
#[test]
fn a_utf16_bom_overrides_the_declared_encoding() {
    let (text, used) = decode(b"\xFF\xFE<\x00b\x00>\x00", Encoding::Windows1252);
    assert_eq!((text.as_ref(), used), ("<b>", Encoding::Utf16Le));
    let mut d = Decoder::with_options(
        Encoding::Windows1252,
        DecoderOptions {
            error_mode: DecodeErrorMode::Replacement,
            bom: BomHandling::Keep,
        },
    );
    let mut s = String::new();
    let _ = d.decode_to_string(b"\xFF\xFE<\x00", &mut s, true);
    assert_eq!(s, "\u{FF}\u{FE}<\u{0}");
}

/// The bulk decoders may store a few bytes past what they report written (three- and
/// four-byte stores for shorter characters). Into a `&mut str` that must never leave
/// invalid UTF-8 behind: whatever the buffer held (two-, three-, four-byte characters) and
/// wherever the output stops, the buffer stays a valid `str` and its written prefix is the
/// decoded text.
#[test]
fn decode_to_str_leaves_a_valid_str_whatever_the_bulk_paths_write() {
    let mut input: Vec<u8> = (0..=255u8).collect();
    input.extend_from_slice(b"plain ASCII, long enough for the vector path: 0123456789");
    input.extend((0x80..=0xFFu8).rev());
    for &encoding in Encoding::all() {
        let (whole, _) = textcodec::decode_without_bom(encoding, &input);
        for fill in ["é", "日", "😀", "a"] {
            for size in [1usize, 2, 3, 4, 5, 7, 16, 31, 64, 200, 1000] {
                let mut buf = fill.repeat(size.div_ceil(fill.len()));
                let mut decoder = textcodec::Decoder::new(encoding);
                let mut decoded = String::new();
                let mut rest = &input[..];
                loop {
                    let r = decoder.decode_to_str(rest, buf.as_mut_str(), true);
                    assert!(std::str::from_utf8(buf.as_bytes()).is_ok(), "{encoding:?}");
                    decoded.push_str(&buf[..r.written]);
                    rest = &rest[r.read..];
                    if r.status != textcodec::DecodeStatus::OutputFull {
                        break;
                    }
                    assert!(
                        r.read > 0 || r.written > 0 || buf.len() < 4,
                        "{encoding:?} stuck"
                    );
                    if r.read == 0 && r.written == 0 {
                        buf = fill.repeat(8); // too small for the next character
                    }
                }
                assert_eq!(decoded, whole, "{encoding:?} fill {fill:?} size {size}");
            }
        }
    }
}
