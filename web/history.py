"""Past games: the list, each game's moves, and a step-by-step replay with the frames.

- ``GET /history``: the games in the log.
- ``GET /history/<id>``: one game, stepped through verdict by verdict.
- ``GET /history/<id>/steps.json``: its steps (input, outputs, the table then, a picture or not).
- ``GET /history/<id>/frame/<seq>.jpg``: the picture kept with the verdict on input ``seq``.
- ``GET /history/export?game=ID&format=moves|ppn|svg|png``: a game to read or share (the current
  game without ``game``).
"""

from __future__ import annotations

import contextlib
from typing import Any

from flask import Blueprint, Response, abort, jsonify, render_template, request

from referee.record import Referee
from tabletop.errors import InputError
from tabletop.events import (
    Correction,
    Event,
    Notice,
    SceneSeen,
    Setup,
    Verdict,
    iter_record_lines,
)
from tabletop.limits import MAX_ID, parse_id
from tabletop.scene import Scene
from web.dashboard import page_context
from web.services import get_log, get_services

bp = Blueprint("history", __name__, url_prefix="/history")


def _known_game(game_id: int) -> int:
    """``game_id`` when the log holds that game, else a 404 (ids past SQLite's range too)."""
    if not 0 <= game_id <= MAX_ID or not get_log().has_game(game_id):
        abort(404, description=f"no game {str(game_id)[:20]} in this log")
    return game_id


@bp.get("")
def index() -> str:
    """The list of games."""
    return render_template("history.html", page="history",
                           games=[g.to_json() for g in get_log().games()], **page_context())


@bp.get("/<int:game_id>")
def game(game_id: int) -> str:
    """One game's replay page."""
    _known_game(game_id)
    summary = next(g for g in get_log().games() if g.id == game_id)
    return render_template("game.html", page="history", game=summary.to_json(),
                           **page_context())


def describe_input(event: Event) -> str:
    """A short line for the move list: ``roll suns 3``, ``scene (14 pieces)``."""
    d = event.to_json()
    if isinstance(event, SceneSeen):
        return f"table seen ({len(event.scene.pieces)} pieces)"
    if isinstance(event, Correction):
        return f"correction: {event.op}"
    if isinstance(event, Setup):
        return f"new game of {event.game}: {', '.join(event.players)}"
    words = [str(v) for k, v in d.items() if k not in ("type", "t", "options")]
    return " ".join([event.type, *words])


def steps(game_id: int) -> list[dict[str, Any]]:
    """Every input of a game with its outputs, the accepted table after it and its picture."""
    log = get_log()
    pictures = set(log.snapshot_seqs(game_id))
    accepted = dict(log.scenes(game_id))
    out: list[dict[str, Any]] = []
    table: Scene | None = None
    seen: Scene | None = None
    referee = Referee()  # what the referee knew after each step (course, worms, board)
    table_now = get_services().table  # places pieces on the picture (the calibration now)
    secret = table_now.secret_bids() if game_id == table_now.game_id else frozenset()
    for seq, event in log.event_rows(game_id):
        if event.is_input:
            with contextlib.suppress(InputError):
                referee.push(event, seq)
            if seq in accepted:
                table = accepted[seq]
            if isinstance(event, SceneSeen):
                seen = event.scene
            elif isinstance(event, Correction) and seen is not None:
                with contextlib.suppress(InputError):
                    seen = event.apply(seen)
            text = describe_input(event)
            if seq in secret:  # a bid of a round still being bid: who, never what
                text = f"bid {getattr(event, 'player', '')} (secret until every player has bid)"
            out.append({"seq": seq, "t": event.t, "type": event.type,
                        "text": text, "outputs": [],
                        "table": None if table is None else table.to_json(),
                        "seen": None if seen is None or not isinstance(
                            event, SceneSeen | Correction) else seen.to_json(),
                        "picture": seq in pictures, "describe": _plain(referee.describe())})
        elif out:
            d = event.to_json()
            if isinstance(event, Verdict):
                d["text"] = ("legal" if event.legal else f"illegal ({event.rule})") + \
                    f": {event.reason}"
                if not event.legal and seen is not None and out[-1]["seen"] is not None:
                    d.update(table_now.pixels_of(seen, event))
            elif isinstance(event, Notice):
                d["text"] = event.message
            else:
                who = getattr(event, "player", None)
                d["text"] = event.type + (f" {who}" if who else "")
            out[-1]["outputs"].append(d)
    return out


def _plain(obj: Any) -> Any:
    """A game's description as plain JSON values (tuples and frozen mappings unfolded)."""
    if isinstance(obj, dict) or hasattr(obj, "items"):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_plain(v) for v in obj]
    return obj


@bp.get("/<int:game_id>/steps.json")
def steps_json(game_id: int) -> Any:
    """The steps of one game."""
    return jsonify(steps(_known_game(game_id)))


@bp.get("/<int:game_id>/frame/<int:seq>.jpg")
def frame(game_id: int, seq: int) -> Response:
    """The picture kept with a verdict."""
    jpeg = get_log().snapshot(game_id, seq) if max(game_id, seq) <= MAX_ID else None
    if jpeg is None:
        abort(404, description="no picture for that step")
    return Response(jpeg, mimetype="image/jpeg",
                    headers={"Cache-Control": "private, max-age=3600"})


EXPORT_TYPES = {"moves": ("text/plain; charset=utf-8", "txt"),
                "ppn": ("text/plain; charset=utf-8", "ppn"),
                "svg": ("image/svg+xml", "svg"), "png": ("image/png", "png")}


@bp.get("/export")
def export() -> Response:
    """One game as a move list, PPN, or its diagram (SVG, PNG)."""
    from referee.export.cli import export as export_record

    fmt = request.args.get("format", "moves")
    if fmt not in EXPORT_TYPES:
        abort(400, description=f"format must be one of {', '.join(EXPORT_TYPES)}")
    game = request.args.get("game")
    table = get_services().table
    game_id = None if game is None else parse_id(game)
    if game is not None and (game_id is None or not get_log().has_game(game_id)):
        abort(404, description="no such game in this log")
    text = table.record(game_id, public=True)
    if not text.strip():
        abort(404, description="no game yet")
    try:
        data = export_record(iter_record_lines(text.splitlines(), "record"), fmt)
    except InputError as exc:
        abort(400, description=str(exc))
    mimetype, ext = EXPORT_TYPES[fmt]
    name = f"game-{game or table.game_id}.{ext}"
    return Response(data, mimetype=mimetype,
                    headers={"Content-Disposition": f"inline; filename={name}"})
