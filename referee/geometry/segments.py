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


def _ends_to_edges(a: np.ndarray, b: np.ndarray, c: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Distance from each segment ``a``-``b`` (M, 2) to each segment ``c``-``d`` (E, 2) as
    far as their ends ``a`` and ``b`` are concerned: shape (M, E)."""
    m = len(a)
    both = point_segment_distance(np.vstack([a, b]), c, d)  # (E, 2M)
    return np.minimum(both[:, :m], both[:, m:]).T


class ConvexObstacles:
    """Discs and convex polygons, for exact segment distances in numpy.

    Args:
        discs: Centres (Nd, 2) and radii (Nd,).
        polygons: Each polygon's corners in order (list of (K, 2) arrays).
        order: Obstacle number of each disc then each polygon (for the columns of results).
    """

    centres: np.ndarray
    radii: np.ndarray
    order: np.ndarray
    e0: np.ndarray
    e1: np.ndarray
    owner: np.ndarray
    firsts: np.ndarray
    next_corner: np.ndarray

    def __init__(self, centres: np.ndarray, radii: np.ndarray, polygons: list[np.ndarray],
                 order: np.ndarray) -> None:
        self.centres = centres.reshape(-1, 2)
        self.radii = radii
        self.n = len(order)
        self.order = order
        self.n_poly = len(polygons)
        if not polygons:
            self.e0 = self.e1 = np.empty((0, 2))
            self.owner = self.firsts = self.next_corner = np.empty(0, dtype=int)
            return
        sizes = np.array([len(p) for p in polygons])
        self.e0 = np.vstack(polygons)
        # each corner's next corner: the following row, or the polygon's first one
        nxt = np.arange(1, len(self.e0) + 1)
        firsts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        nxt[firsts + sizes - 1] = firsts
        self.e1 = self.e0[nxt]
        self.next_corner = nxt
        self.owner = np.repeat(np.arange(len(polygons)), sizes)
        self.firsts = firsts  # each polygon's first edge (edges are grouped by polygon)

    def subset(self, keep: np.ndarray) -> ConvexObstacles:
        """Only the obstacles whose number is in ``keep`` (their columns renumbered in the
        order of ``keep``)."""
        keep = np.asarray(keep, dtype=int)
        col = np.full(self.n, -1)
        col[keep] = np.arange(len(keep))
        nd = len(self.centres)
        disc_cols = col[self.order[:nd]]
        d_ok = disc_cols >= 0
        poly_cols = col[self.order[nd:]]
        p_ok = poly_cols >= 0
        out = ConvexObstacles.__new__(ConvexObstacles)
        out.centres, out.radii = self.centres[d_ok], self.radii[d_ok]
        out.n, out.n_poly = len(keep), int(p_ok.sum())
        out.order = np.concatenate([disc_cols[d_ok], poly_cols[p_ok]]).astype(int)
        e_ok = p_ok[self.owner] if self.n_poly else np.zeros(0, dtype=bool)
        renumber = np.cumsum(p_ok) - 1
        out.e0, out.e1 = self.e0[e_ok], self.e1[e_ok]
        new_pos = np.cumsum(e_ok) - 1
        out.next_corner = new_pos[self.next_corner[e_ok]]
        out.owner = renumber[self.owner[e_ok]] if self.n_poly else self.owner
        out.firsts = np.flatnonzero(np.diff(out.owner, prepend=-1) != 0)
        return out

    def point_matrix(self, p: np.ndarray) -> np.ndarray:
        """Distances from points ``p`` (M, 2) to every obstacle: shape (M, N), 0 inside a
        polygon, negative inside a disc."""
        m = len(p)
        out = np.empty((m, self.n))
        nd = len(self.centres)
        if nd:
            out[:, self.order[:nd]] = np.hypot(p[:, None, 0] - self.centres[None, :, 0],
                                               p[:, None, 1] - self.centres[None, :, 1]
                                               ) - self.radii
        if self.n_poly:
            d = point_segment_distance(p, self.e0, self.e1)  # (E, M)
            per = np.minimum.reduceat(d, self.firsts, axis=0)
            side = _cross(self.e0[:, None, :], self.e1[:, None, :], p[None, :, :])  # (E, M)
            pos = np.logical_or.reduceat(side > 0, self.firsts, axis=0)
            neg = np.logical_or.reduceat(side < 0, self.firsts, axis=0)
            per[~(pos & neg)] = 0.0
            out[:, self.order[nd:]] = per.T
        return out

    def matrix(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Distances from segments ``a``-``b`` (M, 2) to every obstacle: shape (M, N), columns
        in the obstacles' own order."""
        m = len(a)
        out = np.empty((m, self.n))
        nd = len(self.centres)
        if nd:
            out[:, self.order[:nd]] = point_segment_distance(self.centres, a, b) - self.radii
        if self.n_poly:
            # the polygons are closed rings: every edge's end is another edge's start, so the
            # corners are the edges' starts
            d = np.minimum(point_segment_distance(self.e0, a, b),
                           _ends_to_edges(a, b, self.e0, self.e1))  # (M, E)
            side_a = _cross(self.e0[None], self.e1[None], a[:, None, :])  # (M, E)
            side_b = _cross(self.e0[None], self.e1[None], b[:, None, :])
            corner = _cross(a[:, None, :], b[:, None, :], self.e0[None])  # (M, E)
            corner_end = corner[:, self.next_corner]
            crossing = (corner * corner_end < 0) & (side_a * side_b < 0)
            d[crossing] = 0.0
            per = np.minimum.reduceat(d, self.firsts, axis=1)
            # a segment wholly inside a convex polygon: its start is inside
            pos = np.logical_or.reduceat(side_a > 0, self.firsts, axis=1)
            neg = np.logical_or.reduceat(side_a < 0, self.firsts, axis=1)
            per[~(pos & neg)] = 0.0
            out[:, self.order[nd:]] = per
        return out
