"""A post's shadow read as another post: dropped by where it lies and how dark it is.

A post is a black solid of known size; its shadow is the table's own colour, darker by the
light the post keeps from it, and it leaves the post's foot, away from the light, as a band as
wide as the post (under a hard, low lamp 60-150 mm long). Read on its own, the end or a piece of
such a band can look like a post seen from the camera (a dark stripe, the table round it), and
the judge, which sees only the reading's own neighbourhood, may pass it. Seen with the posts
round it, it cannot be one: it is joined to a post by a band dark all the way (the shadow
leaving that post's foot), and it is lighter than that post (a shadow lets the room's light
in; a black post standing in another's shadow is as dark as that post, or darker). Such a
reading is dropped; but on a table darker than a post (black felt: read in how unlike the
table each pixel is, :mod:`vision.post_level`) the lit post is the lighter of the two, and its
shadow's end, as unlike the felt as the post, may stand by the hand-set gates alone: there a
reading the post judge is sure of is no shadow of one it is not sure of. Two posts touching
are not joined by a band (their feet are a diameter apart), and two black posts are alike:
both stand.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.detections import Detections
from vision.post_candidates import local_level
from vision.post_level import for_posts, post_channels
from vision.posts import PostConfig, _side, _wall
from vision.prepare import Prepared
from vision.sampling import bilinear


@dataclass(frozen=True)
class PostShadowConfig:
    """Attributes:
    min_apart: Feet at least this many post radii apart can be joined by a shadow (closer:
        two posts touching, or one reading).
    max_apart_mm: A shadow is at most this long (a lamp 15 degrees above the table, a 40 mm
        post: 150 mm).
    dark_share: Least share of the band between two feet that is dark (below the post
        stage's ``black_level``) for them to be joined.
    lighter: A reading whose wall is this many levels (table = 100) lighter than the post it
        is joined to is that post's shadow.
    window_mm: Round each foot this many mm each way are made in full (as the post stage
        reads a net's peak) before the levels are read.
    """

    min_apart: float = 2.6
    max_apart_mm: float = 160.0
    dark_share: float = 0.9
    lighter: float = 8.0
    window_mm: float = 30.0


def wall_levels(cfg: PostConfig, level: np.ndarray, prep: Prepared,
                feet_px: np.ndarray) -> np.ndarray:
    """(N,) the median level of each post's side wall (inside its rim) standing at ``feet_px``
    (N, 2, view pixels); 255 where none of it is in view."""
    view = prep.view
    h, w = level.shape
    pad = int(4 * cfg.radius_mm * view.px_per_mm + cfg.height_mm * view.px_per_mm) + 4
    out = np.full(len(feet_px), 255.0)
    for i, f in enumerate(feet_px):
        x0, y0 = max(0, int(f[0]) - pad), max(0, int(f[1]) - pad)
        x1, y1 = min(w, int(f[0]) + pad), min(h, int(f[1]) + pad)
        if x1 - x0 < 4 or y1 - y0 < 4:
            continue
        patch = level[y0:y1, x0:x1]
        wall = _wall(cfg, view, f, (x0, y0), patch.shape)
        side, _face = _side(cfg, view, f, (x0, y0), wall)
        inner = cv2.erode(side, np.ones((3, 3), np.uint8)) > 0
        if inner.any():
            out[i] = float(np.median(patch[inner]))
    return out


def band_dark(cfg: PostConfig, level: np.ndarray, a_px: np.ndarray, b_px: np.ndarray,
              r_px: float) -> float:
    """The share of a band as wide as a post (three lines, 0.35 of its radius ``r_px`` apart)
    from one foot ``a_px`` to another ``b_px``, each foot circle left out, that is dark (level
    at most ``cfg.black_level``).

    >>> level = np.full((40, 80), 100, np.uint8)
    >>> level[15:26, 5:75] = 40
    >>> band_dark(PostConfig(), level, np.array([10.0, 20.0]), np.array([70.0, 20.0]), 5.0)
    1.0
    >>> level[:, 35:45] = 100  # the table between: not joined
    >>> band_dark(PostConfig(), level, np.array([10.0, 20.0]), np.array([70.0, 20.0]), 5.0) < 0.9
    True
    """
    d = b_px - a_px
    n = float(np.hypot(*d))
    if n <= 2 * r_px + 2:
        return 0.0
    u = d / n
    v = np.array([-u[1], u[0]])
    t = np.arange(r_px, n - r_px, 1.0)
    off = np.array([-0.35, 0.0, 0.35]) * r_px
    pts = a_px + t[:, None, None] * u + off[None, :, None] * v
    vals = bilinear(level.astype(np.float32), pts.reshape(-1, 2))
    return float(np.mean(vals <= cfg.black_level))


def drop_post_shadows(cfg: PostConfig, shadows: PostShadowConfig, prep: Prepared,
                      frame_bgr: np.ndarray, dets: Detections) -> Detections:
    """``dets`` without the posts that are another post's shadow: joined to a darker post by
    a band dark all the way, and lighter than it by ``shadows.lighter`` levels; but on a
    table read in the unlikeness (:func:`vision.post_level.post_channels` None) a post whose
    confidence (the judge's votes) is ``cfg.judge.min_score`` or more (the judge sure of it)
    is no shadow of one it is not sure of."""
    is_post = np.flatnonzero(dets.kind == "post")
    if len(is_post) < 2:
        return dets
    view = prep.view
    s = view.px_per_mm
    r = cfg.radius_mm * s
    seen = for_posts(prep, cfg.level)
    channels = post_channels(prep, cfg.level)  # None: the unlikeness
    feet = view.to_px(dets.centre_mm[is_post]).reshape(-1, 2)
    level = local_level(seen, frame_bgr, feet, shadows.window_mm * s, channels is None,
                        channels or (0, 1, 2))
    walls = wall_levels(cfg, level, prep, feet)
    # read in the unlikeness (a table darker than a post), lighter is only less unlike: a lit
    # post may be lighter than its shadow's end, and the judge, not the level, tells them apart
    sure = (dets.confidence[is_post] >= cfg.judge.min_score
            if cfg.judge is not None and channels is None else np.zeros(len(feet), bool))
    drop = np.zeros(len(dets), bool)
    for i in np.argsort(walls):  # the darkest first: a shadow's post is darker than it
        for j in range(len(feet)):
            if j == i or drop[is_post[i]] or walls[j] < walls[i] + shadows.lighter or \
                    (sure[j] and not sure[i]):
                continue
            apart = float(np.hypot(*(feet[j] - feet[i])))
            if not shadows.min_apart * r <= apart <= shadows.max_apart_mm * s:
                continue
            if band_dark(cfg, level, feet[i], feet[j], r) >= shadows.dark_share:
                drop[is_post[j]] = True
    return dets[~drop]
