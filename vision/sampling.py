"""Sub-pixel sampling of images (shared by the stages that fit edges)."""

from __future__ import annotations

import math

import cv2
import numpy as np

REMAP_MAX = 32766
"""The widest and tallest image or map ``cv2.remap`` takes (its sides must be < SHRT_MAX)."""


def remap_layout(n: int, max_cols: int = REMAP_MAX) -> tuple[int, int]:
    """``(rows, cols)`` of a map holding ``n`` samples that ``cv2.remap`` takes: one row
    while they fit in it, else rows of ``max_cols`` (the last one padded).

    >>> remap_layout(5), remap_layout(32766), remap_layout(32767), remap_layout(10, 4)
    ((1, 5), (1, 32766), (2, 32766), (3, 4))
    """
    if n <= 0:
        raise ValueError(f"a map of {n} samples")
    cols = min(n, max_cols)
    rows = math.ceil(n / cols)
    if rows > REMAP_MAX:
        raise ValueError(f"{n} samples are more than one remap can take")
    return rows, cols


def _gather(src: np.ndarray, m: np.ndarray) -> np.ndarray:
    """Bilinear samples of ``src`` (float32, 2-D) at points ``m`` (N, 2), clamped to it,
    by numpy (for an image too big for ``cv2.remap``)."""
    h, w = src.shape
    x = np.clip(m[:, 0].astype(np.float64), 0.0, w - 1)
    y = np.clip(m[:, 1].astype(np.float64), 0.0, h - 1)
    x0, y0 = np.floor(x).astype(np.intp), np.floor(y).astype(np.intp)
    x1, y1 = np.minimum(x0 + 1, w - 1), np.minimum(y0 + 1, h - 1)
    fx, fy = x - x0, y - y0
    top = src[y0, x0] * (1 - fx) + src[y0, x1] * fx
    bottom = src[y1, x0] * (1 - fx) + src[y1, x1] * fx
    return (top * (1 - fy) + bottom * fy).astype(np.float32)


def bilinear(img: np.ndarray, xy: np.ndarray, max_cols: int = REMAP_MAX) -> np.ndarray:
    """Bilinear samples of a 2-D image at points ``xy`` (..., 2), clamped to the image.

    OpenCV's remap does the work (several times faster than gathering with numpy); it
    interpolates at 1/32 of a pixel, so a sample is off by at most the image's gradient over
    1/64 of a pixel. Any number of points: they are laid out in rows of at most ``max_cols``
    (:func:`remap_layout`; remap takes no side of 32,767 or more), each sample the same
    whatever the layout.

    >>> img = np.array([[0.0, 1.0], [2.0, 3.0]], np.float32)
    >>> bilinear(img, np.array([[0.5, 0.5], [0.25, 0.0]])).tolist()
    [1.5, 0.25]
    >>> bilinear(np.array([[0, 1], [2, 3]], np.uint8), np.array([[0.5, 0.5]])).tolist()
    [1.5]
    >>> bilinear(img, np.array([[0.5, 0.5], [0.25, 0.0], [1.0, 1.0]]), max_cols=2).tolist()
    [1.5, 0.25, 3.0]
    """
    xy = np.asarray(xy)
    shape = xy.shape[:-1]
    if not xy.size:
        return np.zeros(shape, np.float32)
    m = xy.reshape(-1, 2).astype(np.float32)
    n = len(m)
    src = img
    h, w = img.shape[:2]
    if img.dtype != np.float32 or max(h, w) > REMAP_MAX:
        # only the points' box (remap would round whole-numbered images' samples)
        x0 = int(np.clip(np.floor(m[:, 0].min()), 0, w - 1))
        y0 = int(np.clip(np.floor(m[:, 1].min()), 0, h - 1))
        x1 = int(np.clip(np.ceil(m[:, 0].max()) + 2, x0 + 1, w))
        y1 = int(np.clip(np.ceil(m[:, 1].max()) + 2, y0 + 1, h))
        src = img[y0:y1, x0:x1].astype(np.float32)
        m = m - np.array([x0, y0], np.float32)
    if max(src.shape[:2]) > REMAP_MAX:  # points spread over an image too big for remap
        return _gather(src, m).reshape(shape)
    rows, cols = remap_layout(n, max_cols)
    if rows * cols > n:
        m = np.concatenate([m, np.zeros((rows * cols - n, 2), np.float32)])
    out = cv2.remap(src, m.reshape(rows, cols, 2), None, cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REPLICATE)
    return out.reshape(-1)[:n].reshape(shape).astype(np.float32, copy=False)


def bilinear_channels(win: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Bilinear samples (C, ...) of every channel of a float32 window (H, W, C) at points
    (..., 2), clamped to it: as :func:`bilinear` samples one channel, in one pass of remap
    while the points fit one row of it.

    >>> win = np.dstack([np.array([[0.0, 1.0], [2.0, 3.0]], np.float32)] * 2)
    >>> bilinear_channels(win, np.array([[0.5, 0.5]])).tolist()
    [[1.5], [1.5]]
    """
    shape = pts.shape[:-1]
    m = pts.reshape(-1, 2).astype(np.float32)
    if len(m) > REMAP_MAX:
        return np.stack([bilinear(np.ascontiguousarray(win[..., c]), pts)
                         for c in range(win.shape[2])])
    out = cv2.remap(win, m.reshape(1, -1, 2), None, cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REPLICATE).reshape(len(m), -1)
    return out.T.reshape((win.shape[2], *shape))


def ray_fan(away: np.ndarray, rays: int, spread_deg: float) -> np.ndarray:
    """(N, rays, 2) unit directions fanned ``spread_deg`` either side of each ``away``
    direction; a zero ``away`` (straight below the camera) gets a fan all round.

    >>> ray_fan(np.array([[1.0, 0.0], [0.0, 0.0]]), 3, 90.0).round(6).tolist()[0]
    [[0.0, -1.0], [1.0, 0.0], [0.0, 1.0]]
    """
    away = np.asarray(away, float).reshape(-1, 2)
    none = ~np.any(away != 0, axis=1)
    base = np.where(none, 0.0, np.arctan2(away[:, 1], away[:, 0]))
    spread = np.where(none, 180.0, spread_deg)
    angs = base[:, None] + np.radians(spread[:, None] * np.linspace(-1.0, 1.0, rays)[None])
    return np.stack([np.cos(angs), np.sin(angs)], axis=-1)
