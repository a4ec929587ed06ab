"""A worm taken as moved without being seen (the players bid on a table in doubt) whose move
took the whole worm (a bid of 7): a move of 7 keeps no segment where it lay, so the table can
only tell it moved again out of its turn by its new tail, which a legal move lays touching
where its head lay (issue 13: a worm moved again unseen was placed there silently, and the
table put back was then that worm's `order` foul, a false alarm)."""

from __future__ import annotations

from tabletop.events import Doubt, Notice, Verdict
from tests.referee.worm_up.tables import Game, advance, green_moves_7_next, verdict


def _green_moved_7_unseen() -> tuple[Game, list]:
    """Round 1 played, green's move of 7 read one short (a doubt: its head not seen, so 6
    laid with its old head where it lay not seen fits the reading too), then round 2 bid."""
    g, moved = green_moves_7_next()
    shown = dict(g.worms)
    shown["green"] = moved[:-1]  # its new head not seen
    assert [type(e) for e in g.scene(shown)] == [Doubt]
    out = g.bids(red="5", yellow="4", green="6")  # the players went on: green taken as moved
    assert any(isinstance(e, Notice) and "green is taken as moved" in e.message for e in out)
    return g, moved


def test_a_worm_moved_whole_unseen_and_read_beyond_is_a_doubt_not_placed_there():
    g, moved = _green_moved_7_unseen()
    g.worms["green"] = moved
    again = dict(g.worms)
    again["green"] = advance(moved, 6)  # green moves before yellow and red: seen only now
    out = g.scene(again)
    assert [type(e) for e in out] == [Doubt] and "moved again" in out[0].reason, out
    out = g.scene()  # put back where its move of 7 took it: nobody's foul
    assert not any(isinstance(e, Verdict) and not e.legal for e in out), out
    assert verdict(g.move("yellow", 4)).legal
    assert verdict(g.move("red", 5)).legal
    assert verdict(g.move("green", 6)).legal


def test_a_worm_moved_whole_unseen_and_read_where_its_move_left_it_is_placed_there():
    g, moved = _green_moved_7_unseen()
    g.worms["green"] = moved
    assert g.scene() == ()  # green read whole where its move of 7 left it: placed there
    assert verdict(g.move("yellow", 4)).legal
    v = verdict(g.move("green", 6))
    assert not v.legal and (v.player, v.rule) == ("green", "order")
