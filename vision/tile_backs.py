"""A face-down tile placed by its back's cross, where its outline cannot be measured.

A tile's back is printed with two dark lines crossing at the middle of its face (its four
quadrants). On a glossy white or marble table under soft light the tile's paper meets a
table of the same level and colour: the sides' edges are faint, a reflection or the wall's
shadow lies beside them, and the square fits of :mod:`vision.tile_fit` fail. The cross is the
tile's own ink on its own paper, whatever the table: each of its four arms is read across (the
levels averaged along the arm, in the square's own frame), its line is the narrow dip below
the paper either side of it, placed between samples by a parabola; the two lines give the
tile's centre and turn. A cross stands only where all four arms show their line, the two
halves of each line agree, and the lines stop at the tile's outline: a printed grid's lines
(a page, a notebook) run on across the table (:func:`back_square`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

SAMPLES = 48
"""Samples along a tile's side in the square's own frame."""
ARM = (0.1, 0.42)
"""The stretch of each arm (shares of a side out from the centre) whose levels are averaged:
past a face-up symbol's middle, inside the back's border."""
BEYOND = (0.56, 0.72)
"""The stretch along a line's run beyond the tile's outline (shares of a side)."""
PAPER_PX = 3
"""How far either side of the line (samples) its paper is taken."""


@dataclass(frozen=True)
class BackFitConfig:
    """Attributes:
    min_dip: Each arm's line lies this share of its paper's level below it, at least.
    half_dip: Each half of each arm (its inner and outer half apart) dips by this share of
        ``min_dip`` on the arm's line (:func:`_straight`).
    search: The cross is looked for within this share of a side of the candidate.
    max_bend_px: The two halves of a line lie within this many samples of one straight line
        through the crossing (a turn of about a degree and a half).
    first_bend_px: The same for the first reading, from the rough direction the candidate
        gives (the colour gradients' vote, a few degrees off on a table whose level hides
        the sides): the cross read again along its own direction must then be straight to
        ``max_bend_px``.
    run_share: A line runs on past the outline where it dips beyond it by this share of its
        dip inside.
    max_runs: A cross whose arms run on this many times is a printed grid, no tile (a tile in
        a row of face-down tiles, aligned, has two).
    max_square_turn_deg: A back's lines run along its tile's sides: where the tile's outline
        is measured whole (the colour square fit, :func:`vision.tile_fit.fit_square`, with
        points along half of each of its four sides) turned from the cross by more than
        this, the cross is no back (a face-up symbol's rays, a check's lines on the face)
        and the outline places the tile (:func:`vision.tile_candidates.fit_tiles`; a sun
        on small checks was placed 22 degrees off, tuning game table 680012); None: the
        cross stands whatever the outline.
    """

    min_dip: float = 0.03
    half_dip: float = 0.7
    search: float = 0.25
    max_bend_px: float = 1.2
    first_bend_px: float = 3.0
    run_share: float = 0.5
    max_runs: int = 3
    max_square_turn_deg: float | None = 3.0


@dataclass(frozen=True)
class BackFit:
    """A cross found: ``centre_px`` (2,) view pixels, ``angle_px`` view degrees in [0, 90),
    ``dip`` the weakest arm's dip (share of its paper), ``runs`` how many arms run on."""

    centre_px: np.ndarray
    angle_px: float
    dip: float
    runs: int


def _frame(grey: np.ndarray, centre: np.ndarray, angle_deg: float, side: float,
           reach: float) -> np.ndarray:
    """The square's own frame: ``grey`` sampled on a grid of :data:`SAMPLES` a side,
    ``reach`` sides either way of ``centre``, its axes along the square's sides."""
    n = round(2 * reach * SAMPLES) | 1
    scale = SAMPLES / side
    M = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), angle_deg, scale)
    M[:, 2] += np.array([(n - 1) / 2.0, (n - 1) / 2.0]) - np.asarray(centre, float)
    return cv2.warpAffine(grey, M, (n, n), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def _dips(profile: np.ndarray) -> np.ndarray:
    """Each sample's dip below the paper :data:`PAPER_PX` either side, as a share of it
    (the ends: 0)."""
    k = PAPER_PX
    out = np.zeros_like(profile)
    paper = 0.5 * (profile[:-2 * k] + profile[2 * k:])
    out[k:-k] = (paper - profile[k:-k]) / np.maximum(paper, 1e-6)
    return out


def _line(profile: np.ndarray, lo: int, hi: int) -> tuple[float, float]:
    """(where, dip) of the deepest narrow dip of ``profile`` between samples ``lo`` and
    ``hi`` (where placed between samples by a parabola)."""
    d = _dips(profile)
    j = lo + int(np.argmax(d[lo:hi]))
    g0, g1, g2 = d[j - 1], d[j], d[j + 1]
    den = g0 - 2 * g1 + g2
    sub = float(np.clip(0.5 * (g0 - g2) / den, -0.5, 0.5)) if den < -1e-9 else 0.0
    return j + sub, float(g1)


def _arms(f: np.ndarray, mid: float, lo_hi: tuple[float, float], band: int
          ) -> list[tuple[float, float]]:
    """The line across each of the two arms along x (left, right) of frame ``f`` whose centre
    is sample ``mid``: (row, dip) of the deepest dip within ``band`` rows of the middle,
    the levels averaged along the arm's stretch ``lo_hi`` (shares of a side)."""
    out = []
    c = round(mid)
    for sign in (-1, 1):
        a, b = sorted((c + sign * lo_hi[0] * SAMPLES, c + sign * lo_hi[1] * SAMPLES))
        prof = f[:, round(a):round(b) + 1].mean(axis=1)
        lo, hi = max(PAPER_PX + 1, c - band), min(len(prof) - PAPER_PX - 1, c + band + 1)
        out.append(_line(prof, lo, hi) if hi > lo else (float(c), 0.0))
    return out


def _cross(f: np.ndarray, band: int) -> tuple[list[tuple[float, float]], ...]:
    """The lines of the arms along x (rows) and along y (columns) of frame ``f``."""
    mid = (f.shape[0] - 1) / 2.0
    return _arms(f, mid, ARM, band), _arms(f.T, mid, ARM, band)


def back_square(top: np.ndarray, centre_px: np.ndarray, side: float,
                angles_deg: list[float], cfg: BackFitConfig | None = None) -> BackFit | None:
    """The face-down tile whose back's cross lies near ``centre_px`` (view pixels), tried at
    each of ``angles_deg`` (rough directions of its sides, view degrees), or None.

    ``top`` is the view (BGR or grey) made around the candidate; ``side`` the tile's side in
    view pixels."""
    cfg = cfg or BackFitConfig()
    c0 = np.asarray(centre_px, float)
    half = (0.5 + 2 * cfg.search + ARM[1]) * side * math.sqrt(2) + 4
    h, w = top.shape[:2]
    x0, y0 = max(0, int(c0[0] - half)), max(0, int(c0[1] - half))
    x1, y1 = min(w, int(c0[0] + half) + 2), min(h, int(c0[1] + half) + 2)
    if x1 - x0 < side or y1 - y0 < side:
        return None
    grey = top[y0:y1, x0:x1].astype(np.float32)  # the window the cross can lie in
    if grey.ndim == 3:
        grey = grey.mean(axis=2)
    corner = np.array([x0, y0], float)
    best: BackFit | None = None
    for a0 in angles_deg:
        fit = _cross_at(grey, c0 - corner, float(a0), side, cfg)
        if fit is not None and (best is None or fit.dip > best.dip):
            best = fit
    if best is None:
        return None
    return BackFit(best.centre_px + corner, best.angle_px, best.dip, best.runs)


def _cross_at(grey: np.ndarray, c0: np.ndarray, a0: float, side: float, cfg: BackFitConfig
              ) -> BackFit | None:
    """:func:`back_square` from one rough direction ``a0``."""
    reach = 0.5 + cfg.search + ARM[1]
    c, a = c0.copy(), a0
    band = round(cfg.search * SAMPLES)
    dip = 0.0
    bend = cfg.first_bend_px
    for _ in range(3):  # the cross found, then read again centred on it
        f = _frame(grey, c, a, side, reach)
        mid = (f.shape[0] - 1) / 2.0
        rows, cols = _cross(f, band)
        dip = min(d for _, d in rows + cols)
        if dip < cfg.min_dip:
            return None
        # along x, the arms' lines (rows) left and right; along y, columns up and down
        span = (ARM[0] + ARM[1]) * SAMPLES  # between the two halves' middles
        bend_x = rows[1][0] - rows[0][0]
        bend_y = cols[1][0] - cols[0][0]
        if abs(bend_x + bend_y) > 2 * bend:  # turns must agree (y = -x)
            return None
        turn = math.degrees(math.atan2(0.5 * (bend_x - bend_y), span))
        dv = 0.5 * (rows[0][0] + rows[1][0]) - mid  # the crossing in the frame
        du = 0.5 * (cols[0][0] + cols[1][0]) - mid
        t = math.radians(a)
        ex = np.array([math.cos(t), math.sin(t)])  # the frame's axes in the view
        ey = np.array([-math.sin(t), math.cos(t)])
        c = c + (du * ex + dv * ey) * side / SAMPLES
        a = a + turn
        band, bend = 3, cfg.max_bend_px
    if np.hypot(*(c - c0)) > cfg.search * side * 1.2 or not _straight(grey, c, a, side, cfg):
        return None
    runs = _runs(grey, c, a, side, cfg)
    if runs >= cfg.max_runs:
        return None
    return BackFit(np.asarray(c, float), float(a) % 90.0, float(dip), runs)


def _straight(grey: np.ndarray, centre: np.ndarray, angle_deg: float, side: float,
              cfg: BackFitConfig) -> bool:
    """Each arm's line is one straight line along all of it: read on the arm's inner and
    outer halves apart, each dips on the arm's line (a face's symbol, a check's or a
    shadow's edge crossing an arm makes a dip on part of it, or off the line)."""
    f = _frame(grey, centre, angle_deg, side, ARM[1] + 0.05)
    mid = (f.shape[0] - 1) / 2.0
    halves = ((ARM[0], 0.5 * (ARM[0] + ARM[1])), (0.5 * (ARM[0] + ARM[1]), ARM[1]))
    for g in (f, f.T):
        whole = _arms(g, mid, ARM, 3)
        for part in halves:
            for (at, _), (at_part, d_part) in zip(whole, _arms(g, mid, part, 3), strict=True):
                if d_part < cfg.half_dip * cfg.min_dip or abs(at_part - at) > cfg.max_bend_px:
                    return False
    return True


def _runs(grey: np.ndarray, centre: np.ndarray, angle_deg: float, side: float,
          cfg: BackFitConfig) -> int:
    """How many of the cross's four arms run on past the tile's outline as a line as dark."""
    f = _frame(grey, centre, angle_deg, side, BEYOND[1] + 0.05)
    runs = 0
    for g in (f, f.T):
        inside = _arms(g, (g.shape[0] - 1) / 2.0, ARM, 2)
        beyond = _arms(g, (g.shape[0] - 1) / 2.0, BEYOND, 2)
        for (_, d_in), (_, d_out) in zip(inside, beyond, strict=True):
            runs += int(d_out >= cfg.run_share * d_in)
    return runs
