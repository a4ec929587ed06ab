"""A worm of the first table read short in every reading: the segments not seen lie on its line.

Segments do not vanish (issue 13). A segment vision cannot tell from the cloth under it (red on
a red gingham) may be missed in every reading of the first table, and a worm missing its head or
its tail leaves no hole to fill (:mod:`referee.worm_up.one_short`). At the start a worm is
straight, its segments one step apart: the segments seen lie on one line, on places a whole
number of steps apart, and those not seen fill the places between them and continue the line
beyond one end or the other, seven in all. Each way of completing the short worms is an
:class:`EndGuess`; the referee keeps the one under which the worms are set up by the rules with
their heads most level, says once where the segments were taken to lie, and keeps the other
ways (:attr:`EndGuess.others`) until the worm is seen whole or its first move tells.

>>> from tabletop.scene import Piece, Scene
>>> seen = Scene.of([Piece("segment", 0, 0, color="red"), Piece("segment", 20, 0, color="red"),
...                  Piece("segment", 40, 0, color="red")])
>>> [g.added for g in end_guesses(seen, {"red": 4}, 20.0)]
[(('red', ((-20.0, 0.0),)),), (('red', ((60.0, 0.0),)),)]
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from referee.worm_up import geometry as geo
from referee.worm_up.state import Worm, WormUpState
from referee.worm_up.table import pt
from tabletop.scene import Piece, Point2, Scene

MOST_SHORT = 3
"""At most this many worms short at once are completed."""

MOST_MISSING = 3
"""A worm with more segments than this not seen is not completed (too little seen of it)."""

STEP_SLACK = 0.35
"""Two segments seen lie a whole number of steps apart, give or take this share of a step."""

Line = tuple[Point2, ...]


@dataclass(frozen=True)
class EndGuess:
    """One way to complete the worms read short on their line.

    Attributes:
        scene: The reading with the segments not seen appended (its indices stay valid).
        added: ``(player, centres)`` of the segments appended for each short worm.
        others: ``(player, lines)``: for each, its whole line under every other way.
    """

    scene: Scene
    added: tuple[tuple[str, tuple[Point2, ...]], ...]
    others: tuple[tuple[str, tuple[Line, ...]], ...]


def _lines(points: Sequence[Point2], n: int, diameter_mm: float,
           straight_mm: float) -> list[Line]:
    """Every line of ``n`` places one step apart holding all of ``points`` (in line order)."""
    if len(points) < 2 or geo.max_deviation(points) > straight_mm:
        return []
    far = max(itertools.combinations(points, 2), key=lambda ab: geo.dist(*ab))
    ux, uy = far[1][0] - far[0][0], far[1][1] - far[0][1]
    norm = math.hypot(ux, uy)
    if norm < 1e-6:
        return []
    ux, uy = ux / norm, uy / norm
    pts = sorted(points, key=lambda p: p[0] * ux + p[1] * uy)
    gaps = [geo.dist(a, b) for a, b in itertools.pairwise(pts)]
    near = [g for g in gaps if g < 1.5 * diameter_mm]
    step = statistics.median(near) if near else diameter_mm
    if not 0.9 * diameter_mm <= step <= 1.3 * diameter_mm:
        return []
    places = [pts[0]]
    for a, b, gap in zip(pts, pts[1:], gaps, strict=False):
        k = round(gap / step)
        if k < 1 or abs(gap / step - k) > STEP_SLACK:
            return []
        places += [(a[0] + (b[0] - a[0]) * j / k, a[1] + (b[1] - a[1]) * j / k)
                   for j in range(1, k)]
        places.append(b)
    spare = n - len(places)
    if spare < 0:
        return []
    out = []
    for ahead in range(spare + 1):
        behind = spare - ahead
        line = [(pts[0][0] - ux * step * j, pts[0][1] - uy * step * j)
                for j in range(behind, 0, -1)]
        line += places
        line += [(pts[-1][0] + ux * step * j, pts[-1][1] + uy * step * j)
                 for j in range(1, ahead + 1)]
        out.append(tuple((round(x, 2), round(y, 2)) for x, y in line))
    return out


def end_guesses(scene: Scene, segments: Mapping[str, int], diameter_mm: float,
                straight_mm: float = 10.0) -> list[EndGuess]:
    """Every way to complete the worms of ``scene`` read short (at most :data:`MOST_MISSING`
    not seen) whose segments lie on one line a whole number of steps apart, where nothing else
    lies. Empty when no worm is short so, or more than :data:`MOST_SHORT` are."""
    options: list[list[tuple[str, tuple[Point2, ...], Line]]] = []
    for colour, n in segments.items():
        mine = [p.centre_mm for p in scene.pieces if p.kind == "segment" and p.color == colour]
        if not 1 <= n - len(mine) <= MOST_MISSING:
            continue
        ways = []
        for line in _lines(mine, n, diameter_mm, straight_mm):
            new = tuple(c for c in line if all(geo.dist(c, m) > diameter_mm / 2 for m in mine))
            if len(new) == n - len(mine) and all(
                    math.dist(p.centre_mm, c) >= diameter_mm / 2
                    for p in scene.pieces for c in new):
                ways.append((colour, new, line))
        if ways:
            options.append(ways)
    if not options or len(options) > MOST_SHORT:
        return []
    guesses = []
    for combo in itertools.product(*options):
        added = tuple((p, new) for p, new, _ in combo)
        others = tuple((p, tuple(line for q, _, line in ways if line != mine))
                       for (p, _, mine), ways in zip(combo, options, strict=True))
        pieces = tuple(Piece("segment", c[0], c[1], color=p) for p, new in added for c in new)
        guesses.append(EndGuess(replace(scene, pieces=(*scene.pieces, *pieces)), added, others))
    return guesses


def oriented(line: Line, like: Worm) -> tuple[Point2, ...]:
    """``line`` tail first, pointing the way ``like`` points."""
    hx, hy = like.head_mm[0] - like.tail_mm[0], like.head_mm[1] - like.tail_mm[1]
    lx, ly = line[-1][0] - line[0][0], line[-1][1] - line[0][1]
    return tuple(pt(c) for c in (line if hx * lx + hy * ly >= 0 else reversed(line)))


def other_ends(worm: Worm, lines: Sequence[Line]) -> list[Worm]:
    """``worm`` under each of the other ways its segments not seen could lie."""
    return [Worm(worm.player, oriented(line, worm)) for line in lines]


def settle_guesses(state: WormUpState, seen: Mapping[str, Sequence[Point2]],
                   still_mm: float) -> WormUpState:
    """``state`` with each guessed worm that ``seen`` shows whole and unmoved settled: as
    guessed, or as the other way it is seen to lie."""
    if not state.guessed:
        return state
    worms = {w.player: w for w in state.worms}
    left = []
    for player, lines in state.guessed:
        pts = seen.get(player, ())
        worm = worms[player]

        def fits(w: Worm, pts: Sequence[Point2] = pts) -> bool:
            return len(pts) == len(w.centres_mm) == len(
                geo.match_still(w.centres_mm, pts, still_mm))

        if fits(worm):
            continue
        alt = next((w for w in other_ends(worm, lines) if fits(w)), None)
        if alt is not None:
            worms[player] = alt
        else:
            left.append((player, lines))
    return replace(state, worms=tuple(worms[w.player] for w in state.worms),
                   guessed=tuple(left))
