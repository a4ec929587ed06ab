"""Whole recorded games of Worm Up! through ``tabletop referee``, against expected outputs.

Each ``data/<name>.jsonl`` is a game record; ``data/<name>.expected.jsonl`` holds the outputs
checked by hand (see ``data/make_game1.py`` for what each scene of game 1 does).
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from referee.record import fold
from tabletop.cli import main
from tabletop.events import read_record

DATA = Path(__file__).resolve().parent / "data"
GAMES = sorted(p for p in DATA.glob("*.jsonl") if not p.name.endswith(".expected.jsonl"))
ROOT = Path(__file__).resolve().parents[3]


def _expected(record: Path) -> list[dict]:
    path = record.with_name(record.name.replace(".jsonl", ".expected.jsonl"))
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_there_are_recorded_games():
    assert GAMES


@pytest.mark.parametrize("record", GAMES, ids=lambda p: p.stem)
def test_recorded_game_gives_the_expected_verdicts(record, capsys):
    assert main(["referee", str(record)]) == 0
    got = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    expected = _expected(record)
    for i, (g, e) in enumerate(zip(got, expected, strict=False)):
        assert g == e, f"output line {i + 1} differs"
    assert len(got) == len(expected)


def test_game1_has_each_foul_once_and_red_wins():
    out = _expected(DATA / "game1.jsonl")
    fouls = Counter(o["rule"] for o in out if o["type"] == "verdict" and not o["legal"])
    assert fouls == {"turn": 1, "order": 2, "bid": 1, "steps": 1, "post": 1,
                     "shape": 1, "touch": 1}
    # a segment gone during play is a doubt (a misread first), never a foul
    assert [o["type"] for o in out if "segments on the table" in o.get("reason", "")] == \
        ["doubt"]
    reveals = [o for o in out if o["type"] == "notice"]
    assert [r["data"]["round"] for r in reveals] == [1, 2, 3, 4, 5, 6, 7]
    assert reveals[1]["data"]["order"][0] == {"player": "yellow", "bid": "X", "number": None,
                                             "free": [4, 7]}
    assert [o for o in out if o["type"] in ("finish", "winner")] == [
        {"type": "finish", "player": "red", "place": 1, "seq": 50},
        {"type": "winner", "player": "red", "seq": 50}]


def test_a_replay_of_game1_gives_the_same_outputs():
    events = read_record(DATA / "game1.jsonl")
    assert fold(events) == fold(events)


def test_tabletop_referee_runs_as_a_command():
    proc = subprocess.run([sys.executable, "-m", "tabletop", "referee",
                           str(DATA / "game1.jsonl")], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert [json.loads(line) for line in proc.stdout.splitlines()] == _expected(
        DATA / "game1.jsonl")


@pytest.mark.parametrize(("setup", "words"), [
    ('"players": ["red", "yellow"]', "3 to 5 players"),
    ('"players": ["red", "yellow", "pink"]', "segment colours"),
    ('"players": ["red", "yellow", "blue"], "options": {"strip_mm": 3}', "unknown option"),
])
def test_a_bad_setup_is_one_line_of_error(tmp_path, capsys, setup, words):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "setup", "game": "worm-up", ' + setup + "}\n")
    assert main(["referee", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("tabletop: error: ") and err.count("\n") == 1 and words in err
    assert str(bad) in err


def test_game2_x_without_a_free_number_and_post_moves():
    out = _expected(DATA / "game2.jsonl")
    fouls = [(o["seq"], o["rule"]) for o in out if o["type"] == "verdict" and not o["legal"]]
    assert fouls == [(1, "setup"), (9, "turn"), (19, "bid"), (21, "post"), (33, "post")]
    assert [o["seq"] for o in out if o["type"] == "doubt"] == [24]  # a finish post not seen
    post_moves = [o for o in out if o["type"] == "verdict" and o["legal"]
                  and "finish post" in o["reason"]]
    assert [(o["seq"], o["player"]) for o in post_moves] == [(10, "purple"), (34, "yellow")]
    assert not any(o["type"] in ("finish", "winner") for o in out)


def test_game2_ends_with_the_finish_line_where_yellow_put_it():
    from referee.record import Referee

    referee = Referee()
    for seq, event in enumerate(read_record(DATA / "game2.jsonl")):
        referee.push(event, seq)
    d = referee.describe()
    assert d["round"] == 4 and d["phase"] == "bidding" and d["x_post_move"] is None
    assert d["tiles"]["yellow"] == {"available": ["4", "5", "6", "7"], "resting": "X"}
    assert d["tiles"]["green"]["resting"] is None  # green's 6 was cancelled
    (ax, ay), (bx, by) = d["finish_line_mm"]
    assert math.hypot(bx - ax, by - ay) == pytest.approx(300.0, abs=15.0)
    assert (ax, ay) != (0.0, 650.0) and (bx, by) != (300.0, 650.0)  # both moved, one at a time
