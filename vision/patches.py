"""Square patches of the table around points, at a fixed scale in millimetres, for the learned
stage (:mod:`vision.namer`) and its training (``training/``).

A patch is cut from the raw frame through the calibration (lens included), so it shows the
table from above at :data:`PATCH_MM` millimetres a side whatever the camera's height, tilt or
resolution. Its channels are made independent of the light: the log of the patch over its own
table colour (the median of its outer ring), and the patch's brightness over the frame's.

>>> import numpy as np
>>> from calibration.model import Calibration
>>> cal = Calibration((320, 240), np.array([[1.0, 0, 160], [0, 1.0, 120], [0, 0, 1]]))
>>> frame = np.full((240, 320, 3), 90, np.uint8)
>>> table_patches(frame, cal, [[0.0, 0.0], [10.0, -5.0]]).shape
(2, 6, 48, 48)
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from calibration.model import Calibration

PATCH_MM = 64.0
"""Side of a patch on the table (a tile, 50.8 mm, fits with its edges)."""

PATCH_PX = 48
"""Side of a patch in samples (0.75 per millimetre: about a webcam's own resolution)."""

CHANNELS = 6
"""log2(patch / ring colour) for B, G, R, then B, G, R over the frame's median level."""

MAX_ROW = 32_000
"""Rows of one remap map (OpenCV refuses maps of 32,768 rows or more)."""

_RING_PX = 5


def _grid_mm(patch_mm: float, patch_px: int) -> np.ndarray:
    step = patch_mm / patch_px
    o = (np.arange(patch_px) + 0.5) * step - patch_mm / 2
    gx, gy = np.meshgrid(o, o)
    return np.stack([gx, gy], axis=-1)  # (S, S, 2)


def sample_patches(frame_bgr: np.ndarray, calibration: Calibration, centres_mm: Any,
                   patch_mm: float = PATCH_MM, patch_px: int = PATCH_PX) -> np.ndarray:
    """The raw colour around each centre, uint8 (N, S, S, 3) BGR, rows toward table +y."""
    c = np.asarray(centres_mm, float).reshape(-1, 2)
    n, s = len(c), patch_px
    if n == 0:
        return np.zeros((0, s, s, 3), np.uint8)
    pts = (c[:, None, None, :] + _grid_mm(patch_mm, s)[None]).reshape(-1, 2)
    px = calibration.to_image(pts).astype(np.float32).reshape(n * s, s, 2)
    out = np.empty((n * s, s, 3), np.uint8)
    for r0 in range(0, n * s, MAX_ROW):  # OpenCV maps stay under 32,768 rows and columns
        part = px[r0:r0 + MAX_ROW]
        out[r0:r0 + len(part)] = cv2.remap(frame_bgr, part[..., 0], part[..., 1],
                                           cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out.reshape(n, s, s, 3)


def normalise_patches(raw: np.ndarray, frame_level: float | np.ndarray) -> np.ndarray:
    """The network's input from raw patches (N, S, S, 3) uint8 and the frame's level (one,
    or one per patch): float32 (N, 6, S, S)."""
    n, s = raw.shape[:2]
    if n == 0:
        return np.zeros((0, CHANNELS, s, s), np.float32)
    f = raw.astype(np.float32) + 1.0
    ring = np.ones((s, s), bool)
    ring[_RING_PX:-_RING_PX, _RING_PX:-_RING_PX] = False
    table = np.median(f[:, ring, :], axis=1)  # (N, 3)
    rel = np.log2(f / np.maximum(table, 4.0)[:, None, None, :])
    rel = np.clip(rel, -4.0, 2.0)
    lev = np.maximum(np.broadcast_to(np.asarray(frame_level, np.float32), (n,)), 4.0)
    absolute = np.clip(np.log2(f / lev[:, None, None, None]), -4.0, 2.0)
    x = np.concatenate([rel, absolute], axis=-1)
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2), dtype=np.float32)


def frame_level(frame_bgr: np.ndarray) -> float:
    """The frame's median brightness (all channels), from a sparse grid of its pixels."""
    return float(np.median(frame_bgr[::8, ::8])) + 1.0


def table_patches(frame_bgr: np.ndarray, calibration: Calibration, centres_mm: Any,
                  patch_mm: float = PATCH_MM, patch_px: int = PATCH_PX,
                  level: float | None = None) -> np.ndarray:
    """Normalised patches around table points, float32 (N, :data:`CHANNELS`, S, S)."""
    raw = sample_patches(frame_bgr, calibration, centres_mm, patch_mm, patch_px)
    return normalise_patches(raw, frame_level(frame_bgr) if level is None else level)
