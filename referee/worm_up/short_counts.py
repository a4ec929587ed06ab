"""A worm read one or two segments short: every count it may have moved, proved from what is seen.

Segments do not vanish (issue 13), and a move takes ``j`` segments from the tail and lays them,
one after the other, in front of the head: after it, the worm's last ``n - j`` segments
(``old[j:]``, tail first) lie where they lay and ``j`` lie somewhere new. A segment read within
``still_mm`` of where a segment of the worm lay is that segment, unmoved (the judge's own
premise, :func:`referee.worm_up.move_rules.changes`); every other segment read surely is a
new one. So, with ``A`` the old places read again and ``b`` segments read elsewhere, a move of
``j`` tail to head fits the reading only when

- ``j >= b`` (the new segments seen are among the ``j`` laid), and
- ``j <= min(A)`` (every old place read again is one that stays: ``old[j:]``);

then the ``n - j - |A|`` old places of ``old[j:]`` not read, and the ``j - b`` new segments not
read, are exactly the segments not seen. :func:`counts_possible` is that range: nothing about
where the unseen segments lie is assumed, so it holds for every lie they can have. A worm not
laid tail to head (split, laid behind the tail) is a foul of its own. Hence:

- when no count of the range is one the player may move now, the move is a foul wherever the
  segments not seen lie (the rule named is the one a move laid tail to head breaks);
- a count of the range is ruled out only when no chain can hold it: the new segments seen, in
  some order from the old head, need ``ceil(D / (diameter + gap)) - 1`` segments between two
  of them ``D`` apart (a segment touches both), so more than ``j - b`` of them between is no
  chain (:func:`chain_can_hold`: a triangle inequality, no guess of a place);
- :func:`completion` lays one way for each count (old places where they lay, new segments in
  a hole or beyond an end): the judge's verdict for that count, and nothing more is read from
  where it puts a segment.

>>> old = [(0.0, y) for y in range(0, 140, 20)]           # tail (0, 0) ... head (0, 120)
>>> seen = [(0.0, 80.0), (0.0, 100.0), (0.0, 120.0), (0.0, 140.0), (0.0, 180.0)]
>>> counts_possible(old, seen, 8.0)                        # 3 or 4 moved, a hole and the head
(2, 3, 4)
>>> [j for j in (2, 3, 4) if chain_can_hold(old, seen, j, 8.0, 20.0, 5.0)]
[3, 4]
>>> completion(old, seen, 4, 8.0, 20.0, 5.0, [])           # the hole and one ahead of the head
((0.0, 160.0), (0.0, 200.0))
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from referee.worm_up import geometry as geo
from tabletop.scene import Point2

MOST_MISSING = 2
"""A worm with more segments than this not seen is not judged through its counts (a worm read
0 of 7 may lie anywhere: a doubt)."""

TURNS_DEG = (0.0, 30.0, -30.0, 60.0, -60.0, 90.0, -90.0)
"""Directions tried, off the line of the chain's end, for a segment laid beyond it."""


def _split(old: Sequence[Point2], seen: Sequence[Point2], still_mm: float
           ) -> tuple[dict[int, int], list[int]]:
    """The old places read again ``{old k: seen k}`` and the seen segments read elsewhere."""
    kept = geo.match_still(old, seen, still_mm)
    return kept, [k for k in range(len(seen)) if k not in kept.values()]


def counts_possible(old: Sequence[Point2], seen: Sequence[Point2], still_mm: float
                    ) -> tuple[int, ...]:
    """Every count ``j`` (0: not moved) of a move tail to head that leaves worm ``old`` (tail
    first) read as ``seen``: ``b <= j <= min(A)`` (see the module's notes). Empty when none
    does (an old place read again behind a new segment's count: not a move tail to head).

    >>> counts_possible([(0.0, 0.0), (20.0, 0.0), (40.0, 0.0)], [(20.0, 0.0), (40.0, 0.0)], 8.0)
    (0, 1)
    """
    kept, new = _split(old, seen, still_mm)
    return tuple(range(len(new), min(kept, default=len(old)) + 1))


def _holes_needed(a: Point2, b: Point2, reach_mm: float) -> int:
    """How many segments at least lie between two segments of a chain ``a`` and ``b`` (each
    touches the next: centres at most ``reach_mm`` apart)."""
    return max(0, math.ceil(geo.dist(a, b) / reach_mm - 1e-9) - 1)


def chain_can_hold(old: Sequence[Point2], seen: Sequence[Point2], j: int, still_mm: float,
                   diameter_mm: float, gap_mm: float) -> bool:
    """Whether the new segments seen can be ``j`` laid in a chain from the old head with the
    ``j - b`` not seen among them: some order of them from ``old[-1]`` needs no more than
    that many between them (:func:`_holes_needed`; a necessary condition only)."""
    _, new = _split(old, seen, still_mm)
    spare = j - len(new)
    if spare < 0:
        return False
    pts = [seen[k] for k in new]
    reach = diameter_mm + gap_mm

    def walk(at: Point2, left: frozenset[int], spare: int) -> bool:
        if not left:
            return True
        return any(walk(pts[k], left - {k}, spare - h) for k in left
                   if (h := _holes_needed(at, pts[k], reach)) <= spare)

    return walk(old[-1], frozenset(range(len(pts))), spare)


def _ahead(end: Point2, before: Point2, diameter_mm: float,
           turns: Sequence[float]) -> list[Point2]:
    """Places one segment beyond ``end`` (the chain came from ``before``), turned by
    ``turns`` degrees off that line."""
    base = math.atan2(end[1] - before[1], end[0] - before[0])
    return [(round(end[0] + diameter_mm * math.cos(base + math.radians(t)), 2),
             round(end[1] + diameter_mm * math.sin(base + math.radians(t)), 2))
            for t in turns]


def completion(old: Sequence[Point2], seen: Sequence[Point2], j: int, still_mm: float,
               diameter_mm: float, gap_mm: float, taken: Sequence[Point2]
               ) -> tuple[Point2, ...] | None:
    """One way the segments not seen lie under a move of ``j``: the old places of ``old[j:]``
    not read, where they lay; the ``j - b`` new ones in holes between segments seen (evenly)
    or beyond the chain's end, clear of ``seen`` and ``taken`` (other pieces), so that the
    new segments continue ``old[j:]`` one after the other
    (:func:`referee.worm_up.geometry.extend_chain`). None when no such way is found."""
    kept, new = _split(old, seen, still_mm)
    n = len(old)
    stays = [old[i] for i in range(j, n) if i not in kept]
    spare = j - len(new)
    if spare < 0:
        return None
    pts = [seen[k] for k in new]
    if spare == 0:
        return tuple(stays) if geo.extend_chain(old[j:] if j < n else old, pts, diameter_mm,
                                                gap_mm, lifted_from=old) is not None else None
    r = diameter_mm / 2
    blocked = [*seen, *taken, *stays]

    def free(p: Point2) -> bool:
        return all(geo.dist(p, q) >= diameter_mm - gap_mm for q in blocked) and \
            all(geo.dist(p, o) >= r for o in old[j + 1:])

    body = [*(old[j:] if j < n else old), *pts]
    holes: list[Point2] = []
    for a, b in itertools.combinations([old[-1], *pts], 2):  # holes of one or two segments
        h = _holes_needed(a, b, diameter_mm + gap_mm)
        if 1 <= h <= spare:
            holes.extend((round(a[0] + (b[0] - a[0]) * i / (h + 1), 2),
                          round(a[1] + (b[1] - a[1]) * i / (h + 1), 2)) for i in range(1, h + 1))
    for turns in (TURNS_DEG[:1], TURNS_DEG):  # straight on first, then bent
        places = list(holes)
        for end in [old[-1], *pts]:  # beyond an end, one or two steps
            before = min((q for q in (*body, *old) if geo.dist(q, end) > r),
                         key=lambda q: geo.dist(q, end))
            for p in _ahead(end, before, diameter_mm, turns):
                places.append(p)
                if spare > 1:
                    places.extend(_ahead(p, end, diameter_mm, TURNS_DEG[:1]))
        places = [p for p in dict.fromkeys(places) if free(p)]
        for added in itertools.combinations(places, spare):
            if any(geo.dist(a, b) < diameter_mm - gap_mm
                   for a, b in itertools.combinations(added, 2)):
                continue
            if geo.extend_chain(old[j:] if j < n else old, [*pts, *added], diameter_mm, gap_mm,
                                lifted_from=old) is not None:
                return (*stays, *added)
    return None
