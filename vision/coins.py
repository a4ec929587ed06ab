"""Coins: pale discs of a known radius, split where they touch, with the suit of their symbol.

Touching coins (a worm) merge into one blob of the bright mask; the distance transform of that
blob peaks once per coin, at about one radius, so its peaks are the coins. Each centre is then
refined to a fraction of a pixel by mean shift of the blob within a disc of the coin's radius
(a neighbour only touches that disc at a point), and moved from where the coin is seen to where
it stands (its top is ``thickness`` above the table).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.blobs import blobs
from vision.detections import Detections
from vision.prepare import Prepared
from vision.sampling import bilinear
from vision.suits import DEFAULT_SUIT_INKS, classify_ink, symbol_colour


@dataclass(frozen=True)
class CoinConfig:
    """Attributes:
    radius_mm: The coin's radius.
    thickness_mm: The coin's thickness.
    seen_height: Where in the coin's height its seen outline centres (0 base, 1 top face).
    min_peak: A coin's distance-transform peak is at least this share of its radius...
    max_peak: ...and at most this share (bigger blobs are not coins).
    min_fill: Share of the coin's disc the blob must fill.
    suit_inks: Suit name -> 8-bit RGB of its ink.
    """

    radius_mm: float = 9.525
    thickness_mm: float = 3.175
    seen_height: float = 1.0
    min_peak: float = 0.6
    max_peak: float = 1.3
    min_fill: float = 0.8
    suit_inks: tuple[tuple[str, tuple[int, int, int]], ...] = DEFAULT_SUIT_INKS


def _disc_offsets(radius_px: float) -> np.ndarray:
    k = math.ceil(radius_px)
    yy, xx = np.mgrid[-k:k + 1, -k:k + 1]
    keep = xx * xx + yy * yy <= radius_px * radius_px
    return np.c_[xx[keep], yy[keep]]


def _peaks(dt: np.ndarray, lo: float, hi: float, min_dist: float) -> list[tuple[float, float]]:
    """Local maxima of a distance transform with values in [lo, hi], at least min_dist apart."""
    k = max(3, int(min_dist) | 1)
    dil = cv2.dilate(dt, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    ys, xs = np.nonzero((dt >= dil - 1e-4) & (dt >= lo) & (dt <= hi))
    order = np.argsort(-dt[ys, xs])
    kept: list[tuple[float, float]] = []
    for i in order:
        p = (float(xs[i]), float(ys[i]))
        if all((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 >= min_dist ** 2 for q in kept):
            kept.append(p)
    return kept


def _mean_shift(mask: np.ndarray, start: tuple[float, float], offsets: np.ndarray,
                iterations: int = 6) -> tuple[float, float, float]:
    """Centre of the mask within a disc, iterated; returns (x, y, fill share)."""
    h, w = mask.shape
    x, y = start
    fill = 0.0
    for _ in range(iterations):
        px = np.round(x + offsets[:, 0]).astype(int)
        py = np.round(y + offsets[:, 1]).astype(int)
        ok = (px >= 0) & (px < w) & (py >= 0) & (py < h)
        on = np.zeros(len(offsets), bool)
        on[ok] = mask[py[ok], px[ok]] > 0
        fill = float(on.mean())
        if not on.any():
            break
        nx = float(np.mean(px[on]))
        ny = float(np.mean(py[on]))
        if abs(nx - x) < 0.01 and abs(ny - y) < 0.01:
            x, y = nx, ny
            break
        x, y = nx, ny
    return x, y, fill


def _fit_circles(e: np.ndarray, w: np.ndarray, c: np.ndarray, r: float) -> np.ndarray:
    """Least-squares circle centres of a known radius through weighted points (Gauss-Newton).

    Args:
        e: (N, K, 2) points of each circle.
        w: (N, K) weights (0 leaves a point out).
        c: (N, 2) starting centres.
    """
    c = c.astype(float).copy()
    active = np.ones(len(c), bool)
    for _ in range(10):
        dx, dy = e[..., 0] - c[:, None, 0], e[..., 1] - c[:, None, 1]
        n = np.maximum(np.hypot(dx, dy), 1e-9)
        res = (n - r) * w
        jx, jy = -dx / n * w, -dy / n * w  # the Jacobian, weighted
        # the normal equations (2 unknowns a circle), solved in closed form
        a00, a01, a11 = (jx * jx).sum(axis=1), (jx * jy).sum(axis=1), (jy * jy).sum(axis=1)
        b0, b1 = -(jx * res).sum(axis=1), -(jy * res).sum(axis=1)
        det = a00 * a11 - a01 * a01
        ok = active & (np.abs(det) >= 1e-12)
        det = np.where(ok, det, 1.0)
        sx = np.where(ok, (a11 * b0 - a01 * b1) / det, 0.0)
        sy = np.where(ok, (a00 * b1 - a01 * b0) / det, 0.0)
        c[:, 0] += sx
        c[:, 1] += sy
        active &= np.hypot(sx, sy) >= 1e-3
        if not active.any():
            break
    return c


def far_edge_centres(level: np.ndarray, centres: np.ndarray, away: np.ndarray, r: float,
                     table_level: float, rays: int = 17, spread_deg: float = 80.0
                     ) -> np.ndarray:
    """The centres of discs' top faces from the far half of their outlines, subpixel.

    Seen from a tilted camera, a raised disc's outline on the side away from the camera's
    nadir is its top face's edge (the side wall hides behind it), while the near side shows
    the wall. Along rays fanning out over the far side, the edge is where the brightness
    falls halfway from the face to the table; a circle of the disc's radius is fitted to
    those points. Rays that meet no edge (a touching neighbour) are left out. A disc with no
    way ``away`` (zero: straight below the camera) is looked at all round. Every disc is
    measured at once.

    Args:
        level: Brightness (float), the table at ``table_level``.
        centres: (N, 2) rough centres in view pixels.
        away: (N, 2) unit vectors away from the camera's nadir (or zero).

    Returns:
        (N, 2) centres; NaN where too few edge points were found.
    """
    centres = np.asarray(centres, float).reshape(-1, 2)
    away = np.asarray(away, float).reshape(-1, 2)
    n = len(centres)
    if n == 0:
        return np.zeros((0, 2))
    none = ~np.any(away != 0, axis=1)
    base = np.where(none, 0.0, np.arctan2(away[:, 1], away[:, 0]))
    spread = np.where(none, 180.0, spread_deg)
    angs = base[:, None] + np.radians(spread[:, None] * np.linspace(-1.0, 1.0, rays)[None])
    dirs = np.stack([np.cos(angs), np.sin(angs)], axis=-1)  # (N, rays, 2)
    rho = np.arange(0.45 * r, 1.6 * r, 0.25)
    pts = centres[:, None, None] + rho[None, None, :, None] * dirs[:, :, None]
    prof = bilinear(level, pts)  # (N, rays, samples)
    inside = prof[:, :, rho < 0.75 * r].reshape(n, -1)
    body = np.median(inside, axis=1) if inside.shape[1] else np.full(n, table_level)
    mid = (body + table_level) / 2.0
    # along each ray, the first sample past 0.6 r below halfway
    below = (prof < mid[:, None, None]) & (rho > 0.6 * r)[None, None, :]
    j = np.argmax(below, axis=2)  # (N, rays)
    ok = np.take_along_axis(below, j[..., None], axis=2)[..., 0] & (j > 0)
    ok &= rho[j] <= 1.35 * r
    jm = np.maximum(j - 1, 0)
    a = np.take_along_axis(prof, jm[..., None], axis=2)[..., 0]
    b = np.take_along_axis(prof, j[..., None], axis=2)[..., 0]
    t = (a - mid[:, None]) / np.maximum(a - b, 1e-6)
    e = centres[:, None] + (rho[jm] + t * (rho[j] - rho[jm]))[..., None] * dirs
    e = np.where(ok[..., None], e, centres[:, None])
    fitted = _fit_circles(e, ok.astype(float), centres, r)
    good = (body - table_level >= 0.04 * table_level) & (ok.sum(axis=1) >= rays // 2)
    good &= np.hypot(*(fitted - centres).T) <= 0.4 * r
    return np.where(good[:, None], fitted, np.nan)


def detect_coins(cfg: CoinConfig, prep: Prepared, exclude: np.ndarray | None = None
                 ) -> Detections:
    """Finds the coins in a prepared frame.

    Args:
        cfg: Coin sizes and thresholds.
        prep: The prepared frame.
        exclude: uint8 (H, W) mask of places already explained (tiles), or None.

    Returns:
        One row per coin: centre (foot) and seen centre in mm, suit and confidence.
    """
    s = prep.view.px_per_mm
    r = cfg.radius_mm * s
    mask = prep.bright if exclude is None else cv2.bitwise_and(prep.bright,
                                                               cv2.bitwise_not(exclude))
    offsets = _disc_offsets(r)
    inner = _disc_offsets(0.8 * r)
    inks = dict(cfg.suit_inks)
    centres, suits, confs = [], [], []
    h, w = mask.shape
    min_area = 0.5 * math.pi * r * r
    for found in blobs(mask, math.floor(min_area)):
        if found.area < min_area or min(found.w, found.h) < 1.2 * r:
            continue
        if found.area > 60 * math.pi * r * r:  # far too big for coins (a hand, a sheet)
            continue
        blob, xa, ya = found.mask(pad=2)
        dt = cv2.distanceTransform(blob, cv2.DIST_L2, 5)
        for px, py in _peaks(dt, cfg.min_peak * r, cfg.max_peak * r, 1.4 * r):
            cx, cy, fill = _mean_shift(blob, (px, py), offsets)
            if fill < cfg.min_fill:
                continue
            centres.append((cx + xa, cy + ya))
    if not centres:
        return Detections.empty()
    cam = prep.view.camera
    rough_mm = prep.view.to_mm(np.array(centres))
    away = cam.outward(rough_mm)
    if prep.view.flip_y:
        away[:, 1] = -away[:, 1]
    rough_px = np.array(centres, float)
    fine = far_edge_centres(prep.shade, rough_px, away, r, 1.0)
    top_px = np.where(np.isnan(fine), rough_px, fine)
    seen_mm = prep.view.to_mm(top_px)
    foot_mm = cam.foot_of(seen_mm, cfg.thickness_mm)
    centres = [tuple(c) for c in top_px]
    for cx, cy in centres:
        ix, iy = round(cx), round(cy)
        k = math.ceil(r) + 1
        ya, yb, xa, xb = max(0, iy - k), min(h, iy + k + 1), max(0, ix - k), min(w, ix + k + 1)
        patch = prep.top[ya:yb, xa:xb]
        region = np.zeros(patch.shape[:2], bool)
        ox, oy = inner[:, 0] + ix - xa, inner[:, 1] + iy - ya
        ok = (ox >= 0) & (ox < patch.shape[1]) & (oy >= 0) & (oy < patch.shape[0])
        region[oy[ok], ox[ok]] = True
        rel, _ = symbol_colour(patch, region)
        suit, conf = (None, 0.0) if rel is None else classify_ink(rel, inks)
        suits.append(suit)
        confs.append(conf)
    return Detections.of(foot_mm, ["coin"] * len(centres), confidence=confs, seen_mm=seen_mm,
                         suit=suits)
