"""Python codecs registration under ``whatwg-``."""

import codecs
import io

import pytest

import textcodec
from textcodec import _codecs


def test_every_label_is_a_codec():
    for encoding in textcodec.encodings():
        for label in encoding.labels:
            info = codecs.lookup("whatwg-" + label)
            assert info.name == encoding.codec_name, label


def test_labels_do_not_collide_after_python_normalization():
    # codecs.lookup folds "-", "_", ":" and spaces: the table would have raised otherwise.
    assert len(_codecs._LABELS) <= 228
    assert _codecs._normalize("iso_8859-1:1987") == "iso_8859_1_1987"


def test_not_our_codecs():
    with pytest.raises(LookupError):
        codecs.lookup("whatwg-nope")
    assert codecs.lookup("utf-8").name == "utf-8"


def test_issue_examples():
    assert b"\x82\xa0".decode("whatwg-shift_jis") == "あ"
    assert "é".encode("whatwg-latin1") == b"\xe9"
    dec = codecs.getincrementaldecoder("whatwg-gbk")()
    assert dec.decode(b"\x81") == ""
    assert dec.decode(b"\x30\x81\x30", final=True) == "\x80"
    # Where Python's own codecs differ from browsers:
    assert b"\x81".decode("whatwg-cp1252") == "\x81"
    with pytest.raises(UnicodeDecodeError):
        b"\x81".decode("cp1252")


def test_strict_is_the_codecs_default():
    with pytest.raises(UnicodeDecodeError) as info:
        b"ab\xff".decode("whatwg-utf-8")
    assert (info.value.start, info.value.end) == (2, 3)
    with pytest.raises(UnicodeEncodeError) as info:
        "a☃".encode("whatwg-latin1")
    assert (info.value.start, info.value.end) == (1, 2)


@pytest.mark.parametrize(
    "errors, decoded",
    [
        ("replace", "a\ufffd\"b"),
        ("ignore", 'a"b'),
        ("backslashreplace", 'a\\x82"b'),
        ("surrogateescape", 'a\udc82"b'),
    ],
)
def test_decode_error_handlers(errors, decoded):
    assert b'a\x82"b'.decode("whatwg-sjis", errors) == decoded
    dec = codecs.getincrementaldecoder("whatwg-sjis")(errors)
    assert "".join(dec.decode(bytes([b])) for b in b'a\x82"b') + dec.decode(b"", True) == decoded


@pytest.mark.parametrize(
    "errors, encoded",
    [
        ("replace", b"a?b"),
        ("ignore", b"ab"),
        ("xmlcharrefreplace", b"a&#9731;b"),
        ("backslashreplace", b"a\\u2603b"),
        ("namereplace", b"a\\N{SNOWMAN}b"),
    ],
)
def test_encode_error_handlers(errors, encoded):
    assert "a☃b".encode("whatwg-euc-kr", errors) == encoded
    enc = codecs.getincrementalencoder("whatwg-euc-kr")(errors)
    assert enc.encode("a☃") + enc.encode("b", True) == encoded


def test_surrogateescape_round_trip():
    data = b"caf\xe9 \x81\x8d"  # windows-1252 has no mapping for 0x81? It does (U+0081).
    text = data.decode("whatwg-shift_jis", "surrogateescape")
    assert text.encode("whatwg-shift_jis", "surrogateescape") == data


def test_utf16_codecs_round_trip():
    text = "héllo 😀"
    for label in ["utf-16le", "utf-16be", "utf-16"]:
        assert text.encode("whatwg-" + label).decode("whatwg-" + label) == text
    assert text.encode("whatwg-utf-16le") == text.encode("utf-16-le")


def test_open_reads_and_writes(tmp_path):
    path = tmp_path / "k.txt"
    text = "한국어 텍스트\n둘째 줄 ☃ 없음\n" * 500
    with open(path, "w", encoding="whatwg-euc-kr", errors="xmlcharrefreplace") as f:
        f.write(text)
    expected = text.replace("☃", "&#9731;")
    assert path.read_bytes() == textcodec.encode(expected, "euc-kr")
    with open(path, encoding="whatwg-euc-kr") as f:
        assert f.read() == expected
    with open(path, encoding="whatwg-euc-kr") as f:
        lines = f.readlines()
    assert "".join(lines) == expected


def test_iso_2022_jp_incremental_encoder_keeps_state():
    enc = codecs.getincrementalencoder("whatwg-iso-2022-jp")()
    out = enc.encode("日") + enc.encode("本") + enc.encode("a", final=True)
    assert out == b"\x1b$BF|K\\\x1b(Ba"
    stream = io.BytesIO()
    writer = codecs.getwriter("whatwg-iso-2022-jp")(stream)
    writer.write("日本")
    writer.reset()
    assert stream.getvalue() == b"\x1b$BF|K\\\x1b(B"


def test_stream_reader():
    stream = io.BytesIO("日本語".encode("shift_jis"))
    reader = codecs.getreader("whatwg-sjis")(stream)
    assert reader.read() == "日本語"


def test_bom_wins_in_codecs():
    assert b"\xef\xbb\xbfx".decode("whatwg-windows-1252") == "x"
    assert b"\xff\xfex\x00".decode("whatwg-utf-8") == "x"
