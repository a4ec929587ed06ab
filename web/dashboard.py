"""The main page: the live picture, the diagram, the verdicts and the controls.

- ``GET /``: the dashboard page.
- ``GET /video.mjpeg``: the annotated live picture as an MJPEG stream.
- ``GET /frame.jpg``: the latest annotated picture (404 before the first frame).
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, current_app, render_template, request

from referee.registry import specs
from tabletop.kinds import PIECE_KINDS
from tabletop.pieceset import SEGMENT_COLOURS_HEX, SUIT_COLOURS_HEX
from web.services import get_services

bp = Blueprint("dashboard", __name__)

BOUNDARY = "frame"


def is_local_request() -> bool:
    """True for a browser on this machine (the table's own screen)."""
    return request.remote_addr in ("127.0.0.1", "::1")


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent), or None."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            addr = s.getsockname()[0]
    except OSError:
        return None
    return None if addr.startswith("127.") else str(addr)


def play_url() -> str | None:
    """Where phones open the bidding page: this server's LAN address (LAN mode only)."""
    if not current_app.config.get("LAN"):
        return None
    port = request.host.rsplit(":", 1)[1] if ":" in request.host else "80"
    host = request.host.rsplit(":", 1)[0]
    if host in ("127.0.0.1", "localhost", "[::1]"):
        host = lan_address() or host
    return f"http://{host}:{port}/play"


def page_context() -> dict[str, Any]:
    """What every page's template needs."""
    cfg = current_app.config
    show_code = not cfg.get("LAN") or is_local_request()
    return {
        "join_code": cfg["JOIN_CODE"] if show_code else None,
        "play_url": play_url(),
        "lan": bool(cfg.get("LAN")),
        "game_specs": specs(),
        "rulesets": [s.to_json() for s in specs()],
        "ppn_games": [s.name for s in specs() if s.ppn],
        "piece_kinds": {k.name: k.to_json() for k in PIECE_KINDS.values()},
        "default_game": cfg.get("GAME"),
        "suit_colours": dict(SUIT_COLOURS_HEX),
        "segment_colours": dict(SEGMENT_COLOURS_HEX),
    }


@bp.get("/")
def index() -> str:
    """The dashboard."""
    return render_template("dashboard.html", page="dashboard", **page_context())


@bp.get("/frame.jpg")
def frame() -> Response:
    """The latest annotated picture."""
    jpeg = get_services().hub.jpeg
    if jpeg is None:
        return Response('{"error": "no picture yet"}', 404, mimetype="application/json")
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.get("/video.mjpeg")
def video() -> Response:
    """The annotated live picture, pushed as each new frame is ready."""
    services = get_services()
    hub, bus = services.hub, services.bus

    def frames() -> Iterator[bytes]:
        version = 0
        while not bus.closed:
            version, jpeg = hub.wait(version, 1.0)
            if jpeg is None:
                continue
            yield (b"--" + BOUNDARY.encode() + b"\r\nContent-Type: image/jpeg\r\n"
                   b"Content-Length: " + str(len(jpeg)).encode() + b"\r\n\r\n" + jpeg + b"\r\n")

    return Response(frames(), mimetype=f"multipart/x-mixed-replace; boundary={BOUNDARY}",
                    headers={"Cache-Control": "no-store"})
