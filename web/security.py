"""Safe by default: only same-origin POSTs change anything, and in LAN mode only with the code.

- Every request that is not ``GET``/``HEAD``/``OPTIONS`` must come from this site: a browser's
  ``Sec-Fetch-Site`` must be ``same-origin`` (or ``none``, typed by the user) and an ``Origin``
  header, when sent, must be this server's own.
- When the server listens beyond loopback (``LAN``), such requests also need the table's join
  code, in the ``X-Join-Code`` header or remembered in the session after ``/play/join``.
- Request bodies are limited by ``MAX_CONTENT_LENGTH``; malformed JSON is a 400 with a message
  (:func:`json_body`).
"""

from __future__ import annotations

import hmac
import threading
import time
from collections import deque
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, current_app, jsonify, request, session

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
MAX_WRONG_CODES = 10
"""Wrong join codes one address may send within :data:`WRONG_CODE_WINDOW_S` (then 429)."""
WRONG_CODE_WINDOW_S = 60.0

class WrongCodes:
    """Recent wrong join codes by address (one per app)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.by_addr: dict[str, deque[float]] = {}


def _wrong() -> WrongCodes:
    return current_app.extensions["tabletop_wrong_codes"]  # type: ignore[no-any-return]


def note_wrong_code() -> None:
    """Counts a wrong join code from this request's address."""
    w = _wrong()
    with w.lock:
        q = w.by_addr.setdefault(request.remote_addr or "?", deque(maxlen=MAX_WRONG_CODES))
        q.append(time.monotonic())


def too_many_wrong_codes() -> bool:
    """True when this address has sent too many wrong codes lately (guessing the code)."""
    w = _wrong()
    with w.lock:
        q = w.by_addr.get(request.remote_addr or "?")
        return (q is not None and len(q) >= MAX_WRONG_CODES
                and time.monotonic() - q[0] < WRONG_CODE_WINDOW_S)


class BadRequest(Exception):
    """A request body that is not what the endpoint takes (answered with 400)."""


def code_ok(code: str | None) -> bool:
    """Whether ``code`` is the table's join code (constant-time compare, case-insensitive)."""
    if not code:
        return False
    return hmac.compare_digest(code.strip().upper().encode(),
                               str(current_app.config["JOIN_CODE"]).upper().encode())


def has_code() -> bool:
    """Whether this request carries the join code (header or session)."""
    return code_ok(request.headers.get("X-Join-Code")) or code_ok(session.get("join_code"))


def _cross_site() -> str | None:
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        return f"cross-site request refused (Sec-Fetch-Site: {site})"
    origin = request.headers.get("Origin")
    if origin is not None:
        o = urlsplit(origin)
        if o.netloc != request.host or o.scheme != request.scheme:
            return "cross-site request refused (Origin is not this server)"
    return None


def _check() -> Any:
    if request.method in SAFE_METHODS:
        return None
    problem = _cross_site()
    if problem:
        return jsonify(error=problem), 403
    if too_many_wrong_codes():
        return jsonify(error="too many wrong join codes; wait a minute"), 429
    exempt = request.endpoint in ("players.join",)
    if current_app.config.get("LAN") and not exempt and not has_code():
        if request.headers.get("X-Join-Code"):
            note_wrong_code()
        return jsonify(error="this table needs its join code (shown on the dashboard)"), 403
    return None


def json_body() -> dict[str, Any]:
    """The request's JSON object.

    Only ``Content-Type: application/json`` is read: a cross-site page cannot send that without
    asking first (CORS), which this server never allows.

    Raises:
        BadRequest: when the body is not a JSON object.
    """
    if not request.is_json:
        raise BadRequest("send the body as JSON (Content-Type: application/json)")
    data = request.get_json(silent=True)
    if data is None:
        raw = request.get_data(cache=True)
        if not raw:
            raise BadRequest("the request has no body; send one JSON object")
        raise BadRequest("the body is not valid JSON")
    if not isinstance(data, dict):
        raise BadRequest("the body must be one JSON object")
    return data


def init_app(app: Flask) -> None:
    """Installs the checks on every request, and no caching of the API."""
    app.extensions["tabletop_wrong_codes"] = WrongCodes()
    app.before_request(_check)

    @app.errorhandler(BadRequest)
    def bad_request(exc: BadRequest) -> Any:
        return jsonify(error=str(exc)), 400

    @app.after_request
    def headers(resp: Any) -> Any:
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("X-Frame-Options", "DENY")
        resp.headers.setdefault("Referrer-Policy", "same-origin")
        return resp
