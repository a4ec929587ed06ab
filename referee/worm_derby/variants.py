"""Worm Derby variants as subclasses overriding hooks: Slalom, Cannibal worms, and both.

- **Slalom**: coloured gate tiles; pass right of red (suns) tiles and left of blue (arms)
  tiles, relative to the worm's travel; an ace is one step; no obstacle ever moves.
- **Cannibal worms**: a step may overlay an end coin of another worm of length three or more,
  eating it (the coin is taken off the table) and ending the move; the eaten worm must next
  move away from the attacker and may not attack it on its next turn; no worm moves more steps
  than its length; an ace may return an eaten coin to one end of the worm, then roll again.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import replace

from referee.base import Judgement, Step
from referee.worm_derby.course import GATE_COLOURS, Course, CourseReading
from referee.worm_derby.game import WormDerby, variant
from referee.worm_derby.judging import judged
from referee.worm_derby.move_rules import MoveCheck, MoveFacts, PlacedCoin, Walk
from referee.worm_derby.reading import STAYED_SHARE
from referee.worm_derby.rules import Rule
from referee.worm_derby.state import DerbyState, WormTrack
from referee.worm_derby.steps import StepWorld
from referee.worm_derby.table import scene_diff
from referee.worm_derby.words import at, ordinal, possessive, sentence
from referee.worm_derby.worms import extract_worm
from tabletop.events import Doubt, Event, Notice
from tabletop.scene import Point2, Scene

variant(WormDerby)


@variant
class Slalom(WormDerby):
    """Slalom: gates to pass on the right side; an ace is one step."""

    variant_name = "slalom"

    def read_course(self, scene: Scene, worm_ends_mm: Sequence[Point2], strict: bool = False
                    ) -> CourseReading:
        """The course has gates: every face-up tile besides the start tiles and the pylon
        (one of no gate's suit is an obstacle, unless ``strict``)."""
        return self._course(scene, worm_ends_mm, gates=True, strict=strict)

    def judge_step(self, move: MoveCheck, coin: PlacedCoin, walk: Walk) -> Judgement | None:
        """``gate``: a step passes each gate on its side (right of red, left of blue)."""
        course = move.state.course
        assert course is not None
        for gate, right in self.gate_passes(course, coin.head_mm, coin.at_mm):
            g = course.gates[gate]
            if g.colour is None:  # (judged once per colour it may have: _judge_scene)
                continue
            if not right:
                side = "right" if g.colour == "red" else "left"
                return judged(Rule.GATE, f"the {ordinal(coin.n)} coin takes the worm past the "
                                         f"{g.colour} gate at {at(g.centre_mm)} on the wrong "
                                         f"side; pass {side} of {g.colour} tiles",
                              (coin.index,), g.centre_mm)
            walk.gates.add(gate)
        return super().judge_step(move, coin, walk)

    def not_finished_yet(self, course: Course, track: WormTrack) -> str:
        """A worm finishes once it has passed every gate the right way."""
        missing = [i for i in range(len(course.gates)) if i not in track.gates]
        if not missing:
            return super().not_finished_yet(course, track)
        g = course.gates[missing[0]]
        return f"has not passed the {g.name} at {at(g.centre_mm)}"

    def ace_steps(self, state: DerbyState, player: str) -> int | None:
        """An ace is one step."""
        return 1

    def judge_ace_scene(self, state: DerbyState, scene: Scene, player: str
                        ) -> tuple[Judgement, DerbyState]:
        """No obstacle ever moves in Slalom."""
        return judged(Rule.OBSTACLE, "in Slalom no obstacle moves"), state

    def _each_colouring(self, state: DerbyState, scene: Scene, seq: int
                        ) -> list[tuple[Step[DerbyState], str]]:
        """``scene`` judged with each colour the gates whose suit is not read may have, and
        the colours in words ("red", "red and blue"...)."""
        course = state.course
        assert course is not None
        out = []
        for colours in itertools.product(("red", "blue"), repeat=len(course.unknown_gates)):
            c = course
            for k, colour in zip(course.unknown_gates, colours, strict=True):
                c = c.with_gate_colour(k, colour)
            out.append((super()._judge_scene(replace(state, course=c), scene, seq),
                        " and ".join(colours)))
        return out

    def _judge_scene(self, state: DerbyState, scene: Scene, seq: int) -> Step[DerbyState]:
        """A move judged on a course with a gate whose suit is not read: a foul found without
        that gate (it only adds fouls) is called; a move legal without it is judged with each
        colour the gate may have, and when one of them makes it a foul the verdict depends on
        the gate's colour: a doubt naming the gate, never a foul."""
        course = state.course
        neutral = super()._judge_scene(state, scene, seq)  # (judge_step skips that gate)
        if course is None or not course.unknown_gates or \
                not all(v.legal for v in neutral.verdicts):
            return neutral
        steps = self._each_colouring(state, scene, seq)
        if all(all(v.legal for v in st.verdicts) for st, _ in steps):
            return neutral  # (the gate was not passed)
        if state.doubted is not None and state.doubted[1] == scene:
            return Step(state)  # read again the same: the table was asked already
        player = self.players[state.turn]
        legal = [words for st, words in steps if all(v.legal for v in st.verdicts)]
        gates = [course.gates[k] for k in course.unknown_gates]
        where = " and ".join(at(g.centre_mm) for g in gates)
        only = f"; it is legal only if that gate is {legal[0]}" if len(legal) == 1 else ""
        return Step(replace(state, doubted=(seq, scene), doubted_read=scene), (Doubt(
            seq, player, (), gates[0].centre_mm, sentence(
                f"{possessive(player)} move passes the gate at {where}, whose suit is not "
                f"read{only}: is it red (suns) or blue (arms)?")),))

    def stood_track(self, state: DerbyState, scene: Scene, seq: int, player: str
                    ) -> WormTrack | None:
        """A move asked about only for a gate whose suit is not read stands, once the players
        go on, as the colour that makes it legal would judge it (the gate passed)."""
        course = state.course
        if course is None or not course.unknown_gates:
            return None
        steps = [st for st, _ in self._each_colouring(state, scene, seq)]
        legal = [st for st in steps if st.verdicts and all(v.legal for v in st.verdicts)]
        if len(legal) != 1 or len(legal) == len(steps):
            return None
        return legal[0].state.worm(player)

    def reread_course(self, state: DerbyState, scene: Scene, seq: int
                      ) -> tuple[DerbyState, tuple[Event, ...]]:
        """A gate whose suit was not read takes its colour from a reading that shows its tile
        (face up, where it lies) with a gate's suit (suns: red, arms: blue)."""
        course = state.course
        if course is None or not course.unknown_gates:
            return state, ()
        near = STAYED_SHARE * self.d
        told: list[Event] = []
        for k in course.unknown_gates:
            g = course.gates[k]
            suits = {p.suit for p in scene.pieces if p.kind == "tile" and p.face == "up"
                     and math.dist(p.centre_mm, g.centre_mm) <= near
                     and GATE_COLOURS.get(p.suit or "")}
            if len(suits) != 1:
                continue
            suit = suits.pop()
            assert suit is not None
            course = course.with_gate_colour(k, GATE_COLOURS[suit])
            told.append(Notice(seq, sentence(
                f"the gate tile at {at(g.centre_mm)} reads {suit} now: it is a "
                f"{GATE_COLOURS[suit]} gate, and moves past it are judged"), "info"))
        if not told:
            return state, ()
        return replace(state, course=course), tuple(told)

    def gate_passes(self, course: Course, head: Point2, placed: Point2
                    ) -> list[tuple[int, bool]]:
        """A step passes a gate when the gate comes abeam of the head during it (within
        ``gate_reach_tiles``): red must then be on the worm's left (the worm passes right of
        it), blue on its right, as seen from above (``y_axis_down`` says how the frame
        turns)."""
        ux, uy = placed[0] - head[0], placed[1] - head[1]
        n = math.hypot(ux, uy)
        if n < 1e-9:
            return []
        ux, uy = ux / n, uy / n
        reach = self.settings.gate_reach_tiles * course.tile_mm
        out = []
        for k, g in enumerate(course.gates):
            gx, gy = g.centre_mm
            before = (gx - head[0]) * ux + (gy - head[1]) * uy
            after = (gx - placed[0]) * ux + (gy - placed[1]) * uy
            if not (before > 0 >= after):
                continue
            lateral = ux * (gy - head[1]) - uy * (gx - head[0])  # > 0: left when y is up
            if abs(lateral) > reach:
                continue
            on_left = lateral < 0 if self.settings.y_axis_down else lateral > 0
            out.append((k, on_left if g.colour == "red" else not on_left))
        return out


@variant
class Cannibal(WormDerby):
    """Cannibal worms: eating end coins of worms of length three or more."""

    variant_name = "basic"
    cannibal = True

    def step_limit(self, track: WormTrack, roll: int) -> int:
        """No worm moves more steps than its length."""
        return min(roll, track.length)

    def edible(self, state: DerbyState, player: str) -> set[tuple[str, int]]:
        """End coins of other unfinished worms of three coins or more, but not of a worm the
        player was just eaten by (the truce)."""
        out: set[tuple[str, int]] = set()
        for w in state.worms:
            if w.player == player or w.finished or len(w.coins_mm) < 3:
                continue
            if (player, w.player) in state.truce:
                continue
            out |= {(w.player, 0), (w.player, -1)}
        return out

    def direction_problem(self, state: DerbyState, player: str, body: list[Point2]
                          ) -> Judgement | None:
        """A bitten worm must next move away from its attacker: its head is the end farther
        from the attacker's worm."""
        for victim, attacker in state.flee:
            if victim != player:
                continue
            coins = state.worm(attacker).coins_mm
            if not coins:
                continue

            def gap(p: Point2, coins: tuple[Point2, ...] = coins) -> float:
                return min(math.dist(p, c) for c in coins)

            if gap(body[-1]) < gap(body[0]):
                return judged(Rule.DIRECTION, f"{possessive(player)} worm was eaten by "
                                              f"{possessive(attacker)} and must "
                                              f"move away from it, leading with its end at "
                                              f"{at(body[0])}", (), body[-1])
        return None

    def may_lose_one(self, state: DerbyState, mover: str | None) -> frozenset[str]:
        """Any worm but the mover's may lose an end coin to it."""
        return frozenset(p for p in self.players if p != mover)

    def may_gain_one(self, state: DerbyState) -> frozenset[str]:
        """After an ace, a worm with an eaten coin may get it back."""
        return frozenset(w.player for w in state.worms if w.eaten) if state.roll == "ace" \
            else frozenset()

    def judge_step(self, move: MoveCheck, coin: PlacedCoin, walk: Walk) -> Judgement | None:
        """``cannibal``: a coin laid on an edible end coin eats it, and that ends the move; the
        coin eaten must be gone from the table."""
        if coin.eaten is not None:
            if not coin.last:
                return judged(Rule.CANNIBAL, f"the {ordinal(coin.n)} coin ate a coin, and eating "
                                             f"ends the move, but more coins followed",
                              tuple(move.placed_idx[coin.i:]), coin.at_mm)
            others = move.others.coins
            victim = next(p.suit for p, lab in others if lab == coin.eaten)
            assert victim is not None
            vt = move.state.worm(victim)
            end_pt = next(p.centre_mm for p, lab in others if lab == coin.eaten)
            eaten_end = 0 if math.dist(vt.coins_mm[0], end_pt) < 1e-6 else -1
            if move.others.missing_ends.get(victim) != eaten_end:
                return judged(Rule.CANNIBAL, f"the {ordinal(coin.n)} coin lies on "
                                             f"{possessive(victim)} end coin"
                                             f" but that coin was not taken away",
                              (coin.index,), coin.at_mm)
            walk.eaten_player, walk.eaten_end = victim, eaten_end
        return super().judge_step(move, coin, walk)

    def after_move(self, state: DerbyState, player: str, facts: MoveFacts) -> DerbyState:
        """The coin eaten goes aside; the mover's fleeing and truce end with its move; a bite
        starts new ones."""
        if facts.eaten_player is not None:
            victim = state.worm(facts.eaten_player)
            assert facts.eaten_end is not None
            coins = victim.coins_mm[1:] if facts.eaten_end == 0 else victim.coins_mm[:-1]
            ang = victim.angles_rad[1:] if facts.eaten_end == 0 else victim.angles_rad[:-1]
            state = state.with_worm(replace(victim, coins_mm=coins, angles_rad=ang,
                                            length=victim.length - 1, eaten=victim.eaten + 1))
        flee = tuple(f for f in state.flee if f[0] != player)
        truce = tuple(t for t in state.truce if t[0] != player)
        if facts.eaten_player is not None:
            flee = (*flee, (facts.eaten_player, player))
            truce = (*truce, (facts.eaten_player, player))
        return replace(state, flee=flee, truce=truce)

    def ace_steps(self, state: DerbyState, player: str) -> int | None:
        """An ace returns an eaten coin or moves an obstacle, then the player rolls again."""
        return None

    def judge_ace_scene(self, state: DerbyState, scene: Scene, player: str
                        ) -> tuple[Judgement, DerbyState]:
        """After an ace: an eaten coin back at one end of the worm, or an obstacle moved."""
        assert state.table is not None
        s = self.settings
        track = state.worm(player)
        gone, came = scene_diff(state.table, scene, s.same_place_mm, s.same_angle_deg)
        new_coins = [j for j in came if scene.pieces[j].kind == "coin"
                     and scene.pieces[j].suit == player]
        if gone or len(came) != 1 or len(new_coins) != 1:
            return super().judge_ace_scene(state, scene, player)
        if track.eaten <= 0:
            return judged(Rule.CANNIBAL, f"{possessive(player)} worm has no eaten coin to return",
                          tuple(came)), state
        shape = extract_worm(scene, player, self.d, s)
        q = scene.pieces[new_coins[0]].centre_mm
        if not shape.ok:
            return judged(Rule.SHAPE, f"the returned coin at {at(q)} does not make one chain",
                          tuple(came), q), state
        pts = [scene.pieces[i].centre_mm for i in shape.coins]
        if math.dist(pts[0], q) < 1e-9:
            pts = pts[::-1]
        if math.dist(pts[-1], q) > 1e-9:
            return judged(Rule.SHAPE, f"an eaten coin returns to an end of the worm, not to "
                                      f"{at(q)}", tuple(came), q), state
        body = [(math.inf, math.inf), *pts[:-1]]
        items = [(p, i) for i, p in enumerate(scene.pieces)
                 if i != new_coins[0] and not (p.kind == "coin" and p.suit == player)
                 and p.kind not in ("die", "pawn")]
        world = StepWorld(items, self.pieces, s)
        result = world.check(body, q)
        if result.problem is not None:
            return judged(result.problem.rule, f"the returned coin {result.problem.reason}",
                          (new_coins[0], *result.problem.pieces), q), state
        course = state.course
        assert course is not None
        angles = (*track.angles_rad, track.angles_rad[-1]) if track.angles_rad else (0.0,)
        if pts[:-1] and math.dist(pts[0], track.coins_mm[0]) > s.same_place_mm:
            angles = (track.angles_rad[0], *track.angles_rad)
        back = replace(track, coins_mm=tuple(pts), angles_rad=self._angles_like(
            course, replace(track, angles_rad=angles), tuple(pts)), length=track.length + 1,
            eaten=track.eaten - 1)
        new = replace(state.with_worm(back), table=scene, roll="again")
        return judged(Rule.OK, f"{player} returned an eaten coin to its worm at {at(q)}; roll "
                               f"again", (new_coins[0],), q), new


@variant
class SlalomCannibal(Cannibal, Slalom):
    """Slalom with cannibal worms: an ace returns an eaten coin when the worm has one, else it
    is one step."""

    variant_name = "slalom"
    cannibal = True

    def ace_steps(self, state: DerbyState, player: str) -> int | None:
        """One step, unless the worm has an eaten coin to return."""
        return None if state.worm(player).eaten > 0 else 1



