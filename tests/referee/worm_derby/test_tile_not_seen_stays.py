"""Tiles never move on a roll (issue 13, item 1: what the game knows cannot happen): a tile not
seen on the reading of a move, while no tile is seen where none lay, still lies where it lay,
or was taken off the table, itself the mover's ``obstacle`` foul. A foul of the mover's own
coins with it there (a ``gap`` between it and a tile seen) is the mover's foul whichever way
(play 200102: a Cannibal worm squeezed through a narrow gap with one of its two obstacles not
seen was doubted, not called)."""

from __future__ import annotations

import math

from tabletop.events import Doubt, Verdict
from tests.factories import scene, tile
from tests.referee.worm_derby.helpers import D, T, course, line, new_game, play, roll, seen, started

SUNS0 = line(-40, 0, 6, "suns")


def _gap_tiles(gap_mm: float):
    """Two diamond tiles with a ``gap_mm`` gap on suns' line at y = 5.5 D."""
    y, h = 5 * D + D / 2, T / math.sqrt(2)
    return [tile(-40 - gap_mm / 2 - h, y, 45), tile(-40 + gap_mm / 2 + h, y, 45)]


def _through_the_gap(gap_mm: float, *extra):
    game = new_game(["suns"])
    tiles = _gap_tiles(gap_mm)
    state = started(game, scene(course(), SUNS0), scene(course(obstacles=tiles), SUNS0))
    _, out = play(game, state, roll("suns", "2"),
                  seen(course(obstacles=tiles[:1]), *extra, line(-40, 2 * D, 6, "suns")))
    return out


def test_gap_called_with_an_obstacle_of_the_gap_not_seen():
    out = _through_the_gap(D - 2.0)
    said = [(v.player, v.rule) for v in out if isinstance(v, Verdict)]
    assert said == [("suns", "gap")], out


def test_gap_not_called_when_a_tile_is_seen_where_none_lay():
    out = _through_the_gap(D - 2.0, tile(300, 300))  # the tile may have moved there
    assert not [v for v in out if isinstance(v, Verdict)], out
    assert any(isinstance(d, Doubt) for d in out)


def test_gap_a_legal_pass_with_an_obstacle_not_seen_is_still_confirmed_legal():
    out = _through_the_gap(D + 1.0)
    said = [(v.player, v.rule) for v in out if isinstance(v, Verdict)]
    assert said == [("suns", "ok")], out
