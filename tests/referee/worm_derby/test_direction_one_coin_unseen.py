"""Rule ``direction`` judged on a reading of the mover's worm one coin short (issue 13): coins
taken from both ends is called when the coins seen prove it for every place the coin not seen
may lie (still where a coin lay, in a gap one coin fills, one step beyond either end); when
one of those places makes the move one of a single end, the table is asked."""

from __future__ import annotations

import pytest

from tests.factories import coin
from tests.referee.worm_derby.helpers import (
    FIRST,
    MOONS0,
    OBSTACLE,
    D,
    course,
    line,
    new_game,
    play,
    roll,
    seen,
    started,
)

OLD = line(-40, 0, 6, "suns")
NEW_TAIL = coin(-40 - D, D, "suns")  # the old tail laid beside the second coin
NEW_HEAD = coin(-40 + D, 4 * D, "suns")  # the old head laid beside the fifth coin
BOTH_ENDS = [NEW_TAIL, *OLD[1:5], NEW_HEAD]


def kinds(out):
    return [(type(e).__name__, getattr(e, "rule", None)) for e in out]


def _judged(worm):
    game = new_game()
    state = started(game, FIRST)
    state, _ = play(game, state, roll("suns", "2"))
    return play(game, state, seen(course(obstacles=[OBSTACLE]), worm, MOONS0))


def test_direction_both_ends_moved_is_a_foul_though_a_middle_coin_is_not_seen():
    worm = [c for c in BOTH_ENDS if c != OLD[2]]  # a coin of the middle run not seen
    _, out = _judged(worm)
    assert kinds(out) == [("Verdict", "direction")] and out[0].player == "suns"
    assert "both ends" in out[0].reason


@pytest.mark.parametrize("worm", [[NEW_TAIL, *OLD[1:5]], [*OLD[1:5], NEW_HEAD]],
                         ids=["head-not-seen", "tail-not-seen"])
def test_doubt_a_new_end_coin_not_seen_where_the_old_end_may_lie_still_is_asked_about(worm):
    # a new end coin not seen: the old end coin may lie still where it lay, unseen (a move of
    # one end alone), so the direction foul is not proved
    _, out = _judged(worm)
    assert kinds(out) == [("Doubt", None)]
