"""A worm read one segment short at an end of its chain, in every reading: every place the
segment not seen can lie.

Segments do not vanish (issue 13). A worm read with one segment fewer than it has, the others
one chain of touching segments, lacks one at its tail or at its head: at its tail, either where
a segment of it lay on the accepted table (it stayed) or one step behind the tail; at its head,
one step ahead. The table cannot tell which; so the reading is judged once per place
(:func:`end_places`), and a verdict is given only when every place gives the same one (the same
player, legality and rule, :func:`referee.worm_up.game.WormUp.step`): a move of 4 seen as 5 new
segments and 1 kept is one too many wherever the sixth lies.

>>> from referee.worm_up.state import Worm
>>> old = Worm("red", ((0.0, 0.0), (20.0, 0.0), (40.0, 0.0)))
>>> end_places(old, [(40.0, 0.0), (60.0, 0.0)], 20.0, 5.0)
[(20.0, 0.0), (80.0, 0.0)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from referee.worm_up import geometry as geo
from referee.worm_up.state import Worm
from tabletop.scene import Piece, Point2, Scene


def end_places(old: Worm, chain: Sequence[Point2], diameter_mm: float,
               gap_mm: float) -> list[Point2]:
    """Where the one segment not seen of worm ``old``, read as ``chain`` (one chain, end to
    end), can lie: a place of ``old`` touching an end of ``chain`` that no segment seen
    takes; else one step beyond that end, along the line of its last two segments. One
    place per end (none for a chain of fewer than 2)."""
    if len(chain) < 2:
        return []
    places: list[Point2] = []
    for end, prev in ((chain[0], chain[1]), (chain[-1], chain[-2])):
        kept = [o for o in old.centres_mm
                if all(geo.dist(o, c) > diameter_mm / 2 for c in chain)
                and geo.dist(o, end) <= diameter_mm + gap_mm]
        if kept:
            places.append(min(kept, key=lambda o: geo.dist(o, end)))
            continue
        dx, dy = end[0] - prev[0], end[1] - prev[1]
        norm = math.hypot(dx, dy) or 1.0
        places.append((round(end[0] + diameter_mm * dx / norm, 2),
                       round(end[1] + diameter_mm * dy / norm, 2)))
    return places


def with_segment(scene: Scene, colour: str, place: Point2) -> Scene:
    """``scene`` with a segment of ``colour`` at ``place`` appended (indices stay valid)."""
    return replace(scene, pieces=(*scene.pieces, Piece("segment", place[0], place[1],
                                                       color=colour)))
