"""The printable calibration mat: ArUco markers at known positions on a sheet of paper.

The mat fixes the world frame: origin at the sheet's top-left corner, x to the right, y down,
millimetres. A ring of markers (ids from 0, ``tabletop.markers.MAT_IDS``) runs round the sheet's
edge and leaves the middle clear; one more marker inside the ring names the paper size, so
``calibrate`` can tell an A4 mat from a Letter one by itself. A 100 mm scale bar and the
instruction to check it with a ruler are printed in the middle (printers rescale; a measured
length can be given to ``calibrate --bar-mm``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from calibration.errors import CalibrationError
from tabletop.markers import ARUCO_DICTIONARY, MAT_IDS
from tabletop.printing import PAPER_MM, px_per_mm

MARKER_MM: dict[str, float] = {"a4": 30.0, "a3": 40.0, "letter": 30.0}
"""Side of the printed markers (outer black border) per paper."""

MARGIN_MM = 12.0
"""Blank border at the sheet's edge (printers cannot print to the edge)."""

PAPER_MARKER_IDS: dict[str, int] = {"a4": MAT_IDS[-3], "a3": MAT_IDS[-2], "letter": MAT_IDS[-1]}
"""The marker inside the ring that names the paper (not part of any ring)."""

BAR_MM = 100.0
"""Length of the printed scale bar."""

LAYOUT_VERSION = 1


def dictionary() -> cv2.aruco.Dictionary:
    """The ArUco dictionary of the mat (and of every marker of the product)."""
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))


def _ring_positions(n_across: int, n_down: int, size_mm: tuple[float, float],
                    marker_mm: float) -> list[tuple[float, float]]:
    """Top-left corners (mm) of a ring of markers, clockwise from the sheet's top-left."""
    w, h = size_mm
    xs = np.linspace(MARGIN_MM, w - MARGIN_MM - marker_mm, n_across)
    ys = np.linspace(MARGIN_MM, h - MARGIN_MM - marker_mm, n_down)
    ring = [(x, ys[0]) for x in xs]                      # top, left to right
    ring += [(xs[-1], y) for y in ys[1:]]                # right, downwards
    ring += [(x, ys[-1]) for x in xs[-2::-1]]            # bottom, right to left
    ring += [(xs[0], y) for y in ys[-2:0:-1]]            # left, upwards
    return [(float(x), float(y)) for x, y in ring]


def _count(length_mm: float, marker_mm: float) -> int:
    """How many markers fit along a side with gaps of at least half a marker."""
    usable = length_mm - 2 * MARGIN_MM
    return max(2, int((usable + 0.5 * marker_mm) // (1.5 * marker_mm)))


def _square(x_mm: float, y_mm: float, s_mm: float) -> np.ndarray:
    return np.array([[x_mm, y_mm], [x_mm + s_mm, y_mm], [x_mm + s_mm, y_mm + s_mm],
                     [x_mm, y_mm + s_mm]], dtype=float)


def mat_layout(paper: str = "a4") -> dict[int, np.ndarray]:
    """Marker corners of a mat, without drawing it.

    Args:
        paper: ``a4``, ``a3`` or ``letter``.

    Returns:
        id -> (4, 2) corners in mm in the mat frame, in ArUco's order (TL, TR, BR, BL).

    >>> corners = mat_layout("a4")
    >>> corners[0].tolist()
    [[12.0, 12.0], [42.0, 12.0], [42.0, 42.0], [12.0, 42.0]]
    """
    if paper not in PAPER_MM:
        raise CalibrationError(f"unknown paper {paper!r} (choose from {', '.join(PAPER_MM)})")
    w, h = PAPER_MM[paper]
    m = MARKER_MM[paper]
    ring = _ring_positions(_count(w, m), _count(h, m), (w, h), m)
    if len(ring) > PAPER_MARKER_IDS["a4"]:  # pragma: no cover - a layout constant is wrong
        raise AssertionError("the mat ring needs more ids than MAT_IDS has")
    out = {MAT_IDS[i]: _square(x, y, m) for i, (x, y) in enumerate(ring)}
    # the paper marker: centred, just inside the bottom row of the ring
    px, py = (w - m) / 2, h - MARGIN_MM - 2.5 * m
    out[PAPER_MARKER_IDS[paper]] = _square(px, py, m)
    return out


@dataclass(frozen=True, eq=False)
class MatSheet:
    """A drawn mat.

    Attributes:
        paper: ``a4``, ``a3`` or ``letter``.
        image_bgr: (H, W, 3) uint8, the sheet at ``dpi``; pixel (i, j) covers
            [j / px_per_mm, (j + 1) / px_per_mm) in x (mm), likewise in y.
        dpi: Pixels per inch of ``image_bgr``.
        size_mm: (width, height) of the sheet.
        marker_mm: Side of a marker.
        marker_corners_mm: id -> (4, 2) corners in mm (TL, TR, BR, BL as ArUco returns them).
    """

    paper: str
    image_bgr: np.ndarray
    dpi: float
    size_mm: tuple[float, float]
    marker_mm: float
    marker_corners_mm: Mapping[int, np.ndarray]

    def __post_init__(self) -> None:
        self.image_bgr.setflags(write=False)
        for c in self.marker_corners_mm.values():
            c.setflags(write=False)

    def layout(self) -> dict[str, Any]:
        """The JSON-able layout (what ``calibrate`` stores in CAL.json's ``mat``)."""
        return layout_json(self.paper)


def layout_json(paper: str, scale: float = 1.0) -> dict[str, Any]:
    """JSON-able layout of a mat, corners scaled by ``scale`` (a measured bar / 100 mm)."""
    corners = mat_layout(paper)
    w, h = PAPER_MM[paper]
    return {"version": LAYOUT_VERSION, "paper": paper, "dictionary": ARUCO_DICTIONARY,
            "size_mm": [w * scale, h * scale], "marker_mm": MARKER_MM[paper] * scale,
            "scale": scale,
            "markers": {str(k): (v * scale).round(6).tolist() for k, v in corners.items()}}


def layout_from_json(obj: Mapping[str, Any]) -> dict[int, np.ndarray]:
    """The ``markers`` of a layout JSON as id -> (4, 2) corners in mm."""
    try:
        out = {int(k): np.asarray(v, dtype=float).reshape(4, 2)
               for k, v in obj["markers"].items()}
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CalibrationError(f"a marker layout must map ids to 4 corners ({exc})") from None
    return out


def _draw_marker(img: np.ndarray, marker_id: int, corners_mm: np.ndarray, ppmm: float) -> None:
    """Draws a marker exactly: each pixel takes the cell its centre falls in."""
    bits = cv2.aruco.generateImageMarker(dictionary(), marker_id, 6, borderBits=1)
    (x0, y0), (x1, y1) = corners_mm[0], corners_mm[2]
    j0, j1 = int(np.floor(x0 * ppmm)), int(np.ceil(x1 * ppmm))
    i0, i1 = int(np.floor(y0 * ppmm)), int(np.ceil(y1 * ppmm))
    cx = ((np.arange(j0, j1) + 0.5) / ppmm - x0) / (x1 - x0) * 6
    cy = ((np.arange(i0, i1) + 0.5) / ppmm - y0) / (y1 - y0) * 6
    inside_x = (cx >= 0) & (cx < 6)
    inside_y = (cy >= 0) & (cy < 6)
    cols = np.clip(cx.astype(int), 0, 5)
    rows = np.clip(cy.astype(int), 0, 5)
    patch = bits[np.ix_(rows, cols)]
    region = img[i0:i1, j0:j1]
    mask = np.outer(inside_y, inside_x)
    region[mask] = patch[mask]


def _rect(img: np.ndarray, x0: float, y0: float, x1: float, y1: float, ppmm: float) -> None:
    """Fills a black rectangle given in mm (pixels whose centre is inside)."""
    j0, j1 = int(np.ceil(x0 * ppmm - 0.5)), int(np.ceil(x1 * ppmm - 0.5))
    i0, i1 = int(np.ceil(y0 * ppmm - 0.5)), int(np.ceil(y1 * ppmm - 0.5))
    img[i0:i1, j0:j1] = 0


def _text(img: np.ndarray, text: str, x_mm: float, y_mm: float, height_mm: float,
          ppmm: float, max_width_mm: float = 1e9) -> None:
    """Writes a line of text from (x_mm, y_mm) (baseline), shrunk to fit ``max_width_mm``."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = height_mm * ppmm / 22.0  # Hershey simplex capitals are about 22 px at scale 1
    width_px = cv2.getTextSize(text, font, scale, 1)[0][0]
    scale *= min(1.0, max_width_mm * ppmm / max(width_px, 1))
    thick = max(1, round(scale * 1.6))
    cv2.putText(img, text, (round(x_mm * ppmm), round(y_mm * ppmm)), font, scale, (0, 0, 0),
                thick, cv2.LINE_AA)


def make_mat(paper: str = "a4", dpi: float = 300) -> MatSheet:
    """Draws the printable mat.

    Args:
        paper: ``a4``, ``a3`` or ``letter``.
        dpi: Print resolution of the image.

    Returns:
        The sheet, with its marker corners in mm.
    """
    corners = mat_layout(paper)
    if not dpi > 0:
        raise CalibrationError(f"dpi must be positive, not {dpi}")
    w_mm, h_mm = PAPER_MM[paper]
    m = MARKER_MM[paper]
    ppmm = px_per_mm(dpi)
    img = np.full((round(h_mm * ppmm), round(w_mm * ppmm)), 255, np.uint8)
    for marker_id, c in corners.items():
        _draw_marker(img, marker_id, c, ppmm)
    # scale bar: 100 mm, ticks every 10 mm, in the middle of the sheet
    x0, y0 = (w_mm - BAR_MM) / 2, h_mm / 2
    _rect(img, x0, y0, x0 + BAR_MM, y0 + 1.0, ppmm)
    for k in range(11):
        tick = 6.0 if k % 5 == 0 else 3.5
        _rect(img, x0 + k * 10 - 0.25, y0 - tick, x0 + k * 10 + 0.25, y0, ppmm)
    _rect(img, x0 - 0.25, y0 - 6, x0, y0 + 6, ppmm)
    _rect(img, x0 + BAR_MM, y0 - 6, x0 + BAR_MM + 0.25, y0 + 6, ppmm)
    left = MARGIN_MM + m + 6
    width = w_mm - 2 * left
    lines = [
        (f"Tabletop referee calibration mat - {paper.upper()}", 5.0, h_mm / 2 - 45),
        (f"markers {m:g} mm, {ARUCO_DICTIONARY}", 3.5, h_mm / 2 - 35),
        ("Print at 100% (actual size), no scaling.", 3.5, h_mm / 2 - 20),
        ("Check the bar below with a ruler: it must be 100 mm.", 3.2, h_mm / 2 - 12),
        ("If it is not, give its length:", 3.2, h_mm / 2 + 16),
        ("tabletop calibrate IMAGE --bar-mm LENGTH", 3.2, h_mm / 2 + 23),
        ("Keep the mat flat and in view while playing.", 3.2, h_mm / 2 + 35),
    ]
    for text, size, y in lines:
        _text(img, text, left, y, size, ppmm, width)
    _text(img, "0", x0 - 1.5, y0 + 11, 3.0, ppmm)
    _text(img, "100 mm", x0 + BAR_MM - 8, y0 + 11, 3.0, ppmm)
    bgr = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    return MatSheet(paper, bgr, float(dpi), (w_mm, h_mm), m,
                    {k: v.copy() for k, v in corners.items()})
