"""textcodec.chardet against chardet's documented API: `detect`, `detect_all` and
`UniversalDetector` (field names and types, None for empty input, the feed/close/reset
life cycle), and names that Python's codecs decode."""

import codecs

import pytest

import textcodec
from textcodec import chardet

KEYS = {"encoding", "confidence", "language", "mime_type"}

# Text written for these tests, and encodings to write it in (Python codec names).
SAMPLES = [
    ("Ça coûte très cher, répondit-elle à l'été, mais nous avons déjà payé.", ["cp1252"]),
    ("Zażółć gęślą jaźń, powiedział człowiek, który przyszedł wczoraj.", ["cp1250", "iso8859_2"]),
    ("Привет, мир! Как у вас дела сегодня? Всё хорошо, спасибо, до встречи.",
     ["cp1251", "koi8_r", "cp866", "iso8859_5"]),
    ("Καλημέρα σας, τι κάνετε σήμερα; Όλα καλά, ευχαριστώ πολύ.", ["cp1253", "iso8859_7"]),
    ("שלום עולם, מה שלומך היום? הכול בסדר, תודה רבה.", ["cp1255"]),
    ("مرحبا بالعالم، كيف حالك اليوم؟ كل شيء على ما يرام، شكرا جزيلا.", ["cp1256"]),
    ("Günaydın, bugün hava çok güzel değil mi? Evet, çok güzel.", ["cp1254"]),
    ("日本語のテキストを検出します。これはテストです。", ["shift_jis", "euc_jp", "iso2022_jp"]),
    ("这是一个简体中文的测试句子，我们来检测编码。", ["gbk"]),
    ("這是一個繁體中文的測試句子，我們來檢測編碼。", ["big5"]),
    ("이것은 한국어 문장입니다. 인코딩을 감지합니다.", ["euc_kr"]),
    ("Grüße aus Köln – und schöne Grüße an alle.", ["utf-8", "utf-16-le", "utf-16-be"]),
]


def check_shape(result):
    assert set(result) == KEYS
    assert result["encoding"] is None or isinstance(result["encoding"], str)
    assert isinstance(result["confidence"], float)
    assert 0.0 <= result["confidence"] <= 1.0
    assert result["language"] is None or isinstance(result["language"], str)


@pytest.mark.parametrize("text,codec", [(t, c) for t, cs in SAMPLES for c in cs])
def test_detect_names_a_codec_that_decodes_the_text(text, codec):
    data = text.encode(codec)
    result = chardet.detect(data)
    check_shape(result)
    name = result["encoding"]
    codecs.lookup(name)  # a name Python knows
    assert data.decode(name) == text, result
    assert result["confidence"] > 0.5, result
    # bytearray too, same answer.
    assert chardet.detect(bytearray(data)) == result


def test_empty_ascii_and_bom():
    assert chardet.detect(b"") == {"encoding": None, "confidence": 0.0, "language": None,
                                   "mime_type": None}
    ascii_ = chardet.detect(b"Just plain ASCII text.\n")
    check_shape(ascii_)
    assert (ascii_["encoding"], ascii_["confidence"]) == ("ascii", 1.0)
    assert chardet.detect("añb".encode("utf-8"))["encoding"] == "utf-8"
    for data, name in [
        (b"\xef\xbb\xbfhello", "UTF-8-SIG"),
        ("hello".encode("utf-16"), "UTF-16"),
        (b"\xfe\xff\x00h", "UTF-16"),
        ("hello".encode("utf-32"), "UTF-32"),
    ]:
        result = chardet.detect(data)
        assert (result["encoding"], result["confidence"]) == (name, 1.0), data
        assert data.decode(name) == "hello" or name != "UTF-8-SIG"


def test_detect_rejects_non_bytes():
    with pytest.raises(TypeError):
        chardet.detect("a str, not bytes")
    with pytest.raises(TypeError):
        chardet.UniversalDetector().feed("a str")


def test_language_codes():
    data = "Привет, мир! Как у вас дела сегодня? Всё хорошо, спасибо. Мы были рады вас " \
        "видеть вчера вечером, и надеемся, что скоро встретимся снова.".encode("cp1251")
    assert chardet.detect(data)["language"] == "ru"
    assert chardet.detect("日本語のテキストです。".encode("euc_jp"))["language"] == "ja"
    assert chardet.detect("naïve".encode("utf-8"))["language"] is None


def test_binary_is_not_text():
    png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0"
    result = chardet.detect(png)
    check_shape(result)
    assert (result["encoding"], result["mime_type"]) == (None, "image/png")
    noise = bytes((i * 7919 + 13) % 256 for i in range(4096))
    assert chardet.detect(noise)["encoding"] is None


def test_detect_all():
    data = "Привет, мир! Как у вас дела?".encode("cp1251")
    results = chardet.detect_all(data)
    assert isinstance(results, list) and results
    for r in results:
        check_shape(r)
    assert results[0] == chardet.detect(data)
    confidences = [r["confidence"] for r in results]
    assert confidences == sorted(confidences, reverse=True)
    names = [r["encoding"] for r in results]
    assert len(set(names)) == len(names)
    assert all(c > chardet.MINIMUM_THRESHOLD for c in confidences) or len(results) == len(
        chardet.detect_all(data, ignore_threshold=True))
    everything = chardet.detect_all(data, ignore_threshold=True)
    assert len(everything) >= len(results)
    assert {r["encoding"] for r in results} <= {r["encoding"] for r in everything}
    assert chardet.detect_all(b"") == [chardet.detect(b"")]
    assert chardet.detect_all(b"ascii") == [chardet.detect(b"ascii")]


def test_include_and_exclude_encodings():
    data = "Привет, мир! Как у вас дела сегодня?".encode("cp1251")
    assert chardet.detect(data)["encoding"] == "Windows-1251"
    assert chardet.detect(data, exclude_encodings=["windows-1251"])["encoding"] != "Windows-1251"
    only = chardet.detect(data, include_encodings=["koi8-r", "iso-8859-5"])
    assert only["encoding"] in ("KOI8-R", "ISO-8859-5")
    sjis = "日本語のテキストです。".encode("cp932")
    assert chardet.detect(sjis, include_encodings=["cp932", "euc-jp"])["encoding"] == "CP932"
    with pytest.raises(ValueError):
        chardet.detect(data, include_encodings=["no-such-encoding"])


def test_universal_detector_life_cycle():
    text = "Ça coûte très cher, répondit-elle à l'été, mais nous avons déjà payé. " * 3
    data = text.encode("cp1252")
    u = chardet.UniversalDetector()
    assert u.done is False
    assert u.result == {"encoding": None, "confidence": 0.0, "language": None,
                        "mime_type": None}
    for i in range(0, len(data), 7):
        u.feed(data[i:i + 7])
    assert u.result["encoding"] is None  # nothing until close
    result = u.close()
    assert u.done is True and u.result == result
    assert result == chardet.detect(data)
    assert u.close() == result  # a second close changes nothing
    with pytest.raises(ValueError):
        u.feed(b"more")
    u.reset()
    assert u.done is False and u.result["encoding"] is None
    u.feed("日本語のテキストです。".encode("shift_jis"))
    assert u.close()["encoding"] == "CP932"
    # Closed without input: as detect(b"").
    u.reset()
    assert u.close() == chardet.detect(b"")
    # A byte order mark decides at once.
    u.reset()
    u.feed(b"\xef\xbb\xbf")
    assert u.done
    u.feed(b"rest")
    assert u.close()["encoding"] == "UTF-8-SIG"


def test_universal_detector_stops_early_with_bounded_memory():
    chunk = ("Привет, мир! Как у вас дела сегодня? " * 200).encode("cp1251")
    u = chardet.UniversalDetector()
    fed = 0
    while not u.done and fed < 64 * len(chunk):
        u.feed(chunk)
        fed += len(chunk)
    assert u.done, "the detector saw enough"
    assert fed < 64 * len(chunk)
    assert u.close()["encoding"] == "Windows-1251"


def test_streaming_detector_matches_one_shot():
    data = "Zażółć gęślą jaźń, powiedział człowiek.".encode("cp1250")
    d = textcodec.Detector()
    for b in data:
        d.feed(bytes([b]))
    d.feed(b"", True)
    assert d.done and d.bytes_examined == len(data)
    one, streamed = textcodec.detect(data), d.guess()
    assert (streamed.encoding, streamed.confidence, streamed.ranking) == (
        one.encoding, one.confidence, one.ranking)
