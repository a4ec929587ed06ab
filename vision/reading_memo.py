"""The per-piece readings of the last still table kept where the frame did not change.

Live, the frame on which a still table is judged mostly shows the table last read in full,
with a piece or two moved: each piece the stages find again at its place is read again (the
namer's patch through its CNN, the coin judge's features, the coin's face; a tile's polish,
its judge's features and its face), about a third of the frame's CPU for the same answer. A
reading depends only on the frame within its patch round the piece (the namer's 64 mm, the
coin judge's 40 mm, the face's 20 mm, a tile side round a tile): where a piece is found within
:attr:`MemoConfig.tolerance_mm` of a point read before (a tile at the same turn and found the
same way) and no cell of the detector's coarse grid (:class:`vision.hand_grid.HandGrid`, the
frame's mean colour in 8-pixel cells) under that patch moved past the detector's own limits
for a still table (``DetectorConfig.still_change`` levels and ``still_share`` of its value,
the test by which a whole frame's result is reused), the reading made there is taken again.
What changed, and what is new, is read as ever.

Readings are kept from the last fully detected frame only (those it made and those it took
again, each compared with the frame it was made on, so a slow drift is caught), under a key
per kind of reading. A frame never takes its own readings again: the first frame (and any
frame of a detector's own, as the accuracy bench's) is read exactly as without the memo.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from calibration.model import Calibration
from vision.hand_grid import HandGrid
from vision.local_read import changed_cells
from vision.square_fit import side_turn_deg


@dataclass(frozen=True)
class MemoConfig:
    """Attributes:
    tolerance_mm: A point is the same place as one read before within this distance (a still
        piece's fit moves by less with the camera's noise; a reading of a patch 64 mm wide
        hardly moves over it).
    """

    tolerance_mm: float = 0.25


@dataclass(frozen=True)
class _Kept:
    """The readings under one key: their points (N, 2) mm, the cell boxes their patches cover
    (N, 4: row0, row1, col0, col1), the cells of the frame each was made on (index into
    ``sources``), and the readings."""

    points_mm: np.ndarray
    boxes: np.ndarray
    source: np.ndarray
    values: list


class ReadingMemo:
    """Readings of patches round table points, kept from frame to frame where the frame's cells
    did not change (one per detector, fed each fully detected frame's cells by :meth:`see`):
    a cell changed where its mean moved by more than ``change`` levels and more than ``share``
    of its value (the detector's ``still_change`` and ``still_share``)."""

    def __init__(self, cfg: MemoConfig, calibration: Calibration, grid: HandGrid,
                 change: float, share: float) -> None:
        self.cfg = cfg
        self.change, self.share = float(change), float(share)
        self.calibration = calibration
        self.grid = grid
        self._cells: np.ndarray | None = None
        self._sources: list[np.ndarray] = []  # the frames' cells the kept readings came from
        self._before: dict[str, _Kept] = {}
        self._now: dict[str, _Kept] = {}
        self._moved: dict[int, np.ndarray] = {}  # per frame kept from: its moved cells' sums
        self.hits = 0
        """Readings taken again since the last :meth:`see` (for tests and figures)."""

    def see(self, cells: np.ndarray) -> None:
        """A new frame, its cells (uint8 (rows, cols, 3), :meth:`HandGrid.cells_of`): the last
        frame's readings become the ones that may be taken again."""
        keep = self._now if self._cells is not None else {}
        used = sorted({int(s) for k in keep.values() for s in k.source})
        remap = {s: i for i, s in enumerate(used)}
        self._sources = [self._sources[s] for s in used]
        self._before = {key: _Kept(k.points_mm, k.boxes,
                                   np.array([remap[int(s)] for s in k.source], int), k.values)
                        for key, k in keep.items()}
        self._cells = cells
        self._sources.append(cells)
        self._moved: dict[int, np.ndarray] = {}
        self._now = {}
        self.hits = 0

    def carry(self, kept: Callable[[np.ndarray], np.ndarray]) -> None:
        """The last frame's readings at points (mm) that ``kept`` (points (N, 2) -> bool (N,))
        says were kept, not read, on this frame (:mod:`vision.local_read`) stay for the next
        frame as if this one had taken them again."""
        if self._cells is None:
            return
        for key, k in self._before.items():
            if not len(k.values):
                continue
            use = np.flatnonzero(kept(k.points_mm))
            if len(use):
                self._add(key, k.points_mm[use], k.boxes[use], k.source[use],
                          [k.values[i] for i in use])

    def forget(self) -> None:
        """Nothing read so far is taken again (the next frame is read in full)."""
        self._cells = None
        self._sources, self._before, self._now, self._moved = [], {}, {}, {}
        self.hits = 0

    def rows(self, key: str, points_mm: np.ndarray, reach_mm: float,
             compute: Callable[[np.ndarray], list],
             agrees: Callable[[int, Any], bool] | None = None) -> list:
        """The readings at ``points_mm`` (N, 2): each taken again from a reading under ``key``
        within the tolerance whose patch (``reach_mm`` each way) lies on cells that did not
        change (and, with ``agrees``, that it accepts for that row: a reading made from other
        inputs too), or made by ``compute`` (the indices to make -> their readings, in
        order)."""
        pts = np.array(points_mm, float).reshape(-1, 2)  # a copy: a kept point replaces
        n = len(pts)  # the caller's below, whose array may be read-only (never written)
        if self._cells is None:
            return list(compute(np.arange(n)))
        out: list = [None] * n
        src = np.full(n, len(self._sources) - 1, int)
        boxes = np.zeros((n, 4), int)
        found = np.zeros(n, bool)
        kept = self._before.get(key)
        if kept is not None and len(kept.values):
            d = np.hypot(pts[:, None, 0] - kept.points_mm[None, :, 0],
                         pts[:, None, 1] - kept.points_mm[None, :, 1])
            near = np.argmin(d, axis=1)
            for i, j, dist in zip(range(n), near, d[np.arange(n), near], strict=True):
                if dist > self.cfg.tolerance_mm:
                    continue
                s = int(kept.source[j])
                if agrees is not None and not agrees(int(i), kept.values[j]):
                    continue
                if self._still(kept.boxes[j], s):
                    out[i] = kept.values[j]
                    src[i] = s
                    boxes[i] = kept.boxes[j]
                    pts[i] = kept.points_mm[j]
                    found[i] = True
                    self.hits += 1
        make = np.flatnonzero(~found)
        if len(make):
            boxes[make] = self._boxes(pts[make], reach_mm)
            for i, v in zip(make, compute(make), strict=True):
                out[i] = v
        self._add(key, pts, boxes, src, out)
        return out

    def _add(self, key: str, pts: np.ndarray, boxes: np.ndarray, src: np.ndarray,
             values: list) -> None:
        old = self._now.get(key)
        if old is not None:
            pts = np.r_[old.points_mm, pts]
            boxes = np.r_[old.boxes, boxes]
            src = np.r_[old.source, src]
            values = old.values + values
        self._now[key] = _Kept(pts, boxes, src, list(values))

    def _boxes(self, pts: np.ndarray, reach_mm: float) -> np.ndarray:
        """The cells (row0, row1, col0, col1) under each point's patch, (N, 4): the image box
        of the square ``reach_mm`` each way round it, a cell more all round."""
        n = len(pts)
        if not n:
            return np.zeros((0, 4), int)
        corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], float) * reach_mm
        img = self.calibration.to_image((pts[:, None, :] + corners[None]).reshape(-1, 2))
        img = np.asarray(img, float).reshape(n, 4, 2)
        (w, h), (sw, sh) = self.grid.image_size, self.grid.size_wh
        bad = ~np.isfinite(img).all(axis=(1, 2))
        img = np.where(np.isfinite(img), img, 0.0)
        c0 = np.floor(img[..., 0].min(axis=1) * sw / w) - 1
        c1 = np.floor(img[..., 0].max(axis=1) * sw / w) + 2
        r0 = np.floor(img[..., 1].min(axis=1) * sh / h) - 1
        r1 = np.floor(img[..., 1].max(axis=1) * sh / h) + 2
        out = np.c_[np.clip(r0, 0, sh), np.clip(r1, 0, sh), np.clip(c0, 0, sw),
                    np.clip(c1, 0, sw)].astype(int)
        out[bad] = (0, sh, 0, sw)  # (never so near the horizon; all of it, to be safe)
        return out

    def _still(self, box: np.ndarray, source: int) -> bool:
        """True when no cell in ``box`` moved past the limits since the frame ``source``."""
        assert self._cells is not None
        then = self._sources[source]
        if then is self._cells:
            return True
        moved = self._moved.get(source)
        if moved is None:  # once per frame kept from: a sum table of its moved cells
            cells = changed_cells(self._cells, then, self.change, self.share)
            moved = self._moved[source] = cv2.integral(cells.astype(np.uint8))
        r0, r1, c0, c1 = (int(v) for v in box)
        return not moved[r1, c1] - moved[r0, c1] - moved[r1, c0] + moved[r0, c0]

def rows_of(memo: ReadingMemo | None, key: str, points_mm: np.ndarray, reach_mm: float,
            compute: Callable[[np.ndarray], list],
            agrees: Callable[[int, Any], bool] | None = None) -> list:
    """:meth:`ReadingMemo.rows`, or every row made by ``compute`` when there is no memo."""
    if memo is None:
        return list(compute(np.arange(len(np.asarray(points_mm).reshape(-1, 2)))))
    return memo.rows(key, points_mm, reach_mm, compute, agrees)


def polished_again(memo: ReadingMemo | None, to_mm: Callable[[np.ndarray], np.ndarray],
                   centre_px: tuple[float, float] | np.ndarray, angle_deg: float,
                   reach_mm: float, polish: Callable[[], tuple[tuple[float, float], float]],
                   tolerance_deg: float = 0.25) -> tuple[tuple[float, float], float]:
    """A square's polished centre and angle (view pixels, degrees): ``polish()``'s, or the one
    kept from a square placed at the same place (``to_mm``: view pixels -> table mm) within
    ``tolerance_deg`` of its angle (mod 90) whose ``reach_mm`` each way did not change."""
    if memo is None:
        return polish()

    def same_turn(_: int, kept: tuple) -> bool:
        return abs(side_turn_deg(kept[0], angle_deg)) <= tolerance_deg

    [(_, got)] = memo.rows("polish", to_mm(np.asarray(centre_px, float)[None]), reach_mm,
                           lambda i: [(angle_deg, polish())], same_turn)
    return got


def square_rows_again(memo: ReadingMemo | None, key: str,
                      to_mm: Callable[[np.ndarray], np.ndarray], centres_px: np.ndarray,
                      angles_deg: np.ndarray, sources: np.ndarray, reach_mm: float,
                      compute: Callable[[np.ndarray], np.ndarray],
                      tolerance_deg: float = 0.25) -> np.ndarray:
    """Rows (N, F) of squares' readings (view pixels, degrees, how each was found): each
    ``compute``'s (the indices to make -> their rows), or kept from a square at the same place
    (``to_mm``: view pixels -> table mm), found the same way, within ``tolerance_deg`` of its
    angle (mod 90), whose ``reach_mm`` each way did not change."""
    pts = np.asarray(centres_px, float).reshape(-1, 2)
    ang = np.asarray(angles_deg, float).ravel()
    src = np.asarray(sources).ravel()
    if memo is None or not len(pts):
        return compute(np.arange(len(pts)))

    def alike(k: int, kept: tuple) -> bool:
        return kept[1] == src[k] and abs(side_turn_deg(kept[0], ang[k])) <= tolerance_deg

    rows = memo.rows(key, to_mm(pts), reach_mm,
                     lambda i: list(zip(ang[i], src[i], compute(i), strict=True)), alike)
    return np.array([r[2] for r in rows])
