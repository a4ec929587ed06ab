"""Colour and brightness normalisation against the table.

The table's own colour is estimated per frame from a coarse median (pieces are small against
the window, so they do not move the median), and every pixel is divided by it: the table comes
out neutral grey at :data:`TABLE_LEVEL` whatever the light's colour and strength, so a cloud or
a lamp switched on changes nothing the stages see.

A blind's stripes are no smooth light: bands of shade 10-80 mm wide, as narrow as a piece, which
a median wide enough to pass over the pieces leaves in the view (the table's noise measured 35-58
levels under them, so the masks' thresholds passed nothing). But they are straight: the light
along them does not change, so a profile across them (:class:`vision.bands.Bands`), a gain per
millimetre of the view's direction across the bands, the mean of every table cell along each
line (pieces cover a small share of a line across the whole table, and are trimmed), follows
them to their soft edges and no piece bends it. The direction is the one the table's own
gradients take; the profile is kept only where it holds more of the table's variance than all
else does (a plain table, gingham's two directions, checks: none). Fitting them costs tens of
milliseconds; a camera's light changes far more rarely than its pieces move, so frame after
frame the last frame's bands (or that there were none) are kept while they fit as well as on
the frame they were fitted on, and only the median is taken again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.bands import Bands, Residual, fit_bands, residual, times_gain

TABLE_LEVEL = 100
"""The value the table takes in a normalised view (uint8; up to 2.55x brighter fits)."""


@dataclass(frozen=True)
class NormaliseConfig:
    """Attributes:
    cell_mm: Size of one cell of the coarse background grid.
    window_mm: Width of the median window (must exceed the largest cluster of pieces).
    band_mm: Width of a bin of the bands' profile (:class:`vision.bands.Bands`); 0: the light
        is smooth.
    band_share: The bands are part of the table's colour where their profile's spread is over
        this share of the spread of the table's cells about it (the bands then hold more of
        the table's variance than its grain, pattern and noise together).
    keep_rms: Frame after frame (a table's colour of the last frame passed in), its bands
        (or that there were none) are kept, and only the median taken again, where the cells
        stand from the colour so made by at most this many times their root mean square on
        the frame the bands were fitted on (each capped alike at 3 of that frame's sigmas):
        a light that moved or came (a blind's stripes shifted, a blind let down) leaves
        more there, pieces moved or a hand's fingers at the edge of the view little.
    """

    cell_mm: float = 8.0
    window_mm: float = 200.0
    band_mm: float = 1.0
    band_share: float = 1.0
    keep_rms: float = 1.25


@dataclass(frozen=True, eq=False)
class TableColour:
    """The table's colour over the view, known on a coarse grid of cells.

    Attributes:
        grid: uint8 (rows, cols, 3) BGR: the table's colour at each cell's centre.
        cell_px: Side of a cell in view pixels (a whole number).
        size_wh: The view's ``(width, height)``.
        bands: The light's bands on top of the grid's smooth colour, or None.
        fitted: How far the view's cells stood from this colour (bands and all) on the frame
            its bands were fitted on (or found to be none), or None: not measured.
    """

    grid: np.ndarray
    cell_px: int
    size_wh: tuple[int, int]
    bands: Bands | None = None
    fitted: Residual | None = None
    _cells: dict[int, np.ndarray] = field(default_factory=dict, init=False, repr=False,
                                          compare=False)

    def _band_gain(self) -> np.ndarray:
        """The bands' gain at every view pixel, float32 (H, W, 3), the same in each channel
        (made once for the bands)."""
        assert self.bands is not None
        return self.bands.at_view(self.size_wh, channels=3)

    def at_rect(self, x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
        """The colour at every view pixel of ``[x0, x1) x [y0, y1)``, uint8 (h, w, 3):
        bilinear between the cells' centres, the edge cells' colour beyond them (the same
        values, pixel for pixel, as :meth:`full`'s), times the bands' gain."""
        smooth = self._smooth_rect(x0, y0, x1, y1)
        if self.bands is None:
            return smooth
        return times_gain(smooth, self._band_gain()[y0:y1, x0:x1])

    def _smooth_rect(self, x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
        c = self.cell_px
        gh, gw = self.grid.shape[:2]
        i0 = min(gw - 1, max(0, math.floor((x0 + 0.5) / c - 0.5)))
        i1 = min(gw - 1, max(i0, math.ceil((x1 - 0.5) / c - 0.5)))
        j0 = min(gh - 1, max(0, math.floor((y0 + 0.5) / c - 0.5)))
        j1 = min(gh - 1, max(j0, math.ceil((y1 - 0.5) / c - 0.5)))
        sub = self.grid[j0:j1 + 1, i0:i1 + 1]
        up = cv2.resize(sub, ((i1 - i0 + 1) * c, (j1 - j0 + 1) * c),
                        interpolation=cv2.INTER_LINEAR)
        ox, oy = x0 - i0 * c, y0 - j0 * c  # never negative
        bottom = max(0, y1 - j0 * c - up.shape[0])
        right = max(0, x1 - i0 * c - up.shape[1])
        if bottom or right:  # past the grid's last cell: its colour
            up = cv2.copyMakeBorder(up, 0, bottom, 0, right, cv2.BORDER_REPLICATE)
        return up[oy:y1 - j0 * c, ox:x1 - i0 * c]

    def at_rows(self, rows: np.ndarray) -> np.ndarray:
        """The colour along whole view rows, uint8 (len(rows), W, 3) (as :meth:`full`'s, but
        for rounding)."""
        smooth = self._smooth_rows(rows)
        if self.bands is None:
            return smooth
        return times_gain(smooth, self._band_gain()[np.asarray(rows)])

    def _smooth_rows(self, rows: np.ndarray) -> np.ndarray:
        c = self.cell_px
        w = self.size_wh[0]
        gh, gw = self.grid.shape[:2]
        g = np.clip((np.asarray(rows, float) + 0.5) / c - 0.5, 0.0, gh - 1.0)
        j0 = np.floor(g).astype(int)
        j1 = np.minimum(j0 + 1, gh - 1)
        need, back = np.unique(np.r_[j0, j1], return_inverse=True)
        # the grid rows needed, interpolated across (rows stay as they are)
        across = cv2.resize(self.grid[need], (gw * c, len(need)), interpolation=cv2.INTER_LINEAR)
        if across.shape[1] < w:
            across = cv2.copyMakeBorder(across, 0, 0, 0, w - across.shape[1],
                                        cv2.BORDER_REPLICATE)
        across = across[:, :w]
        t = (g - j0).astype(np.float32)[:, None, None]
        a = across[back[:len(j0)]].astype(np.float32)
        b = across[back[len(j0):]].astype(np.float32)
        return np.rint(a + (b - a) * t).astype(np.uint8)

    def at_cells(self, factor: int) -> np.ndarray:
        """The colour at the centres of the view's ``factor``-pixel cells, uint8
        (H // factor, W // factor, 3); ``factor`` divides :attr:`cell_px` (made once: not to
        be written to)."""
        if factor not in self._cells:
            smooth = self._smooth_cells(factor)
            self._cells[factor] = smooth if self.bands is None else times_gain(
                smooth, self.bands.at_cells3(factor, smooth.shape[:2]))
        return self._cells[factor]

    def _smooth_cells(self, factor: int) -> np.ndarray:
        k = self.cell_px // factor
        w, h = self.size_wh
        gh, gw = self.grid.shape[:2]
        up = cv2.resize(self.grid, (gw * k, gh * k), interpolation=cv2.INTER_LINEAR)
        hc, wc = max(1, h // factor), max(1, w // factor)
        up = up[:hc, :wc]
        if up.shape[:2] != (hc, wc):
            up = cv2.copyMakeBorder(up, 0, hc - up.shape[0], 0, wc - up.shape[1],
                                    cv2.BORDER_REPLICATE)
        return up

    def full(self) -> np.ndarray:
        """The colour at every view pixel, uint8 (H, W, 3)."""
        w, h = self.size_wh
        return self.at_rect(0, 0, w, h)


def cell_px(cfg: NormaliseConfig, px_per_mm: float, factor: int = 1) -> int:
    """The background grid's cell in view pixels: about ``cell_mm``, a multiple of
    ``factor``."""
    return factor * max(1, round(cfg.cell_mm * px_per_mm / factor))


def table_colour(cfg: NormaliseConfig, cells_bgr: np.ndarray, valid_cells: np.ndarray,
                 factor: int, size_wh: tuple[int, int], px_per_mm: float,
                 last: TableColour | None = None) -> TableColour:
    """The table's colour (pieces and hands left out): a median over a wide window, and on
    top of it the light's straight bands where there are any (:mod:`vision.bands`; the median
    is then taken again of the cells with the bands divided out).

    Args:
        cells_bgr: The view's mean colour in cells of ``factor`` pixels, uint8 (h, w, 3).
        valid_cells: bool (h, w): cells wholly in the play area.
        factor: A cell's side in view pixels.
        size_wh: The view's size.
        px_per_mm: The view's scale.
        last: The table's colour on the camera's last frame: its bands (or that it had none)
            are kept while they fit this frame as well as the frame they were fitted on
            (``cfg.keep_rms``); only the median is taken again (fitting them costs tens of
            ms, the median a few).
    """
    cell = cell_px(cfg, px_per_mm, factor)
    if cfg.band_mm <= 0:
        return TableColour(_smooth_grid(cfg, cells_bgr, valid_cells, factor, cell, px_per_mm),
                           cell, size_wh)
    if (last is not None and last.fitted is not None and last.cell_px == cell
            and last.size_wh == size_wh):
        kept = _kept(cfg, last, cells_bgr, valid_cells, factor, px_per_mm)
        if kept is not None:
            return kept
    table = TableColour(_smooth_grid(cfg, cells_bgr, valid_cells, factor, cell, px_per_mm),
                        cell, size_wh)
    bands = fit_bands(cells_bgr, table.at_cells(factor), valid_cells, factor, px_per_mm,
                      cfg.band_mm, cfg.band_share)
    if bands is not None:
        flat = times_gain(cells_bgr, bands.at_cells3(factor, cells_bgr.shape[:2], inverse=True))
        table = TableColour(_smooth_grid(cfg, flat, valid_cells, factor, cell, px_per_mm),
                            cell, size_wh)
        bands = fit_bands(cells_bgr, table.at_cells(factor), valid_cells, factor, px_per_mm,
                          cfg.band_mm, cfg.band_share,
                          angle=math.atan2(bands.normal_xy[1], bands.normal_xy[0]))
        table = TableColour(table.grid, cell, size_wh, bands)
    out = TableColour(table.grid, cell, size_wh, table.bands,
                      residual(cells_bgr, table.at_cells(factor), valid_cells, factor))
    out._cells.update(table._cells)  # the same colour
    return out


def _kept(cfg: NormaliseConfig, last: TableColour, cells_bgr: np.ndarray,
          valid_cells: np.ndarray, factor: int, px_per_mm: float) -> TableColour | None:
    """The median taken again of the cells with ``last``'s bands divided out, with those
    bands; None where the cells stand farther from it than ``cfg.keep_rms`` allows."""
    assert last.fitted is not None
    bands = last.bands
    flat = cells_bgr if bands is None else times_gain(
        cells_bgr, bands.at_cells3(factor, cells_bgr.shape[:2], inverse=True))
    table = TableColour(_smooth_grid(cfg, flat, valid_cells, factor, last.cell_px, px_per_mm),
                        last.cell_px, last.size_wh, bands, last.fitted)
    now = residual(cells_bgr, table.at_cells(factor), valid_cells, factor, last.fitted.cap)
    return table if now.rms <= cfg.keep_rms * last.fitted.rms else None


def _smooth_grid(cfg: NormaliseConfig, cells_bgr: np.ndarray, valid_cells: np.ndarray,
                 factor: int, cell: int, px_per_mm: float) -> np.ndarray:
    """The median colour over ``cfg.window_mm`` on the grid of ``cell``-pixel cells, from
    the view's cells of ``factor`` pixels, uint8 (rows, cols, 3)."""
    k = cell // factor
    h, w = cells_bgr.shape[:2]
    sw, sh = max(1, w // k), max(1, h // k)
    small = cv2.resize(cells_bgr[:sh * k, :sw * k], (sw, sh), interpolation=cv2.INTER_AREA)
    vsmall = cv2.resize(valid_cells[:sh * k, :sw * k].astype(np.uint8) * 255, (sw, sh),
                        interpolation=cv2.INTER_AREA) > 250
    if vsmall.any() and not vsmall.all():
        # cells the camera does not (fully) see take the colour of the valid cells near them
        # (vignetting darkens the view's edges: a global colour there would be wrong)
        v = vsmall.astype(np.float32)
        near = max(3, int(2 * cfg.window_mm * px_per_mm / cell) | 1)
        num = cv2.boxFilter(small.astype(np.float32) * v[..., None], -1, (near, near),
                            normalize=False)
        den = cv2.boxFilter(v, -1, (near, near), normalize=False)[..., None]
        if np.all(den > 0.5):
            local = num / den
        else:
            local = np.where(den > 0.5, num / np.maximum(den, 1e-6),
                             np.median(small[vsmall], axis=0))
        small[~vsmall] = np.clip(local[~vsmall], 0, 255).astype(np.uint8)
    win = int(cfg.window_mm * px_per_mm / cell) | 1
    win = max(3, min(win, (min(sw, sh) - 1) | 1 if min(sw, sh) > 3 else 3))
    return cv2.blur(cv2.medianBlur(small, win), (3, 3))


def divide_by_table(top_bgr: np.ndarray, table_bgr: np.ndarray) -> np.ndarray:
    """A view (or part of one) divided by the table's colour there: the table at
    :data:`TABLE_LEVEL`, uint8 (H, W, 3)."""
    return cv2.divide(top_bgr, cv2.max(table_bgr, 1), scale=TABLE_LEVEL)
