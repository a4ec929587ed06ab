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
(:func:`_faint_coin`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.detections import Detections
from vision.normalise import TABLE_LEVEL
from vision.prepare import Prepared
from vision.sampling import bilinear
from vision.suits import DEFAULT_SUIT_INKS, classify_ink, symbol_colour


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
    pale_sigmas: On a table so pale that a white piece is less than this many noise sigmas
        brighter than it, coins are also looked for by their ring (:func:`_ring_candidates`)...
    ring_sigmas: ...where a ring filter peaks this many of its noise sigmas above the table...
    max_candidates: ...at most this many places, best first.
    regrow_sigmas: A blob that does not make whole coins (a faint coin seen in part) is grown
        over the pixels brighter than halfway from the table around it to its own brightness,
        and at least this many noise sigmas above that table.
    suit_inks: Suit name -> 8-bit RGB of its ink.
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
    pale_sigmas: float = 20.0
    ring_sigmas: float = 5.0
    max_candidates: int = 60
    regrow_sigmas: float = 2.0
    suit_inks: tuple[tuple[str, tuple[int, int, int]], ...] = DEFAULT_SUIT_INKS


def _disc_offsets(radius_px: float) -> np.ndarray:
    k = math.ceil(radius_px)
    yy, xx = np.mgrid[-k:k + 1, -k:k + 1]
    keep = xx * xx + yy * yy <= radius_px * radius_px
    return np.c_[xx[keep], yy[keep]]


def _peaks(dt: np.ndarray, lo: float, hi: float, min_dist: float) -> list[tuple[float, float]]:
    """Local maxima of a distance transform with values in [lo, hi], at least min_dist apart."""
    k = max(3, int(min_dist) | 1)
    dil = cv2.dilate(dt, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    ys, xs = np.nonzero((dt >= dil - 1e-4) & (dt >= lo) & (dt <= hi))
    order = np.argsort(-dt[ys, xs])
    kept: list[tuple[float, float]] = []
    for i in order:
        p = (float(xs[i]), float(ys[i]))
        if all((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 >= min_dist ** 2 for q in kept):
            kept.append(p)
    return kept


def _mean_shift(mask: np.ndarray, start: tuple[float, float], offsets: np.ndarray,
                iterations: int = 6) -> tuple[float, float, float]:
    """Centre of the mask within a disc, iterated; returns (x, y, fill share)."""
    h, w = mask.shape
    x, y = start
    fill = 0.0
    for _ in range(iterations):
        px = np.round(x + offsets[:, 0]).astype(int)
        py = np.round(y + offsets[:, 1]).astype(int)
        ok = (px >= 0) & (px < w) & (py >= 0) & (py < h)
        on = np.zeros(len(offsets), bool)
        on[ok] = mask[py[ok], px[ok]] > 0
        fill = float(on.mean())
        if not on.any():
            break
        nx = float(np.mean(px[on]))
        ny = float(np.mean(py[on]))
        if abs(nx - x) < 0.01 and abs(ny - y) < 0.01:
            x, y = nx, ny
            break
        x, y = nx, ny
    return x, y, fill


def _share_on(mask: np.ndarray, x: float, y: float, offsets: np.ndarray) -> float:
    """Share of the pixels at ``(x, y) + offsets`` that are set in ``mask`` (outside: unset)."""
    h, w = mask.shape
    px = np.round(x + offsets[:, 0]).astype(int)
    py = np.round(y + offsets[:, 1]).astype(int)
    ok = (px >= 0) & (px < w) & (py >= 0) & (py < h)
    return float(np.count_nonzero(mask[py[ok], px[ok]])) / max(1, len(offsets))


def _blob_coins(cfg: CoinConfig, blob: np.ndarray, r: float, offsets: np.ndarray,
                ring: np.ndarray, min_fill: float) -> tuple[list[tuple[float, float]], bool]:
    """The coins in one blob (its patch's pixels), and whether the blob is whole coins only
    (False: a peak that fills less than ``min_fill`` of a disc, or no peak: maybe a coin seen
    in part)."""
    dt = cv2.distanceTransform(blob, cv2.DIST_L2, 5)
    out: list[tuple[float, float]] = []
    whole = True
    for px, py in _peaks(dt, cfg.min_peak * r, cfg.max_peak * r, 1.4 * r):
        cx, cy, fill = _mean_shift(blob, (px, py), offsets)
        if fill < min_fill:
            whole = False
        elif _share_on(blob, cx, cy, ring) <= cfg.max_ring:
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


def _pale(cfg: CoinConfig, prep: Prepared, step: int = 24) -> bool:
    """Whether the table is so pale that even a white piece is less than ``pale_sigmas``
    noise sigmas brighter than it: its coins may be too faint for the bright mask. (White,
    255, divided by the table's colour is brightest in the table's darkest channel.)"""
    grid = prep.top[::step, ::step].min(axis=2)[prep.valid[::step, ::step] > 0]
    if grid.size == 0:
        return False
    white = 255.0 * TABLE_LEVEL / max(_median(grid), 1.0)
    return white - TABLE_LEVEL < cfg.pale_sigmas * max(prep.noise, 1.0)


def _ring_candidates(cfg: CoinConfig, prep: Prepared, r: float, exclude: np.ndarray | None,
                     found: list[tuple[float, float]]) -> np.ndarray:
    """Where coins too faint for the bright mask may lie, (N, 2) view pixels, best first.

    On a pale table (:func:`_pale`) a coin shows as a bright face ringed by its darker wall
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


def _fit_circle(e: np.ndarray, c: np.ndarray, r: float, free_radius: bool) -> np.ndarray:
    """Least-squares circle centre through points (Gauss-Newton), radius fixed or free."""
    rr = r
    for _ in range(10):
        d = e - c
        n = np.maximum(np.linalg.norm(d, axis=1), 1e-9)
        res = n - rr
        J = -d / n[:, None]
        if free_radius:
            J = np.c_[J, -np.ones(len(n))]
        try:  # the normal equations (2 or 3 unknowns): far cheaper than lstsq
            step = np.linalg.solve(J.T @ J, -(J.T @ res))
        except np.linalg.LinAlgError:
            step, *_ = np.linalg.lstsq(J, -res, rcond=None)
        c = c + step[:2]
        if free_radius:
            rr = float(np.clip(rr + step[2], 0.8 * r, 1.2 * r))
        if float(np.hypot(step[0], step[1])) < 1e-3:
            break
    return c


def far_edge_centre(level: np.ndarray, centre: np.ndarray, away: np.ndarray, r: float,
                    table_level: float, rays: int = 17, spread_deg: float = 80.0,
                    free_radius: bool = False) -> np.ndarray | None:
    """The centre of a disc's top face from the far half of its outline, subpixel.

    Seen from a tilted camera, a raised disc's outline on the side away from the camera's
    nadir is its top face's edge (the side wall hides behind it), while the near side shows
    the wall. Along rays fanning out over the far side, the edge is where the brightness
    falls halfway from the face to the table; a circle of the disc's radius is fitted to
    those points. Rays that meet no edge (a touching neighbour) are left out.

    Returns:
        The centre (x, y) in view pixels, or None when too few edge points were found.
    """
    base = math.atan2(away[1], away[0])
    angs = base + np.radians(np.linspace(-spread_deg, spread_deg, rays))
    dirs = np.c_[np.cos(angs), np.sin(angs)]
    rho = np.arange(0.45 * r, 1.6 * r, 0.25)
    pts = centre[None, None] + rho[None, :, None] * dirs[:, None]
    prof = bilinear(level, pts)  # (rays, samples)
    inside = prof[:, rho < 0.75 * r]
    body = float(np.median(inside)) if inside.size else table_level
    if body - table_level < 0.04 * table_level:
        return None
    mid = (body + table_level) / 2.0
    # along each ray, the first sample past 0.6 r below halfway (all rays at once)
    below = (prof < mid) & (rho > 0.6 * r)[None, :]
    j = np.argmax(below, axis=1)
    ok = below[np.arange(rays), j] & (j > 0)
    ok &= rho[j] <= 1.35 * r
    if int(ok.sum()) < rays // 2:
        return None
    k, j = np.nonzero(ok)[0], j[ok]
    a, b = prof[k, j - 1], prof[k, j]
    t = (a - mid) / np.maximum(a - b, 1e-6)
    e = centre + (rho[j - 1] + t * (rho[j] - rho[j - 1]))[:, None] * dirs[k]
    c = _fit_circle(e, centre.astype(float), r, free_radius)
    if float(np.hypot(*(c - centre))) > 0.4 * r:
        return None
    return c


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
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    offsets = _disc_offsets(r)
    inner = _disc_offsets(0.8 * r)
    inks = dict(cfg.suit_inks)
    centres, suits, confs = [], [], []
    pad = 2
    h, w = mask.shape
    ring = _disc_offsets(1.45 * r)
    ring = ring[np.hypot(ring[:, 0], ring[:, 1]) > 1.15 * r]
    done = np.zeros(n, bool)  # blobs already taken into a grown one
    pale = _pale(cfg, prep)
    for i in range(1, n):
        x0, y0, bw, bh, area = stats[i]
        if done[i] or area < 0.25 * math.pi * r * r or min(bw, bh) < 1.2 * r:
            continue
        if area > 60 * math.pi * r * r:  # far too big for a group of coins (a hand, a sheet)
            continue
        found, whole = [], False
        if area >= 0.5 * math.pi * r * r:  # else a coin's broken ring at most
            xa, ya = max(0, x0 - pad), max(0, y0 - pad)
            xb, yb = min(w, x0 + bw + pad), min(h, y0 + bh + pad)
            blob = np.where(labels[ya:yb, xa:xb] == i, 255, 0).astype(np.uint8)
            found, whole = _blob_coins(cfg, blob, r, offsets, ring, cfg.min_fill)
        if not whole:  # a coin seen in part (faint, a symbol reaching its rim): grow it
            seed = labels[y0:y0 + bh, x0:x0 + bw] == i
            blob, xa, ya = _regrow(cfg, prep, exclude, seed, (x0, y0, x0 + bw, y0 + bh), r)
            done[np.unique(labels[ya:ya + blob.shape[0], xa:xa + blob.shape[1]][blob > 0])] = True
            found = [(cx, cy) for cx, cy in _blob_coins(cfg, blob, r, offsets, ring,
                                                          cfg.faint_fill)[0]
                     if _faint_coin(cfg, prep, cx + xa, cy + ya, r)[0] and all(
                         (cx + xa - qx) ** 2 + (cy + ya - qy) ** 2 >= (1.2 * r) ** 2
                         for qx, qy in centres)]  # not a coin of a blob already seen
        centres += [(cx + xa, cy + ya) for cx, cy in found]
    if pale:  # coins too faint for the bright mask, found by their ring
        centres += _faint_coins(cfg, prep, exclude, r, centres)
    if not centres:
        return Detections.empty()
    cam = prep.view.camera
    rough_mm = prep.view.to_mm(np.array(centres))
    away = cam.outward(rough_mm)
    if prep.view.flip_y:
        away[:, 1] = -away[:, 1]
    top_px = []
    for c, u in zip(centres, away, strict=True):
        c = np.array(c, float)
        fine = far_edge_centre(prep.shade, c, u if np.any(u) else np.array([1.0, 0.0]), r,
                               1.0, spread_deg=80.0 if np.any(u) else 180.0)
        top_px.append(c if fine is None else fine)
    seen_mm = prep.view.to_mm(np.array(top_px))
    foot_mm = cam.foot_of(seen_mm, cfg.thickness_mm)
    centres = [tuple(c) for c in top_px]
    for cx, cy in centres:
        ix, iy = round(cx), round(cy)
        k = math.ceil(r) + 1
        ya, yb, xa, xb = max(0, iy - k), min(h, iy + k + 1), max(0, ix - k), min(w, ix + k + 1)
        patch = prep.top[ya:yb, xa:xb]
        region = np.zeros(patch.shape[:2], bool)
        ox, oy = inner[:, 0] + ix - xa, inner[:, 1] + iy - ya
        ok = (ox >= 0) & (ox < patch.shape[1]) & (oy >= 0) & (oy < patch.shape[0])
        region[oy[ok], ox[ok]] = True
        rel, _ = symbol_colour(patch, region)
        suit, conf = (None, 0.0) if rel is None else classify_ink(rel, inks)
        suits.append(suit)
        confs.append(conf)
    return Detections.of(foot_mm, ["coin"] * len(centres), confidence=confs, seen_mm=seen_mm,
                         suit=suits)
