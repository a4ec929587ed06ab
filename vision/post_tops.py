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
    min_fill: Least share of its convex hull the blob fills (solid, not a ring or a scrawl).
    min_inside: Least share of the blob within the outline of a post with the top it implies
        (its top disc and, leaning towards the camera, its wall: :func:`seen_post`).
    min_cover: Where the blob is longer along the ray than a top (a top and a lit wall), the
        least share of that outline over the blob's own length that is lit (a post lit across
        its width, not a streak of grain or noise).
    ring: The ring from ``ring[0]`` to ``ring[1]`` top radii round that outline is the
        table's: at most ``max_ring_lit`` of it is lit (a post alone, not part of a larger
        lit thing).
    max_ring_lit: See ``ring``.
    min_z, max_places: Places to look at (:func:`top_places`): where a top-wide box of the
        centre net's input is lighter than the ring round it by ``min_z`` robust spreads of
        that difference over the frame; of those no piece found explains, at most
        ``max_places`` (the lightest first) are read.
    min_score: A post read from its top stands where the post judge gives it this share of
        votes (its wall, the judge's surest evidence, is at the table's level there).
    """

    sigmas: float = 3.0
    min_lift: float = 8.0
    min_area: float = 0.55
    max_area: float = 1.5
    min_fill: float = 0.4
    min_inside: float = 0.85
    min_cover: float = 0.6
    ring: tuple[float, float] = (0.6, 1.4)
    max_ring_lit: float = 0.15
    min_z: float = 6.0
    max_places: int = 6
    min_score: float = 0.3


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
            reach_px: float, lean: Lean | None = None) -> np.ndarray | None:
    """The centre (view pixels) of a lit post top within ``reach_px`` of ``start_px`` in the
    plain level ``plain`` (the table at 100), or None. The lit thing may be the top alone or
    the whole post seen from the camera (``lean``; None: straight below it), top and wall.

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
    x, y = (int(v) for v in np.rint(start_px))
    k = math.ceil(reach_px + cfg.ring[1] * top_r_px + 2
                  + (0.0 if lean is None else lean.wall_px(np.asarray(start_px, float))))
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
    # the lit thing's extent at half its lift over the table round it (as wide for a faint
    # top as for one lit to white, whose glow a fixed threshold would take for top)
    lit = (win > med + 0.5 * (peak - med)).astype(np.uint8)
    top = seen_post(cfg, lit, (px, py), top_r_px, _shifted(lean, x0, y0))
    return None if top is None else top + np.array([x0, y0], float)


@dataclass(frozen=True)
class Lean:
    """How a post leans away from the camera in a view: ``nadir_px``, the point below the
    camera (view pixels), and ``keep``, the share of its top's distance from there its foot
    is seen at (``(H - h) / H`` for a camera ``H`` mm up and a post ``h`` mm high).

    >>> round(Lean(np.zeros(2), 0.96).wall_px(np.array([300.0, 400.0])), 1)
    20.0
    """

    nadir_px: np.ndarray
    keep: float

    def wall_px(self, top_px: np.ndarray) -> float:
        """How long (view pixels) the wall of a post whose top is seen at ``top_px`` is seen."""
        return (1.0 - self.keep) * float(np.hypot(*(top_px - self.nadir_px)))


def lean_of(view: TopView, height_mm: float) -> Lean:
    """The :class:`Lean` of a post ``height_mm`` high in ``view``."""
    cam_h = float(view.camera.height_mm)
    return Lean(view.to_px(np.asarray(view.camera.nadir_mm, float)[None])[0],
                max(cam_h - height_mm, 1.0) / cam_h)


def _shifted(lean: Lean | None, x0: int, y0: int) -> Lean | None:
    return None if lean is None else Lean(lean.nadir_px - [x0, y0], lean.keep)


def seen_post(cfg: PostTopConfig, lit: np.ndarray, at: tuple[int, int], top_r_px: float,
              lean: Lean | None) -> np.ndarray | None:
    """The top's centre (pixels of ``lit``) of the lit blob of ``lit`` (uint8 0/1) at ``at``
    (column, row) where it is a post seen from the camera, or None.

    On a black table the light a post sends back may be its top's alone (a disc) or its
    wall's too (the post is a little lighter than black felt and glossier): then the lit
    thing is the post's whole outline as the camera sees it, a top disc and the wall leaning
    from it towards the camera (``lean``), up to as long as the post is tall. So the top is
    put at the blob's far end from the camera, less a top's radius, and the blob must lie
    within the outline of a post with that top (``min_inside`` of it), fill at least
    ``min_area`` of a top's disc and at most ``max_area`` of the outline, and ``min_fill``
    of the outline's convex hull of its own, with the ring ``ring`` top radii round that
    outline unlit (``max_ring_lit``): a coin's face, a die, a pencil, a page's corner or
    glare are wider or longer than a post, or part of a larger lit thing.

    >>> lit = np.zeros((60, 60), np.uint8)
    >>> lit[20:25, 30:45] = 1  # a post's outline: a top (radius 2.5) and its wall, leaning
    >>> seen_post(PostTopConfig(), lit, (40, 22), 2.5, Lean(np.array([-60.0, 22.0]), 0.9)).tolist()
    [42.0, 22.0]
    >>> seen_post(PostTopConfig(), lit, (40, 22), 2.5, None) is None  # straight below
    True
    """
    _, labels, stats, _ = cv2.connectedComponentsWithStats(lit, connectivity=8)
    i = int(labels[at[1], at[0]])
    if i == 0:
        return None
    disc = math.pi * top_r_px ** 2
    area = float(stats[i, cv2.CC_STAT_AREA])
    if area < cfg.min_area * disc:
        return None
    ys, xs = np.nonzero(labels == i)
    pts = np.c_[xs, ys].astype(float)
    c = pts.mean(axis=0)
    top, u = c, np.zeros(2)
    if lean is not None:
        u = c - lean.nadir_px
        norm = float(np.hypot(*u))
        u = u / norm if norm > 1e-6 else np.zeros(2)
        top = c + max(float(((pts - c) @ u).max()) + 0.5 - top_r_px, 0.0) * u  # pixels' edge
    outline = np.zeros(lit.shape, np.uint8)
    _draw_post(outline, top, top_r_px, lean)
    size = float(np.count_nonzero(outline))
    grown = cv2.dilate(outline, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    if area > cfg.max_area * size or float(grown[ys, xs].mean()) < cfg.min_inside:
        return None
    # a blob longer along the ray than a top is a top and a lit wall: the outline over the
    # blob's own length is lit across its width (a post, not a streak of grain or noise)
    s_blob = (pts - c) @ u
    if float(s_blob.max() - s_blob.min()) + 1.0 > 2.0 * top_r_px + 1.0:
        oy, ox = np.nonzero(outline)
        s_out = (np.c_[ox, oy] - c) @ u
        part = (s_out >= s_blob.min() - 0.5) & (s_out <= s_blob.max() + 0.5)
        if part.any() and float(lit[oy[part], ox[part]].mean()) < cfg.min_cover:
            return None
    hull = cv2.convexHull(np.c_[xs, ys].astype(np.int32))
    if area < cfg.min_fill * max(cv2.contourArea(hull) + 0.5 * cv2.arcLength(hull, True),
                                 1.0):
        return None
    dist = cv2.distanceTransform(1 - outline, cv2.DIST_L2, 3)
    ring = (dist >= cfg.ring[0] * top_r_px) & (dist <= cfg.ring[1] * top_r_px)
    if not ring.any() or float(lit[ring].mean()) > cfg.max_ring_lit:
        return None
    return top


def _draw_post(mask: np.ndarray, top_px: np.ndarray, top_r_px: float, lean: Lean | None
               ) -> None:
    """Fill (1) the outline of a post whose top is seen at ``top_px``: its top disc, and, as
    the camera sees it lean (``lean``), its foot's disc and the wall between."""
    a = np.linspace(0.0, 2.0 * math.pi, 24, endpoint=False)
    ring = np.c_[np.cos(a), np.sin(a)]
    pts = top_px + max(top_r_px, 0.5) * ring
    if lean is not None:
        foot = lean.nadir_px + (top_px - lean.nadir_px) * lean.keep
        pts = np.r_[pts, foot + max(top_r_px * lean.keep, 0.5) * ring]
    cv2.fillConvexPoly(mask, cv2.convexHull(np.rint(pts).astype(np.int32)), 1)


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
    >>> cam = SimpleNamespace(height_mm=1000.0, nadir_mm=np.array([60.0, 80.0]))
    >>> v = SimpleNamespace(valid=np.full((80, 80), 255, np.uint8), camera=cam,
    ...                     to_mm=lambda p: p * 2.0, to_px=lambda p: p / 2.0)
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
    xy, score = local_maxima(z, ring, cfg.min_z)
    r_px = radius_mm * cam_h / max(cam_h - height_mm, 1.0) / MM_PER_PX
    lean = lean_of(view, height_mm)
    keep, tops = [], []
    for i in range(min(_MOST, len(score))):
        t = post_like(cfg, lum, int(xy[i, 0]), int(xy[i, 1]), r_px, lean)
        if t is not None:
            keep.append(i)
            tops.append(t)
    if not keep:
        return Peaks(np.zeros((0, 2)), np.zeros(0))
    return Peaks(view.to_mm(lean.nadir_px + (np.array(tops) - lean.nadir_px) * lean.keep),
                 score[keep])


def post_like(cfg: PostTopConfig, lum: np.ndarray, x: int, y: int, r_px: float,
              lean: Lean | None = None) -> np.ndarray | None:
    """The top's centre (pixels of ``lum``) where the light patch at ``(x, y)`` of ``lum`` is
    a lit post alone on the table (:func:`seen_post`: its top disc of radius ``r_px``, or
    its top and its wall leaning as ``lean`` says), or None: its pixels lighter than half way
    from the table round it (the window's median) to its lightest pixel near ``(x, y)`` (a
    size read at half the lift, so it holds for a faint top and a bright one).

    >>> lum = np.zeros((40, 40), np.float32)
    >>> yy, xx = np.mgrid[:40, :40]
    >>> lum[(xx - 20) ** 2 + (yy - 20) ** 2 <= 6] = 1.0
    >>> post_like(PostTopConfig(), lum, 20, 20, 2.6).tolist()
    [20.0, 20.0]
    >>> post_like(PostTopConfig(), lum, 20, 20, 5.0) is None
    True
    """
    h, w = lum.shape
    k = math.ceil(cfg.ring[1] * r_px + 2 * r_px + 1
                  + (0.0 if lean is None else lean.wall_px(np.array([x, y], float))))
    x0, y0, x1, y1 = max(0, x - k), max(0, y - k), min(w, x + k + 1), min(h, y + k + 1)
    patch = lum[y0:y1, x0:x1]
    yy, xx = np.ogrid[y0:y1, x0:x1]
    core = np.sqrt((xx - x) ** 2 + (yy - y) ** 2) <= max(1.0, 0.5 * r_px)
    if not core.any():
        return None
    base = float(np.median(patch))
    j = int(np.argmax(np.where(core, patch, -np.inf)))
    py, px = divmod(j, patch.shape[1])
    lit = (patch > base + 0.5 * (float(patch[py, px]) - base)).astype(np.uint8)
    top = seen_post(cfg, lit, (px, py), r_px, _shifted(lean, x0, y0))
    return None if top is None else top + np.array([x0, y0], float)
