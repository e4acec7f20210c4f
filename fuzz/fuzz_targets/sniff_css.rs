//! CSS @charset and the fallback encoding: no panics; only the first 1024 bytes matter.
#![no_main]

use libfuzzer_sys::fuzz_target;
use textcodec::sniff::{
    css_charset, css_charset_label, decode_resource, sniff, ResourceKind, SniffOptions,
    CSS_CHARSET_LIMIT,
};

fuzz_target!(|data: &[u8]| {
    let window = &data[..data.len().min(CSS_CHARSET_LIMIT)];
    assert_eq!(css_charset_label(data), css_charset_label(window));
    let charset = css_charset(data);
    assert!(charset.is_none_or(|e| !e.is_utf16()));
    let options = SniffOptions::new(ResourceKind::Css);
    assert_eq!(sniff(data, &options), sniff(window, &options));
    let _ = decode_resource(data, &options);
});
