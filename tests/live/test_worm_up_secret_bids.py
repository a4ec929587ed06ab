"""Worm Up! bids submitted to the live table stay secret until every player has bid: the input
stream says who has bid, never what, and the public record holds them back; the log and the
replay's record keep every value, so a resumed table judges them again."""

from __future__ import annotations

from live.bus import Bus
from live.log import GameLog
from live.table import Table
from tabletop.events import Bid, SceneSeen, Setup
from tests.referee.worm_up.tables import start_table, table

PLAYERS = ("red", "yellow", "green")


class Heard(Bus):
    """A bus that keeps what was published."""

    def __init__(self) -> None:
        super().__init__()
        self.heard: list[tuple[str, dict]] = []

    def publish(self, kind, data):
        self.heard.append((kind, data))
        return super().publish(kind, data)


def _bidding(path) -> tuple[Table, Heard]:
    bus = Heard()
    t = Table(GameLog(path), bus)
    t.submit(Setup("worm-up", PLAYERS))
    t.submit(SceneSeen(table(start_table(PLAYERS))))
    return t, bus


def test_bids_are_secret_until_all_are_in_and_kept_in_the_log(tmp_path):
    t, bus = _bidding(tmp_path / "t.db")
    t.submit(Bid("red", "7"))
    t.submit(Bid("yellow", "X", 6))
    inputs = [d["event"] for k, d in bus.heard if k == "input" and d["event"]["type"] == "bid"]
    assert inputs == [{"type": "bid", "player": "red", "message": "red has bid",
                       "t": inputs[0]["t"]},
                      {"type": "bid", "player": "yellow", "message": "yellow has bid",
                       "t": inputs[1]["t"]}]
    assert '"bid"' not in t.record(public=True)
    assert t.record().count('"type": "bid"') == 2  # the log keeps them (a replay's record)
    assert len(t.secret_bids()) == 2
    resumed = Table(GameLog(tmp_path / "t.db"), Bus())  # judged again from the log
    assert resumed.state()["bids_in"] == ["red", "yellow"]
    t.submit(Bid("green", "5"))
    assert t.secret_bids() == frozenset()
    assert t.record(public=True).count('"type": "bid"') == 3
    last = [d["event"] for k, d in bus.heard if k == "input"][-1]
    assert last["bid"] == "5"
    reveal = [d for k, d in bus.heard if k == "notice" and d.get("data")]
    assert reveal[-1]["data"]["bids"] == {"red": "7", "yellow": "X", "green": "5"}
