"""Worm Up! segments found by their outline, not by their colour against the table.

Where a segment lies on a table of its own colour (a red dome on a red felt or a red gingham),
its colour hardly differs from the table's, so the colour mask (:mod:`vision.segment_mask`)
holds the dome together with the table's checks and its own shadow, and the discs cut from
that mask's blobs miss it. Its outline still shows: a half-sphere lit from anywhere has a rim
darker or lighter than the table beyond it, and where two touch, a crease. Each edge pixel
(Canny on the view's three channels) votes for the centres a disc of the segment's known
radius through it would have, one radius along its gradient both ways (a dome brighter or
darker than the table); a segment's centre gathers votes from all round its outline, while a
cloth's straight check edges spread theirs along lines. Peaks holding a good share of a full
circle's votes are candidates, each centre fitted to its own outline's edge points at the
known radius (:func:`vision.segments.refine_centres`); the judge decides which are segments.
Only pixels of a segment's colour in the frame itself (saturated, whatever the table's colour)
are searched.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class DomeConfig:
    """Attributes:
    canny_low: Canny's lower gradient threshold (grey levels, on the view's channels).
    canny_high: Canny's upper gradient threshold.
    min_votes: Least share of a full circle's outline (2 pi r edge pixels) voting for a centre.
    min_coloured: Least share of the disc round a centre that is of a segment's colour in the
        frame itself (saturated).
    blur_px: Sigma of the Gaussian blur (view pixels) the view is smoothed by before its
        edges are found (a dim room's noise).
    """

    canny_low: float = 20.0
    canny_high: float = 45.0
    min_votes: float = 0.3
    min_coloured: float = 0.6
    blur_px: float = 1.0


def circle_votes(edges: np.ndarray, gx: np.ndarray, gy: np.ndarray, r: float,
                 edge_px: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """float32 (H, W): for each pixel, the number of edge pixels (``edges`` > 0) one radius
    ``r`` away along their gradient (``gx``, ``gy``: images (H, W), or (N,) at the edge pixels
    in ``np.nonzero`` order), either way, over a 3x3 neighbourhood (``edge_px``: the edge
    pixels' ``np.nonzero(edges)``, when already made).

    >>> img = np.zeros((60, 60), np.uint8); _ = cv2.circle(img, (30, 30), 12, 255, -1)
    >>> e = cv2.Canny(img, 50, 100)
    >>> gx = cv2.Sobel(img, cv2.CV_32F, 1, 0); gy = cv2.Sobel(img, cv2.CV_32F, 0, 1)
    >>> v = circle_votes(e, gx, gy, 12.0)
    >>> y, x = np.unravel_index(int(np.argmax(v)), v.shape)
    >>> (int(x), int(y)), bool(v[y, x] > 0.6 * 2 * np.pi * 12)
    ((30, 30), True)
    """
    h, w = edges.shape
    ys, xs = np.nonzero(edges) if edge_px is None else edge_px
    acc = np.zeros((h, w), np.float32)
    if not len(ys):
        return acc
    if gx.shape == edges.shape:
        gx, gy = gx[ys, xs], gy[ys, xs]
    dx, dy = gx.astype(np.float64), gy.astype(np.float64)
    n = np.maximum(np.hypot(dx, dy), 1e-6)
    ux, uy = dx / n, dy / n
    cx = np.round(np.concatenate([xs + r * ux, xs - r * ux])).astype(np.int64)
    cy = np.round(np.concatenate([ys + r * uy, ys - r * uy])).astype(np.int64)
    ok = (cx >= 0) & (cx < w) & (cy >= 0) & (cy < h)
    at = cy[ok] * w + cx[ok]
    if len(at):  # counted over the rows voted for alone
        lo, hi = int(at.min()) // w * w, (int(at.max()) // w + 1) * w
        acc.ravel()[lo:hi] = np.bincount(at - lo, minlength=hi - lo)
    return cv2.boxFilter(acc, -1, (3, 3), normalize=False)


def channel_gradients(bgr: np.ndarray, ys: np.ndarray, xs: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
    """float32 (N,) x and y gradients (3x3 Sobel, the border reflected as OpenCV's) at pixels
    (``ys``, ``xs``) of the channel whose gradient is strongest there (the one Canny uses on a
    colour image), computed at those pixels alone.

    >>> img = np.zeros((9, 9, 3), np.uint8); img[:, 5:, 2] = 200; img[5:, :, 0] = 50
    >>> [v.round().tolist() for v in channel_gradients(img, np.array([2]), np.array([5]))]
    [[800.0], [0.0]]
    >>> rng = np.random.default_rng(0); img = rng.integers(0, 256, (7, 8, 3), dtype=np.uint8)
    >>> ys, xs = np.nonzero(np.ones((7, 8), bool)); gx, gy = channel_gradients(img, ys, xs)
    >>> sx = np.stack([cv2.Sobel(img[..., k], cv2.CV_32F, 1, 0) for k in range(3)], -1)[ys, xs]
    >>> sy = np.stack([cv2.Sobel(img[..., k], cv2.CV_32F, 0, 1) for k in range(3)], -1)[ys, xs]
    >>> k = np.argmax(np.abs(sx) + np.abs(sy), axis=1); i = np.arange(len(ys))
    >>> bool(np.array_equal(gx, sx[i, k]) and np.array_equal(gy, sy[i, k]))
    True
    """
    h, w = bgr.shape[:2]
    # the neighbours' rows and columns, reflected at the border as OpenCV's default (101)
    ym = np.where(ys > 0, ys - 1, min(1, h - 1))
    yp = np.where(ys < h - 1, ys + 1, max(h - 2, 0))
    xm = np.where(xs > 0, xs - 1, min(1, w - 1))
    xp = np.where(xs < w - 1, xs + 1, max(w - 2, 0))

    flat = bgr.reshape(h * w, -1)

    def at(y: np.ndarray, x: np.ndarray) -> np.ndarray:  # (N, 3), whole numbers
        return np.take(flat, y * w + x, axis=0).astype(np.int16)

    # the eight neighbours gathered once each; the sums are whole numbers (the same values in
    # 16-bit integers as in float32)
    mm, mc, mp = at(ym, xm), at(ym, xs), at(ym, xp)
    cm, cp = at(ys, xm), at(ys, xp)
    pm, pc, pp = at(yp, xm), at(yp, xs), at(yp, xp)
    gxs = ((mp - mm) + 2 * (cp - cm) + (pp - pm)).astype(np.float32)
    gys = ((pm - mm) + 2 * (pc - mc) + (pp - mp)).astype(np.float32)
    best = np.argmax(np.abs(gxs) + np.abs(gys), axis=1)
    i = np.arange(len(ys))
    return gxs[i, best], gys[i, best]


def apart_peaks(votes: np.ndarray, ok: np.ndarray, min_apart: float) -> np.ndarray:
    """(N, 2) pixels (x, y) of the peaks of ``votes`` (float32 (H, W)) where ``ok`` (bool
    (H, W)), best first, each at least ``min_apart`` from every better one kept: the local
    maxima (3x3, among the pixels ``ok``) taken greedily, the nearby kept ones looked up in a
    grid of cells ``min_apart`` wide (not against every one kept).

    >>> v = np.zeros((30, 60), np.float32); v[10, 10] = 5; v[10, 14] = 4; v[20, 40] = 3
    >>> apart_peaks(v, v > 0, 6.0).tolist()
    [[10.0, 10.0], [40.0, 20.0]]
    """
    held = np.where(ok, votes, 0).astype(np.float32)  # the maxima among the pixels ok
    ys, xs = np.nonzero(ok & (held >= cv2.dilate(held, np.ones((3, 3), np.uint8))))
    order = np.argsort(-votes[ys, xs], kind="stable")
    grid: dict[tuple[int, int], list[tuple[float, float]]] = {}
    chosen: list[tuple[float, float]] = []
    for i in order:
        x, y = float(xs[i]), float(ys[i])
        gx, gy = int(x // min_apart), int(y // min_apart)
        if all(math.hypot(x - qx, y - qy) >= min_apart
               for cx in (gx - 1, gx, gx + 1) for cy in (gy - 1, gy, gy + 1)
               for qx, qy in grid.get((cx, cy), ())):
            chosen.append((x, y))
            grid.setdefault((gx, gy), []).append((x, y))
    return np.array(chosen, float).reshape(-1, 2)


def near_rims(shape: tuple[int, int], centres: np.ndarray, r: float, reach: float
              ) -> np.ndarray:
    """bool (H, W): pixels less than ``reach`` from the rim (radius ``r``) of a circle round one
    of ``centres`` (N, 2, (x, y)).

    >>> m = near_rims((20, 20), np.array([[10.0, 10.0]]), 5.0, 1.0)
    >>> bool(m[10, 15]), bool(m[10, 10]), bool(m[10, 17])
    (True, False, False)
    """
    h, w = shape
    out = np.zeros((h, w), bool)
    span = math.ceil(r + reach)
    for cx, cy in centres:
        x0, x1 = max(0, math.floor(cx) - span), min(w, math.ceil(cx) + span + 1)
        y0, y1 = max(0, math.floor(cy) - span), min(h, math.ceil(cy) + span + 1)
        if x0 >= x1 or y0 >= y1:
            continue
        yy, xx = np.mgrid[y0:y1, x0:x1]
        out[y0:y1, x0:x1] |= np.abs(np.hypot(xx - cx, yy - cy) - r) < reach
    return out


def dome_centres(cfg: DomeConfig, bgr: np.ndarray, coloured: np.ndarray, r: float
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The centres (N, 2, view pixels) of circles of radius ``r`` whose outline shows in
    ``bgr`` (uint8 (H, W, 3), the view) and whose disc is mostly ``coloured`` (uint8 (H, W),
    of a segment's colour in the frame itself), and the edge points (M, 2) near them (for
    the centres' fit)."""
    if r < 3 or not np.any(coloured):
        return np.zeros((0, 2)), np.zeros((0, 2))
    x, y, w, h = cv2.boundingRect(coloured)  # only round the coloured pixels
    pad = round(1.5 * r) + 3
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(coloured.shape[1], x + w + pad), min(coloured.shape[0], y + h + pad)
    if (x0, y0, x1, y1) != (0, 0, coloured.shape[1], coloured.shape[0]):
        cs, pts = dome_centres(cfg, bgr[y0:y1, x0:x1], coloured[y0:y1, x0:x1], r)
        shift = np.array([x0, y0], float)
        return cs + shift, pts + shift
    own = (coloured > 0).astype(np.uint8)
    col = own.astype(np.float32)
    # within the box's reach of a coloured pixel (a box filter's mean over 0 / 1 is over 0
    # exactly there, its reflected border bringing no pixel the box does not hold: a dilation)
    k = 2 * round(1.3 * r) + 1
    near = cv2.dilate(own, np.ones((k, k), np.uint8))
    if cfg.blur_px > 0:
        bgr = cv2.GaussianBlur(bgr, (0, 0), cfg.blur_px)
    edges = cv2.Canny(bgr, cfg.canny_low, cfg.canny_high)
    edges *= near
    ey, ex = np.nonzero(edges)
    gx, gy = channel_gradients(bgr, ey, ex)
    votes = circle_votes(edges, gx, gy, r, (ey, ex))
    share = cv2.blur(col, (max(3, round(1.4 * r) | 1),) * 2)
    ok = (votes >= cfg.min_votes * 2 * math.pi * r) & (share >= cfg.min_coloured)
    chosen = apart_peaks(votes, ok, 1.2 * r)
    if not len(chosen):
        return chosen, np.zeros((0, 2))
    rims = near_rims(edges.shape, chosen, r, 0.35 * r)  # edge points near a centre's rim only
    on = rims[ey, ex]  # (the edge pixels in np.nonzero's order, as a nonzero of both)
    return chosen, np.c_[ex[on], ey[on]].astype(float)
