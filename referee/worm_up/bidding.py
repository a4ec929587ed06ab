"""Worm Up! bidding: tiles, the reveal, the move order, and secret collection of bids.

Pure and deterministic: no I/O, no clocks, no threads. The game engine
(:mod:`referee.worm_up.game`) and the dashboard's phone pages both build on it.

The rules:

- Every player owns the tiles ``4``, ``5``, ``6``, ``7`` and ``X``, and bids one each round.
- Equal bids cancel (two equal numbers, or two Xs): those worms do not move, and their tiles
  do not sit out.
- A unique bid is successful: its tile sits out exactly the next round, then returns.
- Unique bids move lowest first, ascending. An X advances by a number 4-7 that nobody bid this
  round (its *free numbers*) and moves at that number's place in the order; the X player may
  also move one finish post.
- An X with no free number left (five players bid 4, 5, 6, 7 and X) is still a unique bid: it
  is not cancelled and its tile sits out, but the worm cannot advance; the X player may still
  move a finish post. (The rule sheets are silent on this case; this is the referee's choice.)

>>> r = reveal({"red": "4", "blue": "5", "green": "5", "yellow": "X"})
>>> r.cancelled
('blue', 'green')
>>> [m.player for m in r.order], r.free_numbers
(['red', 'yellow'], (6, 7))
>>> r.with_number("yellow", 7).mover("yellow").number
7
>>> r.rack_next.available("red")
('5', '6', '7', 'X')
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from referee.words import and_list, or_list
from tabletop.errors import InputError

TILES: tuple[str, ...] = ("4", "5", "6", "7", "X")
"""Every player's tiles."""

NUMBERS: tuple[int, ...] = (4, 5, 6, 7)
"""The numbers a worm can advance by."""


class BidError(InputError):
    """A bid that the rules refuse (unknown player, unknown tile, a tile sitting out...)."""


# ----------------------------------------------------------------------------- tiles


@dataclass(frozen=True)
class Rack:
    """Which tile of each player sits out the current round.

    Attributes:
        players: Every player, in seating (setup) order.
        resting: Player -> the tile that sits out this round (players with none are absent).

    >>> rack = Rack.fresh(["red", "blue"])
    >>> rack.available("red")
    ('4', '5', '6', '7', 'X')
    >>> Rack(("red",), {"red": "7"}).available("red")
    ('4', '5', '6', 'X')
    """

    players: tuple[str, ...]
    resting: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        if len(set(self.players)) != len(self.players):
            raise BidError("a player is named twice")
        for p, t in self.resting.items():
            if p not in self.players:
                raise BidError(f"{p!r} is not playing")
            if t not in TILES:
                raise BidError(f"{t!r} is not a tile (tiles are {', '.join(TILES)})")
        object.__setattr__(self, "resting", MappingProxyType(dict(self.resting)))

    @classmethod
    def fresh(cls, players: Iterable[str]) -> Rack:
        """Every tile available to every player (the first round)."""
        return cls(tuple(players))

    def available(self, player: str) -> tuple[str, ...]:
        """The tiles ``player`` may bid this round."""
        self._check_player(player)
        rest = self.resting.get(player)
        return tuple(t for t in TILES if t != rest)

    def check(self, player: str, bid: str) -> None:
        """Raises :class:`BidError` unless ``player`` may bid ``bid`` this round.

        >>> Rack(("red",), {"red": "5"}).check("red", "5")
        Traceback (most recent call last):
        ...
        referee.worm_up.bidding.BidError: red's 5 sits out this round (it won the last round)
        """
        self._check_player(player)
        if bid not in TILES:
            raise BidError(f"{bid!r} is not a tile (tiles are {', '.join(TILES)})")
        if self.resting.get(player) == bid:
            raise BidError(f"{player}'s {bid} sits out this round (it won the last round)")

    def _check_player(self, player: str) -> None:
        if player not in self.players:
            raise BidError(f"{player!r} is not playing (players: {', '.join(self.players)})")

    def to_json(self) -> dict[str, Any]:
        """``{player: {"available": [...], "resting": tile or null}}``."""
        return {p: {"available": list(self.available(p)), "resting": self.resting.get(p)}
                for p in self.players}


# ----------------------------------------------------------------------------- the reveal


@dataclass(frozen=True)
class Mover:
    """One worm that advances this round.

    Attributes:
        player: Whose worm.
        bid: The tile bid (``"4"``..``"7"`` or ``"X"``).
        number: How many segments it advances; None for an X whose number is not chosen yet.
        free: For an X, the numbers nobody bid this round (one of them is its number).
    """

    player: str
    bid: str
    number: int | None
    free: tuple[int, ...] = ()

    @property
    def is_x(self) -> bool:
        """True for an X bid."""
        return self.bid == "X"

    @property
    def sort_key(self) -> int:
        """Its place in the order: its number, or an undecided X's lowest free number."""
        if self.number is not None:
            return self.number
        return min(self.free) if self.free else 0

    def label(self) -> str:
        """``"red (4)"``, ``"green (X as 6)"`` or ``"green (X: 5 or 7)"``."""
        if not self.is_x:
            return f"{self.player} ({self.bid})"
        if self.number is not None:
            return f"{self.player} (X as {self.number})"
        return f"{self.player} (X: {or_list(self.free)})"

    def to_json(self) -> dict[str, Any]:
        """``{"player", "bid", "number", "free"}``."""
        return {"player": self.player, "bid": self.bid, "number": self.number,
                "free": list(self.free)}


@dataclass(frozen=True)
class Reveal:
    """All bids of one round, revealed at once, and what follows from them.

    Attributes:
        bids: ``(player, tile)`` for every player, in seating order.
        numbers: The numbers X players declared with their bid (kept only when free).
        cancelled: Players whose bids cancelled (equal numbers, or two or more Xs).
        free_numbers: The numbers 4-7 that nobody bid this round (what an X may take).
        order: The worms that advance, in move order (lowest number first).
        x_player: The player with the one successful X (it may move a finish post), or None.
        rack_next: The tiles each player may bid next round.
        notes: Plain sentences about anything unusual (an X declared a number that was bid).
    """

    bids: tuple[tuple[str, str], ...]
    numbers: Mapping[str, int]
    cancelled: tuple[str, ...]
    free_numbers: tuple[int, ...]
    order: tuple[Mover, ...]
    x_player: str | None
    rack_next: Rack
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "numbers", MappingProxyType(dict(self.numbers)))

    def bid_of(self, player: str) -> str:
        """The tile ``player`` bid."""
        for p, t in self.bids:
            if p == player:
                return t
        raise BidError(f"{player!r} did not bid this round")

    def mover(self, player: str) -> Mover | None:
        """``player``'s entry in the move order, or None when their worm does not advance."""
        for m in self.order:
            if m.player == player:
                return m
        return None

    def next_players(self, done: Collection[str] = ()) -> tuple[str, ...]:
        """The players who may move next, once the players in ``done`` have moved.

        Usually one player. An X whose number is not chosen yet may also move before the next
        numbered bid when one of its free numbers is lower than that bid.

        >>> r = reveal({"a": "5", "b": "X", "c": "7"})
        >>> r.next_players()
        ('b', 'a')
        >>> r.next_players({"a"})
        ('b',)
        """
        pending = [m for m in self.order if m.player not in done]
        fixed = [m for m in pending if m.number is not None]
        if not fixed:
            return tuple(m.player for m in pending)
        first = fixed[0]
        assert first.number is not None
        undecided = [m for m in pending if m.number is None]
        out = [m.player for m in undecided if any(n < first.number for n in m.free)]
        if all(any(n > first.number for n in m.free) for m in undecided):
            out.append(first.player)
        return tuple(sorted(out, key=lambda p: self._key(p)))

    def numbers_allowed(self, player: str, done: Collection[str] = ()) -> tuple[int, ...]:
        """The numbers ``player``'s worm may advance by if it moves now (empty: not its move).

        >>> r = reveal({"a": "5", "b": "X", "c": "7"})
        >>> r.numbers_allowed("b"), r.numbers_allowed("b", {"a"}), r.numbers_allowed("c")
        ((4,), (4, 6), ())
        """
        if player not in self.next_players(done):
            return ()
        m = self.mover(player)
        assert m is not None
        if m.number is not None:
            return (m.number,)
        pending_fixed = [o.number for o in self.order
                         if o.player not in done and o.player != player and o.number is not None]
        limit = min(pending_fixed) if pending_fixed else 8
        return tuple(n for n in m.free if n < limit)

    def with_number(self, player: str, number: int) -> Reveal:
        """The same reveal with ``player``'s X taking ``number`` (which must be free).

        Raises:
            BidError: ``player`` has no successful X, or ``number`` was bid this round.
        """
        m = self.mover(player)
        if m is None or not m.is_x:
            raise BidError(f"{player} has no successful X this round")
        if number not in m.free:
            raise BidError(f"{number} was bid this round; {player}'s X may take "
                           f"{or_list(m.free) if m.free else 'no number'}")
        if m.number == number:
            return self
        order = [replace(o, number=number) if o.player == player else o for o in self.order]
        order.sort(key=lambda o: o.sort_key)
        return replace(self, order=tuple(order))

    def _key(self, player: str) -> int:
        m = self.mover(player)
        return m.sort_key if m else 99

    def summary(self, round_no: int | None = None) -> str:
        """One plain sentence for everyone: the bids, the cancellations, the move order.

        >>> reveal({"red": "4", "blue": "4", "green": "6"}).summary()
        'Bids: red 4, blue 4, green 6; red and blue cancel (4); move order: green (6).'
        >>> reveal({"red": "X", "blue": "4", "green": "6"}).summary(3)[:34]
        'Round 3 bids: red X, blue 4, green'
        """
        head = "Bids: " if round_no is None else f"Round {round_no} bids: "
        parts = [head + ", ".join(f"{p} {t}" for p, t in self.bids)]
        by_tile: dict[str, list[str]] = {}
        for p in self.cancelled:
            by_tile.setdefault(self.bid_of(p), []).append(p)
        for tile, ps in by_tile.items():
            parts.append(f"{and_list(ps)} cancel ({tile})")
        if self.order:
            parts.append("move order: " + ", ".join(m.label() for m in self.order))
        else:
            parts.append("no worm moves this round")
        if self.x_player is not None and self.mover(self.x_player) is None:
            parts.append(f"{self.x_player}'s X has no free number, so the worm stays "
                         f"but may move a finish post")
        return "; ".join(parts) + "."

    def to_json(self) -> dict[str, Any]:
        """The reveal for the dashboard and the record's notice."""
        return {
            "bids": {p: t for p, t in self.bids},
            "numbers": dict(self.numbers),
            "cancelled": list(self.cancelled),
            "free_numbers": list(self.free_numbers),
            "order": [m.to_json() for m in self.order],
            "x_player": self.x_player,
            "tiles_next": self.rack_next.to_json(),
            "notes": list(self.notes),
        }


def reveal(bids: Mapping[str, str], numbers: Mapping[str, int] | None = None,
           rack: Rack | None = None) -> Reveal:
    """Reveals one round's bids.

    Args:
        bids: Player -> tile (``"4"``..``"7"`` or ``"X"``), one per player.
        numbers: Player -> the number an X player declared (optional). A declared number that
            another player bid is dropped with a note; the X then takes its number later
            (from the move the referee sees).
        rack: The tiles available this round; without it every tile is available. Its player
            order is the order of the reveal.

    Returns:
        The :class:`Reveal`.

    Raises:
        BidError: A tile that is not a tile, a tile sitting out, a number with a non-X bid,
            or a player missing a bid (when ``rack`` names the players).

    >>> reveal({"a": "X", "b": "X", "c": "4"}).cancelled
    ('a', 'b')
    """
    numbers = dict(numbers or {})
    if rack is None:
        rack = Rack.fresh(bids)
    missing = [p for p in rack.players if p not in bids]
    if missing:
        raise BidError(f"no bid yet from {and_list(missing)}")
    for p, t in bids.items():
        rack.check(p, t)
    for p, n in numbers.items():
        if bids.get(p) != "X":
            raise BidError(f"{p} declared a number but did not bid X")
        if isinstance(n, bool) or n not in NUMBERS:
            raise BidError(f"{p}'s X must take a number 4-7, not {n!r}")
    ordered = tuple((p, bids[p]) for p in rack.players)
    count: dict[str, int] = {}
    for _, t in ordered:
        count[t] = count.get(t, 0) + 1
    cancelled = tuple(p for p, t in ordered if count[t] > 1)
    unique = [(p, t) for p, t in ordered if count[t] == 1]
    bid_numbers = {int(t) for _, t in ordered if t != "X"}
    free = tuple(n for n in NUMBERS if n not in bid_numbers)
    notes: list[str] = []
    kept_numbers: dict[str, int] = {}
    order: list[Mover] = []
    x_player = None
    for p, t in unique:
        if t != "X":
            order.append(Mover(p, t, int(t)))
            continue
        x_player = p
        x_number: int | None = numbers.get(p)
        if x_number is not None and x_number not in free:
            notes.append(f"{p} declared X as {x_number}, but {x_number} was bid this round; "
                         f"{p} may take {or_list(free) if free else 'no number'} instead")
            x_number = None
        if x_number is not None:
            kept_numbers[p] = x_number
        if free:
            order.append(Mover(p, t, x_number, free))
    order.sort(key=lambda m: m.sort_key)
    rack_next = Rack(rack.players, {p: t for p, t in unique})
    return Reveal(ordered, kept_numbers, cancelled, free, tuple(order), x_player, rack_next,
                  tuple(notes))


# ----------------------------------------------------------------------------- text form


def format_bids(bids: Mapping[str, str], numbers: Mapping[str, int] | None = None) -> str:
    """One round's bids as compact text: ``red=4 yellow=X:6 blue=5``.

    >>> format_bids({"red": "4", "yellow": "X", "blue": "5"}, {"yellow": 6})
    'red=4 yellow=X:6 blue=5'
    >>> parse_bids(format_bids({"red": "X", "blue": "7"}))
    ({'red': 'X', 'blue': '7'}, {})
    """
    numbers = numbers or {}
    return " ".join(f"{p}={t}" + (f":{numbers[p]}" if p in numbers else "")
                    for p, t in bids.items())


def parse_bids(text: str) -> tuple[dict[str, str], dict[str, int]]:
    """Reads :func:`format_bids` text back: ``(bids, numbers)``.

    Raises:
        BidError: A word that is not ``player=tile`` or ``player=X:number``.

    >>> parse_bids("red=X:5 green=4")
    ({'red': 'X', 'green': '4'}, {'red': 5})
    """
    bids: dict[str, str] = {}
    numbers: dict[str, int] = {}
    for word in text.split():
        player, eq, tile = word.partition("=")
        tile, colon, number = tile.partition(":")
        if not player or not eq or tile not in TILES or player in bids:
            raise BidError(f"{word!r} is not a bid like red=4 or red=X:6")
        if colon:
            if tile != "X" or number not in ("4", "5", "6", "7"):
                raise BidError(f"{word!r}: only an X takes a number 4-7")
            numbers[player] = int(number)
        bids[player] = tile
    return bids, numbers


# ----------------------------------------------------------------------------- secret bids


class SecretBids:
    """Collects one round's bids and keeps each secret from the others until all are in.

    Thread-agnostic: it holds no lock; the web layer wraps its calls in its own. A player may
    change their bid until the last bid is in; then :meth:`reveal` reveals the round and starts
    the next one.

    >>> sb = SecretBids(["red", "blue", "green"])
    >>> sb.submit("red", "4"); sb.submit("blue", "X", number=6)
    >>> sb.view_for("blue")["bids"]
    {'blue': 'X'}
    >>> sb.all_in()
    False
    >>> sb.submit("green", "4")
    >>> sb.reveal().cancelled
    ('red', 'green')
    >>> sb.round, sb.view_for("red")["available"]
    (2, ['4', '5', '6', '7', 'X'])
    """

    def __init__(self, players: Iterable[str], rack: Rack | None = None,
                 round_no: int = 1) -> None:
        players = tuple(players)
        if not players:
            raise BidError("bidding needs at least one player")
        self.rack: Rack = rack if rack is not None else Rack.fresh(players)
        if self.rack.players != players:
            raise BidError("the rack's players are not the bidding players")
        self.round: int = round_no
        self.last_reveal: Reveal | None = None
        self._bids: dict[str, str] = {}
        self._numbers: dict[str, int] = {}

    @property
    def players(self) -> tuple[str, ...]:
        """Every player, in seating order."""
        return self.rack.players

    def submit(self, player: str, bid: str, number: int | None = None) -> None:
        """Takes (or replaces) ``player``'s bid for this round.

        Args:
            player: Who bids.
            bid: ``"4"``..``"7"`` or ``"X"``.
            number: For an X, the number the player means to take (optional).

        Raises:
            BidError: An unknown player or tile, a tile sitting out, a number with a non-X
                bid, or a bid after all bids are in (reveal first).
        """
        self.rack.check(player, bid)
        if number is not None:
            if bid != "X":
                raise BidError("only an X bid takes a number")
            if isinstance(number, bool) or number not in NUMBERS:
                raise BidError(f"an X takes a number 4-7, not {number!r}")
        if self.all_in():
            raise BidError(f"all bids of round {self.round} are in; they must be revealed first")
        self._bids[player] = bid
        self._numbers.pop(player, None)
        if number is not None:
            self._numbers[player] = number

    def has_bid(self, player: str) -> bool:
        """True when ``player`` has bid this round."""
        self.rack.available(player)  # checks the player
        return player in self._bids

    def all_in(self) -> bool:
        """True when every player has bid this round."""
        return all(p in self._bids for p in self.players)

    def waiting_for(self) -> tuple[str, ...]:
        """The players who have not bid yet, in seating order."""
        return tuple(p for p in self.players if p not in self._bids)

    def view_for(self, player: str | None) -> dict[str, Any]:
        """What ``player`` may see (None: what everyone may see, the dashboard).

        Before all bids are in, a player sees only their own bid and who else has bid; once
        all are in, everyone sees every bid (the reveal to come).
        """
        if player is not None:
            self.rack.available(player)
        all_in = self.all_in()
        if all_in:
            bids = {p: self._bids[p] for p in self.players}
        elif player is not None and player in self._bids:
            bids = {player: self._bids[player]}
        else:
            bids = {}
        out: dict[str, Any] = {
            "round": self.round,
            "players": list(self.players),
            "bids_in": [p for p in self.players if p in self._bids],
            "waiting_for": list(self.waiting_for()),
            "all_in": all_in,
            "bids": bids,
            "last_reveal": None if self.last_reveal is None else self.last_reveal.to_json(),
        }
        if player is not None:
            out["you"] = player
            out["your_bid"] = self._bids.get(player)
            out["your_number"] = self._numbers.get(player)
            out["available"] = list(self.rack.available(player))
        return out

    def reveal(self) -> Reveal:
        """Reveals the round and starts the next one (tiles that won now sit out).

        Raises:
            BidError: Not every player has bid yet.
        """
        if not self.all_in():
            raise BidError(f"no bid yet from {and_list(self.waiting_for())}")
        result = reveal(self._bids, self._numbers, self.rack)
        self.last_reveal = result
        self.rack = result.rack_next
        self.round += 1
        self._bids.clear()
        self._numbers.clear()
        return result
