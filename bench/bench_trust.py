"""Trust: whole rendered playthroughs through the real pipeline, verdicts scored against truth.

Run by hand (``make bench``)::

    .venv/bin/python bench/bench_trust.py [--seed N] [--plays K] [--games worm-derby,...]

Each playthrough is made by the project's renderer (:mod:`tabletop.render`): a table and a light
drawn from the seed by ``tabletop.render.variety`` (``--table``, ``--light`` pin them), a lamp
dimmed or switched off between turns (window light only), camera noise, a hand over the table
while pieces move, and illegal moves of every kind the renderer can show planted and then put
right (Worm Derby: ``steps``, ``turn``, a move after a null, ``shape``, ``direction``,
``obstacle``, ``overlap``, ``gap``; Worm Up!: ``steps``, ``order``; Jungle: ``steps``,
``water``, ``turn``; ``--every-foul`` adds Worm Up! ``turn``, ``tail``, ``shape``, ``post`` and
Jungle ``den``, ``jump``, ``capture``, see :data:`FOULS_UP`, :data:`FOULS_JUNGLE`).
For ``gap`` the course has a :class:`Wall` of three turned
obstacles corner to corner across the lanes: a gap of 14.5 to 18.5 mm on the first worm's lane,
which it squeezes through once its head reaches it (the foul; then it goes round the wall), and
one of 23 to 26 mm on the second's, which it passes legally (coins touching tiles on both
sides). The frames go through the same code as
``tabletop replay``: :func:`live.vision_glue.load_vision`, :func:`live.pipeline.run_sync` (each
frame repeated as ``--repeat`` does), a :class:`live.table.Table` with its log.

Prints ``name=value`` lines per game (``worm-derby.basic.false_alarms=0``) and in total:

- ``verdicts_right``: tables and rolls judged as the truth says (right legality, player, rule);
- ``false_alarms``: illegal verdicts where the truth is legal (or another rule or player);
- ``missed_fouls``: planted fouls with no illegal verdict of their rule and player;
- ``missed_fouls_doubted``: of those, the ones where the table was doubted (not passed over);
- ``verdicts_missing``: legal moves never judged (the table never seen still, or doubted);
- ``doubts_raised``, ``doubts_real``: doubts, and those where the reading really was wrong;
- ``readings_wrong``: still tables whose reading differs from the truth (vision's share);
- ``exact_right``, ``exact_total``: the same playthroughs as exact records (no camera);
- ``gap_coins_read``, ``gap_coins_total``: coins of a worm through a gap with coins touching
  tiles on both sides, read by vision (one still per seed, :func:`gap_coins`);
- ``frames``, ``wall_s``, ``cpu_s``.

``--misread P`` skips rendering and vision: the exact records, each still read twice and each
reading misread with chance ``P`` (a piece not seen, or a piece 3 mm off), go through
the same table, read twice as the pipeline reads (:func:`live.read_twice.merge_readings`);
``--same-miss`` makes the second reading lack what the first lacked. ``--suit-misread Q``
(alone or beside ``--misread``) reads, with chance ``Q`` per reading, one coin (a Worm Up!
segment) as the suit (colour) of another on the table; with ``--same-miss`` the second reading
misreads it alike. The referee's share of trust in seconds, on as many seeds as wanted.
``--games worm-derby`` names its three variants.

The seeds of ``--seed`` were never used to tune anything; the test suite runs a short version
(``tests/referee/test_trust.py``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from referee.record import fold
from referee.worm_derby.reading import tile_distance
from referee.worm_derby.steps import StepWorld
from tabletop.events import Doubt, Event, Roll, SceneSeen, Setup, Verdict
from tabletop.pieceset import PieceSet
from tabletop.render import CameraPose, Decal, RenderSettings, render_scene
from tabletop.scene import Piece, Point2, Scene

if TYPE_CHECKING:
    from live.table import Table

PIECES = PieceSet()
D = PIECES.coin_diameter_mm
T = PIECES.tile_mm

# --------------------------------------------------------------------------- a playthrough


@dataclass(frozen=True)
class Expect:
    """What the referee must say on a still table or an event: ``rule`` ``ok`` or a foul's."""

    player: str | None
    rule: str

    @property
    def legal(self) -> bool:
        """True for ``ok``."""
        return self.rule == "ok"


@dataclass(frozen=True)
class Say:
    """An input event typed at the table (the setup, a roll)."""

    event: Event
    expect: Expect | None = None


@dataclass(frozen=True)
class Still:
    """A still table shown for ``frames`` renders; ``expect`` None: nothing to judge."""

    scene: Scene
    expect: Expect | None
    label: str
    frames: int = 2


@dataclass(frozen=True)
class Motion:
    """A hand over the table (pieces moving): ``scene`` is what lies on the table."""

    scene: Scene
    target_mm: Point2


Step = Say | Still | Motion


@dataclass
class Playthrough:
    """A whole game to render: its steps, the camera, the printed sheets, and light changes."""

    name: str
    steps: list[Step]
    pose: CameraPose
    decals: list[Decal] = field(default_factory=list)
    light_at: dict[int, str] = field(default_factory=dict)  # step index -> light from there
    to_world: Any = None  # scene (the game's frame) -> scene on the table, for the renderer
    calibrate: str | None = None  # "jungle-board": calibrated from the board's markers
    wall: Any = None  # Worm Derby with gap fouls: the :class:`Wall` of its course

    @property
    def setup(self) -> Setup:
        """The setup event (the first step)."""
        first = self.steps[0]
        assert isinstance(first, Say) and isinstance(first.event, Setup)
        return first.event

    def record(self) -> list[Event]:
        """The exact game record (each still table once)."""
        out: list[Event] = []
        last = None
        for s in self.steps:
            if isinstance(s, Say):
                out.append(s.event)
            elif isinstance(s, Still) and s.scene != last:
                out.append(SceneSeen(s.scene))
                last = s.scene
        return out


# --------------------------------------------------------------------------- Worm Derby

START_X, LANE_Y, PYLON_AT = 330.0, 150.0, 500.0


def _pose() -> CameraPose:
    return CameraPose.looking_at((445.0, 150.0), 950.0, 12.0, 0.0, (1280, 720), 62.0)


def _mat() -> list[Decal]:
    from calibration.mat import make_mat

    sheet = make_mat(paper="a4", dpi=150)
    w, h = sheet.size_mm
    return [Decal(np.asarray(sheet.image_bgr), (w, h), (w / 2.0, h / 2.0), 0.0)]


GATE_MARGIN_MM = 4.0
"""A legal step of the true table keeps this far from passing a Slalom gate (measuring noise)."""


TOUCH_CLEAR = 1.2
"""A legal step keeps its coin this many coin widths from its worm's body (the referee's
touching coins; it calls a touch only nearer than that less the measuring noise)."""


class DerbyTable:
    """The true Worm Derby table: fixed tiles and worms (tail first, head last)."""

    def __init__(self, tiles: list[Piece], worms: dict[str, list[Point2]],
                 max_x: float = START_X + PYLON_AT + 80, gates: tuple[Point2, ...] = ()) -> None:
        self.tiles = list(tiles)
        self.worms = {k: list(v) for k, v in worms.items()}
        self.max_x = max_x  # Slalom: the worms keep short of the gate
        self.gates = gates  # Slalom: no step comes abeam of a gate

    def copy(self) -> DerbyTable:
        """An independent copy."""
        return DerbyTable(self.tiles, self.worms, self.max_x, self.gates)

    def passes_gate(self, head: Point2, q: Point2) -> bool:
        """Whether a step from ``head`` to ``q`` comes abeam of a gate within the reach the
        referee counts as passing it (:meth:`referee.worm_derby.variants.Slalom.gate_passes`),
        on either side, or within a few millimetres of that (a reading of the coins a little
        off must not make the step pass it)."""
        ux, uy = q[0] - head[0], q[1] - head[1]
        n = math.hypot(ux, uy)
        ux, uy = ux / n, uy / n
        for gx, gy in self.gates:
            before = (gx - head[0]) * ux + (gy - head[1]) * uy
            after = (gx - q[0]) * ux + (gy - q[1]) * uy
            lateral = ux * (gy - head[1]) - uy * (gx - head[0])
            if before > -GATE_MARGIN_MM and after <= GATE_MARGIN_MM and \
                    abs(lateral) <= 2.5 * T + GATE_MARGIN_MM:
                return True
        return False

    def scene(self, hand: bool = False) -> Scene:
        """The table as a scene."""
        coins = [Piece("coin", round(x, 2), round(y, 2), suit=p)
                 for p, w in self.worms.items() for x, y in w]
        return Scene((*self.tiles, *coins), hand=hand)

    def clear(self, q: Point2, player: str, skip: set[int] | None = None,
              margin_mm: float = 2.0) -> bool:
        """A coin at ``q`` keeps clear of every other piece (its own head may touch it), and
        ``margin_mm`` clear of every tile."""
        for p, w in self.worms.items():
            for i, c in enumerate(w):
                if p == player and skip is not None and i in skip:
                    continue
                if math.dist(c, q) < D + 1.5:
                    return False
        if not (START_X - 60 < q[0] < self.max_x and -40 < q[1] < 340):
            return False
        return all(tile_distance(q, t, T) > D / 2 + margin_mm for t in self.tiles)

    def world(self, player: str) -> StepWorld:
        """The referee's geometry of everything but the player's worm."""
        items = [(t, i) for i, t in enumerate(self.tiles)]
        n = len(items)
        for p, w in self.worms.items():
            if p != player:
                items += [(Piece("coin", x, y, suit=p), n + k) for k, (x, y) in enumerate(w)]
                n += len(w)
        return StepWorld(items, PIECES)

    def step(self, player: str, rng: random.Random, aim: Point2) -> Point2 | None:
        """Moves the tail coin to touch the head, turning toward ``aim``; None: no room."""
        body = self.worms[player]
        head, prev = body[-1], body[-2]
        straight = math.atan2(head[1] - prev[1], head[0] - prev[0])
        want = math.atan2(aim[1] - head[1], aim[0] - head[0])
        turn = (want - straight + math.pi) % (2 * math.pi) - math.pi
        base = straight + max(-0.35, min(0.35, turn)) + rng.uniform(-0.15, 0.15)
        world = self.world(player)
        for k in range(0, 13):
            for sign in ((1, -1) if k else (1,)):
                a = base + sign * k * 0.13
                q = (head[0] + D * math.cos(a), head[1] + D * math.sin(a))
                if not self.clear(q, player, {len(body) - 1, 0}):
                    continue
                if world.check(body, q).problem is not None or self.passes_gate(head, q) \
                        or any(math.dist(q, c) <= TOUCH_CLEAR * D for c in body[1:-1]):
                    continue
                self.worms[player] = [*body[1:], q]
                return q
        return None

    def move(self, player: str, n: int, rng: random.Random, aim: Point2) -> list[Point2] | None:
        """``n`` steps, or None (the table unchanged) when there is no room."""
        saved = list(self.worms[player])
        placed = []
        for _ in range(n):
            q = self.step(player, rng, aim)
            if q is None:
                self.worms[player] = saved
                return None
            placed.append(q)
        return placed


def _aim(player: str, players: list[str]) -> Point2:
    side = -1 if players.index(player) == 0 else 1
    return (START_X + PYLON_AT - 40.0, LANE_Y + side * 95.0)


@dataclass(frozen=True)
class Wall:
    """Three face-down tiles turned 45 degrees in a row across the lanes, corner to corner: a
    narrow gap (``narrow_mm``, narrower than a coin) on the first worm's lane and a wide one
    (``wide_mm``, a coin passes with a few millimetres to spare) on the second's."""

    x_mm: float
    narrow_y_mm: float
    narrow_mm: float
    wide_mm: float

    @property
    def half_diagonal_mm(self) -> float:
        """From a turned tile's centre to its corner."""
        return T / math.sqrt(2.0)

    @property
    def wide_y_mm(self) -> float:
        """The middle of the wide gap."""
        return self.narrow_y_mm + self.narrow_mm / 2 + 2 * self.half_diagonal_mm + \
            self.wide_mm / 2

    @property
    def ends_y_mm(self) -> tuple[float, float]:
        """The outer corners of the wall (its top and bottom)."""
        h = self.half_diagonal_mm
        return (self.narrow_y_mm - self.narrow_mm / 2 - 2 * h,
                self.wide_y_mm + self.wide_mm / 2 + 2 * h)

    def tiles(self) -> list[Piece]:
        """The three tiles."""
        h, x = self.half_diagonal_mm, self.x_mm
        return [Piece.tile(x, y, 45.0, "down") for y in (
            self.narrow_y_mm - self.narrow_mm / 2 - h, self.narrow_y_mm + self.narrow_mm / 2 + h,
            self.wide_y_mm + self.wide_mm / 2 + h)]

    def mouth(self, narrow: bool) -> Point2:
        """Where a worm's head stops in front of a gap, one half coin short of its corners."""
        return (self.x_mm - D / 2 - 0.5, self.narrow_y_mm if narrow else self.wide_y_mm)


def _wall(rng: random.Random) -> Wall:
    return Wall(560.0 + rng.uniform(-8, 8), 95.0 + rng.uniform(-4, 4), rng.uniform(14.5, 18.5),
                rng.uniform(23.0, 26.0))


def _course(rng: random.Random, variant: str, wall: Wall | None = None) -> list[Piece]:
    tiles = [Piece.tile(START_X, LANE_Y - 2 * T, 0.0, "up", "crowns"),
             Piece.tile(START_X, LANE_Y + 2 * T, 0.0, "up", "arms"),
             Piece.tile(START_X + PYLON_AT, LANE_Y, 0.0, "up", "suns")]
    if variant == "slalom":
        tiles.append(Piece.tile(START_X + 400.0, LANE_Y + 120.0 + rng.uniform(-6, 6),
                                rng.uniform(0, 20), "up", "suns"))
    spots = [(545.0, 30.0), (545.0, 290.0), (628.0, -12.0), (628.0, 312.0)]
    rng.shuffle(spots)
    if wall is not None:  # the wall stands where the first two spots would be
        tiles += wall.tiles()
        spots = [xy for xy in spots if xy[0] > 600.0]
    for x, y in spots[:3]:
        tiles.append(Piece.tile(x + rng.uniform(-8, 8), y + rng.uniform(-8, 8),
                                rng.uniform(0, 89), "down"))
    return tiles


FOULS_DERBY = ("steps", "turn", "shape", "direction", "obstacle", "turn_after_null", "overlap",
               "gap")


def worm_derby(seed: int, variant: str = "basic", cannibal: bool = False, turns: int = 10,
               fouls: tuple[str, ...] = FOULS_DERBY, still_frames: int = 2) -> Playthrough:
    """A Worm Derby playthrough: two worms, ``turns`` turns, each planted foul once."""
    rng = random.Random(seed)
    players = ["suns", "moons"]
    length = rng.choice([4, 5])
    options: dict[str, Any] = {"variant": variant, "cannibal": cannibal,
                               "lengths": {p: length for p in players}}
    wall = _wall(rng) if "gap" in fouls else None
    tiles = _course(rng, variant, wall)
    worms = {p: [(START_X + (length - 1 - i) * D, LANE_Y + s * 28.0) for i in range(length)][::-1]
             for p, s in zip(players, (-1, 1), strict=True)}
    table = DerbyTable(tiles, worms, START_X + 330.0 if variant == "slalom" else
                       START_X + PYLON_AT + 80,
                       tuple(t.centre_mm for t in tiles[3:] if t.face == "up"))
    steps: list[Step] = [Say(Setup("worm-derby", tuple(players), options))]
    steps.append(Still(table.scene(), Expect(None, "ok"), "setup", still_frames))
    light_at: dict[int, str] = {}
    plan = list(fouls) + ["legal"] * max(0, turns - len(fouls))
    if variant != "slalom":
        plan[rng.randrange(len(fouls), len(plan))] = "ace" if len(plan) > len(fouls) else "legal"
    rng.shuffle(plan)
    if plan[0] != "legal":  # the first turn is a plain one
        k = plan.index("legal") if "legal" in plan else 0
        plan[0], plan[k] = plan[k], plan[0]
    turn = 0

    def hand(scene: Scene, at: Point2) -> None:
        steps.append(Motion(replace(scene, hand=True), at))

    def still(expect: Expect | None, label: str) -> None:
        steps.append(Still(table.scene(), expect, label, still_frames))

    gap_done = [wall is None]

    def aim(p: str) -> Point2:
        """Where a worm heads: through the wall's gap on its lane (the first worm only until
        its gap foul was planted, then round the wall's top end), else toward the pylon."""
        if wall is None or table.worms[p][-1][0] > wall.x_mm + D:
            return _aim(p, players)
        first = players.index(p) == 0
        if first and gap_done[0]:
            return (wall.x_mm, wall.ends_y_mm[0] - D)
        mouth = wall.mouth(first)
        if first or table.worms[p][-1][0] < mouth[0] - D:
            return mouth
        return (wall.x_mm + 2 * D, mouth[1])

    def most_roll(p: str) -> int:
        """The most steps a roll gives the worm (Cannibal: no more than its length)."""
        return min(5, len(table.worms[p])) if cannibal else 5

    def move(p: str, n: int) -> list[Point2] | None:
        """``n`` steps of a worm toward where it heads, else round either end of the wall,
        else toward the pylon; None when there is no room for them."""
        aims = [aim(p), _aim(p, players)]
        if wall is not None:
            top, bottom = wall.ends_y_mm
            aims[1:1] = [(wall.x_mm, top - D), (wall.x_mm, bottom + D)]
        for a in aims:
            placed = table.move(p, n, rng, a)
            if placed is not None:
                return placed
        return None

    def legal_move(p: str, roll: int, label: str) -> None:
        placed = move(p, roll)
        _room(placed)
        hand(table.scene(), placed[-1])
        still(Expect(p, "ok"), label)

    def put_back(who: str, before: DerbyTable) -> None:
        """The planted move is taken back: the table as before it, seen still."""
        nonlocal table
        table = before.copy()
        hand(table.scene(), table.worms[who][-1])
        still(None, "put back")

    turn_start = [len(steps)]

    def _derby_turn(what: str, k: int) -> int:
        """Plays one turn of the plan onto ``steps``; the turn count after it."""
        nonlocal table, turn
        turn_start[0] = len(steps)
        p = players[turn % 2]
        q = players[(turn + 1) % 2]
        if k and rng.random() < 0.35:
            light_at[len(steps)] = rng.choice(["dim", "off", "lamp"])
        roll = rng.choice([2, 3, 4])
        before = table.copy()
        if what == "legal":
            steps.append(Say(Roll(p, str(roll))))
            legal_move(p, roll, f"{p} {roll} steps")
        elif what == "steps":
            placed = None
            for r in (roll, roll, roll, max(2, len(before.worms[p]) - 2)):
                roll = r
                table = before.copy()
                placed = move(p, roll + 1)
                if placed is not None and _steps_shown(before.worms[p], table.worms[p], roll):
                    break
                placed = None
            if placed is None:  # no move of roll + 1 steps the stills can show: a plain turn
                table = before.copy()
                steps.append(Say(Roll(p, str(roll))))
                legal_move(p, roll, f"{p} {roll} steps")
                turn += 1
                return turn
            steps.append(Say(Roll(p, str(roll))))
            hand(table.scene(), placed[-1])
            still(Expect(p, "steps"), f"{p} {roll + 1} steps on a {roll}")
            put_back(p, before)
            legal_move(p, roll, f"{p} {roll} steps")
        elif what == "turn":
            steps.append(Say(Roll(p, str(roll))))
            placed = move(q, 2)
            _room(placed)
            hand(table.scene(), placed[-1])
            still(Expect(q, "turn"), f"{q} moves on {p}'s roll")
            put_back(q, before)
            legal_move(p, roll, f"{p} {roll} steps")
        elif what == "turn_after_null":
            steps.append(Say(Roll(p, "null")))
            placed = move(p, 2)
            _room(placed)
            hand(table.scene(), placed[-1])
            still(Expect(p, "turn"), f"{p} moves after rolling null")
            put_back(p, before)
            turn += 1  # the null passed the turn
            p = players[turn % 2]
            steps.append(Say(Roll(p, str(roll))))
            legal_move(p, roll, f"{p} {roll} steps")
        elif what == "shape":
            steps.append(Say(Roll(p, str(roll))))
            ok = move(p, roll - 1)
            _room(ok)
            body = table.worms[p]
            head, prev = body[-1], body[-2]
            a = math.atan2(head[1] - prev[1], head[0] - prev[0])
            for da in (0.0, 0.5, -0.5, 1.0, -1.0):
                far = (head[0] + 2.4 * D * math.cos(a + da), head[1] + 2.4 * D * math.sin(a + da))
                if table.clear(far, p, {0, len(body) - 1}):
                    break
            else:
                raise NoRoom
            table.worms[p] = [*body[1:], far]
            hand(table.scene(), far)
            still(Expect(p, "shape"), f"{p} split its worm")
            put_back(p, before)
            legal_move(p, roll, f"{p} {roll} steps")
        elif what == "direction":
            steps.append(Say(Roll(p, "2")))
            body = table.worms[p]
            done = False
            for s1 in (1, -1):
                for s2 in (1, -1):
                    tail = _beside(body[1], body[2], s1)
                    head = _beside(body[-2], body[-3], s2)
                    if (math.dist(tail, head) > D + 2 and math.dist(tail, body[0]) > D
                            and math.dist(head, body[-1]) > D  # both ends plainly moved
                            and _one_chain([tail, *body[1:-1], head])
                            and table.clear(tail, p, {0, 1})
                            and table.clear(head, p, {len(body) - 1, len(body) - 2})):
                        table.worms[p] = [tail, *body[1:-1], head]
                        done = True
                        break
                if done:
                    break
            _room(done or None)
            hand(table.scene(), table.worms[p][-1])
            still(Expect(p, "direction"), f"{p} moved both ends")
            put_back(p, before)
            legal_move(p, 2, f"{p} 2 steps")
        elif what == "overlap":
            steps.append(Say(Roll(p, str(roll))))
            ok = move(p, roll - 1)
            _room(ok)
            lay = _overlapping(table, p, rng)
            _room(lay)
            table.worms[p] = [*table.worms[p][1:], lay]
            hand(table.scene(), lay)
            still(Expect(p, "overlap"), f"{p} laid a coin over its head")
            put_back(p, before)
            legal_move(p, roll, f"{p} {roll} steps")
        elif what == "gap":
            found = _through_gap(table, p, rng, aim(p), wall, most_roll(p)) \
                if wall is not None and players.index(p) == 0 else None
            if found is None:  # the worm is not at the narrow gap yet: a plain turn
                steps.append(Say(Roll(p, str(roll))))
                legal_move(p, roll, f"{p} {roll} steps")
                turn += 1
                return turn
            roll, through = found
            table.worms[p] = through
            gap_done[0] = True
            steps.append(Say(Roll(p, str(roll))))
            hand(table.scene(), through[-1])
            still(Expect(p, "gap"), f"{p} squeezed through a narrow gap")
            put_back(p, before)
            legal_move(p, roll, f"{p} {roll} steps")
        elif what in ("obstacle", "ace"):
            steps.append(Say(Roll(p, "ace")))
            far = what == "obstacle"
            moved = _move_obstacle(table, rng, 1.7 * T if far else 0.6 * T,
                                   tuple(wall.tiles()) if wall is not None else ())
            _room(moved)
            hand(table.scene(), moved)
            if far:
                still(Expect(p, "obstacle"), f"{p} moved an obstacle too far")
                table = before.copy()
                hand(table.scene(), moved)
                still(None, "put back")
            else:
                still(Expect(p, "ok"), f"{p} moved an obstacle")
            steps.append(Say(Roll(p, str(roll))))
            legal_move(p, roll, f"{p} {roll} steps")
        turn += 1
        return turn

    k = 0
    while k < len(plan):
        what = plan[k]
        if wall is not None and not gap_done[0] and what != "gap" and "gap" in plan[k + 1:] \
                and turn % 2 == 0 and _through_gap(table, players[0], random.Random(seed + k),
                                                   aim(players[0]), wall,
                                                   most_roll(players[0])) is not None:
            del plan[plan.index("gap", k + 1)]  # the worm is at the narrow gap: the foul now
            plan.insert(k, "gap")
            what = "gap"
        if variant == "slalom" and what == "obstacle":
            what = "legal"
        try:
            turn = _derby_turn(what, k)
        except NoRoom:  # the worms ran out of room: the game ends here
            del steps[turn_start[0]:]
            break
        if what == "gap" and not gap_done[0] and len(plan) < turns + 8:
            plan.insert(k + 2, "gap")  # tried again on a later turn
        k += 1
    return Playthrough(f"worm-derby.{'cannibal' if cannibal else variant}", steps, _pose(),
                       _mat(), light_at, wall=wall)


REACH = 1.2
"""Two coins touch when their centres are at most this many coin widths apart (the referee's
``touch_factor``)."""

SHOWN_MARGIN_MM = 3.0
"""A planted move of too many steps is this much clearer of a legal reading than the referee's
reach (measuring noise)."""


def _steps_shown(before: list[Point2], after: list[Point2], roll: int) -> bool:
    """Whether still tables can show that a worm moved from ``before`` to ``after`` made more
    than ``roll`` steps. While a coin stayed, or every coin moved but no more steps than the
    worm has coins, they can. Beyond that, the first coins laid were picked up again unseen and
    either end may have led: the fewest steps that explain the table are the worm's length plus
    the coins that fit between an old end and the new end nearest it (a worm curling back
    round can leave the table a legal move from its other end leaves)."""
    n = len(before)
    if roll < n:
        return True
    gap = min(math.dist(a, b) for a in (before[0], before[-1]) for b in (after[0], after[-1]))
    return gap > REACH * D * (roll - n + 1) + SHOWN_MARGIN_MM


CHAIN_CLEAR = 1.3
"""Coins of a worm that are not neighbours keep this many coin widths apart, so a planted
foul of another rule never reads as a worm that branches (the referee's touching coins are at
most 1.2 widths apart)."""


def _one_chain(worm: list[Point2]) -> bool:
    """Whether only neighbours in the worm touch (no coin touches three of its worm)."""
    return all(math.dist(worm[i], worm[j]) > CHAIN_CLEAR * D
               for i in range(len(worm)) for j in range(i + 2, len(worm)))


def _beside(c: Point2, nxt: Point2, side: int) -> Point2:
    """A point one coin width beside ``c``, square to the worm's line toward ``nxt``."""
    a = math.atan2(nxt[1] - c[1], nxt[0] - c[0]) + side * math.pi / 2
    return (c[0] + D * math.cos(a), c[1] + D * math.sin(a))


class NoRoom(Exception):
    """The worms have no room for the move planned: the playthrough ends before that turn."""


def _room(found: Any) -> None:
    """Raises :class:`NoRoom` when nothing was found."""
    if found is None:
        raise NoRoom


def _through_gap(table: DerbyTable, player: str, rng: random.Random, aim: Point2,
                 wall: Wall, most: int = 5) -> tuple[int, list[Point2]] | None:
    """A move whose last step squeezes through the wall's narrow gap, every other step
    legal: up to two steps toward the gap, two steps that bring the head to the gap's mouth,
    one through it. The roll it needs (3 to ``most``) and the worm after it; None when the
    worm is not near enough the gap."""
    mouth = wall.mouth(True)
    pinch = (wall.x_mm, wall.narrow_y_mm)
    for walk in range(0, most - 2):
        t = table.copy()
        if walk and t.move(player, walk, rng, aim) is None:
            continue
        body = t.worms[player]
        head = body[-1]
        d = math.dist(head, mouth)
        if not 1.0 < d <= 2 * D - 0.5:
            continue
        world = t.world(player)
        ux, uy = (mouth[0] - head[0]) / d, (mouth[1] - head[1]) / d
        h = math.sqrt(D * D - d * d / 4)
        mid = ((head[0] + mouth[0]) / 2, (head[1] + mouth[1]) / 2)
        q = (mouth[0] + D, mouth[1])
        for side in (1, -1):
            p = (mid[0] - side * uy * h, mid[1] + side * ux * h)
            ends = {len(body) - 1, 0}
            if not t.clear(p, player, ends) or world.check(body, p).problem is not None:
                continue
            b1 = [*body[1:], p]
            if not t.clear(mouth, player, ends | {1}) or world.check(b1, mouth).problem:
                continue
            b2 = [*b1[1:], mouth]
            if not t.clear(q, player, ends | {1, 2}, margin_mm=0.75):
                continue
            problem = world.check(b2, q).problem
            if problem is not None and problem.rule == "gap" and problem.where is not None \
                    and math.dist(problem.where, pinch) < D / 2 and _one_chain([*b2[1:], q]):
                return 3 + walk, [*b2[1:], q]  # (a sharp bend would read as a branch)
    return None


def _overlapping(table: DerbyTable, player: str, rng: random.Random) -> Point2 | None:
    """Where the worm's tail coin lies when laid partly over its own head (a quarter of a coin
    width over it, centres 14 mm apart), away from the body and clear of every other piece;
    None: no room."""
    body = table.worms[player]
    head, prev = body[-1], body[-2]
    a = math.atan2(head[1] - prev[1], head[0] - prev[0])
    for da in sorted((0.0, 0.4, -0.4, 0.8, -0.8), key=lambda _: rng.random()):
        q = (head[0] + 0.74 * D * math.cos(a + da), head[1] + 0.74 * D * math.sin(a + da))
        if table.clear(q, player, {0, len(body) - 1}):
            return q
    return None


def _move_obstacle(table: DerbyTable, rng: random.Random, dist: float,
                   keep: tuple[Piece, ...] = ()) -> Point2 | None:
    """Moves a face-down tile (not one of ``keep``) ``dist`` in some direction where it lies
    clear of the worms and of the other tiles; where it went, or None."""
    downs = [i for i, t in enumerate(table.tiles) if t.face == "down" and t not in keep]
    rng.shuffle(downs)
    for i in downs:
        t = table.tiles[i]
        for _ in range(24):
            a = rng.uniform(0, 2 * math.pi)
            moved = Piece.tile(t.x_mm + dist * math.cos(a), t.y_mm + dist * math.sin(a),
                               t.angle_deg or 0.0, "down")
            if not (440 < moved.x_mm < 760 and 0 < moved.y_mm < 320):
                continue
            coins = [c for w in table.worms.values() for c in w]
            if any(tile_distance(c, moved, T) < D / 2 + 3.0 for c in coins):
                continue
            if any(j != i and math.dist(o.centre_mm, moved.centre_mm) < 1.6 * T
                   for j, o in enumerate(table.tiles)):
                continue
            table.tiles[i] = moved
            return moved.centre_mm
    return None


# --------------------------------------------------------------------------- Worm Up!

SEG = PIECES.segment_diameter_mm
UP_START = ((0.0, 0.0), (300.0, 0.0))
UP_FINISH = ((0.0, 420.0), (300.0, 420.0))


def _up_scene(worms: dict[str, list[Point2]],
              finish: tuple[Point2, Point2] = UP_FINISH) -> Scene:
    pieces = [Piece("segment", round(x, 2), round(y, 2), color=c)
              for c, w in worms.items() for x, y in w]
    pieces += [Piece("post", x, y) for x, y in (*UP_START, *finish)]
    return Scene(tuple(pieces))


def _up_advance(worm: list[Point2], k: int, rng: random.Random) -> list[Point2]:
    out = list(worm)
    for _ in range(k):
        hx, hy = out[-1]
        a = math.radians(90.0 + rng.uniform(-4.0, 4.0))
        out.append((hx + SEG * math.cos(a), hy + SEG * math.sin(a)))
    return out[k:]


FOULS_UP = ("steps", "order", "turn", "tail", "shape", "post")
"""Every Worm Up! foul the bench can plant (``--every-foul``); by default the first two.
``turn``: the first mover moves again after its move; ``tail``: it lays its segments behind
the tail (a move backwards); ``shape``: its new segments laid a segment apart from the rest;
``post``: the finish strip swung 15 degrees round one post with no X. (``touch``, ``setup``,
``bid`` and ``pieces`` are not planted: a touch needs a worm laid within 2 mm of another, and
the others are not moves of a worm.)"""


def _up_foul(what: str, worm: list[Point2], k: int, rng: random.Random) -> list[Point2]:
    """``worm`` after a move of ``k`` that breaks the rule ``what`` (``tail``, ``shape``)."""
    if what == "tail":  # k segments from the head laid behind the tail
        out = list(worm[:-k])
        for _ in range(k):
            tx, ty = out[0]
            a = math.radians(-90.0 + rng.uniform(-4.0, 4.0))
            out.insert(0, (tx + SEG * math.cos(a), ty + SEG * math.sin(a)))
        return out
    moved = _up_advance(worm, k, rng)  # shape: the new segments a segment apart
    return [*moved[:-k], *((x, y + SEG) for x, y in moved[-k:])]


def _planted(fouled: Scene, at: Point2, back: Scene, back_at: Point2, expect: Expect,
             words: str, still_frames: int) -> list[Step]:
    """A foul planted and put right: the hand lays it at ``at``, the table shows ``fouled``
    (``expect`` is called), then the hand at ``back_at`` puts the table ``back``."""
    return [Motion(replace(fouled, hand=True), at), Still(fouled, expect, words, still_frames),
            Motion(replace(back, hand=True), back_at), Still(back, None, "put back", still_frames)]


def worm_up(seed: int, rounds: int = 2, fouls: tuple[str, ...] = ("steps", "order"),
            still_frames: int = 2) -> Playthrough:
    """A Worm Up! playthrough: three worms, secret bids, moves in bid order, fouls planted
    (one a round, by the round's first mover; :data:`FOULS_UP`)."""
    from tabletop.events import Bid

    rng = random.Random(seed)
    players = ["red", "yellow", "blue"]
    worms = {p: [(50.0 + 50.0 * i, -(SEG / 2 + 2.0) - SEG * (6 - k)) for k in range(7)]
             for i, p in enumerate(players)}
    steps: list[Step] = [Say(Setup("worm-up", tuple(players), {}))]
    steps.append(Still(_up_scene(worms), Expect(None, "ok"), "setup", still_frames))
    resting: dict[str, int] = {}
    light_at: dict[int, str] = {}
    plan = list(fouls)[:rounds] + ["legal"] * max(0, rounds - len(fouls))
    for r in range(rounds):
        if r and rng.random() < 0.6:
            light_at[len(steps)] = rng.choice(["dim", "off", "lamp"])
        numbers = [4, 5, 6, 7]
        bids: dict[str, int] = {}
        for p in players:
            free = [n for n in numbers if n != resting.get(p) and n not in bids.values()]
            bids[p] = rng.choice(free)
        for p in players:
            steps.append(Say(Bid(p, str(bids[p]))))
        resting = dict(bids)
        order = sorted(players, key=lambda p: bids[p])
        what = plan[r]
        for m, p in enumerate(order):
            before = {c: list(w) for c, w in worms.items()}
            if what == "steps" and m == 0:
                worms[p] = _up_advance(worms[p], bids[p] + 1, rng)
                steps += _planted(_up_scene(worms), worms[p][-1], _up_scene(before),
                                  before[p][-1], Expect(p, "steps"),
                                  f"{p} {bids[p] + 1} on a bid of {bids[p]}", still_frames)
                worms = before
            if what == "order" and m == 0:
                q = order[1]
                worms[q] = _up_advance(worms[q], bids[q], rng)
                steps += _planted(_up_scene(worms), worms[q][-1], _up_scene(before),
                                  before[q][-1], Expect(q, "order"), f"{q} moves before {p}",
                                  still_frames)
                worms = {c: list(w) for c, w in before.items()}
            if what in ("tail", "shape") and m == 0:
                worms[p] = _up_foul(what, worms[p], bids[p], rng)
                steps += _planted(_up_scene(worms), worms[p][-1], _up_scene(before),
                                  before[p][-1], Expect(p, what),
                                  f"{p} {bids[p]} breaking {what}", still_frames)
                worms = before
            if what == "post" and m == 0:
                (ax, ay), _ = UP_FINISH  # the strip swung 15 degrees round one post
                a, r = math.radians(15.0), math.dist(UP_FINISH[0], UP_FINISH[1])
                moved = (UP_FINISH[0], (round(ax + r * math.cos(a), 2),
                                        round(ay + r * math.sin(a), 2)))
                steps += _planted(_up_scene(worms, moved), moved[1], _up_scene(worms),
                                  moved[1], Expect(None, "post"),
                                  "a finish post moved without an X", still_frames)
            worms[p] = _up_advance(worms[p], bids[p], rng)
            steps.append(Motion(replace(_up_scene(worms), hand=True), worms[p][-1]))
            steps.append(Still(_up_scene(worms), Expect(p, "ok"), f"{p} moves {bids[p]}",
                               still_frames))
            if what == "turn" and m == 0:
                before = {c: list(w) for c, w in worms.items()}
                worms[p] = _up_advance(worms[p], 4, rng)
                steps += _planted(_up_scene(worms), worms[p][-1], _up_scene(before),
                                  before[p][-1], Expect(p, "turn"), f"{p} moves again",
                                  still_frames)
                worms = before
    pose = CameraPose.looking_at((150.0, 120.0), 1000.0, 10.0, 90.0, (1280, 720), 62.0)
    return Playthrough("worm-up", steps, pose, [], light_at)


# --------------------------------------------------------------------------- Jungle


def _jungle_scene(pos: Any) -> Scene:
    """The tokens of a position, in the board's millimetre frame."""
    from referee.jungle import geometry as g

    return Scene(tuple(Piece("token", *g.square_centre_mm(sq), id=49 + code)
                       for sq, code in pos.pieces()))


def _board_to_page(scene: Scene) -> Scene:
    from referee.jungle import geometry as g

    return Scene(tuple(replace(p, x_mm=g.board_to_page_mm(p.x_mm, p.y_mm)[0],
                               y_mm=g.board_to_page_mm(p.x_mm, p.y_mm)[1])
                       for p in scene.pieces), hand=scene.hand)


FOULS_JUNGLE = ("steps", "water", "turn", "den", "jump", "capture")
"""Every Jungle foul the bench can plant (``--every-foul``; by default the first three), each
where some move breaks it (else a legal move instead). ``capture``: a weaker animal takes a
stronger one (the defender taken away). (``occupied``, two tokens on one square, cannot be
read; ``repetition`` needs a long game.)"""


def jungle(seed: int, moves: int = 8, fouls: tuple[str, ...] = FOULS_JUNGLE[:3],
           still_frames: int = 2) -> Playthrough:
    """A Jungle playthrough on the printed board: random legal moves, fouls planted
    (:data:`FOULS_JUNGLE`)."""
    from calibration.jungle_board import make_board
    from referee.jungle import geometry as g
    from referee.jungle.position import Position, make_move, move_squares
    from referee.jungle.rules import side_of

    rng = random.Random(seed)
    players = ("first", "second")
    pos = Position()
    steps: list[Step] = [Say(Setup("jungle", players, {}))]
    steps.append(Still(_jungle_scene(pos), Expect(None, "ok"), "setup", still_frames))
    plan = list(fouls) + ["legal"] * max(0, moves - len(fouls))
    rng.shuffle(plan)
    light_at: dict[int, str] = {}

    def show(p: Any, expect: Expect | None, label: str, target: Point2) -> None:
        sc = _jungle_scene(p)
        steps.append(Motion(replace(sc, hand=True), g.board_to_page_mm(*target)))
        steps.append(Still(sc, expect, label, still_frames))

    for k, what in enumerate(plan):
        if k and rng.random() < 0.3:
            light_at[len(steps)] = rng.choice(["dim", "off", "lamp"])
        side = pos.side
        legal = pos.legal_moves()
        if not legal or pos.outcome() is not None:
            break
        bad = None
        if what != "legal":
            cands = []
            for fr, code in pos.pieces():
                want_side = side if what != "turn" else 1 - side
                if side_of(code) != want_side:
                    continue
                for to in range(g.N_SQUARES):
                    m = make_move(fr, to)
                    ill = pos.check(m) if what != "turn" else None
                    if what == "turn":
                        # a legal-looking step of the other side's animal
                        if to in g.neighbours(fr) and all(s != to for s, _ in pos.pieces()) \
                                and to not in g.WATER:
                            cands.append((m, "turn"))
                    elif ill is not None and ill.rule.value == what and (
                            what == "capture" or all(s != to for s, _ in pos.pieces())):
                        cands.append((m, what))  # a capture takes the defender away
            if cands:
                bad = rng.choice(cands)
        if bad is not None:
            m, rule = bad
            fr, to = move_squares(m)
            mover = side_of(next(c for s, c in pos.pieces() if s == fr))
            board = {s: c for s, c in pos.pieces()}
            board[to] = board.pop(fr)
            wrong = Scene(tuple(Piece("token", *g.square_centre_mm(sq), id=49 + c)
                                for sq, c in board.items()))
            steps.append(Motion(replace(wrong, hand=True), g.board_to_page_mm(
                *g.square_centre_mm(to))))
            steps.append(Still(wrong, Expect(players[mover], rule),
                               f"{players[mover]} {g.SQUARE_NAMES[fr]}{g.SQUARE_NAMES[to]}",
                               still_frames))
            show(pos, None, "put back", g.square_centre_mm(fr))
        m = rng.choice(legal)
        fr, to = move_squares(m)
        pos.push(m)
        show(pos, Expect(players[side], "ok"),
             f"{players[side]} {g.SQUARE_NAMES[fr]}{g.SQUARE_NAMES[to]}", g.square_centre_mm(to))
    page = make_board(dpi=150)
    decal = Decal(np.asarray(page), g.PAGE_MM, (g.PAGE_MM[0] / 2, g.PAGE_MM[1] / 2), 0.0)
    pose = CameraPose.looking_at((g.PAGE_MM[0] / 2, g.PAGE_MM[1] / 2), 800.0, 8.0, 90.0,
                                 (1280, 720), 60.0)
    return Playthrough("jungle", steps, pose, [decal], light_at, to_world=_board_to_page,
                       calibrate="jungle-board")


# --------------------------------------------------------------------------- running it

LIGHTS = {
    "lamp": {},
    "dim": {"exposure": 0.62, "shadow_strength": 0.3, "ambient": 0.55},
    "off": {"exposure": 0.55, "shadow_strength": 0.18, "ambient": 0.8, "light_elevation_deg": 22.0,
            "colour_temp_k": 6500.0, "light_falloff": 0.0},
}


def relit(settings: RenderSettings, change: dict[str, float]) -> RenderSettings:
    """``settings`` with a change of :data:`LIGHTS` laid over them (exposure and shadow
    strength as factors, the rest as values): a playthrough's light after a round."""
    return replace(settings, **{k: (getattr(settings, k) * v
                                    if k in ("exposure", "shadow_strength") else v)
                                for k, v in change.items()})


def _looks(seed: int, table: str | None = None, light: str | None = None) -> RenderSettings:
    """The table and the light of a playthrough: a table kind and a kind of light drawn by
    :func:`tabletop.render.variety.draw_case` from the seed (or the ones named)."""
    from tabletop.render import variety

    rng = random.Random(seed)
    table_kind, light_kind = rng.choice(variety.TABLE_KINDS), rng.choice(variety.LIGHT_KINDS)
    case = variety.draw_case(seed, table=table or table_kind, light=light or light_kind,
                             clutter="none", hand=False, n_pieces=1, size=(1280, 720))
    return replace(case.settings, hand=False, motion_blur_px=0.0)


@dataclass
class Frames:
    """A playthrough rendered: the items of a recording and the truth of each."""

    items: list[tuple[int, Any]]  # (step index, np.ndarray frame | Event)
    calibration: Any
    count: int


HAND_SWAY_MM = (-30.0, 25.0)
"""How far a moving hand is from its first place in the other frame of a motion."""


def render(play: Playthrough, seed: int, repeat: int, table: str | None = None,
           light: str | None = None) -> Frames:
    """Every step drawn as the camera sees it (each frame ``repeat`` times, as replay does; a
    motion's ``repeat`` frames show the hand at two places in turn); ``table`` and ``light``
    pin the variety's kinds (default: drawn from the seed)."""
    base = _looks(seed, table, light)
    light: dict[str, float] = {}
    items: list[tuple[int, Any]] = []
    cal = None
    n = 0
    for i, s in enumerate(play.steps):
        if i in play.light_at:
            light = dict(LIGHTS[play.light_at[i]])
        if isinstance(s, Say):
            items.append((i, s.event))
            continue
        if isinstance(s, Still):
            shots = [(s.scene, None)] * s.frames
        else:  # a hand moving: drawn at two places in turn, so no two frames in a row agree
            x, y = s.target_mm
            shots = [(s.scene, s.target_mm), (s.scene, (x + HAND_SWAY_MM[0],
                                                        y + HAND_SWAY_MM[1]))]
        drawn = []
        for scene, target in shots:
            n += 1
            settings = replace(relit(base, light), seed=seed * 1000 + n,
                               table_seed=base.texture_seed, hand=target is not None,
                               hand_target_mm=target, hand_height_mm=25.0)
            world = play.to_world(scene) if play.to_world is not None else scene
            r = render_scene(world, play.pose, settings, PIECES, play.decals)
            if cal is None:
                if play.calibrate == "jungle-board":
                    from calibration.jungle_board import calibrate_from_board
                    cal = calibrate_from_board(r.image)
                else:
                    cal = r.calibration()
            if isinstance(s, Still):
                items.extend((i, r.image) for _ in range(repeat))
            else:
                drawn.append(r.image)
        items.extend((i, drawn[k % len(drawn)]) for k in range(repeat) if drawn)
    return Frames(items, cal, n)


@dataclass
class Score:
    """Counts for one playthrough or many."""

    counts: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)
    trace: list[str] = field(default_factory=list)

    def add(self, other: Score) -> None:
        """Adds another score's counts and notes."""
        self.counts.update(other.counts)
        self.notes.extend(other.notes)
        self.trace.extend(other.trace)


def _reading_wrong(seen: Scene, truth: Scene) -> bool:
    """True when the reading misses, adds or misreads a piece (4 mm, suit, face)."""
    used: set[int] = set()
    for t in truth.pieces:
        best = None
        for j, p in enumerate(seen.pieces):
            if j in used or p.kind != t.kind or math.dist(p.centre_mm, t.centre_mm) > 4.0:
                continue
            if (p.kind == "coin" and p.suit != t.suit) or (p.kind == "tile" and p.face != t.face):
                continue
            if (p.kind, p.color, p.id) != (t.kind, t.color, t.id):
                continue
            best = j
            break
        if best is None:
            return True
        used.add(best)
    return len(used) != len(seen.pieces)


def _judge(expect: Expect | None, got: list[Verdict], label: str, score: Score) -> None:
    c = score.counts
    illegal = [v for v in got if not v.legal]
    if expect is None or expect.legal:
        for v in illegal:
            c["false_alarms"] += 1
            score.notes.append(f"false alarm on '{label}': {v.player} {v.rule}: {v.reason}")
        if expect is not None and not illegal:
            if any(v.legal and (expect.player is None or v.player in (None, expect.player))
                   for v in got):
                c["verdicts_right"] += 1
            else:
                c["verdicts_missing"] += 1
                score.notes.append(f"not judged: '{label}'")
        return
    match = [v for v in illegal if v.rule == expect.rule and v.player == expect.player]
    if match:
        c["verdicts_right"] += 1
    else:
        c["missed_fouls"] += 1
        score.notes.append(f"missed foul '{label}' ({expect.player} {expect.rule}); got "
                           + ("; ".join(f"{v.player} {v.rule}" for v in got) or "nothing"))
    for v in illegal:
        if v not in match:
            c["false_alarms"] += 1
            score.notes.append(f"wrong call on '{label}': {v.player} {v.rule}: {v.reason}")


def exact(play: Playthrough) -> Score:
    """The playthrough as an exact record (no camera): the referee's part alone."""
    score = Score()
    events = play.record()
    outputs = fold(events)
    scene_seq: dict[int, int] = {}
    k, last = 0, None
    for i, s in enumerate(play.steps):
        if isinstance(s, Say):
            k += 1
        elif isinstance(s, Still) and s.scene != last:
            scene_seq[k] = i
            k += 1
            last = s.scene
    for seq, i in scene_seq.items():
        s = play.steps[i]
        assert isinstance(s, Still)
        got = [o for o in outputs if isinstance(o, Verdict) and o.seq == seq]
        sub = Score()
        _judge(s.expect, got, s.label, sub)
        score.counts["exact_total"] += 1 if s.expect is not None else 0
        score.counts["exact_right"] += sub.counts["verdicts_right"]
        score.notes.extend(f"exact: {n}" for n in sub.notes)
    return score


def run(play: Playthrough, seed: int, repeat: int = 3, table: str | None = None,
        light: str | None = None, dump: Path | None = None, memory: bool = True) -> Score:
    """Renders a playthrough and runs it through the real pipeline; the score. ``dump``: a
    JSON Lines file that keeps every event the table was given (with its step), for
    :func:`rescore`. ``memory`` False: vision is not given the last accepted table."""
    from live.bus import Bus
    from live.log import GameLog
    from live.pipeline import run_sync
    from live.sources import Frame, Item, Source, TimelineEvent
    from live.table import Table
    from live.vision_glue import load_vision

    frames = render(play, seed, repeat, table, light)
    current = [0]
    still_at = [0]  # the still a reading is of (one held to be read twice is judged later)

    class _Recording(Source):
        description = f"rendered {play.name}"
        total = len(frames.items)

        def items(self) -> Iterator[Item]:
            for n, (i, it) in enumerate(frames.items):
                current[0] = i
                if isinstance(it, Event):
                    yield TimelineEvent(it, n)
                else:
                    if isinstance(play.steps[i], Still):
                        still_at[0] = i
                    yield Frame(it, n, time.monotonic(), f"#{n}")

    table = Table(GameLog(":memory:"), Bus())
    said: dict[int, list[Event]] = {}
    seen: dict[int, list[Scene]] = {}
    given: list[tuple[int, Event]] = []

    def submit(event: Event, jpeg: bytes | None = None) -> Any:
        done = table.submit(event, jpeg)
        at = still_at[0] if isinstance(event, SceneSeen) else current[0]
        given.append((at, event))
        said.setdefault(at, []).extend(o for _, o in done.outputs)
        if isinstance(event, SceneSeen):
            seen.setdefault(at, []).append(event.scene)
        return done

    vision = load_vision(frames.calibration, play.setup.game)
    run_sync(_Recording(), vision, submit, None, lambda pipe: table.on_game(pipe.use_game),
             known=lambda: table.accepted if memory else None, preview=table.preview)
    if dump is not None:
        dump.write_text("".join(json.dumps({"step": i, "event": e.to_json()}) + "\n"
                                for i, e in given))
    score = _score(play, said, seen)
    score.counts["frames"] += frames.count
    return score


def rescore(play: Playthrough, dump: Path) -> Score:
    """The score of a playthrough from the events a :func:`run` kept (``dump``), judged again
    by today's referee without rendering or vision (the pipeline's re-reading of a doubted
    table is not redone, so a figure may differ from a full run's)."""
    from live.bus import Bus
    from live.log import GameLog
    from live.table import Table
    from tabletop.events import parse_event

    table = Table(GameLog(":memory:"), Bus())
    said: dict[int, list[Event]] = {}
    seen: dict[int, list[Scene]] = {}
    for line in dump.read_text().splitlines():
        row = json.loads(line)
        i, event = row["step"], parse_event(row["event"])
        done = table.submit(event)
        said.setdefault(i, []).extend(o for _, o in done.outputs)
        if isinstance(event, SceneSeen):
            seen.setdefault(i, []).append(event.scene)
    return _score(play, said, seen)


SuitMisread = tuple[int, str, str]
"""A piece read as another suit or colour: its index in the true scene, the attribute
(``suit`` or ``color``) and the value read."""


def _as_another_suit(scene: Scene, rng: random.Random, p: float) -> SuitMisread | None:
    """With chance ``p``, one coin (or Worm Up! segment) of ``scene`` read with the suit (the
    colour) of another coin (segment) of the table: a worm's coin read as another worm's, the
    misread that makes one worm look a coin long and another a coin short. None: read right."""
    if p <= 0 or rng.random() >= p:
        return None
    attr_of = {"coin": "suit", "segment": "color"}
    ks = [k for k, q in enumerate(scene.pieces)
          if q.kind in attr_of and getattr(q, attr_of[q.kind]) is not None]
    if not ks:
        return None
    k = rng.choice(ks)
    q = scene.pieces[k]
    attr = attr_of[q.kind]
    others = sorted({getattr(o, attr) for o in scene.pieces if o.kind == q.kind
                     and getattr(o, attr) not in (None, getattr(q, attr))})
    return (k, attr, rng.choice(others)) if others else None


def _read_as(scene: Scene, swap: SuitMisread | None) -> Scene:
    """``scene`` with the piece of ``swap`` read as its other suit or colour."""
    if swap is None:
        return scene
    k, attr, value = swap
    q = replace(scene.pieces[k], **{attr: value})
    return replace(scene, pieces=(*scene.pieces[:k], q, *scene.pieces[k + 1:]))


def misread(play: Playthrough, seed: int, p: float, same_miss: bool = False,
            suit: float = 0.0) -> Score:
    """The playthrough as exact records misread as a camera may (no rendering, no vision): each
    still table's reading, with chance ``p``, lacks one piece; else, with chance ``p``, has one
    piece read up to 3 mm off. Each still is read twice (two misreadings), as the pipeline
    reads it: a first reading the referee would doubt or call a foul on is judged together
    with the second (:func:`live.read_twice.merge_readings`), else both are judged in turn.
    The referee's share of trust, quick enough to run on many seeds. ``same_miss``: a piece
    the first reading lacks is lacking in the second too (a camera misses a place, a coin
    beside a tile, in every frame). ``suit``: besides, with this chance, each reading reads one
    coin (Worm Up!: one segment) as the suit (colour) of another on the table
    (:func:`_as_another_suit`; drawn from a random stream of its own, so ``suit`` 0 reads as
    before); with ``same_miss`` the second reading misreads it the same way."""
    from live.read_twice import merge_readings, objected

    rng = random.Random(seed * 7919 + len(play.steps))
    suit_rng = random.Random(seed * 7919 + len(play.steps) + 1)

    def read(table: Table, s: Still, _n: int) -> list[Scene]:
        readings = []
        missed: int | None = None
        swap: SuitMisread | None = None
        for n in range(2):
            if not (same_miss and n == 1 and swap is not None):
                swap = _as_another_suit(s.scene, suit_rng, suit)
            scene = _read_as(s.scene, swap)
            if same_miss and missed is not None:
                scene = replace(scene, pieces=scene.pieces[:missed] + scene.pieces[missed + 1:])
            elif rng.random() < p and scene.pieces:
                k = missed = rng.randrange(len(scene.pieces))
                scene = replace(scene, pieces=scene.pieces[:k] + scene.pieces[k + 1:])
            elif rng.random() < p and scene.pieces:
                k = rng.randrange(len(scene.pieces))
                q = scene.pieces[k]
                q = replace(q, x_mm=q.x_mm + rng.uniform(-3, 3), y_mm=q.y_mm + rng.uniform(-3, 3))
                scene = replace(scene, pieces=(*scene.pieces[:k], q, *scene.pieces[k + 1:]))
            readings.append(scene)
        if objected(table.preview(SceneSeen(readings[0]))):  # held, read again: judged as one
            return [merge_readings(*readings)]
        return readings

    return _exact_play(play, read)


def _pylon_down(scene: Scene) -> Scene:
    """The scene with the face-up tile farthest from the coins (Worm Derby's pylon) read face
    down, suit unseen."""
    coins = [p for p in scene.pieces if p.kind == "coin"]
    up = [k for k, p in enumerate(scene.pieces) if p.kind == "tile" and p.face == "up"]
    if not up or not coins:
        return scene
    cx, cy = sum(c.x_mm for c in coins) / len(coins), sum(c.y_mm for c in coins) / len(coins)
    k = max(up, key=lambda k: math.dist(scene.pieces[k].centre_mm, (cx, cy)))
    return replace(scene, pieces=tuple(replace(p, face="down", suit=None) if i == k else p
                                       for i, p in enumerate(scene.pieces)))


def _pylon_gone(scene: Scene) -> Scene:
    """The scene without its pylon (see :func:`_pylon_down`)."""
    down = _pylon_down(scene)
    return replace(scene, pieces=tuple(p for p, q in zip(scene.pieces, down.pieces, strict=True)
                                       if p == q))


def _two_coins_gone(scene: Scene) -> Scene:
    """The scene without the second and third coins (in x, then y) of the last worm's suit."""
    suits = sorted({p.suit for p in scene.pieces if p.kind == "coin" and p.suit})
    mine = sorted((k for k, p in enumerate(scene.pieces) if p.kind == "coin"
                   and suits and p.suit == suits[-1]),
                  key=lambda k: scene.pieces[k].centre_mm)
    drop = set(mine[1:3]) if len(mine) >= 4 else set()
    return replace(scene, pieces=tuple(p for i, p in enumerate(scene.pieces) if i not in drop))


FIRST_MISREADS = {"pylon-down": _pylon_down, "pylon-gone": _pylon_gone,
                  "two-coins-gone": _two_coins_gone}
"""How ``--first-misread`` misreads the first still tables (Worm Derby's first table in doubt)."""


def first_misread(play: Playthrough, how: str, stills: int) -> Score:
    """The playthrough as exact records (no rendering, no vision) whose first ``stills`` still
    tables are read one way wrong (:data:`FIRST_MISREADS`), the rest exact: a first table in
    doubt and the players rolling on from it (issue 13: rolls kept and judged again)."""
    return _exact_play(play, lambda _table, s, n: [
        FIRST_MISREADS[how](s.scene) if n < stills else s.scene])


def _exact_play(play: Playthrough, read: Callable[[Table, Still, int], list[Scene]]) -> Score:
    """The playthrough's exact records through a live table (no rendering, no vision): each
    ``Say`` submitted as it is, each still table as the readings ``read(table, still, n)``
    gives (``n``: how many stills came before; ``table`` as it stands, to preview), judged in
    turn; scored by :func:`_score`."""
    from live.bus import Bus
    from live.log import GameLog
    from live.table import Table

    table = Table(GameLog(":memory:"), Bus())
    said: dict[int, list[Event]] = {}
    seen: dict[int, list[Scene]] = {}
    n = 0
    for i, s in enumerate(play.steps):
        if isinstance(s, Say):
            said.setdefault(i, []).extend(o for _, o in table.submit(s.event).outputs)
            continue
        if not isinstance(s, Still):
            continue
        for scene in read(table, s, n):
            said.setdefault(i, []).extend(o for _, o in table.submit(SceneSeen(scene)).outputs)
            seen.setdefault(i, []).append(scene)
        n += 1
    return _score(play, said, seen)


def _score(play: Playthrough, said: dict[int, list[Event]], seen: dict[int, list[Scene]]
           ) -> Score:
    """Scores what the table said (``said``: step -> outputs) and read (``seen``) at each step
    of a playthrough against its truth, and the playthrough as an exact record."""
    score = Score()
    c = score.counts
    for i, s in enumerate(play.steps):
        if isinstance(s, Motion):
            continue
        what = s.label if isinstance(s, Still) else s.event.dumps()
        outs = "; ".join(f"{o.type} {getattr(o, 'player', '')} {getattr(o, 'rule', '')} "
                         f"{getattr(o, 'reason', getattr(o, 'message', ''))}"
                         for o in said.get(i, []))
        score.trace.append(f"{i:3d} {what} [{len(seen.get(i, []))} seen] -> {outs}")
    stills = [i for i, s in enumerate(play.steps) if isinstance(s, Still)]
    for i, s in enumerate(play.steps):
        # what a still table made the referee say: from its first frame to the next still's
        outs = said.get(i, [])
        if isinstance(s, Motion):
            continue
        if isinstance(s, Still):
            nxt = next((j for j in stills if j > i), len(play.steps))
            outs = [o for j in range(i, nxt) for o in said.get(j, [])
                    if not isinstance(play.steps[j], Say)]
            truth = s.scene
            for scene in seen.get(i, []):
                wrong = _reading_wrong(scene, truth)
                c["readings_wrong"] += int(wrong)
            doubts = [o for o in outs if isinstance(o, Doubt)]
            for d in doubts:
                c["doubts_raised"] += 1
                real = any(_reading_wrong(sc, truth) for sc in seen.get(i, []))
                c["doubts_real"] += int(real)
                score.notes.append(f"doubt on '{s.label}' ({'real' if real else 'NOT real'}): "
                                   f"{d.reason}")
            missed = c["missed_fouls"]
            _judge(s.expect, [o for o in outs if isinstance(o, Verdict)], s.label, score)
            c["missed_fouls_doubted"] += int(c["missed_fouls"] > missed and bool(doubts))
        else:
            _judge(s.expect, [o for o in outs if isinstance(o, Verdict)],
                   f"{s.event.type} {getattr(s.event, 'player', '')}", score)
    score.add(exact(play))
    return score


def gap_coins(seed: int, table: str | None = None, light: str | None = None
              ) -> tuple[int, int]:
    """Does vision read a worm passing through a gap with its coins touching tiles on both
    sides (issue 12)? One still of a course with a :class:`Wall` whose wide gap is 19.1 to
    20.5 mm, five coins of a worm through it (the middle one in the gap): the coins read (within
    4 mm, the right suit) and the coins there."""
    from live.vision_glue import load_vision

    rng = random.Random(seed)
    wall = replace(_wall(rng), wide_mm=rng.uniform(19.1, 20.5))
    worm = [Piece("coin", wall.x_mm + k * D, wall.wide_y_mm, suit="moons") for k in range(-2, 3)]
    other = [Piece("coin", START_X + k * D, LANE_Y - 28.0, suit="suns") for k in range(4)]
    scene = Scene((*_course(rng, "basic", wall), *worm, *other))
    r = render_scene(scene, _pose(), replace(_looks(seed, table, light), seed=seed), PIECES,
                     _mat())
    vision = load_vision(r.calibration(), "worm-derby")
    found = vision.detect(r.image)
    seen = getattr(found, "scene", found)
    read = sum(1 for c in worm if any(
        p.kind == "coin" and p.suit == c.suit and math.dist(p.centre_mm, c.centre_mm) <= 4.0
        for p in seen.pieces))
    return read, len(worm)


def playthroughs(seed: int, games: list[str], short: bool = False,
                 every_foul: bool = False) -> list[Playthrough]:
    """The playthroughs of one seed for the named games (short: a few turns each;
    ``every_foul``: Worm Up! and Jungle plant every foul of :data:`FOULS_UP` (three a seed,
    in turn) and :data:`FOULS_JUNGLE`)."""
    out = []
    turns = 3 if short else 10
    fouls_short = ("steps", "turn")
    for g in games:
        kw: dict[str, Any] = {"turns": turns}
        if short:
            kw.update(fouls=fouls_short, still_frames=1)
        if g == "worm-derby.basic":
            out.append(worm_derby(seed, **kw))
        elif g == "worm-derby.slalom":
            out.append(worm_derby(seed + 1, "slalom", **kw))
        elif g == "worm-derby.cannibal":
            out.append(worm_derby(seed + 2, cannibal=True, **kw))
        elif g == "jungle":
            out.append(jungle(seed + 4, moves=3 if short else 10,
                              **({"still_frames": 1, "fouls": ("steps", "water")}
                                 if short else {"fouls": FOULS_JUNGLE} if every_foul else {})))
        elif g == "worm-up":
            half = 3 * ((seed // 17) % 2)
            out.append(worm_up(seed + 3, rounds=1 if short else 3,
                               **({"still_frames": 1} if short else
                                  {"fouls": FOULS_UP[half:] + FOULS_UP[:half]} if every_foul
                                  else {})))
        else:
            raise SystemExit(f"bench_trust: unknown game {g!r}")
    return out


GAMES = ["worm-derby.basic", "worm-derby.slalom", "worm-derby.cannibal", "worm-up", "jungle"]
FIGURES = ("verdicts_right", "false_alarms", "missed_fouls", "missed_fouls_doubted",
           "verdicts_missing", "doubts_raised", "doubts_real", "readings_wrong", "exact_right",
           "exact_total", "frames")


def main(argv: list[str] | None = None) -> int:
    """Runs the playthroughs and prints the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=9001, help="first seed (never tuned on)")
    ap.add_argument("--plays", type=int, default=1, help="playthroughs per game")
    ap.add_argument("--games", default=",".join(GAMES),
                    help="games to play, comma-separated (worm-derby: its three variants)")
    ap.add_argument("--short", action="store_true", help="a few turns each (the test's size)")
    ap.add_argument("--every-foul", action="store_true",
                    help="Worm Up! and Jungle plant every foul the bench can (FOULS_UP, "
                         "FOULS_JUNGLE), not only the first few")
    ap.add_argument("--table", help="pin the table kind (tabletop.render.variety.TABLE_KINDS)")
    ap.add_argument("--light", help="pin the light kind (tabletop.render.variety.LIGHT_KINDS)")
    ap.add_argument("-v", "--verbose", action="store_true", help="say what went wrong")
    ap.add_argument("--trace", action="store_true", help="every step and what was said")
    ap.add_argument("--no-memory", action="store_true",
                    help="vision is not given the last accepted table (as before it was)")
    ap.add_argument("--dump", help="a folder: keep the events each playthrough gave the table")
    ap.add_argument("--rescore", action="store_true",
                    help="judge the events kept in --dump again (no rendering, no vision)")
    ap.add_argument("--misread", type=float, metavar="P",
                    help="no rendering: the exact records misread with chance P per reading "
                         "(a piece not seen, or read 3 mm off; see misread())")
    ap.add_argument("--same-miss", action="store_true",
                    help="with --misread: a piece a reading lacks, the second lacks too")
    ap.add_argument("--suit-misread", type=float, metavar="Q", default=0.0,
                    help="no rendering: besides --misread (0 when not given), a coin or Worm "
                         "Up! segment read as another's suit or colour with chance Q per reading "
                         "(with --same-miss, the second reading too; see misread())")
    ap.add_argument("--first-misread", choices=sorted(FIRST_MISREADS),
                    help="no rendering: the exact records with the first still tables misread "
                         "this way (see first_misread())")
    ap.add_argument("--first-stills", type=int, default=2,
                    help="with --first-misread: how many still tables are misread")
    args = ap.parse_args(argv)
    if args.rescore and args.dump is None:
        ap.error("--rescore needs --dump (the folder of kept events)")
    if args.dump is not None and not args.rescore:
        try:
            Path(args.dump).mkdir(parents=True, exist_ok=True)
        except OSError as e:
            ap.error(f"--dump {args.dump}: cannot make the folder ({e.strerror})")
    games = [name for g in args.games.split(",") if g
             for name in ([n for n in GAMES if n.startswith(g + ".")] or [g])]
    t0, c0 = time.perf_counter(), time.process_time()
    total = Score()
    per: dict[str, Score] = {}
    for k in range(args.plays):
        seed = args.seed + 17 * k
        for play in playthroughs(seed, games, args.short, args.every_foul):
            dump = None if args.dump is None else \
                Path(args.dump) / f"{play.name}-{seed}.jsonl"
            if args.first_misread is not None:
                score = first_misread(play, args.first_misread, args.first_stills)
            elif args.misread is not None or args.suit_misread:
                score = misread(play, seed, args.misread or 0.0, args.same_miss,
                                args.suit_misread)
            elif args.rescore:
                assert dump is not None
                score = rescore(play, dump)
            else:
                score = run(play, seed, table=args.table, light=args.light, dump=dump,
                            memory=not args.no_memory)
            per.setdefault(play.name, Score()).add(score)
            total.add(score)
            if args.trace:
                for n in score.trace:
                    print(f"# {play.name} seed {seed}: {n}", file=sys.stderr)
            if args.verbose:
                for n in score.notes:
                    print(f"# {play.name} seed {seed}: {n}", file=sys.stderr)
        if not args.rescore and args.misread is None and not args.suit_misread and \
                args.first_misread is None and \
                not args.short and any(
                g.startswith("worm-derby") for g in games):
            read, there = gap_coins(seed, args.table, args.light)
            total.counts["gap_coins_read"] += read
            total.counts["gap_coins_total"] += there
    for name, score in per.items():
        for f in FIGURES:
            print(f"{name}.{f}={score.counts[f]}")
    for f in ("gap_coins_read", "gap_coins_total"):
        if f in total.counts:
            print(f"{f}={total.counts[f]}")
    for f in FIGURES:
        print(f"{f}={total.counts[f]}")
    print(f"wall_s={time.perf_counter() - t0:.1f}")
    print(f"cpu_s={time.process_time() - c0:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
