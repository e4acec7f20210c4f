"""Hypothesis strategies for hostile Arrow arrays and the properties textcodec.arrow must
keep on them. Run by test_hostile_arrow.py in a child process (a crash must fail a test,
not end the run); `python hostile_arrow_cases.py` runs them directly.

A case is the raw buffers of a binary-like array — built valid, then perhaps damaged
(offsets that lie, decrease or go negative; views past their buffers, naming buffers that
do not exist, with negative lengths or wrong prefixes; null rows full of garbage; data
buffers far larger than the rows use) — exported by pyarrow (`Array.from_buffers`, which
checks buffer sizes but not offsets' order or views) or, for what pyarrow refuses, by
raw_arrow.RawArray, which checks nothing. `model` reads the buffers as the Arrow format
defines them and says whether the array is valid, and its rows if so: the independent
reference the properties compare with.
"""

import os
import struct
import sys

from hypothesis import HealthCheck, assume, given, note, settings, strategies as st

import pyarrow as pa
import textcodec
import textcodec.arrow as ta
from raw_arrow import RawArray

VIEW_TYPES = ("binary_view", "string_view")
LARGE_TYPES = ("large_binary", "large_string")
TYPES = ("binary", "string") + LARGE_TYPES + VIEW_TYPES
ENCODINGS = [e.name for e in textcodec.encodings()]
INVALID = "invalid"
# Rows that end past the data buffer of an offsets layout: invalid, but only a producer
# that knows the buffer's size can tell (the C data interface does not carry it; pyarrow
# checks it when it builds an array). Not something to hand a consumer.
UNDETECTABLE = "undetectable"

# Where the last case is written before it is run, so a crash report can name it.
CASE_LOG = os.environ.get("TEXTCODEC_CASE_LOG")

# Row bytes: short, with the bytes that matter to decoders (ASCII, C1, lead and trail
# bytes of every multi-byte encoding, BOMs, ISO-2022-JP escapes).
row_bytes = st.one_of(
    st.binary(max_size=24),
    st.lists(
        st.sampled_from([b"a", b"\x00", b"\x80", b"\xa4\xa2", b"\x82\xa0", b"\xef\xbb\xbf", b"\xfe\xff",
                         b"\x1b$B", b"\x1b(B", b"\xc3", b"\xa9", b"\xe3\x81", b"\x81\x30\x81\x30", b"\xff",
                         b"sjis", b" euc-kr"]),
        max_size=10,
    ).map(b"".join),
)


class Case:
    """The buffers of one array and how it is exported."""

    def __init__(self, arrow_type, length, offset, validity, main, data, null_count, producer):
        self.arrow_type = arrow_type
        self.length = length
        self.offset = offset
        self.validity = validity  # bytes or None
        self.main = main  # offsets or views, bytes (or None: a null pointer)
        self.data = data  # offsets layouts: bytes or None; views: a list of bytes
        self.null_count = null_count
        self.producer = producer  # "pyarrow" or "raw"

    def __repr__(self):
        return (
            f"Case({self.arrow_type!r}, length={self.length}, offset={self.offset}, "
            f"validity={self.validity!r}, main={self.main!r}, "
            f"data={_short(self.data)}, null_count={self.null_count}, producer={self.producer!r})"
        )

    def export(self):
        """The array as its producer exports it; None if pyarrow refuses to build it."""
        views = self.arrow_type in VIEW_TYPES
        datas = self.data if views else [self.data]
        if self.producer == "pyarrow" and not (views and self.main is None):
            # (pyarrow 26.0.1's from_buffers segfaults on a view array with a null views
            # buffer; the raw producer exports that one.)
            typ = getattr(pa, self.arrow_type)()
            buffers = [None if self.validity is None else pa.py_buffer(self.validity),
                       None if self.main is None else pa.py_buffer(self.main)]
            buffers += [None if d is None else pa.py_buffer(d) for d in datas]
            try:
                return pa.Array.from_buffers(typ, self.length, buffers, null_count=self.null_count,
                                             offset=self.offset)
            except (pa.ArrowInvalid, ValueError):
                return None
        buffers = [self.validity, self.main] + list(datas)
        if views:
            buffers.append(struct.pack(f"<{len(datas)}q", *[len(d or b"") for d in datas]))
        return RawArray(self.arrow_type, self.length, buffers, offset=self.offset, null_count=self.null_count)


def _short(data):
    if isinstance(data, list):
        return "[" + ", ".join(_short(d) for d in data) + "]"
    if data is not None and len(data) > 64:
        return f"<{len(data)} bytes: {data[:32]!r}...>"
    return repr(data)


def _bit(bitmap, i):
    return bitmap[i // 8] >> (i % 8) & 1


def model(case):
    """The rows (bytes, or None for null) of `case` as the Arrow format defines them, or
    INVALID. Null rows' views are never read, so they may hold anything; offsets must be
    in order for every row."""
    n, first = case.length, case.offset

    def null(i):
        if case.validity is None or case.null_count == 0:
            return False
        return not _bit(case.validity, first + i)

    if case.arrow_type in VIEW_TYPES:
        if n and case.main is None:
            return INVALID
        rows = []
        for i in range(n):
            if null(i):
                rows.append(None)
                continue
            length, prefix, index, start = struct.unpack_from("<i4sii", case.main, 16 * (first + i))
            if length < 0:
                return INVALID
            if length <= 12:
                rows.append(case.main[16 * (first + i) + 4:][:length])
                continue
            if not 0 <= index < len(case.data) or start < 0:
                return INVALID
            buf = case.data[index] or b""
            if start + length > len(buf) or buf[start:start + 4] != prefix:
                return INVALID
            rows.append(buf[start:start + length])
        return rows
    if n == 0:
        return []
    if case.main is None:
        return INVALID
    fmt = "q" if case.arrow_type in LARGE_TYPES else "i"
    offsets = struct.unpack_from(f"<{n + 1}{fmt}", case.main, struct.calcsize(fmt) * first)
    if offsets[0] < 0 or any(b < a for a, b in zip(offsets, offsets[1:])):
        return INVALID
    data = case.data
    if data is None:  # a buffer of size 0, where the last offset is the size
        if offsets[-1] != 0:
            return INVALID
        data = b""
    elif offsets[-1] > len(data):
        return UNDETECTABLE
    return [None if null(i) else data[offsets[i]:offsets[i + 1]] for i in range(n)]


@st.composite
def cases(draw):
    arrow_type = draw(st.sampled_from(TYPES))
    rows = draw(st.lists(st.one_of(st.none(), row_bytes), max_size=10))
    before = draw(st.integers(0, 3))  # rows sliced off the front (the array's offset)
    after = draw(st.integers(0, 2))
    everything = draw(st.lists(row_bytes, min_size=before, max_size=before)) + rows + \
        draw(st.lists(row_bytes, min_size=after, max_size=after))
    nulls = [i for i, r in enumerate(everything) if r is None]
    with_bitmap = bool(nulls) or draw(st.booleans())
    validity = None
    if with_bitmap:
        bits = bytearray((len(everything) + 7) // 8 + draw(st.integers(0, 2)))
        for i, r in enumerate(everything):
            if r is not None:
                bits[i // 8] |= 1 << (i % 8)
        validity = bytes(bits)
    # Null rows get garbage of their own: bytes in the data buffer, or a random view.
    garbage = [draw(st.binary(max_size=16)) if r is None else r for r in everything]
    if arrow_type in VIEW_TYPES:
        main, data = draw(_views(everything, garbage))
    else:
        main, data = draw(_offsets(arrow_type, garbage))
    null_count = draw(st.sampled_from([-1, len(nulls)])) if validity is not None else 0
    producer = draw(st.sampled_from(["pyarrow", "raw"]))
    case = Case(arrow_type, len(rows), before, validity, main, data, null_count, producer)
    return case


@st.composite
def _offsets(draw, arrow_type, values):
    fmt = "q" if arrow_type in LARGE_TYPES else "i"
    lead = draw(st.binary(max_size=8))  # bytes before the first row: offsets[0] > 0
    data = lead + b"".join(values)
    offsets = [len(lead)]
    for v in values:
        offsets.append(offsets[-1] + len(v))
    damage = draw(st.sampled_from(["none", "none", "lie", "swap", "negative", "null data", "null offsets"]))
    limit = 2**63 - 1 if fmt == "q" else 2**31 - 1
    if damage == "lie":
        i = draw(st.integers(0, len(offsets) - 1))
        offsets[i] = draw(st.one_of(st.integers(0, len(data) + 4), st.integers(0, limit)))
    elif damage == "swap" and len(offsets) > 2:
        i = draw(st.integers(0, len(offsets) - 2))
        offsets[i], offsets[i + 1] = offsets[i + 1], offsets[i]
    elif damage == "negative":
        i = draw(st.integers(0, len(offsets) - 1))
        offsets[i] = draw(st.integers(-limit - 1, -1))
    # The data buffer as long as the last offset says (what the C data interface
    # promises), when that is small: pyarrow refuses a shorter one, and a raw producer's
    # shorter buffer is a lie no consumer can see.
    if 0 <= offsets[-1] - len(data) <= 4096:
        data += draw(st.binary(min_size=offsets[-1] - len(data), max_size=offsets[-1] - len(data)))
    if damage == "null data":
        data = None
    main = struct.pack(f"<{len(offsets)}{fmt}", *offsets)
    if damage == "null offsets":
        main = None
    return main, data


@st.composite
def _views(draw, rows, garbage):
    n_buffers = draw(st.integers(0, 3))
    buffers = [bytearray(draw(st.binary(max_size=8))) for _ in range(n_buffers)]
    # Sometimes a data buffer far larger than the rows use, rows sharing it.
    if n_buffers and draw(st.integers(0, 9)) == 0:
        buffers[0] += bytes(draw(st.sampled_from([1 << 16, 1 << 20])))
    views = []
    for row, value in zip(rows, garbage):
        if row is None:
            views.append(draw(st.binary(min_size=16, max_size=16)))
        elif len(value) <= 12:
            views.append(struct.pack("<i12s", len(value), value))
        elif not buffers:  # no buffer to hold it: the row is cut to what fits inline
            views.append(struct.pack("<i12s", 12, value[:12]))
        else:
            index = draw(st.integers(0, n_buffers - 1))
            buf = buffers[index]
            if draw(st.booleans()) and bytes(value) in buf:
                start = bytes(buf).index(value)  # shared with an earlier row
            else:
                start = len(buf)
                buf += value + draw(st.binary(max_size=4))
            views.append(struct.pack("<i4sii", len(value), value[:4], index, start))
    damage = draw(st.sampled_from(["none", "none", "length", "index", "start", "prefix", "raw", "null views"]))
    if views and damage not in ("none", "null views"):
        i = draw(st.integers(0, len(views) - 1))
        length, prefix, index, start = struct.unpack("<i4sii", views[i])
        if damage == "length":
            length = draw(st.integers(-(2**31), 2**31 - 1))
        elif damage == "index":
            index = draw(st.one_of(st.integers(-2, n_buffers + 2), st.integers(-(2**31), 2**31 - 1)))
        elif damage == "start":
            start = draw(st.one_of(st.integers(-2, 64), st.integers(-(2**31), 2**31 - 1)))
        elif damage == "prefix":
            prefix = draw(st.binary(min_size=4, max_size=4))
        if damage == "raw":
            views[i] = draw(st.binary(min_size=16, max_size=16))
        else:
            views[i] = struct.pack("<i4sii", length, prefix, index, start)
    main = None if damage == "null views" else b"".join(views)
    return main, [bytes(b) for b in buffers]


def _log(case):
    if CASE_LOG:
        with open(CASE_LOG, "w") as f:
            f.write(repr(case))


def _outcome(call):
    try:
        return call()
    except (ValueError, MemoryError, LookupError) as e:
        return e


def check_case(case, encoding, role):
    """textcodec.arrow on `case` (as the array, the labels or the HTML bodies) against the
    model: ValueError for an invalid array, the rows decoded one by one otherwise."""
    expected_rows = model(case)
    _log(case)
    arr = case.export()
    if arr is None:  # refused by pyarrow: exported by a producer that checks nothing
        case.producer = "raw"
        arr = case.export()
    assume(not (case.producer == "raw" and expected_rows is UNDETECTABLE))
    if expected_rows is UNDETECTABLE:
        expected_rows = INVALID
    note(f"model: {expected_rows!r}")
    if isinstance(arr, pa.Array) and expected_rows is INVALID:
        # The model may be stricter than Arrow only about null rows' views.
        try:
            arr.validate(full=True)
            assert case.arrow_type in VIEW_TYPES, "pyarrow accepts what the model calls invalid"
        except (pa.ArrowInvalid, pa.ArrowIndexError):
            pass
    n = case.length
    if role == "array":
        got = _outcome(lambda: ta.decode(arr, encoding))
        want = expected_rows if expected_rows is INVALID else [
            None if r is None else textcodec.decode(r, encoding)[0] for r in expected_rows]
    elif role == "labels":
        bodies = pa.array([b"\x82\xa0\xa4\xa2"] * n, pa.binary())
        got = _outcome(lambda: ta.decode(bodies, arr))
        if expected_rows is INVALID:
            want = INVALID
        else:
            want = []
            for label in expected_rows:
                try:
                    name = "utf-8" if label is None else textcodec.lookup(label.decode("latin-1")).name
                except LookupError:
                    want = LookupError
                    break
                want.append(textcodec.decode(b"\x82\xa0\xa4\xa2", name)[0])
    else:  # html
        got = _outcome(lambda: ta.decode_html(arr))
        want = expected_rows if expected_rows is INVALID else [
            None if r is None else dict(zip(("text", "encoding"), textcodec.decode_html(r)))
            for r in expected_rows]
    if want is INVALID:
        assert isinstance(got, ValueError), f"accepted an invalid array: {got!r}"
        assert "malformed Arrow" in str(got) and ("row" in str(got) or "buffer" in str(got)), got
    elif want is LookupError:
        assert isinstance(got, LookupError) and not isinstance(got, ValueError), got
    else:
        assert not isinstance(got, Exception), f"refused a valid array: {got!r}"
        assert got.to_pylist() == want


@settings(
    max_examples=int(os.environ.get("TEXTCODEC_HYPOTHESIS_EXAMPLES", "150")),
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@given(case=cases(), encoding=st.sampled_from(ENCODINGS), role=st.sampled_from(["array", "array", "labels", "html"]))
def check_hostile_arrays(case, encoding, role):
    check_case(case, encoding, role)


if __name__ == "__main__":
    check_hostile_arrays()
    print("hostile arrays: ok")
    sys.exit(0)
