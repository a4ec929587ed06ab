"""Light in straight bands (a blind's stripes), found in the table's cells and kept as a gain
on its smooth colour (:mod:`vision.normalise`).

A blind throws bands of shade 10-80 mm wide with soft edges of a few millimetres: narrower than
a tile, so no median that passes over the pieces follows them, and left in the view they are
the table's noise (35-58 levels: the masks' thresholds then pass nothing). But they are straight
and the light along them does not change: a profile across them, the mean of the table's cells
along each line of the view (a line across the whole table is mostly table; pieces and shadows
on it are trimmed), follows each band to its soft edge, and no piece bends it.

The direction across the bands is the one the table's own gradients take (the structure
tensor of its cells against the smooth colour, each gradient's weight capped so a few strong
piece edges do not lead), refined to the angle whose profile leaves the least. The bands are
kept only where the profile's spread is more than ``share`` times the spread of the cells about
it (they hold more of the table's variance than grain, pattern and noise together): a plain
table, gingham (its two directions cancel in the tensor), checks, grain's faint streaks keep
none, and cost only the first look (about a millisecond).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.stats import percentile

TEST_SPACING_MM = 8.0
"""Whether there are bands, and their direction, is seen in the cells halved until they are
about this far apart (a blind's period is 35 mm or more), with a profile of at most about..."""
TEST_SAMPLES = 6_000
"""...this many of them in bins of..."""
TEST_BIN_MM = 4.0
"""...this, the direction the table's gradients take searched in steps of..."""
SEARCH_STEP_DEG = 0.5
SEARCH_STEPS = 6
"""...0.5 degree up to 6 steps each way (12 on where the last is best: grain, a marble's veins
or the pieces turn the gradients' direction 1-5 degrees from the bands'); then in steps of..."""
TURN_STEP_DEG = 0.1
"""...this, up to 4 steps each way, and then of a quarter of it (a band's edge 1 m away
moves 1.7 mm a tenth of a degree), and the profile made from about..."""
SAMPLES = 100_000
"""...this many of the cells, on an even lattice."""
CHECK_SAMPLES = 6_000
"""How far the cells stand from the table's colour (:func:`residual`) is measured on about
this many of them."""


@dataclass(frozen=True, eq=False)
class Bands:
    """Light that changes across straight bands and not along them (a blind's stripes), as a
    gain on the smooth table's colour.

    Attributes:
        normal_xy: Unit vector across the bands, in view pixels.
        start_px: Where the first bin starts along ``normal_xy`` (view pixels from (0, 0)).
        bin_px: A bin's width (view pixels).
        gain: float32 (n,): the light in each bin relative to the smooth table's.
    """

    normal_xy: tuple[float, float]
    start_px: float
    bin_px: float
    gain: np.ndarray
    _made: dict[tuple[int, int, int], np.ndarray] = field(
        default_factory=dict, init=False, repr=False, compare=False)

    def _at(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """The gain at view points ``(xs[i], ys[j])``, float32 (len(ys), len(xs)): the same
        value at the same point however the points are gathered (a part of the view, whole
        rows, all of it)."""
        nx, ny = self.normal_xy
        b = self.bin_px
        across = (nx / b) * np.asarray(xs, np.float64)
        down = (ny / b) * np.asarray(ys, np.float64) - (self.start_px / b + 0.5)
        mx = (down[:, None] + across[None, :]).astype(np.float32)
        return cv2.remap(self.gain[None, :], mx, np.zeros_like(mx), cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)

    def at_rect(self, x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
        """The gain at every view pixel of ``[x0, x1) x [y0, y1)``, float32 (h, w)."""
        return self._at(np.arange(x0, x1), np.arange(y0, y1))

    def at_view(self, size_wh: tuple[int, int], channels: int = 1) -> np.ndarray:
        """The gain at every pixel of a view of ``size_wh``, float32 (h, w), or (h, w,
        ``channels``) the same in each: :meth:`at_rect` of all of it, made once (the bands
        kept frame after frame on a still table's light ask for it again; not to be written
        to)."""
        key = (-channels, size_wh[1], size_wh[0])
        if key not in self._made:
            gain = self.at_rect(0, 0, *size_wh)
            self._made[key] = gain if channels == 1 else cv2.merge([gain] * channels)
        return self._made[key]

    def at_cells(self, factor: int, shape_hw: tuple[int, int]) -> np.ndarray:
        """The gain at the centres of the view's ``factor``-pixel cells, float32
        ``shape_hw`` (made once, as :meth:`at_view`; ``factor`` over 1)."""
        key = (factor, *shape_hw)
        if key not in self._made:
            c = (factor - 1) / 2.0
            h, w = shape_hw
            self._made[key] = self._at(np.arange(w) * factor + c, np.arange(h) * factor + c)
        return self._made[key]

    def at_cells3(self, factor: int, shape_hw: tuple[int, int], inverse: bool = False
                  ) -> np.ndarray:
        """:meth:`at_cells` (or its inverse, ``1.0 /`` it) the same in three channels, float32
        (h, w, 3), made once (what :func:`times_gain` would make of it on every call)."""
        key = (factor, *shape_hw, 3 * (-1 if inverse else 1))
        if key not in self._made:
            gain = self.at_cells(factor, shape_hw)
            if inverse:
                gain = 1.0 / gain
            self._made[key] = cv2.merge((gain, gain, gain))
        return self._made[key]


def times_gain(bgr: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """A uint8 colour image times a gain per pixel (float32 (h, w), or (h, w, 3) the same in
    each channel), uint8 (rounded, saturated; in float32, as ``bgr.astype(np.float32) *
    gain[..., None]`` rounded)."""
    if gain.ndim == 2:
        gain = cv2.merge((gain, gain, gain))
    return cv2.multiply(bgr, gain, dtype=cv2.CV_8U)


def log_ratio(cells_bgr: np.ndarray, table_bgr: np.ndarray) -> np.ndarray:
    """log of the cells' grey brightness over the table's, float32 (h, w)."""
    g = cv2.cvtColor(cells_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32) + 1.0
    t = cv2.cvtColor(table_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32) + 1.0
    return cv2.log(g / t)


@dataclass(frozen=True)
class Residual:
    """How far a view's cells stand from the table's colour: the log of their grey brightness
    over the colour's, about 0 on the table.

    Attributes:
        sigma: Its robust sigma (1.4826 times the median absolute value).
        rms: Its root mean square, each cell's capped at ``cap`` (a piece or a hand weighs no
            more than a band's edge a few sigmas off).
        cap: That cap.
    """

    sigma: float
    rms: float
    cap: float


def residual(cells_bgr: np.ndarray, table_bgr: np.ndarray, valid_cells: np.ndarray,
             factor: int, cap: float | None = None) -> Residual:
    """How far about :data:`CHECK_SAMPLES` of the play area's cells (an even lattice; a
    piece's, 4.5 times as bright or dark, left out) stand from the table's colour at them,
    each capped at ``cap`` (None: at 3 of their robust sigmas)."""
    _, _, v = _lattice(cells_bgr, table_bgr, valid_cells, factor, CHECK_SAMPLES)
    if not len(v):
        return Residual(0.0, 0.0, 0.0)
    a = np.abs(v)
    sigma = 1.4826 * percentile(a, 50)
    cap = 3.0 * sigma if cap is None else cap
    a = np.minimum(a, cap)
    return Residual(sigma, math.sqrt(float((a * a).mean())), cap)


def _profile(bins: np.ndarray, v: np.ndarray, n: int, iters: int = 3
             ) -> tuple[np.ndarray, np.ndarray, float]:
    """The trimmed mean of ``v`` in each of ``n`` bins (samples past 3 robust sigmas of the
    profile left out, ``iters`` times; a bin with under 5 samples interpolated from its
    neighbours), the samples' counts, and the robust sigma of the samples about it (from
    about 8,000 of them)."""
    keep = np.ones(len(v), bool)
    prof = np.zeros(n)
    cnt = np.zeros(n)
    sigma = math.inf
    idx = np.arange(n)
    for _ in range(iters):
        cnt = np.bincount(bins[keep], minlength=n).astype(float)
        tot = np.bincount(bins[keep], weights=v[keep], minlength=n)
        full = cnt >= 5
        if not full.any():
            return prof, cnt, sigma
        prof = np.interp(idx, idx[full], tot[full] / cnt[full])
        res = np.abs(v - prof[bins])
        sigma = 1.4826 * percentile(res[::max(1, len(res) // 8000)], 50)
        keep = res < 3.0 * max(sigma, 1e-3)
    return prof, cnt, sigma


def _spread(prof: np.ndarray, cnt: np.ndarray, sigma: float) -> float:
    """The profile's standard deviation over the samples (each bin weighted by its count),
    less what the samples' own noise (``sigma``) puts in a mean of so few of them."""
    total = cnt.sum()
    if total <= 0:
        return 0.0
    mean = float((prof * cnt).sum() / total)
    var = float((cnt * (prof - mean) ** 2).sum() / total)
    return math.sqrt(max(0.0, var - sigma * sigma * np.count_nonzero(cnt) / total))


def _bins(xs: np.ndarray, ys: np.ndarray, angle: float, bin_px: float
          ) -> tuple[np.ndarray, int, float]:
    """Each sample's bin across ``angle``, the bins' number and the first's start."""
    u = math.cos(angle) * xs + math.sin(angle) * ys
    start = float(u.min())
    u -= start
    u /= bin_px
    bins = u.astype(np.intp)
    return bins, int(bins.max()) + 1, start


def _fit(xs: np.ndarray, ys: np.ndarray, v: np.ndarray, angle: float, bin_px: float,
         iters: int = 3) -> tuple[Bands, float, float]:
    """The bands across ``angle`` fitted to samples ``v`` at view points ``(xs, ys)``; their
    spread and the samples' robust sigma about them."""
    bins, n, start = _bins(xs, ys, angle, bin_px)
    prof, cnt, sigma = _profile(bins, v, n, iters)
    gain = np.exp(prof).astype(np.float32)
    bands = Bands((math.cos(angle), math.sin(angle)), start, bin_px, gain)
    return bands, _spread(prof, cnt, sigma), sigma


def _lattice(cells_bgr: np.ndarray, table_bgr: np.ndarray, valid_cells: np.ndarray,
             factor: int, most: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """About ``most`` cells of the play area, one in each square of an even lattice at a
    place in it drawn once (a fixed seed: bands along the lattice's rows or columns still
    meet every bin across them): their centres ``(xs, ys)`` (view pixels) and the log of each
    one's brightness over the smooth table's there (a piece's, 4.5 times as bright or dark,
    left out)."""
    h, w = valid_cells.shape
    k = max(1, math.ceil(math.sqrt(np.count_nonzero(valid_cells) / most)))
    jj, ii = _jittered(h, w, k)
    keep = valid_cells[jj, ii]
    jj, ii = jj[keep], ii[keep]
    lr = log_ratio(cells_bgr[jj, ii][None], table_bgr[jj, ii][None])[0]
    ok = np.abs(lr) < 1.5
    return ((ii[ok] + 0.5) * factor - 0.5, (jj[ok] + 0.5) * factor - 0.5,
            lr[ok].astype(np.float64))


@functools.lru_cache(maxsize=8)
def _jittered(h: int, w: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The rows and columns of one cell in each ``k`` by ``k`` square of an ``h`` by ``w``
    grid, at a place in it drawn once (seed 0), flat (made once a view: not to be written
    to)."""
    jj, ii = np.mgrid[0:h // k, 0:w // k]
    rng = np.random.default_rng(0)
    jj = (jj * k + rng.integers(0, k, jj.shape)).ravel()
    ii = (ii * k + rng.integers(0, k, ii.shape)).ravel()
    jj.flags.writeable = False
    ii.flags.writeable = False
    return jj, ii


def _pyramid(cells_bgr: np.ndarray, table_bgr: np.ndarray, valid_cells: np.ndarray,
             factor: int, levels: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The cells ``levels`` times halved (a Gaussian pyramid: the bands do not alias): the
    log of their brightness over the smooth table's, float32 (0 where not wholly in the play
    area), whether they are wholly in it, and the centres (view pixels, (n, 2)) and values of
    those that are (a piece's, 4.5 times as bright or dark, left out)."""
    cells, table = cells_bgr, table_bgr
    valid = valid_cells.astype(np.uint8) * 255
    for _ in range(levels):
        cells, table, valid = cv2.pyrDown(cells), cv2.pyrDown(table), cv2.pyrDown(valid)
    lr = log_ratio(cells, table)
    ok = valid > 250
    lr[~ok] = 0.0
    k = 2 ** levels
    jj, ii = np.nonzero(ok & (np.abs(lr) < 1.5))
    xs = (ii * k + (k - 1) / 2.0 + 0.5) * factor - 0.5
    ys = (jj * k + (k - 1) / 2.0 + 0.5) * factor - 0.5
    return lr, ok, np.c_[xs, ys], lr[jj, ii].astype(np.float64)


def _direction(lr: np.ndarray, ok: np.ndarray) -> float:
    """The angle (radians, view pixels) across the bands: the dominant direction of the
    gradients (Scharr's, the most even in every direction) of ``lr`` inside ``ok``, each
    gradient's weight capped at the 90th percentile of their strength; nan with too few."""
    gx = cv2.Scharr(lr, cv2.CV_32F, 1, 0)
    gy = cv2.Scharr(lr, cv2.CV_32F, 0, 1)
    inner = cv2.erode(ok.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    if np.count_nonzero(inner) < 100:
        return math.nan
    gx, gy = gx[inner], gy[inner]
    mag = np.sqrt(gx * gx + gy * gy)
    wgt = np.minimum(1.0, percentile(mag, 90) / np.maximum(mag, 1e-9))
    jxx, jyy, jxy = (float((wgt * a * b).sum()) for a, b in ((gx, gx), (gy, gy), (gx, gy)))
    return 0.5 * math.atan2(2.0 * jxy, jxx - jyy)


def fit_bands(cells_bgr: np.ndarray, table_bgr: np.ndarray, valid_cells: np.ndarray,
              factor: int, px_per_mm: float, band_mm: float, share: float,
              angle: float | None = None) -> Bands | None:
    """The bands of light in the table's cells, or None where there are none.

    Args:
        cells_bgr: The view's cells of ``factor`` view pixels, uint8 (h, w, 3).
        table_bgr: The smooth table's colour at the cells, uint8 (h, w, 3).
        valid_cells: bool (h, w): cells in the play area.
        factor: A cell's side in view pixels.
        px_per_mm: The view's scale.
        band_mm: A bin of the profile.
        share: Bands are kept where their spread is over this share of the cells' about them.
        angle: The direction across the bands, when known: no search, no test of share.
    """
    bin_px = max(band_mm * px_per_mm, float(factor))
    if angle is None:
        levels = max(0, int(math.log2(max(1.0, TEST_SPACING_MM * px_per_mm / factor))))
        lr, ok, xy, v = _pyramid(cells_bgr, table_bgr, valid_cells, factor, levels)
        if len(v) < 200:
            return None
        angle = _direction(lr, ok)
        if not math.isfinite(angle):
            return None
        s = max(1, len(v) // TEST_SAMPLES)
        xy, v = xy[::s], v[::s]
        test_px = max(bin_px, TEST_BIN_MM * px_per_mm)
        _, _, sigma = _fit(xy[:, 0], xy[:, 1], v, angle, test_px, iters=2)
        angle = _search(xy[:, 0], xy[:, 1], v, angle, test_px, 3.0 * sigma, SEARCH_STEP_DEG,
                        SEARCH_STEPS)
        _, spread, sigma = _fit(xy[:, 0], xy[:, 1], v, angle, test_px)
        if spread <= share * sigma:
            return None
        xs, ys, v = _lattice(cells_bgr, table_bgr, valid_cells, factor, SAMPLES)
        for step_deg in (TURN_STEP_DEG, TURN_STEP_DEG / 4.0):
            angle = _search(xs, ys, v, angle, bin_px, 3.0 * sigma, step_deg, 4)
    else:
        xs, ys, v = _lattice(cells_bgr, table_bgr, valid_cells, factor, SAMPLES)
    return _fit(xs, ys, v, angle, bin_px)[0]


def _loss(xs: np.ndarray, ys: np.ndarray, v: np.ndarray, angle: float, bin_px: float,
          cap: float) -> float:
    """The root mean square of the samples about their plain mean profile across ``angle``,
    each capped at ``cap`` (a piece weighs no more than a band's edge one sigma off)."""
    bins, n, _ = _bins(xs, ys, angle, bin_px)
    cnt = np.bincount(bins, minlength=n)
    prof = np.bincount(bins, weights=v, minlength=n) / np.maximum(cnt, 1)
    res = np.minimum(np.abs(v - prof[bins]), cap)
    return math.sqrt(float((res * res).mean()))


def _search(xs: np.ndarray, ys: np.ndarray, v: np.ndarray, angle: float, bin_px: float,
            cap: float, step_deg: float, steps: int) -> float:
    """The angle within ``steps`` steps of ``step_deg`` each way of ``angle`` whose profile
    leaves the least about it (:func:`_loss`); where that is the last step, the search goes
    on that way as far again."""
    step = math.radians(step_deg)
    loss = {k: _loss(xs, ys, v, angle + k * step, bin_px, cap) for k in range(-steps, steps + 1)}
    best = min(loss, key=loss.__getitem__)
    if abs(best) == steps:
        way = 1 if best > 0 else -1
        for k in range(steps + 1, 2 * steps + 1):
            loss[way * k] = _loss(xs, ys, v, angle + way * k * step, bin_px, cap)
        best = min(loss, key=loss.__getitem__)
    return angle + best * step
