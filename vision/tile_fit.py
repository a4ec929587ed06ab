"""A tile's top face from the strongest straight edges around a candidate, in colour.

The masks and :func:`vision.tiles.refine_block` see a tile as brighter than the table; on a
glossy white table, under a blind's stripes or on a check that fails: the grey shade barely
changes at its edges. Here the edges are read in colour, each channel divided by its own
level around the candidate, and at every place the channel that changes most is taken (a
cream tile on white differs in blue, on a red cloth in green).

1. **Angle** (:func:`vote_angle`): the directions of the strongest gradients in a ring around
   the candidate (where a tile's sides lie), folded to 90 degrees, voted in a histogram of
   one degree; its highest modes are the angles tried.
2. **Edges** (:func:`fit_square`): at that angle, profiles across each of the four sides give
   the change across them, summed along each side: a side's edge is where that sum peaks, and
   the two sides of each pair must lie one tile's side apart (the top face is a square of a
   known size: the shadow's edge or the wall's foot beyond a side, or a back's printed border
   inside it, are not at that distance). Along each side, every profile's own edge near that
   line, of the same sign, is placed between samples by a parabola; a side whose points are
   no stronger than the noise across it shows no edge (a side against another tile).
   **Rows**: where a pair is not seen one side apart, tiles laid edge to edge are looked for:
   the pair's lines are the outer sides of a row of up to five tiles, whole tiles further out
   (:func:`_pair_lines`), measured in a window reaching them.
3. **Square**: a square of the known side is fitted to those points (centre and angle,
   Gauss-Newton, :func:`vision.square_fit._solve`), then again without the points it misses
   by more than a pixel. It stands only where both pairs of sides are measured along most of
   their length, the points fit to a fraction of a pixel and the edges are well above the
   window's gradient noise: a square of the right size made by four straight edges, whatever
   the table's level.
4. **Not a page** (:func:`runs_past`): a printed page, a card or a notebook shows straight
   edges too, but they run on past the square's corners; a tile's sides stop there.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.sampling import bilinear_channels
from vision.square_fit import _solve, side_turn_deg
from vision.tile_judge import TileJudgeConfig


@dataclass(frozen=True)
class TileFitConfig:
    """Attributes:
    places: Profiles across each side.
    step_px: An edge is a step between the means of this many pixels either side of it.
    span: The profiles cover this share of a side's length, centred.
    band: A side's edge is looked for this share of a side either way of where the candidate
        puts it.
    pair_tolerance: Two opposite sides' edges lie one tile's side apart within this share of
        it (1.5 pixels at a pixel a millimetre: the top face's own magnification, blur).
    min_share: Each pair of sides is measured by edge points on at least this share of one
        side's profiles (both sides together: a side may be hidden, or have pieces against
        it): each way, a whole side's length of straight edge at least.
    partial_share: Where no square is measured so (a coin of a worm or a card against a
        side hides a third of it), one measured on this share stands (None: never). Tried
        only after, so that a row's outer sides, measured whole, place a tile in a row first.
    max_rms: The edge points fit the square to within this share of its side (RMS; half a
        pixel at a pixel a millimetre).
    max_rms_four: The same where every side gives points along at least half its length
        (0.6 of a pixel: the square is held by four sides; a lone tile on small checks under
        a dim lamp and a white tile on slate with a worm's coins against a side fitted so
        to 0.53-0.54 px, tuning game renders 630003 and 630702; where two sides alone were
        measured, 629023, such a fit lay 6 mm and 8 degrees off); None: ``max_rms``.
    min_strength: The edges' median step is at least this many times the spread of the
        steps across their side (a robust sigma: the table's and the face's own texture).
    max_shift: The square's centre is at most this share of a side from the candidate.
    max_turn_deg: The square turns at most this far from the voted angle.
    modes: How many of the angle vote's modes are tried.
    run_share: A side "runs past" a corner where the change along the side's line beyond the
        corner is at least this share of the side's own.
    max_runs: A fit with this many sides running past a corner is no tile (a printed grid;
        a tile in a row of tiles has two).
    max_overlap: A fit whose inside lies on pieces already found for more than this share
        is theirs (their printed lines), not another tile.
    apart: Two tiles' centres lie at least a side apart: of fits closer than this share of
        it, only the first (the centre net's hotter candidate) stands.
    faint_sides: A candidate the centre net is unsure of stands only where its square is
        measured on at least this many sides (:func:`vision.tile_candidates.fit_tiles`).
    faint_runs: ... and where at most this many of its sides run on past a corner.
    rows: Where a pair of sides is not seen one side apart, look for the outer sides of a
        row of tiles laid edge to edge up to this many tiles beyond either side (2: rows of
        up to five; 0: never; :func:`_pair_lines`).
    judge: The learned judge each fitted square must pass (:mod:`vision.tile_judge`); None:
        none.
    """

    places: int = 11
    step_px: float = 3.0
    span: float = 0.8
    band: float = 0.18
    pair_tolerance: float = 0.03
    min_share: float = 0.9
    max_rms: float = 0.01
    max_rms_four: float | None = 0.012
    min_strength: float = 1.5
    max_shift: float = 0.25
    max_turn_deg: float = 3.0
    modes: int = 2
    run_share: float = 0.5
    max_runs: int = 3
    max_overlap: float = 0.2
    apart: float = 0.9
    rows: int = 2
    faint_sides: int = 3
    faint_runs: int = 1
    partial_share: float | None = 0.7
    judge: TileJudgeConfig | None = field(default_factory=TileJudgeConfig)


@dataclass(frozen=True)
class SquareFit:
    """A fitted top face: ``centre_px`` (2,) view pixels, ``angle_px`` view degrees in
    [0, 90), ``rms_px`` the edge points' misfit, ``strength`` the edges' median change over
    the window's noise, ``sides`` how many of the four sides gave points, ``counts`` how many
    points each side gave (of ``places``)."""

    centre_px: np.ndarray
    angle_px: float
    rms_px: float
    strength: float
    sides: int
    counts: tuple[int, ...] = (0, 0, 0, 0)


def channel_medians(px: np.ndarray) -> np.ndarray:
    """``np.median(px, axis=0)`` of float32 pixels (N, C), N > 0, by one partition of each
    channel (the two middle values' mean in float32, as numpy's).

    >>> channel_medians(np.array([[1, 9], [4, 3], [2, 200], [7, 8]], np.float32)).tolist()
    [3.0, 8.5]
    """
    n = len(px)
    h = n // 2
    cols = np.ascontiguousarray(px.T)
    if n % 2:
        return np.partition(cols, h, axis=1)[:, h]
    part = np.partition(cols, (h - 1, h), axis=1)
    return (part[:, h - 1] + part[:, h]) / px.dtype.type(2)


def normalised_channels(top: np.ndarray, centre: np.ndarray, half: float,
                        median_step: int = 1) -> tuple[np.ndarray, tuple[int, int]]:
    """The window (float32 (H, W, C)) of ``top`` within ``half`` pixels of ``centre``, each
    channel divided by its own median there (lighting and the table's colour cancel), lightly
    smoothed; and its top-left corner (x, y) in the view. ``median_step``: the medians from
    every so many rows and columns (3: a ninth of the pixels). A one-channel ``top`` gives
    (H, W, 1)."""
    h, w = top.shape[:2]
    x0, y0 = max(0, int(centre[0] - half)), max(0, int(centre[1] - half))
    x1, y1 = min(w, int(centre[0] + half) + 2), min(h, int(centre[1] + half) + 2)
    win = top[y0:y1, x0:x1]
    if win.size == 0:
        return np.zeros((0, 0, 3), np.float32), (x0, y0)
    win = win.astype(np.float32)
    if win.ndim == 2:
        win = win[..., None]
    step = median_step
    hh, ww, nc = win.shape
    med = channel_medians(win[::step, ::step].reshape(-1, nc))
    # each pixel's channels divided by their medians (+ 1), a row at a time: the same
    # quotients as dividing by the (C,) medians broadcast, in long runs
    win = (win.reshape(hh, ww * nc) / np.tile(med + np.float32(1.0), ww)).reshape(hh, ww, nc)
    out = cv2.GaussianBlur(win, (3, 3), 0)
    return (out[..., None] if out.ndim == 2 else out), (x0, y0)


def colour_gradient(win: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The gradient (gx, gy), each float32 (H, W), of the channel changing most at each
    pixel of a normalised window."""
    gx = cv2.Scharr(win, cv2.CV_32F, 1, 0)  # true to direction within a fraction of a degree
    gy = cv2.Scharr(win, cv2.CV_32F, 0, 1)
    if gx.ndim == 2:
        return gx, gy
    pick = np.argmax(gx * gx + gy * gy, axis=2)[..., None]
    return (np.take_along_axis(gx, pick, axis=2)[..., 0],
            np.take_along_axis(gy, pick, axis=2)[..., 0])


def vote_angle(gx: np.ndarray, gy: np.ndarray, centre: np.ndarray, side: float,
               modes: int = 2) -> list[float]:
    """The directions (view degrees in [0, 90)) a square's sides most likely take around
    ``centre`` (window pixels): gradient directions folded to 90 degrees in a ring 0.25-0.8 of
    a side from it, weighted by their strength, voted in one-degree bins; the highest modes
    (each at least half the best), each the weighted mean of the directions near it."""
    h, w = gx.shape
    yy, xx = np.mgrid[0:h, 0:w]
    r = np.hypot(xx - centre[0], yy - centre[1])
    ring = (r >= 0.25 * side) & (r <= 0.8 * side)
    mag = np.hypot(gx, gy)[ring]
    if not mag.size or mag.max() <= 0:
        return []
    ang = np.degrees(np.arctan2(gy[ring], gx[ring])) % 90.0
    hist = np.bincount(np.minimum((ang + 0.5).astype(int) % 90, 89), weights=mag,
                       minlength=90)
    hist = hist + 0.5 * (np.roll(hist, 1) + np.roll(hist, -1))  # circular smoothing
    out: list[float] = []
    for i in np.argsort(-hist):
        if len(out) >= modes or hist[i] < 0.5 * hist.max():
            break
        if hist[i] < hist[(i - 1) % 90] or hist[i] < hist[(i + 1) % 90]:
            continue  # not a mode
        dev = (ang - i + 45.0) % 90.0 - 45.0  # each direction's difference from the bin
        near = np.abs(dev) <= 2.5
        v = (i + float(np.average(dev[near], weights=mag[near]))) % 90.0
        if all(_turn(v, u) > 3.0 for u in out):
            out.append(v)
    return out


def _profiles(win: np.ndarray, centre: np.ndarray, a: float, side: float, places: int,
              span: float, rho: np.ndarray) -> np.ndarray:
    """Samples (4 sides, C channels, places, len(rho)) across each side of a square at angle
    ``a`` (radians) about ``centre`` (window pixels)."""
    along = np.linspace(-span / 2, span / 2, places) * side
    pts = []
    for k in range(4):
        th = a + k * math.pi / 2
        n = np.array([math.cos(th), math.sin(th)])
        t = np.array([-n[1], n[0]])
        pts.append(centre + along[:, None, None] * t + rho[None, :, None] * n)  # (P, R, 2)
    return np.moveaxis(bilinear_channels(win, np.stack(pts)), 0, 1)



def _sub(g0: np.ndarray, g1: np.ndarray, g2: np.ndarray) -> np.ndarray:
    """Parabola vertex offsets (within half a sample) through three samples of a peak."""
    den = g0 - 2 * g1 + g2
    return np.where(den < -1e-12, np.clip(0.5 * (g0 - g2) / np.where(den < -1e-12, den, -1.0),
                                          -0.5, 0.5), 0.0)


def _line_peaks(strength: np.ndarray, least: float) -> np.ndarray:
    """Indices of the local maxima of a 1-D array at least ``least``."""
    s = strength
    inner = (s[1:-1] >= s[:-2]) & (s[1:-1] > s[2:]) & (s[1:-1] >= least)
    return np.flatnonzero(inner) + 1


def fit_square(top: np.ndarray, centre_px: np.ndarray, side: float, away: np.ndarray,
               angles_deg: list[float] | None = None, cfg: TileFitConfig | None = None,
               gap_px: float = 0.0) -> SquareFit | None:
    """The top face of a tile near ``centre_px`` (view pixels), or None.

    Args:
        top: The view (uint8 BGR), made in full around the candidate.
        centre_px: The candidate (the centre net's peak), view pixels.
        side: The tile's side in view pixels.
        away: Unit vector away from the camera's nadir: a side facing the camera shows the
            tile's wall beyond its edge, so its edge is taken only where it lies one side
            from the opposite one (zero: every side alike).
        angles_deg: Rough directions of the sides to try first (view degrees).
        cfg: Thresholds.
        gap_px: The gap between tiles laid edge to edge: where a pair of sides is not seen
            one side apart (a side against another tile shows no edge), its edges are looked
            for at the outer sides of a row of two or three tiles (:func:`_pair_lines`).
    """
    cfg = cfg or TileFitConfig()
    fit = _fit_square(top, centre_px, side, away, angles_deg, cfg, gap_px)
    if fit is None and cfg.partial_share is not None and cfg.partial_share < cfg.min_share:
        fit = _fit_square(top, centre_px, side, away, angles_deg,
                          dataclasses.replace(cfg, min_share=cfg.partial_share), gap_px)
    return fit


def _fit_square(top: np.ndarray, centre_px: np.ndarray, side: float, away: np.ndarray,
                angles_deg: list[float] | None, cfg: TileFitConfig, gap_px: float
                ) -> SquareFit | None:
    """:func:`fit_square` with one share of each pair's profiles to be measured.

    The angles are tried in turn; a square measured along every place of its four sides
    stands at once. One measured on fewer (a check's or a gingham's lines at another angle
    can make a square of the tile's size on parts of its sides) stands only where no other
    angle tried after it fits a square with more edge points, closer to their sides: on a
    gingham the tile's own sides give every point at its true angle, and fit them closer."""
    c0 = np.asarray(centre_px, float)
    win, (x0, y0) = normalised_channels(top, c0, 0.95 * side)
    if win.shape[0] < side or win.shape[1] < side:
        return None
    local = c0 - (x0, y0)
    gx, gy = colour_gradient(win)
    tried: list[float] = []
    wide: tuple[np.ndarray, tuple[int, int]] | None = None
    best: SquareFit | None = None
    for a in [*(angles_deg or []), *vote_angle(gx, gy, local, side, cfg.modes)]:
        if any(_turn(a, u) < 1.0 for u in tried):
            continue
        tried.append(a)
        if best is not None and _turn(a, best.angle_px) < 1.0:
            continue  # the square already fitted there
        fit, unpaired = _fit_at(win, local, math.radians(a), side, np.asarray(away, float),
                                cfg)
        if fit is None and unpaired and cfg.rows:  # a side against another tile
            if wide is None:  # the window reaching a neighbour's far side, made once
                wide = normalised_channels(
                    top, c0, (0.5 + cfg.rows + cfg.band) * (side + gap_px) + 8.0)
            wwin, (wx, wy) = wide
            fit, _ = _fit_at(wwin, c0 - (wx, wy), math.radians(a), side,
                             np.asarray(away, float), cfg, side + gap_px, cfg.rows)
            if fit is not None:
                moved = fit.centre_px + np.array([wx - x0, wy - y0])
                fit = dataclasses.replace(fit, centre_px=moved)
        if fit is not None and (best is None or (sum(fit.counts) > sum(best.counts)
                                                 and fit.rms_px < best.rms_px)):
            best = fit
        if best is not None and sum(best.counts) >= 4 * cfg.places:
            break  # measured whole
    if best is None:
        return None
    return SquareFit(best.centre_px + np.array([x0, y0]), best.angle_px, best.rms_px,
                     best.strength, best.sides, best.counts)


def _turn(a: float, b: float) -> float:
    """How far apart two directions of a square's sides are (degrees, 0-45)."""
    return abs(side_turn_deg(a, b))


def _pair_lines(strength: np.ndarray, mid: np.ndarray, k: int, side: float, pitch: float,
                cfg: TileFitConfig, beyond: int = 0) -> dict[int, tuple[float, float]]:
    """Sides ``k`` and ``k + 2`` of the square as a pair of edges one side apart: each side's
    line (``mid``, from the candidate, at its strongest), or, with ``pitch`` (a tile's side
    and the gap between tiles laid edge to edge), where either side shows no edge, the outer
    side of the next tile beyond it (a row of two or three tiles: those lines lie whole
    pitches further out, and a back's printed border, a shadow's edge or a neighbour's
    border are not at those distances either). Returns {side: (line, how far beyond the
    tile's own side it lies)}; both sides or none."""
    pa = _line_peaks(strength[k], 0.3 * strength[k].max())
    pb = _line_peaks(strength[k + 2], 0.3 * strength[k + 2].max())
    outs = sorted(((ma, mb) for ma in range(beyond + 1) for mb in range(beyond + 1)),
                  key=lambda m: (m[0] + m[1], m))
    for out in outs:
        best, best_score = None, 0.0
        wa, wb = (0.5 * side + m * pitch for m in out)
        ia = pa[np.abs(mid[pa] - wa) <= cfg.band * side]
        ib = pb[np.abs(mid[pb] - wb) <= cfg.band * side]
        for i in ia:
            for j in ib:
                if abs(mid[i] + mid[j] - wa - wb) <= cfg.pair_tolerance * side:
                    sc = strength[k, i] + strength[k + 2, j]
                    if sc > best_score:
                        best, best_score = (i, j), sc
        if best is not None:
            return {k: (float(mid[best[0]]), out[0] * pitch),
                    k + 2: (float(mid[best[1]]), out[1] * pitch)}
    return {}


def _fit_at(win: np.ndarray, c0: np.ndarray, a0: float, side: float, away: np.ndarray,
            cfg: TileFitConfig, pitch: float = 0.0, beyond: int = 0
            ) -> tuple[SquareFit | None, bool]:
    """:func:`fit_square` at one rough angle (radians), window pixels; ``pitch``, ``beyond``:
    also where a row's outer sides lie (:func:`_pair_lines`). Also whether a pair of sides
    was not seen one side apart."""
    step = 0.5
    m = max(2, round(cfg.step_px / step))  # samples each side of a step
    lo, hi = (0.5 - cfg.band) * side, (0.5 + cfg.band) * side + beyond * pitch
    rho = np.arange(lo - (m + 1) * step, hi + (m + 2) * step, step)
    prof = _profiles(win, c0, a0, side, cfg.places, cfg.span, rho)  # (4, C, P, R)
    # the step across each place: the mean just inside less the mean just outside (a thin
    # printed line gives little, an edge between two levels all its contrast)
    cs = np.concatenate([np.zeros((*prof.shape[:-1], 1), np.float32), prof.cumsum(axis=-1)],
                        axis=-1)
    r = np.arange(m, len(rho) - m)
    steps = ((cs[..., r] - cs[..., r - m]) - (cs[..., r + m + 1] - cs[..., r + 1])) / m
    deriv = (prof[..., r + 1] - prof[..., r - 1]) / (2 * step)  # outward change there
    mid = rho[r]
    summed = steps.mean(axis=2)  # along each side: (4, C, R')
    strength = np.abs(summed).max(axis=1)  # the channel changing most, (4, R')
    chan = np.abs(summed).argmax(axis=1)
    faces = [math.cos(a0 + k * math.pi / 2) * away[0] + math.sin(a0 + k * math.pi / 2) * away[1]
             > -0.25 if away.any() else True for k in range(4)]
    lines: dict[int, tuple[float, float]] = {}
    unpaired = False
    for k in (0, 1):  # a pair: sides k and k + 2
        pair = _pair_lines(strength, mid, k, side, pitch, cfg, beyond)
        if pair:
            lines.update(pair)
            continue
        unpaired = True
        # the pair is not seen whole: its side away from the camera alone, its strongest edge
        for kk in (k, k + 2):
            own = np.abs(mid - 0.5 * side) <= cfg.band * side
            peaks = _line_peaks(np.where(own, strength[kk], 0.0),
                                0.3 * strength[kk][own].max())
            if faces[kk] and not faces[(kk + 2) % 4] and len(peaks):
                lines[kk] = (float(mid[peaks[np.argmax(strength[kk, peaks])]]), 0.0)
    pts, nrm, sides, mags = [], [], [], []
    along = np.linspace(-cfg.span / 2, cfg.span / 2, cfg.places) * side
    for k, (at, beyond) in lines.items():
        j0 = int(np.argmin(np.abs(mid - at)))
        ch = chan[k, j0]
        sign = np.sign(summed[k, ch, j0])
        st = steps[k, ch] * sign  # (P, R'), the face's step positive
        d = -deriv[k, ch] * sign  # the same way round
        spread = 1.4826 * float(np.median(np.abs(st - np.median(st)))) + 1e-4  # its noise
        near = np.abs(mid - at) <= 2.0
        dn = np.where(near[None], d, -np.inf)
        j = np.argmax(dn, axis=1)
        rows = np.arange(len(j))
        ok = (j > 0) & (j < len(mid) - 1) & np.isfinite(dn[rows, j]) & (d[rows, j] > 0)
        jj = np.clip(j, 1, len(mid) - 2)
        off = _sub(d[rows, jj - 1], d[rows, jj], d[rows, jj + 1])
        r_at = mid[jj] + off * step - beyond  # where this tile's own side is
        th = a0 + k * math.pi / 2
        n = np.array([math.cos(th), math.sin(th)])
        t = np.array([-n[1], n[0]])
        mag = st[rows, jj] / spread
        if ok.any() and float(np.median(mag[ok])) < cfg.min_strength:
            unpaired = True  # noise on its line (a side against another tile): no edge
            continue
        for i in np.flatnonzero(ok):
            pts.append(c0 + along[i] * t + r_at[i] * n)
            nrm.append([math.cos(k * math.pi / 2), math.sin(k * math.pi / 2)])
            sides.append(k)
            mags.append(float(mag[i]))
    if not pts:
        return None, unpaired
    e, nr, sd, mg = np.array(pts), np.array(nrm, float), np.array(sides), np.array(mags)
    if min(np.count_nonzero(sd % 2 == 0), np.count_nonzero(sd % 2 == 1)) < 3:
        return None, unpaired
    c, a = _solve(e, nr, np.ones(len(e)), c0, a0, side / 2)
    for _ in range(2):
        miss = _misses(e, nr, c, a, side)
        c, a = _solve(e, nr, (miss <= 1.0).astype(float), c, a, side / 2)
    miss = _misses(e, nr, c, a, side)
    w = miss <= 1.0
    counts = tuple(int(np.count_nonzero(w & (sd == k))) for k in range(4))
    for par in (0, 1):  # each pair measured along most of a side's length
        if counts[par] + counts[par + 2] < cfg.min_share * cfg.places:
            return None, unpaired
    rms = math.sqrt(float(np.mean(miss[w] ** 2)))
    strong = float(np.median(mg[w]))
    four = cfg.max_rms_four is not None and min(counts) >= cfg.places / 2
    if rms > (cfg.max_rms_four if four else cfg.max_rms) * side or strong < cfg.min_strength:
        return None, unpaired
    if (np.hypot(*(c - c0)) > cfg.max_shift * side
            or abs(math.degrees(a - a0)) > cfg.max_turn_deg):
        return None, unpaired
    return (SquareFit(c, math.degrees(a) % 90.0, rms, strong, sum(n > 0 for n in counts),
                      counts), unpaired)


def _misses(e: np.ndarray, nr: np.ndarray, c: np.ndarray, a: float, side: float
            ) -> np.ndarray:
    """How far each edge point lies from its side of the square (centre c, angle a)."""
    ca, sa = math.cos(a), math.sin(a)
    n = nr @ np.array([[ca, sa], [-sa, ca]])
    return np.abs((n * (e - c)).sum(axis=1) - side / 2)


def runs_past(top: np.ndarray, centre_px: np.ndarray, angle_deg: float, side: float,
              cfg: TileFitConfig | None = None) -> int:
    """How many of a fitted square's sides run on past a corner as a straight edge.

    Across each side, the change is read (in colour, as :func:`fit_square` reads it) inside
    its length and beyond each of its corners (0.6-0.85 of a side from its middle, along its
    line); a side runs past a corner where, on all but one of the places beyond it, the
    strongest change lies on the side's line (within a pixel) and is at least ``run_share`` of
    the change along the side. A lone tile's sides stop at its corners (0); a tile in a row
    of tiles has two sides that run on; a grid printed on a page, or a block of lines, runs on
    everywhere (4).
    """
    cfg = cfg or TileFitConfig()
    c0 = np.asarray(centre_px, float)
    win, (x0, y0) = normalised_channels(top, c0, 1.1 * side)
    if win.size == 0:
        return 0
    local = c0 - (x0, y0)
    step = 0.5
    rho = np.arange(side / 2 - 3.0, side / 2 + 3.0 + step, step)
    inside = np.linspace(-0.35, 0.35, 7) * side
    beyond = np.linspace(0.6, 0.85, 4) * side
    along = np.r_[inside, beyond, -beyond]
    a0 = math.radians(angle_deg)
    count = 0
    for k in range(4):
        th = a0 + k * math.pi / 2
        n = np.array([math.cos(th), math.sin(th)])
        t = np.array([-n[1], n[0]])
        pts = local + along[:, None, None] * t + rho[None, :, None] * n
        prof = bilinear_channels(win, pts)  # (C, A, R)
        d = (prof[..., 2:] - prof[..., :-2]) / (2 * step)
        own = d[:, :len(inside)].mean(axis=1)  # (C, R-2)
        ch = int(np.abs(own).max(axis=1).argmax())
        sign = np.sign(own[ch, np.abs(own[ch]).argmax()])
        signed = d[ch] * sign
        edge = signed.max(axis=1)  # each profile's edge, (A,)
        on_line = np.abs(rho[1:-1][signed.argmax(axis=1)] - side / 2) <= 1.0
        ref = float(np.median(edge[:len(inside)]))
        if ref <= 0:
            continue
        # beyond a corner, the same edge: as strong, and on the side's line (a check's or a
        # grain's edges crossing there lie anywhere across it)
        run = (edge >= cfg.run_share * ref) & on_line
        n_in, n_out = len(inside), len(beyond)
        if any(np.count_nonzero(e) >= n_out - 1
               for e in (run[n_in:n_in + n_out], run[n_in + n_out:])):
            count += 1
    return count
