"""Worm Up! geometry: chains of touching segments, matching two tables, the finish line.

Points are ``(x, y)`` table millimetres. Segments are discs of one diameter; two segments touch
when their centres are at most ``diameter + gap_mm`` apart (the gap absorbs vision noise).

>>> chain = [(0.0, 0.0), (20.0, 0.0), (40.0, 0.0)]
>>> best_chain([chain[2], chain[0], chain[1]], 20.0, 4.0)
(0, 2, 1)
>>> extend_chain(chain, [(80.0, 0.0), (60.0, 0.0)], 20.0, 4.0)
(1, 0)
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import shapely
from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry

from tabletop.scene import Point2


def dist(a: Point2, b: Point2) -> float:
    """Euclidean distance in mm."""
    return math.hypot(a[0] - b[0], a[1] - b[1])


def touch(a: Point2, b: Point2, diameter_mm: float, gap_mm: float) -> bool:
    """True when two discs of ``diameter_mm`` touch (centres within ``diameter_mm + gap_mm``).

    >>> touch((0, 0), (22, 0), 20, 3), touch((0, 0), (24, 0), 20, 3)
    (True, False)
    """
    return dist(a, b) <= diameter_mm + gap_mm


def _turning(points: Sequence[Point2]) -> float:
    """Total absolute turning angle (radians) along a polyline: 0 for a straight line."""
    total = 0.0
    for a, b, c in zip(points, points[1:], points[2:], strict=False):
        h1 = math.atan2(b[1] - a[1], b[0] - a[0])
        h2 = math.atan2(c[1] - b[1], c[0] - b[0])
        d = (h2 - h1 + math.pi) % (2 * math.pi) - math.pi
        total += abs(d)
    return total


def _paths(points: Sequence[Point2], diameter_mm: float, gap_mm: float,
           start_after: Point2 | None = None,
           blocked: Sequence[Sequence[Point2]] = ()) -> Iterator[tuple[int, ...]]:
    """Every order of all ``points`` in which consecutive points touch.

    With ``start_after``, the first point must touch it (the chain continues from there).
    ``blocked[j]`` lists places taken when the ``j``-th point is laid: a point closer than a
    radius to one of them cannot be laid ``j``-th.
    """
    n = len(points)
    radius = diameter_mm / 2.0

    def free(j: int, i: int) -> bool:
        return j >= len(blocked) or all(dist(points[i], b) >= radius for b in blocked[j])

    adj = [[j for j in range(n) if j != i and touch(points[i], points[j], diameter_mm, gap_mm)]
           for i in range(n)]
    starts = [i for i in range(n) if free(0, i) and (
        start_after is None or touch(start_after, points[i], diameter_mm, gap_mm))]
    path: list[int] = []
    used = [False] * n

    def walk(i: int) -> Iterator[tuple[int, ...]]:
        path.append(i)
        used[i] = True
        if len(path) == n:
            yield tuple(path)
        else:
            for j in adj[i]:
                if not used[j] and free(len(path), j):
                    yield from walk(j)
        path.pop()
        used[i] = False

    for s in starts:
        yield from walk(s)


def best_chain(points: Sequence[Point2], diameter_mm: float,
               gap_mm: float) -> tuple[int, ...] | None:
    """The straightest order of ``points`` as one chain of touching discs, or None.

    Both directions of one chain are the same chain; the one returned starts at the lower
    index. None when no order links every point (the worm is split).

    >>> best_chain([(0, 0), (20, 0), (100, 0)], 20, 4) is None
    True
    """
    if not points:
        return None
    if len(points) == 1:
        return (0,)
    best: tuple[float, tuple[int, ...]] | None = None
    for p in _paths(points, diameter_mm, gap_mm):
        if p[0] > p[-1]:
            continue
        score = _turning([points[i] for i in p])
        if best is None or score < best[0] - 1e-9:
            best = (score, p)
    return None if best is None else best[1]


def extend_chain(chain: Sequence[Point2], new_points: Sequence[Point2], diameter_mm: float,
                 gap_mm: float, lifted_from: Sequence[Point2] = ()) -> tuple[int, ...] | None:
    """The order in which ``new_points`` continue ``chain`` beyond its last point, or None.

    Each new point must touch the one before it, the first touching ``chain[-1]``. Among
    several orders the one that turns least is chosen.

    Args:
        chain: The chain to continue (its last point is the head).
        new_points: The points laid in front of the head, in any order.
        diameter_mm: Segment diameter.
        gap_mm: Touching tolerance.
        lifted_from: The worm before the move, tail first: the ``j``-th new point is the
            segment lifted from ``lifted_from[j]``, so it cannot lie on ``lifted_from[j+1:]``,
            which are still in place when it is laid.

    >>> worm = [(0.0, 0.0), (20.0, 0.0), (40.0, 0.0)]
    >>> extend_chain(worm, [(60.0, 0.0), (40.0, 0.0), (20.0, 0.0)], 20, 4) is not None
    True
    >>> extend_chain(worm, [(60.0, 0.0), (40.0, 0.0), (20.0, 0.0)], 20, 4, worm) is None
    True
    """
    if not new_points:
        return ()
    blocked = [list(lifted_from[j + 1:]) for j in range(len(new_points))] if lifted_from else []
    tail = list(chain[-2:])
    best: tuple[float, tuple[int, ...]] | None = None
    for p in _paths(new_points, diameter_mm, gap_mm, start_after=chain[-1], blocked=blocked):
        score = _turning(tail + [new_points[i] for i in p])
        if best is None or score < best[0] - 1e-9:
            best = (score, p)
    return None if best is None else best[1]


def match_still(old: Sequence[Point2], new: Sequence[Point2],
                tolerance_mm: float) -> dict[int, int]:
    """Pairs old points with new points that lie within ``tolerance_mm`` (unmoved pieces).

    One-to-one, closest pairs first. Returns ``{old index: new index}``.

    >>> match_still([(0, 0), (50, 0)], [(51, 1), (200, 0)], 5)
    {1: 0}
    """
    pairs = sorted((dist(a, b), i, j) for i, a in enumerate(old) for j, b in enumerate(new)
                   if dist(a, b) <= tolerance_mm)
    out: dict[int, int] = {}
    taken: set[int] = set()
    for _, i, j in pairs:
        if i in out or j in taken:
            continue
        out[i] = j
        taken.add(j)
    return out


def line_distance(p: Point2, a: Point2, b: Point2) -> tuple[float, float]:
    """Signed distance of ``p`` from the infinite line ``a -> b`` and its position along it.

    Returns:
        ``(signed_mm, t)``: positive on the left of ``a -> b``; ``t`` is 0 at ``a``, 1 at ``b``.

    >>> line_distance((5, 3), (0, 0), (10, 0))
    (3.0, 0.5)
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length == 0:
        return dist(p, a), 0.0
    signed = (dx * (p[1] - a[1]) - dy * (p[0] - a[0])) / length
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (length * length)
    return signed, t


def segment_distance(p: Point2, a: Point2, b: Point2) -> float:
    """Distance (mm) from ``p`` to the line segment ``a``-``b``.

    >>> segment_distance((5, 3), (0, 0), (10, 0)), segment_distance((13, 4), (0, 0), (10, 0))
    (3.0, 5.0)
    """
    _, t = line_distance(p, a, b)
    t = min(1.0, max(0.0, t))
    return dist(p, (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))


def max_deviation(points: Sequence[Point2]) -> float:
    """How far (mm) any point lies from the line through the first and last point.

    >>> max_deviation([(0, 0), (10, 3), (20, 0)])
    3.0
    """
    if len(points) < 3:
        return 0.0
    return max(abs(line_distance(p, points[0], points[-1])[0]) for p in points[1:-1])


def finish_zone(post_a: Point2, post_b: Point2, strip_width_mm: float,
                post_diameter_mm: float) -> BaseGeometry:
    """The finish line as a region: the strip between the posts (its width), and the posts.

    >>> zone = finish_zone((0, 0), (100, 0), 20, 10)
    >>> touches_zone(zone, (50, 19.9), 10), touches_zone(zone, (50, 20.1), 10)
    (True, False)
    """
    strip = LineString([post_a, post_b]).buffer(strip_width_mm / 2.0, cap_style="flat")
    posts = [Point(p).buffer(post_diameter_mm / 2.0) for p in (post_a, post_b)]
    zone = shapely.union_all([strip, *posts])
    shapely.prepare(zone)
    return zone


def touches_zone(zone: BaseGeometry, centre: Point2, radius_mm: float) -> bool:
    """True when a disc of ``radius_mm`` at ``centre`` touches or overlaps ``zone``."""
    return bool(shapely.dwithin(zone, Point(centre), radius_mm))
