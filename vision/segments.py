"""Worm Up segments: coloured half-spheres, named by their colour.

Segments are the only strongly coloured blobs of their size on the table (the pieces of a
piecepack are pale, their symbols small or inside a tile), so a blob of saturated colour
outside tiles and coins is one or more segments: segments touching one another (a worm of
them) make one blob, cut into discs of the segment's size at the peaks of its distance to
its outline (:func:`discs_in_blob`). A disc is a segment when it is round where nothing
touches it and shaded as a lit half-sphere is (printed colour, a cloth's check, is flat);
its name is the nearest of the set's segment colours in hue.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.blobs import blobs
from vision.detections import Detections
from vision.prepare import Prepared, fill_holes


@dataclass(frozen=True)
class SegmentConfig:
    """Attributes:
    diameter_mm: A segment's diameter.
    height_mm: A segment's height (unused for its place: a half-sphere's outline, seen from
        anywhere, is a circle round its centre, which lies on the table).
    min_saturation: Least HSV saturation (0-255) of a segment's pixels.
    min_value: Least HSV value (0-255).
    hue_margin: A segment's hue differs from the table's by more than this (0-255 scale)...
    sat_margin: ...or its saturation exceeds the table's by more than this.
    colours: Colour name -> 8-bit RGB.
    max_touching: Most segments touching one another in one blob (a worm of segments).
    min_fill: Least share of a segment's disc its blob covers.
    max_outside: Most of a segment's part of a blob that lies beyond its disc (1.25 radii),
        as a share of the disc's area: a patch of colour of another shape is no segment.
    max_roughness: Most RMS distance (share of the radius) of a segment's free outline from
        a circle.
    min_relief: Least spread of brightness (5th to 95th percentile, share of the median)
        over a segment's disc: a lit half-sphere shades from highlight to rim, printed
        colour is flat.
    """

    diameter_mm: float = 20.0
    height_mm: float = 10.0
    min_saturation: int = 110
    min_value: int = 60
    hue_margin: int = 12
    sat_margin: int = 70
    colours: tuple[tuple[str, tuple[int, int, int]], ...] = (
        ("red", (209, 52, 47)), ("yellow", (242, 194, 48)), ("green", (58, 154, 69)),
        ("blue", (47, 100, 192)), ("purple", (122, 62, 157)))
    max_touching: int = 12
    min_fill: float = 0.7
    max_outside: float = 0.25
    max_roughness: float = 0.15
    min_relief: float = 0.22


def _hue(rgb: tuple[int, int, int]) -> float:
    px = np.uint8([[list(rgb[::-1])]])
    return float(cv2.cvtColor(px, cv2.COLOR_BGR2HSV_FULL)[0, 0, 0])


_RING = np.column_stack([np.cos(np.arange(32) * math.pi / 16),
                         np.sin(np.arange(32) * math.pi / 16)])


def discs_in_blob(blob: np.ndarray, r: float, min_fill: float = 0.7,
                  max_outside: float = 0.25, max_roughness: float = 0.15) -> list[np.ndarray]:
    """The centres (blob pixels, (2,) each) of the discs of radius ``r`` a blob is made of.

    Discs that touch make one blob; each disc's centre is a peak of the blob's distance to
    its outline, about ``r`` high, and two such centres are at least a diameter apart (a
    little less: the discs may press together). Each peak that stands for a disc (its blob
    covers ``min_fill`` of the disc round it, and little of its part of the blob, the pixels
    nearer to it than to another centre, lies beyond 1.25 ``r``) is kept, its centre fitted
    to the outline where no other disc touches it; where that outline is not a circle of
    about ``r`` (its points off the circle by more than ``max_roughness`` of ``r``, RMS: a
    square's corners), it is no disc.

    >>> m = np.zeros((40, 70), np.uint8)
    >>> _ = cv2.circle(m, (20, 20), 10, 255, -1); _ = cv2.circle(m, (40, 20), 10, 255, -1)
    >>> sorted(tuple(round(float(v)) for v in c) for c in discs_in_blob(m, 10.0))
    [(20, 20), (40, 20)]
    """
    filled = fill_holes(blob)
    dt = cv2.distanceTransform(filled, cv2.DIST_L2, 5)
    k = max(3, int(r) | 1)
    peak = (dt >= 0.5 * r) & (dt >= cv2.dilate(dt, cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (k, k))))
    ys, xs = np.nonzero(peak)
    order = np.argsort(-dt[ys, xs], kind="stable")
    chosen: list[np.ndarray] = []
    for i in order:
        p = np.array([xs[i], ys[i]], float)
        if all(float(np.hypot(*(p - q))) >= 1.2 * r for q in chosen):
            chosen.append(p)
    if not chosen:
        return []
    cs = np.array(chosen)
    py, px = np.nonzero(filled)
    pts = np.c_[px, py].astype(float)
    dist = np.linalg.norm(pts[:, None] - cs[None], axis=2)
    near = np.argmin(dist, axis=1)
    contours, _ = cv2.findContours(filled, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    edge = np.concatenate([c.reshape(-1, 2) for c in contours]).astype(float)
    ed = np.linalg.norm(edge[:, None] - cs[None], axis=2)
    ed_sorted = np.sort(ed, axis=1)
    e_near = np.argmin(ed, axis=1)
    e_second = ed_sorted[:, 1] if len(cs) > 1 else np.full(len(edge), np.inf)
    out = []
    hh, ww = filled.shape
    for j, c in enumerate(cs):
        ring = np.round(c + _RING * np.linspace(0, 0.95 * r, 6)[:, None, None]).astype(int)
        ring = ring.reshape(-1, 2)
        inside = ((ring[:, 0] >= 0) & (ring[:, 0] < ww) & (ring[:, 1] >= 0) & (ring[:, 1] < hh))
        cover = np.zeros(len(ring), bool)
        cover[inside] = filled[ring[inside, 1], ring[inside, 0]] > 0
        mine = dist[near == j, j]
        if cover.mean() < min_fill or np.count_nonzero(mine > 1.25 * r) > max_outside * (
                math.pi * r * r):
            continue
        # the outline where no other disc touches: a circle through it
        use = (e_near == j) & (np.abs(ed[:, j] - r) < 0.4 * r) & (e_second > 1.3 * r)
        if np.count_nonzero(use) >= 8:
            fit = _circle(edge[use])
            if fit is None:
                continue
            centre, rad = fit
            rms = float(np.sqrt(np.mean((np.linalg.norm(edge[use] - centre, axis=1) - rad) ** 2)))
            if rms > max_roughness * r or not 0.6 * r < rad < 1.35 * r:
                continue  # a patch of colour with corners, or of another size: no disc
            if float(np.hypot(*(centre - c))) < 0.5 * r:
                c = centre
        out.append(c)
    return out


def _circle(pts: np.ndarray) -> tuple[np.ndarray, float] | None:
    """The least-squares circle through points (N, 2): centre and radius; None if degenerate."""
    m = pts.mean(axis=0)
    q = pts - m
    a = np.c_[2 * q, np.ones(len(q))]
    sol, *_ = np.linalg.lstsq(a, (q * q).sum(axis=1), rcond=None)
    rad2 = sol[2] + sol[0] ** 2 + sol[1] ** 2
    if not np.isfinite(rad2) or rad2 <= 0:
        return None
    return m + sol[:2], float(math.sqrt(rad2))


def detect_segments(cfg: SegmentConfig, prep: Prepared, exclude: np.ndarray | None = None
                    ) -> Detections:
    """Finds the Worm Up segments in a prepared frame."""
    s = prep.view.px_per_mm
    hsv = cv2.cvtColor(prep.top, cv2.COLOR_BGR2HSV_FULL)
    v = prep.valid > 0
    sample = hsv[::5, ::5][v[::5, ::5]]
    if sample.size:
        t_hue = float(np.median(sample[:, 0]))
        t_sat = float(np.median(sample[:, 1]))
    else:
        t_hue, t_sat = 0.0, 0.0
    mask = cv2.inRange(hsv, (0, cfg.min_saturation, cfg.min_value), (255, 255, 255))
    # not the table's own colour: another hue, or far more saturated
    dh = np.abs(hsv[..., 0].astype(np.int16) - int(t_hue))
    dh = np.minimum(dh, 256 - dh)
    other = (dh > cfg.hue_margin) | (hsv[..., 1] > t_sat + cfg.sat_margin)
    mask = np.where((mask > 0) & other & v, 255, 0).astype(np.uint8)
    if exclude is not None:
        mask = cv2.bitwise_and(mask, cv2.bitwise_not(exclude))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    r = cfg.diameter_mm * s / 2
    hues = [(name, _hue(rgb)) for name, rgb in cfg.colours]
    centres, names, confs = [], [], []
    for found in blobs(mask, math.floor(0.5 * math.pi * r * r)):
        if not 0.5 * math.pi * r * r <= found.area <= cfg.max_touching * math.pi * r * r:
            continue
        blob, x0, y0 = found.mask(pad=2)
        for c in discs_in_blob(blob, r, cfg.min_fill, cfg.max_outside,
                                cfg.max_roughness):
            cx, cy = round(c[0]), round(c[1])
            own = np.zeros_like(blob)
            cv2.circle(own, (cx, cy), max(1, round(0.8 * r)), 255, -1)
            own = cv2.bitwise_and(own, blob)
            h = hsv[y0:y0 + blob.shape[0], x0:x0 + blob.shape[1], 0][own > 0].astype(float)
            # a half-sphere lit from above shades from a highlight to its rim; a patch of
            # printed colour (a check of a cloth) is flat
            disc = np.zeros_like(blob)
            cv2.circle(disc, (cx, cy), max(1, round(0.8 * r)), 255, -1)
            val = hsv[y0:y0 + blob.shape[0], x0:x0 + blob.shape[1], 2][disc > 0]
            lo, mid, hi = np.percentile(val, (5, 50, 95))
            if hi - lo < cfg.min_relief * max(float(mid), 1.0):
                continue
            ang = np.angle(np.mean(np.exp(1j * h / 256.0 * 2 * np.pi))) / (2 * np.pi) * 256.0
            ang %= 256
            d = sorted((min(abs(ang - hh), 256 - abs(ang - hh)), name) for name, hh in hues)
            centres.append((c[0] + x0, c[1] + y0))
            names.append(d[0][1])
            confs.append(float(np.clip(1.0 - d[0][0] / max(d[1][0], 1e-6), 0.0, 1.0)))
    if not centres:
        return Detections.empty()
    seen = prep.view.to_mm(np.array(centres))
    foot = prep.view.camera.foot_of(seen, 0.0)
    return Detections.of(foot, ["segment"] * len(centres), confidence=confs, seen_mm=seen,
                         color=names)
