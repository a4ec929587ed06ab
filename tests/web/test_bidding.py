"""Worm Up! phone bidding: join with the code, bid in secret, reveal for everyone at once."""

from __future__ import annotations

import json

import pytest

from tests.web.conftest import WORM_UP_PLAYERS as PLAYERS
from tests.web.conftest import start_game


def _phone(app, player, code="ABCD"):
    c = app.test_client()
    r = c.post("/play/join", json={"code": code, "player": player})
    assert r.status_code == 200, r.json
    return c


def test_joining_needs_the_code_and_a_colour_that_plays(worm_up):
    c = worm_up.test_client()
    page = c.get("/play").data.decode()
    assert 'data-player="green"' in page and 'data-player="purple"' not in page
    r = c.post("/play/join", json={"code": "ZZZZ", "player": "red"})
    assert r.status_code == 403 and "join code" in r.json["error"]
    r = c.post("/play/join", json={"code": "abcd", "player": "purple"})
    assert r.status_code == 400 and "does not play" in r.json["error"]
    r = c.post("/play/join", json={"code": "abcd"})
    assert r.status_code == 400
    assert c.post("/play/bid", json={"bid": "4"}).status_code == 403
    assert c.get("/play/state").status_code == 403


def test_a_player_sees_only_their_own_bid_until_all_are_in(worm_up):
    red, yellow, green = (_phone(worm_up, p) for p in PLAYERS)
    r = red.post("/play/bid", json={"bid": "5"})
    assert r.status_code == 200 and r.json["your_bid"] == "5"
    yellow.post("/play/bid", json={"bid": "X", "number": 6})
    for c, own in ((red, "5"), (yellow, "X")):
        view = c.get("/play/state").json
        assert view["bids"] == {view["you"]: own}
        assert view["waiting_for"] == ["green"]
    g = green.get("/play/state").json
    assert g["bids"] == {} and g["your_bid"] is None and g["bids_in"] == ["red", "yellow"]
    public = worm_up.test_client().get("/api/bids").json
    assert public["bids"] == {} and public["bids_in"] == ["red", "yellow"]
    # nothing about the bids in the log or on the stream yet
    record = worm_up.test_client().get("/api/record").data.decode()
    assert '"bid"' not in record
    stream = worm_up.test_client().get("/api/stream?once=1&since=0").data.decode()
    datas = [json.loads(line[6:]) for line in stream.splitlines() if line.startswith("data: ")]
    assert datas, "the stream said nothing"
    for d in datas:
        assert "your_bid" not in json.dumps(d)
        assert d.get("bids") in (None, {})
    assert any("bids_in" in d for d in datas)  # the "someone has bid" message went out


def test_the_last_bid_reveals_the_round_to_everyone_and_logs_the_bids(worm_up):
    red, yellow, green = (_phone(worm_up, p) for p in PLAYERS)
    red.post("/play/bid", json={"bid": "4"})
    yellow.post("/play/bid", json={"bid": "6"})
    red.post("/play/bid", json={"bid": "5"})  # a bid may change until all are in
    r = green.post("/play/bid", json={"bid": "5"})
    assert r.status_code == 200
    reveal = r.json["last_reveal"]
    assert reveal["bids"] == {"red": "5", "yellow": "6", "green": "5"}
    assert reveal["cancelled"] == ["red", "green"]
    assert [m["player"] for m in reveal["order"]] == ["yellow"]
    assert "cancel" in reveal["summary"]
    for c in (red, yellow):
        assert c.get("/play/state").json["last_reveal"]["bids"]["green"] == "5"
    lines = [json.loads(x) for x in worm_up.test_client().get("/api/record").data.splitlines()]
    bids = [x for x in lines if x["type"] == "bid"]
    assert [(b["player"], b["bid"]) for b in bids] == [("red", "5"), ("yellow", "6"),
                                                        ("green", "5")]
    assert any(x["type"] == "notice" for x in lines)
    notices = worm_up.test_client().get("/api/state").json["notices"]
    assert notices[0]["message"].startswith("Round 1") and "cancel" in notices[0]["message"]
    stream = worm_up.test_client().get("/api/stream?once=1&since=0").data.decode()
    assert "event: reveal" in stream


def test_bids_are_refused_while_worms_must_move(worm_up):
    red, yellow, green = (_phone(worm_up, p) for p in PLAYERS)
    red.post("/play/bid", json={"bid": "4"})
    yellow.post("/play/bid", json={"bid": "6"})
    green.post("/play/bid", json={"bid": "7"})
    r = red.post("/play/bid", json={"bid": "5"})
    assert r.status_code == 400 and "once every worm" in r.json["error"]


@pytest.mark.parametrize(("body", "message"), [
    ({"bid": "8"}, "one of"), ({"bid": None}, "must be one of"),
    ({"bid": "4", "number": 5}, "only an X"), ({"bid": "X", "number": 9}, "4-7"),
    ({"bid": "X", "number": "6"}, "must be 4..7"),
])
def test_bad_bids_are_400(worm_up, body, message):
    red = _phone(worm_up, "red")
    r = red.post("/play/bid", json=body)
    assert r.status_code == 400 and message in r.json["error"]


def test_no_bidding_outside_worm_up(client):
    start_game(client)
    r = client.post("/play/join", json={"code": "ABCD", "player": "suns"})
    assert r.status_code == 400 and "Worm Up" in r.json["error"]
    assert client.get("/api/bids").json == {"active": False}
