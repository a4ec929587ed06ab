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
from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.model import Calibration
from vision.blobs import blobs
from vision.coins import CoinConfig, _disc_offsets, far_edge_centres
from vision.detections import Detections
from vision.namer import Namer, kind_probabilities
from vision.prepare import Prepared
from vision.suits import classify_ink, symbol_colours
from vision.tile_faces import read_tile_faces
from vision.tile_judge import seen_as_tiles
from vision.tiles import TileConfig, _Block, refine_block
from vision.topview import TopView


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
                   margin_mm: float, reach_mm: Mapping[str, float] | None = None) -> np.ndarray:
    """uint8 mask of the view where the found pieces lie (their seen tops), a margin around;
    a piece of another kind than tile or coin reaches ``reach_mm[kind]`` from its centre (a
    Jungle token, a Worm Up! segment), 6 mm (a post) where not given."""
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
            reach = (reach_mm or {}).get(str(k), 6.0)
            cv2.circle(mask, (round(c[0]), round(c[1])), round((reach + margin_mm) * s), 255,
                       -1)
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


def _finer(namer: Namer, frame_bgr: np.ndarray, calibration: Calibration, view: TopView,
           rough_px: np.ndarray, step: float, kind: str) -> np.ndarray:
    """Each rough peak moved to the best of a 3x3 grid a third of a step apart around it
    (a coin's rim fit wants a start within a few millimetres of its centre)."""
    o = np.array([(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1)], float) * step / 3
    cand = (rough_px[:, None, :] + o[None]).reshape(-1, 2)
    pk = kind_probabilities(namer.probabilities(frame_bgr, calibration, view.to_mm(cand)))[kind]
    best = pk.reshape(len(rough_px), len(o)).argmax(axis=1)
    return cand.reshape(len(rough_px), len(o), 2)[np.arange(len(rough_px)), best]


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
    parts = [b for b in blobs(free, math.floor(least)) if b.area >= least]
    if not parts:
        return Detections.empty()
    # the grid is as fine as the point budget allows over all the unexplained area
    area = float(sum(b.area for b in parts))
    step = max(1.0, cfg.step_mm * s, math.sqrt(area / cfg.max_points))
    pts_px: list[np.ndarray] = []
    for b in parts:
        own, x0, y0 = b.mask()
        ys, xs = np.mgrid[step / 2:own.shape[0]:step, step / 2:own.shape[1]:step]
        ys, xs = ys.ravel(), xs.ravel()
        on = own[ys.astype(int), xs.astype(int)] > 0
        pts_px.append(np.column_stack([xs[on] + x0, ys[on] + y0]).astype(float))
    pts = np.concatenate(pts_px)
    if not len(pts):
        return Detections.empty()
    pts = pts[:2 * cfg.max_points]
    p = namer.probabilities(frame_bgr, calibration, view.to_mm(pts))
    kp = kind_probabilities(p)
    found_c: list[np.ndarray] = []
    found_t: list[_Block] = []
    if "coin" in kinds:
        rough = pts[_peaks(pts, kp["coin"], cfg.seen, 1.6 * r_coin)]
        if len(rough):
            rough = _finer(namer, frame_bgr, calibration, view, rough, step, "coin")
            fine = far_edge_centres(prep.shade, rough, view.outward_px(rough), r_coin, 1.0)
            found_c = [f for f in fine if np.all(np.isfinite(f))]
    if "tile" in kinds:
        for i in _peaks(pts, kp["tile"], cfg.seen, 0.8 * side):
            ang = _tile_angle_px(prep.shade, pts[i], side)
            if ang is None:
                continue
            block = _Block((float(pts[i][0]), float(pts[i][1])), ang, 1, 1, side)
            fine = refine_block(prep.shade, prep.bright, block, side,
                                view.outward_px(pts[i][None])[0], tiles.gap_mm * s)
            if fine is not None:
                found_t.append(fine)
    return read_found(namer, frame_bgr, calibration, prep, found_c, found_t, coins, tiles,
                      cfg.seen)


def read_found(namer: Namer, frame_bgr: np.ndarray, calibration: Calibration, prep: Prepared,
               found_c: list[np.ndarray], found_t: list[_Block], coins: CoinConfig,
               tiles: TileConfig, seen: float, top: np.ndarray | None = None) -> Detections:
    """Fitted coins (their top faces' centres, view pixels) and tiles, as detections: each
    kept where the namer gives its kind at least ``seen`` at its foot (a tile also where the
    tile judge is sure of it: :func:`vision.tile_judge.seen_as_tiles`), its suit (and a
    tile's face) read as the stages read theirs (from ``top``, or the prepared view's)."""
    view = prep.view
    s = view.px_per_mm
    r_coin = coins.radius_mm * s
    side = tiles.side_mm * s
    cam = view.camera
    top = prep.top if top is None else top
    parts: list[Detections] = []
    if found_c:  # named by the namer, read as the coin stage reads its coins
        top_px = np.array(found_c)
        seen_mm = view.to_mm(top_px)
        foot_mm = cam.foot_of(seen_mm, coins.thickness_mm)
        pc = kind_probabilities(namer.probabilities(frame_bgr, calibration, foot_mm))["coin"]
        keep = np.flatnonzero(pc >= seen)
        inks = dict(coins.suit_inks)
        suits, confs = [], []
        for rel, _ in symbol_colours(top, np.rint(top_px[keep]).astype(int),
                                     _disc_offsets(0.8 * r_coin)):
            suit, conf = (None, 0.0) if rel is None else classify_ink(rel, inks)
            suits.append(suit)
            confs.append(min(conf, 1.0))
        parts.append(Detections.of(foot_mm[keep], ["coin"] * len(keep), confidence=confs,
                                   seen_mm=seen_mm[keep], suit=suits))
    if found_t:
        seen_mm = view.to_mm(np.array([b.centre_px for b in found_t]))
        foot_mm = cam.foot_of(seen_mm, tiles.thickness_mm)
        pt = kind_probabilities(namer.probabilities(frame_bgr, calibration, foot_mm))["tile"]
        votes = np.array([b.vote for b in found_t])
        keep = np.flatnonzero(seen_as_tiles(tiles.judge, pt, votes, seen))
        kept = [found_t[i] for i in keep]
        top_px = view.to_px(cam.seen_at(foot_mm[keep], tiles.thickness_mm))
        read = read_tile_faces(top, top_px, [b.angle_px for b in kept], side,
                               dict(tiles.suit_inks), tiles.back_contrast)
        parts.append(Detections.of(
            foot_mm[keep], ["tile"] * len(keep), confidence=[c for _, _, c in read],
            seen_mm=seen_mm[keep], suit=[sv for _, sv, _ in read],
            angle_deg=[float(view.angle_to_mm(b.angle_px)) % 90.0 for b in kept],
            face=[f for f, _, _ in read]))
    return Detections.merge(parts)
