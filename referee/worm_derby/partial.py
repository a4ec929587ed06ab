"""A worm known only in part: two partial readings of it that fit one worm lying still.

When a doubted reading stood (the players went on without fixing it), a worm read short there
is *unsure*: the accepted table holds only the coins of it that reading showed. The next
readings show it in part again, often other coins of it (a coin beside a tile seen in one frame,
not in the next). Two such readings are one worm lying still when, together, they show no more
places than the worm has coins and they all lie within one worm's reach of each other; then
the coins not seen now are still there and the coins seen now join what is known of it. A worm
that moved shows more places than it has coins (or places farther apart than a worm is long):
only that is a move to judge (issue 13: no "not your turn" chain from a doubted move).

>>> together([(0.0, 0.0), (19.0, 0.0)], [(19.5, 0.0), (38.0, 0.0)], 4.0)
[(0.0, 0.0), (19.0, 0.0), (38.0, 0.0)]
>>> fits_lying_still([(0.0, 0.0), (19.0, 0.0)], [(38.0, 0.0)], 4, 19.05, 1.2, 4.0)
True
>>> fits_lying_still([(0.0, 0.0), (19.0, 0.0)], [(95.0, 0.0)], 4, 19.05, 1.2, 4.0)
False
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations

from tabletop.scene import Point2


def new_places(last_mm: Sequence[Point2], now_mm: Sequence[Point2], same_mm: float
               ) -> list[int]:
    """The indices of ``now_mm`` that lie farther than ``same_mm`` from all of ``last_mm``
    (the places the second reading adds)."""
    return [i for i, c in enumerate(now_mm)
            if not any(math.dist(c, q) <= same_mm for q in last_mm)]


def together(last_mm: Sequence[Point2], now_mm: Sequence[Point2], same_mm: float
             ) -> list[Point2]:
    """The places two readings of a worm show: ``last_mm``'s, then each of ``now_mm`` that
    lies farther than ``same_mm`` from all of them."""
    return [*last_mm, *(now_mm[i] for i in new_places(last_mm, now_mm, same_mm))]


def fits_lying_still(last_mm: Sequence[Point2], now_mm: Sequence[Point2], length: int,
                     coin_mm: float, touch_factor: float, same_mm: float) -> bool:
    """Whether the coins of a worm of ``length`` coins last seen at ``last_mm`` and seen now
    at ``now_mm`` can be one worm that did not move: no more places than coins, none two
    farther apart than ``length - 1`` touching steps (``touch_factor`` coin widths each)."""
    places = together(last_mm, now_mm, same_mm)
    reach = (length - 1) * touch_factor * coin_mm
    return len(places) <= length and all(math.dist(a, b) <= reach
                                         for a, b in combinations(places, 2))
