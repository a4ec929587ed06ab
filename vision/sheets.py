"""Printed sheets lying on the table: the calibration mat and the Jungle board.

A sheet is pale paper covered with black squares (its ArUco markers, text, a grid): left in the
bright mask it reads as a block of face-up tiles. It is never a piece, so the pipeline masks it
out of the play area. A sheet is known two ways:

- from the calibration, when it came from the mat (CAL.json's ``mat`` field: the mat frame is
  the table frame, the sheet spans ``(0, 0)-size_mm``) or from the Jungle board (``board``);
- from its markers seen in a frame (mat ids 0-39, board corners 40-43): the printed layout is
  fitted to them by a similarity (the sheet lies flat: a rotation, a shift and the printer's
  scale), which places the whole sheet even when only one marker shows.

>>> rect = sheet_rect_mm((210.0, 297.0))
>>> rect.tolist()
[[0.0, 0.0], [210.0, 0.0], [210.0, 297.0], [0.0, 297.0]]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from calibration.model import Calibration
from tabletop.markers import JUNGLE_BOARD_IDS, MAT_IDS


@dataclass(frozen=True)
class SheetConfig:
    """Attributes:
    margin_mm: The masked area reaches this far past the sheet's edge (its shadow, a curl).
    every_frames: Markers are looked for on the first frame and then every this many frames
        (a sheet rarely moves; looking costs a few milliseconds).
    max_residual_mm: A fitted layout further than this (mean, per corner) from the seen
        corners is not trusted.
    """

    margin_mm: float = 5.0
    every_frames: int = 90
    max_residual_mm: float = 6.0


def sheet_rect_mm(size_mm: tuple[float, float], origin_mm: tuple[float, float] = (0.0, 0.0)
                  ) -> np.ndarray:
    """The four corners (4, 2) of a sheet's rectangle in its own frame, mm."""
    x0, y0 = origin_mm
    w, h = size_mm
    return np.array([[x0, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h]], float)


def _mat_layouts() -> list[tuple[np.ndarray, dict[int, np.ndarray]]]:
    from calibration.mat import mat_layout
    from tabletop.printing import PAPER_MM

    return [(sheet_rect_mm(PAPER_MM[p]), mat_layout(p)) for p in ("a4", "a3", "letter")]


def _board_layout() -> tuple[np.ndarray, dict[int, np.ndarray]]:
    from tabletop.boards import jungle as g

    ox, oy = g.BOARD_ORIGIN_ON_PAGE_MM
    pw, ph = g.PAGE_MM
    top = g.BOARD_MM[1] + oy  # the page's top edge in the board frame (y grows up the page)
    rect = np.array([[-ox, top], [pw - ox, top], [pw - ox, top - ph], [-ox, top - ph]], float)
    return rect, {k: np.array(v, float) for k, v in g.BOARD_MARKERS.items()}


def sheets_from_calibration(calibration: Calibration) -> list[np.ndarray]:
    """The sheet a calibration was made from, as a polygon in table mm (or none).

    A mat calibration's frame is the mat's (``extra["mat"]["size_mm"]``); a Jungle board's
    (``extra["board"] == "jungle"``) is the board's.
    """
    extra: Mapping[str, Any] = calibration.extra or {}
    out = []
    mat = extra.get("mat")
    if isinstance(mat, Mapping):
        size = mat.get("size_mm")
        try:
            w, h = (float(v) for v in size)  # type: ignore[union-attr]
        except (TypeError, ValueError):
            w = h = 0.0
        if w > 0 and h > 0:
            out.append(sheet_rect_mm((w, h)))
    if extra.get("board") == "jungle":
        out.append(_board_layout()[0])
    return out


def _fit(seen: dict[int, np.ndarray], layout: Mapping[int, np.ndarray], rect: np.ndarray,
         max_residual_mm: float) -> tuple[float, np.ndarray] | None:
    """The sheet's rectangle in table mm from its markers seen there, and the mean residual.

    The table frame may be mirrored against the sheet's (a y axis pointing the other way),
    so the layout is fitted as printed and mirrored, and the better fit kept.
    """
    ids = [k for k in seen if k in layout]
    if not ids:
        return None
    dst = np.concatenate([seen[k] for k in ids]).astype(np.float32)
    best: tuple[float, np.ndarray] | None = None
    for flip in (1.0, -1.0):
        f = np.array([1.0, flip])
        src = (np.concatenate([layout[k] for k in ids]) * f).astype(np.float32)
        M, _ = cv2.estimateAffinePartial2D(src, dst, method=cv2.LMEDS)
        if M is None:
            continue
        res = float(np.linalg.norm(src @ M[:, :2].T + M[:, 2] - dst, axis=1).mean())
        if res <= max_residual_mm and (best is None or res < best[0]):
            best = (res, (rect * f) @ M[:, :2].T + M[:, 2])
    return best


def find_sheets(frame_bgr: np.ndarray, calibration: Calibration,
                max_residual_mm: float = 6.0) -> dict[str, np.ndarray]:
    """The printed sheets whose markers show in a raw frame: ``{"mat"|"board": (4, 2) mm}``.

    Args:
        frame_bgr: The raw camera frame.
        calibration: Pixels -> table mm.
        max_residual_mm: Largest mean misfit of a sheet's layout to its seen corners.
    """
    from vision.tokens import _detector

    grey = frame_bgr if frame_bgr.ndim == 2 else cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    corners, ids, _ = _detector().detectMarkers(grey)
    if ids is None:
        return {}
    mat_seen: dict[int, np.ndarray] = {}
    board_seen: dict[int, np.ndarray] = {}
    for c, k in zip(corners, ids.ravel(), strict=True):
        k = int(k)
        target = mat_seen if k in MAT_IDS else board_seen if k in JUNGLE_BOARD_IDS else None
        if target is not None:
            target[k] = calibration.to_table(np.asarray(c, float).reshape(4, 2))
    out: dict[str, np.ndarray] = {}
    if mat_seen:
        fits = [f for rect, layout in _mat_layouts()
                if (f := _fit(mat_seen, layout, rect, max_residual_mm)) is not None]
        if fits:
            out["mat"] = min(fits, key=lambda f: f[0])[1]
    if board_seen:
        rect, layout = _board_layout()
        f = _fit(board_seen, layout, rect, max_residual_mm)
        if f is not None:
            out["board"] = f[1]
    return out


def sheet_mask(polygons_mm: list[np.ndarray], to_px: Any, shape_hw: tuple[int, int],
               margin_px: float) -> np.ndarray:
    """uint8 (H, W) mask, 255 over the sheets (grown by ``margin_px``), in a view's pixels.

    Args:
        polygons_mm: Each (K, 2) table mm.
        to_px: Table mm (N, 2) -> view pixels (N, 2).
        shape_hw: The view's (height, width).
        margin_px: How far the mask reaches past each edge.
    """
    mask = np.zeros(shape_hw, np.uint8)
    for poly in polygons_mm:
        px = np.asarray(to_px(poly), float)
        c = px.mean(axis=0)
        d = px - c
        n = np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1e-9)
        grown = px + d / n * margin_px * 1.415  # corners move along the diagonals
        cv2.fillPoly(mask, [np.round(grown).astype(np.int32)], 255)
    return mask
