"""A minimal PNG writer (zlib and struct only): screenshots need no imaging library at run time."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np
import numpy.typing as npt


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(pixels: npt.NDArray[np.uint8]) -> bytes:
    """PNG bytes of an (height, width, 3 or 4) uint8 array (RGB or RGBA)."""
    if pixels.ndim != 3 or pixels.shape[2] not in (3, 4) or pixels.dtype != np.uint8:
        raise ValueError("expected an (h, w, 3|4) uint8 array")
    h, w, c = pixels.shape
    colour_type = 6 if c == 4 else 2
    raw = np.zeros((h, 1 + w * c), dtype=np.uint8)  # filter byte 0 (None) per row
    raw[:, 1:] = np.ascontiguousarray(pixels).reshape(h, w * c)
    ihdr = struct.pack(">IIBBBBB", w, h, 8, colour_type, 0, 0, 0)
    return b"".join(
        [
            b"\x89PNG\r\n\x1a\n",
            _chunk(b"IHDR", ihdr),
            _chunk(b"IDAT", zlib.compress(raw.tobytes(), 9)),
            _chunk(b"IEND", b""),
        ]
    )


def write_png(path: str | Path, pixels: npt.NDArray[np.uint8]) -> Path:
    """Write ``pixels`` as a PNG to ``path``, a regular file (a FIFO, a device or a directory there: FileRefused)."""
    from undercroft.content.loader import write_checked

    write_checked(path, encode_png(pixels))
    return Path(path)
