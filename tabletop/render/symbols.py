"""The four piecepack suit symbols, drawn as filled shapes: sun, moon, crown, arms (fleur-de-lis).

Each ``draw_*`` paints into a float image's alpha mask: ``mask`` (H, W) float32 in [0, 1] gets
the symbol centred at ``centre_px`` with ``radius_px`` (half its size), turned ``angle_deg``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

_SHIFT = 4
_ONE = 1 << _SHIFT


def _place(points: np.ndarray, centre_px: tuple[float, float], radius_px: float,
           angle_deg: float) -> np.ndarray:
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    pts = points @ rot.T * radius_px + np.asarray(centre_px)
    return np.round(pts * _ONE).astype(np.int32)


def _poly(mask: np.ndarray, points: np.ndarray, centre_px: tuple[float, float],
          radius_px: float, angle_deg: float, value: float = 1.0) -> None:
    cv2.fillPoly(mask, [_place(points, centre_px, radius_px, angle_deg)], value,
                 cv2.LINE_AA, _SHIFT)


def _circle_pts(cx: float, cy: float, r: float, n: int = 48) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.c_[cx + r * np.cos(a), cy + r * np.sin(a)]


def _ellipse_pts(cx: float, cy: float, rx: float, ry: float, rot_deg: float,
                 n: int = 40) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    e = np.c_[rx * np.cos(a), ry * np.sin(a)]
    r = math.radians(rot_deg)
    rot = np.array([[math.cos(r), -math.sin(r)], [math.sin(r), math.cos(r)]])
    return e @ rot.T + np.array([cx, cy])


def draw_sun(mask: np.ndarray, centre_px: tuple[float, float], radius_px: float,
             angle_deg: float = 0.0) -> None:
    """A disc with sixteen pointed rays."""
    n = 16
    a = np.arange(2 * n) * math.pi / n
    r = np.where(np.arange(2 * n) % 2 == 0, 1.0, 0.66)
    _poly(mask, np.c_[r * np.cos(a), r * np.sin(a)], centre_px, radius_px, angle_deg)


def draw_moon(mask: np.ndarray, centre_px: tuple[float, float], radius_px: float,
              angle_deg: float = 0.0) -> None:
    """A crescent: a disc with an offset disc taken out."""
    tmp = np.zeros_like(mask)
    _poly(tmp, _circle_pts(0.0, 0.0, 0.9, 64), centre_px, radius_px, angle_deg)
    cut = np.zeros_like(mask)
    _poly(cut, _circle_pts(0.36, -0.24, 0.74, 64), centre_px, radius_px, angle_deg)
    np.maximum(mask, tmp * (1.0 - cut), out=mask)


def draw_crown(mask: np.ndarray, centre_px: tuple[float, float], radius_px: float,
               angle_deg: float = 0.0) -> None:
    """A three-pointed crown on a band, with a ball on each point."""
    body = np.array([[-0.85, 0.55], [-0.85, -0.45], [-0.42, 0.05], [0.0, -0.62], [0.42, 0.05],
                     [0.85, -0.45], [0.85, 0.55]])
    _poly(mask, body, centre_px, radius_px, angle_deg)
    band = np.array([[-0.85, 0.62], [0.85, 0.62], [0.85, 0.85], [-0.85, 0.85]])
    _poly(mask, band, centre_px, radius_px, angle_deg)
    for x, y in ((-0.85, -0.55), (0.0, -0.74), (0.85, -0.55)):
        _poly(mask, _circle_pts(x, y, 0.13, 20), centre_px, radius_px, angle_deg)


def draw_arms(mask: np.ndarray, centre_px: tuple[float, float], radius_px: float,
              angle_deg: float = 0.0) -> None:
    """A fleur-de-lis: a tall middle petal, two curled side petals, a band and a foot."""
    middle = np.array([[0.0, -0.95], [0.2, -0.6], [0.22, -0.2], [0.12, 0.15], [-0.12, 0.15],
                       [-0.22, -0.2], [-0.2, -0.6]])
    _poly(mask, middle, centre_px, radius_px, angle_deg)
    for side in (-1.0, 1.0):
        petal = _ellipse_pts(side * 0.45, -0.2, 0.34, 0.16, side * -50.0)
        _poly(mask, petal, centre_px, radius_px, angle_deg)
        tip = _ellipse_pts(side * 0.72, -0.42, 0.12, 0.14, 0.0, 20)
        _poly(mask, tip, centre_px, radius_px, angle_deg)
        foot = np.array([[side * 0.05, 0.3], [side * 0.4, 0.75], [side * 0.22, 0.8],
                         [side * 0.0, 0.5]])
        _poly(mask, foot, centre_px, radius_px, angle_deg)
    band = np.array([[-0.5, 0.12], [0.5, 0.12], [0.5, 0.32], [-0.5, 0.32]])
    _poly(mask, band, centre_px, radius_px, angle_deg)


SYMBOLS: dict[str, Callable[[np.ndarray, tuple[float, float], float, float], None]] = {
    "suns": draw_sun, "moons": draw_moon, "crowns": draw_crown, "arms": draw_arms,
}
"""Symbol drawers by suit name."""
