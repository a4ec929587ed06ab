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
    """

    min_area_mm2: float = 6000.0
    bright_ratio: float = 1.5
    chroma: float = 10.0
    open_mm: float = 6.0


def detect_hands(cfg: HandConfig, prep: Prepared, explained: np.ndarray
                 ) -> tuple[bool, np.ndarray]:
    """Whether a hand is over the table, and its mask in the view (uint8 0/255, (H, W)).

    Args:
        cfg: Thresholds.
        prep: The prepared frame.
        explained: uint8 mask of the detected pieces (with a margin).
    """
    s = prep.view.px_per_mm
    norm = prep.norm.astype(np.float32)
    total = norm.sum(axis=2) + 1.0
    ratio = total / (3.0 * TABLE_LEVEL)
    chroma = np.hypot(norm[..., 0] / total - 1 / 3, norm[..., 1] / total - 1 / 3) * 100.0
    odd = (ratio > cfg.bright_ratio) | (ratio < 1.0 / cfg.bright_ratio) | (chroma > cfg.chroma)
    mask = np.where(odd & (prep.view.valid > 0), 255, 0).astype(np.uint8)
    mask = cv2.bitwise_and(mask, cv2.bitwise_not(explained))
    k = max(3, int(cfg.open_mm * s) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    min_px = cfg.min_area_mm2 * s * s
    big = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= min_px]
    out = np.isin(labels, big).astype(np.uint8) * 255 if big else np.zeros_like(mask)
    return bool(big), out
