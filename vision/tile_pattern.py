"""A square that repeats the table's own pattern is no tile.

A checked cloth whose checks are half a tile wide (checks-large: 18-30 mm) shows, at every
step of its lattice, a square of a tile's size made of 2 x 2 checks: its middle lines cross
like a face-down tile's back, its outline is the checks' edges, and the centre net, the namer
and the tile judge can all take it for a tile (session 22: the namer 0.49-0.52, the judge
0.71-0.74). A tile is one thing lying on the table: the look of its place (the square and a
margin of the table round it) is found nowhere else near it. A square of the cloth is found
again at every step of the lattice, on both sides of it along two axes.

So a square whose place is found again (the level's normalised correlation,
:func:`vision.post_pattern.pattern_copies`) in opposite pairs along two lines at least
``min_angle_deg`` apart (:func:`vision.post_pattern.on_lattice`), where no piece is found,
repeats the table and is not a tile. Tiles laid edge to edge in a block are alike too: a copy
that lands on a piece already found (another tile of the block) is no evidence of the cloth.
The test is the same for every table: a plain or grained table has no copy of a place in two
directions, and a tile on a checked cloth is a pale square over it, unlike the bare cloth
beside it. A stripe (a blind's bands, a grain) is found again all along itself and at every
band, two directions of copies; but those copies lie on ridges of the correlation, where a
lattice's are peaks that fall off every way (:func:`on_ridge`): a pale tile on glossy white
under a blind, whose place's look is mostly the bands, was dropped as cloth before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.post_pattern import PostPatternConfig, on_lattice, pattern_copies


@dataclass(frozen=True)
class TilePatternConfig:
    """Attributes:
    max_shift_mm: Copies of a square's place are looked for this far from it each way
        (checks-large's lattice steps 36-60 mm; gingham's 12-28).
    min_shift: A copy is at least this many sides from the square (nearer: the square
        itself, shifted onto its own paper).
    margin: The place compared is the square grown by this many sides each way (the table
        round it belongs to the look).
    min_match: Least normalised correlation (-1 to 1) of a copy with the square's place.
    min_angle_deg: The two lines of opposite copies are at least this far apart.
    opposite_share: Two copies are opposite when their shifts sum to at most this share of
        the shorter one (a hand-woven lattice wobbles).
    ridge_mm: A copy is one of a lattice only where the place is not found as well all the
        way to this far from it, both ways along one line (:func:`on_ridge`): a stripe's
        copies lie all along it; a lattice's copy is a peak that falls off within half a
        check (checks-large 18-30 mm; under a blind's bands, whose shade runs on along them,
        the checks' peak is still as wide: 5 mm from a copy the place was found at 0.87-0.98
        of it, a ridge by that test, and 2 x 2 checks stood as tiles on a trust run).
    ridge_share: ... as well: at least this share of the copy's own correlation.
    ridge_steps: ... at this many places evenly along the reach, the nearest first (a finer
        lattice's next copy lies on the line: a ridge must not be broken).
    """

    max_shift_mm: float = 80.0
    min_shift: float = 0.6
    margin: float = 0.15
    min_match: float = 0.7
    min_angle_deg: float = 30.0
    opposite_share: float = 0.12
    ridge_mm: float = 15.0
    ridge_share: float = 0.8
    ridge_steps: int = 3

    def reach_px(self, px_per_mm: float, side_px: float) -> float:
        """How far from a square's centre (view pixels) its copies' places reach."""
        return self.max_shift_mm * px_per_mm + side_px * (0.75 + self.margin)

    @property
    def lattice(self) -> PostPatternConfig:
        """The same test in :mod:`vision.post_pattern`'s terms (a radius of half a side)."""
        return PostPatternConfig(max_shift_mm=self.max_shift_mm, min_shift=self.min_shift,
                                 margin=2.0 * self.margin, min_match=self.min_match,
                                 min_angle_deg=self.min_angle_deg, opposite_px=0.0)


def square_corners(centre_px: np.ndarray, angle_px: float, side_px: float) -> np.ndarray:
    """(4, 2) the corners of a square of side ``side_px`` at ``centre_px``, turned
    ``angle_px`` degrees.

    >>> square_corners(np.array([10.0, 10.0]), 0.0, 4.0).tolist()
    [[8.0, 8.0], [12.0, 8.0], [12.0, 12.0], [8.0, 12.0]]
    """
    a = math.radians(angle_px)
    ex = np.array([math.cos(a), math.sin(a)]) * side_px / 2
    ey = np.array([-math.sin(a), math.cos(a)]) * side_px / 2
    c = np.asarray(centre_px, float)
    return np.array([c - ex - ey, c + ex - ey, c + ex + ey, c - ex + ey])


def _place_box(cfg: TilePatternConfig, corners: np.ndarray, side_px: float
               ) -> tuple[int, int, int, int]:
    """The box (x0, y0, x1, y1) of a square's place (its corners' box grown by
    ``cfg.margin`` sides), as :func:`vision.post_pattern.pattern_copies` takes it."""
    grow = cfg.margin * side_px
    x0, y0 = (math.floor(v - grow) for v in corners.min(axis=0))
    x1, y1 = (math.ceil(v + grow) + 1 for v in corners.max(axis=0))
    return x0, y0, x1, y1


def _match(level: np.ndarray, box: tuple[int, int, int, int], shift: np.ndarray) -> float:
    """The normalised correlation of the place ``box`` of ``level`` with the place shifted
    by ``shift`` (integer pixels); -1 where that lies beyond ``level``."""
    x0, y0, x1, y1 = box
    dx, dy = int(shift[0]), int(shift[1])
    h, w = level.shape[:2]
    if min(x0, y0, x0 + dx, y0 + dy) < 0 or max(x1, x1 + dx) > w or max(y1, y1 + dy) > h:
        return -1.0
    a = level[y0:y1, x0:x1].astype(np.float64)
    b = level[y0 + dy:y1 + dy, x0 + dx:x1 + dx].astype(np.float64)
    a, b = a - a.mean(), b - b.mean()
    den = math.sqrt(float((a * a).sum()) * float((b * b).sum()))
    return float((a * b).sum() / den) if den > 0 else -1.0


def grain_deg(level: np.ndarray) -> float:
    """The direction (view degrees, 0-180) the level's pattern runs along: across its
    strongest gradients (the structure tensor of Scharr's gradients over the whole window).
    A blind's bands or a grain run along it; on checks, whose gradients take two directions
    alike, it is one of no consequence.

    >>> yy, xx = np.mgrid[0:120, 0:120].astype(np.float32)
    >>> a = np.radians(30.0)
    >>> bands = np.sin((-xx * np.sin(a) + yy * np.cos(a)) / 3.0).astype(np.float32)
    >>> round(grain_deg(bands))
    30
    """
    lv = np.asarray(level, np.float32)
    gx = cv2.Scharr(lv, cv2.CV_32F, 1, 0)
    gy = cv2.Scharr(lv, cv2.CV_32F, 0, 1)
    jxx, jyy, jxy = float((gx * gx).sum()), float((gy * gy).sum()), float((gx * gy).sum())
    across = 0.5 * math.degrees(math.atan2(2.0 * jxy, jxx - jyy))
    return (across + 90.0) % 180.0


def on_ridge(level: np.ndarray, box: tuple[int, int, int, int], shift: np.ndarray,
             reach_px: float, share: float, steps: int = 3,
             along_deg: tuple[float, ...] = ()) -> bool:
    """Whether a copy of the place ``box`` of ``level`` at ``shift`` (integer pixels) lies on
    a ridge of the correlation: the place is found as well (``share`` of the copy's own
    correlation or more) all the way to ``reach_px`` from the copy (at ``steps`` places
    evenly along it), both ways along one of four lines, or of the lines ``along_deg``
    (view degrees: the pattern's own grain, :func:`grain_deg`). A lattice's copy is a peak that
    falls off every way within half a check (a check's shift by a check turns light into
    dark); a stripe's copies (a blind's bands, a grain) run all along it, and where a pale
    tile barely stands out of the table they are the place's whole look.

    >>> yy, xx = np.mgrid[0:160, 0:160]
    >>> stripes = np.sin(xx / 4.0).astype(np.float32)
    >>> box = (60, 60, 100, 100)
    >>> on_ridge(stripes, box, np.array([0, 25]), 15.0, 0.8)
    True
    >>> checks = np.sin(xx / 4.0) * np.sin(yy / 4.0)
    >>> on_ridge(checks, box, np.array([0, 25]), 15.0, 0.8)
    False
    >>> fine = np.sin(xx * np.pi / 7.5) * np.sin(yy * np.pi / 7.5)  # a copy every 15 px
    >>> on_ridge(fine, box, np.array([0, 30]), 15.0, 0.8, steps=1)  # the next copy
    True
    >>> on_ridge(fine, box, np.array([0, 30]), 15.0, 0.8)  # the line between is no ridge
    False
    >>> a = np.radians(22.0)  # narrow bands between two of the four lines
    >>> narrow = np.sin((-xx * np.sin(a) + yy * np.cos(a)) / 2.0).astype(np.float32)
    >>> shift = np.rint(np.array([-np.sin(a), np.cos(a)]) * 4 * np.pi * 2).astype(int)
    >>> on_ridge(narrow, box, shift, 15.0, 0.8), on_ridge(narrow, box, shift, 15.0, 0.8,
    ...                                                    along_deg=(22.0,))
    (False, True)
    """
    own = _match(level, box, shift)
    if own <= 0:
        return False
    d = np.asarray(shift, float)
    for ang in (0.0, 45.0, 90.0, 135.0, *along_deg):
        u = reach_px * np.array([math.cos(math.radians(ang)), math.sin(math.radians(ang))])
        if all(_match(level, box, np.rint(d + k * t * u).astype(int)) >= share * own
               for t in np.arange(1, steps + 1) / steps for k in (-1.0, 1.0)):
            return True
    return False


def repeats_cloth(cfg: TilePatternConfig, shade: np.ndarray, px_per_mm: float,
                  centre_px: np.ndarray, angle_px: float, side_px: float,
                  taken: np.ndarray | None = None, found_px: np.ndarray | None = None
                  ) -> bool:
    """Whether a square of a tile's size (``centre_px``, ``angle_px`` degrees, ``side_px``,
    view pixels) repeats the table's pattern: its place is found again in ``shade`` (grey,
    relative to the table's level: 1 = table; made in full ``cfg.max_shift_mm`` and more
    round it) on both sides of it along two lines (:func:`vision.post_pattern.on_lattice`).
    A copy centred where a piece was found (``taken``: a mask of the view, nonzero there)
    or over a tile found (``found_px`` (K, 2): within a side of these centres) is another
    piece alike (a tile of the same block, or two of them), not the cloth.

    >>> yy, xx = np.mgrid[0:400, 0:400]
    >>> cloth = np.where(((yy // 25) + (xx // 25)) % 2 == 0, 1.4, 0.5).astype(np.float32)
    >>> cfg, c = TilePatternConfig(), np.array([200.0, 200.0])
    >>> repeats_cloth(cfg, cloth, 1.0, c, 0.0, 50.0)
    True
    >>> tile = cloth.copy(); tile[175:226, 175:226] = 1.6
    >>> repeats_cloth(cfg, tile, 1.0, c, 0.0, 50.0)
    False
    >>> plain = np.ones((400, 400), np.float32); plain[175:226, 175:226] = 1.6
    >>> repeats_cloth(cfg, plain, 1.0, c, 0.0, 50.0)
    False
    >>> found = np.array([[250.0, 200.0], [150.0, 200.0]])
    >>> repeats_cloth(cfg, cloth, 1.0, c, 0.0, 50.0, found_px=found)  # a block's row
    True
    >>> repeats_cloth(cfg, cloth, 1.0, c, 0.0, 50.0, taken=np.ones((400, 400), np.uint8))
    False
    """
    lat = cfg.lattice
    c = np.asarray(centre_px, float)
    h, w = shade.shape[:2]
    reach = math.ceil(cfg.reach_px(px_per_mm, side_px)) + 2
    x0, y0 = max(0, math.floor(c[0]) - reach), max(0, math.floor(c[1]) - reach)
    x1, y1 = min(w, math.floor(c[0]) + reach + 1), min(h, math.floor(c[1]) + reach + 1)
    level = np.asarray(shade[y0:y1, x0:x1], np.float32) * 100.0  # levels: the table 100
    corners = square_corners(c - (x0, y0), angle_px, side_px)
    shifts = pattern_copies(lat, level, px_per_mm, corners, side_px / 2 / px_per_mm)
    if not len(shifts):
        return False
    at = c[None] + shifts
    free = np.ones(len(shifts), bool)
    if taken is not None:
        xi, yi = np.rint(at[:, 0]).astype(int), np.rint(at[:, 1]).astype(int)
        inside = (xi >= 0) & (yi >= 0) & (xi < taken.shape[1]) & (yi < taken.shape[0])
        free[inside] = taken[yi[inside], xi[inside]] == 0
    if found_px is not None and len(found_px):
        f = np.asarray(found_px, float).reshape(-1, 2)
        near = np.hypot(*(at[:, None, :] - f[None]).transpose(2, 0, 1)) < side_px
        free &= ~near.any(axis=1)
    if not on_lattice(lat, shifts[free], cfg.opposite_share):
        return False
    box = _place_box(cfg, corners, side_px)  # (the ridges asked only of a lattice's copies)
    grain = (grain_deg(level),)
    for k in np.flatnonzero(free):
        free[k] = not on_ridge(level, box, shifts[k].astype(int), cfg.ridge_mm * px_per_mm,
                               cfg.ridge_share, cfg.ridge_steps, grain)
    return on_lattice(lat, shifts[free], cfg.opposite_share)
