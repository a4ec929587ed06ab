"""Safe by default: only this server's own pages change anything; in LAN mode only with the code.

- Every request must name this server in its ``Host`` header: a loopback name or address, the
  address the server was started on, or a name given with ``--allow-host`` (``ALLOWED_HOSTS``).
  Anything else is refused with 421 before any work, so a page on a DNS-rebinding hostname
  (whose ``Origin`` and ``Host`` agree with each other, but not with this server) reads and
  changes nothing.
- Every request that is not ``GET``/``HEAD``/``OPTIONS`` must come from this site: a browser's
  ``Sec-Fetch-Site`` must be ``same-origin`` (or ``none``, typed by the user) and an ``Origin``
  header, when sent, must be this server's own.
- When the server listens beyond loopback (``LAN``), such requests also need the table's join
  code, in the ``X-Join-Code`` header or remembered in the session after ``/play/join``. Wrong
  codes are counted for the whole server (:mod:`web.guessing`); the table's own screen
  (loopback) is never paused.
- Request bodies are limited by ``MAX_CONTENT_LENGTH`` (chunked bodies too); a body is read as
  strict JSON (:func:`json_body`, :mod:`tabletop.jsonin`): malformed, too deep, ``NaN``, huge
  integers or lone surrogates are a 400 naming what is wrong.
"""

from __future__ import annotations

import hmac
import ipaddress
import math
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, current_app, jsonify, request, session
from werkzeug.exceptions import RequestEntityTooLarge

from tabletop import jsonin
from tabletop.errors import InputError
from web.guessing import GuessLimiter

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


class BadRequest(InputError):
    """A request body that is not what the endpoint takes (answered with 400)."""


def _limiter() -> GuessLimiter:
    return current_app.extensions["tabletop_guesses"]  # type: ignore[no-any-return]


def is_loopback_client() -> bool:
    """True for a request from this machine (the table's own screen)."""
    try:
        return ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        return False


def note_wrong_code() -> None:
    """Counts a wrong join code (for the whole server; never the table's own screen)."""
    if not is_loopback_client():
        _limiter().wrong()


def note_right_code() -> None:
    """A phone gave the right code: the pauses after wrong codes start again from the shortest."""
    _limiter().right()


def too_many_wrong_codes() -> float:
    """Seconds to wait before another code may be tried from this request's machine (0: now)."""
    return 0.0 if is_loopback_client() else _limiter().wait_s()


def code_ok(code: Any) -> bool:
    """Whether ``code`` is the table's join code (constant-time compare, case-insensitive)."""
    if not isinstance(code, str) or not code or len(code) > 64:
        return False
    given = code.strip().upper().encode("utf-8", "replace")
    return hmac.compare_digest(given, str(current_app.config["JOIN_CODE"]).upper().encode())


def has_code() -> bool:
    """Whether this request carries the join code (header or session)."""
    return code_ok(request.headers.get("X-Join-Code")) or code_ok(session.get("join_code"))


# ----------------------------------------------------------------------------- Host

def host_name(host: str) -> str:
    """The name or address of a ``Host`` header, without its port, lower case.

    >>> host_name("LOCALHOST:5000"), host_name("[::1]:80"), host_name("192.168.1.5")
    ('localhost', '::1', '192.168.1.5')
    """
    h = host.strip().lower()
    if h.startswith("["):
        return h[1:].split("]", 1)[0]
    if h.count(":") == 1:
        h = h.split(":", 1)[0]
    return h.rstrip(".")


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def host_allowed(name: str, bound: str | None, allowed: Iterable[str]) -> bool:
    """Whether a request naming ``name`` is for this server.

    Args:
        name: The ``Host`` header's name (see :func:`host_name`).
        bound: The address the server listens on (``None``: loopback only).
        allowed: Names given with ``--allow-host``.

    >>> host_allowed("localhost", None, ())
    True
    >>> host_allowed("evil.example", None, ())
    False
    >>> host_allowed("192.168.1.5", "0.0.0.0", ()), host_allowed("table.lan", "0.0.0.0", ())
    (True, False)
    """
    if name in LOOPBACK_NAMES or name.endswith(".localhost"):
        return True
    if name in {host_name(a) for a in allowed}:
        return True
    ip = _ip(name)
    if ip is None:
        return False  # a name: only the ones the server was started for
    if ip.is_loopback:
        return True
    bound_ip = _ip(host_name(bound)) if bound else None
    if bound_ip is None:
        return bound is not None and host_name(bound) == name
    # An address can never be a rebinding name: bound to every interface, any of this
    # machine's addresses may be used; otherwise only the one it listens on.
    return bound_ip.is_unspecified or bound_ip == ip


def _host_problem() -> str | None:
    cfg = current_app.config
    name = host_name(request.host or "")
    bound = cfg.get("BIND_HOST") or ("0.0.0.0" if cfg.get("LAN") else None)
    if host_allowed(name, bound, cfg.get("ALLOWED_HOSTS") or ()):
        return None
    shown = name.encode("ascii", "replace").decode()[:100]
    return (f"this server does not answer to the host name {shown!r} (start it with "
            f"--allow-host {shown} to allow that name)")


# ----------------------------------------------------------------------------- checks

def _cross_site() -> str | None:
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        return f"cross-site request refused (Sec-Fetch-Site: {site[:40]})"
    origin = request.headers.get("Origin")
    if origin is not None:
        try:
            o = urlsplit(origin)
            same = o.netloc.lower() == (request.host or "").lower() and \
                o.scheme == request.scheme
        except ValueError:
            same = False
        if not same:
            return "cross-site request refused (Origin is not this server)"
    return None


def _check() -> Any:
    problem = _host_problem()
    if problem:
        return jsonify(error=problem), 421
    if request.method in SAFE_METHODS:
        return None
    problem = _cross_site()
    if problem:
        return jsonify(error=problem), 403
    joining = request.endpoint == "players.join"
    header = request.headers.get("X-Join-Code")
    if joining or (header and current_app.config.get("LAN")
                   and not code_ok(session.get("join_code"))):
        wait = too_many_wrong_codes()  # a code is about to be checked: not while paused
        if wait > 0:
            return (jsonify(error=f"too many wrong join codes; wait {math.ceil(wait)} s"), 429,
                    {"Retry-After": str(math.ceil(wait))})
    if current_app.config.get("LAN") and not joining and not has_code():
        if header:
            note_wrong_code()
        return jsonify(error="this table needs its join code (shown on the dashboard)"), 403
    return None


def read_body() -> bytes:
    """The request body, at most ``MAX_CONTENT_LENGTH`` bytes, chunked or not.

    Raises:
        RequestEntityTooLarge: a longer body (413).
    """
    limit = int(current_app.config.get("MAX_CONTENT_LENGTH") or 64 * 1024)
    if request.content_length is not None:
        if request.content_length > limit:
            raise RequestEntityTooLarge()
        return request.get_data(cache=True)
    chunked = "chunked" in request.headers.get("Transfer-Encoding", "").lower()
    stream = request.environ.get("wsgi.input")
    if not chunked or stream is None:
        return b""  # no length and not chunked: no body
    data = stream.read(limit + 1)  # chunked: read no more than one byte past the limit
    if len(data) > limit:
        raise RequestEntityTooLarge()
    return bytes(data)


def json_body() -> dict[str, Any]:
    """The request's JSON object, read strictly (:mod:`tabletop.jsonin`).

    Only ``Content-Type: application/json`` is read: a cross-site page cannot send that without
    asking first (CORS), which this server never allows.

    Raises:
        BadRequest: when the body is not one strict JSON object.
    """
    if not request.is_json:
        raise BadRequest("send the body as JSON (Content-Type: application/json)")
    raw = read_body()
    if not raw.strip():
        raise BadRequest("the request has no body; send one JSON object")
    data = jsonin.loads(raw, "body", BadRequest)
    if not isinstance(data, dict):
        raise BadRequest("the body must be one JSON object")
    return data


def init_app(app: Flask) -> None:
    """Installs the checks on every request, and no caching of the API."""
    app.extensions["tabletop_guesses"] = app.config.get("GUESS_LIMITER") or GuessLimiter()
    app.before_request(_check)

    @app.errorhandler(InputError)
    def bad_request(exc: InputError) -> Any:
        return jsonify(error=str(exc)), 400

    @app.after_request
    def headers(resp: Any) -> Any:
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("X-Frame-Options", "DENY")
        resp.headers.setdefault("Referrer-Policy", "same-origin")
        return resp
