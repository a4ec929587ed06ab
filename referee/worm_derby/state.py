"""The frozen state of a Worm Derby game and of each worm in it."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from referee.pending import Pending, PendingState
from referee.worm_derby.course import Course
from tabletop.events import Event
from tabletop.scene import Piece, Point2, Scene


def unwrap_from(previous_deg_rad: float, raw_rad: float) -> float:
    """The angle equal to ``raw_rad`` (mod 2 pi) nearest to ``previous_deg_rad``.

    >>> round(unwrap_from(3.1, -3.1), 4)
    3.1832
    """
    d = (raw_rad - previous_deg_rad + math.pi) % (2 * math.pi) - math.pi
    return previous_deg_rad + d


@dataclass(frozen=True)
class WormTrack:
    """One player's worm as the referee knows it.

    Attributes:
        player: The player (a suit name).
        coins_mm: Coin centres in chain order.
        angles_rad: Each coin's angle round the pylon, unwrapped along the worm's travel
            (0 towards the start line; a lap adds 2 pi).
        length: How many coins the worm has now.
        rounded: Whether it has gone round the far side of the pylon.
        gates: Slalom gates (indices into the course's gates) passed the right way.
        eaten: Coins lost to cannibals and held aside (Cannibal).
        finished: Whether it has finished.
    """

    player: str
    coins_mm: tuple[Point2, ...]
    angles_rad: tuple[float, ...]
    length: int
    rounded: bool = False
    gates: frozenset[int] = frozenset()
    eaten: int = 0
    finished: bool = False

    def moved(self, coins_mm: tuple[Point2, ...], angles_rad: tuple[float, ...]) -> WormTrack:
        """The same worm with new coins."""
        return replace(self, coins_mm=coins_mm, angles_rad=angles_rad)

    def to_json(self) -> dict[str, object]:
        """The worm for the dashboard."""
        return {"player": self.player, "coins": [[round(x, 2), round(y, 2)]
                                                 for x, y in self.coins_mm],
                "length": self.length, "rounded": self.rounded, "finished": self.finished,
                "eaten": self.eaten, "laps": round(max((abs(a) for a in self.angles_rad),
                                                       default=0.0) / (2 * math.pi), 2)}


@dataclass(frozen=True)
class DerbyState(PendingState):
    """Everything the referee knows between two events.

    Attributes:
        table: The last accepted table (None before the course is set up).
        course: The course read from the first accepted scene.
        worms: One track per player, in setup order.
        turn: Index of the player whose turn it is.
        roll: The roll waiting to be played: ``"2"``..``"5"`` (steps), ``"1"`` (a Slalom ace),
            ``"ace"`` (move an obstacle or return an eaten coin, then roll again), ``"again"``
            (roll again), or None (the player must roll).
        places: Players in the order they finished.
        flee: ``(victim, attacker)``: the victim must next move away from the attacker.
        truce: ``(victim, attacker)``: the victim may not attack the attacker on its next turn.
        pending: An illegal verdict not yet put right (None: none; :mod:`referee.pending`).
        pending_told: Whether the table was told that, once, when another player went on.
        doubted: ``(seq, scene)``: the last reading was in doubt (asked to be confirmed or
            fixed); the scene is that reading made consistent with the accepted table. If the
            next player rolls without a fix, the move stands as read.
        doubted_read: The doubted reading as vision gave it (a tile it showed where none was
            lies there when the table stands as read, if the one tile it lacks lay near).
        provisional: Players whose unsure worm was read whole where it lay before anyone moved
            since: where it started is not known, so it is read again from each new reading
            (a change is a correction or a put-back, never a move) until a move is judged or
            its player rolls.
        unsure: Players whose worm was not read whole when a doubted table stood: each new
            reading places it (and, once whole, it is sure again).
        unsure_asked: The table was asked, since the last roll, about the move of a worm not
            read whole since it last moved (asked once a roll, not at every reading).
        early_roller: The last player who rolled before any course was set up (its first
            table was in doubt): the race has begun in the players' eyes.
        early_roll: What the early roller rolled (its worm still at the start when the
            course is set up: that roll is still to play).
        before_move: ``(seq, state)``: the state before the last legal move, until the next
            roll: a table put back as it was then takes that move back.
        as_it_stands: The course was set up as the table stood (its first reading was in doubt
            and the players rolled on), and nobody has rolled since: the race is provisional, and
            the worms read whole again before the next roll correct where they were taken to lie.
        fresh: The course was just set up and nobody has rolled yet: a reading that shows the
            same table with a tile more (not seen when the course was set up) sets it up again.
        late_seen: Tiles the last reading showed where the accepted table has none, clear of
            its tiles (:mod:`.late_found`): a tile shown there again was missed before, and
            joins the accepted table.
        setup_seen: The first table read before anyone rolled, when it was in doubt (a coin
            or a tile not seen): a later reading that shows the pieces missing there, of worms
            that did not move, completes it (:meth:`WormDerby._setup_completed`).
        early: ``(seq, event)``: the readings and rolls given while no course was set up,
            from the first reading on, once a roll was refused (the first table in doubt):
            kept to be played again from the first table when a later reading completes it
            (:meth:`WormDerby._replayed_setup`); empty once the course stands.
        guessed: ``(player, place)``: a coin of a worm placed where a legal move was confirmed
            on a guess (a coin not seen in a gap at a bend, which lay on either side): the
            next reading that shows one coin of that worm within a coin's width of it, where
            none lay, puts it there (:meth:`WormDerby._reseat_guessed`).
    """

    table: Scene | None = None
    course: Course | None = None
    worms: tuple[WormTrack, ...] = ()
    turn: int = 0
    roll: str | None = None
    places: tuple[str, ...] = ()
    flee: tuple[tuple[str, str], ...] = field(default_factory=tuple)
    truce: tuple[tuple[str, str], ...] = field(default_factory=tuple)
    pending: Pending | None = None
    pending_told: bool = False
    doubted: tuple[int, Scene] | None = None
    doubted_read: Scene | None = None
    unsure: tuple[str, ...] = ()
    unsure_asked: bool = False
    provisional: tuple[str, ...] = ()
    early_roller: str | None = None
    early_roll: str | None = None
    before_move: tuple[int, DerbyState] | None = None
    as_it_stands: bool = False
    fresh: bool = False
    late_seen: tuple[Piece, ...] = ()
    guessed: tuple[tuple[str, Point2], ...] = ()
    setup_seen: Scene | None = None
    early: tuple[tuple[int, Event], ...] = ()

    def worm(self, player: str) -> WormTrack:
        """The track of a player's worm."""
        for w in self.worms:
            if w.player == player:
                return w
        raise KeyError(player)

    def with_worm(self, track: WormTrack) -> DerbyState:
        """The state with one worm's track replaced."""
        return replace(self, worms=tuple(track if w.player == track.player else w
                                         for w in self.worms))

    @property
    def over(self) -> bool:
        """Whether every worm has finished."""
        return bool(self.worms) and all(w.finished for w in self.worms)
