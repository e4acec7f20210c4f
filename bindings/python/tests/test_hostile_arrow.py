"""Hostile Arrow input: arrays whose buffers lie (offsets past the data, decreasing or
negative offsets, views past their buffers or naming buffers that do not exist, garbage in
null rows, rows sharing far more data than they use). textcodec.arrow must validate each
array before reading a row: a ValueError naming what is wrong, a MemoryError, or the right
result when the array is in fact valid — never a crash. Everything that could crash runs
in a child process (isolated.run_isolated)."""

import textwrap

import pytest

from isolated import run_isolated

pa = pytest.importorskip("pyarrow")

# The outcome a child prints: the exception's type and message, or the rows.
OUTCOME = """
import pyarrow as pa, struct, textcodec, textcodec.arrow as ta
from raw_arrow import RawArray

def outcome(call):
    try:
        result = call()
    except (ValueError, MemoryError) as e:
        print(type(e).__name__ + ": " + str(e))
        return
    print("rows:", result.to_pylist())
"""


def child(body):
    return run_isolated(OUTCOME + textwrap.dedent(body)).strip()


# --- Offsets that lie: each of these crashed the interpreter before arrays were validated.


def test_binary_offsets_past_the_data_raise():
    # SIGSEGV before validation: row 0 read 1 GiB from a 5-byte buffer.
    out = child("""
        offsets = pa.py_buffer(struct.pack("<3i", 0, 1 << 30, 5))
        arr = pa.Array.from_buffers(pa.binary(), 2, [None, offsets, pa.py_buffer(b"hello")])
        outcome(lambda: ta.decode(arr, "latin1"))
    """)
    assert out.startswith("ValueError:") and "row 1" in out and "offset" in out, out


def test_large_binary_offsets_past_the_data_raise():
    # SIGSEGV (or an abort, depending on the allocator) before validation.
    out = child("""
        offsets = pa.py_buffer(struct.pack("<3q", 0, 1 << 30, 5))
        arr = pa.Array.from_buffers(pa.large_binary(), 2, [None, offsets, pa.py_buffer(b"hello")])
        outcome(lambda: ta.decode(arr, "shift_jis"))
    """)
    assert out.startswith("ValueError:") and "row 1" in out, out


def test_decode_html_and_label_columns_are_validated_too():
    # SIGSEGV before validation, for both the bodies and the labels.
    out = child("""
        offsets = pa.py_buffer(struct.pack("<3i", 0, 1 << 30, 5))
        bad = pa.Array.from_buffers(pa.binary(), 2, [None, offsets, pa.py_buffer(b"hello")])
        good = pa.array([b"ab", b"cd"])
        outcome(lambda: ta.decode_html(bad))
        outcome(lambda: ta.decode_html(good, bad))
        outcome(lambda: ta.decode(good, bad))
    """)
    lines = out.splitlines()
    assert len(lines) == 3 and all(line.startswith("ValueError:") for line in lines), out
    assert "bodies" in lines[0] and "content_types" in lines[1] and "encoding" in lines[2], out


def test_view_past_its_buffer_raises():
    # Before validation: a 100-byte read 2 GiB past a 20-byte buffer (SIGSEGV).
    out = child("""
        view = struct.pack("<i4sii", 100, b"xxxx", 0, 0x7FFF0000)
        arr = pa.Array.from_buffers(pa.binary_view(), 1, [None, pa.py_buffer(view), pa.py_buffer(b"hello" * 4)])
        outcome(lambda: ta.decode(arr, "latin1"))
    """)
    assert out.startswith("ValueError:") and "row 0" in out and "buffer" in out, out


def test_null_rows_do_not_count_toward_the_output_size():
    # Before: the null rows' garbage views (2 GiB each over a 20-byte buffer) were counted
    # into the worst-case output, whose allocation failed and aborted (SIGABRT).
    out = child("""
        garbage = struct.pack("<i4sii", 0x7FFFFFFF, b"junk", 0, 0)
        views = struct.pack("<i12s", 3, b"abc") + garbage + garbage + struct.pack("<i12s", 2, b"de")
        validity = pa.py_buffer(bytes([0b1001]))
        arr = pa.Array.from_buffers(pa.binary_view(), 4, [validity, pa.py_buffer(views), pa.py_buffer(b"hello" * 4)])
        outcome(lambda: ta.decode(arr, "latin1"))
    """)
    assert out == "rows: ['abc', None, None, 'de']", out


def test_output_that_cannot_be_allocated_raises_memory_error():
    # A valid array: 65536 rows each viewing the same 64 KiB, 4 GiB of text, more than the
    # child's 3 GiB address space. Before: the worst-case buffer's allocation failed and
    # aborted the process (SIGABRT).
    out = child("""
        size = 1 << 16
        data = bytes(range(256)) * (size // 256)
        view = struct.pack("<i4sii", size, data[:4], 0, 0)
        arr = pa.Array.from_buffers(pa.binary_view(), 1 << 16, [None, pa.py_buffer(view * (1 << 16)), pa.py_buffer(data)])
        outcome(lambda: ta.decode(arr, "windows-1252"))
        outcome(lambda: ta.decode_html(arr))
    """)
    lines = out.splitlines()
    assert len(lines) == 2 and all(line.startswith("MemoryError") for line in lines), out


# --- A producer that checks nothing (ctypes, raw_arrow.RawArray): what pyarrow refuses to
# build but another producer could export.


def test_negative_first_offset_raises():
    out = child("""
        arr = RawArray("binary", 2, [None, struct.pack("<3i", -4, 1, 5), b"hello"])
        outcome(lambda: ta.decode(arr, "latin1"))
        arr = RawArray("large_string", 1, [None, struct.pack("<2q", -(1 << 62), 5), b"hello"])
        outcome(lambda: ta.decode(arr, "latin1"))
    """)
    lines = out.splitlines()
    assert len(lines) == 2 and all(l.startswith("ValueError:") and "row 0" in l for l in lines), out


def test_offsets_over_a_null_data_buffer_raise():
    out = child("""
        outcome(lambda: ta.decode(RawArray("binary", 2, [None, struct.pack("<3i", 0, 3, 5), None]), "latin1"))
        outcome(lambda: ta.decode(RawArray("binary", 2, [None, struct.pack("<3i", 4, 4, 4), None]), "latin1"))
        outcome(lambda: ta.decode(RawArray("binary", 2, [None, None, b"abc"]), "latin1"))
        outcome(lambda: ta.decode(RawArray("binary", 2, [None, struct.pack("<3i", 0, 0, 0), None]), "latin1"))
    """)
    lines = out.splitlines()
    assert lines[0].startswith("ValueError:") and "data" in lines[0], out
    assert lines[1].startswith("ValueError:") and "data" in lines[1], out
    assert lines[2].startswith("ValueError:") and "offsets" in lines[2], out
    assert lines[3] == "rows: ['', '']", out


def test_misaligned_offsets_are_read_correctly():
    out = child("""
        offsets = struct.pack("<4i", 0, 2, 2, 5)
        outcome(lambda: ta.decode(RawArray("binary", 3, [None, offsets, b"hello"], misalign=1), "latin1"))
        offsets = struct.pack("<4q", 0, 2, 2, 5)
        outcome(lambda: ta.decode(RawArray("large_binary", 3, [None, offsets, b"hello"], misalign=1), "latin1"))
        outcome(lambda: ta.decode(RawArray("large_string", 2, [None, offsets, b"hello"], misalign=1, offset=1), "utf-8"))
    """)
    assert out.splitlines() == ["rows: ['he', '', 'llo']"] * 2 + ["rows: ['', 'llo']"], out


def test_bad_views_raise():
    out = child("""
        def views(*vs):
            return b"".join(vs)
        inline = struct.pack("<i12s", 3, b"abc")
        out_of_range = struct.pack("<i4sii", 20, b"hell", 1, 0)  # buffer 1 of 1
        negative_len = struct.pack("<i12s", -1, b"")
        negative_offset = struct.pack("<i4sii", 13, b"hell", 0, -1)
        past = struct.pack("<i4sii", 16, b"ello", 0, 5)  # 5 + 16 > 20
        wrong_prefix = struct.pack("<i4sii", 13, b"HELL", 0, 0)
        data = b"hello" * 4
        sizes = struct.pack("<q", len(data))
        for bad in (out_of_range, negative_len, negative_offset, past, wrong_prefix):
            outcome(lambda: ta.decode(RawArray("binary_view", 2, [None, views(inline, bad), data, sizes]), "latin1"))
        outcome(lambda: ta.decode(RawArray("binary_view", 1, [None, views(past), data, struct.pack("<q", -1)]), "latin1"))
        outcome(lambda: ta.decode(RawArray("binary_view", 1, [None, views(past), None, struct.pack("<q", 64)]), "latin1"))
        outcome(lambda: ta.decode(RawArray("binary_view", 1, [None, views(past), data, None]), "latin1"))
        outcome(lambda: ta.decode(RawArray("binary_view", 1, [None, None, data, sizes]), "latin1"))
        # The same views are fine when the buffer is large enough.
        ok = struct.pack("<i4sii", 16, b"ello", 0, 1)
        outcome(lambda: ta.decode(RawArray("string_view", 2, [None, views(inline, ok), data, sizes]), "latin1"))
    """)
    lines = out.splitlines()
    assert len(lines) == 10, out
    for line in lines[:5]:
        assert line.startswith("ValueError:") and "row 1" in line, out
    for line in lines[5:9]:
        assert line.startswith("ValueError:"), out
    assert lines[9] == "rows: ['abc', 'ellohellohellohe']", out


def test_validity_bitmap_missing_means_no_nulls_and_null_count_zero_ignores_it():
    out = child("""
        offsets = struct.pack("<3i", 0, 2, 5)
        outcome(lambda: ta.decode(RawArray("binary", 2, [None, offsets, b"hello"], null_count=1), "latin1"))
        outcome(lambda: ta.decode(RawArray("binary", 2, [bytes([1]), offsets, b"hello"], null_count=0), "latin1"))
        outcome(lambda: ta.decode(RawArray("binary", 2, [bytes([1]), offsets, b"hello"], null_count=-1), "latin1"))
    """)
    assert out.splitlines() == ["rows: ['he', 'llo']"] * 2 + ["rows: ['he', None]"], out


# --- Hypothesis: arrays built from raw buffers, valid or damaged (hostile_arrow_cases.py).


def test_hostile_arrays_in_a_child_process(tmp_path):
    """Random valid and damaged arrays of every binary-like type, exported by pyarrow or by
    a producer that checks nothing, through decode (as the array and as the labels) and
    decode_html: a ValueError naming the problem for an invalid array, the rows decoded one
    by one for a valid one. The child writes each case before running it, so a crash names
    the case."""
    log = tmp_path / "case.txt"
    try:
        out = run_isolated(
            "import hostile_arrow_cases\nhostile_arrow_cases.check_hostile_arrays()\nprint('ok')\n",
            env={"TEXTCODEC_CASE_LOG": str(log)},
            timeout=600,
        )
    except AssertionError as failure:
        last = log.read_text() if log.exists() else "(none)"
        raise AssertionError(f"{failure}\n--- last case run\n{last}") from None
    assert out.strip().endswith("ok")
