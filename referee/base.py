"""What every game's referee provides.

A game is a class (variants are subclasses that override hooks, as python-chess does) built
from a record's ``setup`` event: ``Game[S]`` over its own frozen state ``S`` (a
:class:`GameState`). :meth:`Game.step` is a pure function ``(state, event, seq) ->
Step[S](state, outputs)``. Nothing here keeps hidden state, so a replay of the same input events
re-creates the same outputs exactly.

Every game's rules say what they find in one vocabulary, :class:`Judgement`: a rule code, a
reason, who broke it, the pieces and the point concerned (and, when a misread could explain
it, the question for the table). Rules are small named functions returning one or None; a check
deep in a game may raise :class:`RuleBroken` carrying it instead.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from tabletop.errors import InputError, RecordFormatError
from tabletop.events import Event, Setup, Verdict
from tabletop.limits import check_piece_mm
from tabletop.pieceset import PieceSet
from tabletop.scene import Point2, Scene

OK = "ok"
"""The rule code of a legal verdict."""


class GameState:
    """Marker base for a game's frozen state; each game defines its own dataclass.

    Every state knows the last accepted table (``table``), which "accept the table" replaces.
    """

    table: Scene | None
    __dataclass_fields__: ClassVar[dict[str, Any]]  # each game's state is a dataclass


S = TypeVar("S", bound=GameState)
"""A game's state type (each game is a ``Game[ItsState]``)."""


@dataclass(frozen=True)
class Judgement:
    """What a rule found about one event: the vocabulary of every game's rules.

    A rule code (``ok`` for a legal move, else the rule broken: ``steps``, ``water``...), one
    reason in the game's words, who broke it, the offending pieces and where. Rules return one
    (or None when they have nothing to say); :meth:`verdict` makes the output event.

    Attributes:
        rule: The rule code (a game's ``Rule`` enum members are strings too).
        reason: What happened, as the verdict says it.
        player: Who broke the rule; None: the player the caller names (whose turn it is).
        pieces: Indices of the pieces concerned in the judged scene (negative: pieces no
            longer on the table, left out of the verdict).
        where: The point concerned, in table mm.
        doubt: When a misread of the table could explain it, the question put to the table
            instead of a verdict (nobody is faulted); empty otherwise.

    >>> j = Judgement("water", "the tiger cannot swim", pieces=(3, -1001), where=(1.234, 5.0))
    >>> j.legal, j.verdict(7, "ann").pieces, j.verdict(7, "ann").player
    (False, (3,), 'ann')
    """

    rule: str
    reason: str
    player: str | None = None
    pieces: tuple[int, ...] = ()
    where: Point2 | None = None
    doubt: str = ""

    @property
    def legal(self) -> bool:
        """Whether this is a legal move's judgement (rule ``ok``)."""
        return self.rule == OK

    def verdict(self, seq: int, player: str | None = None) -> Verdict:
        """The verdict event: this judgement's player, else ``player``; the pieces still on
        the table; the reason and the point as they are."""
        return Verdict(seq, self.player or player, self.legal, str(self.rule), self.reason,
                       tuple(i for i in self.pieces if i >= 0), self.where)


def still_pending(whose: str, at_seq: int) -> str:
    """What the table is told, once, while an illegal verdict is not put right and the players
    go on (a clause: each game makes it its notice's sentence). ``whose``: "Suns' move"."""
    return (f"{whose} judged at {at_seq} was illegal and is not put right yet: put the table "
            f"back as it was, fix the reading, accept the table as it is, or undo the verdict; "
            f"until then the referee waits")


class RuleBroken(Exception):
    """Raised deep inside a game's checks to stop judging: carries the :class:`Judgement`."""

    def __init__(self, judgement: Judgement) -> None:
        super().__init__(judgement.reason)
        self.judgement = judgement


@dataclass(frozen=True)
class Step(Generic[S]):
    """The result of one event: the new state and the output events it produced."""

    state: S
    outputs: tuple[Event, ...] = field(default_factory=tuple)

    @property
    def verdicts(self) -> tuple[Verdict, ...]:
        """Just the verdicts among the outputs."""
        return tuple(e for e in self.outputs if isinstance(e, Verdict))


class Game(ABC, Generic[S]):
    """A rule set over its state type ``S``, configured by a setup event.

    Class variables:
        name: The game's name in records and on the command line (``worm-derby``).
        aliases: Other names accepted by :func:`referee.registry.find_game`.
        piece_kinds: The kinds of piece the game puts on the table (what vision looks for;
            a kind the game does not use is never a reason to think the table moved).
    """

    name: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    piece_kinds: ClassVar[tuple[str, ...]] = ("tile", "coin", "post", "segment", "token")
    option_names: ClassVar[frozenset[str]] = frozenset({"sizes"})
    """The setup options this game reads; any other name is refused (:meth:`check_options`)."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.players: tuple[str, ...] = tuple(setup.players)
        self.options: Mapping[str, Any] = setup.options
        sizes = setup.options.get("sizes") or {}
        self.pieces: PieceSet = PieceSet().with_sizes(sizes)

    @classmethod
    def known_options(cls) -> frozenset[str]:
        """Every option name a setup of this game may give (games with named variants add
        their variants' names)."""
        return cls.option_names

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> None:
        """The one options check of every game: unknown names and bad ``sizes`` are refused.

        Raises:
            RecordFormatError: naming the option.
        """
        known = cls.known_options()
        unknown = sorted(set(options) - known)
        if unknown:
            raise RecordFormatError(f"setup: {cls.name}: unknown option {unknown[0]!r} "
                                    f"(known: {', '.join(sorted(known))})")
        sizes = options.get("sizes", {})
        if not isinstance(sizes, Mapping):
            raise RecordFormatError("setup: 'sizes' must be an object of size name -> mm")
        try:
            for key, value in sizes.items():
                check_piece_mm(value, f"{key}")
            PieceSet().with_sizes(sizes)
        except InputError as exc:
            raise RecordFormatError(f"setup: sizes: {exc}") from None

    @classmethod
    def from_setup(cls, setup: Setup) -> Game[Any]:
        """The game (or the variant subclass) that the setup's options ask for.

        Games with variants override this to pick a subclass; errors are
        :class:`tabletop.errors.RecordFormatError` naming the bad option.
        """
        return cls(setup)

    @abstractmethod
    def initial_state(self) -> S:
        """The state before any event after the setup."""

    @abstractmethod
    def step(self, state: S, event: Event, seq: int) -> Step[S]:
        """Judges one input event (never a setup, undo, correction or accept).

        Args:
            state: The state before the event.
            event: A scene, roll, bid or move.
            seq: The event's 0-based line in the record (for verdicts).
        """

    @abstractmethod
    def accept(self, state: S, scene: Scene, seq: int) -> Step[S]:
        """"Accept the table as it is now": ``scene`` becomes the accepted table, unjudged."""

    def describe(self, state: S) -> dict[str, Any]:
        """A JSON summary of the state for the dashboard (whose turn, worms, bids...)."""
        return {}
