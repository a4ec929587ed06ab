"""The playthrough log: atomic appends, games, records that replay, snapshots, bad files."""

from __future__ import annotations

import pytest

from live.log import GameLog, LogError
from referee.record import fold
from tabletop.events import Roll, SceneSeen, Setup, Verdict, iter_record_lines
from tests.factories import coin, scene


def test_events_keep_their_order_and_seq(tmp_path):
    log = GameLog(tmp_path / "t.db")
    g = log.new_game(Setup("web-toy", ("suns", "moons"), t=1.0))
    log.append(g, [(1, Roll("moons", "3", t=2.0)),
                   (2, Verdict(1, "moons", False, "turn", "not your turn", t=2.1))])
    rows = log.event_rows(g)
    assert [s for s, _ in rows] == [0, 1, 2]
    assert [e.type for _, e in rows] == ["setup", "roll", "verdict"]
    assert rows[1][1].t == 2.0


def test_a_failed_append_stores_nothing(tmp_path):
    log = GameLog(tmp_path / "t.db")
    g = log.new_game(Setup("web-toy", ("suns", "moons")))
    log.append(g, [(1, Roll("suns", "3"))])
    with pytest.raises(Exception, match="UNIQUE"):
        log.append(g, [(2, Roll("moons", "4")), (1, Roll("suns", "5"))])
    assert [e.type for e in log.events(g)] == ["setup", "roll"]


def test_the_log_is_in_wal_mode_and_survives_reopening(tmp_path):
    path = tmp_path / "t.db"
    log = GameLog(path)
    g = log.new_game(Setup("web-toy", ("suns", "moons")))
    log.append(g, [(1, Roll("suns", "2"))], scene=(1, scene(coin(1, 2))), jpeg=(1, b"\xff\xd8x"))
    mode = log._db.execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    log.close()
    again = GameLog(path)
    assert again.latest_game() == g
    assert again.scenes(g) == [(1, scene(coin(1, 2)))]
    assert again.snapshot(g, 1) == b"\xff\xd8x"
    assert again.snapshot(g, 5) is None
    assert again.snapshot_seqs(g) == [1]


def test_games_are_listed_latest_first_with_counts(tmp_path):
    log = GameLog(tmp_path / "t.db")
    a = log.new_game(Setup("web-toy", ("suns", "moons")))
    log.append(a, [(1, Roll("suns", "2")), (2, Verdict(1, "suns", True, "ok", "fine"))])
    b = log.new_game(Setup("web-toy", ("arms", "crowns")))
    games = log.games()
    assert [g.id for g in games] == [b, a]
    assert games[1].events == 3 and games[1].verdicts == 1
    assert games[0].players == ("arms", "crowns")


def test_the_exported_record_replays_to_the_same_verdicts(tmp_path):
    import tests.web.fakes  # noqa: F401

    log = GameLog(tmp_path / "t.db")
    g = log.new_game(Setup("web-toy", ("suns", "moons")))
    s1, s2 = scene(coin(0, 0)), scene(coin(0, 0), coin(40, 0))
    log.append(g, [(1, SceneSeen(s1)), (2, Verdict(1, "suns", True, "ok", "suns moved"))])
    log.append(g, [(3, SceneSeen(s2)),
                   (4, Verdict(3, "moons", False, "extra", "a coin appeared from nowhere",
                               (1,)))])
    events = list(iter_record_lines(log.record(g).splitlines()))
    stored = [e for e in events if not e.is_input]
    assert fold(events) == stored


def test_a_file_that_is_not_a_log_is_one_clear_error(tmp_path):
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(LogError, match="not a playthrough log"):
        GameLog(bad)
