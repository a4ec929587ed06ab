"""Small factories for scenes and records, shared by the tests of every package."""

from __future__ import annotations

from collections.abc import Iterable

from tabletop.events import Event, Setup
from tabletop.pieceset import PieceSet
from tabletop.scene import Piece, Scene

PIECES = PieceSet()


def coin(x_mm: float, y_mm: float, suit: str | None = "suns", **kw) -> Piece:
    """A coin, suit up."""
    return Piece("coin", float(x_mm), float(y_mm), suit=suit, **kw)


def tile(x_mm: float, y_mm: float, angle_deg: float = 0.0, face: str = "down",
         suit: str | None = None) -> Piece:
    """A tile (angle folded into [0, 90))."""
    return Piece.tile(x_mm, y_mm, angle_deg, face, suit)


def worm(start_mm: tuple[float, float], direction: tuple[float, float], n: int,
         suit: str = "suns", pitch_mm: float | None = None) -> list[Piece]:
    """``n`` touching coins in a straight line from ``start_mm`` along ``direction``."""
    import math

    pitch = PIECES.coin_diameter_mm if pitch_mm is None else pitch_mm
    dx, dy = direction
    norm = math.hypot(dx, dy)
    dx, dy = dx / norm, dy / norm
    return [coin(start_mm[0] + i * pitch * dx, start_mm[1] + i * pitch * dy, suit)
            for i in range(n)]


def scene(*pieces: Piece | Iterable[Piece], hand: bool = False) -> Scene:
    """A scene of the given pieces (lists are flattened)."""
    flat: list[Piece] = []
    for p in pieces:
        if isinstance(p, Piece):
            flat.append(p)
        else:
            flat.extend(p)
    return Scene(tuple(flat), hand=hand)


def setup(game: str, players: Iterable[str], **options) -> Setup:
    """A setup event."""
    return Setup(game, tuple(players), options)


def record(*events: Event) -> list[Event]:
    """A record as a list (seq = position)."""
    return list(events)
