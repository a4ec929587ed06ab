"""A post read from its lit top, where its wall shows nothing.

On black felt or cloth (and on a mid table in glare) a post's wall is at the table's own
level: the felt swallows the light its wall would catch, so neither the level, nor its
stretch, nor the unlikeness reads a wall there. What stands out is its flat top, lit from
above: a disc lighter than the table, as wide as the post (a circle 40 mm up is seen on the
table plane as a circle ``H / (H - 40)`` times as wide, centred where
:meth:`vision.topview.CameraGeometry.seen_at` puts it), and the foot it implies,
:meth:`~vision.topview.CameraGeometry.foot_of` the top, 40 mm down, lies within a mm or two
of the true foot (session 18's probes).

So at a place worth looking at (a net's peak, a place standing out) where no wall is read,
the plain level (the table at 100) is searched for a disc lighter than the table by a few of
its own noise's sigmas: one blob near the place, as large as the top's disc (not a coin's,
not a die's), round and solid, with the table round it (not a part of a larger lit thing:
a page, glare, a mug's rim). No table is named; what this reads still goes to the post judge.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.centres import Peaks, local_maxima
from vision.centres_input import MM_PER_PX
from vision.normalise import TABLE_LEVEL
from vision.topview import TopView

_MOST = 100
"""At most this many places a frame, the lightest, are tested for a disc (a cost bound; the
caller leaves out those of pieces found before it takes ``max_places``)."""


@dataclass(frozen=True)
class PostTopConfig:
    """Attributes:
    sigmas, min_lift: A top's pixels are lighter than the table (100) by this many sigmas of
        the window's own noise (the robust spread of its level) and by at least ``min_lift``.
    min_area, max_area: The lit blob's area as a share of the top's disc seen on the table.
    min_fill: Least share of the blob's enclosing circle the blob fills (a round, solid disc).
    max_elongation: Most ratio of the blob's longer axis to its shorter one.
    ring: The ring from ``ring[0]`` to ``ring[1]`` top radii round the blob's centre is the
        table's: at most ``max_ring_lit`` of it is lit (a disc alone, not part of a larger
        lit thing).
    max_ring_lit: See ``ring``.
    min_z, max_places: Places to look at (:func:`top_places`): where a top-wide box of the
        centre net's input is lighter than the ring round it by ``min_z`` robust spreads of
        that difference over the frame; of those no piece found explains, at most
        ``max_places`` (the lightest first) are read: as many as the centre net's cool
        peaks (``PostCandidateConfig.max_cool``), the most posts a game lays; at 6 (session
        27) a black felt of 26 posts in glare never read its 7th lit top.
    min_score: A post read from its top stands where the post judge gives it this share of
        votes (its wall, the judge's surest evidence, is at the table's level there).
    pairs: Two posts touching show two lit tops touching (their centres two top radii
        apart: the tops are magnified about the nadir as their spacing is), which the lift
        makes one blob and whose ring the other top lights. A blob as large as two tops is
        read as a pair where cut across its long axis at its centre it gives two halves as
        large as a top each, ``pair_apart`` top radii apart, with a waist between them (the
        middle band across the cut holds at most ``max_waist`` of the mean of the bands one
        top radius to either side: a bar or a page's strip has none); each top's ring is
        then read without the other top (within ``pair_clear`` top radii of its centre).
        False: a lit blob is one top or none (session 27).
    pair_apart, max_waist, pair_clear: See ``pairs``.
    """

    sigmas: float = 3.0
    min_lift: float = 8.0
    min_area: float = 0.55
    max_area: float = 1.5
    min_fill: float = 0.65
    max_elongation: float = 1.5
    ring: tuple[float, float] = (1.6, 2.4)
    max_ring_lit: float = 0.1
    min_z: float = 6.0
    max_places: int = 30
    min_score: float = 0.3
    pairs: bool = True
    pair_apart: tuple[float, float] = (1.6, 2.5)
    max_waist: float = 0.8
    pair_clear: float = 1.5


def one_top(cfg: PostTopConfig, blob: np.ndarray, at_xy: tuple[float, float], r_px: float,
            solid: bool = True) -> tuple[np.ndarray, np.ndarray | None] | None:
    """The top a lit blob (bool mask) is, or of two touching the one nearer ``at_xy``: its
    centre (x, y in the mask) and the other top's centre of a pair (None: a top alone); None
    when the blob is neither a top (as large as one and, where ``solid``, round and solid:
    :func:`disc_like`'s coarse samples are too few to tell) nor two touching
    (:attr:`PostTopConfig.pairs`; their waist, too, only where ``solid``).

    >>> yy, xx = np.mgrid[:40, :60]
    >>> one = (xx - 20) ** 2 + (yy - 20) ** 2 <= 36
    >>> c, other = one_top(PostTopConfig(), one, (20, 20), 6.0)
    >>> c.round(1).tolist(), other
    ([20.0, 20.0], None)
    >>> two = one | ((xx - 32) ** 2 + (yy - 20) ** 2 <= 36)
    >>> c, other = one_top(PostTopConfig(), two, (33, 19), 6.0)
    >>> c.round().tolist(), other.round().tolist()
    ([32.0, 20.0], [20.0, 20.0])
    >>> one_top(PostTopConfig(), (abs(yy - 20) <= 5) & (abs(xx - 26) <= 12), (20, 20), 6.0)
    """
    ys, xs = np.nonzero(blob)
    area = float(len(xs))
    disc = math.pi * r_px ** 2
    if not len(xs):
        return None
    pts = np.c_[xs, ys].astype(np.float64)
    c = pts.mean(axis=0)
    rel = pts - c
    cov = rel.T @ rel / area
    ev, evec = np.linalg.eigh(cov)
    if cfg.min_area * disc <= area <= cfg.max_area * disc:
        if not solid:
            return c, None
        if not _filled(cfg, pts):
            return None
        if ev[0] <= 0 or math.sqrt(ev[1] / ev[0]) > cfg.max_elongation:
            return None
        return c, None
    if not cfg.pairs or not 2 * cfg.min_area * disc <= area <= 2 * cfg.max_area * disc:
        return None
    t = rel @ evec[:, 1]  # along the long axis, from the centre
    halves = [pts[t < 0], pts[t >= 0]]
    if any(not cfg.min_area * disc <= len(h) <= cfg.max_area * disc for h in halves):
        return None
    a, b = (h.mean(axis=0) for h in halves)
    if not cfg.pair_apart[0] <= float(np.hypot(*(a - b))) / r_px <= cfg.pair_apart[1]:
        return None
    band = 0.5 * r_px
    waist = np.count_nonzero(np.abs(t) <= band)
    sides = 0.5 * (np.count_nonzero(np.abs(t - r_px) <= band)
                   + np.count_nonzero(np.abs(t + r_px) <= band))
    if solid and waist > cfg.max_waist * sides:
        return None
    if solid and not all(_filled(cfg, half) for half in halves):  # each a solid top
        return None
    at = np.asarray(at_xy, float)
    if np.hypot(*(a - at)) <= np.hypot(*(b - at)):
        return a, b
    return b, a


def _filled(cfg: PostTopConfig, pts: np.ndarray) -> bool:
    """Whether points (N, 2) fill at least ``min_fill`` of their enclosing circle (solid)."""
    _, enclosing = cv2.minEnclosingCircle(pts.astype(np.float32))
    return len(pts) >= cfg.min_fill * math.pi * max(enclosing, 0.5) ** 2


def _ring_lit(cfg: PostTopConfig, lit: np.ndarray, xx: np.ndarray, yy: np.ndarray,
              centre: np.ndarray, other: np.ndarray | None, r_px: float) -> float | None:
    """The share of the ring round a top at ``centre`` that is lit, the other top of a pair
    (and its glow) left out; None where no ring is seen."""
    d = np.sqrt((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2)
    ring = (d >= cfg.ring[0] * r_px) & (d <= cfg.ring[1] * r_px)
    if other is not None:
        ring &= np.sqrt((xx - other[0]) ** 2 + (yy - other[1]) ** 2) > cfg.pair_clear * r_px
    if not ring.any():
        return None
    return float(lit[ring].mean())


def top_radius_px(view: TopView, radius_mm: float, height_mm: float) -> float:
    """A post top's radius as seen on the table plane, in view pixels.

    >>> from types import SimpleNamespace
    >>> v = SimpleNamespace(px_per_mm=2.0, camera=SimpleNamespace(height_mm=1000.0))
    >>> round(top_radius_px(v, 5.0, 40.0), 3)
    10.417
    """
    cam_h = float(view.camera.height_mm)
    return radius_mm * cam_h / max(cam_h - height_mm, 1.0) * view.px_per_mm


def lit_top(cfg: PostTopConfig, plain: np.ndarray, start_px: np.ndarray, top_r_px: float,
            reach_px: float) -> np.ndarray | None:
    """The centre (view pixels) of a lit post top within ``reach_px`` of ``start_px`` in the
    plain level ``plain`` (the table at 100), or None.

    >>> lv = np.full((80, 80), 100, np.uint8)
    >>> lv += np.random.default_rng(0).integers(0, 4, lv.shape).astype(np.uint8)
    >>> yy, xx = np.mgrid[:80, :80]
    >>> lv[(xx - 42) ** 2 + (yy - 38) ** 2 <= 36] = 140  # a lit disc of radius 6
    >>> lit_top(PostTopConfig(), lv, np.array([40.0, 40.0]), 6.0, 10.0).round(1).tolist()
    [42.0, 38.0]
    >>> lv[(xx - 42) ** 2 + (yy - 38) ** 2 <= 200] = 140  # a lit patch far too large
    >>> lit_top(PostTopConfig(), lv, np.array([40.0, 40.0]), 6.0, 10.0) is None
    True
    """
    h, w = plain.shape
    k = math.ceil(reach_px + cfg.ring[1] * top_r_px + 2)
    x, y = (int(v) for v in np.rint(start_px))
    x0, y0, x1, y1 = max(0, x - k), max(0, y - k), min(w, x + k + 1), min(h, y + k + 1)
    if x1 - x0 < 5 or y1 - y0 < 5:
        return None
    win = cv2.blur(plain[y0:y1, x0:x1], (3, 3)).astype(np.float32)
    med = float(np.median(win))
    sigma = 1.4826 * float(np.median(np.abs(win - med)))
    yy, xx = np.mgrid[:win.shape[0], :win.shape[1]]
    reach = np.hypot(xx - (x - x0), yy - (y - y0)) <= reach_px
    if not reach.any():
        return None
    j = int(np.argmax(np.where(reach, win, -1.0)))
    py, px = divmod(j, win.shape[1])
    peak = float(win[py, px])
    if peak < max(med, TABLE_LEVEL) + max(cfg.min_lift, cfg.sigmas * sigma):
        return None
    # the top's extent at half its lift over the table round it (as wide for a faint top
    # as for one lit to white, whose glow a fixed threshold would take for top)
    lit = (win > med + 0.5 * (peak - med)).astype(np.uint8)
    _, labels = cv2.connectedComponents(lit, connectivity=8)
    got = one_top(cfg, labels == labels[py, px], (px, py), top_r_px)
    if got is None:
        return None
    c, other = got
    share = _ring_lit(cfg, lit, xx, yy, c, other, top_r_px)
    if share is None or share > cfg.max_ring_lit:
        return None
    return np.array([c[0] + x0, c[1] + y0], float)


def foot_below(view: TopView, top_px: np.ndarray, height_mm: float) -> np.ndarray:
    """The foot (view pixels) of a post whose top's centre is seen at ``top_px``."""
    top_mm = view.to_mm(np.asarray(top_px, float).reshape(1, 2))
    return view.to_px(view.camera.foot_of(top_mm, height_mm))[0]


def top_places(cfg: PostTopConfig, x: np.ndarray, view: TopView, radius_mm: float,
               height_mm: float) -> Peaks:
    """The feet (table mm) below the places where a lit post top may be, each with how far
    it stands out (lightest first): in the centre net's input ``x`` over the coarse ``view``
    (channels 0-2: log2 of each channel over its local median, so light and table cancel), a
    box as wide as a top lighter, in every channel's mean, than the ring round it, in robust
    spreads (the median absolute difference over the frame: a lone top does not widen it).

    >>> from types import SimpleNamespace
    >>> x = np.random.default_rng(0).normal(0, 0.05, (3, 80, 80)).astype(np.float32)
    >>> x[:, 38:43, 28:33] = 1.0  # a lit disc 10 mm wide (2 mm a sample)
    >>> cam = SimpleNamespace(height_mm=1000.0, foot_of=lambda p, z: p)
    >>> v = SimpleNamespace(valid=np.full((80, 80), 255, np.uint8), camera=cam,
    ...                     to_mm=lambda p: p * 2.0)
    >>> p = top_places(PostTopConfig(), x, v, 5.0, 40.0)
    >>> len(p.score), (p.centre_mm[0] / 2.0).round().tolist()
    (1, [30.0, 40.0])
    """
    cam_h = float(view.camera.height_mm)
    top = max(3, round(2 * radius_mm * cam_h / max(cam_h - height_mm, 1.0) / MM_PER_PX) | 1)
    ring = 2 * top + 1
    lum = cv2.add(cv2.add(x[0], x[1]), x[2]) * (1.0 / 3.0)
    d = cv2.subtract(cv2.boxFilter(lum, -1, (top, top)), cv2.boxFilter(lum, -1, (ring, ring)))
    k = max(3, ring | 1)
    valid = cv2.erode(view.valid, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))) > 0
    if not valid.any():
        return Peaks(np.zeros((0, 2)), np.zeros(0))
    vals = d[::3, ::3][valid[::3, ::3]]  # every third sample each way: the spread's cost
    if not len(vals):
        return Peaks(np.zeros((0, 2)), np.zeros(0))
    med = float(np.median(vals))
    spread = max(1.4826 * float(np.median(np.abs(vals - med))), 1e-3)
    z = (d - med) / spread
    z[~valid] = 0.0
    # a window one top wide: of two tops touching (a top's width apart) both are places
    xy, score = local_maxima(z, top if cfg.pairs else ring, cfg.min_z)
    r_px = radius_mm * cam_h / max(cam_h - height_mm, 1.0) / MM_PER_PX
    keep = [i for i in range(min(_MOST, len(score)))
            if disc_like(cfg, lum, xy[i, 0], xy[i, 1], r_px)]
    if not keep:
        return Peaks(np.zeros((0, 2)), np.zeros(0))
    tops_mm = view.to_mm(xy.astype(float)[keep])
    return Peaks(view.camera.foot_of(tops_mm, height_mm), score[keep])


def disc_like(cfg: PostTopConfig, lum: np.ndarray, x: int, y: int, r_px: float) -> bool:
    """Whether the light patch at ``(x, y)`` of ``lum`` is a disc of radius ``r_px`` alone on
    the table: its pixels lighter than half way from the ring round it (its median) to its
    lightest pixel near ``(x, y)`` are one blob there, as large as the disc, with the ring
    round it unlit (a size read at half the lift, so it holds for a faint top and a bright one).

    >>> lum = np.zeros((40, 40), np.float32)
    >>> yy, xx = np.mgrid[:40, :40]
    >>> lum[(xx - 20) ** 2 + (yy - 20) ** 2 <= 6] = 1.0
    >>> disc_like(PostTopConfig(), lum, 20, 20, 2.6), disc_like(PostTopConfig(), lum, 20, 20, 5.0)
    (True, False)
    """
    h, w = lum.shape
    k = math.ceil(cfg.ring[1] * r_px + 1)
    x0, y0, x1, y1 = max(0, x - k), max(0, y - k), min(w, x + k + 1), min(h, y + k + 1)
    patch = lum[y0:y1, x0:x1]
    yy, xx = np.ogrid[y0:y1, x0:x1]
    d = np.sqrt((xx - x) ** 2 + (yy - y) ** 2)
    ring = (d >= cfg.ring[0] * r_px) & (d <= cfg.ring[1] * r_px)
    core = d <= max(1.0, 0.5 * r_px)
    if not ring.any() or not core.any():
        return False
    base = float(np.median(patch[ring]))
    lit = (patch > base + 0.5 * (float(patch[core].max()) - base)).astype(np.uint8)
    _, labels = cv2.connectedComponents(lit, connectivity=8)
    here = labels[y - y0, x - x0]
    if here == 0:
        return False
    got = one_top(cfg, labels == here, (x - x0, y - y0), r_px, solid=False)
    if got is None:
        return False
    c, other = got
    if other is None:  # a top alone: its ring as the place's (session 27)
        return bool(float(lit[ring].mean()) <= cfg.max_ring_lit)
    share = _ring_lit(cfg, lit, xx - x0, yy - y0, c, other, r_px)
    return share is not None and share <= cfg.max_ring_lit
