"""The first stage: warp, normalise, and the masks every later stage reads.

Pieces of a piecepack (coins, tiles) are cream or white: brighter than the table once the
table is divided out. Posts and shadows are darker. Both masks are thresholded against the
table's own noise, measured on each frame.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.normalise import (
    TABLE_LEVEL,
    NormaliseConfig,
    TableColour,
    divide_by_table,
    table_colour,
)
from vision.stats import percentile
from vision.topview import TopView


@dataclass(frozen=True)
class PrepareConfig:
    """Attributes:
    normalise: How the table's colour is estimated.
    bright_sigmas: A piece pixel is brighter than the table by this many noise sigmas...
    min_bright: ...and at least by this much (in normalised levels, table = 100).
    dark_sigmas: A dark pixel (posts, hands' shade) is darker by this many sigmas...
    min_dark: ...and at least by this much.
    close_mm: Gaps narrower than this in a pale piece (a back's grid lines) are closed.
    hole_table_sigmas: A hole in a pale blob stays open when its colour is within this many
        noise sigmas of the table's (table seen through a loop of coins)...
    small_hole_mm2: ...unless it is smaller than this (less than half a coin: a symbol).
    pale_sigmas: A table so pale that a white piece is less than this many noise sigmas
        brighter than it is pale (``Prepared.pale``): its pieces may be too faint for the
        masks, so the view is made in full everywhere and the stages look harder.
    candidate_cell_px: The view is first seen in cells this many pixels wide...
    candidate_share: ...and a cell whose level is past this share of the bright or dark
        threshold may hold a piece...
    margin_mm: ...so the view is warped and normalised in full this far around such cells
        (farther than any stage looks past a piece's edge).
    """

    normalise: NormaliseConfig = field(default_factory=NormaliseConfig)
    bright_sigmas: float = 4.0
    min_bright: float = 7.0
    dark_sigmas: float = 5.0
    min_dark: float = 25.0
    close_mm: float = 2.0
    hole_table_sigmas: float = 5.0
    small_hole_mm2: float = 120.0
    pale_sigmas: float = 20.0
    candidate_cell_px: int = 2
    candidate_share: float = 0.9
    margin_mm: float = 12.0


@dataclass(frozen=True, eq=False)
class Prepared:
    """One frame, ready for the stages.

    Attributes:
        view: The top view it was made with.
        top: The warped frame, uint8 (H, W, 3) BGR (in ``rois_px``).
        norm: ``top`` divided by the table's colour (table = 100), uint8 (H, W, 3).
        level: Per-pixel brightness of ``norm`` (the largest channel), uint8 (H, W).
        bright: 255 where a pale piece is (holes such as symbols filled), uint8 (H, W).
        dark: 255 where something darker than the table is, uint8 (H, W).
        noise: The table's noise (robust sigma of ``level``).
        shade: Grey brightness relative to the table's (1 = table), float32 (H, W), not
            clipped: for finding edges to a fraction of a pixel.
        valid: uint8 (H, W), 255 over the play area: where the view sees the camera image and
            no printed sheet (the calibration mat, a board) lies.
        rois_px: The rectangles ``(x0, y0, x1, y1)`` where ``top``, ``norm``, ``level`` and
            ``shade`` were made in full (elsewhere: black, black, the table's level, 1).
        pale: The table is so pale that pieces may be too faint for the masks (then the view
            is made in full everywhere).
        table: The table's colour the view was divided by (the next frame's :func:`prepare`
            may keep its bands).
    """

    view: TopView
    top: np.ndarray
    norm: np.ndarray
    level: np.ndarray
    bright: np.ndarray
    dark: np.ndarray
    noise: float
    shade: np.ndarray
    valid: np.ndarray
    rois_px: tuple[tuple[int, int, int, int], ...] = ()
    pale: bool = False
    table: TableColour | None = None

    def unmade_window(self, centre_px: np.ndarray, half_px: float
                      ) -> tuple[int, int, int, int] | None:
        """The window ``(x0, y0, x1, y1)`` of view pixels ``half_px`` each way round a centre,
        clipped to the view, where the views were not made in full (no rectangle of
        :attr:`rois_px` holds it) and some of it is play area; None otherwise (or under 4 px a
        side): a candidate there has its window warped and normalised on its own."""
        h, w = self.valid.shape
        x0, y0 = max(0, int(centre_px[0] - half_px)), max(0, int(centre_px[1] - half_px))
        x1, y1 = min(w, int(centre_px[0] + half_px) + 1), min(h, int(centre_px[1] + half_px) + 1)
        if x1 - x0 < 4 or y1 - y0 < 4 or any(
                a <= x0 and b <= y0 and c >= x1 and d >= y1 for a, b, c, d in self.rois_px):
            return None
        if not (self.valid[y0:y1, x0:x1] > 0).any():
            return None
        return x0, y0, x1, y1

    def in_rois(self, fn: Callable[[np.ndarray], np.ndarray], mask: np.ndarray) -> np.ndarray:
        """``fn`` (a mask -> mask filter such as a closing) applied to ``mask`` rectangle by
        rectangle of :attr:`rois_px` (outside them the masks are empty), the results together.
        """
        if not self.rois_px:
            return fn(mask)
        out = np.zeros_like(mask)
        for x0, y0, x1, y1 in self.rois_px:
            part = out[y0:y1, x0:x1]
            cv2.bitwise_or(part, fn(mask[y0:y1, x0:x1]), dst=part)
        return out


def fill_holes(mask: np.ndarray, norm: np.ndarray | None = None,
               min_table_distance: float = 0.0, always_below_px: float = 0.0) -> np.ndarray:
    """The mask with holes inside its outer contours filled (uint8 0/255).

    With ``norm``, a hole that looks like the table (mean distance of its normalised colour
    from the table's below ``min_table_distance``) stays open: it is the table showing
    through a ring of pieces (a worm closed in a loop), not a symbol. Holes smaller than
    ``always_below_px`` pixels are filled whatever they look like.
    """
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    out = mask.copy()
    if hierarchy is None:
        return out
    holes = [c for c, hh in zip(contours, hierarchy[0], strict=True) if hh[3] >= 0]
    if norm is None:
        cv2.drawContours(out, holes, -1, 255, thickness=cv2.FILLED)
        return out
    small, large = [], []
    for c in holes:
        (small if cv2.contourArea(c) < always_below_px else large).append(c)
    if small:  # symbols and the like: filled whatever they look like, all at once
        cv2.drawContours(out, small, -1, 255, thickness=cv2.FILLED)
    for c in large:
        x, y, w, h = cv2.boundingRect(c)
        hole = np.zeros((h, w), np.uint8)
        cv2.drawContours(hole, [c], -1, 255, thickness=cv2.FILLED, offset=(-x, -y))
        hole = cv2.bitwise_and(hole, cv2.bitwise_not(mask[y:y + h, x:x + w]))
        if hole.any():
            px = norm[y:y + h, x:x + w][hole > 0].astype(np.float32) - TABLE_LEVEL
            if float(np.sqrt((px * px).sum(axis=1)).mean()) < min_table_distance:
                continue
        cv2.drawContours(out, [c], -1, 255, thickness=cv2.FILLED)
    return out


def largest_channel(bgr: np.ndarray) -> np.ndarray:
    """Each pixel's largest channel, uint8 (H, W)."""
    b, g, r = cv2.split(bgr)
    return cv2.max(cv2.max(b, g), r)


def _level(norm: np.ndarray) -> np.ndarray:
    """Brightness of a normalised view: the largest channel, after a 3x3 Gaussian blur."""
    return largest_channel(cv2.GaussianBlur(norm, (3, 3), 0))


def _shade(top: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Grey brightness relative to the table's, float32 (not clipped)."""
    return cv2.divide(cv2.cvtColor(top, cv2.COLOR_BGR2GRAY).astype(np.float32),
                      cv2.cvtColor(table, cv2.COLOR_BGR2GRAY).astype(np.float32) + 1.0)


def _noise(view: TopView, frame_bgr: np.ndarray, table: TableColour, valid: np.ndarray,
           step: int = 7, row_step: int = 70) -> float:
    """The table's noise: robust sigma of the level on a sparse grid of the view (every
    ``step``-th pixel of every ``row_step``-th row; pieces are too few to move it)."""
    h = valid.shape[0]
    mids = np.arange(1, h - 1, row_step)
    if not len(mids):
        return 0.0
    rows = (mids[:, None] + np.arange(-1, 2)[None]).ravel()
    bg = table.at_rows(rows)
    level = _level(divide_by_table(view.warp_rows(frame_bgr, rows), bg))[1::3]
    sample = level[:, ::step][valid[mids][:, ::step] > 0]
    if not sample.size:
        return 0.0
    med = percentile(sample, 50)
    return 1.4826 * percentile(np.abs(sample.astype(np.float32) - med), 50)


def _rois(cand: np.ndarray, factor: int, margin_px: int, shape: tuple[int, int]
          ) -> list[tuple[int, int, int, int]]:
    """Rectangles ``(x0, y0, x1, y1)`` of the view around the blobs of candidate cells (lone
    cells left out), grown by ``margin_px`` and clipped to the view."""
    h, w = shape
    cand = cv2.morphologyEx(cand, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    m = max(0, math.ceil(margin_px / factor))
    cand = cv2.dilate(cand, np.ones((2 * m + 1, 2 * m + 1), np.uint8))
    contours, _ = cv2.findContours(cand, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for c in contours:
        x, y, cw, ch = cv2.boundingRect(c)
        x1 = w if x + cw >= cand.shape[1] else (x + cw) * factor
        y1 = h if y + ch >= cand.shape[0] else (y + ch) * factor
        out.append((x * factor, y * factor, x1, y1))
    return out


def _blobs_into(cand: np.ndarray, region_cells: np.ndarray) -> np.ndarray:
    """The 8-connected blobs of candidate cells (uint8 0/255) that have a cell in
    ``region_cells`` (bool, same shape), whole; the others cleared."""
    n, labels = cv2.connectedComponents(cand, connectivity=8)
    if n <= 1:
        return cand
    hit = np.zeros(n, bool)
    hit[np.unique(labels[region_cells & (cand > 0)])] = True
    hit[0] = False
    return np.where(hit[labels], cand, 0).astype(np.uint8)


def prepare(cfg: PrepareConfig, view: TopView, frame_bgr: np.ndarray,
            valid: np.ndarray | None = None, everywhere: bool = False,
            half_bgr: np.ndarray | None = None, last: TableColour | None = None,
            region: np.ndarray | None = None) -> Prepared:
    """Warps and normalises a frame and finds its bright and dark masks.

    Coarse to fine: the view is first seen in cells of ``candidate_cell_px`` pixels, from
    which the table's colour and the candidate cells (brighter or darker than the table by
    nearly the masks' thresholds) come; the view is then warped and normalised in full only
    in rectangles around the candidates (``margin_mm`` more all round). Elsewhere ``top`` and
    ``norm`` are black and the table's own values stand: level :data:`TABLE_LEVEL`, shade 1.

    Args:
        cfg: Thresholds.
        view: The top view.
        frame_bgr: The raw frame.
        valid: uint8 (H, W) play area in the view; None: all the view sees.
        everywhere: Warp and normalise the whole view (a stage needs all of ``top``).
        half_bgr: The frame halved (:func:`vision.topview.halve`), when already made.
        last: The table's colour of the same camera's last frame (:attr:`Prepared.table`):
            its bands of light are kept while they fit (:func:`vision.normalise.table_colour`).
        region: uint8 (H, W) view mask (:mod:`vision.local_read`): only the candidates' blobs
            (8-connected candidate cells) that reach into it are made, whole; the table's
            colour, noise and thresholds are the whole view's as ever. None: every blob.
    """
    valid = view.valid if valid is None else valid
    h, w = valid.shape
    f = max(1, cfg.candidate_cell_px)
    hc, wc = max(1, h // f), max(1, w // f)
    coarse = view.warp_coarse(frame_bgr, f, half_bgr)
    valid_cells = cv2.resize(valid[:hc * f, :wc * f], (wc, hc),
                             interpolation=cv2.INTER_AREA) > 250
    table = table_colour(cfg.normalise, coarse, valid_cells, f, (w, h), view.px_per_mm, last)
    noise = _noise(view, frame_bgr, table, valid)
    above = max(cfg.min_bright, cfg.bright_sigmas * noise)
    below = max(cfg.min_dark, cfg.dark_sigmas * noise)
    # white (255) over the table's colour is brightest in its darkest channel
    darkest = percentile(table.grid.min(axis=2), 50)
    pale = 255.0 * TABLE_LEVEL / max(darkest, 1.0) - TABLE_LEVEL < cfg.pale_sigmas * max(
        noise, 1.0)
    if everywhere or pale:
        rois = [(0, 0, w, h)]
    else:
        clevel = largest_channel(divide_by_table(coarse, table.at_cells(f)))
        share = cfg.candidate_share
        cand = cv2.bitwise_or(
            cv2.threshold(clevel, TABLE_LEVEL + share * above, 255, cv2.THRESH_BINARY)[1],
            cv2.threshold(clevel, TABLE_LEVEL - share * below, 255, cv2.THRESH_BINARY_INV)[1])
        cand[~valid_cells] = 0
        if region is not None:
            cand = _blobs_into(cand, cv2.resize(region[:hc * f, :wc * f], (wc, hc),
                                                interpolation=cv2.INTER_AREA) > 0)
        rois = _rois(cand, f, math.ceil(cfg.margin_mm * view.px_per_mm), (h, w))
    if rois == [(0, 0, w, h)]:  # all of it: no copies
        top = view.warp(frame_bgr)
        bg = table.full()
        norm = divide_by_table(top, bg)
        level = _level(norm)
        shade = _shade(top, bg)
    else:
        top = np.zeros((h, w, 3), np.uint8)
        norm = np.zeros((h, w, 3), np.uint8)
        level = np.full((h, w), TABLE_LEVEL, np.uint8)
        shade = np.ones((h, w), np.float32)
        for x0, y0, x1, y1 in rois:
            # one pixel more all round, so the blur inside sees what the full view's would
            xa, ya, xb, yb = max(0, x0 - 1), max(0, y0 - 1), min(w, x1 + 1), min(h, y1 + 1)
            t = view.warp_rect(frame_bgr, xa, ya, xb, yb)
            bg = table.at_rect(xa, ya, xb, yb)
            n = divide_by_table(t, bg)
            inner = (slice(y0 - ya, y1 - ya), slice(x0 - xa, x1 - xa))
            top[y0:y1, x0:x1] = t[inner]
            norm[y0:y1, x0:x1] = n[inner]
            level[y0:y1, x0:x1] = _level(n)[inner]
            shade[y0:y1, x0:x1] = _shade(t, bg)[inner]
    hi, lo = TABLE_LEVEL + above, TABLE_LEVEL - below
    bright = cv2.bitwise_and(cv2.threshold(level, hi, 255, cv2.THRESH_BINARY)[1], valid)
    k = max(3, round(cfg.close_mm * view.px_per_mm) | 1)
    bright = cv2.morphologyEx(bright, cv2.MORPH_CLOSE,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    bright = fill_holes(bright, norm, cfg.hole_table_sigmas * max(noise, 2.0),
                        cfg.small_hole_mm2 * view.px_per_mm ** 2)
    # level < lo for whole-numbered levels: level <= ceil(lo) - 1
    dark = cv2.bitwise_and(
        cv2.threshold(level, math.ceil(lo) - 1, 255, cv2.THRESH_BINARY_INV)[1], valid)
    return Prepared(view, top, norm, level, bright, dark, noise, shade, valid, tuple(rois),
                    pale, table)
