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
from tabletop.events import Doubt, Verdict
from tests.factories import coin
from tests.referee.worm_derby.helpers import (
    D,
    course,
    is_one_plain_sentence,
    line,
    new_game,
    seen,
)

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
    assert any(e["type"] == "notice" and "Small table" in e["message"] for e in got)


def test_every_reason_and_message_is_one_plain_sentence(capsys):
    records = [DATA / "basic_race.jsonl"] + ([SAMPLE] if SAMPLE.exists() else [])
    for record in records:
        assert main(["referee", str(record)]) == 0
        got = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        texts = [e["reason"] for e in got if e["type"] == "verdict"]
        texts += [e["message"] for e in got if e["type"] == "notice"]
        assert texts and all(is_one_plain_sentence(t) for t in texts), texts


@pytest.mark.parametrize(("pieces", "rule"), [
    ([], "doubt"),  # nothing seen: a misread could explain it, so the table is asked
    ([*course(pylon_y=400), *line(-40, 0, 5, "suns"), *line(40, 0, 6, "moons")], "doubt"),
    ([*course(pylon_y=400), *line(-40, 0, 6, "suns")], "doubt"),
    ([*course(pylon_y=400), *line(-40, 0, 5, "suns"), coin(-40 + 12, 5 * D - 3, "suns"),
      *line(40, 0, 6, "moons")], "setup"),  # not straight: no misread explains that
])
def test_setup_problems_are_plain_sentences_naming_the_suit_right(pieces, rule):
    game = new_game()
    step = game.step(game.initial_state(), seen(pieces), 1)
    (out,) = step.outputs
    if rule == "doubt":
        assert isinstance(out, Doubt) and out.reason.endswith("?"), out
        assert is_one_plain_sentence(out.reason[:-1] + "."), out.reason
    else:
        assert isinstance(out, Verdict) and out.rule == rule, out
        assert is_one_plain_sentence(out.reason), out.reason
    assert "s's" not in str(out)
