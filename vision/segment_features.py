"""What a candidate segment looks like, as numbers a learned judge reads.

A candidate is a disc of the segment's radius ``r`` (view pixels) round a centre. It is read on
rings from its centre out to beyond its rim (:data:`RINGS`, in radii), on :data:`ANGLES`
directions each, in seven images that do not depend on how much light falls on the table:

- ``shade``: the frame's brightness (HSV ``V``) over the disc's own median: a lit dome shades
  from a highlight to a darker rim, a printed patch is flat;
- ``saturation``: the frame's HSV ``S`` (0-1);
- ``table_chroma``: the spread of the channels of the frame divided by the table's colour (0-1;
  the table itself is near 0 in light and shade);
- ``mask``: whether the pixel passed :func:`vision.segment_mask.segment_mask` (0 or 1);
- ``level``: the frame's brightness over the table's there (1 on the table in light and shade):
  a dome lit from above is about as bright as the cloth round it or brighter, the shadow of a
  worm on a cloth of the dome's own colour is darker (a blue shadow on a blue cloth);
- ``off_table``: the spread of the channels of the frame minus the table's colour (0-1 of 255,
  :func:`vision.segment_mask.chroma_off_table`): a segment's colour against the table's, whole
  where a lamp's glare adds the same white to both (a pale pastel dome on a glossy table);
- ``relief``: the frame's brightness minus the disc's own median (grey levels over 64): the
  dome's shading, whole under that added white (where ``shade``, a ratio, flattens).

Each ring gives the mean over its directions and their spread (the spread of a square's
corners, of a light from one side). The features depend on nothing but the candidate's pixels
and the segment's radius, so the same judge reads any table, light and camera.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.normalise import TABLE_LEVEL
from vision.prepare import Prepared
from vision.sampling import bilinear
from vision.segment_mask import chroma_off_table, table_colour

RINGS: tuple[float, ...] = (0.0, 0.15, 0.3, 0.45, 0.6, 0.72, 0.84, 0.94, 1.05, 1.2, 1.4, 1.6,
                            1.85)
"""Ring radii, in segment radii."""

ANGLES = 16
"""Directions per ring."""

CHANNELS = ("shade", "saturation", "table_chroma", "mask", "level", "off_table", "relief")

N_FEATURES = len(RINGS) * len(CHANNELS) * 2
"""Length of one candidate's feature vector."""


def candidate_images(prep: Prepared, mask: np.ndarray, off_table: np.ndarray | None = None,
                     window_mm: float = 120.0) -> tuple[np.ndarray, ...]:
    """The float32 (H, W) images the features read (:data:`CHANNELS`, ``shade`` and ``relief``
    still in grey levels: they are taken against each candidate's median); ``off_table``: the
    frame's colour against the table's (:func:`vision.segment_mask.chroma_off_table`, the
    table's colour over ``window_mm``, made when None)."""
    if off_table is None:
        off_table = chroma_off_table(prep.top, table_colour(prep.top, prep.view.px_per_mm,
                                                            window_mm))
    return _images(prep.top, prep.norm, prep.level, mask, off_table)


def _images(top: np.ndarray, norm: np.ndarray, level: np.ndarray, mask: np.ndarray,
            off_table: np.ndarray) -> tuple[np.ndarray, ...]:
    """:func:`candidate_images` of (a window of) the view: each pixel's from its own alone."""
    hsv = cv2.cvtColor(top, cv2.COLOR_BGR2HSV_FULL)
    value = hsv[..., 2].astype(np.float32)
    nhi = cv2.max(cv2.max(norm[..., 0], norm[..., 1]), norm[..., 2])
    nlo = cv2.min(cv2.min(norm[..., 0], norm[..., 1]), norm[..., 2])
    chroma = cv2.subtract(nhi, nlo).astype(np.float32) / (2.55 * TABLE_LEVEL)
    off = off_table.astype(np.float32) / 255.0
    return (value, hsv[..., 1].astype(np.float32) / 255.0, chroma,
            (mask > 0).astype(np.float32), level.astype(np.float32) / TABLE_LEVEL, off,
            value)


def candidate_features(prep: Prepared, mask: np.ndarray, off_table: np.ndarray,
                       centres_px: np.ndarray, r: float) -> np.ndarray:
    """``disc_features(candidate_images(prep, mask, off_table), centres_px, r)``, the same
    values bit for bit, with the images made only in windows round the candidates (groups of
    discs whose reach overlaps share one): a view's float images cost far more than the few
    thousand samples read from them."""
    c = np.asarray(centres_px, float).reshape(-1, 2)
    if not len(c):
        return np.zeros((0, N_FEATURES), np.float32)
    h, w = mask.shape[:2]
    reach = max(RINGS) * r
    # each disc's samples, and the pixels they interpolate between, lie in its box
    x0 = np.clip(np.floor(c[:, 0] - reach) - 2, 0, w).astype(int)
    y0 = np.clip(np.floor(c[:, 1] - reach) - 2, 0, h).astype(int)
    x1 = np.clip(np.ceil(c[:, 0] + reach) + 3, 0, w).astype(int)
    y1 = np.clip(np.ceil(c[:, 1] + reach) + 3, 0, h).astype(int)
    off = (x1 <= x0) | (y1 <= y0)  # (a disc wholly off the view: the whole view's images)
    x0[off], y0[off], x1[off], y1[off] = 0, 0, w, h
    group = _overlapping(np.c_[x0, y0, x1, y1])
    out = np.zeros((len(c), N_FEATURES), np.float32)
    for g in np.unique(group):
        own = np.flatnonzero(group == g)
        xa, ya, xb, yb = x0[own].min(), y0[own].min(), x1[own].max(), y1[own].max()
        win = (slice(ya, yb), slice(xa, xb))
        images = _images(prep.top[win], prep.norm[win], prep.level[win], mask[win],
                         off_table[win])
        out[own] = disc_features(images, c[own], r, origin=(xa, ya))
    return out


def _overlapping(boxes: np.ndarray) -> np.ndarray:
    """A group number per box (N, 4: x0, y0, x1, y1): boxes that overlap, directly or through
    others, share one."""
    n = len(boxes)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    order = np.argsort(boxes[:, 0], kind="stable")
    active: list[int] = []  # boxes whose x range may still reach the next one's
    for i in order:
        active = [j for j in active if boxes[j, 2] > boxes[i, 0]]
        for j in active:
            if boxes[j, 1] < boxes[i, 3] and boxes[i, 1] < boxes[j, 3]:
                parent[root(j)] = root(i)
        active.append(int(i))
    return np.array([root(i) for i in range(n)])


def disc_features(images: tuple[np.ndarray, ...], centres_px: np.ndarray, r: float,
                  origin: tuple[int, int] = (0, 0)) -> np.ndarray:
    """(N, :data:`N_FEATURES`) float32 features of the discs of radius ``r`` round
    ``centres_px`` (N, 2) view pixels (``origin``: the view pixel of the images' top-left
    one, when they are a window of the view holding all the samples).

    >>> img = np.zeros((40, 40), np.float32); _ = cv2.circle(img, (20, 20), 8, 1.0, -1)
    >>> f = disc_features((img + 1, img, img, img, img, img, 64 * img),
    ...                   np.array([[20.0, 20.0]]), 8.0)
    >>> f.shape, float(f[0, 2 * len(RINGS)]), float(f[0, 2 * len(RINGS) + len(RINGS) - 1])
    ((1, 182), 1.0, 0.0)
    >>> float(f[0, 12 * len(RINGS)]), float(f[0, 12 * len(RINGS) + len(RINGS) - 1])
    (0.0, -1.0)
    """
    c = np.asarray(centres_px, float).reshape(-1, 2)
    n = len(c)
    if n == 0:
        return np.zeros((0, N_FEATURES), np.float32)
    a = np.arange(ANGLES) * 2 * np.pi / ANGLES
    rho = np.asarray(RINGS) * r
    offs = rho[:, None, None] * np.stack([np.cos(a), np.sin(a)], axis=1)[None]  # (R, A, 2)
    pts = c[:, None, None] + offs[None]  # (N, R, A, 2)
    if origin != (0, 0):  # (in float32, as sampled: less a whole pixel, exactly)
        pts = pts.astype(np.float32) - np.array(origin, np.float32)
    out = []
    inside = np.asarray(RINGS) <= 0.84
    for k, img in enumerate(images):
        v = bilinear(img, pts)  # (N, R, A)
        if k == 0:  # shade: over the disc's own median brightness
            inner = v[:, inside].reshape(n, -1)
            v = v / np.maximum(np.median(inner, axis=1), 1.0)[:, None, None]
        elif k == 6:  # relief: less the disc's own median brightness, grey levels over 64
            inner = v[:, inside].reshape(n, -1)
            v = (v - np.median(inner, axis=1)[:, None, None]) / 64.0
        out.append(v.mean(axis=2))
        out.append(v.std(axis=2))
    return np.concatenate(out, axis=1).astype(np.float32)
