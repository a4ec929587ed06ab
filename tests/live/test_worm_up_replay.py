"""Worm Up! through the live table: phone bids are logged as bid events only at the reveal, and
a replay of the log re-creates every verdict, doubt and notice (readings completed from an
earlier reading or a hole, a setup with a post not seen, a foul and its pending notice)."""

from __future__ import annotations

from dataclasses import replace

from live.bidding import BidRoom
from live.bus import Bus
from live.log import GameLog
from live.table import Table
from referee.record import fold
from tabletop.events import Bid, SceneSeen, Setup
from tests.referee.worm_up.tables import FINISH, START, advance, start_table, table

PLAYERS = ("red", "yellow", "green")


def _without(scene, *indices):
    return replace(scene, pieces=tuple(p for i, p in enumerate(scene.pieces)
                                       if i not in indices))


def _plain(event) -> dict:
    d = event.to_json()
    d.pop("t", None)
    return d


def test_a_worm_up_log_replays_to_the_same_outputs(tmp_path):
    path = tmp_path / "up.db"
    t = Table(GameLog(path), Bus())
    room = BidRoom(t, Bus())
    t.submit(Setup("worm-up", PLAYERS, {}))
    worms = start_table(PLAYERS)
    t.submit(SceneSeen(table(worms, [*START, FINISH[0]])))  # a post not seen: ok and a doubt
    for p, b in (("red", "4"), ("yellow", "5")):
        room.bid(p, b)
    assert not any(isinstance(e, Bid) for e in t.log.events(t.game_id))  # secret till all in
    room.bid("green", "6")
    assert sum(isinstance(e, Bid) for e in t.log.events(t.game_id)) == 3
    red = dict(worms, red=advance(worms["red"], 5))  # a bid of 4: steps
    t.submit(SceneSeen(table(red, [*START, *FINISH])))
    t.submit(SceneSeen(table(worms, [*START, *FINISH])))  # put back
    red = dict(worms, red=advance(worms["red"], 4))
    whole = table(red, [*START, *FINISH])
    t.submit(SceneSeen(_without(whole, 6)))  # red's head not seen: a doubt
    t.submit(SceneSeen(_without(whole, 0)))  # red's tail not seen: completed from the first
    yellow = dict(red, yellow=advance(worms["yellow"], 5))
    t.submit(SceneSeen(_without(table(yellow, [*START, *FINISH]), 10)))  # a hole in yellow
    stored = [e for e in t.log.events(t.game_id) if not e.is_input]
    kinds = [e.type for e in stored]
    assert kinds.count("doubt") == 2 and kinds.count("notice") >= 1
    verdicts = [(e.player, e.rule) for e in stored if e.type == "verdict"]
    assert ("red", "steps") in verdicts and ("red", "ok") in verdicts
    assert ("yellow", "ok") in verdicts
    replayed = fold(t.log.events(t.game_id))
    assert [_plain(e) for e in replayed] == [_plain(e) for e in stored]
    resumed = Table(GameLog(path), Bus())
    assert resumed.referee.state == t.referee.state
