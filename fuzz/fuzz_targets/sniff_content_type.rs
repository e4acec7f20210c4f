//! MIME type parsing: no panics; parse ∘ serialize is the identity on parsed records.
#![no_main]

use libfuzzer_sys::fuzz_target;
use textcodec::sniff::{charset_from_content_type, MimeType};

fuzz_target!(|data: &[u8]| {
    if let Some(mime) = MimeType::parse(data) {
        // Serialization yields code points <= U+00FF: isomorphic-encode it back to bytes.
        let bytes: Vec<u8> = mime.to_string().chars().map(|c| c as u32 as u8).collect();
        assert_eq!(MimeType::parse(&bytes).as_ref(), Some(&mime));
        assert_eq!(
            mime.essence(),
            format!("{}/{}", mime.type_(), mime.subtype())
        );
    }
    let extracted = MimeType::extract(data);
    assert_eq!(
        charset_from_content_type(data),
        extracted.and_then(|m| m.charset())
    );
});
