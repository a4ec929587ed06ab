"""Pieces the hand-made stages left unexplained, found by the learned namer.

Nearly every piece the hand-made stages miss still stands out from the table in the bright
mask: a worm's coins pressed against tiles, two tiles touching at different angles, a coin
clipped white on felt. What the stages' rules could not cut into pieces is looked at by the
namer: points on a grid over each unexplained part of the mask are named, and where a kind is
clearly seen (a peak of its probability, well above the keep threshold) a piece is proposed.
Its geometry then comes from the same sub-pixel fits the stages use (a coin's far rim, a tile's
edges); a proposal whose edges cannot be fitted is dropped, never guessed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.model import Calibration
from vision.blobs import blobs
from vision.coins import CoinConfig, far_edge_centres
from vision.detections import Detections
from vision.namer import Namer, kind_probabilities
from vision.namer_classes import CLASSES, KIND_OF
from vision.prepare import Prepared
from vision.tiles import TileConfig, _Block, refine_block


@dataclass(frozen=True)
class ProposalConfig:
    """Attributes:
    step_mm: Spacing of the points named over an unexplained part.
    seen: A kind is proposed where the namer gives it at least this probability.
    margin_mm: How far around a found piece its explanation reaches.
    min_coin_share: Unexplained parts smaller than this share of a coin are left alone.
    max_points: At most this many points are named in one frame (cost bound).
    """

    step_mm: float = 4.0
    seen: float = 0.85
    margin_mm: float = 1.5
    min_coin_share: float = 0.5
    max_points: int = 240


def explained_mask(prep: Prepared, dets: Detections, coin_r_mm: float, tile_mm: float,
                   margin_mm: float) -> np.ndarray:
    """uint8 mask of the view where the found pieces lie (their seen tops), a margin around."""
    view = prep.view
    s = view.px_per_mm
    mask = np.zeros(prep.bright.shape, np.uint8)
    if not len(dets):
        return mask
    seen_px = view.to_px(np.asarray(dets.seen_mm, float))
    for k, c, a in zip(dets.kind, seen_px, dets.angle_deg, strict=True):
        if k == "tile":
            # the view's angle from the table's (the flip is its own inverse)
            ang = 0.0 if math.isnan(a) else float(view.angle_to_mm(float(a)))
            side = (tile_mm + 2 * margin_mm) * s
            box = cv2.boxPoints(((float(c[0]), float(c[1])), (side, side), ang))
            cv2.fillConvexPoly(mask, np.round(box).astype(np.int32), 255)
        elif k == "coin":
            cv2.circle(mask, (round(c[0]), round(c[1])), round((coin_r_mm + margin_mm) * s),
                       255, -1)
        else:
            cv2.circle(mask, (round(c[0]), round(c[1])), round((6.0 + margin_mm) * s), 255, -1)
    return mask


def _peaks(points: np.ndarray, score: np.ndarray, least: float, apart: float) -> list[int]:
    """Indices of points whose score is at least ``least`` and highest within ``apart``."""
    order = np.argsort(-score)
    out: list[int] = []
    for i in order:
        if score[i] < least:
            break
        if all(np.hypot(*(points[i] - points[j])) >= apart for j in out):
            out.append(int(i))
    return out


def _tile_angle_px(shade: np.ndarray, centre: np.ndarray, side: float) -> float | None:
    """The direction of a tile's sides near a centre (view degrees), from the gradients'
    orientations folded to 90 degrees."""
    h, w = shade.shape
    r = int(0.75 * side)
    x0, y0 = max(0, int(centre[0]) - r), max(0, int(centre[1]) - r)
    x1, y1 = min(w, int(centre[0]) + r + 1), min(h, int(centre[1]) + r + 1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    win = shade[y0:y1, x0:x1].astype(np.float32)
    gx = cv2.Sobel(win, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(win, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.hypot(gx, gy)
    if mag.max() <= 0:
        return None
    theta = np.arctan2(gy, gx) * 4.0  # a square's four sides as one direction
    z = np.sum(mag * mag * np.exp(1j * theta))
    if abs(z) < 1e-9:
        return None
    return float(np.degrees(np.angle(z) / 4.0)) % 90.0


def propose(namer: Namer, frame_bgr: np.ndarray, calibration: Calibration, prep: Prepared,
            dets: Detections, coins: CoinConfig, tiles: TileConfig, cfg: ProposalConfig,
            kinds: tuple[str, ...]) -> Detections:
    """New coins and tiles where the bright mask is left unexplained by ``dets``."""
    view = prep.view
    s = view.px_per_mm
    r_coin = coins.radius_mm * s
    side = tiles.side_mm * s
    explained = explained_mask(prep, dets, coins.radius_mm, tiles.side_mm, cfg.margin_mm)
    free = cv2.bitwise_and(prep.bright, cv2.bitwise_not(explained))
    k = max(3, round(0.3 * r_coin) | 1)  # slivers beside found pieces are no piece
    free = cv2.morphologyEx(free, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    least = cfg.min_coin_share * math.pi * r_coin * r_coin
    step = max(1.0, cfg.step_mm * s)
    pts_px: list[np.ndarray] = []
    for b in blobs(free, math.floor(least)):
        if b.area < least:
            continue
        own, x0, y0 = b.mask()
        ys, xs = np.mgrid[0:own.shape[0]:step, 0:own.shape[1]:step]
        ys, xs = ys.ravel(), xs.ravel()
        on = own[ys.astype(int), xs.astype(int)] > 0
        pts_px.append(np.column_stack([xs[on] + x0, ys[on] + y0]).astype(float))
    if not pts_px:
        return Detections.empty()
    pts = np.concatenate(pts_px)[:cfg.max_points]
    pts_mm = view.to_mm(pts)
    p = namer.probabilities(frame_bgr, calibration, pts_mm)
    kp = kind_probabilities(p)
    found_c: list[np.ndarray] = []
    found_t: list[_Block] = []
    cam = view.camera
    if "coin" in kinds:
        rough = pts[_peaks(pts, kp["coin"], cfg.seen, 1.6 * r_coin)]
        if len(rough):
            away = cam.outward(view.to_mm(rough))
            if view.flip_y:
                away[:, 1] = -away[:, 1]
            fine = far_edge_centres(prep.shade, rough, away, r_coin, 1.0)
            found_c = [f for f in fine if np.all(np.isfinite(f))]
    if "tile" in kinds:
        closed = prep.bright
        for i in _peaks(pts, kp["tile"], cfg.seen, 0.8 * side):
            ang = _tile_angle_px(prep.shade, pts[i], side)
            if ang is None:
                continue
            u = cam.outward(view.to_mm(pts[i][None]))[0]
            if view.flip_y:
                u[1] = -u[1]
            block = _Block((float(pts[i][0]), float(pts[i][1])), ang, 1, 1, side)
            fine = refine_block(prep.shade, closed, block, side, u, tiles.gap_mm * s)
            if fine is not None:
                found_t.append(fine)
    parts: list[Detections] = []
    if found_c:
        top_px = np.array(found_c)
        seen_mm = view.to_mm(top_px)
        foot_mm = cam.foot_of(seen_mm, coins.thickness_mm)
        q = namer.probabilities(frame_bgr, calibration, foot_mm)
        keep = kind_probabilities(q)["coin"] >= cfg.seen
        cnames = [CLASSES[int(np.argmax(np.where(np.array(KIND_OF) == "coin", row, -1)))]
                  for row in q]
        suits = [None if n == "coin-down" else n.split("-")[1] for n in cnames]
        parts.append(Detections.of(foot_mm[keep], ["coin"] * int(keep.sum()),
                                   confidence=kind_probabilities(q)["coin"][keep],
                                   seen_mm=seen_mm[keep],
                                   suit=[sv for sv, k in zip(suits, keep, strict=True) if k]))
    if found_t:
        seen_mm = view.to_mm(np.array([b.centre_px for b in found_t]))
        foot_mm = cam.foot_of(seen_mm, tiles.thickness_mm)
        q = namer.probabilities(frame_bgr, calibration, foot_mm)
        pt = kind_probabilities(q)["tile"]
        keep = pt >= cfg.seen
        names = [CLASSES[int(np.argmax(np.where(np.array(KIND_OF) == "tile", row, -1)))]
                 for row in q]
        faces = ["down" if n == "tile-down" else "up" for n in names]
        suits = [None if n == "tile-down" else n.split("-")[2] for n in names]
        angles = [float(view.angle_to_mm(b.angle_px)) % 90.0 for b in found_t]
        idx = np.flatnonzero(keep)
        parts.append(Detections.of(foot_mm[idx], ["tile"] * len(idx), confidence=pt[idx],
                                   seen_mm=seen_mm[idx], suit=[suits[i] for i in idx],
                                   angle_deg=np.array(angles)[idx],
                                   face=[faces[i] for i in idx]))
    return Detections.merge(parts)
