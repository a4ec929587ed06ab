"""Ray tracing of the pieces, each in its own small window of the image, with supersampling.

Every shape is traced alone (rays through ``S x S`` points of each pixel of the window round its
projection), shaded (Lambert plus a Blinn-Phong highlight, textures on the top, a darker foot on
the sides), and reduced to a :class:`Layer`: how much of each pixel it covers and its colour.
Layers are laid far to near (painter's order) and their visibility is counted near to far.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from tabletop.render.camera import CameraPose
from tabletop.render.shapes import Shape


@dataclass(frozen=True, eq=False)
class Layer:
    """One traced shape.

    Attributes:
        roi: (x0, y0, x1, y1) pixel window (x1, y1 exclusive).
        cover: (h, w) float32 share of each pixel the shape covers.
        colour: (h, w, 3) float32 premultiplied colour (colour x cover).
        top_cover: (h, w) float32 share covered by its top face.
        depth_mm: Distance from the camera (sort key; bigger is drawn first).
        top_area_px: Area of the whole top face in the image (also outside the window), px².
    """

    roi: tuple[int, int, int, int]
    cover: np.ndarray
    colour: np.ndarray
    top_cover: np.ndarray
    depth_mm: float
    top_area_px: float


BIG_WINDOW_PX = 3000
"""Shapes with a bigger window get at most 2 x 2 rays on their edge pixels."""


def light_vector(azimuth_deg: float, elevation_deg: float) -> np.ndarray:
    """Unit vector toward the light (table frame, z up)."""
    a, e = math.radians(azimuth_deg), math.radians(elevation_deg)
    return np.array([math.cos(a) * math.cos(e), math.sin(a) * math.cos(e), math.sin(e)])


def _sample(texture: np.ndarray, tu: np.ndarray, tv: np.ndarray) -> np.ndarray:
    """Bilinear texture lookups at 1-D coordinates -> (N, 3) (remap wants 2-D maps)."""
    n = tu.size
    cols = 1024
    rows = max(1, -(-n // cols))
    mu = np.full(rows * cols, -1.0, np.float32)
    mv = np.full(rows * cols, -1.0, np.float32)
    mu[:n], mv[:n] = tu, tv
    out = cv2.remap(texture, mu.reshape(rows, cols), mv.reshape(rows, cols), cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REPLICATE)
    return out.reshape(-1, 3)[:n]


def window_of(points_px: np.ndarray, size: tuple[int, int],
              pad: int = 2) -> tuple[int, int, int, int] | None:
    """Integer window round projected points, clipped to the image; None when empty."""
    if len(points_px) == 0 or not np.all(np.isfinite(points_px)):
        return None
    x0 = max(0, math.floor(points_px[:, 0].min()) - pad)
    y0 = max(0, math.floor(points_px[:, 1].min()) - pad)
    x1 = min(size[0], math.ceil(points_px[:, 0].max()) + pad + 1)
    y1 = min(size[1], math.ceil(points_px[:, 1].max()) + pad + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    return (x0, y0, x1, y1)


def shade(shape: Shape, normal: np.ndarray, point: np.ndarray, top: np.ndarray,
          origin: np.ndarray, light: np.ndarray, ambient: float) -> np.ndarray:
    """Colour (N, 3) float32 of N hit points (normals and points (N, 3), ``top`` (N,) bool)."""
    albedo = np.empty((top.size, 3), np.float32)
    albedo[:] = np.asarray(shape.side_bgr, np.float32)
    side = ~top
    if np.any(side):
        foot = 0.55 + 0.45 * np.clip(point[side, 2] / 1.5, 0.0, 1.0)
        albedo[side] *= foot[:, None].astype(np.float32)
    if np.any(top):
        lx, ly = shape.local_xy(point[top, 0], point[top, 1])
        if shape.top_texture is not None:
            tu, tv = shape.texture_px(lx, ly)
            tex = _sample(shape.top_texture, tu, tv)
        else:
            tex = np.empty((lx.size, 3), np.float32)
            tex[:] = np.asarray(shape.top_bgr, np.float32)
        if shape.bevel_mm > 0 and shape.height_mm < 20:
            edge = shape.edge_distance_mm(lx, ly)
            tex *= (0.78 + 0.22 * np.clip(edge / shape.bevel_mm, 0.0, 1.0))[:, None].astype(
                np.float32)
        albedo[top] = tex
    ndl = np.clip(normal @ light, 0.0, None)
    diffuse = ambient + (1.0 - ambient) * np.minimum(ndl / max(light[2], 0.2), 1.6)
    if shape.gloss > 0:
        view = origin - point
        view /= np.sqrt(np.einsum("ij,ij->i", view, view))[:, None]
        half = view + light
        half /= np.sqrt(np.einsum("ij,ij->i", half, half))[:, None] + 1e-12
        spec = shape.gloss * np.clip(np.einsum("ij,ij->i", normal, half), 0.0, 1.0) ** \
            shape.shininess
    else:
        spec = np.zeros_like(diffuse)
    return (albedo * diffuse[:, None].astype(np.float32)
            + spec[:, None].astype(np.float32)).astype(np.float32)


def top_area_px(shape: Shape, pose: CameraPose) -> float:
    """Area in the image of the shape's top face (the convex hull of its projected rim)."""
    px = pose.project(shape.top_face_xyz())
    if not np.all(np.isfinite(px)):
        return 0.0
    hull = cv2.convexHull(px.astype(np.float32))
    return float(cv2.contourArea(hull))


_FILTERED: dict[tuple[int, float], tuple[np.ndarray, np.ndarray]] = {}
_FILTERED_BYTES = 200_000_000


def filtered_texture(texture: np.ndarray, sigma_px: float) -> np.ndarray:
    """A face texture blurred for sampling once per image pixel (cached)."""
    sigma = round(max(sigma_px, 0.0), 1)
    if sigma < 0.5:
        return texture
    key = (id(texture), sigma)
    if key not in _FILTERED:
        held = sum(src.nbytes + b.nbytes for src, b in _FILTERED.values())
        if len(_FILTERED) > 512 or held > _FILTERED_BYTES:
            _FILTERED.clear()  # big one-off textures (clutter) must not pile up
        blurred = cv2.GaussianBlur(texture, (0, 0), sigma)
        blurred.setflags(write=False)
        _FILTERED[key] = (texture, blurred)  # keeps the source alive, so its id stays unique
    return _FILTERED[key][1]


Lamps = tuple[tuple[np.ndarray, np.ndarray], ...]
"""Several lamps: (unit vector toward the lamp, (B, G, R) weight) each."""


def shade_lamps(shape: Shape, normal: np.ndarray, point: np.ndarray, top: np.ndarray,
                origin: np.ndarray, light: np.ndarray, ambient: float,
                lamps: Lamps | None) -> np.ndarray:
    """:func:`shade` under one lamp (``lamps`` None) or the weighted sum over ``lamps``."""
    if lamps is None:
        return shade(shape, normal, point, top, origin, light, ambient)
    out = np.zeros((top.size, 3), np.float32)
    for vec, gain in lamps:
        out += shade(shape, normal, point, top, origin, vec, ambient) * gain[None, :]
    return out


def _state(hit_mask: np.ndarray, top: np.ndarray) -> np.ndarray:
    return np.where(hit_mask, np.where(top, 2, 1), 0).astype(np.uint8)


def trace(shape: Shape, pose: CameraPose, light: np.ndarray, ambient: float,
          s: int, lamps: Lamps | None = None) -> Layer | None:
    """Traces one shape; None when it is outside the image.

    One ray through each pixel centre; pixels on an edge (between the shape and the table, or
    between its top and a side) are traced again with ``s x s`` rays and averaged. ``lamps``
    (several lamps, see :func:`shade_lamps`) replaces ``light`` when given.
    """
    roi = window_of(pose.project(shape.outline_xyz()), pose.image_size)
    if roi is None:
        return None
    x0, y0, x1, y1 = roi
    if (x1 - x0) * (y1 - y0) > BIG_WINDOW_PX:
        s = min(s, 2)  # long straight edges: 2 x 2 rays are enough
    origin = np.asarray(pose.centre_mm, dtype=np.float32)  # float32 is ample at 1e-4 mm
    light = np.asarray(light, dtype=np.float32)
    if shape.top_texture is not None:
        ratio = 8.0 * pose.mm_per_px_at(shape.centre_mm)  # texture pixels per image pixel
        shape = replace(shape, top_texture=filtered_texture(shape.top_texture, 0.45 * ratio))
    u, v = np.meshgrid(np.arange(x0, x1, dtype=np.float64), np.arange(y0, y1, dtype=np.float64))
    hit = shape.intersect(origin, pose.rays(u, v).astype(np.float32))
    mask = hit.mask
    state = _state(mask, hit.top)
    kernel = np.ones((3, 3), np.uint8)
    edge = cv2.dilate(state, kernel) != cv2.erode(state, kernel) if s > 1 else np.zeros_like(mask)
    cover = mask.astype(np.float32)
    top_cover = hit.top.astype(np.float32)
    colour = np.zeros((*mask.shape, 3), np.float32)
    inner = mask & ~edge
    if np.any(inner):
        colour[inner] = shade_lamps(shape, hit.normal[inner], hit.point[inner], hit.top[inner],
                                    origin, light, ambient, lamps)
    if np.any(edge):
        ey, ex = np.nonzero(edge)
        off = (np.arange(s) + 0.5) / s - 0.5
        ou, ov = np.meshgrid(off, off)
        su = (ex + x0)[:, None] + ou.ravel()[None, :]
        sv = (ey + y0)[:, None] + ov.ravel()[None, :]
        sub = shape.intersect(origin, pose.rays(su, sv).astype(np.float32))
        smask = sub.mask
        scol = np.zeros((*smask.shape, 3), np.float32)
        if np.any(smask):
            scol[smask] = shade_lamps(shape, sub.normal[smask], sub.point[smask],
                                      sub.top[smask], origin, light, ambient, lamps)
        cover[ey, ex] = smask.mean(axis=1)
        top_cover[ey, ex] = sub.top.mean(axis=1)
        colour[ey, ex] = scol.mean(axis=1)
    cx, cy = shape.centre_mm
    depth = float(np.linalg.norm(origin - np.array([cx, cy, shape.height_mm / 2.0])))
    for a in (cover, colour, top_cover):
        a.setflags(write=False)  # layers are shared between frames
    return Layer(roi, cover, colour, top_cover, depth, top_area_px(shape, pose))


def composite(image: np.ndarray, layers: list[Layer]) -> None:
    """Lays the layers onto ``image`` (float32 BGR) far to near, in place."""
    for layer in sorted(layers, key=lambda ly: -ly.depth_mm):
        x0, y0, x1, y1 = layer.roi
        region = image[y0:y1, x0:x1]
        region *= 1.0 - layer.cover[..., None]
        region += layer.colour


def visible_fractions(layers: list[Layer | None], occluder: np.ndarray) -> list[float]:
    """Share of each layer's top face left in view by nearer layers and ``occluder``.

    Args:
        layers: One per piece (None for a piece outside the image).
        occluder: (H, W) float32 coverage of things above every piece (the hand).
    """
    occ = occluder.astype(np.float32).copy()
    out = [0.0] * len(layers)
    order = sorted((i for i, ly in enumerate(layers) if ly is not None),
                   key=lambda i: layers[i].depth_mm)  # type: ignore[union-attr]
    for i in order:
        layer = layers[i]
        assert layer is not None
        x0, y0, x1, y1 = layer.roi
        o = occ[y0:y1, x0:x1]
        own = float(layer.top_cover.sum())
        if own > 0 and layer.top_area_px > 0:
            seen = float((layer.top_cover * (1.0 - o)).sum())
            in_image = min(1.0, own / layer.top_area_px)
            if in_image > 0.97:
                in_image = 1.0
            out[i] = round(min(1.0, in_image * seen / own), 4)
        o[:] = 1.0 - (1.0 - o) * (1.0 - layer.cover)
    return out
