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


def _side_figures(g: np.ndarray) -> np.ndarray:
    """(4, 5) figures of each side of a shade patch: the step from inside to outside, the
    steepest change across the outline, how the step varies along the side, the step across
    the side's line beyond its corners (a printed grid's line runs on) and where along the
    profile the steepest change lies (0: on the outline)."""
    out = np.zeros((4, 5))
    k_in = (np.abs(_V) < 0.4)  # along the side (its middle four fifths)
    for k in range(4):
        rot = np.rot90(g, k)  # side k now on the right (u = +0.5)
        u = _U
        inside = rot[k_in & (u > 0.3) & (u < 0.44)]
        outside = rot[k_in & (u > 0.56) & (u < 0.68)]
        step = float(np.median(inside) - np.median(outside))
        cols = [round(_c + f * SIDE_PX) for f in (0.38, 0.62)]
        rows = slice(round(_c - 0.4 * SIDE_PX), round(_c + 0.4 * SIDE_PX) + 1)
        prof = rot[rows, cols[0]:cols[1] + 1]
        grad = np.abs(np.diff(prof, axis=1))
        steep = float(np.median(grad.max(axis=1)))
        where = float(np.median(np.argmax(grad, axis=1) + cols[0] + 0.5 - _c) / SIDE_PX - 0.5)
        parts = np.array_split(np.arange(rows.start, rows.stop), 4)
        seg = [float(np.median(rot[p, cols[0]:cols[0] + 4]) - np.median(rot[p, cols[1] - 3:
                                                                            cols[1] + 1]))
               for p in parts]
        vary = float(np.std(seg) / (abs(step) + 0.02))
        beyond = (np.abs(_V) > 0.56) & (np.abs(_V) < 0.7)
        run = float(np.median(rot[beyond & (u > 0.4) & (u < 0.47)])
                    - np.median(rot[beyond & (u > 0.53) & (u < 0.6)]))
        out[k] = (step, steep, vary, run / (abs(step) + 0.02), where)
    return out


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
    rings = []
    for m in _RING_MASKS:
        v = g[m]
        p10, p50, p90 = np.percentile(v, (10, 50, 90))
        rings += [p50, p90 - p10]
    lab = cv2.cvtColor(c, cv2.COLOR_BGR2LAB).astype(np.float32)
    li, lo = np.median(lab[_INSIDE], axis=0), np.median(lab[_OUTSIDE], axis=0)
    chroma_in = float(np.hypot(li[1] - 128, li[2] - 128))
    colour = [float(np.hypot(*(li[1:] - lo[1:]))), chroma_in, float(li[0] - lo[0]),
              float(np.percentile(lab[_INSIDE][:, 0], 10) - li[0])]
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
