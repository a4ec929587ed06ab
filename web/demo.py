"""The demo menu: play the sample Worm Derby again, a Worm Up! bidding round, a Jungle game.

``tabletop demo`` sets ``DEMO_SAMPLE`` (the sample playthrough's folder); the Worm Up! and Jungle
games are timed input events in ``sample_images/demo`` (no pictures: the scenes are exact, the
bids come as the phones would send them).

- ``GET /demo``: the demos there are.
- ``POST /demo/play``: ``{"name": "worm-derby" | "worm-up" | "jungle"}`` starts one from the
  beginning, as a new game.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from flask import Blueprint, current_app, jsonify

from live.pipeline import Pipeline
from live.sources import Item, Source, TimelineEvent, TimelineSource
from tabletop.errors import InputError
from tabletop.events import Event
from web.security import json_body
from web.services import get_services

bp = Blueprint("demo", __name__, url_prefix="/demo")

DEMOS = {"worm-derby": "the sample Worm Derby playthrough (camera pictures)",
         "worm-up": "a Worm Up! bidding round (three phones bid in secret)",
         "jungle": "a Jungle game"}
EVENT_FILES = {"worm-up": "worm_up_round.jsonl", "jungle": "jungle_game.jsonl"}
EVENT_PAUSE_S = 1.5


class PacedEvents(Source):
    """Input events one after another, ``pause_s`` apart (so people can watch)."""

    def __init__(self, path: Path, pause_s: float) -> None:
        self.events: list[Event] = [v for kind, v in TimelineSource(path).lines
                                    if kind == "event"]
        self.pause_s = pause_s
        self.description = f"demo {path.stem.replace('_', ' ')}"
        self.total = len(self.events)
        self._closed = False

    def items(self) -> Iterator[Item]:
        for n, event in enumerate(self.events):
            if self._closed:
                return
            yield TimelineEvent(event, n)
            if self.pause_s:
                time.sleep(self.pause_s)

    def close(self) -> None:
        self._closed = True


def _sample() -> Path | None:
    folder = current_app.config.get("DEMO_SAMPLE")
    return Path(folder) if folder else None


def _available(sample: Path) -> dict[str, str]:
    out = {}
    if (sample / "script.jsonl").is_file():
        out["worm-derby"] = DEMOS["worm-derby"]
    for name, file in EVENT_FILES.items():
        if (sample.parent / "demo" / file).is_file():
            out[name] = DEMOS[name]
    return out


@bp.get("")
def index() -> Any:
    """The demos this server can play (none outside ``tabletop demo``)."""
    sample = _sample()
    return jsonify(demos=_available(sample) if sample is not None else {})


@bp.post("/play")
def play() -> Any:
    """Starts a demo from its beginning."""
    sample = _sample()
    services = get_services()
    try:
        body: Any = json_body()  # strict: deep or huge JSON is a message, not a crash
    except InputError:
        body = None
    name = body.get("name") if isinstance(body, dict) else None
    if sample is None or services.pipeline is None:
        return jsonify(error="the demo menu is there only in `tabletop demo`"), 400
    if name not in _available(sample):
        return jsonify(error=f"no demo {name!r} (there are: "
                             f"{', '.join(_available(sample))})"), 400
    old = services.pipeline
    if name == "worm-derby":
        repeat = int(current_app.config.get("DEMO_REPEAT", 1))
        pace = float(current_app.config.get("DEMO_PACE", 0.0))
        source: Source = TimelineSource(sample / "script.jsonl", repeat=repeat, hold_s=pace)
    else:
        pause = float(current_app.config.get("DEMO_EVENT_PAUSE", EVENT_PAUSE_S))
        source = PacedEvents(sample.parent / "demo" / EVENT_FILES[name], pause)
    old.stop()
    reset = getattr(old.vision.stabiliser, "reset", None)
    if callable(reset):
        reset()  # the last still table of the old run is not this run's
    new = Pipeline(source, old.vision, services.table.submit, services.bus, services.hub)
    services.pipeline = new
    use_game = getattr(new, "use_game", None)
    if callable(use_game):  # vision follows each new game's pieces, as the first pipeline did
        services.table.on_game(use_game)
    new.start()
    return jsonify(playing=name, description=DEMOS[name])
