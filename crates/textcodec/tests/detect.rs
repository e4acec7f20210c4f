//! The encoding detector (`textcodec::detect`): exactness, chunking, bounds, samples.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use textcodec::detect::{detect, Detector, Hints};
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
const CANDIDATES: usize = 36;

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
    // Disqualified exactly when the library's decoder errors.
    for c in &ranking {
        prop_assert_eq!(
            c.disqualified,
            decoder_errors(c.encoding, bytes),
            "{}",
            c.encoding
        );
    }
    // Disqualified ones last; the guess is never an erroring candidate if another is not.
    let first_dead = ranking
        .iter()
        .position(|c| c.disqualified)
        .unwrap_or(ranking.len());
    prop_assert!(ranking[first_dead..].iter().all(|c| c.disqualified));
    let guess = detector.guess(&hints);
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

/// Several samples (in their encodings) and random bytes end to end: long enough to cross
/// step boundaries, where candidates far behind stop being scored.
fn long_input() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(prop_oneof![3 => encoded_sample(), 1 => texty()], 4..40)
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
        let a: Vec<_> = detector.ranking(&Hints::new()).iter().map(|c| (c.encoding, c.score.to_bits())).collect();
        let b: Vec<_> = one.ranking(&Hints::new()).iter().map(|c| (c.encoding, c.score.to_bits())).collect();
        prop_assert_eq!(a, b);
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
    fn any_split_gives_the_same_guess(bytes in prop_oneof![texty(), encoded_sample()],
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
        let a: Vec<_> = detector.ranking(&hints).iter().map(|c| (c.encoding, c.score.to_bits(), c.disqualified)).collect();
        let mut one = Detector::new();
        one.feed(&bytes, true);
        let b: Vec<_> = one.ranking(&hints).iter().map(|c| (c.encoding, c.score.to_bits(), c.disqualified)).collect();
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
    assert!(report
        .to_string()
        .starts_with("windows-1251 (tentative): detection (score "));
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
