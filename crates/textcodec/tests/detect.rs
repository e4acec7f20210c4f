//! The encoding detector (`textcodec::detect`): exactness, chunking, bounds, samples.

use textcodec::detect::{detect, Hints};
use textcodec::{encode_or_fail, EncodeErrorMode, Encoder, Encoding};

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
