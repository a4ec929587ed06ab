"""The Worm Up! referee: bids revealed at once, worms moved tail to head, the finish line.

A record looks like this: a setup (players are segment colours, 3 to 5), the first scene (the
worms behind the start line), then each round a ``bid`` event per player and, once they are
revealed (a :class:`tabletop.events.Notice` with the reveal as ``data``), one scene per moving
worm in move order. The referee checks each scene:

- ``pieces``: every worm has its 7 segments and both finish posts are on the table;
- ``turn``: only a worm whose bid succeeded moves, once a round, after the reveal, one at a
  time; ``order``: it moves in its place in the move order (lowest bid first);
- ``shape``: the worm is still one chain of touching segments (never split);
- ``tail``: the moved segments came from the tail and were laid, one after the other, in front
  of the head;
- ``steps``: exactly as many segments as the bid (an X: a number nobody bid);
- ``touch``: the worm touches no other worm;
- ``post``: after a successful X, one finish post stays put and the other moves, the distance
  between them unchanged (the strip stays attached); at no other time may a finish post move;
- the finish: the first worm whose head touches the finish line (the strip between the finish
  posts, its width counted) wins (a ``finish`` and a ``winner`` event).

Bids: ``bid`` when a bid breaks the rules (a tile sitting out, a bid while worms still have to
move, before the setup). A legal bid gets a legal verdict that does not say what was bid.

Tolerances are named settings (:class:`WormUpSettings`), each overridable by a setup option of
the same name. Where vision noise makes a call uncertain, the player gets the benefit of the
doubt: segments of one worm up to ``chain_gap_mm`` apart still touch, segments of two worms
touch only within ``touch_gap_mm``.

Decisions where the rule sheets are silent:

- An X with no free number (five players bid 4, 5, 6, 7 and X) is not cancelled and its tile
  sits out, but the worm cannot advance; the X player may still move a finish post.
- The post move after an X is optional and allowed once, from the reveal until the next
  reveal, on its own in a scene or in the same scene as the X player's worm move. A worm
  whose head the moved finish line touches finishes.
- ``accept`` (the table as it is) counts a changed worm as having made its move when that
  player is among those who may move next.
- Scenes after the winner are not judged.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import IntFlag, StrEnum
from typing import Any

from referee.base import Game, GameState, Judgement, RuleBroken, Step
from referee.registry import register_game
from referee.words import and_list, or_list
from referee.worm_up import geometry as geo
from referee.worm_up.bidding import BidError, Rack, Reveal, SecretBids, reveal
from tabletop.errors import RecordFormatError
from tabletop.events import Bid, Doubt, Event, Finish, Notice, SceneSeen, Setup, Verdict, Winner
from tabletop.scene import Point2, Scene


class Rule(StrEnum):
    """The rule codes of Worm Up! verdicts."""

    OK = "ok"
    SETUP = "setup"
    BID = "bid"
    TURN = "turn"
    ORDER = "order"
    STEPS = "steps"
    TAIL = "tail"
    SHAPE = "shape"
    TOUCH = "touch"
    POST = "post"
    PIECES = "pieces"
    EVENT = "event"
    ACCEPT = "accept"


class Phase(StrEnum):
    """Where a game of Worm Up! stands."""

    SETUP = "setup"        # waiting for the first scene (the worms at the start line)
    BIDDING = "bidding"    # collecting this round's bids
    MOVING = "moving"      # bids revealed; worms move in order
    OVER = "over"          # a worm's head touched the finish line


class Status(IntFlag):
    """What makes a table physically not a Worm Up! table (python-chess's ``Status`` bits)."""

    VALID = 0
    SEGMENTS = 1     # a worm has not exactly its segments
    SPLIT = 2        # a worm's segments do not form one chain of touching segments
    TOUCHING = 4     # two worms touch
    POSTS = 8        # fewer than two posts


@dataclass(frozen=True)
class WormUpSettings:
    """Tolerances and sizes of the Worm Up! referee (millimetres unless named otherwise).

    Attributes:
        segments: Segments per worm.
        strip_width_mm: Width of the FINISH strip between the finish posts.
        chain_gap_mm: Segments of one worm whose centres are up to a diameter plus this apart
            still touch (a worm is a chain).
        touch_gap_mm: Segments of two worms whose centres are within a diameter plus this
            touch (a foul).
        still_mm: A segment or post within this of where it was has not moved.
        post_distance_tolerance_mm: How much the distance between the finish posts may change
            in a post move.
        start_gap_mm: At the setup, a head's edge lies at most this behind the start line.
        straight_mm: At the setup, no segment centre lies further than this from the line
            through the worm's ends.
    """

    segments: int = 7
    strip_width_mm: float = 25.0
    chain_gap_mm: float = 5.0
    touch_gap_mm: float = 2.0
    still_mm: float = 8.0
    post_distance_tolerance_mm: float = 15.0
    start_gap_mm: float = 30.0
    straight_mm: float = 10.0

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
                raise RecordFormatError(f"worm-up: option {f.name} must be a number, not {v!r}")
            if v < 0 or (f.name in ("segments", "strip_width_mm", "still_mm") and v <= 0):
                raise RecordFormatError(f"worm-up: option {f.name} must be positive, not {v!r}")
        if self.segments != int(self.segments) or self.segments < 2:
            raise RecordFormatError("worm-up: option segments must be a whole number from 2")
        object.__setattr__(self, "segments", int(self.segments))

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> WormUpSettings:
        """The settings with any setup option of the same name applied.

        Raises:
            RecordFormatError: An unknown option or a bad value.
        """
        names = {f.name for f in fields(cls)}  # others are refused by Game.check_options
        return cls(**{k: v for k, v in options.items() if k in names})


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
class WormUpState(GameState):
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

    def worm(self, player: str) -> Worm:
        """The worm of ``player``."""
        for w in self.worms:
            if w.player == player:
                return w
        raise KeyError(player)


@dataclass(frozen=True)
class _Read:
    """A scene read as Worm Up! pieces: each colour's segments and the posts, with indices."""

    segments: Mapping[str, tuple[tuple[int, Point2], ...]]
    posts: tuple[tuple[int, Point2], ...]

    def centres(self, player: str) -> list[Point2]:
        return [c for _, c in self.segments.get(player, ())]

    def indices(self, player: str) -> list[int]:
        return [i for i, _ in self.segments.get(player, ())]


MISREAD = "is a piece hidden or misread?"
"""The question put to the table when a misread could explain what is wrong."""


def _foul(rule: Rule, reason: str, player: str | None = None, pieces: Sequence[int] = (),
          where: Point2 | None = None, doubt: str = "") -> RuleBroken:
    """A rule broken by a scene (raised; it becomes an illegal verdict, or a doubt)."""
    return RuleBroken(Judgement(rule, reason, player, tuple(pieces), where, doubt))


def _centroid(points: Sequence[Point2]) -> Point2 | None:
    if not points:
        return None
    return _pt((sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)))


def _pt(p: Point2) -> tuple[float, float]:
    return (round(p[0], 1), round(p[1], 1))


@register_game
class WormUp(Game[WormUpState]):
    """Worm Up! (Alex Randolph): 3 to 5 worms race to the finish line by secret bids."""

    name = "worm-up"
    aliases = ("wormup", "worm_up")
    piece_kinds = ("segment", "post")
    option_names = frozenset({"sizes", *(f.name for f in fields(WormUpSettings))})

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        self.settings = WormUpSettings.from_options(setup.options)
        colours = tuple(self.pieces.segment_colours)
        bad = [p for p in self.players if p not in colours]
        if bad:
            raise RecordFormatError(
                f"worm-up: players are segment colours ({', '.join(colours)}), not {bad[0]!r}")
        if not 3 <= len(self.players) <= 5:
            raise RecordFormatError(
                f"worm-up: 3 to 5 players, not {len(self.players)}")
        self.diameter_mm: float = self.pieces.segment_diameter_mm
        self.radius_mm: float = self.diameter_mm / 2.0

    # ------------------------------------------------------------------ the Game interface

    def initial_state(self) -> WormUpState:
        """Before the first scene: every tile available."""
        return WormUpState(table=None, rack=Rack.fresh(self.players))

    def step(self, state: WormUpState, event: Event, seq: int) -> Step[WormUpState]:
        """Judges a bid or a scene (other events are not part of Worm Up!)."""
        if isinstance(event, Bid):
            return self._bid(state, event, seq)
        if isinstance(event, SceneSeen):
            if state.phase is Phase.OVER:
                return Step(state)
            try:
                if state.phase is Phase.SETUP:
                    return self._setup_scene(state, event.scene, seq)
                return self._scene(state, event.scene, seq)
            except RuleBroken as broken:
                foul = broken.judgement
                if foul.doubt:
                    # segments and posts do not appear or vanish during play: a misread first
                    doubted = replace(state, setup_doubted=True) \
                        if state.phase is Phase.SETUP else state
                    return Step(doubted, (Doubt(seq, foul.player, foul.pieces, foul.where,
                                                foul.reason.removesuffix(".") + ": "
                                                + foul.doubt),))
                return Step(state, (foul.verdict(seq),))
        player = getattr(event, "player", None)
        return Step(state, (Verdict(seq, player, False, Rule.EVENT.value,
                                    f"Worm Up! has no {event.type} events; players bid and "
                                    f"move their worms."),))

    def accept(self, state: WormUpState, scene: Scene, seq: int) -> Step[WormUpState]:
        """The table as it is becomes the accepted table (see the module's notes)."""
        try:
            if state.phase is Phase.SETUP:
                new = self._read_setup(scene, strict=False)
                return Step(replace(new, table=scene, phase=Phase.BIDDING),
                            (Verdict(seq, None, True, Rule.OK.value,
                                     "The table was accepted as the start; bidding for round 1 "
                                     "is open."),))
            return self._accept_later(state, scene, seq)
        except RuleBroken as broken:
            foul = broken.judgement
            return Step(state, (Verdict(seq, foul.player, False, Rule.ACCEPT.value,
                                        f"The table cannot be accepted: {foul.reason[:1].lower()}"
                                        f"{foul.reason[1:]}", foul.pieces, foul.where),))

    def describe(self, state: WormUpState) -> dict[str, Any]:
        """The dashboard's view: round, who has bid (not what), tiles, order, line, worms."""
        revealed = state.reveal
        in_round = state.phase is Phase.MOVING
        order = [m.to_json() for m in revealed.order] if revealed is not None else []
        next_players: list[str] = []
        if in_round and revealed is not None:
            next_players = list(revealed.next_players(state.moved))
        bid_players = [p for p, _, _ in state.bids]
        return {
            "round": state.round,
            "phase": state.phase.value,
            "bids_in": [p for p in self.players if p in bid_players],
            "waiting_for": ([p for p in self.players if p not in bid_players]
                            if state.phase is Phase.BIDDING else []),
            "last_reveal": revealed.to_json() if revealed is not None else None,
            "tiles": state.rack.to_json(),
            "move_order": order if in_round else [],
            "moved": list(state.moved),
            "next": next_players,
            "x_post_move": (revealed.x_player if revealed is not None and not state.post_moved
                            and state.phase in (Phase.BIDDING, Phase.MOVING) else None),
            "start_line_mm": ([list(p) for p in state.start_posts_mm]
                              if state.start_posts_mm else None),
            "finish_line_mm": ([list(p) for p in state.finish_posts_mm]
                               if state.finish_posts_mm else None),
            "strip_width_mm": self.settings.strip_width_mm,
            "worms": {w.player: w.to_json() for w in state.worms},
            "winner": state.winner,
        }

    def status(self, scene: Scene) -> Status:
        """Whether ``scene`` is physically a table of this game, as bits (``Status.VALID``: yes).

        Asked before any rule: a worm without its segments or not in one piece, worms touching,
        posts missing.
        """
        read = self._read(scene)
        out = Status.VALID
        if len(read.posts) < 2:
            out |= Status.POSTS
        for p in self.players:
            if len(read.segments[p]) != self.settings.segments:
                out |= Status.SEGMENTS
            elif geo.best_chain(read.centres(p), self.diameter_mm,
                                self.settings.chain_gap_mm) is None:
                out |= Status.SPLIT
        for p in self.players:
            try:
                self._check_no_touch(read, p, None, Rule.TOUCH)
            except RuleBroken:
                out |= Status.TOUCHING
                break
        return out

    def legal_bids(self, state: WormUpState, player: str) -> tuple[str, ...]:
        """The tiles ``player`` may bid now (none outside the bidding)."""
        if state.phase is not Phase.BIDDING or player not in self.players:
            return ()
        return state.rack.available(player)

    def outcome(self, state: WormUpState) -> str | None:
        """The winner, or None while the race goes on."""
        return state.winner

    def secret_bids(self, state: WormUpState) -> SecretBids:
        """A :class:`SecretBids` for the round being bid, holding the bids already in.

        The phone pages can rebuild their secret view from the referee's state this way
        (after an undo, say) instead of keeping a second truth.
        """
        sb = SecretBids(self.players, state.rack, state.round)
        if state.phase is Phase.BIDDING:
            for player, tile, number in state.bids:
                sb.submit(player, tile, number)
        return sb

    # ------------------------------------------------------------------ bids

    def _bid(self, state: WormUpState, bid: Bid, seq: int) -> Step[WormUpState]:
        def foul(reason: str) -> Step[WormUpState]:
            return Step(state, (Verdict(seq, bid.player, False, Rule.BID.value, reason),))

        if bid.player not in self.players:
            return foul(f"{bid.player!r} is not playing (players: {', '.join(self.players)}).")
        if state.phase is Phase.SETUP:
            if state.setup_doubted:  # the table is in doubt, not the player at fault
                return Step(state, (Notice(seq, "The bid waits: the first table is in doubt, "
                                                "so the worms are not set up yet; fix the "
                                                "reading or accept the table.", "warning"),))
            return foul("No bids before the worms are set up behind the start line.")
        if state.phase is Phase.OVER:
            return foul(f"The race is over: {state.winner} has won.")
        if state.phase is Phase.MOVING:
            assert state.reveal is not None
            waiting = and_list(list(state.reveal.next_players(state.moved)))
            return foul(f"Bids for round {state.round + 1} open once every worm of round "
                        f"{state.round} has moved ({waiting} still to move).")
        try:
            state.rack.check(bid.player, bid.bid)
        except BidError as exc:
            return foul(f"{exc}.")
        changed = any(p == bid.player for p, _, _ in state.bids)
        bids = (*(b for b in state.bids if b[0] != bid.player),
                (bid.player, bid.bid, bid.number))
        state = replace(state, bids=bids)
        waiting_for = [p for p in self.players if p not in {b[0] for b in bids}]
        said = "changed their bid" if changed else "has bid"
        if waiting_for:
            return Step(state, (Verdict(seq, bid.player, True, Rule.OK.value,
                                        f"{bid.player} {said}; waiting for "
                                        f"{and_list(waiting_for)}."),))
        verdict = Verdict(seq, bid.player, True, Rule.OK.value,
                          f"{bid.player} {said}; all bids of round {state.round} are in.")
        shown = reveal({p: t for p, t, _ in bids},
                       {p: n for p, _, n in bids if n is not None}, state.rack)
        notice = Notice(seq, shown.summary(state.round), "info",
                        {"round": state.round, **shown.to_json()})
        state = replace(state, reveal=shown, rack=shown.rack_next, bids=(), moved=(),
                        post_moved=False)
        state = self._maybe_end_round(state)
        return Step(state, (verdict, notice))

    def _maybe_end_round(self, state: WormUpState) -> WormUpState:
        assert state.reveal is not None
        if state.reveal.next_players(state.moved):
            return replace(state, phase=Phase.MOVING)
        return replace(state, phase=Phase.BIDDING, round=state.round + 1, moved=())

    # ------------------------------------------------------------------ reading scenes

    def _read(self, scene: Scene) -> _Read:
        segs: dict[str, list[tuple[int, Point2]]] = {p: [] for p in self.players}
        posts: list[tuple[int, Point2]] = []
        for i, piece in enumerate(scene.pieces):
            if piece.kind == "segment" and piece.color in segs:
                segs[piece.color].append((i, piece.centre_mm))
            elif piece.kind == "post":
                posts.append((i, piece.centre_mm))
        return _Read({p: tuple(v) for p, v in segs.items()}, tuple(posts))

    def _check_counts(self, read: _Read, rule: Rule) -> None:
        n = self.settings.segments
        for p in self.players:
            have = len(read.segments[p])
            if have != n:
                raise _foul(rule, f"{p} has {have} segment{'s' if have != 1 else ''} on the "
                                  f"table, not {n}.", p, read.indices(p), doubt=MISREAD)

    def _chain(self, read: _Read, player: str, rule: Rule) -> tuple[int, ...]:
        order = geo.best_chain(read.centres(player), self.diameter_mm, self.settings.chain_gap_mm)
        if order is None:
            raise _foul(rule, f"{player}'s segments do not form one chain of touching segments.",
                        player, read.indices(player))
        return order

    def _check_no_touch(self, read: _Read, player: str, only: Sequence[int] | None,
                        rule: Rule) -> None:
        """No segment of ``player`` (or just those at ``only``) touches another worm."""
        mine = read.segments[player]
        if only is not None:
            mine = tuple(mine[k] for k in only)
        for other in self.players:
            if other == player:
                continue
            for i, a in mine:
                for j, b in read.segments[other]:
                    if geo.touch(a, b, self.diameter_mm, self.settings.touch_gap_mm):
                        raise _foul(rule, f"{player}'s worm touches {other}'s worm.", player,
                                    (i, j), _pt(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)))

    # ------------------------------------------------------------------ the setup

    def _setup_scene(self, state: WormUpState, scene: Scene, seq: int) -> Step[WormUpState]:
        new = self._read_setup(scene, strict=True)
        return Step(replace(new, table=scene, phase=Phase.BIDDING),
                    (Verdict(seq, None, True, Rule.OK.value,
                             f"The {len(self.players)} worms are set up behind the start line; "
                             f"bidding for round 1 is open."),))

    def _read_setup(self, scene: Scene, strict: bool) -> WormUpState:
        """The starting state from the first scene (``strict``: check the setup rules)."""
        read = self._read(scene)
        self._check_counts(read, Rule.SETUP)
        if len(read.posts) != 4:
            raise _foul(Rule.SETUP, f"The table needs 4 posts (2 start, 2 finish), not "
                                    f"{len(read.posts)}.", None, [i for i, _ in read.posts],
                        doubt=MISREAD)
        chains = {p: self._chain(read, p, Rule.SETUP) for p in self.players}
        ends = [read.centres(p)[k] for p in self.players for k in (chains[p][0], chains[p][-1])]
        s1, s2, f1, f2 = self._start_and_finish([c for _, c in read.posts], ends)
        worms = []
        for p in self.players:
            pts = [read.centres(p)[k] for k in chains[p]]
            if abs(geo.line_distance(pts[-1], s1, s2)[0]) > abs(
                    geo.line_distance(pts[0], s1, s2)[0]):
                pts.reverse()
            worms.append(Worm(p, tuple(pts)))
        if strict:
            self._check_start(read, worms, (s1, s2), (f1, f2))
        return WormUpState(table=scene, rack=Rack.fresh(self.players), worms=tuple(worms),
                           start_posts_mm=(s1, s2), finish_posts_mm=(f1, f2))

    @staticmethod
    def _start_and_finish(posts: Sequence[Point2],
                          ends: Sequence[Point2]) -> tuple[Point2, Point2, Point2, Point2]:
        """Splits 4 posts into the start pair (the line nearest the worms' ends) and the finish.

        Returns:
            ``(start_a, start_b, finish_a, finish_b)``.
        """
        best: tuple[float, tuple[int, int]] | None = None
        for i in range(4):
            for j in range(i + 1, 4):
                a, b = posts[i], posts[j]
                # each worm's nearer end to the start line
                score = sum(min(geo.segment_distance(e, a, b), geo.segment_distance(f, a, b))
                            for e, f in zip(ends[::2], ends[1::2], strict=True))
                if best is None or score < best[0]:
                    best = (score, (i, j))
        assert best is not None
        i, j = best[1]
        fi, fj = (k for k in range(4) if k not in (i, j))
        return posts[i], posts[j], posts[fi], posts[fj]

    def _check_start(self, read: _Read, worms: Sequence[Worm], start: tuple[Point2, Point2],
                     finish: tuple[Point2, Point2]) -> None:
        s = self.settings
        s1, s2 = start
        finish_mid = ((finish[0][0] + finish[1][0]) / 2, (finish[0][1] + finish[1][1]) / 2)
        finish_side = geo.line_distance(finish_mid, s1, s2)[0]
        if abs(finish_side) < self.diameter_mm:
            raise _foul(Rule.SETUP, "The finish posts must stand well ahead of the start posts.",
                        None, [i for i, _ in read.posts])
        behind = -1.0 if finish_side > 0 else 1.0  # distances times this: > 0 behind the line
        span_mm = geo.dist(s1, s2)
        for w in worms:
            idx = read.indices(w.player)
            if geo.max_deviation(w.centres_mm) > s.straight_mm:
                raise _foul(Rule.SETUP, f"{w.player}'s worm is not laid out in a straight line.",
                            w.player, idx)
            head_d, t = geo.line_distance(w.head_mm, s1, s2)
            head_behind = head_d * behind
            tail_behind = geo.line_distance(w.tail_mm, s1, s2)[0] * behind
            if tail_behind <= 0:
                raise _foul(Rule.SETUP, f"{w.player}'s worm must start behind the start line, "
                                        f"facing the finish.", w.player, idx, _pt(w.head_mm))
            if tail_behind - head_behind < 0.5 * geo.dist(w.tail_mm, w.head_mm):
                raise _foul(Rule.SETUP, f"{w.player}'s worm must point at the start line, not "
                                        f"lie along it.", w.player, idx, _pt(w.head_mm))
            gap = head_behind - self.radius_mm
            if gap < -s.touch_gap_mm:
                raise _foul(Rule.SETUP, f"{w.player}'s head lies over the start line.",
                            w.player, idx, _pt(w.head_mm))
            if gap > s.start_gap_mm:
                raise _foul(Rule.SETUP, f"{w.player}'s head is {gap:.0f} mm behind the start "
                                        f"line; it must be just behind it.", w.player, idx,
                            _pt(w.head_mm))
            margin = self.diameter_mm / span_mm if span_mm > 0 else 0.0
            if not -margin <= t <= 1 + margin:
                raise _foul(Rule.SETUP, f"{w.player}'s head is not between the start posts.",
                            w.player, idx, _pt(w.head_mm))
        for p in self.players:
            self._check_no_touch(read, p, None, Rule.SETUP)

    # ------------------------------------------------------------------ later scenes

    def _changes(self, state: WormUpState, read: _Read) -> tuple[dict[str, dict[int, int]],
                                                                 list[str], Point2 | None]:
        """Which worms changed and whether a finish post moved.

        Returns:
            ``(still, changed, moved_post)``: per player the matched ``{old k: new k}``; the
            players whose worm changed; the new position of a moved finish post (or None).

        Raises:
            RuleBroken: a finish post is missing, or both moved.
        """
        s = self.settings
        still: dict[str, dict[int, int]] = {}
        changed: list[str] = []
        for w in state.worms:
            m = geo.match_still(w.centres_mm, read.centres(w.player), s.still_mm)
            still[w.player] = m
            if len(m) != len(w.centres_mm):
                changed.append(w.player)
        assert state.finish_posts_mm is not None
        fin = state.finish_posts_mm
        new_posts = [c for _, c in read.posts]
        fm = geo.match_still(fin, new_posts, s.still_mm)
        if len(fm) == 2:
            return still, changed, None
        starts = state.start_posts_mm or ()
        sm = geo.match_still(starts, new_posts, s.still_mm)
        others = [j for j in range(len(new_posts))
                  if j not in fm.values() and j not in sm.values()]
        if len(fm) == 1 and others:
            anchor = fin[next(iter(fm))]
            length = geo.dist(*fin)
            j = min(others, key=lambda j: abs(geo.dist(anchor, new_posts[j]) - length))
            return still, changed, new_posts[j]
        if not fm and len(others) >= 2:
            raise _foul(Rule.POST, "Both finish posts moved; one of them must stay put.", None,
                        [read.posts[j][0] for j in others], _pt(fin[0]))
        raise _foul(Rule.PIECES, "A finish post is missing from the table; put it back.", None,
                    [i for i, _ in read.posts], _pt(fin[0]), doubt=MISREAD)

    def _scene(self, state: WormUpState, scene: Scene, seq: int) -> Step[WormUpState]:
        read = self._read(scene)
        self._check_counts(read, Rule.PIECES)
        still, changed, moved_post = self._changes(state, read)
        if not changed and moved_post is None:
            return Step(state)
        x_player = state.reveal.x_player if state.reveal is not None else None
        if not changed:
            assert moved_post is not None
            new = self._post_move(state, read, moved_post)
            return self._after_post(new, scene, seq)
        if state.phase is not Phase.MOVING:
            raise _foul(Rule.TURN, f"No worm may move before the bids of round {state.round} "
                                   f"are revealed; {and_list(changed)} moved.", changed[0],
                        [i for p in changed for i in read.indices(p)])
        assert state.reveal is not None
        rv = state.reveal
        nxt = rv.next_players(state.moved)
        movers = [p for p in changed if p in nxt]
        if len(changed) > 1:
            who = movers[0] if movers else changed[0]
            raise _foul(Rule.TURN, f"Only one worm may move at a time, but {and_list(changed)} "
                                   f"moved.", who, [i for p in changed for i in read.indices(p)])
        player = changed[0]
        if not movers:
            pending = rv.mover(player) is not None and player not in state.moved
            raise _foul(Rule.ORDER if pending else Rule.TURN, self._not_your_turn(state, player),
                        player,
                        read.indices(player))
        if moved_post is not None and player != x_player:
            raise _foul(Rule.POST, f"A finish post moved with {player}'s worm; only the X "
                                   f"player may move a finish post.", player,
                        [i for i, _ in read.posts])
        worm, new_idx, number = self._judge_move(state, read, player, still[player])
        m = rv.mover(player)
        new_rv = rv.with_number(player, number) if m is not None and m.number is None else rv
        worms = tuple(worm if w.player == player else w for w in state.worms)
        new = replace(state, table=scene, worms=worms, reveal=new_rv,
                      moved=(*state.moved, player))
        how = f" (X as {number})" if rv.bid_of(player) == "X" else ""
        also = ""
        if moved_post is not None:
            new = self._post_move(new, read, moved_post)
            also = " and moved a finish post"
        outputs: list[Event] = [Verdict(seq, player, True, Rule.OK.value,
                                        f"{player} moved {number} segments from tail to head"
                                        f"{how}{also}.", tuple(new_idx))]
        winner = self._finisher(new, player, worm.centres_mm[-number:] if number else ())
        if winner is None and moved_post is not None:
            winner = self._head_on_line(new, player)
        if winner is not None:
            return Step(replace(new, phase=Phase.OVER, winner=winner),
                        (*outputs, Finish(winner, 1, seq), Winner(winner, seq)))
        return Step(self._maybe_end_round(new), tuple(outputs))

    def _not_your_turn(self, state: WormUpState, player: str) -> str:
        rv = state.reveal
        assert rv is not None
        nxt = and_list(list(rv.next_players(state.moved)))
        if player in rv.cancelled:
            return (f"{player}'s bid ({rv.bid_of(player)}) was cancelled, so {player}'s worm "
                    f"does not move this round.")
        if player in state.moved:
            return f"{player} has already moved this round; it is {nxt}'s move."
        if rv.mover(player) is None:
            return f"{player}'s X has no free number, so {player}'s worm does not move."
        m = rv.mover(player)
        assert m is not None
        return f"It is {nxt}'s move before {m.label()}."

    def _judge_move(self, state: WormUpState, read: _Read, player: str,
                    still: Mapping[int, int]) -> tuple[Worm, list[int], int]:
        """Checks one worm's move; returns the new worm, the new segments' indices, the count.

        Raises:
            RuleBroken: shape, tail, steps, turn or touch.
        """
        assert state.reveal is not None
        s = self.settings
        old = state.worm(player).centres_mm
        new_pts = read.centres(player)
        idx = read.indices(player)
        n = len(old)
        d, gap = self.diameter_mm, s.chain_gap_mm
        candidates: dict[int, tuple[int, ...]] = {}
        for k in range(1, n + 1):
            if not all(i in still for i in range(k, n)):
                continue
            kept = {still[i] for i in range(k, n)}
            rest = [j for j in range(len(new_pts)) if j not in kept]
            ext = geo.extend_chain(old[k:] if k < n else old, [new_pts[j] for j in rest], d, gap,
                                   lifted_from=old)
            if ext is not None:
                candidates[k] = tuple(rest[e] for e in ext)
        moved_idx = [idx[j] for j in range(len(new_pts)) if j not in set(still.values())]
        where = _centroid([new_pts[j] for j in range(len(new_pts))
                           if j not in set(still.values())])
        if not candidates:
            if geo.best_chain(new_pts, d, gap) is None:
                raise _foul(Rule.SHAPE, f"{player}'s worm is split: its segments no longer form "
                                        f"one chain of touching segments.", player, moved_idx,
                            where)
            raise _foul(Rule.TAIL, f"{player} must take segments from the tail and lay them one "
                                   f"after the other in front of the head.", player, moved_idx,
                        where)
        rv = state.reveal
        allowed = rv.numbers_allowed(player, state.moved)
        fits = [k for k in sorted(candidates) if k in allowed]
        k = fits[0] if fits else min(candidates)
        ext = candidates[k]
        self._check_no_touch(read, player, list(ext), Rule.TOUCH)
        if not fits:
            self._wrong_count(state, player, k, moved_idx, where)
        chain = (*(old[k:] if k < n else ()), *(new_pts[j] for j in ext))
        return Worm(player, tuple(chain)), [idx[j] for j in ext], k

    def _wrong_count(self, state: WormUpState, player: str, k: int, moved_idx: list[int],
                     where: Point2 | None) -> None:
        """Raises the foul for a worm that moved ``k`` segments, a count it may not move now."""
        rv = state.reveal
        assert rv is not None
        mover = rv.mover(player)
        assert mover is not None
        allowed = rv.numbers_allowed(player, state.moved)
        segments = f"segment{'s' if k != 1 else ''}"
        if allowed and k < min(allowed):
            goal = or_list(allowed)
            raise _foul(Rule.STEPS, f"{player} has moved {k} of {goal} segments so far.", player,
                        moved_idx, where)
        if mover.number is not None:
            bid = f"X as {mover.number}" if mover.is_x else mover.bid
            raise _foul(Rule.STEPS, f"{player} bid {bid} but moved {k} {segments}.", player,
                        moved_idx, where)
        if k in mover.free:
            first = [o for o in rv.order if o.player not in state.moved
                     and o.number is not None and o.number < k]
            raise _foul(Rule.ORDER, f"{player}'s X took {k}, so {first[0].label()} moves first.",
                        player, moved_idx, where)
        raise _foul(Rule.STEPS, f"{player} bid X and moved {k} {segments}, but {k} was bid this "
                                f"round; the free numbers are "
                                f"{and_list(str(f) for f in mover.free)}.",
                    player, moved_idx, where)

    def _post_move(self, state: WormUpState, read: _Read, moved_to: Point2) -> WormUpState:
        """Checks a finish post move; returns the state with the finish line moved."""
        s = self.settings
        rv = state.reveal
        post_idx = [i for i, _ in read.posts]
        x = rv.x_player if rv is not None else None
        if x is None or state.phase is Phase.SETUP:
            raise _foul(Rule.POST, "A finish post moved, but only a successful X lets a player "
                                   "move one.", None, post_idx, _pt(moved_to))
        if state.post_moved:
            raise _foul(Rule.POST, f"{x} has already moved a finish post for this X.", x,
                        post_idx, _pt(moved_to))
        assert state.finish_posts_mm is not None
        a, b = state.finish_posts_mm
        new_posts = [c for _, c in read.posts]
        fm = geo.match_still((a, b), new_posts, s.still_mm)
        kept_old = next(iter(fm))
        anchor = (a, b)[kept_old]
        length = geo.dist(a, b)
        new_len = geo.dist(anchor, moved_to)
        if abs(new_len - length) > s.post_distance_tolerance_mm:
            raise _foul(Rule.POST, f"The finish posts are now {new_len:.0f} mm apart instead of "
                                   f"{length:.0f} mm; the strip must stay attached.", x,
                        post_idx, _pt(moved_to))
        posts = (anchor, moved_to) if kept_old == 0 else (moved_to, anchor)
        return replace(state, finish_posts_mm=posts, post_moved=True)

    def _after_post(self, state: WormUpState, scene: Scene, seq: int) -> Step[WormUpState]:
        rv = state.reveal
        assert rv is not None and rv.x_player is not None
        x = rv.x_player
        new = replace(state, table=scene)
        outputs: list[Event] = [Verdict(seq, x, True, Rule.OK.value,
                                        f"{x} moved a finish post (after the X).")]
        winner = self._head_on_line(new, x)
        if winner is not None:
            return Step(replace(new, phase=Phase.OVER, winner=winner),
                        (*outputs, Finish(winner, 1, seq), Winner(winner, seq)))
        return Step(new, tuple(outputs))

    def _head_on_line(self, state: WormUpState, first: str) -> str | None:
        """The worm whose head the finish line touches (``first`` preferred), or None."""
        heads = [w.player for w in state.worms if self._touches_finish(state, w.head_mm)]
        if not heads:
            return None
        return first if first in heads else heads[0]

    def _touches_finish(self, state: WormUpState, centre: Point2) -> bool:
        assert state.finish_posts_mm is not None
        zone = geo.finish_zone(*state.finish_posts_mm, self.settings.strip_width_mm,
                               self.pieces.post_diameter_mm)
        return geo.touches_zone(zone, centre, self.radius_mm)

    def _finisher(self, state: WormUpState, player: str,
                  laid: Sequence[Point2]) -> str | None:
        """``player`` when a segment laid as the head touched the finish line."""
        if any(self._touches_finish(state, c) for c in laid):
            return player
        return None

    # ------------------------------------------------------------------ accept

    def _orient(self, state: WormUpState, old: Worm, pts: list[Point2]) -> tuple[Point2, ...]:
        """``pts`` (one chain) tail first: the way the worm pointed before, or to the finish."""
        ox, oy = old.head_mm[0] - old.tail_mm[0], old.head_mm[1] - old.tail_mm[1]
        nx, ny = pts[-1][0] - pts[0][0], pts[-1][1] - pts[0][1]
        along = ox * nx + oy * ny
        if abs(along) < 1e-6 * max(1.0, math.hypot(ox, oy) * math.hypot(nx, ny)):
            assert state.finish_posts_mm is not None
            a, b = state.finish_posts_mm
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            along = geo.dist(pts[0], mid) - geo.dist(pts[-1], mid)
        return tuple(pts if along > 0 else reversed(pts))

    def _accept_later(self, state: WormUpState, scene: Scene, seq: int) -> Step[WormUpState]:
        read = self._read(scene)
        self._check_counts(read, Rule.ACCEPT)
        _still, changed, moved_post = self._changes(state, read)
        worms = []
        for w in state.worms:
            if w.player not in changed:
                worms.append(w)
                continue
            order = self._chain(read, w.player, Rule.ACCEPT)
            pts = [read.centres(w.player)[k] for k in order]
            worms.append(Worm(w.player, self._orient(state, w, pts)))
        new = replace(state, table=scene, worms=tuple(worms))
        if moved_post is not None:
            assert state.finish_posts_mm is not None
            fm = geo.match_still(state.finish_posts_mm, [c for _, c in read.posts],
                                 self.settings.still_mm)
            anchor = state.finish_posts_mm[next(iter(fm))]
            new = replace(new, finish_posts_mm=(anchor, moved_post),
                          post_moved=new.post_moved or new.reveal is not None)
        if state.phase is Phase.MOVING:
            assert state.reveal is not None
            nxt = state.reveal.next_players(state.moved)
            done = [p for p in changed if p in nxt]
            if done:
                new = replace(new, moved=(*state.moved, *done))
                new = self._maybe_end_round(new)
        return Step(new, (Verdict(seq, None, True, Rule.OK.value,
                                  "The table was accepted as it is."),))
