"""Decode Arrow binary columns with the Encoding Standard, row by row.

Zero-copy in and out: input buffers are read in place through the Arrow C data interface
(the PyCapsule protocol, ``__arrow_c_array__``), and the result's buffers are handed to the
consumer without a copy. The GIL is released while decoding. pyarrow is optional: without
it the functions return :class:`ArrowArray` objects, which any Arrow-aware library
(Polars, DuckDB, ...) imports through the same protocol; with it they return pyarrow
arrays.

- ``binary``, ``large_binary`` and ``binary_view`` arrays (``string`` arrays too, read as
  their bytes), or chunked arrays of them; nulls stay null.
- Output: ``string``, or ``large_string`` when the input is large or the text outgrows
  32-bit offsets (2 GiB).

The engine recipes (Spark ``mapInArrow``, pandas/Arrow UDFs, Polars ``map_batches``) are in
the package README.
"""

from typing import Any, List, Optional, Union

from . import _native
from ._native import ArrowArray, Encoding

__all__ = ["ArrowArray", "decode", "decode_html"]


def _pyarrow() -> Any:
    try:
        import pyarrow  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - pyarrow is optional
        return None
    return pyarrow


def _chunks(array: Any) -> Optional[List[Any]]:
    """The chunks of a chunked input (pyarrow ChunkedArray, Polars Series, any Arrow stream),
    or None for a single array."""
    if hasattr(array, "__arrow_c_array__"):
        return None
    pa = _pyarrow()
    if pa is None:
        raise TypeError(
            "chunked Arrow input needs pyarrow; pass an object with __arrow_c_array__ instead"
        )
    if isinstance(array, pa.ChunkedArray):
        return list(array.chunks)
    if hasattr(array, "__arrow_c_stream__"):
        return list(pa.chunked_array(array).chunks)
    if hasattr(array, "to_arrow"):  # Polars Series, older versions
        return _chunks(array.to_arrow()) or [array.to_arrow()]
    raise TypeError(f"expected an Arrow array, not {type(array).__name__!r}")


def _per_row(value: Any) -> Any:
    """A column of labels or content types as an Arrow array (lists become pyarrow arrays)."""
    if isinstance(value, (list, tuple)):
        pa = _pyarrow()
        if pa is None:
            raise TypeError("a list of labels needs pyarrow; pass an Arrow string array")
        return pa.array(value, pa.string())
    if not hasattr(value, "__arrow_c_array__") and hasattr(value, "__arrow_c_stream__"):
        pa = _pyarrow()
        if pa is not None:
            return pa.chunked_array(value).combine_chunks()
    return value


def _is_column(value: Any) -> bool:
    return hasattr(value, "__arrow_c_array__")


def _finish(results: List[ArrowArray], chunked: bool) -> Any:
    pa = _pyarrow()
    if pa is None:
        return results[0] if not chunked else results
    arrays = [pa.array(r) for r in results]
    if not chunked:
        return arrays[0]
    types = {a.type for a in arrays}
    if len(types) > 1:  # some chunk outgrew 32-bit offsets: one type for all
        target = pa.large_string() if pa.types.is_string(arrays[0].type) or pa.types.is_large_string(arrays[0].type) else None
        if target is not None:
            arrays = [a.cast(target) for a in arrays]
        else:
            arrays = [a.cast(pa.struct([("text", pa.large_string()), ("encoding", pa.string())])) for a in arrays]
    return pa.chunked_array(arrays, type=arrays[0].type if arrays else None)


def decode(
    array: Any,
    encoding: Union[str, Encoding, Any] = "utf-8",
    *,
    errors: str = "replace",
    bom: str = "sniff",
) -> Any:
    """Decodes every row of a binary column: the Standard's *decode* per row (a BOM wins
    unless ``bom="keep"``; ``"remove"`` removes only the encoding's own BOM).

    ``encoding``: a label (or :class:`textcodec.Encoding`) for every row, or a string
    column (Arrow array or list) with one label per row (a null label means UTF-8).
    ``errors``: ``"replace"`` (U+FFFD, as browsers), ``"strict"`` (``UnicodeDecodeError``
    naming the row; ``object`` is the row's bytes), or ``"null"`` (malformed rows
    become null).
    """
    chunks = _chunks(array)
    labels = _per_row(encoding)
    if chunks is None:
        return _finish([_native._arrow_decode(array, labels, errors=errors, bom=bom)], False)
    results = []
    start = 0
    for chunk in chunks:
        chunk_labels = labels.slice(start, len(chunk)) if _is_column(labels) else labels
        results.append(_native._arrow_decode(chunk, chunk_labels, errors=errors, bom=bom))
        start += len(chunk)
    return _finish(results, True)


def decode_html(bodies: Any, content_types: Any = None) -> Any:
    """Decodes every row as a browser decodes an HTML page (BOM, then the row's
    Content-Type charset, then a ``<meta>`` in its first 1024 bytes, then windows-1252).

    ``content_types``: None, one ``Content-Type`` value for all rows, or a string column
    (Arrow array or list) with one per row (null: no header). Returns a struct array with
    fields ``text`` (string) and ``encoding`` (the encoding's name); a null body gives a
    null row.
    """
    chunks = _chunks(bodies)
    types = _per_row(content_types)
    if chunks is None:
        return _finish([_native._arrow_decode_html(bodies, types)], False)
    results = []
    start = 0
    for chunk in chunks:
        chunk_types = types.slice(start, len(chunk)) if _is_column(types) else types
        results.append(_native._arrow_decode_html(chunk, chunk_types))
        start += len(chunk)
    return _finish(results, True)
