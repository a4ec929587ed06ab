"""``tabletop replay``, ``serve`` and ``demo`` on the command line: output, progress, errors."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from calibration.model import Calibration
from live.log import GameLog
from referee.record import fold
from tabletop.cli import main
from tabletop.events import iter_record_lines
from tests.factories import coin, scene
from tests.web.fakes import fake_vision, frame_of

SCENES = [scene(coin(0, 0)), scene(coin(30, 0)), scene(coin(30, 0), coin(90, 0))]


@pytest.fixture
def recording(tmp_path, monkeypatch):
    """A folder of three pictures, a calibration, and fake vision in place of the real one."""
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(3):
        cv2.imwrite(str(folder / f"{i:03d}.png"), frame_of(i))
    cal = tmp_path / "cal.json"
    Calibration((64, 48), np.eye(3)).save(cal)
    monkeypatch.setattr("live.vision_glue.load_vision",
                        lambda c, game=None, pieces=None, area_mm=None: fake_vision(SCENES,
                                                                                  still=3))
    return folder, cal


def test_replay_prints_a_record_that_replays_to_the_same_verdicts(recording, capsys):
    folder, cal = recording
    code = main(["replay", str(folder), "--calibration", str(cal), "--game", "web-toy",
                 "--players", "suns,moons", "--repeat", "4"])
    out, err = capsys.readouterr()
    assert code == 0
    events = list(iter_record_lines(out.splitlines()))
    assert events[0].type == "setup" and events[0].players == ("suns", "moons")
    verdicts = [e for e in events if e.type == "verdict"]
    assert [v.rule for v in verdicts] == ["ok", "ok", "extra"]
    assert [(v.seq, v.rule) for v in fold(events)] == [(v.seq, v.rule) for v in verdicts]
    assert "12/12 frames" in err and "replay: 12 frames done" in err


def test_replay_into_a_log(recording, tmp_path, capsys):
    folder, cal = recording
    db = tmp_path / "out" / "game.db"
    assert main(["replay", str(folder), "--calibration", str(cal), "--game", "web-toy",
                 "--db", str(db), "--repeat", "4"]) == 0
    out, err = capsys.readouterr()
    assert out == "" and "stored in" in err
    log = GameLog(db)
    assert [e.type for e in log.events(log.latest_game())].count("verdict") == 3
    assert len(log.snapshot_seqs(log.latest_game())) == 3


@pytest.mark.parametrize(("args", "code", "message"), [
    (["replay", "{folder}", "--calibration", "{tmp}/missing.json", "--game", "web-toy"], 1,
     "no such calibration file"),
    (["replay", "{folder}", "--calibration", "{cal}", "--game", "chess"], 1, "unknown game"),
    (["replay", "{tmp}/nowhere.mp4", "--calibration", "{cal}", "--game", "web-toy"], 1,
     "no such video file"),
    (["replay", "0", "--calibration", "{cal}", "--game", "web-toy"], 2, "not a camera"),
    (["replay", "{folder}", "--calibration", "{cal}", "--game", "web-toy", "--options", "[1]"],
     2, "JSON object"),
    (["serve", "--camera", "0", "--port", "0", "--db", "{tmp}/x.db"], 2, "need --calibration"),
    (["serve", "--game", "chess", "--port", "0", "--db", "{tmp}/x.db"], 1, "unknown game"),
    (["demo", "--sample", "{tmp}", "--port", "0"], 1, "sample playthrough is not there"),
    (["replay", "{folder}", "--calibration", "{cal}", "--game", "web-toy", "--area", "1,2,3"],
     2, "not X0,Y0,X1,Y1"),
    (["replay", "{folder}", "--calibration", "{cal}", "--game", "web-toy", "--area",
      "0,0,-5,10"], 2, "X1 must exceed X0"),
])
def test_bad_input_is_one_line_and_an_exit_code(recording, tmp_path, capsys, args, code, message):
    folder, cal = recording
    argv = [a.format(folder=folder, cal=cal, tmp=tmp_path) for a in args]
    try:
        got = main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        got = exc.code
    assert got == code
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_replay_options_go_into_the_setup(recording, capsys):
    folder, cal = recording
    assert main(["replay", str(folder), "--calibration", str(cal), "--game", "web-toy",
                 "--options", json.dumps({"speed": 2}), "--repeat", "4"]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert first["options"] == {"speed": 2}


def test_serve_on_a_busy_port_is_one_clear_line(tmp_path, capsys):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", str(tmp_path / "x.db")]) == 1
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1:{port}" in err and len(err.strip().splitlines()) == 1
