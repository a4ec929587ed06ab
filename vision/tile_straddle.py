"""Two tiles laid edge to edge, not one square straddling them.

A square of a tile's size centred on the line between two face-down tiles laid edge to edge
is made of their backs' halves: its outline is the row's outer sides and the two backs'
middle lines, its middle the gap between them, and it fits as well as either tile. The
centre net may give it more heat than the tiles themselves (render 490605: a row of two
backs on a large check under a blind, the straddle's peak 0.2 mm from the line between them),
and of two fits closer than a side the hotter one stands (:func:`vision.tile_candidates.
fit_tiles`): the straddle stood, a false tile, and both tiles were lost with it.

Two tiles outnumber one straddle: a fit standing where two other fits, each a whole tile
that passed every check, lie on either side of it about half a side off, each a side from
the other (edge to edge, not overlapping one another), is the straddle of those two, and
they stand in its place. A lone tile has no such pair round it: a square half a side off it
either way lies half on it, and is one fit standing on its place (no two of them are a side
apart with it between them).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class StraddleConfig:
    """Attributes:
    apart: Two tiles' centres lie at least this share of a side apart (as the fits' own
        ``TileFitConfig.apart``).
    pair_span: The two tiles' centres lie within this range of sides of each other (edge to
        edge: one side and the gap between them, or turned by a few degrees).
    mid_share: The straddle's centre lies within this share of a side of the midpoint
        between them.
    """

    apart: float = 0.9
    pair_span: tuple[float, float] = (0.95, 1.2)
    mid_share: float = 0.2


def two_over_one(kept: list[np.ndarray], held: list[np.ndarray], side: float,
                 cfg: StraddleConfig = StraddleConfig()) -> tuple[list[int], list[int]]:
    """Which of the fits ``kept`` (centres, view pixels; each stood) are straddles, and which
    of ``held`` (fits that passed every check but lay within ``cfg.apart`` sides of a kept
    one) stand in their place: (indices into ``kept`` to drop, indices into ``held`` to add).

    >>> s = 50.0
    >>> left, right = np.array([100.0, 100.0]), np.array([151.0, 100.0])
    >>> straddle = (left + right) / 2
    >>> two_over_one([straddle], [left, right], s)
    ([0], [0, 1])
    >>> two_over_one([left], [straddle], s)  # a tile and a square half on it
    ([], [])
    >>> two_over_one([straddle], [left, left + (1.0, 0.0)], s)  # one tile fitted twice
    ([], [])
    """
    k = np.asarray(kept, float).reshape(-1, 2)
    h = np.asarray(held, float).reshape(-1, 2)
    drop: list[int] = []
    add: list[int] = []
    lo, hi = cfg.pair_span
    for i, f in enumerate(k):
        near = [j for j in range(len(h)) if j not in add
                and np.hypot(*(h[j] - f)) < cfg.apart * side]
        best = None
        for a in range(len(near)):
            for b in range(a + 1, len(near)):
                p, q = h[near[a]], h[near[b]]
                span = float(np.hypot(*(p - q)))
                off = float(np.hypot(*((p + q) / 2 - f)))
                if not (lo * side <= span <= hi * side and off <= cfg.mid_share * side):
                    continue
                others = np.delete(k, i, axis=0)  # the pair clashes with no other tile kept
                if len(others) and min(float(np.hypot(*(others - g).T).min())
                                       for g in (p, q)) < cfg.apart * side:
                    continue
                if best is None or off < best[0]:
                    best = (off, near[a], near[b])
        if best is not None:
            drop.append(i)
            add.extend(best[1:])
    return drop, sorted(add)
