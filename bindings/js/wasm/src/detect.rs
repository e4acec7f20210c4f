//! The second module (the `detect` feature): `detect` and `sniff`, loaded by JavaScript on
//! first use (src/detect.js). It has its own memory: input goes in through its own
//! [`crate::tc_alloc`], results come out in its own result slots and numbers.

use alloc::vec::Vec;

use textcodec::detect::{Detector, Hints};
use textcodec::sniff::{sniff, Confidence, ResourceKind, SniffOptions, Source};
use textcodec::Encoding;

use crate::{encoding, id_of, input, set_output, set_slot, NUMBERS, ONCE};

/// The UTF-8 text at `ptr`, `None` for null or bytes that are not UTF-8.
///
/// # Safety
/// `ptr` is null, or it and `len` are as for [`input`].
unsafe fn str_input<'a>(ptr: *const u8, len: u32) -> Option<&'a str> {
    if ptr.is_null() {
        return None;
    }
    // SAFETY: the caller's contract.
    core::str::from_utf8(unsafe { input(ptr, len as usize) }).ok()
}

/// The encodings whose ids are the bytes at `ptr`.
///
/// # Safety
/// `ptr` and `len` as for [`input`].
unsafe fn id_list(ptr: *const u8, len: u32) -> Vec<Encoding> {
    // SAFETY: the caller's contract.
    unsafe { input(ptr, len as usize) }
        .iter()
        .filter_map(|&i| encoding(u32::from(i)))
        .collect()
}

fn finite(x: f32) -> f64 {
    if x.is_finite() {
        f64::from(x)
    } else {
        f64::NAN
    }
}

/// `detect`: the statistical detector. Strings (`tld`, `locale`) are UTF-8, null when
/// absent; `allow` (null: any) and `deny` are lists of encoding ids, one byte each.
/// Numbers go to [`tc_numbers`]; the language code, its name and the binary format's name
/// go to the output as `code\tname\tbinary`.
///
/// # Safety
/// Each pointer is null (only `tld`, `locale` and `allow` may be) or, with its length, as
/// for [`input`].
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn tc_detect(
    ptr: *const u8,
    len: u32,
    tld: *const u8,
    tld_len: u32,
    allow_utf8: u32,
    locale: *const u8,
    locale_len: u32,
    allow: *const u8,
    allow_len: u32,
    deny: *const u8,
    deny_len: u32,
) -> u32 {
    // SAFETY (the blocks below): the caller's contract.
    let allow = (!allow.is_null()).then(|| unsafe { id_list(allow, allow_len) });
    let deny = unsafe { id_list(deny, deny_len) };
    let hints = Hints {
        tld: unsafe { str_input(tld, tld_len) }.map(str::as_bytes),
        allow_utf8: allow_utf8 != 0,
        locale: unsafe { str_input(locale, locale_len) },
        allow: allow.as_deref(),
        deny: &deny,
    };
    let mut detector = Detector::new();
    detector.feed(unsafe { input(ptr, len as usize) }, true);
    let guess = detector.guess(&hints);
    // SAFETY: the only reference in this call.
    let numbers = unsafe { NUMBERS.get() };
    numbers.clear();
    let flags = u8::from(guess.ascii_only) | (u8::from(guess.stopped_early) << 1);
    numbers.extend_from_slice(&[
        f64::from(id_of(guess.encoding)),
        f64::from(guess.confidence),
        finite(guess.score),
        finite(guess.margin),
        f64::from(flags),
    ]);
    let ranking = detector.ranking(&hints);
    for c in &ranking {
        let flags = u8::from(c.disqualified) | (u8::from(c.excluded) << 1);
        numbers.extend_from_slice(&[
            f64::from(id_of(c.encoding)),
            f64::from(c.confidence),
            finite(c.score),
            f64::from(flags),
        ]);
    }
    // SAFETY: the only reference in this call.
    let out = &mut unsafe { ONCE.get() }.text;
    out.clear();
    if let Some(l) = guess.language {
        out.push_str(l.code());
        out.push('\t');
        out.push_str(l.name());
    } else {
        out.push('\t');
    }
    out.push('\t');
    if let Some(b) = guess.binary {
        out.push_str(b.name());
    }
    set_output(out.as_ptr(), out.len());
    ranking.len() as u32
}

fn kind(k: u32) -> ResourceKind {
    match k {
        1 => ResourceKind::Xml,
        2 => ResourceKind::Css,
        3 => ResourceKind::PlainText,
        4 => ResourceKind::Json,
        _ => ResourceKind::Html,
    }
}

/// `sniff`: the encoding of a web resource from its first bytes (BOM, Content-Type, the
/// `<meta>` prescan…). `kind`: 0 HTML, 1 XML, 2 CSS, 3 plain text, 4 JSON, 5 from the
/// Content-Type; `user_override`, `fallback`: encoding ids or -1. Result slots: `[2]`
/// encoding id, `[3]` BOM length, `[5]` detection's encoding id (or -1); the output holds
/// `confidence\tsource\tkind`. Numbers `[0]`: the detection's confidence if it ran.
///
/// # Safety
/// Each pointer is null (only `content_type`, `locale` and `tld` may be) or, with its
/// length, as for [`input`].
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn tc_sniff(
    ptr: *const u8,
    len: u32,
    kind_id: u32,
    content_type: *const u8,
    content_type_len: u32,
    user_override: i32,
    fallback: i32,
    locale: *const u8,
    locale_len: u32,
    detect: u32,
    tld: *const u8,
    tld_len: u32,
) -> u32 {
    // SAFETY (the blocks below): the caller's contract.
    let content_type = (!content_type.is_null())
        .then(|| unsafe { input(content_type, content_type_len as usize) });
    let kind = if kind_id == 5 {
        content_type
            .and_then(ResourceKind::from_content_type)
            .unwrap_or(ResourceKind::PlainText)
    } else {
        kind(kind_id)
    };
    let options = SniffOptions {
        kind,
        content_type,
        user_override: u32::try_from(user_override).ok().and_then(encoding),
        fallback: u32::try_from(fallback).ok().and_then(encoding),
        locale: unsafe { str_input(locale, locale_len) },
        detect: detect != 0,
        tld: unsafe { str_input(tld, tld_len) }.map(str::as_bytes),
    };
    let report = sniff(unsafe { input(ptr, len as usize) }, &options);
    set_slot(2, id_of(report.encoding));
    set_slot(3, report.bom_length as u32);
    set_slot(5, report.detection.map_or(u32::MAX, |g| id_of(g.encoding)));
    // SAFETY: the only reference in this call.
    let numbers = unsafe { NUMBERS.get() };
    numbers.clear();
    numbers.push(
        report
            .detection
            .map_or(f64::NAN, |g| f64::from(g.confidence)),
    );
    // SAFETY: the only reference in this call.
    let out = &mut unsafe { ONCE.get() }.text;
    out.clear();
    out.push_str(match report.confidence {
        Confidence::Certain => "certain",
        Confidence::Tentative => "tentative",
        Confidence::Irrelevant => "irrelevant",
    });
    out.push('\t');
    out.push_str(match report.source {
        Source::Bom => "bom",
        Source::UserOverride => "user-override",
        Source::TransportLayer => "content-type",
        Source::MetaPrescan => "meta",
        Source::XmlDeclaration => "xml-declaration",
        Source::Utf16Pattern => "utf-16-pattern",
        Source::CssCharset => "css-charset",
        Source::Fallback => "fallback",
        Source::Detection => "detection",
        Source::LocaleDefault => "locale-default",
        Source::Default => "default",
        Source::Utf8Only => "utf-8-only",
    });
    out.push('\t');
    out.push_str(match kind {
        ResourceKind::Html => "html",
        ResourceKind::Xml => "xml",
        ResourceKind::Css => "css",
        ResourceKind::Json => "json",
        _ => "text",
    });
    set_output(out.as_ptr(), out.len());
    0
}
