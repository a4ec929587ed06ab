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
    """The table's colour at every view pixel, uint8 (H, W, 3) (pieces and hands left out).

    The view is averaged over whole cells of ``cell`` pixels (a whole number: OpenCV's fast
    path), median-filtered over the window and interpolated back up.
    """
    h, w = top_bgr.shape[:2]
    cell = max(1, round(cfg.cell_mm * px_per_mm))
    sw, sh = max(1, w // cell), max(1, h // cell)
    small = cv2.resize(top_bgr[:sh * cell, :sw * cell], (sw, sh), interpolation=cv2.INTER_AREA)
    vsmall = cv2.resize(valid[:sh * cell, :sw * cell], (sw, sh),
                        interpolation=cv2.INTER_AREA) > 250
    if vsmall.any() and not vsmall.all():
        # cells the camera does not (fully) see take the colour of the valid cells near them
        # (vignetting darkens the view's edges: a global colour there would be wrong)
        v = vsmall.astype(np.float32)
        near = max(3, int(2 * cfg.window_mm * px_per_mm / cell) | 1)
        num = cv2.boxFilter(small.astype(np.float32) * v[..., None], -1, (near, near),
                            normalize=False)
        den = cv2.boxFilter(v, -1, (near, near), normalize=False)[..., None]
        fill = np.median(small[vsmall], axis=0)
        local = np.where(den > 0.5, num / np.maximum(den, 1e-6), fill)
        small[~vsmall] = np.clip(local[~vsmall], 0, 255).astype(np.uint8)
    k = int(cfg.window_mm * px_per_mm / cell) | 1
    k = max(3, min(k, (min(sw, sh) - 1) | 1 if min(sw, sh) > 3 else 3))
    bg = cv2.medianBlur(small, k)
    bg = cv2.blur(bg, (3, 3))
    up = cv2.resize(bg, (sw * cell, sh * cell), interpolation=cv2.INTER_LINEAR)[:h, :w]
    if up.shape[:2] != (h, w):  # the last part-cell: its neighbour's colour
        up = cv2.copyMakeBorder(up, 0, h - up.shape[0], 0, w - up.shape[1],
                                cv2.BORDER_REPLICATE)
    return up


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
