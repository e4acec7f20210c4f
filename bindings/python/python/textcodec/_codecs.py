"""Registers every label of the Encoding Standard with Python's codecs as ``whatwg-<label>``.

``b"\\x82\\xa0".decode("whatwg-shift_jis")``, ``"é".encode("whatwg-latin1")``,
``codecs.getincrementaldecoder("whatwg-gbk")``, ``open(path, encoding="whatwg-euc-kr")``.

- Decoding is the Standard's *decode*: a UTF-8/UTF-16 byte order mark at the start wins
  over the label and is removed.
- Encoding uses the label's encoder; UTF-16BE/LE labels use textcodec's UTF-16 encoders
  (so text round-trips), and replacement encodes as UTF-8 (its output encoding).
- Error handlers: ``strict`` (default), ``replace`` (decoding: U+FFFD per malformed
  sequence as browsers do; encoding: ``?``), ``ignore``, ``xmlcharrefreplace`` (= the
  Standard's html mode, ``&#N;``), ``backslashreplace``, ``surrogateescape``,
  ``namereplace`` (encoding), and any handler registered with ``codecs.register_error``
  that resumes right after the error (the usual case).
"""

import codecs
from typing import Any, Dict, List, Optional, Tuple

from . import _native
from ._native import Encoding

PREFIX = "whatwg-"


def _normalize(name: str) -> str:
    """The form ``codecs.lookup`` gives search functions (Python >= 3.9): lowercase, each run
    of characters other than letters, digits and ``.`` as one ``_``, none at the ends."""
    out: List[str] = []
    pending = False
    for c in name.lower():
        if c.isalnum() or c == ".":
            if pending and out:
                out.append("_")
            out.append(c)
            pending = False
        else:
            pending = True
    return "".join(out)


def _label_table() -> Dict[str, Encoding]:
    table: Dict[str, Encoding] = {}
    for encoding in _native.encodings():
        for label in encoding.labels:
            key = _normalize(label)
            other = table.setdefault(key, encoding)
            if other != encoding:  # pragma: no cover - checked by the tests
                raise AssertionError(f"labels collide after normalization: {key}")
    return table


_LABELS = _label_table()
_CACHE: Dict[Encoding, codecs.CodecInfo] = {}


def _codec_info(encoding: Encoding) -> codecs.CodecInfo:
    def decode(input: Any, errors: str = "strict") -> Tuple[str, int]:
        text, _ = _native.decode(input, encoding, errors=errors, bom="sniff")
        return text, memoryview(input).nbytes

    def encode(input: str, errors: str = "strict") -> Tuple[bytes, int]:
        return _native.encode(input, encoding, errors=errors, output_encoding=False), len(input)

    class IncrementalDecoder(codecs.IncrementalDecoder):
        def __init__(self, errors: str = "strict") -> None:
            super().__init__(errors)
            self._decoder = _native.Decoder(encoding, errors=errors)

        def decode(self, input: bytes, final: bool = False) -> str:  # type: ignore[override]
            return self._decoder.decode(input, final)

        def reset(self) -> None:
            self._decoder.reset()

        def getstate(self):  # type: ignore[no-untyped-def]
            return (self._decoder.pending, 0)

        def setstate(self, state) -> None:  # type: ignore[no-untyped-def]
            self._decoder.reset()
            self._decoder.decode(state[0])

    class IncrementalEncoder(codecs.IncrementalEncoder):
        def __init__(self, errors: str = "strict") -> None:
            super().__init__(errors)
            self._encoder = _native.Encoder(encoding, errors=errors, output_encoding=False)

        def encode(self, input: str, final: bool = False) -> bytes:  # type: ignore[override]
            return self._encoder.encode(input, final)

        def reset(self) -> None:
            self._encoder.reset()

    class StreamWriter(codecs.StreamWriter):
        def __init__(self, stream, errors: str = "strict") -> None:  # type: ignore[no-untyped-def]
            super().__init__(stream, errors)
            self._encoder = _native.Encoder(encoding, errors=errors, output_encoding=False)

        def encode(self, input: str, errors: str = "strict"):  # type: ignore[no-untyped-def,override]
            return self._encoder.encode(input), len(input)

        def reset(self) -> None:
            tail = self._encoder.encode("", True)
            if tail:
                self.stream.write(tail)

    class StreamReader(codecs.StreamReader):
        def __init__(self, stream, errors: str = "strict") -> None:  # type: ignore[no-untyped-def]
            super().__init__(stream, errors)
            self._decoder = _native.Decoder(encoding, errors=errors)

        def decode(self, input: bytes, errors: str = "strict"):  # type: ignore[no-untyped-def,override]
            return self._decoder.decode(input), len(input)

        def reset(self) -> None:
            super().reset()
            self._decoder.reset()

    return codecs.CodecInfo(
        name=encoding.codec_name,
        encode=encode,
        decode=decode,
        incrementalencoder=IncrementalEncoder,
        incrementaldecoder=IncrementalDecoder,
        streamreader=StreamReader,
        streamwriter=StreamWriter,
    )


def search(name: str) -> Optional[codecs.CodecInfo]:
    """The search function registered with ``codecs.register``."""
    prefix = _normalize(PREFIX)  # "whatwg"
    if not name.startswith(prefix + "_"):
        return None
    encoding = _LABELS.get(name[len(prefix) + 1 :])
    if encoding is None:
        return None
    info = _CACHE.get(encoding)
    if info is None:
        info = _CACHE[encoding] = _codec_info(encoding)
    return info


_registered = False


def register() -> None:
    """Registers :func:`search` once (``import textcodec`` does it)."""
    global _registered
    if not _registered:
        codecs.register(search)
        _registered = True
