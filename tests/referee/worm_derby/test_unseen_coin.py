"""Where the one coin not seen of a worm read one coin short may lie: the coins seen are read
as a chain the way the worm itself is read (:func:`referee.worm_derby.worms.chain_shape`), so
a sharp bend whose coin lies within touching reach of the coin beyond its neighbour still has
two ends, and the coin not seen is tried beyond each (a legal move there is not missed)."""

from __future__ import annotations

import math

from referee.worm_derby.unseen_coin import unseen_coin_places, unseen_coin_ways
from tests.referee.worm_derby.helpers import D

A = math.radians(110)
BENT = [(0.0, 0.0), (D, 0.0), (2 * D, 0.0), (2 * D + D * math.cos(A), D * math.sin(A))]
"""A worm of four bent sharply at its third coin: the fourth is 21.8 mm from the second, within
touching reach (22.9 mm) but farther than its neighbour."""


def test_unseen_coin_places_beyond_both_ends_of_a_sharp_bend():
    places = unseen_coin_places([], BENT, D)
    assert any(math.dist(p, (-D, 0.0)) < 0.01 for p in places)  # straight on past the tail
    assert len(places) == 2


def test_unseen_coin_ways_touch_both_ends_of_a_sharp_bend():
    ways = unseen_coin_ways(BENT, D, 2.08 * D)
    ends = {by for by, _ in ways}
    assert ends == {(BENT[0],), (BENT[3],)}
