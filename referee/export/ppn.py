"""A Worm Derby game in Portable Piecepack Notation (PPN, from piecepackr's ``ppn`` tools).

A PPN file is a YAML header between ``---`` and ``...`` and then the movetext: moves named like
``1S.``, each a list of piece moves. Worm Derby is played off any grid, so every piece is placed
and found by coordinates, which PPN allows: ``cbS@(2.362,-0.750)`` puts a suns coin (its suit
side up) there, ``(2.362,-0.750)-(3.112,-0.750)`` moves the piece found there, ``*(x,y)`` takes
it away. PPN's unit is the inch (a piecepack tile is two): x is table millimetres / 25.4 and y
is minus millimetres / 25.4 (PPN's y runs up, the table diagram's down), so a PPN viewer draws
the table as the dashboard does. The set-up is ``SetUp: None`` plus a ``Setup.`` move placing
every piece of the first accepted table.

What PPN cannot say here is written in the file's ``Notes``: a tile's turn on the table (PPN
turns pieces by quarter turns, and a square tile's quarter turn is itself), the rolls and the
referee's verdicts (they are comments in braces), and which coins make a worm.

>>> from tabletop.events import Setup
>>> text = ppn_text([Setup("worm-derby", ("suns", "moons"))])
>>> text.splitlines()[0], "SetUp: None" in text, text.splitlines()[-1]
('---', True, '{ no table was accepted in this record }')
"""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Iterable

from referee.export.walk import GAME_TITLES, Entry, walk
from tabletop.errors import InputError
from tabletop.events import Event, Setup
from tabletop.scene import Piece, Scene

MM_PER_INCH = 25.4
SUIT_LETTERS = {"suns": "S", "moons": "M", "crowns": "C", "arms": "A"}
SAME_PLACE_MM = 0.5

CANNOT = (
    "A tile's turn on the table is not written: PPN turns pieces by quarter turns and a "
    "square tile's quarter turn is the same tile.",
    "Which coins make a worm, and a worm's head, are not written; the coins are.",
    "Die rolls and the referee's verdicts are comments in braces, not moves.",
    "Posts, dice and pawns on the table are left out (Worm Derby does not use them).",
)


def _xy(p: tuple[float, float]) -> str:
    x, y = p[0] / MM_PER_INCH, -p[1] / MM_PER_INCH
    return f"({x + 0.0:.3f},{y + 0.0:.3f})"


def piece_spec(piece: Piece) -> str | None:
    """A piece as a PPN piece spec, or None when PPN's piecepack has no such piece.

    >>> piece_spec(Piece("coin", 0, 0, suit="suns")), piece_spec(Piece.tile(0, 0))
    ('cbS', 'tb')
    """
    suit = SUIT_LETTERS.get(piece.suit or "", "")
    if piece.kind == "coin":
        return "cf" if piece.face == "down" else "cb" + suit
    if piece.kind == "tile":
        return "tf" + suit if piece.face == "up" else "tb"
    return None


def _kept(scene: Scene | None) -> list[Piece]:
    return [] if scene is None else [p for p in scene.pieces if piece_spec(p) is not None]


def _same(a: Piece, b: Piece) -> bool:
    return (piece_spec(a) == piece_spec(b)
            and math.dist(a.centre_mm, b.centre_mm) <= SAME_PLACE_MM)


def _changes(before: list[Piece], after: list[Piece], hint: list[list[list[float]]]
             ) -> list[str]:
    """The piece moves that turn table ``before`` into ``after``."""
    gone, new = list(before), list(after)
    for p in after:  # pieces that stayed
        k = next((i for i, q in enumerate(gone) if _same(p, q)), None)
        if k is not None:
            gone.pop(k)
            new.remove(p)
    out: list[str] = []

    def take(pool: list[Piece], at: tuple[float, float], spec: str | None) -> Piece | None:
        best = min((q for q in pool if spec is None or piece_spec(q) == spec),
                   key=lambda q: math.dist(q.centre_mm, at), default=None)
        if best is not None:
            pool.remove(best)
        return best

    for a, b in hint:  # a worm's coins: from its tail to ahead of its head, in order
        src = take(gone, (a[0], a[1]), None)
        if src is None:
            continue
        dst = take(new, (b[0], b[1]), piece_spec(src))
        if dst is None:
            gone.append(src)
            continue
        out.append(f"{_xy(src.centre_mm)}-{_xy(dst.centre_mm)}")
    for src in list(gone):
        dst = take(new, src.centre_mm, piece_spec(src))
        if dst is not None:
            gone.remove(src)
            out.append(f"{_xy(src.centre_mm)}-{_xy(dst.centre_mm)}")
    out += [f"*{_xy(p.centre_mm)}" for p in gone]
    out += [f"{piece_spec(p)}@{_xy(p.centre_mm)}" for p in new]
    return out


def _comment(texts: list[str]) -> str:
    clean = "; ".join(t.replace("{", "(").replace("}", ")") for t in texts if t)
    return f"{{ {clean} }}" if clean else ""


def ppn_text(events: Iterable[Event], date: str | None = None) -> str:
    """The record as a PPN file (Worm Derby).

    Raises:
        InputError: a game other than Worm Derby (PPN describes piecepack games; the other
            games export as a move list).
    """
    entries = walk(events)
    setup: Setup | None = entries[0].extra.get("setup") if entries else None
    if setup is None:
        raise InputError("the record has no setup")
    if setup.game != "worm-derby":
        raise InputError(f"PPN is written for piecepack games (Worm Derby), not {setup.game}; "
                         f"export it as a move list (--format moves)")
    opts = dict(setup.options)
    header = ["---", "GameType:", f"    Name: {GAME_TITLES['worm-derby']}",
              f"    Variant: {opts.get('variant', 'basic')}",
              f"    Cannibal: {'true' if opts.get('cannibal') else 'false'}",
              "SetUp: None", "Players:"]
    header += [f"    {p}: {SUIT_LETTERS.get(p, p)}" for p in setup.players]
    header += [f"Date: '{date or _dt.date.today().isoformat()}'",
               "Annotator: tabletop referee", "Notes: |",
               "    Table millimetres as inches (x = mm / 25.4, y = -mm / 25.4).",
               "    What this file cannot express:"]
    header += [f"    - {c}" for c in CANNOT]
    header.append("...")
    moves = _movetext(entries)
    return "\n".join(header + moves) + "\n"


def _movetext(entries: list[Entry]) -> list[str]:
    table: list[Piece] | None = None
    pending: list[str] = []
    lines: list[str] = []
    n = 0
    for e in entries[1:]:
        after = _kept(e.after)
        if e.kind != "setup":
            note = e.text if e.legal is not False else (
                f"{e.text} - not legal: {next(v for v in e.verdicts if not v.legal).rule}")
            pending.append(note + (" (undone)" if e.undone else ""))
        if e.after is None:
            continue
        if table is None:
            places = [f"{piece_spec(p)}@{_xy(p.centre_mm)}" for p in after]
            lines.append(f"Setup. {_comment(pending)} " + " ".join(places))
            pending, table = [], after
            continue
        hint = (e.move or {}).get("coins") or []
        changes = _changes(table, after, hint)
        if not changes:
            continue
        n += 1
        letter = SUIT_LETTERS.get(e.player or "", "T")
        lines.append(f"{n}{letter}. {_comment(pending)} " + " ".join(changes))
        pending, table = [], after
    if table is None:
        lines.append("{ no table was accepted in this record }")
    elif pending:
        lines.append(_comment(pending))
    return lines
