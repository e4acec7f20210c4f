"""sniff and decode_html."""

import pytest

import textcodec


def test_sniff_report_fields():
    r = textcodec.sniff(b"<!doctype html><meta charset=shift_jis><p>")
    assert (r.encoding, r.source, r.confidence, r.offset, r.meta) == (
        "Shift_JIS",
        "meta",
        "tentative",
        15,
        "meta charset",
    )
    assert str(r) == "Shift_JIS (tentative): <meta charset> at byte 15"
    assert r.kind == "html" and r.bom_length == 0


def test_sniff_order_bom_header_meta_default():
    page = b"<meta charset=utf-8>"
    assert textcodec.sniff(b"\xef\xbb\xbf" + page, "text/html; charset=koi8-r").source == "bom"
    r = textcodec.sniff(page, "text/html; charset=koi8-r")
    assert (r.encoding, r.source, r.confidence) == ("KOI8-R", "content-type", "certain")
    assert textcodec.sniff(page, b"text/html").encoding == "UTF-8"
    r = textcodec.sniff(b"<p>plain")
    assert (r.encoding, r.source) == ("windows-1252", "default")
    r = textcodec.sniff(b"<p>plain", locale="ja-JP")
    assert (r.encoding, r.source) == ("Shift_JIS", "locale-default")
    r = textcodec.sniff(b"<p>plain", fallback="euc-kr")
    assert (r.encoding, r.source) == ("EUC-KR", "fallback")
    r = textcodec.sniff(page, user_override="gbk")
    assert (r.encoding, r.source) == ("GBK", "user-override")


def test_sniff_kinds():
    assert textcodec.sniff(b'@charset "iso-8859-5";', kind="css").encoding == "ISO-8859-5"
    assert textcodec.sniff(b"<?xml version='1.0' encoding='euc-jp'?>", kind="xml").encoding == "EUC-JP"
    assert textcodec.sniff(b"{}", "application/json; charset=latin1", kind="auto").encoding == "UTF-8"
    assert textcodec.sniff(b"x", "text/css", kind="auto").kind == "css"
    with pytest.raises(ValueError):
        textcodec.sniff(b"", kind="pdf")


def test_sniff_reads_only_1024_bytes():
    late = b" " * 1024 + b"<meta charset=koi8-r>"
    assert textcodec.sniff(late).encoding == "windows-1252"


def test_decode_html():
    page = b"<meta http-equiv=content-type content='text/html;charset=koi8-r'>\xf0\xd2\xc9\xd7\xc5\xd4"
    text, encoding = textcodec.decode_html(page)
    assert text.endswith(">Привет") and encoding == "KOI8-R"
    assert textcodec.decode_html(b"\x93\xfa", "text/html; charset=sjis") == ("日", "Shift_JIS")
    assert textcodec.decode_html(b"\xff\xfeh\x00i\x00") == ("hi", "UTF-16LE")
    assert textcodec.decode_html(b"\x80") == ("€", "windows-1252")
    with pytest.raises(LookupError):
        textcodec.decode_html(b"", fallback="nope")
