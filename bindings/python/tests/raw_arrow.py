"""A producer of the Arrow C data interface written with ctypes: arrays with exactly the
buffers, length, offset and null count given, none of it checked. pyarrow validates the
buffers of arrays it builds (though not their offsets' order or the views' targets); a
producer in another language need not, and this one stands in for it."""

import ctypes

RELEASE = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class ArrowSchema(ctypes.Structure):
    _fields_ = [
        ("format", ctypes.c_char_p),
        ("name", ctypes.c_char_p),
        ("metadata", ctypes.c_char_p),
        ("flags", ctypes.c_int64),
        ("n_children", ctypes.c_int64),
        ("children", ctypes.c_void_p),
        ("dictionary", ctypes.c_void_p),
        ("release", ctypes.c_void_p),
        ("private_data", ctypes.c_void_p),
    ]


class ArrowArray(ctypes.Structure):
    _fields_ = [
        ("length", ctypes.c_int64),
        ("null_count", ctypes.c_int64),
        ("offset", ctypes.c_int64),
        ("n_buffers", ctypes.c_int64),
        ("n_children", ctypes.c_int64),
        ("buffers", ctypes.c_void_p),
        ("children", ctypes.c_void_p),
        ("dictionary", ctypes.c_void_p),
        ("release", ctypes.c_void_p),
        ("private_data", ctypes.c_void_p),
    ]


# The interface's release callbacks: mark the structure released (the memory belongs to the
# RawArray object).
@RELEASE
def _release_schema(address):
    ArrowSchema.from_address(address).release = None


@RELEASE
def _release_array(address):
    ArrowArray.from_address(address).release = None


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]

FORMATS = {
    "binary": b"z",
    "large_binary": b"Z",
    "string": b"u",
    "large_string": b"U",
    "binary_view": b"vz",
    "string_view": b"vu",
}


class RawArray:
    """An object with `__arrow_c_array__` exporting `buffers` (bytes objects, or None for a
    null pointer, or an int taken as a raw address) as an array of `arrow_type`.

    `misalign` shifts the buffer of that index by one byte (the bytes are copied one byte
    into a larger allocation), to give a pointer no producer should but one could."""

    def __init__(self, arrow_type, length, buffers, *, offset=0, null_count=-1, misalign=None):
        self.format = FORMATS[arrow_type]
        self.length = length
        self.offset = offset
        self.null_count = null_count
        self._keep = []
        self.addresses = []
        for index, buf in enumerate(buffers):
            if buf is None:
                self.addresses.append(None)
            elif isinstance(buf, int):
                self.addresses.append(buf)
            else:
                shift = 1 if index == misalign else 0
                # 64-byte aligned storage (plus the shift), as Arrow producers allocate.
                raw = ctypes.create_string_buffer(len(buf) + 64 + shift)
                start = (-ctypes.addressof(raw)) % 64 + shift
                ctypes.memmove(ctypes.addressof(raw) + start, buf, len(buf))
                self._keep.append(raw)
                self.addresses.append(ctypes.addressof(raw) + start)

    def __len__(self):
        return self.length

    def __arrow_c_array__(self, requested_schema=None):
        schema = ArrowSchema(
            format=self.format,
            name=b"",
            metadata=None,
            flags=2,
            n_children=0,
            children=None,
            dictionary=None,
            release=ctypes.cast(_release_schema, ctypes.c_void_p).value,
            private_data=None,
        )
        pointers = (ctypes.c_void_p * max(1, len(self.addresses)))(*self.addresses)
        array = ArrowArray(
            length=self.length,
            null_count=self.null_count,
            offset=self.offset,
            n_buffers=len(self.addresses),
            n_children=0,
            buffers=ctypes.addressof(pointers),
            children=None,
            dictionary=None,
            release=ctypes.cast(_release_array, ctypes.c_void_p).value,
            private_data=None,
        )
        # The structures live as long as this object (a consumer may call release on them
        # after the capsules are gone).
        self._keep.extend([schema, array, pointers])
        return (
            _capsule_new(ctypes.addressof(schema), b"arrow_schema", None),
            _capsule_new(ctypes.addressof(array), b"arrow_array", None),
        )
