"""The games, each registered once by its own package: ``register(GameSpec(Jungle, ...))``.

A :class:`GameSpec` is everything the rest of the product knows about a game:

- its rules: the :class:`referee.base.Game` class, which carries the game's ``name``,
  ``aliases``, ``piece_kinds`` (what vision looks for) and ``option_names``;
- its ``title``, its ``default_players`` (the command line's and the setup form's),
- its setup ``options`` as the dashboard's form shows them (:class:`Choice`, :class:`Flag`,
  :class:`FlagSet`, :class:`NameList`),
- its ``diagram`` (:class:`Diagram`: how the dashboard draws its state),
- the dashboard's input cards it uses (``inputs``: ``roll``, ``move``) and the verb of a turn,
- its own input ``events`` (event classes with their parsers, registered with
  :func:`tabletop.events.register_event_type`).

The command line's game choices and help, the dashboard's game menu and forms, the API's list of
rule sets (``GET /api/rulesets``) and the kinds vision looks for all read this registry. A game's
package calls :func:`register` in its ``__init__.py``; every package inside ``referee`` is
imported on the first lookup, so a new game folder needs no line anywhere else. A game class
registered with the :func:`register_game` decorator alone gets a spec of defaults.

>>> spec = find_spec("dou-shou-qi")
>>> spec.name, spec.title, spec.default_players
('jungle', 'The Animal Game', ('red', 'blue'))
>>> spec.diagram.drawer, spec.game.piece_kinds
('jungle-board', ('token',))
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from dataclasses import MISSING, dataclass, field, fields, replace
from typing import Any, ClassVar

from referee.base import Game
from tabletop.errors import RecordFormatError
from tabletop.events import Event, Setup, add_type_loader, register_event_type

INPUT_CARDS: tuple[str, ...] = ("roll", "move", "events")
"""The dashboard's input cards a game may use: die rolls (``roll``), a typed or clicked board
move (``move``), a form for each of the game's own event types (``events``, see
:func:`event_form`). Bids come from the players' phones (``/play``) and need no card."""

TURN_VERBS: tuple[str, ...] = ("roll", "move", "play")


# ----------------------------------------------------------------------------- setup options

@dataclass(frozen=True)
class SetupOption:
    """One field of the dashboard's setup form; each kind is a subclass.

    Attributes:
        name: The option's key in the setup's ``options`` (for :class:`FlagSet` and
            :class:`NameList`, the form's field name: each name ticked or typed becomes an
            option of its own set to ``true``).
        label: What the form says.
    """

    kind: ClassVar[str]
    name: str
    label: str

    def to_json(self) -> dict[str, Any]:
        """The option as the page reads it."""
        return {"kind": self.kind, "name": self.name, "label": self.label}


@dataclass(frozen=True)
class Choice(SetupOption):
    """One value of several (a select): ``{"variant": "slalom"}``."""

    kind: ClassVar[str] = "choice"
    choices: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "choices": list(self.choices)}


@dataclass(frozen=True)
class Flag(SetupOption):
    """A yes/no option (a checkbox), always sent: ``{"cannibal": false}``."""

    kind: ClassVar[str] = "flag"


@dataclass(frozen=True)
class FlagSet(SetupOption):
    """Named switches (checkboxes): each ticked name is sent as ``{name: true}``."""

    kind: ClassVar[str] = "flags"
    choices: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {**super().to_json(), "choices": list(self.choices)}


@dataclass(frozen=True)
class NameList(SetupOption):
    """Names typed in, separated by commas or spaces: each is sent as ``{name: true}``."""

    kind: ClassVar[str] = "names"


# ----------------------------------------------------------------------------- the diagram

@dataclass(frozen=True)
class Diagram:
    """How the dashboard draws a game (``web/static/diagram.js``).

    Every diagram draws the table in mm: the pieces seen, and what the game's ``describe()``
    gives in the shapes the page knows (``worms``, ``course`` lines, a ``pylon``, and for any
    game ``shapes``: a list of ``{"shape": "circle"|"rect"|"line"|"text", ...}`` in mm, see
    ``diagram.js``). A game with a board of its own names a drawer of ``TT.diagrams``.

    Attributes:
        drawer: ``"table"`` (nothing more) or a board drawer of ``diagram.js``
            (``"jungle-board"``).
        y_up: The game's frame runs y up the screen (a board seen from the first player's
            seat).
        hide_kinds: Kinds of piece not drawn, because the game's own drawing stands for them
            (Jungle's animals for its tokens); shown when fixing a misread.
    """

    drawer: str = "table"
    y_up: bool = False
    hide_kinds: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """As the page reads it."""
        return {"drawer": self.drawer, "y_up": self.y_up, "hide_kinds": list(self.hide_kinds)}


# ----------------------------------------------------------------------------- event forms

def event_form(cls: type[Event]) -> dict[str, Any]:
    """How the dashboard's form enters an event of a game's own type: its ``type`` and its
    fields (``player``: the players to pick from; numbers; text), read from the dataclass.

    >>> from tabletop.events import Bid
    >>> [(f["name"], f["kind"], f["optional"]) for f in event_form(Bid)["fields"]]
    [('player', 'player', False), ('bid', 'text', False), ('number', 'number', True)]
    """
    out = []
    for f in fields(cls):  # type: ignore[arg-type]
        if f.name == "t":
            continue
        words = set(re.findall(r"\w+", str(f.type)))
        kind = ("player" if f.name == "player" else
                "number" if words & {"int", "float"} else "text")
        optional = f.default is not MISSING or f.default_factory is not MISSING
        out.append({"name": f.metadata.get("key", f.name), "kind": kind, "optional": optional})
    return {"type": cls.type, "fields": out}


# ----------------------------------------------------------------------------- the spec

@dataclass(frozen=True)
class GameSpec:
    """One game, as the product knows it (see the module's docstring).

    Attributes:
        game: The rules (variants are subclasses picked by ``from_setup``).
        title: The game's name for people (``"Worm Derby"``).
        default_players: The players when none are given (the pieces' colours or suits).
        options: The setup form's fields, in order.
        diagram: How the dashboard draws it.
        inputs: The dashboard's input cards it uses (:data:`INPUT_CARDS`).
        turn_verb: What the player whose turn it is does: ``roll``, ``move`` or ``play``.
        player_pieces: What a player's pieces are called (``"worm"``: "put suns' worm
            back"), or None ("the pieces").
        events: The game's own input event classes (each with ``type`` and ``from_json``).
        ppn: A record of it can be written as Portable Piecepack Notation.
    """

    game: type[Game]
    title: str = ""
    default_players: tuple[str, ...] = ("one", "two")
    options: tuple[SetupOption, ...] = ()
    diagram: Diagram = field(default_factory=Diagram)
    inputs: tuple[str, ...] = ()
    turn_verb: str = "play"
    player_pieces: str | None = None
    events: tuple[type[Event], ...] = ()
    ppn: bool = False

    def __post_init__(self) -> None:
        where = f"game {getattr(self.game, 'name', self.game)!r}"
        if not (isinstance(self.game, type) and issubclass(self.game, Game)):
            raise TypeError(f"{where}: 'game' must be a Game subclass")
        if not isinstance(getattr(self.game, "name", None), str) or not self.game.name:
            raise TypeError(f"{where}: the game class needs a 'name'")
        unknown = sorted(set(self.inputs) - set(INPUT_CARDS))
        if unknown:
            raise ValueError(f"{where}: unknown input card {unknown[0]!r} "
                             f"(known: {', '.join(INPUT_CARDS)})")
        if self.turn_verb not in TURN_VERBS:
            raise ValueError(f"{where}: turn_verb must be one of {', '.join(TURN_VERBS)}")
        if not self.default_players:
            raise ValueError(f"{where}: default_players must name at least one player")
        known = self.game.known_options()
        for option in self.options:
            names = (option.choices if isinstance(option, FlagSet) else
                     () if isinstance(option, NameList) else (option.name,))
            unknown = sorted(set(names) - known)
            if unknown:
                raise ValueError(f"{where}: option {unknown[0]!r} is not among the game's "
                                 f"option names")
        object.__setattr__(self, "default_players", tuple(self.default_players))
        object.__setattr__(self, "options", tuple(self.options))
        object.__setattr__(self, "inputs", tuple(self.inputs))
        object.__setattr__(self, "events", tuple(self.events))
        if not self.title:
            object.__setattr__(self, "title", self.game.name)

    @property
    def name(self) -> str:
        """The game's name in records and on the command line."""
        return self.game.name

    @property
    def aliases(self) -> tuple[str, ...]:
        """Other names it is found by."""
        return tuple(self.game.aliases)

    @property
    def piece_kinds(self) -> tuple[str, ...]:
        """The kinds of piece it puts on the table: what vision looks for."""
        return tuple(self.game.piece_kinds)

    def to_json(self) -> dict[str, Any]:
        """The spec as the dashboard and ``GET /api/rulesets`` give it."""
        return {"name": self.name, "title": self.title, "aliases": list(self.aliases),
                "players": list(self.default_players),
                "options": [o.to_json() for o in self.options],
                "diagram": self.diagram.to_json(), "inputs": list(self.inputs),
                "turn_verb": self.turn_verb, "player_pieces": self.player_pieces,
                "piece_kinds": list(self.piece_kinds),
                "events": [e.type for e in self.events],
                "event_forms": [event_form(e) for e in self.events], "ppn": self.ppn}


_SPECS: dict[str, GameSpec] = {}
"""By the game's name; aliases are looked up through :data:`_NAMES`."""
_NAMES: dict[str, str] = {}
"""Every name and alias -> the game's name."""


def register(spec: GameSpec) -> GameSpec:
    """Makes a game known (called once, in the game's package ``__init__.py``).

    Its names and aliases find it, and its own event types are registered with the record
    format. Registering a game again under the same name replaces it.

    Raises:
        ValueError: a name or alias that another game already uses.
    """
    for name in (spec.name, *spec.aliases):
        owner = _NAMES.get(name)
        if owner is not None and owner != spec.name:
            raise ValueError(f"game {spec.name!r}: the name {name!r} is already {owner!r}'s")
    old = _SPECS.get(spec.name)
    if old is not None:
        for name in (old.name, *old.aliases):
            _NAMES.pop(name, None)
    for event_type in spec.events:
        register_event_type(event_type)
    _SPECS[spec.name] = spec
    for name in (spec.name, *spec.aliases):
        _NAMES[name] = spec.name
    return spec


def register_game(cls: type[Game]) -> type[Game]:
    """Class decorator: makes a game findable by its name and aliases, with a spec of
    defaults (a spec registered for it already is kept, with the class updated)."""
    old = _SPECS.get(cls.name)
    register(replace(old, game=cls) if old is not None else GameSpec(cls))
    return cls


_loaded = False


def _load_all() -> None:
    """Imports every package inside ``referee``: each game's registers itself."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import referee

    for info in pkgutil.iter_modules(referee.__path__):
        if info.ispkg:
            importlib.import_module(f"referee.{info.name}")


add_type_loader(_load_all)  # a record may name a game's own event before the game is looked up


def specs() -> list[GameSpec]:
    """Every registered game, by name."""
    _load_all()
    return [_SPECS[n] for n in sorted(_SPECS)]


def game_names() -> list[str]:
    """The main names of every registered game."""
    return [s.name for s in specs()]


def find_spec(name: str) -> GameSpec:
    """The spec of the game with that name or alias.

    Raises:
        RecordFormatError: when no game has that name.
    """
    _load_all()
    try:
        return _SPECS[_NAMES[name]]
    except KeyError:
        raise RecordFormatError(
            f"unknown game {name!r} (known: {', '.join(game_names()) or 'none'})") from None


def find_game(name: str) -> type[Game]:
    """The game class with that name or alias.

    Raises:
        RecordFormatError: when no game has that name.
    """
    return find_spec(name).game


def names_text() -> str:
    """The games' names for a help text: ``"jungle, worm-derby or worm-up"``."""
    names = game_names()
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def make_game(setup: Setup) -> Game:
    """The configured game for a setup event (its options checked first).

    Raises:
        RecordFormatError: an unknown game, an unknown option or a bad value.
    """
    cls = find_game(setup.game)
    cls.check_options(setup.options)
    return cls.from_setup(setup)
