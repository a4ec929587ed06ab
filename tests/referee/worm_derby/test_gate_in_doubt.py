"""Slalom's ``gate`` rule with a gate tile whose suit is not seen (a shadow, a glare): the
course stands with that gate in doubt, every move is judged, and only a verdict that depends
on the gate's colour is a doubt; a later reading that shows its suit settles it (issue 13)."""

from __future__ import annotations

from tabletop.events import Doubt, Notice, Verdict
from tests.factories import scene, tile
from tests.referee.worm_derby.helpers import D, course, line, new_game, play, roll, seen, started

NO_SUIT = tile(20, 300, face="up", suit=None)  # suns' worm passes it with the tile on its left
RED, BLUE = tile(20, 300, face="up", suit="suns"), tile(20, 300, face="up", suit="arms")
SUNS0, MOONS0 = line(-40, 0, 2, "suns"), line(40, 0, 2, "moons")
BEFORE = line(-40, 261, 2, "suns")  # its head just short of the gate
PAST = line(-40, 261 + 2 * D, 2, "suns")  # two steps on: past the gate


def _game():
    return new_game(variant="slalom", lengths={"suns": 2, "moons": 2})


def _said(out):
    return [(type(e).__name__, getattr(e, "player", None), getattr(e, "rule", None))
            for e in out]


def _before_the_gate(game):
    first = scene(course(gates=[NO_SUIT]), SUNS0, MOONS0)
    return started(game, first, scene(course(gates=[NO_SUIT]), BEFORE, MOONS0))


def test_setup_a_gate_whose_suit_is_not_seen_sets_the_course_up_with_that_gate_in_doubt():
    game = _game()
    state, out = play(game, game.initial_state(), seen(course(gates=[NO_SUIT]), SUNS0, MOONS0))
    assert _said(out) == [("Verdict", None, "ok"), ("Doubt", None, None)]
    assert out[1].where == (20.0, 300.0) and "no suit" in out[1].reason
    assert state.course is not None and state.course.gates[0].colour is None


def test_gate_moves_clear_of_a_gate_in_doubt_are_judged():
    game = _game()
    state, _ = play(game, game.initial_state(), seen(course(gates=[NO_SUIT]), SUNS0, MOONS0))
    _, out = play(game, state, roll("suns", "2"),
                  seen(course(gates=[NO_SUIT]), line(-40, 2 * D, 2, "suns"), MOONS0))
    assert _said(out) == [("Verdict", "suns", "ok")]
    _, out = play(game, state, roll("suns", "2"),
                  seen(course(gates=[NO_SUIT]), line(-40, 3 * D, 2, "suns"), MOONS0))
    assert _said(out) == [("Verdict", "suns", "steps")]


def test_gate_a_move_past_a_gate_in_doubt_is_a_doubt_never_a_foul():
    game = _game()
    state = _before_the_gate(game)
    _, out = play(game, state, roll("suns", "2"), seen(course(gates=[NO_SUIT]), PAST, MOONS0))
    assert _said(out) == [("Doubt", "suns", None)]
    assert out[0].where == (20.0, 300.0) and "legal only if that gate is red" in out[0].reason
    # a foul that does not depend on the gate is called: three steps on a roll of two
    _, out = play(game, state, roll("suns", "2"),
                  seen(course(gates=[NO_SUIT]), line(-40, 261 + 3 * D, 2, "suns"), MOONS0))
    assert _said(out) == [("Verdict", "suns", "steps")]


def test_gate_a_later_reading_of_its_suit_judges_the_move_past_it():
    game = _game()
    state = _before_the_gate(game)
    state, _ = play(game, state, roll("suns", "2"), seen(course(gates=[NO_SUIT]), PAST, MOONS0))
    _, out = play(game, state, seen(course(gates=[RED]), PAST, MOONS0))
    assert _said(out) == [("Notice", None, None), ("Verdict", "suns", "ok")]
    assert "red gate" in out[0].message
    _, out = play(game, state, seen(course(gates=[BLUE]), PAST, MOONS0))
    assert _said(out) == [("Notice", None, None), ("Verdict", "suns", "gate")]


def test_gate_a_move_past_a_gate_in_doubt_stands_as_passed_once_the_players_go_on():
    game = _game()
    state = _before_the_gate(game)
    state, out = play(game, state, roll("suns", "2"), seen(course(gates=[NO_SUIT]), PAST, MOONS0),
                      roll("moons", "2"))
    assert [type(e) for e in out] == [Doubt, Notice]
    assert state.worm("suns").coins_mm == tuple(c.centre_mm for c in PAST)
    assert state.worm("suns").gates == frozenset({0})  # passed, as the move stood
    _, out = play(game, state, seen(course(gates=[NO_SUIT]), PAST, line(40, 2 * D, 2, "moons")))
    assert [(e.player, e.rule) for e in out if isinstance(e, Verdict)] == [("moons", "ok")]
