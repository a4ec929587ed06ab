"""A worm whose move was never seen whole (its doubted reading stood as read) is known in part
from later readings: when its next move is read whole, where it started is a guess, and a
guess never makes a foul (issue 13: never a foul from a table the referee did not trust)."""

from __future__ import annotations

from referee.record import fold
from tabletop.events import Doubt, Notice, Verdict
from tests.factories import setup
from tests.referee.worm_derby.helpers import D, course, line, roll, seen, tile

TABLE = course(obstacles=[tile(0, 500)])
SUNS0, MOONS0 = line(-40, 0, 4, "suns"), line(40, 0, 4, "moons")
SUNS2, SUNS4 = line(-40, 2 * D, 4, "suns"), line(-40, 4 * D, 4, "suns")
MOONS4, MOONS6 = line(40, 4 * D, 4, "moons"), line(40, 6 * D, 4, "moons")


def _moons_unseen_then(*events):
    """Moons' move of 4 read with one coin (doubted, and it stood when suns rolled); its
    other coins read one by one while suns moved; then moons rolls 2 and ``events``."""
    m = MOONS4
    return fold([setup("worm-derby", ["suns", "moons"], lengths={"suns": 4, "moons": 4}),
                 seen(TABLE, SUNS0, MOONS0), roll("suns", "2"), seen(TABLE, SUNS2, MOONS0),
                 roll("moons", "4"), seen(TABLE, SUNS2, m[3]),
                 roll("suns", "2"), seen(TABLE, SUNS4, m[2]), seen(TABLE, SUNS4, m[1]),
                 roll("moons", "2"), seen(TABLE, SUNS4, m[1], m[3]), *events])


def test_steps_a_move_from_a_start_known_in_part_is_no_foul_when_the_tail_coin_is_not_known():
    # moons' coins 1-3 are known, its tail coin never seen: two legal steps from there read
    # whole could be one step on from a coin beyond its head (the foul "1 step on a 2") or
    # two from a coin at its tail end: not a foul, a doubt
    out = _moons_unseen_then(seen(TABLE, SUNS4, MOONS6))
    last = out[-1]
    assert isinstance(last, Doubt) and last.player == "moons"
    assert not [e for e in out if isinstance(e, Verdict) and not e.legal]


def test_steps_the_worm_read_whole_again_is_judged_from_there_once_the_players_go_on():
    suns6, moons9 = line(-40, 6 * D, 4, "suns"), line(40, 9 * D, 4, "moons")
    out = _moons_unseen_then(seen(TABLE, SUNS4, MOONS6), roll("suns", "2"),
                             seen(TABLE, suns6, MOONS6), roll("moons", "3"),
                             seen(TABLE, suns6, moons9), roll("suns", "2"),
                             seen(TABLE, suns6, line(40, 11 * D, 4, "moons")))
    verdicts = [(e.seq, e.player, e.rule) for e in out if isinstance(e, Verdict)]
    assert verdicts[-3:] == [(13, "suns", "ok"), (15, "moons", "ok"), (17, "moons", "turn")]


def test_steps_a_worm_not_read_whole_is_asked_about_once_a_roll_and_said_pending_once():
    # moons' move of 4 read with one coin stands as read (said once: moons' worm is not read
    # whole); on moons' next roll, readings that show it in part are asked about once
    m = MOONS4
    out = fold([setup("worm-derby", ["suns", "moons"], lengths={"suns": 4, "moons": 4}),
                seen(TABLE, SUNS0, MOONS0), roll("suns", "2"), seen(TABLE, SUNS2, MOONS0),
                roll("moons", "4"), seen(TABLE, SUNS2, m[3]), roll("suns", "2"),
                seen(TABLE, SUNS4, m[2]), roll("moons", "2"), seen(TABLE, SUNS4, m[1]),
                seen(TABLE, SUNS4, m[1], m[3]), seen(TABLE, SUNS4, m[0], m[1], m[3])])
    stood = [e for e in out if isinstance(e, Notice) and "not fixed" in e.message]
    assert len(stood) == 1 and "moons' worm is not read whole (1 of its 4 coins" in \
        stood[0].message
    assert [e.seq for e in out if isinstance(e, Doubt)] == [5, 9]
