"""A coin of the worm on the move not seen in a gap at a gentle bend: it lies on one side of the
bend or the other (which is not known), so a legal move is confirmed when it is legal either
way; the next reading that shows the coin puts it where it lies. A gap too short for a gentle
bend (a coin laid over its neighbour's edge fits there too) confirms nothing."""

from __future__ import annotations

import math

from tabletop.events import Doubt, Verdict
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

TURN = math.radians(40)  # a gentle bend: the coins either side of the bend 1.88 widths apart


def _bent(over: float = 1.0) -> list:
    """Suns' worm after two steps: four coins kept up the line, a new coin beyond its head at
    (-40, 6D), and the head ``over`` widths beyond it, turned 40 degrees."""
    kept = line(-40, 2 * D, 4, "suns")
    mid = coin(-40, 6 * D, "suns")
    head = coin(-40 + over * D * math.sin(TURN), 6 * D + over * D * math.cos(TURN), "suns")
    return [*kept, mid, head]


def _judged(out):
    return [(type(e).__name__, getattr(e, "player", None), getattr(e, "rule", None))
            for e in out if isinstance(e, Verdict | Doubt)]


def test_steps_a_legal_move_with_the_coin_at_a_gentle_bend_not_seen_is_judged_legal():
    game = new_game()
    state = started(game, FIRST)
    state, _ = play(game, state, roll("suns", "2"))
    worm = _bent()
    unseen = [c for c in worm if c != worm[4]]  # the coin at the bend is not seen
    state, out = play(game, state, seen(course(obstacles=[OBSTACLE]), unseen, MOONS0))
    assert _judged(out) == [("Verdict", "suns", "ok")]
    assert game.describe(state)["turn"] == "moons"


def test_steps_the_coin_guessed_at_a_bend_is_put_where_the_next_reading_shows_it():
    game = new_game()
    state = started(game, FIRST)
    state, _ = play(game, state, roll("suns", "2"))
    worm = _bent()
    state, _ = play(game, state, seen(course(obstacles=[OBSTACLE]), worm[:4] + worm[5:],
                                      MOONS0))
    state, out = play(game, state, roll("moons", "2"),
                      seen(course(obstacles=[OBSTACLE]), worm, line(40, 2 * D, 6, "moons")))
    assert _judged(out) == [("Verdict", "moons", "ok")]
    assert state.table is not None and worm[4] in state.table.pieces  # read where it lies
    assert worm[4].centre_mm in state.worm("suns").coins_mm and not state.guessed


def test_overlap_a_coin_over_its_neighbours_edge_not_seen_is_never_confirmed_legal():
    game = new_game()
    state = started(game, FIRST)
    state, _ = play(game, state, roll("suns", "2"))
    worm = _bent(over=0.74)  # the head laid a quarter width over the coin before it
    _, out = play(game, state, seen(course(obstacles=[OBSTACLE]), worm[:4] + worm[5:],
                                    MOONS0))
    assert not any(isinstance(e, Verdict) and e.legal for e in out)


def test_overlap_a_coin_laid_over_its_neighbour_not_seen_is_doubted_where_it_may_lie():
    """The stack a camera reads as one coin: the doubt rings the gap the hidden coin lies in
    (between the head and the coin before it), it does not say "somewhere"."""
    game = new_game()
    state = started(game, FIRST)
    state, _ = play(game, state, roll("suns", "2"))
    worm = _bent(over=0.74)
    _, out = play(game, state, seen(course(obstacles=[OBSTACLE]), worm[:4] + worm[5:],
                                    MOONS0))
    doubts = [e for e in out if isinstance(e, Doubt)]
    assert len(doubts) == 1 and doubts[0].where is not None, out
    assert math.dist(doubts[0].where, worm[4].centre_mm) < D, doubts[0].where
    assert "under or between" in doubts[0].reason
