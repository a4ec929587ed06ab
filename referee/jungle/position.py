"""A Jungle position: the board, whose turn it is, move generation, push/pop and the outcome.

In the style of python-chess: :class:`Position` holds the state, :meth:`Position.generate_moves`
lists the moves the movement rules allow, :meth:`Position.legal_moves` leaves out those the
repetition rule forbids, :meth:`Position.check` says which rule a move breaks, and only
:meth:`Position.push` / :meth:`Position.pop` change anything.

Moves are small integers ``from * 64 + to`` (squares as in :mod:`referee.jungle.geometry`); their
text form is ``g3g4`` (:func:`move_text`, :func:`parse_move`). Positions have a text form too,
like FEN: ranks 9 down to 1 separated by ``/``, a digit for empty squares, a letter per animal
(``RCDWPTLE``: rat, cat, dog, wolf, leopard (panther), tiger, lion, elephant; upper case the first
player's), then the side to move, ``1`` or ``2``.

>>> p = Position()
>>> len(p.legal_moves())
24
>>> p.push(parse_move("g3g4"))
>>> p.text()
'l5t/1d3c1/r1p1w1e/7/7/6R/E1W1P2/1C3D1/T5L 2'
>>> Position.from_text(p.text()).text() == p.text()
True
>>> p.pop() == parse_move("g3g4")
True
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from referee.base import Judgement
from referee.jungle import geometry as g
from referee.jungle.errors import IllegalMoveError, MoveFormatError, PositionFormatError
from referee.jungle.rules import (
    ANIMALS,
    LETTERS,
    Rules,
    code_of,
    kind_of,
    piece_name,
    side_of,
)

_DENS = g.DENS

START_TEXT = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L 1"
"""The start position (contract: first player a1 tiger, g1 lion, b2 cat, f2 dog, a3 elephant,
c3 wolf, e3 leopard, g3 rat; the second player's mirrored through the centre)."""


def make_move(from_square: int, to_square: int) -> int:
    """The move code of a move between two square indices."""
    return from_square * 64 + to_square


def move_squares(move: int) -> tuple[int, int]:
    """``(from, to)`` square indices of a move code."""
    return move >> 6, move & 63


def move_text(move: int) -> str:
    """``g3g4``.

    >>> move_text(make_move(g.parse_square("a1"), g.parse_square("a2")))
    'a1a2'
    """
    return g.SQUARE_NAMES[move >> 6] + g.SQUARE_NAMES[move & 63]


def parse_move(text: str) -> int:
    """Reads ``g3g4`` (two squares) into a move code.

    Raises:
        MoveFormatError: when the text is not two squares of the board.
    """
    t = text.strip() if isinstance(text, str) else ""
    for cut in (2, 3):
        a, b = t[:cut], t[cut:]
        if g.is_square_name(a) and g.is_square_name(b):
            return make_move(g.parse_square(a), g.parse_square(b))
    raise MoveFormatError(f"{text!r} is not a move like 'g3g4' (two squares a1..g9)")


def parse_move_list(text: str) -> list[int]:
    """Reads moves separated by spaces (or commas).

    >>> [move_text(m) for m in parse_move_list("g3g4  a7b7")]
    ['g3g4', 'a7b7']
    """
    return [parse_move(w) for w in text.replace(",", " ").split()]


class Termination(enum.Enum):
    """How a game ended."""

    DEN = "den"
    """A piece entered the enemy den."""
    ALL_CAPTURED = "all-captured"
    """The last enemy piece was captured."""
    NO_MOVES = "no-moves"
    """The side to move had no legal move left."""
    TIMEOUT = "timeout"
    """Three turns in a row without a move (the optional turn timer; decided by the referee)."""


@dataclass(frozen=True)
class Outcome:
    """The end of a game: how, and who won (0 first player, 1 second)."""

    termination: Termination
    winner: int


class Rule(enum.StrEnum):
    """Why a move is illegal (the members are the verdicts' rule codes)."""

    OVER = "over"
    EMPTY = "empty"
    TURN = "turn"
    STEPS = "steps"
    WATER = "water"
    JUMP = "jump"
    DEN = "den"
    OCCUPIED = "occupied"
    CAPTURE = "capture"
    REPETITION = "repetition"


class Status(enum.Flag):
    """Is the position physically possible (asked before any move is judged)?"""

    VALID = 0
    NO_SWIMMER_IN_WATER = enum.auto()
    """An animal that cannot swim stands in the water."""
    IN_OWN_DEN = enum.auto()
    """An animal stands in its own den."""
    BOTH_DENS = enum.auto()
    """Both dens are entered (only one game can have been won)."""


def _describe(code: int, square: int) -> str:
    return f"the {piece_name(code)} on {g.SQUARE_NAMES[square]}"


class Position:
    """A position with its history (for pop and the repetition rule).

    Args:
        text: A position in text form (the start position by default).
        rules: The rule set (:class:`Rules` or a variant from
            :func:`referee.jungle.rules.rules_for`).

    Raises:
        PositionFormatError: when ``text`` cannot be read.
    """

    def __init__(self, text: str = START_TEXT, rules: type[Rules] = Rules) -> None:
        self.rules = rules
        self.tables = rules.tables()
        self.board: list[int] = [0] * g.N_SQUARES
        self.where: list[int] = [-1] * 17
        self.counts = [0, 0]
        self.side = 0
        self.winner: int | None = None
        self._stack: list[tuple[int, int, int | None]] = []
        self._keys: list[bytes] = []
        self._seen: Counter[bytes] = Counter()
        self.names: tuple[str, str] = ("the first player", "the second player")
        """How sentences name the two sides (the referee puts the players' names here)."""
        self._set_text(text)
        self._remember()

    # ------------------------------------------------------------------ text form
    @classmethod
    def from_text(cls, text: str, rules: type[Rules] = Rules) -> Position:
        """A position from its text form."""
        return cls(text, rules)

    def _set_text(self, text: str) -> None:
        if not isinstance(text, str):
            raise PositionFormatError("a position must be text like " + repr(START_TEXT))
        parts = text.split()
        if len(parts) != 2 or parts[1] not in ("1", "2"):
            raise PositionFormatError(
                f"{text!r} is not a position: expected nine ranks and the side to move (1 or 2)")
        ranks = parts[0].split("/")
        if len(ranks) != g.N_RANKS:
            raise PositionFormatError(f"{text!r}: expected {g.N_RANKS} ranks, not {len(ranks)}")
        for i, row in enumerate(ranks):
            rank = g.N_RANKS - i
            f = 0
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                    continue
                letter = ch.upper()
                if letter not in LETTERS:
                    raise PositionFormatError(
                        f"{text!r}: bad rank {rank} {row!r} ({ch!r} is no animal: {LETTERS})")
                if f >= g.N_FILES:
                    raise PositionFormatError(
                        f"{text!r}: rank {rank} {row!r} has more than {g.N_FILES} squares")
                code = code_of(0 if ch.isupper() else 1, LETTERS.index(letter) + 1)
                if self.where[code] >= 0:
                    raise PositionFormatError(
                        f"{text!r}: two {SIDE_WORDS[side_of(code)]} {piece_name(code)}s")
                sq = g.square_index(f, rank)
                self.board[sq] = code
                self.where[code] = sq
                self.counts[side_of(code)] += 1
                f += 1
            if f != g.N_FILES:
                raise PositionFormatError(
                    f"{text!r}: rank {rank} {row!r} has {f} squares, not {g.N_FILES}")
        self.side = int(parts[1]) - 1
        self.winner = self._winner_on_board()

    def text(self) -> str:
        """The position's text form (round-trips through :meth:`from_text`)."""
        return _board_text(self.board, self.side)

    def __repr__(self) -> str:
        return f"Position({self.text()!r}, rules={self.rules.__name__})"

    def copy(self) -> Position:
        """An independent position with the same board, side, rules and repetition counts."""
        other = Position(self.text(), self.rules)
        other._seen = Counter(self._seen)
        other._keys = list(self._keys)
        other.names = self.names
        return other

    def key(self) -> bytes:
        """A hashable key of the board and the side to move (for repetition counting)."""
        return bytes(self.board) + bytes((self.side,))

    def pieces(self) -> Iterator[tuple[int, int]]:
        """``(square, code)`` of every piece on the board, by square."""
        for sq, code in enumerate(self.board):
            if code:
                yield sq, code

    def status(self) -> Status:
        """Whether the position is physically possible (:class:`Status` bits; 0 when it is)."""
        st = Status.VALID
        for sq, code in self.pieces():
            if sq in g.WATER and not self.rules.swims(piece_name(code)):
                st |= Status.NO_SWIMMER_IN_WATER
            if sq == g.DENS[side_of(code)]:
                st |= Status.IN_OWN_DEN
        d0, d1 = self.board[g.DENS[0]], self.board[g.DENS[1]]
        if d0 and d1 and side_of(d0) == 1 and side_of(d1) == 0:
            st |= Status.BOTH_DENS
        return st

    # ------------------------------------------------------------------ moves
    def generate_moves(self) -> list[int]:
        """Every move the movement rules allow (the repetition rule not applied).

        Empty once the game is over (a den entered or a side without pieces).
        """
        if self.winner is not None:
            return []
        t = self.tables
        board, where, side = self.board, self.where, self.side
        foe, trap, water = t.foe[side], t.trap[side], t.water
        steps, jumps, beats = t.steps, t.jumps, t.beats
        out: list[int] = []
        append = out.append
        for code in t.codes[side]:
            sq = where[code]
            if sq < 0:
                continue
            b = beats[code]
            m = sq * 64
            w = water[sq]
            for to in steps[code][sq]:
                x = board[to]
                if not x or (foe[x] and (trap[to] or (b[x] and water[to] == w))):
                    append(m + to)
        for code in t.jumpers[side]:
            sq = where[code]
            if sq < 0:
                continue
            b = beats[code]
            m = sq * 64
            for to, crossed in jumps[code][sq]:
                for c in crossed:
                    if board[c]:
                        break
                else:
                    x = board[to]
                    if not x or (foe[x] and (trap[to] or b[x])):
                        append(m + to)
        return out

    def count_moves(self) -> int:
        """``len(self.generate_moves())``, without building the list (perft's leaves)."""
        if self.winner is not None:
            return 0
        t = self.tables
        board, where, side = self.board, self.where, self.side
        foe, trap, water = t.foe[side], t.trap[side], t.water
        steps, jumps, beats = t.steps, t.jumps, t.beats
        n = 0
        for code in t.codes[side]:
            sq = where[code]
            if sq < 0:
                continue
            b = beats[code]
            w = water[sq]
            for to in steps[code][sq]:
                x = board[to]
                if not x or (foe[x] and (trap[to] or (b[x] and water[to] == w))):
                    n += 1
        for code in t.jumpers[side]:
            sq = where[code]
            if sq < 0:
                continue
            b = beats[code]
            for to, crossed in jumps[code][sq]:
                for c in crossed:
                    if board[c]:
                        break
                else:
                    x = board[to]
                    if not x or (foe[x] and (trap[to] or b[x])):
                        n += 1
        return n

    def legal_moves(self) -> list[int]:
        """The moves allowed by every rule, the repetition rule included."""
        return [m for m in self.generate_moves() if not self._repeats(m)]

    def _repeats(self, move: int) -> bool:
        self.push(move)
        try:
            return self._seen[self._keys[-1]] > 3
        finally:
            self.pop()

    def is_legal(self, move: int) -> bool:
        """Whether the move is legal now (repetition rule included)."""
        return self.check(move) is None

    def check(self, move: int) -> Judgement | None:
        """None for a legal move, else the first rule it breaks and why."""
        fr, to = move_squares(move)
        if not (0 <= fr < g.N_SQUARES and 0 <= to < g.N_SQUARES):
            return Judgement(Rule.STEPS, "that is not a move between two squares of the board")
        if self.winner is not None:
            return Judgement(Rule.OVER, f"the game is over: {self.names[self.winner]} has won")
        code = self.board[fr]
        frn, ton = g.SQUARE_NAMES[fr], g.SQUARE_NAMES[to]
        if not code:
            return Judgement(Rule.EMPTY, f"there is no piece on {frn}")
        if side_of(code) != self.side:
            return Judgement(Rule.TURN, f"{_describe(code, fr)} belongs to "
                                      f"{self.names[side_of(code)]}, and it is "
                                      f"{self.names[self.side]}'s turn")
        animal = piece_name(code)
        t = self.tables
        jump = next((c for s, c in g.river_jumps(fr) if s == to), None)
        if to not in g.neighbours(fr) and jump is None:
            return Judgement(Rule.STEPS, f"{_describe(code, fr)} cannot reach {ton}: a move is one "
                                       "square up, down, left or right")
        if to == g.DENS[self.side]:
            return Judgement(Rule.DEN, f"no animal may enter its own den ({ton})")
        if jump is not None:
            short, long = self.rules.jumps(animal)
            along_rank = g.rank_of(fr) == g.rank_of(to)
            if not (short if along_rank else long):
                way = "across (two water squares)" if along_rank else "along (three squares)"
                return Judgement(Rule.JUMP, f"the {animal} cannot jump a river {way}; "
                                          f"{_jumpers(self.rules)}")
            blocker = next((c for c in jump if self.board[c]), None)
            if blocker is not None:
                return Judgement(Rule.JUMP, f"the jump from {frn} to {ton} is blocked by "
                                          f"{_describe(self.board[blocker], blocker)}")
        elif t.water[to] and to not in t.steps[code][fr]:
            return Judgement(Rule.WATER, f"the {animal} cannot swim; only "
                                       f"{_swimmers(self.rules)} may enter the water ({ton})")
        target = self.board[to]
        if target and side_of(target) == self.side:
            return Judgement(Rule.OCCUPIED, f"your own {piece_name(target)} stands on {ton}")
        if target:
            victim = _describe(target, to)
            if t.water[fr] != t.water[to]:
                how = "from the water onto land" if t.water[fr] else "into the water"
                return Judgement(Rule.WATER, f"the {animal} cannot capture {how} ({victim})")
            if not t.trap[self.side][to] and not t.beats[code][target]:
                why = self._why_not_capture(animal, piece_name(target), victim)
                if t.trap[1 - self.side][to]:
                    why += "; a trap weakens only the enemies standing on it"
                return Judgement(Rule.CAPTURE, why)
        if move not in self.generate_moves():  # pragma: no cover - the checks above are complete
            return Judgement(Rule.STEPS, f"{frn}{ton} is not a legal move")
        if self._repeats(move):
            return Judgement(Rule.REPETITION, "that move would make the same position a fourth "
                                            "time; the side to move must vary its move")
        return None

    def _why_not_capture(self, attacker: str, defender: str, victim: str) -> str:
        r = self.rules
        if attacker == "elephant" and defender == "rat":
            return f"the elephant cannot capture the rat ({victim})"
        return (f"the {attacker} (rank {r.rank(attacker)}) cannot capture {victim} "
                f"(rank {r.rank(defender)}): an animal captures only equal or lower ranks")

    def explain(self, move: int) -> str:
        """A plain sentence about a legal move (``the tiger on a1 captures the rat on a2``)."""
        fr, to = move_squares(move)
        code, target = self.board[fr], self.board[to]
        verb = "jumps to" if to not in g.neighbours(fr) else "moves to"
        s = f"{_describe(code, fr)} {verb} {g.SQUARE_NAMES[to]}"
        if target:
            s += f" and captures the {piece_name(target)}"
            if self.tables.trap[self.side][to]:
                s += " in the trap"
        if to == g.DENS[1 - self.side]:
            s += ", entering the den"
        return s

    def push(self, move: int) -> None:
        """Makes a move (not checked: use :meth:`is_legal` or :meth:`push_checked`)."""
        self._make(move)
        key = self.key()
        self._keys.append(key)
        self._seen[key] += 1

    def _make(self, move: int) -> None:
        # push without the repetition bookkeeping (perft); undone only by _unmake
        fr, to = move >> 6, move & 63
        board = self.board
        code, captured = board[fr], board[to]
        self._stack.append((move, captured, self.winner))
        board[to] = code
        board[fr] = 0
        self.where[code] = to
        side = self.side
        if captured:
            self.where[captured] = -1
            self.counts[1 - side] -= 1
            if not self.counts[1 - side]:
                self.winner = side
        if to == _DENS[1 - side]:
            self.winner = side
        self.side = 1 - side

    def _unmake(self) -> None:
        move, captured, winner = self._stack.pop()
        fr, to = move >> 6, move & 63
        board = self.board
        code = board[to]
        board[fr] = code
        board[to] = captured
        self.where[code] = fr
        self.side = side = 1 - self.side
        if captured:
            self.where[captured] = to
            self.counts[1 - side] += 1
        self.winner = winner

    def push_checked(self, move: int) -> None:
        """Makes a move after checking it.

        Raises:
            IllegalMoveError: naming the move and the rule it breaks.
        """
        bad = self.check(move)
        if bad is not None:
            raise IllegalMoveError(f"{move_text(move)} is illegal ({bad.rule}): {bad.reason}")
        self.push(move)

    def pop(self) -> int:
        """Takes back the last move and returns it.

        Raises:
            IndexError: when there is no move to take back.
        """
        move, captured, winner = self._stack.pop()
        key = self._keys.pop()
        self._seen[key] -= 1
        fr, to = move >> 6, move & 63
        board = self.board
        code = board[to]
        board[fr] = code
        board[to] = captured
        self.where[code] = fr
        self.side = 1 - self.side
        if captured:
            self.where[captured] = to
            self.counts[1 - self.side] += 1
        self.winner = winner
        return move

    def _remember(self) -> None:
        key = self.key()
        self._keys.append(key)
        self._seen[key] += 1

    @property
    def move_stack(self) -> list[int]:
        """The moves pushed so far, oldest first."""
        return [m for m, _, _ in self._stack]

    def repetitions(self) -> int:
        """How often the current position (board and side to move) has occurred."""
        return self._seen[self.key()]

    def repetition_counts(self) -> dict[str, int]:
        """Positions that occurred more than once: text form -> count."""
        out = {}
        for key, n in self._seen.items():
            if n > 1:
                out[_key_text(key)] = n
        return out

    def pass_turn(self) -> None:
        """The side to move loses its turn (its timer ran out); :meth:`pop` does not undo it."""
        self.side = 1 - self.side
        self._remember()

    # ------------------------------------------------------------------ outcome
    def _winner_on_board(self) -> int | None:
        for side in (0, 1):
            d = self.board[g.DENS[1 - side]]
            if d and side_of(d) == side:
                return side
        for side in (0, 1):
            if not self.counts[1 - side] and self.counts[side]:
                return side
        return None

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on.

        A den entry or the capture of the last piece wins; a side to move without a legal move
        loses.
        """
        if self.winner is not None:
            d = self.board[g.DENS[1 - self.winner]]
            term = (Termination.DEN if d and side_of(d) == self.winner
                    else Termination.ALL_CAPTURED)
            return Outcome(term, self.winner)
        if not self.legal_moves():
            return Outcome(Termination.NO_MOVES, 1 - self.side)
        return None

    def play(self, moves: Iterable[int]) -> None:
        """Pushes each move after checking it (raises :class:`IllegalMoveError`)."""
        for m in moves:
            self.push_checked(m)


SIDE_WORDS = ("first", "second")


def _board_text(board: list[int], side: int) -> str:
    rows = []
    for rank in range(g.N_RANKS, 0, -1):
        row, empty = "", 0
        for f in range(g.N_FILES):
            code = board[g.square_index(f, rank)]
            if not code:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            letter = LETTERS[kind_of(code) - 1]
            row += letter if side_of(code) == 0 else letter.lower()
        row += str(empty) if empty else ""
        rows.append(row)
    return "/".join(rows) + f" {side + 1}"


def board_text(board: list[int], side: int) -> str:
    """The text form of a board (63 piece codes, 0 empty) with ``side`` (0 or 1) to move."""
    return _board_text(board, side)


def _key_text(key: bytes) -> str:
    """The text form of a position key (:meth:`Position.key`)."""
    return _board_text(list(key[:-1]), key[-1])


def _swimmers(rules: type[Rules]) -> str:
    names = [a for a in ANIMALS if rules.swims(a)]
    return " and the ".join(["the " + names[0], *names[1:]]) if names else "no animal"


def _jumpers(rules: type[Rules]) -> str:
    both = [a for a in ANIMALS if all(rules.jumps(a))]
    out = ("only the " + " and the ".join(both) + " jump rivers") if both else "no animal jumps"
    for a in ANIMALS:
        short, long = rules.jumps(a)
        if short != long:
            out += f"; the {a} jumps only {'across' if short else 'along'} a river"
    return out
