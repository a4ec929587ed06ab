"""The players' phones: join with the table's code and a colour, then bid in secret.

- ``GET /play``: the phone page (join form, then the bid buttons).
- ``POST /play/join`` ``{"code": "K7QM", "player": "red"}``: remembers the player in the
  (signed) session cookie. A wrong code is a 403.
- ``POST /play/bid`` ``{"bid": "4".."7" | "X", "number": 4..7 (optional, with X)}``.
- ``GET /play/state``: this player's view (their own bid only, until the reveal).
- ``GET /api/bids``: what everyone may see (who has bid, never what; the last reveal).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, render_template, session

from tabletop.errors import InputError
from web.dashboard import page_context
from web.security import BadRequest, code_ok, json_body, note_right_code, note_wrong_code
from web.services import get_services

bp = Blueprint("players", __name__)


def _me() -> str | None:
    player = session.get("player")
    return player if isinstance(player, str) and code_ok(session.get("join_code")) else None


@bp.get("/play")
def play() -> str:
    """The phone page."""
    ctx = page_context()
    ctx["join_code"] = None  # a phone types the code it reads off the table's screen
    game = get_services().table.referee.game
    colours = ctx["segment_colours"]
    if game is not None and all(p in colours for p in game.players):
        colours = {p: colours[p] for p in game.players}  # only the worms in this game
    return render_template("play.html", page="play", me=_me(), colours=colours, **ctx)


@bp.post("/play/join")
def join() -> Any:
    """Joins the table as one player."""
    body = json_body()
    code, player = body.get("code"), body.get("player")
    if not isinstance(code, str) or not isinstance(player, str):
        raise BadRequest("send {\"code\": ..., \"player\": ...}")
    if not code_ok(code):
        note_wrong_code()
        return jsonify(error="that is not this table's join code"), 403
    note_right_code()
    bids = get_services().bids
    try:
        bids.check_player(player)
    except InputError as exc:
        return jsonify(error=str(exc)), 400
    session["join_code"] = code.strip().upper()
    session["player"] = player
    return jsonify(bids.view(player))


@bp.post("/play/leave")
def leave() -> Any:
    """Forgets this phone's player."""
    session.pop("player", None)
    return jsonify(ok=True)


@bp.post("/play/bid")
def bid() -> Any:
    """This player's secret bid."""
    me = _me()
    if me is None:
        return jsonify(error="join the table first (code and colour)"), 403
    body = json_body()
    value, number = body.get("bid"), body.get("number")
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise BadRequest("'bid' must be one of 4, 5, 6, 7, X")
    if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
        raise BadRequest("'number' must be 4..7")
    try:
        return jsonify(get_services().bids.bid(me, value, number))
    except InputError as exc:
        return jsonify(error=str(exc)), 400


@bp.get("/play/state")
def state() -> Any:
    """This player's view of the bidding."""
    me = _me()
    if me is None:
        return jsonify(error="join the table first (code and colour)"), 403
    try:
        return jsonify(get_services().bids.view(me))
    except InputError as exc:
        return jsonify(error=str(exc), active=False), 200


@bp.get("/api/bids")
def public() -> Any:
    """Who has bid (never what) and the last reveal."""
    return jsonify(get_services().bids.status())
