"""What the one-frame hand cue sees of a frame: a coarse grid of cells (mean colour, fine grain)
and which cells are open table (over the play area, no piece found there).

Everything later (:mod:`vision.hand_features`, :mod:`vision.hand_judge`) works on these few
thousand cells, never on the frame's pixels again: the cue runs on every live frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.hand_grid import HandGrid


@dataclass(frozen=True)
class HandMaps:
    """One frame on the hand grid.

    Attributes:
        small: uint8 (rows, cols, 3): each cell's mean colour (BGR).
        grain: float32 (rows, cols): each cell's fine grain (mean absolute difference of the
            grey frame from its 1.5 px blur), in levels.
        use: bool (rows, cols): cells wholly over the play area and away from found pieces.
        cell_mm2: float32 (rows, cols): each cell's area on the table.
        pieces: bool (rows, cols): cells over found pieces (None: not known).
    """

    small: np.ndarray
    grain: np.ndarray
    use: np.ndarray
    cell_mm2: np.ndarray
    pieces: np.ndarray | None = None

    def __post_init__(self) -> None:
        sh, sw = self.use.shape
        if self.small.shape != (sh, sw, 3) or self.grain.shape != (sh, sw) or \
                self.cell_mm2.shape != (sh, sw):
            raise ValueError("HandMaps: small, grain, use and cell_mm2 must share one grid")
        if self.pieces is not None and self.pieces.shape != (sh, sw):
            raise ValueError("HandMaps: pieces must be of the grid's shape")
        for a in (self.small, self.grain, self.use, self.cell_mm2, self.pieces):
            if a is not None:
                a.setflags(write=False)


def hand_maps(grid: HandGrid, frame_bgr: np.ndarray, explained: np.ndarray, valid: np.ndarray,
              cells: np.ndarray | None = None) -> HandMaps:
    """The grid's view of one raw frame.

    Args:
        grid: The frame's grid (built once per calibration).
        frame_bgr: The raw frame.
        explained: uint8 view mask of the detected pieces (with a margin).
        valid: uint8 view mask of the play area.
        cells: ``grid.cells_of(frame_bgr)`` when already made.
    """
    sw, sh = grid.size_wh
    small = grid.cells_of(frame_bgr) if cells is None else cells
    grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    fine = cv2.absdiff(grey, cv2.GaussianBlur(grey, (7, 7), 1.5))
    grain = cv2.resize(fine, (sw, sh), interpolation=cv2.INTER_AREA).astype(np.float32)
    pieces = grid.sample(explained) > 0
    use = grid.play_cells(valid) & ~pieces
    return HandMaps(np.ascontiguousarray(small), grain, use.copy(), grid.cell_mm2.copy(), pieces)
