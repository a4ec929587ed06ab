"""A worm taken as moved (the players bid on a table in doubt) is placed as soon as a reading
shows where it lies: the last reading in doubt when it shows the worm whole and moved, any
later table that reads it whole (each worm on its own: a doubt about one does not keep the
others unplaced), and one whose move is next where the reading in doubt showed it; a move in
doubt of a worm taken as moved before is taken as made once the next worm moved (153000: one
misread cost every later turn of a game)."""

from __future__ import annotations

from tabletop.events import Doubt, Verdict
from tests.referee.worm_up.tables import Game, advance, verdict


def started() -> Game:
    g = Game()
    assert g.start().legal
    return g


def test_a_worm_taken_as_moved_is_placed_where_the_last_reading_in_doubt_shows_it_moved():
    g = started()
    g.bids(red="4", yellow="5", green="6")
    assert verdict(g.move("red", 4)).legal
    shown = dict(g.worms)
    shown["yellow"] = advance(g.worms["yellow"], 5)[1:]  # yellow's move read short: a doubt
    assert [type(e) for e in g.scene(shown)] == [Doubt]
    g.worms["yellow"] = advance(g.worms["yellow"], 5)
    g.worms["green"] = advance(g.worms["green"], 6)
    shown["green"] = g.worms["green"]  # green moved, read whole; yellow still short
    g.scene(shown)
    g.bids(red="5", yellow="6", green="4")  # yellow and green taken as moved
    assert g.state.unsure == ("yellow",)  # green placed where the last reading showed it
    assert verdict(g.move("green", 4)).legal  # its move judged, not "never seen"


def test_a_doubt_about_one_worm_taken_as_moved_leaves_the_others_placed():
    g = started()
    g.bids(red="4", yellow="5", green="6")
    shown = dict(g.worms)
    shown["red"] = advance(g.worms["red"], 4)[1:]
    g.scene(shown)  # red's move in doubt; the players go on unseen
    g.bids(red="5", yellow="6", green="4")  # red, yellow and green taken as moved
    g.worms["red"] = advance(g.worms["red"], 4)
    g.worms["yellow"] = advance(g.worms["yellow"], 5)
    g.worms["green"] = advance(advance(g.worms["green"], 6), 4)  # green's two moves, one table
    out = g.scene()
    assert [(type(e), e.player) for e in out] == [(Doubt, "green")]
    assert g.state.unsure == ("green",)  # red and yellow placed all the same
    assert verdict(g.move("red", 5)).legal  # green taken as made: red's move judged
    assert verdict(g.move("yellow", 6)).legal


def test_a_worm_taken_as_moved_whose_move_is_next_is_placed_where_the_reading_showed_it():
    g = started()
    g.bids(red="4", yellow="5", green="6")
    assert verdict(g.move("red", 4)).legal
    assert verdict(g.move("yellow", 5)).legal
    g.worms["green"] = advance(g.worms["green"], 6)
    shown = dict(g.worms)
    shown["green"] = g.worms["green"][:6]  # its head not seen: 6 laid, or 5 and a foul
    assert [type(e) for e in g.scene(shown)] == [Doubt]
    g.bids(red="5", yellow="6", green="4")  # green taken as moved: its move is next
    out = g.scene()  # read whole where the reading in doubt showed it: it has not moved since
    assert not any(isinstance(e, Doubt | Verdict) for e in out), out
    assert g.state.unsure == ()
    v = verdict(g.move("green", 4))
    assert v.legal and v.player == "green"


def test_worms_taken_as_moved_read_whole_are_all_placed_and_the_next_move_judged():
    # red's move in doubt (read short), then a whole table after the bids: red's move is next,
    # and it lies where the reading in doubt showed it
    g = started()
    g.bids(red="4", yellow="5", green="6")
    shown = dict(g.worms)
    shown["red"] = advance(g.worms["red"], 4)[1:]
    g.scene(shown)
    g.bids(red="5", yellow="6", green="7")
    g.worms["red"] = advance(g.worms["red"], 4)
    g.worms["yellow"] = advance(g.worms["yellow"], 5)
    g.worms["green"] = advance(g.worms["green"], 6)
    out = g.scene()
    assert not [e for e in out if isinstance(e, Verdict | Doubt)], out  # all placed
    assert g.state.unsure == ()
    assert verdict(g.move("red", 5)).legal
