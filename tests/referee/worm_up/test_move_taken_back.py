"""A worm seen back where it lay before its move judged legal, nothing else changed and no bid
since: the move is taken back (the players put it right), not a second move out of turn
(``turn``); the state before it stands (referee/worm_up/game.py ``_taken_back``)."""

from __future__ import annotations

from tabletop.events import Notice
from tests.referee.worm_up.tables import Game, advance, verdict


def _back(g: Game, player: str, before: list) -> tuple:
    worms = dict(g.worms)
    worms[player] = before
    out = g.scene(worms)
    g.worms = worms
    return out


def test_turn_a_worm_put_back_where_it_lay_takes_its_move_back_not_a_second_move():
    g = Game()
    assert g.start().legal
    g.bids(red="4", yellow="5", green="6")
    before = list(g.worms["red"])
    assert verdict(g.move("red", 4)).legal
    out = _back(g, "red", before)
    assert [type(o) for o in out] == [Notice] and "taken back" in out[0].message
    assert g.referee.describe()["next"] == ["red"]
    assert verdict(g.move("red", 4)).legal
    assert verdict(g.move("yellow", 5)).legal


def test_turn_a_worm_moved_back_elsewhere_or_after_a_bid_is_still_judged():
    g = Game()
    assert g.start().legal
    g.bids(red="4", yellow="5", green="6")
    assert verdict(g.move("red", 4)).legal
    v = verdict(g.move("red", 4))  # on again, not back: a second move
    assert not v.legal and v.rule == "turn"


def test_turn_a_first_move_backwards_taken_legal_with_the_heads_unknown_put_back():
    # no post seen: which end is the head is told by the first move, so a move backwards
    # reads as legal; put back, it is taken back and the game goes on (148000)
    g = Game()
    g.posts = []
    v, _ = g.scene()
    assert v.legal
    g.bids(red="4", yellow="5", green="6")
    before = list(g.worms["red"])
    backwards = advance(before[::-1], 4, -90.0)[::-1]
    worms = dict(g.worms)
    worms["red"] = backwards
    assert verdict(g.scene(worms)).legal
    assert [type(o) for o in _back(g, "red", before)] == [Notice]
    assert verdict(g.move("red", 4)).legal
    assert verdict(g.move("yellow", 5)).legal
    assert verdict(g.move("green", 6)).legal


def test_turn_the_last_move_of_a_round_put_back_is_taken_back_before_any_bid():
    g = Game()
    assert g.start().legal
    g.bids(red="4", yellow="5", green="6")
    assert verdict(g.move("red", 4)).legal
    assert verdict(g.move("yellow", 5)).legal
    before = list(g.worms["green"])
    assert verdict(g.move("green", 6)).legal
    assert g.referee.describe()["phase"] == "bidding"
    assert [type(o) for o in _back(g, "green", before)] == [Notice]
    assert g.referee.describe()["next"] == ["green"]
    assert verdict(g.move("green", 6)).legal
    g.bids(red="5", yellow="6", green="7")
    worms = dict(g.worms)
    worms["green"] = before  # after a bid: no taking back
    v = verdict(g.scene(worms))
    assert not v.legal
