"""A recorded game with its expected verdicts, run through ``tabletop referee`` (regression).

``data/basic_race.jsonl``: two worms of length 2 on a small table (a warning), a roll out of
turn, a hand over the table (not judged), too few steps when more were possible, a second try,
an ace moving the obstacle, a null roll, too many steps, then suns going round the pylon's far
side and finishing between the start tiles. ``*.expected.jsonl`` holds the outputs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.cli import main

DATA = Path(__file__).parent / "data"
RECORDS = sorted(DATA.glob("*.jsonl"))
RECORDS = [p for p in RECORDS if not p.name.endswith(".expected.jsonl")]


@pytest.mark.parametrize("record", RECORDS, ids=[p.stem for p in RECORDS])
def test_recorded_game_gives_the_expected_verdicts(record, capsys):
    assert main(["referee", str(record)]) == 0
    got = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    expected = [json.loads(line) for line in
                record.with_suffix(".expected.jsonl").read_text().splitlines()]
    assert [(e["type"], e.get("seq"), e.get("legal"), e.get("rule")) for e in got] == \
        [(e["type"], e.get("seq"), e.get("legal"), e.get("rule")) for e in expected]
    assert got == expected


def test_recorded_game_has_every_kind_of_outcome():
    expected = [json.loads(line) for line in
                (DATA / "basic_race.expected.jsonl").read_text().splitlines()]
    rules = {e["rule"] for e in expected if e["type"] == "verdict"}
    assert {"ok", "turn", "steps"} <= rules
    assert [e["type"] for e in expected[-2:]] == ["finish", "winner"]
    assert any(e["type"] == "rounded" for e in expected)


SAMPLE = Path(__file__).resolve().parents[3] / "sample_images" / "worm_derby" / "record.jsonl"


def test_the_bundled_sample_playthrough_is_judged_as_its_readme_says(capsys):
    if not SAMPLE.exists():
        pytest.skip("sample_images/worm_derby is absent")
    assert main(["referee", str(SAMPLE)]) == 0
    got = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    verdicts = [(e["seq"], e["rule"]) for e in got if e["type"] == "verdict"]
    assert verdicts == [(1, "ok"), (3, "ok"), (5, "ok"), (7, "ok"), (9, "steps"), (10, "ok"),
                        (12, "ok")]
    assert any(e["type"] == "notice" and "small table" in e["message"] for e in got)
