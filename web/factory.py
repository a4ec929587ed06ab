"""The application factory: ``create_app(test_config=None)``."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from flask import Flask, jsonify
from werkzeug.exceptions import HTTPException

MAX_REQUEST_BYTES = 64 * 1024


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """The dashboard application.

    Config keys (all optional): ``LOG_PATH`` (the SQLite log; default in the instance folder),
    ``SOURCE`` (a :class:`live.sources.Source`), ``VISION`` (a :class:`live.pipeline.Vision`;
    default: the real one built from ``CALIBRATION``), ``CALIBRATION``, ``CALIBRATION_PATH``,
    ``GAME`` (the rule set a new game starts with), ``AREA_MM`` (the play area vision
    searches), ``LAN`` (True when bound beyond loopback: every change then needs the join
    code), ``JOIN_CODE``, ``PIPELINE_AUTOSTART``, ``BIND_HOST`` (the address the server
    listens on) and ``ALLOWED_HOSTS`` (more host names it answers to; see
    :mod:`web.security`), ``GUESS_LIMITER`` (tests: a :class:`web.guessing.GuessLimiter`).
    """
    from web import api, calibration_page, dashboard, demo, history, players, security
    from web.services import init_app, new_join_code

    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(
        SECRET_KEY=secrets.token_hex(16),
        MAX_CONTENT_LENGTH=MAX_REQUEST_BYTES,
        LAN=False,
        JOIN_CODE=new_join_code(),
        GAME="worm-derby",
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
    )
    if test_config is not None:
        app.config.from_mapping(test_config)

    app.json.sort_keys = False  # type: ignore[attr-defined]
    init_app(app)
    security.init_app(app)
    for bp in (dashboard.bp, api.bp, calibration_page.bp, players.bp, history.bp, demo.bp):
        app.register_blueprint(bp)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> Any:
        """Every HTTP error as one JSON line (the pages show ``error``)."""
        resp = jsonify(error=exc.description or exc.name)
        if exc.code == 413:  # the rest of the body is not read: this connection cannot go on
            resp.headers["Connection"] = "close"
        return resp, exc.code or 500

    return app
