//! `textcodec::form` against the URL Standard's examples (#example-percent-encode-operations,
//! the urlencoded parser and serializer) and the Encoding Standard's notes on the html error
//! mode and *encode or fail* (#security-background, #pit-of-iso-2022-jp).

use textcodec::form::{
    parse, parse_with_encoding, percent_decode, percent_encode_after_encoding, serialize,
    utf8_percent_encode, PercentEncodeSet,
};
use textcodec::Encoding;

/// The URL Standard's table of examples (#example-percent-encode-operations).
#[test]
fn url_standard_examples() {
    // Percent-decode (bytes, and a string's UTF-8).
    assert_eq!(&*percent_decode(b"%25%s%1G"), b"%%s%1G");
    assert_eq!(
        &*percent_decode("‽%25%2E".as_bytes()),
        [0xE2, 0x80, 0xBD, 0x25, 0x2E]
    );
    // Percent-encode after encoding with Shift_JIS and the special-query set.
    let sq = PercentEncodeSet::SPECIAL_QUERY;
    let sjis = |s| percent_encode_after_encoding(Encoding::ShiftJis, s, &sq, false);
    assert_eq!(sjis(" "), "%20");
    assert_eq!(sjis("≡"), "%81%DF");
    assert_eq!(sjis("‽"), "%26%238253%3B");
    // ISO-2022-JP: ESC ( J, the yen sign as 0x5C, then back to ASCII at the end.
    assert_eq!(
        percent_encode_after_encoding(Encoding::Iso2022Jp, "¥", &sq, false),
        "%1B(J\\%1B(B"
    );
    // Shift_JIS, the form-urlencoded set, space as plus.
    assert_eq!(
        percent_encode_after_encoding(
            Encoding::ShiftJis,
            "1+1 ≡ 2%20‽",
            &PercentEncodeSet::FORM_URLENCODED,
            true
        ),
        "1%2B1+%81%DF+2%2520%26%238253%3B"
    );
    // UTF-8 percent-encode with the userinfo set.
    let ui = PercentEncodeSet::USERINFO;
    assert_eq!(utf8_percent_encode("≡", &ui), "%E2%89%A1");
    assert_eq!(utf8_percent_encode("‽", &ui), "%E2%80%BD");
    assert_eq!(utf8_percent_encode("Say what‽", &ui), "Say%20what%E2%80%BD");
}

/// The sets as the URL Standard lists them, checked against one-line definitions.
#[test]
fn percent_encode_sets() {
    let c0 = |b: u8| !(0x20..=0x7E).contains(&b);
    let cases: [(PercentEncodeSet, &dyn Fn(u8) -> bool); 8] = [
        (PercentEncodeSet::C0_CONTROL, &c0),
        (PercentEncodeSet::FRAGMENT, &|b| {
            c0(b) || b" \"<>`".contains(&b)
        }),
        (PercentEncodeSet::QUERY, &|b| {
            c0(b) || b" \"#<>".contains(&b)
        }),
        (PercentEncodeSet::SPECIAL_QUERY, &|b| {
            c0(b) || b" \"#<>'".contains(&b)
        }),
        (PercentEncodeSet::PATH, &|b| {
            c0(b) || b" \"#<>?^`{}".contains(&b)
        }),
        (PercentEncodeSet::USERINFO, &|b| {
            c0(b) || b" \"#<>?^`{}/:;=@[\\]|".contains(&b)
        }),
        (PercentEncodeSet::COMPONENT, &|b| {
            c0(b) || b" \"#<>?^`{}/:;=@[\\]|$%&+,".contains(&b)
        }),
        // "all code points, except the ASCII alphanumeric, U+002A (*), U+002D (-),
        // U+002E (.), and U+005F (_)".
        (PercentEncodeSet::FORM_URLENCODED, &|b| {
            !(b.is_ascii_alphanumeric() || b"*-._".contains(&b))
        }),
    ];
    for (i, (set, want)) in cases.iter().enumerate() {
        for b in 0..=255u8 {
            assert_eq!(set.contains(b), want(b), "set {i}, byte {b:#04X}");
        }
    }
    assert!(!PercentEncodeSet::QUERY.remove(b'#').contains(b'#'));
}

#[test]
fn serializer() {
    // #concept-urlencoded-serializer with UTF-8 (URLSearchParams' serialization).
    assert_eq!(
        serialize([("a", "b c"), ("d&e", "f=g"), ("~*", "💩")], Encoding::Utf8),
        "a=b+c&d%26e=f%3Dg&%7E*=%F0%9F%92%A9"
    );
    assert_eq!(
        serialize(Vec::<(String, String)>::new(), Encoding::Utf8),
        ""
    );
    // Step 1, get an output encoding: a UTF-16 page submits UTF-8.
    assert_eq!(serialize([("q", "é")], Encoding::Utf16Le), "q=%C3%A9");
    assert_eq!(serialize([("q", "é")], Encoding::Replacement), "q=%C3%A9");
    // Shift_JIS, as an HTML form in a Shift_JIS document submits.
    assert_eq!(
        serialize([("名前", "テスト 1"), ("x", "☃")], Encoding::ShiftJis),
        "%96%BC%91O=%83e%83X%83g+1&x=%26%239731%3B"
    );
}

/// Encoding Standard, #security-background: with windows-1252 "a server will not be able to
/// distinguish between an end user entering “💩” and “&#128169;” into a form".
#[test]
fn html_mode_cannot_be_told_apart_from_typed_references() {
    let emoji = serialize([("q", "💩")], Encoding::Windows1252);
    let typed = serialize([("q", "&#128169;")], Encoding::Windows1252);
    assert_eq!(emoji, typed);
    assert_eq!(emoji, "q=%26%23128169%3B");
    // The same as the *encode* hook's html mode, percent-encoded.
    let (html, _) = textcodec::encode("💩", Encoding::Windows1252);
    assert_eq!(&*html, b"&#128169;");
}

/// Encoding Standard, #pit-of-iso-2022-jp: when *encode or fail* returns an error the
/// ISO-2022-JP encoder may be in the Roman state; what the caller emits for the error must
/// avoid 0x0E, 0x0F, 0x1B, 0x5C and 0x7E. `%26%23…%3B` does, and the encoder's later output
/// stays consistent.
#[test]
fn iso_2022_jp_errors_in_every_state() {
    let set = PercentEncodeSet::FORM_URLENCODED;
    let enc = |s| percent_encode_after_encoding(Encoding::Iso2022Jp, s, &set, false);
    // Roman state at the error (after ¥); `a` is the same in Roman, ESC ( B at the end.
    assert_eq!(enc("¥☃a"), "%1B%28J%5C%26%239731%3Ba%1B%28B");
    // jis0208 state: the encoder returns to ASCII before the error.
    assert_eq!(enc("日☃"), "%1B%24BF%7C%1B%28B%26%239731%3B");
    // ESC, SO, SI are errors reported as U+FFFD (#iso-2022-jp-encoder step 3).
    assert_eq!(enc("\u{1B}"), "%26%2365533%3B");
    for s in ["¥☃a", "日☃", "\u{E}x"] {
        let out = enc(s);
        let error_at = out.find("%26%23").unwrap();
        let emitted = &out[error_at..out[error_at..].find("%3B").unwrap() + error_at + 3];
        let bytes = percent_decode(emitted.as_bytes());
        assert!(bytes
            .iter()
            .all(|b| !matches!(b, 0x0E | 0x0F | 0x1B | 0x5C | 0x7E)));
    }
}

#[test]
fn parser() {
    // #concept-urlencoded-parser: empty sequences skipped, no `=` means an empty value,
    // `+` is a space (before percent-decoding: `%2B` stays a plus), malformed UTF-8 is U+FFFD.
    let got = parse(b"&a=1&&b=x+y%2Bz&c&=d&e=%zz%4&f==g&%FF=%C3%A9");
    let got: Vec<(&str, &str)> = got.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    assert_eq!(
        got,
        [
            ("a", "1"),
            ("b", "x y+z"),
            ("c", ""),
            ("", "d"),
            ("e", "%zz%4"),
            ("f", "=g"),
            ("\u{FFFD}", "é"),
        ]
    );
    // A BOM is not removed (UTF-8 decode without BOM).
    assert_eq!(parse(b"%EF%BB%BFa=b")[0].0, "\u{FEFF}a");
}

#[test]
fn parser_with_legacy_encodings_round_trips_the_serializer() {
    let entries = [
        ("名前", "山田 太郎"),
        ("コメント", "a+b=c & d ~ ¥ \\ 100%"),
        ("emoji", "💩"),
    ];
    for e in [
        Encoding::ShiftJis,
        Encoding::EucJp,
        Encoding::Iso2022Jp,
        Encoding::Gb18030,
        Encoding::Big5,
        Encoding::EucKr,
        Encoding::Windows1252,
        Encoding::Utf8,
    ] {
        let body = serialize(entries, e);
        assert!(body.is_ascii());
        let back = parse_with_encoding(body.as_bytes(), e);
        for ((name, value), (want_name, want_value)) in back.iter().zip(entries) {
            // What the encoding cannot hold comes back as the html mode's `&#N;`.
            let (n, _) = textcodec::encode(want_name, e);
            let (v, _) = textcodec::encode(want_value, e);
            assert_eq!(name, &textcodec::decode_without_bom(e, &n).0, "{e:?}");
            assert_eq!(value, &textcodec::decode_without_bom(e, &v).0, "{e:?}");
        }
    }
}
