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
    valid = cv2.resize(prep.valid, (sw, sh), interpolation=cv2.INTER_AREA) > 250
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


@dataclass(frozen=True)
class MemoryConfig:
    """Attributes:
    cell_mm: Grid of the remembered table.
    change: A cell changed when a channel differs from the memory by this share.
    learn: How fast unchanged cells follow the table (slow light drift), per frame.
    absorb: How fast changed cells are taken in (a cup left on the table stops being a hand).
    min_area_mm2: Least changed area, not explained by pieces, that is a hand.
    """

    cell_mm: float = 4.0
    change: float = 0.22
    learn: float = 0.2
    absorb: float = 0.01
    min_area_mm2: float = 6000.0


class TableMemory:
    """The empty table as the last frames showed it, to see a hand that looks like the table.

    A single frame cannot tell a tan hand from an oak table, but a hand is a change: cells of
    the view that differ from the remembered table and that no detected piece explains. Global
    light changes are divided out (each frame is scaled to the memory's median colour), slow
    drifts are learnt, and a change that stays (an object left lying) is absorbed in time.
    """

    def __init__(self, cfg: MemoryConfig | None = None) -> None:
        self.cfg = cfg or MemoryConfig()
        self._ref: np.ndarray | None = None

    def reset(self) -> None:
        """Forgets the table."""
        self._ref = None

    def update(self, prep: Prepared, explained: np.ndarray) -> tuple[bool, np.ndarray]:
        """Compares a frame with the memory, then learns from it.

        Returns:
            ``(hand, mask)``: whether a large unexplained change is over the table, and the
            changed area as a view-sized uint8 mask. The first frame is never a hand.
        """
        cfg = self.cfg
        s = prep.view.px_per_mm
        h, w = explained.shape
        f = max(1, int(cfg.cell_mm * s))
        sw, sh = max(1, w // f), max(1, h // f)
        small = cv2.resize(prep.top, (sw, sh), interpolation=cv2.INTER_AREA).astype(np.float32)
        valid = cv2.resize(prep.valid, (sw, sh), interpolation=cv2.INTER_AREA) > 250
        ex = cv2.resize(explained, (sw, sh), interpolation=cv2.INTER_AREA) > 0
        if self._ref is None or self._ref.shape != small.shape:
            self._ref = small
            return False, np.zeros((h, w), np.uint8)
        ref = self._ref
        if valid.any():
            rv, sv = ref[valid][::3], small[valid][::3]
            gain = np.median(rv, axis=0) / np.maximum(np.median(sv, axis=0), 1.0)
            small = small * gain
        rel = np.abs(small - ref) / np.maximum(ref, 8.0)
        changed = (rel.max(axis=2) > cfg.change) & valid
        mask = np.where(changed & ~ex, 255, 0).astype(np.uint8)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
        min_px = cfg.min_area_mm2 * (s / f) ** 2
        big = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= min_px]
        rate = np.where(changed[..., None], cfg.absorb, cfg.learn).astype(np.float32)
        self._ref = ref + rate * (small - ref)
        if not big:
            return False, np.zeros((h, w), np.uint8)
        out = np.isin(labels, big).astype(np.uint8) * 255
        return True, cv2.resize(out, (w, h), interpolation=cv2.INTER_NEAREST)
