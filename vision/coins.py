"""Coins: pale discs of a known radius, split where they touch, with the suit of their symbol.

Touching coins (a worm) merge into one blob of the bright mask; the distance transform of that
blob peaks once per coin, at about one radius, so its peaks are the coins. Each centre is then
refined to a fraction of a pixel by mean shift of the blob within a disc of the coin's radius
(a neighbour only touches that disc at a point), and moved from where the coin is seen to where
it stands (its top is ``thickness`` above the table). A coin must end at its radius: a blob
that goes on around it (bright wood grain, a lit hand) is no coin.

On a pale table (a cream linen cloth) a coin is barely brighter than the cloth, whose texture
sets the bright threshold: the mask keeps only part of it (a smaller disc, a ring broken by its
symbol). Such a blob is grown over the pixels halfway from the table around it to its own
brightness (:func:`_regrow`); coins that leave nothing in the mask are found by their ring, a
bright face inside a darker wall and shadow (:func:`_ring_candidates`, only on a pale table),
and placed by a circle through their outline (:func:`_rim_centre`). Every such faint coin must
be brighter than the ring around it along most rays and end at its radius
(:func:`_faint_coin`). Every coin's far edge must be a circle where that can be told (a die's
square top is not: :mod:`vision.coin_shape`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.blobs import blobs
from vision.coin_shape import not_round
from vision.detections import Detections
from vision.prepare import Prepared
from vision.sampling import bilinear, ray_fan
from vision.suits import DEFAULT_SUIT_INKS, darkest_colours, read_suits


@dataclass(frozen=True)
class CoinConfig:
    """Attributes:
    radius_mm: The coin's radius.
    thickness_mm: The coin's thickness.
    seen_height: Where in the coin's height its seen outline centres (0 base, 1 top face).
    min_peak: A coin's distance-transform peak is at least this share of its radius...
    max_peak: ...and at most this share (bigger blobs are not coins).
    min_fill: Share of the coin's disc the blob must fill.
    max_ring: A coin stands out from what is around it: at most this share of a ring just
        outside its disc (1.15 to 1.45 radii) is in its blob (neighbours in a worm touch it at
        points; a patch of bright wood grain or a lit hand does not end at a radius).
    min_rim: A faint coin (one grown from part of a blob, or found by its ring) must show its
        outline on at least this share of the rays from its centre...
    min_contrast: ...and its face must be brighter than the ring just around it by this many
        noise sigmas (:func:`_faint_coin`)...
    faint_fill: ...and its grown blob fill this share of its disc (its outline at half its
        faint brightness lies inside the printed ring near the rim).
    ring_sigmas: On a pale table (``Prepared.pale``), coins are also looked for by their ring
        (:func:`_ring_candidates`)...
        ...where a ring filter peaks this many of its noise sigmas above the table...
    max_candidates: ...at most this many places, best first.
    regrow_sigmas: A blob that does not make whole coins (a faint coin seen in part) is grown
        over the pixels brighter than halfway from the table around it to its own brightness,
        and at least this many noise sigmas above that table.
    suit_inks: Suit name -> 8-bit RGB of its ink.
    round_only: A coin whose far edge is surely no circle (a die's square top, a pencil's
        end: :func:`vision.coin_shape.not_round`) is dropped (here and among the centre
        net's). Off: on unseen renders (seeds 56,000+) it dropped true coins too (coins R
        0.992 -> 0.972: slate under window light, worms through gaps; one devscene coin)
        for precision 0.972 -> 0.983, none of which renders 55,000-55,214 showed.
    unround_votes: A coin whose far edge is surely no circle (as ``round_only`` tells it)
        stands only where the coin judge gives it at least this share of its votes
        (:mod:`vision.coin_unround`: a white die on a dark table, which the judge alone keeps
        at 0.51-0.66); None: as the judge's own threshold says.
    """

    radius_mm: float = 9.525
    thickness_mm: float = 3.175
    seen_height: float = 1.0
    min_peak: float = 0.6
    max_peak: float = 1.3
    min_fill: float = 0.8
    max_ring: float = 0.6
    min_rim: float = 0.75
    min_contrast: float = 2.5
    faint_fill: float = 0.65
    ring_sigmas: float = 5.0
    max_candidates: int = 60
    regrow_sigmas: float = 2.0
    suit_inks: tuple[tuple[str, tuple[int, int, int]], ...] = DEFAULT_SUIT_INKS
    round_only: bool = False
    unround_votes: float | None = 0.8


def _disc_offsets(radius_px: float) -> np.ndarray:
    k = math.ceil(radius_px)
    yy, xx = np.mgrid[-k:k + 1, -k:k + 1]
    keep = xx * xx + yy * yy <= radius_px * radius_px
    return np.c_[xx[keep], yy[keep]]


@lru_cache(maxsize=8)
def _ellipse(k: int) -> np.ndarray:
    """OpenCV's k x k elliptic structuring element (made once)."""
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))


def _peaks(dt: np.ndarray, lo: float, hi: float, min_dist: float) -> list[tuple[float, float]]:
    """Local maxima of a distance transform with values in [lo, hi], at least min_dist apart."""
    dil = cv2.dilate(dt, _ellipse(max(3, int(min_dist) | 1)))
    ys, xs = np.nonzero((dt >= dil - 1e-4) & (dt >= lo) & (dt <= hi))
    order = np.argsort(-dt[ys, xs])
    kept: list[tuple[float, float]] = []
    for i in order:
        p = (float(xs[i]), float(ys[i]))
        if all((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 >= min_dist ** 2 for q in kept):
            kept.append(p)
    return kept


class _Patch:
    """A blob's patch padded with empty pixels, for reading it at discs and rings of offsets
    around any of its pixels with one gather each."""

    def __init__(self, mask: np.ndarray, reach: int) -> None:
        self.k = int(reach) + 1
        self.padded = cv2.copyMakeBorder(mask, self.k, self.k, self.k, self.k,
                                         cv2.BORDER_CONSTANT, value=0).ravel()
        self.h, self.w = mask.shape
        self.stride = self.w + 2 * self.k

    def flat(self, offsets: np.ndarray) -> np.ndarray:
        """Offsets (N, 2) as steps in the padded patch."""
        return offsets[:, 1] * self.stride + offsets[:, 0]

    def at(self, x: float, y: float) -> tuple[int, int]:
        """The patch's pixel nearest ``(x, y)``."""
        return min(max(round(x), 0), self.w - 1), min(max(round(y), 0), self.h - 1)

    def on(self, x: float, y: float, flat: np.ndarray) -> np.ndarray:
        """Which of the pixels at :meth:`at` ``(x, y)`` plus the offsets are set, bool."""
        ix, iy = self.at(x, y)
        return self.padded[(iy + self.k) * self.stride + ix + self.k + flat] > 0


def _mean_shift(patch: _Patch, start: tuple[float, float], offsets: np.ndarray,
                iterations: int = 6) -> tuple[float, float, float]:
    """Centre of the mask within a disc (``offsets``), iterated; returns (x, y, fill share)."""
    x, y = start
    fill = 0.0
    flat = patch.flat(offsets)
    for _ in range(iterations):
        on = patch.on(x, y, flat)
        n = int(np.count_nonzero(on))
        fill = float(n) / len(offsets)
        if fill == 0.0:
            break
        ix, iy = patch.at(x, y)
        sx, sy = on @ offsets  # the offsets' sums over the disc's pixels that are on
        nx = ix + float(sx) / n
        ny = iy + float(sy) / n
        if abs(nx - x) < 0.01 and abs(ny - y) < 0.01:
            x, y = nx, ny
            break
        x, y = nx, ny
    return x, y, fill


def _blob_coins(cfg: CoinConfig, blob: np.ndarray, r: float, offsets: np.ndarray,
                ring: np.ndarray, min_fill: float) -> tuple[list[tuple[float, float]], bool]:
    """The coins in one blob (its patch's pixels), and whether the blob is whole coins only
    (False: a peak that fills less than ``min_fill`` of a disc, or no peak: maybe a coin seen
    in part). At most ``max_ring`` of the ``ring`` offsets around a coin may be in the blob."""
    dt = cv2.distanceTransform(blob, cv2.DIST_L2, 5)
    out: list[tuple[float, float]] = []
    whole = True
    peaks = _peaks(dt, cfg.min_peak * r, cfg.max_peak * r, 1.4 * r)
    if not peaks:
        return out, False
    patch = _Patch(blob, int(max(np.abs(offsets).max(), np.abs(ring).max())))
    ring_flat = patch.flat(ring)
    for px, py in peaks:
        cx, cy, fill = _mean_shift(patch, (px, py), offsets)
        if fill < min_fill:
            whole = False
        elif float(np.count_nonzero(patch.on(cx, cy, ring_flat))) / max(1, len(ring)) <= (
                cfg.max_ring):
            out.append((cx, cy))
    return out, whole and bool(out)


RAY_RADII = np.linspace(0.55, 1.4, 10)
"""Radii (share of a coin's) sampled along rays: face 0.55-0.83 (indices 0-3), rim 1.12-1.4
(6-9), inside up to 0.93 (0-4), outside from 1.02 (5-9)."""


def _faint_coin(cfg: CoinConfig, prep: Prepared, cx: float, cy: float, r: float
                ) -> tuple[bool, float, np.ndarray | None]:
    """Whether a disc that is only a little brighter than the table looks like a coin, the
    level halfway from the table around it to its face, and the levels along the rays
    (:func:`_rings`).

    Along rays from the centre, a coin's face is bright up to its outline and ends there (its
    wall, its shadow, a neighbour's rim): above halfway just inside the radius, below it just
    outside, on ``min_rim`` of the rays; and its face (0.55 to 0.9 radii, around the symbol)
    is brighter than the ring just outside (1.05 to 1.4) by ``min_contrast`` noise sigmas
    along most rays (the median: a dark post on one side is no rim). A patch of the table's
    texture fades out anywhere. No coin when the ring around is not all in the play area (a
    coin seen in part tells nothing).
    """
    rings = _rings(prep, cx, cy, r)
    if rings is None:
        return False, 0.0, None
    return (*_faint_rings(cfg, prep, *rings), rings[0])


def _faint_rings(cfg: CoinConfig, prep: Prepared, prof: np.ndarray, around: np.ndarray
                 ) -> tuple[bool, float]:
    """:func:`_faint_coin` from the levels along its rays."""
    contrast = _median(prof[:, :4].mean(axis=1) - prof[:, 6:].mean(axis=1))
    if contrast < cfg.min_contrast * max(prep.noise, 1.0):  # most ways round, not one side
        return False, 0.0
    inside, outside = prof[:, :5].max(axis=1), prof[:, 5:].min(axis=1)
    mid = (_median(inside) + _median(around)) / 2.0
    return float(np.mean((inside >= mid) & (outside < mid))) >= cfg.min_rim, mid


def _median(v: np.ndarray) -> float:
    """The (upper) median of a short vector (np.median's overhead is most of its cost)."""
    return float(np.sort(v)[len(v) // 2])


def _rings(prep: Prepared, cx: float, cy: float, r: float
           ) -> tuple[np.ndarray, np.ndarray] | None:
    """``level`` along 24 rays from a centre at the radii of :data:`RAY_RADII` (times ``r``),
    (24, 10), and on a ring at 1.8 ``r`` (24,); None when that ring leaves the play area."""
    offsets = _ray_offsets(round(r, 3))
    rays = len(offsets) // (len(RAY_RADII) + 1)
    pts = offsets + np.array([cx, cy])
    ix, iy = np.round(pts[-rays:]).astype(int).T
    h, w = prep.valid.shape
    if np.any((ix < 0) | (ix >= w) | (iy < 0) | (iy >= h)) or not prep.valid[iy, ix].all():
        return None
    samples = bilinear(prep.level, pts)
    return samples[:-rays].reshape(rays, len(RAY_RADII)), samples[-rays:]


def _rim_centre(cfg: CoinConfig, prep: Prepared, x: float, y: float, r: float
                ) -> tuple[float, float] | None:
    """The centre of a faint coin near ``(x, y)`` (a guess within a third of a radius): a
    circle fitted to where rays from the guess cross its outline (halfway down from its face
    to the table around), again from there while it moves; None when no coin
    (:func:`_faint_coin`) is there."""
    c0 = np.array([x, y])
    for attempt in range(3):
        rings = _rings(prep, c0[0], c0[1], r)
        if rings is None:
            return None
        prof, around = rings
        if attempt == 0 and _median(prof[:, :4].mean(axis=1) - prof[:, 6:].mean(axis=1)) < (
                0.5 * cfg.min_contrast * max(prep.noise, 1.0)):
            return None  # not even half a coin's contrast: table
        mid = (_median(prof[:, :5].max(axis=1)) + _median(around)) / 2.0
        below = prof < mid
        below[:, :3] = False  # the outline, not the symbol
        j = np.argmax(below, axis=1)
        rows = np.arange(len(j))
        k = np.nonzero(below[rows, j] & (prof[rows, j - 1] >= mid))[0]  # down through mid
        j = j[k]
        if len(k) < 12:
            return None
        a, b = prof[k, j - 1], prof[k, j]
        rho = (RAY_RADII[j - 1] + (a - mid) / np.maximum(a - b, 1e-6)
               * (RAY_RADII[1] - RAY_RADII[0])) * r
        ang = 2.0 * math.pi * k / len(prof)
        e = rho[:, None] * np.c_[np.cos(ang), np.sin(ang)]  # about c0
        A = np.c_[2.0 * e, np.ones(len(e))]  # x^2 + y^2 = 2 a x + 2 b y + c: a linear fit
        try:  # the normal equations (3 unknowns): far cheaper than lstsq
            step = np.linalg.solve(A.T @ A, A.T @ (e * e).sum(axis=1))[:2]
        except np.linalg.LinAlgError:
            return None
        moved = float(np.hypot(*step))
        if moved > 0.4 * r:
            return None
        c0 = c0 + step
        if moved < 0.1 * r:  # these rays were as good as from the centre found
            if not _faint_rings(cfg, prep, prof, around)[0]:
                return None
            return float(c0[0]), float(c0[1])
    return None


def _faint_coins(cfg: CoinConfig, prep: Prepared, exclude: np.ndarray | None, r: float,
                 found: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Coins too faint for the bright mask (on a pale table), away from those ``found``."""
    out: list[tuple[float, float]] = []
    tried: list[tuple[float, float]] = []
    for x, y in _ring_candidates(cfg, prep, r, exclude, found):
        if any((x - qx) ** 2 + (y - qy) ** 2 < (0.6 * r) ** 2 for qx, qy in out + tried):
            continue
        tried.append((x, y))
        c = _rim_centre(cfg, prep, x, y, r)
        if c is not None and all((c[0] - qx) ** 2 + (c[1] - qy) ** 2 >= (1.2 * r) ** 2
                                 for qx, qy in found + out):
            out.append(c)
    return out


@lru_cache(maxsize=8)
def _ray_offsets(r: float, rays: int = 24) -> np.ndarray:
    """Offsets along ``rays`` rays at :data:`RAY_RADII` (ray by ray), then on a ring at 1.8
    ``r``."""
    a = np.linspace(0.0, 2.0 * math.pi, rays, endpoint=False)
    d = np.c_[np.cos(a), np.sin(a)]
    rho = RAY_RADII * r
    return np.concatenate([(rho[None, :, None] * d[:, None]).reshape(-1, 2), 1.8 * r * d])


@lru_cache(maxsize=8)
def _ring_kernel(rs: float, supersample: int = 8) -> np.ndarray:
    """A zero-sum kernel: the mean over a coin's face (0.5 to 0.9 radii ``rs``, around its
    symbol) less the mean over the ring just outside it (1.05 to 1.4), pixels' shares of each
    band found by supersampling."""
    k = math.ceil(1.4 * rs + 0.5)
    m, n = 2 * k + 1, supersample
    g = np.arange(-k - 0.5 + 0.5 / n, k + 0.5, 1.0 / n)
    d = np.hypot(*np.meshgrid(g, g)) / rs
    face = ((d >= 0.5) & (d <= 0.9)).reshape(m, n, m, n).sum(axis=(1, 3)).astype(np.float32)
    rim = ((d >= 1.05) & (d <= 1.4)).reshape(m, n, m, n).sum(axis=(1, 3)).astype(np.float32)
    return face / face.sum() - rim / rim.sum()


@lru_cache(maxsize=8)
def _ring_parts(rs: float, rank: int = 3) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """:func:`_ring_kernel` as a sum of ``rank`` separable kernels (column, row): three carry
    all but a few per cent of it, at a third of the cost of the full 2-D filter."""
    u, sv, vt = np.linalg.svd(_ring_kernel(rs).astype(np.float64))
    return tuple(((u[:, i] * sv[i]).astype(np.float32), vt[i].astype(np.float32))
                 for i in range(rank))


def _ring_candidates(cfg: CoinConfig, prep: Prepared, r: float, exclude: np.ndarray | None,
                     found: list[tuple[float, float]]) -> np.ndarray:
    """Where coins too faint for the bright mask may lie, (N, 2) view pixels, best first.

    On a pale table (``Prepared.pale``) a coin shows as a bright face ringed by its darker wall
    and shadow: the local maxima of a ring filter (:func:`_ring_kernel`, on a view reduced
    until a coin's radius is 2.5 pixels) at least ``ring_sigmas`` of the filter's own noise
    over the table, away from ``exclude`` (tiles) and from the coins already ``found``.
    """
    none = np.zeros((0, 2))
    rs = 2.5
    levels = max(0, int(math.log2(r / rs)))
    small = prep.level
    for _ in range(levels):
        small = cv2.pyrDown(small)
    scale = rs / (r / 2 ** levels)  # in (0.5, 1]
    if scale < 0.95:
        small = cv2.resize(small, (max(1, round(small.shape[1] * scale)),
                                   max(1, round(small.shape[0] * scale))),
                           interpolation=cv2.INTER_LINEAR)
    else:
        scale = 1.0
    resp = None
    for col, row in _ring_parts(rs):
        part = cv2.sepFilter2D(small, cv2.CV_32F, row, col)
        resp = part if resp is None else cv2.add(resp, part)
    assert resp is not None
    size = (resp.shape[1], resp.shape[0])
    k = 2 * math.ceil(1.5 * rs) + 1  # the filter must not reach out of the play area
    ok = cv2.erode(cv2.resize(prep.valid, size, interpolation=cv2.INTER_NEAREST),
                   cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    sample = resp[::5, ::5][ok[::5, ::5] > 0]
    if sample.size < 10:
        return none
    med = _median(sample)
    sig = 1.4826 * _median(np.abs(sample - med))
    if exclude is not None:
        ok = cv2.bitwise_and(ok, cv2.bitwise_not(
            cv2.resize(exclude, size, interpolation=cv2.INTER_NEAREST)))
    high = cv2.threshold(resp, med + cfg.ring_sigmas * max(sig, 1e-3), 255,
                         cv2.THRESH_BINARY)[1].astype(np.uint8)
    peak = cv2.compare(resp, cv2.dilate(resp, np.ones((3, 3), np.uint8)), cv2.CMP_GE)
    at = cv2.findNonZero(cv2.bitwise_and(cv2.bitwise_and(high, peak), ok))
    if at is None:
        return none
    xs, ys = at[:, 0, 0], at[:, 0, 1]
    f = 2 ** levels
    hs, ws = resp.shape  # each peak to a fraction of a (reduced) pixel: a parabola each way
    xl, xr = resp[ys, np.maximum(xs - 1, 0)], resp[ys, np.minimum(xs + 1, ws - 1)]
    yu, yd = resp[np.maximum(ys - 1, 0), xs], resp[np.minimum(ys + 1, hs - 1), xs]
    c2 = 2.0 * resp[ys, xs]
    fx = xs + np.clip(0.5 * (xl - xr) / np.minimum(xl + xr - c2, -1e-6), -0.5, 0.5)
    fy = ys + np.clip(0.5 * (yu - yd) / np.minimum(yu + yd - c2, -1e-6), -0.5, 0.5)
    pts = np.c_[(fx + 0.5) / scale - 0.5, (fy + 0.5) / scale - 0.5] * f
    if found:
        d2 = ((pts[:, None] - np.array(found)[None]) ** 2).sum(axis=2).min(axis=1)
        keep = d2 >= (1.2 * r) ** 2
        pts, ys, xs = pts[keep], ys[keep], xs[keep]
    return pts[np.argsort(-resp[ys, xs])[:cfg.max_candidates]]


def _regrow(cfg: CoinConfig, prep: Prepared, exclude: np.ndarray | None, seed: np.ndarray,
            rect: tuple[int, int, int, int], r: float) -> tuple[np.ndarray, int, int]:
    """A faint coin's whole blob, grown from its brightest part: ``seed``, bool over the
    frame's rectangle ``rect`` = (x0, y0, x1, y1), never into ``exclude`` (tiles).

    On a pale table a coin is only a little brighter than the cloth, and the frame's bright
    threshold (set by the cloth's texture) keeps only its brightest pixels: a smaller disc, a
    broken ring round a coloured symbol. Here the threshold is set for this blob alone:
    halfway from the table around it to the blob's own brightness (where the coin's blurred
    outline is), and at least ``regrow_sigmas`` noise sigmas above that table. Gaps narrower
    than half a radius (a symbol reaching the rim) are closed and holes filled.

    Returns:
        ``(blob, xa, ya)``: uint8 0/255 patch and its top-left corner in the frame.
    """
    h, w = prep.level.shape
    x0, y0, x1, y1 = rect
    pad = math.ceil(1.2 * r) + 2
    body = float(np.median(prep.level[y0:y1, x0:x1][seed]))
    xa, ya, xb, yb = max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)

    def allowed() -> np.ndarray:
        ok = prep.valid[ya:yb, xa:xb]
        return ok if exclude is None else cv2.bitwise_and(
            ok, cv2.bitwise_not(exclude[ya:yb, xa:xb]))

    grown = np.zeros((yb - ya, xb - xa), np.uint8)
    for attempt in range(3):  # the patch widens while the grown blob runs into its border
        lv = prep.level[ya:yb, xa:xb]
        table = float(np.median(np.concatenate([lv[0], lv[-1], lv[1:-1, 0], lv[1:-1, -1]])))
        thr = max((body + table) / 2.0, table + max(4.0, cfg.regrow_sigmas * prep.noise))
        cand = cv2.bitwise_and(  # level >= thr
            cv2.threshold(lv, math.ceil(thr) - 1, 255, cv2.THRESH_BINARY)[1], allowed())
        inner = cand[y0 - ya:y1 - ya, x0 - xa:x1 - xa]
        inner[seed] = 255
        n, lab, st, _ = cv2.connectedComponentsWithStats(cand, connectivity=8)
        keep = np.unique(lab[y0 - ya:y1 - ya, x0 - xa:x1 - xa][seed])
        lut = np.zeros(n, np.uint8)
        lut[keep] = 255
        grown = lut[lab]
        box = st[keep]
        nxa = max(0, xa + int(box[:, 0].min()) - pad)
        nya = max(0, ya + int(box[:, 1].min()) - pad)
        nxb = min(w, xa + int((box[:, 0] + box[:, 2]).max()) + pad)
        nyb = min(h, ya + int((box[:, 1] + box[:, 3]).max()) + pad)
        if attempt == 2 or not (nxa < xa or nya < ya or nxb > xb or nyb > yb):
            break
        xa, ya, xb, yb = min(xa, nxa), min(ya, nya), max(xb, nxb), max(yb, nyb)
    k = max(3, round(0.5 * r) | 1)
    grown = cv2.morphologyEx(grown, cv2.MORPH_CLOSE,
                             cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    contours, hier = cv2.findContours(grown, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hier is not None:  # holes smaller than a coin: symbols (a loop of coins stays open)
        holes = [c for c, hh in zip(contours, hier[0], strict=True)
                 if hh[3] >= 0 and cv2.contourArea(c) < math.pi * r * r]
        cv2.drawContours(grown, holes, -1, 255, thickness=cv2.FILLED)
    return cv2.bitwise_and(grown, allowed()), xa, ya


def _fit_circles(e: np.ndarray, w: np.ndarray, c: np.ndarray, r: float,
                 active: np.ndarray | None = None) -> np.ndarray:
    """Least-squares circle centres of a known radius through weighted points (Gauss-Newton).

    Args:
        e: (N, K, 2) points of each circle.
        w: (N, K) weights (0 leaves a point out).
        c: (N, 2) starting centres.
        active: (N,) which circles to fit (the others keep their start); None: all. A fit
            that runs away (a step longer than the radius) stops there.
    """
    c = c.astype(float).copy()
    active = np.ones(len(c), bool) if active is None else active.copy()
    for _ in range(10):
        dx, dy = e[..., 0] - c[:, None, 0], e[..., 1] - c[:, None, 1]
        n = np.maximum(np.hypot(dx, dy), 1e-9)
        res = (n - r) * w
        jx, jy = -dx / n * w, -dy / n * w  # the Jacobian, weighted
        # the normal equations (2 unknowns a circle), solved in closed form
        a00, a01, a11 = (jx * jx).sum(axis=1), (jx * jy).sum(axis=1), (jy * jy).sum(axis=1)
        b0, b1 = -(jx * res).sum(axis=1), -(jy * res).sum(axis=1)
        det = a00 * a11 - a01 * a01
        ok = active & (np.abs(det) >= 1e-12)
        det = np.where(ok, det, 1.0)
        sx = np.where(ok, (a11 * b0 - a01 * b1) / det, 0.0)
        sy = np.where(ok, (a00 * b1 - a01 * b0) / det, 0.0)
        c[:, 0] += sx
        c[:, 1] += sy
        step = np.hypot(sx, sy)
        active &= (step >= 1e-3) & (step <= r)
        if not active.any():
            break
    return c


def far_edge_centres(level: np.ndarray, centres: np.ndarray, away: np.ndarray, r: float,
                     table_level: float, rays: int = 17, spread_deg: float = 80.0
                     ) -> np.ndarray:
    """The centres of discs' top faces from the far half of their outlines, subpixel.

    Seen from a tilted camera, a raised disc's outline on the side away from the camera's
    nadir is its top face's edge (the side wall hides behind it), while the near side shows
    the wall. Along rays fanning out over the far side, the edge is where the brightness
    falls halfway from the face to the table; a circle of the disc's radius is fitted to
    those points. Rays that meet no edge (a touching neighbour) are left out. A disc with no
    way ``away`` (zero: straight below the camera) is looked at all round. Every disc is
    measured at once.

    Args:
        level: Brightness (float), the table at ``table_level``.
        centres: (N, 2) rough centres in view pixels.
        away: (N, 2) unit vectors away from the camera's nadir (or zero).

    Returns:
        (N, 2) centres; NaN where too few edge points were found.
    """
    centres = np.asarray(centres, float).reshape(-1, 2)
    away = np.asarray(away, float).reshape(-1, 2)
    n = len(centres)
    if n == 0:
        return np.zeros((0, 2))
    dirs = ray_fan(away, rays, spread_deg)  # (N, rays, 2)
    rho = np.arange(0.45 * r, 1.6 * r, 0.25)
    pts = centres[:, None, None] + rho[None, None, :, None] * dirs[:, :, None]
    prof = bilinear(level, pts)  # (N, rays, samples)
    inside = prof[:, :, rho < 0.75 * r].reshape(n, -1)
    body = np.median(inside, axis=1) if inside.shape[1] else np.full(n, table_level)
    mid = (body + table_level) / 2.0
    # along each ray, the first sample past 0.6 r below halfway
    below = (prof < mid[:, None, None]) & (rho > 0.6 * r)[None, None, :]
    j = np.argmax(below, axis=2)  # (N, rays)
    ok = np.take_along_axis(below, j[..., None], axis=2)[..., 0] & (j > 0)
    ok &= rho[j] <= 1.35 * r
    jm = np.maximum(j - 1, 0)
    a = np.take_along_axis(prof, jm[..., None], axis=2)[..., 0]
    b = np.take_along_axis(prof, j[..., None], axis=2)[..., 0]
    t = (a - mid[:, None]) / np.maximum(a - b, 1e-6)
    e = centres[:, None] + (rho[jm] + t * (rho[j] - rho[jm]))[..., None] * dirs
    e = np.where(ok[..., None], e, centres[:, None])
    good = (body - table_level >= 0.04 * table_level) & (ok.sum(axis=1) >= rays // 2)
    fitted = _fit_circles(e, ok.astype(float), centres, r, good)
    good &= np.hypot(*(fitted - centres).T) <= 0.4 * r
    return np.where(good[:, None], fitted, np.nan)


def detect_coins(cfg: CoinConfig, prep: Prepared, exclude: np.ndarray | None = None
                 ) -> Detections:
    """Finds the coins in a prepared frame.

    Args:
        cfg: Coin sizes and thresholds.
        prep: The prepared frame.
        exclude: uint8 (H, W) mask of places already explained (tiles), or None.

    Returns:
        One row per coin: centre (foot) and seen centre in mm, suit and confidence.
    """
    s = prep.view.px_per_mm
    r = cfg.radius_mm * s
    mask = prep.bright if exclude is None else cv2.bitwise_and(prep.bright,
                                                               cv2.bitwise_not(exclude))
    offsets = _disc_offsets(r)
    inner = _disc_offsets(0.8 * r)
    inks = dict(cfg.suit_inks)
    centres, suits, confs = [], [], []
    h, w = mask.shape
    ring = _disc_offsets(1.45 * r)
    ring = ring[np.hypot(ring[:, 0], ring[:, 1]) > 1.15 * r]
    taken: np.ndarray | None = None  # pixels of blobs grown so far (their parts are done)
    quarter, half = 0.25 * math.pi * r * r, 0.5 * math.pi * r * r
    for part in blobs(mask, math.floor(quarter)):
        if part.area < quarter or min(part.w, part.h) < 1.2 * r:
            continue
        if part.area > 60 * math.pi * r * r:  # far too big for coins (a hand, a sheet)
            continue
        own, x0, y0 = part.mask()
        if taken is not None and taken[y0:y0 + part.h, x0:x0 + part.w][own > 0].any():
            continue  # already taken into a grown blob
        found, whole = [], False
        if part.area >= half:  # else a coin's broken ring at most
            blob, xa, ya = part.mask(pad=2)
            found, whole = _blob_coins(cfg, blob, r, offsets, ring, cfg.min_fill)
        if not whole:  # a coin seen in part (faint, a symbol reaching its rim): grow it
            blob, xa, ya = _regrow(cfg, prep, exclude, own > 0,
                                   (x0, y0, x0 + part.w, y0 + part.h), r)
            if taken is None:
                taken = np.zeros((h, w), np.uint8)
            grown = taken[ya:ya + blob.shape[0], xa:xa + blob.shape[1]]
            cv2.bitwise_or(grown, blob, dst=grown)
            found = [(cx, cy) for cx, cy in _blob_coins(cfg, blob, r, offsets, ring,
                                                          cfg.faint_fill)[0]
                     if _faint_coin(cfg, prep, cx + xa, cy + ya, r)[0] and all(
                         (cx + xa - qx) ** 2 + (cy + ya - qy) ** 2 >= (1.2 * r) ** 2
                         for qx, qy in centres)]  # not a coin of a blob already seen
        centres += [(cx + xa, cy + ya) for cx, cy in found]
    if prep.pale:  # coins too faint for the bright mask, found by their ring
        centres += _faint_coins(cfg, prep, exclude, r, centres)
    if not centres:
        return Detections.empty()
    cam = prep.view.camera
    rough_px = np.array(centres, float)
    fine = far_edge_centres(prep.shade, rough_px, prep.view.outward_px(rough_px), r, 1.0)
    top_px = np.where(np.isnan(fine), rough_px, fine)
    if cfg.round_only:
        top_px = top_px[~not_round(prep.shade, top_px, prep.view.outward_px(top_px), r)]
        if not len(top_px):
            return Detections.empty()
    seen_mm = prep.view.to_mm(top_px)
    foot_mm = cam.foot_of(seen_mm, cfg.thickness_mm)
    centres = [tuple(c) for c in top_px]
    for suit, conf in read_suits(darkest_colours(prep.top, np.rint(top_px).astype(int), inner),
                                 inks):
        suits.append(suit)
        confs.append(conf)
    return Detections.of(foot_mm, ["coin"] * len(centres), confidence=confs, seen_mm=seen_mm,
                         suit=suits)
