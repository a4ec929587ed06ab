"""What a post candidate looks like, as numbers a learned judge reads (:mod:`vision.post_judge`).

From a tilted camera, a post standing at a foot is seen on the table plane as the hull of its
foot circle and of its top circle, the top displaced outward along the ray from the point
below the camera (:func:`vision.posts.post_outline`), with the dark wall between them. The
features are read in that frame, so the same judge reads any camera:

- a grid of the level (table = 100; 3x3 means) along the post's axis, from behind the foot,
  over the wall, to beyond the top, and across it to the table on either side (:data:`ALONG`,
  :data:`ACROSS`): a post is dark along the whole stripe and the table round it; a shadow
  leaves from the light's side, a vein runs on, a mug is pale or too wide;
- the wall's and the top face's levels, the share of the wall that is dark, the spread of the
  top, the share of the outline with the table brighter outside (:func:`vision.posts.
  _outlined`), the table's level round it and its spread (the local noise), the contrast of
  the wall in units of that noise; the post stage's template scores (the stripe, the table
  behind the foot and beyond the top);
- how much of the grid other pieces cover;
- what crosses the ring round it (:func:`ring_through`): a post's own shadow leaves it on one
  side, a long shadow (or a vein) read as a post runs on through it on both;
- on a dark table, where the post stage reads how unlike the table each pixel is
  (:mod:`vision.post_level`), the wall's and the top's levels in the plain level too (a post
  lit on black felt is lighter than the table there, a shadow darker), and that it is one.

Nothing depends on the post's height or on the namer (whose posts are its weakest kind): the
grid is laid in shares of the wall's length, so a set of shorter posts is read the same way.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.posts import (
    CAP,
    PostConfig,
    _darkness,
    _outlined,
    _scores,
    _side,
    _wall,
    post_outline,
)
from vision.sampling import bilinear
from vision.topview import TopView

ALONG: tuple[str, ...] = ("-2.2r", "-1.2r", "0", "0.25d", "0.5d", "0.75d", "d", "d+1.3R",
                          "d+2.3R")
"""Where along the axis the grid is read: radii ``r`` behind the foot, shares of the distance
``d`` from the foot to the top's centre, the top's radii ``R`` beyond it."""

ACROSS: tuple[float, ...] = (-2.4, -1.4, -0.6, 0.0, 0.6, 1.4, 2.4)
"""Where across the axis, in the post's radius seen there (``r`` at the foot, ``R`` at the
top)."""

SUMMARY: tuple[str, ...] = ("wall_level", "wall_dark", "top_level", "top_spread", "outlined",
                            "ring_level", "ring_spread", "wall_contrast", "stripe", "behind",
                            "beyond", "covered", "wall_plain", "top_plain", "unlike",
                            "ring_dark", "ring_through")

N_FEATURES = len(ALONG) * len(ACROSS) + len(SUMMARY)
"""Length of one candidate's feature vector."""

UNLIKE_COLUMN = len(ALONG) * len(ACROSS) + SUMMARY.index("unlike")
"""The feature that is 1 where the candidate was read in a dark table's unlikeness
(:mod:`vision.post_level`), 0 in the plain level: the post judge's dark forest judges those."""


def _along(r: float, d: float, big_r: float) -> np.ndarray:
    return np.array([-2.2 * r, -1.2 * r, 0.0, 0.25 * d, 0.5 * d, 0.75 * d, d,
                     d + 1.3 * big_r, d + 2.3 * big_r])


def post_features(cfg: PostConfig, level: np.ndarray, view: TopView, feet_px: np.ndarray,
                  against: np.ndarray | None, plain: np.ndarray | None = None) -> np.ndarray:
    """(N, :data:`N_FEATURES`) float32 features of posts standing at ``feet_px`` (N, 2, view
    pixels) in the view ``level`` (uint8, table = 100), ``against`` (uint8 over the view, or
    None) where other pieces lie. ``plain``: the plain level where ``level`` is a dark
    table's unlikeness (:mod:`vision.post_level`); None: ``level`` is the plain level."""
    feet = np.asarray(feet_px, float).reshape(-1, 2)
    out = np.zeros((len(feet), N_FEATURES), np.float32)
    for i, f in enumerate(feet):
        out[i] = _one(cfg, level, view, f, against, plain)
    return out


def _one(cfg: PostConfig, level: np.ndarray, view: TopView, foot: np.ndarray,
         against: np.ndarray | None, plain: np.ndarray | None) -> np.ndarray:
    r = cfg.radius_mm * view.px_per_mm
    outline = post_outline(cfg, view, foot, step_px=2.0)
    d, k, u = outline.length, outline.k, outline.axis
    v = np.array([-u[1], u[0]])
    big_r = k * r
    pad = 2.6 * big_r + 4.0
    pts = outline.points[outline.part != CAP]
    h, w = level.shape
    x0, y0 = (max(0, math.floor(c - pad)) for c in np.minimum(pts.min(axis=0),
                                                                   foot - 2.4 * r))
    x1, y1 = (min(lim, math.ceil(c + pad) + 1) for c, lim in zip(
        np.maximum(pts.max(axis=0), foot + 2.4 * r), (w, h), strict=True))
    n_grid = len(ALONG) * len(ACROSS)
    res = np.zeros(n_grid + len(SUMMARY), np.float32)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return res
    patch = level[y0:y1, x0:x1]
    corner = np.array([x0, y0], float)
    mean3 = cv2.blur(patch.astype(np.float32), (3, 3))
    t = _along(r, d, big_r)
    rad = r + np.clip(t / max(d, 1e-6), 0.0, 1.0) * (big_r - r)
    grid = (foot[None, None] + t[:, None, None] * u[None, None]
            + (np.asarray(ACROSS)[None, :, None] * rad[:, None, None]) * v[None, None])
    res[:n_grid] = bilinear(mean3, grid - corner).reshape(-1) / 100.0
    near = None if against is None else against[y0:y1, x0:x1]
    if near is not None:
        q = np.round(grid.reshape(-1, 2)).astype(int)
        q[:, 0] = np.clip(q[:, 0], 0, w - 1)
        q[:, 1] = np.clip(q[:, 1], 0, h - 1)
        covered = float(np.mean(against[q[:, 1], q[:, 0]] > 0))
    else:
        covered = 0.0
    wall = _wall(cfg, view, foot, (x0, y0), patch.shape)
    side, face = _side(cfg, view, foot, (x0, y0), wall)
    inner = cv2.erode(side, np.ones((3, 3), np.uint8)) > 0
    free_face = face > 0
    if near is not None:
        inner &= near == 0
        free_face &= near == 0
    wv = patch[inner].astype(np.float32)
    fv = patch[free_face].astype(np.float32)
    pp = patch if plain is None else plain[y0:y1, x0:x1]
    wall_plain = float(np.median(pp[inner])) if inner.any() else 100.0
    top_plain = float(np.median(pp[free_face])) if free_face.any() else 100.0
    wall_level = float(np.median(wv)) if len(wv) else 100.0
    wall_dark = float(np.mean(wv <= cfg.black_level)) if len(wv) else 0.0
    top_level = float(np.median(fv)) if len(fv) else 100.0
    top_spread = float(np.subtract(*np.percentile(fv, (90, 10)))) if len(fv) >= 4 else 0.0
    ring = (foot + outline.top) / 2 + (0.5 * d + 2.5 * r) * np.column_stack(
        [np.cos(np.arange(24) * math.pi / 12), np.sin(np.arange(24) * math.pi / 12)])
    rv = bilinear(mean3, ring - corner)
    ring_level = float(np.median(rv))
    ring_dark = float(np.mean(rv <= cfg.black_level))
    q25, q75 = np.percentile(rv, (25, 75))
    ring_spread = float(q75 - q25) / 1.35
    soft = _darkness(cfg.black_level, cfg.contrast)[patch]
    stripe, behind, beyond = (float(a[0]) for a in _scores(cfg, soft, view, (foot - corner)[None],
                                                          corner))
    res[n_grid:] = (wall_level / 100.0, wall_dark, top_level / 100.0, top_spread / 100.0,
                    _outlined(cfg, level, view, foot, against), ring_level / 100.0,
                    ring_spread / 100.0, (ring_level - wall_level) / max(ring_spread, 2.0),
                    stripe, behind, beyond, covered, wall_plain / 100.0, top_plain / 100.0,
                    float(plain is not None), ring_dark, ring_through(rv) / 100.0)
    return res


def ring_through(ring: np.ndarray) -> float:
    """The level of the darkest pair of opposite points of a ring (even length, the level
    at evenly spaced angles), each pair as light as its lighter point: low where something
    dark runs through the ring (a band crossing it), high where what is dark touches it on
    one side only (a post's own shadow).

    >>> ring = np.full(8, 100.0)
    >>> ring[[0, 1]] = 30.0
    >>> ring_through(ring)
    100.0
    >>> ring[4] = 40.0
    >>> ring_through(ring)
    40.0
    """
    half = len(ring) // 2
    return float(np.min(np.maximum(ring[:half], ring[half:2 * half])))
