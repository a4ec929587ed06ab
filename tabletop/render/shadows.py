"""Shadows on the table: the soft shadow each solid casts away from the light, and the dark
contact line (ambient occlusion) round its foot."""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from tabletop.render.camera import CameraPose
from tabletop.render.shapes import Shape

_SHIFT = 4


def cast_on_table(points_xyz: np.ndarray, light: np.ndarray) -> np.ndarray:
    """Where 3-D points' shadows fall on the table (N, 2), along the light vector."""
    k = points_xyz[:, 2] / max(float(light[2]), 1e-3)
    return points_xyz[:, :2] - k[:, None] * light[None, :2]


def fill_hull(mask: np.ndarray, points_px: np.ndarray, value: float = 1.0) -> None:
    """Fills the convex hull of pixel points into a float mask (antialiased)."""
    ok = np.all(np.isfinite(points_px), axis=1)
    if ok.sum() < 3:
        return
    hull = cv2.convexHull(points_px[ok].astype(np.float32)).reshape(-1, 2)
    pts = np.round(hull * (1 << _SHIFT)).astype(np.int32)
    cv2.fillPoly(mask, [pts], value, cv2.LINE_AA, _SHIFT)


def shadow_masks(shapes: Iterable[Shape], pose: CameraPose, light: np.ndarray,
                 softness_px: float) -> tuple[np.ndarray, np.ndarray]:
    """The cast-shadow and contact masks of solids, (H, W) float32 each, blurred.

    Args:
        shapes: The solids.
        pose: The camera.
        light: Unit vector toward the light.
        softness_px: Blur of the cast shadow's edge, pixels.
    """
    w, h = pose.image_size
    cast = np.zeros((h, w), np.float32)
    contact = np.zeros((h, w), np.float32)
    for shape in shapes:
        pts = shape.outline_xyz()
        shadow = cast_on_table(pts, light)
        fill_hull(cast, pose.project_table(shadow))
        foot = shape.footprint_xy()
        if len(foot) >= 3:
            c = np.asarray(shape.centre_mm)
            r = np.linalg.norm(foot - c, axis=1, keepdims=True)
            grown = c + (foot - c) * (r + 1.2) / np.maximum(r, 1e-6)
            fill_hull(contact, pose.project_table(grown))
    sigma = max(0.5, softness_px + 0.8)
    _blur_used(cast, sigma)
    _blur_used(contact, 1.3)
    return cast, contact


def used_window(mask: np.ndarray, pad: int) -> tuple[int, int, int, int] | None:
    """The window (x0, y0, x1, y1) round the non-zero part of a mask, padded; None if empty."""
    rows = np.flatnonzero(mask.any(axis=1))
    if rows.size == 0:
        return None
    cols = np.flatnonzero(mask[rows[0]:rows[-1] + 1].any(axis=0))
    h, w = mask.shape
    return (max(0, int(cols[0]) - pad), max(0, int(rows[0]) - pad),
            min(w, int(cols[-1]) + pad + 1), min(h, int(rows[-1]) + pad + 1))


def _blur_used(mask: np.ndarray, sigma: float) -> None:
    """Clips to 1 and blurs a mask in place, only round where it is non-zero."""
    win = used_window(mask, int(3 * sigma) + 2)
    if win is None:
        return
    x0, y0, x1, y1 = win
    region = np.minimum(mask[y0:y1, x0:x1], 1.0)
    mask[y0:y1, x0:x1] = cv2.GaussianBlur(region, (0, 0), sigma, borderType=cv2.BORDER_CONSTANT)


def apply_table_shadows(image: np.ndarray, cast: np.ndarray, contact: np.ndarray,
                        strength: float) -> None:
    """Darkens the table image (float32 BGR) by the shadow masks, in place."""
    win = used_window(cast + contact, 0)
    if win is None:
        return
    x0, y0, x1, y1 = win
    factor = (1.0 - strength * cast[y0:y1, x0:x1]) * (1.0 - 0.4 * contact[y0:y1, x0:x1])
    image[y0:y1, x0:x1] *= factor[..., None]
