"""Can a coin slide from A to B? The widest path through configuration space.

A coin of radius r fits wherever its centre is at least r from every obstacle (configuration
space: obstacles grown by the coin's radius). Among all paths from A to B the best is the one
whose narrowest point is widest (a maximin, or bottleneck, path).

How: the obstacles' outlines are sampled and their Voronoi diagram (GEOS, via shapely) gives a
roadmap that follows the middle of every gap (the medial axis). Every roadmap edge is weighed by
its exact clearance (the least distance from the segment to any obstacle, discs measured from
their centres). The roadmap and its maximum spanning tree are built once per obstacle set and
cached; the widest path between two roadmap nodes is the path in that tree, found per query
through the Kruskal reconstruction tree (lowest common ancestor by binary lifting). Long roadmap
edges are split so that every place has nodes near it. A query's start and goal are joined by
straight segments to every roadmap node near them (within twice their own clearance, and at
least their nearest few), each join weighed by its own clearance; the best path is the widest
over every pair of joins and the tree between them (the clearance of a path is the least over
all its links, the first and last included). The narrowest link of the chosen path is then
refined exactly: when it lies in a gap between two obstacles, the clearance is half their exact
distance and the pinch is the middle of the gap.

When the coin slides straight from start to goal, that straight path is the answer (it is the
path a player means when asking about a gap), with its narrowest place as the pinch; otherwise
the widest path is. Two tiles 18 mm apart: a 19.05 mm coin cannot pass between them, so the
path goes round; a 17 mm coin goes straight through the 18 mm gap; inside the gap, an 18.5 mm
coin does not fit:

>>> from tabletop.scene import Piece
>>> two_tiles = ObstacleSet.from_pieces([Piece.tile(0, 0), Piece.tile(50.8 + 18.0, 0)])
>>> r = fit_path(two_tiles, (34.4, -60.0), (34.4, 60.0), 19.05)
>>> r.fits, r.clearance_mm > 19.05, len(r.path_mm) > 2
(True, True, True)
>>> r = fit_path(two_tiles, (34.4, -30.0), (34.4, 30.0), 17.0)
>>> r.fits, round(r.clearance_mm, 3), len(r.path_mm)
(True, 18.0, 2)
>>> r = fit_path(two_tiles, (34.4, -10.0), (34.4, 10.0), 18.5)
>>> r.fits, round(r.clearance_mm, 3), r.pinch_mm
(False, 18.0, (34.4, -10.0))
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

EDGE_MOST_MM = 2 * SAMPLE_SPACING_MM
"""Longer roadmap edges are split (so a query point always has roadmap nodes near it)."""

JOIN_RADIUS = 2.0
"""A query's start and goal are joined to every roadmap node within this many times their own
clearance (by a straight segment, weighed by its own clearance)..."""

JOIN_RADIUS_MIN_MM = 4 * SAMPLE_SPACING_MM
"""... and at least within this distance ..."""

JOIN_NEAREST = 6
"""... and to at least this many nearest nodes (where the roadmap is thin: the open table) ..."""

JOIN_MOST = 16
"""... and to at most this many (the nearest)."""

FRAME_MARGIN_MM = 2.5 * OPEN_CLEARANCE_MM
"""The roadmap's frame (Voronoi generators that bound it) lies this far beyond the pieces."""

RETRACT_MOST_MM = OPEN_CLEARANCE_MM
"""Farthest a query point is moved away from its nearest obstacle to reach the medial axis (no
farther than where the clearance is :data:`OPEN_CLEARANCE_MM`)."""

RETRACT_SAMPLES = 12

RETRACT_GAIN_MM = 0.05
"""An end is also joined through the place it retracts to unless a straight join is already
within this of the end's own clearance (none could be clearer)."""
"""Points tried along the way (twice: coarse, then fine)."""

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
                 extra_points_mm: Sequence[Point2] = (),
                 frame_margin_mm: float = FRAME_MARGIN_MM) -> None:
        self.obstacles = obstacles
        outline, owner = _outline_points(obstacles, spacing_mm)
        every = np.vstack([outline, np.asarray(extra_points_mm, dtype=float).reshape(-1, 2)])
        lo, hi = (every.min(axis=0), every.max(axis=0)) if len(every) else (np.zeros(2),) * 2
        # the frame lies far enough out that the roadmap's outer ring (midway between the
        # pieces and the frame) is open table
        lo, hi = lo - frame_margin_mm, hi + frame_margin_mm
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
        self.nodes, self.edge_nodes = _subdivide(cc[used], inverse.reshape(2, -1).T,
                                                 EDGE_MOST_MM)
        self.edge_weights = obstacles.segment_clearances(
            self.nodes[self.edge_nodes[:, 0]], self.nodes[self.edge_nodes[:, 1]],
            OPEN_CLEARANCE_MM)
        node_clear = obstacles.segment_clearances(self.nodes, self.nodes, OPEN_CLEARANCE_MM)
        # start and goal join nodes in free space, away from the frame (the roadmap is cut
        # into scraps there)
        margin = frame_step
        away = np.all((self.nodes > lo + margin) & (self.nodes < hi - margin), axis=1)
        self.free_nodes = np.flatnonzero((node_clear > 0) & away)
        if len(self.free_nodes) < JOIN_NEAREST:
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
        # preorder intervals of the Kruskal tree: x lies under y when
        # tin[y] <= tin[x] < tin[y] + size[y] (children have smaller ids than parents)
        kpl = kp.tolist()
        size = [1] * len(kpl)
        for v in range(len(kpl)):
            if kpl[v] != v:
                size[kpl[v]] += size[v]
        tin = [0] * len(kpl)
        next_free = [0] * len(kpl)  # where a node's next child starts
        start = 0
        for v in range(len(kpl) - 1, -1, -1):
            if kpl[v] == v:
                tin[v], start = start, start + size[v]
            else:
                p = kpl[v]
                tin[v] = tin[p] + 1 + next_free[p]
                next_free[p] += size[v]
        self.krt_tin, self.krt_size = np.asarray(tin), np.asarray(size)

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

    def _undominated(self, nodes: np.ndarray, w: np.ndarray) -> np.ndarray:
        """Positions of the joins worth trying: a join is dominated by one at least as clear
        whose roadmap part (at that clearance) holds its node, for every way on through the
        dominated node is at least as wide through the other."""
        order = np.lexsort((np.arange(len(w)), -w))
        nodes, w = nodes[order], w[order]
        parts = nodes.copy()
        for up in reversed(self.krt_up):  # each node's part at its own join's clearance
            cand = up[parts]
            ok = self.krt_weight[cand] >= w
            parts[ok] = cand[ok]
        lo = self.krt_tin[parts]
        hi = lo + self.krt_size[parts]
        t = self.krt_tin[nodes]
        under = (lo[:, None] <= t[None, :]) & (t[None, :] < hi[:, None])  # [k, i]: i under k
        np.fill_diagonal(under, False)
        dominated = np.triu(under, 1).T.any(axis=1)  # by an earlier (at least as clear) join
        return np.sort(order[~dominated])

    def widest(self, a: np.ndarray, wa: np.ndarray, b: np.ndarray, wb: np.ndarray
               ) -> tuple[float, int, int] | None:
        """The widest way from a point joined to nodes ``a`` (with join clearances ``wa``) to a
        point joined to nodes ``b`` (``wb``) through the roadmap.

        Returns:
            ``(clearance, i, j)``: the way's clearance (the least over the two joins and the
            roadmap edges between ``a[i]`` and ``b[j]``), or None when no node of ``a`` is
            connected to one of ``b``.
        """
        if not len(a) or not len(b):
            return None
        ia, ib = self._undominated(a, wa), self._undominated(b, wb)
        ai, bi = np.meshgrid(ia, ib, indexing="ij")
        ai, bi = ai.ravel(), bi.ravel()
        total = np.minimum(np.minimum(wa[ai], wb[bi]), self.bottlenecks(a[ai], b[bi]))
        k = int(np.argmax(total))
        if not np.isfinite(total[k]):
            return None
        return float(total[k]), int(ai[k]), int(bi[k])

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


def _subdivide(nodes: np.ndarray, edges: np.ndarray, most_mm: float
               ) -> tuple[np.ndarray, np.ndarray]:
    """Splits edges longer than ``most_mm`` into equal pieces (new nodes between them), so
    that every place on the roadmap has a node near it: nodes (N, 2), edges (E, 2) ->
    nodes (N', 2), edges (E', 2)."""
    a, b = nodes[edges[:, 0]], nodes[edges[:, 1]]
    pieces = np.maximum(1, np.ceil(np.hypot(*(b - a).T) / most_mm).astype(int))
    long = np.flatnonzero(pieces > 1)
    if not len(long):
        return nodes, edges
    k = pieces[long]
    inner = k - 1  # new nodes per long edge
    owner = np.repeat(np.arange(len(long)), inner)
    first = np.concatenate([[0], np.cumsum(inner)[:-1]])
    step = np.arange(len(owner)) - first[owner] + 1  # 1 .. k-1 along its edge
    t = (step / k[owner])[:, None]
    e = long[owner]
    new_xy = a[e] + t * (b[e] - a[e])
    new_id = len(nodes) + np.arange(len(owner))
    # each long edge becomes a chain: start, its new nodes in order, end
    prev = np.where(step == 1, edges[e, 0], new_id - 1)
    links = [np.column_stack([prev, new_id]),
             np.column_stack([new_id[step == k[owner] - 1], edges[long, 1]]),
             edges[pieces == 1]]
    return np.vstack([nodes, new_xy]), np.vstack(links).astype(int)


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
    ends = np.array([s, g])
    own, near_pts = obstacles.nearest_points(ends)
    own_s, own_g = float(own[0]), float(own[1])
    # the straight way and the straight joins of the start and of the goal, in one batch
    # (a join is no clearer than its end: only obstacles that near matter)
    ds, dg = _direct_joins(rm, s, own_s), _direct_joins(rm, g, own_g)
    cap = float(np.clip(own.max(), 0.0, OPEN_CLEARANCE_MM))
    mid = ((s[0] + g[0]) / 2, (s[1] + g[1]) / 2)
    w = obstacles.segment_clearances(
        np.vstack([[s], np.broadcast_to(s, (len(ds), 2)), np.broadcast_to(g, (len(dg), 2))]),
        np.vstack([[g], rm.nodes[ds], rm.nodes[dg]]), cap,
        near_mm=[(mid, math.dist(s, g) / 2 + cap + 1.0),
                 *((p, _reach(rm, p, ids) + cap + 1.0) for p, ids in ((s, ds), (g, dg)))])
    direct = float(min(w[0], own_s, own_g))
    if direct >= OPEN_CLEARANCE_MM:
        return FitResult(True, 2 * OPEN_CLEARANCE_MM, (s, g), None)
    if direct >= need - 1e-9:
        # the coin slides straight there: that is the path a player means, and its narrowest
        # place is the gap they asked about (a wider way round would answer another question)
        clearance, pinch = _refine(obstacles, direct, (s, g))
        return FitResult(True, max(0.0, 2.0 * clearance), (s, g), pinch)
    best_w, best_path, best_edge = direct, np.array([s, g]), (s, g)
    js = _Joins.straight(s, own_s, ds, w[1:len(ds) + 1])
    jg = _Joins.straight(g, own_g, dg, w[len(ds) + 1:])
    # an end whose straight joins are all narrower than itself is joined through the place it
    # retracts to as well (on the medial axis, as clear as the end itself)
    short = [k for k, j in enumerate((js, jg))
             if not len(j.weights) or float(j.weights.max()) < j.own - RETRACT_GAIN_MM]
    if short:
        places = _retract(obstacles, ends[short], own[short], near_pts[short])
        joined = [(k, r, _free_near(rm, r)) for k, r in zip(short, places, strict=True)
                  if r is not None]
        if joined:
            w2 = obstacles.segment_clearances(
                np.vstack([np.broadcast_to(r, (len(ids), 2)) for _, r, ids in joined]),
                np.vstack([rm.nodes[ids] for _, _, ids in joined]), cap,
                near_mm=[(r, _reach(rm, r, ids) + cap + 1.0) for _, r, ids in joined])
            at = 0
            for k, r, ids in joined:
                part = w2[at:at + len(ids)]
                at += len(ids)
                if k == 0:
                    js = js.through(r, ids, part)
                else:
                    jg = jg.through(r, ids, part)
    found = rm.widest(js.nodes, js.weights, jg.nodes, jg.weights)
    if found is not None and found[0] > best_w:
        width, i, j = found
        ids = np.asarray(rm.tree_path(int(js.nodes[i]), int(jg.nodes[j])))
        x, y = ids[:-1], ids[1:]
        inner = np.where(rm.parent_arr[x] == y, rm.up_w_arr[x], rm.up_w_arr[y])
        head_pts, head_w = js.links(i)
        tail_pts, tail_w = jg.links(j)
        pts = np.vstack([head_pts, rm.nodes[ids], tail_pts[::-1]])
        wts = np.concatenate([head_w, inner, tail_w[::-1]])
        m = int(np.argmin(wts))
        best_w, best_path = width, pts
        best_edge = ((float(pts[m][0]), float(pts[m][1])),
                     (float(pts[m + 1][0]), float(pts[m + 1][1])))
    clearance, pinch = _refine(obstacles, best_w, best_edge)
    pinch_pt: Point2 | None = pinch
    if clearance > min(own_s, own_g):  # the ends are on every path: never wider than them
        clearance, pinch_pt = (own_s, s) if own_s <= own_g else (own_g, g)
    if clearance >= OPEN_CLEARANCE_MM:
        clearance, pinch_pt = OPEN_CLEARANCE_MM, None
    return FitResult(clearance >= need - 1e-9, max(0.0, 2.0 * clearance),
                     tuple(_dedupe(best_path)), pinch_pt)


@dataclass(frozen=True)
class _Joins:
    """The links from a query point to the roadmap.

    Attributes:
        point: The query point.
        nodes: Roadmap node of each join, shape (K,).
        weights: Each join's clearance (the least over its links), shape (K,).
        via: Whether a join goes through ``retract`` first, shape (K,).
        retract: Where the point retracts to (or None).
        own: The point's own clearance (the link to ``retract`` is as clear).
        last: Clearance of each join's link that ends at its node, shape (K,).
    """

    point: Point2
    nodes: np.ndarray
    weights: np.ndarray
    via: np.ndarray
    retract: Point2 | None
    own: float
    last: np.ndarray

    @classmethod
    def straight(cls, point: Point2, own: float, nodes: np.ndarray, clear: np.ndarray
                 ) -> _Joins:
        """Straight joins to ``nodes`` whose segments are ``clear``."""
        return cls(point, nodes, np.minimum(clear, own), np.zeros(len(nodes), dtype=bool),
                   None, own, clear)

    def through(self, retract: Point2, nodes: np.ndarray, clear: np.ndarray) -> _Joins:
        """These joins and more through ``retract`` to ``nodes`` (last links ``clear``)."""
        return _Joins(self.point, np.concatenate([self.nodes, nodes]),
                      np.concatenate([self.weights, np.minimum(clear, self.own)]),
                      np.concatenate([self.via, np.ones(len(nodes), dtype=bool)]), retract,
                      self.own, np.concatenate([self.last, clear]))

    def links(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """The points of join ``k`` up to (not including) its node, and each link's
        clearance."""
        if self.via[k] and self.retract is not None:
            return np.array([self.point, self.retract]), np.array([self.own, self.last[k]])
        return np.array([self.point]), np.array([self.last[k]])


def _retract(obstacles: ObstacleSet, points_mm: np.ndarray, own_mm: np.ndarray,
             nearest_mm: np.ndarray) -> list[Point2 | None]:
    """Where each point gets to moving straight away from the nearest place on its nearest
    obstacle (``nearest_mm``) for as long as its clearance grows as fast as it moves: to the
    middle between that obstacle and the next (the medial axis), and no farther than
    :data:`RETRACT_MOST_MM` or than where the table is open. The way there is as clear as the
    point itself. None for a point inside an obstacle or already on the open table.

    Points (K, 2), their clearances (K,) and nearest places (K, 2) -> K places or None.
    """
    k = len(points_mm)
    u = points_mm - nearest_mm
    n = np.hypot(u[:, 0], u[:, 1])
    ok_pt = (own_mm > 0) & (n > 1e-9)
    u = u / np.where(n > 1e-9, n, 1.0)[:, None]
    lo: np.ndarray = np.zeros(k)
    hi: np.ndarray = np.clip(np.minimum(RETRACT_MOST_MM, OPEN_CLEARANCE_MM - own_mm), 0.0, None)
    frac = np.arange(1, RETRACT_SAMPLES + 1) / RETRACT_SAMPLES
    for _ in range(2):  # a coarse pass, then a fine one, every point at once
        ts = lo[:, None] + (hi - lo)[:, None] * frac[None, :]  # (K, S)
        pts = points_mm[:, None, :] + ts[..., None] * u[:, None, :]
        c = obstacles.point_clearances(pts.reshape(-1, 2)).reshape(ts.shape)
        ok = c >= own_mm[:, None] + ts - 1e-6
        first_bad = np.where(ok.all(axis=1), RETRACT_SAMPLES, np.argmin(ok, axis=1))
        rows = np.arange(k)
        new_lo = np.where(first_bad > 0, ts[rows, np.maximum(first_bad - 1, 0)], lo)
        hi = np.where(first_bad < RETRACT_SAMPLES,
                      ts[rows, np.minimum(first_bad, RETRACT_SAMPLES - 1)], hi)
        lo = new_lo
    out: list[Point2 | None] = []
    for i in range(k):
        if not ok_pt[i] or lo[i] <= 0:
            out.append(None)
        else:
            out.append((float(points_mm[i, 0] + lo[i] * u[i, 0]),
                        float(points_mm[i, 1] + lo[i] * u[i, 1])))
    return out


def _nearest_free(rm: Roadmap, p: Point2, most: int) -> tuple[np.ndarray, np.ndarray]:
    """Positions in ``rm.free_nodes`` of the ``most`` free nodes nearest to ``p`` (nearest
    first), and their squared distances."""
    pts = rm.free_xy
    d2 = (pts[:, 0] - p[0]) ** 2 + (pts[:, 1] - p[1]) ** 2
    most = min(most, len(d2))
    near = np.argpartition(d2, most - 1)[:most] if most < len(d2) else np.arange(len(d2))
    near = near[np.argsort(d2[near], kind="stable")]
    return near, d2[near]


def _free_near(rm: Roadmap, p: Point2, most: int = 0) -> np.ndarray:
    """Ids of the ``most`` (default :data:`JOIN_NEAREST`) free roadmap nodes nearest ``p``."""
    near, _ = _nearest_free(rm, p, most or JOIN_NEAREST)
    return rm.free_nodes[near]


def _reach(rm: Roadmap, p: Point2, ids: np.ndarray) -> float:
    """How far the farthest of the nodes ``ids`` is from ``p``."""
    if not len(ids):
        return 0.0
    q = rm.nodes[ids]
    return float(np.sqrt(((q[:, 0] - p[0]) ** 2 + (q[:, 1] - p[1]) ** 2).max()))


def _direct_joins(rm: Roadmap, p: Point2, own_mm: float) -> np.ndarray:
    """The roadmap nodes a query point is joined to straight: every free node within
    :data:`JOIN_RADIUS` times its own clearance (at least :data:`JOIN_RADIUS_MIN_MM`) and its
    :data:`JOIN_NEAREST` nearest nodes (the open table's roadmap is thin), at most
    :data:`JOIN_MOST`, nearest first."""
    if not len(rm.free_nodes):
        return np.empty(0, dtype=int)
    radius = max(JOIN_RADIUS_MIN_MM, JOIN_RADIUS * min(max(own_mm, 0.0), OPEN_CLEARANCE_MM))
    near, d2 = _nearest_free(rm, p, JOIN_MOST)
    n = int(np.searchsorted(d2, radius * radius, side="right"))
    return rm.free_nodes[near[:max(n, min(JOIN_NEAREST, len(near)))]]


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
