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

from vision.detections import Detections
from vision.prepare import Prepared
from vision.suits import classify_ink, symbol_colour


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
    suit_inks: tuple[tuple[str, tuple[int, int, int]], ...] = (
        ("suns", (213, 94, 0)), ("moons", (0, 0, 0)), ("crowns", (0, 158, 115)),
        ("arms", (0, 114, 178)))


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
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    offsets = _disc_offsets(r)
    inner = _disc_offsets(0.8 * r)
    inks = dict(cfg.suit_inks)
    centres, suits, confs = [], [], []
    pad = 2
    h, w = mask.shape
    for i in range(1, n):
        x0, y0, bw, bh, area = stats[i]
        if area < 0.5 * math.pi * r * r or min(bw, bh) < 1.2 * r:
            continue
        if area > 60 * math.pi * r * r:  # far too big for a group of coins (a hand, a sheet)
            continue
        xa, ya = max(0, x0 - pad), max(0, y0 - pad)
        xb, yb = min(w, x0 + bw + pad), min(h, y0 + bh + pad)
        blob = np.where(labels[ya:yb, xa:xb] == i, 255, 0).astype(np.uint8)
        dt = cv2.distanceTransform(blob, cv2.DIST_L2, 5)
        for px, py in _peaks(dt, cfg.min_peak * r, cfg.max_peak * r, 1.4 * r):
            cx, cy, fill = _mean_shift(blob, (px, py), offsets)
            if fill < cfg.min_fill:
                continue
            centres.append((cx + xa, cy + ya))
    if not centres:
        return Detections.empty()
    seen_mm = prep.view.to_mm(np.array(centres))
    foot_mm = prep.view.camera.foot_of(seen_mm, cfg.seen_height * cfg.thickness_mm)
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
