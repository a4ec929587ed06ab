"""Fixtures of the web tests: a fresh app per test, with a log in a temporary folder."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask

import tests.web.fakes  # noqa: F401  (registers the toy game)
from tests.referee.worm_up.tables import start_table, table
from web import create_app

WORM_UP_PLAYERS = ("red", "yellow", "green")
"""The players of the ``worm_up`` fixture's game."""


@pytest.fixture
def make_app(tmp_path) -> Iterator[Callable[..., Flask]]:
    """Builds apps (closed at the end of the test); keyword arguments go into the config."""
    made: list[Flask] = []

    def make(**config: Any) -> Flask:
        cfg = {"TESTING": True, "LOG_PATH": str(tmp_path / f"log{len(made)}.db"),
               "GAME": "web-toy", "JOIN_CODE": "ABCD"}
        cfg.update(config)
        app = create_app(cfg)
        made.append(app)
        return app

    yield make
    for app in made:
        app.extensions["tabletop"].close()


@pytest.fixture
def app(make_app) -> Flask:
    """A fresh app with no frame source."""
    return make_app()


@pytest.fixture
def client(app):
    """The app's test client."""
    return app.test_client()


def start_game(client, game: str = "web-toy", players=("suns", "moons"), **options) -> Any:
    """Posts a setup event; returns the response."""
    r = client.post("/api/events", json={"type": "setup", "game": game,
                                         "players": list(players), "options": options})
    assert r.status_code == 201, r.json
    return r


@pytest.fixture
def worm_up(make_app):
    """An app with a Worm Up! game whose worms stand at the start (bidding is open)."""
    app = make_app()
    admin = app.test_client()
    start_game(admin, "worm-up", WORM_UP_PLAYERS)
    scene = table(start_table(WORM_UP_PLAYERS))
    r = admin.post("/api/events", json={"type": "scene", **scene.to_json()})
    assert r.status_code == 201 and r.json["outputs"][0]["legal"], r.json
    return app
