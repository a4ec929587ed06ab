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

A lamp mirrored in a glossy table (glare) adds the same white to the table and to a segment
on it, and a webcam's automatic exposure on a dark or white table pushes both towards its
brightest levels: the segment's own saturation falls far below a segment's (a pale pastel
dome), though its colour still differs from the table's by as much as before. So a pixel is
of a segment's colour in the frame when it is saturated, or when it differs from the table's
colour there by a colour (the spread of the channels of the frame minus the table, in grey
levels: a white added to both leaves it whole) of a segment's strength; the test against the
table's colour then keeps out the shadows and grain of a coloured table as before.
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
    min_table_chroma: Or least spread of the channels of the frame minus the table's colour
        there (grey levels; unchanged by a white added to both, a lamp's glare): a segment
        washed pale by glare or exposure differs from the table by its colour still; 0: the
        saturation alone.
    min_chroma: Least spread of its channels (largest minus smallest, grey levels).
    min_table_saturation: Least saturation (0-1) of its colour divided by the table's there
        (the table itself: near 0 in light and shade, whatever its own colour).
    table_window_mm: Width of the window over which the table's colour is the median (wider
        than a worm of segments, narrower than a lamp's or a blind's changes of colour).
    """

    min_saturation: int = 90
    min_table_chroma: int = 20
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


def table_saturation_view(top: np.ndarray, table: np.ndarray) -> np.ndarray:
    """float32 (H, W): :func:`table_saturation` of every pixel of a view ``top`` (uint8
    (H, W, 3)) over the table's colour ``table`` (the same values, bit for bit, channel plane
    by plane: tens of times faster than on the pixels gathered).

    >>> top = np.array([[[50, 100, 150], [40, 160, 60]]], np.uint8)
    >>> table_saturation_view(top, np.array([[[100, 200, 250], [80, 80, 80]]], np.uint8)
    ...                       ).astype(float).round(2).tolist()
    [[0.17, 0.75]]
    """
    n = [cv2.divide(top[..., k].astype(np.float32),
                    cv2.max(table[..., k].astype(np.float32), 1.0)) for k in range(3)]
    hi = cv2.max(cv2.max(n[0], n[1]), n[2])
    lo = cv2.min(cv2.min(n[0], n[1]), n[2])
    return cv2.divide(cv2.subtract(hi, lo), cv2.max(hi, 1e-3))


def chroma_off_table(top: np.ndarray, table: np.ndarray) -> np.ndarray:
    """int16 (H, W): the spread of the channels (largest minus smallest) of ``top`` minus
    ``table`` (uint8 (H, W, 3) each): a colour's difference from the table's, unchanged by a
    white (or grey) added to both.

    >>> t = np.full((1, 2, 3), 200, np.uint8)
    >>> chroma_off_table(np.array([[[150, 190, 240], [120, 120, 120]]], np.uint8), t).tolist()
    [[90, 0]]
    """
    d = [cv2.subtract(top[..., k], table[..., k], dtype=cv2.CV_16S) for k in range(3)]
    return cv2.subtract(cv2.max(cv2.max(d[0], d[1]), d[2]), cv2.min(cv2.min(d[0], d[1]), d[2]))


def frame_coloured(cfg: SegmentMaskConfig, prep: Prepared, off_table: np.ndarray | None = None
                   ) -> np.ndarray:
    """bool (H, W): pixels strongly coloured in the frame itself (inside ``prep.valid``),
    whatever the table's colour: a segment on a table of its own colour is among them; or
    (``min_table_chroma``) differing from the table's colour by a segment's colour
    (``off_table``: :func:`chroma_off_table` of the frame, made when None): a segment washed
    pale by glare."""
    top = prep.top
    hi = cv2.max(cv2.max(top[..., 0], top[..., 1]), top[..., 2])
    lo = cv2.min(cv2.min(top[..., 0], top[..., 1]), top[..., 2])
    chroma = cv2.subtract(hi, lo)
    sat = cv2.divide(chroma, cv2.max(hi, 1), scale=255)
    strong = sat >= cfg.min_saturation
    if cfg.min_table_chroma > 0:
        if off_table is None:
            off_table = chroma_off_table(top, table_colour(top, prep.view.px_per_mm,
                                                           cfg.table_window_mm))
        strong |= off_table >= cfg.min_table_chroma
    return strong & (chroma >= cfg.min_chroma) & (prep.valid > 0)


def segment_mask(cfg: SegmentMaskConfig, prep: Prepared, coloured: np.ndarray | None = None,
                 table: np.ndarray | None = None) -> np.ndarray:
    """uint8 (H, W) 255 where a segment's colour may be (inside ``prep.valid``): of it
    in the frame (``coloured``, :func:`frame_coloured` when None) and against the table
    (``table``: its colour, :func:`table_colour` when None)."""
    top = prep.top
    if table is None:
        table = table_colour(top, prep.view.px_per_mm, cfg.table_window_mm)
    ok = (frame_coloured(cfg, prep, chroma_off_table(top, table)) if coloured is None
          else coloured).copy()
    x, y, w, h = cv2.boundingRect(ok.view(np.uint8))
    if w and h:  # the table's colour is asked only where the frame's own colour may be one
        box = (slice(y, y + h), slice(x, x + w))
        ok[box] &= table_saturation_view(top[box], table[box]) >= cfg.min_table_saturation
    return np.where(ok, 255, 0).astype(np.uint8)
