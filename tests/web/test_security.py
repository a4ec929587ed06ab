"""Safe by default: cross-site POSTs refused; in LAN mode every change needs the join code."""

from __future__ import annotations

import pytest

from tests.web.conftest import start_game

ROLL = {"type": "roll", "player": "suns", "value": "3"}


@pytest.mark.parametrize(("headers", "allowed"), [
    ({}, True),
    ({"Sec-Fetch-Site": "same-origin"}, True),
    ({"Sec-Fetch-Site": "none"}, True),
    ({"Sec-Fetch-Site": "cross-site"}, False),
    ({"Sec-Fetch-Site": "same-site"}, False),
    ({"Origin": "http://localhost"}, True),
    ({"Origin": "http://evil.example"}, False),
    ({"Origin": "https://localhost"}, False),
    ({"Origin": "null"}, False),
])
def test_cross_site_posts_are_refused(client, headers, allowed):
    start_game(client)
    r = client.post("/api/events", json=ROLL, headers=headers)
    assert (r.status_code == 201) is allowed
    if not allowed:
        assert r.status_code == 403 and "cross-site" in r.json["error"]


def test_lan_mode_needs_the_join_code_for_changes_not_for_reading(make_app):
    client = make_app(LAN=True).test_client()
    assert client.get("/api/state").status_code == 200
    r = client.post("/api/events", json={"type": "setup", "game": "web-toy",
                                         "players": ["suns", "moons"]})
    assert r.status_code == 403 and "join code" in r.json["error"]
    r = client.post("/api/events", headers={"X-Join-Code": "WXYZ"},
                    json={"type": "setup", "game": "web-toy", "players": ["suns", "moons"]})
    assert r.status_code == 403
    r = client.post("/api/events", headers={"X-Join-Code": "abcd"},
                    json={"type": "setup", "game": "web-toy", "players": ["suns", "moons"]})
    assert r.status_code == 201
    assert client.post("/api/fit", json={"from": [0, 0], "to": [1, 1]}).status_code == 403
    assert client.post("/calibration/recalibrate", json={}).status_code == 403


def test_lan_mode_hides_the_code_from_other_machines(make_app):
    client = make_app(LAN=True).test_client()
    local = client.get("/").data.decode()
    remote = client.get("/", environ_base={"REMOTE_ADDR": "192.168.1.20"}).data.decode()
    assert "ABCD" in local
    assert "ABCD" not in remote


def test_without_lan_no_code_is_needed(client):
    start_game(client)
    assert client.post("/api/events", json=ROLL).status_code == 201


def test_pages_are_not_framed_and_not_sniffed(client):
    r = client.get("/")
    assert r.headers["X-Frame-Options"] == "DENY"
    assert r.headers["X-Content-Type-Options"] == "nosniff"


def test_no_debug_mode(app):
    assert not app.debug


def test_guessing_the_join_code_is_stopped(make_app):
    client = make_app(LAN=True).test_client()
    env = {"REMOTE_ADDR": "192.168.1.77"}
    for guess in range(10):
        r = client.post("/play/join", json={"code": f"Z{guess:03d}", "player": "red"},
                        environ_base=env)
        assert r.status_code == 403
    r = client.post("/play/join", json={"code": "ABCD", "player": "red"}, environ_base=env)
    assert r.status_code == 429 and "wait" in r.json["error"]
    r = client.post("/api/events", headers={"X-Join-Code": "ABCD"}, environ_base=env,
                    json={"type": "setup", "game": "web-toy", "players": ["suns", "moons"]})
    assert r.status_code == 429
    other = {"REMOTE_ADDR": "192.168.1.78"}  # another phone is not punished
    r = client.post("/api/events", headers={"X-Join-Code": "ABCD"}, environ_base=other,
                    json={"type": "setup", "game": "web-toy", "players": ["suns", "moons"]})
    assert r.status_code == 201


def test_lan_mode_tells_phones_where_to_go(make_app, client):
    lan = make_app(LAN=True).test_client()
    html = lan.get("/", base_url="http://192.168.1.5:5000").data.decode()
    assert "http://192.168.1.5:5000/play" in html
    assert "--host 0.0.0.0" in client.get("/").data.decode()  # not served to the LAN yet
