"""Posts: dark upright cylinders, reported at their foot.

From a tilted camera a post's side wall lies on the table plane of the view as a dark stripe
from its foot outwards (away from the point below the camera), as long as the camera geometry
says for a post of its height standing there. Each dark blob is searched for the foot whose
predicted stripe is dark while the table just behind the foot is not: a shadow (pointing the
light's way, not the camera's) does not fit that template.
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
    """

    radius_mm: float = 5.0
    height_mm: float = 40.0
    black_level: float = 75.0
    contrast: float = 35.0
    min_score: float = 0.67
    beyond_weight: float = 0.0
    max_core_level: float = 60.0
    border_mm: float = 15.0


def detect_posts(cfg: PostConfig, prep: Prepared, exclude: np.ndarray | None = None
                 ) -> Detections:
    """Finds the posts in a prepared frame (their feet, in mm)."""
    view = prep.view
    s = view.px_per_mm
    r = cfg.radius_mm * s
    dark = prep.dark if exclude is None else cv2.bitwise_and(prep.dark, cv2.bitwise_not(exclude))
    kb = max(3, int(cfg.border_mm * s) | 1)
    inner = cv2.erode(prep.valid, cv2.getStructuringElement(cv2.MORPH_RECT, (kb, kb)))
    dark = cv2.bitwise_and(dark, inner)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    soft = np.clip((cfg.black_level - prep.level.astype(np.float32)) / cfg.contrast, 0.0, 1.0)
    feet, scores = [], []
    min_area = 0.5 * math.pi * r * r
    for i in range(1, n):
        x0, y0, bw, bh, area = stats[i]
        if area < min_area or area > 40 * math.pi * r * r:
            continue
        ys, xs = np.nonzero(labels[y0:y0 + bh, x0:x0 + bw] == i)
        if np.percentile(prep.level[ys + y0, xs + x0], 10) > cfg.max_core_level:
            continue
        pts = np.c_[xs + x0, ys + y0].astype(float)
        if len(pts) > 400:
            pts = pts[:: len(pts) // 400 + 1]
        sc = _scores(cfg, soft, view, pts)
        best = int(np.argmax(sc))
        score, p = float(sc[best]), pts[best]
        if score < cfg.min_score:
            continue
        # refine on a quarter-pixel grid around the best point
        g = np.arange(-4, 5) * 0.25
        grid = p + np.c_[np.repeat(g, len(g)), np.tile(g, len(g))]
        sc = _scores(cfg, soft, view, grid)
        p, score = grid[int(np.argmax(sc))], max(score, float(sc.max()))
        p = _foot_from_near_edge(cfg, soft, view, p)
        feet.append(p)
        scores.append(score)
    if not feet:
        return Detections.empty()
    foot_mm = view.to_mm(np.array(feet))
    return Detections.of(foot_mm, ["post"] * len(feet), confidence=np.clip(scores, 0, 1))


def _foot_from_near_edge(cfg: PostConfig, soft: np.ndarray, view: TopView, p: np.ndarray
                         ) -> np.ndarray:
    """The foot from the inner end of the post's dark body, to a fraction of a pixel.

    Along the post's axis, coming from the camera's side, the first place the darkness
    reaches one half is the near edge of its base; the foot is one radius further in.
    Keeps ``p`` when no such edge is near it.
    """
    s = view.px_per_mm
    r = cfg.radius_mm * s
    u = view.camera.outward(view.to_mm(p[None]))[0]
    if not np.any(u):
        return p
    if view.flip_y:
        u = np.array([u[0], -u[1]])
    v = np.array([-u[1], u[0]])
    ts = np.arange(-3.0 * r, 0.5 * r, 0.25)
    lines = [bilinear(soft, p[None] + ts[:, None] * u[None] + q * r * v[None])
             for q in (-0.3, 0.0, 0.3)]
    prof = np.mean(lines, axis=0)
    hit = np.nonzero(prof >= 0.5)[0]
    if not hit.size or hit[0] == 0:
        return p
    j = int(hit[0])
    a, b = prof[j - 1], prof[j]
    edge = ts[j - 1] + (0.5 - a) / max(b - a, 1e-6) * 0.25
    if abs(edge + r) > 0.8 * r:  # not where a base's edge could be: keep the template's
        return p
    return p + (edge + r) * u


def _scores(cfg: PostConfig, soft: np.ndarray, view: TopView, p_px: np.ndarray) -> np.ndarray:
    """Template score of a post standing at each of the view points ``p_px`` (M, 2)."""
    cam, s = view.camera, view.px_per_mm
    r = cfg.radius_mm * s
    mm = view.to_mm(p_px)
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
    # beyond the top end: the table, or the post's pale cap; not dark either way
    beyond = (p_px[:, None] + (length[:, None, None] + r + 3.0 * s) * u[:, None]
              + b_across[None, :3, None] * v[:, None])
    return (bilinear(soft, stripe).mean(axis=1) - bilinear(soft, behind).mean(axis=1)
            - cfg.beyond_weight * bilinear(soft, beyond).mean(axis=1))
