"""Colour and brightness normalisation against the table.

The table's own colour is estimated per frame from a coarse median (pieces are small against
the window, so they do not move the median), and every pixel is divided by it: the table comes
out neutral grey at :data:`TABLE_LEVEL` whatever the light's colour and strength, so a cloud or
a lamp switched on changes nothing the stages see.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

TABLE_LEVEL = 100
"""The value the table takes in a normalised view (uint8; up to 2.55x brighter fits)."""


@dataclass(frozen=True)
class NormaliseConfig:
    """Attributes:
    cell_mm: Size of one cell of the coarse background grid.
    window_mm: Width of the median window (must exceed the largest cluster of pieces).
    """

    cell_mm: float = 8.0
    window_mm: float = 200.0


def table_background(cfg: NormaliseConfig, top_bgr: np.ndarray, valid: np.ndarray,
                     px_per_mm: float) -> np.ndarray:
    """The table's colour at every view pixel, uint8 (H, W, 3) (pieces and hands left out)."""
    h, w = top_bgr.shape[:2]
    cell_px = max(1.0, cfg.cell_mm * px_per_mm)
    sw, sh = max(1, round(w / cell_px)), max(1, round(h / cell_px))
    small = cv2.resize(top_bgr, (sw, sh), interpolation=cv2.INTER_AREA)
    vsmall = cv2.resize(valid, (sw, sh), interpolation=cv2.INTER_AREA) > 250
    if vsmall.any():
        fill = np.median(small[vsmall], axis=0)
        small[~vsmall] = fill.astype(np.uint8)
    k = int(cfg.window_mm / cfg.cell_mm) | 1
    k = max(3, min(k, (min(sw, sh) - 1) | 1 if min(sw, sh) > 3 else 3))
    bg = cv2.medianBlur(small, k)
    bg = cv2.blur(bg, (3, 3))
    return cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)


def normalise(cfg: NormaliseConfig, top_bgr: np.ndarray, valid: np.ndarray,
              px_per_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """The view divided by the table's colour, and that colour.

    Returns:
        ``(norm, background)``: ``norm`` uint8 (H, W, 3) with the table at :data:`TABLE_LEVEL`
        in every channel; ``background`` uint8 (H, W, 3).
    """
    bg = table_background(cfg, top_bgr, valid, px_per_mm)
    norm = cv2.divide(top_bgr, cv2.max(bg, 1), scale=TABLE_LEVEL)
    return norm, bg
