"""What every game's referee provides.

A game is a class (variants are subclasses that override hooks, as python-chess does) built
from a record's ``setup`` event. Its state is a frozen value; :meth:`Game.step` is a pure
function ``(state, event, seq) -> Step(state, outputs)``. Nothing here keeps hidden state, so a
replay of the same input events re-creates the same outputs exactly.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from tabletop.errors import InputError, RecordFormatError
from tabletop.events import Event, Setup, Verdict
from tabletop.limits import check_piece_mm
from tabletop.pieceset import PieceSet
from tabletop.scene import Scene


class GameState:
    """Marker base for a game's frozen state; each game defines its own dataclass.

    Every state knows the last accepted table (``table``), which "accept the table" replaces.
    """

    table: Scene | None


@dataclass(frozen=True)
class Step:
    """The result of one event: the new state and the output events it produced."""

    state: Any
    outputs: tuple[Event, ...] = field(default_factory=tuple)

    @property
    def verdicts(self) -> tuple[Verdict, ...]:
        """Just the verdicts among the outputs."""
        return tuple(e for e in self.outputs if isinstance(e, Verdict))


class Game(ABC):
    """A rule set, configured by a setup event.

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
    def from_setup(cls, setup: Setup) -> Game:
        """The game (or the variant subclass) that the setup's options ask for.

        Games with variants override this to pick a subclass; errors are
        :class:`tabletop.errors.RecordFormatError` naming the bad option.
        """
        return cls(setup)

    @abstractmethod
    def initial_state(self) -> Any:
        """The state before any event after the setup."""

    @abstractmethod
    def step(self, state: Any, event: Event, seq: int) -> Step:
        """Judges one input event (never a setup, undo, correction or accept).

        Args:
            state: The state before the event.
            event: A scene, roll, bid or move.
            seq: The event's 0-based line in the record (for verdicts).
        """

    @abstractmethod
    def accept(self, state: Any, scene: Scene, seq: int) -> Step:
        """"Accept the table as it is now": ``scene`` becomes the accepted table, unjudged."""

    def describe(self, state: Any) -> dict[str, Any]:
        """A JSON summary of the state for the dashboard (whose turn, worms, bids...)."""
        return {}
