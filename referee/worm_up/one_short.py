"""A worm read one segment short with a hole of one segment in it: the segment not seen lies in
the hole.

Segments do not vanish (issue 13). When vision misses one segment in the middle of a worm, the
worm as read has a gap of about two segments' length between two of its segments (as short as
two segments less twice the chain gap: the segments beside it may be read a few mm into it),
with nothing in it; a segment there makes the worm one chain again. When exactly one such
place exists, the segment not seen is put there. The reading completed this way is not a
complete reading of its own: the referee lets it give a legal verdict, and a foul only of the
worm judged under every count it may have moved (:mod:`referee.worm_up.short_counts`,
:meth:`referee.worm_up.game.WormUp.step`). A segment missing at either end of a worm leaves
no hole (see :mod:`referee.worm_up.short_counts`).

>>> from tabletop.scene import Piece, Scene
>>> seen = Scene.of([Piece("segment", 0, 0, color="red"), Piece("segment", 41, 0, color="red"),
...                  Piece("segment", 61, 0, color="red")])
>>> filled = fill_holes(seen, {"red": 4}, 20.0, 5.0)
>>> [(p.color, p.centre_mm) for p in filled.pieces[3:]]
[('red', (20.5, 0.0))]
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

from referee.worm_up import geometry as geo
from tabletop.scene import Piece, Scene


def fill_holes(scene: Scene, segments: Mapping[str, int], diameter_mm: float,
               gap_mm: float) -> Scene | None:
    """``scene`` with, for each colour read one short of its ``segments`` whose segments
    leave exactly one hole a segment fills to make one chain, a segment there (appended: the
    reading's indices stay valid); None when nothing is filled."""
    added: list[Piece] = []
    for colour, n in segments.items():
        mine = [p.centre_mm for p in scene.pieces if p.kind == "segment" and p.color == colour]
        if len(mine) != n - 1 or len(mine) < 2:
            continue
        holes = []
        for i in range(len(mine)):
            for j in range(i + 1, len(mine)):
                a, b = mine[i], mine[j]
                if not 2 * (diameter_mm - gap_mm) <= math.dist(a, b) <= 2 * (diameter_mm + gap_mm):
                    continue
                mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                if any(math.dist(p.centre_mm, mid) < diameter_mm / 2 for p in scene.pieces):
                    continue
                if geo.best_chain([*mine, mid], diameter_mm, gap_mm) is not None:
                    holes.append(mid)
        if len(holes) == 1:
            x, y = holes[0]
            added.append(Piece("segment", round(x, 2), round(y, 2), color=colour))
    if not added:
        return None
    return replace(scene, pieces=(*scene.pieces, *added))
