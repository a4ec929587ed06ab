"""A worm known only in part: two partial readings of it that fit one worm lying still."""

from __future__ import annotations

from referee.worm_derby.partial import fits_lying_still, together
from tests.referee.worm_derby.helpers import D


def _row(*ks: int) -> list[tuple[float, float]]:
    return [(k * D, 0.0) for k in ks]


def test_lying_still_other_coins_of_the_worm_read_now_join_what_is_known():
    assert fits_lying_still(_row(0, 2), _row(1, 3), 4, D, 1.2, 0.45 * D)
    assert together(_row(0, 2), _row(1, 3), 0.45 * D) == _row(0, 2, 1, 3)


def test_lying_still_a_coin_read_a_few_mm_off_is_the_same_coin():
    assert together(_row(0, 1), [(D + 3.0, 2.0)], 0.45 * D) == _row(0, 1)


def test_lying_still_more_places_than_coins_is_a_move():
    assert not fits_lying_still(_row(0, 1, 2), _row(3, 4), 4, D, 1.2, 0.45 * D)


def test_lying_still_places_farther_apart_than_the_worm_is_long_is_a_move():
    # two coins each time, four places in all (as many as its coins), but five widths apart
    assert not fits_lying_still(_row(0, 1), _row(4, 5), 4, D, 1.2, 0.45 * D)
