"""Events: the game record's input and output lines (JSON Lines, see the contract).

Input events are what happened at the table or on the dashboard (a setup, a stable scene, a die
roll, a correction, "accept the table", "undo", and each game's own: a Worm Up! bid, a Jungle
move); output events are what the referee said (verdicts, rounding, finishes, the winner). A
record is the list of both, in order; replaying its input events re-creates every output event
exactly.

Each event class reads itself (``from_json``) and is registered under its ``type`` with
:func:`register_event_type`; a game's own event types are registered by its
:class:`referee.registry.GameSpec` (``events``), so this module keeps no list of games' events.
The checks a game's parser needs are here: :func:`check_keys`, :func:`read_str`,
:func:`read_int`.

Every event may carry ``t`` (seconds since the epoch, set by the live log); it is kept but never
judged.

>>> e = parse_event({"type": "roll", "player": "suns", "value": "3"})
>>> e
Roll(player='suns', value='3', t=None)
>>> e.to_json()
{'type': 'roll', 'player': 'suns', 'value': '3'}
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

from tabletop import jsonin
from tabletop.errors import InputError, RecordFormatError, SceneFormatError
from tabletop.limits import MAX_PIECES, check_coordinate_mm, check_file_bytes
from tabletop.scene import DIE_VALUES, Piece, Scene

CORRECTION_OPS: tuple[str, ...] = ("add", "remove", "change")
MAX_PLAYERS = 8
MAX_NAME_CHARS = 40


def _freeze(obj: Any) -> Any:
    if isinstance(obj, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in obj.items()})
    if isinstance(obj, list | tuple):
        return tuple(_freeze(v) for v in obj)
    return obj


def _thaw(obj: Any) -> Any:
    if isinstance(obj, Mapping):
        return {k: _thaw(v) for k, v in obj.items()}
    if isinstance(obj, tuple):
        return [_thaw(v) for v in obj]
    return obj


def read_str(obj: Mapping[str, Any], key: str, where: str,
             choices: Iterable[str] | None = None) -> str:
    """``obj[key]``, a non-empty string (one of ``choices`` if given), or a one-line error."""
    if key not in obj:
        raise RecordFormatError(f"{where}: missing field {key!r}")
    v = obj[key]
    if not isinstance(v, str) or not v:
        raise RecordFormatError(f"{where}: {key!r} must be a non-empty string, "
                                f"not {json.dumps(v)[:60]}")
    if choices is not None and v not in tuple(choices):
        raise RecordFormatError(f"{where}: {key!r} must be one of {', '.join(choices)}, not {v!r}")
    return v


def read_int(obj: Mapping[str, Any], key: str, where: str, lo: int, hi: int) -> int:
    """``obj[key]``, an integer in ``lo..hi`` (not a bool), or a one-line error."""
    v = obj.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise RecordFormatError(
            f"{where}: {key!r} must be an integer {lo}..{hi}, not {json.dumps(v)}")
    return v


class Event:
    """Base of every event; subclasses are frozen dataclasses with a ``type`` name."""

    type: ClassVar[str]
    is_input: ClassVar[bool]
    t: float | None

    def to_json(self) -> dict[str, Any]:
        """The record's JSON object for this event."""
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):  # type: ignore[arg-type]
            v = getattr(self, f.name)
            if f.name == "t" and v is None:
                continue
            if f.metadata.get("optional") and v in (None, ()):
                continue
            key = f.metadata.get("key", f.name)
            out[key] = v.to_json() if hasattr(v, "to_json") else _thaw(v)
        return out

    def dumps(self) -> str:
        """One line of JSON."""
        return json.dumps(self.to_json(), separators=(", ", ": "))

    @classmethod
    def from_json(cls, o: Mapping[str, Any], w: str, t: float | None) -> Event:
        """Reads the event from its JSON object ``o`` (``type`` already known, ``t`` read).

        Args:
            o: The event's JSON object.
            w: Where it came from, named first in every error (``record.jsonl: line 3``).
            t: Its time (seconds since the epoch) or None.

        Raises:
            RecordFormatError: naming ``w`` and the field.
        """
        raise NotImplementedError(f"{cls.__name__} has no from_json")


_TYPES: dict[str, type[Event]] = {}
EVENT_TYPES: Mapping[str, type[Event]] = MappingProxyType(_TYPES)
"""Every known event class by its ``type``: the record format's own, and each registered
game's (see :func:`register_event_type`)."""

EventT = TypeVar("EventT", bound=Event)


def register_event_type(cls: type[EventT]) -> type[EventT]:
    """Makes an event class readable by :func:`parse_event` under its ``type`` (a decorator).

    A game's own input events are registered by its :class:`referee.registry.GameSpec`.
    Registering the same class again does nothing; a class of the same name and module
    replaces it (a module imported again).

    Raises:
        ValueError: another event class has that ``type`` already.
    """
    old = _TYPES.get(cls.type)
    if old is not None and old is not cls and (old.__module__, old.__qualname__) != (
            cls.__module__, cls.__qualname__):
        raise ValueError(f"event type {cls.type!r} is already {old.__module__}.{old.__name__}")
    _TYPES[cls.type] = cls
    return cls


_LOADERS: list[Callable[[], None]] = []


def add_type_loader(load: Callable[[], None]) -> None:
    """``load()`` registers more event types (the games' own): called when an event's type is
    not known yet, before it is refused. :mod:`referee.registry` adds its loading of every
    game, so a record names a game's events before anything asked for the game."""
    if load not in _LOADERS:
        _LOADERS.append(load)


def event_class(kind: str) -> type[Event] | None:
    """The class of an event ``type``, or None when no event has that type."""
    if kind not in _TYPES:
        for load in tuple(_LOADERS):
            load()
    return _TYPES.get(kind)


def _opt(**meta: Any) -> Any:
    return field(default=None, metadata={"optional": True, **meta})


# ----------------------------------------------------------------------------- input events

@register_event_type
@dataclass(frozen=True)
class Setup(Event):
    """A new game: which game, who plays, and its options (variants, lengths, sizes)."""

    type: ClassVar[str] = "setup"
    is_input: ClassVar[bool] = True
    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    t: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "options", _freeze(dict(self.options)))

    @classmethod
    def from_json(cls, o: Mapping[str, Any], w: str, t: float | None) -> Event:
        check_keys(o, {"game", "players", "options"}, w)
        players = o.get("players")
        if (not isinstance(players, list) or not players
                or not all(isinstance(p, str) and p for p in players)):
            raise RecordFormatError(f"{w}: 'players' must be a non-empty list of names")
        if len(players) > MAX_PLAYERS:
            raise RecordFormatError(
                f"{w}: 'players': {len(players)} players, at most {MAX_PLAYERS}")
        for p in players:
            if len(p) > MAX_NAME_CHARS or not p.isprintable() or p != p.strip():
                raise RecordFormatError(f"{w}: 'players': a name is at most {MAX_NAME_CHARS} "
                                        f"printable characters, without spaces around it")
        if len(set(players)) != len(players):
            raise RecordFormatError(f"{w}: a player is named twice")
        options = o.get("options", {})
        if not isinstance(options, Mapping):
            raise RecordFormatError(f"{w}: 'options' must be an object")
        return Setup(read_str(o, "game", w), tuple(players), options, t)


@register_event_type
@dataclass(frozen=True)
class SceneSeen(Event):
    """A stable table state seen by vision (or typed in)."""

    type: ClassVar[str] = "scene"
    is_input: ClassVar[bool] = True
    scene: Scene
    t: float | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "scene", "hand": self.scene.hand,
                               "pieces": [p.to_json() for p in self.scene.pieces]}
        if self.t is not None:
            out["t"] = self.t
        return out

    @classmethod
    def from_json(cls, o: Mapping[str, Any], w: str, t: float | None) -> Event:
        body = {k: v for k, v in o.items() if k not in ("type", "t")}
        return SceneSeen(Scene.from_json(body, w), t)


@register_event_type
@dataclass(frozen=True)
class Roll(Event):
    """A die roll entered by a player: ``null``, ``ace`` or ``2``..``5``."""

    type: ClassVar[str] = "roll"
    is_input: ClassVar[bool] = True
    player: str
    value: str
    t: float | None = None

    @classmethod
    def from_json(cls, o: Mapping[str, Any], w: str, t: float | None) -> Event:
        check_keys(o, {"player", "value"}, w)
        value = o.get("value")
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        return Roll(read_str(o, "player", w), read_str({"value": value}, "value", w, DIE_VALUES), t)






@register_event_type
@dataclass(frozen=True)
class Correction(Event):
    """A fix of a misread in the last scene seen: add, remove or change one piece.

    ``index`` names a piece of the last scene (remove, change); ``piece`` is the new piece
    (add, change). The corrected scene is then judged like any scene.
    """

    type: ClassVar[str] = "correction"
    is_input: ClassVar[bool] = True
    op: str
    index: int | None = _opt()
    piece: Piece | None = _opt()
    t: float | None = None

    def apply(self, scene: Scene) -> Scene:
        """The scene with this correction made."""
        if self.op == "add":
            assert self.piece is not None
            return scene.with_piece(self.piece)
        if self.index is None or not 0 <= self.index < len(scene):
            raise RecordFormatError(f"correction: no piece {self.index} in a scene of {len(scene)}")
        if self.op == "remove":
            return scene.without_piece(self.index)
        assert self.piece is not None
        return scene.with_piece_replaced(self.index, self.piece)

    @classmethod
    def from_json(cls, o: Mapping[str, Any], w: str, t: float | None) -> Event:
        check_keys(o, {"op", "index", "piece"}, w)
        op = read_str(o, "op", w, CORRECTION_OPS)
        index = read_int(o, "index", w, 0, 10**6) if op in ("remove", "change") else None
        piece = Piece.from_json(o.get("piece"), f"{w}: piece") if op in ("add", "change") else None
        return Correction(op, index, piece, t)


@register_event_type
@dataclass(frozen=True)
class Accept(Event):
    """"Accept the table as it is now": the last scene seen becomes the accepted table."""

    type: ClassVar[str] = "accept"
    is_input: ClassVar[bool] = True
    t: float | None = None

    @classmethod
    def from_json(cls, o: Mapping[str, Any], w: str, t: float | None) -> Event:
        check_keys(o, set(), w)
        return cls(t=t)


@register_event_type
@dataclass(frozen=True)
class Undo(Event):
    """"Undo last verdict": the table and turn go back to before the last verdict."""

    type: ClassVar[str] = "undo"
    is_input: ClassVar[bool] = True
    t: float | None = None

    @classmethod
    def from_json(cls, o: Mapping[str, Any], w: str, t: float | None) -> Event:
        check_keys(o, set(), w)
        return cls(t=t)


# ----------------------------------------------------------------------------- games' own events
# Worm Up!'s bids and Jungle's typed moves. Their games register them again in their specs
# (``GameSpec.events``); they are defined here because the games' modules import them from here.
# A new game defines its events in its own package (see docs/adding-a-game.md).

BIDS: tuple[str, ...] = ("4", "5", "6", "7", "X")
_SQUARE = re.compile(r"^[a-z][1-9][0-9]?$")

@register_event_type
@dataclass(frozen=True)
class Bid(Event):
    """A Worm Up! bid: ``4``..``7`` or ``X`` (with the ``number`` chosen for an X, if known)."""

    type: ClassVar[str] = "bid"
    is_input: ClassVar[bool] = True
    player: str
    bid: str
    number: int | None = _opt()
    t: float | None = None

    @classmethod
    def from_json(cls, o: Mapping[str, Any], w: str, t: float | None) -> Event:
        check_keys(o, {"player", "bid", "number"}, w)
        bid = o.get("bid")
        if isinstance(bid, int) and not isinstance(bid, bool):
            bid = str(bid)
        bid = read_str({"bid": bid}, "bid", w, BIDS)
        number = None
        if o.get("number") is not None:
            if bid != "X":
                raise RecordFormatError(f"{w}: 'number' goes only with an X bid")
            number = read_int(o, "number", w, 4, 7)
        return Bid(read_str(o, "player", w), bid, number, t)

@register_event_type
@dataclass(frozen=True)
class Move(Event):
    """A Jungle move typed in (when not seen on camera): squares like ``a1``."""

    type: ClassVar[str] = "move"
    is_input: ClassVar[bool] = True
    player: str
    from_square: str = field(metadata={"key": "from"})
    to_square: str = field(metadata={"key": "to"})
    t: float | None = None

    @property
    def uci(self) -> str:
        """The move in the compact form ``g3g4``."""
        return self.from_square + self.to_square

    @classmethod
    def from_json(cls, o: Mapping[str, Any], w: str, t: float | None) -> Event:
        check_keys(o, {"player", "from", "to"}, w)
        squares = []
        for key in ("from", "to"):
            s = read_str(o, key, w)
            if not _SQUARE.match(s):
                raise RecordFormatError(f"{w}: {key!r} must be a square like 'a1', not {s!r}")
            squares.append(s)
        return Move(read_str(o, "player", w), squares[0], squares[1], t)

# ----------------------------------------------------------------------------- output events

@register_event_type
@dataclass(frozen=True)
class Verdict(Event):
    """The referee's word on one input event (``seq`` is its 0-based line in the record).

    ``pieces`` (an extension) lists indices into the judged scene's pieces that the verdict is
    about, so the dashboard can highlight them; ``where`` is a point in mm (a pinch, a square).
    """

    type: ClassVar[str] = "verdict"
    is_input: ClassVar[bool] = False
    seq: int
    player: str | None
    legal: bool
    rule: str
    reason: str
    pieces: tuple[int, ...] = field(default=(), metadata={"optional": True})
    where: tuple[float, float] | None = _opt()
    t: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "pieces", tuple(self.pieces))
        if self.where is not None:
            object.__setattr__(self, "where", tuple(self.where))

    @classmethod
    def from_json(cls, o: Mapping[str, Any], w: str, t: float | None) -> Event:
        check_keys(o, {"seq", "player", "legal", "rule", "reason", "pieces", "where"}, w)
        if not isinstance(o.get("legal"), bool):
            raise RecordFormatError(f"{w}: 'legal' must be true or false")
        player = o.get("player")
        if player is not None and not isinstance(player, str):
            raise RecordFormatError(f"{w}: 'player' must be a name or null")
        pieces = o.get("pieces", [])
        if not isinstance(pieces, list) or not all(
                isinstance(i, int) and not isinstance(i, bool) and 0 <= i < 10**6 for i in pieces):
            raise RecordFormatError(f"{w}: 'pieces' must be a list of indices")
        where_ = o.get("where")
        if where_ is not None and (not isinstance(where_, list) or len(where_) != 2 or not all(
                isinstance(c, int | float) and not isinstance(c, bool) for c in where_)):
            raise RecordFormatError(f"{w}: 'where' must be [x, y] in mm")
        return Verdict(read_int(o, "seq", w, 0, 10**9), player, o["legal"], read_str(o, "rule", w),
                       read_str(o, "reason", w), tuple(pieces),
                       None if where_ is None else (float(where_[0]), float(where_[1])), t)


@register_event_type
@dataclass(frozen=True)
class Rounded(Event):
    """A worm has gone round the far side of the pylon."""

    type: ClassVar[str] = "rounded"
    is_input: ClassVar[bool] = False
    player: str
    seq: int | None = _opt()
    t: float | None = None

    @classmethod
    def from_json(cls, o: Mapping[str, Any], w: str, t: float | None) -> Event:
        return _player_output(cls, o, w, t, ())


@register_event_type
@dataclass(frozen=True)
class Finish(Event):
    """A player has finished, in the given place (1 = first)."""

    type: ClassVar[str] = "finish"
    is_input: ClassVar[bool] = False
    player: str
    place: int
    seq: int | None = _opt()
    t: float | None = None

    @classmethod
    def from_json(cls, o: Mapping[str, Any], w: str, t: float | None) -> Event:
        return _player_output(cls, o, w, t, ("place",))


@register_event_type
@dataclass(frozen=True)
class Winner(Event):
    """The game is won."""

    type: ClassVar[str] = "winner"
    is_input: ClassVar[bool] = False
    player: str
    seq: int | None = _opt()
    t: float | None = None

    @classmethod
    def from_json(cls, o: Mapping[str, Any], w: str, t: float | None) -> Event:
        return _player_output(cls, o, w, t, ())


@register_event_type
@dataclass(frozen=True)
class Undone(Event):
    """The verdict on input ``undone_seq`` was taken back by the undo at ``seq``."""

    type: ClassVar[str] = "undone"
    is_input: ClassVar[bool] = False
    seq: int
    undone_seq: int
    t: float | None = None

    @classmethod
    def from_json(cls, o: Mapping[str, Any], w: str, t: float | None) -> Event:
        check_keys(o, {"seq", "undone_seq"}, w)
        return Undone(read_int(o, "seq", w, 0, 10**9), read_int(o, "undone_seq", w, 0, 10**9), t)


@register_event_type
@dataclass(frozen=True)
class Notice(Event):
    """Something worth telling that is no verdict (a warning about the setup, a reveal of bids).

    ``data`` carries structured detail for the dashboard (for example the revealed bids).
    """

    type: ClassVar[str] = "notice"
    is_input: ClassVar[bool] = False
    seq: int
    message: str
    level: str = "info"
    data: Mapping[str, Any] | None = _opt()
    t: float | None = None

    def __post_init__(self) -> None:
        if self.data is not None:
            object.__setattr__(self, "data", _freeze(dict(self.data)))

    @classmethod
    def from_json(cls, o: Mapping[str, Any], w: str, t: float | None) -> Event:
        check_keys(o, {"seq", "message", "level", "data"}, w)
        data = o.get("data")
        if data is not None and not isinstance(data, Mapping):
            raise RecordFormatError(f"{w}: 'data' must be an object")
        return Notice(read_int(o, "seq", w, 0, 10**9), read_str(o, "message", w),
                      read_str(o, "level", w) if "level" in o else "info", data, t)


@register_event_type
@dataclass(frozen=True)
class Doubt(Event):
    """A reading of the table that breaks what the game cannot do (a piece appeared or vanished,
    an obstacle moved without an ace): the table is asked to confirm or fix it. A doubt changes
    nothing in the game and is not a foul. ``pieces`` index the judged scene; ``where`` is the
    doubtful place in mm.
    """

    type: ClassVar[str] = "doubt"
    is_input: ClassVar[bool] = False
    seq: int
    player: str | None
    pieces: tuple[int, ...]
    where: tuple[float, float] | None
    reason: str
    t: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "pieces", tuple(self.pieces))
        if self.where is not None:
            object.__setattr__(self, "where", tuple(self.where))

    @classmethod
    def from_json(cls, o: Mapping[str, Any], w: str, t: float | None) -> Event:
        check_keys(o, {"seq", "player", "pieces", "where", "reason"}, w)
        player = o.get("player")
        if player is not None and not isinstance(player, str):
            raise RecordFormatError(f"{w}: 'player' must be a name or null")
        pieces = o.get("pieces", [])
        if not isinstance(pieces, list) or not all(isinstance(i, int) for i in pieces):
            raise RecordFormatError(f"{w}: 'pieces' must be a list of indices")
        where_ = o.get("where")
        if where_ is not None and (not isinstance(where_, list) or len(where_) != 2):
            raise RecordFormatError(f"{w}: 'where' must be [x, y]")
        return Doubt(read_int(o, "seq", w, 0, 10**9), player, tuple(pieces),
                     None if where_ is None else (float(where_[0]), float(where_[1])),
                     read_str(o, "reason", w), t)


OutputEvent = Verdict | Rounded | Finish | Winner | Undone | Notice | Doubt



def _time(obj: Mapping[str, Any], where: str) -> float | None:
    t = obj.get("t")
    if t is None:
        return None
    if (isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t)
            or not 0 <= t < 1e11):
        raise RecordFormatError(f"{where}: 't' must be a number of seconds since the epoch "
                                f"(0..1e11)")
    return float(t)


def _check_piece(piece: Piece, where: str) -> Piece:
    try:
        check_coordinate_mm(piece.x_mm, f"{where}: x")
        check_coordinate_mm(piece.y_mm, f"{where}: y")
    except InputError as exc:
        raise RecordFormatError(str(exc)) from None
    return piece


def check_scene(scene: Scene, where: str) -> Scene:
    """A scene read from outside: at most :data:`~tabletop.limits.MAX_PIECES` pieces, all on
    the table (what a real table can hold; more would only cost time)."""
    if len(scene.pieces) > MAX_PIECES:
        raise RecordFormatError(f"{where}: {len(scene.pieces)} pieces are more than a table "
                                f"holds (at most {MAX_PIECES})")
    for i, p in enumerate(scene.pieces):
        _check_piece(p, f"{where}: piece {i}")
    return scene


def check_keys(obj: Mapping[str, Any], allowed: set[str], where: str) -> None:
    """Refuses a field that is not in ``allowed`` (``type`` and ``t`` always are)."""
    unknown = sorted(set(obj) - allowed - {"type", "t"})
    if unknown:
        raise RecordFormatError(f"{where}: unknown field {unknown[0]!r}")


def parse_event(obj: Any, where: str = "event", strict: bool = True) -> Event:
    """Reads one event of the record format.

    Args:
        obj: The event's JSON object.
        where: Named in errors (``record.jsonl: line 3``).
        strict: Check it against what a table can be (strict JSON, pieces on the table, see
            :mod:`tabletop.limits`): every input from outside is. A log's own stored events
            are read with ``strict=False``, so a log written before these checks still opens.

    Raises:
        RecordFormatError: naming ``where`` and what is wrong.
    """
    if not isinstance(obj, Mapping):
        raise RecordFormatError(f"{where}: an event must be a JSON object")
    if strict:
        jsonin.check(dict(obj), where, RecordFormatError)
    kind = obj.get("type")
    cls = event_class(kind) if isinstance(kind, str) else None
    if cls is None:
        raise RecordFormatError(
            f"{where}: unknown event type {json.dumps(kind)[:60]} (expected one of "
            f"{', '.join(EVENT_TYPES)})")
    t = _time(obj, where)
    try:
        event: Event = cls.from_json(obj, where, t)
    except SceneFormatError as exc:
        message = str(exc)  # already names ``where`` when a parser passed it down
        raise RecordFormatError(
            message if message.startswith(where) else f"{where}: {message}") from None
    if strict and isinstance(event, SceneSeen):
        check_scene(event.scene, where)
    if strict and isinstance(event, Correction) and event.piece is not None:
        _check_piece(event.piece, f"{where}: piece")
    return event


def _player_output(cls: type[Event], o: Mapping[str, Any], w: str, t: float | None,
                   extra: tuple[str, ...]) -> Event:
    """An output event about a player (rounded, finish, winner), with an optional ``seq``."""
    check_keys(o, {"player", "seq", *extra}, w)
    seq = read_int(o, "seq", w, 0, 10**9) if o.get("seq") is not None else None
    kw = {k: read_int(o, k, w, 1, 1000) for k in extra}
    return cls(player=read_str(o, "player", w), seq=seq, t=t, **kw)  # type: ignore[call-arg]


def check_players(event: Event, players: Iterable[str], where: str = "event") -> Event:
    """``event`` when every player it names plays in the game, else a :class:`RecordFormatError`.

    Used before an event typed in is stored: a roll for someone who is not at the table is a
    mistake to refuse, not a move to judge.

    >>> check_players(Roll("suns", "3"), ("suns", "moons"))
    Roll(player='suns', value='3', t=None)
    >>> check_players(Roll("arms", "3"), ("suns", "moons"), "roll")
    Traceback (most recent call last):
    ...
    tabletop.errors.RecordFormatError: roll: 'player': 'arms' does not play in this game ...
    """
    who = getattr(event, "player", None)
    names = tuple(players)
    if event.is_input and who is not None and who not in names:
        raise RecordFormatError(f"{where}: 'player': {who!r} does not play in this game "
                                f"(players: {', '.join(names)})")
    return event


def iter_record_lines(lines: Iterable[str], where: str = "record") -> Iterator[Event]:
    """Parses JSON Lines (blank lines skipped); errors name the 1-based line."""
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        obj = jsonin.loads(line, f"{where}: line {n}", RecordFormatError)
        yield parse_event(obj, f"{where}: line {n}")


def read_record(path: str | Path) -> list[Event]:
    """Reads a whole game record (input and output events) from a JSON Lines file."""
    p = Path(path)
    try:
        check_file_bytes(p, error=RecordFormatError)
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordFormatError(f"{p}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise RecordFormatError(f"{p}: not a text file") from None
    return list(iter_record_lines(text.splitlines(), str(p)))


def dumps_record(events: Iterable[Event]) -> str:
    """A record as JSON Lines text (one event a line, ending with a newline)."""
    return "".join(e.dumps() + "\n" for e in events)
