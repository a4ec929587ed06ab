"""Reading a picture file safely: its size checked from its header before any decoding.

A 1 MB PNG may declare 20000x20000 pixels and cost gigabytes to decode; a half-written JPEG
decodes silently into a wrong picture. :func:`read_image` reads the header first (PNG, JPEG,
BMP, GIF, WebP, TIFF), refuses a picture larger than any picture of a table
(:func:`tabletop.limits.check_image_size`), refuses a JPEG without its end marker or a PNG
without its end chunk (a file cut short), and only then decodes. Every error is one line naming
the file: a missing file, a folder, a file that is not a picture and a picture cut short are
told apart.

>>> import struct, zlib
>>> ihdr = struct.pack(">IIBBBBB", 20000, 20000, 8, 2, 0, 0, 0)
>>> png = b"\\x89PNG\\r\\n\\x1a\\n" + struct.pack(">I", 13) + b"IHDR" + ihdr + b"\\0" * 4
>>> header_size(png)
('png', 20000, 20000)
"""

from __future__ import annotations

import os
import struct
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tabletop.errors import InputError
from tabletop.limits import MAX_FILE_BYTES, check_image_size


class ImageFileError(InputError):
    """A picture file that cannot be read: missing, not a picture, cut short or too large."""


class NoSuchImage(ImageFileError):
    """The file is not there (it may be written later)."""


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    i = 2
    n = len(data)
    while i + 4 <= n:
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        (length,) = struct.unpack(">H", data[i + 2:i + 4])
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if i + 9 > n:
                return None
            h, w = struct.unpack(">HH", data[i + 5:i + 9])
            return w, h
        i += 2 + length
    return None


_SIGNATURES = ((b"\x89PNG", "PNG"), (b"\xff\xd8", "JPEG"), (b"BM", "BMP"), (b"GIF8", "GIF"),
               (b"RIFF", "WebP"), (b"II*\x00", "TIFF"), (b"MM\x00*", "TIFF"))


def _unknown(data: bytes, what: str) -> ImageFileError:
    kind = next((name for sig, name in _SIGNATURES if data.startswith(sig)), None)
    if kind is not None:
        return ImageFileError(f"{what}: not a readable image (its {kind} header is damaged)")
    return ImageFileError(f"{what}: not an image (not PNG, JPEG, BMP, GIF, WebP or TIFF)")


def header_size(data: bytes) -> tuple[str, int, int] | None:
    """``(format, width, height)`` read from a picture's first bytes, or None when unknown."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24 and data[12:16] == b"IHDR":
        w, h = struct.unpack(">II", data[16:24])
        return "png", w, h
    if data.startswith(b"\xff\xd8"):
        size = _jpeg_size(data)
        return None if size is None else ("jpeg", size[0], size[1])
    if data.startswith(b"BM") and len(data) >= 26:
        w, h = struct.unpack("<ii", data[18:26])
        return "bmp", abs(w), abs(h)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        w, h = struct.unpack("<HH", data[6:10])
        return "gif", w, h
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP" and len(data) >= 30:
        chunk = data[12:16]
        if chunk == b"VP8X":
            w = 1 + int.from_bytes(data[24:27], "little")
            h = 1 + int.from_bytes(data[27:30], "little")
            return "webp", w, h
        if chunk == b"VP8 ":
            w, h = struct.unpack("<HH", data[26:30])
            return "webp", w & 0x3FFF, h & 0x3FFF
        if chunk == b"VP8L" and len(data) >= 25:
            bits = int.from_bytes(data[21:25], "little")
            return "webp", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
        return None
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return _tiff_size(data)
    return None


def _tiff_size(data: bytes) -> tuple[str, int, int] | None:
    end = "<" if data[:2] == b"II" else ">"
    try:
        (ifd,) = struct.unpack(end + "I", data[4:8])
        (count,) = struct.unpack(end + "H", data[ifd:ifd + 2])
        size: dict[int, int] = {}
        for k in range(count):
            e = ifd + 2 + 12 * k
            tag, kind = struct.unpack(end + "HH", data[e:e + 4])
            if tag in (256, 257):
                fmt = end + ("H" if kind == 3 else "I")
                (size[tag],) = struct.unpack(fmt, data[e + 8:e + 8 + struct.calcsize(fmt)])
        return "tiff", size[256], size[257]
    except (struct.error, KeyError):
        return None


def check_complete(kind: str, data: bytes, what: str) -> None:
    """Refuses a JPEG without its end marker or a PNG without its end chunk (cut short)."""
    tail = data[-64:].rstrip(b"\x00\r\n ")
    if kind == "jpeg" and not tail.endswith(b"\xff\xd9"):
        raise ImageFileError(f"{what}: the JPEG is cut short (no end marker); was it still "
                             f"being written?")
    if kind == "png" and b"IEND" not in data[-32:]:
        raise ImageFileError(f"{what}: the PNG is cut short (no end chunk); was it still "
                             f"being written?")


def read_bytes(path: str | Path) -> bytes:
    """A picture file's bytes (at most :data:`~tabletop.limits.MAX_FILE_BYTES`).

    Raises:
        NoSuchImage: the file is not there. ImageFileError: a folder, unreadable, too large.
    """
    p = Path(path)
    try:
        size = p.stat().st_size
    except FileNotFoundError:
        raise NoSuchImage(f"{p}: no such image file") from None
    except OSError as exc:
        raise ImageFileError(f"{p}: cannot read ({exc.strerror})") from None
    if p.is_dir():
        raise ImageFileError(f"{p}: is a folder, not an image file")
    if size > MAX_FILE_BYTES:
        raise ImageFileError(f"{p}: {size} bytes is larger than any picture this program "
                             f"reads (at most {MAX_FILE_BYTES})")
    try:
        return p.read_bytes()
    except FileNotFoundError:
        raise NoSuchImage(f"{p}: no such image file") from None
    except OSError as exc:
        raise ImageFileError(f"{p}: cannot read ({exc.strerror})") from None


_STDERR_LOCK = threading.Lock()


def quietly(decode: Callable[[], Any]) -> tuple[Any, str]:
    """Runs a decoder with the process's stderr caught: the image libraries write their warnings
    there ("Corrupt JPEG data: ..."); they become part of the one-line error instead."""
    with _STDERR_LOCK, tempfile.TemporaryFile() as caught:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(caught.fileno(), 2)
        try:
            out = decode()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        caught.seek(0)
        return out, caught.read().decode("utf-8", "replace")


def decode(data: bytes, what: str, grey: bool = False) -> Any:
    """Decodes a picture's bytes after checking its header: BGR (or grey) ``uint8`` array.

    Raises:
        ImageFileError: empty, not a picture, too large, cut short or undecodable.
    """
    import cv2
    import numpy as np

    kind, _, _ = _checked_header(data, what)
    flags = cv2.IMREAD_GRAYSCALE if grey else cv2.IMREAD_COLOR
    image, said = quietly(lambda: cv2.imdecode(np.frombuffer(data, np.uint8), flags))
    damage = [ln.strip() for ln in said.splitlines()
              if "corrupt" in ln.lower() or "premature end" in ln.lower()]
    if damage:
        raise ImageFileError(f"{what}: the {kind.upper()} is damaged ({damage[0]})")
    if image is None or image.size == 0:
        raise ImageFileError(f"{what}: not a readable image (a damaged {kind.upper()})")
    return image


def check_file(path: str | Path) -> tuple[int, int]:
    """``(width, height)`` of a picture file whose header and end were checked (no decoding).

    Raises:
        NoSuchImage, ImageFileError: as :func:`read_image`.
    """
    _, w, h = _checked_header(read_bytes(path), str(path))
    return w, h


def _checked_header(data: bytes, what: str) -> tuple[str, int, int]:
    """``(kind, width, height)`` of a picture whose header, size and end were checked."""
    if not data:
        raise ImageFileError(f"{what}: empty file, not an image")
    head = header_size(data)
    if head is None:
        raise _unknown(data, what)
    kind, w, h = head
    check_image_size(w, h, what)
    check_complete(kind, data, what)
    return kind, w, h


def read_image(path: str | Path, grey: bool = False) -> Any:
    """Reads a picture file as a BGR (or grey) ``uint8`` array, checked before decoding.

    Raises:
        NoSuchImage: the file is missing. ImageFileError: anything else wrong with it.
    """
    return decode(read_bytes(path), str(path), grey)
