"""Where the one coin not seen of a worm read one coin short may lie, every way at once.

A move's verdict that rests on the worm's own coins (rule ``direction``: coins taken from both
ends) is called on such a reading only when it is the verdict wherever that coin lies
(issue 13: "a foul only when it holds for every way the unseen pieces could be"). What decides
the verdict is which of the worm's places after the move are places where one of its coins
lay before (:func:`referee.worm_derby.inference.infer_move`), so the places worth trying are:

- each place where one of its coins lay that no coin seen now covers (it lay still, unseen);
- each gap between two coins seen that one coin fills (both sides of a bend);
- one step beyond either end of the coins seen, when they are one chain (laid there, unseen).

Anywhere else the coin would split or branch the worm (a foul of ``shape`` whatever).

>>> seen = [(0.0, 19.0), (0.0, 38.0)]
>>> sorted(unseen_coin_places([(0.0, 0.0), (0.0, 19.0), (0.0, 38.0)], seen, 19.0, 4.0, 1.2))
[(0.0, 0.0), (0.0, 57.0)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tabletop.scene import Point2


def _chain(points: Sequence[Point2], reach_mm: float) -> list[Point2] | None:
    """The points in chain order (each touching the next, no branch), None when they are no
    single chain."""
    n = len(points)
    if n < 2:
        return list(points) if n else None
    near = [[j for j in range(n) if j != i and math.dist(points[i], points[j]) <= reach_mm]
            for i in range(n)]
    if any(len(x) > 2 for x in near):
        return None
    ends = [i for i in range(n) if len(near[i]) == 1]
    if len(ends) != 2:
        return None
    order, prev = [ends[0]], -1
    while len(order) < n:
        nxt = [j for j in near[order[-1]] if j != prev]
        if not nxt:
            return None
        prev = order[-1]
        order.append(nxt[0])
    return [points[i] for i in order]


def unseen_coin_places(before: Sequence[Point2], seen: Sequence[Point2], coin_mm: float,
                       same_place_mm: float, touch_factor: float) -> list[Point2]:
    """The places the worm's coin not seen may lie that can change a move's verdict (see the
    module's docstring).

    Args:
        before: The worm's coins before the move (mm).
        seen: Its coins seen now, one fewer than it has (mm).
        coin_mm: A coin's diameter.
        same_place_mm: A coin this close to a place lies there.
        touch_factor: Touching coins' centres are at most this many diameters apart.
    """
    reach = touch_factor * coin_mm
    out: list[Point2] = [p for p in before
                         if all(math.dist(p, q) > same_place_mm for q in seen)]
    for a in range(len(seen)):
        for b in range(a + 1, len(seen)):
            pa, pb = seen[a], seen[b]
            gap = math.dist(pa, pb)
            if not reach < gap <= 2 * reach:
                continue
            mid = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
            if any(math.dist(c, mid) < coin_mm for k, c in enumerate(seen) if k not in (a, b)):
                continue
            half = gap / 2
            off = math.sqrt(max(0.0, coin_mm * coin_mm - half * half))
            nx, ny = -(pb[1] - pa[1]) / gap, (pb[0] - pa[0]) / gap
            out += [(mid[0] + off * nx, mid[1] + off * ny)] if off < same_place_mm else \
                [(mid[0] + off * nx, mid[1] + off * ny), (mid[0] - off * nx, mid[1] - off * ny)]
    chain = _chain(seen, reach)
    if chain is not None and len(chain) >= 2:
        for end, nxt in ((chain[0], chain[1]), (chain[-1], chain[-2])):
            n = math.dist(end, nxt)
            out.append((end[0] + (end[0] - nxt[0]) * coin_mm / n,
                        end[1] + (end[1] - nxt[1]) * coin_mm / n))
    places: list[Point2] = []
    for p in out:  # one of each place
        if all(math.dist(p, q) > same_place_mm for q in places):
            places.append(p)
    return places
