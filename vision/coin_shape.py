"""Is a pale blob's outline a coin's: a circle, all along its far side?

A coin's top face is a disc: along rays from its centre over the side away from the camera
(where its wall hides behind the face) its edge lies on a circle. A die's top is a square
(its edge from its centre runs from half its side to 1.41 times that), a pencil's end, a
card's corner or a lit patch of grain end on no circle. The edge along each ray is where the
level falls halfway from the face's to the table's (as :func:`vision.coins.far_edge_centres`
finds it); a ray that meets no edge there (a touching neighbour in a worm) is left out, and
the quarter of the edge's points farthest from the circle fitted to them all (a neighbour's
junction, a notch of shadow) too. The figure is how far the rest lie from their own circle.
It is judged only where it means something: on a plain table round the disc (a check or a
cloth's pattern moves the halfway crossing) round a face that stands out from it. A coin's
circle has its radius too: a pencil's round end is smaller. Only smaller: a camera shaken while
it took the frame smears the rim along the shake, and the halfway crossing (halfway from the
face's median, which its ink darkens, to the table) then lies out beyond the rim where the
smear runs along the ray, so a coin's edge reads as a larger circle, never a smaller one.

>>> yy, xx = np.mgrid[0:80, 0:80].astype(np.float32)
>>> disc = np.where(np.hypot(xx - 40, yy - 40) <= 15, 2.0, 1.0).astype(np.float32)
>>> square = np.where((np.abs(xx - 41) <= 12) & (np.abs(yy - 40) <= 12), 2.0, 1.0)
>>> square = square.astype(np.float32)
>>> c, away = np.array([[40.0, 40.0]]), np.array([[1.0, 0.0]])
>>> bool(outline_circle(disc, c, away, 15.0)[0][0] < 0.02)
True
>>> bool(not_round(disc, c, away, 15.0)[0]), bool(not_round(square, c, away, 15.0)[0])
(False, True)
"""

from __future__ import annotations

import numpy as np

from vision.sampling import bilinear, ray_fan

RAYS = 25
"""Rays over a coin's far side (half of them must meet its edge to judge it)."""

EDGE_FROM = 0.8
"""The edge is looked for from this share of the radius out (a symbol reaches 0.6 of it)."""

ROUND_OFF = 0.02
"""A coin's far edge lies within this share of its radius of a circle (root mean square; on
renders 55,000-55,022 coins measure 0.001-0.010 where judged, dice 0.034-0.10)..."""

SIZE_SHARE = 0.1
"""...of its own radius or more, less at most this share (coins there 0.97-1.04; a pencil's end
0.8). A larger circle is no sign of another thing: on dark tables' renders 510000-514999 the
coins of frames blurred by a shake of 2.0-8.7 px fitted circles of 0.96-1.25 radii (off their
circles by 0.001-0.020), sharp frames' 0.95-1.07; the dice's tops beside
them 0.90-1.08, all of them off their circles by 0.043-0.054."""

LARGEST = 2.0
"""...and at most this many times its radius: an edge fitting a larger circle is nearly straight
over the coin's far half (a card's or a page's side), no disc smeared by a shake (the blurred
coins of renders 510000-514999 at most 1.51)."""

PLAIN = 0.3
"""Only on a table this plain round the disc (:func:`edge_distances`' ``busy``)..."""

CONTRAST = 0.5
"""...where the face stands out from it by this share of its level (a faint coin's halfway
crossing wanders with the table's noise)."""


def edge_distances(level: np.ndarray, centres: np.ndarray, away: np.ndarray, r: float,
                   table_level: float = 1.0, rays: int = RAYS, spread_deg: float = 90.0
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """How far from each centre its edge lies along rays fanned over its far side, how
    plain the table is beyond it, and how far the face stands out from the table.

    Args:
        level: Brightness (float), the table at ``table_level``.
        centres: (N, 2) top faces' centres, view pixels.
        away: (N, 2) unit vectors away from the camera's nadir (zero: all round).
        r: The coin's radius in pixels.

    Returns:
        ``(distances, busy, contrast)``: (N, rays) distances in pixels, NaN along a ray
        that meets no edge (from :data:`EDGE_FROM` to 1.7 radii the level stays above
        halfway from the face to the table); (N,) the median distance of the level from the
        table's over 1.35-1.65 radii, as a share of the face's contrast (a plain table: near
        0; a check, a cloth's pattern, neighbours all round: more); (N,) the face's level
        (its median over 0.45-0.75 radii) less the table's, as a share of the table's.
    """
    centres = np.asarray(centres, float).reshape(-1, 2)
    away = np.asarray(away, float).reshape(-1, 2)
    n = len(centres)
    if n == 0:
        return np.zeros((0, rays)), np.zeros(0), np.zeros(0)
    dirs = ray_fan(away, rays, spread_deg)  # (N, rays, 2)
    rho = np.arange(0.45 * r, 1.7 * r, 0.25)
    pts = centres[:, None, None] + rho[None, None, :, None] * dirs[:, :, None]
    prof = bilinear(level, pts)  # (N, rays, samples)
    inside = prof[:, :, rho < 0.75 * r].reshape(n, -1)
    body = np.median(inside, axis=1) if inside.shape[1] else np.full(n, table_level)
    mid = (body + table_level) / 2.0
    below = (prof < mid[:, None, None]) & (rho > EDGE_FROM * r)[None, None, :]
    j = np.argmax(below, axis=2)
    ok = np.take_along_axis(below, j[..., None], axis=2)[..., 0] & (j > 0)
    jm = np.maximum(j - 1, 0)
    a = np.take_along_axis(prof, jm[..., None], axis=2)[..., 0]
    b = np.take_along_axis(prof, j[..., None], axis=2)[..., 0]
    t = np.clip((a - mid[:, None]) / np.maximum(a - b, 1e-6), 0.0, 1.0)
    edge = rho[jm] + t * (rho[j] - rho[jm])
    contrast = body - table_level
    ok &= contrast[:, None] > 0  # a face brighter than the table: its edge means one
    ring = prof[:, :, (rho >= 1.35 * r) & (rho <= 1.65 * r)].reshape(n, -1)
    busy = np.median(np.abs(ring - table_level), axis=1) / np.maximum(contrast, 1e-6)
    return (np.where(ok, edge, np.nan), np.where(contrast > 0, busy, np.inf),
            contrast / max(table_level, 1e-6))


def outline_circle(level: np.ndarray, centres: np.ndarray, away: np.ndarray, r: float,
                   table_level: float = 1.0, rays: int = RAYS
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """How far each disc's far edge is from a circle: a circle (any radius) fitted to the
    three quarters of the edge's points over the far side nearest the coin's own circle where
    it was placed, then twice more to those nearest the last fit (a neighbour's rim, a notch
    of shadow left out).

    Returns:
        ``(off, radius, busy, contrast)``, (N,) each: the root mean square distance of those
        points from the circle and its radius, as shares of ``r`` (NaN where fewer than half
        the rays meet an edge); ``busy`` and ``contrast`` as :func:`edge_distances`.
    """
    d, busy, contrast = edge_distances(level, centres, away, r, table_level, rays)
    th = np.radians(np.linspace(-90.0, 90.0, rays))  # as ray_fan lays them
    off = np.full(len(d), np.nan)
    rad = np.full(len(d), np.nan)
    m = np.isfinite(d)
    rows = np.flatnonzero(m.sum(axis=1) >= rays // 2)
    if not len(rows):
        return off, rad, busy, contrast
    m = m[rows]
    dd = np.where(m, d[rows], 0.0)
    x, y = dd * np.cos(th), dd * np.sin(th)
    n = len(rows)
    cx, cy, rr = np.zeros(n), np.zeros(n), np.full(n, float(r))  # each coin's own circle
    for _ in range(3):  # each time from the three quarters nearest the last circle
        res = np.abs(np.hypot(x - cx[:, None], y - cy[:, None]) - rr[:, None])
        cut = _row_quantile(np.where(m, res, np.nan), 0.75)
        keep = m & (res <= cut[:, None])
        cx, cy, rr = _circles(x, y, keep)
    res = np.hypot(x - cx[:, None], y - cy[:, None]) - rr[:, None]
    k = keep.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        off[rows] = np.sqrt(np.where(keep, res * res, 0.0).sum(axis=1) / k) / r
    rad[rows] = rr / r
    return off, rad, busy, contrast


def _row_quantile(v: np.ndarray, q: float) -> np.ndarray:
    """Each row's ``q`` quantile of its values that are not NaN (as ``np.percentile``'s
    linear interpolation; every row has one at least)."""
    srt = np.sort(v, axis=1)  # NaN last
    pos = q * (np.isfinite(v).sum(axis=1) - 1)
    lo = np.floor(pos).astype(int)
    hi = np.minimum(lo + 1, v.shape[1] - 1)
    a = np.take_along_axis(srt, lo[:, None], axis=1)[:, 0]
    b = np.take_along_axis(srt, hi[:, None], axis=1)[:, 0]
    frac = pos - lo
    return np.where(frac > 0, a + (b - a) * frac, a)


def _circles(x: np.ndarray, y: np.ndarray, keep: np.ndarray
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Centre and radius of the circle through each row's points (``x``, ``y`` (N, K)) where
    ``keep``, least squares (algebraic), all rows at once (NaN where a row's points fix no
    circle)."""
    w = keep.astype(float)
    a = np.stack([2.0 * x, 2.0 * y, np.ones_like(x)], axis=2) * w[..., None]
    ata = np.einsum("nki,nkj->nij", a, a)
    atb = np.einsum("nki,nk->ni", a, (x * x + y * y) * w)
    ok = np.abs(np.linalg.det(ata)) > 1e-12 * np.maximum(
        np.abs(ata).max(axis=(1, 2)) ** 3, 1e-300)
    sol = np.full((len(x), 3), np.nan)
    if ok.any():
        sol[ok] = np.linalg.solve(ata[ok], atb[ok][..., None])[..., 0]
    cx, cy, c = sol.T
    return cx, cy, np.sqrt(np.maximum(c + cx * cx + cy * cy, 0.0))


def not_round(level: np.ndarray, centres: np.ndarray, away: np.ndarray, r: float,
              table_level: float = 1.0) -> np.ndarray:
    """Whether each disc is surely no coin, bool (N,): on a plain table (``busy`` at most
    :data:`PLAIN`) with its face standing out (``contrast`` at least :data:`CONTRAST`), its
    far edge is no circle (off it by more than :data:`ROUND_OFF`), a circle smaller than the
    coin's (:data:`SIZE_SHARE`; a larger one is its rim smeared by a shaken camera) or a
    nearly straight edge (:data:`LARGEST`).
    Where the edge cannot be measured (too few rays meet it, a patterned table, a faint
    face) it is not judged."""
    off, rad, busy, contrast = outline_circle(level, centres, away, r, table_level)
    judged = (busy <= PLAIN) & (contrast >= CONTRAST) & np.isfinite(off)
    return judged & ((off > ROUND_OFF) | (rad < 1.0 - SIZE_SHARE) | (rad > LARGEST))
