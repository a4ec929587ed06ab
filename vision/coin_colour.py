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
out, a touching neighbour's rim falls too. Each channel is read in units of its own noise on
the table round the coin (a dim warm lamp's blue is mostly noise). All candidates are fitted
at once (a window round each, stacked): about half a millisecond a candidate.

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
from functools import lru_cache

import cv2
import numpy as np

from vision.coins import _fit_circles
from vision.sampling import ray_fan


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
    span: A rise (the rim's, the table's) is read over this many samples either side
        (``_STEP`` pixels each): 2, half a pixel, where a rim blurred over a pixel rises
        nearly in full and a pixel's noise less; a rim the lens or a shake blurred over
        several pixels rises in full only over a wider span.
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
    span: int = 2


_STEP = 0.25
"""Samples along a ray, view pixels apart."""

@lru_cache(maxsize=16)
def annulus(r: float, lo: float, hi: float) -> np.ndarray:
    """Offsets (K, 2) over an annulus ``lo``-``hi`` radii ``r`` round a centre, about one a
    pixel apart along each circle (circle by circle, so neighbours in the list are
    neighbours on the table).

    >>> annulus(10.0, 1.0, 1.1).shape
    (62, 2)
    """
    out = [np.zeros((0, 2))]
    for p in np.arange(lo * r, hi * r, 1.0):
        a = np.linspace(0.0, 2 * np.pi, max(8, int(2 * np.pi * p)), endpoint=False)
        out.append(p * np.stack([np.cos(a), np.sin(a)], axis=1))
    return np.concatenate(out)


def sample(wins: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Bilinear samples of each of N windows at its own points.

    Args:
        wins: (N, h, w, 3) float32 windows.
        pts: (N, ..., 2) points, each window's pixels (clamped to it).

    Returns:
        (N, ..., 3) float64.

    >>> win = np.zeros((1, 2, 2, 3), np.float32); win[0, :, 1] = (2.0, 4.0, 8.0)
    >>> sample(win, np.array([[[0.5, 0.0], [1.0, 1.0]]])).round(3).tolist()
    [[[1.0, 2.0, 4.0], [2.0, 4.0, 8.0]]]
    """
    n, h, w = wins.shape[:3]
    shape = pts.shape[:-1]
    p = pts.reshape(n, -1, 2)
    x = np.clip(p[..., 0], 0.0, w - 1.0)
    y = np.clip(p[..., 1], 0.0, h - 1.0)
    x0 = np.minimum(x.astype(np.intp), w - 2)
    y0 = np.minimum(y.astype(np.intp), h - 2)
    fx, fy = (x - x0)[..., None], (y - y0)[..., None]
    i = np.arange(n)[:, None]
    top = wins[i, y0, x0] * (1 - fx) + wins[i, y0, x0 + 1] * fx
    bottom = wins[i, y0 + 1, x0] * (1 - fx) + wins[i, y0 + 1, x0 + 1] * fx
    return (top * (1 - fy) + bottom * fy).reshape(*shape, 3)


def _rim_points(wins: np.ndarray, c: np.ndarray, dirs: np.ndarray, r: float,
                face: np.ndarray, scale: np.ndarray, band: tuple[float, float], k: int = 2
                ) -> tuple[np.ndarray, np.ndarray]:
    """Along each ray from each centre ``c`` (N, 2), the steepest rise of the distance from
    the face's colour (N, 3) (each channel in units of ``scale`` (N, 3)) within ``band``
    radii, each read over ``k`` samples either side: the points (N, rays, 2) and the rises
    (N, rays)."""
    rho = np.arange(band[0] * r - (k + 1) * _STEP, band[1] * r + (k + 1) * _STEP + 1e-9, _STEP)
    pts = c[:, None, None] + rho[None, None, :, None] * dirs[:, :, None]
    dist = np.linalg.norm((sample(wins, pts) - face[:, None, None]) / scale[:, None, None],
                          axis=-1)  # (N, rays, samples)
    rise = dist[..., 2 * k:] - dist[..., :-2 * k]  # at rho[k:-k]
    j = np.argmax(rise[..., 1:-1], axis=2) + 1
    a, b, d = (np.take_along_axis(rise, (j + o)[..., None], axis=2)[..., 0] for o in (-1, 0, 1))
    den = a - 2 * b + d
    t = np.where(den < -1e-12, np.clip(0.5 * (a - d) / np.where(den < -1e-12, den, -1.0),
                                       -0.5, 0.5), 0.0)
    return c[:, None] + (rho[k:-k][j] + t * _STEP)[..., None] * dirs, b


def _robust_fit(e: np.ndarray, c: np.ndarray, r: float, tol: float
                ) -> tuple[np.ndarray, np.ndarray]:
    """Circles of radius ``r`` through points (N, rays, 2) from ``c`` (N, 2): fitted to all,
    then to those within ``tol`` of the circle found: (centres (N, 2), kept (N, rays))."""
    fitted = _fit_circles(e, np.ones(e.shape[:2]), c, r)
    kept = np.abs(np.hypot(*(e - fitted[:, None]).transpose(2, 0, 1)) - r) <= tol
    fitted = _fit_circles(e, kept.astype(float), fitted, r)
    kept = np.abs(np.hypot(*(e - fitted[:, None]).transpose(2, 0, 1)) - r) <= tol
    return fitted, kept


def colour_rim_centres(top_bgr: np.ndarray, starts: np.ndarray, away: np.ndarray, r: float,
                       cfg: ColourRimConfig | None = None) -> np.ndarray:
    """The centres (N, 2) of coins' top faces near ``starts`` (view pixels) from their far
    rims in colour, NaN where none is found.

    Args:
        top_bgr: The top view (uint8 BGR), real ``cfg.table`` radii and more round each start.
        starts: (N, 2) rough centres (the centre net's peaks, within a fifth of a radius or
            so).
        away: (N, 2) unit vectors away from the camera's nadir there (zero: all round).
        r: The coin's radius in view pixels.
    """
    cfg = cfg or ColourRimConfig()
    fit = colour_rim_fit(top_bgr, starts, away, r, cfg)
    good = fit.held & (fit.lift >= cfg.over_texture * np.maximum(fit.texture, 1e-3))
    out = np.full_like(fit.centre, np.nan)
    out[good] = fit.centre[good]
    return out


@dataclass(frozen=True)
class ColourRimFit:
    """The colour rim fit round each of N starts, before its last check.

    Attributes:
        centre: (N, 2) the fitted centres (view pixels; NaN where the window leaves the view).
        held: (N,) the fit holds (enough rays, its RMS, near the start).
        lift: (N,) the rim's rise (median over the kept rays), in units of the table's noise.
        texture: (N,) the table's median change over the same step round the coin, in the same
            units.
    """

    centre: np.ndarray
    held: np.ndarray
    lift: np.ndarray
    texture: np.ndarray


def colour_rim_fit(top_bgr: np.ndarray, starts: np.ndarray, away: np.ndarray, r: float,
                   cfg: ColourRimConfig) -> ColourRimFit:
    """:func:`colour_rim_centres`'s fit, with what its last check weighs (see there)."""
    starts = np.asarray(starts, float).reshape(-1, 2)
    away = np.asarray(away, float).reshape(-1, 2)
    n = len(starts)
    out = ColourRimFit(np.full((n, 2), np.nan), np.zeros(n, bool), np.zeros(n), np.zeros(n))
    h, w = top_bgr.shape[:2]
    reach = int(np.ceil(cfg.table[1] * r)) + 4
    corner = np.floor(starts).astype(int) - reach
    inside = np.flatnonzero((corner[:, 0] >= 0) & (corner[:, 1] >= 0)
                            & (corner[:, 0] + 2 * reach + 1 <= w)
                            & (corner[:, 1] + 2 * reach + 1 <= h))
    if not len(inside):  # a coin cut by the view's edge tells nothing
        return out
    side = 2 * reach + 1
    wins = np.log1p(np.stack([top_bgr[y:y + side, x:x + side] for x, y in corner[inside]])
                    .astype(np.float32))
    start = starts[inside] - corner[inside]
    face = np.median(sample(wins, start[:, None] + annulus(r, *cfg.face)), axis=1)
    # each channel in units of its own noise on the table round the coin (neighbouring
    # samples' differences): a dim lamp's blue, a few grey levels, is noise; its red is not
    table = sample(wins, start[:, None] + annulus(r, *cfg.table))
    scale = np.maximum(1.4826 / np.sqrt(2.0) * np.median(np.abs(np.diff(table, axis=1)), axis=1),
                       1e-3)
    dirs = ray_fan(away[inside], cfg.rays, cfg.spread_deg)  # (N, rays, 2)
    c = start
    good = np.ones(len(inside), bool)
    for k, band in enumerate(cfg.bands):
        e, rise = _rim_points(wins, c, dirs, r, face, scale, band, cfg.span)
        c, kept = _robust_fit(e, c, r, (2.0 if k == 0 else 1.0) * cfg.tol * r)
        good &= kept.sum(axis=1) >= cfg.min_rays
    miss = np.abs(np.hypot(*(e - c[:, None]).transpose(2, 0, 1)) - r)
    rms = np.sqrt((miss ** 2 * kept).sum(axis=1) / np.maximum(kept.sum(axis=1), 1))
    good &= (rms <= cfg.rms * r) & (np.hypot(*(c - start).T) <= cfg.max_shift * r)
    # the table's own colour changes over the same step, on the same rays beyond the coin
    rho = np.arange(cfg.table[0] * r, cfg.table[1] * r, _STEP)
    col = sample(wins, c[:, None, None] + rho[None, None, :, None] * dirs[:, :, None]) / \
        scale[:, None, None]
    texture = np.median(np.linalg.norm(col[..., 2 * cfg.span:, :] - col[..., :-2 * cfg.span, :],
                                       axis=-1).reshape(len(c), -1), axis=1)
    lift = np.array([np.median(x[m]) if m.any() else 0.0 for x, m in zip(rise, kept,
                                                                          strict=True)])
    out.centre[inside] = c + corner[inside]
    out.held[inside] = good
    out.lift[inside] = lift
    out.texture[inside] = texture
    return out


BLURRED = ColourRimConfig(span=4)
"""The colour fit read at a coarser scale: a rise over a pixel either side, where a small coin
the lens or a shake blurred over a few pixels (a far camera, a pale stone table under a hard
lamp) rises too little over half a pixel to stand above the table's own texture."""


def blurred_rim_centres(top_bgr: np.ndarray, starts: np.ndarray, away: np.ndarray, r: float,
                        smooth: float = 0.07) -> np.ndarray:
    """:func:`colour_rim_centres` by :data:`BLURRED`, on ``top_bgr`` smoothed round each start
    by a Gaussian of ``smooth`` radii (symmetric: a circle's centre stays where it was): the
    last fit tried, where the rim is plain only at a scale of a few pixels."""
    starts = np.asarray(starts, float).reshape(-1, 2)
    return colour_rim_centres(smoothed(top_bgr, starts, r, smooth), starts, away, r, BLURRED)


def smoothed(top: np.ndarray, starts: np.ndarray, r: float, sigma: float) -> np.ndarray:
    """``top`` with windows round ``starts`` (as far as the colour fit reads) blurred by a
    Gaussian of ``sigma`` radii; the rest as it was."""
    out = top.copy()
    h, w = top.shape[:2]
    reach = int(np.ceil(2.2 * r + 4 * sigma * r)) + 6
    for x, y in np.floor(starts).astype(int):
        x0, y0, x1, y1 = max(0, x - reach), max(0, y - reach), min(w, x + reach + 1), \
            min(h, y + reach + 1)
        if x1 > x0 and y1 > y0:
            out[y0:y1, x0:x1] = cv2.GaussianBlur(top[y0:y1, x0:x1], (0, 0), sigma * r)
    return out
