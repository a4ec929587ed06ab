"""A coin's top face from its rim in colour, where the grey shade shows no rim.

:func:`vision.coins.far_edge_centres` finds a coin's far rim where the grey shade falls
halfway from its face to the table; a cream coin on a glossy white or a light blue-grey top,
or under a dim warm lamp, is about as bright as the table in grey (the fit fails, or is pulled
by its symbol or the contact shade round it), yet its rim is plain in colour. Here the top view
around a candidate is read as each pixel's *distance from the face's colour*: the three
channels in logs (light and exposure scale every channel: a difference of logs is a ratio),
the face's colour the median over an annulus of the face just inside its rim (outside its
symbol). Going out along a ray, that distance rises at the rim whatever lies beyond, brighter
or darker, another colour or the contact shade; a symbol's edge inside the face falls going
out, a touching neighbour's rim falls too.

Along rays over the far arc (the top face's edge, away from the camera; the near side shows
the wall), the rim is the steepest rise within a band about the radius, placed between samples
by a parabola; a circle of the known radius is fitted to those points, again without those it
misses by more than ``tol`` radii, then the band narrows around the circle found and it is
fitted again. It stands where enough rays agree (``min_rays``, ``rms``), the centre stays near
the start, and the rim's rise is ``over_texture`` times the colour change over the table round
it (a gingham's or wood grain's edges are everywhere, a coin's rim only on its circle).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.coins import _fit_circles
from vision.sampling import bilinear, ray_fan


@dataclass(frozen=True)
class ColourRimConfig:
    """Attributes:
    rays: Rays over the far arc...
    spread_deg: ...which reaches this far either side of the way away from the camera.
    face: The face's colour is the median over this annulus (radii, shares of the coin's).
    table: The colour change of the table round the coin is read over this annulus.
    bands: The rim is looked for within these bands of radii, in turn (the first about the
        start, each next about the circle fitted before), each with its ``tol``.
    tol: Rim points further than this many radii off the circle are left out (the first
        band: twice this).
    rms: The kept points' RMS distance from the circle, at most this many radii.
    min_rays: At least this many rays' points kept.
    over_texture: The rim's rise (median over the kept rays) at least this many times the
        table's median change over the same step.
    max_shift: The fitted centre lies within this many radii of the start.
    """

    rays: int = 17
    spread_deg: float = 80.0
    face: tuple[float, float] = (0.72, 0.9)
    table: tuple[float, float] = (1.5, 2.2)
    bands: tuple[tuple[float, float], ...] = ((0.7, 1.3), (0.85, 1.15))
    tol: float = 0.1
    rms: float = 0.06
    min_rays: int = 9
    over_texture: float = 2.5
    max_shift: float = 0.4


_STEP = 0.25
"""Samples along a ray, view pixels apart."""

_SPAN = 2
"""A rise is read over this many samples either side (half a pixel: a rim blurred over a pixel
rises over it nearly in full, a pixel's noise less)."""


def annulus(c: np.ndarray, r: float, lo: float, hi: float) -> np.ndarray:
    """Sample points (K, 2) over an annulus ``lo``-``hi`` radii ``r`` around ``c``, about one
    a pixel.

    >>> annulus(np.zeros(2), 10.0, 1.0, 1.1).shape
    (62, 2)
    """
    out = []
    for p in np.arange(lo * r, hi * r, 1.0):
        n = max(8, int(2 * np.pi * p))
        a = np.linspace(0.0, 2 * np.pi, n, endpoint=False)
        out.append(c + p * np.c_[np.cos(a), np.sin(a)])
    return np.concatenate(out) if out else np.zeros((0, 2))


def log_colours(channels: list[np.ndarray], pts: np.ndarray) -> np.ndarray:
    """The colours (..., 3) at points (..., 2), each channel ``log(1 + value)``.

    >>> ch = [np.full((2, 2), v, np.uint8) for v in (0, 1, 255)]
    >>> np.exp(log_colours(ch, np.array([[0.5, 0.5]]))).round(1).tolist()
    [[1.0, 2.0, 256.0]]
    """
    return np.log(np.stack([bilinear(ch, pts) for ch in channels], axis=-1) + 1.0)


def _rim_points(channels: list[np.ndarray], c: np.ndarray, dirs: np.ndarray, r: float,
                face: np.ndarray, scale: np.ndarray, band: tuple[float, float]
                ) -> tuple[np.ndarray, np.ndarray]:
    """Along each ray from ``c``, the steepest rise of the distance from the face's colour
    (each channel in units of ``scale``) within ``band`` radii: the points (rays, 2) and the
    rises (rays,)."""
    k = _SPAN
    rho = np.arange(band[0] * r - (k + 1) * _STEP, band[1] * r + (k + 1) * _STEP + 1e-9, _STEP)
    dist = np.linalg.norm((log_colours(channels, c + rho[None, :, None] * dirs[:, None]) - face)
                          / scale, axis=-1)
    rise = dist[:, 2 * k:] - dist[:, :-2 * k]  # at rho[k:-k]
    j = np.argmax(rise[:, 1:-1], axis=1) + 1
    rows = np.arange(len(j))
    a, b, d = rise[rows, j - 1], rise[rows, j], rise[rows, j + 1]
    den = a - 2 * b + d
    t = np.where(den < -1e-12, np.clip(0.5 * (a - d) / np.where(den < -1e-12, den, -1.0),
                                       -0.5, 0.5), 0.0)
    return c + (rho[k:-k][j] + t * _STEP)[:, None] * dirs, b


def colour_rim_centre(channels: list[np.ndarray], start: np.ndarray, away: np.ndarray,
                      r: float, cfg: ColourRimConfig | None = None) -> np.ndarray:
    """The centre (2,) of a coin's top face near ``start`` (view pixels) from its far rim in
    colour, NaN where none is found.

    Args:
        channels: The top view's three channels ((H, W) each, any numeric type), real
            around ``start`` (``cfg.table`` radii).
        start: A rough centre (the centre net's peak, within a fifth of a radius or so).
        away: The unit vector away from the camera's nadir there (zero: all round).
        r: The coin's radius in view pixels.
    """
    cfg = cfg or ColourRimConfig()
    nan = np.full(2, np.nan)
    start = np.asarray(start, float)
    h, w = channels[0].shape
    reach = cfg.table[1] * r + 2
    if (start[0] - reach < 0 or start[1] - reach < 0 or start[0] + reach > w - 1
            or start[1] + reach > h - 1):
        return nan
    face = np.median(log_colours(channels, annulus(start, r, *cfg.face)), axis=0)
    # each channel in units of its own noise on the table round the coin (neighbouring
    # samples' differences): a dim lamp's blue, a few grey levels, is noise; its red is not
    table = log_colours(channels, annulus(start, r, *cfg.table))
    scale = np.maximum(1.4826 / np.sqrt(2.0) * np.median(np.abs(np.diff(table, axis=0)), axis=0),
                       1e-3)
    dirs = ray_fan(np.asarray(away, float)[None], cfg.rays, cfg.spread_deg)[0]  # (rays, 2)
    c = start
    kept = np.zeros(cfg.rays, bool)
    rise = np.zeros(cfg.rays)
    for k, band in enumerate(cfg.bands):
        tol = (2.0 if k == 0 else 1.0) * cfg.tol * r
        e, rise = _rim_points(channels, c, dirs, r, face, scale, band)
        fitted = _fit_circles(e[None], np.ones((1, cfg.rays)), c[None], r)
        for _ in range(2):
            kept = np.abs(np.hypot(*(e - fitted[0]).T) - r) <= tol
            if kept.sum() < cfg.min_rays:
                return nan
            fitted = _fit_circles(e[None], kept.astype(float)[None], fitted, r)
        c = fitted[0]
    miss = np.abs(np.hypot(*(e - c).T) - r)
    if (float(np.sqrt(np.mean(miss[kept] ** 2))) > cfg.rms * r
            or np.hypot(*(c - start)) > cfg.max_shift * r):
        return nan
    # the table's own colour changes over the same step, on the same rays beyond the coin
    rho = np.arange(cfg.table[0] * r, cfg.table[1] * r, _STEP)
    col = log_colours(channels, c + rho[None, :, None] * dirs[:, None]) / scale
    texture = float(np.median(np.linalg.norm(col[:, 2 * _SPAN:] - col[:, :-2 * _SPAN],
                                             axis=-1)))
    if float(np.median(rise[kept])) < cfg.over_texture * max(texture, 1e-3):
        return nan
    return c


def colour_rim_centres(top_bgr: np.ndarray, starts: np.ndarray, away: np.ndarray, r: float,
                       cfg: ColourRimConfig | None = None) -> np.ndarray:
    """:func:`colour_rim_centre` for each of ``starts`` (N, 2) on a top view (uint8 BGR),
    (N, 2) (NaN where none)."""
    starts = np.asarray(starts, float).reshape(-1, 2)
    away = np.asarray(away, float).reshape(-1, 2)
    if not len(starts):
        return np.zeros((0, 2))
    channels = [top_bgr[:, :, k] for k in range(3)]  # sampled where needed
    return np.array([colour_rim_centre(channels, s, a, r, cfg)
                     for s, a in zip(starts, away, strict=True)])
