"""Worm Up! bids typed on the dashboard (``POST /api/events``) stay secret on every stream and
page until every player has bid; the log keeps them, so a replay judges them again."""

from __future__ import annotations

import json

from referee.record import fold
from tabletop.events import iter_record_lines


def _messages(client) -> list[tuple[str, dict]]:
    text = client.get("/api/stream?once=1&since=0").data.decode()
    out, name = [], ""
    for line in text.splitlines():
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            out.append((name, json.loads(line[6:])))
    return out


def _bids_shown(client) -> list[str]:
    """Every place a page could show a bid's value: stream, state, record, history."""
    shown = [json.dumps(d) for _, d in _messages(client)]
    shown.append(json.dumps(client.get("/api/state").json))
    shown.append(client.get("/api/record").data.decode())
    game = client.get("/api/state").json["game_id"]
    shown.append(json.dumps(client.get(f"/history/{game}/steps.json").json))
    shown.append(client.get("/history/export?format=moves").data.decode())
    return shown


def test_a_typed_bid_is_told_as_has_bid_and_its_value_only_at_the_reveal(worm_up):
    c = worm_up.test_client()
    for player, bid in (("red", "6"), ("yellow", "X")):
        r = c.post("/api/events", json={"type": "bid", "player": player, "bid": bid})
        assert r.status_code == 201, r.json
    inputs = [d["event"] for name, d in _messages(c) if name == "input"
              and d["event"]["type"] == "bid"]
    assert [(e["player"], e["message"]) for e in inputs] == [("red", "red has bid"),
                                                            ("yellow", "yellow has bid")]
    for text in _bids_shown(c):
        assert '"bid": "6"' not in text and '"bid": "X"' not in text, text
        assert "bid red 6" not in text and "bid yellow X" not in text, text
    assert c.get("/api/state").json["bids"]["bids_in"] == ["red", "yellow"]

    r = c.post("/api/events", json={"type": "bid", "player": "green", "bid": "5"})
    assert r.status_code == 201
    reveal = [d for name, d in _messages(c) if name == "notice" and d.get("data")]
    assert reveal and reveal[-1]["data"]["bids"] == {"red": "6", "yellow": "X", "green": "5"}
    last_input = [d["event"] for name, d in _messages(c) if name == "input"][-1]
    assert last_input["bid"] == "5"  # the bid that reveals the round is no secret
    record = c.get("/api/record").data.decode()
    bids = [json.loads(x) for x in record.splitlines() if '"type": "bid"' in x
            or '"type":"bid"' in x]
    assert [(b["player"], b["bid"]) for b in bids] == [("red", "6"), ("yellow", "X"),
                                                        ("green", "5")]
    # the log kept every value: the record replayed judges every bid as it was judged live
    live = [d for name, d in _messages(c) if name in ("verdict", "notice")]
    replayed = [e.to_json() for e in fold(iter_record_lines(record.splitlines(), "record"))
                if e.type in ("verdict", "notice")]
    assert [(d["seq"], d.get("reason") or d.get("message")) for d in live] == \
        [(d["seq"], d.get("reason") or d.get("message")) for d in replayed]
