"""Cannibal: a worm not on the move read one coin short where no coin of the mover lies (so
none was eaten) is a coin not seen, still where it lay (issue 13): a foul of the mover's own
coins that lies clear of it is called, as it is when a coin of a worm not on the move is not
seen in the basic game; near the mover, only a foul that is the same whether it lies there or
is gone."""

from __future__ import annotations

from tests.factories import coin
from tests.referee.worm_derby.helpers import (
    FIRST,
    D,
    course,
    line,
    new_game,
    play,
    roll,
    said,
    seen,
    started,
)

SUNS0 = line(-40, 0, 6, "suns")
MOONS_FAR = line(100, 100, 6, "moons")  # clear of suns' every coin by more than 100 mm
MOONS_NEAR = [coin(-40 + (1.8 + k) * D, 8 * D, "moons") for k in range(6)]  # by 15 mm


def _judged(moons_at, suns, moons):
    game = new_game(cannibal=True)
    state = started(game, FIRST, seen(course(), SUNS0, moons_at).scene)
    state, _ = play(game, state, roll("suns", "2"))
    return play(game, state, seen(course(), suns, moons))


def test_steps_foul_called_though_a_coin_of_a_worm_not_on_the_move_is_not_seen():
    _, out = _judged(MOONS_FAR, line(-40, 3 * D, 6, "suns"), MOONS_FAR[1:])  # 3 on a 2
    assert said(out) == [("Verdict", "suns", "steps")]


def test_overlap_foul_called_though_a_coin_of_a_worm_not_on_the_move_is_not_seen():
    suns = [*line(-40, 2 * D, 5, "suns"), coin(-40, 6.7 * D, "suns")]  # head laid over
    _, out = _judged(MOONS_FAR, suns, MOONS_FAR[:3] + MOONS_FAR[4:])
    assert said(out) == [("Verdict", "suns", "overlap")]


def test_steps_foul_called_though_a_coin_not_seen_lies_beside_the_mover():
    # a count of coins laid is the same whether the coin not seen lies there or is gone
    _, out = _judged(MOONS_NEAR, line(-40, 3 * D, 6, "suns"), MOONS_NEAR[1:])
    assert said(out) == [("Verdict", "suns", "steps")]
