"""Shadows on the table: the soft shadow each solid casts away from the light, and the dark
contact line (ambient occlusion) round its foot."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

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


@dataclass(frozen=True, eq=False)
class TableShadows:
    """Shadow masks in one window of the image.

    Attributes:
        roi: (x0, y0, x1, y1).
        cast: (h, w) float32 soft cast shadows, 0-1.
        contact: (h, w) float32 contact darkening round the pieces' feet, 0-1.
    """

    roi: tuple[int, int, int, int]
    cast: np.ndarray
    contact: np.ndarray

    def apply(self, image: np.ndarray, strength: float) -> None:
        """Darkens the table image (float32 BGR) in place."""
        x0, y0, x1, y1 = self.roi
        if x1 <= x0 or y1 <= y0:
            return
        factor = (1.0 - strength * self.cast) * (1.0 - 0.4 * self.contact)
        image[y0:y1, x0:x1] *= factor[..., None]


def shadow_masks(shapes: Iterable[Shape], pose: CameraPose, light: np.ndarray,
                 softness_px: float) -> TableShadows:
    """The cast-shadow and contact masks of solids, blurred.

    Args:
        shapes: The solids.
        pose: The camera.
        light: Unit vector toward the light.
        softness_px: Blur of the cast shadow's edge, pixels.
    """
    casts, feet = [], []
    for shape in shapes:
        casts.append(pose.project_table(cast_on_table(shape.outline_xyz(), light)))
        foot = shape.footprint_xy()
        if len(foot) >= 3:
            c = np.asarray(shape.centre_mm)
            r = np.linalg.norm(foot - c, axis=1, keepdims=True)
            feet.append(pose.project_table(c + (foot - c) * (r + 1.2) / np.maximum(r, 1e-6)))
    sigma = max(0.5, softness_px + 0.8)
    pts = [p[np.all(np.isfinite(p), axis=1)] for p in casts + feet]
    pts = [p for p in pts if len(p)]
    w, h = pose.image_size
    if not pts:
        z = np.zeros((0, 0), np.float32)
        return TableShadows((0, 0, 0, 0), z, z)
    allpx = np.concatenate(pts)
    pad = int(3 * sigma) + 3
    x0 = max(0, int(np.floor(allpx[:, 0].min())) - pad)
    y0 = max(0, int(np.floor(allpx[:, 1].min())) - pad)
    x1 = min(w, int(np.ceil(allpx[:, 0].max())) + pad + 1)
    y1 = min(h, int(np.ceil(allpx[:, 1].max())) + pad + 1)
    if x1 <= x0 or y1 <= y0:
        z = np.zeros((0, 0), np.float32)
        return TableShadows((0, 0, 0, 0), z, z)
    cast = np.zeros((y1 - y0, x1 - x0), np.float32)
    contact = np.zeros_like(cast)
    for p in casts:
        fill_hull(cast, p - [x0, y0])
    for p in feet:
        fill_hull(contact, p - [x0, y0])
    cast = cv2.GaussianBlur(np.minimum(cast, 1.0), (0, 0), sigma)
    contact = cv2.GaussianBlur(np.minimum(contact, 1.0), (0, 0), 1.3)
    return TableShadows((x0, y0, x1, y1), cast, contact)


def apply_lamp_shadows(image: np.ndarray, shapes: list[Shape], pose: CameraPose,
                       lamps: tuple[tuple[np.ndarray, np.ndarray], ...], softness_px: float,
                       strength: float) -> None:
    """Darkens the table image (float32 BGR) in place under several lamps: each lamp's shadow
    takes away that lamp's (B, G, R) weight only; the contact darkening is laid once."""
    h, w = image.shape[:2]
    factor = np.zeros((h, w, 3), np.float32)
    contact = None
    for vec, gain in lamps:
        masks = shadow_masks(shapes, pose, vec, softness_px)
        lit = np.ones((h, w), np.float32)
        x0, y0, x1, y1 = masks.roi
        if x1 > x0 and y1 > y0:
            lit[y0:y1, x0:x1] -= strength * masks.cast
            if contact is None:
                contact = masks
        factor += lit[..., None] * np.asarray(gain, np.float32)
    image *= factor
    if contact is not None:
        x0, y0, x1, y1 = contact.roi
        image[y0:y1, x0:x1] *= (1.0 - 0.4 * contact.contact)[..., None]
