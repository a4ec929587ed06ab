"""Safe by default: cross-site POSTs refused; in LAN mode every change needs the join code."""

from __future__ import annotations

import time

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


def test_guessing_the_join_code_pauses_every_other_machine_but_never_the_table(make_app):
    client = make_app(LAN=True).test_client()
    for guess in range(10):  # one guess from each of many addresses
        env = {"REMOTE_ADDR": f"192.168.1.{100 + guess}"}
        r = client.post("/play/join", json={"code": f"Z{guess:05d}", "player": "red"},
                        environ_base=env)
        assert r.status_code == 403
    env = {"REMOTE_ADDR": "192.168.1.77"}
    r = client.post("/play/join", json={"code": "ABCD", "player": "red"}, environ_base=env)
    assert r.status_code == 429 and "wait" in r.json["error"] and r.headers["Retry-After"]
    r = client.post("/api/events", headers={"X-Join-Code": "ABCD"}, environ_base=env,
                    json={"type": "setup", "game": "web-toy", "players": ["suns", "moons"]})
    assert r.status_code == 429
    table = {"REMOTE_ADDR": "127.0.0.1"}  # the table's own screen is never paused
    r = client.post("/api/events", headers={"X-Join-Code": "ABCD"}, environ_base=table,
                    json={"type": "setup", "game": "web-toy", "players": ["suns", "moons"]})
    assert r.status_code == 201


def test_a_phone_that_joined_before_a_guessing_run_keeps_playing(make_app):
    client = make_app(LAN=True).test_client()
    phone = {"REMOTE_ADDR": "192.168.1.20"}
    r = client.post("/api/events", headers={"X-Join-Code": "ABCD"}, environ_base=phone,
                    json={"type": "setup", "game": "web-toy", "players": ["suns", "moons"]})
    assert r.status_code == 201
    with client.session_transaction() as s:
        s["join_code"] = "ABCD"
    other = make_app(LAN=True, JOIN_CODE="ABCD").test_client()
    for guess in range(12):
        other.post("/play/join", json={"code": f"Q{guess:05d}", "player": "red"},
                   environ_base={"REMOTE_ADDR": "10.0.0.9"})
    r = client.post("/api/events", environ_base=phone, json=ROLL)
    assert r.status_code == 201


def test_a_guessing_run_from_many_addresses_gets_less_than_a_millionth_of_the_codes_an_hour():
    from web.guessing import GuessLimiter
    from web.services import JOIN_ALPHABET, JOIN_CODE_LENGTH

    now = [0.0]
    limiter = GuessLimiter(clock=lambda: now[0])
    tried = 0
    while now[0] < 3600.0:  # as fast as the server answers: one guess a millisecond
        wait = limiter.wait_s()
        if wait > 0.0:
            now[0] += wait  # the first moment the server takes a code again
            continue
        tried += 1
        limiter.wrong()
        now[0] += 0.001
    codes = len(JOIN_ALPHABET) ** JOIN_CODE_LENGTH
    assert tried / codes < 1e-6, (tried, codes)
    assert tried >= 10  # the limit is on guessing, not off


def test_the_join_code_is_long_enough_to_read_and_hopeless_to_guess():
    from web.services import JOIN_ALPHABET, new_join_code

    code = new_join_code()
    assert len(code) == 6 and set(code) <= set(JOIN_ALPHABET)


@pytest.mark.parametrize(("host", "config", "allowed"), [
    ("localhost", {}, True),
    ("127.0.0.1:5000", {}, True),
    ("[::1]:5000", {}, True),
    ("evil.example", {}, False),
    ("evil.example:5000", {"LAN": True}, False),
    ("192.168.1.5:5000", {}, False),
    ("192.168.1.5:5000", {"LAN": True, "BIND_HOST": "0.0.0.0"}, True),
    ("192.168.1.5:5000", {"LAN": True, "BIND_HOST": "192.168.1.9"}, False),
    ("table.lan:5000", {"LAN": True, "ALLOWED_HOSTS": ["table.lan"]}, True),
])
def test_only_the_hosts_the_server_was_started_for_are_answered(make_app, host, config, allowed):
    client = make_app(**config).test_client()
    r = client.get("/api/state", headers={"Host": host})
    assert (r.status_code == 200) is allowed
    if not allowed:
        assert r.status_code == 421 and "--allow-host" in r.json["error"]


def test_a_dns_rebinding_page_can_neither_read_nor_post(client):
    start_game(client)
    foreign = {"Host": "rebind.attacker.example:5000",
               "Origin": "http://rebind.attacker.example:5000"}
    assert client.get("/api/record", headers=foreign).status_code == 421
    assert client.post("/api/events", json=ROLL, headers=foreign).status_code == 421
    assert client.post("/calibration/recalibrate", json={}, headers=foreign).status_code == 421
    assert "roll" not in client.get("/api/record").data.decode()


def test_lan_mode_tells_phones_where_to_go(make_app, client):
    lan = make_app(LAN=True).test_client()
    html = lan.get("/", base_url="http://192.168.1.5:5000").data.decode()
    assert "http://192.168.1.5:5000/play" in html
    assert "--host 0.0.0.0" in client.get("/").data.decode()  # not served to the LAN yet


def test_recalibrating_never_overwrites_the_users_calibration_file(make_app, tmp_path):
    from calibration.mat import make_mat
    from calibration.model import Calibration
    from calibration.synthetic import PinholeCamera, render_sheet
    from tests.factories import coin, scene
    from tests.web.fakes import ListSource, fake_vision

    sheet = make_mat("a4", dpi=100)
    w, h = sheet.size_mm
    cam = PinholeCamera.look_at((w / 2, h / 2 + 150, -700), (w / 2, h / 2, 0), (640, 480), 55)
    image = render_sheet(cam, sheet.image_bgr, sheet.dpi, seed=1)
    given = tmp_path / "cal.json"
    Calibration((640, 480), cam.image_to_table()).save(given)
    before = given.read_bytes()
    app = make_app(SOURCE=ListSource([image] * 2), VISION=fake_vision([scene(coin(0, 0))]),
                   CALIBRATION=Calibration.load(given), CALIBRATION_PATH=str(given))
    services = app.extensions["tabletop"]
    for _ in range(500):
        if services.hub.raw is not None:
            break
        time.sleep(0.01)
    r = app.test_client().post("/calibration/recalibrate", json={"anything": [1, 2]})
    assert r.status_code == 200, r.json
    assert given.read_bytes() == before
    beside = tmp_path / "cal.recalibrated.json"
    assert r.json["saved_to"] == str(beside) and beside.is_file()
    assert str(beside) in r.json["message"] and "unchanged" in r.json["message"]
    assert Calibration.load(beside).image_size == (640, 480)


def test_an_idle_connection_is_closed_and_its_thread_freed(app, monkeypatch):
    import socket
    import threading

    from werkzeug.serving import make_server

    import web.cli

    monkeypatch.setattr(web.cli, "IDLE_TIMEOUT_S", 0.3)
    server = make_server("127.0.0.1", 0, app, threaded=True,
                         request_handler=web.cli._timely_handler())
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        stalled = socket.create_connection(("127.0.0.1", server.server_port), timeout=5)
        stalled.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
        started = time.monotonic()
        assert stalled.recv(1024) == b""  # the server closes it (the client would wait 5 s)
        assert time.monotonic() - started < 4.0
        stalled.close()
    finally:
        server.shutdown()
        server.server_close()


def test_serve_answers_the_names_given_with_allow_host(tmp_path, monkeypatch):
    import web.cli
    from tabletop.cli import main

    seen = {}

    def serve_app(app, host, port, banner=None, **kw):
        client = app.test_client()
        seen["named"] = client.get("/api/state", headers={"Host": "table.lan:5000"}).status_code
        seen["other"] = client.get("/api/state", headers={"Host": "evil.example"}).status_code
        seen["code"] = app.config["JOIN_CODE"]
        app.extensions["tabletop"].close()
        return 0

    monkeypatch.setattr(web.cli, "serve_app", serve_app)
    assert main(["serve", "--db", str(tmp_path / "t.db"), "--host", "0.0.0.0",
                 "--allow-host", "table.lan"]) == 0
    assert seen["named"] == 200 and seen["other"] == 421 and len(seen["code"]) == 6
