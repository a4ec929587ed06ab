"""A tile's top face from its sides' steepest edges, for tables whose own level varies.

:func:`vision.tiles.refine_block` finds a tile's sides against the table's mean level and the
bright mask; under a blind's stripes, on a check or a white table those fail. Here each side
that does not face the camera (those show the wall) is read at several places along it,
across it, against what lies just beyond it there: its edge is the steepest change of the
expected sign between the face and that place's own table, placed between samples by a
parabola. A square of the known side is then fitted to the edge points (centre and angle,
Gauss-Newton), again without the points it misses by more than a pixel. Too few points across
either pair of sides, a poor fit or a large move fails (None).
"""

from __future__ import annotations

import math

import numpy as np

from vision.sampling import bilinear

_OFF = -1e9
"""The gradient outside the band where an edge is looked for (never the steepest)."""


def side_turn_deg(a_deg: float, b_deg: float) -> float:
    """The turn from ``b_deg`` to ``a_deg`` of a square's sides (modulo 90), in (-45, 45].

    >>> side_turn_deg(6.6, 90.0), side_turn_deg(89.0, 1.0)
    (6.6, -2.0)
    """
    return round((a_deg - b_deg + 45.0) % 90.0 - 45.0, 9)


def _solve(e: np.ndarray, nrm: np.ndarray, w: np.ndarray, c: np.ndarray, a: float,
           half: float, steps: int = 6) -> tuple[np.ndarray, float]:
    """Centre and angle (radians) of a square whose sides (unit normals ``nrm`` at angle 0,
    turned by ``a``) pass through the weighted points ``e``."""
    c = c.copy()
    for _ in range(steps):
        ca, sa = math.cos(a), math.sin(a)
        n = nrm @ np.array([[ca, sa], [-sa, ca]])  # each normal turned by a
        t = np.column_stack([-n[:, 1], n[:, 0]])
        d = e - c
        res = (n * d).sum(axis=1) - half
        J = np.column_stack([-n[:, 0], -n[:, 1], (t * d).sum(axis=1)])
        A = (J * w[:, None]).T @ J
        if abs(np.linalg.det(A)) < 1e-9:
            break
        step = np.linalg.solve(A, -(J * w[:, None]).T @ res)
        c += step[:2]
        a += float(step[2])
        if abs(step[0]) + abs(step[1]) < 1e-3 and abs(step[2]) < 1e-5:
            break
    return c, a


def square_centre(level: np.ndarray, centre: np.ndarray, angle_deg: float, side: float,
                  away: np.ndarray, places: int = 9, min_contrast: float = 0.12,
                  min_points: int = 6, max_rms: float = 0.5, max_turn_deg: float = 3.0
                  ) -> tuple[np.ndarray, float] | None:
    """(centre view pixels (2,), angle view degrees) of a tile's top face, or None.

    Args:
        level: Brightness (float) of the view, any scale.
        centre: Rough centre, view pixels.
        angle_deg: Rough direction of its sides (view degrees, modulo 90).
        side: The tile's side in view pixels.
        away: Unit vector away from the camera's nadir (zero: every side is read).
    """
    c0 = np.asarray(centre, float)
    a0 = math.radians(angle_deg)
    away = np.asarray(away, float)
    ks = [k for k in range(4)
          if not away.any() or math.cos(a0 + k * math.pi / 2) * away[0]
          + math.sin(a0 + k * math.pi / 2) * away[1] > -0.25]
    step = 0.25
    rho = np.arange(0.25 * side, 0.8 * side, step)
    along = np.linspace(-0.38, 0.38, places) * side
    pts, nrm, sides = [], [], []
    for k in ks:
        th = a0 + k * math.pi / 2
        n = np.array([math.cos(th), math.sin(th)])
        t = np.array([-n[1], n[0]])
        base = c0 + along[:, None] * t  # (P, 2)
        prof = bilinear(level, base[:, None] + rho[None, :, None] * n)  # (P, R)
        inside = np.median(prof[:, (rho > 0.3 * side) & (rho < 0.44 * side)], axis=1)
        beyond = np.median(prof[:, (rho > 0.56 * side) & (rho < 0.7 * side)], axis=1)
        sign = np.sign(inside - beyond)
        ok = np.abs(inside - beyond) >= min_contrast * np.maximum(np.abs(inside), 1e-6)
        grad = (prof[:, :-2] - prof[:, 2:]) * sign[:, None]
        mid = rho[1:-1]
        grad = np.where(((mid >= 0.38 * side) & (mid <= 0.62 * side))[None], grad, _OFF)
        j = np.argmax(grad, axis=1)
        rows = np.arange(len(j))
        g0 = grad[rows, np.maximum(j - 1, 0)]
        g1 = grad[rows, j]
        g2 = grad[rows, np.minimum(j + 1, grad.shape[1] - 1)]
        ok &= (g0 > _OFF) & (g2 > _OFF) & (g1 > 0)
        den = g0 - 2 * g1 + g2
        sub = np.where(ok & (den < -1e-9),
                       np.clip(0.5 * (g0 - g2) / np.where(den < -1e-9, den, -1.0), -0.5, 0.5),
                       0.0)
        at = mid[j] + sub * step
        for i in np.flatnonzero(ok):
            pts.append(base[i] + at[i] * n)
            nrm.append([math.cos(k * math.pi / 2), math.sin(k * math.pi / 2)])
            sides.append(k)
    if len(pts) < 2 * min_points:
        return None
    e, nr, sd = np.array(pts), np.array(nrm), np.array(sides)
    w = np.ones(len(e))
    c, a = _solve(e, nr, w, c0, a0, side / 2)
    for _ in range(2):
        ca, sa = math.cos(a), math.sin(a)
        n = nr @ np.array([[ca, sa], [-sa, ca]])
        miss = np.abs((n * (e - c)).sum(axis=1) - side / 2)
        w = (miss <= 1.0).astype(float)
        c, a = _solve(e, nr, w, c, a, side / 2)
    ca, sa = math.cos(a), math.sin(a)
    n = nr @ np.array([[ca, sa], [-sa, ca]])
    miss = np.abs((n * (e - c)).sum(axis=1) - side / 2)
    w = miss <= 1.0
    counts = np.bincount(sd[w], minlength=4)
    if min(counts[0] + counts[2], counts[1] + counts[3]) < min_points:  # placed both ways
        return None
    if math.sqrt(float(np.mean(miss[w] ** 2))) > max_rms:
        return None
    if np.hypot(*(c - c0)) > 0.25 * side or abs(math.degrees(a - a0)) > max_turn_deg:
        return None
    return c, math.degrees(a) % 90.0
