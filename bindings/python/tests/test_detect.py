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
    assert (first_out == len(r.ranking)) == seven_bit
    assert all(out for _, _, out in r.ranking[first_out:])
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
