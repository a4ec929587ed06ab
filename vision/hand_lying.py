"""Objects left lying: live, a blob called a hand that stays unchanged while the table is still
and that cannot be an arm stops holding the game.

A frame with a hand is never judged, so a mug, a phone or a sheet that the one-frame judge calls
a hand, set down on a still table, would hold the game for good (the table memory does not
absorb what a frame alone calls a hand: a hand resting a while would leave its ghost). Two
things tell such an object from a hand, both from the live path's own evidence:

- it cannot be an arm: a hand over the table belongs to an arm that reaches in from beyond the
  play area's edge (the table's edge or the frame's). The object's blob, with every cell that
  changed at all against the remembered table (:attr:`vision.hands.TableMemory.changed_cells`:
  an arm changes the table all along it, over pieces too, where the hand's own cells stop),
  meets the play area's rim over less than a wrist's width;
- it does not change: over ``frames`` frames in a row its cells (grown by a cell) stay within
  the detector's still limits of the frame before (all but a few: noise).

Such a blob, once no arm is seen (a part of a hand or its shadow apart from its arm waits until
the arm has gone), is *left out*: the memory neither counts it as a change nor learns it
(:attr:`vision.hands.TableMemory.left_out`), so the watch no longer judges it and the table is
read around it (a piece it hides is unseen; the referee doubts). It is taken back the moment
its cells change past the still limits against the frame it was left out on (a hand
reaching for it, the light changing, the object lifted away: then the table the memory kept
there is back, no ghost either way).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.local_read import changed_cells


@dataclass(frozen=True)
class LyingConfig:
    """Attributes:
    frames: Frames in a row over which a blob stays unchanged (each within the still limits of
        the one before), as many as the stabiliser wants for a still table: an object set
        down then holds the game twice the stabiliser's own wait.
    min_root_mm: A blob whose change meets the play area's rim over this much (mm along the
        rim) may be an arm reaching in: never left out (a wrist is 50-60 mm across; the root
        test's width, :class:`vision.hand_roots.RootTestConfig`).
    noise_share: An object is unchanged while at most this share of its cells (grown by one)
        changed past the still limits (a dim room's noise or a blind's flicker moves a cell or
        two of its edge between frames; a hand reaching for it covers more).
    """

    frames: int = 3
    min_root_mm: float = 40.0
    noise_share: float = 0.05


@dataclass(frozen=True)
class StillLimits:
    """A cell is unchanged between two frames when each channel is within ``change`` levels or
    ``share`` of its value (the detector's ``still_change`` and ``still_share``)."""

    change: float = 5.0
    share: float = 0.04

    def moved(self, now: np.ndarray, before: np.ndarray) -> np.ndarray:
        """Cells (bool (rows, cols)) that changed past the limits between two frames' cells
        (uint8 (rows, cols, 3))."""
        return changed_cells(now, before, self.change, self.share)


def rim_reach_mm(blob: np.ndarray, changed: np.ndarray, rim: np.ndarray,
                 cell_mm2: np.ndarray) -> float:
    """How far (mm along the play area's rim) the change a blob belongs to meets the rim: the
    blob's cells with the changed cells joined to it (8-connected), each such part's cells on
    the rim cells (two deep, so half their count) times those cells' size; the largest part's.
    One labelling for all the blobs of ``blob`` (the watch runs on every frame).

    >>> blob = np.zeros((6, 8), bool); blob[2:4, 3:5] = True
    >>> rim = np.zeros((6, 8), bool); rim[:, :2] = True
    >>> area = np.full((6, 8), 25.0, np.float32)
    >>> rim_reach_mm(blob, np.zeros((6, 8), bool), rim, area)
    0.0
    >>> arm = np.zeros((6, 8), bool); arm[1:5, 0:4] = True
    >>> rim_reach_mm(blob, arm, rim, area)
    20.0
    """
    _, labels = cv2.connectedComponents((blob | changed).astype(np.uint8), connectivity=8)
    ids = np.unique(labels[blob])
    on = rim & np.isin(labels, ids[ids > 0])
    if not on.any():
        return 0.0
    lab = labels[on]
    return float(np.bincount(lab, weights=np.sqrt(cell_mm2[on])).max()) / 2.0


class LyingObjects:
    """Which cells of the hand grid hold an object left lying (see the module's docstring).

    Fed once per decided frame (:meth:`see`); :attr:`left_out` is what the table memory is to
    leave out from the next frame on.
    """

    def __init__(self, cfg: LyingConfig, limits: StillLimits) -> None:
        self.cfg = cfg
        self.limits = limits
        self.left_out: np.ndarray | None = None
        """bool (rows, cols): the cells of objects left lying; None: none."""
        self._snap: np.ndarray | None = None  # the frame's cells when they were left out
        self._prev: np.ndarray | None = None  # the last frame's cells
        self._run: np.ndarray | None = None  # the candidates' cells so far
        self._count = 0  # frames in a row the candidates stayed unchanged
        self.released = 0
        """Objects left out so far (a count of blobs)."""

    def reset(self) -> None:
        """Forgets everything (a new table)."""
        self.left_out = self._snap = self._prev = self._run = None
        self._count = 0

    def see(self, cells: np.ndarray, hand_cells: np.ndarray | None,
            changed: np.ndarray | None, rim: np.ndarray, cell_mm2: np.ndarray) -> None:
        """One decided frame.

        Args:
            cells: The frame's cells (uint8 (rows, cols, 3), :meth:`vision.hand_grid.HandGrid.
                cells_of`).
            hand_cells: The hand's cells when the frame was called a hand (uint8 or bool
                (rows, cols)), else None.
            changed: The cells that changed at all against the memory (None: no memory yet).
            rim: The play area's rim cells (:meth:`vision.hand_grid.HandGrid.rim_cells`).
            cell_mm2: Each cell's area on the table.
        """
        prev, self._prev = self._prev, cells
        self._take_back(cells)
        if hand_cells is None or changed is None or prev is None or \
                prev.shape != cells.shape or not np.any(hand_cells):
            self._run, self._count = None, 0
            return
        cand, arm = self._candidates(hand_cells.astype(bool), changed.astype(bool), rim,
                                     cell_mm2)
        # while an arm is seen nothing is left out (a part of its hand, or its shadow, apart
        # from it waits until it has gone)
        if arm or not cand.any():
            self._run, self._count = None, 0
            return
        grown = cv2.dilate(cand.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        moved = self.limits.moved(cells, prev)
        still = np.count_nonzero(moved & grown) <= self.cfg.noise_share * np.count_nonzero(grown)
        if self._run is not None and (self._run & cand).any() and still:
            self._run, self._count = self._run | cand, self._count + 1
        else:  # (a frame that changed there starts a new run: the first of its frames)
            self._run, self._count = cand, 1
        if self._count >= self.cfg.frames:
            out = cv2.dilate(self._run.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
            self.released += cv2.connectedComponents(self._run.astype(np.uint8),
                                                     connectivity=8)[0] - 1
            self.left_out = out if self.left_out is None else self.left_out | out
            self._snap = cells.copy() if self._snap is None else np.where(
                out[..., None], cells, self._snap)
            self._run, self._count = None, 0

    def _candidates(self, hand: np.ndarray, changed: np.ndarray, rim: np.ndarray,
                    cell_mm2: np.ndarray) -> tuple[np.ndarray, bool]:
        """The hand's cells when none of them can be an arm (the change each blob belongs to,
        :func:`rim_reach_mm`, meets the rim over less than a wrist), bool (rows, cols), and
        whether one may be (then nothing is a candidate)."""
        if rim_reach_mm(hand, changed, rim, cell_mm2) >= self.cfg.min_root_mm:
            return np.zeros(hand.shape, bool), True
        return hand, False

    def _take_back(self, cells: np.ndarray) -> None:
        """Objects any of whose cells changed past the still limits since they were left out
        are judged again (a hand reaching for one, the light, the object lifted away)."""
        if self.left_out is None:
            return
        if self._snap is None or self._snap.shape != cells.shape:
            self.left_out = self._snap = None
            return
        moved = self.limits.moved(cells, self._snap) & self.left_out
        if not moved.any():
            return
        n, labels = cv2.connectedComponents(self.left_out.astype(np.uint8), connectivity=8)
        size = np.bincount(labels.ravel(), minlength=n)
        hit = np.bincount(labels[moved], minlength=n)
        gone = np.flatnonzero(hit > self.cfg.noise_share * size)
        self.left_out = self.left_out & ~np.isin(labels, gone[gone > 0])
        if not self.left_out.any():
            self.left_out = self._snap = None
