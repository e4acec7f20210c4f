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
