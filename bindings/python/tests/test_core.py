"""decode / encode / lookup / encodings / Decoder / Encoder / TextDecoder / TextEncoder."""

import array
import gc
import resource
import sys
import threading

import pytest

import textcodec

ALL = textcodec.encodings()
NAMES = [e.name for e in ALL]


# --- lookup and encodings -----------------------------------------------------------


def test_encodings_lists_all_40_and_228_labels():
    assert len(ALL) == 40
    assert sum(len(e.labels) for e in ALL) == 228
    assert NAMES[0] == "UTF-8"
    assert len(set(ALL)) == 40


def test_lookup_is_case_insensitive_and_strips_whitespace():
    assert textcodec.lookup("  SJIS\t").name == "Shift_JIS"
    assert textcodec.lookup(b"latin1").name == "windows-1252"
    enc = textcodec.lookup("gbk")
    assert textcodec.lookup(enc) == enc
    assert enc.codec_name == "whatwg-gbk"
    assert hash(enc) == hash(textcodec.lookup("x-gbk"))
    assert repr(enc) == "<Encoding GBK>"


def test_lookup_unknown_label_names_it():
    with pytest.raises(LookupError, match="'utf-7'"):
        textcodec.lookup("utf-7")
    with pytest.raises(LookupError, match="bogus"):
        textcodec.decode(b"", "bogus")
    with pytest.raises(LookupError, match="bogus"):
        textcodec.encode("", "bogus")
    with pytest.raises(TypeError):
        textcodec.lookup(5)


def test_encoding_properties():
    u16 = textcodec.lookup("utf-16le")
    assert u16.is_utf16 and not u16.is_ascii_compatible and not u16.has_encoder
    assert u16.output_encoding.name == "UTF-8"
    assert textcodec.lookup("koi8-r").is_single_byte
    assert textcodec.lookup("replacement").output_encoding.name == "UTF-8"
    import pickle

    assert pickle.loads(pickle.dumps(u16)) == u16


# --- decode -------------------------------------------------------------------------


def test_decode_returns_text_and_encoding_used():
    assert textcodec.decode(b"\x93\xfa\x96\x7b", "sjis") == ("日本", "Shift_JIS")
    assert textcodec.decode(b"caf\xc3\xa9") == ("café", "UTF-8")
    # A BOM wins over the label (the *decode* hook) ...
    assert textcodec.decode(b"\xfe\xff\x00A", "windows-1252") == ("A", "UTF-16BE")
    assert textcodec.decode(b"\xef\xbb\xbfx", "sjis") == ("x", "UTF-8")
    # ... unless bom="keep"; bom="remove" removes only the label's own BOM.
    assert textcodec.decode(b"\xef\xbb\xbfx", bom="keep") == ("\ufeffx", "UTF-8")
    assert textcodec.decode(b"\xef\xbb\xbfx", bom="remove") == ("x", "UTF-8")
    assert textcodec.decode(b"\xff\xfex\x00", "utf-8", bom="remove") == ("\ufffd\ufffdx\x00", "UTF-8")
    with pytest.raises(ValueError):
        textcodec.decode(b"", bom="maybe")


@pytest.mark.parametrize(
    "data, label, text",
    [
        # Python's codecs differ from the Standard on each of these.
        (b"\x80\x81\x9f", "windows-1252", "€\x81Ÿ"),
        (b"\x87\x40", "shift_jis", "①"),  # NEC row 13, missing in Python's shift_jis
        (b"\x81\x30\x81\x30", "gb2312", "\x80"),  # gb2312 is GBK, with gb18030's decoder
        (b"\x80", "gbk", "€"),
        (b"\x82\x22", "shift_jis", '\ufffd"'),  # the ASCII byte is restored
        (b"\xf0\x9f\x98", "utf-8", "\ufffd"),  # one U+FFFD for a truncated sequence
        (b"\xed\xa0\x80", "utf-8", "\ufffd" * 3),
        (b"\x1b$BF|K\\\x1b(B", "iso-2022-jp", "日本"),
        # Spec example (#example-iso-2022-jp-encoder-oddity): ¥ encoded twice, decoded.
        (b"\x1b(J\x5c\x1b(B" * 2, "iso-2022-jp", "¥\ufffd¥"),
        (b"\xc7\xd1\xb1\xdb", "euc-kr", "한글"),
        (b"\x88\x62\x88\x64", "big5", "\u00ca\u0304\u00ca\u030c"),
        (b"anything", "replacement", "\ufffd"),
        (b"", "replacement", ""),
        (b"\xff", "x-user-defined", "\uf7ff"),
    ],
)
def test_decode_spec_examples(data, label, text):
    assert textcodec.decode(data, label)[0] == text


def test_decode_accepts_any_buffer_without_copy():
    data = "日本語".encode("utf-8") * 3
    expected = "日本語" * 3
    assert textcodec.decode(bytearray(data))[0] == expected
    assert textcodec.decode(memoryview(data)[3:])[0] == expected[1:]
    assert textcodec.decode(array.array("B", data))[0] == expected
    np = pytest.importorskip("numpy")
    assert textcodec.decode(np.frombuffer(data, dtype=np.uint8))[0] == expected
    pa = pytest.importorskip("pyarrow")
    assert textcodec.decode(pa.py_buffer(data))[0] == expected


def test_decode_rejects_non_bytes_with_type_error():
    for bad in ["text", 5, None, [1, 2], object()]:
        with pytest.raises(TypeError, match="bytes-like"):
            textcodec.decode(bad)
    with pytest.raises(TypeError):
        textcodec.decode_html("text")
    with pytest.raises(TypeError):
        textcodec.Decoder().decode("text")


def test_decode_non_contiguous_buffer_is_an_error():
    m = memoryview(b"abcdef")[::2]
    with pytest.raises((BufferError, TypeError, ValueError)):
        textcodec.decode(m)


@pytest.mark.parametrize(
    "data, label, start, end",
    [
        (b"ab\xffcd", "utf-8", 2, 3),
        (b"ab\xe3\x81", "utf-8", 2, 4),
        (b"\xef\xbb\xbfab\xff", "utf-8", 5, 6),  # offsets count the BOM
        (b"ab\x82\x22", "shift_jis", 2, 3),
        (b"a\x00\x00\xd8b\x00", "utf-16le", 2, 4),
        (b"\x81\x30\x81", "gb18030", 0, 3),
    ],
)
def test_strict_decode_error_offsets(data, label, start, end):
    with pytest.raises(UnicodeDecodeError) as info:
        textcodec.decode(data, label, errors="strict")
    e = info.value
    assert (e.start, e.end) == (start, end)
    assert e.object == data
    assert e.encoding == textcodec.lookup(label).name


def test_strict_error_names_the_encoding_a_bom_chose():
    d = textcodec.Decoder("windows-1252", errors="strict")
    with pytest.raises(UnicodeDecodeError) as info:
        d.decode(b"\xff\xfea\x00\x00\xd8", True)
    assert info.value.encoding == "UTF-16LE"
    assert (info.value.start, info.value.end) == (4, 6)


def test_decode_error_handlers():
    data = b"ab\x82\x22\xff"
    assert textcodec.decode(data, "sjis", errors="ignore")[0] == 'ab"'
    assert textcodec.decode(data, "sjis", errors="replace")[0] == 'ab\ufffd"\ufffd'
    assert textcodec.decode(data, "sjis", errors="surrogateescape")[0] == 'ab\udc82"\udcff'
    assert textcodec.decode(data, "sjis", errors="backslashreplace")[0] == 'ab\\x82"\\xff'
    with pytest.raises(LookupError):
        textcodec.decode(data, "sjis", errors="no-such-handler")
    # An unknown handler is only looked up when needed, as in Python.
    assert textcodec.decode(b"ok", "sjis", errors="no-such-handler")[0] == "ok"


def test_custom_handler_may_resume_elsewhere_in_one_shot_decoding():
    import codecs

    def skip_two(e):
        return ("<%d>" % e.start, e.end + 1)

    codecs.register_error("textcodec-test-skip", skip_two)
    assert textcodec.decode(b"a\xffbc", errors="textcodec-test-skip")[0] == "a<1>c"


def test_large_inputs_release_the_gil_and_decode_correctly():
    text = ("日本語のテキスト, ASCII and more. " * 20000)
    for label in ["shift_jis", "euc-jp", "gb18030", "utf-8", "utf-16le"]:
        data = textcodec.encode(text, label, output_encoding=False)
        assert len(data) > 64 * 1024
        results = {}

        def work(i):
            results[i] = textcodec.decode(data, label)[0]

        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert all(r == text for r in results.values()), label
        # Writable buffers are decoded in place with the GIL held: same result.
        assert textcodec.decode(bytearray(data), label)[0] == text


@pytest.mark.parametrize(
    "text",
    [
        # Mostly units >= U+8000 (Hangul): built through UTF-32 (pyext::utf16_str).
        "한국어 텍스트입니다. " * 3000,
        # ... with supplementary characters (surrogate pairs in the decoder's UTF-16).
        "한국어😀텍스트𠀀입니다 " * 3000,
        # The first 4096 units (the sample the choice looks at) ASCII, the rest Hangul.
        "a" * 4096 + "한국어 텍스트" * 3000,
        # The first 4096 units Hangul, the rest ASCII and Latin-1.
        "한" * 4096 + "ASCII é " * 3000,
        # Longer than the per-thread scratch buffer kept (2**20 units).
        "한국어 텍스트입니다 " * 120000,
        # Short inputs on both sides of the threshold (3 in 10 units >= U+8000).
        "한국어abcdefg",
        "한국abcdefgh",
        "한",
        "",
    ],
)
def test_decode_builds_the_str_of_any_mix_of_units(text):
    for label in ["gb18030", "utf-16le"] + (["euc-kr"] if "😀" not in text and "é" not in text else []):
        data = textcodec.encode(text, label, output_encoding=False)
        assert textcodec.decode(data, label)[0] == text, label
        d = textcodec.Decoder(label)
        half = len(data) // 2
        assert d.decode(data[:half]) + d.decode(data[half:], final=True) == text, label


def test_hostile_input_does_not_leak():
    def rss():
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    junk = bytes(range(256)) * 64
    for _ in range(200):  # warm up allocators
        textcodec.decode(junk, "shift_jis", errors="surrogateescape")
    before = rss()
    for i in range(3000):
        label = NAMES[i % 40]
        textcodec.decode(junk, label)
        textcodec.decode(junk, label, errors="backslashreplace")
        # surrogateescape escapes only bytes >= 0x80 (it re-raises for the others).
        textcodec.decode(junk[128:256], label, errors="surrogateescape")
        try:
            textcodec.decode(junk, label, errors="strict")
        except UnicodeDecodeError:
            pass
        d = textcodec.Decoder(label, errors="backslashreplace")
        d.decode(junk[:100])
        d.decode(junk[100:], True)
    gc.collect()
    assert rss() - before < 32 * 1024  # KiB


# --- encode -------------------------------------------------------------------------


def test_encode_basics():
    assert textcodec.encode("日本", "shift_jis") == b"\x93\xfa\x96\x7b"
    assert textcodec.encode("é", "latin1") == b"\xe9"
    assert textcodec.encode("€", "gbk") == b"\x80"
    assert textcodec.encode("a☃b", "windows-1252", errors="html") == b"a&#9731;b"
    assert textcodec.encode("a☃b", "windows-1252", errors="xmlcharrefreplace") == b"a&#9731;b"
    assert textcodec.encode("a☃b", "windows-1252", errors="replace") == b"a?b"
    assert textcodec.encode("a☃b", "windows-1252", errors="ignore") == b"ab"
    assert textcodec.encode("a☃", "windows-1252", errors="backslashreplace") == b"a\\u2603"
    assert textcodec.encode("a☃", "windows-1252", errors="namereplace") == b"a\\N{SNOWMAN}"


def test_encode_output_encoding():
    # *get an output encoding*: UTF-16 labels and replacement encode as UTF-8 ...
    assert textcodec.encode("é", "utf-16le") == "é".encode("utf-8")
    assert textcodec.encode("é", "replacement") == "é".encode("utf-8")
    # ... unless the UTF-16 encoders are asked for.
    assert textcodec.encode("é", "utf-16le", output_encoding=False) == b"\xe9\x00"
    assert textcodec.encode("😀", "utf-16be", output_encoding=False) == b"\xd8\x3d\xde\x00"


def test_strict_encode_error_positions():
    text = "aあ日☃b☃"
    with pytest.raises(UnicodeEncodeError) as info:
        textcodec.encode(text, "shift_jis")
    e = info.value
    assert (e.start, e.end, e.object, e.encoding) == (3, 4, text, "Shift_JIS")
    with pytest.raises(UnicodeEncodeError) as info:
        textcodec.encode("aé", "shift_jis")
    assert (info.value.start, info.value.end) == (1, 2)
    with pytest.raises(UnicodeEncodeError) as info:
        textcodec.encode("日本\ud800x", "euc-jp")
    assert (info.value.start, info.value.end) == (2, 3)


def test_encode_lone_surrogates():
    assert textcodec.encode("a\ud800b", "utf-8", errors="replace") == b"a\xef\xbf\xbdb"
    assert textcodec.encode("a\ud800b", "windows-1252", errors="html") == b"a&#65533;b"
    assert textcodec.encode("a\udc82b", "shift_jis", errors="surrogateescape") == b"a\x82b"
    with pytest.raises(UnicodeEncodeError):
        textcodec.encode("a\ud800", "utf-8")


def test_encode_rejects_non_str():
    with pytest.raises(TypeError):
        textcodec.encode(b"bytes", "utf-8")
    with pytest.raises(TypeError):
        textcodec.Encoder("utf-8").encode(b"x")


# --- Decoder / Encoder --------------------------------------------------------------


def test_decoder_chunks_split_anywhere():
    data = "日本語テキスト😀".encode("gb18030")
    for split in range(len(data) + 1):
        d = textcodec.Decoder("gb18030")
        assert d.decode(data[:split]) + d.decode(data[split:], final=True) == "日本語テキスト😀"


def test_decoder_pending_and_final():
    d = textcodec.Decoder("utf-8")
    assert d.decode(b"a\xe6\x97") == "a"
    assert d.pending == b"\xe6\x97"
    g = textcodec.Decoder("gb18030")
    assert g.decode(b"x\x81\x30\x81") == "x"
    assert g.pending == b"\x81\x30\x81"
    assert g.decode(b"\x30") == "\x80" and g.pending == b""
    assert d.decode(b"", True) == "\ufffd"
    assert d.pending == b""
    d = textcodec.Decoder("utf-8", errors="strict")
    d.decode(b"\xe6")
    with pytest.raises(UnicodeDecodeError) as info:
        d.decode(b"a")
    # The sequence started in an earlier chunk: the exception holds its bytes.
    assert info.value.object == b"\xe6" and (info.value.start, info.value.end) == (0, 1)


def test_decoder_bom_switches_encoding():
    d = textcodec.Decoder("windows-1252")
    assert d.decode(b"\xff") == ""
    assert d.pending == b"\xff"
    assert d.decode(b"\xfeh\x00", True) == "h"
    # The encoding the stream used, after the decoder reset itself.
    assert d.encoding == "UTF-16LE"
    assert d.decode(b"h", True) == "h" and d.encoding == "windows-1252"


def test_encoder_iso_2022_jp_state():
    e = textcodec.Encoder("iso-2022-jp")
    assert e.encode("日本") == b"\x1b$BF|K\\"
    assert e.encode("a", final=True) == b"\x1b(Ba"
    assert e.encode("x", final=True) == b"x"


# --- TextDecoder / TextEncoder -------------------------------------------------------


def test_text_decoder():
    td = textcodec.TextDecoder()
    assert td.encoding == "utf-8" and not td.fatal and not td.ignore_bom
    assert textcodec.TextDecoder("SJIS").encoding == "shift_jis"
    assert td.decode(b"\xef\xbb\xbfa") == "a"
    assert textcodec.TextDecoder(ignore_bom=True).decode(b"\xef\xbb\xbfa") == "\ufeffa"
    # A UTF-16 BOM does not switch a UTF-8 TextDecoder.
    assert td.decode(b"\xff\xfe") == "\ufffd\ufffd"
    assert td.decode(b"\xe2\x98", stream=True) == ""
    assert td.decode(b"\x83", stream=True) == "☃"
    assert td.decode() == ""
    with pytest.raises(LookupError):
        textcodec.TextDecoder("replacement")
    with pytest.raises(LookupError):
        textcodec.TextDecoder("nope")


def test_text_decoder_fatal():
    td = textcodec.TextDecoder("utf-8", fatal=True)
    with pytest.raises(UnicodeDecodeError):
        td.decode(b"a\xffb")
    assert td.decode(b"ok") == "ok"
    assert td.decode(b"\xe2", stream=True) == ""
    with pytest.raises(UnicodeDecodeError):
        td.decode()
    assert td.decode(b"\xe2\x98\x83") == "☃"


def test_text_encoder_and_encode_into():
    te = textcodec.TextEncoder()
    assert te.encoding == "utf-8"
    assert te.encode() == b""
    assert te.encode("a\ud800") == b"a\xef\xbf\xbd"
    # Spec example (#example-textencoder-encodeinto): whole characters only.
    buf = bytearray(4)
    assert te.encode_into("a☃b", buf) == (2, 4)
    assert bytes(buf) == b"a\xe2\x98\x83"
    buf = bytearray(3)
    assert te.encode_into("a😀", buf) == (1, 1)
    np = pytest.importorskip("numpy")
    arr = np.zeros(8, dtype=np.uint8)
    assert te.encode_into("héllo", arr) == (5, 6)
    with pytest.raises(TypeError):
        te.encode_into("x", b"readonly")


def _longest_pause_of_other_threads(work):
    """Runs `work` in a thread while this thread loops; returns (the longest gap between two
    iterations of the loop, how long `work` took). A call that holds the GIL throughout
    stops the loop for its whole duration."""
    import time

    done = threading.Event()
    times = {}

    def run():
        start = time.perf_counter()
        work()
        times["work"] = time.perf_counter() - start
        done.set()

    thread = threading.Thread(target=run)
    last = time.perf_counter()
    longest = 0.0
    thread.start()
    while not done.is_set():
        now = time.perf_counter()
        longest = max(longest, now - last)
        last = now
    thread.join()
    return longest, times["work"]


def test_the_gil_is_released_while_decoding_large_inputs():
    text = "日本語のテキストと ASCII が混ざった文章。" * 400000
    data = textcodec.encode(text, "shift_jis")  # ~12 MB
    pa = pytest.importorskip("pyarrow")
    column = pa.array([data[i : i + 4096] for i in range(0, len(data), 4096)] * 4, pa.binary())
    from textcodec import arrow

    for name, work in [
        ("decode", lambda: textcodec.decode(data, "shift_jis")),
        ("arrow.decode", lambda: arrow.decode(column, "shift_jis")),
    ]:
        # The decoding runs without the GIL; only building the result needs it. Best of
        # three: the machine may be busy.
        ratios = []
        for _ in range(3):
            pause, duration = _longest_pause_of_other_threads(work)
            ratios.append(pause / duration)
        assert min(ratios) < 0.6, (name, ratios)
