"""Solid shapes standing on the table, as ray tracers see them: vertical cylinders (coins, posts),
boxes (tiles, tokens, dice) and domes (Worm Up! segments).

Each shape answers three questions: where does a bundle of rays from the camera first hit it
(:meth:`Shape.intersect`), which 3-D points outline it (for its image bounds and its shadow),
and what it looks like (a top texture and a side colour).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from tabletop.render.faces import FACE_PPM


@dataclass(frozen=True, eq=False)
class Hit:
    """Where rays hit a shape (arrays of the rays' shape).

    Attributes:
        s: Ray parameter of the hit (``point = origin + s * d``), ``inf`` for a miss.
        normal: Unit surface normals, shape (..., 3).
        top: True where the hit is on the top face (or anywhere on a dome).
        point: Hit points, shape (..., 3), world mm.
    """

    s: np.ndarray
    normal: np.ndarray
    top: np.ndarray
    point: np.ndarray

    @property
    def mask(self) -> np.ndarray:
        """Rays that hit."""
        return np.isfinite(self.s)


@dataclass(frozen=True, eq=False)
class Shape:
    """A solid on the table.

    Attributes:
        centre_mm: (x, y) of its footprint's centre.
        height_mm: Height of its top above the table.
        angle_deg: Rotation of its top texture (and of a box) from +x toward +y.
        top_texture: Float32 BGR image of the top, ``top_size_mm`` wide, or None (``top_bgr``).
        top_size_mm: Width of the square the texture covers, centred on the shape.
        top_bgr: Colour of a top without texture.
        side_bgr: Colour of the sides.
        gloss: Strength of the specular highlight, 0-1.
        shininess: Sharpness of the highlight (Blinn-Phong exponent).
        bevel_mm: Width of the rounded edge round the top that catches less light.
    """

    centre_mm: tuple[float, float]
    height_mm: float
    angle_deg: float = 0.0
    top_texture: np.ndarray | None = None
    top_size_mm: float = 0.0
    top_bgr: tuple[float, float, float] = (0.8, 0.8, 0.8)
    side_bgr: tuple[float, float, float] = (0.6, 0.6, 0.6)
    gloss: float = 0.05
    shininess: float = 20.0
    bevel_mm: float = 0.0

    def intersect(self, origin: np.ndarray, d: np.ndarray) -> Hit:
        """First hits of rays ``origin + s * d`` (d of shape (..., 3))."""
        raise NotImplementedError

    def outline_xyz(self) -> np.ndarray:
        """3-D points (N, 3) whose convex hull encloses the shape (computed once)."""
        return self._outline

    @cached_property
    def _outline(self) -> np.ndarray:
        pts = self.make_outline()
        pts.setflags(write=False)
        return pts

    def make_outline(self) -> np.ndarray:
        """Computes :meth:`outline_xyz`."""
        raise NotImplementedError

    def top_face_xyz(self) -> np.ndarray:
        """3-D points (N, 3) whose convex hull, seen from above, is its top face: the rim at
        its full height (the whole outline for a shape without a flat top)."""
        pts = self.outline_xyz()
        top = pts[np.isclose(pts[:, 2], self.height_mm)]
        return top if len(top) >= 3 else pts

    def footprint_xy(self) -> np.ndarray:
        """The outline of its base on the table, (N, 2)."""
        pts = self.outline_xyz()
        return pts[pts[:, 2] <= 1e-9, :2]

    def edge_distance_mm(self, lx: np.ndarray, ly: np.ndarray) -> np.ndarray:
        """Distance from local top points to the top's edge (for the bevel)."""
        raise NotImplementedError

    def local_xy(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """World table coordinates -> the shape's own frame (centred, unrotated)."""
        a = math.radians(self.angle_deg)
        ca, sa = math.cos(a), math.sin(a)
        dx, dy = x - self.centre_mm[0], y - self.centre_mm[1]
        return ca * dx + sa * dy, -sa * dx + ca * dy

    def texture_px(self, lx: np.ndarray, ly: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Local top coordinates (mm) -> pixel coordinates in :attr:`top_texture`."""
        half = self.top_size_mm / 2.0
        return (lx + half) * FACE_PPM - 0.5, (ly + half) * FACE_PPM - 0.5


def _miss(shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return (np.full(shape, np.inf), np.zeros((*shape, 3)), np.zeros(shape, bool))


@dataclass(frozen=True, eq=False)
class Cylinder(Shape):
    """An upright cylinder: a coin (short) or a post (tall)."""

    radius_mm: float = 9.525

    def intersect(self, origin: np.ndarray, d: np.ndarray) -> Hit:
        """See :meth:`Shape.intersect`."""
        cx, cy = self.centre_mm
        r, h = self.radius_mm, self.height_mm
        ox, oy, oz = (float(v) for v in origin)
        dx, dy, dz = d[..., 0], d[..., 1], d[..., 2]
        s, normal, top = _miss(dx.shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            s_top = (h - oz) / dz
            px, py = ox + s_top * dx - cx, oy + s_top * dy - cy
            on_top = (s_top > 0) & (px * px + py * py <= r * r)
            a = dx * dx + dy * dy
            b = 2.0 * (dx * (ox - cx) + dy * (oy - cy))
            c = (ox - cx) ** 2 + (oy - cy) ** 2 - r * r
            disc = b * b - 4 * a * c
            s_side = (-b - np.sqrt(np.maximum(disc, 0.0))) / (2 * a)
            z_side = oz + s_side * dz
            on_side = (~on_top) & (disc >= 0) & (s_side > 0) & (z_side >= 0) & (z_side <= h)
        s[on_top] = s_top[on_top]
        top[on_top] = True
        normal[on_top] = (0.0, 0.0, 1.0)
        s[on_side] = s_side[on_side]
        nx = (ox + s_side * dx - cx) / r
        ny = (oy + s_side * dy - cy) / r
        normal[on_side, 0] = nx[on_side]
        normal[on_side, 1] = ny[on_side]
        point = origin + np.where(np.isfinite(s), s, 0.0)[..., None] * d
        return Hit(s, normal, top, point)

    def make_outline(self) -> np.ndarray:
        """See :meth:`Shape.make_outline`."""
        a = np.linspace(0, 2 * math.pi, 32, endpoint=False)
        ring = np.column_stack([self.centre_mm[0] + self.radius_mm * np.cos(a),
                                self.centre_mm[1] + self.radius_mm * np.sin(a)])
        return np.concatenate([np.column_stack([ring, np.zeros(32)]),
                               np.column_stack([ring, np.full(32, self.height_mm)])])

    def edge_distance_mm(self, lx: np.ndarray, ly: np.ndarray) -> np.ndarray:
        """See :meth:`Shape.edge_distance_mm`."""
        return self.radius_mm - np.hypot(lx, ly)


@dataclass(frozen=True, eq=False)
class Box(Shape):
    """A square slab turned by ``angle_deg``: a tile, a token, a die (a rectangle when
    ``half_y_mm`` is given: a phone, a pencil)."""

    half_mm: float = 25.4
    half_y_mm: float | None = None

    @property
    def half_y(self) -> float:
        """Half the extent along the local y axis."""
        return self.half_mm if self.half_y_mm is None else self.half_y_mm

    def intersect(self, origin: np.ndarray, d: np.ndarray) -> Hit:
        """See :meth:`Shape.intersect`: the top, then the four sides facing the ray.

        The camera is above the box (its rays go down), so the bottom is never seen.
        """
        a = math.radians(self.angle_deg)
        ca, sa = math.cos(a), math.sin(a)
        ox, oy = self.local_xy(float(origin[0]), float(origin[1]))  # type: ignore[arg-type]
        oz = float(origin[2])
        dx = ca * d[..., 0] + sa * d[..., 1]
        dy = -sa * d[..., 0] + ca * d[..., 1]
        dz = d[..., 2]
        hx, hy, h = self.half_mm, self.half_y, self.height_mm
        s = np.full(dx.shape, np.inf)
        n_local = np.zeros((*dx.shape, 3))
        with np.errstate(divide="ignore", invalid="ignore"):
            s_top = (h - oz) / dz
            top = (s_top > 0) & (np.abs(ox + s_top * dx) <= hx) & (np.abs(oy + s_top * dy) <= hy)
        s[top] = s_top[top]
        n_local[top, 2] = 1.0
        rest = ~top
        if np.any(rest):
            rdx, rdy, rdz = dx[rest], dy[rest], dz[rest]
            best = np.full(rdx.shape, np.inf)
            nx = np.zeros(rdx.shape)
            ny = np.zeros(rdx.shape)
            with np.errstate(divide="ignore", invalid="ignore"):
                axes = ((ox, rdx, oy, rdy, hx, hy, True), (oy, rdy, ox, rdx, hy, hx, False))
                for o_a, d_a, o_b, d_b, h_a, h_b, is_x in axes:
                    for side in (-1.0, 1.0):
                        t = (side * h_a - o_a) / d_a
                        facing = d_a * side < 0
                        z = oz + t * rdz
                        ok = (facing & (t > 0) & (np.abs(o_b + t * d_b) <= h_b) & (z >= 0)
                              & (z <= h) & (t < best))
                        best = np.where(ok, t, best)
                        if is_x:
                            nx = np.where(ok, side, nx)
                            ny = np.where(ok, 0.0, ny)
                        else:
                            ny = np.where(ok, side, ny)
                            nx = np.where(ok, 0.0, nx)
            s[rest] = best
            n_local[rest, 0] = nx
            n_local[rest, 1] = ny
        hit = np.isfinite(s)
        normal = np.empty_like(n_local)
        normal[..., 0] = ca * n_local[..., 0] - sa * n_local[..., 1]
        normal[..., 1] = sa * n_local[..., 0] + ca * n_local[..., 1]
        normal[..., 2] = n_local[..., 2]
        point = origin + np.where(hit, s, 0.0)[..., None] * d
        return Hit(s, normal, top, point)

    def corners_xy(self) -> np.ndarray:
        """The four footprint corners (4, 2) in world mm."""
        a = math.radians(self.angle_deg)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        h, k = self.half_mm, self.half_y
        local = np.array([[-h, -k], [h, -k], [h, k], [-h, k]])
        return local @ rot.T + np.asarray(self.centre_mm)

    def make_outline(self) -> np.ndarray:
        """See :meth:`Shape.make_outline`."""
        c = self.corners_xy()
        return np.concatenate([np.column_stack([c, np.zeros(4)]),
                               np.column_stack([c, np.full(4, self.height_mm)])])

    def edge_distance_mm(self, lx: np.ndarray, ly: np.ndarray) -> np.ndarray:
        """See :meth:`Shape.edge_distance_mm`."""
        return np.minimum(self.half_mm - np.abs(lx), self.half_y - np.abs(ly))

    def texture_px(self, lx: np.ndarray, ly: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """See :meth:`Shape.texture_px` (a rectangle's texture covers its whole top)."""
        if self.half_y_mm is None or self.top_texture is None:
            return super().texture_px(lx, ly)
        th, tw = self.top_texture.shape[:2]
        return ((lx + self.half_mm) * (tw / (2 * self.half_mm)) - 0.5,
                (ly + self.half_y) * (th / (2 * self.half_y)) - 0.5)


@dataclass(frozen=True, eq=False)
class Dome(Shape):
    """Half a sphere resting on its flat side (a Worm Up! segment); ``height_mm`` = radius."""

    radius_mm: float = 10.0

    def intersect(self, origin: np.ndarray, d: np.ndarray) -> Hit:
        """See :meth:`Shape.intersect`."""
        c = np.array([self.centre_mm[0], self.centre_mm[1], 0.0])
        oc = origin - c
        a = np.einsum("...k,...k->...", d, d)
        b = 2.0 * (d @ oc)
        cc = float(oc @ oc) - self.radius_mm ** 2
        disc = b * b - 4 * a * cc
        with np.errstate(invalid="ignore"):
            s = (-b - np.sqrt(np.maximum(disc, 0.0))) / (2 * a)
        point = origin + s[..., None] * d
        hit = (disc >= 0) & (s > 0) & (point[..., 2] >= 0)
        s = np.where(hit, s, np.inf)
        normal = np.where(hit[..., None], (point - c) / self.radius_mm, 0.0)
        return Hit(s, normal, hit.copy(), np.where(hit[..., None], point, 0.0))

    def make_outline(self) -> np.ndarray:
        """See :meth:`Shape.make_outline`."""
        pts = []
        for el in np.linspace(0, math.pi / 2, 5):
            a = np.linspace(0, 2 * math.pi, 24, endpoint=False)
            r = self.radius_mm * math.cos(el)
            z = self.radius_mm * math.sin(el)
            pts.append(np.column_stack([self.centre_mm[0] + r * np.cos(a),
                                        self.centre_mm[1] + r * np.sin(a), np.full(24, z)]))
        return np.vstack(pts)

    def top_face_xyz(self) -> np.ndarray:
        """See :meth:`Shape.top_face_xyz`: a dome is all top (:class:`Hit`), so its whole
        outline (not the apex alone, where every ring point meets)."""
        return self.outline_xyz()

    def edge_distance_mm(self, lx: np.ndarray, ly: np.ndarray) -> np.ndarray:
        """See :meth:`Shape.edge_distance_mm`."""
        return self.radius_mm - np.hypot(lx, ly)


@dataclass(frozen=True, eq=False)
class RoundedBox(Box):
    """A rectangular slab with rounded vertical corners (a phone): two boxes crossing and a
    cylinder in each corner; its top texture spans the whole rectangle."""

    corner_mm: float = 6.0

    def _parts(self) -> list[Shape]:
        hx, hy = self.half_mm, self.half_y
        rc = min(self.corner_mm, hx, hy)
        a = math.radians(self.angle_deg)
        ca, sa = math.cos(a), math.sin(a)
        cx, cy = self.centre_mm
        parts: list[Shape] = [
            Box(self.centre_mm, self.height_mm, self.angle_deg, half_mm=hx - rc, half_y_mm=hy),
            Box(self.centre_mm, self.height_mm, self.angle_deg, half_mm=hx, half_y_mm=hy - rc)]
        for sx in (-1.0, 1.0):
            for sy in (-1.0, 1.0):
                lx, ly = sx * (hx - rc), sy * (hy - rc)
                parts.append(Cylinder((cx + ca * lx - sa * ly, cy + sa * lx + ca * ly),
                                      self.height_mm, radius_mm=rc))
        return parts

    def intersect(self, origin: np.ndarray, d: np.ndarray) -> Hit:
        """See :meth:`Shape.intersect`: the nearest hit of its parts."""
        best: Hit | None = None
        for part in self._parts():
            hit = part.intersect(origin, d)
            if best is None:
                best = hit
                continue
            nearer = hit.s < best.s
            best = Hit(np.where(nearer, hit.s, best.s),
                       np.where(nearer[..., None], hit.normal, best.normal),
                       np.where(nearer, hit.top, best.top),
                       np.where(nearer[..., None], hit.point, best.point))
        assert best is not None
        return best

    def edge_distance_mm(self, lx: np.ndarray, ly: np.ndarray) -> np.ndarray:
        """See :meth:`Shape.edge_distance_mm` (the rounded outline)."""
        rc = min(self.corner_mm, self.half_mm, self.half_y)
        qx = np.abs(lx) - (self.half_mm - rc)
        qy = np.abs(ly) - (self.half_y - rc)
        outside = np.hypot(np.maximum(qx, 0.0), np.maximum(qy, 0.0))
        return rc - outside - np.minimum(np.maximum(qx, qy), 0.0)
