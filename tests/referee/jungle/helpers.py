"""Helpers for the Jungle tests: positions from a dict of squares, tokens on squares."""

from __future__ import annotations

from tabletop.scene import Piece

FILES = "abcdefg"
ANIMAL_LETTER = {"rat": "R", "cat": "C", "dog": "D", "wolf": "W", "leopard": "P", "tiger": "T",
                 "lion": "L", "elephant": "E"}
RANK = {"rat": 1, "cat": 2, "dog": 3, "wolf": 4, "leopard": 5, "tiger": 6, "lion": 7,
        "elephant": 8}
SQUARE_MM = 38.0


def board(pieces: dict[str, str], to_move: int = 1) -> str:
    """A position text from ``{"a1": "T", "d5": "r"}`` (upper case: first player)."""
    rows = []
    for rank in range(9, 0, -1):
        row, empty = "", 0
        for f in FILES:
            letter = pieces.get(f"{f}{rank}")
            if letter is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + letter
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + f" {to_move}"


def token(side: int, animal: str, square: str, dx_mm: float = 0.0, dy_mm: float = 0.0) -> Piece:
    """The token of a side's animal on a square (its centre, shifted by dx, dy), board frame."""
    f, r = FILES.index(square[0]), int(square[1:])
    return Piece("token", (f + 0.5) * SQUARE_MM + dx_mm, (r - 0.5) * SQUARE_MM + dy_mm,
                 id=50 + 8 * side + RANK[animal] - 1)


START = {0: {"a1": "tiger", "g1": "lion", "b2": "cat", "f2": "dog", "a3": "elephant",
             "c3": "wolf", "e3": "leopard", "g3": "rat"}}
START[1] = {FILES[6 - FILES.index(s[0])] + str(10 - int(s[1])): a for s, a in START[0].items()}


def start_tokens(moves: dict[str, str] | None = None, removed: tuple[str, ...] = ()) -> list[Piece]:
    """The start position's tokens, with some moved (``{"g3": "g4"}``) or removed (squares)."""
    moves = moves or {}
    out = []
    for side in (0, 1):
        for sq, animal in START[side].items():
            if sq in removed:
                continue
            out.append(token(side, animal, moves.get(sq, sq)))
    return out
