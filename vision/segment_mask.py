"""Where a Worm Up! segment's colour may be: strongly coloured, and of another colour than the
table under it, whatever the light's strength there.

A segment is a saturated colour. Two measures that do not depend on how much light falls on a
pixel (the stripes of a blind, a dim lamp, a dark rim of the dome) tell it from the table:

- its own saturation (HSV ``S``: the share of its brightest channel its colour takes), high for
  a segment and low for the pale pieces, most tables and every grey shadow;
- its colour against the table's there (the frame divided by the table's colour, where the
  table is neutral grey in sun and shade alike): far from grey for a segment, near it for the
  table, so a green felt or a blue cloth, saturated themselves, stay out while a segment of
  nearly their hue but of another saturation or shade stands out.

A third guard keeps out the noise of a dark corner (a saturation computed from a few grey
levels): the colour must span some grey levels in the frame itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.prepare import Prepared


@dataclass(frozen=True)
class SegmentMaskConfig:
    """Attributes:
    min_saturation: Least HSV saturation (0-255) of a segment's pixel in the frame.
    min_chroma: Least spread of its channels (largest minus smallest, grey levels).
    min_table_saturation: Least saturation (0-1) of its colour divided by the table's there
        (the table itself: near 0 in light and shade, whatever its own colour).
    table_window_mm: Width of the window over which the table's colour is the median (wider
        than a worm of segments, narrower than a lamp's or a blind's changes of colour).
    """

    min_saturation: int = 90
    min_chroma: int = 14
    min_table_saturation: float = 0.15
    table_window_mm: float = 120.0


def table_colour(top: np.ndarray, px_per_mm: float, window_mm: float) -> np.ndarray:
    """uint8 (H, W, 3): the table's colour at each pixel, the median over a window of
    ``window_mm`` of a view shrunk to cells of about 4 mm (pieces are too few to move it)."""
    h, w = top.shape[:2]
    f = max(1, round(4.0 * px_per_mm))
    small = cv2.resize(top, (max(1, w // f), max(1, h // f)), interpolation=cv2.INTER_AREA)
    k = max(3, round(window_mm * px_per_mm / f) | 1)
    k = min(k, (min(small.shape[:2]) - 1) | 1) if min(small.shape[:2]) > 3 else 1
    med = cv2.medianBlur(small, k) if k >= 3 else small
    return cv2.resize(med, (w, h), interpolation=cv2.INTER_LINEAR)


def table_saturation(top: np.ndarray, table: np.ndarray) -> np.ndarray:
    """float32 (N,): saturation (0-1) of pixels (N, 3) divided by the table's colour there
    (N, 3): 0 where a pixel has the table's colour at any brightness.

    >>> table_saturation(np.array([[50, 100, 150], [40, 160, 60]]), np.array([[100, 200, 300],
    ...                  [80, 80, 80]])).round(2).tolist()
    [0.0, 0.75]
    """
    n = top.astype(np.float32) / np.maximum(table.astype(np.float32), 1.0)
    hi = n.max(axis=1)
    return (hi - n.min(axis=1)) / np.maximum(hi, 1e-3)


def frame_coloured(cfg: SegmentMaskConfig, prep: Prepared) -> np.ndarray:
    """bool (H, W): pixels strongly coloured in the frame itself (inside ``prep.valid``),
    whatever the table's colour: a segment on a table of its own colour is among them."""
    top = prep.top
    hi = cv2.max(cv2.max(top[..., 0], top[..., 1]), top[..., 2])
    lo = cv2.min(cv2.min(top[..., 0], top[..., 1]), top[..., 2])
    chroma = cv2.subtract(hi, lo)
    sat = cv2.divide(chroma, cv2.max(hi, 1), scale=255)
    return (sat >= cfg.min_saturation) & (chroma >= cfg.min_chroma) & (prep.valid > 0)


def segment_mask(cfg: SegmentMaskConfig, prep: Prepared,
                 coloured: np.ndarray | None = None) -> np.ndarray:
    """uint8 (H, W) 255 where a segment's colour may be (inside ``prep.valid``): of it
    in the frame (``coloured``, :func:`frame_coloured` when None) and against the table."""
    top = prep.top
    ok = (frame_coloured(cfg, prep) if coloured is None else coloured).copy()
    ys, xs = np.nonzero(ok)
    if len(ys):  # the table's colour is asked only where the frame's own colour may be one
        table = table_colour(top, prep.view.px_per_mm, cfg.table_window_mm)
        ok[ys, xs] = table_saturation(top[ys, xs], table[ys, xs]) >= cfg.min_table_saturation
    return np.where(ok, 255, 0).astype(np.uint8)
