"""Two readings of one still table made one: a piece seen in either reading is there.

The pipeline reads a still table twice before one the referee would doubt or call a foul on is
judged (:class:`live.pipeline.Pipeline`). A camera misses a piece far more often than it invents
one (a coin beside a tile, a coin under a blind's stripe), and a miss in one frame is rarely the
same miss in the next: so the reading judged is the second reading with the pieces that only the
first saw added, matched by place and kind (a piece read a few millimetres off in one reading is
the same piece: it lies midway between its two readings, with the second's suit and face).
Which reading saw more is not asked: each piece is judged on its own.

A piece the two readings disagree about beyond that (a coin read with two suits, a tile read
face up and face down) is left as the second reading says, for the referee's own conservation
laws to settle or doubt (:func:`referee.worm_derby.reading.reconcile`).

>>> from tabletop.scene import Piece, Scene
>>> first = Scene.of([Piece("coin", 0, 0, suit="suns"), Piece.tile(60, 0, 0, "down")])
>>> second = Scene.of([Piece("coin", 2, 1, suit="suns"), Piece("coin", 19, 0, suit="suns")])
>>> [(p.kind, p.x_mm) for p in merge_readings(first, second).pieces]
[('coin', 1.0), ('coin', 19), ('tile', 60.0)]
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from tabletop.pieceset import PieceSet
from tabletop.scene import Scene

SAME_PIECE_SHARE = 0.45
"""Two pieces of one kind whose centres lie nearer than this share of a coin's width are one
piece read twice (the referee's own "stayed where it was": steps are whole coin widths)."""


def same_piece_mm(pieces: PieceSet | None = None) -> float:
    """How near two readings of one piece lie (see :data:`SAME_PIECE_SHARE`)."""
    return SAME_PIECE_SHARE * (pieces or PieceSet()).coin_diameter_mm


def pair_up(first: Scene, second: Scene, within_mm: float
            ) -> tuple[list[tuple[int, int]], list[int]]:
    """The pieces the two readings share, as ``(index in first, index in second)`` pairs of
    one kind within ``within_mm`` (nearest pairs first; each piece in one pair at most), and
    the indices of the pieces of ``first`` that ``second`` does not show."""
    pairs = sorted((math.dist(p.centre_mm, q.centre_mm), i, j)
                   for i, p in enumerate(first.pieces) for j, q in enumerate(second.pieces)
                   if p.kind == q.kind)
    used_first: set[int] = set()
    used_second: set[int] = set()
    out: list[tuple[int, int]] = []
    for d, i, j in pairs:
        if d > within_mm:
            break
        if i in used_first or j in used_second:
            continue
        used_first.add(i)
        used_second.add(j)
        out.append((i, j))
    return out, [i for i in range(len(first.pieces)) if i not in used_first]


def objected(outputs: tuple[Any, ...] | list[Any]) -> bool:
    """Whether the referee's outputs about a reading doubt it or call a foul on it (then the
    pipeline reads the table once more before anything is said)."""
    return any(getattr(o, "type", None) == "doubt" or (
        getattr(o, "type", None) == "verdict" and not getattr(o, "legal", True))
        for o in outputs)


def merge_readings(first: Scene, second: Scene, pieces: PieceSet | None = None) -> Scene:
    """The second reading with every piece that only the first showed added after its own
    pieces (so indices into the second reading stay valid); a piece both show lies midway
    between its two readings (two independent readings of a place are better than one).

    Args:
        first: The earlier reading of the still table.
        second: The later reading of the same still table.
        pieces: The piece set (the coin's width sets how near is "the same place").
    """
    pairs, extra = pair_up(first, second, same_piece_mm(pieces))
    merged = list(second.pieces)
    for i, j in pairs:
        p, q = first.pieces[i], second.pieces[j]
        if p.centre_mm != q.centre_mm:
            merged[j] = replace(q, x_mm=round((p.x_mm + q.x_mm) / 2, 2),
                                y_mm=round((p.y_mm + q.y_mm) / 2, 2))
    return replace(second, pieces=(*merged, *(first.pieces[i] for i in extra)))
