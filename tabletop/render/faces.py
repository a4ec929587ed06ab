"""What is printed on the top of each piece: coin faces, tile backs and faces, ArUco tokens,
die faces. Each face is a float32 BGR image in [0, 1] of a square ``size_mm`` wide at
:data:`FACE_PPM` pixels per millimetre, its row 0 toward the piece's local -y."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from tabletop.markers import ARUCO_DICTIONARY
from tabletop.pieceset import hex_to_rgb
from tabletop.render.symbols import SYMBOLS

FACE_PPM = 8.0
"""Face texture pixels per millimetre."""

CREAM = (0.80, 0.90, 0.95)
"""Coin faces (B, G, R reflectance)."""
TILE_WHITE = (0.88, 0.91, 0.92)
"""Tile faces and backs."""
GRID_GREY = (0.16, 0.16, 0.17)
"""The back's grid lines."""


def hex_bgr(colour: str) -> tuple[float, float, float]:
    """``"#D55E00"`` -> BGR reflectance in [0, 1] (pure black printed ink reflects a little)."""
    r, g, b = hex_to_rgb(colour)
    return tuple(0.05 + 0.9 * c / 255.0 for c in (b, g, r))  # type: ignore[return-value]


def _canvas(size_mm: float, bgr: tuple[float, float, float]) -> np.ndarray:
    n = max(8, round(size_mm * FACE_PPM))
    img = np.empty((n, n, 3), np.float32)
    img[:] = np.asarray(bgr, np.float32)
    return img


def _ink(img: np.ndarray, mask: np.ndarray, bgr: tuple[float, float, float]) -> None:
    m = mask[..., None]
    img *= 1.0 - m
    img += m * np.asarray(bgr, np.float32)


def _frozen(img: np.ndarray) -> np.ndarray:
    img = np.clip(img, 0.0, 1.0).astype(np.float32)
    img.setflags(write=False)
    return img


@lru_cache(maxsize=256)
def coin_face(size_mm: float, suit: str | None, colour_hex: str | None, angle_deg: int,
              face: str = "up") -> np.ndarray:
    """A coin's top: cream, a thin printed ring, the suit symbol (face up) or a numeral (down)."""
    img = _canvas(size_mm, CREAM)
    n = img.shape[0]
    c = ((n - 1) / 2.0, (n - 1) / 2.0)
    ring = np.zeros((n, n), np.float32)
    cv2.circle(ring, (round(c[0] * 16), round(c[1] * 16)), round(0.43 * n * 16), 1.0,
               max(1, round(0.25 * FACE_PPM)), cv2.LINE_AA, 4)
    _ink(img, ring * 0.25, (0.45, 0.5, 0.55))
    if face == "down":
        mask = np.zeros((n, n), np.float32)
        cv2.putText(mask, "2", (round(0.3 * n), round(0.72 * n)), cv2.FONT_HERSHEY_DUPLEX,
                    n / 45.0, 1.0, max(1, n // 25), cv2.LINE_AA)
        _ink(img, mask, (0.1, 0.1, 0.1))
    elif suit is not None and colour_hex is not None:
        mask = np.zeros((n, n), np.float32)
        SYMBOLS[suit](mask, c, 0.3 * n, float(angle_deg))
        _ink(img, mask, hex_bgr(colour_hex))
    return _frozen(img)


@lru_cache(maxsize=64)
def tile_face(size_mm: float, face: str, suit: str | None, colour_hex: str | None,
              angle_deg: int) -> np.ndarray:
    """A tile's top: the back (a 2x2 grid) or the face (a large suit symbol)."""
    img = _canvas(size_mm, TILE_WHITE)
    n = img.shape[0]
    lines = np.zeros((n, n), np.float32)
    inset = 0.06 * n
    w = max(1, round(0.45 * FACE_PPM))
    cv2.rectangle(lines, (round(inset * 16), round(inset * 16)),
                  (round((n - 1 - inset) * 16), round((n - 1 - inset) * 16)), 0.55,
                  max(1, w // 2), cv2.LINE_AA, 4)
    if face == "down":
        mid = round((n - 1) / 2.0 * 16)
        cv2.line(lines, (round(inset * 16), mid), (round((n - 1 - inset) * 16), mid), 1.0,
                 w, cv2.LINE_AA, 4)
        cv2.line(lines, (mid, round(inset * 16)), (mid, round((n - 1 - inset) * 16)), 1.0,
                 w, cv2.LINE_AA, 4)
        _ink(img, np.clip(lines, 0, 1), GRID_GREY)
    else:
        _ink(img, np.clip(lines, 0, 1) * 0.6, GRID_GREY)
        if suit is not None and colour_hex is not None:
            mask = np.zeros((n, n), np.float32)
            SYMBOLS[suit](mask, ((n - 1) / 2.0, (n - 1) / 2.0), 0.3 * n, float(angle_deg))
            _ink(img, mask, hex_bgr(colour_hex))
    return _frozen(img)


@lru_cache(maxsize=64)
def token_face(size_mm: float, marker_id: int | None, border_mm: float = 3.0) -> np.ndarray:
    """A white square with its ArUco marker (``DICT_4X4_250``) inside a white border."""
    img = _canvas(size_mm, (0.9, 0.92, 0.92))
    n = img.shape[0]
    if marker_id is None:
        return _frozen(img)
    dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    inner = max(6, round((size_mm - 2 * border_mm) * FACE_PPM))
    cells = 6
    px = max(cells, (inner // cells) * cells)
    marker = cv2.aruco.generateImageMarker(dictionary, int(marker_id) % 250, px, borderBits=1)
    marker = cv2.resize(marker, (inner, inner), interpolation=cv2.INTER_NEAREST)
    o = (n - inner) // 2
    black = (marker < 128).astype(np.float32)
    mask = np.zeros((n, n), np.float32)
    mask[o:o + inner, o:o + inner] = black
    _ink(img, mask, (0.06, 0.06, 0.06))
    return _frozen(img)


@lru_cache(maxsize=32)
def die_face(size_mm: float, value: str | None) -> np.ndarray:
    """A die's top: blank (null), ``A`` (ace) or a numeral."""
    img = _canvas(size_mm, (0.86, 0.88, 0.88))
    n = img.shape[0]
    if value and value != "null":
        text = "A" if value == "ace" else value
        mask = np.zeros((n, n), np.float32)
        cv2.putText(mask, text, (round(0.28 * n), round(0.75 * n)), cv2.FONT_HERSHEY_DUPLEX,
                    n / 40.0, 1.0, max(1, n // 16), cv2.LINE_AA)
        _ink(img, mask, (0.1, 0.1, 0.1))
    return _frozen(img)


@lru_cache(maxsize=16)
def plain_face(size_mm: float, bgr: tuple[float, float, float]) -> np.ndarray:
    """A plain coloured top (posts, pawns)."""
    return _frozen(_canvas(size_mm, bgr))
