"""A worm of the first table read one segment short at an end: the segment not seen lies at one
end or the other.

Segments do not vanish (issue 13). A segment vision cannot tell from the cloth under it (red on
a red gingham) may be missed in every reading of the first table, and a worm missing its head or
its tail segment leaves no hole to fill (:mod:`referee.worm_up.one_short`). At the start a worm
is straight, so the segment not seen lies one step beyond one of its ends, along the worm. Each
way of completing the short worms is a :class:`EndGuess`; the referee keeps the one under which
the worms are set up by the rules (their heads most level), says once where the segment is
taken to lie, and keeps the other end (:attr:`EndGuess.others`) until the worm is seen whole or
its first move tells which end it was.

>>> from tabletop.scene import Piece, Scene
>>> seen = Scene.of([Piece("segment", 0, 0, color="red"), Piece("segment", 20, 0, color="red"),
...                  Piece("segment", 40, 0, color="red")])
>>> [g.added for g in end_guesses(seen, {"red": 4}, 20.0)]
[(('red', (-20.0, 0.0)),), (('red', (60.0, 0.0)),)]
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from referee.worm_up import geometry as geo
from referee.worm_up.state import Worm, WormUpState
from referee.worm_up.table import pt
from tabletop.scene import Piece, Point2, Scene

MOST_SHORT = 3
"""At most this many worms short at once are completed (each has two ends to try)."""


@dataclass(frozen=True)
class EndGuess:
    """One way to complete the worms read one short at an end.

    Attributes:
        scene: The reading with a segment appended for each short worm (indices stay valid).
        added: ``(player, centre)`` of each segment appended.
        others: ``(player, centre)`` of the other end's place for each (the guess not taken).
    """

    scene: Scene
    added: tuple[tuple[str, Point2], ...]
    others: tuple[tuple[str, Point2], ...]


def _ends(points: list[Point2], diameter_mm: float) -> tuple[Point2, Point2] | None:
    """The places one step beyond either end of a chain of ``points`` (in chain order)."""
    steps = [geo.dist(a, b) for a, b in itertools.pairwise(points)]
    step = sum(steps) / len(steps) if steps else diameter_mm
    out = []
    for end, nxt in ((points[0], points[1]), (points[-1], points[-2])):
        dx, dy = end[0] - nxt[0], end[1] - nxt[1]
        norm = math.hypot(dx, dy)
        if norm < 1e-6:
            return None
        out.append((round(end[0] + dx / norm * step, 2), round(end[1] + dy / norm * step, 2)))
    return out[0], out[1]


def end_guesses(scene: Scene, segments: Mapping[str, int], diameter_mm: float,
                gap_mm: float = 5.0) -> list[EndGuess]:
    """Every way to complete the worms of ``scene`` read exactly one segment short whose
    segments form one chain: a segment one step beyond either end (where nothing lies).
    Empty when no worm is short so, or more than :data:`MOST_SHORT` are."""
    options: list[list[tuple[tuple[str, Point2], tuple[str, Point2]]]] = []
    for colour, n in segments.items():
        mine = [p.centre_mm for p in scene.pieces if p.kind == "segment" and p.color == colour]
        if len(mine) != n - 1 or len(mine) < 2:
            continue
        order = geo.best_chain(mine, diameter_mm, gap_mm)
        if order is None:
            continue
        ends = _ends([mine[k] for k in order], diameter_mm)
        if ends is None:
            continue
        free = [e for e in ends if all(math.dist(p.centre_mm, e) >= diameter_mm / 2
                                       for p in scene.pieces)]
        if not free:
            continue
        options.append([((colour, e), (colour, ends[1] if e == ends[0] else ends[0]))
                        for e in free])
    if not options or len(options) > MOST_SHORT:
        return []
    guesses = []
    for combo in itertools.product(*options):
        added = tuple(a for a, _ in combo)
        others = tuple(o for _, o in combo)
        pieces = tuple(Piece("segment", c[0], c[1], color=p) for p, c in added)
        guesses.append(EndGuess(replace(scene, pieces=(*scene.pieces, *pieces)), added, others))
    return guesses


def other_end(worm: Worm, taken: Point2, other: Point2) -> Worm:
    """``worm`` with its segment guessed at ``taken`` (its tail or its head) lying one step
    beyond its other end, at ``other``, instead (tail first as always)."""
    c = worm.centres_mm
    if geo.dist(c[0], taken) <= geo.dist(c[-1], taken):
        return Worm(worm.player, (*c[1:], pt(other)))
    return Worm(worm.player, (pt(other), *c[:-1]))


def settle_guesses(state: WormUpState, seen: Mapping[str, Sequence[Point2]],
                   still_mm: float) -> WormUpState:
    """``state`` with each guessed worm that ``seen`` shows whole and unmoved settled: as
    guessed, or with the segment at the other end when it is seen there."""
    if not state.guessed:
        return state
    worms = {w.player: w for w in state.worms}
    left = []
    for player, taken, other in state.guessed:
        pts = seen.get(player, ())
        worm = worms[player]
        alt = other_end(worm, taken, other)
        if len(pts) == len(worm.centres_mm) and \
                len(geo.match_still(alt.centres_mm, pts, still_mm)) == len(pts):
            worms[player] = alt
        elif not (len(pts) == len(worm.centres_mm) and
                  len(geo.match_still(worm.centres_mm, pts, still_mm)) == len(pts)):
            left.append((player, taken, other))
    return replace(state, worms=tuple(worms[w.player] for w in state.worms),
                   guessed=tuple(left))
