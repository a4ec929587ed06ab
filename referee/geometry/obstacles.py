"""Obstacles in table millimetres: tiles are rotated squares, round pieces are discs.

A disc is kept as its centre point plus a radius (never as a polygon), so every distance to it
is exact: ``distance(thing, disc) = distance(thing, centre) - radius_mm``.

>>> from tabletop.scene import Piece
>>> obs = ObstacleSet.from_pieces([Piece("coin", 0.0, 0.0, suit="suns")])
>>> round(obs.clearance_of_point((20.0, 0.0)), 3)
10.475
>>> obs.overlaps_coin((18.0, 0.0), 19.05, tolerance_mm=0.5)
True
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from referee.geometry.segments import ConvexObstacles
from tabletop.pieceset import DEFAULT_PIECES, PieceSet
from tabletop.scene import Piece, Point2


@functools.lru_cache(maxsize=4096)
def tile_polygon(x_mm: float, y_mm: float, angle_deg: float, side_mm: float) -> shapely.Polygon:
    """A square tile's footprint (cached: tables repeat from scene to scene).

    >>> round(tile_polygon(0, 0, 0, 50.8).area, 2)
    2580.64
    """
    h = side_mm / 2.0
    a = math.radians(angle_deg)
    c, s = math.cos(a), math.sin(a)
    corners = [(x_mm + c * dx - s * dy, y_mm + s * dx + c * dy)
               for dx, dy in ((-h, -h), (h, -h), (h, h), (-h, h))]
    return shapely.Polygon(corners)


def piece_shape(piece: Piece, pieces: PieceSet = DEFAULT_PIECES) -> tuple[BaseGeometry, float]:
    """The footprint of a piece as ``(geometry, radius_mm)``: a polygon with radius 0 for a
    square piece, the centre point with the piece's radius for a round one."""
    if piece.kind == "tile":
        return tile_polygon(piece.x_mm, piece.y_mm, piece.angle_deg or 0.0, pieces.tile_mm), 0.0
    if piece.kind == "die":
        return tile_polygon(piece.x_mm, piece.y_mm, piece.angle_deg or 0.0, pieces.die_mm), 0.0
    radius = {"coin": pieces.coin_diameter_mm, "post": pieces.post_diameter_mm,
              "segment": pieces.segment_diameter_mm, "token": pieces.token_mm,
              "pawn": pieces.coin_diameter_mm}.get(piece.kind, pieces.coin_diameter_mm) / 2.0
    return _point(piece.x_mm, piece.y_mm), radius


def _convex_form(geoms: np.ndarray, radii: np.ndarray) -> ConvexObstacles | None:
    """The obstacles as discs and convex polygons, or None when one is neither (vectorised:
    a table's worth of tiles and coins in a few numpy calls)."""
    if not len(geoms):
        return ConvexObstacles(np.empty((0, 2)), np.empty(0), [], np.empty(0, dtype=int))
    types = shapely.get_type_id(geoms)
    disc = (types == 0) & (radii > 0)
    poly = (types == 3) & (radii == 0)
    if not np.all(disc | poly):
        return None
    disc_idx, poly_idx = np.flatnonzero(disc), np.flatnonzero(poly)
    centres = shapely.get_coordinates(geoms[disc_idx]).reshape(-1, 2)
    polys: list[np.ndarray] = []
    if len(poly_idx):
        pg = geoms[poly_idx]
        if np.any(shapely.get_num_interior_rings(pg) > 0):
            return None
        counts = shapely.get_num_coordinates(pg)
        coords = shapely.get_coordinates(pg)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        polys = [coords[s0:s0 + c - 1] for s0, c in zip(starts, counts, strict=True)]
        groups = [np.stack(polys)] if len(set(counts.tolist())) == 1 else \
            [p[None] for p in polys]
        for rings in groups:  # convex: every turn the same way, shape (P, K, 2)
            d1 = np.roll(rings, -1, axis=1) - rings
            d2 = np.roll(d1, -1, axis=1)
            cross = d1[..., 0] * d2[..., 1] - d1[..., 1] * d2[..., 0]
            if np.any(np.any(cross > 1e-9, axis=1) & np.any(cross < -1e-9, axis=1)):
                return None
    return ConvexObstacles(centres, radii[disc_idx], polys,
                           np.concatenate([disc_idx, poly_idx]).astype(int))


@functools.lru_cache(maxsize=4096)
def _point(x_mm: float, y_mm: float) -> shapely.Point:
    return shapely.Point(x_mm, y_mm)


@dataclass(frozen=True, eq=False)
class ObstacleSet:
    """Obstacles, prepared once for many distance queries.

    Attributes:
        geoms: Shapely geometries, shape (N,): polygons (radius 0) or centre points (discs).
        radii_mm: Radius of each obstacle, shape (N,); 0 for polygons.
        labels: A caller's label for each obstacle (for example its index in a scene).
    """

    geoms: np.ndarray
    radii_mm: np.ndarray
    labels: tuple[int, ...]
    tree: shapely.STRtree = field(repr=False)
    convex: ConvexObstacles | None = field(default=None, repr=False)

    @classmethod
    def of(cls, shapes: Sequence[tuple[BaseGeometry, float]],
           labels: Iterable[int] | None = None) -> ObstacleSet:
        """Obstacles from ``(geometry, radius_mm)`` pairs."""
        geoms = np.array([g for g, _ in shapes], dtype=object)
        radii = np.array([float(r) for _, r in shapes], dtype=float)
        shapely.prepare(geoms)
        labs = tuple(labels) if labels is not None else tuple(range(len(shapes)))
        if len(labs) != len(shapes):
            raise ValueError("one label per obstacle")
        out = cls(geoms, radii, labs, shapely.STRtree(geoms))
        object.__setattr__(out, "convex", _convex_form(geoms, radii))
        return out

    @classmethod
    def from_pieces(cls, pieces: Iterable[Piece], piece_set: PieceSet = DEFAULT_PIECES,
                    labels: Iterable[int] | None = None) -> ObstacleSet:
        """Every piece as an obstacle (labels default to the pieces' order)."""
        return cls.of([piece_shape(p, piece_set) for p in pieces], labels)

    def __len__(self) -> int:
        return len(self.radii_mm)

    @property
    def max_radius_mm(self) -> float:
        """The largest disc radius (0 when there are none)."""
        return float(self.radii_mm.max()) if len(self) else 0.0

    def clearances(self, geoms: np.ndarray | BaseGeometry, cap_mm: float) -> np.ndarray:
        """Least distance from each geometry to any obstacle (negative inside one), capped.

        Args:
            geoms: Geometries, shape (M,) (or one geometry).
            cap_mm: Obstacles farther than this are not looked at; the result is at most this.

        Returns:
            Float array of shape (M,).
        """
        arr = np.atleast_1d(np.asarray(geoms, dtype=object))
        out = np.full(len(arr), float(cap_mm))
        if not len(self) or not len(arr):
            return out
        if len(self) * len(arr) <= 2048:  # small: every pair at once beats the tree
            d = shapely.distance(arr[:, None], self.geoms[None, :]) - self.radii_mm[None, :]
            return np.minimum(out, d.min(axis=1))
        src, dst = self.tree.query(arr, predicate="dwithin", distance=cap_mm + self.max_radius_mm)
        if len(src):
            d = shapely.distance(arr[src], self.geoms[dst]) - self.radii_mm[dst]
            np.minimum.at(out, src, d)
        return out

    def distance_matrix(self, geoms: Sequence[BaseGeometry]) -> np.ndarray:
        """Distance from each geometry to each obstacle (discs measured from their rims),
        shape (M, N); negative inside an obstacle."""
        arr = np.empty(len(geoms), dtype=object)
        arr[:] = list(geoms)
        if not len(self):
            return np.empty((len(arr), 0))
        return shapely.distance(arr[:, None], self.geoms[None, :]) - self.radii_mm[None, :]

    def segment_matrix(self, a_mm: np.ndarray, b_mm: np.ndarray) -> np.ndarray:
        """Distance from each segment ``a``-``b`` (each (M, 2); a point when a == b) to each
        obstacle, shape (M, N); exact, in numpy when every obstacle is a disc or convex."""
        a, b = np.asarray(a_mm, dtype=float).reshape(-1, 2), np.asarray(b_mm, dtype=float
                                                                         ).reshape(-1, 2)
        if self.convex is not None:
            return self.convex.matrix(a, b)
        same = np.all(a == b, axis=1)
        geoms = np.where(same, shapely.points(a), shapely.linestrings(
            np.stack([a, b], axis=1)))
        return self.distance_matrix(list(geoms))

    def segment_clearances(self, a_mm: np.ndarray, b_mm: np.ndarray, cap_mm: float,
                           near_mm: Sequence[tuple[Point2, float]] = ()) -> np.ndarray:
        """Least distance from each segment to any obstacle, at most ``cap_mm``, shape (M,).

        ``near_mm``, pairs ``(point, reach)``, says that every segment lies within
        ``reach - cap_mm`` of one of the points: only obstacles within ``reach`` of one of them
        are looked at (faster, same result).
        """
        a = np.asarray(a_mm, dtype=float).reshape(-1, 2)
        if not len(self):
            return np.full(len(a), float(cap_mm))
        if near_mm and self.convex is not None:
            keep = np.unique(np.concatenate([
                self.tree.query(shapely.Point(p), predicate="dwithin",
                                distance=reach + self.max_radius_mm) for p, reach in near_mm]))
            if not len(keep):
                return np.full(len(a), float(cap_mm))
            if len(keep) < len(self):
                sub = self.convex.subset(keep).matrix(a, np.asarray(b_mm, dtype=float
                                                                    ).reshape(-1, 2))
                return np.minimum(sub.min(axis=1), cap_mm)
        if self.convex is None or len(a) * len(self) > 200_000:
            b = np.asarray(b_mm, dtype=float).reshape(-1, 2)
            same = np.all(a == b, axis=1)
            geoms = np.where(same, shapely.points(a), shapely.linestrings(
                np.stack([a, b], axis=1)))
            return self.clearances(geoms, cap_mm)
        return np.minimum(self.segment_matrix(a, b_mm).min(axis=1), cap_mm)

    def point_clearances(self, points_mm: np.ndarray) -> np.ndarray:
        """Distance from each point (M, 2) to the nearest obstacle, shape (M,) (negative
        inside a disc, 0 inside a polygon; inf when there are no obstacles).

        >>> from tabletop.scene import Piece
        >>> obs = ObstacleSet.from_pieces([Piece.tile(0, 0), Piece("coin", 100, 0)])
        >>> obs.point_clearances(np.array([[50.0, 0.0], [0.0, 0.0], [100.0, 0.0]])).tolist()
        [24.6, 0.0, -9.525]
        """
        p = np.asarray(points_mm, dtype=float).reshape(-1, 2)
        if not len(self):
            return np.full(len(p), np.inf)
        if self.convex is not None:
            return self.convex.point_matrix(p).min(axis=1)
        return self.distance_matrix(list(shapely.points(p))).min(axis=1)

    def nearest_points(self, points_mm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each point's clearance (as :meth:`point_clearances`), shape (M,), and the nearest
        place on its nearest obstacle (a disc's centre), shape (M, 2).

        >>> from tabletop.scene import Piece
        >>> obs = ObstacleSet.from_pieces([Piece.tile(0, 0), Piece("coin", 100, 0)])
        >>> c, q = obs.nearest_points(np.array([[50.0, 10.0], [100.0, 30.0]]))
        >>> c.round(2).tolist(), q.round(2).tolist()
        ([24.6, 20.48], [[25.4, 10.0], [100.0, 0.0]])
        """
        p = np.asarray(points_mm, dtype=float).reshape(-1, 2)
        if not len(self):
            return np.full(len(p), np.inf), p.copy()
        pts = shapely.points(p)
        m = (self.convex.point_matrix(p) if self.convex is not None
             else self.distance_matrix(list(pts)))
        k = np.argmin(m, axis=1)
        lines = shapely.shortest_line(pts, self.geoms[k])
        q = shapely.get_coordinates(lines).reshape(-1, 2, 2)[:, 1]
        return m[np.arange(len(p)), k], q

    def clearance_of_point(self, point_mm: Point2, cap_mm: float = 1e4) -> float:
        """Distance from a point to the nearest obstacle (negative inside one)."""
        return float(self.clearances(shapely.Point(point_mm), cap_mm)[0])

    def clearance_of_segment(self, a_mm: Point2, b_mm: Point2, cap_mm: float = 1e4) -> float:
        """Least distance from any point of a segment to the nearest obstacle."""
        return float(self.clearances(shapely.LineString([a_mm, b_mm]), cap_mm)[0])

    def nearest(self, geom: BaseGeometry, cap_mm: float) -> list[tuple[float, int]]:
        """``(clearance, obstacle index)`` of obstacles within ``cap_mm`` of ``geom``, nearest
        first."""
        idx = self.tree.query(geom, predicate="dwithin", distance=cap_mm + self.max_radius_mm)
        if not len(idx):
            return []
        d = shapely.distance(geom, self.geoms[idx]) - self.radii_mm[idx]
        return sorted((float(di), int(i)) for di, i in zip(d, idx, strict=True) if di <= cap_mm)

    def overlapping(self, centre_mm: Point2, diameter_mm: float,
                    tolerance_mm: float) -> list[tuple[float, int]]:
        """Obstacles that a coin at ``centre_mm`` reaches into by more than ``tolerance_mm``,
        as ``(depth_mm, obstacle index)``, deepest first."""
        r = diameter_mm / 2.0
        hits = self.nearest(shapely.Point(centre_mm), r - tolerance_mm)
        return sorted(((r - c, i) for c, i in hits if r - c > tolerance_mm), reverse=True)

    def overlaps_coin(self, centre_mm: Point2, diameter_mm: float, tolerance_mm: float) -> bool:
        """Whether a coin at ``centre_mm`` reaches into any obstacle by more than the tolerance."""
        return bool(self.overlapping(centre_mm, diameter_mm, tolerance_mm))

    def gap_between(self, i: int, j: int) -> tuple[float, Point2]:
        """The free width between obstacles ``i`` and ``j`` and the middle of it (the pinch)."""
        line = shapely.shortest_line(self.geoms[i], self.geoms[j])
        (ax, ay), (bx, by) = line.coords
        d = math.hypot(bx - ax, by - ay)
        ri, rj = float(self.radii_mm[i]), float(self.radii_mm[j])
        gap = d - ri - rj
        if d > 1e-12:
            ux, uy = (bx - ax) / d, (by - ay) / d
            ax, ay = ax + ux * ri, ay + uy * ri
        mid = (ax + (gap / 2.0) * ux, ay + (gap / 2.0) * uy) if d > 1e-12 else (ax, ay)
        return gap, mid
