"""A doubted table that stands (issue 13, item 1): the players went on after a doubt nobody
fixed, so the table stands as read, but the worms not involved in the turn that it shows lying
still keep the places the accepted table gives them, never the doubted reading's few mm off
(play 200084: suns' head read 3.7 mm off on moons' doubted turn, and suns' next legal step was
ruled ``overlap`` against that place)."""

from __future__ import annotations

from tabletop.events import Doubt, Notice, Verdict
from tests.factories import coin, tile
from tests.referee.worm_derby.helpers import D, course, line, new_game, play, roll, seen, started

OBSTACLE = tile(0, 500)
TABLE = course(obstacles=[OBSTACLE])
OFF_MM = 3.7  # under same_place_mm (4): read as the same place, kept as read


def _played(suns_head_off_mm: float):
    game = new_game(lengths={"suns": 4, "moons": 4})
    state = started(game, seen(TABLE, line(-40, 0, 4, "suns"), line(40, 0, 4, "moons")).scene)
    suns2 = line(-40, 2 * D, 4, "suns")
    misread = [*suns2[:3], coin(-40, 5 * D + suns_head_off_mm, "suns")]
    moons3 = line(40, 3 * D, 4, "moons")
    return play(game, state,
                roll("suns", "2"), seen(TABLE, suns2, line(40, 0, 4, "moons")),
                roll("moons", "3"), seen(TABLE, misread, moons3[2:]),  # moons 2 of 4: doubt
                roll("suns", "2"), seen(TABLE, line(-40, 4 * D, 4, "suns"), moons3[2:]))


def test_doubt_stands_a_worm_lying_still_keeps_its_accepted_places():
    _, out = _played(OFF_MM)
    assert any(isinstance(e, Doubt) for e in out)
    assert any(isinstance(e, Notice) and "was in doubt" in e.message for e in out)
    verdicts = [(v.player, v.rule) for v in out if isinstance(v, Verdict)]
    assert verdicts == [("suns", "ok"), ("suns", "ok")], verdicts
