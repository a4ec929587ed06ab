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
from vision.sampling import bilinear
from vision.suits import DEFAULT_SUIT_INKS, classify_ink, symbol_colour

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
    gap_mm: The gap left between tiles laid edge to edge.
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
    gap_mm: float = 0.5
    back_contrast: float = 0.01
    suit_inks: tuple[tuple[str, tuple[int, int, int]], ...] = DEFAULT_SUIT_INKS


@dataclass(frozen=True)
class _Block:
    """Tiles laid edge to edge in an nx by ny rectangle (1 by 1: a lone tile), view pixels."""

    centre_px: tuple[float, float]
    angle_px: float  # degrees, direction of the x side in the view
    nx: int
    ny: int
    side_px: float
    pitch_px: tuple[float, float] = (0.0, 0.0)  # tile to tile along x and y (gaps included)

    def tiles(self) -> list[tuple[float, float]]:
        """The centre of each tile of the block."""
        t = math.radians(self.angle_px)
        ex, ey = np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])
        c = np.array(self.centre_px)
        out = []
        for i in range(self.nx):
            for j in range(self.ny):
                px, py = (v if v > 0 else self.side_px for v in self.pitch_px)
                p = c + (i - (self.nx - 1) / 2) * px * ex + (j - (self.ny - 1) / 2) * py * ey
                out.append((float(p[0]), float(p[1])))
        return out


def _blocks_in_blob(cfg: TileConfig, blob: np.ndarray, side_px: float) -> list[_Block]:
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
        out.append(_Block((float(cx), float(cy)), float(ang), nx, ny, side_px,
                          (float(rw / nx), float(rh / ny))))
    return out


def refine_block(shade: np.ndarray, bright: np.ndarray, block: _Block, side: float,
                 away: np.ndarray, gap_px: float = 0.0, again: int = 2) -> _Block | None:
    """The top faces' centre and angle from the edges facing away from the camera, subpixel.

    Edges turned towards the camera show the side wall and are left out, and so are edges
    with another piece against them. Across each kept edge, brightness profiles give edge
    points (searched from outside in, past lines printed near the edge); a rectangle of the
    known size (whole tiles) is fitted to them: centre and angle.

    A block's tiles are taken to lie ``gap_px`` apart (hand-laid tiles leave a fraction of a
    millimetre between them).

    A fit that turns the block by more than a degree (a rough angle from a blob with rounded
    corners: rays near a corner then meet the other side) is tried again from where it ended,
    up to ``again`` times; one turning it by more than 5 degrees is kept only so, and so is
    one whose edge points miss the rectangle by more than 0.75 px (RMS).

    Returns:
        The refined block, or None when its edges cannot be measured.
    """
    th = math.radians(block.angle_px)
    centre = np.array(block.centre_px, float)
    ex, ey = np.array([math.cos(th), math.sin(th)]), np.array([-math.sin(th), math.cos(th)])
    pitch = side + gap_px
    ext = [n_ * side + (n_ - 1) * gap_px for n_ in (block.nx, block.ny)]
    half = (ext[0] / 2, ext[1] / 2)
    g = np.linspace(-0.35, 0.35, 5)
    inner = centre[None] + (g[:, None, None] * 2 * half[0] * ex
                            + g[None, :, None] * 2 * half[1] * ey).reshape(-1, 2)
    body = float(np.percentile(bilinear(shade, inner), 75))
    if body < 1.04:
        return None
    starts, normals, ks = [], [], []
    for k in range(4):
        a = th + k * math.pi / 2
        n = np.array([math.cos(a), math.sin(a)])
        if float(n @ away) < -0.3:
            continue
        t = np.array([-n[1], n[0]])
        h_n, h_t = half[k % 2], half[1 - k % 2]
        for q in np.linspace(-0.9, 0.9, 9 * round(h_t / (side / 2)) // 2 + 1):
            beyond = centre + n * (h_n + 0.12 * side) + t * q * h_t
            bx, by = round(beyond[0]), round(beyond[1])
            if 0 <= by < bright.shape[0] and 0 <= bx < bright.shape[1] and bright[by, bx]:
                continue  # another piece lies against the edge here
            starts.append(centre + t * q * h_t)
            normals.append(n)
            ks.append(k)
    if len(starts) < 8:
        return None
    p0, nn = np.array(starts), np.array(normals)
    hn = np.array([half[k % 2] for k in ks])
    steps = np.arange(0.0, -0.4 * side, -0.25)  # from outside in, relative to h_n + 0.2 side
    ts = hn[:, None] + 0.2 * side + steps[None, :]
    prof = bilinear(shade, p0[:, None] + ts[..., None] * nn[:, None])
    # halfway from the table beside the edge (where brighter than the table's mean: a pale
    # cloth's texture; never lower: a shadow) up to the face, ray by ray
    beside = np.median(prof[:, :max(1, int(0.1 * side / 0.25))], axis=1)
    mid = (body + np.maximum(beside, 1.0))[:, None] / 2.0
    above = prof >= mid
    first = np.argmax(above, axis=1)
    ok = above.any(axis=1) & (first > 0)
    rows = np.nonzero(ok)[0]
    j = first[rows]
    a_, b_, m_ = prof[rows, j - 1], prof[rows, j], mid[rows, 0]
    d = ts[rows, j - 1] - (m_ - a_) / np.maximum(b_ - a_, 1e-6) * 0.25
    good = np.abs(d - hn[rows]) < 0.12 * side
    obs = [(ks[r], p0[r] + dd * nn[r]) for r, dd, g_ in zip(rows, d, good, strict=True) if g_]
    if len(obs) < 8 or len({k for k, _ in obs}) < 2:
        return None
    c, a = centre, th
    for _round in range(3):  # fit, drop outliers (a chipped edge, a coin against it), refit
        c, a, res = _fit_rect(obs, c, a, half)
        keep = np.abs(res) <= max(0.75, 3.0 * float(np.median(np.abs(res))))
        if keep.all():
            break
        obs = [o for o, k in zip(obs, keep, strict=True) if k]
        if len(obs) < 8 or len({k for k, _ in obs}) < 2:
            return None
    turn, shift = abs(math.degrees(a - th)), float(np.hypot(*(c - centre)))
    loose = float(np.sqrt(np.mean(res * res))) > 0.75  # edge points that fit no rectangle
    if again > 0 and turn > 1 and turn <= 15 and shift <= 0.15 * side:
        again_ = refine_block(shade, bright, _Block((float(c[0]), float(c[1])), math.degrees(a),
                                                    block.nx, block.ny, side),
                              side, away, gap_px, again - 1)
        if again_ is not None or turn > 5 or loose:
            return again_
    if shift > 0.15 * side or turn > 5 or loose:
        return None
    return _Block((float(c[0]), float(c[1])), math.degrees(a), block.nx, block.ny, side,
                  (pitch, pitch))


def _fit_rect(obs: list[tuple[int, np.ndarray]], c: np.ndarray, a: float,
              half: tuple[float, float]) -> tuple[np.ndarray, float, np.ndarray]:
    """Gauss-Newton fit of a rectangle's centre and angle to points on its edges."""
    res = np.zeros(len(obs))
    ks = np.array([k for k, _ in obs])
    pts = np.array([p for _, p in obs], float).reshape(-1, 2)
    hk = np.where(ks % 2 == 0, half[0], half[1])
    for _ in range(10):
        ak = a + ks * (math.pi / 2)
        cos, sin = np.cos(ak), np.sin(ak)
        d = pts - c
        res = cos * d[:, 0] + sin * d[:, 1] - hk
        Jm = np.c_[-cos, -sin, -sin * d[:, 0] + cos * d[:, 1]]
        try:  # the normal equations (3 unknowns): far cheaper than lstsq
            step = np.linalg.solve(Jm.T @ Jm, -(Jm.T @ res))
        except np.linalg.LinAlgError:
            step, *_ = np.linalg.lstsq(Jm, -res, rcond=None)
        c, a = c + step[:2], a + step[2]
        if abs(step[0]) + abs(step[1]) < 1e-3 and abs(step[2]) < 1e-5:
            break
    return c, a, res


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
    # the lines are looked for between a face's symbol (out to 0.3 of the side from the
    # centre) and the printed border (0.44): a sun's rays reach 0.3 on all four sides
    c, q, a = PATCH_PX // 2, int(PATCH_PX * 0.3), int(PATCH_PX * 0.38)
    arms = []
    for dx, dy in ((a, 0), (-a, 0), (0, a), (0, -a)):
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
        return "down", None, 0.2  # no symbol at all: a back whose lines did not show
    suit, conf = classify_ink(rel, inks)
    return "up", suit, conf


def _block_mask(b: _Block, shape: tuple[int, ...], margin_px: float) -> np.ndarray:
    m = np.zeros(shape[:2], np.uint8)
    px, py = (v if v > 0 else b.side_px for v in b.pitch_px)
    box = cv2.boxPoints((b.centre_px, ((b.nx - 1) * px + b.side_px + margin_px,
                                       (b.ny - 1) * py + b.side_px + margin_px), b.angle_px))
    cv2.fillConvexPoly(m, np.round(box).astype(np.int32), 255)
    return m


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
    k2 = max(3, int(cfg.open_mm * s / 2) | 1)  # the opening runs at half resolution (speed)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k2, k2))
    h, w = prep.bright.shape
    blocks: list[_Block] = []
    for i in range(1, n):
        x0, y0, bw, bh, area = stats[i]
        if area < 0.5 * side * side:
            continue
        pad = k
        xa, ya = max(0, x0 - pad), max(0, y0 - pad)
        xb, yb = min(w, x0 + bw + pad), min(h, y0 + bh + pad)
        blob = np.where(labels[ya:yb, xa:xb] == i, 255, 0).astype(np.uint8)
        bh2, bw2 = blob.shape
        half = cv2.resize(blob, ((bw2 + 1) // 2, (bh2 + 1) // 2), interpolation=cv2.INTER_AREA)
        half = cv2.morphologyEx(np.where(half > 127, 255, 0).astype(np.uint8), cv2.MORPH_OPEN,
                                kernel)
        opened = cv2.bitwise_and(blob, cv2.resize(half, (bw2, bh2),
                                                  interpolation=cv2.INTER_LINEAR))
        opened = np.where(opened > 127, 255, 0).astype(np.uint8)
        for b in _blocks_in_blob(cfg, opened, side):
            blocks.append(_Block((b.centre_px[0] + xa, b.centre_px[1] + ya), b.angle_px,
                                 b.nx, b.ny, b.side_px, b.pitch_px))
    mask = np.zeros((h, w), np.uint8)
    if not blocks:
        return Detections.empty(), mask
    inks = dict(cfg.suit_inks)
    cam = prep.view.camera
    away = cam.outward(prep.view.to_mm(np.array([b.centre_px for b in blocks])))
    if prep.view.flip_y:
        away[:, 1] = -away[:, 1]
    found: list[tuple[float, float]] = []
    angles_px: list[float] = []
    z: list[float] = []
    for b, u in zip(blocks, away, strict=True):
        others = cv2.bitwise_and(closed, cv2.bitwise_not(_block_mask(b, closed.shape, 2.0)))
        fine = refine_block(prep.shade, others, b, side, u, cfg.gap_mm * s)
        use = fine or b
        for c in use.tiles():
            found.append(c)
            angles_px.append(use.angle_px)
            z.append(cfg.thickness_mm if fine else cfg.seen_height * cfg.thickness_mm)
        cv2.bitwise_or(mask, _block_mask(use, mask.shape, 4.0), dst=mask)
    seen_mm = prep.view.to_mm(np.array(found))
    foot_mm = cam.foot_of(seen_mm, np.array(z))
    top_mm = cam.seen_at(foot_mm, cfg.thickness_mm)
    top_px = prep.view.to_px(top_mm)
    faces, suits, confs, angles = [], [], [], []
    for a_px, tp in zip(angles_px, top_px, strict=True):
        face, suit, conf = _read_face(cfg, prep.top, tp, a_px, side, inks)
        faces.append(face)
        suits.append(suit)
        confs.append(conf)
        angles.append(float(prep.view.angle_to_mm(a_px)) % 90.0)
    return (Detections.of(foot_mm, ["tile"] * len(found), confidence=confs, seen_mm=seen_mm,
                          suit=suits, angle_deg=angles, face=faces), mask)
