"""A brute-force check of the gap fit: is there a grid path at least so wide? (tests only)

The free places for a coin of a given width are the grid points outside every obstacle grown
by half that width (shapely buffers, 64 segments a quarter circle); a width is passable when
the grid points nearest the start and the goal are joined by 8-connected free grid points
(runs of free points along the rows, joined row to row). Grid paths stand for real paths
within about ``step_mm`` (in width): a grid path ``2 * step_mm`` wider than the fit says the
fit missed a wider way; none ``2 * step_mm`` narrower says it claims a way that is not there.
"""

from __future__ import annotations

import numpy as np
import shapely

from referee.geometry import ObstacleSet
from tabletop.scene import Point2


def _runs(row: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Starts and ends (exclusive) of the runs of True in a boolean row."""
    d = np.diff(np.concatenate([[0], row.astype(np.int8), [0]]))
    return np.flatnonzero(d == 1), np.flatnonzero(d == -1)


def joined(mask: np.ndarray, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether cells ``a`` and ``b`` of a boolean grid are in one 8-connected free part."""
    if not (mask[a] and mask[b]):
        return False
    parent: list[int] = []

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    where: dict[tuple[int, int], int] = {}
    prev: list[tuple[int, int, int]] = []
    for i, row in enumerate(mask):
        starts, ends = _runs(row)
        cur = []
        k = 0
        for s, e in zip(starts.tolist(), ends.tolist(), strict=True):
            rid = len(parent)
            parent.append(rid)
            cur.append((s, e, rid))
            for c in (a, b):
                if c[0] == i and s <= c[1] < e:
                    where[c] = rid
            while k < len(prev) and prev[k][1] < s:  # runs ending left of this one (8-conn)
                k += 1
            j = k
            while j < len(prev) and prev[j][0] <= e:
                ra, rb = find(prev[j][2]), find(rid)
                if ra != rb:
                    parent[ra] = rb
                j += 1
        prev = cur
    return find(where[a]) == find(where[b])


class Grid:
    """A grid over ``lo_mm``-``hi_mm`` with ``step_mm`` between points, over obstacles."""

    def __init__(self, obstacles: ObstacleSet, lo_mm: Point2, hi_mm: Point2,
                 step_mm: float) -> None:
        self.obstacles, self.lo, self.step = obstacles, lo_mm, step_mm
        xs = np.arange(lo_mm[0], hi_mm[0] + step_mm / 2, step_mm)
        ys = np.arange(lo_mm[1], hi_mm[1] + step_mm / 2, step_mm)
        self.gx, self.gy = np.meshgrid(xs, ys, indexing="ij")

    def _cell(self, p: Point2) -> tuple[int, int]:
        nx, ny = self.gx.shape
        return (int(np.clip(round((p[0] - self.lo[0]) / self.step), 0, nx - 1)),
                int(np.clip(round((p[1] - self.lo[1]) / self.step), 0, ny - 1)))

    def free(self, width_mm: float) -> np.ndarray:
        """Grid points where a coin ``width_mm`` wide lies clear of every obstacle."""
        grown = shapely.union_all([shapely.buffer(g, r + width_mm / 2, quad_segs=64)
                                   for g, r in zip(self.obstacles.geoms,
                                                   self.obstacles.radii_mm, strict=True)])
        shapely.prepare(grown)
        return ~shapely.intersects_xy(grown, self.gx, self.gy)

    def passable(self, start_mm: Point2, goal_mm: Point2, width_mm: float) -> bool:
        """Whether a grid path at least ``width_mm`` wide joins the start and the goal."""
        return joined(self.free(width_mm), self._cell(start_mm), self._cell(goal_mm))
