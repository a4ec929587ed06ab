"""The coarse grid over the raw frame that the hand cues look at, and where each cell lies in
the top view (built once per calibration)."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.model import Calibration
from vision.topview import TopView


class HandGrid:
    """A coarse grid over the raw frame, and where each of its cells lies in the top view.

    Built once per calibration: the view's masks (pieces found, the play area) are sampled at
    the cells' centres, and each cell's area on the table is known, so a blob's size is in mm².
    """

    def __init__(self, calibration: Calibration, view: TopView, cells_across: int) -> None:
        w, h = calibration.image_size
        cell = max(1.0, w / max(1, cells_across))
        sw, sh = max(1, round(w / cell)), max(1, round(h / cell))
        self.size_wh = (sw, sh)
        self.image_size = (w, h)
        us = (np.arange(sw) + 0.5) * (w / sw) - 0.5
        vs = (np.arange(sh) + 0.5) * (h / sh) - 0.5
        uu, vv = np.meshgrid(us, vs)
        pts = np.c_[uu.ravel(), vv.ravel()]
        with np.errstate(all="ignore"):
            mm = calibration.to_table(pts)
            du = calibration.to_table(pts + np.array([1.0, 0.0])) - mm
            dv = calibration.to_table(pts + np.array([0.0, 1.0])) - mm
            px = view.to_px(mm)
        area = np.abs(du[:, 0] * dv[:, 1] - du[:, 1] * dv[:, 0]) * (w / sw) * (h / sh)
        area = np.where(np.isfinite(area), area, 0.0)
        px = np.where(np.isfinite(px), px, -10.0)
        self.cell_mm2 = np.clip(area, 0.0, 1e4).reshape(sh, sw).astype(np.float32)
        self.map_x = px[:, 0].reshape(sh, sw).astype(np.float32)
        self.map_y = px[:, 1].reshape(sh, sw).astype(np.float32)
        self._play: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._rim: tuple[np.ndarray, np.ndarray] | None = None

    def play_cells(self, valid: np.ndarray) -> np.ndarray:
        """The cells wholly over the play area (a view mask that rarely changes: the last
        answer is kept while the same mask is asked about), bool (rows, cols)."""
        if self._play is None or self._play[0] is not valid:
            cells = (self.sample(valid) > 250) & (self.cell_mm2 > 0)
            self._play = (valid, cells, np.flatnonzero(cells))
        return self._play[1]

    def rim_cells(self, valid: np.ndarray) -> np.ndarray:
        """The cells of the play area at its edge (within two cells of a cell off it or of the
        grid's border): where an arm reaching in from beyond the table crosses it, bool
        (rows, cols); kept while the same mask is asked about, as :meth:`play_cells`."""
        play = self.play_cells(valid)
        if self._rim is None or self._rim[0] is not play:
            off = np.pad(~play, 1, constant_values=True).astype(np.uint8)
            near = cv2.dilate(off, np.ones((5, 5), np.uint8))[1:-1, 1:-1] > 0
            self._rim = (play, near & play)
        return self._rim[1]

    def play_index(self, valid: np.ndarray) -> np.ndarray:
        """:meth:`play_cells` as flat indices (rows x columns), ascending."""
        self.play_cells(valid)
        assert self._play is not None
        return self._play[2]

    def sample(self, view_mask: np.ndarray) -> np.ndarray:
        """A uint8 view mask at the cells (any part of the mask near a cell's centre counts)."""
        return cv2.remap(view_mask, self.map_x, self.map_y, cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=0)

    def cells_of(self, frame_bgr: np.ndarray, half_bgr: np.ndarray | None = None
                 ) -> np.ndarray:
        """The frame's mean colour in each cell, uint8 (rows, columns, 3); from the frame
        halved (``half_bgr``) when it is already made (cheaper; the same but for rounding)."""
        src = frame_bgr if half_bgr is None else half_bgr
        return cv2.resize(src, self.size_wh, interpolation=cv2.INTER_AREA)

    def covers(self, cells: np.ndarray, points_px: np.ndarray) -> np.ndarray:
        """Which raw pixels (N, 2) fall on a cell mask's blobs, holes filled and grown by a
        cell (a piece found inside a hand leaves a hole in it); bool (N,)."""
        w, h = self.image_size
        sw, sh = self.size_wh
        blobs = cells.astype(np.uint8)
        contours, _ = cv2.findContours(blobs, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        cv2.drawContours(blobs, contours, -1, 1, cv2.FILLED)
        blobs = cv2.dilate(blobs, np.ones((3, 3), np.uint8))
        p = np.asarray(points_px, float).reshape(-1, 2)
        i = np.clip(((p[:, 0] + 0.5) * sw / w).astype(int), 0, sw - 1)
        j = np.clip(((p[:, 1] + 0.5) * sh / h).astype(int), 0, sh - 1)
        return blobs[j, i] > 0

    def outlines_px(self, cells: np.ndarray) -> tuple[np.ndarray, ...]:
        """Outlines (each (K, 2) raw image pixels) of the blobs of a cell mask."""
        w, h = self.image_size
        sw, sh = self.size_wh
        contours, _ = cv2.findContours(cells.astype(np.uint8), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_SIMPLE)
        scale = np.array([w / sw, h / sh])
        return tuple((c.reshape(-1, 2).astype(float) + 0.5) * scale - 0.5 for c in contours)
