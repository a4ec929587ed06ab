"""The live table: judging, committing before publishing, resuming a log, snapshots."""

from __future__ import annotations

import sqlite3

import pytest

from live.bus import Bus
from live.log import GameLog
from live.table import LogWriteError, NoGame, Table
from tabletop.errors import InputError
from tabletop.events import Accept, Roll, SceneSeen, Setup, Undo, Verdict
from tests.factories import coin, scene, tile

S1 = scene(coin(0, 0))
S2 = scene(coin(0, 0), coin(50, 0))
S3 = scene(coin(30, 0))


def _table(path, **kw) -> Table:
    return Table(GameLog(path), Bus(), **kw)


def test_an_event_is_committed_before_it_is_published(tmp_path):
    path = tmp_path / "t.db"
    table = _table(path)
    seen_in_log = []

    class SpyBus(Bus):
        def publish(self, kind, data):
            if kind == "verdict":
                other = GameLog(path)  # another connection: sees only committed data
                seen_in_log.append([e.type for e in other.events(table.game_id)])
                other.close()
            return super().publish(kind, data)

    table.bus = SpyBus()
    table.submit(Setup("web-toy", ("suns", "moons")))
    table.submit(SceneSeen(S1))
    assert seen_in_log == [["setup", "scene", "verdict"]]


def test_a_restarted_table_resumes_the_game(tmp_path):
    path = tmp_path / "t.db"
    table = _table(path)
    table.submit(Setup("web-toy", ("suns", "moons")))
    table.submit(SceneSeen(S1))
    table.submit(Roll("suns", "3"))
    table.log.close()
    again = _table(path)
    assert again.game_id == table.game_id and again.next_seq == table.next_seq
    assert again.state()["turn"] == "moons"
    assert again.state()["scene"] == S1.to_json()
    done = again.submit(Roll("suns", "2"))
    assert done.seq == table.next_seq
    assert isinstance(done.outputs[0][1], Verdict) and done.outputs[0][1].rule == "turn"


def test_accept_and_undo_are_logged_events(tmp_path):
    table = _table(tmp_path / "t.db")
    table.submit(Setup("web-toy", ("suns", "moons")))
    table.submit(SceneSeen(S1))
    table.submit(SceneSeen(S2))
    assert table.state()["verdicts"][0]["rule"] == "extra"
    table.submit(Accept())
    assert table.state()["scene"] == S2.to_json()
    table.submit(Undo())
    assert table.state()["scene"] == S1.to_json()
    types = [e.type for e in table.log.events(table.game_id)]
    assert types.count("accept") == 1 and types.count("undo") == 1
    assert "undone" in types


def test_accepted_tables_and_snapshots_are_kept_with_verdicts(tmp_path):
    table = _table(tmp_path / "t.db", snapshot=lambda: b"\xff\xd8jpeg")
    table.submit(Setup("web-toy", ("suns", "moons")))
    one = table.submit(SceneSeen(S1))
    table.submit(SceneSeen(S2))  # illegal: not accepted, but pictured
    three = table.submit(SceneSeen(S3))
    assert [s for s, _ in table.log.scenes(table.game_id)] == [one.seq, three.seq]
    assert len(table.log.snapshot_seqs(table.game_id)) == 3
    assert table.log.snapshot(table.game_id, one.seq) == b"\xff\xd8jpeg"


def test_no_event_before_a_setup_and_no_output_events(tmp_path):
    table = _table(tmp_path / "t.db")
    with pytest.raises(NoGame):
        table.submit(Roll("suns", "3"))
    table.submit(Setup("web-toy", ("suns", "moons")))
    with pytest.raises(InputError, match="output"):
        table.submit(Verdict(1, None, True, "ok", "x"))


def test_offending_pieces_are_placed_on_the_picture(tmp_path):
    table = _table(tmp_path / "t.db")
    table.to_image = lambda pts: [[x * 2 + 10, y * 2 + 5] for x, y in pts]
    table.image_size = (640, 480)
    table.submit(Setup("web-toy", ("suns", "moons")))
    table.submit(SceneSeen(S1))
    table.submit(SceneSeen(S2))
    v = table.state()["verdicts"][0]
    assert v["pieces_px"][0][:2] == [110.0, 5.0]
    assert v["pieces_px"][0][2] == 30.0  # a coin: 15 mm, at 2 px per mm
    assert v["image_size"] == [640, 480]


def test_an_event_the_log_cannot_store_does_not_happen(tmp_path):
    table = _table(tmp_path / "t.db")
    table.submit(Setup("web-toy", ("suns", "moons")))
    table.submit(SceneSeen(S1))
    before = table.state()
    real_append = table.log.append

    def full_disk(*a, **kw):
        raise sqlite3.OperationalError("database or disk is full")

    table.log.append = full_disk
    with pytest.raises(LogWriteError, match="disk is full"):
        table.submit(SceneSeen(S3))
    table.log.append = real_append
    after = table.state()
    assert after["turn"] == before["turn"] and after["next_seq"] == before["next_seq"]
    assert after["scene"] == S1.to_json()
    assert table.submit(SceneSeen(S3)).seq == before["next_seq"]


def test_a_doubt_is_shown_ringed_on_the_picture_until_something_is_judged(tmp_path):
    from tests.referee.worm_derby.helpers import D, course, line

    table = _table(tmp_path / "t.db")
    table.to_image = lambda pts: [[x * 2 + 10, y * 2 + 5] for x, y in pts]
    table.image_size = (640, 480)
    tile_at = tile(-5, 200)  # just beyond suns' head after three steps
    first = scene(course(obstacles=[tile_at]), line(-40, 0, 6, "suns"), line(40, 0, 6, "moons"))
    table.submit(Setup("worm-derby", ("suns", "moons")))
    table.submit(SceneSeen(first))
    table.submit(Roll("suns", "2"))
    # the tile not seen, one seen far off where none was (did it move?): a doubt
    done = table.submit(SceneSeen(scene(course(obstacles=[tile(150, 100)]),
                                        line(-40, 3 * D, 6, "suns"), line(40, 0, 6, "moons"))))
    assert [e.type for _, e in done.outputs] == ["doubt", "doubt"]
    st = table.state()
    assert st["doubt"]["where"] == [150.0, 100.0]  # the last doubt: the tile seen far off
    assert st["doubt"]["pieces_px"][-1][:2] == [310.0, 205.0]
    assert st["scene"] == first.to_json()  # a doubt changes nothing
    table.submit(SceneSeen(scene(course(obstacles=[tile_at]), line(-40, 2 * D, 6, "suns"),
                                 line(40, 0, 6, "moons"))))
    st = table.state()
    assert st["doubt"] is None and st["verdicts"][0]["rule"] == "ok"


def test_a_preview_says_what_the_referee_would_say_and_changes_nothing(tmp_path):
    table = _table(tmp_path / "t.db")
    table.submit(Setup("web-toy", ("suns", "moons")))
    table.submit(SceneSeen(S1))
    before = (table.next_seq, table.referee.state, table.record(), table.accepted)
    said = table.preview(SceneSeen(S2))
    assert said and all(isinstance(o, Verdict) for o in said)
    assert (table.next_seq, table.referee.state, table.record(), table.accepted) == before
    done = table.submit(SceneSeen(S2))
    assert [(o.rule, o.reason) for _, o in done.outputs] == [(o.rule, o.reason) for o in said]
