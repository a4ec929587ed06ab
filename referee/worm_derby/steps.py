"""One step of a worm: is it possible, and how many steps could a worm make?

A step lifts the coin at one end (the tail) and puts it touching the coin at the other end
(the head). It is possible when the placed coin touches the head, overlaps nothing, does not
touch the worm's own body (a worm never loops) and could slide there from the head through
free space: a coin cannot pass between two obstacles closer than its own diameter (the gap
rule). Other worms and every tile are obstacles; so is the worm's own body, except the head it
grows from and the tail that was lifted.

The slide is tried straight from the head first (the usual case, cheap); when that is blocked
the widest local path (within ``slide_reach`` coin diameters of the head) decides.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely

from referee.base import Judgement
from referee.geometry.fit import OPEN_CLEARANCE_MM, Roadmap, fit_path
from referee.geometry.obstacles import ObstacleSet, piece_shape
from referee.worm_derby.rules import Rule
from referee.worm_derby.settings import DEFAULT_SETTINGS, WormSettings
from referee.worm_derby.words import at, diameter, mm
from tabletop.pieceset import PieceSet
from tabletop.scene import Piece, Point2

RING = -2  # label of the obstacle that bounds a local slide


def step_problem(rule: str, what: str, where_mm: Point2 | None, labels: tuple[int, ...] = ()
                 ) -> Judgement:
    """Why a step is impossible, as a :class:`referee.base.Judgement`.

    Args:
        rule: The verdict's rule code (``touch``, ``overlap``, ``shape``, ``gap``).
        what: The end of a plain sentence, after "the third coin ..." (``would pass through a
            17.2 mm gap between two obstacles; a coin needs 19.05 mm``): the reason.
        where_mm: The point concerned (the pinch of a gap).
        labels: Labels of the obstacles concerned (scene indices; negative for none): the
            pieces.
    """
    return Judgement(rule, what, None, labels, where_mm)


@dataclass(frozen=True)
class StepResult:
    """A step's outcome: a problem, or fine (and perhaps eating a coin, in Cannibal)."""

    problem: Judgement | None = None
    eaten: int | None = None

    @property
    def ok(self) -> bool:
        """Whether the step is possible."""
        return self.problem is None


class StepWorld:
    """Everything on the table that does not move during a worm's turn, prepared once.

    Args:
        obstacles: ``(piece, label)`` pairs; labels are scene indices (for verdicts).
        pieces: The piece set (coin diameter, tile width).
        settings: Tolerances.
        edible: Labels of coins that may be eaten (Cannibal: end coins of worms of length three
            or more); overlaying one of them is no overlap.
    """

    def __init__(self, obstacles: Sequence[tuple[Piece, int]], pieces: PieceSet,
                 settings: WormSettings = DEFAULT_SETTINGS,
                 edible: frozenset[int] = frozenset()) -> None:
        self.pieces = pieces
        self.settings = settings
        self.d = pieces.coin_diameter_mm
        self.r = self.d / 2.0
        self.items = [p for p, _ in obstacles]
        self.labels = [lab for _, lab in obstacles]
        self.obstacles = ObstacleSet.of([piece_shape(p, pieces) for p in self.items],
                                        self.labels)
        self.edible = edible
        # how far a placed coin may reach into each obstacle: into a coin (both measured, each
        # with noise) as far as into its own worm's coins
        coin = np.array([p.kind == "coin" for p in self.items], dtype=bool)
        self.reach_ok_mm = np.where(coin, 2 * settings.overlap_tolerance_mm
                                    + settings.centre_noise_mm,
                                    settings.overlap_tolerance_mm)

    def describe(self, label: int) -> str:
        """A plain name for an obstacle: 'the tile at (300, 500)'."""
        if label == RING:
            return "the edge of the worm's reach"
        try:
            p = self.items[self.labels.index(label)]
        except ValueError:
            return "a piece"
        name = {"tile": "tile", "coin": f"{p.suit or 'unknown'} coin"}.get(p.kind, p.kind)
        return f"the {name} at {at(p.centre_mm)}"

    # ------------------------------------------------------------------ one step

    def check(self, body: Sequence[Point2], placed: Point2) -> StepResult:
        """Checks one step: ``body`` is the worm before it, tail first and head last."""
        s = self.settings
        head, rest = body[-1], list(body[1:-1])
        reach = math.hypot(placed[0] - head[0], placed[1] - head[1])
        if reach > s.touch_factor * self.d:
            return StepResult(step_problem(
                Rule.TOUCH, f"would not touch the worm's end at {at(head)} (centres "
                            f"{mm(reach)} apart; touching coins are at most "
                            f"{mm(s.touch_factor * self.d)} apart)", placed))
        too_near = s.overlap_mm(self.d)
        if reach < too_near:
            return StepResult(step_problem(
                Rule.OVERLAP, f"would overlap the worm's end at {at(head)} (centres {mm(reach)} "
                              f"apart)", placed))
        m = self._matrix(head, placed)
        depth = self.r - m[0]
        hit = np.flatnonzero(depth > self.reach_ok_mm)
        eaten: int | None = None
        if len(hit):
            hit = hit[np.argsort(-depth[hit])]
            labels = [self.labels[i] for i in hit]
            if len(labels) == 1 and labels[0] in self.edible and self._overlays(placed, hit[0]):
                eaten = labels[0]
                m[:, hit[0]] = np.inf
            else:
                return StepResult(step_problem(
                    Rule.OVERLAP, f"would overlap {self.describe(labels[0])} by "
                                  f"{mm(float(depth[hit[0]]))}", placed, tuple(labels)))
        if rest:
            rc = np.asarray(rest)
            dist = np.hypot(rc[:, 0] - placed[0], rc[:, 1] - placed[1])
            j = int(np.argmin(dist))
            if dist[j] < too_near:
                return StepResult(step_problem(
                    Rule.OVERLAP, f"would overlap its own worm's coin at {at(rest[j])}", placed))
            if dist[j] <= s.touch_factor * self.d - s.centre_noise_mm:  # sure beyond noise
                return StepResult(step_problem(
                    Rule.SHAPE, f"would touch its own worm's body at {at(rest[j])}; a worm never "
                                f"loops", placed))
        if self._straight_ok(m, head, rest, placed):
            return StepResult(None, eaten)
        return StepResult(self.slide_problem(head, rest, placed, skip=eaten), eaten)

    def _matrix(self, head: Point2, placed: Point2) -> np.ndarray:
        """Distances from the placed coin's centre, the head's centre and the straight way
        between them to every obstacle, shape (3, N)."""
        return self.obstacles.segment_matrix(np.array([placed, head, head]),
                                             np.array([placed, head, placed]))

    def _straight_ok(self, m: np.ndarray, head: Point2, rest: Sequence[Point2],
                     placed: Point2) -> bool:
        """Whether the coin slides straight from the head (``m`` from :meth:`_matrix`)."""
        if m.shape[1]:
            c_goal, c_start, c_way = (float(x) for x in m.min(axis=1))
        else:
            c_goal = c_start = c_way = 3 * self.d
        if rest:
            body = np.asarray(rest, dtype=float)
            c_goal = min(c_goal, float(np.hypot(*(body - placed).T).min()) - self.r)
            c_start = min(c_start, float(np.hypot(*(body - head).T).min()) - self.r)
            c_way = min(c_way, float(_point_segment_distance(body, head, placed).min()) - self.r)
        need = min(self.r - self.settings.gap_tolerance_mm / 2.0, c_start, c_goal) - 1e-9
        return c_way >= need

    def _overlays(self, placed: Point2, i: int) -> bool:
        g = self.obstacles.geoms[i]
        return math.hypot(g.x - placed[0], g.y - placed[1]) <= self.settings.eat_reach * self.d

    def slide_problem(self, head: Point2, rest: Sequence[Point2], placed: Point2,
                      skip: int | None = None) -> Judgement | None:
        """None when a coin can slide from ``head`` to ``placed``; else the gap problem.

        The way may be as tight as the places where the coin starts and ends (they were
        accepted), never tighter; else it needs the coin's diameter less the gap tolerance.
        """
        s = self.settings
        body = np.asarray(rest, dtype=float).reshape(-1, 2)
        m = self._matrix(head, placed)
        if skip is not None:
            m[:, [k for k, lab in enumerate(self.labels) if lab == skip]] = np.inf
        if m.shape[1]:
            c_goal, c_start = (float(x) for x in m[:2].min(axis=1))
        else:
            c_goal = c_start = self.r
        if len(body):
            c_goal = min(c_goal, float(np.hypot(*(body - placed).T).min()) - self.r)
            c_start = min(c_start, float(np.hypot(*(body - head).T).min()) - self.r)
        need = min(self.r - s.gap_tolerance_mm / 2.0, c_start, c_goal) - 1e-9
        local = self._local_obstacles(head, body, skip)
        # the local obstacles are walled in by the ring: a narrow frame round them will do
        fit = fit_path(local, head, placed, 2 * need, tolerance_mm=0.0,
                       roadmap=Roadmap(local, frame_margin_mm=OPEN_CLEARANCE_MM))
        if fit.fits:
            return None
        pinch = fit.pinch_mm or placed
        near = local.nearest(shapely.Point(pinch), fit.clearance_mm / 2 + 1.0)
        labels = tuple(local.labels[i] for _, i in near[:2])
        if RING in labels or len(labels) < 2:
            what = (f"could not slide there from the worm's end at {at(head)}: the way is "
                    f"{mm(fit.clearance_mm)} wide at {at(pinch)}; a coin needs {diameter(self.d)}")
            if len(labels) == 1 and labels[0] != RING:
                what = (f"could not slide there from the worm's end at {at(head)}: "
                        f"{self.describe(labels[0])} is in the way")
        else:
            what = (f"would pass through a {mm(fit.clearance_mm)} gap between "
                    f"{self.describe(labels[0])} and {self.describe(labels[1])}; a coin needs "
                    f"{diameter(self.d)}")
        return step_problem(Rule.GAP, what, pinch, labels)

    def _local_obstacles(self, head: Point2, body: np.ndarray, skip: int | None) -> ObstacleSet:
        reach = self.settings.slide_reach * self.d
        shapes: list[tuple[shapely.Geometry, float]] = []
        labels: list[int] = []
        for _, i in self.obstacles.nearest(shapely.Point(head), reach + self.r):
            if self.obstacles.labels[i] != skip:
                shapes.append((self.obstacles.geoms[i], float(self.obstacles.radii_mm[i])))
                labels.append(self.obstacles.labels[i])
        for x, y in body:
            if math.hypot(x - head[0], y - head[1]) <= reach + self.d:
                shapes.append((shapely.Point(x, y), self.r))
                labels.append(-1)
        big = shapely.box(head[0] - 2 * reach, head[1] - 2 * reach,
                          head[0] + 2 * reach, head[1] + 2 * reach)
        ring = big.difference(shapely.Point(head).buffer(reach + self.r, quad_segs=16))
        shapes.append((ring, 0.0))
        labels.append(RING)
        return ObstacleSet.of(shapes, labels)

    # ------------------------------------------------------------------ search

    def candidates(self, body: Sequence[Point2]) -> list[Point2]:
        """Placements to try around the head: straight on first, then turning either way."""
        head = body[-1]
        if len(body) >= 2:
            prev = body[-2]
            base = math.atan2(head[1] - prev[1], head[0] - prev[0])
        else:
            base = 0.0
        n = self.settings.search_angles
        step = 2 * math.pi / n
        dist = self.d + min(0.3, self.settings.overlap_tolerance_mm)
        out = []
        for k in range(n):
            off = ((k + 1) // 2) * step * (1 if k % 2 else -1)
            a = base + off
            out.append((head[0] + dist * math.cos(a), head[1] + dist * math.sin(a)))
        return out

    def quick_ok(self, body: Sequence[Point2], placed: Point2) -> bool:
        """A step check for searching: like :meth:`check` but the slide only straight."""
        s = self.settings
        rest = body[1:-1]
        if rest:
            rc = np.asarray(rest)
            if np.hypot(rc[:, 0] - placed[0], rc[:, 1] - placed[1]).min() <= \
                    s.touch_factor * self.d:
                return False
        m = self._matrix(body[-1], placed)
        if m.shape[1] and float(self.r - m[0].min()) > s.overlap_tolerance_mm:
            return False
        return self._straight_ok(m, body[-1], rest, placed)

    def longest_move(self, body: Sequence[Point2], limit: int) -> list[Point2]:
        """The placements of a longest possible move from this end (at most ``limit``
        steps), found by depth-first search within the settings' budget."""
        budget = [self.settings.search_budget]
        best: list[Point2] = []

        def dfs(cur: list[Point2], placed: list[Point2]) -> bool:
            nonlocal best
            if len(placed) > len(best):
                best = list(placed)
            if len(placed) >= limit:
                return True
            for q in self.candidates(cur):
                if budget[0] <= 0:
                    return False
                budget[0] -= 1
                if self.quick_ok(cur, q) and dfs([*cur[1:], q], [*placed, q]):
                    return True
            return False

        dfs(list(body), [])
        return best


def _point_segment_distance(pts: np.ndarray, a: Point2, b: Point2) -> np.ndarray:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    n2 = dx * dx + dy * dy
    if n2 < 1e-12:
        return np.hypot(pts[:, 0] - ax, pts[:, 1] - ay)
    t = np.clip(((pts[:, 0] - ax) * dx + (pts[:, 1] - ay) * dy) / n2, 0.0, 1.0)
    return np.hypot(pts[:, 0] - (ax + t * dx), pts[:, 1] - (ay + t * dy))
