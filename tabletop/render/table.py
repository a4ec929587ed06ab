"""The table as the camera sees it: which table point each pixel looks at, the textured surface,
and the flat printed sheets (decals) lying on it."""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass

import cv2
import numpy as np

from tabletop.render.camera import CameraPose
from tabletop.render.settings import Decal
from tabletop.render.textures import table_texture

WALL_BGR = (0.12, 0.12, 0.13)
"""What a pixel that sees no table (above the horizon) shows."""

PAPER = 0.93
"""Reflectance of white paper relative to the printed image's white."""

MAX_TEXTURE_PX = 3600


@dataclass(frozen=True, eq=False)
class TableView:
    """Per-pixel table coordinates of one pose (cached, read-only).

    Attributes:
        x_mm: (H, W) float32 table x seen by each pixel (NaN above the horizon).
        y_mm: (H, W) float32, as ``x_mm``.
        ppm_max: The finest table resolution anywhere in the image, pixels per mm.
        ppm_min: The coarsest (far side of a tilted view).
    """

    x_mm: np.ndarray
    y_mm: np.ndarray
    ppm_max: float
    ppm_min: float


_VIEWS: OrderedDict[tuple, TableView] = OrderedDict()
_MAPS: OrderedDict[tuple, tuple[np.ndarray, np.ndarray, float]] = OrderedDict()


def _remember(cache: OrderedDict, key: tuple, value: object, size: int = 4) -> None:
    cache[key] = value
    while len(cache) > size:
        cache.popitem(last=False)


def table_view(pose: CameraPose) -> TableView:
    """Which table point each pixel of ``pose`` sees (cached by pose)."""
    key = pose.key()
    if key in _VIEWS:
        return _VIEWS[key]
    w, h = pose.image_size
    u, v = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    x, y = pose.pixels_to_table(u, v)
    x = x.astype(np.float32)
    y = y.astype(np.float32)
    gx = np.hypot(np.diff(x, axis=1), np.diff(y, axis=1))
    finite = gx[np.isfinite(gx)]
    ppm = 1.0 / max(float(finite.min()), 1e-3) if finite.size else 1.0
    ppm_lo = 1.0 / max(float(finite.max()), 1e-3) if finite.size else 1.0
    for a in (x, y):
        a.setflags(write=False)
    view = TableView(x, y, ppm, ppm_lo)
    _remember(_VIEWS, key, view)
    return view


def _texture_maps(pose: CameraPose, angle_deg: float) -> tuple[np.ndarray, np.ndarray, float,
                                                                 tuple[int, int]]:
    view = table_view(pose)
    key = (pose.key(), round(angle_deg, 6))
    a = math.radians(angle_deg)
    ca, sa = math.cos(a), math.sin(a)
    if key in _MAPS:
        mx, my, ppm = _MAPS[key]
        return mx, my, ppm, (int(my.max()) + 3, int(mx.max()) + 3)
    along = ca * view.x_mm + sa * view.y_mm
    across = -sa * view.x_mm + ca * view.y_mm
    ok = np.isfinite(along)
    lo_a, hi_a = float(along[ok].min()) - 5, float(along[ok].max()) + 5
    lo_b, hi_b = float(across[ok].min()) - 5, float(across[ok].max()) + 5
    # sampled no finer than the far side sees it: a texture finer than the pixels would alias
    ppm = min(2.0, max(0.8, 1.2 * view.ppm_min))
    ppm = min(ppm, MAX_TEXTURE_PX / max(hi_a - lo_a, hi_b - lo_b, 1.0))
    mx = np.where(ok, (along - lo_a) * ppm, -10.0).astype(np.float32)
    my = np.where(ok, (across - lo_b) * ppm, -10.0).astype(np.float32)
    _remember(_MAPS, key, (mx, my, ppm))
    return mx, my, ppm, (int(my.max()) + 3, int(mx.max()) + 3)


def draw_table(pose: CameraPose, kind: str, seed: int, angle_deg: float) -> np.ndarray:
    """The bare table as seen by ``pose``: (H, W, 3) float32 BGR reflectance."""
    mx, my, ppm, shape_hw = _texture_maps(pose, angle_deg)
    tex = table_texture(kind, seed, shape_hw, round(ppm, 6))
    out = cv2.remap(tex, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                    borderValue=tuple(255.0 * c for c in WALL_BGR))
    return out.astype(np.float32) * np.float32(1.0 / 255.0)


def draw_decal(image: np.ndarray, pose: CameraPose, decal: Decal) -> None:
    """Lays a printed sheet onto the table image (float32 BGR reflectance), in place."""
    view = table_view(pose)
    corners_px = pose.project_table(decal.corners_mm())
    if not np.all(np.isfinite(corners_px)):
        return
    w_img, h_img = pose.image_size
    x0 = max(0, math.floor(corners_px[:, 0].min()) - 2)
    y0 = max(0, math.floor(corners_px[:, 1].min()) - 2)
    x1 = min(w_img, math.ceil(corners_px[:, 0].max()) + 3)
    y1 = min(h_img, math.ceil(corners_px[:, 1].max()) + 3)
    if x1 <= x0 or y1 <= y0:
        return
    w_mm, h_mm = decal.size_mm
    src = decal.image_bgr
    native_ppm = src.shape[1] / w_mm
    want_ppm = min(native_ppm, 3.0 * view.ppm_max)
    if want_ppm < native_ppm * 0.95:
        size = (max(2, round(w_mm * want_ppm)), max(2, round(h_mm * want_ppm)))
        src = cv2.resize(src, size, interpolation=cv2.INTER_AREA)
    sx, sy = src.shape[1] / w_mm, src.shape[0] / h_mm
    rgba = np.zeros((src.shape[0] + 2, src.shape[1] + 2, 4), np.float32)
    rgba[1:-1, 1:-1, :3] = src.astype(np.float32) * (PAPER / 255.0)
    rgba[1:-1, 1:-1, 3] = 1.0
    x = view.x_mm[y0:y1, x0:x1]
    y = view.y_mm[y0:y1, x0:x1]
    a = math.radians(decal.angle_deg)
    dx, dy = x - decal.centre_mm[0], y - decal.centre_mm[1]
    lx = math.cos(a) * dx + math.sin(a) * dy
    ly = -math.sin(a) * dx + math.cos(a) * dy
    mu = ((lx + w_mm / 2.0) * sx - 0.5 + 1.0).astype(np.float32)
    mv = ((ly + h_mm / 2.0) * sy - 0.5 + 1.0).astype(np.float32)
    mu = np.where(np.isfinite(mu), mu, -10.0).astype(np.float32)
    mv = np.where(np.isfinite(mv), mv, -10.0).astype(np.float32)
    out = cv2.remap(rgba, mu, mv, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                    borderValue=(0, 0, 0, 0))
    region = image[y0:y1, x0:x1]
    alpha = out[..., 3:4]
    region *= 1.0 - alpha
    region += out[..., :3]
