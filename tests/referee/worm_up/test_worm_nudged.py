"""A worm whose segments all lie within a little over half a segment of where they lay did not
move (a move takes its tail to the front of its head): a misread or a nudge is no turn."""

from __future__ import annotations

from tests.referee.worm_up.tables import Game, advance, verdict


def _round(g: Game) -> None:
    assert g.start().legal
    g.bids(red="4", yellow="5", green="6")


def test_a_worm_read_a_little_off_beside_the_move_is_no_second_move():
    g = Game()
    _round(g)
    worms = dict(g.worms, red=advance(g.worms["red"], 4))
    yellow = list(worms["yellow"])
    yellow[3] = (yellow[3][0] + 10.0, yellow[3][1])  # read (or nudged) 10 mm aside
    worms["yellow"] = yellow
    v = verdict(g.scene(worms))
    assert v.legal and v.player == "red"


def test_a_worm_read_a_little_off_before_the_reveal_is_no_move():
    g = Game()
    assert g.start().legal
    worms = dict(g.worms)
    worms["green"] = [(x + 9.0, y) for x, y in worms["green"]]
    assert not g.scene(worms)


def test_a_worm_that_really_moved_out_of_turn_is_still_a_turn_foul():
    g = Game()
    _round(g)
    worms = dict(g.worms, red=advance(g.worms["red"], 4), yellow=advance(g.worms["yellow"], 5))
    v = verdict(g.scene(worms))
    assert not v.legal and v.rule == "turn"
