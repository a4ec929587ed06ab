"""A segment of one worm read with another worm's colour, put right from what the table keeps.

Segments are conserved: a worm has its segments (``segments`` each) and moves by taking them
from its tail to its head. When the camera reads one of worm B's segments with worm A's colour
(a yellow under a warm lamp read as red), A shows one segment too many and B one too few. The
table itself says whose it is (issue 13: the previous accepted table resolves doubtful
readings of pieces that did not move):

- a segment read as A where one of B's lay on the accepted table, no segment of B read there,
  with A one over and B one short, is B's (a worm does not take another's segments);
- a segment read as B where none of B's lay, B's other segments all read where they lay (B did
  not move: its segments are all there, so this one is none of its own), the one worm one short
  A touching it: it is A's;
- on the first table (no accepted table yet), A one over and no single chain, B one short:
  the one segment of A whose leaving makes A one chain and which makes B one chain with B's
  segments is B's.

The segment keeps its place and index (a plain misread put right); nothing is recoloured when
more than the two worms are off, or when no segment or more than one fits.

>>> from referee.worm_up.state import Worm
>>> from tabletop.scene import Piece, Scene
>>> red = Worm("red", ((0.0, 0.0), (20.0, 0.0), (40.0, 0.0)))
>>> blue = Worm("blue", ((0.0, 50.0), (20.0, 50.0), (40.0, 50.0)))
>>> seen = Scene.of([Piece("segment", x, 0, color="red") for x in (0, 20, 40)]
...                 + [Piece("segment", x, 50, color="blue") for x in (0, 20)]
...                 + [Piece("segment", 40, 50, color="red")])
>>> recoloured = recolour_misread([red, blue], seen, 20.0, 5.0, 8.0)
>>> recoloured.pieces[5].color
'blue'
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from referee.misread_counts import one_over_one_short
from referee.worm_up import geometry as geo
from referee.worm_up.state import Worm
from tabletop.scene import Point2, Scene


def _one_chain(points: Sequence[Point2], diameter_mm: float, gap_mm: float) -> bool:
    return bool(points) and geo.best_chain(list(points), diameter_mm, gap_mm) is not None


def _segments(scene: Scene, colour: str) -> list[tuple[int, Point2]]:
    return [(i, p.centre_mm) for i, p in enumerate(scene.pieces)
            if p.kind == "segment" and p.color == colour]


def _recoloured(scene: Scene, index: int, colour: str) -> Scene:
    return replace(scene, pieces=tuple(replace(p, color=colour) if i == index else p
                                       for i, p in enumerate(scene.pieces)))


def _over_and_short(scene: Scene, players: Sequence[str], length: int
                    ) -> tuple[str, str] | None:
    counts = Counter(p.color for p in scene.pieces if p.kind == "segment")
    return one_over_one_short(counts, dict.fromkeys(players, length))


def recolour_first(scene: Scene, players: Sequence[str], length: int, diameter_mm: float,
                   chain_gap_mm: float) -> Scene:
    """The first table with the one segment read with the wrong worm's colour given the
    right one (see the module's docstring); ``scene`` itself otherwise."""
    pair = _over_and_short(scene, players, length)
    if pair is None:
        return scene
    a, b = pair
    mine = _segments(scene, a)
    theirs = [c for _, c in _segments(scene, b)]
    if _one_chain([c for _, c in mine], diameter_mm, chain_gap_mm):
        return scene  # which segment is not A's is not known
    fits = [i for i, c in mine
            if _one_chain([o for k, o in mine if k != i], diameter_mm, chain_gap_mm)
            and _one_chain([*theirs, c], diameter_mm, chain_gap_mm)]
    return _recoloured(scene, fits[0], b) if len(fits) == 1 else scene


def recolour_misread(worms: Sequence[Worm], scene: Scene, diameter_mm: float,
                     chain_gap_mm: float, still_mm: float) -> Scene:
    """A later table with the one segment read with the wrong worm's colour given the right
    one, judged against the accepted table's ``worms`` (see the module's docstring);
    ``scene`` itself otherwise."""
    if not worms:
        return scene
    players = [w.player for w in worms]
    length = len(worms[0].centres_mm)
    if any(len(w.centres_mm) != length for w in worms):
        return scene
    pair = _over_and_short(scene, players, length)
    if pair is None:
        return scene
    a, b = pair
    lay = {w.player: w.centres_mm for w in worms}
    mine, theirs = _segments(scene, a), _segments(scene, b)
    # B's place, not read as B, read as A
    empty = [o for o in lay[b] if all(math.dist(c, o) > still_mm for _, c in theirs)]
    at_b = [i for i, c in mine if any(math.dist(c, o) <= still_mm for o in empty)]
    if len(empty) == 1 and len(at_b) == 1:
        return _recoloured(scene, at_b[0], b)
    # A lies still (every place of it read again) with one segment more: that one is B's
    if all(any(math.dist(c, o) <= still_mm for _, c in mine) for o in lay[a]):
        extra = [(i, c) for i, c in mine if all(math.dist(c, o) > still_mm for o in lay[a])]
        reach = diameter_mm + chain_gap_mm
        if len(extra) == 1 and any(math.dist(extra[0][1], c) <= reach for _, c in theirs):
            return _recoloured(scene, extra[0][0], b)
    return scene
