"""Worm Up segments: coloured half-spheres, named by their colour.

Segments are the only strongly coloured blobs of their size on the table (the pieces of a
piecepack are pale, their symbols small or inside a tile), so a blob of saturated colour about
one segment across, outside tiles and coins, is a segment; its name is the nearest of the set's
segment colours in hue.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.detections import Detections
from vision.prepare import Prepared


@dataclass(frozen=True)
class SegmentConfig:
    """Attributes:
    diameter_mm: A segment's diameter.
    height_mm: A segment's height (its seen outline centres at half of it).
    min_saturation: Least HSV saturation (0-255) of a segment's pixels.
    min_value: Least HSV value (0-255).
    hue_margin: A segment's hue differs from the table's by more than this (0-255 scale)...
    sat_margin: ...or its saturation exceeds the table's by more than this.
    colours: Colour name -> 8-bit RGB.
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


def _hue(rgb: tuple[int, int, int]) -> float:
    px = np.uint8([[list(rgb[::-1])]])
    return float(cv2.cvtColor(px, cv2.COLOR_BGR2HSV_FULL)[0, 0, 0])


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
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    area = math.pi * (cfg.diameter_mm * s / 2) ** 2
    hues = [(name, _hue(rgb)) for name, rgb in cfg.colours]
    centres, names, confs = [], [], []
    for i in range(1, n):
        a = stats[i, cv2.CC_STAT_AREA]
        if not 0.5 * area <= a <= 2.0 * area:
            continue
        bw, bh = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
        if max(bw, bh) > 1.6 * cfg.diameter_mm * s:
            continue
        h = hsv[..., 0][labels == i].astype(float)
        ang = np.angle(np.mean(np.exp(1j * h / 256.0 * 2 * np.pi))) / (2 * np.pi) * 256.0 % 256
        d = sorted((min(abs(ang - hh), 256 - abs(ang - hh)), name) for name, hh in hues)
        centres.append(cents[i])
        names.append(d[0][1])
        confs.append(float(np.clip(1.0 - d[0][0] / max(d[1][0], 1e-6), 0.0, 1.0)))
    if not centres:
        return Detections.empty()
    seen = prep.view.to_mm(np.array(centres))
    foot = prep.view.camera.foot_of(seen, cfg.height_mm / 2)
    return Detections.of(foot, ["segment"] * len(centres), confidence=confs, seen_mm=seen,
                         color=names)
