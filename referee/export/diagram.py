"""The table diagram of a game's end, as plain shapes in millimetres (drawn by
:mod:`~referee.export.svg` and :mod:`~referee.export.png`).

The shapes are the last accepted table (or the last table seen), as the dashboard draws it:
tiles as turned squares (face-down tiles brown), coins and worm segments in their colours,
posts, tokens, and the game's own marks (its ``describe()``'s ``shapes``, as the dashboard
draws them); a Jungle game is its board with each animal where the referee has it.

>>> from tabletop.scene import Piece, Scene
>>> shapes_of_scene(Scene.of([Piece("coin", 10, 20, suit="suns")]))[0].kind
'circle'
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass

from referee.record import Referee
from tabletop.boards import jungle as board
from tabletop.events import Event, SceneSeen
from tabletop.kinds import PIECE_KINDS
from tabletop.pieceset import DEFAULT_PIECES, SEGMENT_COLOURS_HEX, SUIT_COLOURS_HEX, PieceSet
from tabletop.scene import Scene

FELT = "#1f4e3d"
JUNGLE_FILL = {"water": "#3f7fb5", "trap": "#b48a4c", "den": "#7a4f2a", "land": "#6f9a5a"}
SIDE_FILL = ("#D55E00", "#0072B2")


@dataclass(frozen=True)
class Shape:
    """One thing to draw: ``circle`` (``points`` = [centre], ``r``), ``polygon``, ``line`` or
    ``text`` (``points`` = [its middle], ``size`` its height), in mm, with fill and stroke
    colours."""

    kind: str
    points: tuple[tuple[float, float], ...]
    fill: str | None = None
    stroke: str | None = None
    r: float = 0.0
    text: str = ""
    width: float = 1.0
    size: float = 10.0


@dataclass(frozen=True)
class Diagram:
    """What to draw and the box round it (``x0, y0, width, height`` in mm)."""

    title: str
    box: tuple[float, float, float, float]
    shapes: tuple[Shape, ...]


def _colour(name: str | None) -> str:
    return SUIT_COLOURS_HEX.get(name or "") or SEGMENT_COLOURS_HEX.get(name or "") or "#bbbbbb"


def _square(x: float, y: float, side: float, angle_deg: float) -> tuple[tuple[float, float], ...]:
    h, a = side / 2, math.radians(angle_deg)
    c, s = math.cos(a), math.sin(a)
    return tuple((x + c * dx - s * dy, y + s * dx + c * dy)
                 for dx, dy in ((-h, -h), (h, -h), (h, h), (-h, h)))


def shapes_of_scene(scene: Scene, pieces: PieceSet = DEFAULT_PIECES) -> list[Shape]:
    """The pieces of a scene as shapes (tiles under coins)."""
    order = {k.name: k.layer for k in PIECE_KINDS.values()}
    out: list[Shape] = []
    for p in sorted(scene.pieces, key=lambda q: order.get(q.kind, 9)):
        size = pieces.size_mm(p.kind)
        if PIECE_KINDS[p.kind].outline == "square":
            side = size
            fill = ("#8a7a5c" if p.kind == "tile" and p.face != "up" else
                    _colour(p.suit) if p.kind == "tile" and p.suit else "#f3ead2")
            out.append(Shape("polygon", _square(p.x_mm, p.y_mm, side, p.angle_deg or 0.0),
                             fill, "#2b2417", width=1.2))
            if p.kind == "token":
                out.append(Shape("text", ((p.x_mm, p.y_mm),), "#222222",
                                 text=str(p.id if p.id is not None else "?")))
        else:
            r = size / 2
            fill = "#d9d9d9" if p.kind == "post" else _colour(p.suit or p.color)
            out.append(Shape("circle", ((p.x_mm, p.y_mm),), fill, "#ffffff", r=r, width=1.4))
    return out


def _jungle(describe: dict) -> list[Shape]:
    sq = board.SQUARE_MM
    out: list[Shape] = []
    traps = set().union(*board.TRAPS)
    kinds = {k: v for v, ks in (("water", board.WATER), ("trap", traps), ("den", board.DENS))
             for k in ks}
    for f in range(board.N_FILES):
        for r in range(1, board.N_RANKS + 1):
            square = board.square_index(f, r)
            name = board.square_name(square)
            x, y = f * sq, (board.N_RANKS - r) * sq  # from the first player's seat: rank 1 below
            out.append(Shape("polygon", ((x, y), (x + sq, y), (x + sq, y + sq), (x, y + sq)),
                             JUNGLE_FILL[kinds.get(square, "land")], "#2c4a3c"))
            out.append(Shape("text", ((x + 6, y + 5),), "#00000088", text=name, size=6.0))
    for name, a in (describe.get("squares") or {}).items():
        square = board.parse_square(name)
        x = board.file_of(square) * sq + sq / 2
        y = (board.N_RANKS - board.rank_of(square)) * sq + sq / 2
        out.append(Shape("circle", ((x, y),), SIDE_FILL[int(a.get("side", 0)) % 2], "#ffffff",
                         r=sq * 0.4))
        out.append(Shape("text", ((x, y),), "#ffffff", text=str(a.get("animal", "?"))[:3]))
    return out


_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")


def _number(v: object, default: float = 0.0) -> float:
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else default


def _point(v: object) -> tuple[float, float] | None:
    if isinstance(v, list | tuple) and len(v) >= 2:
        return (_number(v[0]), _number(v[1]))
    return None


def game_shapes(describe: dict) -> list[Shape]:
    """A game's own marks (``describe()["shapes"]``: circles, rects, lines and texts in mm,
    see ``web/static/diagram.js``) as shapes.

    >>> [s.kind for s in game_shapes({"shapes": [{"shape": "circle", "x": 1, "y": 2, "r": 3,
    ...     "label": "7"}, {"shape": "line", "from": [0, 0], "to": [5, 5]}]})]
    ['circle', 'text', 'line']
    """
    out: list[Shape] = []
    for sh in describe.get("shapes") or []:
        if not isinstance(sh, dict):
            continue
        kind, colour = sh.get("shape"), sh.get("colour")
        fill = (colour if isinstance(colour, str) and _HEX.match(colour) else
                _colour(colour) if isinstance(colour, str) else "#9aa3ad")
        x, y = _number(sh.get("x")), _number(sh.get("y"))
        if kind == "circle":
            out.append(Shape("circle", ((x, y),), fill, "#222233", r=_number(sh.get("r"), 5.0)))
        elif kind == "rect":
            w, h = _number(sh.get("w"), 10.0), _number(sh.get("h"), 10.0)
            out.append(Shape("polygon", ((x, y), (x + w, y), (x + w, y + h), (x, y + h)), fill,
                             "#222233"))
        elif kind == "line":
            a, b = _point(sh.get("from")), _point(sh.get("to"))
            if a is not None and b is not None:
                out.append(Shape("line", (a, b), None, fill if colour else "#222233", width=2.0))
        text = sh.get("text") if kind == "text" else sh.get("label")
        if text is not None and kind in ("circle", "rect", "text"):
            out.append(Shape("text", ((x, y),), "#ffffff", text=str(text)))
    return out


def diagram(events: Iterable[Event]) -> Diagram:
    """The diagram of a record's last table."""
    referee = Referee()
    seen: Scene | None = None
    for seq, e in enumerate(events):
        if e.is_input:
            referee.push(e, seq)
            if isinstance(e, SceneSeen) and not e.scene.hand:
                seen = e.scene
    d = referee.describe()
    title = f"{d.get('game') or 'no game'}: {', '.join(d.get('players') or [])}"
    if d.get("squares") is not None:
        shapes = _jungle(d)
        return Diagram(title, (-10.0, -10.0, board.BOARD_MM[0] + 20, board.BOARD_MM[1] + 20),
                       tuple(shapes))
    table = getattr(referee.state, "table", None) or seen or Scene.of([])
    pieces = referee.game.pieces if referee.game is not None else DEFAULT_PIECES
    shapes = shapes_of_scene(table, pieces) + game_shapes(d)
    pts = [q for s in shapes for q in s.points]
    if not pts:
        return Diagram(title, (0.0, 0.0, 300.0, 200.0), ())
    pad = 40.0
    x0, x1 = min(p[0] for p in pts) - pad, max(p[0] for p in pts) + pad
    y0, y1 = min(p[1] for p in pts) - pad, max(p[1] for p in pts) + pad
    return Diagram(title, (x0, y0, x1 - x0, y1 - y0), tuple(shapes))
