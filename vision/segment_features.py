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
corners, of a light from one side). Then what says "a dome lit from above", whatever the
light's direction (:func:`dome_features`): on each ring, how far the shade and the level lean
to one side (their first harmonic round the ring: a highlight off the dome's middle towards
the lamp, its shadow on the table on the side away from it), how far the mask is a bar rather
than a disc (its second harmonic: a pencil, an edge of a card) and its least cover over the
ring's directions (a disc of colour is covered all round); and whether the highlight and the
shadow agree (the highlight's side inside the dome against the lighter side of the table round
it: a lit dome's shadow falls opposite its highlight, a reflection or a patch of colour has no
such pair). The features depend on nothing but the candidate's pixels and the segment's
radius, so the same judge reads any table, light and camera.
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

N_RING = len(RINGS) * len(CHANNELS) * 2
"""Length of the rings' part of a candidate's features (their first columns)."""

N_DOME = 4 * len(RINGS) + 3
"""Length of :func:`dome_features`' part of a candidate's features."""

N_FEATURES = N_RING + N_DOME
"""Length of one candidate's feature vector."""

_INNER = (np.asarray(RINGS) >= 0.15) & (np.asarray(RINGS) <= 0.6)
_OUTER = (np.asarray(RINGS) >= 1.05) & (np.asarray(RINGS) <= 1.6)


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
    ((1, 185), 1.0, 0.0)
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
    sampled = []
    for k, img in enumerate(images):
        v = bilinear(img, pts)  # (N, R, A)
        if k == 0:  # shade: over the disc's own median brightness
            inner = v[:, np.asarray(RINGS) <= 0.84].reshape(n, -1)
            v = v / np.maximum(np.median(inner, axis=1), 1.0)[:, None, None]
        sampled.append(v)
        out.append(v.mean(axis=2))
        out.append(v.std(axis=2))
    out.append(dome_features(sampled[0], sampled[3], sampled[4]))
    return np.concatenate(out, axis=1).astype(np.float32)


def _harmonic(v: np.ndarray, k: int) -> np.ndarray:
    """complex (..., R): the ``k``-th harmonic of samples (..., R, :data:`ANGLES`) round
    each ring (0 for a ring alike all round)."""
    a = np.arange(ANGLES) * 2 * np.pi / ANGLES
    return (v * np.exp(-1j * k * a)).mean(axis=-1)


def dome_features(shade: np.ndarray, mask: np.ndarray, level: np.ndarray) -> np.ndarray:
    """(N, :data:`N_DOME`) from the rings' samples (N, R, A) of shade, mask and level: the
    amplitudes of the shade's and the level's first harmonics and of the mask's second one on
    each ring, the mask's least cover on each ring; then the cosine between the highlight's
    side (the shade's first harmonic over 0.15-0.6 radii) and the lighter side of the table
    round the dome (the level's over 1.05-1.6 radii), their amplitudes' product, and the
    highlight's lean over the level's (a shadow beside a flat patch has no highlight).

    >>> a = np.arange(ANGLES) * 2 * np.pi / ANGLES
    >>> lit = np.broadcast_to(1 + 0.2 * np.cos(a), (1, len(RINGS), ANGLES))
    >>> f = dome_features(lit, np.ones_like(lit), lit)
    >>> f.shape, round(float(f[0, 0]), 3), round(float(f[0, -3]), 3)
    ((1, 55), 0.1, 1.0)
    """
    hs, hl = _harmonic(shade, 1), _harmonic(level, 1)
    hm = _harmonic(mask, 2)
    hi = hs[:, _INNER].sum(axis=1)
    lo = hl[:, _OUTER].sum(axis=1)
    amp = np.abs(hi) * np.abs(lo)
    cos = np.where(amp > 1e-9, (hi * np.conj(lo)).real / np.maximum(amp, 1e-9), 0.0)
    lean = np.abs(hi) / np.maximum(np.abs(lo), 1e-3)
    return np.concatenate([np.abs(hs), np.abs(hl), np.abs(hm), mask.min(axis=2),
                           np.c_[cos, amp, np.minimum(lean, 100.0)]], axis=1)
