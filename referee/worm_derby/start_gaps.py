"""Coins of a worm at the start not seen, in gaps whole coins wide.

A worm starts straight, its coins touching (:mod:`.setup_rules`). When the first table shows a
worm some coins short, its coins in one line, and every gap between two neighbours along that
line is whole coins wide (the spacing of touching coins, give or take :data:`GAP_SLACK` of a
coin's width per coin), the coins not seen can lie in one place only: the gaps, evenly spaced.
When the coins those gaps hold are exactly the coins missing, they are taken to lie there
(the camera missed them; a player who left gaps of exactly the missing coins' width is far less
likely). A gap that is no whole number of coins wide, or coins that stray from one line, or a
place a piece lies on, and the worm is left as read (the table is asked).

>>> d = 19.05
>>> seen = [(0.0, 0.0), (d, 0.0), (4 * d, 0.0)]
>>> [(round(x, 2), round(y, 2)) for x, y in start_gap_places(seen, 5, d, straight_mm=6.0)]
[(38.1, 0.0), (57.15, 0.0)]
>>> start_gap_places(seen, 6, d, straight_mm=6.0) is None  # one coin more missing: not known
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise

import numpy as np

from referee.worm_derby.reading import GAP_SLACK, tile_distance
from tabletop.scene import Piece, Point2

FREE_SHARE = 0.8
"""A place is taken by a coin whose centre lies nearer than this many coin widths."""


def start_gap_places(seen_mm: Sequence[Point2], length: int, coin_mm: float,
                     straight_mm: float, touch_factor: float = 1.2) -> list[Point2] | None:
    """Where the coins not seen of a straight worm of ``length`` coins read as ``seen_mm``
    lie: evenly in the gaps between neighbours along its line, each gap whole coins wide
    (neighbours at most ``touch_factor`` coin widths apart touch); None unless those gaps hold
    exactly the coins missing (and the coins seen lie within ``straight_mm`` of one line)."""
    missing = length - len(seen_mm)
    if missing < 1 or len(seen_mm) < 2:
        return None
    pts = np.array(seen_mm, dtype=float)
    mid = pts.mean(axis=0)
    _, _, vt = np.linalg.svd(pts - mid)
    axis, normal = vt[0], vt[1]
    if np.abs((pts - mid) @ normal).max() > straight_mm:
        return None
    order = np.argsort((pts - mid) @ axis)
    places: list[Point2] = []
    for a, b in pairwise(order):
        pa, pb = pts[a], pts[b]
        gap = float(np.linalg.norm(pb - pa))
        if gap <= touch_factor * coin_mm:
            continue  # they touch
        k = max(1, round(gap / coin_mm) - 1)  # coins the gap holds
        if abs(gap / (k + 1) - coin_mm) > GAP_SLACK * coin_mm:
            return None  # no whole number of coins wide
        places += [(float(pa[0] + (pb[0] - pa[0]) * j / (k + 1)),
                    float(pa[1] + (pb[1] - pa[1]) * j / (k + 1))) for j in range(1, k + 1)]
    return places if len(places) == missing else None


def start_gap_coins(pieces: Sequence[Piece], player: str, length: int, coin_mm: float,
                    tile_mm: float, straight_mm: float, touch_factor: float = 1.2
                    ) -> tuple[Piece, ...] | None:
    """The coins of ``player``'s worm not seen on a first table (:func:`start_gap_places`),
    as pieces, when every place is free (no coin within :data:`FREE_SHARE` of a coin's width,
    no tile under the coin); None otherwise."""
    seen = [p.centre_mm for p in pieces if p.kind == "coin" and p.suit == player
            and p.face != "down"]
    places = start_gap_places(seen, length, coin_mm, straight_mm, touch_factor)
    if not places:
        return None
    for x, y in places:
        if any(math.dist(q.centre_mm, (x, y)) < FREE_SHARE * coin_mm if q.kind == "coin"
               else q.kind == "tile" and tile_distance((x, y), q, tile_mm) < coin_mm / 2 - 1.0
               for q in pieces):
            return None
    return tuple(Piece("coin", round(x, 2), round(y, 2), suit=player) for x, y in places)
