"""The table's edge: a foreign blob that lies wholly beyond a straight step running across the
whole view is the floor (or the room) beyond the table's edge, not a hand.

A camera that sees past the table's edge sees a floor of another colour beyond a straight line
(straight on the hand grid: a lens bends it by less than a cell), and the one-frame cue finds
that floor, or the band of it nearest the edge, foreign to the table. An arm has straight sides
too, but the step across an arm's side ends where the arm ends (at the fingers: beyond them the
line crosses the table, the same on both sides), while the table's edge runs on with the same
step from one border of the view to the other. So a blob is the floor beyond the edge when some
line along its outline (the strongest few of a Hough transform of the outline cells facing the
open table) has every cell of the blob on one side and the blob's own step across it (the
median colour difference, blob's side less the table's, over the cells where the blob meets it)
at nearly every point of the line from border to border, where it crosses the open table.

Nothing here depends on the light's level or the table's colour: the step is measured in log
levels against the blob's own step, not against a threshold.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.hand_maps import HandMaps


@dataclass(frozen=True)
class EdgeTestConfig:
    """Attributes:
    min_step_share: Least share of the line's points (where both sides are open table or the
        blob) with the blob's step across it (at least half its size, in its direction).
    max_near_side: Largest share of the blob's cells on the table's side of the line (more
        than ``side_cells`` from it: a blind's stripes or the table's own shade tied to the
        floor's band reach over it; a plank's seam through an arm has half the arm there).
    side_cells: How far (cells) from the line the two sides are sampled.
    band_cells: Each side's level is the median of this many cells across the line, from
        ``side_cells`` out.
    min_points: Least number of the line's points measured.
    min_along: Least share of them where the blob lies on its side of the line: the floor is
        foreign all along the table's edge (or its band along it is), while an arm lies beside
        a blind's stripe, also a straight step across the whole view, for a fifth of it.
    lines: How many of the Hough transform's strongest lines are tried.
    min_votes: Least outline cells on a line the Hough transform reports.
    judge_sure: A blob the hand judge gives at least this share of its votes is not tested
        (:func:`vision.hands.hands_of_maps`): an arm reaching in at a corner of the view lies
        wholly beyond the line of its own side, as the floor in a corner does, and where
        pieces or the view's border hide the line past its fingers the test cannot tell them
        apart; the judge can (session 18's floors it passed scored 0.40-0.79; an arm at a
        corner of a small checked cloth, tuning render 462503, 0.97 and lost to the test).
        None: every blob passed is tested.
    """

    min_step_share: float = 0.97
    max_near_side: float = 0.2
    side_cells: float = 2.5
    band_cells: int = 3
    min_points: int = 30
    min_along: float = 0.5
    lines: int = 6
    min_votes: int = 10
    judge_sure: float | None = 0.9


def beyond_edge(cfg: EdgeTestConfig, maps: HandMaps, blob: np.ndarray) -> bool:
    """Whether ``blob`` (bool (rows, cols)) lies beyond a straight step across the whole view
    (see the module)."""
    use = maps.use
    u8 = ((~blob) & use).astype(np.uint8)
    outline = blob & (cv2.dilate(u8, np.ones((3, 3), np.uint8)) > 0)
    outline[0], outline[-1], outline[:, 0], outline[:, -1] = False, False, False, False
    lines = cv2.HoughLines(outline.astype(np.uint8), 1, np.pi / 180, cfg.min_votes)
    if lines is None:
        return False
    ys, xs = np.nonzero(blob)
    level = np.log(maps.small.astype(np.float32) + 1.0)
    return any(_is_edge(cfg, blob, use, level, xs, ys, float(rho), float(theta))
               for rho, theta in lines[:cfg.lines, 0])


def _is_edge(cfg: EdgeTestConfig, blob: np.ndarray, use: np.ndarray, level: np.ndarray,
             xs: np.ndarray, ys: np.ndarray, rho: float, theta: float) -> bool:
    """Whether the line ``x cos(theta) + y sin(theta) = rho`` (cells) is such a step."""
    sh, sw = blob.shape
    c, s = np.cos(theta), np.sin(theta)
    dist = xs * c + ys * s - rho
    side = 1.0 if np.median(dist) >= 0 else -1.0
    if np.mean(dist * side < -cfg.side_cells) > cfg.max_near_side:
        return False  # the blob reaches across the line: no edge it lies beyond
    normal = np.array([c, s]) * side
    along = np.array([-s, c])
    # the line's points in the grid, a cell apart, from border to border; each side's level
    # the median of a short run of cells across the line (a cell of noise, a tooth of the blob
    # or a line a cell off the edge does not decide a point)
    t = np.arange(-(sw + sh), sw + sh, 1.0)
    pts = rho * np.array([c, s])[None] + t[:, None] * along[None]
    offs = np.arange(cfg.side_cells, cfg.side_cells + cfg.band_cells)
    a = np.rint(pts[:, None] + offs[None, :, None] * normal).astype(np.int32)  # blob's side
    b = np.rint(pts[:, None] - offs[None, :, None] * normal).astype(np.int32)  # table's side
    inside = ((a[..., 0] >= 0) & (a[..., 0] < sw) & (a[..., 1] >= 0) & (a[..., 1] < sh)
              & (b[..., 0] >= 0) & (b[..., 0] < sw) & (b[..., 1] >= 0) & (b[..., 1] < sh)
              ).all(axis=1)
    a, b = a[inside], b[inside]
    on_a = blob[a[:, 0, 1], a[:, 0, 0]]
    ok = (use[a[:, 0, 1], a[:, 0, 0]] | on_a) & use[b[:, 0, 1], b[:, 0, 0]]
    if np.count_nonzero(ok) < cfg.min_points or np.count_nonzero(ok & on_a) < max(
            4.0, cfg.min_along * np.count_nonzero(ok)):
        return False  # the blob runs along too little of the line: no floor along an edge
    diff = (np.median(level[a[..., 1], a[..., 0]], axis=1)
            - np.median(level[b[..., 1], b[..., 0]], axis=1))
    ref = np.median(diff[ok & on_a], axis=0)
    size = float(np.linalg.norm(ref))
    if size < 1e-3:
        return False
    step = diff[ok] @ ref >= 0.5 * size * size
    return bool(np.mean(step) >= cfg.min_step_share)
