"""Two moves, one of each side, read on one table (the first move's table never seen still,
or its reading in doubt): the side to move moved first, so both are judged in turn; the game
goes on instead of a chain of "2 tokens moved"."""

from __future__ import annotations

from referee.record import fold
from tabletop.events import Doubt, Notice, SceneSeen, Setup, Verdict
from tabletop.scene import Scene
from tests.referee.jungle.helpers import start_tokens


def _scene(pieces) -> SceneSeen:
    return SceneSeen(Scene.of(pieces))


def _said(out):
    return [(type(e).__name__, getattr(e, "seq", None), getattr(e, "player", None),
             getattr(e, "legal", None), getattr(e, "rule", None))
            for e in out if isinstance(e, Verdict | Doubt)]


SETUP = Setup("jungle", ("ann", "bob"), {})


def test_moves_after_a_reading_in_doubt_both_moves_stand_and_the_next_is_judged():
    out = fold([SETUP, _scene(start_tokens()),
                _scene(start_tokens({"g3": "g4"}, removed=("g3",))),  # the rat not seen
                _scene(start_tokens({"g3": "g4", "a7": "a6"})),
                _scene(start_tokens({"g3": "g4", "a7": "a6", "a3": "a4"}))])
    assert _said(out) == [("Verdict", 1, None, True, "ok"), ("Doubt", 2, "ann", None, None),
                          ("Verdict", 3, "ann", True, "ok"), ("Verdict", 3, "bob", True, "ok"),
                          ("Verdict", 4, "ann", True, "ok")]
    assert any(isinstance(e, Notice) and "not seen on a still table" in e.message for e in out)


def test_moves_the_second_of_two_moves_read_together_is_judged_after_the_first():
    out = fold([SETUP, _scene(start_tokens()),
                _scene(start_tokens({"g3": "g4", "c7": "c6"})),  # bob's leopard into water
                _scene(start_tokens({"g3": "g4"}))])  # put back: nothing to say
    assert _said(out) == [("Verdict", 1, None, True, "ok"), ("Verdict", 2, "ann", True, "ok"),
                          ("Verdict", 2, "bob", False, "water")]


def test_turn_two_tokens_of_one_side_are_that_player_moving_twice():
    out = fold([SETUP, _scene(start_tokens()), _scene(start_tokens({"g3": "g4", "a1": "a2"}))])
    assert _said(out)[-1] == ("Verdict", 2, "ann", False, "turn")  # see test_moved_twice.py


def test_moves_an_illegal_first_move_is_not_judged_before_the_other_sides():
    out = fold([SETUP, _scene(start_tokens()), _scene(start_tokens({"c3": "c4", "a7": "a6"}))])
    assert _said(out)[-1] == ("Verdict", 2, None, False, "moves")
