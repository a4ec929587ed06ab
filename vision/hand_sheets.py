"""The sheet test: a foreign blob whose face is even is a flat thing lying on the table (a page,
a notebook, a playing card, a phone's screen; most of all under a lamp's glare, where a white
sheet is one level or clipped), not a hand.

A flat face lies at one angle to the light, so its brightness changes across it at most as a
plane does (a lamp's fall-off over the sheet); print on it or a piece's rim is a few cells
apart. A hand and forearm are round: the light falls off to the limb's sides, round the
fingers and the wrist, which no plane follows. So the test fits a plane to
the log level of each colour channel over the blob's inner cells (a cell off its outline, which
a cell half on the table would blur), leaves out the cells far from it (print) and fits again,
and measures what is left: the median absolute deviation from the plane, the largest of the
three channels' (an arm lit near the top of the range is even in the channels that clip and
still shaded in the one that does not; a white page under glare clips in all three). In log
levels it is the same under a dim lamp and a bright one, on a dark table and a pale one (a share
of the level). On 250 frames of the tuning renders (seeds 263000-263069 as the bench draws
them, 263500-263554 under glare with sheets beside the hand; ``training/README.md``, "Session
17") the 125 hands' blobs left 0.023 and more (two under 0.03), and the 8 of the 18 blobs the
hand judge wrongly passed that were sheets (notebooks, grid pages, a page, a page in a heap)
0.012 and less.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.hand_maps import HandMaps

_MAX_CELLS = 400
"""At most this many of a blob's inner cells are measured (evenly spread over it)."""


@dataclass(frozen=True)
class SheetTestConfig:
    """Attributes:
    max_face_residual: A blob whose inner cells' log brightness stays within this (median
        absolute deviation) of a plane is a sheet, not a hand (0.015: about 1.5 % of the
        level).
    min_cells: The test is made only on a blob with at least this many inner cells (fewer
        say too little about a face).
    """

    max_face_residual: float = 0.015
    min_cells: int = 12


def face_residual(maps: HandMaps, blob: np.ndarray, min_cells: int = 12) -> float | None:
    """The median absolute deviation of the log level of the inner cells of ``blob`` (bool
    (rows, cols) cells) from a plane fitted to them, the largest of the three channels' (see
    the module); None when the blob has fewer than ``min_cells`` inner cells."""
    ys, xs = np.nonzero(blob)
    sh, sw = blob.shape
    y0, y1 = max(0, int(ys.min()) - 1), min(sh, int(ys.max()) + 2)
    x0, x1 = max(0, int(xs.min()) - 1), min(sw, int(xs.max()) + 2)
    b = blob[y0:y1, x0:x1].astype(np.uint8)
    core = cv2.erode(b, np.ones((3, 3), np.uint8), borderType=cv2.BORDER_REPLICATE) > 0
    if np.count_nonzero(core) < min_cells:
        return None
    # every channel: an arm lit near the top of the range is even in the channels that clip
    # and still shaded in the one that does not (a white page clips in all of them)
    level = np.log(maps.small[y0:y1, x0:x1][core].astype(np.float64) + 1.0)
    step = -(-len(level) // _MAX_CELLS)
    if step > 1:  # an arm's thousands of cells: every step-th tells the same (the cost a frame)
        ys, xs = np.nonzero(core)
        core = np.zeros_like(core)
        core[ys[::step], xs[::step]] = True
        level = level[::step]
    return float(plane_residual(core, level).max())


def plane_residual(cells: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The median absolute deviation of ``values`` ((N,) or (N, C): at the true cells of
    ``cells``, in row order; each column apart) from the plane through them over the cells'
    rows and columns: from the level plane at their median, the cells more than three
    deviations from the plane are left out and the plane fitted again by least squares, three
    times; the closest plane's. (C,), or a 0-d array for (N,)."""
    ys, xs = np.nonzero(cells)
    v = np.asarray(values, np.float64)
    flat = v.ndim == 1
    v = v.reshape(len(v), -1)
    if len(v) < 4:
        out = np.zeros(v.shape[1])
        return out[0] if flat else out
    a = np.c_[np.ones(len(xs)), xs - xs.mean(), ys - ys.mean()]
    res = v - np.median(v, axis=0)  # the level plane first: the outliers cannot tilt it
    best = np.median(np.abs(res), axis=0)
    for _ in range(3):
        keep = np.abs(res) <= 3.0 * np.median(np.abs(res), axis=0) + 1e-3
        if np.any(np.count_nonzero(keep, axis=0) < 4):
            break
        for c in range(v.shape[1]):  # the normal equations: 3x3, well conditioned (centred)
            ak = a[keep[:, c]]
            try:
                coef = np.linalg.solve(ak.T @ ak, ak.T @ v[keep[:, c], c])
            except np.linalg.LinAlgError:
                coef = np.linalg.lstsq(ak, v[keep[:, c], c], rcond=None)[0]
            res[:, c] = v[:, c] - a @ coef
        best = np.minimum(best, np.median(np.abs(res), axis=0))
    return best[0] if flat else best


def is_sheet(cfg: SheetTestConfig, maps: HandMaps, blob: np.ndarray) -> bool:
    """Whether a blob's face is as even as a sheet's (see the module)."""
    r = face_residual(maps, blob, cfg.min_cells)
    return r is not None and r < cfg.max_face_residual
