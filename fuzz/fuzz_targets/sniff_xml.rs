//! XML declaration and sniffing: no panics; only the first 1024 bytes matter; fatal
//! decoding agrees with replacement decoding when it succeeds.
#![no_main]

use libfuzzer_sys::fuzz_target;
use textcodec::sniff::{
    decode_resource, sniff, try_decode_resource, xml_declaration_label, xml_declared_encoding,
    ResourceKind, SniffOptions, XML_DECLARATION_LIMIT,
};

fuzz_target!(|data: &[u8]| {
    let window = &data[..data.len().min(XML_DECLARATION_LIMIT)];
    assert_eq!(xml_declaration_label(data), xml_declaration_label(window));
    let declared = xml_declared_encoding(data);
    assert!(declared.is_none_or(|e| !e.is_utf16()));
    let options = SniffOptions::new(ResourceKind::Xml);
    let report = sniff(data, &options);
    assert_eq!(report, sniff(window, &options));
    match try_decode_resource(data, &options) {
        Ok((text, _)) => assert_eq!(text, decode_resource(data, &options).0),
        Err(e) => assert!(e.malformed.offset() <= data.len() as u64),
    }
});
