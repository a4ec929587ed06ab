"""Two readings of one still table in doubt: a piece one did not see, the other did
(referee/worm_up/two_readings.py); never a foul from a completed reading."""

from __future__ import annotations

from dataclasses import replace

from tabletop.events import Doubt, SceneSeen
from tests.referee.worm_up.tables import Game, advance, table, verdict, without


def _started(g: Game) -> None:
    assert g.start().legal
    g.bids(red="4", yellow="5", green="6")


def test_a_first_table_read_twice_each_time_short_of_another_segment_is_set_up():
    g = Game()
    whole = table(g.worms, g.posts)
    # red's four last, then yellow's four last not seen (too few seen to complete either)
    (d1, d2) = (g.push(SceneSeen(without(whole, 0, 1, 2, 3))),
                g.push(SceneSeen(without(whole, 7, 8, 9, 10))))
    assert isinstance(d1[0], Doubt)
    v = verdict(d2)
    assert v.legal and v.rule == "ok"
    assert g.referee.describe()["phase"] == "bidding"


def test_a_move_read_twice_each_time_short_of_another_piece_is_judged():
    g = Game()
    _started(g)
    moved = dict(g.worms)
    moved["red"] = advance(g.worms["red"], 4)
    whole = table(moved, g.posts)
    (d,) = g.push(SceneSeen(without(whole, 6)))  # red's head not seen
    assert isinstance(d, Doubt)
    v = verdict(g.push(SceneSeen(without(whole, 2, 22))))  # a red segment and a post
    assert v.legal and v.player == "red"
    assert g.referee.describe()["next"] == ["yellow"]


def test_readings_of_two_different_tables_are_not_merged():
    g = Game()
    _started(g)
    before = without(table(g.worms, g.posts), 7)  # the start, yellow's tail not seen
    p = before.pieces[9]  # and a yellow segment read 15 mm off
    before = replace(before, pieces=(*before.pieces[:9], replace(p, x_mm=p.x_mm + 15.0),
                                     *before.pieces[10:]))
    (d,) = g.push(SceneSeen(before))
    assert isinstance(d, Doubt)
    moved = dict(g.worms)
    moved["red"] = advance(g.worms["red"], 4)
    out = g.push(SceneSeen(without(table(moved, g.posts), 6)))  # red's head not seen
    assert [type(e) for e in out] == [Doubt]


def test_two_readings_that_agree_and_together_show_every_piece_may_call_a_foul():
    g = Game()
    _started(g)
    moved = dict(g.worms)
    moved["red"] = advance(g.worms["red"], 5)  # a bid of 4: steps
    whole = table(moved, g.posts)
    (d,) = g.push(SceneSeen(without(whole, 6)))
    assert isinstance(d, Doubt)
    v = verdict(g.push(SceneSeen(without(whole, 3))))
    assert not v.legal and (v.player, v.rule) == ("red", "steps")


def test_a_first_table_completed_from_two_readings_is_no_setup_foul():
    # a worm on a cloth of its own colour: both readings miss red's tail, one also misses the
    # next segment and reads a check beside the worm as a red segment; together they show 7
    # red segments, one of them off the line -- a union of two partial readings is no
    # complete reading for a setup foul (held-out trust seed 88700, red on red gingham)
    g = Game()
    whole = table(g.worms, g.posts)
    short = without(whole, 0)
    shorter = without(whole, 0, 1)
    p = whole.pieces[3]
    phantom = replace(shorter, pieces=(*shorter.pieces, replace(p, x_mm=p.x_mm + 30.0,
                                                            y_mm=p.y_mm + 30.0)))
    (d1,) = g.push(SceneSeen(phantom))
    assert isinstance(d1, Doubt)
    out = g.push(SceneSeen(short))
    assert not any(getattr(o, "legal", True) is False for o in out)
