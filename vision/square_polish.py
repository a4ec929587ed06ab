"""A placed tile's angle (and centre) measured again from dense edge points, robustly.

Every stage that places a tile (:func:`vision.tiles.refine_block`, the steepest-edge and the
colour fits) ends with a square that is close: within a degree or two and a pixel or two. Here
that square is measured once more, the same way whatever placed it:

1. **Edge points** (:func:`edge_points`): in the view (the frame undistorted and warped onto
   the table plane), each channel divided by its own level around the tile, a profile across
   each side every pixel along its middle 0.84; on each side the channel and sign of its
   strongest mean step (a cream face on oak, a blue channel on white), and on every profile
   the steepest change of that sign near the side's line, placed between samples by a
   parabola. A profile whose change is no stronger than the noise across the side (a side
   against another tile, the table's own texture) gives no point.
2. **Robust fit** (:func:`fit_lines`): the four sides as lines of one common direction and
   each its own offset, by iteratively reweighted least squares with Tukey's biweight: points
   on a coin or a hand against a side, a shadow's edge beyond it, a chipped corner weigh
   nothing. Each side's offset is free, so a side that shows the tile's wall (facing the
   camera: its edge is the wall's foot, not the face's) still gives the direction, exactly.
   A side whose own direction disagrees with the others (a shadow's edge along it) is left
   out and the rest fitted again.
3. **Centre**: from the sides that do not face the camera (the face's own edges), the known
   side giving the other half; along an axis where both sides face away, their middle.
4. **Refused, not made worse**: the polished square stands only where its points fit it to
   a fraction of a pixel, two sides at least are measured along most of their length, and the
   change across its four sides (the support) is at least the placed square's: otherwise the
   placed square stands as it was.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.sampling import bilinear_channels
from vision.tile_fit import normalised_channels
from vision.topview import CameraGeometry


@dataclass(frozen=True)
class PolishConfig:
    """Attributes:
    span: The profiles cover this share of a side's length, centred (the corners, rounded
        and where neighbours' edges cross, left out).
    spacing_px: Profiles this far apart along a side.
    reach: Edges are looked for this share of a side either way of the placed side's line
        (at least ``min_reach_px``).
    min_reach_px: See ``reach``.
    min_strength: A profile's edge counts where its change is at least this many times the
        robust spread of the changes across its side's samples.
    min_cover: A side is measured where at least this share of its profiles give inliers.
    min_sides: At least this many sides measured (two of them perpendicular).
    max_rms_px: The inliers fit their lines to within this (RMS).
    side_disagree_deg: A side whose own direction differs from the common one by more than
        this (and three times its own uncertainty) is left out.
    max_turn_deg: The polished angle is at most this far from the placed one.
    max_shift: The polished centre is at most this share of a side from the placed one.
    centre_shift: A polished centre further than this share of a side from the placed one
        is not taken (the polished angle is): the placed square's centre stands (a back's
        printed border or a neighbour's edge within reach of a side moves the centre, not
        the direction the four sides share).
    min_support: The polished square's support (:func:`support`) is at least this share of
        the placed one's (a fit drawn to a shadow's edge or a neighbour's lies off the face's
        own edges).
    """

    span: float = 0.84
    spacing_px: float = 1.0
    reach: float = 0.08
    min_reach_px: float = 4.0
    min_strength: float = 1.5
    min_cover: float = 0.5
    min_sides: int = 2
    max_rms_px: float = 0.45
    side_disagree_deg: float = 1.0
    max_turn_deg: float = 5.0
    max_shift: float = 0.1
    centre_shift: float = 0.04
    min_support: float = 0.97


@dataclass(frozen=True)
class EdgePoints:
    """Edge points around a square: ``points_px`` (N, 2) window pixels, ``sides`` (N,) which
    side each lies on (0-3, the normal at angle + k * 90 degrees), ``strength`` (N,) their
    change over the side's noise, ``places`` the profiles each side had."""

    points_px: np.ndarray
    sides: np.ndarray
    strength: np.ndarray
    places: int


def _row_medians(x: np.ndarray) -> np.ndarray:
    """Each row's median (float64) of a 2-D array, by one partition of the rows.

    >>> _row_medians(np.array([[3.0, 1.0, 2.0, 9.0], [1.0, 1.0, 5.0, 0.0]])).tolist()
    [2.5, 1.0]
    """
    n = x.shape[1]
    h = n // 2
    if n % 2:
        return np.partition(x, h, axis=1)[:, h].astype(float)
    part = np.partition(x, (h - 1, h), axis=1)
    return (part[:, h - 1].astype(float) + part[:, h]) / 2


def edge_points(win: np.ndarray, centre: np.ndarray, angle: float, side: float,
                cfg: PolishConfig) -> EdgePoints:
    """Edge points (window pixels) across the four sides of a square of ``side`` pixels at
    ``centre`` (window pixels) and ``angle`` (radians)."""
    places = max(9, round(cfg.span * side / cfg.spacing_px) | 1)
    along = np.linspace(-cfg.span / 2, cfg.span / 2, places) * side
    step = 0.25
    reach = max(cfg.min_reach_px, cfg.reach * side)
    rho = side / 2 + np.arange(-reach - 1.0, reach + 1.0 + step / 2, step)
    th = angle + np.arange(4) * (math.pi / 2)
    n = np.stack([np.cos(th), np.sin(th)], axis=1)  # (4, 2) each side's outward normal
    t = np.stack([-n[:, 1], n[:, 0]], axis=1)
    grid = np.empty((4, places, len(rho), 2), np.float32)  # (4, P, R, 2) the samples
    for k in (0, 1):  # x, then y: each in long runs (the same sums as broadcasting both)
        grid[..., k] = (centre[k] + along[None, :, None] * t[:, None, None, k]
                        ) + rho[None, None, :] * n[:, None, None, k]
    prof = bilinear_channels(win, grid)  # (C, 4, P, R)
    # each side's channel and sign from its mean profile's change (the mean of the profiles'
    # changes: differencing is linear), then the changes of that channel alone
    mp = prof.mean(axis=2)  # (C, 4, R)
    mean_d = (mp[..., 2:] - mp[..., :-2]) / (2 * step)  # (C, 4, R')
    mid = rho[1:-1]
    mean = np.abs(mean_d)
    ch = mean.max(axis=2).argmax(axis=0)  # each side's channel changing most, (4,)
    ks = np.arange(4)
    at = mean[ch, ks].argmax(axis=1)
    sign = np.sign(mean_d[ch, ks, at])
    sign = np.where(sign == 0, 1.0, sign)
    pk = prof[ch, ks]  # (4, P, R)
    d = (pk[..., 2:] - pk[..., :-2]) * (sign / (2 * step)).astype(np.float32)[:, None, None]
    # (4, P, R'), the edge's change positive; its noise: the MAD of each side's changes
    med = _row_medians(d.reshape(4, -1))
    spread = 1.4826 * _row_medians(np.abs(d.reshape(4, -1) - med[:, None])) + 1e-6
    inner = np.flatnonzero(np.abs(mid - side / 2) <= reach)  # (a run of samples)
    lo, hi = int(inner[0]), int(inner[-1]) + 1
    j = lo + np.argmax(d[..., lo:hi], axis=2)  # (4, P)
    jj = np.clip(j, 1, len(mid) - 2)
    g0 = np.take_along_axis(d, (jj - 1)[..., None], axis=2)[..., 0]
    g1 = np.take_along_axis(d, jj[..., None], axis=2)[..., 0]
    g2 = np.take_along_axis(d, (jj + 1)[..., None], axis=2)[..., 0]
    ok = (g1 >= cfg.min_strength * spread[:, None]) & (g1 >= g0) & (g1 >= g2)
    # the edge's place: the centroid of the change within a pixel and a half of its peak
    # (a parabola through three samples of a bilinear image leans to the pixel grid); only
    # the samples a pixel and a half either way of the peak are gathered
    span_n = math.ceil(1.5 / step) + 1
    idx = jj[..., None] + np.arange(-span_n, span_n + 1)  # (4, P, W)
    inside = (idx >= 0) & (idx < len(mid))
    idx = np.clip(idx, 0, len(mid) - 1)
    m_at = mid[idx]
    dw = np.take_along_axis(d, idx, axis=2)
    near = inside & (np.abs(m_at - mid[jj][..., None]) <= 1.5)
    wgt = np.where(near, np.clip(dw - 0.25 * g1[..., None], 0.0, None), 0.0)
    r_at = (wgt * m_at).sum(axis=2) / np.maximum(wgt.sum(axis=2), 1e-12)  # (4, P)
    kk, ii = np.nonzero(ok)
    pts = centre + along[ii, None] * t[kk] + r_at[kk, ii, None] * n[kk]
    return EdgePoints(pts.reshape(-1, 2), kk.astype(int), g1[kk, ii] / spread[kk], places)


def _tukey(r: np.ndarray, scale: float) -> np.ndarray:
    """Tukey's biweight of residuals ``r`` at a scale (4.685 robust sigmas)."""
    u = r / scale
    return np.where(np.abs(u) < 1.0, (1.0 - u * u) ** 2, 0.0)


@dataclass(frozen=True)
class LineFit:
    """Four sides of one direction: ``angle`` (radians), ``offsets`` (4,) each side's
    distance from the reference point along its normal (nan where not measured), ``weights``
    (N,) each point's final weight, ``rms_px`` the inliers' misfit, ``used`` (4,) bool."""

    angle: float
    offsets: np.ndarray
    weights: np.ndarray
    rms_px: float
    used: np.ndarray


def _median(x: np.ndarray) -> float:
    """``np.median`` of a 1-D array, by one partition (a fraction of its overhead on the
    few hundred values of a tile's sides).

    >>> _median(np.array([3.0, 1.0, 2.0])), _median(np.array([4.0, 1.0, 3.0, 2.0]))
    (2.0, 2.5)
    """
    n = len(x)
    h = n // 2
    if n % 2:
        return float(np.partition(x, h)[h])
    part = np.partition(x, (h - 1, h))
    return float((part[h - 1] + part[h]) / 2)


def fit_lines(e: EdgePoints, ref: np.ndarray, angle: float, use: np.ndarray,
              iterations: int = 8, floor_px: float = 0.12) -> LineFit:
    """Common direction and per-side offsets of the points on the sides ``use`` (4,) bool,
    Gauss-Newton with Tukey weights (scale from the residuals' MAD, at least ``floor_px``).

    Each step solves the normal equations of the angle and the used sides' offsets with the
    offsets eliminated (each side's offset step is its weighted mean residual after the
    angle's step): the same step as the full (1 + sides) system, in a few sums per side."""
    p = e.points_px - ref
    k = e.sides
    sel = use[k]
    px, py = p[:, 0], p[:, 1]
    # side k's normal is the first side's turned k quarter turns: (cos, sin) of a + k pi/2
    # is (c, s), (-s, c), (-c, -s), (s, -c) of the first side's c, s
    u = np.where(k == 0, px, np.where(k == 1, py, np.where(k == 2, -px, -py)))
    v = np.where(k == 0, py, np.where(k == 1, -px, np.where(k == 2, -py, px)))
    a = angle
    offs = np.zeros(4)
    c, s_ = math.cos(a), math.sin(a)
    proj = c * u + s_ * v
    for s in range(4):
        if use[s] and np.any(k == s):
            offs[s] = _median(proj[k == s])
    used = np.flatnonzero(use)
    w = sel.astype(float)
    for it in range(iterations):
        c, s_ = math.cos(a), math.sin(a)
        proj = c * u + s_ * v
        res = proj - offs[k]
        if it:
            on = sel & (w > 0)
            mad = 1.4826 * _median(np.abs(res[on])) if on.any() else floor_px
            w = _tukey(res, 4.685 * max(mad, floor_px)) * sel
        dres = c * v - s_ * u  # d(res)/d(angle)
        wd = w * dres
        ws = np.bincount(k, weights=w, minlength=4)[used]
        ds = np.bincount(k, weights=wd, minlength=4)[used]
        rs = np.bincount(k, weights=w * res, minlength=4)[used]
        sdd = float(wd @ dres)
        if ws.min() <= 1e-12 * max(sdd, float(ws.max())):
            break  # a side with no weight left: its offset is not measured
        schur = sdd - float((ds * ds / ws).sum())
        if schur <= 1e-12 * sdd:
            break
        da = (float((ds * rs / ws).sum()) - float(wd @ res)) / schur
        do = (rs + ds * da) / ws
        a += da
        offs[used] += do
        if abs(da) < 1e-7 and np.all(np.abs(do) < 1e-4):
            break
    c, s_ = math.cos(a), math.sin(a)
    res = c * u + s_ * v - offs[k]
    inl = w > 0.3
    rms = math.sqrt(float(np.mean(res[inl] ** 2))) if inl.any() else math.inf
    out = np.where(use & (np.bincount(k, minlength=4) > 0), offs, np.nan)  # measured
    return LineFit(a, out, w, rms, use.copy())


def _side_turns(pts: np.ndarray, sides: np.ndarray, w: np.ndarray, angle: float
                ) -> tuple[np.ndarray, np.ndarray]:
    """How far each side's own direction turns from the common one (side k's normal at
    ``angle`` + k quarter turns, radians), from its weighted points alone, and the turn's
    standard error (radians): (4,) each (0 and inf where a side has no spread of points).
    All four sides in one pass: each side's sums by ``np.bincount``."""
    c, s = math.cos(angle), math.sin(angle)
    px, py = pts[:, 0], pts[:, 1]
    # along (t) and across (n) each point's own side: side k's frame is the first side's
    # turned k quarter turns
    x0, y0 = c * px + s * py, -s * px + c * py  # (n, t) of side 0
    k = sides
    u = np.where(k == 0, y0, np.where(k == 1, -x0, np.where(k == 2, -y0, x0)))
    v = np.where(k == 0, x0, np.where(k == 1, y0, np.where(k == 2, -x0, -y0)))

    def sums(x: np.ndarray) -> np.ndarray:
        return np.bincount(k, weights=x, minlength=4)

    sw = sums(w)
    ok = sw > 0
    swd = np.where(ok, sw, 1.0)
    um, vm = sums(w * u) / swd, sums(w * v) / swd
    du, dv = u - um[k], v - vm[k]
    suu = sums(w * du * du)
    ok &= suu > 1e-9
    suu_d = np.where(ok, suu, 1.0)
    slope = sums(w * du * dv) / suu_d
    resid = dv - slope[k] * du
    dof = np.maximum(1.0, sums((w > 0.3).astype(float)) - 2.0)
    sigma = np.sqrt(np.maximum(sums(w * resid * resid) / dof, 1e-6))
    turn = np.where(ok, -np.arctan(slope), 0.0)
    return turn, np.where(ok, sigma / np.sqrt(suu_d), math.inf)


_ACROSS = np.array([-3.0, -2.0, -1.0, 1.0, 2.0, 3.0])
"""Where :func:`support` samples across a side (pixels out from its line): the face, then
the table."""


def support(win: np.ndarray, centres: np.ndarray, angles: np.ndarray, side: float,
            span: float = 0.84, places: int = 31) -> np.ndarray:
    """The change across each square's four sides (of their strongest channel, the face's
    sign), summed along them: how well a square's outline lies on edges. ``centres`` (S, 2)
    window pixels and ``angles`` (S,) radians: (S,), every square's samples in one pass.

    >>> win = np.zeros((40, 40, 1), np.float32)
    >>> win[10:30, 10:30] = 1.0
    >>> [round(float(v), 2) for v in support(win, np.array([[19.5, 19.5], [15.0, 19.5]]),
    ...                                       np.zeros(2), 20.0)]
    [4.0, 1.64]
    """
    along = np.linspace(-span / 2, span / 2, places) * side
    th = np.asarray(angles, float)[:, None] + np.arange(4) * (math.pi / 2)  # (S, 4)
    n = np.stack([np.cos(th), np.sin(th)], axis=-1)  # (S, 4, 2)
    t = np.stack([-n[..., 1], n[..., 0]], axis=-1)
    grid = (np.asarray(centres, float)[:, None, None, None]
            + along[None, None, :, None, None] * t[:, :, None, None]
            + (side / 2 + _ACROSS)[None, None, None, :, None] * n[:, :, None, None]
            )  # (S, 4, P, 6, 2)
    prof = bilinear_channels(win, grid)  # (C, S, 4, P, 6)
    d = prof[..., :3].mean(axis=-1) - prof[..., 3:].mean(axis=-1)  # inside less outside
    return np.abs(d.mean(axis=3)).max(axis=0).sum(axis=-1)


def polish_square(top: np.ndarray, centre_px: np.ndarray, angle_deg: float, side: float,
                  away: np.ndarray, cfg: PolishConfig | None = None
                  ) -> tuple[np.ndarray, float] | None:
    """A placed tile's top face measured again: (centre view pixels (2,), angle view
    degrees in [0, 90)), or None where the measurement is refused (the placed square stands).

    Args:
        top: The view (uint8 BGR, or grey), made in full around the tile.
        centre_px: The placed square's centre, view pixels.
        angle_deg: Its direction, view degrees (modulo 90).
        side: The tile's top face's side in view pixels (:func:`face_side_px`: the camera
            sees it larger than the tile's foot).
        away: Unit vector away from the camera's nadir (its sides facing the camera show
            the wall beyond the face: they give the direction, not the centre).
        cfg: Thresholds.
    """
    return _polish(top, centre_px, angle_deg, side, away, cfg)[0]


def _polish(top: np.ndarray, centre_px: np.ndarray, angle_deg: float, side: float,
                  away: np.ndarray, cfg: PolishConfig | None = None
                  ) -> tuple[tuple[np.ndarray, float] | None, str]:
    """:func:`polish_square`, and why it refused (or ``"ok"``)."""
    cfg = cfg or PolishConfig()
    c0 = np.asarray(centre_px, float)
    reach = max(cfg.min_reach_px, cfg.reach * side)
    win, (x0, y0) = normalised_channels(top, c0, 0.5 * math.sqrt(2) * side + reach + 4.0,
                                         median_step=3)
    if win.shape[0] < side or win.shape[1] < side:
        return None, "window"
    local = c0 - (x0, y0)
    a0 = math.radians(angle_deg)
    e = edge_points(win, local, a0, side, cfg)
    if not len(e.sides):
        return None, "no points"
    use = np.array([np.count_nonzero(e.sides == k) >= cfg.min_cover * e.places
                    for k in range(4)])
    fit = None
    for _ in range(3):  # fit; a side disagreeing with the others left out; again
        if use.sum() < cfg.min_sides or not (use[0::2].any() and use[1::2].any()):
            return None, "sides"
        fit = fit_lines(e, local, a0, use)
        worst, worst_z = -1, 0.0
        turns, ses = _side_turns(e.points_px - local, e.sides, fit.weights, fit.angle)
        for k in np.flatnonzero(use):
            dev = abs(math.degrees(turns[k]))
            if dev > cfg.side_disagree_deg and dev > 3 * math.degrees(ses[k]) and dev > worst_z:
                worst, worst_z = int(k), dev
        if worst < 0:
            break
        use[worst] = False
    else:
        return None, "disagree"
    assert fit is not None
    cover = [np.count_nonzero((e.sides == k) & (fit.weights > 0.3)) for k in range(4)]
    if sum(c >= cfg.min_cover * e.places for c in cover) < cfg.min_sides:
        return None, "cover"
    if fit.rms_px > cfg.max_rms_px:
        return None, "rms"
    a = fit.angle
    if abs(math.degrees(a - a0)) > cfg.max_turn_deg:
        return None, "turn"
    # the centre: along each axis, from the sides showing the face's own edge
    away = np.asarray(away, float)
    centre = local.copy()
    for ax in (0, 1):
        n = np.array([math.cos(a + ax * math.pi / 2), math.sin(a + ax * math.pi / 2)])
        # offsets are along each side's own normal (side ax + 2 points the other way)
        clean = [k for k in (ax, ax + 2) if use[k] and cover[k] >= cfg.min_cover * e.places
                 and not (away.any() and float(np.dot(
                     [math.cos(a + k * math.pi / 2), math.sin(a + k * math.pi / 2)], away))
                     < -0.25)]
        if len(clean) == 2:
            shift = (fit.offsets[ax] - fit.offsets[ax + 2]) / 2
        elif clean:
            k = clean[0]
            shift = (fit.offsets[k] - side / 2) * (1.0 if k == ax else -1.0)
        else:
            continue
        centre = centre + shift * n
    if np.hypot(*(centre - local)) > cfg.max_shift * side:
        return None, "shift"
    got, placed = support(win, np.stack([centre, local]), np.array([a, a0]), side)
    if got < cfg.min_support * placed:
        return None, "support"
    if np.hypot(*(centre - local)) > cfg.centre_shift * side:
        centre = local  # the direction alone
    return (centre + np.array([x0, y0], float), math.degrees(a) % 90.0), "ok"


def polish_tile(top: np.ndarray, centre_px: tuple[float, float] | np.ndarray, angle_deg: float,
                side: float, away: np.ndarray, cfg: PolishConfig | None = None
                ) -> tuple[tuple[float, float], float]:
    """:func:`polish_square`'s centre and angle where it measures them, else the placed ones
    as they were."""
    got = polish_square(top, np.asarray(centre_px, float), angle_deg, side, away, cfg)
    if got is None:
        return (float(centre_px[0]), float(centre_px[1])), float(angle_deg)
    return (float(got[0][0]), float(got[0][1])), got[1]


def face_side_px(camera: CameraGeometry, side_px: float, thickness_mm: float) -> float:
    """The side of a tile's top face in the view (the table plane's pixels): the face lies
    ``thickness_mm`` above the table, nearer the camera, so it is seen larger than its foot
    by the camera's height over its height above the face.

    >>> face_side_px(CameraGeometry(np.zeros(2), 1000.0, 900.0, "lens"), 50.0, 5.0)
    50.25125628140704
    """
    return side_px * camera.height_mm / max(camera.height_mm - thickness_mm, 1.0)
