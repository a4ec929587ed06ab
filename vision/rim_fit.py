"""A coin's top face from its rim's steepest edges, for tables whose own level varies.

:func:`vision.coins.far_edge_centres` finds the rim where the brightness falls halfway from
the coin's face to the table's mean level; on a gingham cloth or a check the table beside a
coin is now darker, now brighter than that mean, and the halfway point is lost. Here each ray
over the far side of the rim (the top face's edge; the near side shows the wall) is read
against what lies just beyond it on that ray: the rim is the steepest change of the expected
sign between the face and that ray's own table, placed between samples by a parabola. Rays
whose table looks like the face (a pale check beside a white coin) are left out. A circle of
the known radius is fitted to the edge points, then again without those it misses by more
than ``tol`` radii; too few points, a poor fit or a centre far from the start fails (NaN).
"""

from __future__ import annotations

import numpy as np

from vision.coins import _fit_circles
from vision.sampling import bilinear, ray_fan

_OFF = -1e9
"""The gradient outside the band where an edge is looked for (never the steepest)."""


def rim_centres(level: np.ndarray, centres: np.ndarray, away: np.ndarray, r: float,
                rays: int = 17, spread_deg: float = 80.0, min_contrast: float = 0.12,
                min_rays: int = 7, tol: float = 0.1, max_shift: float = 0.4) -> np.ndarray:
    """(N, 2) centres of discs' top faces in view pixels (NaN where the fit fails).

    Args:
        level: Brightness (float) of the view, any scale.
        centres: (N, 2) rough centres, view pixels.
        away: (N, 2) unit vectors away from the camera's nadir (zero: all round).
        r: The disc's radius in view pixels.
        min_contrast: A ray counts when its table differs from the face by this share of
            the face's level.
    """
    centres = np.asarray(centres, float).reshape(-1, 2)
    away = np.asarray(away, float).reshape(-1, 2)
    n = len(centres)
    if n == 0:
        return np.zeros((0, 2))
    dirs = ray_fan(away, rays, spread_deg)  # (N, rays, 2)
    step = 0.25
    rho = np.arange(0.4 * r, 1.6 * r, step)
    prof = bilinear(level, centres[:, None, None] + rho[None, None, :, None] * dirs[:, :, None])
    inside = prof[:, :, rho < 0.7 * r].reshape(n, -1)
    body = np.median(inside, axis=1) if inside.shape[1] else np.zeros(n)
    beyond = np.median(prof[:, :, rho > 1.35 * r], axis=2)  # (N, rays): each ray's table
    sign = np.sign(body[:, None] - beyond)
    ok = np.abs(body[:, None] - beyond) >= min_contrast * np.maximum(np.abs(body), 1e-6)[:, None]
    grad = (prof[:, :, :-2] - prof[:, :, 2:]) * sign[..., None]  # falling outward: > 0
    mid = rho[1:-1]
    grad = np.where(((mid >= 0.7 * r) & (mid <= 1.35 * r))[None, None], grad, _OFF)
    j = np.argmax(grad, axis=2)  # (N, rays)
    g0 = np.take_along_axis(grad, np.maximum(j - 1, 0)[..., None], axis=2)[..., 0]
    g1 = np.take_along_axis(grad, j[..., None], axis=2)[..., 0]
    g2 = np.take_along_axis(grad, np.minimum(j + 1, grad.shape[2] - 1)[..., None], axis=2)[..., 0]
    ok &= (g0 > _OFF) & (g2 > _OFF) & (g1 > 0)
    den = np.where(ok, g0 - 2 * g1 + g2, -1.0)
    t = np.where(ok & (den < -1e-9), np.clip(0.5 * (g0 - g2) / np.where(den < -1e-9, den, -1.0),
                                            -0.5, 0.5), 0.0)
    at = mid[j] + t * step
    e = centres[:, None] + at[..., None] * dirs
    w = ok.astype(float)
    fitted = _fit_circles(e, w, centres, r)
    miss = np.abs(np.hypot(*(e - fitted[:, None]).transpose(2, 0, 1)) - r)
    w = w * (miss <= tol * r)
    fitted = _fit_circles(e, w, fitted, r)
    miss = np.abs(np.hypot(*(e - fitted[:, None]).transpose(2, 0, 1)) - r)
    kept = w.sum(axis=1)
    rms = np.sqrt((w * miss ** 2).sum(axis=1) / np.maximum(kept, 1))
    good = (kept >= min_rays) & (rms <= 0.8 * tol * r)
    good &= np.hypot(*(fitted - centres).T) <= max_shift * r
    return np.where(good[:, None], fitted, np.nan)
