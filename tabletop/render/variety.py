"""Randomised test and training cases: what a real home or club table shows.

:func:`draw_case` draws, from one seed, a table surface (:data:`TABLE_KINDS`), a kind of light
(:data:`LIGHT_KINDS`), clutter that is not a piece (:data:`CLUTTER_KINDS`), a camera (0.7-1.1 m
high, tilted up to 25 degrees, 60-77 degrees wide, sometimes barrel distortion), a game-like
layout of 1-100 pieces (worms of touching coins, some through a narrow gap between two tiles,
obstacle and start tiles, posts), sometimes the table's edge with the floor beyond, and the
webcam's faults (automatic exposure, blur, camera shake, noise, JPEG).
Keyword arguments pin any of these choices. :meth:`Case.render` draws it; the same seed gives
the same bytes.

>>> case = draw_case(7, size=(320, 180), n_pieces=6)
>>> case == draw_case(7, size=(320, 180), n_pieces=6), len(case.scene)
(True, 6)
>>> sorted(case.conditions)
['clutter', 'gap_worm', 'hand', 'light', 'table', 'table_family']
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from types import MappingProxyType
from typing import Any

import numpy as np
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from tabletop.pieceset import PieceSet
from tabletop.render.camera import CameraPose
from tabletop.render.clutter import CLUTTER, Clutter, make_clutter
from tabletop.render.edge import TableEdge
from tabletop.render.errors import RenderError
from tabletop.render.layouts import game_layout
from tabletop.render.lights import Blind, Daylight, Lamp
from tabletop.render.materials import GLOSSY, MATERIAL_FAMILY
from tabletop.render.render import Rendered, render_scene
from tabletop.render.settings import Decal, RenderSettings
from tabletop.render.shapes import Shape
from tabletop.scene import Scene

TABLE_KINDS: tuple[str, ...] = tuple(MATERIAL_FAMILY)
"""Table surfaces a case can show."""

TABLE_FAMILY: dict[str, str] = dict(MATERIAL_FAMILY)
"""Each table kind's family: wood, felt, cloth, pattern, stone, white or laminate."""

FAMILIES: tuple[str, ...] = ("wood", "felt", "cloth", "pattern", "stone", "white", "laminate")

LIGHT_KINDS: tuple[str, ...] = ("soft", "hard", "window", "dim-warm", "blind", "two-lamps",
                                "three-lamps", "glare")
"""Kinds of light: a soft lamp; a hard low lamp (long shadows); window daylight (a gradient,
strong light); a dim warm room (under-exposed, noisy); a blind's striped shade; two or three
lamps of different colours; a lamp mirrored in the table."""

CLUTTER_KINDS: tuple[str, ...] = ("none", *CLUTTER, "mixed")
"""Clutter on the table: none, one kind, or several kinds mixed."""

SIZES: tuple[tuple[int, int], ...] = ((1280, 720), (1600, 900))


@dataclass(frozen=True)
class Case:
    """One drawn case.

    Attributes:
        name: ``case-<seed>``.
        scene: The true pieces (mm).
        pose: The camera.
        settings: Light, table and the camera's faults.
        decals: Flat clutter (sheets, cards).
        distractors: Truth entries of the clutter: ``{"kind", "centre_mm", "size_mm",
            "angle_deg", "height_mm"}``.
        conditions: ``table``, ``table_family``, ``light``, ``clutter``, ``gap_worm`` and
            ``hand`` (``"yes"``/``"no"``).
        props: Raised clutter (a mug, a phone, a pencil, dice).
        worms: Indices of each worm's coins in :attr:`scene`.
        gaps: ``{"between": [i, j], "width_mm", "worm"}`` for each narrow gap a worm meets.
        pieces: Piece sizes.
    """

    name: str
    scene: Scene
    pose: CameraPose
    settings: RenderSettings
    decals: tuple[Decal, ...]
    distractors: tuple[dict[str, Any], ...]
    conditions: Mapping[str, str]
    props: tuple[Shape, ...] = ()
    worms: tuple[tuple[int, ...], ...] = ()
    gaps: tuple[dict[str, Any], ...] = ()
    pieces: PieceSet = field(default_factory=PieceSet)

    def __eq__(self, other: object) -> bool:
        """Cases are equal when drawn alike (same name, scene, conditions and settings)."""
        if not isinstance(other, Case):
            return NotImplemented
        return (self.name, self.scene, self.settings, dict(self.conditions),
                self.distractors, self.pose.key()) == (
            other.name, other.scene, other.settings, dict(other.conditions),
            other.distractors, other.pose.key())

    __hash__ = None  # type: ignore[assignment]

    def render(self) -> Rendered:
        """The picture with its ground truth (distractors and conditions included)."""
        r = render_scene(self.scene, self.pose, self.settings, self.pieces, self.decals,
                         self.props)
        return replace(r, distractors=self.distractors, conditions=dict(self.conditions))


def view_region(pose: CameraPose, inset_px: float = 0.04, margin_mm: float = 30.0,
                ) -> BaseGeometry:
    """The part of the table the camera sees, ``margin_mm`` inside the image's edges."""
    w, h = pose.image_size
    n = 12
    t = np.linspace(0.0, 1.0, n, endpoint=False)
    x0, x1 = inset_px * w, (1 - inset_px) * (w - 1)
    y0, y1 = inset_px * h, (1 - inset_px) * (h - 1)
    u = np.concatenate([x0 + (x1 - x0) * t, np.full(n, x1), x1 - (x1 - x0) * t, np.full(n, x0)])
    v = np.concatenate([np.full(n, y0), y0 + (y1 - y0) * t, np.full(n, y1), y1 - (y1 - y0) * t])
    x, y = pose.pixels_to_table(u, v)
    ok = np.isfinite(x) & np.isfinite(y)
    poly = Polygon(np.column_stack([x[ok], y[ok]]))
    if not poly.is_valid:
        poly = poly.buffer(0)
    return poly.buffer(-margin_mm)


def _pick(rng: np.random.Generator, options: tuple[str, ...], pinned: str | None,
          what: str) -> str:
    if pinned is not None:
        if pinned not in options:
            raise RenderError(f"{what} must be one of {', '.join(options)}, not {pinned!r}")
        return pinned
    return options[int(rng.integers(len(options)))]


def _table(rng: np.random.Generator, pinned: str | None) -> str:
    """A family first (so each family is drawn as often), then a kind of it."""
    if pinned is not None:
        return _pick(rng, TABLE_KINDS, pinned, "table")
    family = FAMILIES[int(rng.integers(len(FAMILIES)))]
    kinds = tuple(k for k in TABLE_KINDS if TABLE_FAMILY[k] == family)
    return kinds[int(rng.integers(len(kinds)))]


@cache
def table_reflectance(table: str) -> float:
    """Mean grey reflectance of a table kind (from a small sample of its texture)."""
    from tabletop.render.materials import MATERIALS

    tex = MATERIALS[table](np.random.default_rng(0), 120, 120, 0.4)
    return float(np.clip(tex, 0.0, 1.0).mean())


def auto_exposure(table: str) -> float:
    """How far a webcam's automatic exposure brightens a dark table or darkens a white one
    (half way to a mid-grey table, within 0.75-1.5)."""
    return float(np.clip((0.42 / max(table_reflectance(table), 1e-3)) ** 0.5, 0.75, 1.5))


def light_settings(kind: str, rng: np.random.Generator, table: str,
                   centre_mm: tuple[float, float]) -> dict[str, Any]:
    """RenderSettings arguments of one kind of light (:data:`LIGHT_KINDS`)."""
    u = rng.uniform
    s: dict[str, Any] = {
        "light_dir_deg": float(u(0, 360)), "light_elevation_deg": float(u(45, 85)),
        "shadow_strength": float(u(0.25, 0.5)), "shadow_softness_px": float(u(1.5, 6.0)),
        "ambient": float(u(0.4, 0.6)), "exposure": float(u(0.9, 1.12)),
        "colour_temp_k": float(u(3800, 6000)), "light_falloff": float(u(0.0, 0.3)),
        "noise_sigma": float(u(1.5, 5.0)),
    }
    if table in GLOSSY and u() < 0.3:  # a glossy table mirrors any lamp a little
        s["glare"] = float(u(0.1, 0.35))
        s["glare_shininess"] = float(u(40, 200))
    if kind == "hard":
        s.update(light_elevation_deg=float(u(15, 35)), shadow_strength=float(u(0.55, 0.75)),
                 shadow_softness_px=float(u(0.3, 1.5)), ambient=float(u(0.25, 0.4)),
                 colour_temp_k=float(u(4000, 6500)))
    elif kind in ("window", "blind"):
        s.update(light_elevation_deg=float(u(25, 55)), shadow_strength=float(u(0.35, 0.6)),
                 colour_temp_k=float(u(5200, 6500)), exposure=float(u(1.0, 1.35)),
                 daylight=Daylight(s["light_dir_deg"], float(u(0.25, 0.6)),
                                   float(u(600, 1400)), centre_mm))
        if kind == "blind":
            s["blind"] = Blind(period_mm=float(u(35, 130)), duty=float(u(0.3, 0.6)),
                               angle_deg=float(u(0, 180)), strength=float(u(0.3, 0.6)),
                               softness_mm=float(u(2.0, 12.0)), phase_mm=float(u(0, 100)))
    elif kind == "dim-warm":
        s.update(colour_temp_k=float(u(2700, 3200)), exposure=float(u(0.35, 0.6)),
                 noise_sigma=float(u(6.0, 14.0)), ambient=float(u(0.35, 0.5)),
                 light_falloff=float(u(0.3, 0.5)), light_elevation_deg=float(u(35, 70)))
    elif kind in ("two-lamps", "three-lamps"):
        n = 1 if kind == "two-lamps" else 2
        lamps = []
        for k in range(n):
            away = s["light_dir_deg"] + (k + 1) * 360.0 / (n + 1) + u(-40, 40)
            lamps.append(Lamp(float(away % 360.0), float(u(30, 80)), float(u(2700, 6500)),
                              float(u(0.25, 0.45) if n == 1 else u(0.2, 0.32))))
        s.update(lamps=tuple(lamps), shadow_strength=float(u(0.45, 0.7)),
                 colour_temp_k=float(u(2700, 6500)))
    elif kind == "glare":
        s.update(light_elevation_deg=float(u(62, 85)),
                 glare=float(u(0.5, 1.4) if table in GLOSSY else u(0.15, 0.4)),
                 glare_shininess=float(u(40, 250)))
    s["exposure"] = float(np.clip(s["exposure"] * auto_exposure(table), 0.1, 4.0))
    return s


def _camera(rng: np.random.Generator, size: tuple[int, int]) -> CameraPose:
    dist = None
    if rng.uniform() < 0.3:
        dist = (float(rng.uniform(-0.18, -0.08)), float(rng.uniform(0.0, 0.03)), 0.0, 0.0, 0.0)
    return CameraPose.looking_at(
        (float(rng.uniform(-60, 60)), float(rng.uniform(-60, 60))),
        height_mm=float(rng.uniform(700, 1100)), tilt_deg=float(rng.uniform(0, 25)),
        yaw_deg=float(rng.uniform(-180, 180)), image_size=size,
        hfov_deg=float(rng.uniform(60, 77)), dist=dist)


def _table_edge(rng: np.random.Generator, region: BaseGeometry,
                ) -> tuple[TableEdge, BaseGeometry, BaseGeometry]:
    """An edge cutting 10-35 % off the view, the part of ``region`` left on the table (40 mm
    inside the edge) and the table itself (5 mm inside)."""
    off = float(rng.uniform(0, 360))
    a = math.radians(off)
    n = np.array([math.cos(a), math.sin(a)])
    pts = np.asarray(region.exterior.coords) if hasattr(region, "exterior") else np.asarray(
        region.convex_hull.exterior.coords)
    along = pts @ n
    lo, hi = float(along.min()), float(along.max())
    cut = hi - float(rng.uniform(0.1, 0.35)) * (hi - lo)
    c = np.asarray(region.centroid.coords[0])
    point = c + (cut - float(c @ n)) * n
    floors = ((0.10, 0.10, 0.11), (0.08, 0.11, 0.15), (0.16, 0.17, 0.18), (0.05, 0.06, 0.08))
    edge = TableEdge((float(point[0]), float(point[1])), off,
                     floors[int(rng.integers(len(floors)))])
    big = 1e5
    t = np.array([-n[1], n[0]])

    def inside(by_mm: float) -> Polygon:
        p = point - by_mm * n
        return Polygon([p + big * t, p - big * t, p - big * t - big * n, p + big * t - big * n])

    return edge, region.intersection(inside(40.0)), inside(5.0)


def _n_pieces(rng: np.random.Generator) -> int:
    roll = rng.uniform()
    if roll < 0.2:
        return int(rng.integers(1, 12))
    if roll < 0.85:
        return int(rng.integers(12, 41))
    return int(rng.integers(41, 101))


def _clutter(rng: np.random.Generator, kind: str, region: BaseGeometry,
             table: BaseGeometry | None) -> list[Clutter]:
    """Clutter centred in ``region``, lying wholly on ``table`` (None: a table without end)."""
    if kind == "none" or region.is_empty:
        return []
    kinds = [kind]
    if kind == "mixed":
        kinds = list(rng.choice(CLUTTER, size=int(rng.integers(2, 4)), replace=False))
    out: list[Clutter] = []
    minx, miny, maxx, maxy = region.bounds
    for k in kinds:
        for _ in range(40):
            c = (float(rng.uniform(minx, maxx)), float(rng.uniform(miny, maxy)))
            item = make_clutter(str(k), rng, c, float(rng.uniform(0, 360)))
            if not region.contains(item.footprint.centroid):
                continue
            if table is not None and not table.contains(item.footprint):
                continue
            if any(item.footprint.distance(o.footprint) < 5.0 for o in out):
                continue
            out.append(item)
            break
    return out


def draw_case(seed: int, *, hand: bool | None = None, n_pieces: int | None = None,
              table: str | None = None, light: str | None = None, clutter: str | None = None,
              kinds: tuple[str, ...] = ("coin", "tile", "post"),
              size: tuple[int, int] | None = None, gap_worm: bool | None = None,
              weights: Mapping[str, float] | None = None) -> Case:
    """A case drawn from ``seed``; keyword arguments pin a choice.

    Args:
        seed: Seeds every choice (same seed and arguments, same case).
        hand: A hand over the table (None: drawn, about one case in eight).
        n_pieces: How many pieces, 1-100 (None: drawn, mostly 12-40).
        table: One of :data:`TABLE_KINDS`.
        light: One of :data:`LIGHT_KINDS`.
        clutter: One of :data:`CLUTTER_KINDS`.
        kinds: Kinds of piece to lay (coin, tile, post, segment, token).
        size: (width, height) of the image (None: 1280x720 or 1600x900).
        gap_worm: Whether a worm meets a narrow gap between two tiles (None: drawn, about one
            case in three; True needs coins, tiles and at least 4 pieces).
        weights: How often each kind of group is laid (``tabletop.render.layouts.
            GROUP_WEIGHTS``; None: the usual mix).

    Raises:
        RenderError: a pinned choice that does not exist.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RenderError(f"seed must be an integer, not {seed!r}")
    if n_pieces is not None and not 1 <= n_pieces <= 100:
        raise RenderError(f"n_pieces must be 1-100, not {n_pieces}")
    bad = [k for k in kinds if k not in ("coin", "tile", "post", "segment", "token")]
    if bad or not kinds:
        raise RenderError(f"kinds must be coin, tile, post, segment or token, not {bad}")
    rng = np.random.default_rng([seed, 90210])
    table_kind = _table(rng, table)
    light_kind = _pick(rng, LIGHT_KINDS, light, "light")
    clutter_kind = _pick(rng, CLUTTER_KINDS, clutter, "clutter") if clutter is not None else (
        "none" if rng.uniform() < 0.35 else CLUTTER_KINDS[1 + int(rng.integers(
            len(CLUTTER_KINDS) - 1))])
    with_hand = bool(rng.uniform() < 0.12) if hand is None else bool(hand)
    size = tuple(size) if size is not None else SIZES[int(rng.integers(len(SIZES)))]
    pose = _camera(rng, size)  # type: ignore[arg-type]
    region = view_region(pose)
    edge, table_area = None, None
    if rng.uniform() < 0.15 and not region.is_empty:  # the table's edge in view
        edge, region, table_area = _table_edge(rng, region)
    items = _clutter(rng, clutter_kind, region.buffer(-20.0), table_area)
    count = _n_pieces(rng) if n_pieces is None else n_pieces
    can_gap = "coin" in kinds and "tile" in kinds and count >= 4
    if gap_worm and not can_gap:
        raise RenderError("gap_worm needs coins and tiles among the kinds and 4 or more pieces")
    gap_worms = 0
    wants_gap = rng.uniform() < 0.35
    if can_gap and (wants_gap if gap_worm is None else gap_worm):
        gap_worms = 1 if count < 20 or rng.uniform() < 0.6 else 2
    pieces = PieceSet()
    layout = game_layout(rng, count, region, [c.footprint for c in items], pieces, kinds,
                         gap_worms, weights)
    centre = region.centroid
    lights = light_settings(light_kind, rng, table_kind,
                            (float(centre.x), float(centre.y)) if not region.is_empty
                            else (0.0, 0.0))
    faults = {
        "blur_px": float(rng.uniform(0.3, 1.0)),
        "motion_blur_px": float(rng.uniform(2.0, 9.0)) if rng.uniform() < 0.15 else 0.0,
        "jpeg_quality": int(rng.integers(70, 96)),
        "vignette": float(rng.uniform(0.0, 0.35)),
    }
    settings = RenderSettings(seed=seed, table=table_kind, table_seed=int(rng.integers(1 << 30)),
                              hand=with_hand, supersample=2, table_edge=edge, **lights, **faults)
    conditions = {"table": table_kind, "table_family": TABLE_FAMILY[table_kind],
                  "light": light_kind, "clutter": clutter_kind,
                  "gap_worm": "yes" if layout.gaps else "no", "hand": "yes" if with_hand else "no"}
    return Case(name=f"case-{seed}", scene=Scene(layout.pieces), pose=pose, settings=settings,
                decals=tuple(d for c in items for d in c.decals),
                distractors=tuple(i for c in items for i in c.items), conditions=conditions,
                props=tuple(p for c in items for p in c.props), worms=layout.worms,
                gaps=layout.gaps, pieces=pieces)


GAME_PIECES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "worm-derby": ("coin", "tile", "post"),
    "worm-up": ("coin", "tile", "post", "segment"),
    "jungle": ("coin", "tile", "token"),
})
"""The kinds of piece each game lays on the table."""

GAME_WEIGHTS: Mapping[str, Mapping[str, float]] = MappingProxyType({
    "worm-derby": MappingProxyType({}),
    "worm-up": MappingProxyType({"segment": 0.35}),
    "jungle": MappingProxyType({"token": 0.3}),
})
"""How much more often a game's own pieces are laid than in the usual mix (a Worm Up! table
shows worms of segments, a Jungle table its animal tokens)."""


def draw_game_case(seed: int, game: str, **kw: Any) -> Case:
    """:func:`draw_case` laying the pieces of ``game`` (:data:`GAME_PIECES`), with a ``game``
    condition and the name ``<game>-<seed>``; other keyword arguments as :func:`draw_case`.

    Raises:
        RenderError: an unknown game, or a pinned choice that does not exist.
    """
    if game not in GAME_PIECES:
        raise RenderError(f"game must be one of {', '.join(GAME_PIECES)}, not {game!r}")
    case = draw_case(seed, kinds=GAME_PIECES[game], weights=GAME_WEIGHTS[game], **kw)
    return replace(case, name=f"{game}-{seed}", conditions={**case.conditions, "game": game})
