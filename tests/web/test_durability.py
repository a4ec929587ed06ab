"""A server killed with SIGKILL mid-game loses nothing it had shown; restarted, the game goes on.

A feeder posts a game's events (stable tables, rolls) as fast as it can while a listener on
``/api/stream`` notes every verdict the pages were shown. The server is killed with SIGKILL in
the middle; a new server on the same log must hold every verdict shown, with its input, and the
game must go on from there.
"""

from __future__ import annotations

import http.client
import json
import signal
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from tests.factories import coin, scene
from tests.web.servers import start_process, stop_process


def _post(url, obj):
    req = urllib.request.Request(url, json.dumps(obj).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=5) as r:
        return json.loads(r.read())


def _get(url):
    with urllib.request.urlopen(url, timeout=5) as r:
        return r.read().decode()


def _listen(url, shown, ready):
    try:
        with urllib.request.urlopen(url + "/api/stream", timeout=30) as r:
            ready.set()
            kind = None
            for raw in r:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: ") and kind == "verdict":
                    shown.append(json.loads(line[6:]))
    except (OSError, http.client.HTTPException):
        pass  # the server was killed (between chunks, or mid-chunk: IncompleteRead)


def _feed(url, stop, accepted):
    n = 0
    while not stop.is_set():
        x = 30.0 * (n % 20)
        event = ({"type": "scene", **scene(coin(x, 0), coin(x, 40)).to_json()} if n % 3
                 else {"type": "roll", "player": "suns", "value": "3"})
        try:
            accepted.append(_post(url + "/api/events", event))
        except OSError:
            return
        n += 1


@pytest.mark.slow
def test_a_kill_9_loses_nothing_shown_and_the_game_goes_on(tmp_path):
    db = tmp_path / "table.db"
    proc, url = start_process(["serve", "--db", str(db), "--port", "0", "--game", "web-toy",
                               "--players", "suns,moons"])
    shown: list[dict] = []
    accepted: list[dict] = []
    ready, stop = threading.Event(), threading.Event()
    try:
        listener = threading.Thread(target=_listen, args=(url, shown, ready), daemon=True)
        listener.start()
        assert ready.wait(10)
        feeder = threading.Thread(target=_feed, args=(url, stop, accepted), daemon=True)
        feeder.start()
        deadline = time.monotonic() + 40
        while len(shown) < 25 and time.monotonic() < deadline:
            time.sleep(0.01)
        stop_process(proc, signal.SIGKILL)  # mid-game, the feeder still posting
    finally:
        stop.set()
        stop_process(proc, signal.SIGKILL)
    assert len(shown) >= 25, "the game did not get going"
    feeder.join(10)
    listener.join(10)

    proc, url = start_process(["serve", "--db", str(db), "--port", "0"])
    try:
        record = [json.loads(x) for x in _get(url + "/api/record").splitlines()]
        stored = {i: e for i, e in enumerate(record)}
        for v in shown:
            assert stored[v["position"]]["type"] == "verdict"
            assert stored[v["position"]]["reason"] == v["reason"]
            assert stored[v["seq"]]["type"] in ("scene", "roll")
        for a in accepted:  # every 201 the feeder got back is in the log too
            assert stored[a["seq"]]["type"] == a["event"]["type"]
        state = json.loads(_get(url + "/api/state"))
        assert state["game"] == "web-toy" and state["next_seq"] == len(record)
        turn = state["turn"]
        done = _post(url + "/api/events", {"type": "roll", "player": turn, "value": "ace"})
        assert done["seq"] == len(record) and done["outputs"] == []
        other = "moons" if turn == "suns" else "suns"
        done = _post(url + "/api/events", {"type": "roll", "player": other, "value": "2"})
        assert done["outputs"][0]["rule"] == "turn"
    finally:
        stop_process(proc)


SAMPLE = Path(__file__).resolve().parents[2] / "sample_images" / "worm_derby"


@pytest.mark.slow
def test_a_kill_9_mid_replay_of_the_sample_loses_no_verdict_shown(tmp_path):
    if not (SAMPLE / "script.jsonl").is_file():
        pytest.skip("the sample playthrough is not there")
    db = tmp_path / "table.db"
    proc, url = start_process(["serve", "--source", str(SAMPLE), "--calibration",
                               str(SAMPLE / "calibration.json"), "--area", "auto",
                               "--repeat", "4", "--db", str(db), "--port", "0"])
    shown: list[dict] = []
    ready = threading.Event()
    try:
        listener = threading.Thread(target=_listen, args=(url, shown, ready), daemon=True)
        listener.start()
        assert ready.wait(10)
        deadline = time.monotonic() + 60
        while len(shown) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        stop_process(proc, signal.SIGKILL)  # mid-replay: the pipeline is still running
    finally:
        stop_process(proc, signal.SIGKILL)
    listener.join(10)
    assert len(shown) >= 3, "the replay gave no verdicts"
    proc, url = start_process(["serve", "--db", str(db), "--port", "0"])
    try:
        record = [json.loads(x) for x in _get(url + "/api/record").splitlines()]
        for v in shown:
            assert record[v["position"]]["type"] == "verdict"
            assert record[v["position"]]["reason"] == v["reason"]
        state = json.loads(_get(url + "/api/state"))
        assert state["game"] == "worm-derby" and state["next_seq"] == len(record)
        done = _post(url + "/api/events", {"type": "undo"})  # the game goes on
        assert done["seq"] == len(record)
        assert done["outputs"][0]["type"] in ("undone", "verdict")
    finally:
        stop_process(proc)


# ----------------------------------------------------------------------------- disk faults

class _Faulty:
    """A log connection whose writes fail as SQLite fails them (disk full, read-only)."""

    def __init__(self, db, error: str) -> None:
        self._db = db
        self.error = error
        self.on = False

    def execute(self, sql, *args):
        if self.on and sql.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")):
            import sqlite3

            raise sqlite3.OperationalError(self.error)
        return self._db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self._db, name)


def _play(client, n, start=0):
    """Posts ``n`` events of a game of web-toy; returns the answers."""
    out = []
    for i in range(start, start + n):
        event = ({"type": "scene", **scene(coin(30.0 * i, 0), coin(30.0 * i, 40)).to_json()}
                 if i % 2 else {"type": "roll", "player": "suns", "value": "3"})
        out.append(client.post("/api/events", json=event))
    return out


def _acknowledged_are_stored(make_app, db, answers):
    """Every 201 is in a fresh server's record, at its seq; returns that server's client."""
    client = make_app(LOG_PATH=str(db)).test_client()
    record = [json.loads(x) for x in client.get("/api/record").data.decode().splitlines()]
    for r in answers:
        if r.status_code == 201:
            assert record[r.json["seq"]]["type"] == r.json["event"]["type"]
            assert record[r.json["seq"]].get("t") == r.json["event"].get("t")
    return client, record


@pytest.mark.parametrize(("error", "words"), [
    ("database or disk is full", "disk is full"),           # ENOSPC in the log's writes
    ("attempt to write a readonly database", "readonly"),   # the file made read-only
])
def test_a_log_that_cannot_be_written_refuses_clearly_loses_nothing_and_resumes(
        make_app, tmp_path, error, words):
    db = tmp_path / "table.db"
    app = make_app(LOG_PATH=str(db))
    client = app.test_client()
    start = client.post("/api/events", json={"type": "setup", "game": "web-toy",
                                             "players": ["suns", "moons"]})
    answers = [start, *_play(client, 6)]
    log = app.extensions["tabletop"].log
    faulty = _Faulty(log._db, error)
    log._db = faulty
    faulty.on = True  # mid-game
    refused = _play(client, 3, start=6)
    for r in refused:
        assert r.status_code == 503
        assert words in r.json["error"] and "nothing was changed" in r.json["error"]
    assert all(r.status_code == 201 for r in answers)
    faulty.on = False  # space freed / made writable: the game goes on where it was
    later = _play(client, 4, start=6)
    assert all(r.status_code == 201 for r in later)
    assert later[0].json["seq"] == answers[-1].json["seq"] + 1 + len(answers[-1].json["outputs"])
    _, record = _acknowledged_are_stored(make_app, db, answers + later)
    assert sum(1 for e in record if e["type"] in ("scene", "roll")) == 10


def test_a_read_only_log_file_at_start_is_one_clear_line(tmp_path):
    import sqlite3

    from live.log import GameLog, LogError

    db = tmp_path / "table.db"
    GameLog(db).close()
    uri = f"file:{db}?mode=ro"  # a read-only file, as a non-root user would have it
    original = sqlite3.connect

    def read_only(path, *a, **kw):
        return original(uri, *a, uri=True, **kw) if str(path) == str(db) else \
            original(path, *a, **kw)

    sqlite3.connect = read_only
    try:
        with pytest.raises(LogError, match="read-only"):
            GameLog(db)
    finally:
        sqlite3.connect = original


def test_the_logs_folder_deleted_mid_game_is_written_again_and_nothing_is_lost(
        make_app, tmp_path, capfd):
    import shutil

    folder = tmp_path / "logs"
    folder.mkdir()
    db = folder / "table.db"
    app = make_app(LOG_PATH=str(db))
    client = app.test_client()
    start = client.post("/api/events", json={"type": "setup", "game": "web-toy",
                                             "players": ["suns", "moons"]})
    answers = [start, *_play(client, 5)]
    shutil.rmtree(folder)  # mid-game
    later = _play(client, 4, start=5)
    assert all(r.status_code == 201 for r in answers + later)
    assert db.is_file()
    assert "deleted while open" in capfd.readouterr().err
    assert app.extensions["tabletop"].log.notes
    _, record = _acknowledged_are_stored(make_app, db, answers + later)
    assert sum(1 for e in record if e["type"] in ("scene", "roll")) == 9


@pytest.mark.slow
def test_a_killed_replay_into_a_log_resumes_where_it_stopped(tmp_path):
    import os
    import sqlite3
    import subprocess
    import sys

    if not (SAMPLE / "script.jsonl").is_file():
        pytest.skip("the sample playthrough is not there")

    def args(db):
        return [sys.executable, "-m", "tabletop", "replay", str(SAMPLE), "--calibration",
                str(SAMPLE / "calibration.json"), "--game", "worm-derby", "--area", "auto",
                "--db", str(db)]

    def record(db):
        with sqlite3.connect(db) as c:
            games = c.execute("SELECT count(*) FROM games").fetchone()[0]
            rows = c.execute("SELECT body FROM events ORDER BY game_id, seq").fetchall()
        return games, [{k: v for k, v in json.loads(b).items() if k != "t"} for (b,) in rows]

    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    whole = tmp_path / "whole.db"
    subprocess.run(args(whole), cwd=root, env=env, check=True, capture_output=True, timeout=120)
    killed = tmp_path / "killed.db"
    proc = subprocess.Popen(args(killed), cwd=root, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    stored = 0
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            with sqlite3.connect(killed) as c:
                stored = c.execute("SELECT count(*) FROM events").fetchone()[0]
        except sqlite3.Error:
            pass
        if stored >= 8:
            proc.kill()  # SIGKILL mid-replay
            break
        time.sleep(0.02)
    proc.wait(10)
    assert 8 <= stored < len(record(whole)[1]), "the replay was not stopped half-way"
    again = subprocess.run(args(killed), cwd=root, env=env, capture_output=True, text=True,
                           timeout=120)
    assert again.returncode == 0 and "resuming game 1" in again.stderr
    assert record(killed) == record(whole)  # one game, every event once, the same verdicts


def test_a_log_written_before_the_input_checks_still_opens_and_resumes(make_app, tmp_path):
    from live.log import GameLog
    from tabletop.events import SceneSeen, Setup
    from tabletop.scene import Piece, Scene

    db = tmp_path / "old.db"
    log = GameLog(db)  # what an older version let through: NaN options, a piece 20 m away
    game = log.new_game(Setup("web-toy", ("suns", "moons"), {"speed": float("nan")}))
    log.append(game, [(1, SceneSeen(Scene.of([Piece("coin", 20000.0, 0.0)])))])
    log.close()
    client = make_app(LOG_PATH=str(db)).test_client()
    state = client.get("/api/state").json
    assert state["game"] == "web-toy" and state["next_seq"] == 2
    r = client.post("/api/events", json={"type": "roll", "player": "suns", "value": "3"})
    assert r.status_code == 201 and r.json["seq"] == 2
