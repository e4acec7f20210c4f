"""Property tests (hypothesis) over every encoding: every Python entry point agrees with the
Rust core's decoder (``_native._core_decode``: replacement mode, BOM sniffing, no CPython
fast path), whatever the bytes and however they are split."""

import codecs

import pytest
from hypothesis import given, strategies as st

import textcodec
from textcodec import _native

ALL = textcodec.encodings()
NAMES = [e.name for e in ALL]

# Random bytes, biased towards the bytes that matter to the legacy decoders: ASCII, lead
# and trail ranges, escapes, BOM bytes.
interesting = st.sampled_from(
    [0x00, 0x0E, 0x1B, 0x24, 0x28, 0x30, 0x39, 0x40, 0x42, 0x4A, 0x5C, 0x7E, 0x7F, 0x80,
     0x81, 0x8E, 0x8F, 0xA0, 0xA1, 0xC0, 0xD8, 0xDC, 0xDF, 0xE0, 0xEF, 0xBB, 0xBF, 0xF0,
     0xFC, 0xFE, 0xFF]
)
byte_strings = st.lists(st.one_of(st.integers(0, 255), interesting), max_size=80).map(bytes)


def split(data, cuts):
    points = sorted({c % (len(data) + 1) for c in cuts})
    pieces, last = [], 0
    for p in points:
        pieces.append(data[last:p])
        last = p
    pieces.append(data[last:])
    return pieces


@pytest.mark.parametrize("label", NAMES)
@given(data=byte_strings, cuts=st.lists(st.integers(0, 200), max_size=6))
def test_every_path_agrees_with_the_core(label, data, cuts):
    expected, used = _native._core_decode(data, label)
    # One-shot (with the CPython fast paths for valid UTF-8/UTF-16).
    assert textcodec.decode(data, label) == (expected, used)
    # Chunked, split anywhere.
    d = textcodec.Decoder(label)
    pieces = split(data, cuts)
    out = "".join(d.decode(p) for p in pieces[:-1]) + d.decode(pieces[-1], final=True)
    assert out == expected
    assert d.encoding == used
    # Byte by byte, through Python's codecs machinery.
    inc = codecs.getincrementaldecoder("whatwg-" + label)("replace")
    out = "".join(inc.decode(data[i : i + 1]) for i in range(len(data))) + inc.decode(b"", True)
    assert out == expected
    assert data.decode("whatwg-" + label, "replace") == expected


@pytest.mark.parametrize("label", NAMES)
@given(data=byte_strings, cuts=st.lists(st.integers(0, 200), max_size=4))
def test_strict_and_handlers_are_consistent(label, data, cuts):
    expected, _ = _native._core_decode(data, label)
    try:
        strict = textcodec.decode(data, label, errors="strict")[0]
    except UnicodeDecodeError as e:
        assert 0 <= e.start <= e.end <= len(e.object)
        assert e.object == data
        # Everything before the error decodes the same as in replacement mode.
        assert "\ufffd" in expected
    else:
        assert strict == expected
    # A handler that writes U+FFFD gives replacement mode's output, chunked or not.
    replaced = textcodec.decode(data, label, errors="textcodec-test-fffd")[0]
    assert replaced == expected
    d = textcodec.Decoder(label, errors="textcodec-test-fffd")
    pieces = split(data, cuts)
    out = "".join(d.decode(p) for p in pieces[:-1]) + d.decode(pieces[-1], final=True)
    assert out == expected


codecs.register_error("textcodec-test-fffd", lambda e: ("\ufffd", e.end))


@pytest.mark.parametrize("label", ["UTF-8", "UTF-16LE", "UTF-16BE", "gb18030"])
@given(text=st.text(max_size=60))
def test_unicode_encodings_round_trip(label, text):
    text = text.replace("\ue5e5", "")  # the one code point gb18030's encoder refuses
    data = textcodec.encode(text, label, output_encoding=False)
    assert textcodec.decode(data, label, bom="keep", errors="strict")[0] == text


@pytest.mark.parametrize("label", [n for n in NAMES if textcodec.lookup(n).has_encoder])
@given(text=st.text(max_size=40), cuts=st.lists(st.integers(0, 60), max_size=4))
def test_encoders(label, text, cuts):
    try:
        whole = textcodec.encode(text, label, errors="strict")
    except UnicodeEncodeError as e:
        # The reported character is unencodable; everything before it encodes.
        with pytest.raises(UnicodeEncodeError):
            textcodec.encode(text[e.start : e.end], label)
        textcodec.encode(text[: e.start], label)
        whole = None
    html = textcodec.encode(text, label, errors="html")
    if whole is not None:
        assert html == whole
    # Incremental encoding, split anywhere, gives the same bytes.
    enc = textcodec.Encoder(label, errors="html")
    points = sorted({c % (len(text) + 1) for c in cuts})
    parts, last = [], 0
    for p in points:
        parts.append(enc.encode(text[last:p]))
        last = p
    parts.append(enc.encode(text[last:], final=True))
    assert b"".join(parts) == html
    # What the encoder writes decodes back to the text (html mode: &#N; for the rest).
    if whole is not None and "\ufffd" not in text and not any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        decoded = textcodec.decode(whole, label, bom="keep")[0]
        if label not in ("ISO-2022-JP", "Shift_JIS", "EUC-JP", "Big5"):
            assert decoded == text
