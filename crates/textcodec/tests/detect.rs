//! The encoding detector (`textcodec::detect`): exactness, chunking, bounds, samples.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use textcodec::detect::{detect, Binary, Detector, Hints};
use textcodec::{
    encode_or_fail, BomHandling, DecodeErrorMode, DecodeStatus, Decoder, DecoderOptions,
    EncodeErrorMode, Encoder, Encoding,
};

/// `text` in `encoding`; panics if a character is unmappable.
fn encode_exact(text: &str, encoding: Encoding) -> Vec<u8> {
    let mut encoder = Encoder::new(encoding, EncodeErrorMode::Fatal).expect("an encoder");
    let mut out = Vec::new();
    encode_or_fail(&mut encoder, text, &mut out)
        .unwrap_or_else(|e| panic!("{text} in {encoding}: {e:?}"));
    out
}

/// Short sentences, one per language, written for these tests.
const SAMPLES: &[(&str, &[Encoding])] = &[
    (
        "Привет, мир! Как у вас дела сегодня?",
        &[Encoding::Windows1251, Encoding::Koi8R],
    ),
    (
        "Zażółć gęślą jaźń, powiedział człowiek.",
        &[Encoding::Windows1250, Encoding::Iso8859_2],
    ),
    (
        "Ça coûte très cher, répondit-elle à l'été.",
        &[Encoding::Windows1252],
    ),
    (
        "Größere Übungen für Bären schließen.",
        &[Encoding::Windows1252],
    ),
    (
        "Καλημέρα σας, τι κάνετε σήμερα;",
        &[Encoding::Windows1253, Encoding::Iso8859_7],
    ),
    ("שלום עולם, מה שלומך היום?", &[Encoding::Windows1255]),
    ("مرحبا بالعالم، كيف حالك اليوم؟", &[Encoding::Windows1256]),
    ("สวัสดีครับ วันนี้อากาศดีมาก", &[Encoding::Windows874]),
    (
        "Günaydın, bugün hava çok güzel değil mi?",
        &[Encoding::Windows1254],
    ),
    (
        "日本語のテキストを検出します。これはテストです。",
        &[Encoding::ShiftJis, Encoding::EucJp, Encoding::Iso2022Jp],
    ),
    (
        "这是一个简体中文的测试句子，我们来检测编码。",
        &[Encoding::Gbk],
    ),
    (
        "這是一個繁體中文的測試句子，我們來檢測編碼。",
        &[Encoding::Big5],
    ),
    (
        "이것은 한국어 문장입니다. 인코딩을 감지합니다.",
        &[Encoding::EucKr],
    ),
];

#[test]
fn samples_decode_right() {
    let mut failures = Vec::new();
    for &(text, encodings) in SAMPLES {
        for &encoding in encodings {
            let bytes = encode_exact(text, encoding);
            let guess = detect(&bytes, &Hints::new());
            let (decoded, _) = textcodec::decode(&bytes, guess.encoding);
            if decoded != text {
                failures.push(format!("{encoding}: got {} ({:?})", guess.encoding, guess));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn empty_and_ascii() {
    let guess = detect(b"", &Hints::new());
    assert!(guess.ascii_only);
    assert_eq!(guess.encoding, Encoding::Windows1252);
    let hints = Hints {
        tld: Some(b"JP"),
        ..Hints::new()
    };
    let guess = detect(b"plain ascii", &hints);
    assert_eq!(
        (guess.encoding, guess.ascii_only),
        (Encoding::ShiftJis, true)
    );
    let hints = Hints {
        locale: Some("ru-RU"),
        ..Hints::new()
    };
    assert_eq!(detect(b"plain", &hints).encoding, Encoding::Windows1251);
}

/// Every candidate of the ranking, in a fixed order.
const CANDIDATES: usize = 38;

/// Whether `encoding`'s decoder (fatal) reports an error on the whole of `bytes`.
fn decoder_errors(encoding: Encoding, bytes: &[u8]) -> bool {
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

fn check_exact(bytes: &[u8]) -> Result<(), TestCaseError> {
    let mut detector = Detector::new();
    detector.feed(bytes, true);
    let hints = Hints::new();
    let ranking = detector.ranking(&hints);
    prop_assert_eq!(ranking.len(), CANDIDATES);
    // Disqualified exactly when the library's decoder errors (UTF-16 also when every
    // byte is printable ASCII or ESC: such bytes are read as ASCII).
    let ascii_text = bytes
        .iter()
        .all(|&b| b < 0x80 && !matches!(b, 0..=8 | 0x0B | 0x0E..=0x1A | 0x1C..=0x1F));
    for c in &ranking {
        let utf16 = matches!(c.encoding, Encoding::Utf16Le | Encoding::Utf16Be);
        prop_assert_eq!(
            c.disqualified,
            decoder_errors(c.encoding, bytes) || (utf16 && ascii_text),
            "{}",
            c.encoding
        );
        prop_assert!(!c.excluded);
    }
    // Disqualified ones last; the guess is never an erroring candidate if another is not.
    let first_dead = ranking
        .iter()
        .position(|c| c.disqualified)
        .unwrap_or(ranking.len());
    prop_assert!(ranking[first_dead..].iter().all(|c| c.disqualified));
    let guess = detector.guess(&hints);
    // No candidate is more likely than the guess (`--top`, `--json`, `detect_all` show
    // these side by side).
    for c in &ranking {
        prop_assert!(c.confidence <= guess.confidence, "{:?} over {:?}", c, guess);
    }
    if !guess.ascii_only && first_dead > 0 {
        prop_assert!(!decoder_errors(guess.encoding, bytes), "{:?}", guess);
    }
    // Without UTF-8, the guess is not UTF-8, and still not an erroring candidate.
    let no_utf8 = Hints::default();
    let guess = detector.guess(&no_utf8);
    prop_assert_ne!(guess.encoding, Encoding::Utf8);
    let others_survive = ranking
        .iter()
        .any(|c| !c.disqualified && c.encoding != Encoding::Utf8);
    if !guess.ascii_only && others_survive {
        prop_assert!(!decoder_errors(guess.encoding, bytes), "{:?}", guess);
    }
    Ok(())
}

/// Legacy-looking bytes: mostly high bytes, ASCII letters and spaces.
fn texty() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![
            3 => 0x80u8..=0xFF,
            2 => b'a'..=b'z',
            1 => Just(b' '),
            1 => any::<u8>(),
        ],
        0..64,
    )
}

/// A sample sentence encoded in one of its encodings, possibly with one byte changed.
fn encoded_sample() -> impl Strategy<Value = Vec<u8>> {
    (
        0..SAMPLES.len(),
        any::<prop::sample::Index>(),
        any::<Option<(prop::sample::Index, u8)>>(),
    )
        .prop_map(|(i, e, flip)| {
            let (text, encodings) = SAMPLES[i];
            let mut bytes = encode_exact(text, *e.get(encodings));
            if let Some((at, b)) = flip {
                let k = at.index(bytes.len());
                bytes[k] = b;
            }
            bytes
        })
}

/// A sample sentence in UTF-16LE or UTF-16BE without a byte order mark, possibly cut
/// anywhere (an odd length rules UTF-16 out), or a binary format's signature followed by
/// random bytes.
fn utf16_or_binary() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        (
            0..SAMPLES.len(),
            any::<bool>(),
            any::<prop::sample::Index>()
        )
            .prop_map(|(i, le, cut)| {
                let units = SAMPLES[i].0.encode_utf16();
                let bytes: Vec<u8> = if le {
                    units.flat_map(u16::to_le_bytes).collect()
                } else {
                    units.flat_map(u16::to_be_bytes).collect()
                };
                let keep = bytes.len() - cut.index(bytes.len() / 4 + 1);
                bytes[..keep].to_vec()
            }),
        (
            0..SIGNATURES.len(),
            proptest::collection::vec(any::<u8>(), 0..600)
        )
            .prop_map(|(i, tail)| {
                let mut bytes = SIGNATURES[i].1.to_vec();
                bytes.extend(tail);
                bytes
            }),
    ]
}

/// Several samples (in their encodings) and random bytes end to end: long enough to cross
/// step boundaries, where candidates far behind stop being scored.
fn long_input() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![3 => encoded_sample(), 1 => texty(), 1 => utf16_or_binary()],
        4..40,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn exact_on_long_inputs(bytes in long_input()) {
        check_exact(&bytes)?;
    }

    #[test]
    fn any_split_of_long_inputs(bytes in long_input(),
                                cuts in proptest::collection::vec(any::<prop::sample::Index>(), 1..8)) {
        let whole = detect(&bytes, &Hints::new());
        let mut points: Vec<usize> = cuts.iter().map(|c| c.index(bytes.len() + 1)).collect();
        points.sort_unstable();
        let mut detector = Detector::new();
        let mut from = 0;
        for p in points {
            detector.feed(&bytes[from..p], false);
            from = p;
        }
        detector.feed(&bytes[from..], true);
        prop_assert_eq!(detector.guess(&Hints::new()), whole);
        let mut one = Detector::new();
        one.feed(&bytes, true);
        let a: Vec<_> = detector.ranking(&Hints::new()).iter().map(|c| (c.encoding, c.score.to_bits(), c.confidence.to_bits())).collect();
        let b: Vec<_> = one.ranking(&Hints::new()).iter().map(|c| (c.encoding, c.score.to_bits(), c.confidence.to_bits())).collect();
        prop_assert_eq!(a, b);
    }

    #[test]
    fn exact_on_utf16_and_binary(bytes in utf16_or_binary()) {
        check_exact(&bytes)?;
    }

    #[test]
    fn exact_on_random_bytes(bytes in texty()) {
        check_exact(&bytes)?;
    }

    #[test]
    fn exact_on_encoded_text(bytes in encoded_sample()) {
        check_exact(&bytes)?;
    }

    #[test]
    fn any_split_gives_the_same_guess(bytes in prop_oneof![texty(), encoded_sample(), utf16_or_binary()],
                                      cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..6)) {
        let whole = detect(&bytes, &Hints::new());
        let mut points: Vec<usize> = cuts.iter().map(|c| c.index(bytes.len() + 1)).collect();
        points.sort_unstable();
        let mut detector = Detector::new();
        let mut from = 0;
        for p in points {
            detector.feed(&bytes[from..p], false);
            from = p;
        }
        detector.feed(&bytes[from..], false);
        detector.feed(b"", true);
        prop_assert_eq!(detector.guess(&Hints::new()), whole);
        // Byte by byte.
        let mut detector = Detector::new();
        for b in &bytes {
            detector.feed(core::slice::from_ref(b), false);
        }
        detector.feed(b"", true);
        prop_assert_eq!(detector.guess(&Hints::new()), whole);
        let hints = Hints { tld: Some(b"ru"), ..Hints::new() };
        let a: Vec<_> = detector.ranking(&hints).iter().map(|c| (c.encoding, c.score.to_bits(), c.disqualified, c.confidence.to_bits())).collect();
        let mut one = Detector::new();
        one.feed(&bytes, true);
        let b: Vec<_> = one.ranking(&hints).iter().map(|c| (c.encoding, c.score.to_bits(), c.disqualified, c.confidence.to_bits())).collect();
        prop_assert_eq!(a, b);
    }
}

#[test]
fn big_input_bounded_memory_and_stops() {
    // 256 MiB of Cyrillic text in windows-1251, fed in 64 KiB chunks: the detector's size
    // is fixed (no heap), it stops looking early and says so, and further feeds are ignored.
    let sentence = encode_exact(
        "Привет, мир! Как у вас дела сегодня? ",
        Encoding::Windows1251,
    );
    let chunk: Vec<u8> = sentence.iter().copied().cycle().take(64 * 1024).collect();
    let mut detector = Detector::new();
    let size = core::mem::size_of_val(&detector);
    let mut fed = 0u64;
    let mut stopped_at = None;
    for _ in 0..4096 {
        fed += chunk.len() as u64;
        if detector.feed(&chunk, false) && stopped_at.is_none() {
            stopped_at = Some(detector.bytes_examined());
        }
    }
    assert_eq!(core::mem::size_of_val(&detector), size);
    let stopped_at = stopped_at.expect("saturates on this much text");
    assert!(stopped_at < fed, "{stopped_at} of {fed}");
    assert_eq!(
        detector.bytes_examined(),
        stopped_at,
        "later feeds are ignored"
    );
    assert!(detector.is_done());
    let guess = detector.guess(&Hints::new());
    assert!(guess.stopped_early);
    assert_eq!(guess.encoding, Encoding::Windows1251);
    // Bytes that never saturate the detector (ASCII) are examined to the end.
    let mut detector = Detector::new();
    let ascii = vec![b'a'; 1 << 20];
    for _ in 0..64 {
        assert!(!detector.feed(&ascii, false));
    }
    assert!(detector.feed(b"", true));
    assert_eq!(detector.bytes_examined(), 64 << 20);
    assert!(!detector.guess(&Hints::new()).stopped_early);
}

#[test]
fn gbk_or_gb18030() {
    let bytes = encode_exact(
        "这是一个简体中文的测试句子，我们来检测编码。",
        Encoding::Gb18030,
    );
    assert_eq!(detect(&bytes, &Hints::new()).encoding, Encoding::Gbk);
    // A four-byte sequence (U+0E01 is only encodable so in gb18030) names gb18030.
    let mut four = bytes.clone();
    four.extend(encode_exact("ก", Encoding::Gb18030));
    assert_eq!(encode_exact("ก", Encoding::Gb18030).len(), 4);
    let guess = detect(&four, &Hints::new());
    assert_eq!(guess.encoding, Encoding::Gb18030);
    // The twin is not the runner-up of the margin.
    let ranking = {
        let mut d = Detector::new();
        d.feed(&bytes, true);
        d.ranking(&Hints::new())
    };
    assert_eq!(ranking[1].encoding, Encoding::Gb18030);
    let margin = detect(&bytes, &Hints::new()).margin;
    assert!(margin > ranking[0].score - ranking[1].score, "{margin}");
}

#[test]
fn utf8_and_hints() {
    let text = "Größere Übungen für Bären";
    let guess = detect(text.as_bytes(), &Hints::new());
    assert_eq!(guess.encoding, Encoding::Utf8);
    assert!(guess.margin > 0.0);
    // UTF-8 not allowed: a legacy encoding that decodes the bytes without error.
    let guess = detect(text.as_bytes(), &Hints::default());
    assert_ne!(guess.encoding, Encoding::Utf8);
    assert!(!decoder_errors(guess.encoding, text.as_bytes()));
    // Two high bytes alone are ambiguous: the TLD decides between scripts.
    let bytes = encode_exact("да", Encoding::Windows1251);
    let ru = detect(
        &bytes,
        &Hints {
            tld: Some(b"ru"),
            ..Hints::new()
        },
    );
    assert_eq!(ru.encoding, Encoding::Windows1251);
    let locale = detect(
        &bytes,
        &Hints {
            locale: Some("ru-RU"),
            ..Hints::new()
        },
    );
    assert_eq!(locale.encoding, Encoding::Windows1251);
}

#[test]
fn sniff_runs_the_detector_when_asked() {
    use textcodec::sniff::{sniff, Confidence, ResourceKind, SniffOptions, Source};
    let page = encode_exact(
        "<p>Привет, мир! Как у вас дела сегодня?</p>",
        Encoding::Windows1251,
    );
    let off = sniff(&page, &SniffOptions::new(ResourceKind::Html));
    assert_eq!((off.source, off.detection), (Source::Default, None));
    let options = SniffOptions {
        detect: true,
        ..SniffOptions::new(ResourceKind::Html)
    };
    let report = sniff(&page, &options);
    assert_eq!(
        (report.encoding, report.confidence, report.source),
        (
            Encoding::Windows1251,
            Confidence::Tentative,
            Source::Detection
        )
    );
    let guess = report.detection.expect("the detector ran");
    let line = report.to_string();
    assert!(
        line.starts_with("windows-1251 (tentative): detection (confidence 0.9"),
        "{line}"
    );
    assert!(line.contains(&format!("confidence {:.3}, score ", guess.confidence)));
    assert!(guess.margin > 0.0);
    // Plain text too; a <meta> still wins for HTML; ASCII leaves it to the locale.
    let plain = sniff(
        &page,
        &SniffOptions {
            kind: ResourceKind::PlainText,
            ..options
        },
    );
    assert_eq!(plain.source, Source::Detection);
    let mut meta = b"<meta charset=koi8-r>".to_vec();
    meta.extend(&page);
    assert_eq!(sniff(&meta, &options).source, Source::MetaPrescan);
    let ascii = sniff(
        b"<p>hello",
        &SniffOptions {
            locale: Some("ja"),
            ..options
        },
    );
    assert_eq!(
        (ascii.encoding, ascii.source),
        (Encoding::ShiftJis, Source::LocaleDefault)
    );
    assert!(ascii.detection.is_some_and(|g| g.ascii_only));
    // XML ignores it.
    let xml = sniff(
        &page,
        &SniffOptions {
            kind: ResourceKind::Xml,
            ..options
        },
    );
    assert_eq!(xml.source, Source::Default);
}

#[test]
fn every_byte_disqualifies_exactly() {
    // Every single byte, and every byte after a lead-capable one: each candidate is
    // disqualified exactly when its decoder errors (the single-byte error masks are built
    // at compile time from the library's indexes; this checks them against the decoders).
    for b in 0..=255u8 {
        check_exact(&[b]).unwrap();
        check_exact(&[b'a', b, b' ']).unwrap();
        check_exact(&[0x81, b]).unwrap();
        check_exact(&[0xA4, b, b'x']).unwrap();
    }
}

/// Markup is not text: the element and attribute names of an HTML page around a short
/// non-Latin text do not count as Latin words against its script.
#[test]
fn html_tags_do_not_count_as_latin_words() {
    let page = |body: &[u8]| {
        let mut page = b"<!DOCTYPE html>\n<html>\n<head>\n<link rel=\"stylesheet\" \
            href=\"/css/style.css\">\n<script type=\"text/javascript\" \
            src=\"/js/jquery.min.js\"></script>\n</head>\n<body>\n<div id=\"main\" \
            class=\"content\">\n"
            .to_vec();
        page.extend_from_slice(body);
        page.extend_from_slice(b"\n</div>\n</body>\n</html>\n");
        page
    };
    for (text, encoding) in [
        ("Привет, мир", Encoding::Windows1251),
        ("Καλημέρα σας", Encoding::Windows1253),
        ("שלום עולם", Encoding::Windows1255),
    ] {
        let bytes = encode_exact(text, encoding);
        let bare = detect(&bytes, &Hints::new());
        assert_eq!(bare.encoding, encoding, "{text} bare");
        let mut split = Detector::new();
        let html = page(&bytes);
        for chunk in html.chunks(5) {
            split.feed(chunk, false);
        }
        split.feed(b"", true);
        assert_eq!(
            detect(&html, &Hints::new()).encoding,
            encoding,
            "{text} in HTML"
        );
        assert_eq!(split.guess(&Hints::new()), detect(&html, &Hints::new()));
    }
}

/// ISO-2022-JP text is all ASCII bytes, so every ASCII-compatible decoder takes it
/// without error; its escapes (ESC bytes) are what tell. Short texts of rarer kanji, whose
/// Japanese score alone does not outweigh UTF-8's prior, must still be ISO-2022-JP.
#[test]
fn iso_2022_jp_escapes_outweigh_rare_kanji() {
    for text in ["鬱蒼たる樹海", "嗚呼、麒麟よ", "齟齬を糺す", "蝙蝠と鼬"] {
        let bytes = encode_exact(text, Encoding::Iso2022Jp);
        assert!(bytes.is_ascii() && bytes.contains(&0x1B));
        let guess = detect(&bytes, &Hints::new());
        assert_eq!(guess.encoding, Encoding::Iso2022Jp, "{text}: {guess:?}");
    }
}

/// Romanian: windows-1250 and ISO-8859-2 write ş ţ (cedilla) at the bytes where
/// ISO-8859-16 has ș ț (comma below); text in the first two must not be read as the
/// third, whose other bytes are what identify it (here € at 0xA4, ISO-8859-2's ¤, and „ ”
/// at 0xA5, 0xB5, its Ľ ľ).
#[test]
fn romanian_cedilla_and_comma_forms() {
    let cedilla = "Şi totuşi, ţara îşi păstrează tradiţiile şi obiceiurile.";
    for encoding in [Encoding::Windows1250, Encoding::Iso8859_2] {
        let bytes = encode_exact(cedilla, encoding);
        let guess = detect(&bytes, &Hints::new());
        assert_eq!(
            textcodec::decode(&bytes, guess.encoding).0,
            cedilla,
            "{encoding}: {guess:?}"
        );
    }
    let comma = "Prețul este de 5 € pe zi, adică „ieftin”, spune el.";
    let bytes = encode_exact(comma, Encoding::Iso8859_16);
    let guess = detect(&bytes, &Hints::new());
    assert_eq!(guess.encoding, Encoding::Iso8859_16, "{guess:?}");
}

/// A page's English words (title, navigation) are evidence against every non-Latin
/// candidate alike: a few Thai words inside such a page must not lose to a CJK reading
/// of the same bytes, which the words once did not count against.
#[test]
fn english_page_words_do_not_favour_cjk_over_thai() {
    let texts = ["รัฐบาล", "ครอบครัว", "ภาคใต้", "วันนี้อากาศดี"];
    for text in texts {
        let page = format!(
            "<!DOCTYPE html><html><head><title>News and Events</title></head><body>\
             <ul><li>Home</li><li>About us</li><li>Contact</li></ul><p>{text}</p></body></html>"
        );
        let bytes = encode_exact(&page, Encoding::Windows874);
        let guess = detect(&bytes, &Hints::new());
        assert_eq!(guess.encoding, Encoding::Windows874, "{text}: {guess:?}");
    }
}

/// windows-874 writes ค as A4 and the vowels and tone marks after a consonant as D4–FE:
/// read as EUC-KR, such a pair is an archaic Hangul letter, which no modern Korean text
/// has. Short Thai words must not read as the Korean syllables around one.
#[test]
fn short_thai_words_with_kho_khwai_do_not_read_as_korean() {
    let texts = ["ภาคใต้", "คุณ", "คิด", "ค่า", "คือ", "ภาคใต้ คุณคิด"];
    for text in texts {
        let bytes = encode_exact(text, Encoding::Windows874);
        let guess = detect(&bytes, &Hints::new());
        assert_eq!(guess.encoding, Encoding::Windows874, "{text}: {guess:?}");
    }
}

/// GBK writes full-width punctuation (，（）) with the lead A3, which windows-874 reads as
/// ฃ, a Thai letter out of use: short Chinese with such punctuation must not read as
/// Thai (these did, as ดลลฌฃฌ and the like, before ฃ and ฅ scored as never text).
#[test]
fn short_chinese_with_full_width_punctuation_does_not_read_as_thai() {
    let texts = ["a 磁盘，b", "x 硬盘，8 G", "盘，磁", "e 磁盘（4 G）"];
    for text in texts {
        let bytes = encode_exact(text, Encoding::Gbk);
        let guess = detect(&bytes, &Hints::new());
        assert!(
            matches!(guess.encoding, Encoding::Gbk | Encoding::Gb18030),
            "{text}: {guess:?}"
        );
    }
}

/// Short Big5 text with no ASCII byte has none of UTF-16's NULs or block bytes; read as
/// UTF-16 its units are CJK Extension A, Yi, Hangul, presentation forms — characters no
/// CJK text has — and must score so, not as leniently as punctuation (these read as
/// UTF-16BE with confidence 0.999 when they did).
#[test]
fn short_big5_text_does_not_read_as_utf16() {
    let texts = [
        "避免受到庇護",
        "受審判時免受酷刑",
        "遭受迫害時避難",
        "婚姻家庭受保護",
    ];
    for text in texts {
        let bytes = encode_exact(text, Encoding::Big5);
        let guess = detect(&bytes, &Hints::new());
        assert_eq!(guess.encoding, Encoding::Big5, "{text}: {guess:?}");
    }
}

/// The start of one file of each binary format the detector knows by its signature
/// (written for these tests from the formats' published headers).
const SIGNATURES: &[(Binary, &[u8])] = &[
    (Binary::Png, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10"),
    (Binary::Gif, b"GIF89a\x10\0\x10\0\x80\0\0"),
    (Binary::Jpeg, b"\xff\xd8\xff\xe0\0\x10JFIF\0\x01\x01"),
    (Binary::Webp, b"RIFF\x24\0\0\0WEBPVP8 "),
    (Binary::Pdf, b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"),
    (Binary::Zip, b"PK\x03\x04\x14\0\0\0\x08\0"),
    (Binary::Gzip, b"\x1f\x8b\x08\0\0\0\0\0\0\x03"),
    (Binary::Bzip2, b"BZh91AY&SY\x12\x34"),
    (Binary::Xz, b"\xfd7zXZ\0\0\x04\xe6\xd6\xb4\x46"),
    (Binary::Zstd, b"\x28\xb5\x2f\xfd\x24\x05"),
    (Binary::SevenZip, b"7z\xbc\xaf\x27\x1c\0\x04"),
    (Binary::Rar, b"Rar!\x1a\x07\x01\0"),
    (Binary::Elf, b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0"),
    (Binary::MachO, b"\xcf\xfa\xed\xfe\x07\0\0\x01"),
    (Binary::Wasm, b"\0asm\x01\0\0\0"),
    (Binary::Ogg, b"OggS\0\x02\0\0"),
    (Binary::Flac, b"fLaC\0\0\0\x22"),
    (Binary::Mp3, b"ID3\x04\0\0\0\0\x0f\x76"),
    (Binary::Mp4, b"\0\0\0\x20ftypisom\0\0\x02\0"),
    (Binary::Sqlite, b"SQLite format 3\0\x10\0"),
];

#[test]
fn binary_formats_are_not_text() {
    for &(format, head) in SIGNATURES {
        // The signature alone, and followed by text: the start decides.
        for tail in [&b""[..], b"plain text after the header, in ASCII"] {
            let mut bytes = head.to_vec();
            bytes.extend_from_slice(tail);
            let guess = detect(&bytes, &Hints::new());
            assert_eq!(guess.binary, Some(format), "{format}: {guess:?}");
            assert_eq!(guess.confidence, 0.0);
            assert!(!guess.ascii_only && guess.language.is_none());
        }
    }
    // No signature, but the controls of binary data: a little-endian integer table, and
    // pseudo-random bytes.
    let table: Vec<u8> = (0u32..200).flat_map(|i| (i * 7919).to_le_bytes()).collect();
    let mut x = 0x2545_f491_u32;
    let noise: Vec<u8> = (0..4096)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect();
    for bytes in [&table[..], &noise[..], b"text\0with a NUL"] {
        let guess = detect(bytes, &Hints::new());
        assert_eq!(guess.binary, Some(Binary::ControlBytes), "{guess:?}");
        assert_eq!(guess.confidence, 0.0);
    }
}

#[test]
fn text_is_never_binary() {
    // Every sample in each of its encodings, bare and with the whitespace controls text
    // has (tab, form feed, CR LF) and one DOS end-of-file byte after a long text.
    for &(text, encodings) in SAMPLES {
        for &encoding in encodings.iter().chain(&[Encoding::Utf8]) {
            let bytes = encode_exact(&format!("{text}\t\x0c\r\n"), encoding);
            let guess = detect(&bytes, &Hints::new());
            assert_eq!(guess.binary, None, "{text} in {encoding}: {guess:?}");
            let mut long = encode_exact(&text.repeat(20), encoding);
            long.push(0x1a);
            let guess = detect(&long, &Hints::new());
            assert_eq!(
                guess.binary, None,
                "{text} ×20 + SUB in {encoding}: {guess:?}"
            );
        }
    }
}

#[test]
fn utf16_without_bom() {
    let latin = "Plain English text, all of it ASCII: UTF-16 puts a NUL in every other byte.";
    for text in SAMPLES.iter().map(|s| s.0).chain([latin]) {
        for (encoding, le) in [(Encoding::Utf16Le, true), (Encoding::Utf16Be, false)] {
            let bytes: Vec<u8> = text
                .encode_utf16()
                .flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() })
                .collect();
            let guess = detect(&bytes, &Hints::new());
            assert_eq!(guess.encoding, encoding, "{text}: {guess:?}");
            assert_eq!(guess.binary, None);
            assert!(guess.confidence > 0.9, "{text}: {guess:?}");
            // The Standard's decode then reads it through the UTF-16 decoder.
            assert_eq!(textcodec::decode(&bytes, guess.encoding).0, text);
            // Denied, it is not the answer.
            let hints = Hints::new().denying(&[Encoding::Utf16Le, Encoding::Utf16Be]);
            let guess = detect(&bytes, &hints);
            assert!(!matches!(
                guess.encoding,
                Encoding::Utf16Le | Encoding::Utf16Be
            ));
        }
    }
    // Bytes that are all printable ASCII stay ASCII, whatever their pairs would mean in
    // UTF-16 (the same bytes as UTF-16LE are the CJK text "桔獩..." ).
    let guess = detect(b"This is ASCII text", &Hints::new());
    assert!(guess.ascii_only, "{guess:?}");
}

#[test]
fn allow_and_deny_lists() {
    let bytes = encode_exact(
        "Привет, мир! Как у вас дела сегодня?",
        Encoding::Windows1251,
    );
    assert_eq!(
        detect(&bytes, &Hints::new()).encoding,
        Encoding::Windows1251
    );
    // Deny the right answer: the next Cyrillic candidate.
    let hints = Hints::new().denying(&[Encoding::Windows1251]);
    let guess = detect(&bytes, &hints);
    assert_ne!(guess.encoding, Encoding::Windows1251);
    let mut detector = Detector::new();
    detector.feed(&bytes, true);
    let ranking = detector.ranking(&hints);
    let denied = ranking
        .iter()
        .find(|c| c.encoding == Encoding::Windows1251)
        .expect("every candidate is ranked");
    assert!(denied.excluded && denied.disqualified && denied.confidence == 0.0);
    assert_eq!(ranking.iter().filter(|c| c.excluded).count(), 1);
    // Allow two: the answer is one of them, and only they are not excluded.
    let only = [Encoding::Koi8R, Encoding::Iso8859_5];
    let hints = Hints::new().allowing(&only);
    assert!(only.contains(&detect(&bytes, &hints).encoding));
    let ranking = detector.ranking(&hints);
    assert!(ranking
        .iter()
        .all(|c| c.excluded != only.contains(&c.encoding)));
    // ASCII: the default if allowed, else the first allowed candidate.
    let hints = Hints::new().allowing(&[Encoding::EucKr, Encoding::ShiftJis]);
    let guess = detect(b"plain", &hints);
    assert!(guess.ascii_only);
    assert_eq!(guess.encoding, Encoding::ShiftJis);
    // allow_utf8 = false is a deny list of one.
    let utf8 = "Zażółć gęślą jaźń".as_bytes();
    assert_eq!(detect(utf8, &Hints::new()).encoding, Encoding::Utf8);
    let no_utf8 = Hints {
        allow_utf8: false,
        ..Hints::new()
    };
    assert_ne!(detect(utf8, &no_utf8).encoding, Encoding::Utf8);
    assert_ne!(
        detect(utf8, &Hints::new().denying(&[Encoding::Utf8])).encoding,
        Encoding::Utf8
    );
}

#[test]
fn confidence_follows_the_evidence() {
    // ASCII only: every ASCII-compatible encoding decodes it alike.
    let guess = detect(b"plain ascii", &Hints::new());
    assert_eq!((guess.ascii_only, guess.confidence), (true, 1.0));
    // Long clean text is near certain; one accented letter much less so.
    let long = encode_exact(&"Привет, мир! Как у вас дела? ".repeat(10), Encoding::Koi8R);
    let sure = detect(&long, &Hints::new());
    assert_eq!(sure.encoding, Encoding::Koi8R);
    assert!(sure.confidence > 0.99, "{sure:?}");
    let short = detect(b"caf\xe9", &Hints::new());
    assert!(short.confidence < sure.confidence, "{short:?}");
    for bytes in [&long[..], b"caf\xe9", "日本語".as_bytes()] {
        let guess = detect(bytes, &Hints::new());
        assert!((0.0..=1.0).contains(&guess.confidence));
        let mut detector = Detector::new();
        detector.feed(bytes, true);
        let ranking = detector.ranking(&Hints::new());
        // The guess's confidence heads the ranking; the candidates that decode the input
        // differently share at most what is left.
        assert_eq!(ranking[0].confidence, guess.confidence);
        let guess_text = textcodec::decode_without_bom(guess.encoding, bytes).0;
        let others: f32 = ranking
            .iter()
            .filter(|c| textcodec::decode_without_bom(c.encoding, bytes).0 != guess_text)
            .filter(|c| c.encoding != Encoding::Gb18030)
            .map(|c| c.confidence)
            .sum();
        assert!(
            others <= 1.0 - guess.confidence + 1e-4,
            "{others} {guess:?}"
        );
        assert!(ranking
            .iter()
            .all(|c| !c.disqualified || c.confidence == 0.0));
    }
}

#[test]
fn language_where_the_model_knows_it() {
    let cases: &[(&str, Encoding, &str)] = &[
        (
            "Привет, мир! Как у вас дела сегодня? Всё хорошо, спасибо. Мы были рады вас видеть \
             вчера вечером, и надеемся, что скоро встретимся снова.",
            Encoding::Windows1251,
            "ru",
        ),
        (
            "Привіт, світе! Як у вас справи сьогодні? Усе добре, дякую.",
            Encoding::Koi8U,
            "uk",
        ),
        (
            "Καλημέρα σας, τι κάνετε σήμερα;",
            Encoding::Windows1253,
            "el",
        ),
        (
            "Günaydın, bugün hava çok güzel değil mi?",
            Encoding::Windows1254,
            "tr",
        ),
        ("日本語のテキストを検出します。", Encoding::ShiftJis, "ja"),
        ("这是一个简体中文的测试句子。", Encoding::Gbk, "zh"),
        ("이것은 한국어 문장입니다.", Encoding::EucKr, "ko"),
        (
            "Zażółć gęślą jaźń, powiedział człowiek, który przyszedł do nas wczoraj wieczorem.",
            Encoding::Windows1250,
            "pl",
        ),
        (
            "Ça coûte très cher, répondit-elle à l'été, mais nous avons déjà payé la facture.",
            Encoding::Windows1252,
            "fr",
        ),
    ];
    for &(text, encoding, code) in cases {
        let guess = detect(&encode_exact(text, encoding), &Hints::new());
        assert_eq!(guess.encoding, encoding, "{text}");
        assert_eq!(
            guess.language.map(|l| l.code()),
            Some(code),
            "{text}: {guess:?}"
        );
    }
    // UTF-8 and ASCII carry no language.
    assert_eq!(detect("Привет".as_bytes(), &Hints::new()).language, None);
    assert_eq!(detect(b"Hello", &Hints::new()).language, None);
    let ru = textcodec::detect::Language::from_code("RU").expect("a known language");
    assert_eq!((ru.code(), ru.name()), ("ru", "Russian"));
}

#[test]
fn text_in_capitals() {
    // Headings and notices in capitals: Greek and Cyrillic encodings put capitals where
    // others have small letters, so a model that found capitals rare read them as those.
    let cases: &[(&str, &[Encoding])] = &[
        (
            "ΚΑΛΗΜΕΡΑ ΣΑΣ, ΤΙ ΚΑΝΕΤΕ ΣΗΜΕΡΑ; ΟΛΑ ΚΑΛΑ, ΕΥΧΑΡΙΣΤΩ ΠΟΛΥ.",
            &[Encoding::Windows1253, Encoding::Iso8859_7],
        ),
        (
            "ПРИВЕТ, МИР! КАК У ВАС ДЕЛА СЕГОДНЯ? ВСЁ ХОРОШО, СПАСИБО.",
            &[Encoding::Windows1251, Encoding::Koi8R, Encoding::Iso8859_5],
        ),
        (
            "ЗАГАЛЬНА ДЕКЛАРАЦІЯ ПРАВ ЛЮДИНИ: УСІ ЛЮДИ НАРОДЖУЮТЬСЯ ВІЛЬНИМИ.",
            &[Encoding::Windows1251, Encoding::Koi8U],
        ),
    ];
    for &(text, encodings) in cases {
        for &encoding in encodings {
            let bytes = encode_exact(text, encoding);
            let guess = detect(&bytes, &Hints::new());
            assert_eq!(
                textcodec::decode(&bytes, guess.encoding).0,
                text,
                "{encoding}: {guess:?}"
            );
        }
    }
}
