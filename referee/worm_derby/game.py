"""The Worm Derby referee (Mark A. Biggar's rules, versions 2.0 and 3.1).

:class:`WormDerby` is the basic game; variants are subclasses overriding hooks
(:mod:`referee.worm_derby.variants`): Slalom (gates; an ace is one step; no movable obstacles)
and Cannibal worms (eating end coins). ``from_setup`` picks the subclass from the options
``variant`` (basic | slalom) and ``cannibal`` (bool).

A turn: the player whose turn it is rolls (null: no move; ace: move one obstacle at most one
tile width, then roll again; 2-5: that many steps, or as many as possible when the whole number
is impossible); the next stable scene that differs from the accepted table is judged as that
player's move.

What is legal is said by named rules, each a small function found by its name:
:mod:`.setup_rules` (the first table), :mod:`.move_rules` (a move on a roll) and
:mod:`.ace_rules` (an obstacle moved after an ace); this module runs the turns.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

import numpy as np

from referee.base import Game, Judgement, Step, still_pending
from referee.pending import Pending, SettlesFouls
from referee.worm_derby.ace_rules import judge_obstacle_move
from referee.worm_derby.course import Course, CourseReading, read_course
from referee.worm_derby.evidence import moved_out_of_turn
from referee.worm_derby.judging import judged
from referee.worm_derby.late_found import confirmed_late, late_tiles
from referee.worm_derby.lying_rules import judge_lie
from referee.worm_derby.move_rules import (
    MoveCheck,
    MoveFacts,
    PlacedCoin,
    Walk,
    judge_move,
    most_steps,
)
from referee.worm_derby.near_split import joined_within_noise
from referee.worm_derby.partial import fits_lying_still, new_places
from referee.worm_derby.reading import (
    ACE_REACH_TILES,
    GAP_SLACK,
    STAYED_SHARE,
    Candidate,
    Reading,
    ReadingRules,
    one_coin_gaps,
    reconcile,
    tile_distance,
)
from referee.worm_derby.roll_rules import judge_roll
from referee.worm_derby.rules import Rule
from referee.worm_derby.settings import DEFAULT_SETTINGS, WormSettings
from referee.worm_derby.setup_rules import (
    COIN_MISREAD,
    WORM_START_RULES,
    SetupCheck,
    SetupJudged,
    gate_doubts,
    judge_setup,
    start_track,
)
from referee.worm_derby.start_gaps import start_gap_coins
from referee.worm_derby.state import DerbyState, WormTrack, unwrap_from
from referee.worm_derby.steps import StepWorld
from referee.worm_derby.suit_lending import REACH_COINS, lend_suits
from referee.worm_derby.suit_swap import swap_stray_suit
from referee.worm_derby.table import IGNORED_KINDS, scene_diff, tiles_as_they_were
from referee.worm_derby.unseen_coin import unseen_coin_places, unseen_coin_ways
from referee.worm_derby.words import at, count, possessive, sentence
from referee.worm_derby.worms import extract_worm, split_whatever_one_coin
from tabletop.errors import RecordFormatError
from tabletop.events import (
    Doubt,
    Event,
    Finish,
    Notice,
    Roll,
    Rounded,
    SceneSeen,
    Setup,
    Verdict,
    Winner,
)
from tabletop.scene import SUITS, Piece, Point2, Scene

DEFAULT_LENGTH = 6

WHOLE_RULES = frozenset({Rule.OVERLAP, Rule.TOUCH, Rule.GAP, Rule.SHAPE, Rule.DIRECTION,
                         Rule.STEPS})
"""Fouls of the mover's own coins: called on a reading whose guesses lie clear of the worm."""


EARLY_KEPT = 40
"""Most readings and rolls kept while no course is set up (``early`` in :class:`DerbyState`):
beyond them the first table is not played again from."""


def _notice(seq: int, message: str, level: str = "info") -> Notice:
    """A notice whose message is one plain sentence."""
    return Notice(seq, sentence(message), level)


_VARIANTS: dict[tuple[str, bool], type[WormDerby]] = {}


def variant(cls: type[WormDerby]) -> type[WormDerby]:
    """Class decorator: makes a variant subclass findable by ``(variant, cannibal)``."""
    _VARIANTS[(cls.variant_name, cls.cannibal)] = cls
    return cls


class WormDerby(SettlesFouls[DerbyState], Game[DerbyState]):
    """Basic Worm Derby: obstacles that an ace may move, no gates, no eating."""

    name = "worm-derby"
    aliases = ("worm_derby", "wormderby")
    piece_kinds = ("tile", "coin")
    option_names = frozenset({"variant", "cannibal", "lengths", "sizes"})
    variant_name: ClassVar[str] = "basic"
    cannibal: ClassVar[bool] = False
    settings: WormSettings = DEFAULT_SETTINGS

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        for p in self.players:
            if p not in SUITS:
                raise RecordFormatError(
                    f"setup: worm-derby players are suit names ({', '.join(SUITS)}), not {p!r}")
        lengths = self.options.get("lengths") or {}
        if not isinstance(lengths, Mapping):
            raise RecordFormatError("setup: 'lengths' must be an object of player -> 2..6")
        self.lengths: dict[str, int] = {}
        for p in self.players:
            n = lengths.get(p, DEFAULT_LENGTH)
            if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= 6:
                raise RecordFormatError(f"setup: the length of {possessive(p)} worm must be "
                                        f"2..6, not {n!r}")
            self.lengths[p] = n
        for p in lengths:
            if p not in self.players:
                raise RecordFormatError(f"setup: 'lengths' names {p!r}, who is not playing")
        self.d = self.pieces.coin_diameter_mm

    @classmethod
    def from_setup(cls, setup: Setup) -> WormDerby:
        """The variant subclass the options ask for (``variant``, ``cannibal``)."""
        name = setup.options.get("variant", "basic")
        cannibal = setup.options.get("cannibal", False)
        if not isinstance(cannibal, bool):
            raise RecordFormatError("setup: 'cannibal' must be true or false")
        try:
            return _VARIANTS[(name, cannibal)](setup)
        except (KeyError, TypeError):
            names = sorted({k[0] for k in _VARIANTS})
            raise RecordFormatError(
                f"setup: unknown worm-derby variant {name!r} (known: {', '.join(names)})"
            ) from None

    # ------------------------------------------------------------------ hooks

    def ace_steps(self, state: DerbyState, player: str) -> int | None:
        """Steps an ace gives (None: an ace moves an obstacle, then the player rolls again)."""
        return None

    def step_limit(self, track: WormTrack, roll: int) -> int:
        """Most steps a roll allows this worm."""
        return roll

    def edible(self, state: DerbyState, player: str) -> set[tuple[str, int]]:
        """``(victim, end)`` pairs the player may eat (end 0 or -1 of the victim's track)."""
        return set()

    def direction_problem(self, state: DerbyState, player: str, body: list[Point2]
                          ) -> Judgement | None:
        """A problem with the direction chosen (``body`` is the worm before, head last)."""
        return None

    def judge_step(self, move: MoveCheck, coin: PlacedCoin, walk: Walk) -> Judgement | None:
        """The variant's rules of one coin laid, after the table's (Cannibal: eating; Slalom:
        gates); what the step did goes into ``walk``. None: nothing wrong."""
        return None

    def may_lose_one(self, state: DerbyState, mover: str | None) -> frozenset[str]:
        """Players whose worm may lose a coin in the mover's move (Cannibal: eaten)."""
        return frozenset()

    def may_gain_one(self, state: DerbyState) -> frozenset[str]:
        """Players whose worm may get a coin back now (Cannibal: an eaten coin, on an ace)."""
        return frozenset()

    def read_course(self, scene: Scene, worm_ends_mm: Sequence[Point2], strict: bool = False
                    ) -> CourseReading:
        """The course on the first table: two start tiles and the pylon; other face-up tiles
        are obstacles lying the wrong way up. ``strict``: (Slalom) a face-up tile of no gate's
        suit is no course, not an obstacle."""
        return self._course(scene, worm_ends_mm, gates=False)

    def _course(self, scene: Scene, worm_ends_mm: Sequence[Point2], gates: bool,
                strict: bool = False) -> CourseReading:
        s = self.settings
        return read_course(scene, self.pieces, gates, s.pylon_offset_tiles,
                           s.start_apart_tiles, worm_ends_mm, odd_suits_lie=not strict)

    def judge_ace_scene(self, state: DerbyState, scene: Scene, player: str
                        ) -> tuple[Judgement, DerbyState]:
        """Judges a scene after an ace: one obstacle moved at most a tile width
        (:mod:`.ace_rules`)."""
        return judge_obstacle_move(self, state, scene, player)

    def not_finished_yet(self, course: Course, track: WormTrack) -> str:
        """Why a worm back between the start tiles after rounding the pylon has not finished
        (Slalom: a gate not passed), as the end of a sentence; empty: it has finished."""
        return ""

    def reread_course(self, state: DerbyState, scene: Scene, seq: int
                      ) -> tuple[DerbyState, tuple[Event, ...]]:
        """What a new reading tells of a course set up in part doubt (Slalom: a gate whose
        suit was not read), before the reading is judged; the state and what is told."""
        return state, ()

    def stood_track(self, state: DerbyState, scene: Scene, seq: int, player: str
                    ) -> WormTrack | None:
        """The mover's worm when a doubted move stands as read and the doubt was only about
        the course (Slalom: a gate whose colour is not read, passed in the move): the worm as
        the move makes it where one reading of the course makes it legal; None otherwise."""
        return None

    def after_move(self, state: DerbyState, player: str, facts: MoveFacts) -> DerbyState:
        """State changes a variant makes after a legal move (Cannibal: the coin eaten, fleeing,
        truce)."""
        return state

    # ------------------------------------------------------------------ Game

    def initial_state(self) -> DerbyState:
        """No course yet: the first scene sets it up."""
        return DerbyState()

    def accept(self, state: DerbyState, scene: Scene, seq: int) -> Step[DerbyState]:
        """Accept the table as it is: worms are read again where they now lie."""
        if state.course is None:
            return self._judge_setup(state, scene, seq)
        worms = []
        for w in state.worms:
            shape = extract_worm(scene, w.player, self.d, self.settings)
            if shape.ok:
                pts = tuple(scene.pieces[i].centre_mm for i in shape.coins)
                worms.append(replace(w, coins_mm=pts, angles_rad=self._angles_like(state.course,
                                                                                    w, pts),
                                     length=len(pts)))
            else:
                worms.append(w)
        new = replace(state, table=scene, worms=tuple(worms), pending=None, pending_told=False,
                      doubted=None, before_move=None, provisional=(), guessed=())
        played = ""
        if state.roll not in (None, "again", "ace") and not state.over:
            player = self.players[state.turn]
            if state.worm(player).coins_mm != new.worm(player).coins_mm:
                new = self._next_turn(new)  # the move stands as it is: the next player's turn
                played = f": {possessive(player)} move stands and it is " \
                         f"{possessive(self.players[new.turn])} turn to roll"
        return Step(new, (Verdict(seq, None, True, Rule.OK.value,
                                  sentence("the table is accepted as it is" + played)),))

    def step(self, state: DerbyState, event: Event, seq: int) -> Step[DerbyState]:
        """Judges a roll or a scene; while an illegal verdict is not put right, another
        player's turn is not judged against it again and again: the table is told once."""
        if isinstance(event, Roll):
            early: tuple[Event, ...] = ()
            current = self.players[state.turn]
            if state.doubted is not None and event.player != current:
                state, early = self._doubt_stands(state, seq)
            elif state.doubted is not None and state.roll == "ace" and \
                    event.player == current:
                state, early = self._ace_doubt_stands(state, seq)
            elif (event.player in self.players and event.player != current
                  and state.roll not in (None, "again", "ace") and state.pending is None
                  and not state.over):
                state, early = self._not_seen(state, seq)
            step = self._roll(state, event, seq)
            step = Step(replace(step.state, before_move=None, as_it_stands=False, fresh=False,
                                unsure_asked=False,
                                provisional=tuple(p for p in step.state.provisional
                                                  if p != event.player)),
                        (*early, *step.outputs))
        elif isinstance(event, SceneSeen):
            state, read = self.reread_course(state, event.scene, seq)
            step = self._scene(state, event.scene, seq)
            step = Step(step.state, (*read, *step.outputs))
        else:
            step = Step(state, (Verdict(seq, getattr(event, "player", None), False,
                                        Rule.EVENT.value,
                                        f"A {event.type} event has no meaning in worm-derby."),))
        step = self.settle(state, step, seq, event, refused=isinstance(event, Roll))
        if step.state.course is not None:
            return step if not step.state.early else Step(replace(step.state, early=()),
                                                          step.outputs)
        if isinstance(event, Roll | SceneSeen) and len(state.early) < EARLY_KEPT:
            return Step(replace(step.state, early=(*state.early, (seq, event))), step.outputs)
        return step

    def _doubt_stands(self, state: DerbyState, seq: int) -> tuple[DerbyState, tuple[Event, ...]]:
        """The next player rolls while the last reading is in doubt: the players went on, so
        the table stands as read (what is not involved in the turn put right from the accepted
        table). A worm not read whole there is re-read on the next tables before anything is
        judged about it (it is *unsure*)."""
        assert state.doubted is not None and state.course is not None
        at_seq, scene = state.doubted
        player = self.players[state.turn]
        state = replace(state, doubted=None)
        if state.roll in (None, "again", "ace"):
            return state, ()
        worms, unsure = [], set(state.unsure)
        course = state.course
        assert course is not None
        stood = self.stood_track(state, scene, at_seq, player)
        still = self._lying_still(state, scene, player)
        for w in state.worms:
            shape = extract_worm(scene, w.player, self.d, self.settings)
            if w.finished or w.player in still:
                worms.append(w)
            elif stood is not None and w.player == player:
                worms.append(stood)
                unsure.discard(w.player)
            elif shape.ok and len(shape.coins) == w.length:
                pts = tuple(scene.pieces[i].centre_mm for i in shape.coins)
                worms.append(replace(w, coins_mm=pts, angles_rad=self._angles_like(
                    course, w, pts)))
                unsure.discard(w.player)
            else:
                worms.append(w)
                unsure.add(w.player)
        if still:  # their coins stay where the accepted table has them, not where read
            assert state.table is not None
            scene = replace(scene, pieces=(
                *(p for p in scene.pieces if not (p.kind == "coin" and p.suit in still)),
                *(p for p in state.table.pieces if p.kind == "coin" and p.suit in still)))
        table = self._tile_moved_unseen(scene, state.doubted_read)
        new = replace(state, table=table, worms=tuple(worms), unsure=tuple(sorted(unsure)),
                      pending=None, pending_told=False, doubted_read=None)
        stands = f"{possessive(player)} move stands as read"
        if player in unsure:  # said once: what is pending until that worm is read whole
            seen = sum(1 for p in scene.pieces if p.kind == "coin" and p.suit == player)
            stands = (f"the table stands as read, but {possessive(player)} worm is not read "
                      f"whole ({seen} of its {state.worm(player).length} coins are seen): its "
                      f"move is not judged, and its next move is judged once it is read whole")
        return self._next_turn(new), (_notice(
            seq, f"the table read at {at_seq} was in doubt and was not fixed; the players went "
                 f"on, so {stands}", "warning"),)

    def _lying_still(self, state: DerbyState, scene: Scene, player: str) -> frozenset[str]:
        """The worms besides ``player``'s (whose move was doubted) that the doubted ``scene``
        shows lying still: known whole on the accepted table (not unsure) and each of its coins
        there read within ``same_place_mm`` of one coin of it, as many as it has. Pieces not
        involved in the turn stay where they were: such a worm keeps the places the accepted
        table gives it (a doubted reading a few mm off must not move it, issue 13)."""
        if state.table is None:
            return frozenset()
        table = state.table

        def coins(read: Scene, suit: str) -> int:
            return sum(1 for p in read.of_kind("coin") if p.suit == suit)

        return frozenset(
            w.player for w in state.worms
            if w.player != player and not w.finished and w.player not in state.unsure
            and coins(table, w.player) == coins(scene, w.player) == w.length
            and self._still_on_last_seen(table, scene, w.player)
            and self._still_on_last_seen(scene, table, w.player))

    def _tile_moved_unseen(self, table: Scene, read: Scene | None) -> Scene:
        """The table that stands as read, with a tile the reading showed where none was put
        where it was seen when exactly one tile of the table within a tile and a half of it is
        not seen where it lay (an obstacle moved on an ace while the table was not seen still:
        it keeps its face; a tile farther off not seen is a misread); otherwise as it was."""
        if read is None:
            return table
        near = STAYED_SHARE * self.d

        def unmatched(a: Scene, b: Scene) -> list[Piece]:
            return [p for p in a.pieces if p.kind == "tile" and not any(
                q.kind == "tile" and math.dist(p.centre_mm, q.centre_mm) <= near
                for q in b.pieces)]

        came = unmatched(read, table)
        if len(came) != 1:
            return table
        gone = [p for p in unmatched(table, read)
                if math.dist(came[0].centre_mm, p.centre_mm) <= 1.5 * self.pieces.tile_mm]
        if len(gone) != 1:
            return table
        moved = replace(came[0], face=gone[0].face, suit=gone[0].suit)
        return replace(table, pieces=tuple(moved if p is gone[0] else p for p in table.pieces))

    def _ace_doubt_stands(self, state: DerbyState, seq: int
                          ) -> tuple[DerbyState, tuple[Event, ...]]:
        """The player who rolled an ace rolls again while the reading of the ace's move is in
        doubt: the players went on, so the obstacle moved stands as read
        (:meth:`_tile_moved_unseen`); nothing else changes (no worm moves on an ace)."""
        assert state.doubted is not None and state.table is not None
        at_seq = state.doubted[0]
        table = self._tile_moved_unseen(state.table, state.doubted_read)
        new = replace(state, doubted=None, doubted_read=None, table=table)
        if table is state.table:
            return new, ()
        return new, (_notice(
            seq, f"the table read at {at_seq} was in doubt and was not fixed; "
                 f"{self.players[state.turn]} rolled again, so the obstacle moved on the ace "
                 f"stands as read", "warning"),)

    def _not_seen(self, state: DerbyState, seq: int) -> tuple[DerbyState, tuple[Event, ...]]:
        """The next player rolls while the current player's roll was never seen played (no
        legal move judged, no foul pending: the table was not seen still since): the move is
        taken as played, and that worm is read again where the next table shows it (it is
        *unsure*). A roll out of turn is then not told apart; a chain of "not your turn" after
        one unseen move would be worse."""
        player = self.players[state.turn]
        new = replace(state, unsure=tuple(sorted({*state.unsure, player})))
        return self._next_turn(new), (_notice(
            seq, f"{possessive(player)} move on the roll of {state.roll} was not seen (the table "
                 f"was never still without a hand); it is taken as played and {possessive(player)}"
                 f" worm is read where it now lies", "warning"),)

    def _reseat(self, state: DerbyState, scene: Scene) -> DerbyState:
        """Worms in doubt are taken where the new reading shows them (whole: no longer in
        doubt), before the reading is judged. The worm of the player on the move (a roll to
        play) is taken only where it still lies on every coin it was last seen on: otherwise
        the reading may already show its move, which cannot be judged from nowhere."""
        if state.table is None or state.course is None:
            return state
        state = self._reseat_guessed(state, scene)
        state = self._reseat_provisional(state, scene)
        if not state.unsure:
            return state
        assert state.table is not None and state.course is not None
        unsure = set(state.unsure)
        provisional = set(state.provisional)
        mover = self.players[state.turn] if state.roll not in (None, "again", "ace") else None
        keep = [p for p in state.table.pieces
                if not (p.kind == "coin" and p.suit in unsure)]
        worms = []
        for w in state.worms:
            if w.player not in unsure:
                worms.append(w)
                continue
            last = [p for p in state.table.pieces if p.kind == "coin" and p.suit == w.player]
            seen_after_move = len(last) < w.length
            if (w.player == mover or seen_after_move) and not self._still_on_last_seen(
                    state.table, scene, w.player):
                now = [p for p in scene.pieces if p.kind == "coin" and p.suit == w.player]
                if w.player == mover or not self._lies_still(w, last, now):
                    keep += last
                    worms.append(w)
                    continue
                # read in part again, other coins of it: what is known of it grows
                last = [*last, *(now[i] for i in new_places(
                    [p.centre_mm for p in last], [p.centre_mm for p in now],
                    STAYED_SHARE * self.d))]
                keep += last
                shape = extract_worm(Scene(tuple(last)), w.player, self.d, self.settings)
                if shape.ok and len(shape.coins) == w.length:
                    pts = tuple(last[i].centre_mm for i in shape.coins)
                    worms.append(replace(w, coins_mm=pts, angles_rad=self._angles_like(
                        state.course, w, pts)))
                    unsure.discard(w.player)
                    provisional.add(w.player)
                else:
                    worms.append(w)
                continue
            keep += [p for p in scene.pieces if p.kind == "coin" and p.suit == w.player]
            shape = extract_worm(scene, w.player, self.d, self.settings)
            if shape.ok and len(shape.coins) == w.length:
                pts = tuple(scene.pieces[i].centre_mm for i in shape.coins)
                worms.append(replace(w, coins_mm=pts, angles_rad=self._angles_like(
                    state.course, w, pts)))
                unsure.discard(w.player)
                if w.player != mover:
                    provisional.add(w.player)
            else:
                worms.append(w)
        return replace(state, table=replace(state.table, pieces=tuple(keep)), worms=tuple(worms),
                       unsure=tuple(sorted(unsure)), provisional=tuple(sorted(provisional)))

    def _reseat_guessed(self, state: DerbyState, scene: Scene) -> DerbyState:
        """Coins placed at a guessed place (``guessed`` in :class:`DerbyState`) are put where
        this reading shows one coin of their worm within a coin's width of it and of no other
        coin of that worm on the accepted table (a middle coin a gap pinned down: a move lifts
        an end coin, never that one)."""
        if not state.guessed or state.table is None:
            return state
        stayed = STAYED_SHARE * self.d
        table, worms, left = list(state.table.pieces), list(state.worms), []
        for player, place in state.guessed:
            others = [p.centre_mm for p in table if p.kind == "coin" and p.suit == player
                      and p.centre_mm != place]
            near = [p.centre_mm for p in scene.pieces if p.kind == "coin" and p.suit == player
                    and math.dist(p.centre_mm, place) < self.d
                    and all(math.dist(p.centre_mm, o) > stayed for o in others)]
            k = next((i for i, p in enumerate(table) if p.kind == "coin" and p.suit == player
                      and p.centre_mm == place), None)
            if k is None:
                continue  # lifted since by a move
            if len(near) != 1:
                left.append((player, place))
                continue
            table[k] = replace(table[k], x_mm=near[0][0], y_mm=near[0][1])
            worms = [replace(w, coins_mm=tuple(near[0] if c == place else c
                                               for c in w.coins_mm))
                     if w.player == player else w for w in worms]
        return replace(state, table=replace(state.table, pieces=tuple(table)),
                       worms=tuple(worms), guessed=tuple(left))

    def _reseat_provisional(self, state: DerbyState, scene: Scene) -> DerbyState:
        """Worms placed from a reading since their player's move was last judged (see
        ``provisional`` in :class:`DerbyState`), not on the move: read again where this
        reading shows them whole (where the last reading put one may have been a foul put
        back since, or a misread)."""
        assert state.table is not None and state.course is not None
        mover = self.players[state.turn] if state.roll not in (None, "again", "ace") else None
        table, worms = state.table, list(state.worms)
        for k, w in enumerate(worms):
            if w.player not in state.provisional or w.player == mover or w.finished:
                continue
            shape = extract_worm(scene, w.player, self.d, self.settings)
            if not shape.ok or len(shape.coins) != w.length:
                continue
            pts = tuple(scene.pieces[i].centre_mm for i in shape.coins)
            worms[k] = replace(w, coins_mm=pts, angles_rad=self._angles_like(state.course, w,
                                                                              pts))
            table = replace(table, pieces=(
                *(p for p in table.pieces if not (p.kind == "coin" and p.suit == w.player)),
                *(scene.pieces[i] for i in shape.coins)))
        return replace(state, table=table, worms=tuple(worms))

    def _lies_still(self, worm: WormTrack, last: Sequence[Piece], now: Sequence[Piece]
                    ) -> bool:
        """Whether a worm known in part (its coins ``last`` on the accepted table) and read in
        part again (``now``) may be one worm that did not move (:mod:`.partial`)."""
        return fits_lying_still([p.centre_mm for p in last], [p.centre_mm for p in now],
                                worm.length, self.d, self.settings.touch_factor,
                                STAYED_SHARE * self.d)

    def _still_on_last_seen(self, table: Scene, scene: Scene, player: str) -> bool:
        """Whether every coin of ``player``'s worm on ``table`` (where it was last seen) is
        still read on ``scene``."""
        near = self.settings.same_place_mm
        now = [p.centre_mm for p in scene.pieces if p.kind == "coin" and p.suit == player]
        return all(any(math.dist(p.centre_mm, q) <= near for q in now)
                   for p in table.pieces if p.kind == "coin" and p.suit == player)

    def new_foul(self, state: DerbyState, verdict: Verdict, pending: Pending,
                 refused: bool) -> bool:
        """While a foul is pending (:mod:`referee.pending`): a setup verdict, or a foul of the
        same player in a move of its own, is judged; another player's foul, a roll refused once
        the table was told, or a ``turn`` foul again against the same player is not."""
        again = verdict.rule == pending.rule == Rule.TURN.value
        return verdict.rule == Rule.SETUP or (
            verdict.player == pending.player and not (refused and state.pending_told)
            and not again)

    def pending_notice(self, seq: int, pending: Pending) -> Notice:
        """The foul pending, told once."""
        whose = f"{possessive(pending.player)} move" if pending.player else "the move"
        return _notice(seq, still_pending(whose, pending.seq), "warning")

    def on_verdict(self, step: Step[DerbyState]) -> Step[DerbyState]:
        """Any verdict answers the doubt asked about the last reading."""
        if step.state.doubted is None:
            return step
        return Step(replace(step.state, doubted=None), step.outputs)

    def describe(self, state: DerbyState) -> dict[str, Any]:
        """Whose turn, the pending roll, what the referee waits for, the worms (coins in mm, in
        order; rounded or not), the course (start line, pylon, far-side ray, gates) and the
        places."""
        live = [w for w in state.worms if not w.finished]
        if state.course is None:
            awaiting = "setup"
        elif not live:
            awaiting = "nothing: the race is over"
        else:
            awaiting = {None: "roll", "again": "roll",
                        "ace": "an obstacle moved (or a roll)"}.get(state.roll, "move")
        return {
            "variant": self.variant_name, "cannibal": self.cannibal,
            "turn": (self.players[state.turn] if state.course is not None and live else None),
            "roll": state.roll,
            "awaiting": awaiting,
            "worms": [w.to_json() for w in state.worms],
            "course": None if state.course is None else state.course.to_json(),
            "places": list(state.places),
            "winner": state.places[0] if state.places else None,
        }

    # ------------------------------------------------------------------ rolls

    def _roll(self, state: DerbyState, roll: Roll, seq: int) -> Step[DerbyState]:
        """A roll: refused by the roll rules (:mod:`.roll_rules`), else what it gives (null: the
        turn passes; an ace: an obstacle may move, or steps; steps: the move to judge next)."""
        if state.course is None:
            known = roll.player in self.players
            return Step(replace(state, early_roller=roll.player if known else state.early_roller,
                                early_roll=roll.value if known else state.early_roll),
                        (_notice(seq, "no course is set up yet; show the table before rolling",
                                 "warning"),))
        refused = judge_roll(self, state, roll)
        if refused is not None:
            return Step(state, (refused.verdict(seq, roll.player),))
        current = self.players[state.turn]
        value = roll.value
        if value == "null":
            new = self._next_turn(replace(state, roll=None))
            return Step(new, (_notice(seq, f"{current} rolled null: no move"),))
        if value == "ace":
            n = self.ace_steps(state, current)
            if n is None:
                return Step(replace(state, roll="ace"), (_notice(
                    seq, f"{current} rolled an ace: move one obstacle (or not), then roll "
                         f"again"),))
            value = str(n)
        limit = self.step_limit(state.worm(current), int(value))
        if not self._can_step(state, current):
            new = self._next_turn(replace(state, roll=None))
            return Step(new, (_notice(seq, f"{current} cannot make a single step: the turn "
                                          f"passes"),))
        return Step(replace(state, roll=str(limit)), ())

    def _next_turn(self, state: DerbyState) -> DerbyState:
        n = len(self.players)
        for k in range(1, n + 1):
            t = (state.turn + k) % n
            if not state.worms[t].finished:
                return replace(state, turn=t, roll=None)
        return replace(state, roll=None)

    # ------------------------------------------------------------------ scenes

    def reading_rules(self, state: DerbyState) -> ReadingRules:
        """What a reading of the table must keep, at this point of the game."""
        mover = self.players[state.turn] if state.roll not in (None, "again") else None
        stepping = mover if state.roll != "ace" else None
        return ReadingRules(self.d, self.pieces.tile_mm,
                            {w.player: w.length for w in state.worms
                             if not w.finished and w.player not in state.unsure},
                            mover, frozenset(self.players), state.roll == "ace",
                            self.may_lose_one(state, mover), self.may_gain_one(state),
                            self.settings.same_place_mm,
                            {w.player: w.length for w in state.worms if not w.finished
                             and w.player in state.unsure and w.player != stepping},
                            self.settings.touch_factor, self.settings.overlap_mm(self.d),
                            self.settings.centre_noise_mm)

    def _scene(self, state: DerbyState, scene: Scene, seq: int) -> Step[DerbyState]:
        """A reading is judged when it is consistent with the accepted table; a reading that
        needed a guess (a piece not seen put back, a phantom left out) may only confirm a legal
        move: otherwise the table is asked to confirm or fix it (a doubt)."""
        if state.course is None or state.table is None:
            return self._judge_setup(state, scene, seq)
        if state.as_it_stands and state.roll is None:  # (a roll to play: a move to judge)
            again = self._stands_again(state, scene, seq)
            if again is not None:
                return again
        if state.fresh and state.roll is None:
            fuller = self._set_up_fuller(state, scene, seq)
            if fuller is not None:
                return fuller
        state, found_late = self._found_late(state, scene, seq)
        if found_late:
            step = self._scene(state, scene, seq)
            return Step(step.state, (*step.outputs, *found_late))
        back = self._taken_back(state, scene, seq)
        if back is not None:
            return back
        state = self._reseat(state, scene)
        assert state.table is not None
        player = self.players[state.turn]
        if player in state.unsure and state.roll not in (None, "again", "ace"):
            return self._judge_unsure(state, scene, seq)
        reading = reconcile(state.table, scene, self.reading_rules(state))
        for k, cand in enumerate(reading.candidates):
            step = self._judge_candidate(state, cand, seq)
            step = Step(step.state, tuple(
                replace(o, pieces=cand.to_reading(o.pieces)) if isinstance(o, Verdict) else o
                for o in step.outputs))
            if reading.complete and k == 0:
                return step
            if step.verdicts and all(v.legal for v in step.verdicts) and \
                    self._legal_with_new_tiles(state, scene, cand, seq) and \
                    not self._mover_end_guessed(state, cand) and \
                    self._legal_on_twin(state, cand, seq):
                if cand.twin is not None and step.state.table is not None:
                    # which side of the bend the coin lies is a guess: the next reading says
                    guess = step.state.table.pieces[-1]
                    if guess.kind == "coin" and guess.suit == player:
                        step = Step(replace(step.state, guessed=(
                            *step.state.guessed, (player, guess.centre_mm))), step.outputs)
                return step
            if not step.outputs and k == 0 and state.roll != "ace":
                return step  # nothing changed once the misread is put right (on an ace, the
                # one move that a tile not seen may be is asked about, not passed over)
        whole = self._turn_read_whole(state, scene, seq) or \
            self._foul_read_whole(state, scene, reading, seq)
        if whole is not None:
            return whole
        doubted = reading.base.scene if reading.base is not None else scene
        if state.doubted is not None and state.doubted[1] == doubted:
            return Step(state)  # read again the same: the table was asked already
        return Step(replace(state, doubted=(seq, doubted), doubted_read=scene),
                    tuple(Doubt(seq, player, d.pieces, None if d.where_mm is None else
                                (round(d.where_mm[0], 2), round(d.where_mm[1], 2)),
                                sentence(d.reason)) for d in reading.doubts))

    def _found_late(self, state: DerbyState, scene: Scene, seq: int
                    ) -> tuple[DerbyState, tuple[Event, ...]]:
        """Tiles missed before and found late (:mod:`.late_found`): a tile read where the
        accepted table has none, clear of its tiles, on two readings in a row, joins the
        accepted table (with a note; never a foul). Not after an ace (a tile may slide then:
        what is new is judged as the ace's move), nor once the race is over."""
        if state.roll == "ace" or state.over or state.table is None:
            return state, ()
        accepted = state.table
        now = late_tiles(accepted, scene, self.pieces.tile_mm, self.d)
        found = confirmed_late(state.late_seen, now, self.settings.same_place_mm)
        state = replace(state, late_seen=tuple(now))
        if not found:
            return state, ()
        table = replace(accepted, pieces=(*accepted.pieces, *found))
        where = ", ".join(at(p.centre_mm) for p in found)
        return replace(state, table=table, late_seen=()), (_notice(
            seq, f"a tile not seen before lies at {where}: it was missed and has lain there all "
                 f"along, so it joins the table"),)

    def _turn_read_whole(self, state: DerbyState, scene: Scene, seq: int
                         ) -> Step[DerbyState] | None:
        """A worm moved when its player may not move, shown by its own coins alone
        (:func:`referee.worm_derby.evidence.moved_out_of_turn`), on a reading that needed a
        guess elsewhere: the ``turn`` foul of that worm's player, whatever the pieces not seen
        are. None otherwise (and after an ace: what may change then is the ace's)."""
        if state.roll == "ace" or state.table is None or state.over:
            return None
        current = self.players[state.turn]
        allowed = None if state.roll in (None, "again") else current
        lengths = {w.player: w.length for w in state.worms if not w.finished}
        found = moved_out_of_turn(state.table, scene, allowed, lengths, self.d,
                                  {*state.unsure, *state.provisional}, self.settings,
                                  self.pieces.tile_mm)
        if found is None:
            return None
        mover, coins = found
        if allowed is None:
            foul = self._moved_before_roll(state, scene, list(coins))
        else:
            foul = judged(Rule.TURN, f"{possessive(mover)} worm moved, but it is "
                                     f"{possessive(current)} turn; put {possessive(mover)} "
                                     f"worm back where it was", coins, mover=mover)
        if foul.player != mover:
            return None
        return Step(state, (foul.verdict(seq, current),))

    def _foul_read_whole(self, state: DerbyState, scene: Scene, reading: Reading, seq: int
                         ) -> Step[DerbyState] | None:
        """A foul of the player on the move that the reading supports whole, though it needed
        a guess elsewhere: the mover's worm is read whole (none of its coins guessed), the foul
        is one of its own coins' (:data:`WHOLE_RULES`), names no guessed piece, every guessed
        piece (one put back, one left out) lies more than a coin's width clear of the worm
        before and after the move, and the foul is the same with the pieces left out lying
        there too. A piece not involved in the turn then cannot change the verdict (a
        Cannibal's coin not eaten put back near the worm: when the foul is the same without
        it, :meth:`_same_without`). A worm read one coin short is faulted for a split no
        single coin could join, or for a foul whatever its coin not seen does
        (:meth:`_foul_whatever_the_coin`). None otherwise (the table is asked)."""
        base = reading.base
        if base is not None and state.roll == "ace" and state.table is not None:
            return self._ace_foul_read_whole(state, scene, base, seq)
        if base is None or state.roll in (None, "again", "ace") or state.table is None:
            return None
        player = self.players[state.turn]
        pieces, index_map = base.scene.pieces, base.index_map
        restored = [i for i, j in enumerate(index_map) if j < 0]
        mine = [p for p, j in zip(pieces, index_map, strict=True)
                if p.kind == "coin" and p.suit == player]
        short = len(mine) == state.worm(player).length - 1
        if any(index_map[i] < 0 for i, p in enumerate(pieces)
               if p.kind == "coin" and p.suit == player) or \
                (len(mine) != state.worm(player).length and not short):
            return None
        kept = set(index_map)
        left_out = [p for j, p in enumerate(scene.pieces) if j not in kept]
        lay = self._tiles_lie_still(pieces, restored, left_out)
        worm = [*state.worm(player).coins_mm, *(p.centre_mm for p in mine)]
        near_back = [pieces[i] for i in restored
                     if i not in lay and not self._clear_of(pieces[i], worm)]
        near_out = [p for p in left_out if not self._clear_of(p, worm)]
        near_coins = [p for p in near_back if p.kind == "coin"]
        if any(p.kind == "coin" for p in near_out) or (near_coins and short) or any(
                p.suit not in self.may_lose_one(state, player) for p in near_coins):
            return None
        found = self._judge_candidate(state, base, seq).verdicts
        if near_coins and not self._same_without(state, base, near_coins, found, seq):
            return None
        as_read = reading.base_as_read() if reading.misread else None

        def as_read_too(rule: str) -> bool:  # the same foul with the coins read off as read
            return as_read is None or [(v.legal, v.rule) for v in self._judge_scene(
                state, as_read, seq).verdicts] == [(False, rule)]

        if short:
            across = self._steps_across_a_gap(state, base, seq, player, mine)
            if across is not None and as_read_too(Rule.STEPS):
                return across
            whatever = self._foul_whatever_the_coin(state, base, reading, seq, player, mine,
                                                    left_out, near_back)
            if whatever is not None:
                return whatever
        if len(found) != 1 or found[0].legal or found[0].rule not in WHOLE_RULES or \
                found[0].player not in (None, player) or \
                set(found[0].pieces) & (set(restored) - lay):
            return None
        if short and (found[0].rule != Rule.SHAPE or not split_whatever_one_coin(
                np.array([p.centre_mm for p in mine]), self.d, self.settings.touch_factor)):
            return None
        if not as_read_too(found[0].rule):
            return None  # the foul rests on where a coin read off was put (a guess)
        if not self._foul_without_guesses(state, base.scene, left_out, near_back,
                                          found[0].rule, seq):
            return None
        v = found[0]
        return Step(state, (replace(v, pieces=base.to_reading(v.pieces)),))

    @staticmethod
    def _tiles_lie_still(pieces: Sequence[Piece], restored: Sequence[int],
                         left_out: Sequence[Piece]) -> frozenset[int]:
        """The tiles of a move's reading put back where the accepted table has them (not seen,
        none covered) that lie there by the game's law, not by a guess: tiles never move on a
        roll, so a tile not seen, while no tile is seen where none lay, still lies where it lay
        or was taken off the table, itself a foul of the mover (``obstacle``). A foul of the
        mover's own coins with it there is the mover's foul whichever way (issue 13, play
        200102: a Cannibal worm squeezed between two obstacles, one of them not seen). Indices
        into ``pieces``; none when a tile is seen where none lay (a tile may have moved
        there)."""
        if any(p.kind == "tile" for p in left_out):
            return frozenset()
        return frozenset(i for i in restored if pieces[i].kind == "tile")

    def _same_without(self, state: DerbyState, base: Candidate, coins: Sequence[Piece],
                      found: Sequence[Verdict], seq: int) -> bool:
        """Whether the one foul ``found`` on ``base`` is the same foul with the guessed
        ``coins`` not there: coins of worms that may lose one (a Cannibal's, not eaten: none
        of the mover's coins lies where it lay) put back where they lay near the mover's worm;
        lying there unseen or gone, the verdict is the same."""
        if len(found) != 1 or found[0].legal:
            return False
        gone = {id(p) for p in coins}
        without = self._judge_candidate(state, Candidate(
            replace(base.scene, pieces=tuple(p for p in base.scene.pieces if id(p) not in gone)),
            tuple(j for p, j in zip(base.scene.pieces, base.index_map, strict=True)
                  if id(p) not in gone)), seq).verdicts
        return [(v.legal, v.rule, v.player) for v in without] == \
            [(False, found[0].rule, found[0].player)]

    def _foul_without_guesses(self, state: DerbyState, read: Scene,
                              left_out: Sequence[Piece], near_back: Sequence[Piece], rule: str,
                              seq: int) -> bool:
        """Whether the foul ``rule`` found on the reading ``read`` (a guess put right) is the
        same with the tiles left out of it lying there too, and without the tiles put back near
        the worm (:meth:`_foul_read_whole`): it rests on the worm's own coins."""
        assert state.table is not None
        foul = [(False, rule)]
        pieces = read.pieces
        tiles = tuple(p for p in left_out if p.kind == "tile")
        if tiles:
            with_them = self._judge_scene(
                replace(state, table=replace(state.table, pieces=(*state.table.pieces, *tiles))),
                replace(read, pieces=(*pieces, *tiles)), seq).verdicts
            if [(v.legal, v.rule) for v in with_them] != foul:
                return False
        if near_back and tiles:
            return False  # a tile not seen near the worm and one seen where none was: it may
            # have moved (a foul of its own, judged first)
        if near_back:  # a tile not seen near the worm: the foul is the same without it (as if
            # it had never lain there), so it rests on the worm's own coins, not on that tile
            gone = {id(p) for p in near_back}
            without = self._judge_scene(
                replace(state, table=replace(state.table, pieces=tuple(
                    p for p in state.table.pieces if id(p) not in gone))),
                replace(read, pieces=tuple(p for p in pieces if id(p) not in gone)),
                seq).verdicts
            if [(v.legal, v.rule) for v in without] != foul:
                return False
        return True

    def _foul_whatever_the_coin(self, state: DerbyState, base: Candidate, reading: Reading,
                                seq: int, player: str, mine: Sequence[Piece],
                                left_out: Sequence[Piece], near_back: Sequence[Piece]
                                ) -> Step[DerbyState] | None:
        """The mover's worm read one coin short: a foul of its own coins (:data:`WHOLE_RULES`)
        when the move is that foul for every way its coin not seen may lie and keep the worm
        one chain (anywhere else it splits or branches the worm, a foul of its shape
        whatever), each the same without the guessed tiles (issue 13: "a worm that moved 5
        whole steps on a roll of 3 is a steps foul whatever one unseen tail coin does"): the
        places of :func:`referee.worm_derby.unseen_coin.unseen_coin_places` (still where a
        coin lay, a gap's middle, straight on beyond either end) and the other ways of
        :func:`referee.worm_derby.unseen_coin.unseen_coin_ways` (anywhere touching in a gap or
        beyond an end). Where a place its coin lay keeps the worm one chain touching the same
        coins, the coin lies there (the move did not lift it): the other ways there are a coin
        nudged off its place, which must be no legal move but may be a foul of another rule.
        None otherwise (the table is asked)."""
        assert state.table is not None
        if reading.misread:
            return None  # a coin seen was moved by a guess: the foul may rest on it
        track = state.worm(player)
        s = self.settings
        reach = s.touch_factor * self.d
        seen = [p.centre_mm for p in mine]

        def keeps_chain(x: float, y: float) -> Scene | None:
            scene = replace(base.scene, pieces=(*base.scene.pieces,
                                                Piece("coin", x, y, suit=player)))
            shape = extract_worm(scene, player, self.d, s)
            return scene if shape.ok and len(shape.coins) == track.length else None

        exact = unseen_coin_places(track.coins_mm, seen, self.d, s, (2 + GAP_SLACK) * self.d)
        lay = [o for o in track.coins_mm if o in exact and keeps_chain(*o) is not None]
        ways = [((), p) for p in exact] + unseen_coin_ways(seen, self.d,
                                                           (2 + GAP_SLACK) * self.d, s)
        first: tuple[Verdict, Scene] | None = None
        for by, (x, y) in ways:
            scene = keeps_chain(x, y)
            if scene is None:
                continue  # the worm split or branched there: a foul whatever, of its shape
            found = self._judge_scene(state, scene, seq).verdicts
            if not found or any(v.legal for v in found):
                return None  # a legal move with the coin there: not proved
            if by and any(all(math.dist(o, q) <= reach for q in by) for o in lay):
                continue  # a coin nudged off the place it lay, not lifted: a foul
            if len(found) != 1 or found[0].rule not in WHOLE_RULES or \
                    found[0].player not in (None, player) or \
                    (first is not None and found[0].rule != first[0].rule) or \
                    not self._foul_without_guesses(state, scene, left_out, near_back,
                                                   found[0].rule, seq):
                return None  # not the mover's own foul, or which one rests on the coin
            if first is None:
                first = (found[0], scene)
        if first is None:
            return None
        v, scene = first
        cand = Candidate(scene, (*base.index_map, -1))
        return Step(state, (replace(v, pieces=cand.to_reading(v.pieces)),))

    def _judge_candidate(self, state: DerbyState, cand: Candidate, seq: int
                         ) -> Step[DerbyState]:
        """A reading judged against the accepted table, its unmoved tiles put back where that
        table has them; a move found a foul there is judged again with those tiles where this
        reading has them (:meth:`Candidate.as_read`: the table as read in the same frame as
        the coins, on the accepted table too, so nothing moved), and the foul is called only
        when it is a foul there too. A move legal there is legal: a step's clearance rests on
        where the coins and tiles lie relative to each other, and a tile's accepted place may
        come from an early reading a few mm off; the accepted table then learns the tiles'
        places from this reading."""
        step = self._judge_scene(state, cand.scene, seq)
        if state.table is None or state.roll in (None, "again", "ace") or \
                all(v.legal for v in step.verdicts):
            return step
        read = cand.as_read(state.table)
        if read is None:
            return step
        table, scene = read
        other = self._judge_scene(replace(state, table=table), scene, seq)
        if other.verdicts and all(v.legal for v in other.verdicts) and \
                not any(isinstance(o, Doubt) for o in other.outputs):
            return other
        return step

    def _steps_across_a_gap(self, state: DerbyState, base: Candidate, seq: int, player: str,
                            mine: list[Piece]) -> Step[DerbyState] | None:
        """The mover's worm read one coin short with a gap exactly one coin fills
        (:func:`referee.worm_derby.reading.one_coin_gaps`: the worm is one chain, so the coin
        not seen lies there, or the worm is split, a foul too): a ``steps`` foul on the reading
        with it there stands when more of the worm's coins than the roll allows lie where none
        of its coins lay (each step lays one coin in a new place; the count rests on the coins
        seen and the one place the worm leaves its coin not seen). None otherwise."""
        assert state.roll is not None
        mine_at = [(j, p.centre_mm) for j, p in enumerate(base.scene.pieces)
                   if p.kind == "coin" and p.suit == player]
        places = one_coin_gaps(mine_at, list(base.scene.pieces), player,
                               self.reading_rules(state))
        if len(places) != 1:
            return None
        old = state.worm(player).coins_mm
        stayed = STAYED_SHARE * self.d
        laid = [p for p in (*mine, places[0]) if all(math.dist(p.centre_mm, o) > stayed
                                                      for o in old)]
        if len(laid) <= int(state.roll):
            return None
        filled = Candidate(replace(base.scene, pieces=(*base.scene.pieces, places[0])),
                           (*base.index_map, -1))
        found = self._judge_scene(state, filled.scene, seq).verdicts
        if len(found) != 1 or found[0].legal or found[0].rule != Rule.STEPS or \
                found[0].player not in (None, player):
            return None
        return Step(state, (replace(found[0], pieces=filled.to_reading(found[0].pieces)),))

    def _ace_foul_read_whole(self, state: DerbyState, scene: Scene, base: Candidate, seq: int
                             ) -> Step[DerbyState] | None:
        """An obstacle moved wrongly after an ace (rule ``obstacle``), on a reading that
        needed a guess only about coins and tiles not seen far off: no worm moves on an ace, so
        a worm's coin not seen is put back where it lay; the foul is called when every guessed
        coin lies more than a coin's width clear of the moved obstacle, where it lay and where
        it lies, and every tile not seen lies farther than
        :data:`referee.worm_derby.reading.ACE_REACH_TILES` tile widths from both (they cannot
        change the verdict). None otherwise."""
        assert state.table is not None
        same = self.settings.same_place_mm
        kept = set(base.index_map)
        left_out = [p for j, p in enumerate(scene.pieces) if j not in kept]
        gone = [p for p in state.table.pieces if p.kind == "coin" and not any(
            q.kind == "coin" and q.suit == p.suit and math.dist(p.centre_mm, q.centre_mm) <= same
            for q in base.scene.pieces)]
        restored = [p for p, j in zip(base.scene.pieces, base.index_map, strict=True) if j < 0]
        guessed = [*left_out, *restored, *gone]
        if any(p.kind != "coin" for p in (*left_out, *gone)):
            return None
        whole = replace(base.scene, pieces=(*base.scene.pieces, *gone))
        found = self._judge_scene(state, whole, seq).verdicts
        if len(found) != 1 or found[0].legal or found[0].rule != Rule.OBSTACLE:
            return None
        t_gone, t_came = scene_diff(state.table, whole, same, self.settings.same_angle_deg)
        tiles = [state.table.pieces[i] for i in t_gone] + [whole.pieces[j] for j in t_came]
        if not tiles or any(p.kind != "tile" for p in tiles):
            return None
        far = ACE_REACH_TILES * self.pieces.tile_mm
        if any(p.kind != "coin" and any(math.dist(p.centre_mm, t.centre_mm) <= far
                                        for t in tiles) for p in restored):
            return None  # a tile not seen near the move: it may be the one that slid
        guessed = [p for p in guessed if p.kind == "coin"]
        if not all(self._clear_of(t, [p.centre_mm for p in guessed]) for t in tiles):
            return None
        v = found[0]
        return Step(state, (replace(v, pieces=base.to_reading(v.pieces)),))

    def _clear_of(self, piece: Piece, points: Sequence[Point2]) -> bool:
        """Whether ``piece``'s outline lies more than a coin's width clear of coins at
        ``points``."""
        d = self.d
        for c in points:
            if piece.kind == "tile":
                gap = tile_distance(c, piece, self.pieces.tile_mm) - d / 2
            else:
                gap = math.dist(c, piece.centre_mm) - d / 2 - self.pieces.size_mm(piece.kind) / 2
            if gap <= d:
                return False
        return True

    def _legal_on_twin(self, state: DerbyState, cand: Candidate, seq: int) -> bool:
        """Whether a move confirmed legal on a candidate with a coin guessed on one side of a
        bend is legal with it on the other side too (which side it lies is not known)."""
        if cand.twin is None:
            return True
        step = self._judge_scene(state, cand.twin, seq)
        return bool(step.verdicts) and all(v.legal for v in step.verdicts)

    def _mover_end_guessed(self, state: DerbyState, cand: Candidate) -> bool:
        """Whether an end coin of the mover's worm on a candidate reading is one put back from
        the accepted table (not seen): the coin the next step would have lifted may lie there
        unseen or have moved on (one step more than the roll) and not be seen where it went,
        so a legal move cannot be confirmed on it."""
        if state.roll in (None, "again", "ace"):
            return False
        player = self.players[state.turn]
        shape = extract_worm(cand.scene, player, self.d, self.settings)
        if not shape.ok:
            return False
        return any(cand.index_map[i] < 0 for i in (shape.coins[0], shape.coins[-1]))

    def _legal_with_new_tiles(self, state: DerbyState, scene: Scene, cand: Candidate,
                              seq: int) -> bool:
        """Whether a move confirmed legal on a reading with tiles left out (seen where none
        was) is legal with them too, as if they had always lain there (a tile not seen before
        may be real: a legal confirmation must not rest on leaving it out)."""
        assert state.table is not None
        kept = set(cand.index_map)
        new = tuple(p for j, p in enumerate(scene.pieces) if j not in kept and p.kind == "tile")
        if not new:
            return True
        table = replace(state.table, pieces=(*state.table.pieces, *new))
        step = self._judge_scene(replace(state, table=table),
                                 replace(cand.scene, pieces=(*cand.scene.pieces, *new)), seq)
        return bool(step.verdicts) and all(v.legal for v in step.verdicts)

    def _judge_unsure(self, state: DerbyState, scene: Scene, seq: int) -> Step[DerbyState]:
        """The worm on the move was last seen one coin short, as one chain, and is read whole
        now: each place the coin not seen may have had (a coin read now that joins the coins
        last seen into one worm, or one step beyond their head, moved since) is tried as the
        worm's start; when every one gives the same verdict, that is the verdict. A foul is
        called only when the worm's start with the coin not seen lying still where it lay
        before, at its tail end, gives that foul too (a camera may miss one place on every
        reading). Otherwise the table is asked (:meth:`_mover_unsure`). A coin read without a
        suit within reach of the mover's coins and of no other worm's is the mover's
        (:meth:`_lent_to_mover`)."""
        assert state.table is not None and state.course is not None
        player = self.players[state.turn]
        track = state.worm(player)
        scene = self._lent_to_mover(scene, player, track.length)
        same = self.settings.same_place_mm
        last = [p.centre_mm for p in state.table.pieces if p.kind == "coin" and p.suit == player]
        now = extract_worm(scene, player, self.d, self.settings)
        if len(last) != track.length - 1 or not now.ok or len(now.coins) != track.length:
            return self._mover_unsure(state, scene, seq)
        starts = [[*last, scene.pieces[i].centre_mm] for i in now.coins
                  if not any(math.dist(scene.pieces[i].centre_mm, q) <= same for q in last)]
        seen_last = extract_worm(Scene(tuple(Piece("coin", x, y, suit=player) for x, y in last)),
                                 player, self.d, self.settings)
        if len(last) < 2:
            return self._mover_unsure(state, scene, seq)

        def off_track(c: Point2) -> float:
            return min(math.dist(c, q) for q in track.coins_mm)

        tail = min(last, key=off_track)  # its tail lies nearest where it lay before it moved
        if seen_last.ok:  # one chain: the coin not seen was laid last, beyond its head (a
            # coin kept where it lay would likely have been found there)
            chain = [last[i] for i in seen_last.coins]
            if chain[-1] == tail:
                chain = chain[::-1]
            end, nxt = chain[-1], chain[-2]
            n = math.dist(end, nxt)
            starts.append([*last, (end[0] + (end[0] - nxt[0]) * self.d / n,
                                   end[1] + (end[1] - nxt[1]) * self.d / n)])
            # or it lay still where one of the worm's coins lay before its doubted move,
            # touching the tail end (a camera may miss a coin in one place on every reading):
            # a place that may only keep a foul from being called
            stayed = [[*last, q] for q in track.coins_mm
                      if math.dist(q, chain[0]) <= self.settings.touch_factor * self.d
                      and not any(math.dist(q, p) <= same for p in last)]
            # or, its last move not seen either, one step beyond its tail end: the worm may
            # have moved on from where it was last seen whole before that coin lay there
            start, after = chain[0], chain[1]
            m = math.dist(start, after)
            stayed.append([*last, (start[0] + (start[0] - after[0]) * self.d / m,
                                   start[1] + (start[1] - after[1]) * self.d / m)])
        else:
            stayed = []

        def judged_from(start: list[Point2]) -> Step[DerbyState] | None:
            assert state.table is not None and state.course is not None
            coins = Scene(tuple(Piece("coin", x, y, suit=player) for x, y in start))
            shape = extract_worm(coins, player, self.d, self.settings)
            if not shape.ok or len(shape.coins) != track.length:
                return None
            pts = tuple(start[i] for i in shape.coins)
            if math.dist(pts[-1], tail) < math.dist(pts[0], tail):
                pts = pts[::-1]  # tail first
            table = replace(state.table, pieces=(*state.table.pieces, Piece(
                "coin", *next(q for q in start if q not in last), suit=player)))
            known = replace(state, table=table, unsure=tuple(u for u in state.unsure
                                                             if u != player)).with_worm(
                replace(track, coins_mm=pts, angles_rad=self._angles_like(state.course, track,
                                                                           pts)))
            return self._scene(known, scene, seq)

        def verdicts_of(st: Step[DerbyState]) -> tuple[tuple[bool, str, str | None], ...]:
            return tuple((v.legal, v.rule, v.player) for v in st.verdicts)

        steps = [st for st in map(judged_from, starts) if st is not None]
        said = {verdicts_of(st) for st in steps}
        legal = said == {((True, Rule.OK.value, player),)} or said == {((True, Rule.OK.value,
                                                                     None),)}
        if (len(steps) >= 2 or legal) and len(said) == 1 and all(
                len(st.verdicts) == 1 and not any(isinstance(o, Doubt) for o in st.outputs)
                for st in steps) and (legal or all(
                    st is None or verdicts_of(st) in said for st in map(judged_from, stayed))):
            return steps[0]
        return self._mover_unsure(state, scene, seq)

    def _lent_to_mover(self, scene: Scene, player: str, length: int) -> Scene:
        """The reading with each coin read without a suit lent ``player``'s suit when that
        worm is as many coins short (:func:`referee.worm_derby.suit_lending.lend_suits`) and
        the coin lies out of reach of every other worm's coins read (it can be no other's)."""
        reach = REACH_COINS * self.d
        others = [p.centre_mm for p in scene.pieces if p.kind == "coin"
                  and p.suit is not None and p.suit != player]
        skip = frozenset(j for j, p in enumerate(scene.pieces) if p.kind == "coin"
                         and p.suit is None and any(math.dist(p.centre_mm, c) <= reach
                                                    for c in others))
        pieces, lent = lend_suits(scene.pieces, {player: length}, self.d, skip=skip)
        if not lent:
            return scene
        return replace(scene, pieces=tuple(p for p in pieces if p is not None))

    def _mover_unsure(self, state: DerbyState, scene: Scene, seq: int) -> Step[DerbyState]:
        """The worm on the move was not read whole since it last moved: where it started from
        is not known, so its move cannot be judged; the table is asked (once per reading)."""
        player = self.players[state.turn]
        if state.doubted is not None and state.doubted[1] == scene:
            return Step(state)
        if state.unsure_asked:  # asked once this roll: the newest reading is the one in doubt
            return Step(replace(state, doubted=(seq, scene)))
        mine = tuple(i for i, p in enumerate(scene.pieces)
                     if p.kind == "coin" and p.suit == player)
        length = state.worm(player).length
        asked = (f"{possessive(player)} worm has not been read whole since it last moved "
                 f"({len(mine)} of its {length} coins are seen): is a coin hidden or misread?")
        if len(mine) == length:
            asked = (f"{possessive(player)} worm is read whole now, but it was not before this "
                     f"move, so where the move started is not known: is a coin of it hidden, or "
                     f"is the move as read right?")
        return Step(replace(state, doubted=(seq, scene), unsure_asked=True), (Doubt(
            seq, player, mine, None, sentence(asked)),))

    def _taken_back(self, state: DerbyState, scene: Scene, seq: int
                    ) -> Step[DerbyState] | None:
        """The table put back as it was before the last legal move, before the next roll,
        with the worm that moved read where it was (all its coins but one at most): the move is
        taken back (its verdict was overruled by the table), and its roll is to play again.
        None otherwise."""
        if state.before_move is None or state.roll is not None:
            return None
        at_seq, before = state.before_move
        assert before.table is not None
        mover = self.players[before.turn]
        reading = reconcile(before.table, scene, self.reading_rules(before))
        s = self.settings
        for cand in reading.candidates:
            gone, came = scene_diff(before.table, cand.scene, s.same_place_mm,
                                    s.same_angle_deg)
            read = [p for p, j in zip(cand.scene.pieces, cand.index_map, strict=True)
                    if j >= 0 and p.kind == "coin" and p.suit == mover]
            if not gone and not came and len(read) >= max(2, before.worm(mover).length - 1):
                break
        else:
            return None
        return Step(before, (_notice(
            seq, f"the table is back as it was before {possessive(mover)} move judged at "
                 f"{at_seq}: that move is taken back and {possessive(mover)} roll of "
                 f"{before.roll} is to play again", "warning"),))

    def _judge_scene(self, state: DerbyState, scene: Scene, seq: int) -> Step[DerbyState]:
        assert state.table is not None
        player = self.players[state.turn]
        gone, came = scene_diff(state.table, scene, self.settings.same_place_mm,
                                self.settings.same_angle_deg)
        if not gone and not came:
            return Step(state)
        if state.over:
            return Step(state, (judged(Rule.TURN, "the race is over; nothing may move",
                                       tuple(came)).verdict(seq, None),))
        if state.roll in (None, "again"):
            return Step(state, (self._moved_before_roll(state, scene, came).verdict(seq,
                                                                                    player),))
        if state.roll == "ace":
            found, new = self.judge_ace_scene(state, scene, player)
            return Step(new if found.legal else state, (found.verdict(seq, player),))
        return self._judge_move(state, scene, seq, player, int(state.roll), (gone, came))

    def _moved_before_roll(self, state: DerbyState, scene: Scene, came: list[int]) -> Judgement:
        """Something moved when nobody may move: the foul is the mover's."""
        player = self.players[state.turn]
        movers = [p for p in self.players if any(
            scene.pieces[j].kind == "coin" and scene.pieces[j].suit == p for j in came)]
        mover = next((p for p in movers if p != player), movers[0] if movers else None)
        needs = "to roll" if state.roll is None else "to roll again"
        if mover is None or mover == player:
            return judged(Rule.TURN, f"nothing may move before a roll; it is {possessive(player)} "
                                     f"turn {needs}", tuple(came), mover=mover)
        moved = tuple(j for j in came if scene.pieces[j].suit == mover)
        return judged(Rule.TURN, f"{possessive(mover)} worm moved, but it is {possessive(player)} "
                                 f"turn {needs}; put {possessive(mover)} worm back where it was",
                      moved, mover=mover)

    # ------------------------------------------------------------------ setup

    def _judge_setup(self, state: DerbyState, scene: Scene, seq: int) -> Step[DerbyState]:
        """The first table: the course and the worms at the start (:mod:`.setup_rules`); a
        coin read without a suit is the one worm's a coin short (:mod:`.suit_lending`), and
        one read with another worm's suit, off that worm's chain, is the worm's it joins
        (:mod:`.suit_swap`)."""
        scene = self._first_suits(scene)
        setup = judge_setup(self, scene)
        filled: tuple[Event, ...] = ()
        if setup.problem is not None and setup.problem.doubt == COIN_MISREAD:
            gap = self._setup_gap_coin(scene)
            if gap is not None:
                scene = replace(scene, pieces=(*scene.pieces, gap))
                setup = judge_setup(self, scene)
                filled = (_notice(seq, f"{possessive(gap.suit or '')} worm shows one coin "
                                       f"fewer than it has, with a gap of one coin's width: the "
                                       f"coin not seen is taken to lie in the gap at "
                                       f"{at(gap.centre_mm)}", "warning"),)
            else:
                gaps = self._setup_gap_coins(scene)
                if gaps:
                    whole = replace(scene, pieces=(*scene.pieces, *gaps))
                    judged_whole = judge_setup(self, whole)
                    if judged_whole.problem is None:
                        scene, setup = whole, judged_whole
                        filled = tuple(_notice(seq, f"{possessive(player)} worm shows "
                                                    f"{count(len(mine), 'coin')} fewer than it "
                                                    f"has, in gaps as wide as they are: the "
                                                    f"coins not seen are taken to lie there, at "
                                                    f"{', '.join(at(c.centre_mm) for c in mine)}",
                                               "warning")
                                       for player in self.players
                                       for mine in [[c for c in gaps if c.suit == player]]
                                       if mine)
        if setup.problem is not None:
            completed = self._setup_completed(state, scene, seq)
            if completed is not None:
                return completed
            replayed = self._replayed_setup(state, scene, seq)
            if replayed is not None:
                return replayed
            if state.early_roller is None and state.setup_seen is None:
                state = replace(state, setup_seen=scene)
            step = self._setup_problem(state, scene, setup.course, seq, setup.problem)
            if step.verdicts and not any(isinstance(o, Doubt) for o in step.outputs):
                return Step(step.state, (*step.outputs, *filled))
            return step
        notices = (*filled, *(_notice(seq, w, "warning") for w in setup.warnings))
        new = replace(state, table=scene, course=setup.course, worms=setup.worms, turn=0,
                      roll=None, fresh=True)
        assert setup.course is not None
        asked = tuple(Doubt(seq, None, d.pieces, d.where, sentence(f"{d.reason}: {d.doubt}"))
                      for d in gate_doubts(setup.course, scene))
        return Step(new, (Verdict(seq, None, True, Rule.OK.value, sentence(setup.reason)),
                          *notices, *asked))

    def _set_up_fuller(self, state: DerbyState, scene: Scene, seq: int
                       ) -> Step[DerbyState] | None:
        """Before the first roll, a reading that shows the table set up with a tile more (one
        not seen when the course was set up; nothing else changed) sets the course up again
        from it, when it is a course: the tile is on the table (a later reading showing it
        must not be a tile "where there was none"). None otherwise."""
        assert state.table is not None
        s = self.settings
        gone, came = scene_diff(state.table, scene, s.same_place_mm, s.same_angle_deg)
        if gone or not came or any(scene.pieces[j].kind != "tile" for j in came):
            return None
        setup = judge_setup(self, scene)
        if setup.problem is not None or setup.course is None:
            return None
        new = replace(state, table=scene, course=setup.course, worms=setup.worms)
        where = ", ".join(at(scene.pieces[j].centre_mm) for j in came)
        return Step(new, (_notice(seq, f"a tile not seen when the course was set up lies at "
                                       f"{where}: the course is set up again with it"),))

    def _setup_gap_coin(self, scene: Scene) -> Piece | None:
        """The coin of a worm read one coin short on a first table, where its coins leave a
        gap one coin fills (:func:`referee.worm_derby.reading.one_coin_gaps`); None unless
        exactly one worm is short, by one coin, with exactly one such place."""
        short = [p for p in self.players if sum(
            1 for q in scene.pieces if q.kind == "coin" and q.suit == p) == self.lengths[p] - 1]
        if len(short) != 1 or any(sum(1 for q in scene.pieces if q.kind == "coin" and
                                      q.suit == p) != self.lengths[p]
                                  for p in self.players if p not in short):
            return None
        player = short[0]
        mine_at = [(j, q.centre_mm) for j, q in enumerate(scene.pieces)
                   if q.kind == "coin" and q.suit == player]
        rules = ReadingRules(self.d, self.pieces.tile_mm, self.lengths, player,
                             frozenset(self.players))
        places = one_coin_gaps(mine_at, list(scene.pieces), player, rules)
        return places[0] if len(places) == 1 else None

    def _setup_gap_coins(self, scene: Scene) -> tuple[Piece, ...]:
        """The coins not seen of every worm read short on a first table, each in gaps whole
        coins wide along its straight line (:mod:`.start_gaps`); empty unless every worm short
        of coins is filled so, and none has more coins than it should."""
        out: list[Piece] = []
        for player in self.players:
            n = sum(1 for q in scene.pieces if q.kind == "coin" and q.suit == player)
            if n > self.lengths[player]:
                return ()
            if n == self.lengths[player]:
                continue
            found = start_gap_coins(scene.pieces, player, self.lengths[player], self.d,
                                    self.pieces.tile_mm, self.settings.straight_mm,
                                    self.settings.touch_factor)
            if found is None:
                return ()
            out += found
        return tuple(out)

    def _setup_problem(self, state: DerbyState, scene: Scene, course: Course | None, seq: int,
                       problem: Judgement) -> Step[DerbyState]:
        """A setup rule broken: a doubt when a misread could explain it, else a ``setup``
        verdict; once the players have rolled on, the race stands as the table shows it."""
        reason, pieces, where, doubt = problem.reason, problem.pieces, problem.where, \
            problem.doubt
        if state.early_roller is not None and course is None:
            # the race is on, but a start tile is not seen: where the worms' tails and the
            # pylon say it lies
            course = self.course_without_a_start_tile(scene)
            if course is not None:
                reason = f"{reason} (a start tile is not seen; it is taken to lie at " \
                         f"{at(course.start_mm[1])})"
                doubt = ""
        if state.early_roller is not None and not doubt:
            # the players went on rolling while the setup was in doubt: the race is on
            going = self._setup_as_it_stands(state, scene, course, seq, reason)
            if going is not None:
                return going
            doubt = "the race seems to have begun: fix the reading or accept the table"
        if doubt:  # what a misread could explain: the table is asked, nobody is faulted
            return Step(state, (Doubt(seq, None, tuple(i for i in pieces if i >= 0),
                                      where, sentence(f"{reason}: {doubt}")),))
        return Step(state, (judged(Rule.SETUP, reason, pieces, where).verdict(seq, None),))

    def _setup_completed(self, state: DerbyState, scene: Scene, seq: int
                         ) -> Step[DerbyState] | None:
        """The first table, read in doubt before anyone rolled (``setup_seen``), completed by
        this reading made after the first roll: a worm seen there short of coins is taken
        from this reading when it shows every coin seen there still in its place and the
        worm whole (a worm that did not move: the coin was there all along), and a tile seen
        here clear of every piece there joins it. When that first table is a course, the race
        is set up from it, the first player's roll is played and this reading is judged as
        that player's move. None otherwise."""
        first, roller = state.setup_seen, state.early_roller
        if first is None or roller != self.players[0] or state.early_roll is None:
            return None
        same = self.settings.same_place_mm
        pieces = list(first.pieces)
        unsure: list[str] = []
        for player in self.players:
            had = [p for p in first.pieces if p.kind == "coin" and p.suit == player]
            if len(had) >= self.lengths[player]:
                continue
            now = [p for p in scene.pieces if p.kind == "coin" and p.suit == player]
            if player == roller or not all(
                    any(math.dist(p.centre_mm, q.centre_mm) <= same for q in now)
                    for p in had):
                return None
            if len(now) == len(had) == self.lengths[player] - 1:
                end = self._unseen_start_coin(first, player)
                if end is None:
                    return None
                now, unsure = [*now, end], [*unsure, player]
            elif len(now) != self.lengths[player]:
                return None
            pieces = [p for p in pieces if not (p.kind == "coin" and p.suit == player)] + now
        for q in scene.pieces:
            if q.kind == "tile" and all(
                    math.dist(q.centre_mm, p.centre_mm) > self.pieces.tile_mm
                    for p in pieces if p.kind in ("tile", "coin")):
                pieces.append(q)
        whole = replace(first, pieces=tuple(pieces))
        if whole == first:
            return None
        setup = judge_setup(self, whole)
        if setup.problem is not None:
            return None
        new = replace(state, table=whole, course=setup.course, worms=setup.worms, turn=0,
                      roll=None, early_roller=None, early_roll=None, setup_seen=None,
                      unsure=tuple(unsure))
        rolled = self._roll(new, Roll(roller, state.early_roll), seq)
        said = Verdict(seq, None, True, Rule.OK.value, sentence(
            f"{setup.reason.rstrip('.')} (its first reading was in doubt; this reading shows "
            f"what it missed, where nothing moved)"))
        moved = self._scene(rolled.state, scene, seq) if rolled.state.roll is not None \
            else Step(rolled.state)
        return Step(moved.state, (said, *rolled.outputs, *moved.outputs))

    def _replayed_setup(self, state: DerbyState, scene: Scene, seq: int
                        ) -> Step[DerbyState] | None:
        """The first table, read in doubt and rolled on from (``early``), completed by a later
        reading (:meth:`_start_table`; this one included), or else by the one tile read face
        down there that makes it a course (:meth:`_flipped_start`): the race is set up from it and
        every roll and reading kept since is judged again in turn, ending with this reading,
        whose outputs are said (then the setup's verdict). Only when every reading before this
        one is then judged legal (or unchanged), without a doubt: a foul or a doubt there is
        not provable so late (the table was never asked). None otherwise."""
        if state.early_roller is None or len(state.early) >= EARLY_KEPT:
            return None
        inferred: Point2 | None = None
        kept = state.early
        k0 = next((k for k, (_, e) in enumerate(kept) if isinstance(e, SceneSeen)), None)
        if k0 is None:
            return None
        first_seq, first_event = kept[k0]
        assert isinstance(first_event, SceneSeen)
        first = first_event.scene
        events = (*kept[k0 + 1:], (seq, SceneSeen(scene)))
        for at_seq, event in events:
            if not isinstance(event, SceneSeen):
                continue
            before = [e for k, e in kept if isinstance(e, Roll) and k < at_seq]
            start = self._start_table(first, event.scene, {e.player for e in before},
                                      any(e.value == "ace" for e in before))
            if start is not None:
                break
        else:
            start = self._flipped_start(first)
            if start is None:
                start = self._start_tile_inferred(first)
                if start is None:
                    return None
                inferred = start[1].course.start_mm[1] if start[1].course else None
        table, setup = start
        replay = replace(self.initial_state(), table=table, course=setup.course,
                         worms=setup.worms, turn=0, roll=None, fresh=True)
        outputs: tuple[Event, ...] = ()
        moves = 0
        for at_seq, event in events:
            if isinstance(event, SceneSeen):  # its tiles read as the first table's (no tile
                # turns over in a race: one read with another face there is that tile)
                event = SceneSeen(self._faces_of(table, event.scene))
            step = self.step(replay, event, at_seq)
            replay, outputs = step.state, step.outputs
            if at_seq != seq and any(isinstance(o, Doubt) or (isinstance(o, Verdict) and
                                     not o.legal) for o in outputs):
                return None
            moves += sum(1 for o in outputs if isinstance(o, Verdict) and o.player is not None
                         and at_seq != seq)
        rolls = [f"{e.player} {e.value}" for _, e in kept if isinstance(e, Roll)]
        why = "a later reading shows what it missed, where nothing moved" if inferred is None \
            else f"a start tile is not seen; it is taken to lie at {at(inferred)}, where the " \
                 f"worms' tails and the pylon put it"
        said = Verdict(seq, None, True, Rule.OK.value, sentence(
            f"{setup.reason.rstrip('.')}, from the first table read at {first_seq} (in doubt "
            f"then; {why}); the rolls made "
            f"since ({', '.join(rolls)}) are played again from it, and "
            f"{count(moves, 'move')} read before this reading {'was' if moves == 1 else 'were'} "
            f"legal"))
        return Step(replay, (*outputs, said))  # (a foul first: it is the one pending)

    def _start_tile_inferred(self, first: Scene) -> tuple[Scene, SetupJudged] | None:
        """The first table with a start tile never seen taken to lie where the worms' tails
        and the pylon put it (:meth:`course_without_a_start_tile`), and its setup, when the
        first table is then set up by the rules: the table is the first table as read (the
        tile is in the course, not on the table: the readings after it do not show it
        either). None otherwise."""
        course = self.course_without_a_start_tile(first)
        if course is None:
            return None
        seen = next((p for p in first.pieces if p.kind == "tile" and p.face == "up" and
                     math.dist(p.centre_mm, course.start_mm[0]) < 1e-6), None)
        other = Piece.tile(*course.start_mm[1], seen.angle_deg or 0.0 if seen else 0.0, "up")
        start = self._set_up_from(replace(first, pieces=(*first.pieces, other)))
        if start is None or start[1].course is None:
            return None
        table, setup = start
        return replace(table, pieces=tuple(p for p in table.pieces if p is not other)), setup

    def _flipped_start(self, first: Scene) -> tuple[Scene, SetupJudged] | None:
        """The first table with the one face-down tile that, read face up, makes it a setup
        (the course's tile misread: the players rolled on from it, and no tile turns over in
        a race); None unless exactly one such tile does."""
        found = []
        for i, p in enumerate(first.pieces):
            if p.kind == "tile" and p.face == "down":
                flipped = replace(first, pieces=tuple(replace(q, face="up") if k == i else q
                                                      for k, q in enumerate(first.pieces)))
                start = self._set_up_from(flipped)
                if start is not None:
                    found.append(start)
        return found[0] if len(found) == 1 else None

    def _faces_of(self, table: Scene, scene: Scene) -> Scene:
        """``scene`` with each tile read within ``same_place_mm`` of a tile of ``table`` with
        another face or suit given that tile's face and suit."""
        def known(q: Piece) -> Piece:
            p = self._retold_tile(table, q)
            return q if p is None else replace(q, face=p.face, suit=p.suit)

        return replace(scene, pieces=tuple(known(q) if q.kind == "tile" else q
                                           for q in scene.pieces))

    def _retold_tile(self, scene: Scene, tile: Piece) -> Piece | None:
        """The tile of ``scene`` read within ``same_place_mm`` of ``tile`` with another face
        or suit (the same tile: no tile turns over in a race, one reading misread it); None
        when there is none."""
        same = self.settings.same_place_mm
        return next((p for p in scene.pieces if p.kind == "tile" and (p.face, p.suit) != (
            tile.face, tile.suit) and math.dist(p.centre_mm, tile.centre_mm) <= same), None)

    def _start_table(self, first: Scene, later: Scene, rolled: set[str], ace: bool
                     ) -> tuple[Scene, SetupJudged] | None:
        """The first table completed from a later reading, and its setup, when it is a race
        at the start: a tile of ``later`` clear of every tile of ``first`` (it lay there
        unseen: :func:`referee.worm_derby.late_found.late_tiles`), a tile read in the same
        place with another face or suit there taken as read there (no tile is turned over in
        a race: one of the two readings misread it), and each worm read short
        there taken from ``later`` when its player had not rolled before it (``rolled``; the
        worm cannot have moved) and it is read whole there on every coin it was seen on. None
        when the first table so completed is not a setup (:meth:`_set_up_from`). ``ace``: an
        ace was rolled before ``later`` (an obstacle, face down, may have moved: only a
        face-up tile is taken as found late from it); tiles found late that break the setup
        are left out."""
        same = self.settings.same_place_mm
        pieces = [(self._retold_tile(later, p) or p) if p.kind == "tile" else p
                  for p in first.pieces]
        for player in self.players:
            had = [p for p in first.pieces if p.kind == "coin" and p.suit == player]
            if len(had) >= self.lengths[player] or player in rolled:
                continue
            now = [p for p in later.pieces if p.kind == "coin" and p.suit == player]
            if len(now) != self.lengths[player] or not all(
                    any(math.dist(p.centre_mm, q.centre_mm) <= same for q in now) for p in had):
                continue
            pieces = [p for p in pieces if not (p.kind == "coin" and p.suit == player)] + now
        late = [t for t in late_tiles(first, later, self.pieces.tile_mm, self.d)
                if not ace or t.face == "up"]
        return (late and self._set_up_from(replace(first, pieces=(*pieces, *late)))) or \
            self._set_up_from(replace(first, pieces=tuple(pieces)))

    def _first_suits(self, scene: Scene) -> Scene:
        """A first table with its coins' suits put right from the worms' lengths alone: a coin
        read without a suit is the one worm's a coin short (:mod:`.suit_lending`), and one read
        with another worm's suit, off that worm's chain, is the worm's it joins
        (:mod:`.suit_swap`)."""
        lent, _ = lend_suits(scene.pieces, self.lengths, self.d)
        return replace(scene, pieces=swap_stray_suit(
            [p for p in lent if p is not None], self.lengths, self.d, self.settings)[0])

    def _set_up_from(self, scene: Scene) -> tuple[Scene, SetupJudged] | None:
        """The table (coins read without a suit lent, coins not seen in gaps filled: as
        :meth:`_judge_setup` reads a first table) and its setup, when no setup rule is
        broken; None otherwise."""
        scene = self._first_suits(scene)
        setup = judge_setup(self, scene)
        if setup.problem is not None and setup.problem.doubt == COIN_MISREAD:
            gap = self._setup_gap_coin(scene)
            gaps = (gap,) if gap is not None else self._setup_gap_coins(scene)
            if gaps:
                scene = replace(scene, pieces=(*scene.pieces, *gaps))
                setup = judge_setup(self, scene)
        return None if setup.problem is not None else (scene, setup)

    def _unseen_start_coin(self, first: Scene, player: str) -> Piece | None:
        """The coin of ``player``'s worm, read one coin short on the first table and in the
        same place since, that makes it a worm at the start: one coin's width beyond one of
        its ends, in line, where the start rules then hold (:func:`judge_setup`; the tail's
        end first); None when neither does. The worm stays *unsure* (its coins on the table
        are those each reading shows, until it is seen whole), so the guess is never judged."""
        shape = extract_worm(first, player, self.d, self.settings)
        if not shape.ok or len(shape.coins) < 2:
            return None
        pts = [first.pieces[i].centre_mm for i in shape.coins]
        found = []
        for end, nxt in ((pts[0], pts[1]), (pts[-1], pts[-2])):
            n = math.dist(end, nxt)
            c = Piece("coin", round(end[0] + (end[0] - nxt[0]) * self.d / n, 2),
                      round(end[1] + (end[1] - nxt[1]) * self.d / n, 2), suit=player)
            if any(math.dist(c.centre_mm, q.centre_mm) < self.d for q in first.pieces
                   if q.kind == "coin") or any(
                    q.kind == "tile" and tile_distance(c.centre_mm, q, self.pieces.tile_mm)
                    < self.d / 2 for q in first.pieces):
                continue
            if judge_setup(self, replace(first, pieces=(*first.pieces, c))).problem is None:
                found.append(c)
        return found[0] if found else None

    def course_without_a_start_tile(self, scene: Scene) -> Course | None:
        """The course of a table where one start tile is not seen: a face-up tile in line with
        a worm's end coin is one start tile, the other lies as far beyond the pylon's foot on
        that line (the pylon is on the start tiles' bisector), with a worm's end between them.
        None when no such course is found."""
        ends = []
        for player in self.players:
            shape = extract_worm(scene, player, self.d, self.settings)
            if not shape.ok or len(shape.coins) < 2:
                return None
            ends += [scene.pieces[shape.coins[0]].centre_mm,
                     scene.pieces[shape.coins[-1]].centre_mm]
        tile = self.pieces.tile_mm
        up = [p for p in scene.pieces if p.kind == "tile" and p.face == "up"]
        for a in up:
            for e in ends:
                n = math.dist(e, a.centre_mm)
                if n < tile:
                    continue
                ux, uy = (e[0] - a.x_mm) / n, (e[1] - a.y_mm) / n
                for pylon in (p for p in up if p is not a):
                    t = (pylon.x_mm - a.x_mm) * ux + (pylon.y_mm - a.y_mm) * uy
                    other = Piece.tile(a.x_mm + 2 * t * ux, a.y_mm + 2 * t * uy,
                                       a.angle_deg or 0.0, "up")
                    found = self.read_course(replace(scene, pieces=(*scene.pieces, other)),
                                             ends, strict=True).course
                    if found is not None and other.centre_mm in found.start_mm and \
                            any(found.between_start_tiles(c) for c in ends):
                        if found.start_mm[0] == other.centre_mm:
                            found = replace(found, start_mm=found.start_mm[::-1])
                        return found
        return None

    def _setup_as_it_stands(self, state: DerbyState, scene: Scene, course: Course | None,
                            seq: int, problem: str) -> Step[DerbyState] | None:
        """The course read from a table where the race has already begun (its first table was
        in doubt and the players rolled on): worms where they lie, the turn after the last
        roller's. None when the course or a worm cannot be read."""
        if course is None or state.early_roller is None:
            return None
        worms: list[WormTrack] = []
        shapes: dict[str, tuple[int, ...]] = {}
        for player in self.players:
            shape = extract_worm(scene, player, self.d, self.settings)
            if not shape.ok or len(shape.coins) != self.lengths[player]:
                return None
            shapes[player] = shape.coins
            worms.append(start_track(course, player, tuple(
                scene.pieces[i].centre_mm for i in shape.coins)))
        foul = self._lie_foul(state, scene, shapes, state.early_roller, seq)
        if foul is not None:
            return foul
        roller = state.early_roller
        if state.early_roll is not None and self._at_start(scene, roller):
            # the last roller's worm still lies at the start (its move put back, or not made
            # yet): its roll is still to play
            new = replace(state, table=scene, course=course, worms=tuple(worms),
                          turn=self.players.index(roller), roll=None, early_roller=None,
                          early_roll=None, as_it_stands=True)
            rolled = self._roll(new, Roll(roller, state.early_roll), seq)
            return Step(rolled.state, (Verdict(seq, None, True, Rule.OK.value, sentence(
                f"the course is set up as the table stands now (its first reading was in doubt "
                f"and the race has begun, so {problem[0].lower() + problem[1:]} is let pass); "
                f"{possessive(roller)} worm is still at the start, so {possessive(roller)} "
                f"roll of {state.early_roll} is to play")), *rolled.outputs))
        stood = self._stood_at_the_roll(state, scene, course, seq, problem)
        if stood is not None:
            return stood
        turn = (self.players.index(roller) + 1) % len(self.players)
        new = replace(state, table=scene, course=course, worms=tuple(worms), turn=turn,
                      roll=None, early_roller=None, early_roll=None, as_it_stands=True)
        out: list[Event] = [Verdict(seq, None, True, Rule.OK.value, sentence(
            f"the course is set up as the table stands now (its first reading was in doubt and "
            f"the race has begun, so {problem[0].lower() + problem[1:]} is let pass); it is "
            f"{possessive(self.players[turn])} turn to roll"))]
        if state.early_roll == "null":
            # the last roll was null, yet that worm no longer lies as it starts: a move on a
            # null, or one made on an earlier roll; the moves before the course stood were not
            # judged, so this is asked, never ruled (issue 13: no foul on what was not seen)
            out.append(Doubt(seq, roller, shapes[roller], None, sentence(
                f"{possessive(roller)} last roll was null, yet {possessive(roller)} worm no "
                f"longer lies at the start: did it move on the null? The moves before the course "
                f"was set up were not judged: put it back, fix the reading or accept the table")))
        elif any(isinstance(e, Roll) and e.value not in ("null", "ace") for _, e in state.early):
            # moves were made on rolls kept while the first table was in doubt, and could not
            # be judged from it (:meth:`_replayed_setup`): said once, never ruled
            rolls = [f"{e.player} {e.value}" for _, e in state.early if isinstance(e, Roll)]
            out.append(Doubt(seq, None, (), None, sentence(
                f"the moves since the first table (rolls of {', '.join(rolls)}) could not be "
                f"judged, as it was in doubt: is the table as it stands now right?")))
        return Step(new, tuple(out))

    def _stood_at_the_roll(self, state: DerbyState, scene: Scene, course: Course, seq: int,
                           problem: str) -> Step[DerbyState] | None:
        """The race set up as the table stood when the last roll was made (the last reading
        kept before it, its worms read whole and its tiles where this reading has them; the
        course read from this one), that roll played and this reading judged as its move:
        the players rolled on from that table, so what changed since is the roller's move (or
        another's foul; after a null the turn passes, and a worm read moved is a foul). None
        when there is no such reading, after an ace, or when the move read cannot be judged (a
        doubt: the race then stands as the table stands now, its moves not judged)."""
        roller, value = state.early_roller, state.early_roll
        if roller is None or value is None or value == "ace":
            return None
        rolls = [k for k, (_, e) in enumerate(state.early)
                 if isinstance(e, Roll) and e.player == roller and e.value == value]
        if not rolls:
            return None
        before = [e for _, e in state.early[:rolls[-1]] if isinstance(e, SceneSeen)]
        if not before:
            return None
        earlier = before[-1].scene
        s = self.settings
        if not tiles_as_they_were(earlier, scene, s.same_place_mm, s.same_angle_deg):
            return None
        worms: list[WormTrack] = []
        for player in self.players:
            shape = extract_worm(earlier, player, self.d, s)
            if not shape.ok or len(shape.coins) != self.lengths[player]:
                return None
            worms.append(start_track(course, player, tuple(
                earlier.pieces[i].centre_mm for i in shape.coins)))
        new = replace(state, table=earlier, course=course, worms=tuple(worms),
                      turn=self.players.index(roller), roll=None, early_roller=None,
                      early_roll=None)
        rolled = self._roll(new, Roll(roller, value), seq)
        if rolled.verdicts or (rolled.state.roll is None and value != "null"):
            return None  # (a null passes the turn: a move read now is a foul)
        moved = self._scene(rolled.state, scene, seq)
        if not moved.verdicts or any(isinstance(o, Doubt) for o in moved.outputs):
            return None
        out: list[Event] = [*moved.outputs, Verdict(seq, None, True, Rule.OK.value, sentence(
            f"the course is set up as the table stood when {roller} rolled {value} (its first "
            f"reading was in doubt and the race has begun, so {problem[0].lower()}"
            f"{problem[1:]} is let pass), and this reading is judged as that roll's move"))]
        earlier_rolls = [f"{e.player} {e.value}" for _, e in state.early[:rolls[-1]]
                         if isinstance(e, Roll) and e.value not in ("null", "ace")]
        if earlier_rolls:
            out.append(Doubt(seq, None, (), None, sentence(
                f"the moves before that (rolls of {', '.join(earlier_rolls)}) could not be "
                f"judged, as the first table was in doubt: is the table as it stood then "
                f"right?")))
        return Step(moved.state, tuple(out))

    def _at_start(self, scene: Scene, player: str) -> bool:
        """Whether ``player``'s worm lies on ``scene`` as a worm starts (the worm start rules of
        :mod:`.setup_rules`)."""
        check = SetupCheck(self, scene)
        if check.reading.course is None:
            return False
        shape = extract_worm(scene, player, self.d, self.settings)
        return shape.ok and all(rule(check, player, shape) is None for rule in WORM_START_RULES)

    def _stands_again(self, state: DerbyState, scene: Scene, seq: int
                      ) -> Step[DerbyState] | None:
        """A new reading of a race set up as the table stood, before anyone rolled since: the
        worms are where this reading shows them when it shows every tile where it was and every
        worm whole (a worm changed since is a correction of the reading, not a move: where the
        last roller's worm started is not known); a foul its lie shows is still called. None
        when the reading does not show that (it is judged as any other)."""
        assert state.course is not None and state.table is not None
        s = self.settings
        if not tiles_as_they_were(state.table, scene, s.same_place_mm, s.same_angle_deg):
            return None
        shapes: dict[str, tuple[int, ...]] = {}
        for w in state.worms:
            shape = extract_worm(scene, w.player, self.d, s)
            if not shape.ok or len(shape.coins) != w.length:
                return None
            shapes[w.player] = shape.coins
        gone, came = scene_diff(state.table, scene, s.same_place_mm, s.same_angle_deg)
        if not gone and not came:
            return None
        last = self.players[(state.turn - 1) % len(self.players)]
        foul = self._lie_foul(state, scene, shapes, last, seq)
        if foul is not None:
            return foul
        worms = tuple(replace(w, coins_mm=pts, angles_rad=self._angles_like(state.course, w, pts))
                      for w in state.worms
                      for pts in [start_track(state.course, w.player, tuple(
                          scene.pieces[i].centre_mm for i in shapes[w.player])).coins_mm])
        new = replace(state, table=scene, worms=worms, pending=None, pending_told=False,
                      doubted=None, doubted_read=None)
        return Step(new, (Verdict(seq, None, True, Rule.OK.value, sentence(
            f"the worms are read again where they lie (the race was set up as the table stood "
            f"and nobody has rolled since); it is {possessive(self.players[state.turn])} turn "
            f"to roll")),))

    def _lie_foul(self, state: DerbyState, scene: Scene, shapes: Mapping[str, tuple[int, ...]],
                  first: str | None, seq: int) -> Step[DerbyState] | None:
        """A foul that a worm's lie shows alone (:mod:`.lying_rules`) on a table taken as it
        stands, where no start is known to judge the moves from: the worm's player's (``first``
        asked first: the last roller, whose move it most likely is); the state is unchanged (the
        table is to be put right). None when there is none."""
        for player in sorted(shapes, key=lambda p: p != first):
            found = judge_lie(self, scene, shapes[player])
            if found is not None:
                return Step(state, (found.verdict(seq, player),))
        return None

    # ------------------------------------------------------------------ a move

    def _judge_move(self, state: DerbyState, scene: Scene, seq: int, player: str, limit: int,
                    diff: tuple[list[int], list[int]]) -> Step[DerbyState]:
        found, facts = judge_move(self, state, scene, player, limit, diff)
        if facts is None and found.rule == Rule.SHAPE:
            found = self._split_within_noise(state, scene, player, limit, found)
        if facts is None and found.doubt:  # nobody's foul: the table is asked
            return Step(replace(state, doubted=(seq, scene)), (Doubt(
                seq, player, found.pieces, found.where,
                sentence(f"{found.reason.rstrip('.')}: {found.doubt}")),))
        if facts is None:
            return Step(state, (found.verdict(seq, player),))
        return self._apply_move(state, scene, seq, player, found, facts)

    def _split_within_noise(self, state: DerbyState, scene: Scene, player: str, limit: int,
                            found: Judgement) -> Judgement:
        """A ``shape`` foul of a worm read split by no more than the measuring noise
        (:mod:`.near_split`): the move is judged again with the worm one chain, as a reading
        within the noise shows it. A foul there of another rule that names none of the coins
        moved to join it (a ``gap`` passed by coins read where they lie) is the mover's foul
        whichever way the worm lies, and the rule the reading shows; one that rests on the
        coins moved (a ``steps`` count, a ``touch``) leaves the ``shape`` foul as read. A
        legal move there is a doubt (does each coin touch the next?), never a foul."""
        joined = joined_within_noise(scene, player, self.d, self.settings)
        if joined is None:
            return found
        moved = {k for k, (p, q) in enumerate(zip(scene.pieces, joined.pieces, strict=True))
                 if p != q}
        again, facts = judge_move(self, state, joined, player, limit)
        if facts is None:
            return again if again.rule != Rule.SHAPE and not again.doubt and \
                not moved & set(again.pieces) else found
        return replace(judged(Rule.SHAPE, f"{possessive(player)} worm reads split in two, but "
                                          f"by less than a reading may be off",
                              found.pieces, found.where), doubt="does each coin touch the next?")

    def _world_for(self, state: DerbyState, player: str) -> StepWorld:
        """The table without the player's worm (labels are indices into the table)."""
        assert state.table is not None
        items = [(p, i) for i, p in enumerate(state.table.pieces)
                 if p.kind not in IGNORED_KINDS and not (p.kind == "coin" and p.suit == player)]
        return StepWorld(items, self.pieces, self.settings)

    def _can_step(self, state: DerbyState, player: str) -> bool:
        return most_steps(self, state, self._world_for(state, player), player, 1) >= 1

    def legal_moves(self, state: DerbyState, player: str, limit: int) -> list[list[Point2]]:
        """Some moves the referee itself finds possible: the placements of a longest move
        from each end (for tests and hints)."""
        world = self._world_for(state, player)
        track = state.worm(player)
        out = []
        for body in (list(track.coins_mm), list(track.coins_mm)[::-1]):
            if self.direction_problem(state, player, body) is None:
                out.append(world.longest_move(body, limit))
        return out

    # ------------------------------------------------------------------ after a legal move

    def _apply_move(self, state: DerbyState, scene: Scene, seq: int, player: str,
                    found: Judgement, facts: MoveFacts) -> Step[DerbyState]:
        assert state.course is not None
        course = state.course
        track = state.worm(player)
        chain = facts.chain_mm
        kept = len(chain) - facts.placed if facts.placed < len(chain) else 0
        # angles: kept coins keep theirs, placed coins unwrap from the coin before
        old_angles = {c: a for c, a in zip(track.coins_mm, track.angles_rad, strict=True)}
        angles: list[float] = []
        for i, c in enumerate(chain):
            if i < kept:
                near = min(old_angles, key=lambda o: math.dist(o, c))
                angles.append(old_angles[near])
            else:
                prev = angles[-1] if angles else self._head_angle(track, chain)
                angles.append(unwrap_from(prev, course.angle_of(c)))
        new_track = replace(track, coins_mm=chain, angles_rad=tuple(angles),
                            gates=track.gates | facts.gates)
        outputs: list[Event] = [found.verdict(seq, player)]
        head_angle = abs(angles[-1])
        back = math.pi + math.radians(self.settings.rounding_back_deg)
        if not new_track.rounded and head_angle >= back:
            new_track = replace(new_track, rounded=True)
            outputs.append(Rounded(player, seq))
        new = replace(state, table=scene, provisional=())
        if new_track.rounded and course.between_start_tiles(chain[-1]) and head_angle >= back:
            not_yet = self.not_finished_yet(course, new_track)
            if not_yet:
                outputs.append(_notice(seq, f"{player} is between the start tiles but "
                                            f"{not_yet}", "warning"))
            else:
                new_track = replace(new_track, finished=True)
                place = len(state.places) + 1
                new = replace(new, places=(*state.places, player))
                outputs.append(Finish(player, place, seq))
                if place == 1:
                    outputs.append(Winner(player, seq))
        new = self.after_move(new.with_worm(new_track), player, facts)
        new = replace(new, before_move=(seq, replace(state, before_move=None)))
        return Step(self._next_turn(new), tuple(outputs))

    def _head_angle(self, track: WormTrack, chain: tuple[Point2, ...]) -> float:
        """Unwrapped angle of the old head nearest the first placed coin."""
        ends = [(track.coins_mm[0], track.angles_rad[0]), (track.coins_mm[-1],
                                                           track.angles_rad[-1])]
        first_new = chain[0] if len(chain) else ends[-1][0]
        kept = [c for c in chain if c in track.coins_mm]
        anchor = kept[-1] if kept else first_new
        return min(ends, key=lambda e: math.dist(e[0], anchor))[1]

    def _angles_like(self, course: Course, track: WormTrack, pts: tuple[Point2, ...]
                     ) -> tuple[float, ...]:
        """Angles for coins read afresh, unwrapped near the worm's known angles."""
        ref = track.angles_rad[0] if track.angles_rad else 0.0
        out: list[float] = []
        for p in pts:
            out.append(unwrap_from(out[-1] if out else ref, course.angle_of(p)))
        return tuple(out)
