//! The entry points with fuzzed options: no panics; the streaming ResourceDecoder agrees
//! with decode_resource for any chunking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use textcodec::sniff::{
    decode_resource, should_change_encoding, sniff, Confidence, ResourceDecoder, ResourceKind,
    SniffOptions,
};
use textcodec::Encoding;

const KINDS: [ResourceKind; 5] = [
    ResourceKind::Html,
    ResourceKind::Xml,
    ResourceKind::Css,
    ResourceKind::PlainText,
    ResourceKind::Json,
];

fuzz_target!(|data: &[u8]| {
    // Layout: kind (high bit: detect), override (top two bits: TLD hint), fallback, chunk size, content-type length, content type, body.
    let [kind, user, fallback, chunk, ct_len, rest @ ..] = data else {
        return;
    };
    let ct_len = usize::from(*ct_len % 32).min(rest.len());
    let (content_type, body) = rest.split_at(ct_len);
    let pick = |b: u8| Encoding::all().get(usize::from(b)).copied();
    let options = SniffOptions {
        kind: KINDS[usize::from(*kind) % KINDS.len()],
        content_type: (ct_len > 0).then_some(content_type),
        user_override: pick(*user),
        fallback: pick(*fallback),
        locale: Some(["ja", "zh-TW", "ru", "en"][usize::from(*chunk % 4)]),
        // The detector on for half the inputs, with a TLD hint on some of those.
        detect: *kind & 0x80 != 0,
        tld: [None, Some(&b"jp"[..]), Some(&b"ru"[..]), Some(&b"cz"[..])][usize::from(*user >> 6)],
    };
    let report = sniff(body, &options);
    let _ = report.to_string();
    let (text, report2) = decode_resource(body, &options);
    assert_eq!(report, report2);

    let mut decoder = ResourceDecoder::new(&options);
    let mut streamed = String::new();
    let mut failed = false;
    for piece in body.chunks(usize::from(*chunk).max(1)) {
        failed |= decoder
            .decode_to_string(piece, &mut streamed, false)
            .is_err();
    }
    failed |= decoder.decode_to_string(b"", &mut streamed, true).is_err();
    assert_eq!(decoder.report(), Some(report));
    if !failed {
        assert_eq!(streamed, text);
    }

    if let Some(new) = pick(*fallback) {
        let _ = should_change_encoding(report.encoding, Confidence::Tentative, new, body);
    }
});
