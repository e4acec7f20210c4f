"""detect, and the detection step of sniff/decode_html (detect=True)."""

import pathlib

import pytest

import textcodec

EXAMPLES = pathlib.Path(__file__).resolve().parents[3] / "examples"
JAPANESE, _ = textcodec.decode((EXAMPLES / "shift_jis.txt").read_bytes(), "shift_jis")


@pytest.mark.parametrize("label", ["Shift_JIS", "EUC-JP", "ISO-2022-JP"])
def test_detect_japanese_in_each_encoding(label):
    data = textcodec.encode(JAPANESE, label)
    r = textcodec.detect(data)
    assert r.encoding == label
    assert textcodec.decode(data, r.encoding)[0] == JAPANESE
    # ISO-2022-JP is all ASCII bytes: its escapes decide, and UTF-8 cannot reject it.
    seven_bit = label == "ISO-2022-JP"
    assert r.margin >= 0 and r.ascii_only == seven_bit
    names = [name for name, _, _ in r.ranking]
    assert names[0] == label and len(set(names)) == len(names)
    assert ("UTF-8" in [n for n, _, out in r.ranking if out]) == (not seven_bit)
    first_out = next((i for i, (_, _, out) in enumerate(r.ranking) if out), len(r.ranking))
    # 7-bit bytes rule out only UTF-16 (printable ASCII is never read as UTF-16).
    out_names = {n for n, _, out in r.ranking if out}
    assert (out_names == {"UTF-16LE", "UTF-16BE"}) == seven_bit
    assert all(out for _, _, out in r.ranking[first_out:])
    # Calibrated confidence, the language, the same order of candidates.
    assert r.confidence > 0.9 and r.language == "ja" and r.language_name == "Japanese"
    assert [n for n, _ in r.confidences] == names and r.confidences[0][1] == r.confidence
    # Any bytes-like object, same answer.
    assert textcodec.detect(memoryview(bytearray(data))).encoding == label


def test_detect_hints_and_ascii():
    data = "naïve café, déjà vu".encode()
    assert textcodec.detect(data).encoding == "UTF-8"
    assert textcodec.detect(data, allow_utf8=False).encoding != "UTF-8"
    assert textcodec.detect(b"").ascii_only
    assert textcodec.detect(b"plain").ascii_only
    assert "DetectResult(encoding=" in repr(textcodec.detect(b"x"))
    with pytest.raises(TypeError):
        textcodec.detect("not bytes")


def test_sniff_and_decode_html_detect_opt_in():
    data = (EXAMPLES / "shift_jis.txt").read_bytes()
    r = textcodec.sniff(data)
    assert (r.encoding, r.source, r.detection_margin) == ("windows-1252", "default", None)
    r = textcodec.sniff(data, detect=True, tld="jp")
    assert (r.encoding, r.source, r.confidence) == ("Shift_JIS", "detection", "tentative")
    assert r.detection_margin is not None and r.detection_margin >= 0
    text, name = textcodec.decode_html(data, detect=True)
    assert (text, name) == (JAPANESE, "Shift_JIS")
    # A label still wins.
    assert textcodec.sniff(data, "text/html; charset=euc-kr", detect=True).source == "content-type"


def test_detect_binary_utf16_and_candidate_sets():
    png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10"
    r = textcodec.detect(png)
    assert (r.binary, r.confidence, r.language) == ("PNG", 0.0, None)
    data = "Grüße aus Köln, und viele mehr.".encode("utf-16-le")
    assert textcodec.detect(data).encoding == "UTF-16LE"
    assert textcodec.detect(data, deny=["utf-16le", "utf-16be"]).encoding != "UTF-16LE"
    cyrillic = "Привет, мир! Как у вас дела?".encode("cp1251")
    r = textcodec.detect(cyrillic, allow=["koi8-r", textcodec.lookup("iso-8859-5")])
    assert r.encoding in ("KOI8-R", "ISO-8859-5")
    assert sum(1 for _, _, out in r.ranking if not out) <= 2
    with pytest.raises(LookupError):
        textcodec.detect(cyrillic, deny=["no-such-label"])
    assert textcodec.detect(b"plain").confidence == 1.0
    assert "confidence=" in repr(textcodec.detect(b"x"))
