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
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, current_app, jsonify, request, session

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


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
    exempt = request.endpoint in ("players.join",)
    if current_app.config.get("LAN") and not exempt and not has_code():
        return jsonify(error="this table needs its join code (shown on the dashboard)"), 403
    return None


def json_body() -> dict[str, Any]:
    """The request's JSON object.

    Raises:
        BadRequest: when the body is not a JSON object.
    """
    data = request.get_json(silent=True, force=True)
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
