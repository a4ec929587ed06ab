"""The race course: start tiles, pylon, gates (Slalom) and obstacles, read from the first scene.

The face-up tiles of the first scene are the start tiles (the two about four tile widths
apart), the pylon (on the start line's perpendicular bisector, farthest from it) and, in
Slalom, the gates (a face-up tile's suit tells its colour: suns red, arms blue). Face-down
tiles are obstacles.

Angles round the pylon are measured from the direction pointing back to the start line,
positive from x towards y in the table frame: ``angle_of`` is 0 towards the start line and
+-pi on the far-side ray (rounding either way is allowed, so the frame's handedness does not
matter here).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from tabletop.pieceset import PieceSet
from tabletop.scene import Piece, Point2, Scene

GATE_COLOURS = {"suns": "red", "arms": "blue"}


@dataclass(frozen=True)
class Gate:
    """A Slalom gate: pass right of red tiles and left of blue ones (relative to travel).

    ``colour`` None: no suit is seen on its tile (hidden in a shadow or a glare); the course
    stands with that gate in doubt until a later reading shows its suit.
    """

    centre_mm: Point2
    colour: str | None

    @property
    def name(self) -> str:
        """The gate in words: "red gate", or "gate whose suit is not read"."""
        return f"{self.colour} gate" if self.colour else "gate whose suit is not read"


@dataclass(frozen=True)
class Course:
    """The fixed tiles of a race and the geometry derived from them.

    Attributes:
        start_mm: Centres of the two start tiles.
        pylon_mm: Centre of the pylon tile.
        gates: Slalom gates (empty otherwise).
        tile_mm: Tile width.
        fixed: The fixed tiles (start tiles, pylon, gates) as pieces.
    """

    start_mm: tuple[Point2, Point2]
    pylon_mm: Point2
    gates: tuple[Gate, ...]
    tile_mm: float
    fixed: tuple[Piece, ...]

    @property
    def unknown_gates(self) -> tuple[int, ...]:
        """Indices of the gates whose colour is not read (:class:`Gate`)."""
        return tuple(k for k, g in enumerate(self.gates) if g.colour is None)

    def with_gate_colour(self, k: int, colour: str) -> Course:
        """The course with gate ``k`` of that colour."""
        return replace(self, gates=tuple(replace(g, colour=colour) if i == k else g
                                         for i, g in enumerate(self.gates)))

    @property
    def start_mid_mm(self) -> Point2:
        """The middle of the start line."""
        (ax, ay), (bx, by) = self.start_mm
        return ((ax + bx) / 2, (ay + by) / 2)

    @property
    def along(self) -> Point2:
        """Unit vector along the start line (from the first start tile to the second)."""
        (ax, ay), (bx, by) = self.start_mm
        n = math.hypot(bx - ax, by - ay)
        return ((bx - ax) / n, (by - ay) / n)

    @property
    def ray_dir(self) -> Point2:
        """Unit vector of the far-side ray: from the pylon, away from the start line."""
        ex, ey = self.along
        nx, ny = -ey, ex
        mx, my = self.start_mid_mm
        if (self.pylon_mm[0] - mx) * nx + (self.pylon_mm[1] - my) * ny < 0:
            nx, ny = -nx, -ny
        return (nx, ny)

    @property
    def pylon_distance_mm(self) -> float:
        """Distance from the start line's middle to the pylon's centre."""
        mx, my = self.start_mid_mm
        return math.hypot(self.pylon_mm[0] - mx, self.pylon_mm[1] - my)

    def angle_of(self, p: Point2) -> float:
        """Angle of ``p`` round the pylon: 0 towards the start line, +-pi on the far ray."""
        rx, ry = self.ray_dir
        vx, vy = p[0] - self.pylon_mm[0], p[1] - self.pylon_mm[1]
        ux, uy = -rx, -ry
        return math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)

    def between_start_tiles(self, p: Point2) -> bool:
        """Whether a point lies between the start tiles (on the start line, within half a
        tile width of it)."""
        (ax, ay), (bx, by) = self.start_mm
        ex, ey = self.along
        t = (p[0] - ax) * ex + (p[1] - ay) * ey
        length = math.hypot(bx - ax, by - ay)
        mx, my = self.start_mid_mm
        off = abs((p[0] - mx) * -ey + (p[1] - my) * ex)
        return self.tile_mm / 2 <= t <= length - self.tile_mm / 2 and off <= self.tile_mm / 2

    def far_ray_mm(self, length_mm: float) -> tuple[Point2, Point2]:
        """The far-side ray as a segment from the pylon's centre."""
        rx, ry = self.ray_dir
        px, py = self.pylon_mm
        return ((px, py), (px + rx * length_mm, py + ry * length_mm))

    def to_json(self) -> dict[str, object]:
        """The course for the dashboard (mm)."""
        return {"start_line": [list(self.start_mm[0]), list(self.start_mm[1])],
                "pylon": list(self.pylon_mm),
                "far_ray": [list(p) for p in self.far_ray_mm(3 * self.tile_mm)],
                "gates": [{"centre": list(g.centre_mm), "colour": g.colour}
                          for g in self.gates]}


def _between(a: Piece, b: Piece, p: Point2, tile_mm: float) -> bool:
    """Whether ``p`` lies between two tiles (on the line joining them, within half a tile)."""
    length = math.hypot(b.x_mm - a.x_mm, b.y_mm - a.y_mm)
    ex, ey = (b.x_mm - a.x_mm) / length, (b.y_mm - a.y_mm) / length
    t = (p[0] - a.x_mm) * ex + (p[1] - a.y_mm) * ey
    off = abs((p[0] - a.x_mm) * -ey + (p[1] - a.y_mm) * ex)
    return tile_mm / 2 <= t <= length - tile_mm / 2 and off <= tile_mm / 2


def face_up_tiles(scene: Scene) -> list[int]:
    """Indices of the face-up tiles."""
    return [i for i, p in enumerate(scene.pieces) if p.kind == "tile" and p.face == "up"]


@dataclass(frozen=True)
class CourseReading:
    """What the first scene says about the course: the course, or why there is none.

    ``extra_idx``: face-up tiles that are neither start tiles nor the pylon (basic game), or
    of no gate's suit (Slalom): they are obstacles lying the wrong way up (or a misread), worth
    a warning.
    """

    course: Course | None
    problem: str = ""
    pieces: tuple[int, ...] = ()
    start_idx: tuple[int, ...] = ()
    pylon_idx: int | None = None
    gate_idx: tuple[int, ...] = ()
    extra_idx: tuple[int, ...] = ()


def read_course(scene: Scene, pieces: PieceSet, slalom: bool, pylon_offset_tiles: float,
                start_apart_tiles: tuple[float, float],
                worm_ends_mm: Sequence[Point2] = (), odd_suits_lie: bool = True
                ) -> CourseReading:
    """Finds the start tiles, the pylon and the gates among the face-up tiles.

    Among the pairs of face-up tiles that could be the start tiles (with a pylon on their
    perpendicular bisector), the pair with the most worm end coins between them wins (worms
    start there), then the pair nearest four tile widths apart, then the farthest pylon. A gate
    tile with no suit seen is a gate of no known colour; one of no gate's suit is an obstacle
    (``odd_suits_lie``; else no course).
    """
    tile = pieces.tile_mm
    up = face_up_tiles(scene)
    if len(up) < 3:
        return CourseReading(None, f"the course needs three face-up tiles (two start tiles and "
                                   f"the pylon) but {len(up)} are face up", tuple(up))
    lo, hi = start_apart_tiles
    best: tuple[tuple[int, float, float], int, int, int] | None = None
    for i, j in itertools.combinations(up, 2):
        a, b = scene.pieces[i], scene.pieces[j]
        d = math.hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm)
        if not lo * tile <= d <= hi * tile:
            continue
        mx, my = (a.x_mm + b.x_mm) / 2, (a.y_mm + b.y_mm) / 2
        ex, ey = (b.x_mm - a.x_mm) / d, (b.y_mm - a.y_mm) / d
        for k in up:
            if k in (i, j):
                continue
            p = scene.pieces[k]
            off = abs((p.x_mm - mx) * ex + (p.y_mm - my) * ey)
            dist = abs((p.x_mm - mx) * -ey + (p.y_mm - my) * ex)
            if off > pylon_offset_tiles * tile or dist < 2 * tile:
                continue
            between = sum(1 for e in worm_ends_mm if _between(a, b, e, tile))
            score = (between, -round(abs(d - 4 * tile) / tile), dist)
            if best is None or score > best[0]:
                best = (score, i, j, k)
    if best is None:
        return CourseReading(None, f"no two face-up tiles {lo:g} to {hi:g} tile widths apart "
                                   f"have a face-up pylon on their perpendicular bisector",
                             tuple(up))
    _, i, j, k = best
    gates: list[Gate] = []
    gate_idx: list[int] = []
    extra: list[int] = []
    for g in up:
        if g in (i, j, k):
            continue
        p = scene.pieces[g]
        if not slalom:
            extra.append(g)
            continue
        colour = GATE_COLOURS.get(p.suit or "")
        if colour is None and p.suit is not None:
            if not odd_suits_lie:
                return CourseReading(None, f"the gate tile at ({p.x_mm:.0f}, {p.y_mm:.0f}) "
                                           f"shows {p.suit}; gates show suns (red) or arms "
                                           f"(blue)", (g,))
            extra.append(g)  # no gate's suit: an obstacle read (or laid) the wrong way up
            continue
        gates.append(Gate(p.centre_mm, colour))  # no suit seen: the gate stands in doubt
        gate_idx.append(g)
    fixed = tuple(scene.pieces[x] for x in (i, j, k, *gate_idx))
    course = Course((scene.pieces[i].centre_mm, scene.pieces[j].centre_mm),
                    scene.pieces[k].centre_mm, tuple(gates), tile, fixed)
    return CourseReading(course, "", (), (i, j), k, tuple(gate_idx), tuple(extra))


def start_pair_found(scene: Scene, pieces: PieceSet, start_apart_tiles: tuple[float, float],
                     worm_ends_mm: Sequence[Point2]) -> bool:
    """Whether two face-up tiles could be the start tiles (``start_apart_tiles`` apart) with a
    worm's end coin between them, whatever the pylon (a course whose pylon is not seen)."""
    tile = pieces.tile_mm
    lo, hi = start_apart_tiles
    up = face_up_tiles(scene)
    for i, j in itertools.combinations(up, 2):
        a, b = scene.pieces[i], scene.pieces[j]
        if lo * tile <= math.dist(a.centre_mm, b.centre_mm) <= hi * tile and \
                any(_between(a, b, e, tile) for e in worm_ends_mm):
            return True
    return False
