"""A worm read one segment short with a hole of one segment: the segment not seen lies in the
hole (referee/worm_up/one_short.py); a foul from a reading completed so only of the worm whose
move it is (referee/worm_up/short_counts.py: every count it may have moved)."""

from __future__ import annotations

from dataclasses import replace

from tabletop.events import Doubt, SceneSeen
from tabletop.scene import Piece
from tests.referee.worm_up.tables import Game, moved, table, verdict, without


def test_a_move_read_with_a_segment_missing_inside_the_worm_is_judged():
    g = Game()
    whole = moved(g, "red", 4)
    v = verdict(g.push(SceneSeen(without(whole, 5))))  # a new segment inside the worm
    assert v.legal and v.player == "red"


def test_a_setup_read_with_a_segment_missing_inside_a_worm_is_judged():
    g = Game()
    v = verdict(g.push(SceneSeen(without(table(g.worms, g.posts), 10))))
    assert v.legal and v.rule == "ok"


def test_a_worm_missing_its_head_is_not_guessed():
    g = Game()
    whole = moved(g, "red", 4)
    out = g.push(SceneSeen(without(whole, 6)))
    assert [type(e) for e in out] == [Doubt]


def test_a_move_read_with_a_hole_of_one_segment_is_judged_with_it_filled_a_foul_too():
    g = Game()
    whole = moved(g, "red", 5)  # a bid of 4: steps
    v = verdict(g.push(SceneSeen(without(whole, 4))))
    assert not v.legal and (v.player, v.rule) == ("red", "steps")
    assert "not seen" in v.reason


def test_a_hole_read_a_few_millimetres_short_of_two_segments_is_still_a_hole():
    # red on a red gingham (107000): the segments either side of the one not seen read 4 mm
    # nearer it, so the hole is 32 mm, not 40: segments read off, not a worm apart
    g = Game()
    whole = moved(g, "red", 4)
    pieces = list(whole.pieces)
    for k, dy in ((2, 4.0), (4, -4.0)):  # the old head, and the second segment laid
        x, y = pieces[k].centre_mm
        pieces[k] = Piece("segment", x, y + dy, color="red")
    read = replace(whole, pieces=tuple(pieces))
    v = verdict(g.push(SceneSeen(without(read, 3))))
    assert v.legal and v.player == "red"
