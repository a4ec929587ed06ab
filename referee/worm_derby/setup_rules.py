"""The rules of a Worm Derby setup (the first table), each a named check.

The first table that shows a course is judged by :func:`judge_setup`: the rules of
:data:`SETUP_RULES` are asked in order and the first that finds something says why the course
is not set up (rule code ``setup``). A judgement with a ``doubt`` is something a misread could
explain: the table is asked instead of faulted. Each rule is a small function
``rule_<what>(setup) -> Judgement | None`` over a :class:`SetupCheck`; the rules for each
worm's start (:data:`WORM_START_RULES`) are asked worm by worm.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from referee.base import Judgement
from referee.geometry.obstacles import piece_shape
from referee.worm_derby.course import Course, CourseReading, start_pair_found
from referee.worm_derby.rules import Rule
from referee.worm_derby.state import WormTrack
from referee.worm_derby.words import at, count, mm, possessive
from referee.worm_derby.worms import WormShape, extract_worm, straightness_mm
from tabletop.scene import Point2, Scene

if TYPE_CHECKING:
    from referee.worm_derby.game import WormDerby

SETUP = Rule.SETUP
COIN_MISREAD = "is a coin hidden or misread?"


def start_track(course: Course, player: str, pts: tuple[Point2, ...]) -> WormTrack:
    """A worm at the start: the end between the start tiles is the tail (the worm sets off
    towards the pylon)."""
    if course.between_start_tiles(pts[-1]) and not course.between_start_tiles(pts[0]):
        pts = pts[::-1]
    return WormTrack(player, pts, tuple(course.angle_of(p) for p in pts), len(pts))


class SetupCheck:
    """The first table as the setup rules see it: the facts each rule needs, worked out once.

    Args:
        game: The game (settings, pieces, players, worm lengths, how it reads a course).
        scene: The table.
    """

    def __init__(self, game: WormDerby, scene: Scene) -> None:
        self.game, self.scene = game, scene
        self.settings = game.settings
        self.tile_mm = game.pieces.tile_mm

    @cached_property
    def shapes(self) -> dict[str, WormShape]:
        """Each player's coins read as a worm."""
        return {p: extract_worm(self.scene, p, self.game.d, self.settings)
                for p in self.game.players}

    @cached_property
    def worm_ends(self) -> tuple[Point2, ...]:
        """The end coins of every worm read as one chain."""
        ends: list[Point2] = []
        for player in self.game.players:
            shape = self.shapes[player]
            if shape.ok:
                ends += [self.scene.pieces[shape.coins[0]].centre_mm,
                         self.scene.pieces[shape.coins[-1]].centre_mm]
        return tuple(ends)

    @cached_property
    def reading(self) -> CourseReading:
        """The course (start tiles, pylon, gates), found where the worms' ends are."""
        return self.game.read_course(self.scene, self.worm_ends)

    @property
    def course(self) -> Course:
        """The course (asked only once :func:`rule_course_found` has passed)."""
        assert self.reading.course is not None
        return self.reading.course

    @cached_property
    def tiles(self) -> list[int]:
        """Indices of every tile."""
        return [i for i, p in enumerate(self.scene.pieces) if p.kind == "tile"]

    @cached_property
    def polys(self) -> dict[int, BaseGeometry]:
        """Each tile's outline."""
        return {i: piece_shape(self.scene.pieces[i], self.game.pieces)[0] for i in self.tiles}

    @cached_property
    def worms(self) -> tuple[WormTrack, ...]:
        """The worms at the start (asked only once every worm's start rules have passed)."""
        return tuple(start_track(self.course, p, tuple(
            self.scene.pieces[i].centre_mm for i in self.shapes[p].coins))
            for p in self.game.players)


SetupRule = Callable[[SetupCheck], Judgement | None]
WormStartRule = Callable[[SetupCheck, str, WormShape], Judgement | None]


def rule_course_found(setup: SetupCheck) -> Judgement | None:
    """Two start tiles and a pylon (and, in Slalom, gates) are found among the face-up tiles.

    When a misread explains the course not found, the table is asked (a doubt): fewer than
    three tiles face up; a face-down tile that, face up, would complete the course; start tiles
    with the worms' ends between them but no pylon seen. (In Slalom a face-up tile with no suit
    seen is a gate in doubt, :func:`gate_doubts`, and one of no gate's suit an obstacle read or
    laid the wrong way up, :func:`setup_warnings`: neither stops the course.)"""
    reading = setup.reading
    if reading.course is not None:
        return None
    return Judgement(SETUP, reading.problem, None, reading.pieces,
                     doubt=_course_misread(setup))


def _course_misread(setup: SetupCheck) -> str:
    """The question for the table when a misread explains why no course is found (empty when
    none does)."""
    scene = setup.scene
    up = [i for i, p in enumerate(scene.pieces) if p.kind == "tile" and p.face == "up"]
    if len(up) < 3:
        return "is a tile hidden or misread, or is the course not set up yet?"
    for i, p in enumerate(scene.pieces):
        if p.kind != "tile" or p.face != "down":
            continue
        flipped = replace(scene, pieces=tuple(replace(q, face="up") if k == i else q
                                              for k, q in enumerate(scene.pieces)))
        if setup.game.read_course(flipped, setup.worm_ends).course is not None:
            return f"is the tile at {at(p.centre_mm)} face up and misread?"
    if start_pair_found(scene, setup.game.pieces, setup.settings.start_apart_tiles,
                        setup.worm_ends):
        return "the worms lie between two start tiles: is the pylon tile hidden or misread?"
    course = setup.game.course_without_a_start_tile(scene)
    if course is not None:
        return f"is the start tile at {at(course.start_mm[1])} hidden or misread?"
    return ""


def rule_tiles_apart(setup: SetupCheck) -> Judgement | None:
    """No two tiles overlap."""
    polys, pieces = setup.polys, setup.scene.pieces
    for a in setup.tiles:
        for b in setup.tiles:
            if a < b and polys[a].intersection(polys[b]).area > 1.0:
                return Judgement(SETUP, f"the tiles at {at(pieces[a].centre_mm)} and "
                                        f"{at(pieces[b].centre_mm)} overlap", None, (a, b))
    return None


def rule_obstacles_clear(setup: SetupCheck) -> Judgement | None:
    """Obstacles (face-down tiles) keep three tile widths from the start line and the pylon."""
    s, course, reading = setup.settings, setup.course, setup.reading
    start_line = shapely.LineString(course.start_mm)
    pylon_poly = setup.polys[reading.pylon_idx] if reading.pylon_idx is not None else None
    keep = s.obstacle_clear_tiles * setup.tile_mm
    for i in setup.tiles:
        p = setup.scene.pieces[i]
        if p.face != "down":
            continue
        for name, geom in (("start line", start_line), ("pylon", pylon_poly)):
            if geom is None:
                continue
            dist = setup.polys[i].distance(geom)
            if dist < keep - s.same_place_mm:
                return Judgement(SETUP, f"the obstacle at {at(p.centre_mm)} is {dist:.0f} mm "
                                        f"from the {name}; obstacles keep three tile widths "
                                        f"({keep:.0f} mm) away", None, (i,), p.centre_mm)
    return None


def rule_worm_is_chain(setup: SetupCheck, player: str, shape: WormShape) -> Judgement | None:
    """A worm is one chain of touching coins."""
    if shape.ok:
        return None
    return Judgement(SETUP, f"{possessive(player)} worm is not a chain: {shape.detail}", None,
                     shape.pieces, doubt=COIN_MISREAD)


def rule_worm_length(setup: SetupCheck, player: str, shape: WormShape) -> Judgement | None:
    """A worm has the coins the setup gives it (six unless ``lengths`` says otherwise)."""
    n, length = len(shape.coins), setup.game.lengths[player]
    if n == length:
        return None
    return Judgement(SETUP, f"{possessive(player)} worm has {n} coins; it should have {length}",
                     None, shape.coins, doubt=COIN_MISREAD)


def _centres(setup: SetupCheck, shape: WormShape) -> np.ndarray:
    return np.array([setup.scene.pieces[i].centre_mm for i in shape.coins])


def rule_worm_straight(setup: SetupCheck, player: str, shape: WormShape) -> Judgement | None:
    """A worm starts straight."""
    off = straightness_mm(_centres(setup, shape))
    if off > setup.settings.straight_mm:
        return Judgement(SETUP, f"{possessive(player)} worm does not start straight (a coin is "
                                f"{mm(off)} off its line)", None, shape.coins)
    return None


def rule_worm_square(setup: SetupCheck, player: str, shape: WormShape) -> Judgement | None:
    """A worm starts perpendicular to the start line."""
    pts = _centres(setup, shape)
    if len(pts) < 2:
        return None
    dx, dy = pts[-1] - pts[0]
    ex, ey = setup.course.along
    lean = math.degrees(math.asin(min(1.0, abs(dx * ex + dy * ey) / math.hypot(dx, dy))))
    if lean > setup.settings.perpendicular_deg:
        return Judgement(SETUP, f"{possessive(player)} worm leans {lean:.0f} degrees from "
                                f"square to the start line; worms start perpendicular to it",
                         None, shape.coins)
    return None


def rule_worm_at_start(setup: SetupCheck, player: str, shape: WormShape) -> Judgement | None:
    """One end coin of a worm lies between the start tiles."""
    pts = _centres(setup, shape)
    ends = [tuple(pts[0]), tuple(pts[-1])]
    if any(setup.course.between_start_tiles(e) for e in ends):  # type: ignore[arg-type]
        return None
    return Judgement(SETUP, f"{possessive(player)} worm has no end coin between the start "
                            f"tiles", None, shape.coins)


WORM_START_RULES: tuple[WormStartRule, ...] = (
    rule_worm_is_chain, rule_worm_length, rule_worm_straight, rule_worm_square,
    rule_worm_at_start)
"""The rules of one worm's start, in the order they are asked."""


def rule_worms_start(setup: SetupCheck) -> Judgement | None:
    """Every worm starts right (:data:`WORM_START_RULES`, worm by worm)."""
    for player in setup.game.players:
        for rule in WORM_START_RULES:
            found = rule(setup, player, setup.shapes[player])
            if found is not None:
                return found
    return None


def rule_no_stray_coins(setup: SetupCheck) -> Judgement | None:
    """Every coin on the table belongs to a worm in the race. Not one of :data:`SETUP_RULES`:
    a coin of no worm (a misread, or a coin to take off) does not stop the race; it lies where
    it is, an obstacle like a tile, and the setup's warnings name it."""
    pieces = setup.scene.pieces
    strays = [i for i, p in enumerate(pieces)
              if p.kind == "coin" and p.suit not in setup.game.players]
    if not strays:
        return None
    p = pieces[strays[0]]
    return Judgement(SETUP, f"a coin at {at(p.centre_mm)} ({p.suit or 'suit unknown'}) belongs "
                            f"to no worm in the race", None, tuple(strays),
                     doubt="is it a misread?" if p.suit is None else "")


def rule_coins_clear_of_tiles(setup: SetupCheck) -> Judgement | None:
    """No worm's coin lies on a tile."""
    s, d = setup.settings, setup.game.d
    for w in setup.worms:
        for other in (x for x in setup.scene.pieces if x.kind == "tile"):
            outline = piece_shape(other, setup.game.pieces)[0]
            for c in w.coins_mm:
                depth = d / 2 - outline.distance(shapely.Point(c))
                if depth > s.overlap_tolerance_mm:
                    return Judgement(SETUP, f"{possessive(w.player)} coin at {at(c)} overlaps "
                                            f"the tile at {at(other.centre_mm)}", None, (), c)
    return None


SETUP_RULES: tuple[SetupRule, ...] = (
    rule_course_found, rule_tiles_apart, rule_obstacles_clear, rule_worms_start,
    rule_coins_clear_of_tiles)
"""The rules of a setup, in the order they are asked (every one's code is ``setup``)."""


@dataclass(frozen=True)
class SetupJudged:
    """A setup judged: the first rule broken (a clause, to be worded by the game), or the
    course and the worms at the start with the verdict's reason and the warnings."""

    problem: Judgement | None
    course: Course | None
    worms: tuple[WormTrack, ...] = ()
    reason: str = ""
    warnings: tuple[str, ...] = ()


def gate_doubts(course: Course, scene: Scene) -> tuple[Judgement, ...]:
    """The gates of a course set up whose tile shows no suit, each a question for the table:
    the race goes on, and only a move whose verdict depends on that gate's colour is asked
    about (not faulted) until a reading shows it."""
    out = []
    for k in course.unknown_gates:
        g = course.gates[k]
        i = min((i for i, p in enumerate(scene.pieces) if p.kind == "tile" and p.face == "up"),
                key=lambda i: math.dist(scene.pieces[i].centre_mm, g.centre_mm))
        out.append(Judgement(SETUP, f"the gate tile at {at(g.centre_mm)} shows no suit; gates "
                                    f"show suns (red) or arms (blue)", None, (i,), g.centre_mm,
                             doubt="the race goes on, and a move past it is judged once its "
                                   "suit is read: is its suit hidden or misread?"))
    return tuple(out)


def judge_setup(game: WormDerby, scene: Scene) -> SetupJudged:
    """Judges the first table: the rules of :data:`SETUP_RULES` in order."""
    setup = SetupCheck(game, scene)
    for rule in SETUP_RULES:
        found = rule(setup)
        if found is not None:
            return SetupJudged(found, setup.reading.course)
    course, tiles = setup.course, setup.tiles
    n_obst = sum(1 for i in tiles if scene.pieces[i].face == "down")
    gates = f", {count(len(course.gates), 'gate')}" if course.gates else ""
    reason = (f"the course is set up: start tiles {math.dist(*course.start_mm):.0f} mm "
              f"apart, the pylon {course.pylon_distance_mm:.0f} mm away, "
              f"{count(n_obst, 'obstacle')}{gates}, {count(len(setup.worms), 'worm')}")
    return SetupJudged(None, course, setup.worms, reason, setup_warnings(setup))


def setup_warnings(setup: SetupCheck) -> tuple[str, ...]:
    """What is allowed but unusual about a course: a coin of no worm in the race, face-up
    tiles that are no part of it, the start tiles far from four tile widths apart, a small
    table."""
    s, course, scene = setup.settings, setup.course, setup.scene
    out = []
    stray = rule_no_stray_coins(setup)
    if stray is not None:
        out.append(f"{stray.reason}: it is left where it lies, an obstacle (is it a misread, "
                   f"or a coin to take off the table?)")
    for i in setup.reading.extra_idx:
        p = scene.pieces[i]
        if setup.game.variant_name == "slalom":  # (a tile of no gate's suit)
            out.append(f"the face-up tile at {at(p.centre_mm)} shows {p.suit}, no gate's suit "
                       f"(gates show suns or arms); it counts as an obstacle")
            continue
        out.append(f"the face-up tile at {at(p.centre_mm)} is neither a start tile nor the "
                   f"pylon; it counts as an obstacle (obstacles lie face down)")
    apart = math.dist(*course.start_mm) / setup.tile_mm
    lo, hi = s.start_apart_usual_tiles
    if not lo <= apart <= hi:
        out.append(f"the start tiles are {apart:.1f} tile widths apart; the rules ask for "
                   f"about four")
    if course.pylon_distance_mm < s.small_table_mm:
        out.append(f"small table: the pylon is {course.pylon_distance_mm:.0f} mm from the "
                   f"start line; the rules ask for 3 to 6 feet (914 to 1829 mm)")
    return tuple(out)
