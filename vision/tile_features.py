"""What a fitted tile looks like, as numbers for the tile judge (:mod:`vision.tile_judge`).

A square of the tile's size fitted somewhere (by the tile stage's blobs, or at a centre-net
peak by its edges) is a tile only where it looks like one: a pale slab standing out of the
table along all four sides, its sides stopping at its corners, its inside a tile's face or
back. A printed page's grid or text lines, wood or laminate grain and a card's corner also
give squares of the right size; they differ in what lies round and inside them. Every feature
is read in the square's own frame (a patch of 1.4 sides, the tile's side :data:`SIDE_PX`), in
the grey level relative to the table's (``shade``, table = 1) and in colour (``top``), and is
the same whichever of the square's four sides comes first (the sides' figures are sorted).
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np

SIDE_PX = 40
"""A tile's side in the judge's patch."""
PATCH_PX = 56
"""The patch's side: 1.4 tile sides, centred on the square."""

_c = (PATCH_PX - 1) / 2.0
_yy, _xx = np.mgrid[0:PATCH_PX, 0:PATCH_PX].astype(np.float32)
_U, _V = (_xx - _c) / SIDE_PX, (_yy - _c) / SIDE_PX
_R = np.maximum(np.abs(_U), np.abs(_V))
"""Each patch pixel's distance from the centre in the square's own (Chebyshev) measure: 0.5
is the tile's outline."""
RINGS = (0.0, 0.15, 0.3, 0.4, 0.46, 0.54, 0.6, 0.7)
"""Square rings (distances from the centre, in sides) whose levels are features."""
_RING_MASKS = [(a <= _R) & (b > _R) for a, b in itertools.pairwise(RINGS)]
_INSIDE = _R < 0.4
_OUTSIDE = (_R >= 0.58) & (_R < 0.7)
_CROSS = (_R >= 0.22) & (_R < 0.4) & ((np.abs(_U) < 0.04) | (np.abs(_V) < 0.04))
_QUADS = (_R >= 0.12) & (_R < 0.4) & (np.abs(_U) > 0.1) & (np.abs(_V) > 0.1)

N_FEATURES = 4 * 5 + 2 * len(_RING_MASKS) + 4 + 4 + 1
"""Four sides' five figures, the rings' level and spread, colour, texture, the source."""


_ALONG = np.abs(_V) < 0.4
"""Along a side (its middle four fifths), the side on the right (u = +0.5)."""
_SIDE_IN = _ALONG & (_U > 0.3) & (_U < 0.44)
_SIDE_OUT = _ALONG & (_U > 0.56) & (_U < 0.68)
_BEYOND = (np.abs(_V) > 0.56) & (np.abs(_V) < 0.7)
_RUN_IN = _BEYOND & (_U > 0.4) & (_U < 0.47)
_RUN_OUT = _BEYOND & (_U > 0.53) & (_U < 0.6)
_COLS = (round(_c + 0.38 * SIDE_PX), round(_c + 0.62 * SIDE_PX))
_ROWS = slice(round(_c - 0.4 * SIDE_PX), round(_c + 0.4 * SIDE_PX) + 1)
_PARTS = np.array_split(np.arange(_ROWS.start, _ROWS.stop), 4)


_RING_IDX = [np.flatnonzero(m) for m in _RING_MASKS]
"""Each ring's pixels (flat indices of a patch)."""
_RING_Q = np.array([10.0, 50.0, 90.0]) / 100.0


def _ring_percentiles(g: np.ndarray) -> np.ndarray:
    """(N, rings, 3) the 10th, 50th and 90th percentiles of each square ring of N patches
    (N, P, P), as ``np.percentile`` gives them (linear between ranks)."""
    flat = g.reshape(len(g), -1)
    out = np.empty((len(g), len(_RING_IDX), len(_RING_Q)), np.float64)
    for k, idx in enumerate(_RING_IDX):
        vals = np.sort(flat[:, idx], axis=1)
        pos = (len(idx) - 1) * _RING_Q
        lo = np.floor(pos).astype(np.int64)
        hi = np.minimum(lo + 1, len(idx) - 1)
        a, b = vals[:, lo], vals[:, hi]
        out[:, k] = a + (b - a) * (pos - lo)
    return out


def _side_figures(g: np.ndarray) -> np.ndarray:
    """(N, 4, 5) figures of each side of N shade patches (N, P, P): the step from inside to
    outside, the steepest change across the outline, how the step varies along the side, the
    step across the side's line beyond its corners (a printed grid's line runs on) and where
    along the profile the steepest change lies (0: on the outline)."""
    n = len(g)
    rot = np.stack([np.rot90(g, k, axes=(1, 2)) for k in range(4)], axis=1)  # side k right
    step = (np.median(rot[:, :, _SIDE_IN], axis=2)
            - np.median(rot[:, :, _SIDE_OUT], axis=2))
    c0, c1 = _COLS
    grad = np.abs(np.diff(rot[:, :, _ROWS, c0:c1 + 1], axis=3))
    steep = np.median(grad.max(axis=3), axis=2)
    where = np.median(np.argmax(grad, axis=3) + c0 + 0.5 - _c, axis=2) / SIDE_PX - 0.5
    seg = np.stack([np.median(rot[:, :, p, c0:c0 + 4].reshape(n, 4, -1), axis=2)
                    - np.median(rot[:, :, p, c1 - 3:c1 + 1].reshape(n, 4, -1), axis=2)
                    for p in _PARTS], axis=2)
    vary = np.std(seg, axis=2) / (np.abs(step) + 0.02)
    run = (np.median(rot[:, :, _RUN_IN], axis=2)
           - np.median(rot[:, :, _RUN_OUT], axis=2))
    return np.stack([step, steep, vary, run / (np.abs(step) + 0.02), where], axis=2)


def _patches(shade: np.ndarray, top: np.ndarray, centres_px: np.ndarray,
             angles_px: np.ndarray, side_px: float) -> tuple[np.ndarray, np.ndarray]:
    """(N, P, P) float32 shade and (N, P, P, 3) BGR patches of N squares, each in its own
    frame (1.4 sides across)."""
    big = 2 * PATCH_PX
    scale = big / (1.4 * side_px)
    shade = np.ascontiguousarray(shade, np.float32)
    gs, cs = [], []
    for (cx, cy), angle in zip(centres_px, angles_px, strict=True):
        M = cv2.getRotationMatrix2D((float(cx), float(cy)), float(angle), scale)
        M[:, 2] += np.array([(big - 1) / 2.0 - cx, (big - 1) / 2.0 - cy])
        g = cv2.warpAffine(shade, M, (big, big), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)
        c = cv2.warpAffine(top, M, (big, big), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)
        gs.append(cv2.resize(g, (PATCH_PX, PATCH_PX), interpolation=cv2.INTER_AREA))
        cs.append(cv2.resize(c, (PATCH_PX, PATCH_PX), interpolation=cv2.INTER_AREA))
    return np.stack(gs), np.stack(cs)


_LO, _HI = int(_c - 0.38 * SIDE_PX), int(_c + 0.38 * SIDE_PX) + 1
"""The inner square (rows and columns) whose texture is read."""


def features_of(shade: np.ndarray, top: np.ndarray, centres_px: np.ndarray,
                angles_px: np.ndarray, side_px: float, sources: np.ndarray) -> np.ndarray:
    """(N, :data:`N_FEATURES`) of N squares of side ``side_px`` at ``centres_px`` (N, 2),
    turned by ``angles_px`` (N,) view degrees, in ``shade`` (float32 grey, table = 1) and
    ``top`` (BGR); ``sources`` (N,) say which stage fitted each (0-3,
    :mod:`vision.tile_judge`). All N are read at once (one call per figure, not per square)."""
    pts = np.asarray(centres_px, float).reshape(-1, 2)
    n = len(pts)
    if not n:
        return np.zeros((0, N_FEATURES), np.float32)
    g, c = _patches(shade, top, pts, np.asarray(angles_px, float).ravel(), side_px)
    sides = _side_figures(g)
    order = np.argsort(-sides[:, :, 0], axis=1, kind="stable")
    sides = np.take_along_axis(sides, order[:, :, None], axis=1)
    q = _ring_percentiles(g)  # (N, rings, 3): the 10th, 50th and 90th percentiles
    rings = np.stack([q[:, :, 1], q[:, :, 2] - q[:, :, 0]], axis=2).reshape(n, -1)
    lab = cv2.cvtColor(c.reshape(n * PATCH_PX, PATCH_PX, 3), cv2.COLOR_BGR2LAB)
    lab = lab.reshape(n, PATCH_PX, PATCH_PX, 3).astype(np.float32)  # 8-bit: a, b about 128
    lab_in = lab[:, _INSIDE]
    li, lo = np.median(lab_in, axis=1), np.median(lab[:, _OUTSIDE], axis=1)
    colour = np.stack([np.hypot(li[:, 1] - lo[:, 1], li[:, 2] - lo[:, 2]),
                       np.hypot(li[:, 1] - 128, li[:, 2] - 128), li[:, 0] - lo[:, 0],
                       np.percentile(lab_in[:, :, 0], 10, axis=1) - li[:, 0]], axis=1)
    inner = g[:, _LO:_HI, _LO:_HI]
    body = np.median(inner.reshape(n, -1), axis=1).astype(np.float64) + 1e-3
    lap = np.array([np.mean(np.abs(cv2.Laplacian(p, cv2.CV_32F))) for p in inner]) / body
    lines = np.maximum(np.std(inner.mean(axis=1), axis=1),
                       np.std(inner.mean(axis=2), axis=1)) / body
    cross = (np.median(g[:, _QUADS], axis=1) - np.median(g[:, _CROSS], axis=1)) / body
    texture = np.stack([lap, lines, cross, np.std(inner.reshape(n, -1), axis=1) / body],
                       axis=1)
    return np.concatenate([sides.reshape(n, -1), rings, colour, texture,
                           np.asarray(sources, float).reshape(n, 1)],
                          axis=1).astype(np.float32)


def tile_features(shade: np.ndarray, top: np.ndarray, centre_px: np.ndarray, angle_px: float,
                  side_px: float, source: int = 0) -> np.ndarray:
    """(:data:`N_FEATURES`,) of one square (:func:`features_of`)."""
    return features_of(shade, top, np.asarray(centre_px, float)[None], np.array([angle_px]),
                       side_px, np.array([source]))[0]
