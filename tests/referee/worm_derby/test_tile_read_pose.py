"""A step's clearance is judged against the tiles as read in the same frame as the coins.

Issue 13 (session 23's held-out Worm Derby): the setup's first reading put a face-down tile 5 mm
and 0.8 degrees from where every later reading had it; each later reading's tile is the same
tile (it did not move) and was put back at its accepted place, so a legal step that cleared the
tile by 3 mm as read was called an ``overlap`` foul by 2 mm against the first reading's place.
A foul of a step is called only when the step fouls the tile where the accepted table has it
and where this reading has it too; a move legal as read is legal, and the accepted table learns
the tile's place from that reading (it never says the tile moved).
"""

from __future__ import annotations

from tests.factories import tile
from tests.referee.worm_derby.helpers import (
    MOONS0,
    SUNS0,
    D,
    course,
    line,
    new_game,
    play,
    roll,
    said,
    seen,
    started,
)

R = D / 2
SUNS_X = -40.0
TILE_Y = 200.0
CLEAR_MM = 3.0
TILE_AS_READ = tile(SUNS_X + R + CLEAR_MM + 25.4, TILE_Y, angle_deg=0.8)
"""Where every reading after the setup has the tile: 3 mm clear of suns' lane."""
TILE_FIRST = tile(TILE_AS_READ.x_mm - 5.0, TILE_Y)
"""Where the setup's reading put it: 5 mm to the left, 0.8 degrees turned (2 mm into the lane)."""


def _start(first_tile):
    """Set up with the tile at ``first_tile``, suns' worm taken three coins up its lane."""
    game = new_game()
    state = started(game, seen(course(obstacles=[first_tile]), SUNS0, MOONS0).scene,
                    seen(course(obstacles=[first_tile]), line(SUNS_X, 3 * D, 6, "suns"),
                         MOONS0).scene)
    return game, state


def test_overlap_is_judged_against_the_tile_as_read_in_the_same_frame():
    game, state = _start(TILE_FIRST)
    moved = line(SUNS_X, 5 * D, 6, "suns")  # two steps up the lane, past the tile
    state, out = play(game, state, roll("suns", "2"),
                      seen(course(obstacles=[TILE_AS_READ]), moved, MOONS0))
    assert said(out)[-1] == ("Verdict", "suns", "ok"), out
    # the accepted table learnt the tile's place from that reading (it did not move)
    tiles = [p for p in state.table.pieces if p.kind == "tile" and p.y_mm == TILE_Y]
    assert [(p.x_mm, p.angle_deg) for p in tiles] == [(TILE_AS_READ.x_mm, 0.8)]


def test_overlap_fouling_the_tile_where_it_is_read_too_is_called():
    game, state = _start(TILE_FIRST)
    into = tile(TILE_FIRST.x_mm - 1.0, TILE_Y, angle_deg=0.4)  # read 1 mm farther in
    moved = line(SUNS_X, 5 * D, 6, "suns")
    state, out = play(game, state, roll("suns", "2"),
                      seen(course(obstacles=[into]), moved, MOONS0))
    assert said(out)[-1] == ("Verdict", "suns", "overlap"), out


def test_overlap_legal_at_the_accepted_place_stays_legal_whatever_the_reading():
    game, state = _start(TILE_AS_READ)
    moved = line(SUNS_X, 5 * D, 6, "suns")
    state, out = play(game, state, roll("suns", "2"),
                      seen(course(obstacles=[TILE_FIRST]), moved, MOONS0))
    assert said(out)[-1] == ("Verdict", "suns", "ok"), out
    # a legal move at the accepted place keeps that place
    tiles = [p for p in state.table.pieces if p.kind == "tile" and p.y_mm == TILE_Y]
    assert [p.x_mm for p in tiles] == [TILE_AS_READ.x_mm]
