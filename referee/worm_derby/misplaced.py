"""A coin read between two of its worm's coins, overlapping one and clear of the other.

A worm's coins touch: each lies a coin's width from its neighbours. When the camera reads a coin
a few millimetres off its place along the worm (a shadow on its rim, a stripe of a blind), it
reads nearer one neighbour and as much farther from the other: it seems to overlap one of them
(an ``overlap`` foul) while a gap opens on its other side. The two spacings still add up to
two coins' widths (less at most the noise of a measured distance, ``noise_mm``), and the place
midway between its neighbours lies within a misread (``same_place_mm``) of where it was read:
the first explanation is a misread, not a foul (issue 13). Such a coin is put midway between
its neighbours (where a worm's evenly laid coins lie), and the reading is a guess (it may only
confirm a legal move; anything else is a doubt that names the coin).

A coin laid over a worm's end as its last step (the head) has no neighbour beyond it: that
overlap is read as it is. A coin laid over its neighbour with the next coin touching it (its
two spacings adding up to less than two widths), or the coin before it that the head overlaps,
are read as they are too.

>>> from tabletop.scene import Point2
>>> worm: list[Point2] = [(0.0, 0.0), (19.05, 0.0), (34.5, 0.0), (57.15, 0.0)]
>>> [(i, round(p[0], 2), round(p[1], 2))
...  for i, p in misplaced_coins(worm, 19.05, 15.55, 2.5, 4.0)]
[(2, 38.1, 0.0)]
>>> misplaced_coins([(0.0, 0.0), (19.05, 0.0), (33.0, 0.0)], 19.05, 15.55, 2.5, 4.0)  # the head
[]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tabletop.scene import Point2

BETWEEN_DEG = 120.0
"""A coin lies between two neighbours when the angle they make at it is at least this (a
worm's bend turns a coin's neighbours by at most about 60 degrees from straight)."""


def misplaced_coins(coins_mm: Sequence[Point2], coin_mm: float, overlap_mm: float,
                    noise_mm: float, misread_mm: float) -> list[tuple[int, Point2]]:
    """The coins of one worm read overlapping one neighbour and clear of the other, each with
    the place midway between the two (see the module doc).

    Args:
        coins_mm: The centres of one worm's coins as read.
        coin_mm: A coin's width.
        overlap_mm: Two coins whose centres lie nearer than this overlap (the step rule's).
        noise_mm: How much shorter a distance between two measured centres may read.
        misread_mm: Farthest a coin may be read off its place and be put back there.
    """
    out: list[tuple[int, Point2]] = []
    for i, c in enumerate(coins_mm):
        others = sorted((math.dist(c, q), k) for k, q in enumerate(coins_mm) if k != i)
        if len(others) < 2 or not 0 < others[0][0] < overlap_mm:
            continue  # clear of its neighbours (or two coins read at one place: not this)
        a = coins_mm[others[0][1]]
        b = coins_mm[others[1][1]]
        ca, cb = others[0][0], others[1][0]
        if ca + cb < 2 * coin_mm - noise_mm:
            continue  # nearer its other neighbour than one coin misread allows: as it lies
        turn = math.degrees(math.acos(max(-1.0, min(1.0, (
            (a[0] - c[0]) * (b[0] - c[0]) + (a[1] - c[1]) * (b[1] - c[1])) / (ca * cb)))))
        if turn < BETWEEN_DEG:
            continue
        place = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        if math.dist(place, c) <= misread_mm:
            out.append((i, place))
    return out
