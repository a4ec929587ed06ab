"""The shape rule on a worm read split by less than the measuring noise (issue 13, item 5: the
right rule): two chains of a worm farther apart than touching by no more than
``centre_noise_mm`` may be one chain read a little off (play 200086: a coin squeezed through a
narrow gap, read 4.4 mm off, left its worm 0.24 mm past touching and the ``gap`` foul was
called ``shape``). The move is judged as one chain too: another foul there is called, a legal
move there is a doubt; a split wider than the noise stays a ``shape`` foul."""

from __future__ import annotations

import math

from referee.worm_derby.settings import DEFAULT_SETTINGS
from tabletop.events import Doubt, Verdict
from tests.factories import coin, scene, tile
from tests.referee.worm_derby.helpers import D, T, course, line, new_game, play, roll, seen, started

SUNS0 = line(-40, 0, 6, "suns")
TOUCH_MM = DEFAULT_SETTINGS.touch_factor * D
NOISE_MM = DEFAULT_SETTINGS.centre_noise_mm


def _gap_tiles(gap_mm: float):
    """Two diamond tiles with a ``gap_mm`` gap on suns' line at y = 5.5 D."""
    y, h = 5 * D + D / 2, T / math.sqrt(2)
    return [tile(-40 - gap_mm / 2 - h, y, 45), tile(-40 + gap_mm / 2 + h, y, 45)]


def _moved_two_with_head_off(past_touch_mm: float, tiles=()):
    """Suns' 2 steps (coins 2 D .. 7 D) read with the head ``past_touch_mm`` past touching."""
    game = new_game(["suns"])
    table = course(obstacles=list(tiles))
    state = started(game, scene(course(), SUNS0), scene(table, SUNS0))
    moved = [*line(-40, 2 * D, 5, "suns"), coin(-40, 6 * D + TOUCH_MM + past_touch_mm, "suns")]
    _, out = play(game, state, roll("suns", "2"), seen(table, moved))
    return out


def test_shape_a_split_within_the_noise_through_a_narrow_gap_is_the_gap_foul():
    out = _moved_two_with_head_off(0.3, _gap_tiles(D - 2.0))
    said = [(v.player, v.rule) for v in out if isinstance(v, Verdict)]
    assert said == [("suns", "gap")], out


def test_shape_a_split_within_the_noise_of_a_legal_move_is_a_doubt_not_a_foul():
    out = _moved_two_with_head_off(0.3)
    assert not [v for v in out if isinstance(v, Verdict)], out
    doubts = [d for d in out if isinstance(d, Doubt)]
    assert len(doubts) == 1 and "touch" in doubts[0].reason


def test_shape_a_split_wider_than_the_noise_is_still_a_shape_foul():
    out = _moved_two_with_head_off(NOISE_MM + 1.0, _gap_tiles(D - 2.0))
    said = [(v.player, v.rule) for v in out if isinstance(v, Verdict)]
    assert said == [("suns", "shape")], out
