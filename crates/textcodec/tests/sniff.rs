//! Tests for `textcodec::sniff`: one or more per algorithm step, the tricky prescan inputs,
//! and property tests (no panics, nothing past 1024 bytes matters, streaming = whole).

use proptest::prelude::*;
use textcodec::sniff::*;
use textcodec::Encoding;
use textcodec::Encoding::*;

// ---------------------------------------------------------------------------------------
// Content-Type: MIME Sniffing "parse a MIME type", Fetch "extract a MIME type"

fn ct(s: &str) -> Option<Encoding> {
    charset_from_content_type(s.as_bytes())
}

#[test]
fn mime_basic_and_case() {
    assert_eq!(ct("text/html;charset=gbk"), Some(Gbk));
    assert_eq!(ct("TEXT/HTML;CHARSET=GBK"), Some(Gbk));
    let m = MimeType::parse(b"TEXT/HTML;CHARSET=GBK").unwrap();
    assert_eq!((m.type_(), m.subtype()), ("text", "html"));
    // Names are lowercased, values keep their case.
    assert_eq!(
        m.parameters().to_vec(),
        vec![(String::from("charset"), String::from("GBK"))]
    );
    assert_eq!(m.to_string(), "text/html;charset=GBK");
}

#[test]
fn mime_step1_http_whitespace_trimmed() {
    assert_eq!(ct("\n\r\t text/html;charset=gbk \t\r\n"), Some(Gbk));
    // Form feed is not HTTP whitespace: the type is not a token.
    assert_eq!(MimeType::parse(b"\x0Ctext/html"), None);
}

#[test]
fn mime_steps3_to_9_type_and_subtype() {
    assert_eq!(MimeType::parse(b""), None);
    assert_eq!(MimeType::parse(b"text"), None); // step 5: no "/"
    assert_eq!(MimeType::parse(b"/html"), None); // step 4: empty type
    assert_eq!(MimeType::parse(b"text/"), None); // step 9: empty subtype
    assert_eq!(MimeType::parse(b"text/;charset=gbk"), None);
    assert_eq!(MimeType::parse(b"te xt/html"), None);
    assert_eq!(MimeType::parse(b"t\xE9xt/html"), None);
    assert_eq!(MimeType::parse(b"text/ht(ml"), None);
    // Step 8: trailing whitespace of the subtype is removed (leading is not).
    assert_eq!(ct("text/html ;charset=gbk"), Some(Gbk));
    assert_eq!(MimeType::parse(b"text/ html"), None);
    assert_eq!(MimeType::parse(b"text/html/x"), None); // "/" is not a token code point
    assert_eq!(
        MimeType::parse(b"a!#$%&'*+-.^_`|~z/b").unwrap().essence(),
        "a!#$%&'*+-.^_`|~z/b"
    );
}

#[test]
fn mime_step11_parameters() {
    // 11.2: whitespace before the name is skipped.
    assert_eq!(ct("text/html;   charset=gbk"), Some(Gbk));
    // 11.3: the name runs to "=" so whitespace before "=" makes it invalid.
    assert_eq!(ct("text/html;charset =gbk"), None);
    // 11.5.1: a name without "=" is skipped.
    assert_eq!(ct("text/html;charset;charset=gbk"), Some(Gbk));
    assert_eq!(ct("text/html;charset"), None);
    assert_eq!(ct("text/html;;;;charset=gbk"), Some(Gbk));
    // 11.6: "=" at the end.
    assert_eq!(ct("text/html;charset="), None);
    // 11.9.3: an empty unquoted value is skipped, so a later charset counts.
    assert_eq!(ct("text/html;charset=;charset=gbk"), Some(Gbk));
    // 11.9.2: trailing whitespace removed; leading kept but get an encoding trims it.
    assert_eq!(ct("text/html;charset=gbk  "), Some(Gbk));
    assert_eq!(ct("text/html;charset= gbk"), Some(Gbk));
    let m = MimeType::parse(b"text/html;charset= gbk").unwrap();
    assert_eq!(m.parameter("charset"), Some(" gbk"));
    assert_eq!(m.to_string(), "text/html;charset=\" gbk\"");
    // 11.10: first wins.
    assert_eq!(ct("text/html;charset=gbk;charset=windows-1255"), Some(Gbk));
    assert_eq!(ct("text/html;charset=();charset=GBK"), None);
    assert_eq!(ct("text/html;x=(;charset=gbk"), Some(Gbk));
    // 11.10: an invalid name or value does not occupy the slot.
    assert_eq!(ct("text/html;char(set=x;charset=gbk"), Some(Gbk));
    assert_eq!(ct("text/html;charset=gb\x7Fk;charset=gbk"), Some(Gbk));
    // Unknown label → failure.
    assert_eq!(ct("text/html;charset=gbk("), None);
    assert_eq!(ct("text/html;charset=klingon"), None);
}

#[test]
fn mime_quoted_strings() {
    assert_eq!(ct("text/html;charset=\"gbk\""), Some(Gbk));
    assert_eq!(ct("text/html;charset=\"gbk"), Some(Gbk)); // unterminated
    assert_eq!(ct("text/html;charset=\"\\g\\b\\k\""), Some(Gbk)); // escapes
    assert_eq!(ct("text/html;charset=\"gbk\"x"), Some(Gbk)); // rest ignored
    assert_eq!(ct("text/html;charset=\"gbk\" ;charset=big5"), Some(Gbk));
    // An empty quoted value is a value: it wins and fails.
    assert_eq!(ct("text/html;charset=\"\";charset=gbk"), None);
    let m = MimeType::parse(b"text/html;charset=\"\";charset=gbk").unwrap();
    assert_eq!(m.to_string(), "text/html;charset=\"\"");
    // ";" inside quotes does not end the value.
    let m = MimeType::parse(b"text/html;a=\"x;y\";charset=gbk").unwrap();
    assert_eq!(m.parameter("a"), Some("x;y"));
    assert_eq!(m.parameter("charset"), Some("gbk"));
    // A trailing backslash is kept.
    let m = MimeType::parse(b"text/html;a=\"x\\").unwrap();
    assert_eq!(m.parameter("a"), Some("x\\"));
    assert_eq!(m.to_string(), "text/html;a=\"x\\\\\"");
    // Bytes 0x80-0xFF are quoted-string token code points (isomorphic decoded).
    let m = MimeType::parse(b"text/html;a=\xE9").unwrap();
    assert_eq!(m.parameter("a"), Some("\u{E9}"));
}

#[test]
fn fetch_extract_mime_type_combined_values() {
    assert_eq!(ct("text/html;charset=gbk, text/html"), Some(Gbk));
    assert_eq!(ct("text/html;charset=gbk, text/plain"), None);
    assert_eq!(
        ct("text/html;charset=gbk, text/html;charset=big5"),
        Some(Big5)
    );
    assert_eq!(ct("text/html;charset=gbk, */*"), Some(Gbk));
    assert_eq!(ct("text/html;charset=gbk, invalid"), Some(Gbk));
    assert_eq!(ct("text/html;charset=gbk,"), Some(Gbk));
    // A quoted comma does not split.
    let m = MimeType::extract(b"text/html;x=\"a,b\";charset=gbk").unwrap();
    assert_eq!(m.parameter("x"), Some("a,b"));
    assert_eq!(m.parameter("charset"), Some("gbk"));
    assert_eq!(MimeType::extract(b""), None);
    assert_eq!(MimeType::extract(b"*/*"), None);
}

// ---------------------------------------------------------------------------------------
// HTML: prescan a byte stream to determine its encoding

fn pre(s: &[u8]) -> Option<Encoding> {
    html_prescan(s)
}

#[test]
fn prescan_meta_charset_forms() {
    assert_eq!(pre(b"<meta charset=gbk>"), Some(Gbk));
    assert_eq!(pre(b"<meta charset='gbk'>"), Some(Gbk));
    assert_eq!(pre(b"<meta charset=\"gbk\">"), Some(Gbk));
    assert_eq!(pre(b"<meta charset=\" gbk \">"), Some(Gbk)); // get an encoding trims
    assert_eq!(pre(b"<meta charset = \"gbk\">"), Some(Gbk));
    assert_eq!(pre(b"<meta charset= gbk>"), Some(Gbk));
    assert_eq!(pre(b"<meta\tcharset=gbk>"), Some(Gbk));
    assert_eq!(pre(b"<meta\ncharset=gbk>"), Some(Gbk));
    assert_eq!(pre(b"<meta\x0Ccharset=gbk>"), Some(Gbk));
    assert_eq!(pre(b"<meta\rcharset=gbk>"), Some(Gbk));
    assert_eq!(pre(b"<meta name=x charset=gbk>"), Some(Gbk));
    // No space or "/" after "<meta".
    assert_eq!(pre(b"<metacharset=gbk>"), None);
    assert_eq!(pre(b"<meta>charset=gbk>"), None);
}

#[test]
fn prescan_attributes_without_values() {
    assert_eq!(pre(b"<meta charset>"), None);
    assert_eq!(pre(b"<meta charset><meta charset=gbk>"), Some(Gbk));
    assert_eq!(pre(b"<meta foo charset=gbk>"), Some(Gbk));
    assert_eq!(pre(b"<meta foo/charset=gbk>"), Some(Gbk));
    // http-equiv without a value is not the pragma.
    assert_eq!(
        pre(b"<meta http-equiv content=\"text/html;charset=gbk\">"),
        None
    );
    // "charset" followed by spaces and another name: no value.
    assert_eq!(pre(b"<meta charset x=gbk>"), None);
    // A value ending at ">" directly after "=".
    assert_eq!(pre(b"<meta charset=>"), None);
}

#[test]
fn prescan_quotes() {
    // A quoted value may hold spaces, ">" and the other quote.
    assert_eq!(pre(b"<meta x=\"a > b\" charset=gbk>"), Some(Gbk));
    assert_eq!(pre(b"<meta x='a \" b' charset=gbk>"), Some(Gbk));
    // Unterminated quote: runs out of bytes.
    assert_eq!(pre(b"<meta charset=\"gbk>"), None);
    // A quote in an unquoted value is part of it.
    assert_eq!(pre(b"<meta charset=gbk\">"), None);
    // Uppercase inside quotes is lowered (labels are case-insensitive anyway).
    assert_eq!(pre(b"<meta charset=\"GBK\">"), Some(Gbk));
    // Quotes right after the name (no "="): the quote starts the next attribute name.
    assert_eq!(pre(b"<meta charset\"gbk\">"), None);
}

#[test]
fn prescan_slash_before_and_after_attributes() {
    assert_eq!(pre(b"<meta/charset=gbk>"), Some(Gbk));
    assert_eq!(pre(b"<meta / charset=gbk />"), Some(Gbk));
    assert_eq!(pre(b"<meta charset=\"gbk\"/>"), Some(Gbk));
    // Unquoted values end only at a space or ">": "gbk/" is not a label.
    assert_eq!(pre(b"<meta charset=gbk/>"), None);
    assert_eq!(pre(b"<meta charset=gbk />"), Some(Gbk));
    // "/" ends an attribute name.
    assert_eq!(pre(b"<meta charset/=gbk>"), None);
}

#[test]
fn prescan_duplicated_attributes() {
    assert_eq!(pre(b"<meta charset=gbk charset=big5>"), Some(Gbk));
    assert_eq!(pre(b"<meta charset=bogus charset=gbk>"), None);
    assert_eq!(pre(b"<meta CHARSET=gbk charset=big5>"), Some(Gbk));
    assert_eq!(
        pre(b"<meta http-equiv=foo http-equiv=content-type content='charset=gbk'>"),
        None
    );
    assert_eq!(
        pre(b"<meta content='charset=gbk' content='charset=big5' http-equiv=content-type>"),
        Some(Gbk)
    );
    // A duplicated content whose first instance has no charset: still the first wins.
    assert_eq!(
        pre(b"<meta content='text/html' content='charset=big5' http-equiv=content-type>"),
        None
    );
}

#[test]
fn prescan_http_equiv_pragma() {
    let s = b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1251\">";
    assert_eq!(pre(s), Some(Windows1251));
    let p = html_prescan_detailed(s).unwrap();
    assert_eq!(p.source, PrescanSource::MetaHttpEquiv);
    // Order of attributes does not matter.
    assert_eq!(
        pre(b"<meta content='text/html; charset=koi8-u' http-equiv='content-type'>"),
        Some(Koi8U)
    );
    // content without http-equiv: need pragma but no pragma.
    assert_eq!(pre(b"<meta content=\"text/html; charset=gbk\">"), None);
    // http-equiv with another value.
    assert_eq!(
        pre(b"<meta http-equiv=refresh content=\"0; charset=gbk\">"),
        None
    );
    assert_eq!(
        pre(b"<meta http-equiv=' content-type' content='charset=gbk'>"),
        None
    );
    // content without charset: nothing.
    assert_eq!(
        pre(b"<meta http-equiv=content-type content=text/html><meta charset=gbk>"),
        Some(Gbk)
    );
}

#[test]
fn prescan_charset_and_content_interplay() {
    // charset first: need pragma false, content ignored (charset is not null).
    assert_eq!(pre(b"<meta charset=gbk content='charset=big5'>"), Some(Gbk));
    // content first, then charset: charset replaces it and clears need pragma.
    assert_eq!(pre(b"<meta content='charset=big5' charset=gbk>"), Some(Gbk));
    // content first, then a bad charset: failure.
    assert_eq!(
        pre(b"<meta content='charset=big5' http-equiv=content-type charset=bogus>"),
        None
    );
    // bad charset first: content cannot fill in (charset is failure, not null).
    assert_eq!(
        pre(b"<meta charset=bogus http-equiv=content-type content='charset=big5'>"),
        None
    );
}

#[test]
fn prescan_comments() {
    assert_eq!(pre(b"<!-- <meta charset=gbk> -->"), None);
    assert_eq!(pre(b"<!-- --><meta charset=gbk>"), Some(Gbk));
    // "<!-->" and "<!--->" are complete comments (the "--" may be those of "<!--").
    assert_eq!(pre(b"<!--><meta charset=gbk>"), Some(Gbk));
    assert_eq!(pre(b"<!---><meta charset=gbk>"), Some(Gbk));
    // "-- >" does not end a comment.
    assert_eq!(pre(b"<!-- -- > <meta charset=gbk> -->"), None);
    assert_eq!(pre(b"<!-- --!> <meta charset=gbk> -->"), None);
    // Unterminated comment: runs out of bytes.
    assert_eq!(pre(b"<!-- <meta charset=gbk>"), None);
}

#[test]
fn prescan_nested_comment_like_text() {
    assert_eq!(pre(b"<!-- <!-- --> <meta charset=gbk> -->"), Some(Gbk));
    assert_eq!(pre(b"<!-- <!-- <meta charset=gbk> --> -->"), None);
    assert_eq!(pre(b"<!-- a --> --> <meta charset=gbk>"), Some(Gbk));
    // "<!" (not a comment) skips to the first ">".
    assert_eq!(pre(b"<!DOCTYPE html><meta charset=gbk>"), Some(Gbk));
    assert_eq!(
        pre(b"<!x <meta charset=gbk> <meta charset=big5>"),
        Some(Big5)
    );
    assert_eq!(pre(b"<!- <meta charset=gbk>"), None);
    // "<?" and "</" + non-letter likewise.
    assert_eq!(
        pre(b"<? <meta charset=gbk> <meta charset=big5>"),
        Some(Big5)
    );
    assert_eq!(
        pre(b"</ <meta charset=gbk> <meta charset=big5>"),
        Some(Big5)
    );
    assert_eq!(pre(b"</3 <meta charset=gbk>"), None);
}

#[test]
fn prescan_other_tags_are_skipped_with_their_attributes() {
    assert_eq!(
        pre(b"<p title=\"<meta charset=gbk>\"><meta charset=big5>"),
        Some(Big5)
    );
    assert_eq!(pre(b"<p title='<meta charset=gbk>'>"), None);
    // End tags with letters are skipped like start tags.
    assert_eq!(pre(b"</p <meta charset=gbk>"), None);
    assert_eq!(pre(b"</p><meta charset=gbk>"), Some(Gbk));
    // The prescan does not know about <script>: a <meta> in script text counts.
    assert_eq!(pre(b"<script>x = '<meta charset=gbk>'</script>"), Some(Gbk));
    // A "<" not starting a tag is an ordinary byte.
    assert_eq!(pre(b"< <3 <meta charset=gbk>"), Some(Gbk));
    assert_eq!(pre(b"<<meta charset=gbk>"), Some(Gbk));
    // A tag without attributes running to the end.
    assert_eq!(pre(b"<html"), None);
}

#[test]
fn prescan_uppercase_tags() {
    assert_eq!(pre(b"<META CHARSET=GBK>"), Some(Gbk));
    assert_eq!(pre(b"<MeTa ChArSeT='Big5'>"), Some(Big5));
    assert_eq!(
        pre(b"<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"TEXT/HTML; CHARSET=EUC-JP\">"),
        Some(EucJp)
    );
    assert_eq!(
        pre(b"<!DOCTYPE HTML><HTML><HEAD><META CHARSET=SHIFT_JIS>"),
        Some(ShiftJis)
    );
}

#[test]
fn prescan_metadata_is_not_meta() {
    assert_eq!(pre(b"<metadata charset=gbk>"), None);
    assert_eq!(
        pre(b"<metadata charset=gbk><meta charset=big5>"),
        Some(Big5)
    );
    assert_eq!(pre(b"<meta-data charset=gbk>"), None);
    assert_eq!(pre(b"<metax/charset=gbk>"), None);
    assert_eq!(pre(b"<meta/charset=gbk>"), Some(Gbk));
}

#[test]
fn prescan_utf16_and_x_user_defined_in_meta() {
    for label in [
        "utf-16",
        "utf-16le",
        "utf-16be",
        "unicodefffe",
        "ucs-2",
        "UTF-16",
    ] {
        let page = format!("<meta charset={label}>");
        assert_eq!(pre(page.as_bytes()), Some(Utf8), "{label}");
        let page = format!("<meta http-equiv=content-type content='charset={label}'>");
        assert_eq!(pre(page.as_bytes()), Some(Utf8), "{label}");
    }
    assert_eq!(pre(b"<meta charset=x-user-defined>"), Some(Windows1252));
    // Other encodings pass through, replacement included.
    assert_eq!(pre(b"<meta charset=iso-2022-kr>"), Some(Replacement));
    assert_eq!(pre(b"<meta charset=iso-2022-jp>"), Some(Iso2022Jp));
}

#[test]
fn prescan_step2_utf16_xml_declarations() {
    let le = b"<\0?\0x\0m\0l\0";
    let be = b"\0<\0?\0x\0m\0l";
    assert_eq!(pre(le), Some(Utf16Le));
    assert_eq!(pre(be), Some(Utf16Be));
    assert_eq!(
        html_prescan_detailed(le).unwrap().source,
        PrescanSource::Utf16XmlDeclaration
    );
    // Exactly six bytes are needed; case-sensitive; only at the start.
    assert_eq!(pre(b"<\0?\0x"), None);
    assert_eq!(pre(b"<\0?\0X\0"), None);
    assert_eq!(pre(b" <\0?\0x\0"), None);
}

#[test]
fn prescan_get_an_xml_encoding_on_abort() {
    let s = b"<?xml version=\"1.0\" encoding=\"windows-1251\"?><html><p>";
    assert_eq!(pre(s), Some(Windows1251));
    assert_eq!(
        html_prescan_detailed(s).unwrap().source,
        PrescanSource::XmlDeclaration
    );
    // A <meta> wins (the declaration itself is skipped as "<?").
    assert_eq!(
        pre(b"<?xml version='1.0' encoding='gbk'?><meta charset=big5>"),
        Some(Big5)
    );
    // UTF-16 declared in ASCII: UTF-8.
    assert_eq!(pre(b"<?xml version='1.0' encoding='UTF-16'?>"), Some(Utf8));
    // x-user-defined is not mapped by get an XML encoding.
    assert_eq!(
        pre(b"<?xml encoding='x-user-defined'?>"),
        Some(XUserDefined)
    );
}

#[test]
fn get_an_xml_encoding_steps() {
    let g = get_an_xml_encoding;
    // Step 2: must start with "<?xml".
    assert_eq!(g(b"<?XML encoding='gbk'?>"), None);
    assert_eq!(g(b"\n<?xml encoding='gbk'?>"), None);
    // Step 3: needs a ">".
    assert_eq!(g(b"<?xml encoding='gbk'"), None);
    // Step 4: "encoding" must come before the ">".
    assert_eq!(g(b"<?xml version='1.0'?><a encoding='gbk'>"), None);
    // Steps 6, 9: bytes <= 0x20 around "=" are skipped (any control byte).
    assert_eq!(g(b"<?xml encoding\x01\t= \x1F'gbk'?>"), Some(Gbk));
    // Step 7: "=" needed.
    assert_eq!(g(b"<?xml encoding:'gbk'?>"), None);
    // Step 11: quote needed.
    assert_eq!(g(b"<?xml encoding=gbk?>"), None);
    // Step 13: the closing quote must exist (before the ">", here).
    assert_eq!(g(b"<?xml encoding='gbk?>'"), None);
    // Step 15: no bytes <= 0x20 in the name.
    assert_eq!(g(b"<?xml encoding=' gbk'?>"), None);
    // Step 16: unknown label.
    assert_eq!(g(b"<?xml encoding='gbk2'?>"), None);
    // Loose: no version needed, "encoding" found anywhere, "<?xmlfoo" accepted.
    assert_eq!(g(b"<?xmlfoo xencoding=\"big5\">"), Some(Big5));
    // Step 17.
    assert_eq!(g(b"<?xml encoding='utf-16be'?>"), Some(Utf8));
}

#[test]
fn prescan_limit_1024() {
    let meta = b"<meta charset=gbk>"; // 18 bytes
    for (start, expected) in [(1006, Some(Gbk)), (1007, None), (1020, None), (2000, None)] {
        let mut page = vec![b' '; start];
        page.extend_from_slice(meta);
        page.extend_from_slice(b"<meta charset=big5>");
        assert_eq!(pre(&page), expected, "<meta> at {start}");
    }
    // Quoted: the closing quote at 1023 is not enough, the ">" (or another attribute) is
    // needed to finish the attribute list.
    let meta = b"<meta charset=\"gbk\">"; // 20 bytes
    for (start, expected) in [(1004, Some(Gbk)), (1005, None)] {
        let mut page = vec![b'a'; start];
        page.extend_from_slice(meta);
        assert_eq!(pre(&page), expected, "quoted <meta> at {start}");
    }
    // "<meta" itself straddling the limit.
    let mut page = vec![b' '; 1021];
    page.extend_from_slice(b"<meta charset=gbk>");
    assert_eq!(pre(&page), None);
    // A comment hiding everything up to the limit, closing after it.
    let mut page = b"<!--".to_vec();
    page.resize(1030, b' ');
    page.extend_from_slice(b"--><meta charset=gbk>");
    assert_eq!(pre(&page), None);
    // The XML-declaration fallback also only sees 1024 bytes.
    let mut page = b"<?xml version='1.0' ".to_vec();
    page.resize(1020, b' ');
    page.extend_from_slice(b"encoding='gbk'?>");
    assert_eq!(pre(&page), None);
}

#[test]
fn prescan_detailed_offsets() {
    let p = html_prescan_detailed(b"<html><head><meta charset=euc-kr>").unwrap();
    assert_eq!(
        (p.encoding, p.offset, p.source),
        (EucKr, 12, PrescanSource::MetaCharset)
    );
    let p = html_prescan_detailed(b"<meta charset=bogus>  <META charset=gbk>").unwrap();
    assert_eq!(p.offset, 22);
}

#[test]
fn extract_encoding_from_meta_steps() {
    let x = |s: &str| extract_encoding_from_meta(s.as_bytes());
    assert_eq!(x("text/html; charset=gbk"), Some(Gbk));
    assert_eq!(x("charset=gbk"), Some(Gbk));
    assert_eq!(x("CharSet=gbk"), Some(Gbk));
    // Step 2: no "charset".
    assert_eq!(x("text/html"), None);
    assert_eq!(x("chars=gbk"), None);
    // Steps 3-4: whitespace before "=", and a "charset" not followed by "=" is skipped.
    assert_eq!(x("charset \t\n= gbk"), Some(Gbk));
    assert_eq!(x("charset; charset=gbk"), Some(Gbk));
    assert_eq!(x("charsetcharset=gbk"), Some(Gbk));
    assert_eq!(x("xcharset=gbk"), Some(Gbk)); // no word boundary required
                                              // Step 6: quotes.
    assert_eq!(x("charset='gbk'"), Some(Gbk));
    assert_eq!(x("charset=\"gbk\"; x"), Some(Gbk));
    assert_eq!(x("charset=\"gbk"), None);
    assert_eq!(x("charset='gbk"), None);
    assert_eq!(x("charset='gbk\""), None);
    assert_eq!(x("charset=\"gbk'\""), None); // the value is gbk'
                                             // Unquoted: up to whitespace or ";".
    assert_eq!(x("charset=gbk;x"), Some(Gbk));
    assert_eq!(x("charset=gbk x"), Some(Gbk));
    assert_eq!(x("charset=gbk,x"), None);
    // No next character.
    assert_eq!(x("charset="), None);
    assert_eq!(x("charset=  "), None);
    // Only the first "charset=" counts, even if its value fails.
    assert_eq!(x("charset=bogus; charset=gbk"), None);
}

// ---------------------------------------------------------------------------------------
// HTML: the encoding sniffing algorithm

fn html(bytes: &[u8], options: SniffOptions) -> (Encoding, Confidence, Source) {
    let r = sniff(bytes, &options);
    (r.encoding, r.confidence, r.source)
}

#[test]
fn html_step1_bom_wins() {
    let options = SniffOptions {
        content_type: Some(b"text/html;charset=gbk"),
        user_override: Some(Big5),
        ..SniffOptions::default()
    };
    for (bytes, encoding, length) in [
        (&b"\xEF\xBB\xBF<meta charset=gbk>"[..], Utf8, 3),
        (b"\xFE\xFF\0<", Utf16Be, 2),
        (b"\xFF\xFE<\0", Utf16Le, 2),
    ] {
        let r = sniff(bytes, &options);
        assert_eq!(
            (r.encoding, r.confidence, r.source, r.bom_length),
            (encoding, Confidence::Certain, Source::Bom, length)
        );
    }
    let r = sniff(b"\xEF\xBB\xBFx", &SniffOptions::default());
    assert_eq!(r.to_string(), "UTF-8 (certain): byte order mark (3 bytes)");
}

#[test]
fn html_step2_user_override() {
    let options = SniffOptions {
        content_type: Some(b"text/html;charset=gbk"),
        user_override: Some(Big5),
        ..SniffOptions::default()
    };
    assert_eq!(
        html(b"<meta charset=euc-kr>", options),
        (Big5, Confidence::Certain, Source::UserOverride)
    );
}

#[test]
fn html_step4_transport_layer() {
    let options = SniffOptions {
        content_type: Some(b"text/html; charset=\"koi8-r\""),
        ..SniffOptions::default()
    };
    assert_eq!(
        html(b"<meta charset=euc-kr>", options),
        (Koi8R, Confidence::Certain, Source::TransportLayer)
    );
    // Transport UTF-16 and x-user-defined are used as given.
    let options = SniffOptions {
        content_type: Some(b"text/html; charset=utf-16"),
        ..SniffOptions::default()
    };
    assert_eq!(html(b"", options).0, Utf16Le);
    // An unsupported label is ignored.
    let options = SniffOptions {
        content_type: Some(b"text/html; charset=klingon"),
        ..SniffOptions::default()
    };
    assert_eq!(
        html(b"<meta charset=euc-kr>", options),
        (EucKr, Confidence::Tentative, Source::MetaPrescan)
    );
}

#[test]
fn html_step5_prescan_is_tentative() {
    let r = sniff(
        b"<!doctype html><meta charset=shift_jis>",
        &SniffOptions::default(),
    );
    assert_eq!(
        (r.encoding, r.confidence, r.source, r.offset),
        (
            ShiftJis,
            Confidence::Tentative,
            Source::MetaPrescan,
            Some(15)
        )
    );
    assert_eq!(
        r.to_string(),
        "Shift_JIS (tentative): <meta charset> at byte 15"
    );
    let r = sniff(
        b"<meta http-equiv=content-type content='charset=gbk'>",
        &SniffOptions::default(),
    );
    assert_eq!(
        r.to_string(),
        "GBK (tentative): <meta http-equiv> at byte 0"
    );
    let r = sniff(b"<\0?\0x\0m\0l\0", &SniffOptions::default());
    assert_eq!(
        (r.encoding, r.confidence, r.source),
        (Utf16Le, Confidence::Tentative, Source::Utf16Pattern)
    );
    let r = sniff(
        b"<?xml version='1.0' encoding='gbk'?>",
        &SniffOptions::default(),
    );
    assert_eq!((r.encoding, r.source), (Gbk, Source::XmlDeclaration));
}

#[test]
fn html_step6_parent_document() {
    let options = SniffOptions {
        fallback: Some(Windows1251),
        locale: Some("ja"),
        ..SniffOptions::default()
    };
    assert_eq!(
        html(b"<p>", options),
        (Windows1251, Confidence::Tentative, Source::Fallback)
    );
    // A UTF-16 parent is skipped.
    let options = SniffOptions {
        fallback: Some(Utf16Be),
        locale: Some("ja"),
        ..SniffOptions::default()
    };
    assert_eq!(
        html(b"<p>", options),
        (ShiftJis, Confidence::Tentative, Source::LocaleDefault)
    );
    // The prescan comes first.
    let options = SniffOptions {
        fallback: Some(Windows1251),
        ..SniffOptions::default()
    };
    assert_eq!(html(b"<meta charset=gbk>", options).0, Gbk);
}

#[test]
fn html_step9_defaults() {
    assert_eq!(
        html(b"<p>", SniffOptions::default()),
        (Windows1252, Confidence::Tentative, Source::Default)
    );
    let options = SniffOptions {
        locale: Some("zh-TW"),
        ..SniffOptions::default()
    };
    assert_eq!(
        sniff(b"", &options).to_string(),
        "Big5 (tentative): locale default"
    );
}

#[test]
fn locale_table() {
    let table = [
        ("ar", Windows1256),
        ("az", Windows1254),
        ("be", Windows1251),
        ("bg", Windows1251),
        ("cs", Windows1250),
        ("el", Iso8859_7),
        ("et", Windows1257),
        ("fa", Windows1256),
        ("he", Windows1255),
        ("hr", Windows1250),
        ("hu", Iso8859_2),
        ("ja", ShiftJis),
        ("kk", Windows1251),
        ("ko", EucKr),
        ("ku", Windows1254),
        ("ky", Windows1251),
        ("lt", Windows1257),
        ("lv", Windows1257),
        ("mk", Windows1251),
        ("pl", Iso8859_2),
        ("ru", Windows1251),
        ("sah", Windows1251),
        ("sk", Windows1250),
        ("sl", Iso8859_2),
        ("sr", Windows1251),
        ("tg", Windows1251),
        ("th", Windows874),
        ("tr", Windows1254),
        ("tt", Windows1251),
        ("uk", Windows1251),
        ("vi", Windows1258),
        ("zh-CN", Gb18030),
        ("zh-TW", Big5),
    ];
    for (tag, encoding) in table {
        assert_eq!(default_for_locale(tag), encoding, "{tag}");
        assert_eq!(
            default_for_locale(&tag.to_ascii_uppercase()),
            encoding,
            "{tag}"
        );
    }
    for tag in [
        "en", "en-US", "de", "fr-CA", "", "x", "jp", "ja2", "english",
    ] {
        assert_eq!(default_for_locale(tag), Windows1252, "{tag}");
    }
    for (tag, encoding) in [
        ("ja-JP", ShiftJis),
        ("ja_JP.UTF-8", ShiftJis),
        ("ru_RU@euro", Windows1251),
        ("zh", Gb18030),
        ("zh-Hans", Gb18030),
        ("zh-SG", Gb18030),
        ("zh-Hant", Big5),
        ("zh-HK", Big5),
        ("zh_TW.Big5", Big5),
        ("zh-Hant-CN", Big5),
        ("sr-Latn", Windows1251),
    ] {
        assert_eq!(default_for_locale(tag), encoding, "{tag}");
    }
}

#[test]
fn plain_text_has_no_prescan() {
    let options = SniffOptions::new(ResourceKind::PlainText);
    assert_eq!(
        html(b"<meta charset=gbk>", options),
        (Windows1252, Confidence::Tentative, Source::Default)
    );
    let options = SniffOptions {
        content_type: Some(b"text/plain; charset=utf-8"),
        ..SniffOptions::new(ResourceKind::PlainText)
    };
    assert_eq!(
        html(b"x", options),
        (Utf8, Confidence::Certain, Source::TransportLayer)
    );
    assert_eq!(
        html(b"\xFF\xFEx\0", SniffOptions::new(ResourceKind::PlainText)).0,
        Utf16Le
    );
}

// ---------------------------------------------------------------------------------------
// HTML: changing the encoding while parsing

#[test]
fn change_encoding_steps() {
    use EncodingChange::*;
    let t = Confidence::Tentative;
    // Not tentative: the tree builder does not call the algorithm.
    assert_eq!(
        should_change_encoding(Windows1252, Confidence::Certain, Gbk, b""),
        Ignore
    );
    assert_eq!(
        should_change_encoding(Windows1252, Confidence::Irrelevant, Gbk, b""),
        Ignore
    );
    // Step 1: current UTF-16.
    assert_eq!(should_change_encoding(Utf16Le, t, Gbk, b"<\0"), MarkCertain);
    assert_eq!(
        should_change_encoding(Utf16Be, t, Utf16Be, b""),
        MarkCertain
    );
    // Step 2: new UTF-16 → UTF-8, then step 4 if that is current.
    assert_eq!(
        should_change_encoding(Utf8, t, Utf16Le, b"\xC3\xA9"),
        MarkCertain
    );
    assert_eq!(
        should_change_encoding(Windows1252, t, Utf16Be, b"<p>"),
        SwitchWithoutReload(Utf8)
    );
    // Step 3: x-user-defined → windows-1252.
    assert_eq!(
        should_change_encoding(Windows1252, t, XUserDefined, b"\xE9"),
        MarkCertain
    );
    assert_eq!(
        should_change_encoding(Gbk, t, XUserDefined, b"\x81\x40"),
        Reload(Windows1252)
    );
    // Step 4.
    assert_eq!(
        should_change_encoding(Gbk, t, Gbk, b"\x81\x40"),
        MarkCertain
    );
    // Step 5: identical interpretation.
    let ascii = b"<html><head><title>x</title><meta charset=shift_jis>";
    assert_eq!(
        should_change_encoding(Windows1252, t, ShiftJis, ascii),
        SwitchWithoutReload(ShiftJis)
    );
    assert_eq!(
        should_change_encoding(Windows1252, t, Utf8, b""),
        SwitchWithoutReload(Utf8)
    );
    // Non-ASCII bytes that mean the same: 0xE9 is é in windows-1252 and ISO-8859-15.
    assert_eq!(
        should_change_encoding(Windows1252, t, Iso8859_15, b"caf\xE9"),
        SwitchWithoutReload(Iso8859_15)
    );
    // ...but 0xA4 differs (¤ vs €).
    assert_eq!(
        should_change_encoding(Windows1252, t, Iso8859_15, b"\xA4"),
        Reload(Iso8859_15)
    );
    // Step 6: different.
    assert_eq!(
        should_change_encoding(Windows1252, t, Utf8, b"caf\xE9"),
        Reload(Utf8)
    );
    // ASCII is not identical for ISO-2022-JP when ESC is involved.
    assert_eq!(
        should_change_encoding(Windows1252, t, Iso2022Jp, b"a\x1B$B"),
        Reload(Iso2022Jp)
    );
    assert_eq!(
        should_change_encoding(Windows1252, t, Iso2022Jp, b"plain"),
        SwitchWithoutReload(Iso2022Jp)
    );
    // A trailing lead byte pending in the new decoder: not switchable in place.
    assert_eq!(
        should_change_encoding(Windows1252, t, ShiftJis, b"ab\x82"),
        Reload(ShiftJis)
    );
    // Long identical input (crosses the internal chunking).
    let long = "<p>hello</p>".repeat(2000);
    assert_eq!(
        should_change_encoding(Windows1252, t, Gbk, long.as_bytes()),
        SwitchWithoutReload(Gbk)
    );
    let mut long = long.into_bytes();
    long.push(0x81);
    assert_eq!(
        should_change_encoding(Windows1252, t, Gbk, &long),
        Reload(Gbk)
    );
}

// ---------------------------------------------------------------------------------------
// XML

#[test]
fn xml_declaration_grammar() {
    let l = |s: &[u8]| xml_declaration_label(s).map(|l| String::from_utf8(l.to_vec()).unwrap());
    assert_eq!(
        l(b"<?xml version=\"1.0\" encoding=\"EUC-JP\"?>").as_deref(),
        Some("EUC-JP")
    );
    assert_eq!(
        l(b"<?xml version='1.0' encoding='EUC-JP'?>").as_deref(),
        Some("EUC-JP")
    );
    assert_eq!(
        l(b"<?xml\tversion = '1.1'\r\nencoding =\n'a._-9' standalone='no' ?>").as_deref(),
        Some("a._-9")
    );
    assert_eq!(
        l(b"<?xml version='1.0' encoding='gbk' standalone=\"yes\"?>").as_deref(),
        Some("gbk")
    );
    // Malformed declarations.
    for bad in [
        &b"<?xml encoding='gbk'?>"[..],         // no version
        b"<?xml version='1.0'encoding='gbk'?>", // no S before encoding
        b"<?xml version='1.0' encoding='gbk'",  // unterminated
        b"<?xml version='1.0' encoding='gbk'?", // unterminated
        b"<?xml version='1.0' encoding='gbk' ?x>",
        b"<?xml version='2.0' encoding='gbk'?>", // VersionNum is 1.[0-9]+
        b"<?xml version='1.' encoding='gbk'?>",
        b"<?xml version='1.0\" encoding='gbk'?>", // mismatched quotes
        b"<?xml version='1.0' encoding=\"gbk'?>",
        b"<?xml version='1.0' encoding='-gbk'?>", // EncName starts with a letter
        b"<?xml version='1.0' encoding='g bk'?>",
        b"<?xml version='1.0' encoding=''?>",
        b"<?xml version='1.0' standalone='yes' encoding='gbk'?>", // order
        b"<?xml version='1.0' standalone='maybe'?>",
        b"<?xml-stylesheet href='a'?>",
        b"<?XML version='1.0' encoding='gbk'?>",
        b" <?xml version='1.0' encoding='gbk'?>",
    ] {
        assert_eq!(
            xml_declaration_label(bad),
            None,
            "{}",
            String::from_utf8_lossy(bad)
        );
    }
    // Well-formed without an encoding.
    assert_eq!(l(b"<?xml version='1.0'?>"), None);
    // The limit: the "?>" must end within 1024 bytes.
    let mut decl = b"<?xml version='1.0' encoding='gbk'".to_vec();
    decl.resize(1022, b' ');
    decl.extend_from_slice(b"?>");
    assert_eq!(xml_declared_encoding(&decl), Some(Gbk));
    decl.insert(19, b' ');
    assert_eq!(xml_declared_encoding(&decl), None);
}

fn xml(bytes: &[u8], content_type: Option<&'static [u8]>) -> (Encoding, Source) {
    let r = sniff(
        bytes,
        &SniffOptions {
            content_type,
            ..SniffOptions::new(ResourceKind::Xml)
        },
    );
    assert_eq!(r.confidence, Confidence::Irrelevant);
    assert_eq!(r.error_mode, textcodec::DecodeErrorMode::Fatal);
    (r.encoding, r.source)
}

#[test]
fn xml_sniffing_order() {
    let decl = b"<?xml version='1.0' encoding='iso-8859-2'?><a/>";
    // Declaration.
    assert_eq!(xml(decl, None), (Iso8859_2, Source::XmlDeclaration));
    // Transport wins over the declaration.
    assert_eq!(
        xml(decl, Some(b"application/xml; charset=koi8-r")),
        (Koi8R, Source::TransportLayer)
    );
    // BOM wins over transport.
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(decl);
    assert_eq!(
        xml(&bom, Some(b"text/xml; charset=koi8-r")),
        (Utf8, Source::Bom)
    );
    assert_eq!(xml(b"\xFE\xFF\0<", None), (Utf16Be, Source::Bom));
    // UTF-16 without BOM (Appendix F.1).
    assert_eq!(
        xml(b"\0<\0?\0x\0m\0l", None),
        (Utf16Be, Source::Utf16Pattern)
    );
    assert_eq!(
        xml(b"<\0?\0x\0m\0l\0", None),
        (Utf16Le, Source::Utf16Pattern)
    );
    assert_eq!(xml(b"<\0a\0/\0>\0", None), (Utf8, Source::Default));
    // Declared UTF-16 in ASCII → UTF-8; unknown or malformed → default UTF-8.
    assert_eq!(
        xml(b"<?xml version='1.0' encoding='utf-16'?>", None),
        (Utf8, Source::XmlDeclaration)
    );
    assert_eq!(
        xml(b"<?xml version='1.0' encoding='ebcdic'?>", None),
        (Utf8, Source::Default)
    );
    assert_eq!(
        xml(b"<?xml encoding='gbk'?>", None),
        (Utf8, Source::Default)
    );
    assert_eq!(xml(b"<a/>", None), (Utf8, Source::Default));
    // UCS-4 is not an encoding here.
    assert_eq!(xml(b"\0\0\0<", None), (Utf8, Source::Default));
    // User override wins over transport, not over a BOM; fallback is ignored.
    let options = SniffOptions {
        user_override: Some(Big5),
        content_type: Some(b"text/xml;charset=gbk"),
        fallback: Some(EucKr),
        ..SniffOptions::new(ResourceKind::Xml)
    };
    assert_eq!(sniff(decl, &options).encoding, Big5);
    assert_eq!(sniff(&bom, &options).encoding, Utf8);
    let options = SniffOptions {
        fallback: Some(EucKr),
        ..SniffOptions::new(ResourceKind::Xml)
    };
    assert_eq!(sniff(b"<a/>", &options).encoding, Utf8);
}

#[test]
fn xml_fatal_decoding() {
    let options = SniffOptions::new(ResourceKind::Xml);
    let (text, report) = try_decode_resource(b"\xEF\xBB\xBF<a>\xC3\xA9</a>", &options).unwrap();
    assert_eq!((text.as_ref(), report.bom_length), ("<a>é</a>", 3));
    let e = try_decode_resource(b"\xEF\xBB\xBF<a>\xC3</a>", &options).unwrap_err();
    assert_eq!(e.malformed.offset(), 6); // counted from the first byte, BOM included
    let decl = b"<?xml version='1.0' encoding='shift_jis'?><a>\x93\xfa</a>";
    assert_eq!(
        try_decode_resource(decl, &options).unwrap().0,
        "<?xml version='1.0' encoding='shift_jis'?><a>日</a>"
    );
    let decl = b"<?xml version='1.0' encoding='shift_jis'?><a>\x93</a>";
    let e = try_decode_resource(decl, &options).unwrap_err();
    assert_eq!(e.report.encoding, ShiftJis);
    // decode_resource itself replaces.
    assert!(decode_resource(decl, &options).0.contains('\u{FFFD}'));
    // Other kinds never fail.
    assert!(try_decode_resource(b"\xFF", &SniffOptions::new(ResourceKind::Json)).is_ok());
}

// ---------------------------------------------------------------------------------------
// CSS

#[test]
fn css_charset_pattern_is_exact() {
    assert_eq!(css_charset(b"@charset \"gbk\";"), Some(Gbk));
    assert_eq!(css_charset(b"@charset \"GBK\"; a{}"), Some(Gbk));
    for bad in [
        &b"@charset  \"gbk\";"[..],
        b"@charset \"gbk\" ;",
        b"@charset \"gbk\"",
        b"@charset 'gbk';",
        b"@charset gbk;",
        b"@CHARSET \"gbk\";",
        b" @charset \"gbk\";",
        b"@charset\t\"gbk\";",
        b"@charset \"gbk\x80\";",
        b"@charset \"\";",
        b"@charset \"bogus\";",
        b"/**/@charset \"gbk\";",
    ] {
        assert_eq!(css_charset(bad), None, "{}", String::from_utf8_lossy(bad));
    }
    // XX bytes 0x16–0x21 and 0x23–0x7F (get an encoding trims the spaces).
    assert_eq!(
        css_charset_label(b"@charset \" gbk!\x16\";"),
        Some(&b" gbk!\x16"[..])
    );
    assert_eq!(css_charset_label(b"@charset \"\x15\";"), None);
    assert_eq!(css_charset(b"@charset \" gbk \";"), Some(Gbk));
    // UTF-16 → UTF-8; x-user-defined stays.
    assert_eq!(css_charset(b"@charset \"utf-16be\";"), Some(Utf8));
    assert_eq!(
        css_charset(b"@charset \"x-user-defined\";"),
        Some(XUserDefined)
    );
    // Within the first 1024 bytes.
    let mut rule = b"@charset \"".to_vec();
    rule.extend(vec![b' '; 1024 - 10 - 3 - 2]);
    rule.extend_from_slice(b"gbk\";");
    assert_eq!(rule.len(), 1024);
    assert_eq!(css_charset(&rule), Some(Gbk));
    rule.insert(10, b' ');
    assert_eq!(css_charset(&rule), None);
}

#[test]
fn css_fallback_encoding_steps() {
    let css = |bytes: &[u8], content_type: Option<&'static [u8]>, fallback| {
        let r = sniff(
            bytes,
            &SniffOptions {
                content_type,
                fallback,
                user_override: Some(Big5), // ignored for CSS
                ..SniffOptions::new(ResourceKind::Css)
            },
        );
        assert_eq!(r.confidence, Confidence::Irrelevant);
        (r.encoding, r.source)
    };
    let rule = b"@charset \"iso-8859-5\"; a{}";
    // BOM (decode) over everything.
    assert_eq!(
        css(b"\xFE\xFF\0@", Some(b"text/css;charset=gbk"), Some(EucKr)),
        (Utf16Be, Source::Bom)
    );
    // 1. HTTP charset, UTF-16 kept.
    assert_eq!(
        css(rule, Some(b"text/css;charset=gbk"), None),
        (Gbk, Source::TransportLayer)
    );
    assert_eq!(
        css(rule, Some(b"text/css;charset=utf-16"), None),
        (Utf16Le, Source::TransportLayer)
    );
    assert_eq!(
        css(rule, Some(b"text/css;charset=bogus"), None),
        (Iso8859_5, Source::CssCharset)
    );
    // 2. @charset.
    assert_eq!(
        css(rule, None, Some(EucKr)),
        (Iso8859_5, Source::CssCharset)
    );
    // 3. Referring document.
    assert_eq!(css(b"a{}", None, Some(EucKr)), (EucKr, Source::Fallback));
    assert_eq!(
        css(b"@charset \"bogus\";", None, Some(EucKr)),
        (EucKr, Source::Fallback)
    );
    // 4. UTF-8.
    assert_eq!(css(b"a{}", None, None), (Utf8, Source::Default));
    let (text, _) = decode_resource(
        b"@charset \"koi8-r\"; a:after{content:'\xF0'}",
        &SniffOptions::new(ResourceKind::Css),
    );
    assert_eq!(text, "@charset \"koi8-r\"; a:after{content:'П'}");
}

// ---------------------------------------------------------------------------------------
// JSON and the entry points

#[test]
fn json_is_utf8_only() {
    let options = SniffOptions {
        content_type: Some(b"application/json; charset=gbk"),
        user_override: Some(Big5),
        fallback: Some(EucKr),
        ..SniffOptions::new(ResourceKind::Json)
    };
    let (text, r) = decode_resource(b"\xEF\xBB\xBF[\"\xC3\xA9\"]", &options);
    assert_eq!(text, "[\"é\"]");
    assert_eq!(
        (r.encoding, r.source, r.bom_length, r.confidence),
        (Utf8, Source::Utf8Only, 3, Confidence::Irrelevant)
    );
    // A UTF-16 BOM is not honoured: UTF-8 decode only removes a UTF-8 BOM.
    let (text, r) = decode_resource(b"\xFF\xFE[\0]\0", &options);
    assert_eq!((r.encoding, r.bom_length), (Utf8, 0));
    assert_eq!(text, "\u{FFFD}\u{FFFD}[\0]\0");
}

#[test]
fn decode_resource_borrows_and_strips_bom() {
    let (text, r) = decode_resource(b"<meta charset=gbk>abc", &SniffOptions::default());
    assert!(matches!(text, std::borrow::Cow::Borrowed(_)));
    assert_eq!(r.encoding, Gbk);
    let (text, _) = decode_resource(b"\xFF\xFEa\0", &SniffOptions::default());
    assert_eq!(text, "a");
    let (text, _) = decode_resource(b"<p>caf\xE9", &SniffOptions::default());
    assert_eq!(text, "<p>café");
}

#[test]
fn report_decoder_matches_decode_resource() {
    let page = b"\xEF\xBB\xBF<meta charset=gbk>\xC3\xA9";
    let report = sniff(page, &SniffOptions::default());
    let mut out = String::new();
    let _ = report.decoder().decode_to_string(page, &mut out, true);
    assert_eq!(out, decode_resource(page, &SniffOptions::default()).0);
}

#[test]
fn resource_kind_from_content_type() {
    for (ct, kind) in [
        ("text/html; charset=utf-8", ResourceKind::Html),
        ("application/xhtml+xml", ResourceKind::Xml),
        ("TEXT/XML", ResourceKind::Xml),
        ("text/css", ResourceKind::Css),
        ("application/json", ResourceKind::Json),
        ("application/manifest+json", ResourceKind::Json),
        ("text/plain", ResourceKind::PlainText),
        ("text/javascript", ResourceKind::PlainText),
    ] {
        assert_eq!(
            ResourceKind::from_content_type(ct.as_bytes()),
            Some(kind),
            "{ct}"
        );
    }
    assert_eq!(ResourceKind::from_content_type(b"nonsense"), None);
}

#[test]
fn resource_decoder_waits_for_1024_bytes() {
    let mut page = vec![b' '; 1000];
    page.extend_from_slice(b"<meta charset=koi8-r>\xF0\xD2\xC9\xD7\xC5\xD4");
    let mut decoder = ResourceDecoder::new(&SniffOptions::default());
    let mut text = String::new();
    decoder
        .decode_to_string(&page[..1023], &mut text, false)
        .unwrap();
    assert_eq!((decoder.report(), text.len()), (None, 0));
    decoder
        .decode_to_string(&page[1023..], &mut text, false)
        .unwrap();
    assert_eq!(decoder.report().unwrap().encoding, Koi8R);
    decoder.decode_to_string(b"", &mut text, true).unwrap();
    assert!(text.ends_with("Привет"));
    // XML stops at the first fatal error, and keeps reporting it.
    let mut decoder = ResourceDecoder::new(&SniffOptions::new(ResourceKind::Xml));
    let mut text = String::new();
    let e = decoder
        .decode_to_string(b"<a>\xFF</a>", &mut text, true)
        .unwrap_err();
    assert_eq!(e.offset(), 3);
    assert_eq!(text, "<a>");
    assert_eq!(decoder.decode_to_string(b"more", &mut text, true), Err(e));
}

// ---------------------------------------------------------------------------------------
// Properties

/// Bytes built from HTML-ish tokens and random bytes, so the prescan's branches are hit.
fn htmlish() -> impl Strategy<Value = Vec<u8>> {
    let token = prop_oneof![
        Just(b"<meta".to_vec()),
        Just(b"<META ".to_vec()),
        Just(b" charset".to_vec()),
        Just(b"=".to_vec()),
        Just(b"gbk".to_vec()),
        Just(b"utf-16".to_vec()),
        Just(b"\"".to_vec()),
        Just(b"'".to_vec()),
        Just(b">".to_vec()),
        Just(b"/".to_vec()),
        Just(b" ".to_vec()),
        Just(b"<!--".to_vec()),
        Just(b"-->".to_vec()),
        Just(b"<!".to_vec()),
        Just(b"<?xml encoding='big5'".to_vec()),
        Just(b"</".to_vec()),
        Just(b"<p".to_vec()),
        Just(b" http-equiv=content-type".to_vec()),
        Just(b" content='text/html;charset=koi8-r'".to_vec()),
        proptest::collection::vec(any::<u8>(), 0..8),
    ];
    proptest::collection::vec(token, 0..200).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn prescan_ignores_bytes_after_1024(bytes in htmlish(), tail in proptest::collection::vec(any::<u8>(), 0..64)) {
        let window = &bytes[..bytes.len().min(1024)];
        let expected = html_prescan_detailed(window);
        prop_assert_eq!(html_prescan_detailed(&bytes), expected);
        if bytes.len() >= 1024 {
            let mut longer = bytes.clone();
            longer.extend_from_slice(&tail);
            prop_assert_eq!(html_prescan_detailed(&longer), expected);
        }
        if let Some(p) = expected {
            prop_assert!(p.offset < 1024);
        }
    }

    #[test]
    fn prescan_never_panics_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..1500)) {
        let _ = html_prescan(&bytes);
        let _ = get_an_xml_encoding(&bytes);
        let _ = extract_encoding_from_meta(&bytes);
    }

    #[test]
    fn sniffers_only_read_the_prefix(bytes in htmlish(), tail in proptest::collection::vec(any::<u8>(), 0..64), kind in 0..5u8) {
        let kind = [ResourceKind::Html, ResourceKind::Xml, ResourceKind::Css, ResourceKind::PlainText, ResourceKind::Json][kind as usize];
        let options = SniffOptions::new(kind);
        let mut padded = bytes.clone();
        padded.resize(padded.len().max(1024), b' ');
        let expected = sniff(&padded, &options);
        padded.extend_from_slice(&tail);
        prop_assert_eq!(sniff(&padded, &options), expected);
        prop_assert_eq!(css_charset(&padded), css_charset(&padded[..1024]));
        prop_assert_eq!(xml_declared_encoding(&padded), xml_declared_encoding(&padded[..1024]));
    }

    #[test]
    fn mime_parse_serialize_round_trip(bytes in proptest::collection::vec(prop_oneof![
        Just(b';'), Just(b'='), Just(b'"'), Just(b'\\'), Just(b' '), Just(b'/'), Just(b','),
        Just(b'a'), Just(b'c'), any::<u8>()], 0..40)) {
        if let Some(m) = MimeType::parse(&bytes) {
            let serialized = m.to_string();
            // Serialization gives code points <= U+00FF: isomorphic encode it back.
            let reencoded: Vec<u8> = serialized.chars().map(|c| c as u32 as u8).collect();
            prop_assert_eq!(MimeType::parse(&reencoded), Some(m));
        }
        let _ = MimeType::extract(&bytes);
        let _ = charset_from_content_type(&bytes);
    }

    #[test]
    fn resource_decoder_equals_decode_resource(bytes in htmlish(), split in proptest::collection::vec(1usize..700, 1..6), kind in 0..5u8) {
        let kind = [ResourceKind::Html, ResourceKind::Xml, ResourceKind::Css, ResourceKind::PlainText, ResourceKind::Json][kind as usize];
        let options = SniffOptions::new(kind);
        let (expected, report) = decode_resource(&bytes, &options);
        let mut decoder = ResourceDecoder::new(&options);
        let mut text = String::new();
        let mut rest = &bytes[..];
        let mut failed = false;
        for n in split {
            let n = n.min(rest.len());
            failed |= decoder.decode_to_string(&rest[..n], &mut text, false).is_err();
            rest = &rest[n..];
        }
        failed |= decoder.decode_to_string(rest, &mut text, true).is_err();
        prop_assert_eq!(decoder.report(), Some(report));
        if kind == ResourceKind::Xml {
            prop_assert_eq!(failed, try_decode_resource(&bytes, &options).is_err());
            if !failed {
                prop_assert_eq!(text, expected);
            }
        } else {
            prop_assert!(!failed);
            prop_assert_eq!(text, expected);
        }
    }

    #[test]
    fn change_encoding_switch_is_sound(bytes in proptest::collection::vec(any::<u8>(), 0..64), a in 0..40usize, b in 0..40usize) {
        let (a, b) = (Encoding::all()[a], Encoding::all()[b]);
        let change = should_change_encoding(a, Confidence::Tentative, b, &bytes);
        if let EncodingChange::SwitchWithoutReload(new) = change {
            // Switching is only allowed when the new decoder gives the same text.
            let (old_text, _) = textcodec::decode_without_bom(a, &bytes);
            let (new_text, _) = textcodec::decode_without_bom(new, &bytes);
            prop_assert_eq!(old_text, new_text);
        }
    }
}
