"""Arbitrary bytes through every Python entry point, for every encoding, compared with the
one-shot reference: the Rust core's decoder on the whole input (`_native._core_decode`,
replacement mode, no CPython fast path) for decoding; for encoding, the Standard's UTF-8
decode of the bytes then one `encode` of that text.

Not valid text with chosen junk: every byte value, NULs, lone UTF-8 continuation bytes after
every byte value, sequences cut at every position, inside ASCII runs long enough to reach
the SIMD kernels' blocks (16 to 64 bytes) and across their edges. `.ci/extra.d/python.sh`
runs this file once per kernel level (`TEXTCODEC_KERNEL`); `test_the_forced_kernel_runs`
checks that the level asked for is the one in use.
"""

import codecs
import os

import pytest
from hypothesis import given, strategies as st

import textcodec
from textcodec import _native

pa = pytest.importorskip("pyarrow")

NAMES = [e.name for e in textcodec.encodings()]
KERNEL = _native._kernel_info()

# Long enough that the ASCII and single-byte fast loops take whole blocks of every width.
RUN = b"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ.,;:" * 2  # 134 bytes

# Text with characters of every encoding's repertoire, to cut at every position.
SAMPLE_TEXT = (
    "a\u00e9\u00a5\u203e\u00df\u0416\u03a9\u05d0\u0627\u0e01\u1ea0\u3042\u30a2\u4e00\u6f22"
    "\uac00\u5b57\u20ac\u2122\u00ff\u0100\uff71\U00020000\U0001f600~\\"
)


def where():
    return f"kernel {KERNEL['active']}"


def reference(data, label):
    return _native._core_decode(data, label)[0]


def streamed(label, pieces, errors="replace"):
    decoder = textcodec.Decoder(label, errors=errors)
    return "".join(decoder.decode(p) for p in pieces[:-1]) + decoder.decode(pieces[-1], final=True)


def split(data, cuts):
    points = sorted({c % (len(data) + 1) for c in cuts})
    pieces, last = [], 0
    for p in points:
        pieces.append(data[last:p])
        last = p
    pieces.append(data[last:])
    return pieces


def check_decoding(label, data, pieces):
    expected = reference(data, label)
    assert textcodec.decode(data, label)[0] == expected, where()
    assert streamed(label, pieces) == expected, where()


def check_encoding(label, data, cuts):
    """The Standard's UTF-8 decode of `data`, encoded at once and in pieces (the pieces of
    the text, cut at code points), in html mode and strict mode, must agree."""
    text = textcodec.decode(data, "utf-8", bom="keep")[0]
    for errors in ("html", "strict"):
        try:
            expected = textcodec.encode(text, label, errors=errors)
        except UnicodeEncodeError:
            expected = UnicodeEncodeError
        encoder = textcodec.Encoder(label, errors=errors)
        pieces = split(text, cuts)
        try:
            got = b"".join(encoder.encode(p) for p in pieces[:-1]) + encoder.encode(pieces[-1], final=True)
        except UnicodeEncodeError:
            got = UnicodeEncodeError
        assert got == expected, (errors, where())


def test_the_forced_kernel_runs():
    requested = os.environ.get("TEXTCODEC_KERNEL")
    if requested:
        assert KERNEL["request"] == "honoured" and KERNEL["active"] == requested, KERNEL
    else:
        assert KERNEL["request"] == "unset" and KERNEL["active"] == KERNEL["supported"][-1], KERNEL


@pytest.mark.parametrize("label", NAMES)
def test_every_byte_value_in_every_context(label):
    # Each byte value alone, before a lone continuation byte, after a NUL and a
    # continuation byte, inside and at the edges of long ASCII runs.
    for b in range(256):
        one = bytes([b])
        for data in (
            one,
            one + b"\x80" + RUN,
            b"\x00" + one + b"\x80" + RUN,
            RUN[:63] + one + b"\x80" + RUN[:64],
            RUN[:31] + one + RUN[:15] + b"\x00\x80" + one,
        ):
            check_decoding(label, data, [data[: len(data) // 2], data[len(data) // 2 :]])
    everything = bytes(range(256)) + bytes(range(255, -1, -1))
    for data in (everything, RUN + everything + RUN, b"\x00\x80" * 100 + RUN):
        check_decoding(label, data, [data[i : i + 7] for i in range(0, len(data), 7)])
        check_encoding(label, data, range(0, len(data), 5))


@pytest.mark.parametrize("label", NAMES)
def test_sequences_cut_at_every_position(label):
    whole = textcodec.encode(SAMPLE_TEXT, label, errors="html", output_encoding=False)
    for tail in (b"", b"\x80", b"\x00", RUN[:40]):
        for i in range(len(whole) + 1):
            cut = whole[:i] + tail
            check_decoding(label, cut, [cut[:i], cut[i:]])
        check_decoding(label, whole + tail, [bytes([b]) for b in whole + tail] + [b""])


# Pieces of arbitrary input: random bytes, the bytes decoders treat specially, ASCII runs
# of every length up to 134, and cut sequences of every encoding.
special = st.sampled_from(
    [b"\x00", b"\x80", b"\xbf", b"\xc2", b"\xe3\x81", b"\xf0\x9f\x98", b"\xef\xbb\xbf", b"\xfe\xff", b"\xff\xfe",
     b"\x1b$B", b"\x1b(B", b"\x1b(J", b"\x0e", b"\x8e", b"\x8f", b"\x81\x30", b"\x81\x30\x81", b"\xa1",
     b"\x00\x80", b"\xd8\x00", b"\xdc\x00", b"\x7f", b"~{", b"\\"]
)
pieces = st.one_of(
    st.binary(max_size=12),
    special,
    st.integers(0, len(RUN)).map(lambda n: RUN[:n]),
    st.tuples(st.sampled_from(NAMES), st.integers(0, 12)).map(
        lambda t: textcodec.encode(SAMPLE_TEXT, t[0], errors="html", output_encoding=False)[: t[1] * 2]
    ),
)
arbitrary = st.lists(pieces, max_size=24).map(b"".join)


@given(label=st.sampled_from(NAMES), data=arbitrary, cuts=st.lists(st.integers(0, 4000), max_size=8))
def test_arbitrary_bytes_streamed_in_any_pieces(label, data, cuts):
    parts = split(data, cuts)
    check_decoding(label, data, parts)
    # Strict mode: the same text, or an error in both.
    try:
        expected = textcodec.decode(data, label, errors="strict")[0]
    except UnicodeDecodeError:
        expected = UnicodeDecodeError
    try:
        got = streamed(label, parts, errors="strict")
    except UnicodeDecodeError:
        got = UnicodeDecodeError
    assert got == expected, where()
    # A Python handler (resuming after each error) and Python's codecs machinery.
    assert streamed(label, parts, errors="backslashreplace") == textcodec.decode(
        data, label, errors="backslashreplace"
    )[0], where()
    inc = codecs.getincrementaldecoder("whatwg-" + label)("replace")
    got = "".join(inc.decode(p) for p in parts) + inc.decode(b"", True)
    assert got == data.decode("whatwg-" + label, "replace") == reference(data, label), where()
    check_encoding(label, data, cuts)


@given(
    label=st.sampled_from(NAMES),
    rows=st.lists(st.one_of(st.none(), arbitrary), max_size=8),
    arrow_type=st.sampled_from(["binary", "large_binary", "binary_view"]),
)
def test_arbitrary_bytes_through_arrow(label, rows, arrow_type):
    import textcodec.arrow as ta

    arr = pa.array(rows, getattr(pa, arrow_type)())
    expected = [None if r is None else textcodec.decode(r, label)[0] for r in rows]
    assert ta.decode(arr, label).to_pylist() == expected, where()
    assert [None if r is None else reference(r, label) for r in rows] == expected, where()

    def strict_or_none(r):
        try:
            return textcodec.decode(r, label, errors="strict")[0]
        except UnicodeDecodeError:
            return None

    assert ta.decode(arr, label, errors="null").to_pylist() == [
        None if r is None else strict_or_none(r) for r in rows
    ], where()
    html = ta.decode_html(arr).to_pylist()
    assert html == [
        None if r is None else dict(zip(("text", "encoding"), textcodec.decode_html(r))) for r in rows
    ], where()
