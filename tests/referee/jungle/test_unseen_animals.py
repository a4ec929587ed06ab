"""Turns read while an animal is not seen (a glare, a hand's shadow): an animal of the side
that moved, not seen, may have moved too, so that move is asked about, not confirmed (a move
confirmed wrongly puts every later turn off by one); and a side whose every animal a complete
reading shows on its square made no move unseen, so the other side moving out of turn is its
foul again (issue 13)."""

from __future__ import annotations

from referee.record import fold
from tabletop.events import Doubt, SceneSeen, Setup, Verdict
from tabletop.scene import Scene
from tests.referee.jungle.helpers import start_tokens

SETUP = Setup("jungle", ("ann", "bob"), {})


def _scene(moves=None, removed=()) -> SceneSeen:
    return SceneSeen(Scene.of(start_tokens(moves or {}, removed=removed)))


def _said(out):
    return [(type(e).__name__, e.seq, e.player, getattr(e, "rule", None))
            for e in out if isinstance(e, Verdict | Doubt)]


def test_turn_a_move_read_while_another_animal_of_its_side_is_not_seen_is_asked_about():
    out = fold([SETUP, _scene(), _scene({"c3": "d3"}, removed=("a1",)),  # ann's tiger unseen
                _scene({"c3": "d3"})])  # read whole: the tiger stood still
    assert _said(out) == [("Verdict", 1, None, "ok"), ("Doubt", 2, "ann", None),
                          ("Verdict", 3, "ann", "ok")]
    assert "did it move too" in out[1].reason


def test_turn_the_animal_not_seen_had_moved_too_the_side_moved_twice():
    out = fold([SETUP, _scene(), _scene({"c3": "d3"}, removed=("a1",)),
                _scene({"c3": "d3", "a1": "a2"})])
    assert _said(out)[-1] == ("Verdict", 3, "ann", "turn")


def test_turn_out_of_turn_after_a_doubt_is_a_foul_once_the_doubted_side_is_seen_still():
    moved = {"c3": "d3", "a7": "a6"}  # ann's wolf, then bob's rat: ann to move
    out = fold([SETUP, _scene(), _scene({"c3": "d3"}), _scene(moved),
                _scene(moved, removed=("a1",)),  # ann's tiger not seen: ann may have moved
                _scene({**moved, "b8": "b7"})])  # all of ann's on their squares; bob moves
    assert _said(out)[-2:] == [("Doubt", 4, "ann", None), ("Verdict", 5, "bob", "turn")]
