"""A slow, obviously-correct reference implementation of the Animal Game's movement rules.

Written independently of ``referee.jungle`` (squares as names, a dict board, the rules spelt out
one by one as the issue states them) so the fast engine can be checked against it: the same
moves in every position, the same perft counts.
"""

from __future__ import annotations

FILES = "abcdefg"
RANKS = {"rat": 1, "cat": 2, "dog": 3, "wolf": 4, "leopard": 5, "tiger": 6, "lion": 7,
         "elephant": 8}
WATER = {f + r for f in "bcef" for r in "456"}
DEN = {0: "d1", 1: "d9"}
TRAPS = {0: {"c1", "e1", "d2"}, 1: {"c9", "e9", "d8"}}
FIRST = {"a1": "tiger", "g1": "lion", "b2": "cat", "f2": "dog", "a3": "elephant", "c3": "wolf",
         "e3": "leopard", "g3": "rat"}


def mirror(square: str) -> str:
    """The square mirrored through the board's centre (a1 <-> g9)."""
    return FILES[6 - FILES.index(square[0])] + str(10 - int(square[1:]))


def start() -> dict[str, tuple[int, str]]:
    """The start position: square -> (side, animal)."""
    board = {sq: (0, a) for sq, a in FIRST.items()}
    board.update({mirror(sq): (1, a) for sq, a in FIRST.items()})
    return board


def shift(square: str, df: int, dr: int) -> str | None:
    """The square ``df`` files and ``dr`` ranks away, or None off the board."""
    f, r = FILES.index(square[0]) + df, int(square[1:]) + dr
    if 0 <= f < 7 and 1 <= r <= 9:
        return FILES[f] + str(r)
    return None


def rank(animal: str, variants: set[str]) -> int:
    """The animal's rank under the variants."""
    if "dog-over-wolf" in variants and animal == "dog":
        return 4
    if "dog-over-wolf" in variants and animal == "wolf":
        return 3
    return RANKS[animal]


def swims(animal: str, variants: set[str]) -> bool:
    """Only the rat swims (and the dog, in the dog-swims variant)."""
    return animal == "rat" or (animal == "dog" and "dog-swims" in variants)


def jumps(animal: str, along_rank: bool, variants: set[str]) -> bool:
    """Lion and tiger jump both ways; the leopard (variant) only across a river's width."""
    if animal in ("lion", "tiger"):
        return True
    return animal == "leopard" and along_rank and "leopard-jumps" in variants


def may_capture(board, frm: str, to: str, variants: set[str]) -> bool:
    """Whether the piece on ``frm`` may take the enemy on ``to``."""
    side, attacker = board[frm]
    other, defender = board[to]
    assert other != side
    if (frm in WATER) != (to in WATER):
        return False  # no capture when leaving or entering the water
    if to in TRAPS[side]:
        return True  # an enemy in my trap has rank 0
    if attacker == "rat" and defender == "elephant":
        return True
    if attacker == "elephant" and defender == "rat":
        return "elephant-captures-rat" in variants
    return rank(attacker, variants) >= rank(defender, variants)


def game_over(board) -> bool:
    """A den entered, or a side without pieces."""
    for sq, (side, _) in board.items():
        if sq == DEN[1 - side]:
            return True
    return len({side for side, _ in board.values()}) < 2


def moves(board, side: int, variants: set[str]) -> list[str]:
    """Every move of ``side`` as ``a1a2`` texts."""
    if game_over(board):
        return []
    out = []
    for frm, (owner, animal) in sorted(board.items()):
        if owner != side:
            continue
        for df, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            to = shift(frm, df, dr)
            if to is None:
                continue
            if to in WATER and not swims(animal, variants):
                if frm in WATER or not jumps(animal, dr == 0, variants):
                    continue
                blocked = False
                while to is not None and to in WATER:
                    if to in board:
                        blocked = True
                    to = shift(to, df, dr)
                if blocked or to is None:
                    continue
            if to == DEN[side]:
                continue
            if to in board and (board[to][0] == side
                                or not may_capture(board, frm, to, variants)):
                continue
            out.append(frm + to)
    return out


def play(board, move: str) -> dict[str, tuple[int, str]]:
    """The board after a move (a new dict)."""
    frm, to = move[:2], move[2:]
    new = dict(board)
    new[to] = new.pop(frm)
    return new


def perft(board, side: int, depth: int, variants: set[str]) -> int:
    """Move sequences of ``depth`` plies."""
    if depth == 0:
        return 1
    ms = moves(board, side, variants)
    if depth == 1:
        return len(ms)
    return sum(perft(play(board, m), 1 - side, depth - 1, variants) for m in ms)


def after(move_list: str) -> tuple[dict[str, tuple[int, str]], int]:
    """The board and side to move after a move list from the start (moves not checked)."""
    board, side = start(), 0
    for m in move_list.split():
        board = play(board, m)
        side = 1 - side
    return board, side
