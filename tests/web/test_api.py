"""The contract's HTTP API: state, events (201/400), record, stream, the gap tool, games."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import pytest

from referee.record import fold
from tabletop.events import iter_record_lines
from tests.factories import coin, scene
from tests.web.conftest import start_game


def _scene_event(*pieces):
    return {"type": "scene", **scene(*pieces).to_json()}


def test_state_before_any_game_names_no_game(client):
    s = client.get("/api/state").json
    assert s["game"] is None and s["players"] == [] and s["verdicts"] == []
    assert s["scene"] is None
    assert s["source"]["state"] == "none"


def test_a_setup_then_a_roll_is_stored_and_judged(client):
    start_game(client)
    r = client.post("/api/events", json={"type": "roll", "player": "moons", "value": "ace"})
    assert r.status_code == 201
    body = r.json
    assert body["seq"] == 1 and body["event"]["type"] == "roll"
    assert body["outputs"][0]["rule"] == "turn" and body["outputs"][0]["seq"] == 1
    s = client.get("/api/state").json
    assert s["game"] == "web-toy" and s["players"] == ["suns", "moons"]
    assert s["verdicts"][0]["rule"] == "turn"


def test_verdicts_come_latest_first_and_the_accepted_table_is_shown(client):
    start_game(client)
    client.post("/api/events", json=_scene_event(coin(0, 0)))
    client.post("/api/events", json=_scene_event(coin(0, 0), coin(50, 0)))
    s = client.get("/api/state").json
    assert [v["rule"] for v in s["verdicts"]] == ["extra", "ok"]
    assert s["verdicts"][0]["pieces"] == [1]
    assert s["verdicts"][0]["judged_scene"]["pieces"][1]["x"] == 50
    assert len(s["scene"]["pieces"]) == 1  # the illegal table was not accepted
    assert len(s["last_seen"]["pieces"]) == 2


@pytest.mark.parametrize(("body", "message"), [
    ("{not json", "not valid JSON"),
    ("", "no body"),
    ("[1, 2]", "one JSON object"),
    ('{"type": "dance"}', "unknown event type"),
    ('{"type": "roll", "player": "suns", "value": "9"}', "'value' must be one of"),
    ('{"type": "verdict", "seq": 1, "player": null, "legal": true, "rule": "ok", '
     '"reason": "x"}', "output, not an input"),
])
def test_bad_events_are_400_with_a_message(client, body, message):
    start_game(client)
    r = client.post("/api/events", data=body, content_type="application/json")
    assert r.status_code == 400
    assert message in r.json["error"]


def test_an_event_before_any_setup_is_400(client):
    r = client.post("/api/events", json={"type": "roll", "player": "suns", "value": "3"})
    assert r.status_code == 400 and "no game" in r.json["error"]


def test_a_setup_the_game_refuses_is_400(client):
    r = client.post("/api/events", json={"type": "setup", "game": "chess", "players": ["a"]})
    assert r.status_code == 400 and "unknown game" in r.json["error"]


def test_only_json_bodies_are_read(client):
    start_game(client)
    r = client.post("/api/events", data='{"type": "undo"}', content_type="text/plain")
    assert r.status_code == 400 and "Content-Type: application/json" in r.json["error"]
    r = client.post("/api/events", data={"type": "undo"})  # a form
    assert r.status_code == 400


def test_a_too_large_body_is_refused(client):
    r = client.post("/api/events", data="x" * 200_000, content_type="application/json")
    assert r.status_code == 413
    assert "error" in r.json


def test_state_changes_need_post(client):
    assert client.get("/api/events").status_code == 405
    assert client.get("/api/events").json["error"]


def test_the_record_is_json_lines_that_replays_to_the_same_verdicts(client):
    start_game(client)
    client.post("/api/events", json=_scene_event(coin(0, 0)))
    client.post("/api/events", json={"type": "roll", "player": "suns", "value": "2"})
    client.post("/api/events", json=_scene_event(coin(0, 0), coin(50, 0)))
    client.post("/api/events", json={"type": "undo"})
    r = client.get("/api/record")
    assert r.mimetype == "application/x-ndjson"
    events = list(iter_record_lines(r.data.decode().splitlines()))
    assert events[0].type == "setup"
    stored = [replace(e, t=None) for e in events if not e.is_input]
    assert [e.type for e in stored] == ["verdict", "verdict", "verdict", "undone"]
    assert fold(events) == stored


def test_a_past_game_record_and_a_missing_one(client):
    start_game(client)
    start_game(client, players=("arms", "crowns"))
    games = client.get("/api/games").json
    assert [g["players"] for g in games] == [["arms", "crowns"], ["suns", "moons"]]
    old = client.get(f"/api/record?game={games[1]['id']}").data.decode()
    assert '"suns"' in old and '"arms"' not in old
    assert client.get("/api/record?game=99").status_code == 404
    assert client.get("/api/record?game=../../etc").status_code == 404


def _stream(client, since=0):
    text = client.get(f"/api/stream?once=1&since={since}").data.decode()
    out = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines()
                      if ": " in line and not line.startswith(":"))
        if "event" in fields:
            out.append((int(fields["id"]), fields["event"], json.loads(fields["data"])))
    return out


def test_the_stream_sends_one_message_per_output_event(client):
    start_game(client)
    client.post("/api/events", json={"type": "roll", "player": "moons", "value": "3"})
    msgs = _stream(client)
    kinds = [k for _, k, _ in msgs]
    assert kinds == ["game", "input", "verdict", "table"]
    verdict = msgs[2][2]
    assert verdict["rule"] == "turn" and verdict["position"] == 2
    ids = [i for i, _, _ in msgs]
    assert ids == sorted(ids)
    assert _stream(client, since=ids[-1]) == []
    r = client.get("/api/stream?once=1", headers={"Last-Event-ID": str(ids[1])})
    assert "event: verdict" in r.data.decode() and "event: game" not in r.data.decode()


def test_the_gap_tool_answers_and_is_shown_to_everyone(client):
    start_game(client)
    ring = [coin(200 + 45 * math.cos(a * math.pi / 8), 45 * math.sin(a * math.pi / 8))
            for a in range(16)]  # touching coins all round (200, 0)
    client.post("/api/events", json=_scene_event(coin(0, 0), *ring))
    r = client.post("/api/fit", json={"from": [0, 0], "to": [200, 0]})
    assert r.status_code == 200
    assert r.json["fits"] is False
    assert r.json["clearance_mm"] < 19.05
    r = client.post("/api/fit", json={"from": [0, 0], "to": [0, 150]})
    assert r.json["fits"] is True and len(r.json["path"]) >= 2
    assert client.get("/api/state").json["fit"]["to"] == [0, 150]


@pytest.mark.parametrize("body", [{}, {"from": [0, 0]}, {"from": [0], "to": [1, 1]},
                                  {"from": ["a", 0], "to": [1, 1]},
                                  {"from": [True, 0], "to": [1, 1]}])
def test_the_gap_tool_refuses_bad_points(client, body):
    start_game(client)
    client.post("/api/events", json=_scene_event(coin(0, 0)))
    r = client.post("/api/fit", json=body)
    assert r.status_code == 400 and "point" in r.json["error"]


def test_the_gap_tool_needs_a_table(client):
    start_game(client)
    r = client.post("/api/fit", json={"from": [0, 0], "to": [1, 1]})
    assert r.status_code == 400 and "no table" in r.json["error"]


SETUP = '{"type": "setup", "game": "web-toy", "players": ["suns", "moons"], "options": %s}'


@pytest.mark.parametrize(("body", "message"), [
    ('{"type": "roll", "player": "suns", "value": ' + "9" * 400 + "}", "too large"),
    ('{"type": "roll", "player": "suns", "value": ' + "9" * 5000 + "}", "too large"),
    ('{"type": "scene", "pieces": [{"kind": "coin", "x": 1e400, "y": 0}]}', "too large"),
    ('{"type": "scene", "pieces": [{"kind": "tile", "x": 1000000, "y": 0}]}', "off any table"),
    ('{"type": "roll", "player": "suns", "value": NaN}', "NaN is not JSON"),
    ('{"type": "roll", "player": "\\ud800", "value": "3"}', "lone surrogate"),
    ("[" * 1000 + "]" * 1000, "nested"),
    ('{"a": ' * 100 + "1" + "}" * 100, "nested"),
    (SETUP % '{"sizes": [1]}', "'sizes' must be an object"),
    (SETUP % '{"sizes": {"tile_mm": 1e7}}', "tile_mm must be"),
    (SETUP % '{"sizes": {"coin_mm": 1e308}}', "coin_mm must be"),
    (SETUP % '{"speed": Infinity}', "Infinity is not JSON"),
    (SETUP % '{"spede": 2}', "unknown option 'spede'"),
    ('{"type": "setup", "game": "web-toy", "players": ["' + "x" * 500 + '"]}', "at most 40"),
    ('{"type": "roll", "player": "arms", "value": "3"}', "does not play in this game"),
])
def test_hostile_events_are_400_naming_the_field_and_nothing_is_stored(client, body, message):
    start_game(client)
    before = client.get("/api/record").data
    r = client.post("/api/events", data=body, content_type="application/json")
    assert r.status_code == 400, r.data
    assert message in r.json["error"]
    assert client.get("/api/record").data == before


def test_worm_derby_refuses_an_option_it_does_not_know(client):
    r = client.post("/api/events", json={"type": "setup", "game": "worm-derby",
                                         "players": ["suns", "moons"],
                                         "options": {"canibal": True}})
    assert r.status_code == 400 and "unknown option 'canibal'" in r.json["error"]


@pytest.mark.parametrize("url", ["/history/" + "9" * 5000, "/history/9223372036854775808",
                                 "/history/9223372036854775808/steps.json",
                                 "/history/1/frame/99999999999999999999.jpg",
                                 "/api/record?game=%C2%B2", "/api/record?game=" + "9" * 5000,
                                 "/api/record?game=9223372036854775808"])
def test_ids_beyond_any_game_are_404_not_500(client, url):
    start_game(client)
    r = client.get(url)
    assert r.status_code == 404 and "error" in json.loads(r.data)


def test_a_retried_event_with_the_same_idempotency_key_is_stored_once(client):
    start_game(client)
    roll = {"type": "roll", "player": "suns", "value": "3"}
    first = client.post("/api/events", json=roll, headers={"Idempotency-Key": "phone-1:17"})
    again = client.post("/api/events", json=roll, headers={"Idempotency-Key": "phone-1:17"})
    assert first.status_code == 201 and again.status_code == 200 and again.json["replayed"]
    assert again.json["seq"] == first.json["seq"]
    assert again.json["outputs"] == first.json["outputs"]
    other = client.post("/api/events", json=roll, headers={"Idempotency-Key": "phone-1:18"})
    assert other.status_code == 201
    rolls = [e for e in iter_record_lines(client.get("/api/record").data.decode().splitlines())
             if e.type == "roll"]
    assert len(rolls) == 2
    r = client.post("/api/events", json=roll, headers={"Idempotency-Key": "bad key!"})
    assert r.status_code == 400 and "Idempotency-Key" in r.json["error"]


def test_the_gap_tool_refuses_points_off_the_table_and_a_table_too_long_to_search(client):
    start_game(client)
    client.post("/api/events", json=_scene_event(coin(0, 0)))
    r = client.post("/api/fit", json={"from": [0, 0], "to": [1e6, 0]})
    assert r.status_code == 400 and "off any table" in r.json["error"]
    tiles = [{"kind": "tile", "x": 60.0 * (i % 40), "y": 60.0 * (i // 40), "angle_deg": 0.0,
              "face": "down"} for i in range(600)]
    assert client.post("/api/events", json={"type": "scene", "pieces": tiles}).status_code == 201
    r = client.post("/api/fit", json={"from": [0, 0], "to": [100, 0]})
    assert r.status_code == 400 and "too large a table for a gap check" in r.json["error"]
