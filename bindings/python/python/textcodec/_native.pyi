"""Type stubs for the extension module ``textcodec._native`` (re-exported by ``textcodec``)."""

from typing import Any, Dict, Iterable, List, Optional, Protocol, Tuple, Union, final

import sys
if sys.version_info >= (3, 12):
    from collections.abc import Buffer as _Buffer
else:
    _Buffer = bytes

_BytesLike = Union[bytes, bytearray, memoryview, "_Buffer"]
_Label = Union[str, bytes, "Encoding"]

__all__ = [
    "Encoding",
    "lookup",
    "encodings",
    "decode",
    "_core_decode",
    "_buffer_is_immutable",
    "_kernel_info",
    "Decoder",
    "encode",
    "_encode_into",
    "Encoder",
    "SniffReport",
    "sniff",
    "DetectResult",
    "detect",
    "decode_html",
    "ArrowArray",
    "_arrow_decode",
    "_arrow_decode_html",
]

class _ArrowArrayExportable(Protocol):
    def __arrow_c_array__(self, requested_schema: Optional[object] = None) -> Tuple[object, object]: ...

@final
class Encoding:
    """One of the Standard's 40 encodings (hashable, comparable)."""

    @property
    def name(self) -> str: ...
    @property
    def lowercase_name(self) -> str: ...
    @property
    def labels(self) -> Tuple[str, ...]: ...
    @property
    def codec_name(self) -> str: ...
    @property
    def is_ascii_compatible(self) -> bool: ...
    @property
    def is_single_byte(self) -> bool: ...
    @property
    def is_utf16(self) -> bool: ...
    @property
    def has_encoder(self) -> bool: ...
    @property
    def output_encoding(self) -> "Encoding": ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

def lookup(label: _Label) -> Encoding:
    """The encoding a label names; ``LookupError`` naming the label if none."""

def encodings() -> List[Encoding]:
    """All 40 encodings, in the Standard's order."""

def decode(
    data: _BytesLike,
    label: _Label = "utf-8",
    *,
    errors: str = "replace",
    bom: str = "sniff",
) -> Tuple[str, str]:
    """The Standard's *decode*: returns (text, name of the encoding used)."""

def encode(
    text: str,
    label: _Label = "utf-8",
    *,
    errors: str = "strict",
    output_encoding: bool = True,
) -> bytes:
    """The Standard's *encode*; errors: "strict", "html" (or "xmlcharrefreplace"),
    "replace" ("?"), "ignore", or a registered codecs error handler."""

def _core_decode(data: _BytesLike, label: _Label) -> Tuple[str, str]: ...
def _buffer_is_immutable(data: _BytesLike) -> bool:
    """Whether `data`'s memory is a bytes object's (read in place with the GIL released)."""
def _kernel_info() -> Dict[str, Any]:
    """The SIMD kernel level in use and what became of TEXTCODEC_KERNEL (for tests)."""
def _encode_into(source: str, destination: Any) -> Tuple[int, int]: ...

@final
class Decoder:
    """Incremental decoder: chunks may be split anywhere."""

    def __new__(cls, label: _Label = "utf-8", *, errors: str = "replace", bom: str = "sniff") -> "Decoder": ...
    def decode(self, data: _BytesLike, final: bool = False) -> str: ...
    def reset(self) -> None: ...
    @property
    def encoding(self) -> str: ...
    @property
    def errors(self) -> str: ...
    @property
    def pending(self) -> bytes: ...

@final
class Encoder:
    """Incremental encoder (ISO-2022-JP keeps its state between calls)."""

    def __new__(cls, label: _Label = "utf-8", *, errors: str = "strict", output_encoding: bool = True) -> "Encoder": ...
    def encode(self, text: str, final: bool = False) -> bytes: ...
    def reset(self) -> None: ...
    @property
    def encoding(self) -> str: ...
    @property
    def errors(self) -> str: ...

@final
class SniffReport:
    """Which encoding a browser would use, and why; ``str()`` gives one line."""

    @property
    def encoding(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def confidence(self) -> str: ...
    @property
    def offset(self) -> Optional[int]: ...
    @property
    def bom_length(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def meta(self) -> Optional[str]: ...
    @property
    def detection_score(self) -> Optional[float]: ...
    @property
    def detection_margin(self) -> Optional[float]: ...

@final
class DetectResult:
    """The statistical detector's guess for unlabelled bytes."""

    @property
    def encoding(self) -> str: ...
    @property
    def confidence(self) -> float: ...
    @property
    def language(self) -> Optional[str]: ...
    @property
    def language_name(self) -> Optional[str]: ...
    @property
    def binary(self) -> Optional[str]: ...
    @property
    def score(self) -> float: ...
    @property
    def margin(self) -> float: ...
    @property
    def ascii_only(self) -> bool: ...
    @property
    def stopped_early(self) -> bool: ...
    @property
    def ranking(self) -> List[Tuple[str, float, bool]]: ...
    @property
    def confidences(self) -> List[Tuple[str, float]]: ...

_Labels = Optional[Iterable[Union[str, bytes, Encoding]]]

def detect(
    data: _BytesLike,
    *,
    tld: Optional[str] = None,
    allow_utf8: bool = True,
    locale: Optional[str] = None,
    allow: _Labels = None,
    deny: _Labels = None,
) -> DetectResult: ...

class Detector:
    """The streaming detector: feed chunks split anywhere, then guess."""

    def __init__(self) -> None: ...
    def feed(self, data: _BytesLike, last: bool = False) -> bool: ...
    @property
    def done(self) -> bool: ...
    @property
    def bytes_examined(self) -> int: ...
    def guess(
        self,
        *,
        tld: Optional[str] = None,
        allow_utf8: bool = True,
        locale: Optional[str] = None,
        allow: _Labels = None,
        deny: _Labels = None,
    ) -> DetectResult: ...

def sniff(
    data: _BytesLike,
    content_type: Union[str, bytes, None] = None,
    *,
    kind: str = "html",
    locale: Optional[str] = None,
    fallback: Optional[_Label] = None,
    user_override: Optional[_Label] = None,
    detect: bool = False,
    tld: Optional[str] = None,
) -> SniffReport: ...
def decode_html(
    body: _BytesLike,
    content_type: Union[str, bytes, None] = None,
    *,
    locale: Optional[str] = None,
    fallback: Optional[_Label] = None,
    user_override: Optional[_Label] = None,
    detect: bool = False,
    tld: Optional[str] = None,
) -> Tuple[str, str]: ...

@final
class ArrowArray:
    """A decoded Arrow array (Arrow PyCapsule interface)."""

    def __arrow_c_array__(self, requested_schema: Optional[object] = None) -> Tuple[object, object]: ...
    def __len__(self) -> int: ...
    @property
    def type(self) -> str: ...

def _arrow_decode(
    array: _ArrowArrayExportable,
    encoding: Union[_Label, _ArrowArrayExportable],
    *,
    errors: str = "replace",
    bom: str = "sniff",
) -> ArrowArray: ...
def _arrow_decode_html(bodies: _ArrowArrayExportable, content_types: Any = None) -> ArrowArray: ...
