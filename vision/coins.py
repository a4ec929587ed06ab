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


def _fit_circle(e: np.ndarray, c: np.ndarray, r: float, free_radius: bool) -> np.ndarray:
    """Least-squares circle centre through points (Gauss-Newton), radius fixed or free."""
    rr = r
    for _ in range(10):
        d = e - c
        n = np.maximum(np.linalg.norm(d, axis=1), 1e-9)
        res = n - rr
        J = -d / n[:, None]
        if free_radius:
            J = np.c_[J, -np.ones(len(n))]
        try:  # the normal equations (2 or 3 unknowns): far cheaper than lstsq
            step = np.linalg.solve(J.T @ J, -(J.T @ res))
        except np.linalg.LinAlgError:
            step, *_ = np.linalg.lstsq(J, -res, rcond=None)
        c = c + step[:2]
        if free_radius:
            rr = float(np.clip(rr + step[2], 0.8 * r, 1.2 * r))
        if float(np.hypot(step[0], step[1])) < 1e-3:
            break
    return c


def far_edge_centre(level: np.ndarray, centre: np.ndarray, away: np.ndarray, r: float,
                    table_level: float, rays: int = 17, spread_deg: float = 80.0,
                    free_radius: bool = False) -> np.ndarray | None:
    """The centre of a disc's top face from the far half of its outline, subpixel.

    Seen from a tilted camera, a raised disc's outline on the side away from the camera's
    nadir is its top face's edge (the side wall hides behind it), while the near side shows
    the wall. Along rays fanning out over the far side, the edge is where the brightness
    falls halfway from the face to the table; a circle of the disc's radius is fitted to
    those points. Rays that meet no edge (a touching neighbour) are left out.

    Returns:
        The centre (x, y) in view pixels, or None when too few edge points were found.
    """
    base = math.atan2(away[1], away[0])
    angs = base + np.radians(np.linspace(-spread_deg, spread_deg, rays))
    dirs = np.c_[np.cos(angs), np.sin(angs)]
    rho = np.arange(0.45 * r, 1.6 * r, 0.25)
    pts = centre[None, None] + rho[None, :, None] * dirs[:, None]
    prof = bilinear(level, pts)  # (rays, samples)
    inside = prof[:, rho < 0.75 * r]
    body = float(np.median(inside)) if inside.size else table_level
    if body - table_level < 0.04 * table_level:
        return None
    mid = (body + table_level) / 2.0
    # along each ray, the first sample past 0.6 r below halfway (all rays at once)
    below = (prof < mid) & (rho > 0.6 * r)[None, :]
    j = np.argmax(below, axis=1)
    ok = below[np.arange(rays), j] & (j > 0)
    ok &= rho[j] <= 1.35 * r
    if int(ok.sum()) < rays // 2:
        return None
    k, j = np.nonzero(ok)[0], j[ok]
    a, b = prof[k, j - 1], prof[k, j]
    t = (a - mid) / np.maximum(a - b, 1e-6)
    e = centre + (rho[j - 1] + t * (rho[j] - rho[j - 1]))[:, None] * dirs[k]
    c = _fit_circle(e, centre.astype(float), r, free_radius)
    if float(np.hypot(*(c - centre))) > 0.4 * r:
        return None
    return c


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
    top_px = []
    for c, u in zip(centres, away, strict=True):
        c = np.array(c, float)
        fine = far_edge_centre(prep.shade, c, u if np.any(u) else np.array([1.0, 0.0]), r,
                               1.0, spread_deg=80.0 if np.any(u) else 180.0)
        top_px.append(c if fine is None else fine)
    seen_mm = prep.view.to_mm(np.array(top_px))
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
