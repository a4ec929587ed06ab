"""Posts: dark upright cylinders, reported at their foot.

From a tilted camera a post's side wall lies on the table plane of the view as a dark stripe
from its foot outwards (away from the point below the camera), as long as the camera geometry
says for a post of its height standing there. Each dark blob is searched for the foot whose
predicted stripe is dark while the table just behind the foot is not: a shadow (pointing the
light's way, not the camera's) does not fit that template.

The foot is then fitted to the blob's outline: seen from the camera and drawn on the table
plane, a post is the convex hull of its foot circle and of its top circle (seen displaced
outward and a little larger, :meth:`CameraGeometry.seen_at`). Edges are measured to a fraction
of a pixel along the normals of that outline (the near half of the foot circle, the two long
sides, the far half of the top) and the foot moved until the outline fits them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.detections import Detections
from vision.prepare import Prepared
from vision.sampling import bilinear
from vision.topview import TopView


@dataclass(frozen=True)
class PostConfig:
    """Attributes:
    radius_mm: The post's radius.
    height_mm: The post's height.
    black_level: Level (table = 100) where darkness starts to count (below: a shadow's).
    contrast: Levels below ``black_level`` at which a pixel counts as fully dark.
    min_score: Least template score (dark stripe minus dark behind) of a post.
    beyond_weight: Weight of the penalty for darkness beyond the post's top end.
    max_core_level: A post's darkest tenth is below this level (table = 100): black, not shade.
    border_mm: Blobs this close to the edge of the view are left out (vignetting).
    max_points: Candidate feet tried per blob (the blob's pixels, thinned to this many).
    min_edge: Least rise of the level (table = 100) per pixel across an edge of the outline.
    fit_steps: Most steps of the outline fit.
    """

    radius_mm: float = 5.0
    height_mm: float = 40.0
    black_level: float = 75.0
    contrast: float = 35.0
    min_score: float = 0.67
    beyond_weight: float = 0.0
    max_core_level: float = 60.0
    border_mm: float = 15.0
    max_points: int = 120
    min_edge: float = 6.0
    fit_steps: int = 4


_INNER: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}


def _inner(valid: np.ndarray, k: int) -> np.ndarray:
    """``valid`` eroded by a k x k square, kept while the same array is passed again."""
    hit = _INNER.get((id(valid), k))
    if hit is not None and hit[0] is valid:
        return hit[1]
    if len(_INNER) > 8:
        _INNER.clear()
    inner = cv2.erode(valid, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    _INNER[(id(valid), k)] = (valid, inner)  # holds ``valid``, so its id stays unique
    return inner


def detect_posts(cfg: PostConfig, prep: Prepared, exclude: np.ndarray | None = None
                 ) -> Detections:
    """Finds the posts in a prepared frame (their feet, in mm)."""
    view = prep.view
    s = view.px_per_mm
    r = cfg.radius_mm * s
    dark = prep.dark if exclude is None else cv2.bitwise_and(prep.dark, cv2.bitwise_not(exclude))
    kb = max(3, int(cfg.border_mm * s) | 1)
    dark = cv2.bitwise_and(dark, _inner(prep.valid, kb))
    contours, _ = cv2.findContours(dark, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    lut = np.clip((cfg.black_level - np.arange(256, dtype=np.float32)) / cfg.contrast, 0.0, 1.0)
    h, w = dark.shape
    cam = view.camera
    lean = cfg.height_mm / max(cam.height_mm - cfg.height_mm, 1.0)
    min_area, max_area = 0.5 * math.pi * r * r, 40 * math.pi * r * r
    feet, scores = [], []
    for c in contours:
        x0, y0, bw, bh = cv2.boundingRect(c)
        if bw * bh < min_area or cv2.contourArea(c) > max_area:
            continue
        blob = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(blob, [c], -1, 255, cv2.FILLED, offset=(-x0, -y0))
        blob = cv2.bitwise_and(blob, dark[y0:y0 + bh, x0:x0 + bw])
        ys, xs = np.nonzero(blob)
        if len(xs) < min_area or len(xs) > max_area:
            continue
        lv = prep.level[y0:y0 + bh, x0:x0 + bw][ys, xs]
        if np.partition(lv, len(lv) // 10)[len(lv) // 10] > cfg.max_core_level:
            continue
        # the template reads darkness in the blob's rectangle and a margin round it
        mid = view.to_mm(np.array([[x0 + bw / 2, y0 + bh / 2]]))[0]
        pad = math.ceil(r + 5.0 * s + lean * s * float(np.hypot(*(mid - cam.nadir_mm)))) + 2
        xa, ya = max(0, x0 - pad), max(0, y0 - pad)
        xb, yb = min(w, x0 + bw + pad), min(h, y0 + bh + pad)
        soft = lut[prep.level[ya:yb, xa:xb]]
        origin = np.array([xa, ya], float)
        pts = np.c_[xs + x0 - xa, ys + y0 - ya].astype(float)
        if len(pts) > cfg.max_points:
            pts = pts[:: len(pts) // cfg.max_points + 1]
        sc = _scores(cfg, soft, view, pts, origin)
        best = int(np.argmax(sc))
        score, p = float(sc[best]), pts[best] + origin
        if score < cfg.min_score:
            continue
        feet.append(fit_foot(cfg, prep.level, view, p))
        scores.append(score)
    if not feet:
        return Detections.empty()
    foot_mm = view.to_mm(np.array(feet))
    return Detections.of(foot_mm, ["post"] * len(feet), confidence=np.clip(scores, 0, 1))


def post_outline(cfg: PostConfig, view: TopView, foot_px: np.ndarray, step_px: float = 1.5
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Points along the outline of a post standing at ``foot_px``, as the view shows it.

    The outline is the convex hull of the foot circle and the top circle (seen ``k`` times
    farther from the nadir and ``k`` times larger, ``k = H / (H - height)``). Only the parts
    whose edge the table shows are given: the near half of the foot circle (``part`` 0), the
    two long sides where the top does not cover them (1) and the far half of the top circle
    (2).

    Returns:
        points (M, 2), outward unit normals (M, 2), how far each point moves when the foot
        moves by one pixel (M,: 1 on the foot circle, ``k`` on the top circle), and the part
        of each point (M,).
    """
    cam, s = view.camera, view.px_per_mm
    r = cfg.radius_mm * s
    k = cam.height_mm / max(cam.height_mm - cfg.height_mm, 1.0)
    big_r = r * k
    f = np.asarray(foot_px, float).reshape(2)
    nadir = view.to_px(cam.nadir_mm[None])[0]
    top = nadir + (f - nadir) * k
    d = float(np.hypot(*(top - f)))
    u = (top - f) / d if d > 1e-6 else np.array([1.0, 0.0])
    v = np.array([-u[1], u[0]])
    # the sides touch both circles where the normal n has n.u = -(R - r) / d
    th_t = math.acos(max(-1.0, min(1.0, -(big_r - r) / d))) if d > 1e-6 else math.pi / 2

    def normals(th: np.ndarray) -> np.ndarray:
        return -np.cos(th)[:, None] * u + np.sin(th)[:, None] * v

    na = max(5, int(2 * th_t * r / step_px) | 1)
    n_a = normals(np.linspace(-th_t, th_t, na))
    nc = max(5, int(2 * (math.pi - th_t) * big_r / step_px) | 1)
    n_c = normals(np.linspace(th_t, 2 * math.pi - th_t, nc))
    pts, nrm, jac, part = [f + r * n_a, top + big_r * n_c], [n_a, n_c], \
        [np.ones(na), np.full(nc, k)], [np.zeros(na, int), np.full(nc, 2)]
    lam_max = 1.0 - (big_r + 1.0) / max(d, 1e-6)  # the sides' points short of the top
    if lam_max > 0:
        lam = np.linspace(0.0, lam_max, max(1, int(lam_max * d / step_px)) + 1)[1:]
        for sg in (-1.0, 1.0):
            n1 = normals(np.array([sg * th_t]))[0]
            pts.append((1 - lam)[:, None] * (f + r * n1) + lam[:, None] * (top + big_r * n1))
            nrm.append(np.repeat(n1[None], len(lam), axis=0))
            jac.append((1 - lam) + lam * k)
            part.append(np.ones(len(lam), int))
    return np.concatenate(pts), np.concatenate(nrm), np.concatenate(jac), np.concatenate(part)


def edge_offsets(level: np.ndarray, points: np.ndarray, normals: np.ndarray, half_px: float,
                 min_rise: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where the level rises most steeply, dark to light, along each normal (subpixel).

    Each profile runs ``half_px`` either side of its point. Returns the offsets along the
    normals (M,), the rise per pixel there (M,), and whether an edge was found (M,): the
    steepest rise is inside the profile and at least ``min_rise``.
    """
    ts = np.arange(-half_px, half_px + 1e-9, 0.5)
    prof = bilinear(level, points[:, None] + ts[None, :, None] * normals[:, None])
    g = prof[:, 2:] - prof[:, :-2]  # rise per pixel, at ts[1:-1]
    j = np.argmax(g, axis=1)
    rows = np.arange(len(points))
    jj = np.clip(j, 1, g.shape[1] - 2)
    a, b, c = g[rows, jj - 1], g[rows, jj], g[rows, jj + 1]
    den = a - 2 * b + c
    off = np.clip(0.5 * (a - c) / np.where(den < -1e-9, den, -np.inf), -0.5, 0.5)
    strength = g[rows, j]
    ok = (strength >= min_rise) & (j > 0) & (j < g.shape[1] - 1)
    return ts[1:-1][jj] + 0.5 * off, strength, ok


def fit_foot(cfg: PostConfig, level: np.ndarray, view: TopView, foot_px: np.ndarray
             ) -> np.ndarray:
    """The foot (view pixels) whose outline (:func:`post_outline`) fits the edges best.

    Gauss-Newton steps on the foot and a common change of the radius (blur and the light
    make a post look a little thinner or fatter than it is: the two sides and the near and
    far ends then move apart alike), each edge weighted by its strength and robustly (edges
    of a shadow or a neighbour that do not fit count less).
    """
    s = view.px_per_mm
    r = cfg.radius_mm * s
    f = np.asarray(foot_px, float).reshape(2).copy()
    for step in range(cfg.fit_steps):
        pts, nrm, jac, _ = post_outline(cfg, view, f)
        half = max(3.0, 0.6 * r) if step == 0 else 3.0
        off, strength, ok = edge_offsets(level, pts, nrm, half, cfg.min_edge)
        if ok.sum() < 4:
            break
        a = np.c_[nrm[ok] * jac[ok, None], np.ones(int(ok.sum()))]
        y = off[ok]
        w0 = strength[ok]
        wgt = w0
        for _ in range(3):
            m = (a * wgt[:, None]).T @ a + 1e-2 * wgt.sum() * np.eye(3)
            delta = np.linalg.solve(m, (a * wgt[:, None]).T @ y)
            res = a @ delta - y
            wgt = w0 / (1.0 + (res / 0.7) ** 2)
        f += delta[:2]
        if float(np.hypot(*delta[:2])) < 0.05:
            break
    return f


def _scores(cfg: PostConfig, soft: np.ndarray, view: TopView, p_px: np.ndarray,
            origin: np.ndarray) -> np.ndarray:
    """Template score of a post standing at each of the points ``p_px`` (M, 2) of ``soft``,
    a window of the view whose top left corner is the view point ``origin``."""
    cam, s = view.camera, view.px_per_mm
    r = cfg.radius_mm * s
    mm = view.to_mm(p_px + origin)
    dist = np.linalg.norm(mm - cam.nadir_mm, axis=1)
    length = dist * cfg.height_mm / max(cam.height_mm - cfg.height_mm, 1.0) * s
    u = cam.outward(mm)
    if view.flip_y:
        u[:, 1] = -u[:, 1]
    v = np.c_[-u[:, 1], u[:, 0]]
    t_hi = np.maximum(-0.3 * r, length - 1.2 * r)
    ts = -0.6 * r + (t_hi + 0.6 * r)[:, None] * np.linspace(0.0, 1.0, 8)[None]  # (M, 8)
    qs = np.array([-0.45, 0.0, 0.45]) * r
    along = np.repeat(ts, 3, axis=1)  # (M, 24)
    across = np.tile(qs, 8)[None].repeat(len(p_px), axis=0)
    stripe = p_px[:, None] + along[..., None] * u[:, None] + across[..., None] * v[:, None]
    b_along = np.array([-(r + 2.5 * s)] * 3 + [-(r + 4.5 * s)] * 3)
    b_across = np.array([-0.6, 0.0, 0.6] * 2) * r
    behind = (p_px[:, None] + b_along[None, :, None] * u[:, None]
              + b_across[None, :, None] * v[:, None])
    score = bilinear(soft, stripe).mean(axis=1) - bilinear(soft, behind).mean(axis=1)
    if cfg.beyond_weight:
        # beyond the top end: the table, or the post's pale cap; not dark either way
        beyond = (p_px[:, None] + (length[:, None, None] + r + 3.0 * s) * u[:, None]
                  + b_across[None, :3, None] * v[:, None])
        score -= cfg.beyond_weight * bilinear(soft, beyond).mean(axis=1)
    return score
