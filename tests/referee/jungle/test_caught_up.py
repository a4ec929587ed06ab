"""Jungle: several turns read on one table (the tables between in doubt or never still) are
the moves in between, judged in turn (``referee/jungle/catch_up.py``), not a foul of nobody
("4 tokens moved") repeated on every later table; a foul only as the last of them, and only on
a complete reading."""

from __future__ import annotations

from referee.record import fold
from tabletop.events import Doubt, Notice, SceneSeen, Setup, Verdict
from tabletop.scene import Scene
from tests.referee.jungle.helpers import start_tokens

SETUP = Setup("jungle", ("ann", "bob"), {})


def _scene(moves=None, removed=()) -> SceneSeen:
    return SceneSeen(Scene.of(start_tokens(moves, removed)))


def _said(out):
    return [(type(e).__name__, getattr(e, "seq", None), getattr(e, "player", None),
             getattr(e, "legal", None), getattr(e, "rule", None))
            for e in out if isinstance(e, Verdict | Doubt)]


def test_moves_three_turns_on_one_table_are_judged_in_turn_and_the_game_goes_on():
    out = fold([SETUP, _scene(),
                _scene({"g3": "g4"}, removed=("g3",)),  # ann's rat not seen: a doubt
                _scene({"g3": "g4", "a7": "a6", "f2": "f3"}),  # ...then three turns at once
                _scene({"g3": "g4", "a7": "a6", "f2": "f3", "g7": "g6"})])
    assert _said(out) == [("Verdict", 1, None, True, "ok"), ("Doubt", 2, "ann", None, None),
                          ("Verdict", 3, "ann", True, "ok"), ("Verdict", 3, "bob", True, "ok"),
                          ("Verdict", 3, "ann", True, "ok"), ("Verdict", 4, "bob", True, "ok")]
    assert any(isinstance(e, Notice) and "3 moves were made" in e.message for e in out)


def test_turn_a_side_moving_twice_after_turns_not_seen_is_its_players_foul_after_them():
    # which of bob's two moves was his turn, only the table put back tells
    out = fold([SETUP, _scene(),
                _scene({"g3": "g4", "a7": "a6", "g7": "g6"}),  # ann, then bob twice
                _scene({"g3": "g4", "a7": "a6"}),  # bob's elephant put back
                _scene({"g3": "g4", "a7": "a6", "f2": "f3"})])
    assert _said(out) == [("Verdict", 1, None, True, "ok"), ("Verdict", 2, "ann", True, "ok"),
                          ("Verdict", 2, "bob", False, "turn"), ("Verdict", 3, "bob", True, "ok"),
                          ("Verdict", 4, "ann", True, "ok")]


def test_water_the_last_of_three_turns_into_the_water_is_judged_after_the_others():
    out = fold([SETUP, _scene(), _scene({"g3": "g4", "a7": "a6", "c3": "c4"})])
    assert _said(out)[-1] == ("Verdict", 2, "ann", False, "water")


def test_moves_with_a_token_not_seen_and_no_legal_turns_is_a_doubt_not_a_foul():
    # three of ann's animals moved and ann's dog not seen: no order of turns explains it, and
    # a reading with a token missing calls no foul
    out = fold([SETUP, _scene(),
                _scene({"g3": "g4", "b2": "b3", "e3": "e4"}, removed=("f2",))])
    assert _said(out)[-1] == ("Doubt", 2, "ann", None, None)


def test_moves_three_tokens_moved_that_no_turns_explain_stay_tokens_moved():
    out = fold([SETUP, _scene(), _scene({"g3": "g4", "b2": "b3", "e3": "e4"})])
    assert _said(out)[-1] == ("Verdict", 2, None, False, "moves")


def test_turn_after_a_reading_in_doubt_that_lacked_the_movers_token_is_a_doubt():
    # bob's cat is not seen as he moves it (a doubt); ann then moves: read against the table
    # before bob's move, that is ann out of turn, but bob may have moved there unseen
    out = fold([SETUP, _scene(), _scene({"g3": "g4"}),
                _scene({"g3": "g4"}, removed=("f8",)),  # bob's cat moved, not seen: a doubt
                _scene({"g3": "g4", "e3": "e4"}, removed=("f8",))])
    assert _said(out)[-2:] == [("Doubt", 3, "bob", None, None), ("Doubt", 4, "ann", None, None)]


def test_turn_a_doubt_about_the_other_sides_token_leaves_a_turn_foul_called():
    # bob's dog is not seen on the table after his move (a doubt about bob's side); bob then
    # moves again: only a move of ann's made unseen would make that legal, so it is his foul
    out = fold([SETUP, _scene(), _scene({"g3": "g4"}), _scene({"g3": "g4", "a7": "a6"}),
                _scene({"g3": "g4", "a7": "a6"}, removed=("b8",)),  # a doubt: bob's dog
                _scene({"g3": "g4", "a7": "a6", "g7": "g6"})])
    assert _said(out)[-1] == ("Verdict", 5, "bob", False, "turn")


def test_moves_a_legal_move_judged_clears_the_doubt():
    out = fold([SETUP, _scene(), _scene(removed=("f8",)),  # bob's cat not seen: a doubt
                _scene({"g3": "g4"}),  # ann's move judged: the doubt is over
                _scene({"g3": "g4", "e3": "e4"})])  # ann again: her foul
    assert _said(out)[-1] == ("Verdict", 4, "ann", False, "turn")
