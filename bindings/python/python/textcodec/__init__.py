"""The WHATWG Encoding Standard for Python: browser-exact decoding and encoding.

All 40 encodings and 228 labels of https://encoding.spec.whatwg.org/, decoded and encoded
byte for byte as browsers do, by the textcodec Rust library:

>>> import textcodec
>>> textcodec.decode(b"\\x93\\xfa\\x96\\x7b", "sjis")
('日本', 'Shift_JIS')
>>> textcodec.encode("日本", "shift_jis")
b'\\x93\\xfa\\x96{'
>>> b"\\x81".decode("whatwg-windows-1252")  # Python's cp1252 raises here
'\\x81'

``import textcodec`` registers every label with Python's codecs under the prefix
``whatwg-``. ``textcodec.arrow`` decodes Arrow binary columns (pyarrow, Polars, Spark).
"""

from typing import TYPE_CHECKING

from ._native import (
    DetectResult,
    Detector,
    Decoder,
    Encoder,
    Encoding,
    SniffReport,
    decode,
    decode_html,
    detect,
    encode,
    encodings,
    lookup,
    sniff,
)
from ._api import EncodeIntoResult, TextDecoder, TextEncoder
from . import _codecs

if TYPE_CHECKING:
    from . import arrow as arrow

__version__ = "0.1.0"

__all__ = [
    "Decoder",
    "DetectResult",
    "Detector",
    "EncodeIntoResult",
    "Encoder",
    "Encoding",
    "SniffReport",
    "TextDecoder",
    "TextEncoder",
    "decode",
    "decode_html",
    "detect",
    "encode",
    "encodings",
    "lookup",
    "sniff",
]

_codecs.register()


def __getattr__(name: str):  # noqa: ANN202 - module attribute hook
    # `textcodec.arrow` without an explicit import; pyarrow stays optional.
    if name == "arrow":
        import importlib

        return importlib.import_module(".arrow", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
