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

import functools
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

_RING_PX = 5


def sample_patches(frame_bgr: np.ndarray, calibration: Calibration, centres_mm: Any,
                   patch_mm: float = PATCH_MM, patch_px: int = PATCH_PX) -> np.ndarray:
    """The raw colour around each centre, uint8 (N, S, S, 3) BGR, rows toward table +y.

    Each patch is one perspective warp from its four corners' pixels (through the lens, so a
    patch of a distorted view is straight to well under a pixel: it is a few centimetres).
    """
    c = np.asarray(centres_mm, float).reshape(-1, 2)
    n, s = len(c), patch_px
    out = np.empty((n, s, s, 3), np.uint8)
    if n == 0:
        return out
    h = patch_mm / 2
    corner_mm = np.array([[-h, -h], [h, -h], [h, h], [-h, h]])
    corners_px = calibration.to_image((c[:, None, :] + corner_mm[None]).reshape(-1, 2))
    corners_px = corners_px.reshape(n, 4, 2).astype(np.float32)
    # patch pixel edges at 0 and s: the corners of the sample grid's outer cells
    dst = np.array([[-0.5, -0.5], [s - 0.5, -0.5], [s - 0.5, s - 0.5], [-0.5, s - 0.5]],
                   np.float32)
    for i in range(n):
        m = cv2.getPerspectiveTransform(dst, corners_px[i])
        out[i] = cv2.warpPerspective(frame_bgr, m, (s, s), flags=cv2.INTER_LINEAR
                                     | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    return out


_LOG2 = np.log2(np.arange(256, dtype=np.float32) + 1.0)
"""log2(v + 1) of every 8-bit value."""


def normalise_patches(raw: np.ndarray, frame_level: float | np.ndarray) -> np.ndarray:
    """The network's input from raw patches (N, S, S, 3) uint8 and the frame's level (one,
    or one per patch): float32 (N, 6, S, S)."""
    n, s = raw.shape[:2]
    out = np.empty((n, CHANNELS, s, s), np.float32)
    if n == 0:
        return out
    chans = np.ascontiguousarray(raw.transpose(0, 3, 1, 2))  # (N, 3, S, S) uint8
    lg = _LOG2[chans]
    # the ring's median colour (of the logs: the two middle values' logs, as np.median's)
    ring = chans[:, :, _ring_mask(s)]  # (N, 3, K) uint8
    k = ring.shape[2]
    part = np.partition(ring, (k - 1) // 2, axis=2)[:, :, (k - 1) // 2]
    upper = part if k % 2 else np.partition(ring, k // 2, axis=2)[:, :, k // 2]
    table = np.maximum((_LOG2[part] + _LOG2[upper]) / 2.0, 2.0)  # (N, 3)
    np.subtract(lg, table[:, :, None, None], out=out[:, :3])
    lev = np.log2(np.maximum(np.broadcast_to(np.asarray(frame_level, np.float32), (n,)), 4.0))
    np.subtract(lg, lev[:, None, None, None].astype(np.float32), out=out[:, 3:])
    np.clip(out, -4.0, 2.0, out=out)
    return out


@functools.lru_cache(maxsize=4)
def _ring_mask(s: int) -> np.ndarray:
    ring = np.ones((s, s), bool)
    ring[_RING_PX:-_RING_PX, _RING_PX:-_RING_PX] = False
    return ring


def frame_level(frame_bgr: np.ndarray) -> float:
    """The frame's median brightness (all channels), from a sparse grid of its pixels."""
    return float(np.median(frame_bgr[::8, ::8])) + 1.0


def table_patches(frame_bgr: np.ndarray, calibration: Calibration, centres_mm: Any,
                  patch_mm: float = PATCH_MM, patch_px: int = PATCH_PX,
                  level: float | None = None) -> np.ndarray:
    """Normalised patches around table points, float32 (N, :data:`CHANNELS`, S, S)."""
    raw = sample_patches(frame_bgr, calibration, centres_mm, patch_mm, patch_px)
    return normalise_patches(raw, frame_level(frame_bgr) if level is None else level)
