"""Events of the game record: every type round-trips, malformed lines are named."""

from __future__ import annotations

import json

import pytest

from tabletop.errors import RecordFormatError
from tabletop.events import (
    Verdict,
    dumps_record,
    iter_record_lines,
    parse_event,
    read_record,
)

LINES = [
    {"type": "setup", "game": "worm-derby", "players": ["suns", "moons"],
     "options": {"variant": "basic", "cannibal": False, "lengths": {"suns": 6}}},
    {"type": "scene", "hand": False, "pieces": [{"kind": "coin", "x": 1.0, "y": 2.0,
                                                 "suit": "suns"}]},
    {"type": "roll", "player": "suns", "value": "3"},
    {"type": "roll", "player": "suns", "value": "ace", "t": 1700000000.5},
    {"type": "bid", "player": "red", "bid": "X", "number": 5},
    {"type": "bid", "player": "red", "bid": "4"},
    {"type": "move", "player": "first", "from": "g3", "to": "g4"},
    {"type": "correction", "op": "add", "piece": {"kind": "post", "x": 1.0, "y": 1.0}},
    {"type": "correction", "op": "remove", "index": 2},
    {"type": "correction", "op": "change", "index": 0,
     "piece": {"kind": "coin", "x": 1.0, "y": 2.0, "suit": "arms"}},
    {"type": "accept"},
    {"type": "undo"},
    {"type": "verdict", "seq": 1, "player": "suns", "legal": False, "rule": "gap",
     "reason": "too narrow", "pieces": [0, 3], "where": [1.5, 2.5]},
    {"type": "verdict", "seq": 1, "player": None, "legal": True, "rule": "ok", "reason": "fine"},
    {"type": "rounded", "player": "suns"},
    {"type": "finish", "player": "suns", "place": 1},
    {"type": "winner", "player": "suns", "seq": 9},
    {"type": "undone", "seq": 11, "undone_seq": 1},
    {"type": "notice", "seq": 0, "message": "small table", "level": "warning",
     "data": {"a": [1, 2]}},
]


@pytest.mark.parametrize("obj", LINES, ids=[f"{o['type']}-{i}" for i, o in enumerate(LINES)])
def test_every_event_type_round_trips_to_the_same_json(obj):
    event = parse_event(obj)
    assert event.to_json() == obj
    assert parse_event(json.loads(event.dumps())) == event


def test_numbers_for_rolls_and_bids_are_read_as_their_names():
    assert parse_event({"type": "roll", "player": "a", "value": 4}).value == "4"
    assert parse_event({"type": "bid", "player": "a", "bid": 6}).bid == "6"


@pytest.mark.parametrize(("obj", "message"), [
    ([], "must be a JSON object"),
    ({"type": "jump"}, "unknown event type"),
    ({"type": "roll", "player": "a", "value": "6"}, "'value' must be one of"),
    ({"type": "roll", "value": "3"}, "missing field 'player'"),
    ({"type": "bid", "player": "a", "bid": "4", "number": 5}, "only with an X"),
    ({"type": "bid", "player": "a", "bid": "X", "number": 9}, "4..7"),
    ({"type": "move", "player": "a", "from": "z", "to": "a2"}, "square like 'a1'"),
    ({"type": "setup", "game": "x", "players": []}, "non-empty list"),
    ({"type": "setup", "game": "x", "players": ["a", "a"]}, "named twice"),
    ({"type": "scene", "pieces": [{"kind": "coin"}]}, "missing field 'x'"),
    ({"type": "correction", "op": "remove"}, "'index' must be an integer"),
    ({"type": "roll", "player": "a", "value": "3", "dice": 2}, "unknown field 'dice'"),
    ({"type": "roll", "player": "a", "value": "3", "t": "noon"}, "'t' must be a number"),
])
def test_malformed_events_are_refused_with_a_reason(obj, message):
    with pytest.raises(RecordFormatError, match=message):
        parse_event(obj)


def test_record_errors_name_the_line(tmp_path):
    f = tmp_path / "game.jsonl"
    f.write_text('{"type": "undo"}\n\n{"type": "roll"\n')
    with pytest.raises(RecordFormatError, match=r"game.jsonl: line 3: not valid JSON"):
        read_record(f)


def test_record_writes_and_reads_back(tmp_path):
    events = [parse_event(o) for o in LINES]
    f = tmp_path / "r.jsonl"
    f.write_text(dumps_record(events))
    assert read_record(f) == events
    assert list(iter_record_lines(dumps_record(events).splitlines())) == events


def test_verdict_is_frozen():
    v = Verdict(0, "a", True, "ok", "fine")
    with pytest.raises(AttributeError):
        v.legal = False  # type: ignore[misc]
