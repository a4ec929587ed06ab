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
_RING_OF = np.full(_R.shape, len(_RING_MASKS), np.int64)
for _k, _m in enumerate(_RING_MASKS):
    _RING_OF[_m] = _k
_RING_OF = _RING_OF.ravel()
_RING_N = np.bincount(_RING_OF, minlength=len(_RING_MASKS) + 1)[:len(_RING_MASKS)]
_RING_START = np.r_[0, np.cumsum(_RING_N)[:-1]]
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


def _ring_percentiles(g: np.ndarray, qs: tuple[float, ...] = (10, 50, 90)) -> np.ndarray:
    """(rings, len(qs)) percentiles of each square ring of a patch, as ``np.percentile``
    gives them (linear between ranks), from one sort of the patch by ring and level."""
    order = np.lexsort((g.ravel(), _RING_OF))
    vals = g.ravel()[order]
    pos = (_RING_N[:, None] - 1) * (np.asarray(qs, float)[None] / 100.0)
    lo = np.floor(pos).astype(np.int64)
    hi = np.minimum(lo + 1, _RING_N[:, None] - 1)
    frac = pos - lo
    a, b = vals[_RING_START[:, None] + lo], vals[_RING_START[:, None] + hi]
    return a + (b - a) * frac


def _side_figures(g: np.ndarray) -> np.ndarray:
    """(4, 5) figures of each side of a shade patch: the step from inside to outside, the
    steepest change across the outline, how the step varies along the side, the step across
    the side's line beyond its corners (a printed grid's line runs on) and where along the
    profile the steepest change lies (0: on the outline)."""
    rot = np.stack([np.rot90(g, k) for k in range(4)])  # side k on the right in rot[k]
    step = np.median(rot[:, _SIDE_IN], axis=1) - np.median(rot[:, _SIDE_OUT], axis=1)
    c0, c1 = _COLS
    grad = np.abs(np.diff(rot[:, _ROWS, c0:c1 + 1], axis=2))
    steep = np.median(grad.max(axis=2), axis=1)
    where = np.median(np.argmax(grad, axis=2) + c0 + 0.5 - _c, axis=1) / SIDE_PX - 0.5
    seg = np.stack([np.median(rot[:, p, c0:c0 + 4].reshape(4, -1), axis=1)
                    - np.median(rot[:, p, c1 - 3:c1 + 1].reshape(4, -1), axis=1)
                    for p in _PARTS], axis=1)
    vary = np.std(seg, axis=1) / (np.abs(step) + 0.02)
    run = np.median(rot[:, _RUN_IN], axis=1) - np.median(rot[:, _RUN_OUT], axis=1)
    return np.stack([step, steep, vary, run / (np.abs(step) + 0.02), where], axis=1)


def tile_features(shade: np.ndarray, top: np.ndarray, centre_px: np.ndarray, angle_px: float,
                  side_px: float, source: int = 0) -> np.ndarray:
    """(:data:`N_FEATURES`,) of one square of side ``side_px`` at ``centre_px``, turned by
    ``angle_px`` (view degrees) in ``shade`` (float32 grey, table = 1) and ``top`` (BGR);
    ``source`` says which stage fitted it (0-3, :mod:`vision.tile_judge`)."""
    big = 2 * PATCH_PX
    scale = big / (1.4 * side_px)
    cx, cy = float(centre_px[0]), float(centre_px[1])
    M = cv2.getRotationMatrix2D((cx, cy), float(angle_px), scale)
    M[:, 2] += np.array([(big - 1) / 2.0 - cx, (big - 1) / 2.0 - cy])
    g = cv2.warpAffine(np.ascontiguousarray(shade, np.float32), M, (big, big),
                       flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    c = cv2.warpAffine(top, M, (big, big), flags=cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)
    g = cv2.resize(g, (PATCH_PX, PATCH_PX), interpolation=cv2.INTER_AREA)
    c = cv2.resize(c, (PATCH_PX, PATCH_PX), interpolation=cv2.INTER_AREA)
    sides = _side_figures(g)
    sides = sides[np.argsort(-sides[:, 0], kind="stable")]
    q = _ring_percentiles(g)  # (rings, 3): the 10th, 50th and 90th percentiles
    rings = np.c_[q[:, 1], q[:, 2] - q[:, 0]].ravel()
    lab = cv2.cvtColor(c, cv2.COLOR_BGR2LAB).astype(np.float32)  # 8-bit: a, b about 128
    lab_in = lab[_INSIDE]
    li, lo = np.median(lab_in, axis=0), np.median(lab[_OUTSIDE], axis=0)
    chroma_in = float(np.hypot(li[1] - 128, li[2] - 128))
    colour = [float(np.hypot(*(li[1:] - lo[1:]))), chroma_in, float(li[0] - lo[0]),
              float(np.percentile(lab_in[:, 0], 10) - li[0])]
    inner = g[int(_c - 0.38 * SIDE_PX):int(_c + 0.38 * SIDE_PX) + 1,
              int(_c - 0.38 * SIDE_PX):int(_c + 0.38 * SIDE_PX) + 1]
    body = float(np.median(inner)) + 1e-3
    lap = float(np.mean(np.abs(cv2.Laplacian(inner, cv2.CV_32F)))) / body
    lines = float(max(np.std(inner.mean(axis=0)), np.std(inner.mean(axis=1)))) / body
    cross = float(np.median(g[_QUADS]) - np.median(g[_CROSS])) / body
    texture = [lap, lines, cross, float(np.std(inner)) / body]
    return np.r_[sides.ravel(), rings, colour, texture, float(source)].astype(np.float32)


def features_of(shade: np.ndarray, top: np.ndarray, centres_px: np.ndarray,
                angles_px: np.ndarray, side_px: float, sources: np.ndarray) -> np.ndarray:
    """(N, :data:`N_FEATURES`) for N squares."""
    rows = [tile_features(shade, top, c, a, side_px, int(s))
            for c, a, s in zip(np.asarray(centres_px, float).reshape(-1, 2),
                               np.asarray(angles_px, float).ravel(),
                               np.asarray(sources).ravel(), strict=True)]
    return np.array(rows, np.float32).reshape(-1, N_FEATURES)
