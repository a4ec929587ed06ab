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

One whole tile is enough where the judge is plainly surer of it (:func:`surer_beside`): in a
row of three backs the middle one's place along the row rests on two faint gap lines only (a
fit 3 mm off it makes the pair too short to be two tiles edge to edge), or it is no fit at all,
and the straddle of it and an end tile stood (tuning renders 630102, a gingham under a blind,
and 629099, a glossy white table under a dim lamp: the straddles' votes 0.47 and 0.51, the
end tiles' beside them 0.74 and 0.81). A fit standing about half a side from a held fit the
judge gives ``surer`` more of its votes is that tile's straddle: the tile stands in its place,
and so does every other held fit that clashed only with the straddle (the middle tile).
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
    half_off: A straddle's centre lies this range of sides from each tile it straddles
        (half a side and half the gap, give or take a misfit) (:func:`surer_beside`).
    surer: A fit standing is a straddle of one held fit there whose judge's votes are at
        least this much higher (:func:`surer_beside`); None: two tiles are needed.
    """

    apart: float = 0.9
    pair_span: tuple[float, float] = (0.95, 1.2)
    mid_share: float = 0.2
    half_off: tuple[float, float] = (0.3, 0.7)
    surer: float | None = 0.2


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


def surer_beside(kept: list[np.ndarray], kept_votes: list[float], held: list[np.ndarray],
                 held_votes: list[float], side: float, cfg: StraddleConfig = StraddleConfig()
                 ) -> tuple[list[int], list[int]]:
    """Which of the fits ``kept`` (centres, view pixels, and the judge's votes; each stood)
    are straddles of a held fit the judge is surer of, and which of ``held`` (fits that
    passed every check but lay within ``cfg.apart`` sides of a kept one) stand: (indices
    into ``kept`` to drop, indices into ``held`` to add).

    A kept fit is dropped for the held fit ``cfg.half_off`` sides from it with the most
    votes, where those are at least ``cfg.surer`` more than its own and that held fit lies
    ``cfg.apart`` sides from every other fit standing; then every held fit (most votes first)
    that lies so far from every fit standing stands too (one that clashed only with a
    straddle now dropped: the middle tile of a row of three).

    >>> s = 50.0
    >>> end, middle = np.array([100.0, 100.0]), np.array([151.0, 100.0])
    >>> straddle = (end + middle) / 2
    >>> surer_beside([straddle], [0.5], [end, middle + (-4.0, 0.0)], [0.8, 0.5], s)
    ([0], [0, 1])
    >>> surer_beside([straddle], [0.5], [end], [0.6], s)  # not plainly surer
    ([], [])
    >>> surer_beside([end], [0.8], [end + (25.0, 0.0)], [0.3], s)  # a tile, a square on it
    ([], [])
    """
    if cfg.surer is None:
        return [], []
    k = np.asarray(kept, float).reshape(-1, 2)
    h = np.asarray(held, float).reshape(-1, 2)
    kv, hv = np.asarray(kept_votes, float), np.asarray(held_votes, float)
    lo, hi = cfg.half_off
    drop: list[int] = []
    add: list[int] = []

    def standing(skip: int = -1) -> np.ndarray:
        keep = [i for i in range(len(k)) if i not in drop and i != skip]
        return np.concatenate([k[keep], h[add]]).reshape(-1, 2)

    def clear(p: np.ndarray, fits: np.ndarray) -> bool:
        return not len(fits) or float(np.hypot(*(fits - p).T).min()) >= cfg.apart * side

    for i, f in enumerate(k):
        if not np.isfinite(kv[i]):
            continue
        best = None
        for j in range(len(h)):
            d = float(np.hypot(*(h[j] - f)))
            if (j in add or not lo * side <= d <= hi * side or not np.isfinite(hv[j])
                    or hv[j] < kv[i] + cfg.surer or not clear(h[j], standing(i))):
                continue
            if best is None or hv[j] > hv[best]:
                best = j
        if best is not None:
            drop.append(i)
            add.append(best)
    if drop:
        for j in sorted(range(len(h)), key=lambda j: -np.nan_to_num(hv[j], nan=-1.0)):
            if j not in add and clear(h[j], standing()):
                add.append(j)
    return drop, sorted(add)
