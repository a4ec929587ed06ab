"""An ace's slide read with a tile not seen elsewhere (issue 13): the one tile read where none
lay is the tile slid from the one place near it where a tile is no longer read; a tile not seen
far off is a misread, so the slide is judged, legal or too far, and never a doubt about it."""

from __future__ import annotations

from tabletop.events import Doubt, SceneSeen, Verdict
from tests.factories import scene, tile
from tests.referee.worm_derby.helpers import START, course, line, new_game, play, roll, started

SUNS0 = line(-40, 0, 6, "suns")
MOONS0 = line(40, 0, 6, "moons")
OTHER = tile(300, 300)
FIRST = scene(course(obstacles=[tile(0, 500), OTHER]), SUNS0, MOONS0)


def _judge(obstacles, without=()):
    game = new_game()
    state = started(game, FIRST)
    pieces = [p for p in course(obstacles=obstacles) if p not in without]
    state, _ = play(game, state, roll("suns", "ace"))
    _, out = play(game, state, SceneSeen(scene(pieces, SUNS0, MOONS0)))
    return out


def test_obstacle_a_legal_slide_is_judged_with_a_start_tile_not_seen_far_off():
    out = _judge([tile(30, 500), OTHER], without=(START[1],))
    v = [e for e in out if isinstance(e, Verdict)]
    assert len(v) == 1 and v[0].legal and not any(isinstance(e, Doubt) for e in out)


def test_obstacle_a_slide_too_far_is_called_with_a_tile_not_seen_far_off():
    out = _judge([tile(85, 500), tile(300, 300)], without=(START[1],))
    v = [e for e in out if isinstance(e, Verdict)]
    assert len(v) == 1 and not v[0].legal and v[0].rule == "obstacle"


def test_obstacle_a_slide_with_another_tile_not_seen_near_it_is_asked_about():
    near = tile(60, 420)  # lies within reach of the slide: it may be the tile that slid
    game = new_game()
    first = scene(course(obstacles=[tile(0, 500), near]), SUNS0, MOONS0)
    state = started(game, first)
    state, _ = play(game, state, roll("suns", "ace"))
    _, out = play(game, state, SceneSeen(scene(course(obstacles=[tile(85, 500)]), SUNS0,
                                               MOONS0)))
    assert not [e for e in out if isinstance(e, Verdict) and not e.legal]
