"""A worm read split by less than the measuring noise: not a split the reading proves.

Two coins touch when their centres lie at most ``touch_factor`` coin widths apart; a distance
between two measured centres may read ``centre_noise_mm`` off (:mod:`.settings`). A worm whose
two chains lie farther apart than touching by no more than that noise may be one chain read a
little off (issue 13, play 200084: a coin squeezed through a narrow gap between two tiles,
read 4.4 mm from where it lay, left its worm 0.24 mm past touching and the move, a ``gap``
foul, was called ``shape``). The same reading within the noise, the stray chain moved that
little to touch the rest (:func:`joined_within_noise`), is judged too
(:meth:`referee.worm_derby.game.WormDerby._judge_move`): a foul there of another rule is the
foul the reading shows whatever the split is; a legal move there is a doubt (the table is
asked), never a ``shape`` foul. The mirror of :func:`.worms._unbranch_within_noise` (a branch
every reading within the noise shows is still one).

>>> from tabletop.scene import Piece, Scene
>>> d = 19.05
>>> s = Scene.of([Piece("coin", 0, 0, suit="suns"), Piece("coin", d, 0, suit="suns"),
...               Piece("coin", d + 23.5, 0, suit="suns")])
>>> joined = joined_within_noise(s, "suns", d)
>>> round(joined.pieces[2].x_mm - d, 2) <= round(1.2 * d, 2)
True
>>> joined_within_noise(replace(s, pieces=(*s.pieces[:2], Piece("coin", d + 30, 0,
...                                                          suit="suns"))), "suns", d) is None
True
"""

from __future__ import annotations

import math
from dataclasses import replace

from referee.worm_derby.settings import DEFAULT_SETTINGS, WormSettings
from referee.worm_derby.worms import extract_worm
from tabletop.scene import Scene

JOIN_MARGIN_MM = 0.01
"""The stray chain is moved this far past touching (the touch test is ``<=``)."""


def joined_within_noise(scene: Scene, suit: str, coin_mm: float,
                        settings: WormSettings = DEFAULT_SETTINGS) -> Scene | None:
    """``scene`` with the smaller chain of ``suit``'s worm, read split in two, moved straight
    towards the other until their nearest coins touch, when that is no farther than
    ``centre_noise_mm`` and the worm is then one chain (``ok``); None otherwise (not split, in
    more than two chains, split farther than the noise, or not one chain once joined). The
    pieces keep their order (a verdict's indices name the same pieces)."""
    shape = extract_worm(scene, suit, coin_mm, settings)
    if shape.status != "split":
        return None
    stray = set(shape.pieces)
    rest = [i for i in shape.coins if i not in stray]
    if not rest or not stray:
        return None
    touch = settings.touch_factor * coin_mm
    far, a, b = min((math.dist(scene.pieces[i].centre_mm, scene.pieces[j].centre_mm), i, j)
                    for i in rest for j in stray)
    gap = far - touch
    if gap > settings.centre_noise_mm:
        return None
    pa, pb = scene.pieces[a].centre_mm, scene.pieces[b].centre_mm
    shift = (gap + JOIN_MARGIN_MM) / far
    dx, dy = (pa[0] - pb[0]) * shift, (pa[1] - pb[1]) * shift
    joined = replace(scene, pieces=tuple(
        replace(p, x_mm=p.x_mm + dx, y_mm=p.y_mm + dy) if k in stray else p
        for k, p in enumerate(scene.pieces)))
    again = extract_worm(joined, suit, coin_mm, settings)
    return joined if again.ok and len(again.coins) == len(shape.coins) else None
