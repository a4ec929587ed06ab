"""A worm taken as moved (the players bid on a table in doubt) whose move the reading in doubt
showed whole: every segment seen, one chain but for a few millimetres (the doubt), where its
move left it. Its move was made whole, not half made, so a later reading that shows it farther
on shows a move of its own, judged from there: ``order`` when another worm is due first (issue
13, play 200117: red's move of 7 read a few mm apart, then red moving before yellow was
doubted as "moved again?", not called)."""

from __future__ import annotations

from tabletop.events import Doubt, Notice, Verdict
from tests.referee.worm_up.tables import Game, advance, green_moves_7_next, verdict

APART_MM = 8.0  # past chain_gap_mm (5) by less than misread_mm (6): "looks apart by a few mm"


def _green_moved_7_read_apart(shown_k: int = 7) -> tuple[Game, list]:
    g, moved = green_moves_7_next()
    shown = dict(g.worms)
    x, y = moved[-1]
    shown["green"] = [*moved[:-1], (x, y + APART_MM)][:shown_k]  # its head read apart
    out = g.scene(shown)
    assert [type(e) for e in out] == [Doubt], out
    out = g.bids(red="5", yellow="4", green="6")  # the players went on: green taken as moved
    assert any(isinstance(e, Notice) and "green is taken as moved" in e.message for e in out)
    g.worms["green"] = moved
    return g, moved


def test_order_a_worm_whose_move_was_seen_whole_in_doubt_moving_before_its_turn():
    g, moved = _green_moved_7_read_apart()
    again = dict(g.worms)
    again["green"] = advance(moved, 6)  # green moves before yellow and red
    out = g.scene(again)
    said = [(e.player, e.rule) for e in out if isinstance(e, Verdict)]
    assert said == [("green", "order")], out


def test_order_the_worm_read_where_its_move_left_it_then_moves_in_its_turn():
    g, _ = _green_moved_7_read_apart()
    assert not any(isinstance(e, Verdict) and not e.legal for e in g.scene()), g.events
    assert verdict(g.move("yellow", 4)).legal
    assert verdict(g.move("red", 5)).legal
    assert verdict(g.move("green", 6)).legal
