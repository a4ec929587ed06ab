"""Exact distances between segments and obstacles in plain numpy (no GEOS call per pair).

Discs are centre + radius; convex polygons are their edges. A segment that crosses a polygon
or lies inside it is at distance 0 from it (as shapely says); inside a disc the distance is
negative (centre distance minus radius).

>>> import numpy as np
>>> a, b = np.array([[0.0, 0.0]]), np.array([[10.0, 0.0]])
>>> point_segment_distance(np.array([[5.0, 3.0]]), a, b)
array([[3.]])
"""

from __future__ import annotations

import numpy as np


def point_segment_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distances from points ``p`` (K, 2) to segments ``a``-``b`` (M, 2): shape (M, K)."""
    ax, ay = a[:, 0:1], a[:, 1:2]
    dx, dy = b[:, 0:1] - ax, b[:, 1:2] - ay
    wx, wy = p[None, :, 0] - ax, p[None, :, 1] - ay
    n2 = dx * dx + dy * dy
    ok = n2 > 1e-18
    t = (wx * dx + wy * dy) / np.where(ok, n2, 1.0)
    t = np.minimum(np.maximum(np.where(ok, t, 0.0), 0.0), 1.0)
    qx, qy = wx - t * dx, wy - t * dy
    return np.sqrt(qx * qx + qy * qy)


def _cross(o: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a[..., 0] - o[..., 0]) * (b[..., 1] - o[..., 1]) - \
        (a[..., 1] - o[..., 1]) * (b[..., 0] - o[..., 0])


def segment_segment_distance(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray
                             ) -> np.ndarray:
    """Distances between segments ``a``-``b`` (M, 2) and ``c``-``d`` (E, 2): shape (M, E)."""
    dist = np.minimum(np.minimum(point_segment_distance(c, a, b),
                                 point_segment_distance(d, a, b)),
                      np.minimum(point_segment_distance(a, c, d).T,
                                 point_segment_distance(b, c, d).T))
    A, B = a[:, None, :], b[:, None, :]
    C, D = c[None, :, :], d[None, :, :]
    d1, d2 = _cross(A, B, C), _cross(A, B, D)
    d3, d4 = _cross(C, D, A), _cross(C, D, B)
    crossing = (d1 * d2 < 0) & (d3 * d4 < 0)
    return np.where(crossing, 0.0, dist)


class ConvexObstacles:
    """Discs and convex polygons, for exact segment distances in numpy.

    Args:
        discs: Centres (Nd, 2) and radii (Nd,).
        polygons: Each polygon's corners in order (list of (K, 2) arrays).
        order: Obstacle number of each disc then each polygon (for the columns of results).
    """

    def __init__(self, centres: np.ndarray, radii: np.ndarray, polygons: list[np.ndarray],
                 order: np.ndarray) -> None:
        self.centres = centres.reshape(-1, 2)
        self.radii = radii
        self.n = len(order)
        self.order = order
        self.n_poly = len(polygons)
        if not polygons:
            self.e0 = self.e1 = np.empty((0, 2))
            self.owner = np.empty(0, dtype=int)
            return
        sizes = np.array([len(p) for p in polygons])
        self.e0 = np.vstack(polygons)
        # each corner's next corner: the following row, or the polygon's first one
        nxt = np.arange(1, len(self.e0) + 1)
        firsts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        nxt[firsts + sizes - 1] = firsts
        self.e1 = self.e0[nxt]
        self.owner = np.repeat(np.arange(len(polygons)), sizes)

    def matrix(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Distances from segments ``a``-``b`` (M, 2) to every obstacle: shape (M, N), columns
        in the obstacles' own order."""
        m = len(a)
        out = np.empty((m, self.n))
        nd = len(self.centres)
        if nd:
            out[:, self.order[:nd]] = point_segment_distance(self.centres, a, b) - self.radii
        if self.n_poly:
            d = segment_segment_distance(a, b, self.e0, self.e1)
            per = np.full((m, self.n_poly), np.inf)
            np.minimum.at(per.T, self.owner, d.T)
            # a segment wholly inside a convex polygon: its start is inside
            side = _cross(self.e0[None], self.e1[None], a[:, None, :])  # (M, E)
            inside = np.ones((m, self.n_poly), dtype=bool)
            pos = np.zeros((m, self.n_poly), dtype=bool)
            neg = np.zeros((m, self.n_poly), dtype=bool)
            np.logical_or.at(pos.T, self.owner, (side > 0).T)
            np.logical_or.at(neg.T, self.owner, (side < 0).T)
            inside = ~(pos & neg)
            per[inside] = 0.0
            out[:, self.order[nd:]] = per
        return out
