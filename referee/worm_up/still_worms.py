"""A worm that did not move keeps its segments: one not seen is filled from the accepted table.

A worm moves by taking segments from its tail to its head, so a worm whose segments are all
read where they lay, but one, did not move: the one not seen is still where it lay (issue 13:
the previous accepted table resolves a piece that did not move and is not seen now). A worm
with a segment read in a new place may have moved: nothing is filled (a doubt, as before).

>>> from referee.worm_up.state import Worm
>>> from tabletop.scene import Piece, Scene
>>> worm = Worm("red", ((0.0, 0.0), (20.0, 0.0), (40.0, 0.0)))
>>> seen = Scene.of([Piece("segment", 0, 0, color="red"), Piece("segment", 40.5, 0, color="red")])
>>> filled = fill_still_worms([worm], seen, 20.0)
>>> [(p.kind, p.color, p.centre_mm) for p in filled.pieces[2:]]
[('segment', 'red', (20.0, 0.0))]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from referee.worm_up.state import Worm
from tabletop.scene import Piece, Scene

STAYED_SHARE = 0.45
"""A segment read nearer its old place than this share of its width did not move."""


def fill_still_worms(worms: Sequence[Worm], scene: Scene, diameter_mm: float,
                     most: int = 1) -> Scene:
    """``scene`` with, for each worm read at most ``most`` segments short whose other segments
    all lie where they lay (it did not move), the segments not seen put back where they lay
    (appended: the reading's indices stay valid), unless something lies there now. With
    ``most`` the worm's length, a worm not seen at all is put back where it lay."""
    stayed = STAYED_SHARE * diameter_mm
    added: list[Piece] = []
    for worm in worms:
        mine = [p.centre_mm for p in scene.pieces if p.kind == "segment" and p.color == worm.player]
        short = len(worm.centres_mm) - len(mine)
        if not 1 <= short <= most or (not mine and most < len(worm.centres_mm)):
            continue
        if not all(any(math.dist(c, o) <= stayed for o in worm.centres_mm) for c in mine):
            continue
        gone = [o for o in worm.centres_mm if all(math.dist(c, o) > stayed for c in mine)]
        if len(gone) != short or any(math.dist(p.centre_mm, g) < diameter_mm / 2
                                     for p in scene.pieces for g in gone):
            continue
        added.extend(Piece("segment", g[0], g[1], color=worm.player) for g in gone)
    if not added:
        return scene
    return replace(scene, pieces=(*scene.pieces, *added))
