"""The centre net read again only where the table changed since it last read it.

The net (:mod:`vision.centres`) is the largest single cost of a still frame (about 12 ms of
CPU of a 1280x720 frame's 90). Live, a still frame mostly shows the table the net last read
with a piece or two moved. Each output of the net depends only on the input within its
reach (:data:`REACH_PX`): where no block of the input (:data:`BLOCK_PX` square) changed within
that reach, the heat is the heat it gave before. So the input (made in full, as ever) is
compared, block by block, with the input the kept heat was made from, by the detector's own
share for a still table (``DetectorConfig.still_share``: each block's mean of each channel,
logs of ratios, within log2(1 + share)), and the net runs only on crops round the changed
blocks, each wide enough that the heat kept from it is the whole view's, to float rounding.
A change of the frame's level past that share moves the last three channels everywhere: then,
or when changes cover much of the view, the net reads all of it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.centres_net import STRIDE

BLOCK_PX = 8
"""Side of a compared block in the net's input pixels (its whole stride: crops aligned to
blocks sample the input as the whole view's run does)."""

REACH_PX = 40
"""An output of the net changes with the input no farther than this (measured: a change of
one input pixel moves no output more than 34 pixels from it)."""

EDGE_PX = 48
"""A crop reaches this far beyond the outputs kept from it (its zero padding then moves none
of them: 32 pixels gave differences of 1e-3, 48 of 2e-6)."""


@dataclass(frozen=True)
class ReuseConfig:
    """Attributes:
    share: A block has changed where the mean of one of its channels (logs of ratios of the
        view's colour: :mod:`vision.centres_input`) moved by more than log2(1 + share): the
        detector's share for a still table (``DetectorConfig.still_share``).
    most: When the crops would cover more than this share of the view, the net reads all of
        it (one pass costs less than many crops' edges).
    """

    share: float = 0.04
    most: float = 0.5


def block_means(x: np.ndarray) -> np.ndarray:
    """Each block's mean of each channel but the last (the valid mask, fixed), float32
    (C - 1, rows, cols), of an input (C, H, W) whose sides are multiples of :data:`BLOCK_PX`.

    >>> x = np.zeros((3, 16, 8), np.float32); x[0, 8:] = 2.0; x[1, 0, 0] = 64.0
    >>> block_means(x)[:, :, 0].tolist()
    [[0.0, 2.0], [1.0, 0.0]]
    """
    c, h, w = x.shape
    size = (w // BLOCK_PX, h // BLOCK_PX)
    return np.stack([cv2.resize(x[i], size, interpolation=cv2.INTER_AREA)
                     for i in range(c - 1)])


def changed_blocks(now: np.ndarray, before: np.ndarray, cfg: ReuseConfig) -> np.ndarray:
    """Blocks (rows, cols) bool where the mean of any channel moved past log2(1 + share).

    >>> a = np.zeros((2, 2, 2), np.float32)
    >>> b = a.copy(); b[0, 0, 1] = 0.06; b[1, 1, 0] = -0.05
    >>> changed_blocks(b, a, ReuseConfig()).tolist()
    [[False, True], [False, False]]
    """
    return (np.abs(now - before) > math.log2(1.0 + cfg.share)).any(axis=0)


def crops(changed: np.ndarray) -> list[tuple[tuple[int, int, int, int], tuple[int, int, int, int]]]:
    """For each group of changed blocks: the blocks whose heat is made again (the group's box
    grown by the net's reach) and the crop of blocks the net reads for them (grown by its
    edge), each ``(row0, row1, col0, col1)`` clipped to the view.

    >>> changed = np.zeros((30, 40), bool); changed[10, 12] = True
    >>> crops(changed)
    [((5, 16, 7, 18), (0, 22, 1, 24))]
    """
    rows, cols = changed.shape
    reach = math.ceil(REACH_PX / BLOCK_PX)
    edge = math.ceil(EDGE_PX / BLOCK_PX)
    grown = cv2.dilate(changed.astype(np.uint8), np.ones((2 * reach + 1, 2 * reach + 1),
                                                          np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
    out = []
    for x, y, w, h, _ in stats[1:n]:
        paste = (int(y), int(y + h), int(x), int(x + w))
        crop = (max(0, paste[0] - edge), min(rows, paste[1] + edge),
                max(0, paste[2] - edge), min(cols, paste[3] + edge))
        out.append((paste, crop))
    return out


class HeatReuse:
    """The heat last made and the input's blocks it was made from; each new frame's heat made
    again only where the input changed (one per :class:`vision.centres.CentreFinder`)."""

    def __init__(self, cfg: ReuseConfig) -> None:
        self.cfg = cfg
        self._blocks: np.ndarray | None = None
        self._heat: np.ndarray | None = None
        self.read_share = 1.0
        """The share of the view the net read for the last heat (1: all of it)."""

    def heat(self, x: np.ndarray, forward: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        """The heat (a new array) of the padded input ``x`` (C, H, W; sides multiples of
        :data:`BLOCK_PX`, the valid mask last) by ``forward`` (padded input (C, h, w) -> heat
        (K, h / STRIDE, w / STRIDE)), run on all of it or on crops round the blocks that
        changed since the kept heat was made."""
        rows, cols = x.shape[1] // BLOCK_PX, x.shape[2] // BLOCK_PX
        now = block_means(x)
        kept, before = self._heat, self._blocks
        if kept is None or before is None or before.shape != now.shape:
            return self._all(x, now, forward)
        changed = changed_blocks(now, before, self.cfg)
        if not changed.any():
            self.read_share = 0.0
            return kept.copy()
        plan = crops(changed)
        area = sum((c[1] - c[0]) * (c[3] - c[2]) for _, c in plan)
        if area > self.cfg.most * rows * cols:
            return self._all(x, now, forward)
        b, s = BLOCK_PX, BLOCK_PX // STRIDE  # a block's input pixels, its heat samples
        for (r0, r1, c0, c1), (q0, q1, p0, p1) in plan:
            part = forward(x[:, q0 * b:q1 * b, p0 * b:p1 * b])
            kept[:, r0 * s:r1 * s, c0 * s:c1 * s] = part[:, (r0 - q0) * s:(r1 - q0) * s,
                                                         (c0 - p0) * s:(c1 - p0) * s]
            before[:, r0:r1, c0:c1] = now[:, r0:r1, c0:c1]  # what the heat there was made of
        self.read_share = area / (rows * cols)
        return kept.copy()

    def _all(self, x: np.ndarray, now: np.ndarray,
             forward: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        self._heat = forward(x)
        self._blocks = now
        self.read_share = 1.0
        return self._heat.copy()
