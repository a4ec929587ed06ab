"""Several turns read on one table: the moves in between, found again.

When readings in doubt (a token not seen) or a hand that never left the table let turns pass
unjudged, the next reading shows several tokens moved at once. A referee does not call that a
foul of nobody ("4 tokens moved; move one animal a turn") again and again: it asks whether the
turns in between explain the table, each side in turn moving one of its animals once, starting
with the side to move, and judges those moves in turn. The last of them may be a foul (a
player moving out of turn, an animal into the water): the moves before it stand and it is
judged after them, as it would have been had every table been seen.

A move that lands on an animal takes it: that animal must be one the reading lacks (an animal
seen on the board was not taken). An animal the reading lacks that no move took is hidden, and
stands where it stood.

>>> from referee.jungle import geometry as g
>>> from referee.jungle.position import Position
>>> sq = g.SQUARE_NAMES.index
>>> rat, dog, rat2, leopard2 = 1, 3, 9, 13  # the first player's, then the second's
>>> moved = {rat: (sq("g3"), sq("g4")), rat2: (sq("a7"), sq("a6")), dog: (sq("f2"), sq("f3"))}
>>> catch_up(Position(), moved, ())
CatchUp(order=(1, 9, 3), legal=True, twice=False)
>>> moved[leopard2] = (sq("c7"), sq("c6"))  # into the water, last
>>> catch_up(Position(), moved, ())
CatchUp(order=(1, 9, 3, 13), legal=False, twice=False)
>>> catch_up(Position(), {rat2: (sq("a7"), sq("a6")), dog: (sq("f2"), sq("f3"))}, ())
CatchUp(order=(3, 9), legal=True, twice=False)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from itertools import permutations

from referee.jungle.position import Position, make_move
from referee.jungle.rules import side_of

MAX_MOVED = 6
"""Most tokens moved on one table that are put in order (6! orders); more: not tried."""


@dataclass(frozen=True)
class CatchUp:
    """Attributes:
    order: The piece codes of the tokens moved, in the order they moved.
    legal: Every move legal; else the last one is a foul (the others are legal).
    twice: The foul is the last side to move moving again: which of its last two moves was
        its turn and which the foul, no reading tells (``order`` puts one of them last).
    """

    order: tuple[int, ...]
    legal: bool
    twice: bool = False


def catch_up(pos: Position, moved: Mapping[int, tuple[int, int]],
             unseen: Collection[int]) -> CatchUp | None:
    """The order in which the tokens ``moved`` (piece code -> ``(from, to)`` squares, each
    moved once) were moved from ``pos``: each side in turn from the side to move, every move
    legal, or all but the last; animals taken must be among ``unseen`` (codes on the board that
    the reading lacks). The first order of legal moves (tokens tried in the order given), else
    the first ending in a foul; None when no order explains the table or too many moved."""
    codes = list(moved)
    if any(pos.board[fr] != code for code, (fr, _) in moved.items()):
        return None
    if not 2 <= len(codes) <= MAX_MOVED:
        return None
    foul: CatchUp | None = None
    for order in permutations(codes):
        got = _replay(pos.copy(), order, moved, frozenset(unseen))
        if got == "legal":
            return CatchUp(order, True)
        if got is not None and foul is None:
            foul = CatchUp(order, False, got == "twice")
    return foul


def _replay(pos: Position, order: tuple[int, ...], moved: Mapping[int, tuple[int, int]],
            unseen: frozenset[int]) -> str | None:
    """``legal``: every move of ``order`` legal in turn; ``foul``: all but the last, which
    breaks a rule; ``twice``: all but the last, made by the side that moved just before it;
    None: no such game."""
    for k, code in enumerate(order):
        fr, to = moved[code]
        taken = pos.board[to]
        if taken and taken not in unseen and side_of(taken) != side_of(code):
            return None  # an animal seen on the board was not taken
        last = k == len(order) - 1
        if side_of(code) != pos.side:
            return "twice" if last else None
        if pos.check(make_move(fr, to)) is not None:
            return "foul" if last else None
        pos.push(make_move(fr, to))
        if not last and pos.outcome() is not None:
            return None  # the game ended before the moves after it
    return "legal"
