"""Jungle: one side's two tokens moved on one table (the first move's table never judged) is
that player moving twice, a ``turn`` foul of that player, not "2 tokens moved" of nobody."""

from __future__ import annotations

from referee.record import fold
from tabletop.events import SceneSeen, Setup, Verdict
from tabletop.scene import Scene
from tests.referee.jungle.helpers import start_tokens

PLAYERS = ("ann", "bob")


def _seen(pieces) -> SceneSeen:
    return SceneSeen(Scene.of(pieces))


def _last_verdict(out) -> Verdict:
    return [o for o in out if isinstance(o, Verdict)][-1]


def test_turn_two_tokens_of_the_side_to_move_moved_is_its_players_foul():
    out = fold([Setup("jungle", PLAYERS, {}), _seen(start_tokens()),
                _seen(start_tokens({"b2": "b1", "g3": "g4"}))])
    v = _last_verdict(out)
    assert (v.seq, v.legal, v.rule, v.player) == (2, False, "turn", "ann")
    assert len(v.pieces) == 2


def test_turn_two_tokens_of_the_side_not_to_move_moved_is_its_players_foul():
    out = fold([Setup("jungle", PLAYERS, {}), _seen(start_tokens()),
                _seen(start_tokens({"g7": "g6", "a7": "a6"}))])
    v = _last_verdict(out)
    assert (v.legal, v.rule, v.player) == (False, "turn", "bob")


def test_moves_two_tokens_of_one_side_one_of_them_no_move_at_all_stays_two_tokens_moved():
    out = fold([Setup("jungle", PLAYERS, {}), _seen(start_tokens()),
                _seen(start_tokens({"b2": "b1", "g3": "g6"}))])
    v = _last_verdict(out)
    assert (v.legal, v.rule) == (False, "moves")


def test_turn_after_a_legal_move_the_table_stands_and_the_next_move_is_judged():
    out = fold([Setup("jungle", PLAYERS, {}), _seen(start_tokens()),
                _seen(start_tokens({"b2": "b1", "g3": "g4"})),
                _seen(start_tokens({"b2": "b1"})), _seen(start_tokens({"b2": "b1", "a7": "a6"}))])
    got = [(v.seq, v.legal, v.rule) for v in out if isinstance(v, Verdict)]
    assert got == [(1, True, "ok"), (2, False, "turn"), (3, True, "ok"), (4, True, "ok")]
