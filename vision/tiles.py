"""Tiles: pale squares of a known size, face up (a suit symbol) or down (the back's grid).

A blob of the bright mask is opened with a disc wider than a coin, so touching coins fall
away and only tiles stay. Tiles laid edge to edge (a board of 2x3 tiles) make one rectangle
whose sides are whole multiples of the tile: it is cut into that grid. The face is read from a
square patch of each tile: a back shows dark lines across the middle of all four sides, a face
shows one coloured symbol in the centre.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.detections import Detections
from vision.prepare import Prepared, fill_holes
from vision.suits import classify_ink, symbol_colour

PATCH_PX = 48
"""Side of the canonical patch a tile's face is read from."""


@dataclass(frozen=True)
class TileConfig:
    """Attributes:
    side_mm: The tile's side.
    thickness_mm: The tile's thickness.
    seen_height: Where in the tile's height its seen outline centres (0 base, 1 top face).
    close_mm: Gaps up to this wide inside a tile (a back's grid lines on a pale table) close.
    open_mm: Diameter of the opening that removes coins from tile blobs.
    min_fill: Share of its rectangle a blob of tiles must fill.
    side_tolerance: How far (share of a side) a blob's side may be from a whole number of tiles.
    back_contrast: How much darker the middle lines of a back are than its quadrants.
    suit_inks: Suit name -> 8-bit RGB of its ink.
    """

    side_mm: float = 50.8
    thickness_mm: float = 4.8
    seen_height: float = 1.0
    close_mm: float = 6.0
    open_mm: float = 26.0
    min_fill: float = 0.85
    side_tolerance: float = 0.3
    back_contrast: float = 0.05
    suit_inks: tuple[tuple[str, tuple[int, int, int]], ...] = (
        ("suns", (213, 94, 0)), ("moons", (0, 0, 0)), ("crowns", (0, 158, 115)),
        ("arms", (0, 114, 178)))


@dataclass(frozen=True)
class _Tile:
    centre_px: tuple[float, float]
    angle_px: float  # degrees, direction of one side in the view
    side_px: float


def _tiles_in_blob(cfg: TileConfig, blob: np.ndarray, side_px: float) -> list[_Tile]:
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out = []
    for c in contours:
        area = cv2.contourArea(c)
        if area < 0.5 * side_px * side_px:
            continue
        (cx, cy), (rw, rh), ang = cv2.minAreaRect(c)
        nx, ny = max(1, round(rw / side_px)), max(1, round(rh / side_px))
        if (abs(rw - nx * side_px) > cfg.side_tolerance * side_px
                or abs(rh - ny * side_px) > cfg.side_tolerance * side_px):
            continue
        if area < cfg.min_fill * rw * rh:
            continue
        t = math.radians(ang)
        ex, ey = np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])
        sx, sy = rw / nx, rh / ny
        for i in range(nx):
            for j in range(ny):
                p = np.array([cx, cy]) + (i - (nx - 1) / 2) * sx * ex + (j - (ny - 1) / 2) * sy * ey
                out.append(_Tile((float(p[0]), float(p[1])), float(ang), float((sx + sy) / 2)))
    return out


def refine_tile(shade: np.ndarray, bright: np.ndarray, centre: np.ndarray, angle_deg: float,
                side: float, away: np.ndarray) -> tuple[np.ndarray, float] | None:
    """The top face's centre and angle from its edges facing away from the camera, subpixel.

    Edges turned towards the camera show the side wall and are left out, and so are edges
    shared with a touching tile. Along each kept edge, brightness profiles across it give
    edge points; a square of the known side is fitted to them (centre and angle).

    Returns:
        ``(centre_px, angle_deg)`` or None when the edges cannot be measured.
    """
    th = math.radians(angle_deg)
    inner = _bilinear(shade, centre[None] + np.array([[0.3, 0.3], [-0.3, 0.3], [0.3, -0.3],
                                                      [-0.3, -0.3]]) * side)
    body = float(np.median(inner))
    if body < 1.04:
        return None
    starts, normals, ks = [], [], []
    for k in range(4):
        a = th + k * math.pi / 2
        n = np.array([math.cos(a), math.sin(a)])
        if float(n @ away) < -0.3:
            continue
        t = np.array([-n[1], n[0]])
        beyond = centre + n * (side / 2 + 0.12 * side)
        bx, by = round(beyond[0]), round(beyond[1])
        if 0 <= by < bright.shape[0] and 0 <= bx < bright.shape[1] and bright[by, bx]:
            continue  # a neighbour lies against this edge
        for q in np.linspace(-0.38, 0.38, 9):
            starts.append(centre + t * q * side)
            normals.append(n)
            ks.append(k)
    if len(starts) < 8:
        return None
    p0, nn = np.array(starts), np.array(normals)
    ts = np.arange(0.7 * side, 0.3 * side, -0.25)  # from outside in
    prof = _bilinear(shade, p0[:, None] + ts[None, :, None] * nn[:, None])
    mid = (body + 1.0) / 2.0
    above = prof >= mid
    first = np.argmax(above, axis=1)
    ok = above.any(axis=1) & (first > 0)
    rows = np.nonzero(ok)[0]
    j = first[rows]
    a_, b_ = prof[rows, j - 1], prof[rows, j]
    d = ts[j - 1] - (mid - a_) / np.maximum(b_ - a_, 1e-6) * 0.25
    good = np.abs(d - side / 2) < 0.12 * side
    obs = [(ks[r], p0[r] + dd * nn[r]) for r, dd, g in zip(rows, d, good, strict=True) if g]
    if len(obs) < 8 or len({k for k, _ in obs}) < 2:
        return None
    c, a = centre.astype(float), th
    for _round in range(3):  # fit, drop outliers (a chipped edge, a coin against it), refit
        c, a, res = _fit_square(obs, c, a, side)
        keep = np.abs(res) <= max(0.75, 3.0 * float(np.median(np.abs(res))))
        if keep.all():
            break
        obs = [o for o, k in zip(obs, keep, strict=True) if k]
        if len(obs) < 8 or len({k for k, _ in obs}) < 2:
            return None
    if float(np.hypot(*(c - centre))) > 0.15 * side or abs(math.degrees(a - th)) > 5:
        return None
    return c, math.degrees(a)


def _fit_square(obs: list[tuple[int, np.ndarray]], c: np.ndarray, a: float, side: float
                ) -> tuple[np.ndarray, float, np.ndarray]:
    """Gauss-Newton fit of a square's centre and angle to points on its edges."""
    res = np.zeros(len(obs))
    for _ in range(10):
        J, r = [], []
        for k, p in obs:
            ak = a + k * math.pi / 2
            n = np.array([math.cos(ak), math.sin(ak)])
            dn = np.array([-math.sin(ak), math.cos(ak)])
            r.append(float(n @ (p - c)) - side / 2)
            J.append([-n[0], -n[1], float(dn @ (p - c))])
        res = np.array(r)
        step, *_ = np.linalg.lstsq(np.array(J), -res, rcond=None)
        c, a = c + step[:2], a + step[2]
        if abs(step[0]) + abs(step[1]) < 1e-3 and abs(step[2]) < 1e-5:
            break
    return c, a, res


def _bilinear(img: np.ndarray, xy: np.ndarray) -> np.ndarray:
    h, w = img.shape
    x = np.clip(xy[..., 0], 0, w - 1.001)
    y = np.clip(xy[..., 1], 0, h - 1.001)
    x0, y0 = np.floor(x).astype(int), np.floor(y).astype(int)
    fx, fy = x - x0, y - y0
    return (img[y0, x0] * (1 - fx) * (1 - fy) + img[y0, x0 + 1] * fx * (1 - fy)
            + img[y0 + 1, x0] * (1 - fx) * fy + img[y0 + 1, x0 + 1] * fx * fy)


def _read_face(cfg: TileConfig, top: np.ndarray, centre_px: np.ndarray, angle_px: float,
               side_px: float, inks: dict[str, tuple[int, int, int]]
               ) -> tuple[str, str | None, float]:
    """(face, suit, confidence) from the tile's square patch."""
    scale = PATCH_PX / side_px
    M = cv2.getRotationMatrix2D((float(centre_px[0]), float(centre_px[1])), angle_px, scale)
    M[:, 2] += np.array([PATCH_PX / 2, PATCH_PX / 2]) - centre_px
    patch = cv2.warpAffine(top, M, (PATCH_PX, PATCH_PX), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)
    # darkness in the largest channel: a back's black lines are dark, a red or green symbol
    # keeps one bright channel
    lum = patch.astype(np.float32).max(axis=2)
    inner = lum[4:-4, 4:-4]
    body = float(np.percentile(inner, 80))
    dark = np.clip(1.0 - lum / max(body, 1.0), 0.0, 1.0)
    c, q = PATCH_PX // 2, int(PATCH_PX * 0.3)
    arms = []
    for dx, dy in ((q, 0), (-q, 0), (0, q), (0, -q)):
        x, y = c + dx, c + dy
        if dx:  # on the line y = c: look across it
            win = dark[y - 4:y + 4, x - 2:x + 2]
        else:
            win = dark[y - 2:y + 2, x - 4:x + 4]
        arms.append(float(win.max(axis=0 if dx else 1).mean()))
    # the same statistic (largest across an 8-pixel window) where a back is blank
    quads = [float(dark[c + dy - 4:c + dy + 4, c + dx - 2:c + dx + 2].max(axis=0).mean())
             for dx in (-q, q) for dy in (-q, q)]
    back = min(arms) - max(quads)
    if back > cfg.back_contrast:
        return "down", None, float(np.clip(0.5 + back, 0.0, 1.0))
    yy, xx = np.mgrid[0:PATCH_PX, 0:PATCH_PX]
    region = (xx - c + 0.5) ** 2 + (yy - c + 0.5) ** 2 <= (0.4 * PATCH_PX) ** 2
    rel, _ = symbol_colour(patch, region)
    if rel is None:
        return "up", None, 0.0
    suit, conf = classify_ink(rel, inks)
    return "up", suit, conf


def detect_tiles(cfg: TileConfig, prep: Prepared) -> tuple[Detections, np.ndarray]:
    """Finds the tiles in a prepared frame.

    Returns:
        ``(detections, mask)``: one row per tile (foot centre, angle in [0, 90) in table
        terms, face, suit) and a uint8 mask of the tiles' area, for later stages to leave out.
    """
    s = prep.view.px_per_mm
    side = cfg.side_mm * s
    kc = max(3, round(cfg.close_mm * s) | 1)
    closed = cv2.morphologyEx(prep.bright, cv2.MORPH_CLOSE,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kc, kc)))
    closed = fill_holes(closed)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8)
    k = max(3, int(cfg.open_mm * s) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    h, w = prep.bright.shape
    found: list[_Tile] = []
    for i in range(1, n):
        x0, y0, bw, bh, area = stats[i]
        if area < 0.5 * side * side:
            continue
        pad = k
        xa, ya = max(0, x0 - pad), max(0, y0 - pad)
        xb, yb = min(w, x0 + bw + pad), min(h, y0 + bh + pad)
        blob = np.where(labels[ya:yb, xa:xb] == i, 255, 0).astype(np.uint8)
        opened = cv2.morphologyEx(blob, cv2.MORPH_OPEN, kernel)
        for t in _tiles_in_blob(cfg, opened, side):
            found.append(_Tile((t.centre_px[0] + xa, t.centre_px[1] + ya), t.angle_px,
                               t.side_px))
    mask = np.zeros((h, w), np.uint8)
    if not found:
        return Detections.empty(), mask
    inks = dict(cfg.suit_inks)
    cam = prep.view.camera
    rough_mm = prep.view.to_mm(np.array([t.centre_px for t in found]))
    away = cam.outward(rough_mm)
    if prep.view.flip_y:
        away[:, 1] = -away[:, 1]
    z = np.full(len(found), cfg.seen_height * cfg.thickness_mm)
    for i, t in enumerate(found):
        fine = refine_tile(prep.shade, closed, np.array(t.centre_px), t.angle_px,
                           cfg.side_mm * s, away[i])
        if fine is not None:
            found[i] = _Tile((float(fine[0][0]), float(fine[0][1])), fine[1], t.side_px)
            z[i] = cfg.thickness_mm
    seen_mm = prep.view.to_mm(np.array([t.centre_px for t in found]))
    foot_mm = cam.foot_of(seen_mm, z)
    top_mm = cam.seen_at(foot_mm, cfg.thickness_mm)
    top_px = prep.view.to_px(top_mm)
    faces, suits, confs, angles = [], [], [], []
    for t, tp in zip(found, top_px, strict=True):
        face, suit, conf = _read_face(cfg, prep.top, tp, t.angle_px, cfg.side_mm * s, inks)
        faces.append(face)
        suits.append(suit)
        confs.append(conf)
        angles.append(float(prep.view.angle_to_mm(t.angle_px)) % 90.0)
        box = cv2.boxPoints(((t.centre_px[0], t.centre_px[1]), (t.side_px + 4, t.side_px + 4),
                             t.angle_px))
        cv2.fillConvexPoly(mask, np.round(box).astype(np.int32), 255)
    return (Detections.of(foot_mm, ["tile"] * len(found), confidence=confs, seen_mm=seen_mm,
                          suit=suits, angle_deg=angles, face=faces), mask)
