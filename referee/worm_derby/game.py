"""The Worm Derby referee (Mark A. Biggar's rules, versions 2.0 and 3.1).

:class:`WormDerby` is the basic game; variants are subclasses overriding hooks
(:mod:`referee.worm_derby.variants`): Slalom (gates; an ace is one step; no movable obstacles)
and Cannibal worms (eating end coins). ``from_setup`` picks the subclass from the options
``variant`` (basic | slalom) and ``cannibal`` (bool).

A turn: the player whose turn it is rolls (null: no move; ace: move one obstacle at most one
tile width, then roll again; 2-5: that many steps, or as many as possible when the whole number
is impossible); the next stable scene that differs from the accepted table is judged as that
player's move.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import numpy as np
import shapely

from referee.base import Game, Judgement, Step
from referee.geometry.obstacles import piece_shape
from referee.registry import register_game
from referee.worm_derby.course import Course, read_course
from referee.worm_derby.inference import InferredMove, NoMove, infer_move
from referee.worm_derby.judging import judged
from referee.worm_derby.reading import ReadingRules, reconcile
from referee.worm_derby.settings import DEFAULT_SETTINGS, WormSettings
from referee.worm_derby.state import DerbyState, WormTrack, unwrap_from
from referee.worm_derby.steps import StepProblem, StepWorld
from referee.worm_derby.table import IGNORED_KINDS, scene_diff
from referee.worm_derby.words import at, count, mm, ordinal, possessive, sentence, steps
from referee.worm_derby.worms import WormShape, extract_worm, straightness_mm
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

EATEN_LABEL = -1000  # labels of coins that are gone from the new scene (eaten): -1000 - k
DEFAULT_LENGTH = 6


@dataclass(frozen=True)
class MoveFacts:
    """What a legal move did, for the state update."""

    chain_mm: tuple[Point2, ...]
    placed: int
    eaten_player: str | None = None
    eaten_end: int | None = None  # 0 or -1: which end of the victim's track was eaten
    gates: frozenset[int] = frozenset()


def _notice(seq: int, message: str, level: str = "info") -> Notice:
    """A notice whose message is one plain sentence."""
    return Notice(seq, sentence(message), level)


_VARIANTS: dict[tuple[str, bool], type[WormDerby]] = {}


def variant(cls: type[WormDerby]) -> type[WormDerby]:
    """Class decorator: makes a variant subclass findable by ``(variant, cannibal)``."""
    _VARIANTS[(cls.variant_name, cls.cannibal)] = cls
    return cls


@register_game
class WormDerby(Game[DerbyState]):
    """Basic Worm Derby: obstacles that an ace may move, no gates, no eating."""

    name = "worm-derby"
    aliases = ("worm_derby", "wormderby")
    piece_kinds = ("tile", "coin")
    option_names = frozenset({"variant", "cannibal", "lengths", "sizes"})
    variant_name: ClassVar[str] = "basic"
    cannibal: ClassVar[bool] = False
    slalom: ClassVar[bool] = False
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

    def gate_passes(self, course: Course, head: Point2, placed: Point2
                    ) -> list[tuple[int, bool]]:
        """Gates passed by a step from ``head`` to ``placed``: ``(gate, the right way)``."""
        return []

    def judge_ace_scene(self, state: DerbyState, scene: Scene, player: str
                        ) -> tuple[Judgement, DerbyState]:
        """Judges a scene after an ace: one obstacle moved at most a tile width."""
        return self._judge_obstacle_move(state, scene, player)

    def after_move(self, state: DerbyState, player: str, facts: MoveFacts) -> DerbyState:
        """State changes a variant makes after a legal move (Cannibal: fleeing, truce)."""
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
                      doubted=None)
        played = ""
        if state.roll not in (None, "again", "ace") and not state.over:
            player = self.players[state.turn]
            if state.worm(player).coins_mm != new.worm(player).coins_mm:
                new = self._next_turn(new)  # the move stands as it is: the next player's turn
                played = f": {possessive(player)} move stands and it is " \
                         f"{possessive(self.players[new.turn])} turn to roll"
        return Step(new, (Verdict(seq, None, True, "ok",
                                  sentence("the table is accepted as it is" + played)),))

    def step(self, state: DerbyState, event: Event, seq: int) -> Step[DerbyState]:
        """Judges a roll or a scene; while an illegal verdict is not put right, another
        player's turn is not judged against it again and again: the table is told once."""
        if isinstance(event, Roll):
            early: tuple[Event, ...] = ()
            current = self.players[state.turn]
            if state.doubted is not None and event.player != current:
                state, early = self._doubt_stands(state, seq)
            elif (event.player in self.players and event.player != current
                  and state.roll not in (None, "again", "ace") and state.pending is None
                  and not state.over):
                state, early = self._not_seen(state, seq)
            step = self._roll(state, event, seq)
            step = Step(step.state, (*early, *step.outputs))
        elif isinstance(event, SceneSeen):
            step = self._scene(state, event.scene, seq)
            if not step.outputs and step.state.pending is not None:
                # the table is back as it was accepted: the foul is put right
                step = Step(replace(step.state, pending=None, pending_told=False))
        else:
            step = Step(state, (Verdict(seq, getattr(event, "player", None), False, "event",
                                        f"A {event.type} event has no meaning in worm-derby."),))
        return self._settle(state, step, seq)

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
        for w in state.worms:
            shape = extract_worm(scene, w.player, self.d, self.settings)
            if w.finished:
                worms.append(w)
            elif shape.ok and len(shape.coins) == w.length:
                pts = tuple(scene.pieces[i].centre_mm for i in shape.coins)
                worms.append(replace(w, coins_mm=pts, angles_rad=self._angles_like(
                    course, w, pts)))
                unsure.discard(w.player)
            else:
                worms.append(w)
                unsure.add(w.player)
        new = replace(state, table=scene, worms=tuple(worms), unsure=tuple(sorted(unsure)),
                      pending=None, pending_told=False)
        return self._next_turn(new), (_notice(
            seq, f"the table read at {at_seq} was in doubt and was not fixed; the players went "
                 f"on, so {possessive(player)} move stands as read", "warning"),)

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
        doubt), before the reading is judged."""
        if not state.unsure or state.table is None or state.course is None:
            return state
        unsure = set(state.unsure)
        keep = [p for p in state.table.pieces
                if not (p.kind == "coin" and p.suit in unsure)]
        worms = []
        for w in state.worms:
            if w.player not in unsure:
                worms.append(w)
                continue
            keep += [p for p in scene.pieces if p.kind == "coin" and p.suit == w.player]
            shape = extract_worm(scene, w.player, self.d, self.settings)
            if shape.ok and len(shape.coins) == w.length:
                pts = tuple(scene.pieces[i].centre_mm for i in shape.coins)
                worms.append(replace(w, coins_mm=pts, angles_rad=self._angles_like(
                    state.course, w, pts)))
                unsure.discard(w.player)
            else:
                worms.append(w)
        return replace(state, table=replace(state.table, pieces=tuple(keep)), worms=tuple(worms),
                       unsure=tuple(sorted(unsure)))

    def _settle(self, state: DerbyState, step: Step[DerbyState], seq: int) -> Step[DerbyState]:
        """Keeps track of an illegal verdict not yet put right (see :meth:`step`)."""
        verdicts = step.verdicts
        if not verdicts:
            return step
        if step.state.doubted is not None:
            step = Step(replace(step.state, doubted=None), step.outputs)
        v = verdicts[0]
        if v.legal:
            return Step(replace(step.state, pending=None, pending_told=False), step.outputs)
        if state.pending is None or v.player == state.pending[1] or v.rule == "setup":
            return Step(replace(step.state, pending=(seq, v.player), pending_told=False),
                        step.outputs)
        if state.pending_told:
            return Step(state)
        at_seq, who = state.pending
        whose = f"{possessive(who)} move" if who else "the move"
        return Step(replace(state, pending_told=True), (_notice(
            seq, f"{whose} judged at {at_seq} was illegal and is not put right yet: put the table "
                 f"back as it was, fix the reading, accept the table as it is, or undo the "
                 f"verdict; until then the referee waits", "warning"),))

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
        def bad(rule: str, reason: str) -> Step[DerbyState]:
            return Step(state, (Verdict(seq, roll.player, False, rule, sentence(reason)),))

        if state.course is None:
            return Step(replace(state, early_roller=roll.player if roll.player in self.players
                                else state.early_roller),
                        (_notice(seq, "no course is set up yet; show the table before rolling",
                                 "warning"),))
        if roll.player not in self.players:
            return bad("turn", f"{roll.player} is not playing")
        if state.over:
            return bad("turn", "the race is over")
        current = self.players[state.turn]
        if roll.player != current:
            return bad("turn", f"it is {possessive(current)} turn to roll, not "
                               f"{possessive(roll.player)}")
        if state.roll not in (None, "again", "ace"):
            return bad("turn", f"{current} has a roll of {state.roll} to play first")
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
        others = frozenset(p for p in self.players if p != mover) if self.cannibal \
            else frozenset()
        return ReadingRules(self.d, self.pieces.tile_mm,
                            {w.player: w.length for w in state.worms
                             if not w.finished and w.player not in state.unsure},
                            mover, frozenset(self.players), state.roll == "ace", others,
                            frozenset(w.player for w in state.worms if w.eaten)
                            if state.roll == "ace" else frozenset(),
                            self.settings.same_place_mm)

    def _scene(self, state: DerbyState, scene: Scene, seq: int) -> Step[DerbyState]:
        """A reading is judged when it is consistent with the accepted table; a reading that
        needed a guess (a piece not seen put back, a phantom left out) may only confirm a legal
        move: otherwise the table is asked to confirm or fix it (a doubt)."""
        if state.course is None or state.table is None:
            return self._judge_setup(state, scene, seq)
        state = self._reseat(state, scene)
        assert state.table is not None
        player = self.players[state.turn]
        reading = reconcile(state.table, scene, self.reading_rules(state))
        for k, cand in enumerate(reading.candidates):
            step = self._judge_scene(state, cand.scene, seq)
            step = Step(step.state, tuple(
                replace(o, pieces=cand.to_reading(o.pieces)) if isinstance(o, Verdict) else o
                for o in step.outputs))
            if reading.complete and k == 0:
                return step
            if step.verdicts and all(v.legal for v in step.verdicts):
                return step
            if not step.outputs and k == 0:
                return step  # nothing changed once the misread is put right
        doubted = reading.base.scene if reading.base is not None else scene
        if state.doubted is not None and state.doubted[1] == doubted:
            return Step(state)  # read again the same: the table was asked already
        return Step(replace(state, doubted=(seq, doubted)),
                    tuple(Doubt(seq, player, d.pieces, None if d.where_mm is None else
                                (round(d.where_mm[0], 2), round(d.where_mm[1], 2)),
                                sentence(d.reason)) for d in reading.doubts))

    def _worms_whole(self, state: DerbyState, scene: Scene) -> bool:
        for w in state.worms:
            if w.finished:
                continue
            shape = extract_worm(scene, w.player, self.d, self.settings)
            if not shape.ok or len(shape.coins) != w.length:
                return False
        return True

    def _judge_scene(self, state: DerbyState, scene: Scene, seq: int) -> Step[DerbyState]:
        assert state.table is not None
        player = self.players[state.turn]
        gone, came = scene_diff(state.table, scene, self.settings.same_place_mm,
                                self.settings.same_angle_deg)
        if not gone and not came:
            return Step(state)
        if state.over:
            return Step(state, (judged("turn", "the race is over; nothing may move",
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
            return judged("turn", f"nothing may move before a roll; it is {possessive(player)} "
                                  f"turn {needs}", tuple(came), mover=mover)
        moved = tuple(j for j in came if scene.pieces[j].suit == mover)
        return judged("turn", f"{possessive(mover)} worm moved, but it is {possessive(player)} "
                              f"turn {needs}; put {possessive(mover)} worm back where it was",
                      moved, mover=mover)

    # ------------------------------------------------------------------ setup

    def _judge_setup(self, state: DerbyState, scene: Scene, seq: int) -> Step[DerbyState]:
        s, tile = self.settings, self.pieces.tile_mm
        ends = []
        for player in self.players:
            shape = extract_worm(scene, player, self.d, s)
            if shape.ok:
                ends += [scene.pieces[shape.coins[0]].centre_mm,
                         scene.pieces[shape.coins[-1]].centre_mm]
        reading = read_course(scene, self.pieces, self.slalom, s.pylon_offset_tiles,
                              s.start_apart_tiles, ends)
        course = reading.course

        def bad(reason: str, pieces: tuple[int, ...] = (), where: Point2 | None = None,
                doubt: str = "") -> Step[DerbyState]:
            if state.early_roller is not None and not doubt:
                # the players went on rolling while the setup was in doubt: the race is on
                going = self._setup_as_it_stands(state, scene, course, seq, reason)
                if going is not None:
                    return going
                doubt = "the race seems to have begun: fix the reading or accept the table"
            if doubt:  # what a misread could explain: the table is asked, nobody is faulted
                return Step(state, (Doubt(seq, None, tuple(i for i in pieces if i >= 0),
                                          where, sentence(f"{reason}: {doubt}")),))
            return Step(state, (judged("setup", reason, pieces, where).verdict(seq, None),))

        if course is None:
            few = sum(1 for p in scene.pieces if p.kind == "tile" and p.face == "up") < 3
            return bad(reading.problem, reading.pieces,
                       doubt="is a tile hidden or misread, or is the course not set up yet?"
                       if few else "")
        notices: list[Event] = []
        for i in reading.extra_idx:
            p = scene.pieces[i]
            notices.append(_notice(seq, f"the face-up tile at {at(p.centre_mm)} is neither a start "
                                       f"tile nor the pylon; it counts as an obstacle (obstacles "
                                       f"lie face down)", "warning"))
        apart = math.dist(*course.start_mm) / tile
        lo, hi = s.start_apart_usual_tiles
        if not lo <= apart <= hi:
            notices.append(_notice(seq, f"the start tiles are {apart:.1f} tile widths apart; the "
                                       f"rules ask for about four", "warning"))
        if course.pylon_distance_mm < s.small_table_mm:
            notices.append(_notice(seq, f"small table: the pylon is {course.pylon_distance_mm:.0f}"
                                       f" mm from the start line; the rules ask for 3 to 6 feet "
                                       f"(914 to 1829 mm)", "warning"))
        tiles = [i for i, p in enumerate(scene.pieces) if p.kind == "tile"]
        polys = {i: piece_shape(scene.pieces[i], self.pieces)[0] for i in tiles}
        for a in tiles:
            for b in tiles:
                if a < b and polys[a].intersection(polys[b]).area > 1.0:
                    return bad(f"the tiles at {at(scene.pieces[a].centre_mm)} and "
                               f"{at(scene.pieces[b].centre_mm)} overlap", (a, b))
        start_line = shapely.LineString(course.start_mm)
        pylon_poly = polys[reading.pylon_idx] if reading.pylon_idx is not None else None
        keep = s.obstacle_clear_tiles * tile
        for i in tiles:
            p = scene.pieces[i]
            if p.face != "down":
                continue
            for name, geom in (("start line", start_line), ("pylon", pylon_poly)):
                if geom is None:
                    continue
                dist = polys[i].distance(geom)
                if dist < keep - s.same_place_mm:
                    return bad(f"the obstacle at {at(p.centre_mm)} is {dist:.0f} mm from the "
                               f"{name}; obstacles keep three tile widths ({keep:.0f} mm) away",
                               (i,), p.centre_mm)
        worms: list[WormTrack] = []
        for player in self.players:
            shape = extract_worm(scene, player, self.d, s)
            problem = self._start_worm_problem(course, scene, shape, player)
            if problem is not None:
                misread = not shape.ok or len(shape.coins) != self.lengths[player]
                return bad(*problem, doubt="is a coin hidden or misread?" if misread else "")
            pts = tuple(scene.pieces[i].centre_mm for i in shape.coins)
            # the end between the start tiles is the tail: the worm sets off towards the pylon
            if course.between_start_tiles(pts[-1]) and not course.between_start_tiles(pts[0]):
                pts = pts[::-1]
            worms.append(WormTrack(player, pts, tuple(course.angle_of(p) for p in pts),
                                   len(pts)))
        strays = [i for i, p in enumerate(scene.pieces)
                  if p.kind == "coin" and p.suit not in self.players]
        if strays:
            p = scene.pieces[strays[0]]
            return bad(f"a coin at {at(p.centre_mm)} ({p.suit or 'suit unknown'}) belongs to no "
                       f"worm in the race", tuple(strays),
                       doubt="is it a misread?" if p.suit is None else "")
        for w in worms:
            for other in (x for x in scene.pieces if x.kind == "tile"):
                shape_ = piece_shape(other, self.pieces)[0]
                for c in w.coins_mm:
                    depth = self.d / 2 - shape_.distance(shapely.Point(c))
                    if depth > s.overlap_tolerance_mm:
                        return bad(f"{possessive(w.player)} coin at {at(c)} overlaps the tile at "
                                   f"{at(other.centre_mm)}", (), c)
        n_obst = sum(1 for i in tiles if scene.pieces[i].face == "down")
        gates = f", {count(len(course.gates), 'gate')}" if course.gates else ""
        reason = (f"the course is set up: start tiles {math.dist(*course.start_mm):.0f} mm "
                  f"apart, the pylon {course.pylon_distance_mm:.0f} mm away, "
                  f"{count(n_obst, 'obstacle')}{gates}, {count(len(worms), 'worm')}")
        new = replace(state, table=scene, course=course, worms=tuple(worms), turn=0, roll=None)
        return Step(new, (Verdict(seq, None, True, "ok", sentence(reason)), *notices))

    def _setup_as_it_stands(self, state: DerbyState, scene: Scene, course: Course | None,
                            seq: int, problem: str) -> Step[DerbyState] | None:
        """The course read from a table where the race has already begun (its first table was
        in doubt and the players rolled on): worms where they lie, the turn after the last
        roller's. None when the course or a worm cannot be read."""
        if course is None or state.early_roller is None:
            return None
        worms = []
        for player in self.players:
            shape = extract_worm(scene, player, self.d, self.settings)
            if not shape.ok or len(shape.coins) != self.lengths[player]:
                return None
            pts = tuple(scene.pieces[i].centre_mm for i in shape.coins)
            if course.between_start_tiles(pts[-1]) and not course.between_start_tiles(pts[0]):
                pts = pts[::-1]
            worms.append(WormTrack(player, pts, tuple(course.angle_of(p) for p in pts),
                                   len(pts)))
        turn = (self.players.index(state.early_roller) + 1) % len(self.players)
        new = replace(state, table=scene, course=course, worms=tuple(worms), turn=turn,
                      roll=None, early_roller=None)
        return Step(new, (Verdict(seq, None, True, "ok", sentence(
            f"the course is set up as the table stands now (its first reading was in doubt and "
            f"the race has begun, so {problem[0].lower() + problem[1:]} is let pass); it is "
            f"{possessive(self.players[turn])} turn to roll")),))

    def _start_worm_problem(self, course: Course, scene: Scene, shape: WormShape, player: str
                            ) -> tuple[str, tuple[int, ...], Point2 | None] | None:
        s = self.settings
        if not shape.ok:
            return (f"{possessive(player)} worm is not a chain: {shape.detail}", shape.pieces, None)
        n = len(shape.coins)
        if n != self.lengths[player]:
            return (f"{possessive(player)} worm has {n} coins; it should have "
                    f"{self.lengths[player]}",
                    shape.coins, None)
        pts = np.array([scene.pieces[i].centre_mm for i in shape.coins])
        off = straightness_mm(pts)
        if off > s.straight_mm:
            return (f"{possessive(player)} worm does not start straight (a coin is {mm(off)} "
                    f"off its "
                    f"line)", shape.coins, None)
        if n >= 2:
            dx, dy = pts[-1] - pts[0]
            ex, ey = course.along
            lean = math.degrees(math.asin(min(1.0, abs(dx * ex + dy * ey) / math.hypot(dx, dy))))
            if lean > s.perpendicular_deg:
                return (f"{possessive(player)} worm leans {lean:.0f} degrees from square to the "
                        f"start "
                        f"line; worms start perpendicular to it", shape.coins, None)
        ends = [tuple(pts[0]), tuple(pts[-1])]
        if not any(course.between_start_tiles(e) for e in ends):  # type: ignore[arg-type]
            return (f"{possessive(player)} worm has no end coin between the start "
                    f"tiles", shape.coins,
                    None)
        return None

    # ------------------------------------------------------------------ a move

    def _judge_move(self, state: DerbyState, scene: Scene, seq: int, player: str, limit: int,
                    diff: tuple[list[int], list[int]]) -> Step[DerbyState]:
        found, facts = self._judge_move_facts(state, scene, player, limit, diff)
        if facts is None:
            return Step(state, (found.verdict(seq, player),))
        return self._apply_move(state, scene, seq, player, found, facts)

    def _judge_move_facts(self, state: DerbyState, scene: Scene, player: str, limit: int,
                          diff: tuple[list[int], list[int]] | None = None
                          ) -> tuple[Judgement, MoveFacts | None]:
        s = self.settings
        assert state.table is not None and state.course is not None
        track = state.worm(player)
        # tiles and stray pieces never move on a roll
        def worm_coin(p: Piece) -> bool:
            return p.kind == "coin" and p.suit in self.players

        fixed_new_idx = [i for i, p in enumerate(scene.pieces) if not worm_coin(p)]
        gone_all, came_all = diff if diff is not None else scene_diff(
            state.table, scene, s.same_place_mm, s.same_angle_deg)
        gone = [i for i in gone_all if not worm_coin(state.table.pieces[i])]
        came = [j for j in came_all if not worm_coin(scene.pieces[j])]
        if gone or came:
            p0 = scene.pieces[came[0]] if came else state.table.pieces[gone[0]]
            return judged("obstacle", f"the {p0.kind} at {at(p0.centre_mm)} moved; on a roll of "
                                      f"{limit} only {possessive(player)} worm "
                                      f"moves", tuple(came)), None
        shape = extract_worm(scene, player, self.d, s)
        if shape.status == "split":
            stray = scene.pieces[shape.pieces[0]]
            return judged("shape", f"the {player} coin at {at(stray.centre_mm)} does not touch "
                                  f"the rest of its worm, which is split in two (touching coins "
                                  f"are at most {mm(s.touch_factor * self.d)} apart); move it "
                                  f"back against the worm", shape.pieces,
                          stray.centre_mm), None
        if not shape.ok:
            return judged("shape", f"{possessive(player)} worm "
                                   f"{shape.detail.replace(f'the {player} ', '')}"
                          if shape.status != "missing" else shape.detail, shape.pieces), None
        new_pts = [scene.pieces[i].centre_mm for i in shape.coins]
        # other worms stay; in Cannibal one may have lost an end coin
        missing_ends: dict[str, int] = {}
        others: list[tuple[Piece, int]] = []
        for w in state.worms:
            if w.player == player:
                continue
            other = extract_worm(scene, w.player, self.d, s)
            idx = list(other.coins) if other.status != "missing" else []
            if not idx and w.finished:
                continue
            pts = [scene.pieces[i].centre_mm for i in idx]
            lost = [k for k, c in enumerate(w.coins_mm)
                    if not any(math.dist(c, q) <= s.same_place_mm for q in pts)]
            extra = [i for i, q in zip(idx, pts, strict=True)
                     if not any(math.dist(c, q) <= s.same_place_mm for c in w.coins_mm)]
            if extra or len(lost) > 1 or (lost and lost[0] not in (0, len(w.coins_mm) - 1)):
                return judged("turn", f"{possessive(w.player)} worm moved, but it is "
                                      f"{possessive(player)} turn; put {possessive(w.player)} "
                                      f"worm back where it was",
                              tuple(extra) or tuple(idx), mover=w.player), None
            if lost:
                missing_ends[w.player] = 0 if lost[0] == 0 else -1
            for k, c in enumerate(w.coins_mm):
                j = next((i for i, q in zip(idx, pts, strict=True)
                          if math.dist(c, q) <= s.same_place_mm), None)
                label = j if j is not None else EATEN_LABEL - k
                others.append((Piece("coin", c[0], c[1], suit=w.player), label))
        if len(new_pts) != track.length:
            return judged("shape", f"{possessive(player)} worm has {len(new_pts)} coins; it "
                                   f"should have "
                                   f"{track.length}", shape.coins), None
        inferred = infer_move(track.coins_mm, new_pts, s.same_place_mm,
                              s.touch_factor * self.d)
        if inferred is None:
            if missing_ends:
                victim = next(iter(missing_ends))
                return judged("turn", f"a coin of {possessive(victim)} worm is gone, but "
                                      f"{possessive(player)} worm "
                                      f"did not move"), None
            return judged("turn", f"something changed, but {possessive(player)} worm did not "
                                  f"move"), None
        if isinstance(inferred, NoMove):
            return judged(inferred.rule, f"{possessive(player)} "
                                         f"{inferred.reason.removeprefix('the ')}",
                          shape.coins), None
        body = list(track.coins_mm) if inferred.forward else list(track.coins_mm)[::-1]
        problem = self.direction_problem(state, player, body)
        if problem is not None:
            return problem, None
        if inferred.steps > limit:
            extra = inferred.steps - limit
            last = shape.coins[inferred.new_order[inferred.placed_at[-1]]]
            back = "coin" if extra == 1 else f"{extra} coins"
            return judged("steps", f"{possessive(player)} worm moved {steps(inferred.steps)} on "
                                   f"a roll allowing {steps(limit)}; put the last {back} placed "
                                   f"(the head at {at(scene.pieces[last].centre_mm)}) back at "
                                   f"the tail",
                          tuple(shape.coins[inferred.new_order[i]] for i in inferred.placed_at)
                          ), None
        # the table without the moving worm, as it was during the move
        fixed = [(scene.pieces[i], i) for i in fixed_new_idx
                 if scene.pieces[i].kind not in IGNORED_KINDS]
        edible = self.edible(state, player)
        edible_labels = set()
        for victim, end in edible:
            vt = state.worm(victim)
            k = 0 if end == 0 else len(vt.coins_mm) - 1
            c = vt.coins_mm[k]
            for piece, label in others:
                if piece.suit == victim and math.dist(piece.centre_mm, c) < 1e-6:
                    edible_labels.add(label)
        world = StepWorld(fixed + others, self.pieces, s, frozenset(edible_labels))
        chain = [new_pts[i] for i in inferred.new_order]
        placed_idx = [shape.coins[inferred.new_order[i]] for i in inferred.placed_at]
        problem2, facts = self._check_steps(state, world, body, chain, inferred, placed_idx,
                                            others, missing_ends)
        if problem2 is not None:
            return problem2, None
        assert facts is not None
        if inferred.steps < limit and facts.eaten_player is None:
            possible = self._most_steps(state, world, player, limit)
            if possible > inferred.steps:
                return judged("steps", f"{possessive(player)} worm moved "
                                       f"{steps(inferred.steps)} on a roll "
                                       f"of {limit}, but {possible} were possible",
                              tuple(placed_idx)), None
        how = "" if inferred.steps == limit or facts.eaten_player else \
            f" (as many as possible on a roll of {limit})"
        ate = (f" and ate an end coin of {possessive(facts.eaten_player)} worm"
               if facts.eaten_player else "")
        return judged("ok", f"{possessive(player)} worm moved {steps(inferred.steps)}{how}{ate}",
                      tuple(placed_idx), chain[-1]), facts

    def _check_steps(self, state: DerbyState, world: StepWorld, body: list[Point2],
                     chain: list[Point2], inferred: InferredMove, placed_idx: list[int],
                     others: list[tuple[Piece, int]], missing_ends: dict[str, int]
                     ) -> tuple[Judgement | None, MoveFacts | None]:
        assert state.course is not None
        s = self.settings
        placed = [chain[i] for i in inferred.placed_at]
        passed: set[int] = set()
        eaten_player: str | None = None
        eaten_end: int | None = None
        start = 0
        if inferred.hidden:
            reach = math.dist(body[-1], placed[0])
            most = (inferred.hidden + 1) * s.touch_factor * self.d
            if reach > most:
                return judged("touch", f"the worm's new tail at {at(placed[0])} is {mm(reach)} "
                                       f"from its old head; {steps(inferred.steps)} reach at "
                                       f"most {mm(most)}", (placed_idx[0],), placed[0]), None
            hits = world.obstacles.overlapping(placed[0], self.d, s.overlap_tolerance_mm)
            if hits:
                lab = world.obstacles.labels[hits[0][1]]
                return judged("overlap", f"the {ordinal(inferred.hidden + 1)} coin overlaps "
                                         f"{world.describe(lab)}", (placed_idx[0], lab),
                              placed[0]), None
            body = [placed[0]]
            start = 1
        for i in range(start, len(placed)):
            q = placed[i]
            n = inferred.hidden + i + 1
            result = world.check(body, q)
            if result.problem is not None:
                return self._step_judged(result.problem, n, placed_idx[i]), None
            if result.eaten is not None:
                if i != len(placed) - 1:
                    return judged("cannibal", f"the {ordinal(n)} coin ate a coin, and eating "
                                              f"ends the move, but more coins followed",
                                  tuple(placed_idx[i:]), q), None
                victim = next(p.suit for p, lab in others if lab == result.eaten)
                assert victim is not None
                vt = state.worm(victim)
                end_pt = next(p.centre_mm for p, lab in others if lab == result.eaten)
                eaten_end = 0 if math.dist(vt.coins_mm[0], end_pt) < 1e-6 else -1
                if missing_ends.get(victim) != eaten_end:
                    return judged("cannibal", f"the {ordinal(n)} coin lies on "
                                              f"{possessive(victim)} end coin"
                                              f" but that coin was not taken away",
                                  (placed_idx[i],), q), None
                eaten_player = victim
            for gate, right in self.gate_passes(state.course, body[-1], q):
                g = state.course.gates[gate]
                if not right:
                    side = "right" if g.colour == "red" else "left"
                    return judged("gate", f"the {ordinal(n)} coin takes the worm past the "
                                          f"{g.colour} gate at {at(g.centre_mm)} on the wrong "
                                          f"side; pass {side} of {g.colour} tiles",
                                  (placed_idx[i],), g.centre_mm), None
                passed.add(gate)
            body = [*body[1:], q]
        unexplained = set(missing_ends) - ({eaten_player} if eaten_player else set())
        if unexplained:
            victim = next(iter(unexplained))
            return judged("turn", f"a coin of {possessive(victim)} worm is gone, but no worm "
                                  f"ate it"), None
        return None, MoveFacts(tuple(chain), len(placed), eaten_player, eaten_end,
                               frozenset(passed))

    def _step_judged(self, problem: StepProblem, n: int, placed_index: int) -> Judgement:
        return judged(problem.rule, f"the {ordinal(n)} coin {problem.what}",
                      (placed_index, *problem.labels), problem.where_mm)

    def _most_steps(self, state: DerbyState, world: StepWorld, player: str, limit: int) -> int:
        track = state.worm(player)
        best = 0
        for body in (list(track.coins_mm), list(track.coins_mm)[::-1]):
            if self.direction_problem(state, player, body) is not None:
                continue
            best = max(best, len(world.longest_move(body, limit)))
            if best >= limit:
                break
        return best

    def _world_for(self, state: DerbyState, player: str) -> StepWorld:
        """The table without the player's worm (labels are indices into the table)."""
        assert state.table is not None
        items = [(p, i) for i, p in enumerate(state.table.pieces)
                 if p.kind not in IGNORED_KINDS and not (p.kind == "coin" and p.suit == player)]
        return StepWorld(items, self.pieces, self.settings)

    def _can_step(self, state: DerbyState, player: str) -> bool:
        return self._most_steps(state, self._world_for(state, player), player, 1) >= 1

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
        new = replace(state, table=scene)
        if new_track.rounded and course.between_start_tiles(chain[-1]) and head_angle >= back:
            missing = [i for i in range(len(course.gates)) if i not in new_track.gates]
            if missing:
                g = course.gates[missing[0]]
                outputs.append(_notice(seq, f"{player} is between the start tiles but has not "
                                           f"passed the {g.colour} gate at {at(g.centre_mm)}",
                                      "warning"))
            else:
                new_track = replace(new_track, finished=True)
                place = len(state.places) + 1
                new = replace(new, places=(*state.places, player))
                outputs.append(Finish(player, place, seq))
                if place == 1:
                    outputs.append(Winner(player, seq))
        new = new.with_worm(new_track)
        if facts.eaten_player is not None:
            victim = new.worm(facts.eaten_player)
            assert facts.eaten_end is not None
            coins = victim.coins_mm[1:] if facts.eaten_end == 0 else victim.coins_mm[:-1]
            ang = victim.angles_rad[1:] if facts.eaten_end == 0 else victim.angles_rad[:-1]
            new = new.with_worm(replace(victim, coins_mm=coins, angles_rad=ang,
                                        length=victim.length - 1, eaten=victim.eaten + 1))
        new = self.after_move(new, player, facts)
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

    # ------------------------------------------------------------------ an ace

    def _judge_obstacle_move(self, state: DerbyState, scene: Scene, player: str
                             ) -> tuple[Judgement, DerbyState]:
        assert state.table is not None and state.course is not None
        s, tile = self.settings, self.pieces.tile_mm
        gone, came = scene_diff(state.table, scene, s.same_place_mm, s.same_angle_deg)
        old_p = [state.table.pieces[i] for i in gone]
        new_p = [scene.pieces[j] for j in came]
        if any(p.kind == "tile" and p.face == "up" for p in old_p + new_p):
            return judged("obstacle", "the start tiles, the pylon and the gates never move",
                          tuple(came)), state
        if len(old_p) != 1 or len(new_p) != 1 or old_p[0].kind != "tile" or \
                new_p[0].kind != "tile":
            return judged("obstacle", f"after an ace only one obstacle may move (at most one "
                                      f"tile width), then {player} rolls again", tuple(came)
                          ), state
        dist = math.dist(old_p[0].centre_mm, new_p[0].centre_mm)
        if dist > tile + s.same_place_mm:
            return judged("obstacle", f"the obstacle moved {dist:.0f} mm; an ace moves it at most"
                                      f" one tile width ({tile:.1f} mm)", tuple(came),
                          new_p[0].centre_mm), state
        poly = piece_shape(new_p[0], self.pieces)[0]
        for i, p in enumerate(scene.pieces):
            if i == came[0] or p.kind in IGNORED_KINDS:
                continue
            shape, radius = piece_shape(p, self.pieces)
            depth = radius - poly.distance(shape) if radius else (
                poly.intersection(shape).area ** 0.5)
            if depth > s.overlap_tolerance_mm:
                return judged("overlap", f"the moved obstacle at {at(new_p[0].centre_mm)} "
                                         f"overlaps the {p.kind} at {at(p.centre_mm)}",
                              (came[0], i), new_p[0].centre_mm), state
        new = replace(state, table=scene, roll="again")
        return judged("ok", f"{player} moved the obstacle at {at(old_p[0].centre_mm)} by "
                            f"{dist:.0f} mm; roll again", (came[0],), new_p[0].centre_mm), new
