"""The app's long-lived resources, opened by :func:`init_app` and reached with ``get_x()``.

Like ``get_db()`` in Flask's tutorial: the log, the table, the event bus, the live picture, the
pipeline and the bidding room live in ``app.extensions["tabletop"]``; views call
:func:`get_table`, :func:`get_bus`... Tests give the app a fake frame source and fake vision
through its config (``SOURCE``, ``VISION``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask, current_app

from calibration.model import Calibration
from live.bidding import BidRoom
from live.bus import Bus
from live.log import GameLog
from live.pipeline import FrameHub, Pipeline, Vision
from live.sources import Source
from live.table import Table

JOIN_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I


JOIN_CODE_LENGTH = 6
"""``32**6``, about 10**9 codes: with the server's limit on wrong codes (:mod:`web.guessing`)
a guessing run gets through fewer than 10**-6 of them in an hour."""


def new_join_code(length: int = JOIN_CODE_LENGTH) -> str:
    """A short code to read off the screen: ``"K7QM2X"``."""
    return "".join(secrets.choice(JOIN_ALPHABET) for _ in range(length))


@dataclass
class Services:
    """Everything a running dashboard holds."""

    log: GameLog
    bus: Bus
    hub: FrameHub
    table: Table
    bids: BidRoom
    calibration: Calibration | None = None
    pipeline: Pipeline | None = None
    drift: dict[str, Any] | None = None
    drift_checked: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def close(self) -> None:
        """Stops the pipeline, ends the streams and closes the log."""
        if self.pipeline is not None:
            self.pipeline.stop()
        self.bus.close()
        self.log.close()


def init_app(app: Flask) -> Services:
    """Opens the log, resumes its game and starts the pipeline when a source is configured."""
    cfg = app.config
    log_path = cfg.get("LOG_PATH")
    if log_path is None:
        Path(app.instance_path).mkdir(parents=True, exist_ok=True)
        log_path = str(Path(app.instance_path) / "table.db")
    log = GameLog(log_path)
    bus = Bus()
    hub = FrameHub()
    table = Table(log, bus, snapshot=hub.snapshot)
    bids = BidRoom(table, bus)
    services = Services(log, bus, hub, table, bids, cfg.get("CALIBRATION"))
    if services.calibration is not None:
        table.to_image = services.calibration.to_image
        table.image_size = services.calibration.image_size
    source: Source | None = cfg.get("SOURCE")
    if source is not None:
        vision: Vision | None = cfg.get("VISION")
        if vision is None:
            from live.vision_glue import load_vision

            if services.calibration is None:
                raise ValueError("a frame source needs a calibration (or a VISION in the config)")
            vision = load_vision(services.calibration, cfg.get("GAME"),
                                 area_mm=cfg.get("AREA_MM"))
        services.pipeline = Pipeline(source, vision, table.submit, bus, hub)
        table.on_game(services.pipeline.use_game)  # each game's pieces, at its sizes
        if cfg.get("PIPELINE_AUTOSTART", True):
            services.pipeline.start()
    app.extensions["tabletop"] = services
    return services


def get_services() -> Services:
    """The current app's resources."""
    return current_app.extensions["tabletop"]  # type: ignore[no-any-return]


def get_table() -> Table:
    """The live table of the current app."""
    return get_services().table


def get_bus() -> Bus:
    """The event bus of the current app."""
    return get_services().bus


def get_log() -> GameLog:
    """The log of the current app."""
    return get_services().log
