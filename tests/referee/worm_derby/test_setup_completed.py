"""A first table read in doubt (a coin of a worm not seen) is completed by a later reading that
shows the coin, its worm not moved: the course is set up from the first table once, and the
first player's move, made meanwhile, is judged from it (a setup doubted does not stay doubted
the whole game)."""

from __future__ import annotations

from tabletop.events import Doubt, Verdict
from tests.referee.worm_derby.helpers import D, course, line, new_game, play, roll, seen

SUNS0 = line(-40, 0, 4, "suns")
MOONS0 = line(40, 0, 4, "moons")
FIRST_SHORT = seen(course(), SUNS0, MOONS0[:3])  # moons' head not seen


def _said(out):
    return [(type(e).__name__, e.player, getattr(e, "legal", None), getattr(e, "rule", None))
            for e in out if isinstance(e, Verdict | Doubt)]


def test_setup_a_coin_not_seen_at_first_and_seen_after_the_first_roll_completes_the_setup():
    game = new_game(lengths={"suns": 4, "moons": 4})
    state, out = play(game, game.initial_state(), FIRST_SHORT, roll("suns", "2"),
                      seen(course(), line(-40, 2 * D, 4, "suns"), MOONS0))
    assert _said(out) == [("Doubt", None, None, None), ("Verdict", None, True, "ok"),
                          ("Verdict", "suns", True, "ok")]
    assert game.describe(state)["turn"] == "moons" and state.course is not None


def test_steps_the_first_move_made_while_the_setup_was_in_doubt_is_judged_from_it():
    game = new_game(lengths={"suns": 4, "moons": 4})
    _, out = play(game, game.initial_state(), FIRST_SHORT, roll("suns", "2"),
                  seen(course(), line(-40, 3 * D, 4, "suns"), MOONS0))
    assert _said(out)[1:] == [("Verdict", None, True, "ok"), ("Verdict", "suns", False, "steps")]


def test_setup_a_worm_seen_elsewhere_later_does_not_complete_the_first_table():
    game = new_game(lengths={"suns": 4, "moons": 4})
    _, out = play(game, game.initial_state(), FIRST_SHORT, roll("suns", "2"),
                  seen(course(), line(-40, 2 * D, 4, "suns"), line(40, D, 4, "moons")))
    assert not any(isinstance(e, Verdict) and e.player == "suns" for e in out)


def test_setup_a_coin_never_seen_of_a_worm_that_did_not_move_lets_the_first_move_be_judged():
    game = new_game(lengths={"suns": 4, "moons": 4})
    state, out = play(game, game.initial_state(), FIRST_SHORT, roll("suns", "2"),
                      seen(course(), line(-40, 2 * D, 4, "suns"), MOONS0[:3]))
    assert _said(out)[1:] == [("Verdict", None, True, "ok"), ("Verdict", "suns", True, "ok")]
    assert state.unsure == ("moons",)  # read again from each reading until seen whole
    state, out = play(game, state, roll("moons", "2"),
                      seen(course(), line(-40, 2 * D, 4, "suns"), line(40, 2 * D, 4, "moons")))
    assert not any(isinstance(e, Verdict) and not e.legal for e in out)
