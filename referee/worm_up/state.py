"""The frozen state of a game of Worm Up!: where it stands, the worms, the bids and the posts."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from referee.pending import Pending, PendingState
from referee.worm_up.bidding import Rack, Reveal
from tabletop.scene import Point2, Scene


class Phase(StrEnum):
    """Where a game of Worm Up! stands."""

    SETUP = "setup"        # waiting for the first scene (the worms at the start line)
    BIDDING = "bidding"    # collecting this round's bids
    MOVING = "moving"      # bids revealed; worms move in order
    OVER = "over"          # a worm's head touched the finish line


@dataclass(frozen=True)
class Worm:
    """One worm on the accepted table.

    Attributes:
        player: Its colour.
        centres_mm: Segment centres, tail first, head last.
    """

    player: str
    centres_mm: tuple[Point2, ...]

    @property
    def head_mm(self) -> Point2:
        """The head segment's centre."""
        return self.centres_mm[-1]

    @property
    def tail_mm(self) -> Point2:
        """The tail segment's centre."""
        return self.centres_mm[0]

    def to_json(self) -> dict[str, Any]:
        """``{"head_mm", "tail_mm", "segments_mm"}`` (segments tail first)."""
        return {"head_mm": list(self.head_mm), "tail_mm": list(self.tail_mm),
                "segments_mm": [list(c) for c in self.centres_mm]}


@dataclass(frozen=True)
class WormUpState(PendingState):
    """A game of Worm Up! between two events.

    Attributes:
        table: The last accepted table.
        phase: Where the game stands.
        round: The round being bid or moved (1 first).
        rack: The tiles each player may bid in the round being bid (or the next one).
        bids: This round's bids so far, ``(player, tile, number or None)``, secret until all
            are in.
        reveal: The latest reveal (this round's once the bids are in).
        moved: The players who have moved since the latest reveal.
        post_moved: Whether the latest reveal's X player has moved a finish post.
        worms: The worms on the accepted table, in player order.
        start_posts_mm: The start posts (from the first scene).
        finish_posts_mm: The finish posts where they stand now.
        winner: The player whose head touched the finish line first.
        setup_doubted: The first table was in doubt (a misread could explain what was wrong).
        doubted_setup: That first table as read (it stands as read once the players bid on,
            when its worms are read whole).
        doubted: A later table was in doubt and nothing was judged since (the players bidding
            on take the round's worms still to move as moved).
        unsure: Players whose worm was taken as moved without being seen: the next table
            that reads it whole places it (before anything is judged about it).
        unsure_steps: For worms in ``unsure``, how many segments each was taken to have
            moved (when its number was known): read later beyond that, it moved again.
        unsure_seen: For worms in ``unsure``, the segments of it the last reading in doubt
            showed when it was taken as moved: read whole later with all of those where they
            were, it has not moved since (placed even when its move is next).
        placed_late: Worms placed this round from a reading made after the round's reveal
            (taken as moved and placed where a later table read them, or a move in doubt
            taken as made where it lay), not proved still there: where they lie may already
            show their move of this round, so no ``order`` or ``turn`` foul and no foul of
            their own move is proved against them (a doubt) until the next reveal.
        doubted_reading: The last reading in doubt (a reading of the same table after it
            is completed from it: :mod:`referee.worm_up.two_readings`).
        heads_unknown: The first table stood as read with no post seen: which end of the
            worms is the head is learnt from the first move (the worms point the same way).
        guessed: Worms of the first table read short, completed on their line
            (:mod:`referee.worm_up.end_short`): ``(player, the other ways its whole line
            could lie)``, until the worm is seen whole or has made its first move.
        before_move: The state before the last move judged legal (its own ``before_move``
            None), while no bid has been made since: a table that shows that worm back where
            it lay, nothing else changed, takes the move back (a move judged legal that the
            players put right, e.g. one taken legal with the heads told by it: a move
            backwards), not a second move out of turn.
        pending: An illegal verdict not yet put right (None: none; :mod:`referee.pending`).
        pending_told: Whether the table was told that, once, when another player went on.
        finish_once: A finish line never seen at the setup, read once on a later table: taken
            when the next reading shows it again (one reading's shadows are no finish line).
        count_doubted: Worms read with too few or too many segments while another worm moved
            (:mod:`referee.worm_up.worm_in_doubt`), asked about once: until a move of their
            own is judged, later tables judge the other worms without asking again.
    """

    table: Scene | None
    rack: Rack
    phase: Phase = Phase.SETUP
    round: int = 1
    bids: tuple[tuple[str, str, int | None], ...] = ()
    reveal: Reveal | None = None
    moved: tuple[str, ...] = ()
    post_moved: bool = False
    worms: tuple[Worm, ...] = ()
    start_posts_mm: tuple[Point2, Point2] | None = None
    finish_posts_mm: tuple[Point2, Point2] | None = None
    winner: str | None = None
    setup_doubted: bool = False
    doubted_setup: Scene | None = None
    doubted: bool = False
    unsure: tuple[str, ...] = ()
    heads_unknown: bool = False
    unsure_steps: tuple[tuple[str, int], ...] = ()
    unsure_seen: tuple[tuple[str, tuple[Point2, ...]], ...] = ()
    placed_late: tuple[str, ...] = ()
    doubted_reading: Scene | None = None
    guessed: tuple[tuple[str, tuple[tuple[Point2, ...], ...]], ...] = ()
    before_move: WormUpState | None = None
    pending: Pending | None = None
    pending_told: bool = False
    finish_once: tuple[Point2, Point2] | None = None
    count_doubted: tuple[str, ...] = ()

    def placed(self, players: Collection[str]) -> WormUpState:
        """This state with ``players``' worms no longer in doubt (placed where a reading
        showed them): out of ``unsure``, ``unsure_steps``, ``unsure_seen`` and ``guessed``."""
        return replace(self, unsure=tuple(p for p in self.unsure if p not in players),
                       unsure_steps=tuple(x for x in self.unsure_steps if x[0] not in players),
                       unsure_seen=tuple(x for x in self.unsure_seen if x[0] not in players),
                       guessed=tuple(g for g in self.guessed if g[0] not in players))

    def worm(self, player: str) -> Worm:
        """The worm of ``player``."""
        for w in self.worms:
            if w.player == player:
                return w
        raise KeyError(player)
