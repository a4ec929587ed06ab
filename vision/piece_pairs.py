"""Two lists of pieces paired nearest first: the same piece seen twice.

The stabiliser pairs the readings of consecutive frames, the confirmation the accepted table
with a new reading: both ask which piece of one list is which of the other. Pieces pair only
with their own kind and within a distance (tiles, whose centres a reading places less surely,
may be given a wider one); the nearest pair is taken first, and of equally near pairs the one
of the lower index in ``a``, then in ``b``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tabletop.scene import Piece


@dataclass(frozen=True)
class PiecePairs:
    """Attributes:
    pairs: ``(index in a, index in b)`` of each pair, nearest first.
    unpaired_a: Indices of ``a`` left without a pair, in order.
    unpaired_b: Indices of ``b`` left without a pair, in order.
    """

    pairs: list[tuple[int, int]]
    unpaired_a: list[int]
    unpaired_b: list[int]


def nearest_pairs(a: Sequence[Piece], b: Sequence[Piece], within_mm: float,
                  tile_factor: float = 1.0) -> PiecePairs:
    """Pairs of ``a`` and ``b``: same kind, centres at most ``within_mm`` apart (tiles
    ``tile_factor`` times that), nearest first, ties by index in ``a`` then ``b``.

    >>> a = [Piece("coin", 0.0, 0.0), Piece("tile", 10.0, 0.0), Piece("coin", 50.0, 0.0)]
    >>> nearest_pairs(a, [Piece("tile", 12.5, 0.0), Piece("coin", 1.0, 0.0)], 1.5, 2.0)
    PiecePairs(pairs=[(0, 1), (1, 0)], unpaired_a=[2], unpaired_b=[])
    >>> nearest_pairs(a, [Piece("tile", 12.5, 0.0)], 1.5).pairs
    []
    """
    if not a or not b:
        return PiecePairs([], list(range(len(a))), list(range(len(b))))
    xa = np.array([(p.x_mm, p.y_mm) for p in a], float)
    xb = np.array([(q.x_mm, q.y_mm) for q in b], float)
    d = np.hypot(xa[:, None, 0] - xb[None, :, 0], xa[:, None, 1] - xb[None, :, 1])
    ka = np.array([p.kind for p in a], dtype=object)
    kb = np.array([q.kind for q in b], dtype=object)
    tol = np.where(ka == "tile", tile_factor * within_mm, within_mm)
    ii, jj = np.nonzero((ka[:, None] == kb[None, :]) & (d <= tol[:, None]))
    order = np.lexsort((jj, ii, d[ii, jj]))  # by distance, then a's index, then b's
    used_a: set[int] = set()
    used_b: set[int] = set()
    pairs = []
    for i, j in zip(ii[order].tolist(), jj[order].tolist(), strict=True):
        if i not in used_a and j not in used_b:
            used_a.add(i)
            used_b.add(j)
            pairs.append((i, j))
    return PiecePairs(pairs, [i for i in range(len(a)) if i not in used_a],
                      [j for j in range(len(b)) if j not in used_b])
