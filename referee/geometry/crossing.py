"""Does a coin fit through the gap the player points at?

:func:`referee.geometry.fit_path` answers "is there any way from A to B"; a player at the table
who clicks either side of a gap asks something else: "does the coin go *through here*?". This
module answers that. A gap is the free line between two obstacles (the shortest line between
their outlines, with nothing else on it); the straight way from A to B crosses some gaps, and a
coin sliding that way must pass each one, so the answer is the narrowest gap crossed. A straight
way that runs into a piece is blocked (width 0). When nothing narrows the way it is open
(:data:`referee.geometry.fit.OPEN_CLEARANCE_MM` twice over).

Two tiles 15.3 mm apart: clicked either side of the gap, the coin (19.05 mm) does not fit, and
the pinch is the middle of the gap, between the two tiles' edges:

>>> from tabletop.scene import Piece
>>> two = ObstacleSet.from_pieces([Piece.tile(0, 0), Piece.tile(50.8 + 15.3, 0)])
>>> c = cross_straight(two, (33.0, -40.0), (33.0, 40.0), 19.05)
>>> c.fits, round(c.clearance_mm, 2), [round(v, 2) + 0.0 for v in c.pinch_mm]
(False, 15.3, [33.05, 0.0])
>>> [[round(v, 2) + 0.0 for v in e] for e in c.edges_mm]
[[25.4, 0.0], [40.7, 0.0]]

One click in the gap asks about the gap nearest to it:

>>> g = gap_at(two, (30.0, 10.0), 19.05)
>>> g.fits, round(g.clearance_mm, 2)
(False, 15.3)

A straight way that misses the gap (round the far side of a tile) crosses none, so it is open:

>>> cross_straight(two, (-60.0, -40.0), (-60.0, 40.0), 19.05).clearance_mm
200.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from referee.geometry.fit import FIT_TOLERANCE_MM, OPEN_CLEARANCE_MM
from referee.geometry.obstacles import ObstacleSet, Point2

OPEN_WIDTH_MM = 2.0 * OPEN_CLEARANCE_MM
"""The width reported when nothing narrows the way (as :class:`FitResult` caps it)."""


@dataclass(frozen=True)
class Crossing:
    """The answer for the gap the player points at.

    Attributes:
        fits: Whether the coin passes.
        clearance_mm: The narrowest gap crossed (0 when the way runs into a piece, at most
            :data:`OPEN_WIDTH_MM`).
        pinch_mm: The middle of that gap, or where the way runs into a piece; None when open.
        edges_mm: The two edges that make the gap (a point on each obstacle's outline), or
            None.
        obstacles: The labels of the obstacles that make the gap (or the one in the way).
    """

    fits: bool
    clearance_mm: float
    pinch_mm: Point2 | None
    edges_mm: tuple[Point2, Point2] | None
    obstacles: tuple[int, ...] = ()

    def to_json(self, prefix: str = "straight_") -> dict[str, Any]:
        """The contract's fields (``straight_fits``, ``straight_clearance_mm``,
        ``straight_pinch``) and ``straight_edges``."""
        def r(p: Point2) -> list[float]:
            return [round(p[0], 3) + 0.0, round(p[1], 3) + 0.0]

        return {f"{prefix}fits": self.fits,
                f"{prefix}clearance_mm": round(self.clearance_mm, 3),
                f"{prefix}pinch": None if self.pinch_mm is None else r(self.pinch_mm),
                f"{prefix}edges": None if self.edges_mm is None else [r(p) for p in
                                                                      self.edges_mm]}


@dataclass(frozen=True)
class _Gaps:
    """The free gaps between pairs of nearby obstacles: their obstacle indices (G,), (G,),
    widths (G,) and edge points (G, 2), (G, 2)."""

    i: np.ndarray
    j: np.ndarray
    width: np.ndarray
    a: np.ndarray
    b: np.ndarray

    @property
    def middle(self) -> np.ndarray:
        return (self.a + self.b) / 2.0


def _gaps(obstacles: ObstacleSet, near: list[int]) -> _Gaps:
    """The gaps between every pair of ``near`` obstacles that nothing else lies on."""
    empty = _Gaps(*(np.empty(0, dtype=int),) * 2, np.empty(0), np.empty((0, 2)),
                  np.empty((0, 2)))
    if len(near) < 2:
        return empty
    idx = np.asarray(near, dtype=int)
    ii, jj = np.triu_indices(len(idx), 1)
    i, j = idx[ii], idx[jj]
    lines = shapely.shortest_line(obstacles.geoms[i], obstacles.geoms[j])
    ends = shapely.get_coordinates(lines).reshape(-1, 2, 2)
    p, q = ends[:, 0], ends[:, 1]
    d = np.hypot(*(q - p).T)
    u = (q - p) / np.where(d > 1e-12, d, 1.0)[:, None]
    a = p + u * obstacles.radii_mm[i][:, None]  # from a disc's centre to its rim
    b = q - u * obstacles.radii_mm[j][:, None]
    width = d - obstacles.radii_mm[i] - obstacles.radii_mm[j]
    ok = width > 1e-9
    if not ok.any():
        return empty
    i, j, width, a, b = i[ok], j[ok], width[ok], a[ok], b[ok]
    # a gap is free when no third obstacle touches the line across it
    m = obstacles.segment_matrix(a, b)
    rows = np.arange(len(i))
    m[rows, i] = np.inf
    m[rows, j] = np.inf
    free = m.min(axis=1) > 1e-9 if m.shape[1] else np.ones(len(i), dtype=bool)
    return _Gaps(i[free], j[free], width[free], a[free], b[free])


def _on_rim(obstacles: ObstacleSet, idx: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Whether each point (K, 2) lies on the outline of its obstacle ``idx`` (K,)."""
    geoms, radii = obstacles.geoms[idx], obstacles.radii_mm[idx]
    points = shapely.points(pts)
    disc = radii > 0
    out = np.zeros(len(idx), dtype=bool)
    if disc.any():
        out[disc] = np.abs(shapely.distance(points[disc], geoms[disc]) - radii[disc]) < 1e-6
    if (~disc).any():
        out[~disc] = shapely.distance(points[~disc], shapely.boundary(geoms[~disc])) < 1e-6
    return out


def _slide(obstacles: ObstacleSet, gaps: _Gaps, towards_mm: np.ndarray) -> _Gaps:
    """Each gap's line moved sideways towards a point (K, 2) as far as it stays a shortest
    line between the two obstacles (between parallel tile edges every such line is one: the
    one a player points at is the one nearest the click)."""
    if not len(gaps.width):
        return gaps
    v = _across(gaps)
    want = ((towards_mm - gaps.middle) * v).sum(axis=1)
    lo, hi = np.zeros(len(want)), np.ones(len(want))  # fractions of the wanted shift
    ok_all = _on_rim(obstacles, gaps.i, gaps.a + want[:, None] * v) & \
        _on_rim(obstacles, gaps.j, gaps.b + want[:, None] * v)
    lo[ok_all] = 1.0
    for _ in range(30):
        mid = (lo + hi) / 2.0
        s = (mid * want)[:, None] * v
        ok = _on_rim(obstacles, gaps.i, gaps.a + s) & _on_rim(obstacles, gaps.j, gaps.b + s)
        lo = np.where(ok | ok_all, np.maximum(lo, mid), lo)
        hi = np.where(ok | ok_all, hi, mid)
    shift = (lo * want)[:, None] * v
    return _Gaps(gaps.i, gaps.j, gaps.width, gaps.a + shift, gaps.b + shift)


def _answer(obstacles: ObstacleSet, gaps: _Gaps, k: int, need_mm: float) -> Crossing:
    w = float(gaps.width[k])
    mid = gaps.middle[k]
    return Crossing(w >= need_mm - 1e-9, min(w, OPEN_WIDTH_MM), (float(mid[0]), float(mid[1])),
                    ((float(gaps.a[k][0]), float(gaps.a[k][1])),
                     (float(gaps.b[k][0]), float(gaps.b[k][1]))),
                    (obstacles.labels[int(gaps.i[k])], obstacles.labels[int(gaps.j[k])]))


def _open(need_mm: float) -> Crossing:
    return Crossing(need_mm <= OPEN_WIDTH_MM, OPEN_WIDTH_MM, None, None)


def _crosses(a: Point2, b: Point2, c: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Whether segment ``a``-``b`` crosses each segment ``c``-``d`` (K, 2) (touching an end
    counts), shape (K,)."""
    ax, ay = a
    bx, by = b

    def side(px: Any, py: Any, qx: Any, qy: Any, rx: Any, ry: Any) -> Any:
        return (qx - px) * (ry - py) - (qy - py) * (rx - px)

    d1 = side(ax, ay, bx, by, c[:, 0], c[:, 1])
    d2 = side(ax, ay, bx, by, d[:, 0], d[:, 1])
    d3 = side(c[:, 0], c[:, 1], d[:, 0], d[:, 1], ax, ay)
    d4 = side(c[:, 0], c[:, 1], d[:, 0], d[:, 1], bx, by)
    return (d1 * d2 <= 0) & (d3 * d4 < 0)


def _reach(obstacles: ObstacleSet, gaps: _Gaps, sign: float, most_mm: float) -> np.ndarray:
    """How far (K,) each gap's line slides sideways (``sign`` says which way) and stays a
    shortest line between its two obstacles."""
    v = _across(gaps) * sign
    lo, hi = np.zeros(len(gaps.width)), np.full(len(gaps.width), most_mm)
    for _ in range(24):
        mid = (lo + hi) / 2.0
        s = mid[:, None] * v
        ok = _on_rim(obstacles, gaps.i, gaps.a + s) & _on_rim(obstacles, gaps.j, gaps.b + s)
        lo, hi = np.where(ok, mid, lo), np.where(ok, hi, mid)
    return lo


def _across(gaps: _Gaps) -> np.ndarray:
    """The unit direction (K, 2) in which each gap's line may slide (across the line)."""
    u = gaps.b - gaps.a
    u = u / np.maximum(np.hypot(*u.T), 1e-12)[:, None]
    return np.column_stack([-u[:, 1], u[:, 0]])


def _where_crossed(obstacles: ObstacleSet, gaps: _Gaps, start_mm: Point2, goal_mm: Point2
                   ) -> np.ndarray:
    """The place on the straight way nearest each gap's centre (the middle of all its
    shortest lines), shape (K, 2)."""
    most = 2.0 * OPEN_CLEARANCE_MM
    v = _across(gaps)
    centre = gaps.middle + ((_reach(obstacles, gaps, 1.0, most)
                             - _reach(obstacles, gaps, -1.0, most)) / 2.0)[:, None] * v
    p0, ab = np.asarray(start_mm, dtype=float), np.subtract(goal_mm, start_mm)
    t = np.clip(((centre - p0) @ ab) / max(float(ab @ ab), 1e-18), 0.0, 1.0)
    return p0 + t[:, None] * ab


def cross_straight(obstacles: ObstacleSet, start_mm: Point2, goal_mm: Point2,
                   coin_diameter_mm: float, tolerance_mm: float = FIT_TOLERANCE_MM) -> Crossing:
    """Does a coin get from ``start_mm`` to ``goal_mm`` straight, through the gaps on the way?

    Args:
        obstacles: The pieces in the way (not the coin that slides).
        start_mm: Where the coin's centre starts.
        goal_mm: Where it should get to.
        coin_diameter_mm: The coin.
        tolerance_mm: A coin fits a gap at least ``diameter - tolerance`` wide.

    Returns:
        The narrowest gap the straight way crosses, or where it runs into a piece.
    """
    need = coin_diameter_mm - tolerance_mm
    if math.dist(start_mm, goal_mm) < 1e-9:
        return gap_at(obstacles, start_mm, coin_diameter_mm, tolerance_mm)
    if not len(obstacles):
        return _open(need)
    line = shapely.LineString([start_mm, goal_mm])
    near = obstacles.nearest(line, OPEN_CLEARANCE_MM)
    hit = [k for d, k in near if d <= 0]
    if hit:  # runs into a piece: where it first does
        k = min(hit, key=lambda h: _entry_distance(line, obstacles, h))
        at = _entry_point(line, obstacles, k)
        return Crossing(False, 0.0, at, None, (obstacles.labels[k],))
    gaps = _gaps(obstacles, [k for _, k in near])
    if not len(gaps.width):
        return _open(need)
    gaps = _slide(obstacles, gaps, _where_crossed(obstacles, gaps, start_mm, goal_mm))
    crossed = np.flatnonzero(_crosses(start_mm, goal_mm, gaps.a, gaps.b))
    if not len(crossed):
        return _open(need)
    k = int(crossed[np.argmin(gaps.width[crossed])])
    return _answer(obstacles, gaps, k, need)


def _entry_distance(line: shapely.LineString, obstacles: ObstacleSet, k: int) -> float:
    return float(line.project(shapely.Point(_entry_point(line, obstacles, k))))


def _entry_point(line: shapely.LineString, obstacles: ObstacleSet, k: int) -> Point2:
    """Where the way first touches obstacle ``k``."""
    g, r = obstacles.geoms[k], float(obstacles.radii_mm[k])
    shape = g.buffer(r, 32) if r > 0 else g
    inside = line.intersection(shape)
    if inside.is_empty:
        x, y = shapely.shortest_line(line, g).coords[0]
        return (float(x), float(y))
    s = min(line.project(shapely.Point(c)) for c in shapely.get_coordinates(inside))
    p = line.interpolate(s)
    return (float(p.x), float(p.y))


def gap_at(obstacles: ObstacleSet, point_mm: Point2, coin_diameter_mm: float,
           tolerance_mm: float = FIT_TOLERANCE_MM) -> Crossing:
    """Does a coin fit through the gap nearest to ``point_mm`` (one click in a gap)?"""
    need = coin_diameter_mm - tolerance_mm
    if not len(obstacles):
        return _open(need)
    near = obstacles.nearest(shapely.Point(point_mm), OPEN_CLEARANCE_MM)
    gaps = _gaps(obstacles, [k for _, k in near])
    if not len(gaps.width):
        return _open(need)
    p = np.asarray(point_mm, dtype=float)
    gaps = _slide(obstacles, gaps, np.broadcast_to(p, gaps.a.shape))
    ab = gaps.b - gaps.a
    n2 = np.maximum((ab ** 2).sum(axis=1), 1e-18)
    t = np.clip(((p - gaps.a) * ab).sum(axis=1) / n2, 0.0, 1.0)
    dist = np.hypot(*(gaps.a + t[:, None] * ab - p).T)
    k = int(np.lexsort((gaps.width, np.round(dist, 6)))[0])
    return _answer(obstacles, gaps, k, need)
