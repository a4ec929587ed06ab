"""``tabletop demo`` and ``tabletop serve``: the dashboard (``replay`` is :mod:`live.cli`)."""

from __future__ import annotations

import argparse
import ipaddress
import logging
import socket
import sys
import tempfile
from pathlib import Path
from typing import Any

from live.cli import (
    _area,
    _calibration,
    _make_folder,
    _players,
    _repeat,
    _setup,
    game_help,
    resolve_area,
    stabiliser_frames,
)
from tabletop.cli import number_in
from tabletop.errors import InputError, UsageError

ROOT = Path(__file__).resolve().parents[1]
DEMO_DIR = ROOT / "sample_images" / "worm_derby"
DEFAULT_DB = Path("out") / "table.db"


def register(sub: argparse._SubParsersAction) -> None:
    """Adds ``demo`` and ``serve``."""
    p = sub.add_parser("demo", help="the whole product on the bundled sample playthrough",
                       description="Replays sample_images/worm_derby through the real pipeline "
                                   "into a fresh log and serves the dashboard on 127.0.0.1.")
    p.add_argument("--port", type=_port, default=5000, help="port (default 5000; 0: any free)")
    p.add_argument("--db", help="the log file (default: a fresh one in a temporary folder)")
    p.add_argument("--pace", type=number_in(0, 60, " seconds"), default=1.2, metavar="SECONDS",
                   help="how long each sample frame is shown (default 1.2)")
    p.add_argument("--sample", default=str(DEMO_DIR), help=argparse.SUPPRESS)
    p.set_defaults(func=run_demo)

    p = sub.add_parser("serve", help="the live dashboard",
                       description="Runs the pipeline on a camera or a recording and serves the "
                                   "dashboard. Without --camera or --source it serves the log "
                                   "only (rolls, corrections and bids typed in).")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--camera", type=int, metavar="N", help="OpenCV camera index")
    src.add_argument("--source", metavar="VIDEO_OR_DIR",
                     help="a video file, a folder of images or a timeline (script.jsonl)")
    p.add_argument("--calibration", metavar="CAL", help="CAL.json (needed with a camera/source)")
    p.add_argument("--game", help=game_help("rule set of a new game when the log has none: "))
    p.add_argument("--players", help="players of that new game, comma-separated")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1; another address lets phones "
                        "join and then every change needs the join code)")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="another host name the dashboard answers to (e.g. the machine's name "
                        "on the network); others are refused, against DNS rebinding")
    p.add_argument("--port", type=_port, default=5000, help="port (default 5000; 0: any free)")
    p.add_argument("--db", default=str(DEFAULT_DB), metavar="LOG",
                   help=f"the log; an existing one is resumed (default {DEFAULT_DB})")
    p.add_argument("--repeat", type=_repeat, default=None, metavar="N",
                   help="show each image of a folder N times, over a second (default: as the "
                        "stabiliser needs)")
    p.add_argument("--area", type=_area, metavar="X0,Y0,X1,Y1|auto",
                   help="the play area in table mm (pieces are looked for only there); auto: "
                        "all the table in view beside the calibration mat")
    p.set_defaults(func=run_serve)



# ----------------------------------------------------------------------------- helpers

def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port (0..65535)")
    return port


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _cannot_listen(host: str, port: int) -> str | None:
    """Why a server could not listen there (werkzeug would exit with a message), or None."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        return str(exc.strerror)
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(addr)
        except OSError as exc:
            return str(exc.strerror)
    return None


IDLE_TIMEOUT_S = 30.0
"""A connection that sends or takes nothing for this long is closed (its thread freed)."""


def _timely_handler() -> Any:
    from werkzeug.serving import WSGIRequestHandler

    class Handler(WSGIRequestHandler):
        timeout = IDLE_TIMEOUT_S  # socketserver sets it on each connection's socket

    return Handler


def serve_app(app: Any, host: str, port: int, banner: str | None = None,
              any_port_if_busy: bool = False) -> int:
    """Serves ``app`` until Ctrl-C (threaded, never in debug mode)."""
    from werkzeug.serving import make_server

    from live.announce import announce_source_changes

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # not a line per picture polled
    problem = _cannot_listen(host, port)
    if problem and any_port_if_busy:
        print(f"tabletop: port {port} is busy; using a free one", file=sys.stderr)
        port, problem = 0, _cannot_listen(host, 0)
    if problem:
        app.extensions["tabletop"].close()
        raise InputError(f"cannot listen on {host}:{port} ({problem})")
    server = make_server(host, port, app, threaded=True, request_handler=_timely_handler())
    announce_source_changes(app.extensions["tabletop"].bus)  # a lost camera on the terminal
    shown_host = f"[{host}]" if ":" in host else host
    url = f"http://{shown_host}:{server.server_port}/"
    print(f"tabletop: dashboard at {url}", flush=True)
    if banner:
        print(banner, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        app.extensions["tabletop"].close()
    return 0


# ----------------------------------------------------------------------------- commands

def run_serve(args: argparse.Namespace) -> int:
    """``tabletop serve``."""
    from live.sources import open_source
    from web import create_app

    cal = _calibration(args.calibration)
    source = None
    if args.camera is not None or args.source is not None:
        if cal is None:
            raise UsageError("--camera/--source need --calibration CAL.json")
        spec = args.camera if args.camera is not None else args.source
        repeat = args.repeat if args.repeat is not None else stabiliser_frames()
        if repeat < 1:
            raise UsageError("--repeat must be 1 or more")
        source = open_source(spec, repeat=repeat, realtime=True, hold_s=1.0)
        area = resolve_area(args.area, source, cal)
    else:
        area = None
    if args.game is not None:
        from referee.registry import find_game

        find_game(args.game)
    db = Path(args.db)
    if str(db) != ":memory:":
        _make_folder(db)
    lan = not _is_loopback(args.host)
    app = create_app({"LOG_PATH": str(db), "SOURCE": source, "CALIBRATION": cal,
                      "CALIBRATION_PATH": args.calibration, "GAME": args.game or "worm-derby",
                      "AREA_MM": area, "LAN": lan, "PIPELINE_AUTOSTART": False,
                      "BIND_HOST": args.host, "ALLOWED_HOSTS": tuple(args.allow_host)})
    services = app.extensions["tabletop"]
    if services.table.game_id is None and args.game is not None:
        services.table.submit(_setup(args.game, _players(args.game, args.players)))
    if services.pipeline is not None:
        services.pipeline.start()
    resumed = services.table.game_id
    banner = f"tabletop: log {db}"
    if resumed:
        banner += (f", game {resumed} ({services.table.referee.describe()['game']}, "
                   f"{services.table.next_seq} events)")
    if lan:
        banner += f"\ntabletop: join code {app.config['JOIN_CODE']} (needed for every change)"
    return serve_app(app, args.host, args.port, banner)


def run_demo(args: argparse.Namespace) -> int:
    """``tabletop demo``."""
    from calibration.model import Calibration
    from live.sources import TimelineSource
    from web import create_app

    sample = Path(args.sample)
    script = sample / "script.jsonl"
    cal_path = sample / "calibration.json"
    if not script.is_file() or not cal_path.is_file():
        raise InputError(f"{sample}: the demo's sample playthrough is not there "
                         f"(need script.jsonl and calibration.json)")
    if args.pace < 0:
        raise UsageError("--pace must be 0 or more seconds")
    cal = Calibration.load(cal_path)
    db = Path(args.db) if args.db else Path(tempfile.mkdtemp(prefix="tabletop-demo-")) / "demo.db"
    repeat = stabiliser_frames()
    source = TimelineSource(script, repeat=repeat, hold_s=args.pace)
    area = resolve_area("auto", TimelineSource(script), cal)
    app = create_app({"LOG_PATH": str(db), "SOURCE": source, "CALIBRATION": cal,
                      "GAME": "worm-derby", "AREA_MM": area, "PIPELINE_AUTOSTART": True,
                      "DEMO_SAMPLE": str(sample), "DEMO_REPEAT": repeat,
                      "DEMO_PACE": args.pace})  # the page's demo menu plays them again
    return serve_app(app, "127.0.0.1", args.port,
                     f"tabletop: replaying {sample} into {db}; Ctrl-C stops",
                     any_port_if_busy=True)
