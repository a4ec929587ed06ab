"""A coin's top face from its rim in colour, where the grey shade shows no rim.

:func:`vision.coins.far_edge_centres` finds a coin's far rim where the grey shade falls
halfway from its face to the table; a cream coin on a glossy white or a light blue-grey table
is as bright as the table in grey (the fit fails), yet plainly another colour. Here the top
view around a candidate is read as *face-likeness* in chroma: each pixel's colour relative to
the local table's (in logs, each channel less the table's median there), its brightness (the
mean over the channels) taken out, projected onto the face's own chroma (the median over an
annulus of the face, outside its symbol). The table reads 0 and the face 1 whatever their
colours; a shadow or the contact shade round a coin, which darken all channels alike, read
as the table. Brightness is the grey fits' part; this is the complement, for where they fail.

Along rays over the far arc (the top face's edge, away from the camera; the near side shows
the wall), the rim is where face-likeness falls through a half and stays below it (a thin
printed line inside the face is no rim), placed between samples; a circle of the known radius
is fitted to those points, then again without the points it misses by more than ``tol``
radii. It stands only where the face differs from the table by ``min_contrast`` times the
table's own noise in those units, enough rays agree, and the centre stays near the start.
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
    table: The table's colour is the median over this annulus.
    hold: Past the rim, face-likeness stays below a half for this share of a radius.
    tol: Rim points further than this many radii off the circle are left out.
    rms: The kept points' RMS distance from the circle, at most this many radii.
    min_rays: At least this many rays' points kept.
    min_contrast: The face differs from the table by at least this many of the table's
        noise sigmas (face-likeness: the face 1, the table 0).
    max_shift: The fitted centre lies within this many radii of the start.
    """

    rays: int = 17
    spread_deg: float = 80.0
    face: tuple[float, float] = (0.72, 0.9)
    table: tuple[float, float] = (1.5, 2.5)
    hold: float = 0.15
    tol: float = 0.1
    rms: float = 0.05
    min_rays: int = 9
    min_contrast: float = 8.0
    max_shift: float = 0.4


def _annulus(c: np.ndarray, r: float, lo: float, hi: float) -> np.ndarray:
    """Sample points (K, 2) over an annulus ``lo``-``hi`` radii around ``c``, about one a
    pixel."""
    rho = np.arange(lo * r, hi * r, 1.0)
    out = []
    for p in rho:
        n = max(8, int(2 * np.pi * p))
        a = np.linspace(0.0, 2 * np.pi, n, endpoint=False)
        out.append(c + p * np.c_[np.cos(a), np.sin(a)])
    return np.concatenate(out)


def face_likeness(channels: list[np.ndarray], pts: np.ndarray, table: np.ndarray,
                  face: np.ndarray) -> np.ndarray:
    """How much like the face each point's colour is, in chroma: 0 the table's, 1 the face's.

    Colours are read in logs relative to the table's and their mean over the channels (the
    brightness) taken out, so a shadow, the contact shade round a coin or the light's
    gradient (all channels alike) reads as the table.

    Args:
        channels: The top view's three channels ((H, W) each, any numeric type).
        pts: (..., 2) points, view pixels.
        table, face: (3,) colours (the channels' units).

    >>> ch = [np.full((4, 4), v, np.float32) for v in (99.0, 199.0, 49.0)]
    >>> ch[0][:, 2:] = 149.0
    >>> for c in ch:  # a shadow on the table
    ...     c[3:] = (c[3:] + 1.0) / 2.0 - 1.0
    >>> face_likeness(ch, np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 3.0]]),
    ...               np.array([99.0, 199.0, 49.0]), np.array([149.0, 199.0, 49.0])).round(2) + 0.0
    array([0., 1., 0.])
    """
    lt = np.log(np.asarray(table, float) + 1.0)
    d = np.log(np.asarray(face, float) + 1.0) - lt
    d -= d.mean()
    rel = np.log(np.stack([bilinear(ch, pts) for ch in channels], axis=-1) + 1.0) - lt
    rel -= rel.mean(axis=-1, keepdims=True)
    return rel @ d / max(float(d @ d), 1e-12)


def colour_rim_centre(channels: list[np.ndarray], start: np.ndarray, away: np.ndarray,
                      r: float, cfg: ColourRimConfig | None = None) -> np.ndarray:
    """The centre (2,) of a coin's top face near ``start`` (view pixels) from its far rim in
    colour, NaN where none is found.

    Args:
        channels: The top view's three channels (2-D each), real around ``start`` (2.5 radii).
        start: A rough centre (the centre net's peak, within a third of a radius).
        away: The unit vector away from the camera's nadir there (zero: all round).
        r: The coin's radius in view pixels.
    """
    cfg = cfg or ColourRimConfig()
    nan = np.full(2, np.nan)
    start = np.asarray(start, float)
    h, w = channels[0].shape
    reach = cfg.table[1] * r + 1
    if (start[0] - reach < 0 or start[1] - reach < 0 or start[0] + reach > w - 1
            or start[1] + reach > h - 1):
        return nan
    t_pts = _annulus(start, r, *cfg.table)
    table = np.median(np.stack([bilinear(ch, t_pts) for ch in channels], axis=-1), axis=0)
    face = np.median(np.stack([bilinear(ch, _annulus(start, r, *cfg.face))
                               for ch in channels], axis=-1), axis=0)
    if not np.any(np.abs(face - table) > 0):
        return nan
    # the table's noise in face-likeness units: from neighbouring samples' differences over
    # the table's annulus (a neighbour coin or a shadow there is no noise)
    s_table = face_likeness(channels, t_pts, table, face)
    sigma = 1.4826 / np.sqrt(2.0) * float(np.median(np.abs(np.diff(s_table))))
    if cfg.min_contrast * max(sigma, 1e-6) > 1.0:
        return nan
    dirs = ray_fan(np.asarray(away, float)[None], cfg.rays, cfg.spread_deg)[0]  # (rays, 2)
    step = 0.25
    rho = np.arange(0.6 * r, 1.5 * r, step)
    prof = face_likeness(channels, start + rho[None, :, None] * dirs[:, None], table, face)
    below = prof < 0.5
    n_hold = max(1, round(cfg.hold * r / step))
    # below a half from here on for ``hold``: a run of n_hold samples below
    run = np.ones_like(below)
    for k in range(n_hold):
        run[:, :len(rho) - k] &= below[:, k:]
        run[:, len(rho) - k:] = False
    run[:, 0] = False
    ok = run.any(axis=1)
    j = np.argmax(run, axis=1)
    ok &= rho[j] <= 1.35 * r
    rows = np.arange(cfg.rays)
    a, b = prof[rows, j - 1], prof[rows, j]
    ok &= a >= 0.5
    t = np.clip((a - 0.5) / np.maximum(a - b, 1e-6), 0.0, 1.0)
    at = rho[j - 1] + t * step
    e = (start + at[:, None] * dirs)[None]
    wgt = ok.astype(float)[None]
    if wgt.sum() < cfg.min_rays:
        return nan
    fitted = _fit_circles(e, wgt, start[None], r)
    for _ in range(2):
        miss = np.abs(np.hypot(*(e[0] - fitted[0]).T) - r)
        wgt = (ok & (miss <= cfg.tol * r)).astype(float)[None]
        if wgt.sum() < cfg.min_rays:
            return nan
        fitted = _fit_circles(e, wgt, fitted, r)
    miss = np.abs(np.hypot(*(e[0] - fitted[0]).T) - r)
    kept = wgt[0] > 0
    rms = float(np.sqrt(np.mean(miss[kept] ** 2)))
    if rms > cfg.rms * r or np.hypot(*(fitted[0] - start)) > cfg.max_shift * r:
        return nan
    return fitted[0]


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
