"""A reading that repeats the table's own pattern is no post.

A patterned cloth (gingham, checks) is dark in squares laid on a lattice: each dark square is a
blob of the dark mask, and one as wide as a post, with the paler bands round it, passes the
post stage's hand-set gates (its wall dark all through, the table brighter round it). A post is
one thing standing on the table: the look of its place (its outline and a margin of the table
round it) is found nowhere else near it. A square of the cloth is found again at every step
of the lattice: on both sides of it along one axis, and along a second axis too. So a reading
whose place is found again (the level's normalised correlation, which the light's slow changes
over the cloth do not move) three times or more, not all along one line, within
``max_shift_mm``, repeats the table's pattern and is not a post (at the cloth's edge or
beside a piece the lattice is cut, so no side is asked for); and a blob of the dark mask
with blobs alike in size so round it is a square of the cloth, not read at all
(:func:`lattice_blobs`). Two or three posts
side by side are alike too, but they do not stand on a lattice round one another, and a post
standing on a patterned cloth is black over it: its place is unlike the bare cloth beside it.

The test is one principle for every table: a plain or grained table has no copy of a place in
two directions (a wood grain or a blind's stripes repeat along one axis at most).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.centres import local_maxima


@dataclass(frozen=True)
class PostPatternConfig:
    """Attributes:
    max_shift_mm: Copies of a reading's place are looked for this far from it each way (a
        checked cloth's lattice: gingham 12-28 mm, large checks up to 60 mm).
    min_shift: A copy is at least this many post diameters from the reading (nearer: the
        reading itself, blurred).
    margin: The place compared is the post's outline grown by this many post radii (the table
        round it belongs to the look).
    min_match: Least normalised correlation (-1 to 1) of a copy with the reading's place.
    min_angle_deg: The third copy is at least this far (degrees) off the line of the other two.
    opposite_px: Two copies are opposite when their shifts sum to at most this many pixels
        (a lattice's steps are equal and opposite).
    min_copies: A reading's place found again at least this many times, not all along one
        line (:func:`two_ways`), repeats the table.
    alike_size: Blobs are alike (:func:`lattice_blobs`) when their boxes' widths and heights
        are within this factor.
    opposite_share: Two blobs' centres are opposite when their shifts sum to at most this
        share of the shorter shift (a blob's centre moves as other pieces cut it).
    """

    max_shift_mm: float = 64.0
    min_shift: float = 1.2
    margin: float = 0.6
    min_match: float = 0.7
    min_angle_deg: float = 30.0
    opposite_px: float = 4.0
    min_copies: int = 3
    alike_size: float = 1.35
    opposite_share: float = 0.2


def pattern_copies(cfg: PostPatternConfig, level: np.ndarray, px_per_mm: float,
                   outline_px: np.ndarray, radius_mm: float) -> np.ndarray:
    """(K, 2) shifts (view pixels) at which the place of a reading (the box round its outline
    points ``outline_px`` (M, 2), grown by ``cfg.margin`` radii) is found again in ``level``:
    local maxima of the normalised correlation at least ``cfg.min_match``, at least
    ``cfg.min_shift`` diameters and at most ``cfg.max_shift_mm`` away.

    >>> yy, xx = np.mgrid[0:200, 0:200]
    >>> cloth = np.where(((yy // 10) % 2 == 0) & ((xx // 10) % 2 == 0), 40, 120).astype(np.uint8)
    >>> square = np.array([[100.0, 100.0], [109.0, 109.0]])
    >>> copies = pattern_copies(PostPatternConfig(), cloth, 1.0, square, 5.0)
    >>> {(20, 0), (-20, 0), (0, 20), (20, 20)} <= set(map(tuple, copies.astype(int).tolist()))
    True
    >>> lone = np.full((200, 200), 120, np.uint8); lone[100:110, 100:110] = 40
    >>> len(pattern_copies(PostPatternConfig(), lone, 1.0, square, 5.0))
    0
    """
    found = pattern_matches(cfg, level, px_per_mm, outline_px, radius_mm)
    return np.zeros((0, 2)) if found is None else found[0]


def pattern_matches(cfg: PostPatternConfig, level: np.ndarray, px_per_mm: float,
                    outline_px: np.ndarray, radius_mm: float, least: float | None = None
                    ) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`pattern_copies` with the correlation of each copy: the shifts (K, 2, view
    pixels), as local maxima of the normalised correlation at least ``least`` (default
    ``cfg.min_match``), and their correlations; None where the place or its search is cut by
    the view's edge, or the place is flat."""
    s = px_per_mm
    r = radius_mm * s
    h, w = level.shape
    grow = cfg.margin * r
    x0, y0 = (math.floor(v - grow) for v in outline_px.min(axis=0))
    x1, y1 = (math.ceil(v + grow) + 1 for v in outline_px.max(axis=0))
    reach = math.ceil(cfg.max_shift_mm * s)
    xa, ya = max(0, x0 - reach), max(0, y0 - reach)
    xb, yb = min(w, x1 + reach), min(h, y1 + reach)
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h or xb - xa < x1 - x0 + 2 or yb - ya < y1 - y0 + 2:
        return None
    patch = level[y0:y1, x0:x1]
    if float(patch.std()) < 1.0:
        return None
    match = cv2.matchTemplate(level[ya:yb, xa:xb], patch, cv2.TM_CCOEFF_NORMED)
    xy, score = local_maxima(match, 3, cfg.min_match if least is None else least)
    shift = (xy + np.array([xa - x0, ya - y0])).astype(float).reshape(-1, 2)
    far = np.hypot(shift[:, 0], shift[:, 1])
    keep = (far >= cfg.min_shift * 2 * r) & (far <= reach)
    return shift[keep], score[keep]


def on_lattice(cfg: PostPatternConfig, shifts: np.ndarray, share: float = 0.0) -> bool:
    """Whether ``shifts`` (K, 2, view pixels) hold two opposite pairs (each summing to at
    most ``cfg.opposite_px``, or ``share`` of its shorter shift) on two lines at least
    ``cfg.min_angle_deg`` apart: the steps of a lattice on both sides of the reading, along
    two axes.

    >>> cfg = PostPatternConfig()
    >>> on_lattice(cfg, np.array([[20.0, 0.0], [-20.0, 1.0], [0.0, 20.0], [1.0, -20.0]]))
    True
    >>> on_lattice(cfg, np.array([[20.0, 0.0], [-20.0, 1.0], [40.0, 0.0], [-40.0, 0.0]]))
    False
    >>> on_lattice(cfg, np.array([[20.0, 0.0], [-20.0, 1.0], [0.0, 20.0]]))  # three posts
    False
    """
    if len(shifts) < 4:
        return False
    norms = np.hypot(shifts[:, 0], shifts[:, 1])
    sums = np.hypot(*(shifts[:, None, :] + shifts[None, :, :]).transpose(2, 0, 1))
    tol = np.maximum(cfg.opposite_px, share * np.minimum(norms[:, None], norms[None, :]))
    ii, _jj = np.nonzero(np.triu(sums <= tol, 1))
    if len(ii) < 2:
        return False
    return apart_ways(shifts[ii] / norms[ii, None], cfg.min_angle_deg)


def two_ways(cfg: PostPatternConfig, shifts: np.ndarray) -> bool:
    """Whether ``shifts`` (K, 2, view pixels) are at least ``cfg.min_copies`` and not all on
    one line through the reading (two of them at least ``cfg.min_angle_deg`` apart, either
    way): a place found again across a cloth, not along one grain or stripe.

    >>> cfg = PostPatternConfig()
    >>> two_ways(cfg, np.array([[20.0, 0.0], [40.0, 0.0], [0.0, 20.0]]))
    True
    >>> two_ways(cfg, np.array([[20.0, 0.0], [-20.0, 1.0], [40.0, 0.0]]))  # along one line
    False
    >>> two_ways(cfg, np.array([[20.0, 0.0], [0.0, 20.0]]))  # two posts beside it
    False
    """
    if len(shifts) < cfg.min_copies:
        return False
    return apart_ways(shifts / np.hypot(shifts[:, 0], shifts[:, 1])[:, None],
                      cfg.min_angle_deg)


def apart_ways(units: np.ndarray, min_angle_deg: float) -> bool:
    """Whether two of the unit vectors ``units`` (K, 2) lie on lines at least
    ``min_angle_deg`` apart (either way along each).

    >>> apart_ways(np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]]), 30.0)
    True
    >>> apart_ways(np.array([[1.0, 0.0], [-1.0, 0.0]]), 30.0)
    False
    """
    u = units
    cross = np.abs(u[:, None, 0] * u[None, :, 1] - u[:, None, 1] * u[None, :, 0])
    return bool((cross >= math.sin(math.radians(min_angle_deg))).any())


def repeats_table(cfg: PostPatternConfig, level: np.ndarray, px_per_mm: float,
                  outline_px: np.ndarray, radius_mm: float) -> bool:
    """Whether a reading (its outline points ``outline_px``, view pixels) repeats the table's
    pattern: its place is found again round it in two directions (:func:`pattern_copies`,
    :func:`two_ways`). A post's place is found nowhere else (a black post over a cloth's
    square is unlike the bare squares)."""
    return two_ways(cfg, pattern_copies(cfg, level, px_per_mm, outline_px, radius_mm))


def lattice_blobs(cfg: PostPatternConfig, centres_px: np.ndarray, sizes_px: np.ndarray,
                  px_per_mm: float, radius_mm: float) -> np.ndarray:
    """(N,) bool: which of a frame's dark blobs (centres ``centres_px`` (N, 2), box sizes
    ``sizes_px`` (N, 2): width and height, view pixels) are the squares of a checked cloth:
    blobs alike in size (within ``cfg.alike_size`` each way) stand round it on a lattice
    (:func:`on_lattice`, their centres' shifts within ``cfg.opposite_share`` of their length
    of opposite), between ``cfg.min_shift`` post diameters and ``cfg.max_shift_mm`` away.
    A post is read from its own blob (two touching make one), unlike the bare cloth's
    squares round it.

    >>> cfg = PostPatternConfig()
    >>> grid = np.array([[x, y] for x in range(0, 100, 20) for y in range(0, 100, 20)], float)
    >>> sizes = np.full((len(grid), 2), 9.0)
    >>> bool(lattice_blobs(cfg, grid, sizes, 1.0, 5.0)[12])  # the middle of a checked cloth
    True
    >>> posts = np.array([[0.0, 0.0], [30.0, 0.0], [60.0, 5.0], [30.0, 40.0], [80.0, 40.0]])
    >>> bool(lattice_blobs(cfg, posts, np.full((5, 2), 12.0), 1.0, 5.0).any())  # posts about
    False
    """
    n = len(centres_px)
    out = np.zeros(n, bool)
    if n < 4:
        return out
    c = np.asarray(centres_px, np.float32)
    size = np.log(np.maximum(np.asarray(sizes_px, np.float32), 1.0))
    lo, hi = cfg.min_shift * 2 * radius_mm * px_per_mm, cfg.max_shift_mm * px_per_mm
    alike = math.log(cfg.alike_size)
    for i in range(n):
        d = c - c[i]
        far = np.hypot(d[:, 0], d[:, 1])
        near = (far >= lo) & (far <= hi) & (np.abs(size - size[i]) <= alike).all(axis=1)
        if np.count_nonzero(near) >= 4:
            out[i] = on_lattice(cfg, d[near].astype(float), cfg.opposite_share)
    return out
