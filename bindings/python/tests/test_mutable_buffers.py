"""Inputs whose memory another thread can write while textcodec reads it: a read-only view
is no promise that the memory under it stays still (memoryview(bytearray).toreadonly(), a
NumPy array with writeable=False over a bytearray). Such input must be decoded as one
snapshot — the GIL held, or a copy taken with it held — never read in place with the GIL
released."""

import threading

import pytest

import textcodec
from textcodec import _native

np = pytest.importorskip("numpy")

SIZE = 8 << 20


def _flipping(buf):
    """Starts a thread that rewrites all of `buf` as b"\xe9"s (é in windows-1252) then
    b"a"s until stopped. `buf[:] = ...` runs with the GIL held, so any
    snapshot taken with the GIL is all one letter."""
    stop = threading.Event()
    letters = (b"\xe9" * len(buf), b"a" * len(buf))

    def run():
        while not stop.is_set():
            for letter in letters:
                buf[:] = letter

    thread = threading.Thread(target=run)
    thread.start()
    return stop, thread


def _all_one_letter(text):
    return len(text) == SIZE and text.count("a") in (0, SIZE)


READ_ONLY_VIEWS = {
    "memoryview.toreadonly": lambda buf: memoryview(buf).toreadonly(),
    "numpy writeable=False": lambda buf: _read_only_array(buf),
}


def _read_only_array(buf):
    array = np.frombuffer(buf, dtype=np.uint8)
    array.flags.writeable = False
    return array


@pytest.mark.parametrize("make_view", READ_ONLY_VIEWS.values(), ids=READ_ONLY_VIEWS.keys())
@pytest.mark.parametrize("how", ["decode", "Decoder", "strict", "handler"])
def test_read_only_view_of_mutable_memory_is_one_snapshot(make_view, how):
    # Before: decoded in place with the GIL released, the text came out part a's, part b's.
    buf = bytearray(b"a" * SIZE)
    view = make_view(buf)
    stop, thread = _flipping(buf)
    try:
        for _ in range(25):
            if how == "decode":
                text = textcodec.decode(view, "windows-1252")[0]
            elif how == "Decoder":
                text = textcodec.Decoder("windows-1252").decode(view, final=True)
            elif how == "strict":
                text = textcodec.decode(view, "windows-1252", errors="strict")[0]
            else:
                text = textcodec.decode(view, "windows-1252", errors="backslashreplace")[0]
            assert _all_one_letter(text), "a torn read: the text mixes the buffer's states"
    finally:
        stop.set()
        thread.join()


def test_which_memory_counts_as_immutable():
    data = b"immutable" * 10
    immutable = [data, memoryview(data), memoryview(data)[3:], memoryview(memoryview(data)).toreadonly()]
    for obj in immutable:
        assert _native._buffer_is_immutable(obj), obj

    class Bytes(bytes):
        pass

    assert _native._buffer_is_immutable(Bytes(b"xyz"))
    mutable = bytearray(data)
    maybe_mutable = [
        mutable,
        memoryview(mutable),
        memoryview(mutable).toreadonly(),
        _read_only_array(mutable),
        # Over bytes, but the exporter is the array: not trusted (its base could be
        # replaced by other code handing out the same memory writable).
        np.frombuffer(data, dtype=np.uint8),
    ]
    for obj in maybe_mutable:
        assert not _native._buffer_is_immutable(obj), obj


def test_large_mutable_inputs_still_decode_correctly():
    buf = bytearray(b"\x82\xa0" * (SIZE // 2))
    expected = "あ" * (SIZE // 2)
    assert textcodec.decode(buf, "shift_jis")[0] == expected
    assert textcodec.decode(memoryview(buf).toreadonly(), "shift_jis")[0] == expected
    assert textcodec.Decoder("shift_jis").decode(_read_only_array(buf), final=True) == expected
    assert textcodec.detect(memoryview(buf).toreadonly()).encoding == "Shift_JIS"


@pytest.mark.parametrize("wrap", [bytearray, lambda b: memoryview(bytearray(b)).toreadonly()], ids=["bytearray", "read-only view"])
def test_error_handler_writing_the_input_does_not_change_the_decoding(wrap):
    # Python code runs during decoding (the handler); what it writes into the input must not
    # reach the bytes being decoded. Before: the decoder went on over the changed memory.
    data = wrap(b"\xff" + b"a" * 100)
    buf = data.obj if isinstance(data, memoryview) else data

    def scribble(exc):
        buf[1:] = b"b" * 100
        return ("?", exc.end)

    import codecs

    codecs.register_error("textcodec-test-scribble", scribble)
    assert textcodec.decode(data, "shift_jis", errors="textcodec-test-scribble")[0] == "?" + "a" * 100
    buf[1:] = b"a" * 100
    decoder = textcodec.Decoder("shift_jis", errors="textcodec-test-scribble")
    assert decoder.decode(data, final=True) == "?" + "a" * 100
