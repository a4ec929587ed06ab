"""A segment read with another worm's colour is put right from what the table keeps
(referee/worm_up/colour_misread.py), and the move is judged as on a whole reading."""

from __future__ import annotations

from dataclasses import replace

from tabletop.events import SceneSeen
from tabletop.scene import Scene
from tests.referee.worm_up.tables import Game, moved, table, verdict


def read_as(scene: Scene, index: int, colour: str) -> Scene:
    """``scene`` with the segment at ``index`` read as ``colour``."""
    return replace(scene, pieces=tuple(replace(p, color=colour) if i == index else p
                                       for i, p in enumerate(scene.pieces)))


def test_steps_a_move_too_long_is_called_though_the_movers_head_reads_as_a_still_worms():
    g = Game()
    whole = moved(g, "red", 5)  # a bid of 4
    v = verdict(g.push(SceneSeen(read_as(whole, 6, "yellow"))))  # red's head read yellow
    assert (v.legal, v.player, v.rule) == (False, "red", "steps")


def test_steps_a_legal_move_is_judged_though_a_still_worms_segment_reads_as_the_movers():
    g = Game()
    whole = moved(g, "red", 4)
    v = verdict(g.push(SceneSeen(read_as(whole, 10, "red"))))  # a yellow segment read red
    assert v.legal and v.player == "red"


def test_setup_a_first_table_with_a_segment_read_as_another_worms_is_set_up():
    g = Game()
    first = table(g.worms, g.posts)
    v = verdict(g.push(SceneSeen(read_as(first, 13, "red"))))  # yellow's end read red
    assert v.legal and v.rule == "ok"
    assert g.state.worms[1].player == "yellow" and len(g.state.worms[1].centres_mm) == 7
