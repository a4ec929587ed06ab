"""The HTTP API of the contract, which the pages use too.

- ``GET /api/state``: the game, players, the accepted table, the latest verdicts first, the source
  status (frame rate, latency), the bidding status.
- ``GET /api/stream``: server-sent events: one per output event and per status change.
- ``POST /api/events``: one input event (a setup, roll, bid, correction, accept, undo...) as JSON;
  ``201`` with the stored event and what the referee said, or ``400 {"error": ...}`` (also for
  an event naming a player who is not in the game); with an ``Idempotency-Key`` header a retry
  is answered ``200`` with the event already stored; ``503`` when the log cannot be written.
- ``GET /api/record``: the game record as JSON Lines (``?game=ID`` for a past game).
- ``POST /api/fit``: the gap tool: ``{"from": [x, y], "to": [x, y]}`` in mm on the accepted table.
- ``GET /api/games``: the games in the log.
- ``GET /api/rulesets``: the games this table can referee (:mod:`referee.registry`): each one's
  name, title, aliases, default players, setup options, diagram, input cards, piece kinds and
  event types.
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, jsonify, request, stream_with_context

from live.fit import check_fit
from live.table import LogWriteError
from referee.registry import specs
from tabletop.errors import InputError
from tabletop.events import check_players, parse_event
from tabletop.limits import check_coordinate_mm, check_gap_work, parse_id
from tabletop.pieceset import PieceSet
from tabletop.scene import Scene
from web.security import BadRequest, json_body
from web.services import get_bus, get_log, get_services, get_table

bp = Blueprint("api", __name__, url_prefix="/api")

HEARTBEAT_S = 15.0


def full_state() -> dict[str, Any]:
    """``/api/state``'s body."""
    services = get_services()
    state = services.table.state()
    pipe = services.pipeline
    state["source"] = pipe.status() if pipe is not None else {
        "source": None, "state": "none", "message": "no camera or recording", "fps": 0.0,
        "latency_ms": None}
    state["bids"] = services.bids.status()
    state["drift"] = cached_drift(services)
    state["stream_id"] = services.bus.last_id
    return state


DRIFT_EVERY_S = 10.0


def cached_drift(services: Any) -> dict[str, Any] | None:
    """The drift check on the live picture, made at most every ``DRIFT_EVERY_S`` seconds."""
    now = time.monotonic()
    if services.calibration is not None and now - services.drift_checked >= DRIFT_EVERY_S:
        from web.calibration_page import drift_report

        services.drift_checked = now
        services.drift = drift_report(services)
    return services.drift


@bp.get("/state")
def state() -> Any:
    """The game as the dashboard shows it."""
    return jsonify(full_state())


@bp.get("/stream")
def stream() -> Response:
    """Server-sent events; ``Last-Event-ID`` (or ``?since=``) resumes after a reconnect."""
    bus = get_bus()
    start = request.headers.get("Last-Event-ID") or request.args.get("since")
    try:
        last = int(start) if start is not None else bus.last_id
    except ValueError:
        last = bus.last_id
    once = request.args.get("once") == "1"  # tests: send what is there and stop

    def events() -> Iterator[str]:
        nonlocal last
        yield "retry: 2000\n\n"
        quiet_since = time.monotonic()
        while not bus.closed:
            msgs = bus.wait(last, 0.0 if once else 1.0)
            for m in msgs:
                last = m.id
                yield m.sse()
            if once:
                return
            if msgs:
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since > HEARTBEAT_S:
                quiet_since = time.monotonic()
                yield ": keep-alive\n\n"

    return Response(stream_with_context(events()), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


IDEMPOTENCY_HEADER = "Idempotency-Key"
_KEY = re.compile(r"^[A-Za-z0-9._:-]{1,100}$")
_SUBMIT_LOCK = threading.Lock()  # a retried event and its first try never interleave


def _idempotency_key() -> str | None:
    key = request.headers.get(IDEMPOTENCY_HEADER)
    if key is None:
        return None
    if not _KEY.match(key):
        raise BadRequest(f"{IDEMPOTENCY_HEADER}: 1 to 100 letters, digits or . _ : -")
    return key


@bp.post("/events")
def post_event() -> Any:
    """Stores one input event of the record format.

    With an ``Idempotency-Key`` header, a retry of an event already stored under that key is
    not stored again: the answer is the stored event (``200``, ``"replayed": true``).
    """
    body = json_body()
    key = _idempotency_key()
    table, log = get_table(), get_log()
    try:
        event = parse_event(body, "event")
        if not event.is_input:
            raise InputError(f"a {event.type!r} is the referee's output, not an input event")
        with _SUBMIT_LOCK:
            if key is not None:
                stored = log.find_request(key)
                if stored is not None:
                    return jsonify({**log.stored_json(*stored), "replayed": True}), 200
            game = table.referee.game
            if game is not None:
                check_players(event, game.players, "event")
            with log.along(request_key=key):
                done = table.submit(event)
    except InputError as exc:
        return jsonify(error=str(exc)), 400
    except LogWriteError as exc:
        return jsonify(error=str(exc)), 503
    return jsonify(done.to_json()), 201


@bp.get("/record")
def record() -> Response:
    """The game record as JSON Lines."""
    table = get_table()
    game = request.args.get("game")
    if game is not None:
        game_id = parse_id(game)
        if game_id is None or not get_log().has_game(game_id):
            return Response('{"error": "no such game"}\n', 404, mimetype="application/json")
        text = table.record(game_id, public=True)
    else:
        text = table.record(public=True)
    return Response(text, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": "inline; filename=record.jsonl"})


@bp.get("/games")
def games() -> Any:
    """The games in the log, the latest first."""
    return jsonify([g.to_json() for g in get_log().games()])


@bp.get("/rulesets")
def rulesets() -> Any:
    """The games that can be set up here, by name."""
    return jsonify([s.to_json() for s in specs()])


def _point(body: dict[str, Any], key: str) -> tuple[float, float]:
    v = body.get(key)
    if (not isinstance(v, list) or len(v) != 2
            or not all(isinstance(c, int | float) and not isinstance(c, bool)
                       and math.isfinite(c) for c in v)):
        raise BadRequest(f"{key!r} must be a point [x, y] in mm")
    for c in v:
        check_coordinate_mm(float(c), key)
    return (float(v[0]), float(v[1]))


@bp.post("/fit")
def fit() -> Any:
    """The gap tool: can a coin slide from one point to the other on the accepted table?"""
    body = json_body()
    a, b = _point(body, "from"), _point(body, "to")
    table = get_table()
    state = table.state(verdicts=False)
    scene_json = state.get("scene") or state.get("last_seen")
    try:
        if scene_json is not None:  # bound the work before any is done
            pieces = table.referee.game.pieces if table.referee.game is not None else PieceSet()
            check_gap_work(Scene.from_json(scene_json).pieces, pieces, "the table", (a, b))
        result = check_fit(scene_json, a, b, table.referee)
    except InputError as exc:
        return jsonify(error=str(exc)), 400
    table.set_fit(result)
    return jsonify(result)
