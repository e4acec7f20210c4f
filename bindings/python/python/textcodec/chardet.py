"""chardet's API over textcodec's detector: a drop-in for ``import chardet``.

>>> from textcodec import chardet
>>> chardet.detect("Привет, мир! Как у вас дела сегодня?".encode("cp1251"))["encoding"]
'Windows-1251'
>>> chardet.detect(b"plain text")
{'encoding': 'ascii', 'confidence': 1.0, 'language': None, 'mime_type': 'text/plain'}
>>> chardet.detect(b"")
{'encoding': None, 'confidence': 0.0, 'language': None, 'mime_type': None}

``detect(byte_str)`` returns a dict with chardet's keys: ``encoding`` (a name Python's
codecs know, in chardet's spelling), ``confidence`` (0 to 1) and ``language``, plus
chardet 7's ``mime_type``. ``detect_all(byte_str)`` lists every plausible candidate, most
confident first; ``UniversalDetector`` takes the input in chunks (``feed``, ``done``,
``close``, ``result``, ``reset``). Replace ``import chardet`` with
``from textcodec import chardet``.

What the answers mean, and where they differ from chardet's
-----------------------------------------------------------

* ``confidence`` is calibrated: of the answers given confidence 0.9, about nine in ten
  name an encoding that decodes the bytes to their text (measured on held-out text). It is
  1.0 for ASCII, for a byte order mark and for a binary format's signature.
* Names: chardet's (``ascii``, ``utf-8``, ``UTF-8-SIG``, ``UTF-16``, ``UTF-16LE``,
  ``Windows-1252``, ``ISO-8859-2``, ``KOI8-R``, ``MacCyrillic``, ``MacRoman``, ``IBM866``,
  ``CP874``, ``CP932``, ``CP949``, ``GB18030``, ``Big5``, ``EUC-JP``, ``ISO-2022-JP``),
  always the name of the encoding the WHATWG Encoding Standard decodes with, which is the
  superset chardet's ``prefer_superset=True`` asks for: Shift_JIS text is ``CP932``,
  EUC-KR ``CP949``, GBK ``GB18030``, ISO-8859-1 ``Windows-1252`` (the Standard has no
  ISO-8859-1: browsers read it as windows-1252). ``should_rename_legacy`` and
  ``prefer_superset`` are accepted and change nothing. Python's codecs differ from the
  Standard in a few bytes (``cp1252`` rejects 0x81, ``big5`` lacks HKSCS): the codecs
  ``whatwg-<name>`` that ``import textcodec`` registers decode exactly as browsers do.
* ``language``: an ISO 639-1 code (``"ru"``, ``"ja"``; chardet 7's convention, chardet
  5 gave English names) where the model knows it: Japanese, Chinese and Korean by the
  encoding, the languages of a single-byte script by their letters when one clearly
  leads; None for UTF-8, UTF-16, ASCII and binary input (chardet 7 guesses "en" for
  ASCII).
* Empty input gives ``encoding`` None and confidence 0.0 (chardet 5 and 6 did; chardet 7
  returns ``utf-8`` at 0.1 unless ``empty_input_encoding`` says otherwise).
* Binary input (PNG, GIF, JPEG, PDF, ZIP, gzip, ELF, WebAssembly …, or control bytes no
  text has) gives ``encoding`` None; ``mime_type`` names the format when its signature
  was seen, else ``application/octet-stream``.
* Candidates: the 38 of the Standard's detector (UTF-8, UTF-16LE/BE, the legacy
  single-byte and CJK encodings of the web). Not detected: UTF-32, EBCDIC, HZ,
  ISO-2022-KR/CN, the DOS code pages but 866, MacCentralEurope (no WHATWG decoder).
  ``include_encodings`` and ``exclude_encodings`` take any WHATWG label or one of the
  names above; a name the detector cannot answer raises ValueError.
* Accepted and ignored (the detector reads the whole input with bounded memory, stopping
  once sure): ``encoding_era``, ``chunk_size``, ``max_bytes``, ``lang_filter``,
  ``compat_names`` (names are always chardet's).
"""

from typing import Dict, Iterable, List, Optional, Union

from ._native import Detector as _Detector
from ._native import DetectResult as _DetectResult
from ._native import detect as _detect
from ._native import lookup as _lookup

__all__ = ["detect", "detect_all", "UniversalDetector", "MINIMUM_THRESHOLD"]

#: ``detect_all`` leaves out candidates at or below this confidence (unless all are).
MINIMUM_THRESHOLD = 0.20

# WHATWG encoding name -> the name chardet gives it.
_NAMES = {
    "UTF-8": "utf-8",
    "UTF-16LE": "UTF-16LE",
    "UTF-16BE": "UTF-16BE",
    "IBM866": "IBM866",
    "ISO-8859-2": "ISO-8859-2",
    "ISO-8859-3": "ISO-8859-3",
    "ISO-8859-4": "ISO-8859-4",
    "ISO-8859-5": "ISO-8859-5",
    "ISO-8859-6": "ISO-8859-6",
    "ISO-8859-7": "ISO-8859-7",
    "ISO-8859-8": "ISO-8859-8",
    "ISO-8859-8-I": "ISO-8859-8",
    "ISO-8859-10": "ISO-8859-10",
    "ISO-8859-13": "ISO-8859-13",
    "ISO-8859-14": "ISO-8859-14",
    "ISO-8859-15": "ISO-8859-15",
    "ISO-8859-16": "ISO-8859-16",
    "KOI8-R": "KOI8-R",
    "KOI8-U": "KOI8-U",
    "macintosh": "MacRoman",
    "windows-874": "CP874",
    "windows-1250": "Windows-1250",
    "windows-1251": "Windows-1251",
    "windows-1252": "Windows-1252",
    "windows-1253": "Windows-1253",
    "windows-1254": "Windows-1254",
    "windows-1255": "Windows-1255",
    "windows-1256": "Windows-1256",
    "windows-1257": "Windows-1257",
    "windows-1258": "Windows-1258",
    "x-mac-cyrillic": "MacCyrillic",
    "GBK": "GB18030",
    "gb18030": "GB18030",
    "Big5": "Big5",
    "EUC-JP": "EUC-JP",
    "ISO-2022-JP": "ISO-2022-JP",
    "Shift_JIS": "CP932",
    "EUC-KR": "CP949",
}

# Names of chardet's (and Python's) that are not WHATWG labels -> WHATWG encodings.
_ALIASES = {
    "cp932": ["Shift_JIS"], "ms932": ["Shift_JIS"], "cp949": ["EUC-KR"], "uhc": ["EUC-KR"],
    "maccyrillic": ["x-mac-cyrillic"], "mac-cyrillic": ["x-mac-cyrillic"],
    "macroman": ["macintosh"], "mac-roman": ["macintosh"], "cp874": ["windows-874"],
    "utf-16": ["UTF-16LE", "UTF-16BE"], "utf-8-sig": ["UTF-8"], "big5hkscs": ["Big5"],
    "iso-2022-jp-2": ["ISO-2022-JP"], "gb2312": ["GBK", "gb18030"], "gbk": ["GBK", "gb18030"],
    "gb18030": ["GBK", "gb18030"], "hz-gb-2312": None,
}

# Byte order marks: (bytes, chardet's name), longest first.
_BOMS = [
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xef\xbb\xbf", "UTF-8-SIG"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
]

# Binary formats (textcodec's names) -> MIME types.
_MIME = {
    "PNG": "image/png", "GIF": "image/gif", "JPEG": "image/jpeg", "WebP": "image/webp",
    "TIFF": "image/tiff", "PDF": "application/pdf", "ZIP": "application/zip",
    "gzip": "application/gzip", "bzip2": "application/x-bzip2", "xz": "application/x-xz",
    "Zstandard": "application/zstd", "7-Zip": "application/x-7z-compressed",
    "RAR": "application/vnd.rar", "ELF": "application/x-elf",
    "Mach-O": "application/x-mach-binary", "WebAssembly": "application/wasm",
    "Ogg": "application/ogg", "FLAC": "audio/flac", "MP3": "audio/mpeg", "MP4": "video/mp4",
    "Matroska": "video/x-matroska", "RIFF": "application/x-riff",
    "SQLite": "application/vnd.sqlite3",
}

_Result = Dict[str, Union[str, float, None]]


def _empty() -> _Result:
    return {"encoding": None, "confidence": 0.0, "language": None, "mime_type": None}


def _result(encoding, confidence, language=None, mime_type="text/plain") -> _Result:
    return {"encoding": encoding, "confidence": confidence, "language": language,
            "mime_type": mime_type}


def _bom(head: bytes) -> Optional[str]:
    for bom, name in _BOMS:
        if head.startswith(bom):
            return name
    return None


def _labels(names: Optional[Iterable[str]]) -> Optional[List[str]]:
    """chardet's encoding names to WHATWG encoding names (ValueError if unknown)."""
    if names is None:
        return None
    out = []
    for name in names:
        key = str(name).strip().lower().replace("_", "-")
        if key in _ALIASES:
            targets = _ALIASES[key]
            if targets is None:
                raise ValueError(f"textcodec.chardet cannot detect {name!r}")
            out.extend(targets)
            continue
        try:
            out.append(_lookup(key).name)
        except (LookupError, ValueError):
            raise ValueError(f"unknown encoding name {name!r}") from None
    return out


def _hints(include_encodings, exclude_encodings) -> dict:
    allow = _labels(include_encodings)
    deny = _labels(exclude_encodings)
    return {"allow": allow, "deny": deny or None}


def _from_guess(r: _DetectResult) -> _Result:
    if r.binary is not None:
        # As chardet 7: sure that it is not text.
        return _result(None, 1.0, None, _MIME.get(r.binary, "application/octet-stream"))
    if r.ascii_only and r.encoding != "ISO-2022-JP":
        return _result("ascii", 1.0)
    return _result(_NAMES.get(r.encoding, r.encoding), r.confidence, r.language)


def _check(byte_str) -> bytes:
    if not isinstance(byte_str, (bytes, bytearray)):
        raise TypeError(
            f"Expected object of type bytes or bytearray, got: {type(byte_str)}")
    return byte_str


def detect(byte_str: Union[bytes, bytearray], should_rename_legacy: bool = False,
           encoding_era=None, chunk_size: int = 65536, max_bytes: int = 200000, *,
           prefer_superset: bool = False, compat_names: bool = True,
           include_encodings: Optional[Iterable[str]] = None,
           exclude_encodings: Optional[Iterable[str]] = None) -> _Result:
    """The encoding of ``byte_str``: ``{"encoding", "confidence", "language",
    "mime_type"}`` (see the module's documentation)."""
    data = _check(byte_str)
    if not data:
        return _empty()
    bom = _bom(data[:4])
    if bom is not None:
        return _result(bom, 1.0)
    return _from_guess(_detect(data, **_hints(include_encodings, exclude_encodings)))


def detect_all(byte_str: Union[bytes, bytearray], ignore_threshold: bool = False,
               should_rename_legacy: bool = False, encoding_era=None,
               chunk_size: int = 65536, max_bytes: int = 200000, *,
               prefer_superset: bool = False, compat_names: bool = True,
               include_encodings: Optional[Iterable[str]] = None,
               exclude_encodings: Optional[Iterable[str]] = None) -> List[_Result]:
    """Every candidate for ``byte_str`` with its confidence, most confident first, one per
    name; those at or below MINIMUM_THRESHOLD are left out unless ``ignore_threshold``
    (or unless all are)."""
    data = _check(byte_str)
    if not data:
        return [_empty()]
    bom = _bom(data[:4])
    if bom is not None:
        return [_result(bom, 1.0)]
    r = _detect(data, **_hints(include_encodings, exclude_encodings))
    first = _from_guess(r)
    if first["encoding"] in (None, "ascii"):
        return [first]
    out = [first]
    seen = {first["encoding"]}
    for name, confidence in r.confidences[1:]:
        compat = _NAMES.get(name, name)
        if compat in seen or confidence <= 0.0:
            continue
        seen.add(compat)
        out.append(_result(compat, confidence, None))
    out.sort(key=lambda d: -d["confidence"])
    if ignore_threshold:
        return out
    kept = [d for d in out if d["confidence"] > MINIMUM_THRESHOLD]
    return kept or out


class UniversalDetector:
    """chardet's streaming detector: ``feed`` chunks, ``close`` for the result.

    ``done`` turns True once the detector has seen enough (later chunks are then
    ignored); ``result`` is the empty result until ``close``; ``reset`` starts over.
    Memory stays bounded whatever the input's size.
    """

    MINIMUM_THRESHOLD = MINIMUM_THRESHOLD

    def __init__(self, lang_filter=None, should_rename_legacy: bool = False,
                 encoding_era=None, max_bytes: int = 200000, *,
                 prefer_superset: bool = False, compat_names: bool = True,
                 include_encodings: Optional[Iterable[str]] = None,
                 exclude_encodings: Optional[Iterable[str]] = None) -> None:
        self._hints = _hints(include_encodings, exclude_encodings)
        self.reset()

    def reset(self) -> None:
        """Forgets all input: the detector is as new."""
        self._detector = _Detector()
        self._head = b""
        self._bom: Optional[str] = None
        self._closed = False
        self._fed = False
        self.done = False
        self.result: _Result = _empty()

    def feed(self, byte_str: Union[bytes, bytearray]) -> None:
        """Examines the next chunk of input."""
        if self._closed:
            raise ValueError("feed() after close(): call reset() first")
        data = _check(byte_str)
        if self.done or not data:
            return
        self._fed = True
        if len(self._head) < 4:
            self._head += bytes(data[: 4 - len(self._head)])
            bom = _bom(self._head)
            # A BOM decides as soon as it is complete and cannot be a longer one.
            if bom is not None and (len(self._head) >= 4 or bom not in ("UTF-16",)):
                self._bom = bom
                self.done = True
                return
        if self._detector.feed(data):
            self.done = True

    def close(self) -> _Result:
        """Ends the input; returns (and keeps in ``result``) the answer."""
        if self._closed:
            return self.result
        self._closed = True
        self.done = True
        if not self._fed:
            self.result = _empty()
            return self.result
        bom = self._bom or _bom(self._head)
        if bom is not None:
            self.result = _result(bom, 1.0)
            return self.result
        self._detector.feed(b"", True)
        self.result = _from_guess(self._detector.guess(**self._hints))
        return self.result
