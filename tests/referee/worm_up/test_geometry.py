"""Geometry of Worm Up!: the finish zone's edges, matching unmoved pieces, chains."""

from __future__ import annotations

import pytest

from referee.worm_up import geometry as geo

ZONE = geo.finish_zone((0.0, 0.0), (300.0, 0.0), 25.0, 10.0)


@pytest.mark.parametrize(("centre", "touches"), [
    ((150.0, 22.5), True),     # a 10 mm head resting on the strip's edge (12.5 + 10)
    ((150.0, 23.0), False),
    ((150.0, -22.0), True),    # from the other side
    ((-14.9, 0.0), True),      # touching the left post (5 + 10)
    ((-15.5, 0.0), False),
    ((310.0, 14.0), False),    # beyond the right post, off the strip's flat end
    ((305.0, 12.0), True),     # on the corner of the strip
])
def test_finish_zone_counts_the_strip_width_and_the_posts(centre, touches):
    assert geo.touches_zone(ZONE, centre, 10.0) is touches


def test_match_still_pairs_each_point_once_closest_first():
    old = [(0.0, 0.0), (20.0, 0.0)]
    new = [(19.0, 0.0), (3.0, 0.0)]
    assert geo.match_still(old, new, 8.0) == {1: 0, 0: 1}
    assert geo.match_still(old, [(1.0, 0.0)], 8.0) == {0: 0}


def test_a_u_turn_is_one_chain():
    u = [(0.0, 0.0), (0.0, 20.0), (0.0, 40.0), (20.0, 40.0), (40.0, 40.0), (40.0, 20.0),
         (40.0, 0.0)]
    order = geo.best_chain(u, 20.0, 5.0)
    assert order in ((0, 1, 2, 3, 4, 5, 6),)


def test_extend_chain_refuses_a_place_still_taken():
    worm = [(0.0, 0.0), (0.0, 20.0), (0.0, 40.0)]
    # lifting the tail and putting it where the middle segment still lies is impossible
    assert geo.extend_chain(worm, [(0.0, 20.0)], 20.0, 5.0, lifted_from=worm) is None
    assert geo.extend_chain(worm, [(0.0, 60.0)], 20.0, 5.0, lifted_from=worm) == (0,)
