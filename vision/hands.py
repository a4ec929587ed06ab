"""Hands and arms: a large blob unlike the table that no piece explains.

Anything over the play area that differs strongly from the table (in the normalised view) and
is not a detected piece counts; if such a region is bigger than a few tiles' worth of area,
a hand (or an arm, or a sleeve) is over the table and the frame must not be refereed.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.normalise import TABLE_LEVEL
from vision.prepare import Prepared


@dataclass(frozen=True)
class HandConfig:
    """Attributes:
    min_area_mm2: Least area of an unexplained blob that is a hand.
    bright_ratio: A pixel differs from the table when brighter or darker by this factor...
    chroma: ...or when its chromaticity (percent) is this far from the table's.
    open_mm: Thin unexplained bits (edges, grain) are opened away at this size.
    cell_mm: The coarse grid hands are looked for on.
    """

    min_area_mm2: float = 6000.0
    bright_ratio: float = 1.5
    chroma: float = 10.0
    open_mm: float = 6.0
    cell_mm: float = 4.0


def detect_hands(cfg: HandConfig, prep: Prepared, explained: np.ndarray
                 ) -> tuple[bool, np.ndarray]:
    """Whether a hand is over the table, and its mask in the view (uint8 0/255, (H, W)).

    Args:
        cfg: Thresholds.
        prep: The prepared frame.
        explained: uint8 mask of the detected pieces (with a margin).
    """
    s = prep.view.px_per_mm
    h, w = explained.shape
    f = max(1, int(cfg.cell_mm * s))  # hands are big: a coarse grid is enough
    sw, sh = max(1, w // f), max(1, h // f)
    small = cv2.resize(prep.norm, (sw, sh), interpolation=cv2.INTER_AREA).astype(np.float32)
    ex = cv2.resize(explained, (sw, sh), interpolation=cv2.INTER_AREA) > 0
    valid = cv2.resize(prep.view.valid, (sw, sh), interpolation=cv2.INTER_AREA) > 250
    total = small.sum(axis=2) + 1.0
    ratio = total / (3.0 * TABLE_LEVEL)
    chroma = np.hypot(small[..., 0] / total - 1 / 3, small[..., 1] / total - 1 / 3) * 100.0
    odd = (ratio > cfg.bright_ratio) | (ratio < 1.0 / cfg.bright_ratio) | (chroma > cfg.chroma)
    mask = np.where(odd & valid & ~ex, 255, 0).astype(np.uint8)
    k = max(3, int(cfg.open_mm * s / f) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    min_px = cfg.min_area_mm2 * (s / f) ** 2
    big = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= min_px]
    if not big:
        return False, np.zeros((h, w), np.uint8)
    out = np.isin(labels, big).astype(np.uint8) * 255
    return True, cv2.resize(out, (w, h), interpolation=cv2.INTER_NEAREST)
