"""Can a coin slide from A to B? The widest path through configuration space.

A coin of radius r fits wherever its centre is at least r from every obstacle (configuration
space: obstacles grown by the coin's radius). Among all paths from A to B the best is the one
whose narrowest point is widest (a maximin, or bottleneck, path).

How: the obstacles' outlines are sampled and their Voronoi diagram (GEOS, via shapely) gives a
roadmap that follows the middle of every gap (the medial axis). Every roadmap edge is weighed by
its exact clearance (the least distance from the segment to any obstacle, discs measured from
their centres). The roadmap and its maximum spanning tree are built once per obstacle set and
cached; the widest path between two roadmap nodes is the path in that tree, found per query
through the Kruskal reconstruction tree (lowest common ancestor by binary lifting). The
narrowest edge of the chosen path is then refined exactly: when it lies in a gap between two
obstacles, the clearance is half their exact distance and the pinch is the middle of the gap.

Two tiles 18 mm apart: a 19.05 mm coin cannot pass between them, so the best path goes round
(a 17 mm coin takes the gap, whose exact width is the clearance):

>>> from tabletop.scene import Piece
>>> two_tiles = ObstacleSet.from_pieces([Piece.tile(0, 0), Piece.tile(50.8 + 18.0, 0)])
>>> r = fit_path(two_tiles, (34.4, -60.0), (34.4, 60.0), 19.05)
>>> r.fits, r.clearance_mm > 19.05, len(r.path_mm) > 2
(True, True, True)
>>> r = fit_path(two_tiles, (34.4, -30.0), (34.4, 30.0), 17.0)
>>> r.fits, round(r.clearance_mm, 3), r.pinch_mm
(True, 18.0, (34.4, -25.4))
"""

from __future__ import annotations

import itertools
import math
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from referee.geometry.obstacles import ObstacleSet, Point2
from tabletop.pieceset import DEFAULT_PIECES
from tabletop.scene import Piece

OPEN_CLEARANCE_MM = 100.0
"""Clearances are measured up to this distance; a path farther from everything is "open"."""

SAMPLE_SPACING_MM = 4.0
"""Spacing of the points sampled on obstacle outlines for the roadmap."""

CONNECT_NEIGHBOURS = 4
"""How many roadmap nodes a query's start and goal are joined to: the widest joins among the
:data:`CONNECT_CANDIDATES` nearest."""

CONNECT_CANDIDATES = 16
"""How many nearby roadmap nodes are tried for joining a query's start and goal."""

FIT_TOLERANCE_MM = 0.0
"""Default slack: a coin fits a gap at least ``diameter - tolerance`` wide."""


@dataclass(frozen=True)
class FitResult:
    """The answer to "can a coin slide from A to B?".

    Attributes:
        fits: Whether the coin can slide along the best path.
        clearance_mm: Width of the narrowest place on the best path: the diameter of the
            largest coin that could slide along it (twice the least distance from the path to
            an obstacle, 0 when the path must cross an obstacle; at most twice
            :data:`OPEN_CLEARANCE_MM`).
        path_mm: The best path's points ``(x, y)``, from start to goal.
        pinch_mm: The narrowest place on the path, or None when nothing is near the path.
    """

    fits: bool
    clearance_mm: float
    path_mm: tuple[Point2, ...]
    pinch_mm: Point2 | None

    def to_json(self) -> dict[str, Any]:
        """The contract's JSON form (``fit`` on the command line)."""
        return {"fits": self.fits, "clearance_mm": round(self.clearance_mm, 3),
                "path": [[round(x, 3), round(y, 3)] for x, y in self.path_mm],
                "pinch": None if self.pinch_mm is None else [round(self.pinch_mm[0], 3),
                                                             round(self.pinch_mm[1], 3)]}


def _circumcentres(tri: np.ndarray) -> np.ndarray:
    """Circumcentres of triangles, shape (T, 3, 2) -> (T, 2)."""
    a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
    bx, by = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
    cx, cy = c[:, 0] - a[:, 0], c[:, 1] - a[:, 1]
    d = 2.0 * (bx * cy - by * cx)
    d = np.where(np.abs(d) < 1e-12, 1e-12, d)
    b2, c2 = bx * bx + by * by, cx * cx + cy * cy
    return np.column_stack([a[:, 0] + (cy * b2 - by * c2) / d, a[:, 1] + (bx * c2 - cx * b2) / d])


def _outline_points(obstacles: ObstacleSet, spacing_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """Points on every obstacle's outline, shape (P, 2), and the obstacle of each, shape (P,)."""
    pts: list[np.ndarray] = []
    owner: list[np.ndarray] = []
    for k, (geom, r) in enumerate(zip(obstacles.geoms, obstacles.radii_mm, strict=True)):
        before = len(pts)
        if r > 0:
            n = max(8, math.ceil(2 * math.pi * r / spacing_mm))
            t = np.arange(n) * (2 * math.pi / n)
            pts.append(np.column_stack([geom.x + r * np.cos(t), geom.y + r * np.sin(t)]))
        else:
            rings = ([geom.exterior, *geom.interiors] if hasattr(geom, "exterior")
                     else [geom])
            for ring in rings:
                for a, b in itertools.pairwise(np.asarray(ring.coords)):
                    n = max(1, math.ceil(float(np.hypot(*(b - a))) / spacing_mm))
                    t = (np.arange(n) / n)[:, None]
                    pts.append(a + t * (b - a))
        owner.extend(np.full(len(p), k) for p in pts[before:])
    if not pts:
        return np.empty((0, 2)), np.empty(0, dtype=int)
    return np.vstack(pts), np.concatenate(owner)


class Roadmap:
    """The medial-axis roadmap of one obstacle set and its maximum spanning tree (build once)."""

    def __init__(self, obstacles: ObstacleSet, spacing_mm: float = SAMPLE_SPACING_MM,
                 extra_points_mm: Sequence[Point2] = ()) -> None:
        self.obstacles = obstacles
        outline, owner = _outline_points(obstacles, spacing_mm)
        every = np.vstack([outline, np.asarray(extra_points_mm, dtype=float).reshape(-1, 2)])
        lo, hi = (every.min(axis=0), every.max(axis=0)) if len(every) else (np.zeros(2),) * 2
        lo, hi = lo - OPEN_CLEARANCE_MM, hi + OPEN_CLEARANCE_MM
        frame_step = max(spacing_mm * 8, float((hi - lo).max()) / 40)
        frame = _frame_points(lo, hi, frame_step)
        gens = np.vstack([outline, frame])
        # a tiny fixed jitter keeps GEOS's Delaunay clear of exactly collinear or cocircular
        # samples (it can fail on them); weights are computed exactly afterwards anyway
        gens = gens + np.random.default_rng(0).uniform(-1e-4, 1e-4, gens.shape)
        # every frame point is its own owner: the open table between them stays connected
        owners = np.concatenate([owner, -1 - np.arange(len(frame))])
        # unique generators, keyed as complex numbers (sorted lexicographically by numpy)
        key = gens[:, 0] + 1j * gens[:, 1]
        key, first = np.unique(key, return_index=True)
        gens, owners = gens[first], owners[first]
        tris = shapely.get_parts(shapely.delaunay_triangles(shapely.multipoints(gens)))
        tc = shapely.get_coordinates(tris).reshape(-1, 4, 2)[:, :3]
        vid = np.searchsorted(key, tc[..., 0] + 1j * tc[..., 1])
        # Voronoi edges = Delaunay edges shared by two triangles, joining their circumcentres;
        # only edges between outlines of different obstacles (the medial axis) are kept
        m = len(gens)
        a, b = vid, np.roll(vid, -1, axis=1)
        lo_id, hi_id = np.minimum(a, b).ravel(), np.maximum(a, b).ravel()
        ekey = lo_id.astype(np.int64) * m + hi_id
        tri_of = np.repeat(np.arange(len(vid)), 3)
        order = np.argsort(ekey, kind="stable")
        ek, to = ekey[order], tri_of[order]
        pair = np.flatnonzero(ek[1:] == ek[:-1])
        t1, t2 = to[pair], to[pair + 1]
        g1, g2 = ek[pair] // m, ek[pair] % m
        cc = _circumcentres(tc)
        # the medial axis: edges between outlines of different obstacles, plus the short edges
        # that join pieces of one split vertex (nearly cocircular samples)
        length = np.hypot(*(cc[t1] - cc[t2]).T)
        keep = (owners[g1] != owners[g2]) | (length < spacing_mm)
        t1, t2 = t1[keep], t2[keep]
        # circumcentres of nearly flat triangles (collinear samples) fly off: keep edges
        # whose both ends lie within a box one frame size beyond the frame (cutting at the
        # frame itself would cut the outer roadmap into scraps)
        big = float((hi - lo).max())
        inside = np.all((cc >= lo - big) & (cc <= hi + big), axis=1)
        ok = inside[t1] & inside[t2]
        t1, t2 = t1[ok], t2[ok]
        used, inverse = np.unique(np.concatenate([t1, t2]), return_inverse=True)
        self.nodes = cc[used]
        self.edge_nodes = inverse.reshape(2, -1).T
        self.edge_weights = obstacles.segment_clearances(
            self.nodes[self.edge_nodes[:, 0]], self.nodes[self.edge_nodes[:, 1]],
            OPEN_CLEARANCE_MM)
        node_clear = obstacles.segment_clearances(self.nodes, self.nodes, OPEN_CLEARANCE_MM)
        # start and goal join nodes in free space, away from the frame (the roadmap is cut
        # into scraps there)
        margin = frame_step
        away = np.all((self.nodes > lo + margin) & (self.nodes < hi - margin), axis=1)
        self.free_nodes = np.flatnonzero((node_clear > 0) & away)
        if len(self.free_nodes) < CONNECT_NEIGHBOURS:
            self.free_nodes = np.arange(len(self.nodes))
        self.free_xy = self.nodes[self.free_nodes]
        self._build_tree()

    def _build_tree(self) -> None:
        n = len(self.nodes)
        order = np.argsort(-self.edge_weights, kind="stable")
        uf = list(range(n))

        def find(a: int) -> int:
            while uf[a] != a:
                uf[a] = uf[uf[a]]
                a = uf[a]
            return a

        krt_parent = list(range(n))
        krt_weight = [math.inf] * n
        krt_of_root = list(range(n))
        adj: list[list[tuple[int, float]]] = [[] for _ in range(n)]
        for e in order:
            u, v = (int(x) for x in self.edge_nodes[e])
            ru, rv = find(u), find(v)
            if ru == rv:
                continue
            w = float(self.edge_weights[e])
            k = len(krt_parent)
            krt_parent.append(k)
            krt_weight.append(w)
            krt_parent[krt_of_root[ru]] = k
            krt_parent[krt_of_root[rv]] = k
            uf[ru] = rv
            krt_of_root[rv] = k
            adj[u].append((v, w))
            adj[v].append((u, w))
        # spanning tree rooted per component: parent, depth, weight of the edge to the parent
        parent = [-1] * n
        depth = [0] * n
        up_w = [math.inf] * n
        seen = [False] * n
        for root in range(n):
            if seen[root]:
                continue
            seen[root] = True
            stack = [root]
            while stack:
                a = stack.pop()
                for b, w in adj[a]:
                    if not seen[b]:
                        seen[b] = True
                        parent[b], depth[b], up_w[b] = a, depth[a] + 1, w
                        stack.append(b)
        self.parent, self.depth, self.up_w = parent, depth, up_w
        self.parent_arr, self.up_w_arr = np.asarray(parent), np.asarray(up_w)
        # Kruskal reconstruction tree with binary lifting
        kp = np.asarray(krt_parent)
        kd = np.zeros(len(kp), dtype=int)
        for v in range(len(kp) - 1, -1, -1):  # parents have larger ids
            if kp[v] != v:
                kd[v] = kd[kp[v]] + 1
        levels = [kp]
        for _ in range(max(1, int(kd.max()).bit_length())):
            levels.append(levels[-1][levels[-1]])
        self.krt_up = levels
        self.krt_depth = kd
        self.krt_weight = np.asarray(krt_weight)

    def bottlenecks(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Widest-path clearance between node arrays ``a`` and ``b`` (same shape), -inf when
        they are not connected."""
        a, b = a.copy(), b.copy()
        da, db = self.krt_depth[a], self.krt_depth[b]
        swap = da < db
        a[swap], b[swap] = b[swap], a[swap]
        diff = np.abs(da - db)
        for j, up in enumerate(self.krt_up):
            sel = (diff >> j) & 1 == 1
            a[sel] = up[a[sel]]
        for up in reversed(self.krt_up):
            sel = up[a] != up[b]
            a[sel], b[sel] = up[a[sel]], up[b[sel]]
        lca = np.where(a == b, a, self.krt_up[0][a])
        out = self.krt_weight[lca].copy()
        out[(a != b) & (self.krt_up[0][a] != self.krt_up[0][b])] = -math.inf
        same = (a == b)
        out[same & np.isinf(out)] = math.inf
        return out

    def tree_path(self, a: int, b: int) -> list[int]:
        """Node ids of the spanning-tree path from ``a`` to ``b``."""
        left, right = [a], [b]
        while left[-1] != right[-1]:
            if self.depth[left[-1]] >= self.depth[right[-1]]:
                if self.parent[left[-1]] < 0:
                    break
                left.append(self.parent[left[-1]])
            else:
                right.append(self.parent[right[-1]])
        return left + right[-2::-1]


def _frame_points(lo: np.ndarray, hi: np.ndarray, step: float) -> np.ndarray:
    xs = np.arange(lo[0], hi[0] + step, step)
    ys = np.arange(lo[1], hi[1] + step, step)
    return np.vstack([np.column_stack([xs, np.full_like(xs, lo[1])]),
                      np.column_stack([xs, np.full_like(xs, hi[1])]),
                      np.column_stack([np.full_like(ys, lo[0]), ys]),
                      np.column_stack([np.full_like(ys, hi[0]), ys])])


_CACHE: OrderedDict[int, tuple[ObstacleSet, Roadmap]] = OrderedDict()
_CACHE_SIZE = 16


def roadmap_for(obstacles: ObstacleSet) -> Roadmap:
    """The roadmap of an obstacle set, built on first use and cached (a few recent sets)."""
    key = id(obstacles)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is obstacles:
        _CACHE.move_to_end(key)
        return hit[1]
    rm = Roadmap(obstacles)
    _CACHE[key] = (obstacles, rm)
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return rm


def fit_path(obstacles: ObstacleSet | Iterable[Piece], start_mm: Point2, goal_mm: Point2,
             coin_diameter_mm: float, tolerance_mm: float = FIT_TOLERANCE_MM,
             roadmap: Roadmap | None = None) -> FitResult:
    """Can a coin slide from ``start_mm`` to ``goal_mm`` between the obstacles?

    Args:
        obstacles: A prepared :class:`ObstacleSet` (its roadmap is cached) or pieces.
        start_mm: Where the coin's centre starts, table mm.
        goal_mm: Where it should end.
        coin_diameter_mm: The coin's diameter.
        tolerance_mm: The coin fits a place at least ``coin_diameter_mm - tolerance_mm`` wide.
        roadmap: A roadmap built for these obstacles (else the cached one).

    Returns:
        The best path (widest at its narrowest place) and whether the coin fits along it.
    """
    if not isinstance(obstacles, ObstacleSet):
        obstacles = ObstacleSet.from_pieces(list(obstacles), DEFAULT_PIECES)
    s = (float(start_mm[0]), float(start_mm[1]))
    g = (float(goal_mm[0]), float(goal_mm[1]))
    need = coin_diameter_mm / 2.0 - tolerance_mm / 2.0
    if not len(obstacles):
        return FitResult(True, 2 * OPEN_CLEARANCE_MM, (s, g), None)
    rm = roadmap if roadmap is not None else roadmap_for(obstacles)
    c = min(CONNECT_CANDIDATES, len(rm.free_nodes))
    sn = _nearest_nodes(rm, s, c)
    gn = _nearest_nodes(rm, g, c)
    # one batch: the straight way, then start and goal to their nearby roadmap nodes
    a_pts = np.vstack([[s], np.broadcast_to(s, (c, 2)), np.broadcast_to(g, (c, 2))])
    b_pts = np.vstack([[g], rm.nodes[sn], rm.nodes[gn]])
    w = obstacles.segment_clearances(a_pts, b_pts, OPEN_CLEARANCE_MM)
    direct = float(w[0])
    if direct >= OPEN_CLEARANCE_MM:
        return FitResult(True, 2 * OPEN_CLEARANCE_MM, (s, g), None)
    best_w, best_path, best_edge = direct, np.array([s, g]), (s, g)
    k = min(CONNECT_NEIGHBOURS, c)
    if k:
        # the widest joins (the nearest first among equals: stable sort by distance order)
        ks = np.argsort(-w[1:c + 1], kind="stable")[:k]
        kg = np.argsort(-w[c + 1:], kind="stable")[:k]
        ws, wg = w[1:c + 1][ks], w[c + 1:][kg]
        sn, gn = sn[ks], gn[kg]
        ai, bi = np.meshgrid(np.arange(k), np.arange(k), indexing="ij")
        tree = rm.bottlenecks(sn[ai.ravel()], gn[bi.ravel()])
        total = np.minimum(np.minimum(ws[ai.ravel()], wg[bi.ravel()]), tree)
        j = int(np.argmax(total))
        if total[j] > best_w:
            a, b = int(sn[ai.ravel()[j]]), int(gn[bi.ravel()[j]])
            ids = np.asarray(rm.tree_path(a, b))
            pts = np.vstack([s, rm.nodes[ids], g])
            x, y = ids[:-1], ids[1:]
            inner = np.where(rm.parent_arr[x] == y, rm.up_w_arr[x], rm.up_w_arr[y])
            wts = np.concatenate([[ws[ai.ravel()[j]]], inner, [wg[bi.ravel()[j]]]])
            m = int(np.argmin(wts))
            best_w, best_path = float(total[j]), pts
            best_edge = ((float(pts[m][0]), float(pts[m][1])),
                         (float(pts[m + 1][0]), float(pts[m + 1][1])))
    clearance, pinch = _refine(obstacles, best_w, best_edge)
    pinch_pt: Point2 | None = pinch
    if clearance >= OPEN_CLEARANCE_MM:
        clearance, pinch_pt = OPEN_CLEARANCE_MM, None
    return FitResult(clearance >= need - 1e-9, max(0.0, 2.0 * clearance),
                     tuple(_dedupe(best_path)), pinch_pt)


def _nearest_nodes(rm: Roadmap, p: Point2, k: int) -> np.ndarray:
    """The ``k`` free roadmap nodes nearest to ``p`` (node ids)."""
    free, pts = rm.free_nodes, rm.free_xy
    d = (pts[:, 0] - p[0]) ** 2 + (pts[:, 1] - p[1]) ** 2
    if k >= len(d):
        return free[np.argsort(d)]
    idx = np.argpartition(d, k)[:k]
    return free[idx[np.argsort(d[idx])]]


def _refine(obstacles: ObstacleSet, weight: float,
            edge: tuple[Point2, Point2]) -> tuple[float, Point2]:
    """Exact clearance and pinch at the narrowest edge of a path.

    The edge's clearance is attained against its nearest obstacle. When the edge runs through
    the gap between that obstacle and another one (the middle of their shortest line lies on or
    near the edge), the best path's clearance there is exactly half that gap, at its middle.
    """
    line = shapely.LineString(edge)
    near = obstacles.nearest(line, weight + 2 * SAMPLE_SPACING_MM)
    if not near:
        return weight, ((edge[0][0] + edge[1][0]) / 2, (edge[0][1] + edge[1][1]) / 2)
    i1 = near[0][1]
    pt = shapely.shortest_line(line, obstacles.geoms[i1]).coords[0]
    result: tuple[float, Point2] = (weight, (float(pt[0]), float(pt[1])))
    best_half = math.inf
    for _, i2 in near[1:]:
        gap, mid = obstacles.gap_between(i1, i2)
        half = gap / 2.0
        if (weight - 1e-9 <= half <= weight + SAMPLE_SPACING_MM and half < best_half
                and line.distance(shapely.Point(mid)) <= SAMPLE_SPACING_MM):
            best_half, result = half, (half, mid)
    return result


def _dedupe(points: np.ndarray) -> list[Point2]:
    """The path's points, without repeats and simplified by 0.1 mm (for drawing)."""
    line = shapely.simplify(shapely.linestrings(points), 0.1, preserve_topology=False)
    return [(float(x), float(y)) for x, y in shapely.get_coordinates(line)]
