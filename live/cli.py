"""``tabletop replay``: the whole pipeline over a recording, without the web.

Also the option parsers and checks that ``tabletop serve`` and ``tabletop demo`` (in
:mod:`web.cli`) share with it: players, ``--repeat``, ``--area``, the setup, the calibration and
the first frame of a recording.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import threading
from pathlib import Path
from typing import Any

from referee.registry import find_spec, names_text
from tabletop.errors import InputError, UsageError
from tabletop.events import Setup


def game_help(what: str = "") -> str:
    """``--game``'s help: the registered games' names (any of their aliases is taken too)."""
    return f"{what}{names_text()} (or an alias)"


def register(sub: argparse._SubParsersAction) -> None:
    """Adds ``replay``."""
    p = sub.add_parser("replay", help="the full pipeline over a recording",
                       description="Runs every frame of a video or folder of images through "
                                   "vision and the referee. The game record goes to stdout, or "
                                   "into the log with --db. Progress on stderr.")
    p.add_argument("source", metavar="VIDEO_OR_DIR")
    p.add_argument("--calibration", metavar="CAL", required=True)
    p.add_argument("--game", required=True, help=game_help())
    p.add_argument("--players", help="comma-separated (default: the game's usual colours)")
    p.add_argument("--options", help="the setup's options as JSON, e.g. "
                   "'{\"variant\": \"slalom\"}'")
    p.add_argument("--db", metavar="LOG", help="store the game in this log instead of stdout")
    p.add_argument("--repeat", type=_repeat, default=None, metavar="N",
                   help="show each image of a folder N times (a still picture must be seen "
                        "several times to count as a table at rest; default: as the stabiliser "
                        "needs)")
    p.add_argument("--area", type=_area, metavar="X0,Y0,X1,Y1|auto",
                   help="the play area in table mm (pieces are looked for only there); auto: "
                        "all the table in view beside the calibration mat")
    p.set_defaults(func=run_replay)


# ----------------------------------------------------------------------------- helpers

def _players(game: str, text: str | None) -> tuple[str, ...]:
    if text:
        names = tuple(n.strip() for n in text.split(",") if n.strip())
        if not names:
            raise UsageError("--players: give names separated by commas")
        return names
    return find_spec(game).default_players


def _repeat(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= n <= 1000:
        raise argparse.ArgumentTypeError(f"{text} is not 1..1000")
    return n


def _area(text: str) -> tuple[float, float, float, float] | str:
    if text == "auto":
        return text
    try:
        x0, y0, x1, y1 = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not X0,Y0,X1,Y1 in mm") from None
    from tabletop.limits import TABLE_MM

    if not all(math.isfinite(v) and abs(v) <= TABLE_MM for v in (x0, y0, x1, y1)):
        raise argparse.ArgumentTypeError(f"{text!r}: every value must be a number of mm "
                                         f"within {TABLE_MM:.0f} of the origin")
    if not (x1 > x0 and y1 > y0):
        raise argparse.ArgumentTypeError(f"{text!r}: X1 must exceed X0 and Y1 exceed Y0")
    return (x0, y0, x1, y1)


def _setup(game: str, players: tuple[str, ...], options: dict[str, Any] | None = None) -> Any:
    """The setup of ``--game``, ``--players`` and ``--options``, checked as any input event."""
    from tabletop.events import parse_event

    return parse_event(Setup(game, players, options or {}).to_json(), "--game/--players/--options")


def _options(text: str | None) -> dict[str, Any]:
    if not text:
        return {}
    from tabletop import jsonin

    obj = jsonin.loads(text, "--options", UsageError)
    if not isinstance(obj, dict):
        raise UsageError("--options: must be a JSON object")
    return obj


def _calibration(path: str | None) -> Any:
    if path is None:
        return None
    from calibration.model import Calibration

    return Calibration.load(path)


def _make_folder(db: Path) -> None:
    """Creates the log's folder, or a one-line error naming it."""
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"{db}: cannot create its folder {db.parent} ({exc.strerror})") from None


def check_first_frame(source: Any, cal: Any, cal_path: str, source_path: str) -> None:
    """Refuses a recording whose pictures are not of the calibration's size, naming both."""
    from live.sources import Frame

    try:
        first = next((i for i in source.items() if isinstance(i, Frame)), None)
    finally:
        source.close()
    if first is None:
        raise InputError(f"{source_path}: no picture in this recording")
    h, w = first.image_bgr.shape[:2]
    cw, ch = cal.image_size
    if (w, h) != (cw, ch):
        raise InputError(f"{source_path}: {first.name} is {w}x{h} but {cal_path} was made for "
                         f"{cw}x{ch}; calibrate again at this resolution")


def stabiliser_frames() -> int:
    """How many times a still image is shown so that the stabiliser takes it as at rest."""
    from live.vision_glue import still_frames

    return still_frames() + 1


def resolve_area(area: Any, source: Any, cal: Any) -> tuple[float, float, float, float] | None:
    """``--area``: as given, or ``auto``: the table beside the mat in the source's first frame."""
    if area != "auto":
        return area  # type: ignore[no-any-return]
    from live.sources import Frame
    from live.vision_glue import play_area_without_mat

    first = None
    try:
        for item in source.items():
            if isinstance(item, Frame):
                first = item.image_bgr
                break
    finally:
        source.close()
    if first is None:
        raise InputError("--area auto: the source gave no frame to find the mat in")
    found = play_area_without_mat(cal, first)
    if found is None:
        print("tabletop: --area auto: no calibration mat in view; searching the whole picture",
              file=sys.stderr)
    return found


# ----------------------------------------------------------------------------- replay

class _Progress:
    """A one-line progress bar on stderr."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.last = -1

    def __call__(self, n: int, total: int | None) -> None:
        if total:
            pct = int(100 * n / total)
            if pct == self.last and n != total:
                return
            self.last = pct
            bar = "#" * (pct // 4) + "." * (25 - pct // 4)
            line = f"replay [{bar}] {n}/{total} frames"
        else:
            if n % 25:
                return
            line = f"replay {n} frames"
        sys.stderr.write(("\r" + line) if self.tty else (line + "\n"))
        sys.stderr.flush()

    def done(self, n: int) -> None:
        if self.tty:
            sys.stderr.write("\n")
        sys.stderr.write(f"replay: {n} frames done\n")


REPLAY_KEY = "replay"
"""The ``meta`` row of a replay into a log: its source, game and how far it got."""


def _unfinished_replay(log: Any, table: Any, mark: dict[str, Any]) -> int:
    """How many items of the recording a stopped replay of it into this log had stored
    (0: nothing to resume: start a new game)."""
    saved = log.meta(REPLAY_KEY)
    if saved is None:
        return 0
    try:
        info = json.loads(saved)
    except ValueError:
        return 0
    same = all(info.get(k) == v for k, v in mark.items())
    if (not same or info.get("done") or info.get("game_id") != table.game_id
            or table.game_id is None):
        return 0
    return int(info.get("items") or 0)


def run_replay(args: argparse.Namespace) -> int:
    """``tabletop replay``."""
    from live.bus import Bus
    from live.log import GameLog
    from live.pipeline import run_sync
    from live.sources import CountedSource, open_source
    from live.table import Table
    from live.vision_glue import load_vision
    from referee.registry import find_game

    find_game(args.game)
    cal = _calibration(args.calibration)
    repeat = args.repeat if args.repeat is not None else stabiliser_frames()
    if repeat < 1:
        raise UsageError("--repeat must be 1 or more")
    source = open_source(args.source, repeat=repeat)
    if getattr(source, "live", False):
        raise UsageError("replay takes a recording (a video file or a folder), not a camera")
    check_first_frame(source, cal, args.calibration, args.source)
    area = resolve_area(args.area, source, cal)
    vision = load_vision(cal, args.game, area_mm=area)
    db = args.db or ":memory:"
    if args.db:
        _make_folder(Path(args.db))
    log = GameLog(db)
    table = Table(log, Bus())
    mark = {"source": str(Path(args.source).resolve()), "game": args.game,
            "repeat": repeat, "area": list(area) if area else None}
    resume = _unfinished_replay(log, table, mark)
    counted = CountedSource(source)
    if resume:
        sys.stderr.write(f"replay: resuming game {table.game_id} in {args.db} after item "
                         f"{resume} (a replay that was stopped; the items before it are seen "
                         f"again, their events are already stored)\n")
    else:
        has_own_setup = any(kind == "event" and value.type == "setup"
                            for kind, value in getattr(source, "lines", ()))
        if not has_own_setup:
            table.submit(_setup(args.game, _players(args.game, args.players),
                               _options(args.options)))
    lock = threading.Lock()

    def submit(event: Any, jpeg: bytes | None = None) -> Any:
        if counted.index < resume:
            return None  # stored by the replay that was stopped
        with lock:  # the replay's progress is stored with each event, in its transaction
            game_id = table.game_id if not isinstance(event, Setup) else "new"
            progress = {**mark, "game_id": game_id, "items": counted.index + 1, "done": False}
            with log.along(meta={REPLAY_KEY: json.dumps(progress)}):
                done = table.submit(event, jpeg)
            if game_id == "new" and args.db:
                log.set_meta(REPLAY_KEY, json.dumps({**progress, "game_id": table.game_id}))
            return done

    progress = _Progress()
    try:
        n = run_sync(counted, vision, submit, progress,
                     lambda pipe: table.on_game(pipe.use_game), known=lambda: table.accepted,
                     preview=table.preview)
    except InputError as exc:  # name the picture it happened at
        log.close()
        raise InputError(f"{args.source}: {counted.name}: {exc}") from None
    progress.done(n)
    if args.db:
        saved = log.meta(REPLAY_KEY)
        if saved is not None:
            log.set_meta(REPLAY_KEY, json.dumps({**json.loads(saved), "done": True}))
        sys.stderr.write(f"replay: game {table.game_id} stored in {args.db} "
                         f"({table.next_seq} events)\n")
    else:
        sys.stdout.write(table.record())
    log.close()
    return 0
