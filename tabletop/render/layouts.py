"""Piece layouts like a real game's: worms of touching coins, face-down obstacle tiles at any
angle (some edge to edge), face-up start tiles, posts (some touching), a worm passing through
the narrow gap between two tiles, and Worm Up! segments and ArUco tokens when asked for.

Footprints never overlap (touching is allowed and drawn exactly) and stay off the keep-out areas
(clutter) and inside the region given (the part of the table the camera sees).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from tabletop.markers import JUNGLE_TOKEN_IDS, TOKEN_IDS
from tabletop.pieceset import PieceSet
from tabletop.scene import SUITS, Piece

GAP_RANGE_MM = (17.0, 22.0)
"""Width of the narrow gap a gap worm meets."""

GROUP_WEIGHTS: Mapping[str, float] = MappingProxyType(
    {"worm": 0.5, "tile": 0.2, "post": 0.1, "segment": 0.12, "token": 0.06})
"""How often each kind of group is drawn (of the kinds asked for)."""

GROUP_KIND: Mapping[str, str] = MappingProxyType(
    {"worm": "coin", "tile": "tile", "post": "post", "segment": "segment", "token": "token"})
"""The kind of piece each group is made of."""


@dataclass
class Placer:
    """Pieces placed so far, with their footprints, and the place's limits.

    Attributes:
        region: Where footprints must lie (table mm).
        keep_out: Where they must not (clutter), with ``margin_mm`` to spare.
        pieces: Sizes.
    """

    region: BaseGeometry
    keep_out: list[BaseGeometry]
    pieces: PieceSet
    margin_mm: float = 3.0
    placed: list[Piece] = field(default_factory=list)
    shapes: list[BaseGeometry] = field(default_factory=list)
    radii: list[float] = field(default_factory=list)

    def footprint(self, p: Piece) -> tuple[BaseGeometry, float]:
        """A piece's footprint (inscribed polygon of a circle, or its exact square) and the
        radius of a circle round it."""
        ps = self.pieces
        if p.kind in ("tile", "token"):
            side = ps.tile_mm if p.kind == "tile" else ps.token_mm
            a = math.radians(p.angle_deg or 0.0)
            ca, sa, h = math.cos(a), math.sin(a), side / 2.0
            pts = [(p.x_mm + ca * x - sa * y, p.y_mm + sa * x + ca * y)
                   for x, y in ((-h, -h), (h, -h), (h, h), (-h, h))]
            return Polygon(pts), h * math.sqrt(2.0)
        r = {"coin": ps.coin_radius_mm, "post": ps.post_diameter_mm / 2.0,
             "segment": ps.segment_diameter_mm / 2.0}.get(p.kind, 10.0)
        return Point(p.x_mm, p.y_mm).buffer(r, quad_segs=32), r

    def fits(self, group: list[Piece]) -> bool:
        """Whether pieces can all be added (no overlap with each other or what is placed)."""
        geoms = [self.footprint(p) for p in group]
        for g, _ in geoms:
            if not self.region.contains(g):
                return False
            if any(g.distance(k) < self.margin_mm for k in self.keep_out):
                return False
        all_p = self.placed + group
        all_g = self.shapes + [g for g, _ in geoms]
        all_r = self.radii + [r for _, r in geoms]
        n0 = len(self.placed)
        for i in range(n0, len(all_p)):
            for j in range(i):
                d = math.hypot(all_p[i].x_mm - all_p[j].x_mm, all_p[i].y_mm - all_p[j].y_mm)
                if d >= all_r[i] + all_r[j]:
                    continue
                if all_g[i].intersection(all_g[j]).area > 1e-6:
                    return False
        return True

    def add(self, group: list[Piece]) -> list[int]:
        """Adds pieces (checked by :meth:`fits`); their indices."""
        first = len(self.placed)
        for p in group:
            g, r = self.footprint(p)
            self.placed.append(p)
            self.shapes.append(g)
            self.radii.append(r)
        return list(range(first, len(self.placed)))


@dataclass(frozen=True)
class Layout:
    """Pieces and what they form.

    Attributes:
        pieces: The pieces.
        worms: Indices of each worm's coins, head to tail.
        gaps: ``{"between": [i, j], "width_mm": g, "worm": k}`` for each narrow gap a worm
            meets (``k`` indexes :attr:`worms`).
    """

    pieces: tuple[Piece, ...]
    worms: tuple[tuple[int, ...], ...] = ()
    gaps: tuple[dict[str, Any], ...] = ()


def _rot(a: float, x: float, y: float) -> tuple[float, float]:
    return (math.cos(a) * x - math.sin(a) * y, math.sin(a) * x + math.cos(a) * y)


def _coin(x: float, y: float, suit: str, rng: np.random.Generator) -> Piece:
    face = "down" if rng.uniform() < 0.04 else None
    return Piece("coin", float(x), float(y), suit=None if face else suit, face=face)


def worm(rng: np.random.Generator, start: tuple[float, float], n: int, suit: str,
         pieces: PieceSet, heading: float | None = None) -> list[Piece]:
    """``n`` coins, each touching the last (a hair apart at most), bending as they go."""
    h = rng.uniform(0, 2 * math.pi) if heading is None else heading
    x, y = start
    out = []
    for _ in range(n):
        out.append(_coin(x, y, suit, rng))
        h += rng.uniform(-0.8, 0.8)
        step = pieces.coin_diameter_mm + rng.uniform(0.0, 0.25)
        x, y = x + step * math.cos(h), y + step * math.sin(h)
    return out


def gap_worm(rng: np.random.Generator, centre: tuple[float, float], pieces: PieceSet,
             width_mm: float | None = None, max_coins: int = 6,
             ) -> tuple[list[Piece], list[Piece], float]:
    """Two face-down tiles side by side with a narrow gap, and a worm meeting it.

    When the gap is at least a coin wide the worm passes through it, its coins touching one
    tile and then the other; when narrower, its head rests in the mouth touching both tiles'
    corners. Either way a coin touches each tile. Returns (the two tiles, the worm's coins
    head first, at most ``max_coins`` (2 or more), the gap width).
    """
    g = float(rng.uniform(*GAP_RANGE_MM)) if width_mm is None else width_mm
    s = pieces.tile_mm
    r = pieces.coin_radius_mm
    d = pieces.coin_diameter_mm
    theta = rng.uniform(0, math.pi / 2)
    # tile B shifted along the channel (not at a mouth a coin rests in: it would overlap it)
    slide = rng.uniform(-12.0, 12.0) if g >= d else 0.0
    cx, cy = centre

    def world(x: float, y: float) -> tuple[float, float]:
        u, v = _rot(theta, x, y)
        return (cx + u, cy + v)

    ta = Piece.tile(*world(-(s + g) / 2, 0.0), math.degrees(theta), "down")
    tb = Piece.tile(*world((s + g) / 2, slide), math.degrees(theta), "down")
    suit = str(rng.choice(SUITS))
    lo, hi = max(-s / 2, slide - s / 2), min(s / 2, slide + s / 2)  # the channel's extent
    coins: list[Piece] = []
    if g >= d:
        a = g / 2 - r  # zig-zag: a coin touches the left tile, the next the right one
        step_y = math.sqrt(max(d * d - 4 * a * a, 1.0))
        n = int(rng.integers(2, max(3, max_coins + 1)))
        before = int(rng.integers(0, 2)) if n >= 3 else 0  # a coin before the channel
        y0 = lo + r * 0.3 - step_y * before
        for k in range(n):
            x = -a if k % 2 == 0 else a
            coins.append(_coin(*world(x, y0 + k * step_y), suit, rng))
        # the first coin inside the channel touches tile A and the next tile B
    else:
        y_mouth = hi  # the worm comes from +y and stops at the mouth
        head = (0.0, y_mouth + math.sqrt(r * r - (g / 2) ** 2))
        coins.append(_coin(*world(*head), suit, rng))
        h = math.pi / 2 + rng.uniform(-0.5, 0.5)
        x, y = head
        for _ in range(int(rng.integers(1, max(2, min(5, max_coins))))):
            x, y = x + d * math.cos(h), y + d * math.sin(h)
            coins.append(_coin(*world(x, y), suit, rng))
            h += rng.uniform(-0.6, 0.6)
    return [ta, tb], coins, g


def token_id(rng: np.random.Generator, used: set[int]) -> int:
    """A token's marker id not in ``used``: a Jungle animal's (:data:`JUNGLE_TOKEN_IDS`) while
    one is left, then a free token id (:data:`TOKEN_IDS`); never a mat's or a board's id."""
    for ids in (JUNGLE_TOKEN_IDS, TOKEN_IDS):
        left = [i for i in ids if i not in used]
        if left:
            return int(left[int(rng.integers(len(left)))])
    raise ValueError("layout: more tokens than token ids")


def game_layout(rng: np.random.Generator, n_pieces: int, region: BaseGeometry,
                keep_out: list[BaseGeometry], pieces: PieceSet,
                kinds: tuple[str, ...] = ("coin", "tile", "post"),
                gap_worms: int = 0, weights: Mapping[str, float] | None = None) -> Layout:
    """A layout of about ``n_pieces`` pieces (exactly, when there is room) of ``kinds``.

    Args:
        rng: Random source.
        n_pieces: How many pieces.
        region: Where pieces may lie (table mm).
        keep_out: Where they may not (clutter).
        pieces: Sizes.
        kinds: Kinds of pieces to draw (coin, tile, post, segment, token).
        gap_worms: How many worms meeting a narrow gap between two tiles.
        weights: How often each kind of group is drawn (``worm``, ``tile``, ``post``,
            ``segment``, ``token``), overriding :data:`GROUP_WEIGHTS` for those given.
    """
    pl = Placer(region, keep_out, pieces)
    worms: list[tuple[int, ...]] = []
    gaps: list[dict[str, Any]] = []
    minx, miny, maxx, maxy = region.bounds

    def spot() -> tuple[float, float]:
        return (float(rng.uniform(minx, maxx)), float(rng.uniform(miny, maxy)))

    def room() -> int:
        return n_pieces - len(pl.placed)

    for _ in range(gap_worms):
        for _try in range(60):
            if room() < 4:
                break
            tiles, coins, g = gap_worm(rng, spot(), pieces, max_coins=min(6, room() - 2))
            if pl.fits(tiles + coins):
                ti = pl.add(tiles)
                ci = pl.add(coins)
                worms.append(tuple(ci))
                gaps.append({"between": ti, "width_mm": round(g, 4), "worm": len(worms) - 1})
                break
    unknown = sorted(set(weights or {}) - set(GROUP_WEIGHTS))
    if unknown:
        raise ValueError(f"layout weights: unknown groups {unknown}")
    wanted = {**GROUP_WEIGHTS, **(weights or {})}
    shares = {g: wanted[g] if GROUP_KIND[g] in kinds else 0.0 for g in GROUP_WEIGHTS}
    names = [k for k, v in shares.items() if v > 0]
    if not names:
        return Layout(tuple(pl.placed), tuple(worms), tuple(gaps))
    probs = np.array([shares[k] for k in names])
    probs /= probs.sum()

    def group_of(what: str) -> list[Piece]:
        x, y = spot()
        if what == "worm":
            n = min(int(rng.integers(1, 7)), room())
            return worm(rng, (x, y), n, str(rng.choice(SUITS)), pieces)
        if what == "tile":
            ang = float(rng.uniform(0, 90))
            up = rng.uniform() < 0.3
            group = [Piece.tile(x, y, ang, "up" if up else "down",
                                str(rng.choice(SUITS)) if up else None)]
            if rng.uniform() < 0.35:  # a row of tiles edge to edge
                a = math.radians(ang) + rng.choice([0.0, math.pi / 2])
                shift = rng.uniform(-20, 20) if rng.uniform() < 0.3 else 0.0
                for k in range(1, int(rng.integers(2, 4))):
                    ox, oy = _rot(a, k * pieces.tile_mm, shift * (k % 2))
                    group.append(Piece.tile(x + ox, y + oy, ang, "down"))
            return group
        if what == "post":
            group = [Piece("post", x, y)]
            if rng.uniform() < 0.3:  # two posts touching
                a = rng.uniform(0, 2 * math.pi)
                dd = pieces.post_diameter_mm + rng.uniform(0.0, 0.2)
                group.append(Piece("post", x + dd * math.cos(a), y + dd * math.sin(a)))
            return group
        if what == "segment":
            n = int(rng.integers(1, 5))
            a = rng.uniform(0, 2 * math.pi)
            dd = pieces.segment_diameter_mm + rng.uniform(0.0, 0.3)
            colour = str(rng.choice(list(pieces.segment_colours)))
            return [Piece("segment", x + k * dd * math.cos(a), y + k * dd * math.sin(a),
                          color=colour) for k in range(n)]
        used = {p.id for p in pl.placed if p.kind == "token" and p.id is not None}
        return [Piece("token", x, y, angle_deg=float(rng.uniform(0, 90)),
                      id=token_id(rng, used))]

    def place(what: str) -> bool:
        group = group_of(what)[:room()]
        if what == "worm":
            while group and not pl.fits(group):
                group = group[:-1]  # a shorter worm where the long one does not fit
        if not group or not pl.fits(group):
            return False
        idx = pl.add(group)
        if what == "worm":
            worms.append(tuple(idx))
        return True

    for what in [names[i] for i in rng.permutation(len(names))]:  # each kind asked for, once
        for _ in range(100):
            if room() <= 0 or place(what):
                break
    tries = 0
    while room() > 0 and tries < 3000:
        tries += 1
        place(names[int(rng.choice(len(names), p=probs))])
    return Layout(tuple(pl.placed), tuple(worms), tuple(gaps))
