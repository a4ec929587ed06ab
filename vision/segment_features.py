"""What a candidate segment looks like, as numbers a learned judge reads.

A candidate is a disc of the segment's radius ``r`` (view pixels) round a centre. It is read on
rings from its centre out to beyond its rim (:data:`RINGS`, in radii), on :data:`ANGLES`
directions each, in five images that do not depend on how much light falls on the table:

- ``shade``: the frame's brightness (HSV ``V``) over the disc's own median: a lit dome shades
  from a highlight to a darker rim, a printed patch is flat;
- ``saturation``: the frame's HSV ``S`` (0-1);
- ``table_chroma``: the spread of the channels of the frame divided by the table's colour (0-1;
  the table itself is near 0 in light and shade);
- ``mask``: whether the pixel passed :func:`vision.segment_mask.segment_mask` (0 or 1);
- ``level``: the frame's brightness over the table's there (1 on the table in light and shade):
  a dome lit from above is about as bright as the cloth round it or brighter, the shadow of a
  worm on a cloth of the dome's own colour is darker (a blue shadow on a blue cloth).

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

RINGS: tuple[float, ...] = (0.0, 0.15, 0.3, 0.45, 0.6, 0.72, 0.84, 0.94, 1.05, 1.2, 1.4, 1.6,
                            1.85)
"""Ring radii, in segment radii."""

ANGLES = 16
"""Directions per ring."""

CHANNELS = ("shade", "saturation", "table_chroma", "mask", "level")

N_FEATURES = len(RINGS) * len(CHANNELS) * 2
"""Length of one candidate's feature vector."""


def candidate_images(prep: Prepared, mask: np.ndarray) -> tuple[np.ndarray, ...]:
    """The five float32 (H, W) images the features read (:data:`CHANNELS`, ``shade`` still
    in grey levels: it is divided per candidate)."""
    hsv = cv2.cvtColor(prep.top, cv2.COLOR_BGR2HSV_FULL)
    norm = prep.norm
    nhi = cv2.max(cv2.max(norm[..., 0], norm[..., 1]), norm[..., 2])
    nlo = cv2.min(cv2.min(norm[..., 0], norm[..., 1]), norm[..., 2])
    chroma = cv2.subtract(nhi, nlo).astype(np.float32) / (2.55 * TABLE_LEVEL)
    return (hsv[..., 2].astype(np.float32), hsv[..., 1].astype(np.float32) / 255.0, chroma,
            (mask > 0).astype(np.float32), prep.level.astype(np.float32) / TABLE_LEVEL)


def disc_features(images: tuple[np.ndarray, ...], centres_px: np.ndarray, r: float
                  ) -> np.ndarray:
    """(N, :data:`N_FEATURES`) float32 features of the discs of radius ``r`` round
    ``centres_px`` (N, 2) view pixels.

    >>> img = np.zeros((40, 40), np.float32); _ = cv2.circle(img, (20, 20), 8, 1.0, -1)
    >>> f = disc_features((img + 1, img, img, img, img), np.array([[20.0, 20.0]]), 8.0)
    >>> f.shape, float(f[0, 2 * len(RINGS)]), float(f[0, 2 * len(RINGS) + len(RINGS) - 1])
    ((1, 130), 1.0, 0.0)
    """
    c = np.asarray(centres_px, float).reshape(-1, 2)
    n = len(c)
    if n == 0:
        return np.zeros((0, N_FEATURES), np.float32)
    a = np.arange(ANGLES) * 2 * np.pi / ANGLES
    rho = np.asarray(RINGS) * r
    offs = rho[:, None, None] * np.stack([np.cos(a), np.sin(a)], axis=1)[None]  # (R, A, 2)
    pts = c[:, None, None] + offs[None]  # (N, R, A, 2)
    out = []
    for k, img in enumerate(images):
        v = bilinear(img, pts)  # (N, R, A)
        if k == 0:  # shade: over the disc's own median brightness
            inner = v[:, np.asarray(RINGS) <= 0.84].reshape(n, -1)
            v = v / np.maximum(np.median(inner, axis=1), 1.0)[:, None, None]
        out.append(v.mean(axis=2))
        out.append(v.std(axis=2))
    return np.concatenate(out, axis=1).astype(np.float32)
