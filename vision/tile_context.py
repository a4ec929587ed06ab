"""A square that is part of a larger sheet: a page's, a notebook's, a card's or a box's corner.

A tile is a separate slab: across each of its sides its face ends, at the table or at another
tile. A square of a tile's size fitted at the corner of a printed page or a notebook has two
sides on the sheet's edges and two, meeting at a corner, across its paper, which runs on past
them as bright as inside (a notebook's ruled lines may lie on them). Each side is read across at
several places along it in the grey level relative to the table's (``shade``, table = 1): the
square's inside next to the side, its line, and the outside from 0.1 to 0.5 of a side beyond. A
side is *open* where the outside is as bright as the inside, well above the table (under a
blind's bright stripe, the table may be), nothing marks its line (a tile's outline, its wall or
shadow, does) and nothing found lies there (:func:`open_sides`); a square with two open sides
meeting at a corner, or three, is part of a sheet (:func:`part_of_sheet`). A tile in a row of
tiles its neighbours not found yet opens on two opposite sides at most; a block of tiles is
found by the tile stage first (its tiles are ``found``). On a table as pale as the paper nothing
is above the table, and no side is open: the judge and the namer decide there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.sampling import bilinear


@dataclass(frozen=True)
class SheetConfig:
    """Attributes:
    above_table: The outside is this share above the table's level (paper, not table).
    same: ... and within this share of the inside's level next to the side.
    max_edge: ... and nothing changes across the side's line by this share of the inside's
        level from one sample (a fiftieth of a side) to the next (a tile's outline, its wall
        or its shadow: 0.1-0.5; a page's paper, its ruled lines: under 0.05).
    """

    above_table: float = 0.15
    same: float = 0.08
    max_edge: float = 0.06


_ALONG = np.linspace(-0.35, 0.35, 8)
"""Where along a side (shares of it from its middle) it is read across."""
_RHO = np.arange(0.3, 1.0, 0.02)
"""Distances from the centre (shares of a side) read across each side."""
_IN = (_RHO >= 0.32) & (_RHO <= 0.44)
_LINE = (_RHO[1:] > 0.45) & (_RHO[1:] < 0.57)
"""Where a side's outline lies (between samples, their steps)."""
_OUT = (_RHO >= 0.6) & (_RHO <= 0.98)


def open_sides(shade: np.ndarray, centre_px: np.ndarray, angle_px: float, side: float,
               found: np.ndarray | None = None, cfg: SheetConfig | None = None) -> list[bool]:
    """Which of a square's sides (centre view pixels, view degrees, side pixels; the sides in
    turn round it) open onto the same bright paper beyond them, where ``found`` (a mask of
    pieces already found, or None) has nothing."""
    cfg = cfg or SheetConfig()
    c = np.asarray(centre_px, float)
    a = math.radians(angle_px)
    out = []
    for k in range(4):
        th = a + k * math.pi / 2
        n = np.array([math.cos(th), math.sin(th)])
        t = np.array([-n[1], n[0]])
        pts = (c + _ALONG[:, None, None] * side * t
               + _RHO[None, :, None] * side * n)  # (A, R, 2)
        prof = bilinear(shade, pts)
        inside = np.median(prof[:, _IN], axis=1)
        outside = np.median(prof[:, _OUT], axis=1)
        paper = np.median(outside) >= 1.0 + cfg.above_table
        same = np.median(np.abs(outside - inside) / np.maximum(inside, 1e-3)) <= cfg.same
        edge = np.abs(np.diff(prof, axis=1))[:, _LINE].max(axis=1) / np.maximum(inside, 1e-3)
        same = same and float(np.median(edge)) < cfg.max_edge
        if paper and same and found is not None:
            beyond = np.rint(c + 0.75 * side * n).astype(int)
            h, w = found.shape
            if 0 <= beyond[0] < w and 0 <= beyond[1] < h and found[beyond[1], beyond[0]]:
                same = False  # a tile found there: a block's
        out.append(bool(paper and same))
    return out


def part_of_sheet(shade: np.ndarray, centre_px: np.ndarray, angle_px: float, side: float,
                  found: np.ndarray | None = None, cfg: SheetConfig | None = None) -> bool:
    """Whether the square is a corner or the end of a larger bright sheet: two of its sides
    meeting at a corner open onto it, or three (:func:`open_sides`)."""
    o = open_sides(shade, centre_px, angle_px, side, found, cfg)
    return sum(o) >= 3 or any(o[k] and o[(k + 1) % 4] for k in range(4))
