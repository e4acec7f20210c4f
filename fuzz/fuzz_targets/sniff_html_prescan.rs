//! HTML prescan, get an XML encoding, meta content extraction: no panics; nothing after
//! byte 1024 matters; results obey the <meta> rules.
#![no_main]

use libfuzzer_sys::fuzz_target;
use textcodec::sniff::{
    extract_encoding_from_meta, get_an_xml_encoding, html_prescan_detailed, PrescanSource,
    PRESCAN_LIMIT,
};
use textcodec::Encoding;

fuzz_target!(|data: &[u8]| {
    let result = html_prescan_detailed(data);
    let window = &data[..data.len().min(PRESCAN_LIMIT)];
    assert_eq!(result, html_prescan_detailed(window));
    if data.len() >= PRESCAN_LIMIT {
        let mut longer = window.to_vec();
        longer.extend_from_slice(b"<meta charset=gbk>");
        assert_eq!(result, html_prescan_detailed(&longer));
    }
    if let Some(p) = result {
        assert!(p.offset < PRESCAN_LIMIT);
        if matches!(
            p.source,
            PrescanSource::MetaCharset | PrescanSource::MetaHttpEquiv
        ) {
            assert!(!p.encoding.is_utf16() && p.encoding != Encoding::XUserDefined);
        }
    }
    let _ = get_an_xml_encoding(data);
    let _ = extract_encoding_from_meta(data);
});
