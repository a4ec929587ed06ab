"""Perft: the number of move sequences of a given length, and the ``.perft`` data files.

Perft counts sequences of moves allowed by the movement rules. The only game-end cut-off is the
one in the rules of movement: after a den entry or the capture of the last piece the game is over
and no move follows. The repetition rule is not applied (it depends on the history, not on the
position), and a side without moves simply ends that line.

>>> perft(Position(), 2)
576
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from referee.jungle.errors import IllegalMoveError, JungleError, MoveFormatError, PerftFileError
from referee.jungle.position import START_TEXT, Position, move_text, parse_move_list
from referee.jungle.rules import Rules, rules_for
from tabletop.files import read_text


def perft(position: Position, depth: int) -> int:
    """The number of move sequences of length ``depth`` from ``position`` (restored after).

    Args:
        position: Where to start; it is changed during the count and restored.
        depth: Plies, 0 or more (0 counts the empty sequence: 1).
    """
    if depth <= 0:
        return 1
    gen, count = position.generate_moves, position.count_moves
    if depth == 1:
        return count()
    push, pop = position._make, position._unmake

    def rec(d: int) -> int:
        if d == 1:
            return count()
        n = 0
        for m in gen():
            push(m)
            n += rec(d - 1)
            pop()
        return n

    return rec(depth)


def divide(position: Position, depth: int) -> dict[int, int]:
    """Perft split by first move: move -> count of sequences of ``depth`` starting with it."""
    out = {}
    for m in position.generate_moves():
        position._make(m)
        out[m] = perft(position, depth - 1)
        position._unmake()
    return out


def position_after(moves: str | Iterable[int], rules: type[Rules] = Rules,
                   start: str = START_TEXT) -> Position:
    """The position after a move list (text ``"g3g4 a7b7"`` or move codes), each move checked
    against the movement rules (repetition not applied, as in perft).

    Raises:
        MoveFormatError: a word that is no move. IllegalMoveError: an illegal move.
    """
    pos = Position(start, rules)
    codes = parse_move_list(moves) if isinstance(moves, str) else list(moves)
    for i, m in enumerate(codes, start=1):
        if m not in pos.generate_moves():
            bad = pos.check(m)
            why = f": {bad.reason}" if bad is not None else ""
            raise IllegalMoveError(f"move {i} ({move_text(m)}) is illegal{why}")
        pos.push(m)
    return pos


@dataclass(frozen=True)
class PerftCase:
    """One line of a ``.perft`` file: variants, moves from the start, and expected counts.

    Attributes:
        line: 1-based line number in its file.
        variants: Variant names (empty for the standard rules).
        moves: The move list from the start position.
        counts: ``depth -> expected count``.
    """

    line: int
    variants: tuple[str, ...]
    moves: str
    counts: dict[int, int]


def read_perft_file(path: str | Path) -> list[PerftCase]:
    """Reads a ``.perft`` file.

    Format, one case a line (``#`` starts a comment)::

        variants=dog-swims,leopard-jumps; moves=g3g4 a7b7; 1=24 2=576 3=13540

    ``variants`` and ``moves`` may be empty or left out.

    Raises:
        PerftFileError: naming the file, line and problem.
    """
    p = Path(path)
    text = read_text(p, "perft file", PerftFileError)
    cases = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        fields: dict[str, str] = {}
        for part in line.split(";"):
            if "=" not in part:
                continue
            k, v = part.split("=", 1)
            if k.strip() in ("variants", "moves"):
                fields[k.strip()] = v.strip()
        counts_part = line.split(";")[-1]
        counts = {}
        try:
            for word in counts_part.split():
                d, c = word.split("=")
                counts[int(d)] = int(c)
        except ValueError:
            raise PerftFileError(f"{p}: line {n}: counts must be like '1=24 2=576'") from None
        if not counts:
            raise PerftFileError(f"{p}: line {n}: no counts")
        variants = tuple(v for v in fields.get("variants", "").replace(",", " ").split())
        cases.append(PerftCase(n, variants, fields.get("moves", ""), counts))
    return cases


def iter_move_lists(path: str | Path) -> Iterator[tuple[int, str]]:
    """``(line number, move list)`` of each non-blank line of a ``--positions`` file
    (``#`` starts a comment; an empty move list, ``-``, is the start position)."""
    text = read_text(path, "positions file", PerftFileError)
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if line:
            yield n, "" if line == "-" else line


def perft_case(case: PerftCase, depth: int) -> int:
    """The count of one case at one depth (for tests and the command line)."""
    try:
        pos = position_after(case.moves, rules_for(case.variants))
    except (MoveFormatError, JungleError) as exc:
        raise PerftFileError(f"line {case.line}: {exc}") from None
    return perft(pos, depth)
