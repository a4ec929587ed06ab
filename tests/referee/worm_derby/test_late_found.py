"""Tiles found late (issue 13): a tile the camera missed when the course was set up and reads
later was on the table all along; it joins the accepted table with a note, never a foul."""

from __future__ import annotations

import doctest

import referee.worm_derby.late_found
from referee.record import fold
from tabletop.events import Doubt, Notice, Verdict
from tests.factories import setup, tile
from tests.referee.worm_derby.helpers import D, course, line, roll, seen

OBSTACLE = tile(0, 500)
MISSED = tile(150, 420)  # an obstacle the first reading did not show
SUNS = [line(-40, k * D, 6, "suns") for k in range(6)]
MOONS = [line(40, k * D, 6, "moons") for k in range(6)]
SEEN_AT_SETUP = course(obstacles=[OBSTACLE])
TABLE = course(obstacles=[OBSTACLE, MISSED])
START = [setup("worm-derby", ["suns", "moons"]), seen(SEEN_AT_SETUP, SUNS[0], MOONS[0])]


def _said(events):
    return [(e.seq, type(e).__name__, getattr(e, "player", None), getattr(e, "rule", None))
            for e in fold(events) if isinstance(e, Verdict | Notice | Doubt)]


def test_late_found_a_tile_missed_at_setup_and_seen_on_two_turns_joins_the_table():
    said = _said([*START, roll("suns", "2"), seen(TABLE, SUNS[2], MOONS[0]),
                  roll("moons", "2"), seen(TABLE, SUNS[2], MOONS[2])])
    assert said == [(1, "Verdict", None, "ok"), (3, "Verdict", "suns", "ok"),
                    (5, "Verdict", "moons", "ok"), (5, "Notice", None, None)]
    notice = fold([*START, roll("suns", "2"), seen(TABLE, SUNS[2], MOONS[0]),
                   roll("moons", "2"), seen(TABLE, SUNS[2], MOONS[2])])[-1]
    assert "(150, 420)" in notice.message and "missed" in notice.message


def test_late_found_an_obstacle_missed_at_setup_is_no_foul_when_an_ace_moves_another():
    moved = tile(30, 500)  # the ace's legal move of the obstacle seen at setup
    after_ace = course(obstacles=[moved, MISSED])
    said = _said([*START, roll("suns", "2"), seen(TABLE, SUNS[2], MOONS[0]),
                  roll("moons", "2"), seen(TABLE, SUNS[2], MOONS[2]),
                  roll("suns", "ace"), seen(after_ace, SUNS[2], MOONS[2])])
    assert said[-1][1:] == ("Verdict", "suns", "ok")


def test_late_found_without_it_the_ace_is_doubted_not_called():
    # the same ace with the missed tile seen for the first time on it: asked, never a foul
    moved = tile(30, 500)
    said = _said([*START, roll("suns", "ace"),
                  seen(course(obstacles=[moved, MISSED]), SUNS[0], MOONS[0])])
    assert [s for s in said if s[1] == "Verdict" and s[3] != "ok"] == []


def test_late_found_a_tile_seen_once_does_not_join_the_table():
    game_said = _said([*START, roll("suns", "2"), seen(TABLE, SUNS[2], MOONS[0]),
                       roll("moons", "2"), seen(SEEN_AT_SETUP, SUNS[2], MOONS[2])])
    assert not any(kind == "Notice" for _, kind, _, _ in game_said)


def test_late_found_a_tile_near_a_tile_not_read_is_not_found_late():
    # the obstacle is not read where it lay and a tile is read 60 mm away: it may have slid
    slid = tile(60, 500)
    table = course(obstacles=[slid])
    said = _said([*START, roll("suns", "2"), seen(table, SUNS[2], MOONS[0]),
                  roll("moons", "2"), seen(table, SUNS[2], MOONS[2])])
    assert not any(kind == "Notice" and seq == 5 for seq, kind, _, _ in said)


def test_late_found_doctests():
    assert doctest.testmod(referee.worm_derby.late_found).failed == 0
