"""Hostile requests to every route of the dashboard, over loopback: never a 5xx, never a traceback.

A table of hostile cases (huge integers, deep JSON, NaN, lone surrogates, ids past SQLite's range,
foreign hosts, chunked bodies past the limit...) and hypothesis-made JSON bodies go to a real
server on 127.0.0.1 (werkzeug in a thread, as ``tabletop serve`` runs it). Every answer must be
below 500, every error a JSON ``{"error": "..."}`` with a message, and the server's log must hold
no traceback. Bounded: a few hundred requests, a few seconds.
"""

from __future__ import annotations

import http.client
import json
import logging
import socket

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tests.web.fakes  # noqa: F401  (registers the toy game)
from tests.web.servers import ThreadServer
from web import create_app

HUGE = "9" * 5000
DEEP = "[" * 1000 + "]" * 1000
DEEP_OBJ = '{"a": ' * 200 + "1" + "}" * 200
SURROGATE = '"\\ud800"'

# Every route, and the paths that reach it (a new route fails test_every_route_is_fuzzed).
GETS = {
    "static": ["/static/../../etc/passwd", "/static/%00", "/static/" + "a" * 3000],
    "dashboard.index": ["/", "/?x=" + HUGE],
    "dashboard.frame": ["/frame.jpg"],
    "dashboard.video": [],  # an endless stream that takes no input (headers come with a frame)
    "api.state": ["/api/state"],
    "api.stream": ["/api/stream?once=1", "/api/stream?once=1&since=" + HUGE,
                   "/api/stream?once=1&since=%C2%B2", "/api/stream?once=1&since=-1"],
    "api.record": ["/api/record", "/api/record?game=" + HUGE, "/api/record?game=%D9%A1",
                   "/api/record?game=%C2%B2", "/api/record?game=9223372036854775808",
                   "/api/record?game=-1", "/api/record?game=%ED%A0%80"],
    "api.games": ["/api/games"],
    "api.rulesets": ["/api/rulesets", "/api/rulesets?x=" + HUGE],
    "calibration.index": ["/calibration"],
    "calibration.grid": ["/calibration/grid.jpg"],
    "calibration.heatmap": ["/calibration/heatmap.png"],
    "calibration.info": ["/calibration/info"],
    "calibration.picture": ["/calibration/picture.jpg"],
    "calibration.presets": ["/calibration/presets"],
    "history.export": ["/history/export", "/history/export?game=" + HUGE + "&format=png",
                       "/history/export?game=1&format=" + "x" * 3000,
                       "/history/export?game=9223372036854775808&format=moves",
                       "/history/export?game=%C2%B2&format=svg",
                       "/history/export?game=1&format=%ED%A0%80"],
    "demo.index": ["/demo"],
    "players.play": ["/play"],
    "players.state": ["/play/state"],
    "players.public": ["/api/bids"],
    "history.index": ["/history"],
    "history.game": ["/history/1", "/history/" + HUGE, "/history/9223372036854775808",
                     "/history/0"],
    "history.steps_json": ["/history/1/steps.json", "/history/9223372036854775808/steps.json",
                           "/history/" + HUGE + "/steps.json"],
    "history.frame": ["/history/1/frame/1.jpg", "/history/1/frame/" + HUGE + ".jpg",
                      "/history/9223372036854775807/frame/9223372036854775808.jpg"],
}

HOSTILE_BODIES = [
    "", "{", "[]", "null", "1", '"x"', DEEP, DEEP_OBJ, "NaN", '{"a": NaN}',
    '{"a": Infinity}', '{"a": -Infinity}', '{"a": 1e400}', '{"a": ' + HUGE + "}",
    '{"a": ' + "9" * 400 + "}", '{"a": ' + SURROGATE + "}", '{"\\udfff": 1}',
    '{"type": "setup", "game": "web-toy", "players": ["suns", "moons"], "options": {"sizes": 5}}',
    '{"type": "setup", "game": "web-toy", "players": ["suns", "moons"], '
    '"options": {"sizes": {"coin_mm": 1e308}}}',
    '{"type": "setup", "game": "worm-derby", "players": ["suns", "moons"], '
    '"options": {"canibal": true}}',
    '{"type": "setup", "game": "web-toy", "players": [' + SURROGATE + "]}",
    '{"type": "setup", "game": "jungle", "players": ["a", "b"], "options": {"timer": 1e308}}',
    '{"type": "setup", "game": "worm-up", "players": ["red", "yellow", "green"], '
    '"options": {"segments": ' + "9" * 17 + "}}",
    '{"type": "roll", "player": "suns", "value": ' + "9" * 300 + "}",
    '{"type": "roll", "player": "nobody", "value": "3"}',
    '{"type": "bid", "player": "suns", "bid": "X", "number": ' + "9" * 17 + "}",
    '{"type": "scene", "pieces": [{"kind": "tile", "x": 1000000, "y": 0}]}',
    '{"type": "scene", "pieces": [{"kind": "coin", "x": 1, "y": 1, "id": ' + "9" * 17 + "}]}",
    '{"type": "scene", "pieces": ' + json.dumps([{"kind": "coin", "x": 0, "y": 0}] * 1200) + "}",
    '{"type": "correction", "op": "change", "index": ' + "9" * 17 + ', "piece": {}}',
    '{"type": "move", "player": "a", "from": "' + "a1" * 1000 + '", "to": "a2"}',
    '{"type": "verdict", "seq": 1}', '{"type": "undo", "t": 1e308}', '{"type": "accept"}',
    '{"from": [0, 0], "to": [1e6, 0]}', '{"from": [0, 0], "to": [' + HUGE + ", 0]}",
    '{"from": [NaN, 0], "to": [1, 1]}', '{"code": ' + SURROGATE + ', "player": "red"}',
    '{"code": "' + "A" * 10000 + '", "player": "red"}', '{"code": 5, "player": []}',
    '{"bid": ' + HUGE + "}", '{"bid": "X", "number": 1e400}',
    '{"points": ' + json.dumps([{"pixel": [0, 0], "world": [0, 0]}] * 4) + "}",
    '{"points": ' + json.dumps([{"pixel": [i, i * i], "world": [1e300, i]} for i in range(5)])
    + "}", '{"points": ' + json.dumps([{"pixel": [1e308, 0], "world": [0, 0]}] * 6) + "}",
    '{"points": [' + ",".join(['{"pixel": [1, 2], "world": [3, 4]}'] * 3000) + "]}",
    '{"points": "x"}', '{"points": [{"pixel": ["a", 0], "world": [0, 0]}]}',
    '{"name": "' + "x" * 5000 + '"}', '{"name": ' + SURROGATE + "}", '{"name": ["jungle"]}',
]
POSTS = ["api.post_event", "api.fit", "calibration.recalibrate", "calibration.points_preview",
         "calibration.points_use", "players.join", "players.leave", "players.bid", "demo.play"]
POST_PATHS = {"api.post_event": "/api/events", "api.fit": "/api/fit",
              "calibration.recalibrate": "/calibration/recalibrate",
              "players.join": "/play/join", "players.leave": "/play/leave",
              "players.bid": "/play/bid", "demo.play": "/demo/play",
              "calibration.points_preview": "/calibration/points/preview",
              "calibration.points_use": "/calibration/points"}


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    app = create_app({"LOG_PATH": str(tmp_path_factory.mktemp("fuzz") / "log.db"),
                      "GAME": "web-toy", "JOIN_CODE": "ABCDEF"})
    errors = _Errors()
    app.logger.addHandler(errors)
    logging.getLogger("werkzeug").addHandler(errors)
    srv = ThreadServer(app)
    host, port = srv.url.rsplit("/", 1)[1].split(":")
    conn_args = (host, int(port))
    _request(conn_args, "POST", "/api/events", json.dumps(
        {"type": "setup", "game": "web-toy", "players": ["suns", "moons"]}))
    yield conn_args, errors
    srv.close()
    logging.getLogger("werkzeug").removeHandler(errors)


def _request(addr, method, path, body=None, headers=None):
    conn = http.client.HTTPConnection(*addr, timeout=10)
    hdrs = {"Content-Type": "application/json", **(headers or {})}
    conn.request(method, path, body=body.encode("utf-8", "surrogatepass") if isinstance(
        body, str) else body, headers=hdrs)
    resp = conn.getresponse()
    data = resp.read()
    conn.close()
    return resp.status, dict(resp.getheaders()), data


def _check(status, headers, data, what):
    assert status < 500, f"{what}: {status} {data[:200]!r}"
    if status >= 400 and "json" in headers.get("Content-Type", ""):
        message = json.loads(data)["error"]
        assert isinstance(message, str) and message.strip(), what


def _no_tracebacks(errors):
    assert not errors.records, [r.getMessage()[:300] for r in errors.records]


def test_every_route_is_fuzzed(server):
    app = create_app({"TESTING": True, "LOG_PATH": ":memory:"})
    endpoints = {r.endpoint for r in app.url_map.iter_rules()}
    app.extensions["tabletop"].close()
    missing = endpoints - set(GETS) - set(POSTS)
    assert not missing, f"routes without hostile cases (add them to GETS or POSTS): {missing}"


def test_hostile_paths_and_query_strings_are_never_a_5xx(server):
    addr, errors = server
    for endpoint, paths in GETS.items():
        for path in paths:
            _check(*_request(addr, "GET", path), f"GET {path[:60]} ({endpoint})")
    _no_tracebacks(errors)


@pytest.mark.parametrize("endpoint", POSTS)
def test_hostile_bodies_are_a_4xx_with_a_message(server, endpoint):
    addr, errors = server
    path = POST_PATHS[endpoint]
    for body in HOSTILE_BODIES:
        _check(*_request(addr, "POST", path, body), f"POST {path} {body[:60]}")
    for ctype in ("text/plain", "application/x-www-form-urlencoded", "application/json; x=" +
                  "y" * 2000):
        _check(*_request(addr, "POST", path, "{}", {"Content-Type": ctype}), f"{path} {ctype}")
    _no_tracebacks(errors)


def test_a_rebinding_request_is_refused_on_every_route(server):
    addr, errors = server
    foreign = {"Host": "rebind.attacker.example", "Origin": "http://rebind.attacker.example"}
    for paths in GETS.values():
        for path in paths[:1]:
            status, _, _ = _request(addr, "GET", path, headers=foreign)
            assert status == 421, path
    for path in POST_PATHS.values():
        status, _, _ = _request(addr, "POST", path, '{"type": "undo"}', foreign)
        assert status == 421, path
    _no_tracebacks(errors)


def test_a_chunked_body_past_the_limit_is_413_and_below_it_is_read(server):
    addr, errors = server

    def chunked(size: int) -> bytes:
        body = b'{"type": "scene", "pieces": [], "x": "' + b"a" * size + b'"}'
        out = b""
        for i in range(0, len(body), 8192):
            part = body[i:i + 8192]
            out += f"{len(part):x}\r\n".encode() + part + b"\r\n"
        return out + b"0\r\n\r\n"

    for size, expected in ((70 * 1024, 413), (1000, 400)):
        sock = socket.create_connection(addr, timeout=10)
        sock.sendall(b"POST /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                     b"application/json\r\nTransfer-Encoding: chunked\r\nConnection: close"
                     b"\r\n\r\n" + chunked(size))
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
        sock.close()
        status = int(reply.split(b" ", 2)[1])
        assert status == expected, reply[:300]
        if expected == 400:
            assert b"unknown field" in reply  # the whole body was read, and judged
    _no_tracebacks(errors)


def test_the_event_stream_answers_at_once(server):
    addr, _ = server
    conn = http.client.HTTPConnection(*addr, timeout=10)
    conn.request("GET", "/api/stream")
    resp = conn.getresponse()
    assert resp.status == 200 and resp.getheader("Content-Type").startswith("text/event-stream")
    conn.close()


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["type", "player", "value", "pieces", "options", "game", "players",
                         "from", "to", "op", "index", "piece", "bid", "number", "x", "y",
                         "kind", "t", "code", "sizes", "seq"]) | st.text(max_size=8),
        inner, max_size=5),
    max_leaves=20)
_events = st.fixed_dictionaries(
    {"type": st.sampled_from(["setup", "scene", "roll", "bid", "move", "correction", "accept",
                              "undo", "verdict", "notice"])},
    optional={"player": _json, "value": _json, "pieces": _json, "options": _json,
              "game": st.sampled_from(["web-toy", "worm-derby", "worm-up", "jungle"]) | _json,
              "players": _json, "from": _json, "to": _json, "op": _json, "index": _json,
              "piece": _json, "bid": _json, "number": _json, "t": _json})


@settings(max_examples=80, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=_events | _json, endpoint=st.sampled_from(POSTS))
def test_made_up_json_bodies_are_never_a_5xx(server, body, endpoint):
    addr, errors = server
    text = json.dumps(body)
    _check(*_request(addr, "POST", POST_PATHS[endpoint], text), f"{endpoint} {text[:80]}")
    _no_tracebacks(errors)


def test_the_calibration_routes_with_a_picture_take_hostile_bodies(tmp_path):
    import time

    import numpy as np

    from calibration.model import Calibration
    from tests.factories import coin, scene
    from tests.web.fakes import ListSource, fake_vision, frame_of

    app = create_app({"TESTING": True, "LOG_PATH": str(tmp_path / "c.db"),
                      "SOURCE": ListSource([frame_of(0, (320, 240))] * 2),
                      "VISION": fake_vision([scene(coin(0, 0))]),
                      "CALIBRATION": Calibration((320, 240), np.eye(3)),
                      "CALIBRATION_PATH": str(tmp_path / "cal.json")})
    errors = _Errors()
    app.logger.addHandler(errors)
    try:
        services = app.extensions["tabletop"]
        deadline = time.monotonic() + 10
        while services.hub.raw is None and time.monotonic() < deadline:
            time.sleep(0.01)
        client = app.test_client()
        for path in ("/calibration/points/preview", "/calibration/points",
                     "/calibration/recalibrate"):
            for body in HOSTILE_BODIES:
                r = client.post(path, data=body, content_type="application/json")
                _check(r.status_code, dict(r.headers), r.data, f"{path} {body[:60]}")
        _no_tracebacks(errors)
        assert not (tmp_path / "cal.json").exists()  # nothing was written over the user's path
    finally:
        services.close()
