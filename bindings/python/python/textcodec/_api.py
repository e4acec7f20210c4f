"""TextDecoder and TextEncoder with the Encoding Standard's API semantics (section 7).

Python spellings of the JavaScript interfaces: ``ignore_bom`` for ``ignoreBOM``,
``encode_into`` for ``encodeInto``. Where JavaScript throws ``RangeError`` (a label that
is not one, or replacement) these raise ``LookupError``; where it throws ``TypeError`` for
malformed input in fatal mode, ``UnicodeDecodeError`` (a ``ValueError``) with the offsets.
"""

from typing import NamedTuple, Optional, Union

from . import _native
from ._native import Encoding

BytesLike = Union[bytes, bytearray, memoryview]


class EncodeIntoResult(NamedTuple):
    """What ``TextEncoder.encode_into`` did: characters of the source read (Python string
    indices; JavaScript counts UTF-16 code units) and bytes written."""

    read: int
    written: int


class TextDecoder:
    """``TextDecoder`` (https://encoding.spec.whatwg.org/#interface-textdecoder)."""

    __slots__ = ("_encoding", "_fatal", "_ignore_bom", "_decoder", "_do_not_flush")

    def __init__(
        self,
        label: Union[str, Encoding] = "utf-8",
        *,
        fatal: bool = False,
        ignore_bom: bool = False,
    ) -> None:
        encoding = _native.lookup(label)
        if encoding.name == "replacement":
            raise LookupError(f"unknown encoding label: {label!r} (replacement cannot be decoded with TextDecoder)")
        self._encoding = encoding
        self._fatal = bool(fatal)
        self._ignore_bom = bool(ignore_bom)
        self._decoder = _native.Decoder(
            encoding,
            errors="strict" if fatal else "replace",
            bom="keep" if ignore_bom else "remove",
        )
        self._do_not_flush = False

    @property
    def encoding(self) -> str:
        """The encoding's name in lowercase (``"shift_jis"``)."""
        return self._encoding.lowercase_name

    @property
    def fatal(self) -> bool:
        return self._fatal

    @property
    def ignore_bom(self) -> bool:
        return self._ignore_bom

    def decode(self, input: Optional[BytesLike] = None, *, stream: bool = False) -> str:
        """Decodes ``input``; with ``stream=True`` an incomplete sequence at the end is kept
        for the next call. In fatal mode malformed input raises ``UnicodeDecodeError``."""
        if not self._do_not_flush:
            self._decoder.reset()
        self._do_not_flush = bool(stream)
        try:
            return self._decoder.decode(b"" if input is None else input, not stream)
        except UnicodeDecodeError:
            self._do_not_flush = False
            raise

    def __repr__(self) -> str:
        return f"TextDecoder({self.encoding!r}, fatal={self._fatal}, ignore_bom={self._ignore_bom})"


class TextEncoder:
    """``TextEncoder`` (https://encoding.spec.whatwg.org/#interface-textencoder): UTF-8."""

    __slots__ = ()

    @property
    def encoding(self) -> str:
        return "utf-8"

    def encode(self, input: str = "") -> bytes:
        """UTF-8 bytes of ``input``; lone surrogates become U+FFFD (USVString conversion)."""
        return _native.encode(input, "utf-8", errors="replace")

    def encode_into(self, source: str, destination: object) -> EncodeIntoResult:
        """Writes the UTF-8 of ``source`` into the writable buffer ``destination`` (bytearray,
        memoryview, NumPy array...), whole characters only, as much as fits."""
        read, written = _native._encode_into(source, destination)
        return EncodeIntoResult(read, written)

    def __repr__(self) -> str:
        return "TextEncoder()"
