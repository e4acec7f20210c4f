//! The encoding detector: no panics on any bytes and any chunking; the chunked guess
//! equals the one-shot guess; the guess is never a candidate whose decoder errors when
//! another candidate's does not.
#![no_main]

use libfuzzer_sys::fuzz_target;
use textcodec::detect::{detect, Detector, Hints};
use textcodec::{BomHandling, DecodeErrorMode, DecodeStatus, Decoder, DecoderOptions};

fn errors(encoding: textcodec::Encoding, bytes: &[u8]) -> bool {
    let options = DecoderOptions {
        error_mode: DecodeErrorMode::Fatal,
        bom: BomHandling::Keep,
    };
    let mut decoder = Decoder::with_options(encoding, options);
    let mut out = String::new();
    !matches!(
        decoder.decode_to_string(bytes, &mut out, true).status,
        DecodeStatus::InputEmpty
    )
}

fuzz_target!(|data: &[u8]| {
    // First byte: the chunk length (1–256); the rest: the input.
    let Some((&n, bytes)) = data.split_first() else {
        return;
    };
    // Candidate sets from the same byte: none, a deny list, an allow list.
    use textcodec::Encoding::{EucJp, ShiftJis, Utf16Le, Utf8, Windows1251, Windows1252};
    let hints = Hints {
        tld: Some(b"jp"),
        locale: Some("ru"),
        allow_utf8: n & 1 == 0,
        allow: (n & 4 != 0).then_some(&[ShiftJis, EucJp, Utf8, Windows1251][..]),
        deny: if n & 2 != 0 {
            &[Utf16Le, Windows1252]
        } else {
            &[]
        },
    };
    let whole = detect(bytes, &hints);
    let mut detector = Detector::new();
    for chunk in bytes.chunks(usize::from(n) + 1) {
        detector.feed(chunk, false);
    }
    detector.feed(&[], true);
    assert_eq!(detector.guess(&hints), whole);
    let ranking = detector.ranking(&hints);
    // Every candidate, excluded ones included (38: the 36 single- and multi-byte ones
    // and UTF-16LE/BE without a BOM).
    assert_eq!(ranking.len(), 38);
    if !whole.ascii_only && !whole.stopped_early && ranking.iter().any(|c| !c.disqualified) {
        assert!(!errors(whole.encoding, bytes), "{whole:?}");
    }
    assert!(whole.margin >= 0.0);
});
