"""textcodec.arrow: Arrow arrays in, Arrow arrays out; Polars map_batches."""

import pytest
from hypothesis import given, strategies as st

import textcodec
import textcodec.arrow as ta

pa = pytest.importorskip("pyarrow")

ALL = [e.name for e in textcodec.encodings()]


def rows():
    return [b"\x93\xfa\x96\x7b", None, b"abc", b"\xef\xbb\xbfutf8 \xc3\xa9", b"\xff", b""]


@pytest.mark.parametrize("arrow_type", ["binary", "large_binary", "binary_view", "string"])
def test_decode_types_and_nulls(arrow_type):
    data = rows() if arrow_type != "string" else [b"abc", None, b""]
    typ = getattr(pa, arrow_type)()
    arr = pa.array(data, pa.binary()).cast(typ) if arrow_type != "string" else pa.array(["abc", None, ""])
    out = ta.decode(arr, "shift_jis")
    expected = [None if b is None else textcodec.decode(b, "shift_jis")[0] for b in data]
    assert out.to_pylist() == expected
    assert out.null_count == data.count(None)
    assert out.type == (pa.large_string() if arrow_type == "large_binary" else pa.string())


def test_sliced_and_chunked_inputs():
    arr = pa.array(rows(), pa.binary())
    assert ta.decode(arr.slice(2, 3), "latin1").to_pylist() == ["abc", "utf8 é", "ÿ"]
    chunked = pa.chunked_array([arr, arr.slice(1, 3)])
    out = ta.decode(chunked, "sjis")
    assert isinstance(out, pa.ChunkedArray)
    assert out.to_pylist() == ta.decode(arr, "sjis").to_pylist() + ta.decode(arr.slice(1, 3), "sjis").to_pylist()


def test_per_row_labels():
    arr = pa.array([b"\x93\xfa", b"\xc7\xd1", b"\xe9", b"x", None], pa.binary())
    labels = pa.array(["sjis", "euc-kr", "latin1", None, "utf-8"])
    assert ta.decode(arr, labels).to_pylist() == ["日", "한", "é", "x", None]
    assert ta.decode(arr, ["sjis", "euc-kr", "latin1", None, "utf-8"]).to_pylist() == ["日", "한", "é", "x", None]
    chunked = pa.chunked_array([arr.slice(0, 2), arr.slice(2)])
    assert ta.decode(chunked, labels).to_pylist() == ["日", "한", "é", "x", None]
    with pytest.raises(LookupError, match="bogus.*row 1"):
        ta.decode(arr, ["sjis", "bogus", "x", "x", "x"])
    with pytest.raises(ValueError):
        ta.decode(arr, ["sjis"])


def test_errors_modes():
    arr = pa.array([b"ok", b"a\xffb", None])
    assert ta.decode(arr).to_pylist() == ["ok", "a\ufffdb", None]
    assert ta.decode(arr, errors="null").to_pylist() == ["ok", None, None]
    with pytest.raises(UnicodeDecodeError) as info:
        ta.decode(arr, errors="strict")
    assert (info.value.object, info.value.start, info.value.end) == (b"a\xffb", 1, 2)
    assert "row 1" in info.value.reason
    with pytest.raises(ValueError):
        ta.decode(arr, errors="ignore")


def test_bad_inputs():
    with pytest.raises(TypeError):
        ta.decode([b"x"], "utf-8")
    with pytest.raises(TypeError):
        ta.decode(pa.array([1, 2]), "utf-8")
    with pytest.raises(LookupError):
        ta.decode(pa.array([b"x"]), "nope")


def test_output_is_zero_copy_and_survives_the_result_object():
    res = textcodec._native._arrow_decode(pa.array([b"\x82\xa0" * 1000] * 3), "sjis")
    assert len(res) == 3 and res.type == "string"
    a = pa.array(res)
    b = pa.array(res)  # exported twice: two consumers share the buffers
    del res
    assert a.to_pylist() == b.to_pylist() == ["あ" * 1000] * 3


def test_large_string_when_offsets_overflow():
    # 1.2 GiB of input, 2.4 GiB of text: past 32-bit offsets.
    pytest.importorskip("numpy")
    import os

    if os.environ.get("TEXTCODEC_SKIP_BIG") == "1":
        pytest.skip("TEXTCODEC_SKIP_BIG=1")
    row = b"\xe9" * (64 << 20)  # 64 MiB of windows-1252 -> 128 MiB of UTF-8
    arr = pa.array([row] * 18, pa.binary())
    out = ta.decode(arr, "windows-1252")
    assert out.type == pa.large_string()
    assert len(out) == 18 and out[17].as_py()[:3] == "ééé"
    del out, arr


def test_decode_html():
    bodies = pa.array([b"<meta charset=koi8-r>\xf0\xd2", None, b"\x93\xfa", b"\x80"])
    types = pa.array(["text/html", None, "text/html; charset=sjis", None])
    out = ta.decode_html(bodies, types)
    assert out.type == pa.struct([("text", pa.string()), ("encoding", pa.string())])
    assert out.to_pylist() == [
        {"text": "<meta charset=koi8-r>Пр", "encoding": "KOI8-R"},
        None,
        {"text": "日", "encoding": "Shift_JIS"},
        {"text": "€", "encoding": "windows-1252"},
    ]
    one = ta.decode_html(bodies, "text/html; charset=utf-8")
    assert one.field("encoding").to_pylist() == ["UTF-8", None, "UTF-8", "UTF-8"]
    assert ta.decode_html(pa.chunked_array([bodies])).num_chunks == 1


@given(
    data=st.lists(st.one_of(st.none(), st.binary(max_size=30)), max_size=20),
    label=st.sampled_from(ALL),
)
def test_arrow_agrees_with_decode(data, label):
    arr = pa.array(data, pa.binary())
    expected = [None if b is None else textcodec.decode(b, label)[0] for b in data]
    assert ta.decode(arr, label).to_pylist() == expected
    html = ta.decode_html(arr, f"text/html; charset={label}")
    assert html.to_pylist() == [
        None if b is None else dict(zip(("text", "encoding"), textcodec.decode_html(b, f"text/html; charset={label}")))
        for b in data
    ]


def test_polars_map_batches():
    pl = pytest.importorskip("polars")
    pages = [textcodec.encode(t, "shift_jis") for t in ["日本語", "テキスト", "ascii"]] + [None]
    df = pl.DataFrame({"body": pages}, schema={"body": pl.Binary})
    out = df.with_columns(
        pl.col("body")
        .map_batches(lambda s: pl.Series(ta.decode(s.to_arrow(), "shift_jis")), return_dtype=pl.String)
        .alias("text")
    )
    assert out["text"].to_list() == ["日本語", "テキスト", "ascii", None]
    # decode_html returns a struct: unnest it into columns.
    html = df.with_columns(
        pl.col("body")
        .map_batches(
            lambda s: pl.Series(ta.decode_html(s.to_arrow(), "text/html; charset=shift_jis")),
            return_dtype=pl.Struct({"text": pl.String, "encoding": pl.String}),
        )
        .alias("page")
    ).unnest("page")
    assert html["encoding"].to_list() == ["Shift_JIS"] * 3 + [None]
    # A Polars Series is accepted directly too.
    assert ta.decode(df["body"], "shift_jis").to_pylist() == ["日本語", "テキスト", "ascii", None]


def test_valid_utf8_is_reused_without_copy():
    arr = pa.array([b"caf\xc3\xa9", None, "日本語".encode(), b""] * 100, pa.binary())
    out = ta.decode(arr, "utf-8")
    assert out.to_pylist() == ["café", None, "日本語", ""] * 100
    assert out.buffers()[2].address == arr.buffers()[2].address  # the same bytes
    sliced = ta.decode(arr.slice(1, 5), "utf-8")
    assert sliced.to_pylist() == [None, "日本語", "", "café", None]
    large = ta.decode(arr.cast(pa.large_binary()), "utf-8")
    assert large.type == pa.large_string() and large.to_pylist() == out.to_pylist()
    del arr
    assert out.to_pylist()[:3] == ["café", None, "日本語"]  # the input's buffers outlive it


def test_utf8_rows_that_are_not_valid_by_themselves():
    # Together the bytes are valid UTF-8 ("日"), but each row alone is not.
    arr = pa.array([b"\xe6", b"\x97\xa5"], pa.binary())
    assert ta.decode(arr).to_pylist() == ["\ufffd", "\ufffd\ufffd"]
    # A BOM is removed from its row (the *decode* hook), or kept with bom="keep".
    arr = pa.array([b"\xef\xbb\xbfa", b"b"], pa.binary())
    assert ta.decode(arr).to_pylist() == ["a", "b"]
    assert ta.decode(arr, bom="keep").to_pylist() == ["\ufeffa", "b"]
