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
>>> sorted(unseen_coin_places([(0.0, 0.0), (0.0, 19.0), (0.0, 38.0)], seen, 19.0))
[(0.0, 0.0), (0.0, 57.0)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from referee.worm_derby.settings import DEFAULT_SETTINGS, WormSettings
from referee.worm_derby.worms import chain_shape
from tabletop.scene import Point2


def _chain(points: Sequence[Point2], coin_mm: float, settings: WormSettings
           ) -> list[Point2] | None:
    """The points in chain order as a worm of coins there is read
    (:func:`referee.worm_derby.worms.chain_shape`), None when they are no single chain."""
    if not points:
        return None
    shape = chain_shape(np.array(points, dtype=float), coin_mm, settings)
    return [points[i] for i in shape.coins] if shape.ok else None


def unseen_coin_places(before: Sequence[Point2], seen: Sequence[Point2], coin_mm: float,
                       settings: WormSettings = DEFAULT_SETTINGS,
                       fill_mm: float | None = None) -> list[Point2]:
    """The places the worm's coin not seen may lie that can change a move's verdict (see the
    module's docstring).

    Args:
        before: The worm's coins before the move (mm).
        seen: Its coins seen now, one fewer than it has (mm).
        coin_mm: A coin's diameter.
        settings: Worm Derby's settings (``same_place_mm``: a coin this close to a place lies
            there; what touching is).
        fill_mm: The widest gap between two coins seen that one coin fills (default: two
            touching distances).
    """
    same_place_mm = settings.same_place_mm
    reach = settings.touch_factor * coin_mm
    fill = 2 * reach if fill_mm is None else fill_mm
    out: list[Point2] = [p for p in before
                         if all(math.dist(p, q) > same_place_mm for q in seen)]
    for a in range(len(seen)):
        for b in range(a + 1, len(seen)):
            pa, pb = seen[a], seen[b]
            gap = math.dist(pa, pb)
            if not reach < gap <= fill:
                continue
            mid = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
            if any(math.dist(c, mid) < coin_mm for k, c in enumerate(seen) if k not in (a, b)):
                continue
            half = gap / 2
            off = math.sqrt(max(0.0, coin_mm * coin_mm - half * half))
            nx, ny = -(pb[1] - pa[1]) / gap, (pb[0] - pa[0]) / gap
            out += [(mid[0] + off * nx, mid[1] + off * ny)] if off < same_place_mm else \
                [(mid[0] + off * nx, mid[1] + off * ny), (mid[0] - off * nx, mid[1] - off * ny)]
    chain = _chain(seen, coin_mm, settings)
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


WAY_ANGLES = 36
"""Directions tried round an end coin for the coin not seen laid beyond it (every 10 degrees):
the step's verdict may rest on which way it went."""


def _circles_meet(a: Point2, ra: float, b: Point2, rb: float) -> list[Point2]:
    """The points at ``ra`` from ``a`` and ``rb`` from ``b`` (none, or two)."""
    g = math.dist(a, b)
    if g < 1e-9 or g > ra + rb or g < abs(ra - rb):
        return []
    along = (ra * ra - rb * rb + g * g) / (2 * g)
    off = math.sqrt(max(0.0, ra * ra - along * along))
    ux, uy = (b[0] - a[0]) / g, (b[1] - a[1]) / g
    mx, my = a[0] + along * ux, a[1] + along * uy
    return [(mx - off * uy, my + off * ux), (mx + off * uy, my - off * ux)]


def unseen_coin_ways(seen: Sequence[Point2], coin_mm: float, fill_mm: float,
                     settings: WormSettings = DEFAULT_SETTINGS
                     ) -> list[tuple[tuple[Point2, ...], Point2]]:
    """The other ways the worm's coin not seen may lie and keep the worm one chain of touching
    coins, beyond :func:`unseen_coin_places` (which are exact: where a coin lay, a gap's
    middle, straight on), each with the coins seen it touches there.

    A legal move leaves the coins it did not lift exactly where they lay and lays the others
    one after the other from the head, each touching the last (centres from the settings'
    ``overlap_mm`` to ``touch_factor`` widths apart), so besides those places the coin not
    seen lies:

    - between two coins seen that are too far apart to touch and at most ``fill_mm`` apart
      (a gap one coin fills: wider, a coin touching both would have to lie at the very limit
      of touching on both sides, which a hand does not lay), touching both: each place at a
      few distances from either (both sides of the line between them);
    - beyond an end of the coins seen (the last coin laid, or the tail), touching that end:
      :data:`WAY_ANGLES` directions at a few distances.

    Places that would not keep the coins one chain are among them (the caller checks the
    worm's shape); anywhere else the coin splits or branches the worm (a foul of its shape).

    >>> seen = [(0.0, 19.0), (0.0, 38.0)]
    >>> ways = unseen_coin_ways(seen, 19.0, 39.5)
    >>> len(ways), all(math.dist(p, q) <= 1.2 * 19.0 for by, p in ways for q in by)
    (288, True)
    """
    reach = settings.touch_factor * coin_mm
    radii = (settings.overlap_mm(coin_mm) + 0.5, coin_mm, (coin_mm + reach) / 2, reach - 0.1)
    out: list[tuple[tuple[Point2, ...], Point2]] = []
    for a in range(len(seen)):
        for b in range(a + 1, len(seen)):
            pa, pb = seen[a], seen[b]
            mid = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
            if reach < math.dist(pa, pb) <= fill_mm and not any(
                    math.dist(c, mid) < coin_mm for k, c in enumerate(seen) if k not in (a, b)):
                out += [((pa, pb), p) for ra in radii for rb in radii
                        for p in _circles_meet(pa, ra, pb, rb)]
    chain = _chain(seen, coin_mm, settings)
    ends = [] if chain is None else [chain[0], chain[-1]] if len(chain) >= 2 else chain
    for end in ends:
        out += [((end,), (end[0] + r * math.cos(2 * math.pi * k / WAY_ANGLES),
                          end[1] + r * math.sin(2 * math.pi * k / WAY_ANGLES)))
                for k in range(WAY_ANGLES) for r in radii]
    return out
