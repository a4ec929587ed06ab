"""The sheet test: a foreign blob whose face is even is a flat thing lying on the table (a page,
a notebook, a playing card, a phone's screen; most of all under a lamp's glare, where a white
sheet is one level or clipped), not a hand.

A flat face lies at one angle to the light, so its brightness changes across it at most as a
plane does (a lamp's fall-off over the sheet); print on it or a piece's rim is a few cells
apart. A hand and forearm are round: the light falls off to the limb's sides, round the
fingers and the wrist, which no plane follows. So the test fits a plane to the log level of
each colour channel over the blob's inner cells (a cell off its outline, which a cell half on
the table would blur), leaves out the cells far from it (print) and fits again, and measures
what is left: the median absolute deviation from the plane, the largest of the three channels'
(an arm lit near the top of the range is even in the channels that clip and still shaded in
the one that does not; a white page under glare clips in all three). In log levels it is the
same under a dim lamp and a bright one, on a dark table and a pale one (a share of the level).

Session 17 (branch hands17) measured the test and found it cost 2.3-6.3 ms of CPU a watch
frame (every frame with an arm passes the judge and was measured, 400 cells, channel after
channel). Here it costs a fraction of that: at most :data:`_MAX_CELLS` cells, the three
channels' planes solved at once, and the channel least even on the level plane measured first:
an arm is uneven in it and the test ends there (:func:`is_sheet`).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.hand_maps import HandMaps

_MAX_CELLS = 200
"""At most this many of a blob's inner cells are measured (evenly spread over it)."""

_ROUNDS = 3
"""Rounds of leaving out the cells far from the plane and fitting it again."""

_CROSS = np.ones((3, 3), np.uint8)

_SCREEN = 1.5
"""A blob whose least even channel is this many times the limit from a plane fitted to a
third of its cells is no sheet, without fitting them all (an arm's 0.03 and more)."""


@dataclass(frozen=True)
class SheetTestConfig:
    """Attributes:
    max_face_residual: A blob whose inner cells' log brightness stays within this (median
        absolute deviation) of a plane in every channel is a sheet, not a hand (0.015: about
        1.5 % of the level; session 17's tuning renders: hands' blobs 0.023 and more, sheets
        the judge passed 0.012 and less).
    min_cells: The test is made only on a blob with at least this many inner cells (fewer
        say too little about a face).
    """

    max_face_residual: float = 0.015
    min_cells: int = 12


def inner_levels(maps: HandMaps, blob: np.ndarray, min_cells: int = 12
                 ) -> tuple[np.ndarray, np.ndarray] | None:
    """The inner cells of ``blob`` (bool (rows, cols)): their centred columns and rows (N, 2)
    and log levels (N, 3), at most :data:`_MAX_CELLS` of them evenly spread; None when the
    blob has fewer than ``min_cells`` inner cells."""
    sh, sw = blob.shape
    bx, by, bw, bh = cv2.boundingRect(blob.view(np.uint8))  # (nonzero on the grid costs more)
    if bw == 0 or bh == 0:
        return None
    y0, y1 = max(0, by - 1), min(sh, by + bh + 1)
    x0, x1 = max(0, bx - 1), min(sw, bx + bw + 1)
    b = blob[y0:y1, x0:x1].view(np.uint8)
    core = cv2.erode(b, _CROSS, borderType=cv2.BORDER_REPLICATE)
    cy, cx = np.nonzero(core)
    if len(cy) < min_cells:
        return None
    step = -(-len(cy) // _MAX_CELLS)
    cy, cx = cy[::step], cx[::step]
    level = np.log(maps.small[y0:y1, x0:x1][cy, cx].astype(np.float32) + 1.0)
    at = np.empty((len(cy), 2), np.float32)
    at[:, 0] = cx - cx.mean()
    at[:, 1] = cy - cy.mean()
    return at, level


def plane_residual(at: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The median absolute deviation of ``values`` ((N, C): each column apart) from the plane
    through them over the cells ``at`` ((N, 2), columns and rows, centred): from the level
    plane at their median, the cells more than three deviations from the plane are left out
    and the plane fitted again by least squares (:data:`_ROUNDS` times); the closest plane's,
    (C,)."""
    v = np.asarray(values, np.float64)
    out = np.zeros(v.shape[1])
    if len(v) < 4:
        return out
    a = _design(at)
    for c in range(v.shape[1]):
        out[c] = _plane_mad(a, v[:, c])
    return out


def _design(at: np.ndarray) -> np.ndarray:
    """The plane's design (N, 3): one, column, row."""
    a = np.ones((len(at), 3))
    a[:, 1:] = at
    return a


def _mad(res: np.ndarray) -> float:
    """The median of ``|res|`` (the upper one of the two middle values: cheaper than
    ``np.median``, the same to a cell's noise)."""
    r = np.abs(res)
    k = len(r) // 2
    return float(np.partition(r, k)[k])


def _plane_mad(a: np.ndarray, v: np.ndarray) -> float:
    """:func:`plane_residual` of one column ``v`` (N,) over the design ``a`` (N, 3: one, column,
    row): a few small products a round and the 3x3 normal equations solved in closed form (the
    test runs on every watch frame with a hand; numpy's solvers cost more than the fit)."""
    res = v - float(np.partition(v, len(v) // 2)[len(v) // 2])
    dev = _mad(res)
    best = dev
    for _ in range(_ROUNDS):
        keep = np.abs(res) <= 3.0 * dev + 1e-3
        if np.count_nonzero(keep) < 4:
            break
        ak = a[keep]
        m = ak.T @ ak
        r = ak.T @ v[keep]
        coef = _solve3(m, r)
        if coef is None:
            break
        res = v - a @ coef
        dev = _mad(res)
        best = min(best, dev)
    return best


def _solve3(m: np.ndarray, r: np.ndarray) -> np.ndarray | None:
    """``x`` of ``m @ x = r`` for a 3x3 ``m`` by Cramer's rule; None when it is singular."""
    (a, b, c), (d, e, f), (g, h, i) = m.tolist()
    p, q, s = r.tolist()
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    if abs(det) < 1e-12:
        return None
    x = (p * (e * i - f * h) - b * (q * i - f * s) + c * (q * h - e * s)) / det
    y = (a * (q * i - f * s) - p * (d * i - f * g) + c * (d * s - q * g)) / det
    z = (a * (e * s - q * h) - b * (d * s - q * g) + p * (d * h - e * g)) / det
    return np.array([x, y, z])


def face_residual(maps: HandMaps, blob: np.ndarray, min_cells: int = 12) -> float | None:
    """The median absolute deviation of the log level of the inner cells of ``blob`` (bool
    (rows, cols) cells) from a plane fitted to them, the largest of the three channels' (see
    the module); None when the blob has fewer than ``min_cells`` inner cells."""
    got = inner_levels(maps, blob, min_cells)
    if got is None:
        return None
    return float(plane_residual(*got).max())


def is_sheet(cfg: SheetTestConfig, maps: HandMaps, blob: np.ndarray) -> bool:
    """Whether a blob's face is as even as a sheet's in every channel (see the module). The
    channel least even about its median is measured alone first: a plane can only lower its
    deviation, and where it stays past the limit (an arm, nearly always) the blob is no sheet
    and the other two are not measured."""
    got = inner_levels(maps, blob, cfg.min_cells)
    if got is None:
        return False
    at, level = got
    k = len(level) // 2
    spread = np.partition(np.abs(level - np.partition(level, k, axis=0)[k]), k, axis=0)[k]
    if float(spread.max()) < cfg.max_face_residual:
        return True  # even about one level in every channel: no plane needed
    a = _design(at)
    v = np.asarray(level, np.float64)
    order = np.argsort(-spread)
    # a look first at a third of the cells in the least even channel: an arm is far past the
    # limit there (1.5 times it: where a plane of fewer cells is closer than that, all are fitted)
    if _plane_mad(a[::3], v[::3, order[0]]) >= _SCREEN * cfg.max_face_residual:
        return False
    # the least even channel first: an arm ends the test there (all() stops at the first)
    return all(_plane_mad(a, v[:, c]) < cfg.max_face_residual for c in order)
