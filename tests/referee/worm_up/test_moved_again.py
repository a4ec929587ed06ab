"""A worm whose own move was read in doubt (one segment short: its tail still where it lay, or
a segment more laid beyond its head) and that is then read whole further on moved twice: the
reading in doubt shows where it stopped between, so the second move is that mover's ``turn``
foul (issue 13), not a ``tail`` foul of one move from where it lay."""

from __future__ import annotations

from tests.referee.worm_up.tables import Game, advance


def _said(out):
    return [(type(e).__name__, e.player, getattr(e, "rule", None)) for e in out]


def _moved_in_doubt() -> tuple[Game, list]:
    g = Game()
    assert g.start().legal
    g.bids(red="4", yellow="5", green="6")  # red moves first
    moved = advance(g.worms["red"], 4)
    out = g.scene({**g.worms, "red": moved[1:]})  # its tail not seen: 4, or 5 on a bid of 4
    assert [type(e).__name__ for e in out] == ["Doubt"]
    return g, moved


def test_turn_a_worm_moving_again_after_its_move_read_in_doubt():
    g, moved = _moved_in_doubt()
    out = g.scene({**g.worms, "red": advance(moved, 3)})
    assert _said(out) == [("Verdict", "red", "turn")]


def test_turn_none_for_a_worm_read_whole_where_its_move_in_doubt_left_it():
    g, moved = _moved_in_doubt()
    out = g.scene({**g.worms, "red": moved})  # read whole where it stopped: its move of 4
    assert _said(out) == [("Verdict", "red", "ok")]

