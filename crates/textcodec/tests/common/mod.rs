//! Strategies shared by the adapter tests (`io.rs`, `tokio.rs`).
#![allow(dead_code)]

use proptest::prelude::*;

/// UTF-8 that is not all valid, for the adapters' property tests: characters of `sample`
/// and runs of 1–3 bytes that begin or continue sequences (malformed and cut ones, near
/// misses of overlong forms, surrogates and values past U+10FFFF), after nothing, a UTF-8
/// BOM, a UTF-16LE BOM or a cut UTF-8 BOM.
pub fn utf8_with_junk(sample: &'static str) -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        proptest::sample::select(sample.chars().collect::<Vec<_>>())
            .prop_map(|c| c.to_string().into_bytes()),
        proptest::collection::vec(
            proptest::sample::select(vec![
                0x80u8, 0xBF, 0xC2, 0xE0, 0xE3, 0xED, 0xF0, 0xF4, 0xFF, 0x81, 0xA0,
            ]),
            1..4,
        ),
    ];
    (0..4usize, proptest::collection::vec(piece, 0..60)).prop_map(|(bom, pieces)| {
        let mut bytes = [&b""[..], b"\xEF\xBB\xBF", b"\xFF\xFE", b"\xEF\xBB"][bom].to_vec();
        bytes.extend(pieces.concat());
        bytes
    })
}
